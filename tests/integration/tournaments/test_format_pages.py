"""The tournament pages of the formats beyond a knockout: a double elimination's and a
knockout's side flights drawn as labelled brackets that say where every side comes from, a
Swiss's or a round robin's standings with their tiebreaks and each round's pairings, and the
knockout stage after them; in the same few queries whatever the field.

Each tournament is opened as a knockout and given its format's fields on the row before it
starts (as in ``test_more_formats_played_out``); ``test_formats_from_the_api`` creates them as
organizers do.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from matches.models import Match
from tests.integration.tournaments.helpers import (
    concede,
    concede_round,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import bracket, scheduler, services
from tournaments.models import Pairing, Tournament, TournamentFormat


def started(format_: str, field: list[User], prefix: str = "p", **fields: Any) -> Tournament:
    """A tournament of ``format_`` among ``field``, started, its first matches made."""
    owner = organizer(f"{prefix}-orla")
    tournament = open_tournament(owner, buy_in_cents=0, fee_cents=0)
    Tournament.objects.filter(pk=tournament.pk).update(format=format_, **fields)
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    scheduler.matches_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def page(tournament: Tournament, path: str = "bracket/") -> str:
    response = Client().get(f"/tournaments/{tournament.pk}/{path}")
    assert response.status_code == 200
    return response.content.decode()


def slot_html(html: str, testid: str) -> str:
    """The markup of one slot, from its opening tag to the end of its cell."""
    start = html.index(f'data-testid="{testid}"')
    return html[start : html.index('<div class="bracket-cell', start)]


def queries(tournament: Tournament, path: str = "bracket/") -> int:
    client = Client()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(f"/tournaments/{tournament.pk}/{path}")
    assert response.status_code == 200
    return len(captured)


def double_elimination(count: int, prefix: str = "p") -> Tournament:
    return started(
        TournamentFormat.DOUBLE_ELIMINATION,
        players(count, prefix=prefix),
        prefix,
        grand_final_reset=True,
        consolation_through_round=1,
    )


@pytest.mark.django_db
def test_a_double_elimination_is_drawn_as_flights_saying_where_each_side_comes_from() -> None:
    tournament = double_elimination(8)

    html = page(tournament)

    flights = re.findall(r'<section class="flight" data-flight="(\w+)" aria-label="([^"]+)"', html)
    assert flights == [
        ("main", "Winners&#x27; flight"),
        ("losers", "Losers&#x27; flight"),
        ("final", "Final"),
        ("consolation", "Consolation"),
    ]
    # the winners' flight keeps the knockout's slot names; the others carry their flight's
    assert 'data-testid="slot-0-0"' in html
    assert 'data-testid="slot-2-0"' in html
    assert 'data-testid="slot-losers-0-0"' in html
    assert 'data-testid="slot-final-1-0"' in html
    assert 'data-testid="slot-consolation-0-0"' in html
    drop_in = slot_html(html, "slot-losers-0-0")
    assert 'data-from="loser:main:0:0 loser:main:0:1"' in drop_in
    assert (
        '<abbr class="side-name pending side-from" '
        'title="Loser of Winners&#x27; quarter-finals, match 1">L of W R1 M1</abbr>'
    ) in drop_in
    grand_final = slot_html(html, "slot-final-0-0")
    assert 'title="Winner of Winners&#x27; final">W of W R3 M1</abbr>' in grand_final
    assert "Grand final; winner goes to Reset final; loser goes to Reset final." in grand_final
    reset = slot_html(html, "slot-final-1-0")
    assert 'title="Loser of Grand final">L of GF R1 M1</abbr>' in reset
    # a slot without a match yet can still be reached from the keyboard
    assert 'tabindex="0"' in slot_html(html, "slot-1-0")
    # the tournament's own page draws the same flights
    assert 'data-testid="slot-losers-0-0"' in page(tournament, "")


@pytest.mark.django_db
def test_lines_join_pairs_in_a_knockout_round_and_run_straight_into_a_drop_round() -> None:
    tournament = double_elimination(8)

    layouts = {
        layout.flight: layout
        for layout in bracket.flights(bracket.bracket(tournament), "double_elimination")
    }

    winners = layouts["main"].columns
    assert [len(column.cells) for column in winners] == [4, 2, 1]
    assert [cell.line_out for cell in winners[0].cells] == ["down", "up", "down", "up"]
    assert [cell.line_in for cell in winners[1].cells] == [True, True]
    losers = layouts["losers"].columns
    assert [len(column.cells) for column in losers] == [2, 2, 1, 1]
    assert [cell.line_out for cell in losers[0].cells] == ["across", "across"]  # drop round next
    assert [cell.line_out for cell in losers[1].cells] == ["down", "up"]
    # the losers' final sends its winner out of its flight, to the grand final
    assert [cell.line_out for cell in losers[3].cells] == [""]
    assert [column.code for column in layouts["final"].columns] == ["GF R1", "GF R2"]


@pytest.mark.django_db
def test_a_knockout_with_a_last_chance_names_both_flights_and_where_its_winner_re_enters() -> None:
    tournament = started(TournamentFormat.KNOCKOUT, players(9), last_chance_reenters_at=2)

    html = page(tournament)

    assert re.findall(r'<h3 class="flight-title">([^<]+)</h3>', html) == [
        "Main flight",
        "Last chance",
    ]
    final = slot_html(html, "slot-4-0")
    assert 'data-from="winner:main:3:0 winner:last_chance:6:0"' in final
    assert 'title="Winner of Last chance final">W of LC R7 M1</abbr>' in final
    assert 'data-testid="slot-last_chance-0-0" data-status="bye" data-flight="last_chance"' in html


@pytest.mark.django_db
def test_a_knockout_alone_is_one_bracket_without_flight_headings_or_match_codes() -> None:
    tournament = started(TournamentFormat.KNOCKOUT, players(8))

    html = page(tournament)

    assert html.count('<section class="flight"') == 1
    assert "flight-title" not in html
    assert "slot-code" not in html
    assert "bracket-legend" not in html
    assert re.findall(r'data-testid="slot-(\d-\d)"', html) == [
        "0-0",
        "0-1",
        "0-2",
        "0-3",
        "1-0",
        "1-1",
        "2-0",
    ]


@pytest.mark.django_db(transaction=True)
def test_a_result_moves_its_loser_into_the_losers_flight_on_the_live_fragment() -> None:
    # given a running double elimination
    tournament = double_elimination(8)
    row = Pairing.objects.get(tournament=tournament, flight="main", round=0, position=0)
    first = Match.objects.get(pk=row.match_id)
    loser = User.objects.get(pk=first.player_1_id)

    # when the first winners' match ends
    concede(first, loser)

    # then the fragment the page fetches shows its loser in the losers' flight
    html = page(tournament, "bracket/fragment/")
    assert f'data-username="{loser.username}"' in slot_html(html, "slot-losers-0-0")
    assert 'data-status="finished"' in slot_html(html, "slot-0-0")


@pytest.mark.django_db(transaction=True)
def test_a_swiss_shows_standings_with_tiebreaks_and_the_pairings_of_every_round() -> None:
    # given a Swiss of seven whose first round is played
    field = players(7)
    tournament = started(TournamentFormat.SWISS, field, rounds=3)
    concede_round(tournament)

    html = page(tournament)

    # the standings: every player, ranked, with each tiebreak named and explained
    assert 'data-testid="standings"' in html
    assert len(re.findall(r'data-testid="standing-p\d\d"', html)) == 7
    headings = re.findall(r'data-tiebreak="(\w+)"><abbr title="([^"]+)">', html)
    assert [name for name, _ in headings] == [
        "buchholz",
        "median_buchholz",
        "sonneborn_berger",
        "points_margin",
    ]
    assert headings[0][1] == "Buchholz: the sum of the opponents&#x27; points"
    # the pairings: the round in play first, the one played after it, each with its bye
    rounds = re.findall(r'data-testid="pairings-round-(\d)"', html)
    assert rounds == ["2", "1"]
    played = html[html.index('data-testid="pairings-round-1"') :]
    assert played.count('data-status="finished"') == 3
    assert played.count('data-status="bye"') == 1
    assert "1–0" in played
    assert re.search(r'href="/matches/\d+/" title="Open the board">Board →', played)
    # no column bracket for a Swiss without a top cut
    assert 'class="flight"' not in html


@pytest.mark.django_db(transaction=True)
def test_the_tournament_page_and_the_live_fragment_show_the_same_standings() -> None:
    tournament = started(TournamentFormat.SWISS, players(5), rounds=2)
    concede_round(tournament)

    shown = {
        path: (
            re.findall(r'data-testid="standing-(p\d\d)"', html),
            re.findall(r'data-testid="pairings-round-(\d)"', html),
        )
        for path in ("", "bracket/fragment/")
        for html in [page(tournament, path)]
    }

    assert shown[""] == shown["bracket/fragment/"]
    ranked, paired_rounds = shown[""]
    assert sorted(ranked) == ["p00", "p01", "p02", "p03", "p04"]
    assert paired_rounds == ["2", "1"]


@pytest.mark.django_db(transaction=True)
def test_a_round_robin_in_groups_lists_each_group_and_draws_its_knockout_stage() -> None:
    # given a round robin of two groups of three, the first two of each going through
    tournament = started(
        TournamentFormat.ROUND_ROBIN, players(6), group_size=3, advance_per_group=2
    )

    # when every group match is played
    while not Pairing.objects.filter(tournament=tournament, flight="final").exists():
        assert concede_round(tournament) > 0

    html = page(tournament)

    assert re.findall(r'<h4 class="standings-group">Group (\w)</h4>', html) == ["A", "B"]
    assert 'data-testid="standings-A"' in html
    sit_outs = re.findall(r"<em [^>]*>sits out</em>", html)
    assert len(sit_outs) == 6  # each of six players sits out once
    assert re.search(r'title="Board A1">A1<', html)
    assert "Knockout stage" in html
    assert 'data-testid="slot-final-0-0"' in html
    assert 'data-testid="slot-final-1-0"' in html


DOUBLE_ELIMINATION_QUERIES = 4  # the tournament, its pairings, its matches, the seeds


@pytest.mark.django_db
def test_the_bracket_page_of_a_double_elimination_costs_the_same_queries_at_any_size() -> None:
    sizes = (16, 64, 256)
    tournaments = {size: double_elimination(size, f"d{size}-") for size in sizes}

    counts = {size: queries(tournament) for size, tournament in tournaments.items()}
    fragments = {
        size: queries(tournament, "bracket/fragment/") for size, tournament in tournaments.items()
    }

    assert counts == dict.fromkeys(sizes, DOUBLE_ELIMINATION_QUERIES)
    assert fragments == dict.fromkeys(sizes, DOUBLE_ELIMINATION_QUERIES)
    # a field this big draws its current rounds; every other round is one fetch away
    big = page(tournaments[256])
    later = re.findall(r'data-round-url="([^"]+)"', big)
    fetched = "".join(Client().get(url).content.decode() for url in later)
    assert later
    assert big.count('data-testid="slot-') + fetched.count('data-testid="slot-') == sum(
        len(r.slots) for r in bracket.bracket(tournaments[256])
    )


SWISS_QUERIES = 7  # the tournament, the bracket's three, the standings' draw, scores and names


@pytest.mark.django_db
def test_the_standings_page_of_a_swiss_costs_the_same_queries_at_any_size() -> None:
    small = started(TournamentFormat.SWISS, players(8, prefix="s"), "s", rounds=3)
    large = started(TournamentFormat.SWISS, players(64, prefix="l"), "l", rounds=6)

    assert queries(small) == queries(large) == SWISS_QUERIES
    assert queries(small, "bracket/fragment/") == queries(large, "bracket/fragment/")
