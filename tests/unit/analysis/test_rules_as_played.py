"""A match is analysed under the rules it was played by, not the ones its .mat file can say:
no Crawford rule, automatic doubles, match swing's match cube.

Each expected figure is worked out here from a direct evaluation of the position by the
engine, with the cube information written out in the test (score, Crawford flag, cube), or
from the stake arithmetic of :mod:`analysis.rules_as_played`, never read from the analysis
under test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.engine import EvalSettings, InvalidMatchError
from analysis.gnubg_found import gnubg_found
from analysis.gnubg_process import GnubgProcess
from analysis.match_analysis import Decision
from analysis.rules_as_played import MatchDouble, RulesAsPlayed
from backgammon.matchid import MatchId

MATS = Path(__file__).parents[2] / "data" / "mat"
PLIES = 0
NO_CRAWFORD = '; [Crawford "Off"]\n'


def three_point_match(crawford_rule: bool) -> str:
    text = (MATS / "crawford_3pt.mat").read_text()
    return text if crawford_rule else NO_CRAWFORD + text


def before_the_roll(decision: Decision, *, length: int, score: tuple[int, int]) -> str:
    """The GNUBG ID of the position of a checker decision before its roll, with the cube
    of its Match ID and the rest of the cube information given here."""
    cube = MatchId.decode(decision.match_id)
    match_id = MatchId(
        cube_value=cube.cube_value,
        cube_owner=cube.cube_owner,
        player_on_roll=decision.player,
        turn=decision.player,
        length=length,
        score=score,
        crawford=False,
    )
    return f"{decision.position_id}:{match_id.encode()}"


def test_without_the_crawford_rule_the_trailers_double_at_1_away_is_analysed(
    engine: GnubgProcess,
) -> None:
    # given the 3-point match in which Alice went 1-away in game 1, played with and without
    # the Crawford rule
    with_rule = engine.analyse_match(three_point_match(True), plies=PLIES)

    # when the one without it is analysed
    analysis = engine.analyse_match(three_point_match(False), plies=PLIES)

    # then game 2 is no Crawford game and Bob's cube is live in it: his first no double
    # costs what the engine says of his position at 2-0, post-Crawford, cube centred
    assert "Crawford" not in analysis.rules
    assert [game.crawford for game in analysis.games] == [False, False, False]
    assert not [d for d in with_rule.games[1].decisions if d.kind == "cube"]
    first = next(d for d in analysis.games[1].decisions if d.kind == "cube")
    assert (first.player, first.action, first.best) == (1, "no double", "double")
    evaluated = engine.evaluate(
        f"{first.position_id}:"
        + MatchId(player_on_roll=1, turn=1, length=3, score=(2, 0), crawford=False).encode(),
        EvalSettings(plies=PLIES),
    )
    assert evaluated.crawford is False
    cube = evaluated.cube
    assert cube.double_take < cube.double_pass
    assert first.error == pytest.approx(cube.double_take - cube.no_double, abs=1e-4)
    assert first.error > 0.03


def test_an_automatic_double_starts_the_game_at_the_doubled_cube(engine: GnubgProcess) -> None:
    # given a money session whose first game began with an automatic double: its cube was
    # at 2 before the first roll, so the double in it was to 4 and the game won 4 points
    text = (MATS / "money_session.mat").read_text()
    text = text.replace("Doubles => 2 ", "Doubles => 4 ", 1).replace(
        "Wins 2 points", "Wins 4 points"
    )
    text = text.replace(" Alice : 2 ", " Alice : 4 ")
    rules = RulesAsPlayed(initial_cubes=(2, 1))

    # when it is analysed with and without being told
    analysis = engine.analyse_match(text, plies=PLIES, rules=rules)
    unaware = engine.analyse_match(text, plies=PLIES)

    # then the game starts at the cube of 2, centred, and is scored on it
    first = analysis.games[0]
    assert first.points == 4
    assert unaware.games[0].points == 2
    opening = first.decisions[0]
    assert MatchId.decode(opening.match_id).cube_value == 2
    assert MatchId.decode(opening.match_id).cube_owner is None
    # and each error costs its equity times the cube it was made at: 2, then 4 after the
    # take (computed here from where the take is, not from the analysis's Match IDs)
    take = next(i for i, d in enumerate(first.decisions) if d.action == "take")
    assert first.statistics is not None
    for player in (0, 1):
        expected = sum(
            d.error * (2 if index < take else 4)
            for index, d in enumerate(first.decisions)
            if d.player == player and d.kind == "checker"
        )
        assert first.statistics[player].checker_error_cost == pytest.approx(expected, abs=1e-3)
    assert analysis.games[1].decisions[0].match_id == unaware.games[1].decisions[0].match_id


def test_a_match_double_is_judged_on_the_doublers_match_winning_chances(
    engine: GnubgProcess,
) -> None:
    # given the 3-point match without the Crawford rule, and in its last game (2-1) two
    # match doubles: Alice's while Bob is ahead, taken; Bob's redouble late, when he is far
    # ahead, taken too
    text = three_point_match(False)
    game = engine.analyse_match(text, plies=PLIES).games[2]
    checker = [d for d in game.decisions if d.kind == "checker"]
    alice, bob = checker[7], checker[44]
    assert (alice.player, bob.player) == (0, 1)
    doubles = tuple(
        MatchDouble(
            game=3,
            rolls=rolls,
            player=decision.player,
            gnubg_id=before_the_roll(decision, length=3, score=(2, 1)),
            taken=True,
        )
        for rolls, decision in ((7, alice), (44, bob))
    )

    # when the match is analysed with them
    analysed = engine.analyse_match(text, plies=PLIES, rules=RulesAsPlayed(match_doubles=doubles))

    # then each double and take is listed where it was made, judged on the doubler's MWC
    # from a direct evaluation: no double 2p - 1, take 2(2p - 1), drop +1, in stakes
    decisions = analysed.games[2].decisions
    judged = [d for d in decisions if d.kind == "match cube"]
    assert [(d.player, d.action) for d in judged] == [
        (0, "match double"),
        (1, "match take"),
        (1, "match double"),
        (0, "match take"),
    ]
    for double in doubles:
        evaluated = engine.evaluate(double.gnubg_id, EvalSettings(plies=PLIES))
        assert evaluated.player_on_roll == double.player
        p = evaluated.player(double.player).mwc
        assert p is not None
        no_double, take, drop = 2 * p - 1, 2 * (2 * p - 1), 1.0
        index = decisions.index(next(d for d in judged if d.gnubg_id == double.gnubg_id))
        offer, answer, following = decisions[index : index + 3]
        assert offer.best == ("match double" if min(take, drop) > no_double else "no match double")
        assert offer.error == pytest.approx(max(no_double - min(take, drop), 0.0), abs=1e-6)
        assert answer.best == ("match take" if 1 - p >= 0.25 else "match drop")
        assert answer.error == pytest.approx(max(take - drop, 0.0), abs=1e-6)
        # and the doubler's roll comes next: the one after as many rolls as before it
        assert following.player == double.player
        assert following.position_id == checker[double.rolls].position_id
    first, second = (
        engine.evaluate(d.gnubg_id, EvalSettings(plies=PLIES)).player(d.player).mwc for d in doubles
    )
    assert first is not None
    assert first < 0.5  # Alice doubled as the underdog: an error
    assert judged[0].error > 0.12
    assert judged[0].skill == "very bad"
    assert (judged[1].best, judged[1].error) == ("match take", 0.0)
    assert second is not None
    assert second > 0.75  # Alice should have dropped Bob's redouble
    assert judged[3].best == "match drop"
    assert judged[3].error > 0
    # and GNU Backgammon's own figures for the games are untouched by them
    plain = engine.analyse_match(text, plies=PLIES)
    assert analysed.statistics == plain.statistics


def test_a_match_double_in_a_position_that_is_not_one_is_refused(engine: GnubgProcess) -> None:
    game = engine.analyse_match(three_point_match(False), plies=PLIES).games[2]
    decision = next(d for d in game.decisions if d.kind == "checker" and d.player == 0)
    double = MatchDouble(
        game=3,
        rolls=1,
        player=1,
        gnubg_id=before_the_roll(decision, length=3, score=(2, 1)),
        taken=False,
    )

    with pytest.raises(InvalidMatchError):
        engine.analyse_match(
            three_point_match(False), plies=PLIES, rules=RulesAsPlayed(match_doubles=(double,))
        )


def test_the_python_package_refuses_a_match_it_cannot_be_given_the_rules_of() -> None:
    # given the gnubg Python package, which crashes loading the SGF the rules go through
    if not gnubg_found("package").available:
        pytest.skip("the gnubg Python package is not installed")
    # when it is asked for a match without the Crawford rule, then it says why not
    with (
        GnubgProcess(choice="package") as package,
        pytest.raises(InvalidMatchError, match="cannot be given the rules"),
    ):
        package.analyse_match(three_point_match(False), plies=PLIES)
