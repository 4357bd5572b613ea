"""The match cube of match swing: who may double the match stake, and when; take, drop and
the maximum."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.board import Board
from backgammon.cube import Cube, Offer
from backgammon.errors import BackgammonError
from backgammon.match_cube import MatchCube, MatchDrop, check_answered, double, drop, take
from backgammon.turns import GameState, Phase


def at_turn_start(on_roll: int) -> GameState:
    return GameState(board=Board.initial(), on_roll=on_roll, phase=Phase.ROLL)


def test_a_centred_match_cube_may_be_doubled_by_either_player_and_the_taker_owns_it() -> None:
    for player in (0, 1):
        offered = double(MatchCube(), at_turn_start(player), player=player)

        assert offered == MatchCube(offered_by=player)
        assert offered.awaiting == 1 - player
        assert take(offered, player=1 - player) == MatchCube(value=2, owner=1 - player)


def test_the_owner_doubles_back_and_the_match_cube_changes_hands() -> None:
    cube = MatchCube()
    for turn in range(6):
        player = turn % 2
        cube = take(double(cube, at_turn_start(player), player=player), player=1 - player)

    assert cube == MatchCube(value=64, owner=0)


def test_a_drop_gives_the_doubler_the_match_at_the_stake_before_the_double() -> None:
    offered = double(MatchCube(value=4, owner=1), at_turn_start(1), player=1)

    assert drop(offered, player=0) == MatchDrop(winner=1, value=4)


ROLLED = GameState(board=Board.initial(), on_roll=0, phase=Phase.MOVE, dice=(5, 2))
GAME_DOUBLED = replace(
    at_turn_start(0),
    phase=Phase.DOUBLED,
    cube=Cube(offer=Offer.DOUBLE, offered_by=0, offered_value=2),
)
RESIGNING = replace(
    at_turn_start(0),
    phase=Phase.RESIGNATION,
    resigned_by=0,
    resign_level=1,
    resume_phase=Phase.ROLL,
)
OVER = replace(at_turn_start(0), phase=Phase.OVER)


@pytest.mark.parametrize(
    ("cube", "game", "player", "game_cube_turned", "message"),
    [
        (
            MatchCube(),
            ROLLED,
            0,
            False,
            "You can double the match stake only at the start of your turn, before rolling",
        ),
        (
            MatchCube(),
            at_turn_start(0),
            0,
            True,
            "You can double the match stake only at the start of your turn, before the game"
            " cube is turned",
        ),
        (
            MatchCube(),
            at_turn_start(1),
            0,
            False,
            "You can double the match stake only on your own turn",
        ),
        (
            MatchCube(value=2, owner=1),
            at_turn_start(0),
            0,
            False,
            "Your opponent owns the match cube",
        ),
        (
            MatchCube(value=8, owner=0, maximum=8),
            at_turn_start(0),
            0,
            False,
            "The match stake is at its maximum (8)",
        ),
        (
            MatchCube(offered_by=1),
            at_turn_start(0),
            0,
            False,
            "Answer the match double first: take or drop",
        ),
        (
            MatchCube(offered_by=0),
            at_turn_start(0),
            0,
            False,
            "Wait for your opponent to answer your match double",
        ),
        (MatchCube(), GAME_DOUBLED, 0, False, "Answer the offer on the table first"),
        (MatchCube(), RESIGNING, 0, False, "Answer the offer on the table first"),
        (MatchCube(), OVER, 0, False, "The game is over"),
    ],
)
def test_a_match_double_is_refused_with_the_rule_it_breaks(
    cube: MatchCube, game: GameState, player: int, game_cube_turned: bool, message: str
) -> None:
    with pytest.raises(BackgammonError) as refused:
        double(cube, game, player=player, game_cube_turned=game_cube_turned)

    assert str(refused.value) == message


def test_the_match_cube_may_reach_its_maximum_but_not_pass_it() -> None:
    cube = MatchCube(value=4, owner=0, maximum=8)

    offered = double(cube, at_turn_start(0), player=0)

    assert take(offered, player=1) == MatchCube(value=8, owner=1, maximum=8)
    assert not take(offered, player=1).may_double(1)


def test_a_player_who_owns_the_game_cube_may_still_double_the_match_stake() -> None:
    game = replace(at_turn_start(0), cube=Cube(value=2, owner=1))

    assert double(MatchCube(), game, player=0).offered_by == 0


@pytest.mark.parametrize(
    ("answer", "cube", "player", "message"),
    [
        (take, MatchCube(), 1, "There is no match double to take"),
        (drop, MatchCube(value=2, owner=0), 1, "There is no match double to drop"),
        (take, MatchCube(offered_by=0), 0, "Your opponent must answer your match double"),
        (drop, MatchCube(offered_by=1), 1, "Your opponent must answer your match double"),
    ],
)
def test_an_answer_is_refused_unless_a_match_double_waits_for_that_player(
    answer: Callable[..., object], cube: MatchCube, player: int, message: str
) -> None:
    with pytest.raises(BackgammonError) as refused:
        answer(cube, player=player)

    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("cube", "player", "message"),
    [
        (MatchCube(offered_by=0), 0, "Wait for your opponent to answer your match double"),
        (MatchCube(offered_by=0), 1, "Answer the match double first: take or drop"),
    ],
)
def test_nothing_but_an_answer_is_allowed_while_a_match_double_waits(
    cube: MatchCube, player: int, message: str
) -> None:
    with pytest.raises(BackgammonError) as refused:
        check_answered(cube, player=player)

    assert str(refused.value) == message


def test_without_a_match_double_on_the_table_everything_may_go_on() -> None:
    check_answered(MatchCube(value=2, owner=1), player=0)
    check_answered(MatchCube(value=2, owner=1), player=1)


@given(
    turns=st.lists(st.tuples(st.integers(0, 1), st.booleans()), max_size=20),
    maximum=st.sampled_from([None, 1, 2, 4, 16, 64]),
)
def test_doubles_and_takes_keep_a_power_of_two_within_the_maximum_owned_by_the_last_taker(
    turns: list[tuple[int, bool]], maximum: int | None
) -> None:
    cube = MatchCube(maximum=maximum)
    last_taker = None
    for player, takes in turns:
        try:
            offered = double(cube, at_turn_start(player), player=player)
        except BackgammonError:
            assert not cube.may_double(player)
            continue
        if not takes:
            assert drop(offered, player=1 - player) == MatchDrop(winner=player, value=cube.value)
            continue
        cube = take(offered, player=1 - player)
        last_taker = 1 - player

    assert cube.value & (cube.value - 1) == 0
    assert maximum is None or cube.value <= maximum
    assert cube.owner == last_taker
    assert cube.offered_by is None
