"""A dispute's decision reaches the player who filed it and both players, live and kept."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from accounts.models import User
from disputes import services
from disputes.models import Dispute
from tests.integration.disputes.helpers import file, finished_match, staff
from tests.integration.lobby.helpers import me_socket, next_frame, player, texts

pytestmark = pytest.mark.django_db(transaction=True)


def _filed_dispute() -> tuple[Dispute, User, User, User]:
    """Bruno disputes the 1-point match Alice won; Sam is on staff."""
    alice, bruno, sam = player("alice", "Alice Adams"), player("bruno", "Bruno Costa"), staff()
    match = finished_match(alice, bruno, stake_cents=500)
    filed = file(bruno, match)
    assert filed.status_code == 201, filed.json()
    return Dispute.objects.get(pk=filed.json()["id"]), alice, bruno, sam


@pytest.mark.asyncio
async def test_both_players_hear_the_decision_in_their_own_words() -> None:
    dispute, alice, bruno, sam = await sync_to_async(_filed_dispute)()
    socket = await me_socket(bruno)

    await sync_to_async(services.dispute_decide)(
        dispute_id=dispute.pk, staff=sam, decision="dismiss", reason="The log is clean."
    )

    frame = await next_frame(socket, "notice")
    assert frame["notice"]["kind"] == "dispute_decided"
    assert frame["notice"]["text"] == (
        "Your dispute about your match against Alice Adams is decided: Dismissed."
    )
    assert frame["notice"]["url"] == f"/disputes/{dispute.pk}/"
    assert frame["notice"]["data"] == {
        "dispute_id": dispute.pk,
        "match_id": dispute.match_id,
        "fairplay_case_id": None,
        "decision": "dismiss",
    }
    assert (await sync_to_async(texts)(alice))[0] == (
        "Bruno Costa's dispute about your match is decided: Dismissed."
    )
    assert await sync_to_async(texts)(sam) == []
    await socket.disconnect()
