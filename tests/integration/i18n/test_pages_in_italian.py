"""Each page served in Italian leaves none of the project's words in English.

A page is asked for twice from the same rows, with ``Accept-Language: en`` and ``it``; what
reads the same in both, once the players' own data and the words both languages share are
masked (``tests.untranslated``), is a string the project forgot to translate. The pages
listed here are those translated so far; every page joins the list as it is translated.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from accounts.ledger.approvals import adjustment_ask
from accounts.models import AdjustmentDirection, User
from accounts.performance import performance_record
from accounts.roles import Role
from accounts.services import rating_record_match
from accounts.standing import (
    SELF_EXCLUSION_DAYS,
    block_set,
    self_exclude,
    standing_now,
    standing_restrict,
)
from disputes import services
from disputes.models import Dispute
from disputes.selectors import evidence
from lobby.models import NoticeKind
from lobby.notifications import notify
from tests.factories import UserFactory
from tests.integration.disputes.helpers import finished_match
from tests.untranslated import untranslated

pytestmark = pytest.mark.django_db

VISITOR_PAGES = ["/", "/login/", "/signup/"]
PLAYER_PAGES = ["/"]


def _both(client: Client, url: str) -> tuple[str, str]:
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it")
    assert english.status_code == italian.status_code == 200, url
    assert 'lang="it"' in italian.content.decode()
    return english.content.decode(), italian.content.decode()


def _data(*users: User) -> list[str]:
    return [value for user in users for value in (user.username, user.profile.display_name)]


def _this_month() -> list[str]:
    """This month's short name where Italian writes it as English does ("Nov"): data, as
    the dates around it are."""
    with translation.override("it"):
        return [date_format(timezone.now(), "M")]


# The navigation's role label for staff, which Italian writes the same.
STAFF = ["staff"]


@pytest.mark.parametrize("url", VISITOR_PAGES)
def test_a_visitor_reads_every_page_in_italian(url: str) -> None:
    english, italian = _both(Client(), url)

    assert untranslated(english, italian) == []


@pytest.mark.parametrize("url", PLAYER_PAGES)
def test_a_player_reads_the_navigation_in_italian(url: str) -> None:
    alice = UserFactory.create(username="alice")
    client = Client()
    client.force_login(alice)

    english, italian = _both(client, url)

    assert untranslated(english, italian, _data(alice)) == []


# Ratings, players, notices, disputes and the player's tournaments ------------------------


def _rated_players() -> tuple[User, User]:
    """Two players with a rating history each way and an analysed match on record."""
    hana = UserFactory.create(username="hana", display_name="Hana Ito")
    rival = UserFactory.create(username="rival", display_name="Rival Player")
    rating_record_match(winner=hana, loser=rival, match_length=5, match_id=1)
    rating_record_match(winner=rival, loser=hana, match_length=3, match_id=2)
    for match_id in (1, 2):
        performance_record(
            user=hana,
            match_id=match_id,
            opponent_name="Rival Player",
            decisions=120,
            error=1.5,
            luck=0.25,
            played_at=timezone.now(),
        )
    return hana, rival


@pytest.mark.parametrize(
    "url",
    ["/ratings/", "/ratings/?q=ito", "/ratings/?q=nobody", "/ratings/pr/", "/players/hana/"],
)
def test_the_ratings_and_a_players_page_read_in_italian(url: str) -> None:
    hana, rival = _rated_players()
    client = Client()
    client.force_login(rival)  # the player page shows its mute and block buttons

    english, italian = _both(client, url)

    assert untranslated(english, italian, [*_data(hana, rival), *_this_month()]) == []


def test_a_muted_players_page_reads_in_italian() -> None:
    hana, rival = _rated_players()
    block_set(owner=rival, other=hana, kind="mute")
    client = Client()
    client.force_login(rival)

    english, italian = _both(client, "/players/hana/")

    assert "Hai silenziato Hana Ito il" in italian
    assert untranslated(english, italian, [*_data(hana, rival), *_this_month()]) == []


def test_notices_of_every_kind_read_in_italian() -> None:
    alice = UserFactory.create(username="alice")
    texts = []
    for number, kind in enumerate(NoticeKind.values):
        texts.append(f"Notice number {number}")
        notify(
            user_id=alice.pk,
            kind=kind,
            key=f"{kind}:{number}",
            text=texts[-1],
            url="/" if number % 2 else "",
            data={"show_up_by": timezone.now().isoformat()} if kind == "match_ready" else {},
        )
    client = Client()
    client.force_login(alice)

    english, italian = _both(client, "/notifications/")

    # A notice's text is kept as it was written: data here.
    assert untranslated(english, italian, [*_data(alice), *texts]) == []
    assert "Sfida ricevuta" in italian


def test_the_page_of_a_player_without_notices_reads_in_italian() -> None:
    alice = UserFactory.create(username="alice")
    client = Client()
    client.force_login(alice)

    english, italian = _both(client, "/notifications/")

    assert untranslated(english, italian, _data(alice)) == []


def _decided_dispute() -> tuple[Dispute, list[str]]:
    """A dispute about a finished match, decided by staff, with the words players wrote."""
    alice, bruno = UserFactory.create(username="alice"), UserFactory.create(username="bruno")
    sam = UserFactory.create(username="sam", display_name="Sam Staff", role=Role.STAFF)
    match = finished_match(alice, bruno)
    dispute = services.dispute_file(
        user=bruno, match_id=match.pk, category="result", description="Misclick on my move."
    )
    services.dispute_decide(
        dispute_id=dispute.pk,
        staff=sam,
        decision="dismiss",
        reason="The record shows the move as played.",
        plies=None,
        adjustments=[],
    )
    dispute.refresh_from_db()
    # What players and staff wrote, and the decision's effects as they were recorded.
    written = [dispute.description, dispute.decision_reason, *dispute.outcome["summary"]]
    # The audit log keeps each entry as it was written, never changed.
    written += [entry.what for entry in dispute.audit.all()]
    return dispute, [*_data(alice, bruno, sam), *written, *_this_month(), *STAFF]


def test_a_player_reads_their_disputes_and_the_decision_in_italian(
    tasks_run_in_process: None,
) -> None:
    dispute, data = _decided_dispute()
    client = Client()
    client.force_login(dispute.filed_by)

    for url in ("/disputes/mine/", f"/disputes/{dispute.pk}/"):
        english, italian = _both(client, url)

        assert untranslated(english, italian, data) == [], url
    assert "Respinta" in italian


def test_staff_read_the_queue_and_the_audit_log_in_italian(tasks_run_in_process: None) -> None:
    dispute, data = _decided_dispute()
    client = Client()
    client.force_login(dispute.decided_by)

    for url in ("/disputes/?state=all", "/disputes/?category=dice", "/disputes/audit/"):
        english, italian = _both(client, url)

        assert untranslated(english, italian, data) == [], url


def test_the_self_exclusion_and_standing_read_in_italian() -> None:
    alice = UserFactory.create(username="alice", display_name="Alice Rossi")
    standing_restrict(user=alice, muted_until=timezone.now() + timedelta(days=2), reason="Spam")
    self_exclude(user=alice, days=7)
    pages = {}

    for language in ("en", "it"):
        with translation.override(language):
            context = {"standing": standing_now(alice), "self_exclusion_days": SELF_EXCLUSION_DAYS}
            pages[language] = render_to_string("accounts/profile_standing.html", context)
    english, italian = pages["en"], pages["it"]

    assert "Sei silenziato fino al" in italian
    assert "5 anni" in italian
    assert untranslated(english, italian, [*_data(alice), "Spam", *_this_month()]) == []


def test_staff_read_the_adjustments_waiting_for_approval_in_italian(settings: Any) -> None:
    settings.CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS = 10_000
    owner = UserFactory.create(username="owner")
    asking, approving = (
        UserFactory.create(username=name, role=Role.STAFF) for name in ("asking", "approving")
    )
    adjustment_ask(
        user=owner,
        currency="REAL",
        amount_cents=123_456,
        direction=AdjustmentDirection.DEPOSIT,
        reason="Bank transfer ref 501",
        staff=asking,
        key=None,
    )
    client = Client()
    client.force_login(approving)

    english, italian = _both(client, "/staff/wallet-approvals/")

    assert "1.234,56 REAL" in italian
    assert "oltre 100,00 REAL" in italian
    written = [*_data(owner, asking, approving), "Bank transfer ref 501", *_this_month(), *STAFF]
    assert untranslated(english, italian, written) == []


def test_a_players_tournaments_read_in_italian() -> None:
    alice = UserFactory.create(username="alice")
    client = Client()
    client.force_login(alice)

    english, italian = _both(client, "/tournaments/mine/")

    assert untranslated(english, italian, _data(alice)) == []


def test_staff_read_a_dispute_with_its_evidence_in_italian(tasks_run_in_process: None) -> None:
    alice, bruno = UserFactory.create(username="alice"), UserFactory.create(username="bruno")
    sam = UserFactory.create(username="sam", display_name="Sam Staff", role=Role.STAFF)
    match = finished_match(alice, bruno)
    dispute = services.dispute_file(
        user=bruno, match_id=match.pk, category="dice", description="Too many sixes."
    )
    client = Client()
    client.force_login(sam)

    english, italian = _both(client, f"/disputes/{dispute.pk}/")

    data = [*_data(alice, bruno, sam), dispute.description, *_this_month(), *STAFF]
    data += [entry.what for entry in dispute.audit.all()]
    # The match's record in the matches app's words (its dice check and its actions'
    # kinds), which that app translates with the match pages.
    record = evidence(dispute)
    data += [record["dice"]["summary"], *(action["text"] for action in record["actions"])]
    assert untranslated(english, italian, data) == []
