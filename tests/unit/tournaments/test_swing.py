"""Swing's pure rules: CPP schedules, settling and continuous pairing. The caps, all-in
and the cube limit, and random tournaments played out, are ``test_swing_stakes``'s."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.base import FormatError
from tournaments.formats.swing import (
    MAX_CPP,
    CppRaise,
    CppSchedule,
    Free,
    pair_free,
    settle,
)

T0 = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)


# ---------------------------------------------------------------- CPP schedules


def test_listed_levels_then_the_last_one_stays_without_a_step() -> None:
    plan = CppSchedule((10, 15, 20))
    assert [plan.cpp(level) for level in range(5)] == [10, 15, 20, 20, 20]
    assert plan.rises_after(1)
    assert not plan.rises_after(2)


def test_a_start_and_a_step_rise_for_ever() -> None:
    plan = CppSchedule((100,), step=50)
    assert [plan.cpp(level) for level in range(4)] == [100, 150, 200, 250]
    assert plan.rises_after(1000)


def test_listed_levels_then_a_step() -> None:
    assert [CppSchedule((10, 20), step=5).cpp(n) for n in range(4)] == [10, 20, 25, 30]


def test_the_cpp_never_passes_its_ceiling() -> None:
    plan = CppSchedule((MAX_CPP - 1,), step=MAX_CPP)
    assert plan.cpp(5) == MAX_CPP
    assert not plan.rises_after(5)


@pytest.mark.parametrize(
    ("raise_on", "games", "knockouts", "elapsed", "level"),
    [
        (CppRaise.GAME, 7, 1, timedelta(hours=1), 7),
        (CppRaise.KNOCKOUT, 7, 1, timedelta(hours=1), 1),
        (CppRaise.MINUTES, 7, 1, timedelta(minutes=29, seconds=59), 2),
        (CppRaise.MINUTES, 0, 0, timedelta(minutes=30), 3),
    ],
)
def test_the_level_follows_games_knockouts_or_the_clock(
    raise_on: CppRaise, games: int, knockouts: int, elapsed: timedelta, level: int
) -> None:
    plan = CppSchedule((10,), step=10, raise_on=raise_on, minutes=10)
    assert plan.level(games=games, knockouts=knockouts, elapsed=elapsed) == level


def test_the_next_level_on_the_clock_comes_every_n_minutes() -> None:
    plan = CppSchedule((10, 20, 30), raise_on=CppRaise.MINUTES, minutes=15)
    assert plan.next_rise(0, T0) == T0 + timedelta(minutes=15)
    assert plan.next_rise(1, T0) == T0 + timedelta(minutes=30)
    assert plan.next_rise(2, T0) is None  # the last level
    assert CppSchedule((10,), step=5).next_rise(0, T0) is None  # not on a clock


@pytest.mark.parametrize(
    ("levels", "step", "raise_on", "minutes", "message"),
    [
        ((), 0, CppRaise.GAME, None, "1 to 100 CPP levels"),
        ((10, 5), 0, CppRaise.GAME, None, "rise"),
        ((0, 5), 0, CppRaise.GAME, None, "1 to"),
        ((10,), -1, CppRaise.GAME, None, "step"),
        ((10,), 0, CppRaise.MINUTES, None, "minutes"),
    ],
)
def test_a_schedule_that_cannot_be_played_is_refused(
    levels: tuple[int, ...], step: int, raise_on: CppRaise, minutes: int | None, message: str
) -> None:
    with pytest.raises(FormatError, match=message):
        CppSchedule(levels, step, raise_on, minutes)


# ---------------------------------------------------------------- settling


def test_settling_moves_chips_and_never_creates_them() -> None:
    assert settle({1: 500, 2: 300}, 1, 2, 300) == {1: 800, 2: 0}
    with pytest.raises(FormatError):
        settle({1: 500, 2: 300}, 1, 2, 301)


# ---------------------------------------------------------------- pairing


def free(*players: tuple[int, int, int | None]) -> list[Free]:
    """(id, seconds waited before T0, last opponent)."""
    return [Free(pid, T0 - timedelta(seconds=waited), last) for pid, waited, last in players]


def test_the_longest_waiting_player_is_paired_and_the_latest_waits() -> None:
    for seed in range(50):
        pairs, waiting = pair_free(
            free((1, 5, None), (2, 60, None), (3, 1, None)), random.Random(seed)
        )
        assert waiting == [3]
        assert pairs == [(2, 1)]


def test_no_immediate_rematch_when_someone_else_is_free() -> None:
    field = free((1, 0, 2), (2, 0, 1), (3, 30, 4), (4, 30, 3))
    for seed in range(100):
        pairs, waiting = pair_free(field, random.Random(seed))
        assert not waiting
        assert {frozenset(pair) for pair in pairs}.isdisjoint(
            {frozenset((1, 2)), frozenset((3, 4))}
        )


def test_the_odd_player_out_is_not_the_one_whose_absence_forces_a_rematch() -> None:
    # 1 and 2 just played; 3 became free last. Leaving 3 out would pair 1 with 2 again.
    pairs, waiting = pair_free(free((1, 10, 2), (2, 10, 1), (3, 0, None)), random.Random(1))
    assert len(pairs) == 1
    assert len(waiting) == 1
    assert set(pairs[0]) != {1, 2}


def test_the_longest_waiting_player_plays_even_if_everyone_free_is_a_rematch_for_him() -> None:
    # 2 and 3 both last played 1, who has waited as long as they have and comes first.
    pairs, waiting = pair_free(free((1, 0, None), (2, 0, 1), (3, 0, 1)), random.Random(0))
    assert 1 in pairs[0]
    assert waiting in ([2], [3])


def test_two_players_left_play_on_against_each_other() -> None:
    pairs, waiting = pair_free(free((1, 0, 2), (2, 0, 1)), random.Random(0))
    assert [set(pair) for pair in pairs] == [{1, 2}]
    assert not waiting


def test_opponents_are_drawn_at_random() -> None:
    field = free(*((n, 10 - n, None) for n in range(1, 9)))
    firsts = {dict(pair_free(field, random.Random(seed))[0])[1] for seed in range(60)}
    assert len(firsts) > 3


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 1000), st.integers(0, 30)), min_size=0, max_size=30),
    st.integers(0, 2**32),
)
def test_pairing_pairs_everyone_once_and_leaves_at_most_one(
    players: list[tuple[int, int]], seed: int
) -> None:
    ids = list(range(1, len(players) + 1))
    last = {
        pid: (opponent if opponent in ids and opponent != pid else None)
        for pid, (_, opponent) in zip(ids, players, strict=False)
    }
    field = [
        Free(pid, T0 - timedelta(seconds=waited), last[pid])
        for pid, (waited, _) in zip(ids, players, strict=False)
    ]
    pairs, waiting = pair_free(field, random.Random(seed))
    seen = [pid for pair in pairs for pid in pair] + waiting
    assert sorted(seen) == ids
    assert len(waiting) == len(ids) % 2
    if len(ids) >= 2:
        longest = min(field, key=lambda f: (f.since, f.id)).id
        assert longest not in waiting
