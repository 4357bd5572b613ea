"""Who may list, read and decide a dispute about a tournament match."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from disputes.models import Dispute
from tests.factories import UserFactory
from tests.integration.disputes.helpers import file, staff
from tests.integration.matches.helpers import NOT_LOGGED_IN, api_for, refusal
from tests.integration.tournaments.helpers import (
    concede,
    live_matches,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cast() -> dict[str, Any]:
    owner = organizer()
    field = players(2)
    tournament = open_tournament(owner, buy_in_cents=0, fee_cents=0)
    register_all(tournament, field)
    tournament_services.tournament_start(tournament_id=tournament.pk, user=owner)
    (match,) = live_matches(tournament)
    concede(match, match.player_1)
    filer, opponent = match.player_1, match.player_0
    dispute = Dispute.objects.get(pk=file(filer, match).json()["id"])
    return {
        "dispute": dispute,
        "player": filer,
        "opponent": opponent,
        "other player": UserFactory(username="outsider"),
        "other organizer": organizer("olga"),
        "organizer": owner,
        "staff": staff(),
        "anonymous": None,
    }


def _client(user: User | None) -> APIClient:
    return api_for(user) if user is not None else APIClient()


EXPECTED = {
    # who: (listed, detail status, evidence shown, decide status)
    "player": (True, 200, False, 403),
    "opponent": (True, 200, False, 403),
    "other player": (False, 404, False, 404),
    "other organizer": (False, 404, False, 404),
    "organizer": (True, 200, True, 403),
    "staff": (True, 200, True, 200),
    "anonymous": (False, 401, False, 401),
}


@pytest.mark.parametrize("who", list(EXPECTED))
def test_the_permission_matrix(cast: dict[str, Any], who: str) -> None:
    listed, detail_status, evidence_shown, decide_status = EXPECTED[who]
    dispute = cast["dispute"]
    client = _client(cast[who])

    listing = client.get("/api/disputes/")
    detail = client.get(f"/api/disputes/{dispute.pk}/")
    decided = client.post(
        f"/api/disputes/{dispute.pk}/decide/",
        {"decision": "dismiss", "reason": "Nothing wrong."},
        format="json",
    )

    if who == "anonymous":
        assert refusal(listing) == refusal(detail) == refusal(decided) == NOT_LOGGED_IN
    else:
        assert listing.status_code == 200
        assert ([row["id"] for row in listing.json()] == [dispute.pk]) is listed
        assert detail.status_code == detail_status
        assert decided.status_code == decide_status
    if detail.status_code == 200:
        assert (detail.json()["evidence"] is not None) is evidence_shown
    dispute.refresh_from_db()
    assert (dispute.state == "decided") is (who == "staff")


def test_the_evidence_holds_the_record_of_the_match(cast: dict[str, Any]) -> None:
    dispute = cast["dispute"]

    evidence = api_for(cast["staff"]).get(f"/api/disputes/{dispute.pk}/").json()["evidence"]

    kinds = [action["kind"] for action in evidence["actions"]]
    assert kinds[0] == "start"
    assert "resign" in kinds
    assert kinds[-1] == "match_over"
    assert all("clocks_ms" in action for action in evidence["actions"])
    assert evidence["dice"]["ok"] is True
    assert evidence["dice"]["summary"].startswith("All rolls verified")
    assert evidence["tournament"]["organizer"] == "orla"
    assert evidence["tournament"]["round"] == 1
    assert evidence["match"]["winner"] == cast["opponent"].username
    assert evidence["chat"] == []
    assert isinstance(evidence["ledger"], list)


def test_staff_filter_the_queue_by_state_category_and_tournament(cast: dict[str, Any]) -> None:
    dispute = cast["dispute"]
    client = api_for(cast["staff"])

    def ids(query: str) -> list[int]:
        return [row["id"] for row in client.get(f"/api/disputes/?{query}").json()]

    assert ids("state=open") == [dispute.pk]
    assert ids("state=decided") == []
    assert ids("category=result") == [dispute.pk]
    assert ids("category=dice") == []
    assert ids(f"tournament={dispute.tournament_id}") == [dispute.pk]
    assert ids(f"tournament={dispute.tournament_id + 1}") == []
    assert ids("age=day") == []
