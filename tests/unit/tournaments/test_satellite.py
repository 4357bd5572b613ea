"""Satellite: tickets to a target tournament, a cash remainder, and play that stops once won."""

import random

import pytest

from accounts.money import money_text
from tournaments.formats.base import Entrant, FormatError, Result, play_out
from tournaments.formats.prizes import Prize
from tournaments.formats.satellite import (
    Satellite,
    SatelliteOptions,
    SatellitePlan,
    TargetTournament,
    plan_satellite,
)

MAIN_EVENT = TargetTournament("Spring Open", buy_in_cents=5_000)


def players(count: int) -> list[Entrant]:
    """Players whose id is also their rating seed: player 1 is the highest rated."""
    return [Entrant(id_, rating=2000.0 - id_) for id_ in range(1, count + 1)]


def favourite(pairing) -> int:
    return min(pairing.top, pairing.bottom)


def satellite(pool_cents: int) -> Satellite:
    return Satellite(SatelliteOptions((5, 7), MAIN_EVENT, prize_pool_cents=pool_cents))


def test_the_pool_buys_whole_tickets_and_keeps_the_rest_as_cash():
    assert plan_satellite(prize_pool_cents=16_000, target=MAIN_EVENT) == SatellitePlan(3, 1_000)


def test_a_pool_that_does_not_cover_one_seat_is_refused_when_the_satellite_is_created():
    with pytest.raises(
        FormatError,
        match=r"The prize pool of 40\.00 does not cover one seat in Spring Open \(buy-in 50\.00\)",
    ):
        satellite(4_000)


def test_the_refusal_writes_its_amounts_as_every_page_writes_money():
    high_roller = TargetTournament("High Roller", buy_in_cents=500_000)

    with pytest.raises(FormatError) as refused:
        plan_satellite(prize_pool_cents=123_456, target=high_roller)

    assert f"prize pool of {money_text(123_456)} " in str(refused.value)
    assert f"(buy-in {money_text(500_000)})" in str(refused.value)
    assert "1,234.56" in str(refused.value)


def test_a_target_without_a_buy_in_cannot_be_a_prize():
    with pytest.raises(FormatError, match="Freeroll has no buy-in"):
        plan_satellite(prize_pool_cents=10_000, target=TargetTournament("Freeroll", 0))


def test_a_pool_that_seats_every_player_is_refused_at_the_draw():
    with pytest.raises(FormatError, match="buys 4 seats in Spring Open for 4 players"):
        satellite(20_000).initial_draw(players(4), random.Random(0))


def test_one_ticket_goes_to_the_champion_and_the_remainder_to_the_runner_up():
    sat = satellite(8_000)
    draw = play_out(sat, sat.initial_draw(players(8), random.Random(0)), favourite)

    assert sat.is_finished(draw)
    assert sat.prizes(draw)[:3] == (Prize(1, 0, ticket=True), Prize(2, 3_000), Prize(4, 0))


def test_with_two_tickets_the_final_is_not_played():
    sat = satellite(12_000)
    draw = sat.initial_draw(players(8), random.Random(0))

    draw = play_out(sat, draw, favourite)

    final = draw.pairings[-1]
    assert final.is_ready
    assert sat.is_finished(draw)
    assert sat.ready_pairings(draw) == ()
    assert sat.prizes(draw)[:4] == (
        Prize(1, 0, ticket=True),
        Prize(2, 0, ticket=True),
        Prize(4, 1_000),
        Prize(3, 1_000),
    )


def test_the_semi_finals_still_matter_when_a_ticket_falls_to_the_losing_semi_finalists():
    sat = satellite(16_000)
    draw = play_out(sat, sat.initial_draw(players(8), random.Random(0)), favourite)
    semi_finals = draw.rounds()[1]

    prizes = sat.prizes(draw)

    assert all(pairing.winner is not None for pairing in semi_finals)
    assert prizes[:4] == (
        Prize(1, 0, ticket=True),
        Prize(2, 0, ticket=True),
        Prize(4, 3_000),
        Prize(3, 3_000),
    )
    assert sum(p.cash_cents for p in prizes) + 5_000 * sum(p.ticket for p in prizes) == 16_000


def test_play_stops_when_the_players_left_all_hold_a_ticket():
    sat = satellite(20_000)
    draw = sat.initial_draw(players(16), random.Random(0))
    first_round = draw.rounds()[0]

    draw = sat.advance(draw, [Result(p.key, favourite(p)) for p in first_round])
    quarter_finals = draw.rounds()[1]

    assert not sat.is_finished(draw)
    assert set(sat.ready_pairings(draw)) == set(quarter_finals)

    draw = sat.advance(draw, [Result(p.key, favourite(p)) for p in quarter_finals])

    assert sat.is_finished(draw)
    prizes = sat.prizes(draw)
    assert sorted(p.entrant for p in prizes if p.ticket) == [1, 2, 3, 4]
    assert all(p.cash_cents == 0 for p in prizes)


def test_a_satellite_with_byes_plays_through_and_spends_the_pool():
    sat = satellite(17_550)
    draw = play_out(sat, sat.initial_draw(players(11), random.Random(0)), favourite)

    prizes = sat.prizes(draw)

    assert len(prizes) == 11
    assert sum(p.cash_cents for p in prizes) + 5_000 * sum(p.ticket for p in prizes) == 17_550
