"""Sit & Go: starts when the last seat is taken, seats the players, pays the prize table."""

import random

import pytest

from tournaments.formats.base import DrawInvariantError, Entrant, FormatError, play_out
from tournaments.formats.knockout import Seeding
from tournaments.formats.prizes import PayoutBand, PrizeTable
from tournaments.formats.sit_and_go import SitAndGo, SitAndGoOptions, should_start


def players(count: int) -> list[Entrant]:
    """Players whose id is also their rating seed: player 1 is the highest rated."""
    return [Entrant(id_, rating=2000.0 - id_) for id_ in range(1, count + 1)]


def favourite(pairing) -> int:
    return min(pairing.top, pairing.bottom)


@pytest.mark.parametrize(("seated", "starts"), [(0, False), (1, False), (7, False), (8, True)])
def test_an_eight_seat_sit_and_go_starts_the_moment_the_last_seat_is_taken(seated, starts):
    assert should_start(seats=8, seated=seated) is starts


def test_more_players_than_seats_is_a_caller_bug():
    with pytest.raises(DrawInvariantError):
        should_start(seats=8, seated=9)


@pytest.mark.parametrize("seats", [1, 65])
def test_a_sit_and_go_has_two_to_sixty_four_seats(seats):
    with pytest.raises(FormatError, match=f"A Sit & Go has 2 to 64 seats; {seats} were asked"):
        SitAndGo(SitAndGoOptions(seats, (5,)))


@pytest.mark.parametrize("seats", [2, 3, 4, 6, 8, 11, 16, 24, 32, 48, 64])
def test_every_allowed_seat_count_plays_through_and_pays_the_whole_pool(seats):
    sit_and_go = SitAndGo(SitAndGoOptions(seats, (3, 5)))
    draw = sit_and_go.initial_draw(players(seats), random.Random(seats))

    draw = play_out(sit_and_go, draw, favourite)
    prizes = sit_and_go.prizes(draw, pool_cents=seats * 1_000 - 7)

    assert prizes[0].entrant == 1
    assert sum(prize.cash_cents for prize in prizes) == seats * 1_000 - 7
    assert sorted(prize.entrant for prize in prizes) == list(range(1, seats + 1))


def test_eight_seats_pay_sixty_five_and_thirty_five_percent():
    sit_and_go = SitAndGo(SitAndGoOptions(8, (5,)))
    draw = play_out(sit_and_go, sit_and_go.initial_draw(players(8), random.Random(1)), favourite)

    prizes = sit_and_go.prizes(draw, pool_cents=8_000)

    assert [p.cash_cents for p in prizes] == [5_200, 2_800, 0, 0, 0, 0, 0, 0]
    assert prizes[0].entrant == 1


def test_the_organizer_can_publish_another_prize_table():
    table = PrizeTable((PayoutBand(2, (10_000,)), PayoutBand(4, (6_000, 2_500, 1_500))))
    with pytest.raises(FormatError, match="3 paid places cannot be filled by 2 players"):
        PrizeTable((PayoutBand(2, (6_000, 2_500, 1_500)),))

    sit_and_go = SitAndGo(SitAndGoOptions(4, (5,), prize_table=table))
    draw = play_out(sit_and_go, sit_and_go.initial_draw(players(4), random.Random(1)), favourite)

    # 3rd and 4th share the 15% of the third place.
    assert [p.cash_cents for p in sit_and_go.prizes(draw, pool_cents=4_000)] == [
        2_400,
        1_000,
        300,
        300,
    ]


def test_a_prize_table_that_cannot_pay_the_seat_count_is_refused_at_creation():
    table = PrizeTable((PayoutBand(8, (10_000,)),))

    with pytest.raises(FormatError, match="no payout for 4"):
        SitAndGo(SitAndGoOptions(4, (5,), prize_table=table))


def test_seating_is_random_by_default_and_reproducible():
    sit_and_go = SitAndGo(SitAndGoOptions(8, (5,)))

    first = sit_and_go.initial_draw(players(8), random.Random(5))

    assert first == sit_and_go.initial_draw(players(8), random.Random(5))
    assert len({sit_and_go.initial_draw(players(8), random.Random(s)) for s in range(5)}) > 1


def test_seating_by_rating_puts_the_top_two_in_opposite_halves():
    sit_and_go = SitAndGo(SitAndGoOptions(8, (5,), seating=Seeding.RATING))

    draw = sit_and_go.initial_draw(players(8), random.Random(0))

    assert [(p.top, p.bottom) for p in draw.rounds()[0]] == [(1, 8), (4, 5), (3, 6), (2, 7)]


def test_the_draw_waits_for_a_full_table():
    sit_and_go = SitAndGo(SitAndGoOptions(8, (5,)))

    with pytest.raises(DrawInvariantError):
        sit_and_go.initial_draw(players(7), random.Random(0))


def test_prizes_wait_for_the_final():
    sit_and_go = SitAndGo(SitAndGoOptions(4, (5,)))
    draw = sit_and_go.initial_draw(players(4), random.Random(0))

    with pytest.raises(DrawInvariantError):
        sit_and_go.prizes(draw, pool_cents=4_000)
