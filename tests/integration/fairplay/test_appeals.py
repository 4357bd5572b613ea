"""A sanctioned player appeals through a dispute: it waits in the disputes queue, staff
decide it there with a reason and an audit trail, and an upheld appeal lifts the
sanctions (keeping what another case still holds)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Standing
from accounts.standing import require_may_chat, require_may_play
from core.errors import Forbidden
from disputes.models import AuditEntry, Dispute, DisputeCategory, DisputeState
from fairplay.cases import case_report
from fairplay.detectors import dumping
from fairplay.models import Case, CaseEvent, CaseKind, CaseState, Sanction
from fairplay.tasks import settle_appeals
from lobby.models import NoticeKind, Notification
from tests.factories import UserFactory
from tests.integration.disputes.helpers import finished_match, staff
from tests.integration.matches.helpers import api_for

pytestmark = pytest.mark.django_db(transaction=True)


def _suspended(days: int = 3, *also: dict[str, str]):  # type: ignore[no-untyped-def]
    """Carl dumped five matches to Bruno and Sam suspended and muted him for ``days``
    (with the sanctions ``also`` given)."""
    bruno, carl = UserFactory(username="bruno"), UserFactory(username="carl")
    for _ in range(5):
        match = finished_match(bruno, carl, stake_cents=100, currency="FUN")
        dumping.scan_match(match.pk)
    case = Case.objects.get(kind=CaseKind.DUMPING)
    sam = staff()
    until = timezone.now() + timedelta(days=days)
    decided = api_for(sam).post(
        f"/api/fairplay/cases/{case.pk}/decide/",
        {
            "decision": "sanction",
            "reason": "Five resignations at the first roll.",
            "sanctions": [
                {"kind": "suspend", "until": until.isoformat()},
                {"kind": "mute", "until": until.isoformat()},
                *also,
            ],
        },
        format="json",
    )
    assert decided.status_code == 200, decided.json()
    return carl, sam, case


def _appeal(carl, case: Case, text: str = "My phone lost its signal each time.") -> int:  # type: ignore[no-untyped-def]
    answer = api_for(carl).post(
        f"/api/fairplay/cases/{case.pk}/appeal/", {"text": text}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    return answer.json()["appeal_dispute"]


def test_an_appeal_is_a_dispute_in_the_queue_and_upholding_it_lifts_the_sanctions() -> None:
    carl, _sam, case = _suspended()
    tess = staff("tess")
    dispute_id = _appeal(carl, case)

    # it waits among the disputes, for staff and for Carl, with the decision appealed
    queue = api_for(tess).get("/api/disputes/", {"category": "appeal", "state": "undecided"})
    assert [row["id"] for row in queue.json()] == [dispute_id]
    assert queue.json()[0]["match"] is None
    assert queue.json()[0]["fairplay_case"] == case.pk
    assert [row["id"] for row in api_for(carl).get("/api/disputes/").json()] == [dispute_id]
    detail = api_for(tess).get(f"/api/disputes/{dispute_id}/").json()
    appealed = detail["evidence"]["appealed"]
    assert appealed["reason"] == "Five resignations at the first roll."
    assert appealed["decided_by"] == "sam"
    assert sorted(s["kind"] for s in appealed["sanctions"]) == ["mute", "suspend"]
    assert api_for(carl).get(f"/api/disputes/{dispute_id}/").json()["evidence"] is None

    # the case itself can no longer be decided: the dispute is where the appeal is heard
    on_case = api_for(tess).post(
        f"/api/fairplay/cases/{case.pk}/decide/",
        {"decision": "dismiss", "reason": "Looking again."},
        format="json",
    )
    assert on_case.status_code == 409
    assert f"dispute #{dispute_id}" in on_case.json()["detail"]
    # and a decision that only fits a match is refused, with what fits instead
    overturn = api_for(tess).post(
        f"/api/disputes/{dispute_id}/decide/",
        {"decision": "overturn", "reason": "?"},
        format="json",
    )
    assert overturn.status_code == 400
    assert "dismiss" in overturn.json()["detail"]
    assert "uphold" in overturn.json()["detail"]
    with pytest.raises(Forbidden):
        require_may_play(carl)

    taken = api_for(tess).post(f"/api/disputes/{dispute_id}/assign/")
    assert taken.status_code == 200
    upheld = api_for(tess).post(
        f"/api/disputes/{dispute_id}/decide/",
        {"decision": "uphold", "reason": "The connection log shows his drops."},
        format="json",
    )
    assert upheld.status_code == 200, upheld.json()

    require_may_play(carl)
    require_may_chat(carl)
    standing = Standing.objects.get(user=carl)
    assert standing.suspended_until is None
    assert standing.muted_until is None
    case.refresh_from_db()
    assert case.state == CaseState.DECIDED
    assert [s.kind for s in Sanction.objects.filter(case=case)] == ["mute", "suspend", "lift"]
    settled = CaseEvent.objects.get(case=case, action="appeal_decided")
    assert settled.actor == Dispute.objects.get(pk=dispute_id).decided_by
    assert settled.detail["dispute"] == dispute_id
    assert list(
        AuditEntry.objects.filter(dispute_id=dispute_id)
        .order_by("pk")
        .values_list("action", flat=True)
    ) == ["filed", "assigned", "decided"]
    notice = Notification.objects.get(user=carl, kind=NoticeKind.DISPUTE_DECIDED)
    assert notice.text == f"Your appeal of fair-play case #{case.pk} is decided: Upheld."
    assert notice.data["fairplay_case_id"] == case.pk
    # the appeal was the one allowed
    again = api_for(carl).post(
        f"/api/fairplay/cases/{case.pk}/appeal/", {"text": "Once more."}, format="json"
    )
    assert again.status_code == 409


def test_a_dismissed_appeal_leaves_the_sanctions_in_force() -> None:
    carl, _sam, case = _suspended()
    dispute_id = _appeal(carl, case)
    dismissed = api_for(staff("tess")).post(
        f"/api/disputes/{dispute_id}/decide/",
        {"decision": "dismiss", "reason": "The resignations came at the first roll each time."},
        format="json",
    )
    assert dismissed.status_code == 200, dismissed.json()
    with pytest.raises(Forbidden, match="suspended until"):
        require_may_play(carl)
    case.refresh_from_db()
    assert case.state == CaseState.DECIDED
    assert CaseEvent.objects.get(case=case, action="appeal_decided").detail["lifted"] == []
    assert not Sanction.objects.filter(case=case, kind="lift").exists()


def test_an_upheld_appeal_keeps_what_another_case_still_holds() -> None:
    carl, sam, case = _suspended(days=3)
    # a conduct case of its own suspended Carl for longer, and stands
    other = case_report(
        kind=CaseKind.CONDUCT, subject=carl, key="conduct:test", summary="Abuse", evidence={}
    )
    later = timezone.now() + timedelta(days=10)
    answer = api_for(sam).post(
        f"/api/fairplay/cases/{other.pk}/decide/",
        {
            "decision": "sanction",
            "reason": "Abuse in the chat.",
            "sanctions": [{"kind": "suspend", "until": later.isoformat()}],
        },
        format="json",
    )
    assert answer.status_code == 200, answer.json()

    dispute_id = _appeal(carl, case)
    upheld = api_for(staff("tess")).post(
        f"/api/disputes/{dispute_id}/decide/",
        {"decision": "uphold", "reason": "The drops were his connection."},
        format="json",
    )
    assert upheld.status_code == 200
    standing = Standing.objects.get(user=carl)
    assert standing.muted_until is None  # only the appealed case muted him
    assert abs((standing.suspended_until - later).total_seconds()) < 60 * 60 * 24
    with pytest.raises(Forbidden, match="suspended until"):
        require_may_play(carl)


def test_an_appeal_decided_while_its_case_missed_the_news_is_settled_by_the_sweep() -> None:
    carl, _sam, case = _suspended()
    dispute_id = _appeal(carl, case)
    # the decision committed but the step after it never ran (a crash between the two)
    Dispute.objects.filter(pk=dispute_id).update(
        state=DisputeState.DECIDED,
        decision="uphold",
        decision_reason="Upheld.",
        decided_by=staff("tess"),
        decided_at=timezone.now(),
    )
    assert Case.objects.get(pk=case.pk).state == CaseState.APPEALED

    assert settle_appeals() == 1
    require_may_play(carl)
    assert Case.objects.get(pk=case.pk).state == CaseState.DECIDED
    assert settle_appeals() == 0  # once


def test_a_match_dispute_cannot_be_filed_as_an_appeal_and_bad_appeals_are_refused() -> None:
    carl, _sam, case = _suspended()
    bruno = case.others.get()
    match_id = case.evidence["matches"][0]["match"]  # one Carl resigned to Bruno
    filed = api_for(carl).post(
        "/api/disputes/",
        {"match": match_id, "category": DisputeCategory.APPEAL, "description": "Unfair."},
        format="json",
    )
    assert filed.status_code == 400

    blank = api_for(carl).post(
        f"/api/fairplay/cases/{case.pk}/appeal/", {"text": "   "}, format="json"
    )
    assert blank.status_code == 400
    assert "Say why the decision is wrong" in str(blank.json())
    stranger = api_for(bruno).post(
        f"/api/fairplay/cases/{case.pk}/appeal/", {"text": "Not mine."}, format="json"
    )
    assert stranger.status_code == 404
    assert not Dispute.objects.exists()
    assert Case.objects.get(pk=case.pk).state == CaseState.DECIDED


def test_the_appeal_reads_well_on_the_dispute_pages() -> None:
    carl, _sam, case = _suspended()
    dispute_id = _appeal(carl, case, text="I never meant to lose on purpose.")
    tess = staff("tess")

    staff_client, player_client = Client(), Client()
    staff_client.force_login(tess)
    player_client.force_login(carl)
    page = staff_client.get(f"/disputes/{dispute_id}/").content.decode()
    assert "The decision appealed" in page
    assert f"Fair-play case #{case.pk}" in page
    assert 'data-testid="decision-uphold"' in page
    assert 'data-testid="decision-dismiss"' in page
    assert 'data-testid="decision-overturn"' not in page
    assert "Five resignations at the first roll." in page
    queue = staff_client.get("/disputes/", {"category": "appeal"}).content.decode()
    assert f'data-testid="queue-row-{dispute_id}"' in queue
    mine = player_client.get("/disputes/mine/").content.decode()
    assert f"Fair-play case #{case.pk}" in mine
    own = player_client.get(f"/disputes/{dispute_id}/").content.decode()
    assert "I never meant to lose on purpose." in own
    assert "The decision appealed" not in own  # the staff's view of the case
    case_page = player_client.get(f"/fairplay/{case.pk}/").content.decode()
    assert f"waiting as dispute #{dispute_id}" in case_page


def test_everyone_the_upheld_appeal_frees_is_told() -> None:
    # given a case that muted Bruno as well as suspending Carl, and Carl's appeal upheld
    until = (timezone.now() + timedelta(days=2)).isoformat()
    carl, _sam, case = _suspended(3, {"kind": "mute", "user": "bruno", "until": until})
    bruno = case.others.get()
    with pytest.raises(Forbidden, match="muted"):
        require_may_chat(bruno)
    dispute_id = _appeal(carl, case)
    upheld = api_for(staff("tess")).post(
        f"/api/disputes/{dispute_id}/decide/",
        {"decision": "uphold", "reason": "Neither meant it."},
        format="json",
    )
    assert upheld.status_code == 200

    # then Bruno is unmuted and told so; Carl hears it from his dispute
    require_may_chat(bruno)
    told = Notification.objects.get(user=bruno, kind=NoticeKind.SANCTION, data__sanction="lift")
    assert told.text == "On appeal, your restrictions are lifted: Neither meant it."
    assert not Notification.objects.filter(
        user=carl, kind=NoticeKind.SANCTION, data__sanction="lift"
    ).exists()
