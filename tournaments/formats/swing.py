"""Swing: every entrant starts with the same chips; the last player holding chips wins.

Terms:

- **Chips**: what a player holds in the tournament; they are not money. Every game moves
  chips from its loser to its winner, so the sum of all chips never changes.
- **CPP** (chips per point): what one point is worth in chips. It rises on a schedule of
  **levels** (``CppSchedule``): after every game finished in the tournament, every N minutes,
  or every time a player is knocked out. A game's CPP is fixed when it starts.
- **Stake** (``GameTerms.stake``): the most either player of a game can win from the other:
  the chips of the poorer of the two at the start. A game pays points × cube × CPP (a match
  in match swing pays the match stake × CPP), never more than the stake, so nobody loses
  chips they do not hold and nobody wins more than they risked.
- **All-in**: a player who starts a game holding fewer chips than the CPP. The game is then
  for the all-in stake whatever its result, and the cube stays in the middle: one point at
  the current CPP already takes the whole stake.
- **Cube limit** (``GameTerms.max_cube``): the cube cannot be turned past the value at which
  a single game already takes the whole stake (``cube × CPP ≥ stake``): beyond it a double
  would only raise what the richer player risks while the poorer risks nothing more.
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
        """The level reached after ``games`` finished games and ``knockouts`` knockouts,
        ``elapsed`` after the start."""
        if self.raise_on is CppRaise.GAME:
            return games
        if self.raise_on is CppRaise.KNOCKOUT:
            return knockouts
        assert self.minutes
        return max(0, int(elapsed // timedelta(minutes=self.minutes)))

    def next_rise(self, level: int, started_at: datetime) -> datetime | None:
        """When the next level comes, on a clock (None unless it rises every N minutes)."""
        if self.raise_on is not CppRaise.MINUTES or not self.rises_after(level):
            return None
        assert self.minutes
        return started_at + timedelta(minutes=self.minutes * (level + 1))


# ---------------------------------------------------------------- one game's terms


@dataclass(frozen=True, slots=True)
class GameTerms:
    """What a game between players holding ``chips`` is played for at ``cpp``."""

    cpp: int
    stake: int
    all_in: bool
    max_cube: int


def game_terms(cpp: int, chips: tuple[int, int]) -> GameTerms:
    """The stake, the all-in flag and the cube limit of a game starting now."""
    if cpp < 1 or min(chips) < 1:
        raise FormatError("A swing game is played by two players holding chips, at a CPP.")
    stake = min(chips)
    return GameTerms(cpp, stake, all_in=stake < cpp, max_cube=cube_limit(cpp, stake))


def cube_limit(cpp: int, stake: int) -> int:
    """The highest cube: the smallest power of two at which one point takes the stake."""
    cube = 1
    while cube * cpp < stake and cube < LARGEST_CUBE:
        cube *= 2
    return cube


def payout(terms: GameTerms, points: int) -> int:
    """The chips the loser pays for ``points`` (points × cube, or a match's stake): × CPP,
    never more than the stake; an all-in game is for the whole stake."""
    if points < 1:
        raise FormatError("A won game is worth at least one point.")
    return min(points * terms.cpp, terms.stake)


def adjudicated_transfer(terms: GameTerms, equity: float, cube: int) -> int:
    """The chips seat 0 gains from seat 1 when an abandoned game is split by seat 0's
    cubeful equity (per unit cube): equity × cube × CPP, rounded, within the stake."""
    chips = round(equity * cube * terms.cpp)
    return max(-terms.stake, min(terms.stake, chips))


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
