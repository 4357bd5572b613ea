"""A board that stays open keeps its connection row alive, however long it is open, and the
sweep that closes a dead server's rows leaves it alone."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from matches import presence
from matches.models import Match, MatchConnection
from matches.tasks import sweep_deadlines
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match
from tests.integration.matches.sockets import next_frame, open_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_an_open_board_is_marked_seen_and_survives_the_sweep(monkeypatch: Any) -> None:
    monkeypatch.setattr(presence, "HEARTBEAT", timedelta(seconds=0.2))
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=3)
    board = await open_socket(match_id, alice)
    await next_frame(board, "state")
    long_ago = timezone.now() - presence.CONNECTION_TTL - timedelta(minutes=5)
    rows = MatchConnection.objects.filter(match_id=match_id, seat=0)
    await sync_to_async(rows.update)(seen_at=long_ago)

    # when the heartbeat has beaten and the beat's sweep runs
    await asyncio.sleep(0.8)
    await sync_to_async(sweep_deadlines)()

    # then the board is still connected and no grace started
    seen = await sync_to_async(lambda: rows.get().seen_at)()
    match = await sync_to_async(Match.objects.get)(pk=match_id)
    assert seen > long_ago + timedelta(minutes=5)
    assert match.grace_ends_0 is None
    await board.disconnect()
