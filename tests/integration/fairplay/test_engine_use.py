"""Engine assistance is found from analysed matches: a player whose window no human of their
rating plays gets a fair-play case; people of several strengths do not.

The first test plays a scripted population through the match API, every match analysed by
the real GNU Backgammon at 0 ply and scanned by the fair-play task, as the review worker and
then the default worker would once it ends. The others
set up stored analyses (rows written directly, with the decisions an analysis lists) where
playing the matches would only cost time: a fitted population of forty players, and
windows whose figures are chosen.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db.models import Q
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from accounts.performance import performance_record
from analysis.engine import Strength
from fairplay import tasks as fairplay_tasks
from fairplay.detectors.engine_use import engine_window, pr_fit, scan_analysis
from fairplay.models import Case, CaseEvent, CaseKind
from matches.engine import engine
from matches.models import Match, MatchStatus
from reviews.models import Analysis, AnalysisSource, AnalysisStatus
from reviews.services import analysis_for_match, analysis_run
from tests.factories import UserFactory
from tests.integration.matches.helpers import board_opened

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

Chooser = Callable[[dict[str, Any], int], dict[str, Any]]


def engine_best(game: dict[str, Any], seed: int) -> dict[str, Any]:
    """GNU Backgammon's best play at 0 ply, the depth the matches are analysed at.

    The engine's answer names its best play before the noise of the strength asked for is
    added, so any 0-ply strength gives it.
    """
    choice = engine().best_move(game["gnubg_id"], tuple(game["dice"]), Strength.ADVANCED)
    return {"play": choice.best_move}


def human(strength: Strength) -> Chooser:
    """A person of ``strength``: GNU Backgammon's own model of one, its equity judged with
    the noise of that strength (a beginner misjudges by 0.06 EMG, an advanced player 0.015)."""

    def choose(game: dict[str, Any], seed: int) -> dict[str, Any]:
        choice = engine().best_move(game["gnubg_id"], tuple(game["dice"]), strength, seed=seed)
        return {"position_id": choice.position_id}

    return choose


class Table:
    """Plays 1-point matches through the REST API, each player choosing plays their way."""

    def __init__(self, players: dict[str, Chooser]) -> None:
        self.users = {name: UserFactory(username=name) for name in players}
        self.clients = {name: _api_for(user) for name, user in self.users.items()}
        self.choosers = players

    def play(self, first: str, second: str, number: int) -> int:
        created = self.clients[first].post(
            "/api/matches/", {"opponent": second, "length": 1}, format="json"
        )
        assert created.status_code == 201, created.json()
        match_id = created.json()["id"]
        Match.objects.filter(pk=match_id).update(dice_seed=f"{number + 1:04x}" * 16)
        for name in (first, second):
            board_opened(match_id, self.users[name])  # at the board: no turn notices
        state = self.clients[second].post(f"/api/matches/{match_id}/accept/", format="json").json()
        for seq in range(1, 1000):
            if state["status"] != "playing":
                return match_id
            game = state["game"]
            player = game["turn"]
            if game["phase"] == "roll":
                body = {"type": "roll"}
            else:
                assert game["phase"] == "move", game["phase"]
                body = {"type": "play", **self.choosers[player](game, number * 1000 + seq)}
            response = self.clients[player].post(
                f"/api/matches/{match_id}/actions/", {**body, "seq": seq}, format="json"
            )
            assert response.status_code == 200, (body, response.json())
            state = response.json()
        raise AssertionError("the match did not finish")


def _api_for(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def analysed_at_0_ply() -> Iterator[None]:
    with override_settings(ANALYSE_FINISHED_MATCHES=True, ANALYSIS_PLIES=0):
        yield


def analyse_and_scan(match_id: int) -> None:
    """What the default worker (asking for the analysis), the review worker and then the
    default worker again do once a match has finished."""
    analysis = analysis_for_match(match_id)
    assert analysis is not None
    assert analysis_run(analysis.pk) is True
    fairplay_tasks.scan_analysis(analysis.pk)


def test_a_player_who_always_makes_gnubgs_best_play_is_flagged_and_people_are_not(
    analysed_at_0_ply: None,
) -> None:
    # given a player who plays GNU Backgammon's best play in ten 1-point matches against
    # three people of several strengths, who play eight or nine, all through the match API
    table = Table(
        {
            "deep": engine_best,
            "bea": human(Strength.BEGINNER),
            "ivo": human(Strength.INTERMEDIATE),
            "ada": human(Strength.ADVANCED),
        }
    )
    schedule = (
        [("deep", "bea"), ("bea", "deep")] * 2
        + [("ivo", "deep"), ("deep", "ivo"), ("ivo", "deep")]
        + [("deep", "ada"), ("ada", "deep"), ("deep", "ada")]
        + [("bea", "ivo"), ("ivo", "bea"), ("ada", "bea"), ("bea", "ada"), ("ada", "bea")]
        + [("ivo", "ada"), ("ada", "ivo"), ("ivo", "ada")]
    )
    # when they are played, each analysed by GNU Backgammon and scanned as it finishes
    for number, (first, second) in enumerate(schedule):
        analyse_and_scan(table.play(first, second, number))

    # then the engine player, and only they, have a case, with the evidence staff need
    assert Analysis.objects.filter(status=AnalysisStatus.DONE).count() == len(schedule)
    case = Case.objects.get(kind=CaseKind.ENGINE)
    deep = table.users["deep"]
    assert case.subject == deep
    assert case.key == f"engine:{deep.pk}"
    evidence = case.evidence
    assert evidence["matches"] == 10
    assert evidence["agreement"] >= 0.9
    assert evidence["decisions"] >= 80
    assert len(evidence["window"]) == 10
    assert {row["plies"] for row in evidence["window"]} == {0}
    assert evidence["fit"]["prior"] is True  # four players are no population to fit
    assert evidence["thresholds"] == {"min_decisions": 80, "z": 4.0, "agreement": 0.9}
    assert evidence["think_times"]["plays"] >= evidence["checker_plays"] // 2
    assert "GNU Backgammon's best" in evidence["signs"][0]
    assert case.summary.startswith("deep: 100% of")
    # and each person was judged over enough decisions, and none of them flagged
    for name in ("bea", "ivo", "ada"):
        window = engine_window(table.users[name])
        assert window is not None
        assert len(window.matches) == (9 if name in ("bea", "ada") else 8)
        assert window.assessed, (name, window.decisions)
        assert not window.flagged, (name, window.evidence())
        assert window.agreement is not None
        assert window.agreement < 0.9

    # when the engine player's last analysis is scanned again
    events = CaseEvent.objects.filter(case=case).count()
    last = Analysis.objects.filter(Q(match__player_0=deep) | Q(match__player_1=deep)).latest("pk")
    windows = scan_analysis(last.pk)

    # then it finds the same window and the same case, and adds nothing
    assert sorted(window.flagged for window in windows) == [False, True]  # deep, a person
    assert Case.objects.filter(kind=CaseKind.ENGINE).count() == 1
    assert CaseEvent.objects.filter(case=case).count() == events
    case.refresh_from_db()
    assert case.evidence == evidence


# A population of the platform's own: PR 10 at rating 1500, 2 points better a hundred
# rating points up; players spread by 1.5 around the line, their matches by their decisions.
POPULATION_SLOPE = -0.02
POPULATION_PLAYER_SD = 1.5
POPULATION_DECISION_SD = 20.0


def population_pr(rating: float) -> float:
    return 10.0 + POPULATION_SLOPE * (rating - 1500.0)


def _stored_population(numbers: range) -> None:
    """Players ``member<number>`` rated 1300 to 1885, three analysed matches each."""
    rng = random.Random(7)
    for number in numbers:
        rating = 1300.0 + 15.0 * number
        user = UserFactory(username=f"member{number}", rating=rating)
        own = population_pr(rating) + rng.gauss(0.0, POPULATION_PLAYER_SD)
        for match in range(3):
            decisions = rng.randint(60, 140)
            pr = own + rng.gauss(0.0, POPULATION_DECISION_SD / decisions**0.5)
            performance_record(
                user=user,
                match_id=100_000 + number * 10 + match,
                opponent_name="someone",
                decisions=decisions,
                error=max(pr, 0.0) * decisions / 500,
                luck=0.0,
                played_at=timezone.now() - timedelta(days=30 - match),
            )


def test_the_fit_is_the_prior_until_thirty_players_have_two_analysed_matches() -> None:
    _stored_population(range(29))
    assert pr_fit().prior is True

    _stored_population(range(29, 30))
    fit = pr_fit()

    assert fit.prior is False
    assert fit.players == 30
    assert fit.points == 90
    assert fit.slope == pytest.approx(POPULATION_SLOPE, abs=0.005)
    assert fit.expected(1500.0) == pytest.approx(10.0, abs=1.0)
    assert fit.player_sd == pytest.approx(POPULATION_PLAYER_SD, abs=1.0)
    assert fit.decision_sd == pytest.approx(POPULATION_DECISION_SD, rel=0.4)


def _stored_window(
    user: User,
    opponent: User,
    *,
    pr: float,
    agreement: float,
    matches: int = 10,
    checker_plays: int = 30,
    engine_strength: str = "",
) -> list[int]:
    """``matches`` analysed 1-point matches of ``user`` at ``pr`` with ``agreement``, their
    opponent at PR 10; the analyses' ids."""
    ids = []
    for number in range(matches):
        finished = timezone.now() - timedelta(hours=matches - number)
        match = Match.objects.create(
            length=1,
            player_0=user,
            player_1=opponent,
            status=MatchStatus.FINISHED,
            winner_seat=0,
            engine_strength=engine_strength,
            dice_seed="0" * 64,
            dice_commitment="0" * 64,
            started_at=finished - timedelta(minutes=20),
            finished_at=finished,
        )
        best = round(agreement * checker_plays)
        error = pr * checker_plays / 500
        decisions = [
            {
                "game": 1,
                "number": play + 1,
                "seat": 0,
                "kind": "checker",
                "played": "13/11 6/5" if play < best else "24/23 13/11",
                "best": "13/11 6/5",
                "error": 0.0 if play < best else round(error / (checker_plays - best), 4),
                "forced": False,
                "position_id": f"position{play}",
            }
            for play in range(checker_plays)
        ]
        figures = {"error": error, "decisions": checker_plays, "pr": pr}
        usual = {"error": 10.0 * checker_plays / 500, "decisions": checker_plays, "pr": 10.0}
        analysis = Analysis.objects.create(
            match=match,
            source=AnalysisSource.PLAYED,
            mat="(stored)",
            players=[user.username, opponent.username],
            match_length=1,
            plies=2,
            status=AnalysisStatus.DONE,
            finished_at=finished,
            result={"players": [figures, usual], "decisions": decisions},
        )
        ids.append(analysis.pk)
    return ids


def test_a_pr_no_human_of_that_rating_plays_opens_a_case_though_the_plays_differ(
    django_assert_max_num_queries: Any,
) -> None:
    # given the platform's own population, fitted, and two players with the same window:
    # PR 1.5, only 80% of their plays the engine's best, one rated 1350, one 1900
    _stored_population(range(40))
    modest = UserFactory(username="modest", rating=1350.0)
    master = UserFactory(username="master", rating=1900.0)
    opponent = UserFactory(username="opponent")
    modest_ids = _stored_window(modest, opponent, pr=1.5, agreement=0.8)
    master_ids = _stored_window(master, opponent, pr=1.5, agreement=0.8)

    # when their last analyses are scanned
    scan_analysis(modest_ids[-1])
    with django_assert_max_num_queries(10):  # the analysis, the fit, four for each player
        windows = scan_analysis(master_ids[-1])

    # then only the modest rating's window is improbable, against the fitted line
    case = Case.objects.get(kind=CaseKind.ENGINE)
    assert case.subject == modest
    evidence = case.evidence
    assert evidence["fit"]["prior"] is False
    assert evidence["fit"]["players"] == 40
    assert evidence["expected_pr"] == pytest.approx(population_pr(1350.0), abs=1.5)
    assert evidence["z"] <= -4.0
    assert evidence["agreement"] == 0.8
    assert evidence["rating"] == 1350.0
    assert "standard deviations below" in evidence["signs"][0]
    assert "z -" in case.summary
    master_window = next(w for w in windows if w.matches[0].opponent == "opponent")
    assert master_window.assessed
    assert not master_window.flagged
    assert master_window.z is not None
    assert master_window.z > -4.0


def test_practice_against_the_computer_and_a_short_window_open_no_case() -> None:
    # given perfect play against the computer, and perfect play over too few decisions
    computer = UserFactory(username="gnubg-practice")
    student = UserFactory(username="student")
    newcomer = UserFactory(username="newcomer")
    practice = _stored_window(
        student, computer, pr=0.0, agreement=1.0, engine_strength=Strength.WORLD_CLASS.value
    )
    short = _stored_window(newcomer, computer, pr=0.0, agreement=1.0, matches=2)

    # when they are scanned
    practice_windows = scan_analysis(practice[-1])
    short_windows = scan_analysis(short[-1])

    # then practice is not judged at all, the short window is judged too small to say
    assert practice_windows == []
    assert engine_window(student) is None
    assert len(short_windows) == 2
    newcomer_window = engine_window(newcomer)
    assert newcomer_window is not None
    assert newcomer_window.agreement == 1.0
    assert newcomer_window.decisions == 60
    assert not newcomer_window.assessed
    assert not Case.objects.exists()
