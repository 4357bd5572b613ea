"""A money session played to its end through the API is analysed on the ``review`` queue,
with GNU Backgammon's own money-play figures: every error in equity normalised to a 1-cube
(EMG), whatever the cube stood at, and no match winning chances anywhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from accounts.models import PerformanceRecord
from matches.engine import engine
from matches.models import Action, ActionKind, FinishReason, Match
from reviews.models import Analysis
from reviews.results import result_of
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, api_for, start_match
from tests.integration.reviews.helpers import analysis_finished
from tests.unit.analysis.test_match_analysis_agrees_with_gnubg import printed_statistics

# Both players start with 1,000 FUN; a game of this session may cost 3 × 4 × 60 = 720 FUN,
# so the session ends once one of them has lost more than 280 FUN (the dice are known, so
# it is the same few games every run).
STAKE_CENTS = 6000
MAX_CUBE = 4

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_a_money_session_is_analysed_by_the_review_worker_in_emg_per_1_cube(
    review_worker: None, tmp_path: Path
) -> None:
    # given a money session without the Jacoby rule, doubled and redoubled to the highest
    # cube every game, played through the API until a player cannot cover the next game
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(
        alice, bruno, money=True, stake_cents=STAKE_CENTS, max_cube=MAX_CUBE, jacoby=False
    )
    final = Bot({"alice": alice, "bruno": bruno}, doubles=True).play_out(match_id)
    assert final["status"] == "finished"
    match = Match.objects.get(pk=match_id)
    assert (match.kind, match.length, match.finish_reason) == (
        "money",
        0,
        FinishReason.SESSION_ENDED,
    )
    games = match.games.exclude(winner_seat=None).count()
    assert games >= 2, "a session of one game tells too little"
    kinds = set(Action.objects.filter(match_id=match_id).values_list("kind", flat=True))
    assert {ActionKind.DOUBLE, ActionKind.TAKE} <= kinds

    # when the review worker has analysed it (queued when the session ended)
    client = api_for(alice)
    data = analysis_finished(client, f"/api/matches/{match_id}/analysis/")

    # then it is done, as money play, at the depth asked for
    assert data["status"] == "done", data["error"]
    assert (data["length"], data["origin"], data["match"]) == (0, "played", match_id)
    assert data["settings"]["plies"] == 0
    assert data["progress"]["done"] == data["progress"]["total"] > 0
    # and every figure is GNU Backgammon's for the session's .mat download at that depth
    exported = client.get(f"/api/matches/{match_id}/export.mat")
    assert exported.status_code == 200
    text = exported.content.decode()
    assert "\n 0 point match\n" in text
    assert '[Jacoby "Off"]' in text
    assert Analysis.objects.get(match_id=match_id).mat == text
    analysed = engine().analyse_match(text, plies=0)
    assert analysed.money
    assert "Jacoby" not in analysed.rules
    expected = result_of(analysed, ["alice", "bruno"])
    assert data["players"] == expected["players"]
    assert data["games"] == expected["games"]
    assert data["decisions"] == expected["decisions"]
    assert data["course"] == expected["course"]
    assert [p["username"] for p in data["players"]] == ["alice", "bruno"]
    assert len(data["games"]) == games
    assert all(game["players"] is not None for game in data["games"])
    assert data["games"][0]["score"] == [0, 0]

    # and the cube actions are among the decisions analysed, in equity: money has no MWC
    actions = {d["action"] for d in data["decisions"] if d["kind"] == "cube"}
    assert {"double", "take"} <= actions
    assert all(d["error_mwc"] is None for d in data["decisions"])
    assert all(c["mwc"] is None for d in data["decisions"] for c in d["candidates"])
    assert any(d["mark"] for d in data["decisions"])

    # and the errors are EMG, per 1-cube, as GNU Backgammon's own statistics print them
    # (run apart, with the session's rule): not the points lost at the cube of the moment
    path = tmp_path / "session.mat"
    path.write_text(text)
    printed = printed_statistics(path, games, "set jacoby off")
    for figures, shown, stats in zip(data["players"], printed[0], analysed.statistics, strict=True):
        assert figures["checker_error"] == pytest.approx(shown.checker_error, abs=0.0006)
        assert figures["cube_error"] == pytest.approx(shown.cube_error, abs=0.0006)
        assert figures["error_rate"] == pytest.approx(shown.error_rate, abs=0.051)
        assert figures["pr"] == pytest.approx(shown.error_rate / 2, abs=0.026)
        assert figures["pr"] == pytest.approx(
            500 * figures["error"] / figures["decisions"], abs=0.006
        )
        assert figures["decisions"] == shown.unforced_moves + shown.close_cube_decisions
        assert figures["luck"] == pytest.approx(shown.luck, abs=0.0006)
        # the points lost are larger: most errors were made with the cube at 2 or 4
        assert stats.checker_error_cost > figures["checker_error"] + 0.01
    # and each player's PR is on record for their profile
    records = {r.user.username: r for r in PerformanceRecord.objects.select_related("user")}
    assert set(records) == {"alice", "bruno"}
    for seat, name in enumerate(("alice", "bruno")):
        assert records[name].pr == pytest.approx(data["players"][seat]["pr"], abs=0.01)
