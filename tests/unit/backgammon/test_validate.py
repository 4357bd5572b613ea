"""Validating a submitted play: what is accepted and the message for what is not."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon import Board, Move
from backgammon.errors import BackgammonError, IllegalPlay, NotationError
from backgammon.moves import apply_play, legal_plays, legal_positions
from backgammon.notation import format_play
from backgammon.validate import parse_play, validate_play

START = Board.initial()
START_POINTS = {6: 5, 8: 3, 13: 5, 24: 2}
ONE_ON_BAR = Board.from_points({25: 1, 6: 5, 8: 3, 13: 5, 24: 1}, START_POINTS)
TWO_ON_BAR = Board.from_points({25: 2, 6: 13}, START_POINTS)
CLOSED_OUT = Board.from_points({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
RUNNER = Board.from_points({24: 1, 1: 14}, {12: 2, 3: 13})
BEARING_OFF = Board.from_points({5: 1, 3: 2}, {6: 15})
TWO_BLOTS = Board.from_points({24: 1, 6: 14}, {7: 1, 6: 1, 2: 13})


REFUSED = [
    (START, (6, 5), "24/18", "Both dice must be played: 24/18 13/8 is possible"),
    (START, (6, 5), "", "Both dice must be played: 24/18 13/8 is possible"),
    (START, (6, 5), "13/9", "13/9 does not fit your roll of 6-5"),
    (START, (6, 5), "6/off", "You cannot bear off while a checker is outside your home board"),
    (START, (6, 5), "9/3", "You have no checker on point 9"),
    (START, (6, 5), "bar/20", "You have no checker on the bar"),
    (START, (6, 5), "24/18 24/19", "Point 19 is blocked"),
    (START, (6, 5), "8/13", "Checkers move toward your home board: 8/13 goes the wrong way"),
    (START, (6, 5), "24/18 13/8 8/3", "8/3 is one move too many: the dice are used up"),
    (START, (6, 5), "13/7 13/7", "13/7 does not fit the dice you have left: 5"),
    (START, (3, 1), "8/5* 6/5", "There is no checker to hit on point 5"),
    (START, (6, 6), "24/18(2)", "You must play four 6s: 24/18(2) 13/7(2) is possible"),
    (START, (5, 5), "24/14", "Point 19 is blocked"),
    (ONE_ON_BAR, (6, 4), "13/7 24/20", "The checker on the bar must enter first"),
    (TWO_ON_BAR, (6, 4), "bar/21 6/2", "The checker on the bar must enter first"),
    (TWO_ON_BAR, (6, 4), "6/2", "The checkers on the bar must enter first"),
    (ONE_ON_BAR, (6, 4), "bar/19 24/20", "Point 19 is blocked"),
    (CLOSED_OUT, (6, 5), "bar/20", "No move is possible: the turn passes"),
    (RUNNER, (6, 5), "24/19", "The higher die must be played: 24/18 is possible"),
    (
        BEARING_OFF,
        (6, 1),
        "3/off 5/4",
        "A 6 bears off from point 3 only when no checker stands on a higher point",
    ),
    (BEARING_OFF, (2, 1), "5/off", "Bearing off from point 5 needs a 5 or more"),
    (TWO_BLOTS, (6, 5), "24/13", "Say which blots 24/13 hits: 24/18*/13 or 24/19*/13"),
]


@pytest.mark.parametrize(("board", "dice", "submitted", "message"), REFUSED)
def test_each_broken_rule_is_named(
    board: Board, dice: tuple[int, int], submitted: str, message: str
) -> None:
    with pytest.raises(IllegalPlay) as refused:
        validate_play(board, dice, submitted)

    assert str(refused.value) == message


def test_unreadable_text_says_how_to_write_a_move() -> None:
    with pytest.raises(NotationError) as refused:
        validate_play(START, (6, 5), "13-7")

    assert str(refused.value) == (
        "'13-7' is not a move: write moves like 24/18, 13/10*, bar/22, 6/off or 8/4(2)"
    )


def test_the_unmoved_position_id_is_refused_when_a_move_exists() -> None:
    with pytest.raises(IllegalPlay, match="Both dice must be played"):
        validate_play(START, (6, 5), START.position_id())


def test_an_unreachable_position_id_is_refused() -> None:
    with pytest.raises(IllegalPlay) as refused:
        validate_play(START, (6, 5), "sNvBAAAAAAAAAA")

    assert str(refused.value) == "That is not a legal play with 6-5"


@pytest.mark.parametrize(
    ("board", "dice", "submitted", "expected"),
    [
        (START, (6, 5), "24/18 18/13", "24/13"),
        (START, (6, 5), "18/13 24/18", "24/13"),
        (START, (6, 5), "24/13", "24/13"),
        (START, (3, 1), "6/5 8/5", "8/5 6/5"),
        (ONE_ON_BAR, (6, 4), "bar/21/15", "bar/15"),
        (BEARING_OFF, (6, 1), "3/2 5/off", "5/off 3/2"),
        (BEARING_OFF, (6, 1), "5/4/off", "5/off"),
        (CLOSED_OUT, (6, 5), "", ""),
    ],
)
def test_any_way_of_writing_a_legal_play_is_accepted(
    board: Board, dice: tuple[int, int], submitted: str, expected: str
) -> None:
    play = parse_play(submitted, board, dice)

    assert format_play(play, board) == expected
    assert validate_play(board, dice, submitted) == apply_play(board, play)


def test_a_hit_on_the_way_need_not_be_written() -> None:
    # given a blot on the mover's 9 point, which 13/5 with 4-4 must pass
    board = Board.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {16: 1, 6: 5, 8: 3, 13: 4, 24: 2})

    # when the play is written without the hit
    play = parse_play("24/16 13/5", board, (4, 4))

    # then it is the play that hits there
    assert format_play(play) == "24/16 13/9*/5"
    assert validate_play(board, (4, 4), "24/16 13/5").on_bar == (0, 1)


def game_board(seed: int, plies: int) -> Board:
    rng = random.Random(seed)
    board = Board.initial()
    for _ in range(plies):
        plays = legal_plays(board, (rng.randint(1, 6), rng.randint(1, 6)))
        after = apply_play(board, rng.choice(plays)) if plays else board
        if not any(after.mover):
            break
        board = after.swapped()
    return board


boards = st.builds(game_board, st.integers(0, 10**6), st.integers(0, 120))
rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=150, deadline=None)
@given(board=boards, dice=rolls)
def test_every_legal_play_is_accepted_in_every_form(board: Board, dice: tuple[int, int]) -> None:
    for play in legal_plays(board, dice):
        after = apply_play(board, play)

        assert validate_play(board, dice, play) == after
        assert validate_play(board, dice, format_play(play, board)) == after
        assert validate_play(board, dice, after.position_id()) == after


moves = st.builds(Move, st.integers(1, 25), st.integers(0, 24), st.booleans())


@settings(max_examples=400, deadline=None)
@given(board=boards, dice=rolls, play=st.lists(moves, max_size=4).map(tuple))
def test_every_refused_play_is_told_why(
    board: Board, dice: tuple[int, int], play: tuple[Move, ...]
) -> None:
    try:
        after = validate_play(board, dice, play)
    except IllegalPlay as refused:
        message = str(refused)
        assert message
    else:
        legal = legal_positions(board.position_id(), dice)
        assert after.position_id() in legal or (not legal and after == board)


@settings(max_examples=200, deadline=None)
@given(board=boards, dice=rolls, text=st.text(alphabet="0123456789/*() barofBAROF", max_size=20))
def test_any_text_is_accepted_or_told_why(board: Board, dice: tuple[int, int], text: str) -> None:
    try:
        validate_play(board, dice, text)
    except BackgammonError as refused:
        message = str(refused)
        assert message
