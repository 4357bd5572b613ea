"""A truncated round robin as leagues run one, set up and played through the API: the first
rounds of the table, a tie for first waiting with the prizes in escrow, broken by a 1-point
match the organizer schedules, the prizes paid to the cent."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts import ledger
from accounts.models import User
from matches.models import Match
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import live_matches, organizer, players
from tests.integration.tournaments.test_formats_from_the_api import (
    assert_money_conserved,
    concede_match,
)
from tournaments.models import Entry, Pairing, Tournament, TournamentState

pytestmark = pytest.mark.django_db(transaction=True)

LEAGUE = {
    "name": "Online league, 3 rounds",
    "format": "round_robin",
    "rounds": 3,
    "buy_in_cents": 1000,
    "fee_cents": 65,
    "round_lengths": [7],
    "clock": {"kind": "delay", "move_seconds": 12, "reserve_seconds": 120},
}


def started(settings: dict[str, Any], field: list[User]) -> tuple[User, Tournament]:
    owner = organizer()
    api = api_for(owner)
    created = api.post("/api/tournaments/", settings, format="json")
    assert created.status_code == 201, created.json()
    tournament_id = created.json()["id"]
    assert api.post(f"/api/tournaments/{tournament_id}/open/").status_code == 200
    for player in field:
        assert (
            api_for(player).post(f"/api/tournaments/{tournament_id}/register/").status_code == 200
        )
    assert api.post(f"/api/tournaments/{tournament_id}/start/").status_code == 200
    return owner, Tournament.objects.get(pk=tournament_id)


def play_everything_live(tournament: Tournament) -> None:
    """The bottom player of every live match resigns until nothing is being played."""
    while matches := live_matches(tournament):
        for match in matches:
            concede_match(match, User.objects.get(pk=match.player_1_id))


def standings(tournament: Tournament, viewer: User) -> list[dict[str, Any]]:
    answer = api_for(viewer).get(f"/api/tournaments/{tournament.pk}/standings/")
    return answer.json()["rows"]


def test_a_tie_for_first_waits_for_the_tie_break_match_the_organizer_schedules() -> None:
    # given seven players (p06 the top seed) in a round robin cut to 3 of its 7 rounds,
    # where every top player wins: seeds 3 and 4 end on two wins each, never having met
    field = players(7)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)
    owner, tournament = started(LEAGUE, field)

    # when the table is played out
    play_everything_live(tournament)

    # then nobody met twice, each played at most 3, and the tie for first holds the prizes
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.RUNNING
    table = Pairing.objects.filter(tournament=tournament, flight="main")
    assert {row.round for row in table} == {0, 1, 2}
    met = [frozenset((r.top_id, r.bottom_id)) for r in table if r.top_id and r.bottom_id]
    assert len(met) == len(set(met)) == 9
    rows = standings(tournament, field[0])
    assert [(row["username"], row["rank"], row["wins"]) for row in rows[:2]] == [
        ("p04", 1, 2),
        ("p03", 1, 2),
    ]
    assert rows[0]["tiebreaks"] == {}
    assert ledger.escrow_balance(escrow_ref=tournament.escrow_ref, currency="FUN") == 7000
    browser = Client()
    browser.force_login(owner)
    page = browser.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-testid="tiebreak"' in page
    assert "P 4, P 3" in page

    # when a player asks for the tie-break, and then the organizer does
    refused = api_for(field[4]).post(f"/api/tournaments/{tournament.pk}/tiebreak/")
    assert refused.status_code == 403
    assert "Only the organizer" in refused.json()["detail"]
    scheduled = api_for(owner).post(f"/api/tournaments/{tournament.pk}/tiebreak/")
    assert scheduled.status_code == 200, scheduled.json()
    again = api_for(owner).post(f"/api/tournaments/{tournament.pk}/tiebreak/")
    assert again.status_code == 400
    assert again.json()["detail"] == "No players are tied for a place that matters."

    # then a 1-point match between the two tied is being played, like any tournament match
    (match,) = live_matches(tournament)
    assert match.length == 1
    for shown in (f"/tournaments/{tournament.pk}/", f"/tournaments/{tournament.pk}/bracket/"):
        answer = browser.get(shown)
        assert answer.status_code == 200
        assert "Tie-break" in answer.content.decode()  # named for what it is, not "Final"
    seated = {match.player_0.username, match.player_1.username}
    assert seated == {"p04", "p03"}
    loser = User.objects.get(username="p03")
    concede_match(match, loser)

    # then its winner is first, the runner-up second, and the pool is paid out to the cent
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    places = {e.user.username: (e.place, e.shared_to, e.prize_cents) for e in entries(tournament)}
    assert places["p04"] == (1, 1, 4900)
    assert places["p03"] == (2, 2, 2100)
    assert {places[name][:2] for name in ("p00", "p01", "p02", "p05", "p06")} == {(3, 7)}
    assert Match.objects.filter(tournament_id=tournament.pk).count() == 10
    assert_money_conserved(tournament, field, before)


def test_the_organizer_may_let_a_tie_stand_and_the_tied_split_their_prizes() -> None:
    field = players(7)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)
    owner, tournament = started(LEAGUE, field)
    play_everything_live(tournament)

    shared = api_for(owner).post(f"/api/tournaments/{tournament.pk}/share-ties/")

    assert shared.status_code == 200, shared.json()
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    places = {e.user.username: (e.place, e.shared_to, e.prize_cents) for e in entries(tournament)}
    assert places["p04"] == places["p03"] == (1, 2, 3500)
    assert_money_conserved(tournament, field, before)


def entries(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament).select_related("user"))


@pytest.mark.parametrize(
    ("changes", "refusal"),
    [
        ({"rounds": 0}, "Ensure this value is greater than or equal to 1."),
        ({"rounds": 7, "max_entrants": 6}, "6 players meet everyone in 5 rounds"),
        ({"group_size": 4, "advance_per_group": 2}, "one table: leave the groups"),
    ],
)
def test_a_cut_the_table_cannot_play_is_refused_in_words(
    changes: dict[str, Any], refusal: str
) -> None:
    answer = api_for(organizer()).post("/api/tournaments/", {**LEAGUE, **changes}, format="json")

    assert answer.status_code == 400
    assert refusal in str(answer.json())


def test_a_field_too_small_for_the_cut_is_refused_at_the_start() -> None:
    owner = organizer()
    api = api_for(owner)
    created = api.post("/api/tournaments/", {**LEAGUE, "rounds": 5}, format="json").json()
    api.post(f"/api/tournaments/{created['id']}/open/")
    for player in players(4):
        api_for(player).post(f"/api/tournaments/{created['id']}/register/")

    answer = api.post(f"/api/tournaments/{created['id']}/start/")

    assert answer.status_code == 400
    assert answer.json()["detail"] == (
        "4 players meet everyone in 3 rounds: the round robin cannot play 5. Play fewer "
        "rounds, or wait for more players."
    )
