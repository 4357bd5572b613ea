"""A Sit & Go starts by itself the moment its last seat is taken; leaving before refunds."""

from __future__ import annotations

import pytest

from accounts import ledger
from accounts.models import User
from matches.models import Match, MatchStatus
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import (
    concede_round,
    open_tournament,
    organizer,
    players,
)
from tournaments.models import Entry, EntryStatus, Pairing, Tournament, TournamentState

pytestmark = pytest.mark.django_db(transaction=True)


def sit_and_go(seats: int = 4) -> Tournament:
    return open_tournament(
        organizer(),
        name="Friday Sit & Go",
        format="sit_and_go",
        seats=seats,
        buy_in_cents=500,
        fee_cents=35,
        round_lengths=(1,),
    )


def test_the_first_matches_start_when_the_last_seat_is_taken() -> None:
    # given
    tournament = sit_and_go(seats=4)
    field = players(4)
    for player in field[:3]:
        response = api_for(player).post(f"/api/tournaments/{tournament.pk}/register/")
        assert response.status_code == 200, response.json()
    assert api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/").json()["state"] == (
        "registration"
    )
    assert not Match.objects.filter(tournament_id=tournament.pk).exists()

    # when
    last = api_for(field[3]).post(f"/api/tournaments/{tournament.pk}/register/")

    # then
    assert last.status_code == 200
    assert last.json()["state"] == "running"
    assert last.json()["prize_pool_cents"] == 2000
    matches = Match.objects.filter(tournament_id=tournament.pk, status=MatchStatus.PLAYING)
    assert matches.count() == 2
    seated = {m.player_0_id for m in matches} | {m.player_1_id for m in matches}
    assert seated == {player.pk for player in field}
    late_comer = players(1, prefix="late")[0]
    refused = api_for(late_comer).post(f"/api/tournaments/{tournament.pk}/register/")
    assert refused.status_code == 409
    assert "already running" in refused.json()["detail"]


def test_a_full_sit_and_go_pays_the_prize_table_when_the_final_ends() -> None:
    tournament = sit_and_go(seats=4)
    field = players(4)
    for player in field:
        api_for(player).post(f"/api/tournaments/{tournament.pk}/register/")
    before = {p.pk: ledger.balance(user=p, currency="FUN") for p in field}

    while concede_round(tournament):
        pass

    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    prizes = dict(Entry.objects.filter(tournament=tournament).values_list("user_id", "prize_cents"))
    assert sorted(prizes.values(), reverse=True) == [1400, 600, 0, 0]  # 70/30 of 20.00
    assert prizes[tournament.champion_id] == 1400
    for player in field:
        assert ledger.balance(user=player, currency="FUN") == before[player.pk] + prizes[player.pk]
    assert ledger.escrow_balance(escrow_ref=tournament.escrow_ref, currency="FUN") == 0
    assert ledger.currency_total("FUN") == 0


def test_leaving_before_the_start_refunds_the_buy_in_and_frees_the_seat() -> None:
    tournament = sit_and_go(seats=3)
    first, second, third = players(3)
    start = ledger.balance(user=first, currency="FUN")
    api_for(first).post(f"/api/tournaments/{tournament.pk}/register/")
    api_for(second).post(f"/api/tournaments/{tournament.pk}/register/")
    assert ledger.balance(user=first, currency="FUN") == start - 535

    left = api_for(first).post(f"/api/tournaments/{tournament.pk}/unregister/")

    assert left.status_code == 200
    assert [e["username"] for e in left.json()["entrants"]] == [second.username]
    assert ledger.balance(user=first, currency="FUN") == start - 35  # the fee is not refunded
    assert ledger.escrow_balance(escrow_ref=tournament.escrow_ref, currency="FUN") == 500
    api_for(third).post(f"/api/tournaments/{tournament.pk}/register/")
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.REGISTRATION  # 2 of 3 seats taken
    again = api_for(first).post(f"/api/tournaments/{tournament.pk}/register/")
    assert again.status_code == 200
    assert again.json()["state"] == "running"
    assert Entry.objects.filter(tournament=tournament, user=first).count() == 2
    assert Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).count() == 3
    assert Pairing.objects.filter(tournament=tournament).count() == 3


def test_a_player_who_cannot_afford_the_buy_in_is_told_so_and_holds_no_seat() -> None:
    tournament = sit_and_go(seats=2)
    broke = players(1, prefix="broke")[0]
    ledger.withdraw(
        user=broke,
        currency="FUN",
        amount_cents=ledger.balance(user=broke, currency="FUN") - 100,
        reason="test: an almost empty wallet",
        staff=User.objects.create_superuser("root", password="x"),
        key="test:empty",
    )

    refused = api_for(broke).post(f"/api/tournaments/{tournament.pk}/register/")

    assert refused.status_code == 400
    assert refused.json()["detail"] == "Your FUN balance is 1.00; this needs 5.35."
    assert not Entry.objects.filter(tournament=tournament).exists()
