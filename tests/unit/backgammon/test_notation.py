"""Move text: the canonical form written, every usual form read."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon import Board, Move
from backgammon.errors import NotationError
from backgammon.moves import apply_play, legal_plays
from backgammon.notation import format_play, format_plays, parse_moves
from backgammon.validate import parse_play

START = Board.initial()


@pytest.mark.parametrize(
    ("play", "text"),
    [
        ((Move(13, 10, True), Move(24, 18)), "24/18 13/10*"),
        ((Move(25, 22),), "bar/22"),
        ((Move(6, 0), Move(5, 0)), "6/off 5/off"),
        ((Move(6, 2), Move(8, 4), Move(6, 2), Move(8, 4)), "8/4(2) 6/2(2)"),
        ((Move(24, 20), Move(20, 16)), "24/16"),
        ((Move(13, 7, True), Move(7, 1)), "13/7*/1"),
        ((Move(13, 9), Move(13, 9), Move(9, 5)), "13/5 13/9"),
        ((Move(13, 9, True), Move(13, 9), Move(9, 5, True), Move(5, 1)), "13/9*/5*/1 13/9"),
        ((Move(24, 20), Move(24, 20), Move(20, 16), Move(20, 16)), "24/16(2)"),
        ((Move(5, 4), Move(4, 0)), "5/off"),
        ((), ""),
    ],
)
def test_plays_are_written_the_canonical_way(play: tuple[Move, ...], text: str) -> None:
    assert format_play(play) == text


def test_with_the_board_the_hit_is_starred_once_on_the_first_checker_written_there() -> None:
    board = Board.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {20: 1, 6: 5, 8: 3, 13: 4, 24: 2})

    assert format_play((Move(6, 5, True), Move(6, 5), Move(5, 4)), board) == "6/5*/4 6/5"
    assert format_play((Move(6, 5), Move(6, 5), Move(5, 4)), board) == "6/5*/4 6/5"


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("24/18 13/10*", (Move(24, 18), Move(13, 10, True))),
        ("bar/22", (Move(25, 22),)),
        ("25/22", (Move(25, 22),)),
        ("BAR/22 6/Off", (Move(25, 22), Move(6, 0))),
        ("6/0", (Move(6, 0),)),
        ("24/20/16", (Move(24, 20), Move(20, 16))),
        ("13/7*/1", (Move(13, 7, True), Move(7, 1))),
        ("8/4(2)", (Move(8, 4), Move(8, 4))),
        ("13/11*(2)", (Move(13, 11, True), Move(13, 11))),
        ("24/18, 13/8", (Move(24, 18), Move(13, 8))),
        ("", ()),
    ],
)
def test_every_usual_form_is_read(text: str, moves: tuple[Move, ...]) -> None:
    assert parse_moves(text) == moves


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "13-7",
            "'13-7' is not a move: write moves like 24/18, 13/10*, bar/22, 6/off or 8/4(2)",
        ),
        ("0/5", "'0/5': a move starts on a point from 1 to 24 or the bar"),
        ("30/24", "'30/24': a move starts on a point from 1 to 24 or the bar"),
        ("13/25", "'13/25': a move ends on a point from 1 to 24 or off"),
        ("6/off/3", "'6/off/3': a checker borne off cannot move on"),
        ("6/off*", "'6/off*': nothing can be hit when bearing off"),
        ("8/4(5)", "'8/4(5)': a move repeats for 1 to 4 checkers"),
        ("8/4(0)", "'8/4(0)': a move repeats for 1 to 4 checkers"),
    ],
)
def test_unreadable_text_is_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_moves(text)

    assert str(refused.value) == message


def test_a_play_reads_back_as_its_single_die_moves() -> None:
    play = parse_play("24/13", START, (6, 5))

    assert len(play) == 2
    assert apply_play(START, play) == Board.from_points(
        {6: 5, 8: 3, 13: 6, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2}
    )


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


@settings(max_examples=150, deadline=None)
@given(
    board=st.builds(game_board, st.integers(0, 10**6), st.integers(0, 120)),
    dice=st.tuples(st.integers(1, 6), st.integers(1, 6)),
)
def test_every_legal_play_round_trips_through_its_text(board: Board, dice: tuple[int, int]) -> None:
    for play in legal_plays(board, dice):
        for text in (format_play(play, board), format_play(play)):
            again = parse_play(text, board, dice)

            assert apply_play(board, again) == apply_play(board, play)
            assert format_play(again, board) == format_play(play, board)


@settings(max_examples=150, deadline=None)
@given(
    board=st.builds(game_board, st.integers(0, 10**6), st.integers(0, 120)),
    dice=st.tuples(st.integers(1, 6), st.integers(1, 6)),
)
def test_a_rolls_plays_written_together_read_as_each_written_alone(
    board: Board, dice: tuple[int, int]
) -> None:
    # given a roll's legal plays (what a board shows the player to move)
    plays = legal_plays(board, dice)

    # when they are written together, as a snapshot writes them
    written = format_plays(plays, board)

    # then each reads as it does written alone, hits and all
    assert written == [format_play(play, board) for play in plays]
