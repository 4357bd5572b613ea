"""Swing's money rule, purely: what each player can lose (their cap), the all-in stake both
ways, the cube limit, the level of a game from its players' rounds, and random swing
tournaments played out to the last chip with every chip accounted for."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.base import FormatError
from tournaments.formats.swing import (
    LARGEST_CUBE,
    CppRaise,
    CppSchedule,
    Free,
    adjudicated_transfer,
    cube_limit,
    game_terms,
    pair_free,
    payout,
    round_of,
    settle,
)

T0 = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)

# The rule's own examples. (CPP, chips of seat 0 and seat 1 at the start, points (result ×
# cube), the seat that loses, what it pays, all-in, the highest cube). At CPP 300 a gammon
# on a cube of 4 is 2 × 4 × 300 = 2,400 chips.
RULE = [
    # Nobody all-in: the richer player, losing, pays the full amount ...
    (300, (10_000, 2_000), 2 * 4, 0, 2_400, False, 64),
    # ... and the poorer player, losing, pays at most their chips.
    (300, (10_000, 2_000), 2 * 4, 1, 2_000, False, 64),
    (300, (10_000, 10_000), 2 * 4, 0, 2_400, False, 64),
    (300, (2_000, 10_000), 1 * 4, 0, 1_200, False, 64),
    (300, (2_000, 10_000), 3 * 16, 1, 10_000, False, 64),  # a backgammon on 16 takes it all
    (100, (1_000, 1_000), 1, 1, 100, False, 16),
    # Holding exactly the CPP is not all-in: the short stack risks 100 but may win more.
    (100, (100, 5_000), 1, 0, 100, False, 64),
    (100, (100, 5_000), 3, 1, 300, False, 64),
    # All-in (fewer chips than the CPP): the game is for the all-in stake both ways.
    (300, (250, 10_000), 1, 0, 250, True, 1),
    (300, (250, 10_000), 1, 1, 250, True, 1),  # the all-in player wins only what he put in
    (300, (250, 10_000), 3, 1, 250, True, 1),  # a backgammon no more than a single game
    (300, (10_000, 250), 2, 0, 250, True, 1),
    (300, (250, 100), 1, 0, 100, True, 1),  # both all-in: the poorer's chips both ways
    (300, (250, 100), 1, 1, 100, True, 1),
    (1, (1, 1), 1, 0, 1, False, 1),
]


@pytest.mark.parametrize(("cpp", "chips", "points", "loser", "paid", "all_in", "max_cube"), RULE)
def test_the_loser_pays_within_their_cap_and_an_all_in_game_is_for_the_all_in_stake(
    cpp: int,
    chips: tuple[int, int],
    points: int,
    loser: int,
    paid: int,
    all_in: bool,
    max_cube: int,
) -> None:
    terms = game_terms(cpp, chips)
    assert terms.all_in is all_in
    assert terms.max_cube == max_cube
    assert payout(terms, points, loser=loser) == paid
    assert terms.stake == (min(chips) if all_in else max(chips))


def test_at_the_cube_limit_every_result_takes_both_caps_and_one_turn_less_does_not() -> None:
    terms = game_terms(300, (10_000, 2_000))
    assert terms.caps == (10_000, 2_000)
    # On 64 one point is 19,200: each loser pays their whole cap, a double changes nothing.
    assert [payout(terms, 64, loser=seat) for seat in (0, 1)] == [10_000, 2_000]
    # On 32 a single game is 9,600, short of the richer player's 10,000: a double still
    # changes what he pays, though the gammon (19,200) already takes it.
    assert payout(terms, 32, loser=0) == 9_600
    assert payout(terms, 2 * 32, loser=0) == 10_000


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 10_000), st.integers(1, 10**9), st.integers(1, 10**9))
def test_the_cube_limit_is_where_one_point_reaches_both_caps(
    cpp: int, chips_0: int, chips_1: int
) -> None:
    terms = game_terms(cpp, (chips_0, chips_1))
    cube = terms.max_cube
    assert cube & (cube - 1) == 0
    if cube < LARGEST_CUBE:
        assert [payout(terms, cube, loser=seat) for seat in (0, 1)] == list(terms.caps)
    if cube > 1:  # one turn less, a single game pays the player who could lose most less
        richer = 0 if terms.caps[0] >= terms.caps[1] else 1
        assert payout(terms, cube // 2, loser=richer) < terms.caps[richer]
    if terms.all_in:
        assert cube == 1  # the cube stays in the middle


@pytest.mark.parametrize(("cpp", "stake"), [(1, 1), (10, 1000), (300, 2000), (7, 5), (3, 1 << 30)])
def test_the_cube_stops_where_one_point_takes_the_stake(cpp: int, stake: int) -> None:
    cube = cube_limit(cpp, stake)
    assert cube & (cube - 1) == 0
    assert cube * cpp >= stake or cube == LARGEST_CUBE
    assert cube == 1 or (cube // 2) * cpp < stake  # one turn less would not reach it


def test_a_game_needs_two_players_with_chips() -> None:
    with pytest.raises(FormatError):
        game_terms(100, (0, 500))


@pytest.mark.parametrize(
    ("equity", "cube", "moved"),
    [
        (0.5, 1, 50),
        (-0.25, 2, -50),
        (1.8, 4, 720),  # seat 1 holds 800: the 720 is paid in full
        (9.0, 1, 800),
        (-3.0, 8, -500),  # seat 0 pays at most its 500
        (0.004, 1, 0),
    ],
)
def test_an_adjudicated_game_pays_its_equity_within_the_payers_cap(
    equity: float, cube: int, moved: int
) -> None:
    assert adjudicated_transfer(game_terms(100, (500, 800)), equity, cube) == moved


def test_an_adjudicated_all_in_game_moves_no_more_than_the_all_in_stake() -> None:
    terms = game_terms(1_000, (400, 9_000))
    assert adjudicated_transfer(terms, -0.9, 1) == -400
    assert adjudicated_transfer(terms, 0.9, 1) == 400


# ---------------------------------------------------------------- a game's level


@pytest.mark.parametrize(
    ("raise_on", "games", "field_level", "level"),
    [
        (CppRaise.GAME, (7, 2), 0, 7),  # the round of the player who has played more
        (CppRaise.GAME, (0, 0), 5, 0),
        (CppRaise.KNOCKOUT, (7, 2), 3, 3),  # the field's, as before
        (CppRaise.MINUTES, (7, 2), 4, 4),
    ],
)
def test_a_game_plays_at_its_players_round_or_the_fields_level(
    raise_on: CppRaise, games: tuple[int, int], field_level: int, level: int
) -> None:
    plan = CppSchedule((10,), step=10, raise_on=raise_on, minutes=10)
    assert plan.game_level(field_level, games) == level


def test_fifty_games_ending_at_once_raise_each_players_level_by_one() -> None:
    plan = CppSchedule((10,), step=10)
    games = dict.fromkeys(range(100), 0)
    for first in range(0, 100, 2):  # one wave: 50 games end
        games[first] += 1
        games[first + 1] += 1
    assert {plan.cpp(plan.game_level(0, (games[a], games[a + 1]))) for a in range(99)} == {20}


# ---------------------------------------------------------------- swings played out


def play_out(players: int, starting: int, plan: CppSchedule, rng: random.Random) -> int:
    """A swing of ``players`` played purely to its end, as the scheduler plays it: the free
    players paired, one game in play ended at random with a random result, its players
    free again. Checks the rule at every game; returns how many games it took."""
    chips = dict.fromkeys(range(players), starting)
    games = dict.fromkeys(range(players), 0)
    total = players * starting
    free = [Free(p, T0 + timedelta(microseconds=p)) for p in range(players)]
    in_play: list[tuple[int, int, int]] = []
    for played in range(20_000):
        if sum(1 for held in chips.values() if held) == 1:
            assert sorted(chips.values())[-1] == total
            return played
        pairs, waiting = pair_free(free, rng)
        free = [player for player in free if player.id in waiting]
        in_play += [(a, b, plan.game_level(0, (games[a], games[b]))) for a, b in pairs]
        first, second, level = in_play.pop(rng.randrange(len(in_play)))
        # The CPP is set by each player's own game count: the larger of the two.
        assert level == round_of((games[first], games[second])) >= games[first]
        assert level >= games[second]
        start = (chips[first], chips[second])
        terms = game_terms(plan.cpp(level), start)
        cube = min(terms.max_cube, 1 << int(rng.expovariate(1.2)))  # mostly 1 or 2
        points = cube * rng.choice((1, 1, 2, 3)) if rng.random() < 0.8 else max(1, cube // 2)
        seat = rng.randrange(2)  # the seat that loses
        loser, winner = (first, second) if seat == 0 else (second, first)
        paid = payout(terms, points, loser=seat)
        assert paid == min(points * terms.cpp, start[seat], *([min(start)] * terms.all_in))
        assert 1 <= paid <= chips[loser]
        chips = settle(chips, winner, loser, paid)
        assert sum(chips.values()) == total
        assert min(chips.values()) >= 0
        games[first] += 1
        games[second] += 1
        moment = T0 + timedelta(seconds=played + 1)
        free += [
            Free(p, moment, last_opponent=o)
            for p, o in ((first, second), (second, first))
            if chips[p]
        ]
    raise AssertionError("the swing did not end")


@settings(max_examples=120, deadline=None)
@given(st.integers(2, 12), st.integers(1, 5000), st.integers(0, 2**32))
def test_random_swings_are_played_to_the_last_chip_with_every_chip_accounted_for(
    players: int, starting: int, seed: int
) -> None:
    plan = CppSchedule((max(1, starting // 100),), step=max(1, starting // 200))
    assert play_out(players, starting, plan, random.Random(seed)) >= players - 1
