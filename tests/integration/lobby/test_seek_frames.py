"""What the play lobby's page decides a new seek's row from: the frame every viewer gets
(the row once, the take rules) and what the page was served about its own viewer; and a
seek gone before its "posted" frame is built is never announced as posted."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction
from django.test import Client

from accounts.models import BlockKind, User
from accounts.standing import block_set
from lobby import seeks
from lobby.events import posted_frame
from lobby.seeks import SeekTerms
from lobby.selectors import SEEKS_SHOWN
from tests.integration.lobby.helpers import next_frame, player, socket_to

pytestmark = pytest.mark.django_db(transaction=True)


def _served(client: Client) -> tuple[str, dict[str, object]]:
    html = client.get("/play/seeks/").content.decode()
    found = re.search(r'<script id="seek-viewer" type="application/json">(.*?)</script>', html)
    assert found, html
    return html, json.loads(found.group(1))


def _as(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_posted_frame_carries_the_row_once_with_every_ending_and_the_take_rules() -> None:
    alice = player("alice", "Alice Adams", rating=1810.0)
    seek = seeks.seek_post(
        user=alice, terms=SeekTerms(length=7, stake_cents=250, min_rating=1700, max_rating=1900)
    )

    frame = posted_frame(seek.pk)

    assert frame is not None
    row = frame["row"]
    assert "Alice Adams" in row
    assert "7-point match for 2.50 FUN · rated" in row
    assert "for players rated 1700–1900" in row
    for ending in ("own", "take", "refused"):
        assert f'<template data-case="{ending}">' in row
    assert f'action="/play/seeks/{seek.pk}/take/"' in row
    assert f'action="/play/seeks/{seek.pk}/cancel/"' in row
    assert "csrfmiddlewaretoken" not in row  # each page puts its own token in
    assert frame["creator"] == alice.pk
    assert frame["rules"] == [
        {"rule": "not_own", "creator": alice.pk, "refusal": "This is your own seek"},
        {
            "rule": "rating",
            "low": 1700,
            "high": 1900,
            "refusal": "This seek is for players rated 1700–1900; your rating is {rating}",
        },
        {
            "rule": "balance",
            "currency": "FUN",
            "cents": 250,
            "refusal": "This seek needs 2.50 FUN; you have {balance} FUN",
        },
    ]


def test_the_page_is_served_its_viewer_and_whether_it_has_every_open_seek() -> None:
    bruno = player("bruno", rating=1523.4)
    blocked, blocking = player("carl"), player("dana")
    block_set(owner=bruno, other=blocked, kind=BlockKind.BLOCK)
    block_set(owner=blocking, other=bruno, kind=BlockKind.BLOCK)
    block_set(owner=bruno, other=player("erin"), kind=BlockKind.MUTE)

    html, viewer = _served(_as(bruno))
    _, anonymous = _served(Client())

    assert viewer["id"] == bruno.pk
    assert viewer["rating"] == 1523.4
    assert viewer["rating_words"] == "1523"
    assert viewer["balance_words"] == {"FUN": "1,000.00", "REAL": "0.00"}  # the sign-up grant
    assert viewer["blocked"] == sorted([blocked.pk, blocking.pk])
    assert 'data-complete="yes"' in html
    assert "data-csrf=" in html
    assert anonymous == {"id": None, "refusal": "Log in to take a seek"}


def test_a_list_of_more_seeks_than_it_shows_says_it_is_not_complete() -> None:
    for n in range(SEEKS_SHOWN + 1):
        seeks.seek_post(user=player(f"p{n}"), terms=SeekTerms())

    html, _ = _served(Client())

    assert html.count('class="list-row seek-row') == SEEKS_SHOWN
    assert 'data-complete="no"' in html


@pytest.mark.asyncio
async def test_a_seek_gone_before_its_frame_is_built_is_never_announced_as_posted() -> None:
    alice = await sync_to_async(player)("alice")
    lobby = await socket_to("/ws/lobby/", None)
    assert (await lobby.connect())[0]

    def posted_and_cancelled_at_once() -> tuple[int, int]:
        with transaction.atomic():
            gone = seeks.seek_post(user=alice, terms=SeekTerms())
            seeks.seek_cancel(seek_id=gone.pk, user=alice)
        return gone.pk, seeks.seek_post(user=alice, terms=SeekTerms()).pk

    gone, later = await sync_to_async(posted_and_cancelled_at_once)()

    heard = [await next_frame(lobby, "seek") for _ in range(2)]
    assert [(frame["event"], frame["seek"]) for frame in heard] == [
        ("cancelled", gone),
        ("posted", later),
    ]
    await lobby.disconnect()
