"""Swing: every entrant starts with the same chips; the last player holding chips wins.

Terms:

- **Chips**: what a player holds in the tournament; they are not money. Every game moves
  chips from its loser to its winner, so the sum of all chips never changes.
- **CPP** (chips per point): what one point is worth in chips. It rises on a schedule of
  **levels** (``CppSchedule``): with every game each player plays, every N minutes, or
  every time a player is knocked out. A game's CPP is fixed when it starts.
- **Round** (``round_of``): on the schedule that rises with every game, a player's round is
  the number of games they have played; their first game is in round 0. A game is played
  at the level of the larger round of its two players, so nobody ever plays a game below
  the level their own games have reached: a player who has played 7 games plays their next
  one at level 7 or higher, whoever the opponent. (The smaller round would let a newcomer
  or a long waiter pull an experienced player back to the opening CPP, and the level would
  no longer rise with every game of the player who has played most.) A level counts each
  player's own games, never the whole field's: in a field of 100, fifty games end in one
  wave and nobody's level rises by more than one.
- **Cap** (``GameTerms.caps``): the most a player can lose in a game: the chips they hold
  when it starts. A game pays points × cube × CPP (a match in match swing its match stake ×
  CPP), never more than the loser's cap. So a richer player who loses pays the full amount,
  and a poorer one who loses pays at most what they hold: at CPP 300 a gammon on a cube of
  4 is 2,400 chips, which a 10,000-chip player pays in full to a 2,000-chip player, while
  the 2,000-chip player losing it pays 2,000.
- **All-in**: a player who starts a game holding fewer chips than the CPP. The game is then
  for the all-in stake both ways: the chips of the all-in player (of the poorer, when both
  are) cap what either player loses, so the all-in player can win only what they put in.
  One point at the game's CPP already reaches that stake, so the cube stays in the middle.
- **Stake** (``GameTerms.stake``): the most a game can move, the larger of the two caps.
- **Cube limit** (``GameTerms.max_cube``): the cube cannot be turned past the smallest power
  of two at which one point already takes both caps (``cube × CPP ≥ stake``). Once there,
  every result pays each loser their whole cap and a double (a pass of one, too) could
  change nothing: there is nothing left to double for. The limit is measured by the
  smallest result, one point, not by the gammon or backgammon a game may end in: a gammon
  reaches the caps at half the cube and a backgammon at a third, but a single game would
  still pay less than the cap, and a double would still change what it pays. The richer
  player's cap sets the limit; the poorer may double past the cube at which they risk
  nothing more, as the richer still does, and the richer may refuse by passing.
- **Out**: a player left with no chips. Places go by the order players went out: the last
  player out is second, the player holding every chip first.
- **Free**: an active player not in a game. The scheduler pairs free players continuously
  (``pair_free``): the player who has waited longest first, with a random opponent, avoiding
  an immediate rematch whenever someone else is free; an odd player out waits.

Pure: no Django; randomness comes in as a ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from tournaments.formats.base import FormatError, gettext_noop

# The gnubg position and match IDs hold the cube's value as a power of two up to 2^15.
LARGEST_CUBE = 1 << 15
MAX_LEVELS = 100
MAX_CPP = 1_000_000_000


class CppRaise(StrEnum):
    """When the CPP moves to its next level."""

    GAME = "game"
    MINUTES = "minutes"
    KNOCKOUT = "knockout"


@dataclass(frozen=True, slots=True)
class CppSchedule:
    """The CPP levels: ``levels`` as listed, then each ``step`` more than the one before
    (with no step, the last level stays)."""

    levels: tuple[int, ...]
    step: int = 0
    raise_on: CppRaise = CppRaise.GAME
    minutes: int | None = None

    def __post_init__(self) -> None:
        if not self.levels or len(self.levels) > MAX_LEVELS:
            raise FormatError(gettext_noop("Give 1 to %(most)s CPP levels."), most=MAX_LEVELS)
        if any(not 1 <= level <= MAX_CPP for level in self.levels):
            raise FormatError(
                gettext_noop("Every CPP level is 1 to %(most)s chips a point."), most=MAX_CPP
            )
        if any(b < a for a, b in zip(self.levels, self.levels[1:], strict=False)):
            raise FormatError(gettext_noop("The CPP levels rise: list them from the smallest."))
        if not 0 <= self.step <= MAX_CPP:
            raise FormatError(
                gettext_noop("The CPP step is 0 to %(most)s chips a point."), most=MAX_CPP
            )
        if self.raise_on is CppRaise.MINUTES and not self.minutes:
            raise FormatError(gettext_noop("Say every how many minutes the CPP rises."))

    def cpp(self, level: int) -> int:
        """The CPP at ``level`` (counted from 0), at most ``MAX_CPP``."""
        if level < len(self.levels):
            return self.levels[level]
        return min(MAX_CPP, self.levels[-1] + (level - len(self.levels) + 1) * self.step)

    def rises_after(self, level: int) -> bool:
        """Whether a level after ``level`` has a higher CPP."""
        return self.cpp(level + 1) > self.cpp(level)

    def level(self, *, games: int, knockouts: int, elapsed: timedelta) -> int:
        """The level reached in round ``games`` (``round_of`` a game's players), after
        ``knockouts`` knockouts, ``elapsed`` after the start: whichever the schedule counts."""
        if self.raise_on is CppRaise.GAME:
            return games
        if self.raise_on is CppRaise.KNOCKOUT:
            return knockouts
        assert self.minutes
        return max(0, int(elapsed // timedelta(minutes=self.minutes)))

    def game_level(self, field_level: int, games: tuple[int, int]) -> int:
        """The level of a game between players who have played ``games`` games: their round
        when the CPP rises with every game, else ``field_level``, the whole field's (its
        knockouts or the clock)."""
        return round_of(games) if self.raise_on is CppRaise.GAME else field_level

    def next_rise(self, level: int, started_at: datetime) -> datetime | None:
        """When the next level comes, on a clock (None unless it rises every N minutes)."""
        if self.raise_on is not CppRaise.MINUTES or not self.rises_after(level):
            return None
        assert self.minutes
        return started_at + timedelta(minutes=self.minutes * (level + 1))


def round_of(games: tuple[int, int]) -> int:
    """The round of a game between players who have played ``games`` games: the larger."""
    return max(games)


# ---------------------------------------------------------------- one game's terms


@dataclass(frozen=True, slots=True)
class GameTerms:
    """What a game between players holding ``chips`` (seat 0's, seat 1's) is played for at
    ``cpp``: ``caps`` what each seat can lose at most, ``stake`` the larger of the two."""

    cpp: int
    caps: tuple[int, int]
    all_in: bool
    max_cube: int

    @property
    def stake(self) -> int:
        return max(self.caps)


def game_terms(cpp: int, chips: tuple[int, int]) -> GameTerms:
    """The caps, the all-in flag and the cube limit of a game starting now."""
    if cpp < 1 or min(chips) < 1:
        raise FormatError("A swing game is played by two players holding chips, at a CPP.")
    all_in = min(chips) < cpp
    caps = (min(chips), min(chips)) if all_in else chips
    return GameTerms(cpp, caps, all_in, max_cube=cube_limit(cpp, max(caps)))


def cube_limit(cpp: int, stake: int) -> int:
    """The highest cube: the smallest power of two at which one point takes the stake."""
    cube = 1
    while cube * cpp < stake and cube < LARGEST_CUBE:
        cube *= 2
    return cube


def payout(terms: GameTerms, points: int, *, loser: int) -> int:
    """The chips seat ``loser`` pays for ``points`` (points × cube, or a match's stake):
    × CPP, never more than the loser's cap."""
    if points < 1:
        raise FormatError("A won game is worth at least one point.")
    return min(points * terms.cpp, terms.caps[loser])


def adjudicated_transfer(terms: GameTerms, equity: float, cube: int) -> int:
    """The chips seat 0 gains from seat 1 when an abandoned game is split by seat 0's
    cubeful equity (per unit cube): equity × cube × CPP, rounded, within the cap of the
    seat that pays."""
    chips = round(equity * cube * terms.cpp)
    return max(-terms.caps[0], min(terms.caps[1], chips))


def settle(chips: Mapping[int, int], winner: int, loser: int, amount: int) -> dict[int, int]:
    """``chips`` after ``loser`` pays ``winner`` ``amount``; refuses to create chips."""
    if winner == loser or amount < 0 or amount > chips[loser]:
        raise FormatError(f"{loser} cannot pay {amount} chips holding {chips[loser]}.")
    after = dict(chips)
    after[loser] -= amount
    after[winner] += amount
    return after


# ---------------------------------------------------------------- pairing


@dataclass(frozen=True, slots=True)
class Free:
    """An active player waiting for a game: since when, and whom they last played."""

    id: int
    since: datetime
    last_opponent: int | None = None


def _rematch(a: Free, b: Free) -> bool:
    return a.last_opponent == b.id or b.last_opponent == a.id


def pair_free(free: Sequence[Free], rng: random.Random) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair the free players: (pairs, those left waiting).

    The longest-waiting player is paired first, with an opponent drawn at random. With an
    odd number free, the player who became free last waits, unless that would force a
    rematch someone else could avoid. An immediate rematch is played only when the two have
    no one else free to play.
    """
    queue = sorted(free, key=lambda player: (player.since, player.id))
    if len(queue) % 2:
        sitter = _sitter(queue)
        queue.remove(sitter)
        waiting = [sitter.id]
    else:
        waiting = []
    pairs: list[tuple[int, int]] = []
    while queue:
        first = queue.pop(0)
        fresh = [player for player in queue if not _rematch(first, player)]
        # Leave no two at the end who just played each other when a choice avoids it.
        if len(queue) > 2:
            fresh = [p for p in fresh if not _leaves_rematch(queue, p)] or fresh
        opponent = rng.choice(fresh or queue)
        queue.remove(opponent)
        pairs.append((first.id, opponent.id))
    return pairs, waiting


def _sitter(queue: Sequence[Free]) -> Free:
    """Who waits when the number free is odd: the latest to become free whose absence
    leaves the others pairable without a rematch, or simply the latest. Never the player
    who has waited longest: he plays first, a rematch if everyone free is one for him."""
    for sitter in reversed(queue[1:]):
        rest = [player for player in queue if player is not sitter]
        if not _forced_rematch(rest):
            return sitter
    return queue[-1]


def _forced_rematch(players: Sequence[Free]) -> bool:
    return len(players) == 2 and _rematch(players[0], players[1])


def _leaves_rematch(queue: Sequence[Free], chosen: Free) -> bool:
    rest = [player for player in queue if player is not chosen]
    return _forced_rematch(rest)
