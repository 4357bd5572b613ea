"""The dispute pages: filing from the match page, the staff queue and page, the audit log."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from accounts.models import User
from disputes import services
from disputes.models import Dispute
from tests.factories import UserFactory
from tests.integration.disputes.helpers import finished_match, staff

pytestmark = pytest.mark.django_db


def _browser(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_player_opens_a_dispute_from_the_match_page() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match = finished_match(alice, bruno)
    client = _browser(bruno)

    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/disputes/new/{match.pk}/"' in page
    response = client.post(
        f"/disputes/new/{match.pk}/", {"category": "dice", "description": "Too many sixes."}
    )

    dispute = Dispute.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/disputes/{dispute.pk}/"
    detail = client.get(response["Location"]).content.decode()
    assert "Too many sixes." in detail
    assert 'data-testid="decide-panel"' not in detail
    assert 'id="replay-steps"' not in detail  # the evidence is for staff
    assert "Open a dispute" not in client.get(f"/matches/{match.pk}/").content.decode()


def test_someone_else_sees_no_dispute_link_and_cannot_file() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match = finished_match(alice, bruno)
    client = _browser(UserFactory(username="chloe"))

    assert "Open a dispute" not in client.get(f"/matches/{match.pk}/").content.decode()
    assert client.get(f"/disputes/new/{match.pk}/").status_code == 404


def test_staff_see_the_queue_the_evidence_and_a_replay_of_every_position() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    match = finished_match(alice, bruno)
    dispute = services.dispute_file(
        user=bruno, match_id=match.pk, category="result", description="Misclick."
    )
    client = _browser(sam)

    queue = client.get("/disputes/").content.decode()
    page = client.get(f"/disputes/{dispute.pk}/").content.decode()

    assert f'data-testid="queue-row-{dispute.pk}"' in queue
    assert 'data-testid="nav-disputes"' in queue
    assert 'data-testid="decide-panel"' in page
    assert "All rolls verified" in page
    found = re.search(r'<script id="replay-steps" type="application/json">(.*?)</script>', page)
    assert found is not None
    steps = json.loads(found.group(1))
    assert steps[0]["label"] == "Before the first roll"
    assert len(steps) > 1
    assert all(len(step["board"]["points"]) == 24 for step in steps)
    assert sum(c for c in steps[0]["board"]["points"] if c > 0) == 15


def test_the_audit_log_is_for_staff_and_shows_each_decision() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    match = finished_match(alice, bruno)
    dispute = services.dispute_file(
        user=bruno, match_id=match.pk, category="result", description="Misclick."
    )
    services.dispute_decide(
        dispute_id=dispute.pk, staff=sam, decision="dismiss", reason="Clean record."
    )

    assert _browser(bruno).get("/disputes/audit/").status_code == 403
    log = _browser(sam).get("/disputes/audit/").content.decode()
    assert "Clean record." in log
    assert "Dismissed" in log
    assert "match finished, winner alice" in log


def test_players_read_the_decision_on_their_disputes_page_and_the_match_page() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    match = finished_match(alice, bruno)
    dispute = services.dispute_file(
        user=bruno, match_id=match.pk, category="result", description="Misclick."
    )
    services.dispute_decide(
        dispute_id=dispute.pk, staff=sam, decision="overturn", reason="The log shows a misclick."
    )

    for player in (alice, bruno):
        mine = _browser(player).get("/disputes/mine/").content.decode()
        assert "The match is awarded to bruno." in mine
        on_match = _browser(player).get(f"/matches/{match.pk}/").content.decode()
        assert "Result overturned" in on_match


def test_staff_decide_from_the_page_with_a_money_adjustment() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    match = finished_match(alice, bruno)
    dispute = services.dispute_file(
        user=bruno, match_id=match.pk, category="clock", description="Clock."
    )

    response = _browser(sam).post(
        f"/disputes/{dispute.pk}/decide/",
        {
            "decision": "adjust",
            "reason": "Clock fault.",
            "adjust_user": ["bruno", ""],
            "adjust_currency": ["FUN", "FUN"],
            "adjust_amount": ["2.50", ""],
        },
    )

    assert response.status_code == 302
    dispute.refresh_from_db()
    assert dispute.decision == "adjust"
    assert dispute.outcome["summary"] == ["bruno: +2.50 FUN."]
