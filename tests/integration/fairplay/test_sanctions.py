"""Staff decide fair-play cases; each sanction takes effect through the services that own
what it changes, money is conserved, the player is told and may appeal once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.ledger.reads import balance, currency_total, house_balance
from accounts.models import Profile, RatingChange, Standing
from accounts.selectors import rating_history, recent_results
from accounts.standing import require_may_chat, require_may_play
from core.errors import Forbidden
from fairplay.detectors import dumping
from fairplay.models import Case, CaseKind, CaseState, Sanction
from lobby.models import NoticeKind, Notification, Seek
from matches.models import Match, MatchStatus
from tests.factories import UserFactory
from tests.integration.disputes.helpers import finished_match, staff
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import open_tournament, organizer
from tournaments import services as tournaments
from tournaments.models import Entry, EntryStatus

pytestmark = pytest.mark.django_db(transaction=True)

STAKE = 500


def _dumped(times: int = 5):  # type: ignore[no-untyped-def]
    """Carl resigns ``times`` staked, rated matches to Bruno at once: a dumping case."""
    bruno, carl = UserFactory(username="bruno"), UserFactory(username="carl")
    for _ in range(times):
        match = finished_match(bruno, carl, stake_cents=STAKE, currency="FUN")
        dumping.scan_match(match.pk)  # as the worker does; the same case either way
    case = Case.objects.get(kind=CaseKind.DUMPING)
    return bruno, carl, case


def _decide(staff_user, case: Case, **body):  # type: ignore[no-untyped-def]
    return api_for(staff_user).post(f"/api/fairplay/cases/{case.pk}/decide/", body, format="json")


def test_reversing_dumped_money_and_voiding_the_series_puts_both_back_and_conserves_money() -> None:
    grant = 100_000
    bruno, carl, case = _dumped()
    sam = staff()
    assert balance(user=carl, currency="FUN") == grant - 5 * STAKE
    house_before = house_balance("FUN")

    answer = _decide(
        sam,
        case,
        decision="sanction",
        reason="Five resignations at the first roll: chips dumped.",
        sanctions=[
            {"kind": "reverse"},
            {"kind": "void_ratings"},
            {"kind": "warn", "user": "bruno"},
        ],
    )

    assert answer.status_code == 200, answer.json()
    assert answer.json()["state"] == CaseState.DECIDED
    # Carl has every chip back; Bruno gives back what he received (the house keeps its
    # commission); nothing was created or lost
    assert balance(user=carl, currency="FUN") == grant
    assert house_balance("FUN") == house_before  # the house keeps the matches' commission
    assert balance(user=bruno, currency="FUN") == grant - house_before
    assert currency_total("FUN") == 0
    # the five results no longer count for either rating
    for person in (bruno, carl):
        profile = Profile.objects.get(user=person)
        assert profile.rating == pytest.approx(1500.0)
        assert profile.experience == 0
        # and the profile page's chart and recent results no longer show them
        assert rating_history(profile=profile) == [("Start", pytest.approx(1500.0))]
        assert recent_results(profile=profile) == []
    assert RatingChange.objects.filter(voided_at__isnull=True).count() == 0
    # a result after the void starts from the corrected rating, and the chart agrees
    finished_match(bruno, carl)
    for person in (bruno, carl):
        profile = Profile.objects.get(user=person)
        assert rating_history(profile=profile)[-1][1] == pytest.approx(profile.rating)
        assert len(rating_history(profile=profile)) == 2
    # both were told
    kinds = set(
        Notification.objects.filter(kind=NoticeKind.SANCTION).values_list(
            "user__username", "data__sanction"
        )
    )
    assert kinds == {("carl", "reverse"), ("carl", "void_ratings"), ("bruno", "warn")}


def test_a_suspension_stops_play_and_payouts_until_its_date_and_an_appeal_can_lift_it() -> None:
    _bruno, carl, case = _dumped()
    sam, tess = staff(), staff("tess")
    until = timezone.now() + timedelta(days=3)

    answer = _decide(
        sam,
        case,
        decision="sanction",
        reason="Suspended pending review of the series.",
        sanctions=[{"kind": "suspend", "until": until.isoformat()}],
    )
    assert answer.status_code == 200, answer.json()

    with pytest.raises(Forbidden, match="suspended until"):
        require_may_play(carl)
    challenge = api_for(carl).post(
        "/api/matches/", {"opponent": "bruno", "length": 1}, format="json"
    )
    assert challenge.status_code == 403
    assert "suspended" in challenge.json()["detail"]

    # Carl reads the decision and appeals once; a second appeal is refused
    mine = api_for(carl).get(f"/api/fairplay/cases/{case.pk}/")
    assert mine.status_code == 200
    assert "evidence" not in mine.json()
    appealed = api_for(carl).post(
        f"/api/fairplay/cases/{case.pk}/appeal/", {"text": "I was called away."}, format="json"
    )
    assert appealed.status_code == 200
    assert appealed.json()["state"] == CaseState.APPEALED
    again = api_for(carl).post(
        f"/api/fairplay/cases/{case.pk}/appeal/", {"text": "Please."}, format="json"
    )
    assert again.status_code == 409

    # the appeal is a dispute: another member of staff upholds it there
    dispute = appealed.json()["appeal_dispute"]
    lifted = api_for(tess).post(
        f"/api/disputes/{dispute}/decide/",
        {"decision": "uphold", "reason": "A family emergency, documented."},
        format="json",
    )
    assert lifted.status_code == 200, lifted.json()
    require_may_play(carl)
    assert Standing.objects.get(user=carl).suspended_until is None
    assert [s.kind for s in Sanction.objects.filter(case=case)] == ["suspend", "lift"]


def test_closing_an_account_refunds_its_tournaments_and_pays_out_its_balance() -> None:
    dana = UserFactory(username="dana")
    sam = staff()
    tournament = open_tournament(organizer())
    tournaments.entry_register(tournament_id=tournament.pk, user=dana)
    total_before = currency_total("FUN")
    from fairplay.cases import case_report

    case = case_report(
        kind=CaseKind.ACCOUNTS, subject=dana, key="accounts:test", summary="x", evidence={}
    )

    answer = _decide(
        sam,
        case,
        decision="sanction",
        reason="A second account of a banned player.",
        sanctions=[{"kind": "close"}],
    )

    assert answer.status_code == 200, answer.json()
    entry = Entry.objects.get(tournament=tournament, user=dana)
    assert entry.status == EntryStatus.WITHDRAWN
    assert balance(user=dana, currency="FUN") == 0
    assert currency_total("FUN") == total_before == 0
    outcome = Sanction.objects.get(case=case).outcome
    assert outcome["tournaments_left"] == [tournament.pk]
    assert outcome["paid_out"] == {"FUN": 100_000}
    with pytest.raises(Forbidden, match="closed"):
        require_may_play(dana)


def test_a_mute_stops_chat_until_its_date() -> None:
    _bruno, carl, case = _dumped()
    sam = staff()
    until = timezone.now() + timedelta(hours=5)
    answer = _decide(
        sam,
        case,
        decision="sanction",
        reason="Insults in chat.",
        sanctions=[{"kind": "mute", "until": until.isoformat()}],
    )
    assert answer.status_code == 200, answer.json()
    with pytest.raises(Forbidden, match="muted until"):
        require_may_chat(carl)
    Standing.objects.filter(user=carl).update(muted_until=timezone.now() - timedelta(seconds=1))
    require_may_chat(carl)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"decision": "sanction", "reason": "x", "sanctions": []}, 400, "at least one sanction"),
        ({"decision": "dismiss", "reason": "   "}, 400, "reason"),
        (
            {"decision": "sanction", "reason": "x", "sanctions": [{"kind": "suspend"}]},
            400,
            "date in the future",
        ),
        (
            {"decision": "sanction", "reason": "x", "sanctions": [{"kind": "warn", "user": "zed"}]},
            400,
            "zed",
        ),
        ({"decision": "uphold", "reason": "x"}, 400, "not a valid choice"),
    ],
)
def test_a_decision_staff_cannot_make_is_refused_with_the_reason(body, status, words) -> None:  # type: ignore[no-untyped-def]
    _bruno, _carl, case = _dumped()
    UserFactory(username="zed")
    answer = _decide(staff(), case, **body)
    assert answer.status_code == status, answer.json()
    assert words in str(answer.json())
    assert Case.objects.get(pk=case.pk).state == CaseState.OPEN


def test_only_staff_read_and_decide_cases_and_a_case_is_decided_once() -> None:
    bruno, carl, case = _dumped()
    assert api_for(carl).get("/api/fairplay/cases/").status_code == 403
    assert api_for(bruno).get(f"/api/fairplay/cases/{case.pk}/").status_code == 404
    assert _decide(carl, case, decision="dismiss", reason="me").status_code == 403
    sam = staff()
    assert _decide(sam, case, decision="dismiss", reason="Two friends joking.").status_code == 200
    assert _decide(sam, case, decision="dismiss", reason="Again.").status_code == 409
    # a dismissed case cannot be appealed: there is nothing against the player
    appeal = api_for(carl).post(
        f"/api/fairplay/cases/{case.pk}/appeal/", {"text": "?"}, format="json"
    )
    assert appeal.status_code == 409


@pytest.mark.parametrize("until", ["2026-02-31", "next week", ""])
def test_a_suspension_with_no_such_date_from_the_page_is_refused_and_nothing_changes(
    until: str,
) -> None:
    from django.test import Client

    _bruno, carl, case = _dumped()
    desk = Client()
    desk.force_login(staff())
    answer = desk.post(
        f"/staff/fairplay/{case.pk}/decide/",
        {"decision": "sanction", "sanction": "suspend", "until_suspend": until, "reason": "x"},
        follow=True,
    )
    assert answer.status_code == 200
    assert "Give the date the suspension ends" in answer.content.decode()
    assert Case.objects.get(pk=case.pk).state == CaseState.OPEN
    require_may_play(carl)


def test_a_suspension_withdraws_the_players_open_invitations_and_seeks() -> None:
    _bruno, carl, case = _dumped()
    dora = UserFactory(username="dora")
    UserFactory(username="erik")
    received = api_for(dora).post("/api/matches/", {"opponent": "carl", "length": 3}, format="json")
    sent = api_for(carl).post("/api/matches/", {"opponent": "erik", "length": 3}, format="json")
    seek = api_for(carl).post("/api/seeks/", {"length": 5}, format="json")
    assert received.status_code == sent.status_code == seek.status_code == 201

    answer = _decide(
        staff(),
        case,
        decision="sanction",
        reason="Suspended pending review of the series.",
        sanctions=[{"kind": "suspend", "until": (timezone.now() + timedelta(days=3)).isoformat()}],
    )
    assert answer.status_code == 200, answer.json()

    assert Match.objects.get(pk=received.json()["id"]).status == MatchStatus.DECLINED
    assert Match.objects.get(pk=sent.json()["id"]).status == MatchStatus.CANCELLED
    assert Seek.objects.get(pk=seek.json()["id"]).cancelled_at is not None
    # Dora's invitation is answered, so she cannot be left waiting for Carl
    accept = api_for(carl).post(f"/api/matches/{received.json()['id']}/accept/")
    assert (accept.status_code, accept.json()["detail"]) == (409, "This challenge was declined.")
    suspended = Sanction.objects.get(case=case, kind="suspend")
    assert sorted(suspended.outcome["invitations_withdrawn"]) == sorted(
        [received.json()["id"], sent.json()["id"]]
    )


def test_reversing_dumped_money_and_closing_the_account_leaves_its_tournaments_in_lock_order() -> (
    None
):
    # given a dumper who also waits to play in a tournament
    _bruno, carl, case = _dumped()
    sam = staff()
    tournament = open_tournament(organizer())
    tournaments.entry_register(tournament_id=tournament.pk, user=carl)

    # when staff reverse the dumped money and close the account in one decision (the
    # reversal moves wallets first; leaving the tournament locks it, which comes before
    # wallets in the lock order: the recorder refuses it taken after them)
    answer = _decide(
        sam,
        case,
        decision="sanction",
        reason="Chips dumped to a second account.",
        sanctions=[{"kind": "reverse"}, {"kind": "close"}],
    )

    # then both apply: the tournament refunded, the balance paid out, nothing created or lost
    assert answer.status_code == 200, answer.json()
    assert Entry.objects.get(tournament=tournament, user=carl).status == EntryStatus.WITHDRAWN
    assert balance(user=carl, currency="FUN") == 0
    assert currency_total("FUN") == 0
    close = Sanction.objects.get(case=case, kind="close").outcome
    assert close["tournaments_left"] == [tournament.pk]
