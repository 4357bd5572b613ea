"""Talk to /ws/matches/<id>/ the way a browser does, in-process on the real channel layer;
and the money of a staked match, which nothing said over a socket may move."""

from __future__ import annotations

from typing import Any

import redis.asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts import ledger
from accounts.models import User
from config.asgi import application
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match

ORIGIN = (b"origin", b"http://127.0.0.1")
STAKE = 1_500


def _cookie(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


async def open_socket(
    match_id: int, user: Any | None, *, address: str = "127.0.0.1"
) -> WebsocketCommunicator:
    """A socket to the match page, connected, as ``user`` (None: anonymous) from ``address``."""
    socket = await try_socket(match_id, user, address=address)
    connected, _ = await socket.connect()
    assert connected
    return socket


async def try_socket(
    match_id: int, user: Any | None, *, address: str = "127.0.0.1"
) -> WebsocketCommunicator:
    """A socket not yet connected (``await socket.connect()`` says whether it was let in)."""
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(_cookie)(user)))
    socket = WebsocketCommunicator(application, f"/ws/matches/{match_id}/", headers=headers)
    socket.scope["client"] = (address, 50000)
    return socket


async def next_frame(socket: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    """The next frame of ``kind``, skipping others."""
    while True:
        frame = await socket.receive_json_from(timeout=10)
        if frame["type"] == kind:
            return frame


async def latest_state(socket: WebsocketCommunicator, at_least_seq: int) -> dict[str, Any]:
    while True:
        frame = await next_frame(socket, "state")
        if frame["state"]["last_seq"] >= at_least_seq:
            return frame["state"]


async def staked_match(*, length: int = 1) -> tuple[int, User, User]:
    """Alice and Bruno play a match for ``STAKE`` FUN each: its id, Alice, Bruno."""
    alice = await sync_to_async(UserFactory.create)(username="alice")
    bruno = await sync_to_async(UserFactory.create)(username="bruno")
    match_id = await sync_to_async(start_match)(
        alice, bruno, length=length, stake_cents=STAKE, currency="FUN"
    )
    return match_id, alice, bruno


@sync_to_async
def money(match_id: int, *players: User) -> dict[str, int]:
    """Where the play money is: the match's escrow, each player's balance, and the sum of
    every ledger entry."""
    return {
        "escrow": ledger.escrow_balance(escrow_ref=f"match:{match_id}", currency="FUN"),
        **{player.username: ledger.balance(user=player, currency="FUN") for player in players},
        "total": ledger.currency_total("FUN"),
    }


def at_stake(*players: User) -> dict[str, int]:
    """``money`` while a staked match is played: both stakes in escrow, nothing else moved."""
    grant = settings.CRAWFORD_FUN_GRANT_CENTS
    return {
        "escrow": 2 * STAKE,
        **{player.username: grant - STAKE for player in players},
        "total": 0,
    }


async def group_subscribers(group: str) -> int:
    """How many server connections Redis holds subscribed to ``group`` (the pub/sub layer's
    members of a group: each server process that has a socket in it)."""
    client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    try:
        prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
        name = f"{prefix}__group__{group}"
        return int(dict(await client.pubsub_numsub(name))[name.encode()])
    finally:
        await client.aclose()
