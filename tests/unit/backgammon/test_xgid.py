"""XGID: the starting position, round trips, agreement with gnubg's reader, refusals."""

from __future__ import annotations

from dataclasses import replace

import gnubg
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from backgammon.board import Board
from backgammon.errors import InvalidPosition
from backgammon.matchid import MatchId
from backgammon.xgid import O_PLAYER, X_PLAYER, CubeAction, Xgid

START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_the_starting_position_reads_as_the_initial_board_with_x_on_roll() -> None:
    xgid = Xgid.parse(START)

    assert xgid == Xgid(board=Board.initial(), on_roll=X_PLAYER)
    assert xgid.max_cube == 1024
    assert str(xgid) == START
    assert xgid.gnubg_id() == "4HPwATDgc/ABMA:cAkAAAAAAAAE"


def test_characters_are_read_from_o_s_bar_to_x_s_bar() -> None:
    # given X with a checker on its bar and one on its 3 point; O with two on its bar, one
    # on its 1 point (X's 24) and one on its 20 point (X's 5); O on roll
    xgid = Xgid.parse("XGID=b--A-a" + "-" * 18 + "aA:1:-1:-1:31:3:4:1:7:6")

    assert xgid.on_roll == O_PLAYER
    assert xgid.board == Board.from_points({25: 2, 1: 1, 20: 1}, {25: 1, 3: 1})
    assert xgid.sides[X_PLAYER] == Board.from_points({25: 1, 3: 1}, {}).mover
    assert (xgid.cube_value, xgid.cube_owner, xgid.dice) == (2, O_PLAYER, (3, 1))
    assert (xgid.score, xgid.length, xgid.crawford, xgid.max_cube) == ((4, 3), 7, True, 64)


@pytest.mark.parametrize(
    ("dice", "action"),
    [("D", CubeAction.DOUBLED), ("B", CubeAction.BEAVERED), ("R", CubeAction.RACCOONED)],
)
def test_a_cube_offer_waiting_for_an_answer_is_kept(dice: str, action: CubeAction) -> None:
    text = f"XGID=-b----E-C---eE---c-e----B-:1:0:1:{dice}:0:0:3:0:10"

    xgid = Xgid.parse(text)

    assert xgid.cube_action is action
    assert (xgid.jacoby, xgid.beavers, xgid.dice) == (True, True, None)
    assert str(xgid) == text


def test_a_double_waiting_for_an_answer_becomes_a_match_id_with_the_other_player_to_act() -> None:
    xgid = Xgid.parse("XGID=-b----E-C---eE---c-e----B-:1:-1:1:D:2:3:0:7:10")

    assert xgid.match_id() == MatchId(
        cube_value=2,
        cube_owner=O_PLAYER,
        player_on_roll=X_PLAYER,
        turn=O_PLAYER,
        double_offered=True,
        length=7,
        score=(3, 2),
    )


def test_a_beaver_waiting_for_an_answer_has_no_match_id() -> None:
    xgid = Xgid.parse("XGID=-b----E-C---eE---c-e----B-:1:0:1:B:0:0:3:0:10")

    with pytest.raises(InvalidPosition, match=r"^A Match ID cannot show a beaver"):
        xgid.match_id()


@st.composite
def boards(draw: st.DrawFn, *, at_least: int = 0) -> Board:
    mover = [0] * 25
    opponent = [0] * 25
    for _ in range(draw(st.integers(at_least, 15))):
        mover[draw(st.integers(0, 24))] += 1
    for _ in range(draw(st.integers(at_least, 15))):
        index = draw(st.integers(0, 24))
        if index < 24 and mover[23 - index]:
            index = 24
        opponent[index] += 1
    try:
        return Board(tuple(mover), tuple(opponent))
    except InvalidPosition:
        assume(False)
        raise


xgids = st.builds(
    Xgid,
    board=boards(),
    on_roll=st.sampled_from([0, 1]),
    cube_value=st.sampled_from([1 << n for n in range(13)]),
    cube_owner=st.sampled_from([None, 0, 1]),
    dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    score=st.tuples(st.integers(0, 40), st.integers(0, 40)),
    max_cube=st.sampled_from([1 << n for n in range(13)]),
).flatmap(
    lambda xgid: st.sampled_from(
        [
            xgid,
            replace(xgid, jacoby=True, beavers=True),
            replace(xgid, dice=None, cube_action=CubeAction.BEAVERED),
            replace(xgid, length=11),
            replace(xgid, length=11, crawford=True),
        ]
    )
)


@given(xgids)
def test_every_xgid_survives_a_round_trip(xgid: Xgid) -> None:
    text = str(xgid)

    assert Xgid.parse(text) == xgid
    assert str(Xgid.parse(text.removeprefix("XGID="))) == text


@given(
    board=boards(at_least=1),
    on_roll=st.sampled_from([0, 1]),
    cube_log=st.integers(0, 6),
    owner=st.sampled_from([None, 0, 1]),
    dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    score=st.tuples(st.integers(0, 6), st.integers(0, 6)),
    length=st.sampled_from([0, 7, 13]),
    jacoby=st.booleans(),
)
def test_gnubg_reads_our_xgids_as_the_same_gnubg_id(
    board: Board,
    on_roll: int,
    cube_log: int,
    owner: int | None,
    dice: tuple[int, int] | None,
    score: tuple[int, int],
    length: int,
    jacoby: bool,
) -> None:
    xgid = Xgid(
        board=board,
        on_roll=on_roll,
        cube_value=1 << cube_log,
        cube_owner=owner,
        # gnubg reads the dice with the higher first
        dice=dice and (max(dice), min(dice)),
        # gnubg keeps no score for money play
        score=score if length else (0, 0),
        length=length,
        jacoby=jacoby and not length,
    )

    gnubg.set_gnubg_id(str(xgid))

    assert gnubg.gnubg_id() == xgid.gnubg_id()


@given(board=boards(), on_roll=st.sampled_from([0, 1]))
def test_an_xgid_made_from_a_gnubg_id_gives_the_same_gnubg_id(board: Board, on_roll: int) -> None:
    match_id = MatchId(
        cube_value=4, cube_owner=1 - on_roll, player_on_roll=on_roll, turn=on_roll, length=9
    )

    xgid = Xgid.from_gnubg(board, match_id)

    assert xgid.gnubg_id() == f"{board.position_id()}:{match_id.encode()}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0", "An XGID has 10 fields"),
        ("-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "An XGID position has 26 characters"),
        ("Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "The first XGID character is O's bar"),
        ("-b----E-C---eE---c-e----Bb:0:0:1:00:0:0:0:0:10", "The last XGID character is X's bar"),
        ("-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10", "'P' is not an XGID checker count"),
        ("-b----E-C---eE---c-e----O-:0:0:1:00:0:0:0:0:10", "has 28 checkers on the board"),
        ("-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", "The XGID cube must be a whole number"),
        ("-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", "The XGID cube owner is 1, 0 or -1"),
        ("-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", "The XGID turn is 1 or -1"),
        ("-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:0:10", "The XGID dice are 00, D, B, R"),
        ("-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10", "The XGID rules field is 0 to 3"),
        ("-b----E-C---eE---c-e----B-:0:0:1:00:-1:0:0:5:10", "cannot be negative"),
        ("-b----E-C---eE---c-e----B-:31:0:1:00:0:0:0:0:10", "written as its power of two"),
    ],
)
def test_a_text_that_is_not_an_xgid_is_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidPosition) as refused:
        Xgid.parse(text)

    assert message in str(refused.value)
