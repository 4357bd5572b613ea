"""Prize splits: published tables, exact integer cents, shared places and satellite tickets."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.base import FormatError, Placing
from tournaments.formats.prizes import (
    DEFAULT_SIT_AND_GO_TABLE,
    PayoutBand,
    Prize,
    PrizeTable,
    cash_prizes,
    split_pool,
    ticket_prizes,
)


def knockout_placings(count: int) -> list[Placing]:
    """Placings of a finished knockout of ``count`` (a power of two) entrants, ids 1..count."""
    placings = [Placing(1, 1, 1)]
    while len(placings) < count:
        first = len(placings) + 1
        last = 2 * len(placings)
        placings += [Placing(entrant, first, last) for entrant in range(first, last + 1)]
    return placings


@st.composite
def shares(draw) -> tuple[int, ...]:
    """Non-increasing positive basis points adding up to 10,000."""
    paid = draw(st.integers(1, 10))
    cuts = sorted(draw(st.sets(st.integers(1, 9_999), min_size=paid - 1, max_size=paid - 1)))
    bounds = [0, *cuts, 10_000]
    return tuple(sorted((b - a for a, b in itertools.pairwise(bounds)), reverse=True))


@st.composite
def placings(draw, at_least: int) -> list[Placing]:
    """Placings of ``at_least`` to 40 players, with places shared at random."""
    players = draw(st.integers(at_least, 40))
    result: list[Placing] = []
    while len(result) < players:
        size = draw(st.integers(1, players - len(result)))
        first = len(result) + 1
        result += [Placing(first + i, first, first + size - 1) for i in range(size)]
    return result


@pytest.mark.parametrize(
    ("seats", "percent"),
    [
        (2, [100]),
        (3, [100]),
        (4, [70, 30]),
        (7, [70, 30]),
        (8, [65, 35]),
        (12, [65, 35]),
        (16, [50, 30, 10, 10]),
        (32, [40, 25, 10, 10, 3.75, 3.75, 3.75, 3.75]),
        (64, [30, 18, 9, 9, 4.5, 4.5, 4.5, 4.5, 2, 2, 2, 2, 2, 2, 2, 2]),
    ],
)
def test_the_default_table_pays_by_the_band_the_field_reaches(seats, percent):
    shares = DEFAULT_SIT_AND_GO_TABLE.shares_for(seats)

    assert [share / 100 for share in shares] == percent


def test_split_pool_gives_the_cents_left_by_rounding_to_the_higher_places():
    assert split_pool(10_001, (6_500, 3_500)) == (6_501, 3_500)
    assert split_pool(10_003, (5_000, 3_000, 1_000, 1_000)) == (5_002, 3_001, 1_000, 1_000)
    assert split_pool(0, (7_000, 3_000)) == (0, 0)


def test_losing_semi_finalists_split_the_shares_of_third_and_fourth():
    table = (5_000, 3_000, 1_500, 500)

    prizes = cash_prizes(10_000, table, knockout_placings(8))

    assert [prize.cash_cents for prize in prizes] == [5_000, 3_000, 1_000, 1_000, 0, 0, 0, 0]
    assert [prize.entrant for prize in prizes] == list(range(1, 9))


def test_a_sixteen_seat_pool_is_paid_fifty_thirty_ten_ten_to_the_cent():
    prizes = cash_prizes(16_003, DEFAULT_SIT_AND_GO_TABLE.shares_for(16), knockout_placings(16))

    assert [p.cash_cents for p in prizes[:5]] == [8_002, 4_801, 1_600, 1_600, 0]
    assert sum(p.cash_cents for p in prizes) == 16_003


@pytest.mark.parametrize(
    ("bands", "message"),
    [
        ((), "at least one band"),
        ((PayoutBand(2, (6_000, 3_000)),), "must add up to 100%"),
        ((PayoutBand(4, (3_000, 7_000)),), "cannot pay more than the place above"),
        ((PayoutBand(4, (10_000, 0)),), "share above 0%"),
        ((PayoutBand(2, (5_000, 3_000, 2_000)),), "3 paid places cannot be filled by 2 players"),
        ((PayoutBand(8, (10_000,)), PayoutBand(4, (10_000,))), "growing number of players"),
    ],
)
def test_a_prize_table_an_organizer_gets_wrong_is_refused_with_the_reason(bands, message):
    with pytest.raises(FormatError, match=message):
        PrizeTable(bands)


def test_a_field_smaller_than_the_table_covers_has_no_payout():
    table = PrizeTable((PayoutBand(4, (10_000,)),))

    with pytest.raises(FormatError, match="no payout for 3"):
        table.shares_for(3)


@given(pool=st.integers(0, 10**9), shares=shares())
def test_split_pool_adds_up_to_the_pool_and_never_pays_a_place_more_than_the_one_above(
    pool, shares
):
    parts = split_pool(pool, shares)

    assert sum(parts) == pool
    assert all(part >= 0 for part in parts)
    assert list(parts) == sorted(parts, reverse=True)


@given(data=st.data(), pool=st.integers(0, 10**9), shares=shares())
def test_cash_prizes_add_up_to_the_pool_with_shared_places_paid_alike(data, pool, shares):
    finish = data.draw(placings(at_least=len(shares)))

    prizes = cash_prizes(pool, shares, finish)

    cents = [prize.cash_cents for prize in prizes]
    assert sum(cents) == pool
    assert [prize.entrant for prize in prizes] == [placing.entrant for placing in finish]
    assert cents == sorted(cents, reverse=True)
    assert all(cents[i] == 0 for i, placing in enumerate(finish) if placing.place > len(shares))
    for place in {placing.place for placing in finish}:
        shared = [c for c, placing in zip(cents, finish, strict=True) if placing.place == place]
        assert max(shared) - min(shared) <= 1


def test_tickets_go_to_the_top_places_and_the_remainder_to_the_next():
    prizes = ticket_prizes(16_000, 5_000, [Placing(i, i, i) for i in range(1, 6)])

    assert prizes == (
        Prize(1, 0, ticket=True),
        Prize(2, 0, ticket=True),
        Prize(3, 0, ticket=True),
        Prize(4, 1_000),
        Prize(5, 0),
    )


def test_tickets_a_shared_place_cannot_split_are_paid_to_it_in_cash():
    # 3 tickets of 50.00 and 10.00 over: the finalists take two, the losing semi-finalists
    # share the third ticket's value and the remainder.
    prizes = ticket_prizes(16_000, 5_000, knockout_placings(8))

    assert prizes[:4] == (
        Prize(1, 0, ticket=True),
        Prize(2, 0, ticket=True),
        Prize(3, 3_000),
        Prize(4, 3_000),
    )
    assert all(prize == Prize(prize.entrant, 0) for prize in prizes[4:])


def test_a_remainder_for_a_shared_place_is_split_with_the_odd_cent_to_the_first_listed():
    prizes = ticket_prizes(10_003, 5_000, knockout_placings(4))

    assert [(p.ticket, p.cash_cents) for p in prizes] == [
        (True, 0),
        (True, 0),
        (False, 2),
        (False, 1),
    ]


@given(data=st.data(), ticket=st.integers(1, 10**6), tickets=st.integers(0, 39))
def test_ticket_prizes_spend_the_whole_pool_and_rank_tickets_above_cash(data, ticket, tickets):
    pool = tickets * ticket + data.draw(st.integers(0, ticket - 1))
    finish = data.draw(placings(at_least=tickets + 1))

    prizes = ticket_prizes(pool, ticket, finish)

    assert sum(p.cash_cents for p in prizes) + ticket * sum(p.ticket for p in prizes) == pool
    holders = [i for i, p in enumerate(prizes) if p.ticket]
    assert holders == list(range(len(holders)))
    assert all(p.cash_cents == 0 for p in prizes if p.ticket)
