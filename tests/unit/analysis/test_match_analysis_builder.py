"""The clean form of a match analysis, built from a saved answer of the gnubg server.

The sample is the server's answer for tests/data/mat/crawford_3pt.mat at 0-ply, kept small
(three candidates or up to the one played, no probabilities, six decimals).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analysis.cube_decisions import CubeVerdict
from analysis.gnubg_match_analysis import beavers_allowed
from analysis.match_analysis import Decision, MatchAnalysis, match_analysis
from backgammon.matchid import MatchId
from backgammon.notation import format_play, parse_moves

SAMPLE = Path(__file__).parents[2] / "data" / "mat" / "crawford_3pt.analysis.json"


@pytest.fixture(scope="module")
def answer() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SAMPLE.read_text())
    return loaded


@pytest.fixture(scope="module")
def analysis(answer: dict[str, Any]) -> MatchAnalysis:
    return match_analysis(answer)


def test_match_names_players_length_and_games(analysis: MatchAnalysis) -> None:
    assert analysis.players == ("Alice", "Bob")
    assert analysis.match_length == 3
    assert not analysis.money
    assert analysis.plies == 0
    assert [game.number for game in analysis.games] == [1, 2, 3]
    assert [game.crawford for game in analysis.games] == [False, True, False]
    assert [game.winner for game in analysis.games] == [0, 1, 1]


def test_decisions_are_numbered_from_one_in_each_game(analysis: MatchAnalysis) -> None:
    for game in analysis.games:
        assert [decision.number for decision in game.decisions] == list(
            range(1, len(game.decisions) + 1)
        )
        assert {decision.game for decision in game.decisions} == {game.number}


def test_checker_error_is_best_equity_minus_the_played_one(analysis: MatchAnalysis) -> None:
    mistakes = [d for d in analysis.decisions if d.kind == "checker" and d.played != d.best]

    assert mistakes
    for decision in mistakes:
        played = [c for c in decision.candidates if c.move == decision.played]
        if played:
            assert decision.error == pytest.approx(decision.candidates[0].equity - played[0].equity)
        assert decision.error >= 0
        assert decision.error_mwc is not None
    assert any(decision.error > 0 for decision in mistakes)


@pytest.mark.parametrize(
    ("error", "mark"),
    [(0.0, None), (0.02, None), (0.04, "doubtful"), (0.07, "bad"), (0.2, "very bad")],
)
def test_skill_marks_follow_gnubg_thresholds(
    analysis: MatchAnalysis, error: float, mark: str | None
) -> None:
    """Every marked checker play in the sample sits in the band of its mark."""
    bands = {None: (0.0, 0.03), "doubtful": (0.03, 0.06), "bad": (0.06, 0.12)}
    low, high = bands.get(mark, (0.12, 99.0))
    assert low <= error < high
    for decision in analysis.decisions:
        if decision.kind == "checker" and decision.skill == mark:
            assert low - 1e-6 <= decision.error < high + 1e-6


def test_take_of_a_pass_is_priced_from_the_doublers_equities(analysis: MatchAnalysis) -> None:
    cube = [d for d in analysis.decisions if d.kind == "cube" and d.action != "no double"]

    double, take = cube
    assert (double.player, double.action, double.best, double.error) == (1, "double", "double", 0)
    assert (take.player, take.action, take.best, take.skill) == (0, "take", "drop", "very bad")
    assert take.gnubg_id.split(":")[0] == double.position_id
    assert take.match_id != double.match_id
    assert take.error == pytest.approx(0.167067, abs=1e-5)


def test_statistics_come_from_gnubg_and_pr_is_half_the_error_rate(
    analysis: MatchAnalysis,
) -> None:
    alice, bob = analysis.statistics

    assert (alice.unforced_moves, alice.close_cube_decisions) == (68, 4)
    assert alice.decisions == 72
    assert alice.error_rate == pytest.approx(1000 * (alice.checker_error + alice.cube_error) / 72)
    assert alice.pr == pytest.approx(alice.error_rate / 2)  # type: ignore[operator]
    assert bob.luck_rating == "None"
    assert (alice.checker_rating, alice.overall_rating) == ("Awful!", "Awful!")


def test_forced_moves_are_decisions_without_alternatives(analysis: MatchAnalysis) -> None:
    forced: list[Decision] = [d for d in analysis.decisions if d.forced]

    assert all(d.error == 0 for d in forced)
    assert all(len(d.candidates) <= 1 for d in forced)


def test_match_ids_carry_score_crawford_cube_and_the_offered_double(
    analysis: MatchAnalysis,
) -> None:
    for game in analysis.games:
        for decision in game.decisions:
            match_id = MatchId.decode(decision.match_id)
            assert (match_id.length, match_id.score) == (3, game.score)
            assert match_id.crawford == game.crawford
            assert match_id.double_offered == (decision.action in ("take", "drop"))
            assert match_id.turn == decision.player
    take = next(d for d in analysis.decisions if d.action == "take")
    later = [d for d in analysis.games[2].decisions if d.number > take.number]
    assert {MatchId.decode(d.match_id).cube_value for d in later} == {2}
    assert {MatchId.decode(d.match_id).cube_owner for d in later} == {0}


def test_plays_are_written_as_the_move_list_writes_them(analysis: MatchAnalysis) -> None:
    # GNU Backgammon writes 6/5 6/4 or bar/24 bar/23, the move list 6/4 6/5 and bar/23
    # bar/24: the analysis names each play in the move list's words.
    checker = [d for d in analysis.decisions if d.kind == "checker"]
    written = [d.played for d in checker] + [c.move for d in checker for c in d.candidates]

    assert [text for text in written if text != format_play(parse_moves(text))] == []
    assert "6/5 6/4" not in written
    assert "6/4 6/5" in written


def test_cube_decisions_carry_their_three_equities_and_proper_action(
    analysis: MatchAnalysis,
) -> None:
    cube = [d for d in analysis.decisions if d.kind == "cube"]

    assert cube
    assert all(d.cube is not None for d in cube)
    assert all(d.cube is None for d in analysis.decisions if d.kind == "checker")
    double, take = (d for d in cube if d.action in ("double", "take"))
    assert double.cube == take.cube
    assert double.cube is not None
    assert double.cube.emg == pytest.approx((0.863296, 1.167067, 1.0))
    assert double.cube.mwc == pytest.approx((0.465824, 0.541767, 0.5))
    assert double.cube.verdict is CubeVerdict.DOUBLE_PASS
    assert double.cube.centred
    # the take's error is what the double/pass row beats the double/take row by, in MWC too
    assert take.error_mwc == pytest.approx(0.541767 - 0.5)


def test_too_good_positions_are_named_and_not_doubling_there_is_right(
    analysis: MatchAnalysis,
) -> None:
    # GNU Backgammon's "Too good to double, pass": the analysis said "no double" before
    too_good = [d for d in analysis.decisions if d.cube is not None and d.cube.verdict.too_good]

    assert too_good
    for decision in too_good:
        assert decision.cube is not None
        assert decision.cube.verdict is CubeVerdict.TOO_GOOD_PASS
        assert (decision.action, decision.best, decision.error) == ("no double", "too good", 0)
        no_double, _, double_pass = decision.cube.emg
        assert no_double > double_pass


def test_a_double_in_a_too_good_position_gives_up_the_gammons(
    answer: dict[str, Any],
) -> None:
    # given the sample's first too-good position, as if the player had doubled there
    edited = json.loads(json.dumps(answer))
    game, index = next(
        (game, index)
        for game, actions in enumerate(edited["actions"])
        for index, entry in enumerate(actions)
        if "cube" in entry and entry["cube"]["emg"][0] > 1.0 and entry["cube"]["gammon"]
    )
    record = edited["raw"]["games"][game]["game"][index]
    edited["actions"][game][index]["kind"] = "double"
    record["action"] = "double"
    no_double, double_take, double_pass = edited["actions"][game][index]["cube"]["emg"]

    # when it is built
    double = next(
        d
        for d in match_analysis(edited).games[game].decisions
        if d.action == "double" and d.cube is not None and d.cube.verdict.too_good
    )

    # then the double is the error: it cashes 1.0 where playing on was worth more
    assert double.best == "too good"
    assert double.error == pytest.approx(no_double - min(double_take, double_pass))
    assert double.error > 0


@pytest.mark.parametrize(
    ("header", "length", "allowed"),
    [
        ("", 0, True),  # GNU Backgammon's own default
        ('; [Beaver "On"]\n', 0, True),
        ('; [Beaver "Off"]\n', 0, False),
        ('; [Beavers "off"]\n', 0, False),
        ('; [Beaver "On"]\n', 7, False),  # never in match play
    ],
)
def test_beavers_are_allowed_in_money_play_unless_the_file_says_off(
    header: str, length: int, allowed: bool
) -> None:
    mat = f"{header}\n {length} point match\n\n Game 1\n"

    assert beavers_allowed(mat, length) is allowed
