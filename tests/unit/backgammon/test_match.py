"""Match and money play: score, Crawford and post-Crawford games, game points, Jacoby."""

from __future__ import annotations

import pytest

from backgammon.cube import Cube, CubeRules, beaver, double, opening_roll, take
from backgammon.errors import BackgammonError
from backgammon.game import ResultKind
from backgammon.match import MatchOptions, MatchState, game_points


def test_a_five_point_match_plays_one_crawford_game_then_post_crawford_games() -> None:
    # given a 5-point match whose games go: 0 wins 2, 1 wins 1, 0 wins 2 (4-1, 0 is 1-away),
    # 1 wins 1 in the Crawford game, 1 wins 2, 0 wins 1 (match over at 5-4)
    games = [(0, 2), (1, 1), (0, 2), (1, 1), (1, 2), (0, 1)]
    expected = [
        # score, crawford, post_crawford, over, winner
        ((2, 0), False, False, False, None),
        ((2, 1), False, False, False, None),
        ((4, 1), True, False, False, None),
        ((4, 2), False, True, False, None),
        ((4, 4), False, True, False, None),
        ((5, 4), False, True, True, 0),
    ]
    state = MatchState(length=5)

    for number, ((winner, points), want) in enumerate(zip(games, expected, strict=True), 2):
        state = state.after_game(winner, points)

        assert (state.score, state.crawford, state.post_crawford, state.over, state.winner) == (
            want
        )
        assert state.game_number == number


def test_nobody_may_double_in_the_crawford_game_but_may_after_it() -> None:
    crawford_game = MatchState(length=5, score=(3, 1)).after_game(0, 1)
    after_it = crawford_game.after_game(1, 1)

    with pytest.raises(BackgammonError, match=r"^No doubling in the Crawford game$"):
        double(Cube(), crawford_game.cube_rules(), player=1, on_roll=1, rolled=False)
    assert (
        double(Cube(), after_it.cube_rules(), player=1, on_roll=1, rolled=False).offered_value == 2
    )


def test_only_the_first_time_a_player_reaches_one_away_makes_a_crawford_game() -> None:
    # given the trailer also reaches 4 after the Crawford game
    state = MatchState(length=5, score=(4, 3), post_crawford=True)

    state = state.after_game(1, 1)

    assert state.score == (4, 4)
    assert not state.crawford
    assert state.post_crawford


@pytest.mark.parametrize(
    ("score", "winner", "points", "crawford"),
    [
        ((0, 0), 0, 4, True),  # straight to 1-away
        ((2, 0), 0, 4, False),  # jumps past 1-away and wins the match
        ((3, 0), 1, 2, False),  # the trailer scores without reaching 1-away
        ((0, 0), 0, 3, False),
    ],
)
def test_the_crawford_game_follows_reaching_exactly_one_away(
    score: tuple[int, int], winner: int, points: int, crawford: bool
) -> None:
    assert MatchState(length=5, score=score).after_game(winner, points).crawford is crawford


def test_without_the_crawford_rule_no_game_is_the_crawford_game() -> None:
    state = MatchState(length=5, options=MatchOptions(crawford_rule=False)).after_game(0, 4)

    assert not state.crawford
    assert not state.post_crawford


def test_points_past_the_match_length_are_shown_in_full() -> None:
    state = MatchState(length=5, score=(3, 3), post_crawford=True).after_game(1, 6)

    assert state.score == (3, 9)
    assert state.winner == 1
    assert state.away(1) == 0
    assert state.away(0) == 2


def test_a_finished_match_takes_no_more_games() -> None:
    state = MatchState(length=1).after_game(1, 1)

    with pytest.raises(BackgammonError, match=r"^The match is over$"):
        state.after_game(0, 1)


@pytest.mark.parametrize(
    ("result", "cube", "points"),
    [
        (ResultKind.SINGLE, Cube(), 1),
        (ResultKind.GAMMON, Cube(), 2),
        (ResultKind.BACKGAMMON, Cube(), 3),
        (ResultKind.SINGLE, Cube(value=4, owner=0), 4),
        (ResultKind.GAMMON, Cube(value=4, owner=1), 8),
        (ResultKind.BACKGAMMON, Cube(value=8, owner=1), 24),
    ],
)
def test_a_game_or_resignation_is_worth_cube_times_level(
    result: ResultKind, cube: Cube, points: int
) -> None:
    assert MatchState(length=7).game_points(result, cube) == points
    assert MatchState(length=0).game_points(result, cube) == points


@pytest.mark.parametrize(
    ("result", "cube", "points"),
    [
        (ResultKind.GAMMON, Cube(), 1),
        (ResultKind.BACKGAMMON, Cube(), 1),
        # automatic doubles leave the cube centred: the cube has not been turned
        (ResultKind.GAMMON, Cube(value=2, automatic_doubles=1), 2),
        (ResultKind.GAMMON, Cube(value=2, owner=1), 4),
        (ResultKind.BACKGAMMON, Cube(value=2, owner=0), 6),
    ],
)
def test_under_jacoby_gammons_count_only_once_the_cube_is_turned(
    result: ResultKind, cube: Cube, points: int
) -> None:
    session = MatchState(length=0, options=MatchOptions(jacoby=True))

    assert session.game_points(result, cube) == points


def test_the_jacoby_rule_never_applies_to_match_play() -> None:
    assert game_points(ResultKind.GAMMON, Cube(), money=False, jacoby=True) == 2


def test_money_play_with_jacoby_beavers_and_automatic_doubles() -> None:
    # given a money session with every money option
    options = MatchOptions(jacoby=True, beavers=True, automatic_doubles=1)
    session = MatchState(length=0, options=options)
    rules = session.cube_rules()

    # when game 1 opens with a double (automatic double), player 0 doubles and is beavered,
    # then player 1 wins a gammon
    cube = opening_roll(Cube(), rules, (4, 4))
    cube = beaver(double(cube, rules, player=0, on_roll=0, rolled=False), rules, player=1)
    session = session.after_game(1, session.game_points(ResultKind.GAMMON, cube))

    # and game 2 is a gammon without the cube turned
    session = session.after_game(0, session.game_points(ResultKind.GAMMON, Cube()))

    # then the beavered cube counted 8 times 2, the untouched gammon only a single
    assert cube == Cube(value=8, owner=1, automatic_doubles=1)
    assert session.score == (1, 16)
    assert session.game_number == 3
    assert not session.over
    assert session.winner is None
    assert not session.crawford


def test_money_play_never_reaches_a_crawford_game() -> None:
    session = MatchState(length=0)
    for _ in range(5):
        session = session.after_game(0, 1)

    assert session.cube_rules() == CubeRules(money=True)
    with pytest.raises(BackgammonError, match=r"^Money play has no match length to count down to$"):
        session.away(0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"length": -1}, "A match is played to 1 to 32767 points (0 for money play), not -1"),
        ({"length": 5, "score": (-1, 0)}, "A score cannot be negative"),
        ({"length": 0, "crawford": True}, "Money play has no Crawford game"),
        (
            {"length": 5, "options": MatchOptions(jacoby=True)},
            "The Jacoby rule, beavers and automatic doubles belong to money play",
        ),
        (
            {"length": 5, "crawford": True, "post_crawford": True},
            "A game cannot be both the Crawford game and after it",
        ),
        (
            {"length": 0, "options": MatchOptions(raccoons=True)},
            "Raccoons answer beavers: allow beavers to allow raccoons",
        ),
        (
            {"length": 0, "options": MatchOptions(automatic_doubles=-1)},
            "The number of automatic doubles cannot be negative",
        ),
        (
            {"length": 7, "options": MatchOptions(max_cube=48)},
            "The maximum cube is a power of two, like 64, not 48",
        ),
    ],
)
def test_impossible_match_settings_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(BackgammonError) as refused:
        MatchState(**kwargs)  # type: ignore[arg-type]

    assert str(refused.value) == message


def test_a_redouble_after_a_take_is_worth_the_new_value_in_the_match() -> None:
    state = MatchState(length=7, score=(2, 3))
    rules = state.cube_rules()
    cube = take(double(Cube(), rules, player=0, on_roll=0, rolled=False), player=1)
    cube = take(double(cube, rules, player=1, on_roll=1, rolled=False), player=0)

    state = state.after_game(0, state.game_points(ResultKind.SINGLE, cube))

    assert state.score == (6, 3)
    assert state.crawford
