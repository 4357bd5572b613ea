"""A swing through the REST API: its settings in and refused field by field, its level,
standings and champion out; a lost result redone by the sweep; a cancellation refunding."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts import ledger
from matches.models import Match, MatchStatus
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import (
    concede,
    live_matches,
    organizer,
    players,
    register_all,
)
from tournaments import scheduler, services
from tournaments.models import SwingGame, SwingSeat, Tournament, TournamentState

pytestmark = pytest.mark.django_db(transaction=True)

SWING: dict[str, Any] = {
    "name": "Friday Swing",
    "format": "swing",
    "starting_chips": 1000,
    "cpp_start": 10,
    "cpp_step": 10,
    "buy_in_cents": 500,
    "fee_cents": 35,
    "clock": {"kind": "none"},
}


def test_an_organizer_creates_a_swing_and_reads_its_level() -> None:
    client = api_for(organizer())
    created = client.post("/api/tournaments/", {**SWING, "rounds": 5}, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["format"] == "swing"
    assert body["rounds"] is None  # a Swiss setting, left out
    swing = body["swing"]
    assert swing["starting_chips"] == 1000
    assert swing["cpp_levels"] == [10]
    assert swing["cpp_step"] == 10
    assert swing["cpp_raise"] == "game"
    assert swing["jacoby"] is True
    assert (swing["level"], swing["cpp"], swing["next_cpp"]) == (1, 10, 20)
    assert swing["next_when"] == "with each player's next game"
    listed = client.post(
        "/api/tournaments/",
        {
            **SWING,
            "cpp_start": None,
            "cpp_levels": [5, 10, 25],
            "cpp_step": 0,
            "cpp_raise": "minutes",
            "cpp_raise_minutes": 10,
            "swing_match_length": 3,
        },
        format="json",
    ).json()
    assert listed["swing"]["cpp_levels"] == [5, 10, 25]
    assert listed["swing"]["swing_match_length"] == 3
    assert listed["swing"]["jacoby"] is False  # no Jacoby rule in match play
    assert listed["swing"]["next_at"] is None  # not started: no clock yet


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"starting_chips": None}, "starting_chips", "Say how many chips"),
        ({"cpp_start": None}, "cpp_levels", "Give the CPP levels"),
        ({"cpp_levels": [20, 10]}, "cpp_start", "not both"),
        ({"cpp_start": None, "cpp_levels": [20, 10]}, "cpp_levels", "rise"),
        ({"cpp_step": None}, "cpp_step", "Say how much the CPP rises"),
        ({"cpp_start": 2000}, "cpp_levels", "every game would be all-in"),
        ({"cpp_raise": "minutes"}, "cpp_raise_minutes", "Raise the CPP every"),
        ({"cpp_raise": "sometimes"}, "cpp_raise", "not a valid choice"),
        ({"swing_match_length": 99}, "swing_match_length", "less than or equal to"),
        ({"cpp_levels": list(range(1, 102))}, "cpp_levels", "no more than 100"),
    ],
)
def test_a_swing_that_cannot_be_played_is_refused_field_by_field(
    changes: dict[str, Any], field: str, words: str
) -> None:
    answer = api_for(organizer()).post("/api/tournaments/", {**SWING, **changes}, format="json")
    assert answer.status_code == 400
    assert words in " ".join(answer.json()["errors"][field])


def running_swing(count: int, **settings: Any) -> tuple[Tournament, list[Any]]:
    owner = organizer()
    client = api_for(owner)
    made = client.post("/api/tournaments/", {**SWING, **settings}, format="json").json()
    assert client.post(f"/api/tournaments/{made['id']}/open/").status_code == 200
    field = players(count)
    tournament = Tournament.objects.get(pk=made["id"])
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    tournament.refresh_from_db()
    return tournament, field


def test_standings_and_the_games_state_name_the_swing() -> None:
    tournament, field = running_swing(4)
    client = api_for(field[0])
    standings = client.get(f"/api/tournaments/{tournament.pk}/standings/").json()
    assert standings["format"] == "swing"
    rows = standings["rows"]
    assert {row["username"] for row in rows} == {user.username for user in field}
    assert all(row["chips"] == 1000 and row["games"] == 0 for row in rows)
    playing = {row["current_match_id"] for row in rows}
    assert playing == {m.pk for m in live_matches(tournament)}
    match = live_matches(tournament)[0]
    state = client.get(f"/api/matches/{match.pk}/").json()
    assert state["tournament"] == tournament.pk
    assert state["swing"] == {"cpp": 10, "stake": 1000, "all_in": False}
    assert state["options"]["max_cube"] == 128  # 128 × 10 reaches the 1,000 at stake

    concede(match, match.player_1)

    rows = {
        r["username"]: r
        for r in client.get(f"/api/tournaments/{tournament.pk}/standings/").json()["rows"]
    }
    assert rows[match.player_0.username]["chips"] == 1010
    assert rows[match.player_0.username]["won"] == 1
    assert rows[match.player_1.username]["chips"] == 990
    assert rows[match.player_1.username]["lost"] == 1
    level = client.get(f"/api/tournaments/{tournament.pk}/").json()["swing"]
    assert (level["level"], level["cpp"]) == (2, 20)  # the round of the two who played
    # The two free again play their second game at CPP 20; the other game, still in its
    # players' first round, stays at 10.
    games = SwingGame.objects.filter(tournament=tournament).order_by("pk")
    assert [(game.level, game.cpp) for game in games] == [(0, 10), (0, 10), (1, 20)]
    assert {m.chips_per_point for m in live_matches(tournament)} == {10, 20}


def test_a_result_whose_message_was_lost_is_settled_by_the_sweep() -> None:
    tournament, _ = running_swing(2)
    (match,) = live_matches(tournament)
    # The game ends but its task never runs (its message was lost).
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, winner_seat=0, score_0=2)
    report = scheduler.sweep()
    assert match.pk in report.results_redone
    assert scheduler.match_finished(match_id=match.pk)
    game = SwingGame.objects.get(match_id=match.pk)
    assert game.chips_to_0 == 20  # a gammon at CPP 10
    assert not scheduler.match_finished(match_id=match.pk)  # settled once
    assert sum(SwingSeat.objects.values_list("chips", flat=True)) == 2000


def test_a_running_swing_cancelled_refunds_every_buy_in_and_fee_and_ends_its_game() -> None:
    tournament, field = running_swing(3)
    owner = tournament.organizer
    before = [ledger.balance(user=user, currency="FUN") for user in field]
    (match,) = live_matches(tournament)
    services.tournament_cancel(tournament_id=tournament.pk, user=owner)
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.CANCELLED
    after = [ledger.balance(user=user, currency="FUN") for user in field]
    assert [a - b for a, b in zip(after, before, strict=True)] == [535] * 3
    assert ledger.escrow_balance(escrow_ref=tournament.escrow_ref, currency="FUN") == 0
    assert live_matches(tournament) == []  # the game being played ended with it
    match.refresh_from_db()
    assert (match.status, match.deadline) == (MatchStatus.CANCELLED, None)
    assert scheduler.match_finished(match_id=match.pk) is False  # and moves no chip
    assert set(SwingSeat.objects.values_list("chips", flat=True)) == {1000}


def test_a_cpp_on_the_clock_rises_every_n_minutes_and_says_when() -> None:
    tournament, field = running_swing(2, cpp_raise="minutes", cpp_raise_minutes=10)
    started = timezone.now() - timedelta(minutes=25)
    Tournament.objects.filter(pk=tournament.pk).update(started_at=started)

    level = api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/").json()["swing"]
    assert (level["level"], level["cpp"], level["next_cpp"]) == (3, 30, 40)
    assert datetime.fromisoformat(level["next_at"]) == started + timedelta(minutes=30)
    page = api_for(field[0]).get(f"/tournaments/{tournament.pk}/bracket/").content.decode()
    assert 'data-testid="level-countdown"' in page

    (match,) = live_matches(tournament)  # paired at the start, at level 1
    concede(match, match.player_1)
    (second,) = live_matches(tournament)
    assert second.chips_per_point == 30  # the next game plays at the level it starts in
    assert SwingGame.objects.get(match_id=match.pk).cpp == 10
