"""The board and its GNU Backgammon Position ID."""

from __future__ import annotations

import random

import gnubg_nn
import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.board import Board, encode_position_id
from backgammon.errors import BackgammonError, InvalidPosition

START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
EMPTY = (0,) * 25


def test_the_starting_position_has_the_known_id() -> None:
    assert Board.initial().position_id() == "4HPwATDgc/ABMA"
    assert Board.from_position_id("4HPwATDgc/ABMA") == Board.initial()


@pytest.mark.parametrize(
    ("position_id", "mover", "opponent"),
    [
        # The player on roll has split the back checkers; the other has not moved.
        ("4HPwATDgc/ABEg", {6: 5, 8: 3, 13: 5, 21: 1, 23: 1}, {6: 5, 8: 3, 13: 5, 24: 2}),
        ("AAAAAAAAAAAAAA", {}, {}),
    ],
)
def test_known_ids_decode(
    position_id: str, mover: dict[int, int], opponent: dict[int, int]
) -> None:
    board = Board.from_position_id(position_id)

    assert board == Board.from_points(mover, opponent)
    assert board.position_id() == position_id


@st.composite
def sides(draw: st.DrawFn) -> Board:
    """Any legal arrangement: up to 15 checkers each, never two colours on one point."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    mover = [0] * 25
    opponent = [0] * 25
    for _ in range(rng.randint(0, 15)):
        mover[rng.randrange(25)] += 1
    for _ in range(rng.randint(0, 15)):
        index = rng.randrange(25)
        if index == 24 or not mover[23 - index]:
            opponent[index] += 1
    if mover[24] and opponent[24]:
        opponent[24] = 0
    return Board(tuple(mover), tuple(opponent))


@given(board=sides())
def test_ids_round_trip_and_match_gnu_backgammon(board: Board) -> None:
    position_id = board.position_id()

    assert Board.from_position_id(position_id) == board
    assert position_id == gnubg_nn.position_id([list(board.opponent), list(board.mover)])


@given(board=sides())
def test_swapping_twice_is_the_same_view(board: Board) -> None:
    swapped = board.swapped()

    assert swapped.swapped() == board
    assert swapped.pip_count() == board.pip_count()[::-1]
    assert swapped.borne_off() == board.borne_off()[::-1]


def test_counts_of_the_starting_position() -> None:
    board = Board.initial()

    assert board.pip_count() == (167, 167)
    assert board.borne_off() == (0, 0)
    assert board.on_bar == (0, 0)


def test_checkers_on_the_bar_count_25_pips() -> None:
    board = Board.from_points({25: 2, 6: 3}, {1: 1})

    assert board.pip_count() == (68, 1)
    assert board.on_bar == (2, 0)
    assert board.borne_off() == (10, 14)


@pytest.mark.parametrize(
    ("position_id", "message"),
    [
        ("4HPwATDgc/AB", "A Position ID has 14 characters; '4HPwATDgc/AB' has 12"),
        (
            "4HPwATDgc/AB!A",
            "'4HPwATDgc/AB!A' is not a Position ID: it may hold only letters, digits, '+' and '/'",
        ),
        ("//////////////", "'//////////////' describes more than 30 checkers"),
        (
            encode_position_id((15, 1, *EMPTY[2:]), EMPTY),
            "The player on roll has 16 checkers on the board; a player has only 15",
        ),
        (
            encode_position_id((*START[:23], 0, 0), (2, *START[1:])),
            "The opponent has 17 checkers on the board; a player has only 15",
        ),
        (
            encode_position_id((1, *EMPTY[1:]), (*EMPTY[:23], 1, 0)),
            "Point 1 of the player on roll holds checkers of both players",
        ),
        (
            encode_position_id(
                (2, 2, 2, 2, 2, 2, *EMPTY[6:24], 1), (2, 2, 2, 2, 2, 2, *EMPTY[6:24], 1)
            ),
            "Both players have a checker on the bar against a closed home board, "
            "which cannot happen",
        ),
    ],
)
def test_impossible_ids_are_refused_with_the_reason(position_id: str, message: str) -> None:
    with pytest.raises(InvalidPosition) as refused:
        Board.from_position_id(position_id)

    assert str(refused.value) == message
    assert isinstance(refused.value, BackgammonError)


def test_points_outside_the_board_are_refused() -> None:
    with pytest.raises(InvalidPosition, match="There is no point 26"):
        Board.from_points({26: 1}, {})
