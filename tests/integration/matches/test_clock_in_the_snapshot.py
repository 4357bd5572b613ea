"""The snapshot says whose clock runs and what is left on each, by the server's own rule
(``matches.clock.running_seat``): a board only draws it, so a clock the sweeper would not
charge is never shown counting down."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from matches.models import Match
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, api_for, board_opened, start_match

pytestmark = pytest.mark.django_db

MOVE_TIMER = {"kind": "move", "move_seconds": 12, "reserve_seconds": 60}


def _clock(user: Any, match_id: int) -> dict[str, Any]:
    response = api_for(user).get(f"/api/matches/{match_id}/")
    assert response.status_code == 200
    return response.json()["clock"]  # type: ignore[no-any-return]


def test_before_both_players_show_up_no_clock_runs_though_the_turn_has_started() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3, clock=MOVE_TIMER)

    clock = _clock(alice, match_id)

    assert Match.objects.get(pk=match_id).show_up_by is not None
    assert clock["turn_started_at"] is not None
    assert clock["running"] == [False, False]
    assert clock["move_left_ms"] == [None, None]
    assert clock["reserve_left_ms"] == [60_000, 60_000]


def test_the_player_to_act_has_the_running_clock_once_the_match_is_under_way() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3, clock=MOVE_TIMER)
    board_opened(match_id, alice)
    board_opened(match_id, bruno)
    state = Bot({"alice": alice, "bruno": bruno}).step(match_id)
    to_act = state["game"]["turn_seat"]

    clock = _clock(alice, match_id)

    assert clock["running"][to_act]
    assert not clock["running"][1 - to_act]
    assert 0 < clock["move_left_ms"][to_act] <= 12_000
    assert clock["move_left_ms"][1 - to_act] is None
    assert clock["reserve_left_ms"] == [60_000, 60_000]


def test_time_past_the_free_seconds_comes_off_the_reserve_shown() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3, clock=MOVE_TIMER)
    board_opened(match_id, alice)
    board_opened(match_id, bruno)
    to_act = Bot({"alice": alice, "bruno": bruno}).step(match_id)["game"]["turn_seat"]
    match = Match.objects.get(pk=match_id)
    assert match.turn_started_at is not None
    Match.objects.filter(pk=match_id).update(
        turn_started_at=match.turn_started_at - timedelta(seconds=20)
    )

    clock = _clock(alice, match_id)

    used_ms = (
        datetime.fromisoformat(clock["server_now"])
        - datetime.fromisoformat(clock["turn_started_at"])
    ) // timedelta(milliseconds=1)
    assert clock["running"][to_act]
    assert clock["move_left_ms"][to_act] == 0
    assert clock["reserve_left_ms"][to_act] == 60_000 - (used_ms - 12_000)
    assert clock["reserve_left_ms"][1 - to_act] == 60_000


def test_while_a_resignation_waits_for_its_answer_no_clock_runs() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3, clock=MOVE_TIMER)
    board_opened(match_id, alice)
    board_opened(match_id, bruno)
    bot = Bot({"alice": alice, "bruno": bruno})
    resigner = bot.step(match_id)["game"]["turn"]
    resigned = bot.act(match_id, resigner, {"type": "resign", "resign": "single"})
    assert resigned["game"]["phase"] == "resignation"

    clock = _clock(alice, match_id)

    assert clock["running"] == [False, False]
    assert clock["move_left_ms"] == [None, None]
