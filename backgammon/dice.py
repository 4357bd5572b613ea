"""Dice: rolls, doubles and the opening roll.

Terms:

* *roll*: the two dice a player throws at the start of a turn; a *double* (both dice the same)
  is played four times.
* *opening roll*: to start a game each player throws one die, ties are thrown again, and the
  player with the higher die starts by playing both dice as their first roll.

Randomness is passed in as a `Roller`, never taken from a global generator, so a game can be
replayed from a seed in tests and audited in production.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from backgammon.errors import BackgammonError, gettext_noop

FACES = 6


class Roller(Protocol):
    """A source of die throws."""

    def roll(self) -> int:
        """One die: an int from 1 to 6."""
        ...


class RandomRoller:
    """A `Roller` drawing from a `random.Random` (seeded in tests, `SystemRandom` in play)."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def roll(self) -> int:
        return self._rng.randint(1, FACES)


@dataclass(frozen=True, slots=True)
class Dice:
    """The two dice of a roll, in the order thrown."""

    first: int
    second: int

    def __post_init__(self) -> None:
        for die in (self.first, self.second):
            if not 1 <= die <= FACES:
                raise BackgammonError(gettext_noop("A die shows 1 to 6, not %(die)s"), die=die)

    @classmethod
    def roll(cls, roller: Roller) -> Dice:
        return cls(roller.roll(), roller.roll())

    @classmethod
    def from_text(cls, text: str) -> Dice:
        """Read a roll written as ``6-5``, ``65`` or ``6 5``."""
        digits = [char for char in text if not char.isspace() and char not in "-/,"]
        if len(digits) != 2 or not all(char in "123456" for char in digits):
            raise BackgammonError(
                gettext_noop("%(text)s is not a roll: write it like 6-5"), text=repr(text)
            )
        return cls(int(digits[0]), int(digits[1]))

    @property
    def is_double(self) -> bool:
        return self.first == self.second

    @property
    def pair(self) -> tuple[int, int]:
        """The dice as a tuple, the form the move generator takes."""
        return self.first, self.second

    def moves(self) -> tuple[int, ...]:
        """The numbers to play: both dice, or a double's number four times."""
        if self.is_double:
            return (self.first,) * 4
        return self.first, self.second

    def __str__(self) -> str:
        """Higher die first, as players say it: ``6-5``."""
        return f"{max(self.pair)}-{min(self.pair)}"


def opening_roll(roller: Roller) -> tuple[int, int]:
    """Each player throws one die until they differ: (player 0's die, player 1's die).

    The player with the higher die starts and plays the two dice as the first roll.
    """
    while True:
        dice = roller.roll(), roller.roll()
        if dice[0] != dice[1]:
            return dice


def opening_starter(dice: tuple[int, int]) -> int:
    """Which player (0 or 1) starts after the opening roll ``dice``: the higher die."""
    return 0 if dice[0] > dice[1] else 1
