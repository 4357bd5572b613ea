"""A clock says what it gives each player: per move, per point, per game, and what that comes
to over the match being offered."""

from __future__ import annotations

import pytest

from matches.clock import CLOCK_PRESETS, clock_words, match_time_words
from matches.models import DEFAULT_CLOCK, ClockKind, ClockSettings

DELAY = ClockSettings(kind=ClockKind.DELAY, move_seconds=12, delay_seconds=12, reserve_seconds=120)


def test_the_standard_clock_is_live_tournament_plays_two_minutes_a_point_with_a_12_s_delay() -> (
    None
):
    assert CLOCK_PRESETS["standard"][1] == DEFAULT_CLOCK
    assert (DEFAULT_CLOCK.kind, DEFAULT_CLOCK.delay_seconds, DEFAULT_CLOCK.reserve_seconds) == (
        ClockKind.DELAY,
        12,
        120,
    )
    assert CLOCK_PRESETS["standard"][0] == "Standard: 12 s a move, 2 min a point"


@pytest.mark.parametrize(
    ("settings", "lengths", "money", "words"),
    [
        (
            DELAY,
            [7],
            False,
            "A 7-point match: 14 minutes each. The first 12 seconds of every move are free.",
        ),
        (
            DELAY,
            [5, 5, 7],
            False,
            "A 5-point match: 10 minutes each; a 7-point match: 14 minutes each. "
            "The first 12 seconds of every move are free.",
        ),
        (
            ClockSettings(kind=ClockKind.DELAY, delay_seconds=8, reserve_seconds=30),
            [25],
            False,
            "A 25-point match: 12 minutes 30 seconds each. "
            "The first 8 seconds of every move are free.",
        ),
        (
            DELAY,
            [],
            True,
            "A money session: 2 minutes more each game. "
            "The first 12 seconds of every move are free.",
        ),
        (
            ClockSettings(kind=ClockKind.MOVE, move_seconds=20, reserve_seconds=90),
            [5],
            False,
            "20 seconds for every move, then 1 minute 30 seconds each in reserve for the "
            "whole match.",
        ),
        (
            ClockSettings(kind=ClockKind.CORRESPONDENCE, move_seconds=2 * 86_400),
            [5],
            False,
            "2 days for every move.",
        ),
        (ClockSettings(kind=ClockKind.NONE), [5], False, "No clock: take your time."),
    ],
)
def test_what_a_clock_gives_each_player_over_the_match(
    settings: ClockSettings, lengths: list[int], money: bool, words: str
) -> None:
    assert match_time_words(settings, lengths=lengths, money=money) == words


def test_a_money_sessions_delay_clock_says_its_reserve_is_per_game() -> None:
    assert clock_words(DELAY) == "12 s a move, 2 min a point"
    assert clock_words(DELAY, money=True) == "12 s a move, 2 min a game"
