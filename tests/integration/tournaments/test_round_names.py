"""Round names have one home (``tournaments.reads.rounds``): the bracket, the dispute page
and a correction's summary name a round and a match in it alike."""

from __future__ import annotations

import pytest
from django.test import Client

from disputes.models import Dispute
from tests.integration.disputes.helpers import file, staff
from tests.integration.tournaments.helpers import (
    concede,
    concede_round,
    live_matches,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import services as tournament_services
from tournaments.bracket import bracket
from tournaments.formats.base import Flight
from tournaments.models import Tournament, TournamentFormat
from tournaments.reads import round_name

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_dispute_on_a_semi_final_reads_semi_finals_as_the_bracket_does() -> None:
    # given an eight-player knockout whose quarter-finals are played
    owner, field = organizer(), players(8)
    tournament = open_tournament(owner, buy_in_cents=0, fee_cents=0)
    register_all(tournament, field)
    tournament_services.tournament_start(tournament_id=tournament.pk, user=owner)
    concede_round(tournament)
    semi_final = live_matches(tournament)[1]
    concede(semi_final, semi_final.player_1)

    # when its loser files a dispute and staff open it
    dispute = Dispute.objects.get(pk=file(semi_final.player_1, semi_final).json()["id"])
    page = Client()
    page.force_login(staff())
    html = page.get(f"/disputes/{dispute.pk}/").content.decode()

    # then the page names the round as the bracket does
    [semis] = [r for r in bracket(Tournament.objects.get(pk=tournament.pk)) if r.number == 1]
    assert semis.name == "Semi-finals"
    assert "Semi-finals, match 2; the bracket says the winner is" in html
    assert "Round 2, match 2" not in html


@pytest.mark.parametrize(
    ("format_", "flight", "number", "total", "name"),
    [
        (TournamentFormat.KNOCKOUT, Flight.MAIN, 0, 3, "Quarter-finals"),
        (TournamentFormat.KNOCKOUT, Flight.MAIN, 0, 4, "Round of 16"),
        (TournamentFormat.SWISS, Flight.MAIN, 2, 5, "Round 3"),
        (TournamentFormat.SWISS, Flight.FINAL, 1, 2, "Final"),
        (TournamentFormat.DOUBLE_ELIMINATION, Flight.MAIN, 1, 2, "Winners' final"),
        (TournamentFormat.DOUBLE_ELIMINATION, Flight.FINAL, 1, 2, "Reset final"),
        (TournamentFormat.DOUBLE_ELIMINATION, Flight.LOSERS, 0, 2, "Losers' round 1"),
        (TournamentFormat.KNOCKOUT, Flight.CONSOLATION, 1, 2, "Consolation final"),
        (TournamentFormat.TRIPLE_ELIMINATION, Flight.MAIN, 0, 3, "Winners' quarter-finals"),
        (TournamentFormat.TRIPLE_ELIMINATION, Flight.LOSERS, 0, 4, "First losers' round 1"),
        (TournamentFormat.TRIPLE_ELIMINATION, Flight.LOSERS, 3, 4, "First losers' final"),
        (TournamentFormat.TRIPLE_ELIMINATION, Flight.SECOND_LOSERS, 1, 4, "Second losers' round 2"),
        (TournamentFormat.TRIPLE_ELIMINATION, Flight.SECOND_LOSERS, 3, 4, "Second losers' final"),
        # with resets: the playoff and its reset, then the grand final and up to three more
        (TournamentFormat.TRIPLE_ELIMINATION, Flight.FINAL, 0, 6, "Losers' playoff"),
        (TournamentFormat.TRIPLE_ELIMINATION, Flight.FINAL, 1, 6, "Playoff reset"),
        (TournamentFormat.TRIPLE_ELIMINATION, Flight.FINAL, 2, 6, "Grand final"),
        (TournamentFormat.TRIPLE_ELIMINATION, Flight.FINAL, 5, 6, "Grand final reset 3"),
        # without: one playoff, one grand final
        (TournamentFormat.TRIPLE_ELIMINATION, Flight.FINAL, 0, 2, "Losers' playoff"),
        (TournamentFormat.TRIPLE_ELIMINATION, Flight.FINAL, 1, 2, "Grand final"),
    ],
)
def test_each_flight_names_its_rounds(
    format_: str, flight: str, number: int, total: int, name: str
) -> None:
    assert round_name(format_, flight, number, total) == name
