"""The course of a game: rolling, playing, the cube and resignations, with the messages."""

from __future__ import annotations

import pytest

from backgammon.board import Board
from backgammon.cube import Cube, CubeRules, Offer
from backgammon.errors import BackgammonError
from backgammon.moves import apply_play, legal_plays
from backgammon.turns import (
    EndReason,
    GameRules,
    GameState,
    Phase,
    accept_resignation,
    beaver,
    double,
    drop,
    forced_play,
    forfeit,
    game_points,
    opening,
    play,
    raccoon,
    reject_resignation,
    resign,
    roll,
    take,
)

MATCH = GameRules()
MONEY = GameRules(cube=CubeRules(money=True, beavers=True), jacoby=True)
RACCOONS = GameRules(cube=CubeRules(money=True, beavers=True, raccoons=True))


def rolled_state(**changes: object) -> GameState:
    """Player 0 on roll, waiting to roll, at the starting position."""
    base = {"board": Board.initial(), "on_roll": 0, "phase": Phase.ROLL}
    base.update(changes)
    return GameState(**base)  # type: ignore[arg-type]


def test_the_opening_roll_goes_to_the_higher_die_who_plays_both_numbers() -> None:
    state = opening([(3, 5)], MATCH)

    assert state.on_roll == 1
    assert state.phase is Phase.MOVE
    assert state.dice == (5, 3)


@pytest.mark.parametrize(
    ("first", "second"), [(a, b) for a in range(1, 7) for b in range(1, 7) if a != b]
)
def test_every_opening_roll_can_be_played_from_the_starting_position(
    first: int, second: int
) -> None:
    # ``opening`` does not search the plays from the starting position: it needs none
    dice = (max(first, second), min(first, second))

    assert legal_plays(Board.initial(), dice)
    assert opening([(first, second)], MATCH).phase is Phase.MOVE


def test_equal_opening_dice_are_thrown_again_not_played() -> None:
    with pytest.raises(ValueError, match="thrown again"):
        opening([(4, 4)], MATCH)


def test_automatic_doubles_turn_the_centred_cube_on_equal_opening_throws() -> None:
    rules = GameRules(cube=CubeRules(money=True, automatic_doubles=1))

    state = opening([(2, 2), (5, 5), (6, 1)], rules)

    assert state.cube.value == 2
    assert state.cube.centred


def test_a_play_passes_the_turn_with_the_board_seen_by_the_next_player() -> None:
    state = opening([(6, 5)], MATCH)

    after, played = play(state, 0, "24/13", MATCH)

    assert after.on_roll == 1
    assert after.phase is Phase.ROLL
    assert after.dice is None
    assert after.board == apply_play(state.board, played).swapped()
    assert (played[0].from_point, played[-1].to_point, len(played)) == (24, 13, 2)


def test_an_illegal_play_is_refused_with_the_rule() -> None:
    state = opening([(6, 5)], MATCH)

    with pytest.raises(BackgammonError, match=r"^Both dice must be played: 24/18 \S+ is possible$"):
        play(state, 0, "24/18", MATCH)


@pytest.mark.parametrize(
    ("state", "seat", "message"),
    [
        (rolled_state(), 1, "It is not your turn"),
        (rolled_state(phase=Phase.MOVE, dice=(3, 1)), 0, "You have rolled already: play your dice"),
        (
            rolled_state(phase=Phase.DOUBLED, cube=Cube(1, None, Offer.DOUBLE, 0, 2)),
            0,
            "Wait for your opponent to answer your double",
        ),
        (
            rolled_state(phase=Phase.DOUBLED, cube=Cube(1, None, Offer.DOUBLE, 1, 2)),
            0,
            "Answer the double: take or drop",
        ),
    ],
)
def test_rolling_out_of_turn_says_what_the_game_waits_for(
    state: GameState, seat: int, message: str
) -> None:
    with pytest.raises(BackgammonError, match=message):
        roll(state, seat, (3, 1))


def test_playing_before_rolling_is_refused() -> None:
    with pytest.raises(BackgammonError, match="Roll the dice first"):
        play(rolled_state(), 0, "8/5 6/5", MATCH)


def test_a_roll_that_cannot_be_played_passes_the_turn() -> None:
    # Player 0 has a checker on the bar against a closed board.
    closed = Board.from_points({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    state = rolled_state(board=closed)

    after = roll(state, 0, (6, 6))

    assert after.on_roll == 1
    assert after.phase is Phase.ROLL
    assert after.board == closed.swapped()


@pytest.mark.parametrize(
    ("state", "rules", "message"),
    [
        (
            rolled_state(),
            GameRules(cube=CubeRules(crawford_game=True)),
            "No doubling in the Crawford game",
        ),
        (rolled_state(cube=Cube(2, 1)), MATCH, "your opponent owns the cube"),
        (rolled_state(phase=Phase.MOVE, dice=(3, 1)), MATCH, "only allowed before you roll"),
        (rolled_state(cube=Cube(8, 0)), GameRules(cube=CubeRules(max_cube=8)), r"maximum \(8\)"),
        (rolled_state(), GameRules(cube_enabled=False), "without the doubling cube"),
    ],
)
def test_who_may_not_double_and_why(state: GameState, rules: GameRules, message: str) -> None:
    with pytest.raises(BackgammonError, match=message):
        double(state, 0, rules)


def test_the_owner_or_either_player_with_a_centred_cube_may_double() -> None:
    assert double(rolled_state(), 0, MATCH).phase is Phase.DOUBLED
    assert double(rolled_state(cube=Cube(2, 0)), 0, MATCH).to_act == 1


def test_a_take_doubles_the_cube_and_gives_it_to_the_taker() -> None:
    offered = double(rolled_state(), 0, MATCH)

    taken = take(offered, 1)

    assert (taken.cube.value, taken.cube.owner, taken.phase, taken.on_roll) == (2, 1, Phase.ROLL, 0)
    assert taken.cube.turned


def test_a_drop_loses_the_value_before_the_double() -> None:
    state = rolled_state(cube=Cube(4, 0))

    dropped = drop(double(state, 0, MATCH), 1)

    assert dropped.phase is Phase.OVER
    assert dropped.outcome is not None
    assert (dropped.outcome.winner, dropped.outcome.points, dropped.outcome.reason) == (
        0,
        4,
        EndReason.DROPPED,
    )


def test_the_doubler_cannot_take_their_own_double() -> None:
    with pytest.raises(BackgammonError, match="Your opponent must answer your offer"):
        take(double(rolled_state(), 0, MATCH), 0)


def test_a_beaver_redoubles_at_once_and_the_beaverer_keeps_the_cube() -> None:
    beavered = beaver(double(rolled_state(), 0, MONEY), 1, MONEY)

    assert (beavered.cube.value, beavered.cube.owner, beavered.on_roll) == (4, 1, 0)
    assert beavered.phase is Phase.ROLL


def test_a_raccoon_answers_a_beaver_where_allowed() -> None:
    beavered = beaver(double(rolled_state(), 0, RACCOONS), 1, RACCOONS)
    assert beavered.phase is Phase.DOUBLED
    assert beavered.to_act == 0

    raccooned = raccoon(beavered, 0, RACCOONS)

    assert (raccooned.cube.value, raccooned.cube.owner, raccooned.phase) == (8, 0, Phase.ROLL)


def test_beavers_only_when_the_session_allows_them() -> None:
    with pytest.raises(BackgammonError, match="Beavers are allowed only in money play"):
        beaver(double(rolled_state(), 0, MATCH), 1, MATCH)


def test_redoubles_have_no_limit_without_a_maximum() -> None:
    state = rolled_state(cube=Cube(512, 0))

    assert take(double(state, 0, MATCH), 1).cube.value == 1024


def test_a_resignation_accepted_scores_level_times_cube() -> None:
    state = rolled_state(cube=Cube(2, 1))

    offered = resign(state, 0, 2)
    accepted = accept_resignation(offered, 1, MATCH)

    assert accepted.outcome is not None
    assert (accepted.outcome.winner, accepted.outcome.level, accepted.outcome.points) == (1, 2, 4)


def test_a_rejected_resignation_resumes_the_game_where_it_was() -> None:
    state = rolled_state(phase=Phase.MOVE, dice=(6, 5))

    resumed = reject_resignation(resign(state, 0, 1), 1)

    assert resumed == state


def test_jacoby_counts_a_gammon_single_until_the_cube_is_turned() -> None:
    centred = rolled_state()
    turned = rolled_state(cube=Cube(2, 1))

    assert game_points(centred, 2, MONEY) == 1
    assert game_points(turned, 2, MONEY) == 4
    assert game_points(centred, 2, MATCH) == 2


def test_bearing_off_the_last_checker_wins_a_gammon_when_the_loser_has_none_off() -> None:
    # The loser's 15 checkers wait on their own 13 point, outside the winner's home board.
    board = Board.from_points({1: 1}, {13: 15})
    state = rolled_state(board=board, phase=Phase.MOVE, dice=(2, 1))

    over, _ = play(state, 0, "1/off", MATCH)

    assert over.phase is Phase.OVER
    assert over.outcome is not None
    assert (over.outcome.winner, over.outcome.level, over.outcome.points) == (0, 2, 2)


def test_a_forced_play_is_found_when_it_is_the_only_one() -> None:
    board = Board.from_points({1: 1}, {19: 15})
    state = rolled_state(board=board, phase=Phase.MOVE, dice=(2, 1))

    only = forced_play(state)

    assert only is not None
    assert len(only) == 1


def test_a_timeout_loses_a_single_at_the_cube_value() -> None:
    state = rolled_state(cube=Cube(4))

    over = forfeit(state, 0, EndReason.TIMEOUT)

    assert over.outcome is not None
    assert (over.outcome.winner, over.outcome.points) == (1, 4)
