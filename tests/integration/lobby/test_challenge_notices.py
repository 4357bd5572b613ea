"""A challenge, its answer and its withdrawal reach the other player live, and are kept."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from accounts.models import User
from lobby import subscribers
from matches.events import ChallengeIssued
from matches.models import Match
from tests.integration.lobby.helpers import me_socket, next_frame, notices, player, texts
from tests.integration.matches.helpers import api_for

pytestmark = pytest.mark.django_db(transaction=True)


def _challenge(challenger: User, opponent: User, **body: object) -> int:
    response = api_for(challenger).post(
        "/api/matches/", {"opponent": opponent.username, **body}, format="json"
    )
    assert response.status_code == 201, response.json()
    return int(response.json()["id"])


@pytest.mark.asyncio
async def test_the_opponent_hears_of_a_challenge_at_once_and_finds_it_in_the_bell() -> None:
    # given Bruno with a page open
    alice = await sync_to_async(player)("alice", "Alice Adams")
    bruno = await sync_to_async(player)("bruno", "Bruno Costa")
    socket = await me_socket(bruno)

    # when Alice challenges him to a staked 5-point match
    match_id = await sync_to_async(_challenge)(
        alice, bruno, length=5, stake_cents=1000, currency="FUN"
    )

    # then
    frame = await next_frame(socket, "notice")
    assert frame["unread"] == 1
    assert frame["notice"]["kind"] == "challenge"
    assert frame["notice"]["text"] == "Alice Adams challenges you to a 5-point match for 10.00 FUN."
    assert frame["notice"]["url"] == f"/matches/{match_id}/"
    assert frame["notice"]["data"] == {"match_id": match_id}
    assert frame["notice"]["read"] is False
    stored = await sync_to_async(notices)(bruno)
    assert [notice.pk for notice in stored] == [frame["notice"]["id"]]
    assert await sync_to_async(notices)(alice) == []
    await socket.disconnect()


@pytest.mark.asyncio
async def test_the_challenger_hears_the_acceptance_with_the_time_to_come_to_the_board() -> None:
    alice = await sync_to_async(player)("alice", "Alice Adams")
    bruno = await sync_to_async(player)("bruno", "Bruno Costa")
    match_id = await sync_to_async(_challenge)(alice, bruno, length=11)
    socket = await me_socket(alice)

    accepted = await sync_to_async(api_for(bruno).post)(f"/api/matches/{match_id}/accept/")

    assert accepted.status_code == 200
    frame = await next_frame(socket, "notice")
    assert frame["notice"]["kind"] == "challenge_accepted"
    assert frame["notice"]["text"] == (
        "Bruno Costa accepted your challenge: your 11-point match is ready."
    )
    match = await sync_to_async(Match.objects.get)(pk=match_id)
    assert match.show_up_by is not None
    assert frame["notice"]["data"] == {
        "match_id": match_id,
        "show_up_by": match.show_up_by.isoformat(),
    }
    # Bruno answered his challenge: it no longer counts as unread
    assert [n.read_at is not None for n in await sync_to_async(notices)(bruno)] == [True]
    await socket.disconnect()


def test_a_declined_challenge_and_a_withdrawn_one_are_told_to_the_other_player() -> None:
    alice, bruno = player("alice", "Alice Adams"), player("bruno", "Bruno Costa")
    declined = _challenge(alice, bruno, length=8)
    withdrawn = _challenge(alice, bruno, money=True, stake_cents=250)

    assert api_for(bruno).post(f"/api/matches/{declined}/decline/").status_code == 200
    assert api_for(alice).post(f"/api/matches/{withdrawn}/decline/").status_code == 200

    assert texts(alice) == ["Bruno Costa declined your challenge to an 8-point match."]
    assert texts(bruno) == [
        "Alice Adams withdrew the challenge to a money session at 2.50 FUN a point.",
        "Alice Adams challenges you to a money session at 2.50 FUN a point.",
        "Alice Adams challenges you to an 8-point match.",
    ]
    assert all(notice.read_at is not None for notice in notices(bruno)[1:])
    assert notices(alice)[0].url == "/play/"


def test_an_event_delivered_twice_tells_the_player_once() -> None:
    alice, bruno = player("alice"), player("bruno")
    match_id = _challenge(alice, bruno, length=3)

    subscribers.on_challenge_issued(ChallengeIssued(match_id, alice.pk, bruno.pk))

    assert len(notices(bruno)) == 1


def test_a_notice_that_cannot_be_told_never_fails_the_challenge(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(**notice: object) -> None:
        raise RuntimeError("the notice store is down")

    monkeypatch.setattr(subscribers, "notify", broken)
    alice, bruno = player("alice"), player("bruno")

    match_id = _challenge(alice, bruno, length=3)

    assert Match.objects.filter(pk=match_id, status="invited").exists()
    assert "The players could not be told of ChallengeIssued" in caplog.text
