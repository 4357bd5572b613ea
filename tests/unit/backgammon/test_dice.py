"""Dice: rolls from an injected roller and the opening roll."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from backgammon.dice import Dice, RandomRoller, opening_roll, opening_starter
from backgammon.errors import BackgammonError


class Scripted:
    """A roller that throws the given numbers in order."""

    def __init__(self, throws: list[int]) -> None:
        self._throws: Iterator[int] = iter(throws)

    def roll(self) -> int:
        return next(self._throws)


def test_opening_ties_are_thrown_again_and_the_higher_die_starts() -> None:
    dice = opening_roll(Scripted([4, 4, 2, 2, 3, 6]))

    assert dice == (3, 6)
    assert opening_starter(dice) == 1
    assert opening_starter((5, 1)) == 0


def test_a_double_is_played_four_times() -> None:
    assert Dice(3, 3).moves() == (3, 3, 3, 3)
    assert Dice(3, 5).moves() == (3, 5)
    assert Dice(3, 3).is_double
    assert not Dice(3, 5).is_double


def test_a_roll_is_said_higher_die_first() -> None:
    assert str(Dice(3, 5)) == "5-3"
    assert Dice(3, 5).pair == (3, 5)


@pytest.mark.parametrize("text", ["6-5", "65", "6 5", "6/5"])
def test_rolls_are_read_from_the_usual_forms(text: str) -> None:
    assert Dice.from_text(text) == Dice(6, 5)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("7-1", "'7-1' is not a roll: write it like 6-5"),
        ("6", "'6' is not a roll: write it like 6-5"),
    ],
)
def test_unreadable_rolls_are_refused(text: str, message: str) -> None:
    with pytest.raises(BackgammonError) as refused:
        Dice.from_text(text)

    assert str(refused.value) == message


def test_a_die_shows_one_to_six() -> None:
    with pytest.raises(BackgammonError, match="A die shows 1 to 6, not 0"):
        Dice(0, 3)


def test_a_seeded_roller_replays_the_same_rolls() -> None:
    first = [Dice.roll(RandomRoller(random.Random(5))) for _ in range(3)]
    again = [Dice.roll(RandomRoller(random.Random(5))) for _ in range(3)]
    faces = {RandomRoller(random.Random(seed)).roll() for seed in range(200)}

    assert first == again
    assert faces == {1, 2, 3, 4, 5, 6}
