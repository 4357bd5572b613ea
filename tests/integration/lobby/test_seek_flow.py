"""Seeks as players live them: "Play now" pairs by rating, a taken seek tells its creator,
starting a match ends a player's seek, two takers at once make one match, and the lobby's
socket hears every change."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from accounts import ledger
from lobby import seeks
from lobby.models import NoticeKind, Notification, Seek
from lobby.seeks import SeekTerms
from matches.models import Match
from tests.integration.accounts.test_ledger_concurrency import run_at_once
from tests.integration.disputes.helpers import staff
from tests.integration.lobby.helpers import next_frame, player, socket_to, texts
from tests.integration.matches.helpers import api_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_play_now_takes_the_closest_rating_among_the_seeks_it_may_take() -> None:
    # given seeks by players rated around Bruno's 1600
    bruno = player("bruno", rating=1600.0)
    far, near, real = (
        player("alice", rating=1900.0),
        player("chloe", rating=1550.0),
        player("dmitri", rating=1610.0),
    )
    picky = player("elif", rating=1590.0)
    ledger.deposit(
        user=real, currency="REAL", amount_cents=10_000, reason="test", staff=staff(), key="real"
    )
    seeks.seek_post(user=far, terms=SeekTerms())
    seeks.seek_post(user=near, terms=SeekTerms(length=3))
    seeks.seek_post(user=real, terms=SeekTerms(stake_cents=500, currency="REAL"))
    seeks.seek_post(user=picky, terms=SeekTerms(min_rating=1700))

    # when he presses "Play now"
    found = seeks.play_now(user=bruno)

    # then he plays Chloé, the closest he may play in play money
    assert isinstance(found, Match)
    assert (found.player_0, found.player_1, found.length) == (near, bruno, 3)


def test_play_now_with_nobody_to_play_posts_a_seek_and_keeps_it() -> None:
    alice = player("alice")

    first = seeks.play_now(user=alice)
    second = seeks.play_now(user=alice)

    assert isinstance(first, Seek)
    assert second == first
    assert (first.kind, first.length, first.stake_cents, first.rated) == ("match", 5, 0, True)


def test_the_creator_is_told_their_seek_was_taken_and_the_taker_is_not_challenged() -> None:
    alice, bruno = player("alice", "Alice Adams"), player("bruno", "Bruno Costa")
    seek = seeks.seek_post(user=alice, terms=SeekTerms(length=7))

    match = seeks.seek_accept(seek_id=seek.pk, user=bruno)

    [told] = Notification.objects.filter(user=alice)
    assert (told.kind, told.text, told.url) == (
        NoticeKind.SEEK_TAKEN,
        "Bruno Costa took your seek: your 7-point match is ready.",
        f"/matches/{match.pk}/",
    )
    assert told.data["show_up_by"] == match.show_up_by.isoformat()  # type: ignore[union-attr]
    assert texts(bruno) == []


def test_a_player_whose_match_starts_stops_seeking() -> None:
    alice, bruno, chloe = player("alice"), player("bruno"), player("chloe")
    alices = seeks.seek_post(user=alice, terms=SeekTerms())
    brunos = seeks.seek_post(user=bruno, terms=SeekTerms(length=3))
    chloes = seeks.seek_post(user=chloe, terms=SeekTerms(length=9))

    # Chloé takes Alice's seek; Bruno accepts a challenge from someone else
    seeks.seek_accept(seek_id=alices.pk, user=chloe)
    challenge = api_for(player("dmitri")).post(
        "/api/matches/", {"opponent": "bruno", "length": 1}, format="json"
    )
    api_for(bruno).post(f"/api/matches/{challenge.json()['id']}/accept/")

    assert Seek.objects.get(pk=alices.pk).taken_by == chloe
    assert Seek.objects.get(pk=chloes.pk).cancelled_at is not None
    assert Seek.objects.get(pk=brunos.pk).cancelled_at is not None
    assert not Seek.objects.filter(taken_by__isnull=True, cancelled_at__isnull=True).exists()


def test_two_players_taking_one_seek_at_once_make_one_match() -> None:
    alice = player("alice")
    takers = [player(f"taker{n}") for n in range(4)]
    seek = seeks.seek_post(user=alice, terms=SeekTerms(stake_cents=1000))

    results = run_at_once(
        [lambda taker=taker: seeks.seek_accept(seek_id=seek.pk, user=taker) for taker in takers]
    )

    matches = [result for result in results if isinstance(result, Match)]
    refusals = [str(result) for result in results if not isinstance(result, Match)]
    assert len(matches) == 1
    assert refusals == ["Someone took this seek already"] * 3
    assert Match.objects.count() == 1
    assert ledger.escrow_balance(escrow_ref=f"match:{matches[0].pk}", currency="FUN") == 2000
    assert ledger.currency_total("FUN") == 0


@pytest.mark.asyncio
async def test_the_lobby_hears_seeks_posted_taken_and_cancelled() -> None:
    alice, bruno = await sync_to_async(player)("alice"), await sync_to_async(player)("bruno")
    lobby = await socket_to("/ws/lobby/", None)
    connected, _ = await lobby.connect()
    assert connected

    first = await sync_to_async(seeks.seek_post)(user=alice, terms=SeekTerms())
    await sync_to_async(seeks.seek_cancel)(seek_id=first.pk, user=alice)
    second = await sync_to_async(seeks.seek_post)(user=alice, terms=SeekTerms())
    await sync_to_async(seeks.seek_accept)(seek_id=second.pk, user=bruno)

    heard = [await next_frame(lobby, "seek") for _ in range(4)]
    assert [(frame["event"], frame["seek"]) for frame in heard] == [
        ("posted", first.pk),
        ("cancelled", first.pk),
        ("posted", second.pk),
        ("taken", second.pk),
    ]
    assert heard[1] == {"type": "seek", "event": "cancelled", "seek": first.pk}
    assert heard[3] == {"type": "seek", "event": "taken", "seek": second.pk}
    assert heard[2]["creator"] == alice.pk
    assert f'data-seek="{second.pk}"' in heard[2]["row"]
    await lobby.send_json_to({"type": "post"})
    assert (await next_frame(lobby, "error"))["message"] == "This channel only sends updates."
    await lobby.disconnect()
