"""Cancelling refunds every buy-in, ends the matches being played and tells every player;
an organizer withdraws or replaces a player before play."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts import ledger
from core.errors import Conflict, Forbidden
from lobby.cancellations import tell_tournament_cancelled
from lobby.models import NoticeKind, Notification
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


def test_cancelling_a_running_tournament_ends_its_matches_refunds_and_tells_every_player() -> None:
    # given a running knockout whose first-round matches are being played on the clock
    owner = organizer()
    tournament = open_tournament(owner, clock={"kind": "delay"})
    field = players(4)
    start = {p.pk: ledger.balance(user=p, currency="FUN") for p in field}
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    playing = Match.objects.filter(tournament_id=tournament.pk, status=MatchStatus.PLAYING)
    assert playing.count() == 2
    assert all(match.deadline is not None for match in playing)

    # when the organizer cancels it
    services.tournament_cancel(tournament_id=tournament.pk, user=owner)

    # then its matches are over without a result, their clocks stopped, the money back
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.CANCELLED
    matches = list(Match.objects.filter(tournament_id=tournament.pk))
    assert [match.status for match in matches] == [MatchStatus.CANCELLED] * 2
    for match in matches:
        assert (match.winner_seat, match.deadline, match.turn_started_at) == (None, None, None)
        assert match.finished_at == tournament.finished_at
        assert scheduler.match_finished(match_id=match.pk) is False
    for player in field:
        assert ledger.balance(user=player, currency="FUN") == start[player.pk]
    assert ledger.escrow_balance(escrow_ref=tournament.escrow_ref, currency="FUN") == 0
    assert ledger.currency_total("FUN") == 0
    # and every player is told, once
    for player in field:
        [told] = Notification.objects.filter(user=player, kind=NoticeKind.TOURNAMENT_CANCELLED)
        assert told.text == (
            "Spring Knockout was cancelled by its organizer and your match in it ended "
            "without a result: your buy-in and fee, 10.65 FUN, are back in your wallet."
        )
        assert told.url == f"/tournaments/{tournament.pk}/"
    assert tell_tournament_cancelled(tournament_id=tournament.pk) == 0


def test_a_match_of_a_cancelled_tournament_plays_no_further() -> None:
    owner = organizer()
    tournament = open_tournament(owner, clock={"kind": "delay"})
    field = players(2)
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    match = Match.objects.get(tournament_id=tournament.pk)

    services.tournament_cancel(tournament_id=tournament.pk, user=owner)

    state = api_for(field[0]).get(f"/api/matches/{match.pk}/").json()
    assert state["status"] == "cancelled"
    assert state["clock"]["running"] == [False, False]
    moved = api_for(field[0]).post(f"/api/matches/{match.pk}/actions/", {"type": "roll"})
    assert moved.status_code in (400, 409)


def test_the_organizer_is_told_what_cancelling_will_do_before_it_is_done() -> None:
    owner = organizer()
    tournament = open_tournament(owner)
    field = players(4)
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    client = Client()
    client.force_login(owner)

    page = client.get(f"/tournaments/{tournament.pk}/cancel/")

    assert page.status_code == 200
    html = page.content.decode()
    assert "The 2 matches being played end without a result" in html
    assert "42.60 FUN to 4 players in all" in html
    assert "Every player is told that Spring Knockout was cancelled." in html
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.RUNNING
    detail = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/cancel/" data-testid="cancel"' in detail

    done = client.post(f"/tournaments/{tournament.pk}/cancel/")

    assert done.status_code == 302
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.CANCELLED


def test_only_the_organizer_sees_the_cancellation_page() -> None:
    tournament = open_tournament(organizer())
    client = Client()
    client.force_login(players(1, prefix="x")[0])

    assert client.get(f"/tournaments/{tournament.pk}/cancel/").status_code == 403
    assert client.post(f"/tournaments/{tournament.pk}/cancel/").status_code == 302
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.REGISTRATION


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
