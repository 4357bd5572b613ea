"""Prizes by the organizer's table, flight by flight: the main places and a consolation's
share one pool, ties split, unreached places pass their shares up, and every cent is paid."""

from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.base import Flight, Placing
from tournaments.formats.prizes import Prize, flight_cash_prizes


def ranked(*entrants: int) -> list[Placing]:
    return [Placing(entrant, place, place) for place, entrant in enumerate(entrants, start=1)]


def test_the_main_flight_and_the_consolation_are_paid_from_one_pool() -> None:
    # given: 10,000 cents, 50/25/10 to the main places and 10/5 to the consolation's
    table = {Flight.MAIN: (5000, 2500, 1000), Flight.CONSOLATION: (1000, 500)}
    placings = {Flight.MAIN: ranked(1, 2, 3, 4, 5, 6), Flight.CONSOLATION: ranked(5, 6)}

    prizes = flight_cash_prizes(10_000, table, placings)

    assert sorted(prizes, key=lambda p: p.entrant) == [
        Prize(1, 5000),
        Prize(2, 2500),
        Prize(3, 1000),
        Prize(4, 0),
        Prize(5, 1000),
        Prize(6, 500),
    ]


def test_a_player_placed_in_two_paid_flights_gets_both_prizes() -> None:
    table = {Flight.MAIN: (6000, 3000), Flight.CONSOLATION: (1000,)}
    placings = {Flight.MAIN: ranked(1, 2, 3), Flight.CONSOLATION: ranked(2)}

    prizes = {prize.entrant: prize.cash_cents for prize in flight_cash_prizes(999, table, placings)}

    # the consolation's 10% (99 cents) first; the main flight takes the other 900: 600/300
    assert prizes == {1: 600, 2: 300 + 99, 3: 0}


def test_tied_places_split_the_shares_they_span() -> None:
    # Swiss standings: two players share 2nd-3rd, so they split 30% + 20%.
    table = {Flight.MAIN: (5000, 3000, 2000)}
    placings = {
        Flight.MAIN: [Placing(1, 1, 1), Placing(2, 2, 3), Placing(3, 2, 3), Placing(4, 4, 4)]
    }

    prizes = {p.entrant: p.cash_cents for p in flight_cash_prizes(10_000, table, placings)}

    assert prizes == {1: 5000, 2: 2500, 3: 2500, 4: 0}


def test_a_small_field_passes_the_unreached_places_up_in_proportion() -> None:
    # Four paid places, three players: 40/30/20/10 becomes 44.44/33.33/22.22 of the pool.
    table = {Flight.MAIN: (4000, 3000, 2000, 1000)}

    prizes = flight_cash_prizes(9000, table, {Flight.MAIN: ranked(1, 2, 3)})

    assert [p.cash_cents for p in prizes] == [4000, 3000, 2000]


def test_a_consolation_nobody_played_gives_its_part_to_the_main_places() -> None:
    table = {Flight.MAIN: (6000, 3000), Flight.CONSOLATION: (1000,)}

    prizes = flight_cash_prizes(1000, table, {Flight.MAIN: ranked(1, 2), Flight.CONSOLATION: []})

    assert [p.cash_cents for p in prizes] == [667, 333]


@given(
    pool=st.integers(min_value=0, max_value=10**9),
    main=st.lists(st.integers(min_value=1, max_value=50), min_size=1, max_size=8),
    side=st.lists(st.integers(min_value=1, max_value=50), max_size=4),
    players=st.integers(min_value=2, max_value=12),
    side_players=st.integers(min_value=0, max_value=6),
)
def test_every_cent_of_the_pool_is_paid_whatever_the_table_and_field(
    pool: int, main: list[int], side: list[int], players: int, side_players: int
) -> None:
    weights = sorted(main, reverse=True), sorted(side, reverse=True)
    total = sum(weights[0]) + sum(weights[1])
    scaled = [[w * 10_000 // total for w in flight] for flight in weights]
    scaled[0][0] += 10_000 - sum(map(sum, scaled))
    table = {Flight.MAIN: tuple(scaled[0])}
    if scaled[1] and all(scaled[1]):
        table[Flight.CONSOLATION] = tuple(scaled[1])
    else:
        table[Flight.MAIN] = (table[Flight.MAIN][0] + sum(scaled[1]), *table[Flight.MAIN][1:])
    placings = {
        Flight.MAIN: ranked(*range(1, players + 1)),
        Flight.CONSOLATION: ranked(*range(players, players - min(side_players, players), -1)),
    }

    prizes = flight_cash_prizes(pool, table, placings)

    assert sum(prize.cash_cents for prize in prizes) == pool
    assert all(prize.cash_cents >= 0 for prize in prizes)
