"""Every frame /ws/me/ and /ws/lobby/ send is one the served AsyncAPI document describes (a
notice of every kind, made by what really tells it, with its data in that kind's shape),
and the frames a page sends to /ws/me/ are the ones it says the socket takes."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import override_settings
from django.utils import timezone

from accounts.models import User
from config.asyncapi import document
from disputes import services as disputes
from fairplay import sanctions
from fairplay.cases import case_report
from fairplay.models import CaseKind
from lobby.mail import tell_tournaments_soon
from lobby.models import NoticeKind, Notification
from lobby.seeks import SeekTerms, seek_accept, seek_cancel, seek_post
from matches.creation import match_accept, match_challenge, match_decline
from matches.models import Match
from matches.practice import practice_create
from reviews.services import analysis_run, analysis_upload
from tests.integration.disputes.helpers import file, finished_match, staff
from tests.integration.lobby.helpers import me_socket, player, socket_to
from tests.integration.matches.helpers import Bot, api_for, quick_play
from tests.integration.served_asyncapi import drain, served_messages, undocumented
from tests.integration.tournaments.helpers import concede, open_tournament, organizer
from tournaments import services as tournaments
from tournaments.models import Tournament

ONE_POINT = Path(__file__).resolve().parents[2] / "data" / "mat" / "one_point.mat"

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

Frame = dict[str, Any]


def _challenges(alice: User, bruno: User, carl: User, dana: User) -> Match:
    """Bruno challenges Alice and withdraws; Alice challenges Carl, who accepts, and Dana,
    who declines. Returns Alice's match against Carl."""
    withdrawn = match_challenge(challenger=bruno, opponent=alice, length=3)
    match_decline(match_id=withdrawn.pk, user=bruno)
    accepted = match_challenge(challenger=alice, opponent=carl, length=3)
    match_accept(match_id=accepted.pk, user=carl)
    declined = match_challenge(challenger=alice, opponent=dana, length=3)
    match_decline(match_id=declined.pk, user=dana)
    return accepted


def _until_awaited(match: Match, user: User) -> None:
    """Play the match on until it waits for ``user`` (whose board is not open)."""
    players = [match.player_0, match.player_1]
    bot = Bot({player.username: player for player in players})
    for _ in range(6):
        if Notification.objects.filter(user=user, kind=NoticeKind.TURN).exists():
            return
        bot.step(match.pk)
    raise AssertionError(f"{match} never waited for {user}")


def _seek_taken(alice: User, erin: User) -> None:
    seek = seek_post(user=alice, terms=SeekTerms(length=3))
    seek_accept(seek_id=seek.pk, user=erin)


def _sit_and_go(alice: User, frank: User) -> None:
    """A two-seat Sit & Go: it starts when both are in; Alice concedes the final."""
    tournament = open_tournament(organizer(), format="sit_and_go", seats=2)
    for entrant in (frank, alice):
        tournaments.entry_register(tournament_id=tournament.pk, user=entrant)
    concede(Match.objects.get(tournament_id=tournament.pk), alice)


def _starting_soon(alice: User) -> None:
    """Alice entered a knockout that starts in eight minutes: the sweep tells her."""
    tournament = open_tournament(organizer("otto"), starts_at=timezone.now() + timedelta(minutes=8))
    tournaments.entry_register(tournament_id=tournament.pk, user=alice)
    assert tell_tournaments_soon() == 1


def _swing_wait(alice: User, frank: User, carl: User) -> None:
    """A swing of three in which Alice is the player left over: she is told to wait. The
    draw's seed is chosen so that she comes last in its random order."""
    owner = organizer("olga")
    tournament = open_tournament(
        owner, format="swing", starting_chips=100, cpp_levels=(10,), buy_in_cents=0, fee_cents=0
    )
    for entrant in (frank, carl, alice):
        tournaments.entry_register(tournament_id=tournament.pk, user=entrant)

    def alice_last(seed: int) -> bool:
        order = [frank, carl, alice]
        random.Random(seed).shuffle(order)
        return order[-1] is alice

    seed = next(seed for seed in range(1000) if alice_last(seed))
    Tournament.objects.filter(pk=tournament.pk).update(draw_seed=seed)
    tournaments.tournament_start(tournament_id=tournament.pk, user=owner)


def _cancelled(alice: User, frank: User) -> None:
    """A knockout Alice plays in is cancelled while her match is being played."""
    owner = organizer("ruth")
    tournament = open_tournament(owner, name="Autumn Knockout")
    for entrant in (frank, alice):
        tournaments.entry_register(tournament_id=tournament.pk, user=entrant)
    tournaments.tournament_start(tournament_id=tournament.pk, user=owner)
    tournaments.tournament_cancel(tournament_id=tournament.pk, user=owner)


def _dispute_decided(alice: User, bruno: User) -> None:
    match = finished_match(alice, bruno)
    filed = file(bruno, match)
    assert filed.status_code == 201, filed.json()
    disputes.dispute_decide(
        dispute_id=filed.json()["id"], staff=staff(), decision="dismiss", reason="All in order."
    )


def _warned(alice: User) -> None:
    """Staff warn Alice in a conduct case."""
    case = case_report(
        kind=CaseKind.CONDUCT, subject=alice, key="conduct:test", summary="Rude", evidence={}
    )
    sanctions.case_decide(
        case_id=case.pk,
        staff=staff("tess"),
        decision="sanction",
        reason="Keep the chat civil.",
        orders=[sanctions.Order(kind="warn")],
    )


def _practice_voided(alice: User) -> None:
    """Alice practises against the computer, and GNU Backgammon is gone when it is to move
    (its turns run as her actions commit)."""
    match = practice_create(user=alice, length=1, strength="beginner")
    client = api_for(alice)
    with override_settings(CRAWFORD_ENGINE="none"):
        for _ in range(4):
            state = client.get(f"/api/matches/{match.pk}/").json()
            if state["status"] != "playing":
                return
            game = state["game"]
            body = {"type": "roll"} if game["phase"] == "roll" else {"type": "take"}
            if game["phase"] == "move":
                body = {"type": "play", "play": quick_play(game["legal_plays"])}
            client.post(f"/api/matches/{match.pk}/actions/", body, format="json")
    raise AssertionError("the practice match was not voided")


def _analysed(alice: User) -> None:
    """Alice uploads a match of hers played elsewhere, and it is analysed."""
    with override_settings(ANALYSIS_PLIES=0):
        analysis = analysis_upload(owner=alice, filename="club.mat", content=ONE_POINT.read_bytes())
        analysis_run(analysis.pk)  # unless the queue, run in this process here, did it already
        analysis.refresh_from_db()
        assert analysis.status == "done", analysis.error


async def test_every_frame_of_the_notice_socket_is_documented() -> None:
    # given Alice's tab, and the tab of Frank, who will win what she enters
    names = ("alice", "bruno", "carl", "dana", "erin")
    people = {name: await sync_to_async(player)(name) for name in names}
    frank = await sync_to_async(player)("frank")
    tabs = {"alice": await me_socket(people["alice"]), "frank": await me_socket(frank)}
    frames: list[Frame] = []

    async def heard() -> None:
        await asyncio.gather(*(drain(tab, frames) for tab in tabs.values()))

    # when everything that tells a player something happens to them
    alice = people["alice"]
    match = await sync_to_async(_challenges)(alice, people["bruno"], people["carl"], people["dana"])
    await sync_to_async(_until_awaited)(match, alice)
    await sync_to_async(_seek_taken)(alice, people["erin"])
    await sync_to_async(_sit_and_go)(alice, frank)
    await sync_to_async(_starting_soon)(alice)
    await sync_to_async(_swing_wait)(alice, frank, people["carl"])
    await sync_to_async(_cancelled)(alice, frank)
    await sync_to_async(_dispute_decided)(alice, people["bruno"])
    await sync_to_async(_analysed)(alice)
    await sync_to_async(_warned)(alice)
    await sync_to_async(_practice_voided)(alice)
    await heard()

    # and Alice's pages open and read, she dismisses a card, and a bad frame arrives
    unread = [frame["notice"]["id"] for frame in frames if frame["type"] == "notice"]
    sent: list[Frame] = [
        {"type": "page", "url": "/"},
        {"type": "page", "url": f"/matches/{match.pk}/"},
        {"type": "read", "ids": unread[:2]},
        {"type": "read", "ids": unread[:2]},
    ]
    for frame in [*sent, {"type": "hello"}]:
        await tabs["alice"].send_json_to(frame)
        await heard()

    # then a notice of every kind was sent, and every frame either way is described
    notices = [frame["notice"] for frame in frames if frame["type"] == "notice"]
    assert {notice["kind"] for notice in notices} == set(NoticeKind.values)
    ready = next(notice for notice in notices if notice["kind"] == NoticeKind.MATCH_READY)
    assert set(ready["data"]) == {"match_id", "show_up_by", "tournament_id"}
    assert {frame["type"] for frame in frames} == {"notice", "page", "unread", "error", "analysis"}
    assert any(frame["waiting"] for frame in frames if frame["type"] == "page")
    assert undocumented(frames, await sync_to_async(served_messages)("me", "receive")) == []
    assert undocumented(sent, await sync_to_async(served_messages)("me", "send")) == []
    for tab in tabs.values():
        await tab.disconnect()


async def test_a_notice_whose_data_is_not_its_kinds_shape_is_not_documented() -> None:
    sent = await sync_to_async(served_messages)("me", "receive")
    notice = {
        "id": 7,
        "kind": "match_ready",
        "text": "Your match is ready.",
        "url": "/matches/7/",
        "data": {"match_id": 7},
        "created_at": "2025-05-01T12:00:00+00:00",
        "read": False,
    }
    frame = {"type": "notice", "notice": notice, "unread": 1}

    assert undocumented([frame], sent) != []
    notice["data"] = {"match_id": 7, "show_up_by": None, "tournament_id": 3}
    assert undocumented([frame], sent) == []
    notice["kind"] = "birthday"
    assert undocumented([frame], sent) != []


async def test_every_frame_of_the_lobby_socket_is_documented() -> None:
    # given a visitor watching the play lobby
    socket = await socket_to("/ws/lobby/", None)
    assert (await socket.connect())[0]
    bruno = await sync_to_async(player)("bruno")
    carl = await sync_to_async(player)("carl")

    # when a seek is posted and cancelled, another posted and taken, and the visitor
    # sends something
    cancelled = await sync_to_async(seek_post)(user=bruno, terms=SeekTerms(length=3))
    await sync_to_async(seek_cancel)(seek_id=cancelled.pk, user=bruno)
    taken = await sync_to_async(seek_post)(user=bruno, terms=SeekTerms(length=3, min_rating=1000))
    await sync_to_async(seek_accept)(seek_id=taken.pk, user=carl)
    await socket.send_json_to({"type": "hello"})
    frames: list[Frame] = []
    await drain(socket, frames)

    # then every frame is described
    seek_events = [frame["event"] for frame in frames if frame["type"] == "seek"]
    assert seek_events == ["posted", "cancelled", "posted", "taken"]
    assert {frame["type"] for frame in frames} == {"seek", "error"}
    posted = [frame for frame in frames if frame.get("event") == "posted"]
    assert [rule["rule"] for rule in posted[1]["rules"]] == ["not_own", "rating", "balance"]
    assert undocumented(frames, await sync_to_async(served_messages)("lobby", "receive")) == []
    await socket.disconnect()


async def test_the_document_names_the_lobby_sockets() -> None:
    channels = document()["channels"]

    assert channels["me"]["address"] == "/ws/me/"
    assert channels["lobby"]["address"] == "/ws/lobby/"
