"""Cancelling refunds every buy-in; an organizer withdraws or replaces a player before play."""

from __future__ import annotations

import pytest

from accounts import ledger
from core.errors import Conflict, Forbidden
from matches.models import Match, MatchStatus
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import open_tournament, organizer, players, register_all
from tournaments import scheduler, services
from tournaments.models import Entry, EntryStatus, TournamentState

pytestmark = pytest.mark.django_db(transaction=True)


def test_cancelling_during_registration_refunds_every_buy_in_and_fee() -> None:
    owner = organizer()
    tournament = open_tournament(owner, buy_in_cents=1000, fee_cents=65)
    field = players(5)
    start = {p.pk: ledger.balance(user=p, currency="FUN") for p in field}
    register_all(tournament, field)

    response = api_for(owner).post(f"/api/tournaments/{tournament.pk}/cancel/")

    assert response.status_code == 200
    assert response.json()["state"] == "cancelled"
    for player in field:
        assert ledger.balance(user=player, currency="FUN") == start[player.pk]
    assert ledger.escrow_balance(escrow_ref=tournament.escrow_ref, currency="FUN") == 0
    assert ledger.currency_total("FUN") == 0
    again = api_for(owner).post(f"/api/tournaments/{tournament.pk}/cancel/")
    assert again.status_code == 409
    assert (
        again.json()["detail"]
        == "Spring Knockout has been cancelled, so it cannot be cancelled now."
    )


def test_cancelling_a_running_tournament_refunds_and_its_matches_no_longer_count() -> None:
    owner = organizer()
    tournament = open_tournament(owner)
    field = players(4)
    start = {p.pk: ledger.balance(user=p, currency="FUN") for p in field}
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)

    services.tournament_cancel(tournament_id=tournament.pk, user=owner)

    tournament.refresh_from_db()
    assert tournament.state == TournamentState.CANCELLED
    for player in field:
        assert ledger.balance(user=player, currency="FUN") == start[player.pk]
    assert ledger.currency_total("FUN") == 0
    match = Match.objects.filter(tournament_id=tournament.pk, status=MatchStatus.PLAYING).first()
    assert match is not None
    assert scheduler.match_finished(match_id=match.pk) is False


def test_only_the_organizer_cancels() -> None:
    tournament = open_tournament(organizer())
    intruder = players(1, prefix="x")[0]

    with pytest.raises(Forbidden, match="Only the organizer of Spring Knockout can cancel it"):
        services.tournament_cancel(tournament_id=tournament.pk, user=intruder)


def test_the_organizer_withdraws_a_player_who_gets_buy_in_and_fee_back() -> None:
    owner = organizer()
    tournament = open_tournament(owner)
    leaving, staying = players(2)
    start = ledger.balance(user=leaving, currency="FUN")
    register_all(tournament, [leaving, staying])

    response = api_for(owner).post(
        f"/api/tournaments/{tournament.pk}/withdraw/", {"username": leaving.username}
    )

    assert response.status_code == 200, response.json()
    assert [e["username"] for e in response.json()["entrants"]] == [staying.username]
    assert ledger.balance(user=leaving, currency="FUN") == start
    assert ledger.currency_total("FUN") == 0


def test_the_organizer_replaces_a_player_and_the_replacement_pays() -> None:
    owner = organizer()
    tournament = open_tournament(owner)
    leaving, staying = players(2)
    replacement = players(1, prefix="sub")[0]
    register_all(tournament, [leaving, staying])
    before = ledger.balance(user=replacement, currency="FUN")

    response = api_for(owner).post(
        f"/api/tournaments/{tournament.pk}/replace/",
        {"username": leaving.username, "replacement": replacement.username},
    )

    assert response.status_code == 200, response.json()
    entered = {e["username"] for e in response.json()["entrants"]}
    assert entered == {staying.username, replacement.username}
    assert ledger.balance(user=replacement, currency="FUN") == before - 1065
    assert ledger.escrow_balance(escrow_ref=tournament.escrow_ref, currency="FUN") == 2000


def test_players_cannot_be_withdrawn_once_play_has_started() -> None:
    owner = organizer()
    tournament = open_tournament(owner)
    field = players(2)
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)

    with pytest.raises(Conflict, match="only before play starts"):
        services.entry_withdraw(tournament_id=tournament.pk, user=owner, player=field[0])
    assert Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).count() == 2
