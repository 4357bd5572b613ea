"""A decided case's page says what its players were told: the words of each sanction's
notice, or, for a dismissed case, that nothing was sent; its badge reads "Dismissed"."""

from __future__ import annotations

import pytest
from django.test import Client

from fairplay.cases import case_report
from fairplay.models import Case, CaseKind
from lobby.models import Notification
from tests.factories import UserFactory
from tests.integration.disputes.helpers import staff

pytestmark = pytest.mark.django_db(transaction=True)


def _case() -> Case:
    bruno, carl = UserFactory(username="bruno"), UserFactory(username="carl")
    return case_report(
        kind=CaseKind.ACCOUNTS,
        subject=carl,
        others=[bruno],
        key=f"accounts:{bruno.pk}:{carl.pk}",
        summary="carl and bruno used one device",
        evidence={},
    )


def _staff_client() -> Client:
    client = Client()
    client.force_login(staff())
    return client


def test_a_dismissed_case_says_nothing_was_sent_and_its_badge_reads_dismissed() -> None:
    # given an open case
    case = _case()
    client = _staff_client()

    # when staff dismiss it from its page
    page = client.post(
        f"/staff/fairplay/{case.pk}/decide/",
        {"decision": "dismiss", "reason": "Brothers sharing a laptop."},
        follow=True,
    ).content.decode()

    # then the page says nobody was told, and the badge is a state, not a command
    assert "Dismissed. Nothing was sent to the players." in page
    assert "Nothing was sent to the players: a dismissed case is not told to anyone." in page
    assert "The players have been told" not in page
    assert 'data-testid="case-state">Dismissed</span>' in page
    assert ">Dismiss</span>" not in client.get("/staff/fairplay/").content.decode()
    assert not Notification.objects.exists()


def test_a_sanction_says_who_was_told_and_in_what_words() -> None:
    case = _case()
    client = _staff_client()

    page = client.post(
        f"/staff/fairplay/{case.pk}/decide/",
        {
            "decision": "sanction",
            "sanction": ["warn"],
            "user_warn": "carl",
            "reason": "One account each, please.",
        },
        follow=True,
    ).content.decode()

    assert "Sanctioned. Told of the decision: carl." in page
    assert "carl was told: “A warning from staff: One account each, please.”" in page
    assert 'data-testid="case-state">Sanctioned</span>' in page
    [notice] = Notification.objects.all()
    assert notice.text == "A warning from staff: One account each, please."
