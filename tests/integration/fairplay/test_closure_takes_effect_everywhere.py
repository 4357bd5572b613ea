"""A closure decided on a fair-play case takes effect everywhere at once: the player's open
match socket closes with 4401, their seek leaves the lobby (its watchers are told), and
their invitation is withdrawn, so nobody can take either."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from accounts.models import User
from fairplay.cases import case_report
from fairplay.models import CaseKind
from lobby.models import Seek
from matches.models import Match, MatchStatus
from tests.factories import UserFactory
from tests.integration.accounts.test_sessions_end_on_sockets import (
    PASSWORD,
    closed_with,
    logged_in,
    socket_as,
)
from tests.integration.disputes.helpers import staff
from tests.integration.matches.helpers import api_for, start_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@sync_to_async
def _dana_busy() -> tuple[User, User, int, int, int]:
    """Dana at a match with Bruno, with a seek up and an invitation out to Erik."""
    dana = UserFactory(username="dana", password=PASSWORD)
    bruno = UserFactory(username="bruno", password=PASSWORD)
    erik = UserFactory(username="erik")
    match_id = start_match(dana, bruno, length=3)
    seek = api_for(dana).post("/api/seeks/", {"length": 5}, format="json")
    sent = api_for(dana).post("/api/matches/", {"opponent": "erik", "length": 3}, format="json")
    assert seek.status_code == sent.status_code == 201
    assert erik.pk
    return dana, bruno, match_id, seek.json()["id"], sent.json()["id"]


@sync_to_async
def _close(player: User) -> None:
    case = case_report(
        kind=CaseKind.ACCOUNTS, subject=player, key="accounts:test", summary="x", evidence={}
    )
    answer = api_for(staff()).post(
        f"/api/fairplay/cases/{case.pk}/decide/",
        {
            "decision": "sanction",
            "reason": "A banned player's account.",
            "sanctions": [{"kind": "close"}],
        },
        format="json",
    )
    assert answer.status_code == 200, answer.json()


async def test_closing_an_account_closes_its_sockets_and_withdraws_its_seek_and_invitation() -> (
    None
):
    # given Dana with her board open, a seek up and an invitation out, watched by the lobby
    dana, bruno, match_id, seek_id, invitation_id = await _dana_busy()
    board = await socket_as(await sync_to_async(logged_in)(dana), f"/ws/matches/{match_id}/")
    watcher = await socket_as(await sync_to_async(logged_in)(bruno), "/ws/lobby/")

    # when staff close her account
    await _close(dana)

    # then her board closes, the lobby hears her seek go, and nothing of hers can be taken
    assert await closed_with(board) == 4401
    while True:
        frame = await watcher.receive_json_from(timeout=10)
        if frame.get("type") == "seek" and frame.get("seek") == seek_id:
            break
    assert frame["event"] == "cancelled"
    await watcher.disconnect()
    seek = await Seek.objects.aget(pk=seek_id)
    invitation = await Match.objects.aget(pk=invitation_id)
    assert seek.cancelled_at is not None
    assert invitation.status == MatchStatus.CANCELLED
