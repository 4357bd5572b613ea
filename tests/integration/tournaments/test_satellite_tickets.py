"""A satellite's winners get tickets that seat them in the target without paying its buy-in."""

from __future__ import annotations

import pytest

from accounts import ledger
from tests.integration.tournaments.helpers import (
    concede_round,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import services
from tournaments.errors import TournamentInvalid
from tournaments.models import Entry, EntryStatus, Ticket, TournamentState

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_two_finalists_win_seats_in_the_target_and_are_registered_there() -> None:
    # given: 8 players at 5.00 make a pool of 40.00: two 20.00 seats in the main event
    owner = organizer()
    main_event = open_tournament(owner, name="Main Event", buy_in_cents=2000, fee_cents=130)
    satellite = open_tournament(
        owner,
        name="Main Event satellite",
        format="satellite",
        target_id=main_event.pk,
        max_entrants=8,
        buy_in_cents=500,
        fee_cents=35,
    )
    field = players(8)
    register_all(satellite, field)
    services.tournament_start(tournament_id=satellite.pk, user=owner)
    before = {p.pk: ledger.balance(user=p, currency="FUN") for p in field}

    # when
    matches_played = 0
    while played := concede_round(satellite):
        matches_played += played

    # then: the final is not played, both finalists hold a ticket whatever happens
    satellite.refresh_from_db()
    assert satellite.state == TournamentState.FINISHED
    assert matches_played == 6
    tickets = list(Ticket.objects.filter(satellite=satellite))
    assert len(tickets) == 2
    holders = {ticket.holder_id for ticket in tickets}
    seated = set(
        Entry.objects.filter(tournament=main_event, status=EntryStatus.REGISTERED).values_list(
            "user_id", flat=True
        )
    )
    assert seated == holders
    assert all(ticket.entry_id is not None for ticket in tickets)
    for player in field:
        assert ledger.balance(user=player, currency="FUN") == before[player.pk]
    assert ledger.escrow_balance(escrow_ref=main_event.escrow_ref, currency="FUN") == 4000
    assert ledger.escrow_balance(escrow_ref=satellite.escrow_ref, currency="FUN") == 0
    assert ledger.currency_total("FUN") == 0


def test_a_ticket_holder_refunded_by_a_cancelled_target_gets_the_seat_in_cash() -> None:
    owner = organizer()
    main_event = open_tournament(owner, name="Main Event", buy_in_cents=2000)
    satellite = open_tournament(
        owner, format="satellite", target_id=main_event.pk, max_entrants=3, buy_in_cents=1000
    )
    field = players(3)
    register_all(satellite, field)
    services.tournament_start(tournament_id=satellite.pk, user=owner)
    before = {p.pk: ledger.balance(user=p, currency="FUN") for p in field}
    while concede_round(satellite):
        pass
    holder = Ticket.objects.get(satellite=satellite).holder

    services.tournament_cancel(tournament_id=main_event.pk, user=owner)

    assert ledger.balance(user=holder, currency="FUN") == before[holder.pk] + 2000
    assert ledger.currency_total("FUN") == 0


def test_a_satellite_whose_full_field_cannot_buy_one_seat_is_refused() -> None:
    owner = organizer()
    main_event = open_tournament(owner, name="Main Event", buy_in_cents=10_000)

    with pytest.raises(TournamentInvalid) as refused:
        open_tournament(
            owner,
            format="satellite",
            target_id=main_event.pk,
            max_entrants=4,
            buy_in_cents=500,
        )

    assert "does not cover one seat in Main Event" in refused.value.errors["buy_in_cents"][0]


def test_an_organizer_cannot_point_a_satellite_at_someone_elses_tournament() -> None:
    main_event = open_tournament(organizer("orla"), name="Orla's Main Event", buy_in_cents=2000)
    rival = organizer("rita")

    with pytest.raises(TournamentInvalid) as refused:
        open_tournament(
            rival,
            format="satellite",
            target_id=main_event.pk,
            max_entrants=8,
            buy_in_cents=500,
        )

    assert refused.value.errors["target"] == [
        "Orla's Main Event is not yours: a satellite gives seats in your own."
    ]
