"""The shape every tournament format shares: entrants, draws, pairings, results, placings.

Terms used across ``tournaments.formats``:

- **Entrant**: a player registered in the tournament, with a rating (FIBS-style) and an
  optional seed the organizer set by hand.
- **Draw**: every pairing of a tournament, known or still pending, grouped into flights and
  rounds. A draw is immutable; recording results gives a new draw.
- **Flight**: one bracket inside a draw. A knockout has one (``main``); double elimination adds
  a losers' flight and a grand final, a consolation or a last chance adds a flight fed by the
  losers of the main one, a Swiss's top cut or a round robin's knockout stage is a ``final``.
- **Round**: the pairings of a flight that can be played at the same time, counted from 0.
- **Pairing**: one match slot, identified by flight, round and position. Each of its two sides
  (``top`` and ``bottom``) is an entrant id, a **bye** (nobody), or a pointer to another
  pairing whose winner (``WinnerOf``) or loser (``LoserOf``) will take the side.
  A side may wait on a last-chance pairing not laid out yet: a fresh last chance is drawn
  only once its players are known (``last_chance``).
- **Bye**: an empty side. An entrant facing a bye advances at once, without a match.
- **Result**: the winner of one pairing, reported when its match ends.
- **Placing**: where an entrant finished. Entrants knocked out in the same round share a
  place range (the two losing semi-finalists are both "3rd-4th").

Formats take and return these frozen values and never touch a database; randomness is passed
in as a ``random.Random``. Errors an organizer can cause (too few entrants, a bad option) raise
``FormatError`` with a message meant for that organizer; a broken invariant (a result for a
pairing that is not ready, a winner who was not playing) raises ``DrawInvariantError`` and is a
bug in the caller, never shown raw to a person.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from accounts.money import money_text


def gettext_noop(text: str) -> str:
    """Marks a sentence for the translators' catalog and leaves it as it is: a format
    refuses in English, and the app translates ``FormatError.sentence`` where it shows it
    (``tournaments.errors.format_refused``), as the formats know no language."""
    return text


@dataclass(frozen=True)
class Cents:
    """An amount of money in a refusal, written as the reader's language writes it."""

    cents: int

    def __str__(self) -> str:
        return money_text(self.cents)


class FormatError(Exception):
    """An organizer asked for a tournament that cannot be run; the message says why.

    ``sentence`` is the message with its named blanks (``%(count)s``), ``values`` fill them:
    ``str()`` gives it in English, ``tournaments.errors.format_refused`` in the reader's
    language."""

    def __init__(self, sentence: str, **values: object) -> None:
        self.sentence = sentence
        self.values = values
        english = {name: _english(value) for name, value in values.items()}
        super().__init__(sentence % english if values else sentence)


def _english(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return value


class DrawInvariantError(RuntimeError):
    """The draw or its caller broke a rule that correct code never breaks."""


class Flight(StrEnum):
    """The brackets a draw can hold: ``main`` (a knockout's only one, double and triple
    elimination's winners' flight, every Swiss or round-robin round), ``losers`` (double
    elimination's second chance, triple elimination's first losers' flight),
    ``second_losers`` (triple elimination's flight of players with two losses),
    ``consolation`` (those who lose early), ``last_chance`` (a one-loss flight whose winner
    re-enters the main one) and ``final`` (double elimination's grand final, triple
    elimination's finals, a Swiss's top cut, a round robin's knockout stage)."""

    MAIN = "main"
    LOSERS = "losers"
    SECOND_LOSERS = "second_losers"
    CONSOLATION = "consolation"
    LAST_CHANCE = "last_chance"
    FINAL = "final"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in the tournament: ``seed`` is set only when the organizer seeds by hand."""

    id: int
    rating: float
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class Bye:
    """Nobody: the side of a pairing that no entrant will fill."""

    def __repr__(self) -> str:
        return "BYE"


BYE = Bye()


@dataclass(frozen=True, slots=True, order=True)
class PairingKey:
    """Where a pairing sits: flight, round (from 0) and position within the round (from 0)."""

    flight: Flight
    round: int
    position: int


@dataclass(frozen=True, slots=True)
class WinnerOf:
    """A side still pending: the winner of another pairing will take it."""

    key: PairingKey


@dataclass(frozen=True, slots=True)
class LoserOf:
    """A side still pending: the loser of another pairing will take it (a losers', consolation
    or last-chance flight, double elimination's reset)."""

    key: PairingKey


Side = int | Bye | WinnerOf | LoserOf


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match slot of the draw; ``winner`` is set once it is decided (at once for a bye)."""

    key: PairingKey
    top: Side
    bottom: Side
    match_length: int
    winner: int | None = None

    @property
    def is_bye(self) -> bool:
        return self.top is BYE or self.bottom is BYE

    @property
    def is_ready(self) -> bool:
        """Both players are known and the match is still to be played."""
        return self.winner is None and isinstance(self.top, int) and isinstance(self.bottom, int)

    @property
    def loser(self) -> int | Bye | None:
        """The player who lost, BYE when the winner had a bye, None while undecided."""
        if self.winner is None:
            return None
        other = self.bottom if self.winner == self.top else self.top
        if isinstance(other, WinnerOf | LoserOf):
            raise DrawInvariantError(f"{self.key} was decided before both sides were known")
        return other


@dataclass(frozen=True, slots=True)
class Result:
    """The winner of one pairing, as reported when its match ends."""

    key: PairingKey
    winner: int


@dataclass(frozen=True, slots=True)
class Placing:
    """An entrant's finish: ``place`` to ``shared_to`` (equal when the place is not shared)."""

    entrant: int
    place: int
    shared_to: int


@dataclass(frozen=True)
class _Layout:
    """What never changes while results come in: where each pairing sits, who feeds whom."""

    index: dict[PairingKey, int]
    dependents: dict[PairingKey, tuple[tuple[int, str], ...]]
    sources: dict[tuple[PairingKey, str], WinnerOf | LoserOf]

    @classmethod
    def of(cls, pairings: Sequence[Pairing]) -> _Layout:
        index = {pairing.key: i for i, pairing in enumerate(pairings)}
        if len(index) != len(pairings):
            raise DrawInvariantError("Two pairings share a key")
        dependents: dict[PairingKey, list[tuple[int, str]]] = {}
        sources: dict[tuple[PairingKey, str], WinnerOf | LoserOf] = {}
        for i, pairing in enumerate(pairings):
            for side_name in ("top", "bottom"):
                side = getattr(pairing, side_name)
                if isinstance(side, WinnerOf | LoserOf):
                    # A fresh last chance is laid out once drawn (``last_chance``): the sides
                    # that wait on it wait on pairings to come.
                    if side.key not in index and side.key.flight is not Flight.LAST_CHANCE:
                        raise DrawInvariantError(f"{pairing.key} waits for unknown {side.key}")
                    dependents.setdefault(side.key, []).append((i, side_name))
                    sources[pairing.key, side_name] = side
        return cls(index, {key: tuple(deps) for key, deps in dependents.items()}, sources)


@dataclass(frozen=True)
class Draw:
    """Every pairing of a tournament, in the order its format laid them out.

    A knockout lists them round by round, the final last. ``_layout`` is passed only by this
    module, to carry the unchanging index from one draw to the next.
    """

    pairings: tuple[Pairing, ...]
    _layout: _Layout | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self._layout is None:
            object.__setattr__(self, "_layout", _Layout.of(self.pairings))

    @property
    def layout(self) -> _Layout:
        assert self._layout is not None  # set in __post_init__
        return self._layout

    def pairing(self, key: PairingKey) -> Pairing:
        try:
            return self.pairings[self.layout.index[key]]
        except KeyError:
            raise DrawInvariantError(f"No pairing {key} in this draw") from None

    def rounds(self, flight: Flight = Flight.MAIN) -> tuple[tuple[Pairing, ...], ...]:
        """The flight's pairings, one tuple per round."""
        rounds: list[list[Pairing]] = []
        for pairing in self.pairings:
            if pairing.key.flight is flight:
                while len(rounds) <= pairing.key.round:
                    rounds.append([])
                rounds[pairing.key.round].append(pairing)
        return tuple(tuple(round_) for round_ in rounds)

    def ready(self) -> tuple[Pairing, ...]:
        """The pairings whose matches can start now."""
        return tuple(pairing for pairing in self.pairings if pairing.is_ready)

    def source(self, key: PairingKey, side_name: str) -> WinnerOf | LoserOf | None:
        """Where the ``side_name`` ("top" or "bottom") of ``key`` takes its player from, as
        the format laid it out (None for a side drawn at the start), even once filled."""
        return self.layout.sources.get((key, side_name))


def entrant_of(side: Side | None) -> int:
    """The entrant holding ``side``, where the caller knows one must (a decided or ready
    pairing's side); anything else is a bug in the caller."""
    if not isinstance(side, int):
        raise DrawInvariantError(f"A pairing holds {side!r} where an entrant belongs")
    return side


def check_match_lengths(match_lengths: Sequence[int], *, required_for: str | None = None) -> None:
    """Refuse a match shorter than 1 point and, when ``required_for`` names what the lengths
    are for ("the Swiss rounds"), an empty list."""
    if required_for is not None and not match_lengths:
        raise FormatError(f"Give at least one match length for {required_for}.")
    for length in match_lengths:
        if length < 1:
            raise FormatError(
                gettext_noop("A match must be at least 1 point long, not %(length)s."),
                length=length,
            )


def placings_by_group(groups: Iterable[Sequence[int]], *, after: int = 0) -> tuple[Placing, ...]:
    """Places for ``groups`` of entrants, best group first, ``after`` places already given:
    a group's entrants share the places it spans, listed in the group's order."""
    placings: list[Placing] = []
    for group in groups:
        first = after + len(placings) + 1
        last = after + len(placings) + len(group)
        placings.extend(Placing(entrant, first, last) for entrant in group)
    return tuple(placings)


def build_draw(pairings: Iterable[Pairing]) -> Draw:
    """A draw from freshly laid-out pairings, with every bye already advanced."""
    draw = Draw(tuple(pairings))
    laid_out = list(draw.pairings)
    byes = [i for i, pairing in enumerate(laid_out) if pairing.winner is None and pairing.is_bye]
    _move_on(laid_out, draw.layout, byes)
    return Draw(tuple(laid_out), draw.layout)


def record_results(draw: Draw, results: Iterable[Result]) -> Draw:
    """The draw with ``results`` recorded and every winner and loser moved on.

    Reporting the same winner twice is harmless, so a retried task does no damage. A result for
    a pairing that is not ready, or naming someone who was not playing, or contradicting an
    earlier result, raises ``DrawInvariantError``.
    """
    layout = draw.layout
    pairings = list(draw.pairings)
    decided: list[int] = []
    for result in results:
        try:
            i = layout.index[result.key]
        except KeyError:
            raise DrawInvariantError(f"No pairing {result.key} in this draw") from None
        pairing = pairings[i]
        if pairing.winner is not None:
            if pairing.winner != result.winner:
                raise DrawInvariantError(
                    f"{result.key} was won by {pairing.winner}, not {result.winner}"
                )
            continue
        if not pairing.is_ready:
            raise DrawInvariantError(f"{result.key} is not ready to be played")
        if result.winner not in (pairing.top, pairing.bottom):
            raise DrawInvariantError(f"{result.winner} is not playing in {result.key}")
        pairings[i] = _decided(pairing, result.winner)
        decided.append(i)
    _move_on(pairings, layout, decided)
    return Draw(tuple(pairings), layout)


def call_off(draw: Draw, key: PairingKey, *, advancing: int) -> Draw:
    """The draw with the match at ``key`` called off: ``advancing`` goes through as if the
    other side were a bye, and the other player loses nothing.

    For a match a format no longer needs, such as double elimination's reset final once the
    unbeaten finalist has won the first. Calling off a decided pairing, or naming someone who
    is not in it, raises ``DrawInvariantError``.
    """
    pairing = draw.pairing(key)
    if pairing.winner is not None:
        raise DrawInvariantError(f"{key} is already decided")
    if advancing == pairing.top:
        called_off = Pairing(key, advancing, BYE, pairing.match_length, advancing)
    elif advancing == pairing.bottom:
        called_off = Pairing(key, BYE, advancing, pairing.match_length, advancing)
    else:
        raise DrawInvariantError(f"{advancing} is not playing in {key}")
    layout = draw.layout
    pairings = list(draw.pairings)
    pairings[layout.index[key]] = called_off
    _move_on(pairings, layout, [layout.index[key]])
    return Draw(tuple(pairings), layout)


def _move_on(pairings: list[Pairing], layout: _Layout, decided: list[int]) -> None:
    """Fill the sides waiting on decided pairings; a side that meets a bye advances too."""
    while decided:
        i = decided.pop()
        pairing = pairings[i]
        if pairing.winner is None:
            bye_winner = _bye_winner(pairing)
            if bye_winner is None:
                continue
            pairing = pairings[i] = _decided(pairing, bye_winner)
        loser = pairing.loser
        assert loser is not None
        for j, side_name in layout.dependents.get(pairing.key, ()):
            waiting = pairings[j]
            side = getattr(waiting, side_name)
            if isinstance(side, WinnerOf):
                filled = _with_side(waiting, side_name, pairing.winner)
            elif isinstance(side, LoserOf):
                filled = _with_side(waiting, side_name, loser)
            else:
                raise DrawInvariantError(f"{waiting.key} was filled twice")
            pairings[j] = filled
            if _bye_winner(filled) is not None:
                decided.append(j)


def _bye_winner(pairing: Pairing) -> int | None:
    if pairing.top is BYE and pairing.bottom is BYE:
        raise DrawInvariantError(f"{pairing.key} has two byes")
    if pairing.top is BYE and isinstance(pairing.bottom, int):
        return pairing.bottom
    if pairing.bottom is BYE and isinstance(pairing.top, int):
        return pairing.top
    return None


def _decided(pairing: Pairing, winner: int) -> Pairing:
    return Pairing(pairing.key, pairing.top, pairing.bottom, pairing.match_length, winner)


def _with_side(pairing: Pairing, side_name: str, entrant: int | Bye | None) -> Pairing:
    if entrant is None:
        raise DrawInvariantError(f"{pairing.key} was filled from an undecided pairing")
    if side_name == "top":
        return Pairing(pairing.key, entrant, pairing.bottom, pairing.match_length)
    return Pairing(pairing.key, pairing.top, entrant, pairing.match_length)


class Format(Protocol):
    """A tournament format, built from its options; every method is pure.

    The scheduler calls ``initial_draw`` once the field is known, starts a match for each of
    ``ready_pairings``, feeds finished matches to ``advance`` and stops when ``is_finished``.
    """

    def initial_draw(self, entrants: Sequence[Entrant], rng: random.Random) -> Draw: ...

    def advance(self, draw: Draw, results: Iterable[Result]) -> Draw: ...

    def ready_pairings(self, draw: Draw) -> tuple[Pairing, ...]: ...

    def is_finished(self, draw: Draw) -> bool: ...

    def placings(self, draw: Draw) -> tuple[Placing, ...]: ...


def play_out(fmt: Format, draw: Draw, choose_winner: Callable[[Pairing], int]) -> Draw:
    """The draw played to the end, one batch of ready pairings at a time.

    ``choose_winner`` decides each match; simulations and benchmarks use it in place of play.
    """
    while not fmt.is_finished(draw):
        ready = fmt.ready_pairings(draw)
        if not ready:
            raise DrawInvariantError("The draw is not finished but nothing can be played")
        draw = fmt.advance(draw, [Result(pairing.key, choose_winner(pairing)) for pairing in ready])
    return draw


def replay(fmt: Format, layout: Sequence[Pairing], played: Iterable[Pairing]) -> Draw:
    """The draw ``fmt`` makes from ``layout`` (its pairings as laid out, nothing decided) when
    the ``played`` pairings end as they say, byes and everything the format does on its own
    (a reset called off, a next round paired) included.

    A played pairing's result is fed once the replayed draw holds the same two players at its
    key; one that never does (a changed result sent someone else there) stays undecided, for
    the caller to compare with what was played. A bracket correction replays the results with
    one of them changed, so the format, not the correction, says what that change moves.
    """
    draw = build_draw(layout)
    waiting = {pairing.key: pairing for pairing in played if pairing.winner is not None}
    while True:
        batch = []
        for pairing in fmt.ready_pairings(draw):
            was = waiting.get(pairing.key)
            if was is not None and (was.top, was.bottom) == (pairing.top, pairing.bottom):
                assert was.winner is not None
                batch.append(Result(pairing.key, was.winner))
                del waiting[pairing.key]
        draw = fmt.advance(draw, batch)
        if not batch:
            return draw
