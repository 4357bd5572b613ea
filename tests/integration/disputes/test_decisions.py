"""Each decision's effect on the match and the ledger; money is conserved throughout."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import ledger
from accounts.models import LedgerTransaction, TransactionKind
from accounts.money import commission_cents, winner_commission_cents
from analysis.splits import pot_split
from core.errors import Conflict, DomainError, Forbidden
from disputes import services
from disputes.models import AuditEntry, Dispute
from disputes.remedies import Adjustment
from matches.models import Action, ActionKind, Adjudication, Match, MatchStatus
from matches.tasks import adjudicate_match, sweep_deadlines
from tests.factories import UserFactory
from tests.integration.disputes.helpers import file, finished_match, staff
from tests.integration.matches.helpers import Bot, api_for, board_left, start_match

pytestmark = pytest.mark.django_db

STAKE = 1000


def _dispute(user: object, match: Match, category: str = "result") -> Dispute:
    response = file(user, match, category=category)
    assert response.status_code == 201, response.json()
    return Dispute.objects.get(pk=response.json()["id"])


def _balances(*users: object) -> list[int]:
    return [ledger.balance(user=user, currency="FUN") for user in users]  # type: ignore[arg-type]


def test_dismissing_changes_nothing_but_the_dispute_and_is_audited() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    match = finished_match(alice, bruno, stake_cents=STAKE)
    dispute = _dispute(bruno, match)
    before = _balances(alice, bruno)

    services.dispute_decide(
        dispute_id=dispute.pk, staff=sam, decision="dismiss", reason="The log is clean."
    )

    dispute.refresh_from_db()
    assert dispute.state == "decided"
    assert dispute.decision == "dismiss"
    assert dispute.decided_by == sam
    assert dispute.outcome["summary"] == ["The complaint is dismissed; the result stands."]
    assert Match.objects.get(pk=match.pk).winner_seat == 0
    assert _balances(alice, bruno) == before
    entry = AuditEntry.objects.get(dispute=dispute, action="decided")
    assert entry.actor == sam
    assert entry.reason == "The log is clean."
    assert entry.before["match"] == {"status": "finished", "winner": "alice"}
    assert entry.after["match"] == {"status": "finished", "winner": "alice"}


def test_upholding_keeps_the_result_and_tells_the_player() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    match = finished_match(alice, bruno)
    dispute = _dispute(bruno, match, category="conduct")

    services.dispute_decide(
        dispute_id=dispute.pk, staff=sam, decision="uphold", reason="Abusive chat; warned."
    )

    dispute.refresh_from_db()
    assert dispute.decision == "uphold"
    assert dispute.outcome["summary"] == ["The complaint is upheld; the result stands."]
    assert Match.objects.get(pk=match.pk).winner_seat == 0


def test_overturning_gives_the_match_and_the_pot_to_the_other_player() -> None:
    # given alice won bruno's stake
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    start = _balances(alice, bruno)
    match = finished_match(alice, bruno, stake_cents=STAKE)
    fee = winner_commission_cents(STAKE)
    assert _balances(alice, bruno) == [start[0] + STAKE - fee, start[1] - STAKE]
    house = ledger.house_balance("FUN")
    dispute = _dispute(bruno, match)

    # when
    services.dispute_decide(
        dispute_id=dispute.pk, staff=sam, decision="overturn", reason="Resigned by a misclick."
    )

    # then bruno won: the pot went to him instead
    match.refresh_from_db()
    assert match.winner_seat == 1
    assert _balances(alice, bruno) == [start[0] - STAKE, start[1] + STAKE - fee]
    assert ledger.house_balance("FUN") == house
    assert ledger.escrow_balance(escrow_ref=f"match:{match.pk}", currency="FUN") == 0
    assert ledger.currency_total("FUN") == 0
    correction = LedgerTransaction.objects.get(kind=TransactionKind.COMPENSATION)
    assert correction.reverses is not None
    assert correction.reverses.key == f"match:{match.pk}:pot"
    logged = Action.objects.filter(match=match, kind=ActionKind.MATCH_OVER).order_by("seq").last()
    assert logged is not None
    assert logged.detail == {"winner": 1, "reason": "overturned", "dispute": dispute.pk}
    dispute.refresh_from_db()
    assert dispute.outcome["summary"][0] == "The match is awarded to bruno."
    assert dispute.outcome["winner"] == {"before": "alice", "after": "bruno"}
    entry = AuditEntry.objects.get(dispute=dispute, action="decided")
    assert entry.before["balances"]["bruno"]["FUN"] == start[1] - STAKE
    assert entry.after["balances"]["bruno"]["FUN"] == start[1] + STAKE - fee


def test_voiding_refunds_both_stakes_and_orders_a_replay() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    start = _balances(alice, bruno)
    match = finished_match(alice, bruno, stake_cents=STAKE)
    dispute = _dispute(bruno, match, category="disconnection")

    services.dispute_decide(
        dispute_id=dispute.pk, staff=sam, decision="void", reason="Server fault mid-game."
    )

    match.refresh_from_db()
    assert match.status == MatchStatus.CANCELLED
    assert match.winner_seat is None
    dispute.refresh_from_db()
    replay = Match.objects.get(pk=dispute.outcome["replay_match"])
    assert (replay.player_0, replay.player_1) == (alice, bruno)
    assert replay.status == MatchStatus.PLAYING
    assert (replay.length, replay.stake_cents) == (1, STAKE)
    # the old stakes came back, the replay's stakes are in its own escrow
    assert _balances(alice, bruno) == [start[0] - STAKE, start[1] - STAKE]
    assert ledger.escrow_balance(escrow_ref=f"match:{match.pk}", currency="FUN") == 0
    assert ledger.escrow_balance(escrow_ref=f"match:{replay.pk}", currency="FUN") == 2 * STAKE
    assert ledger.currency_total("FUN") == 0


def test_adjusting_moves_money_with_audited_ledger_entries() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    match = finished_match(alice, bruno)
    dispute = _dispute(bruno, match, category="clock")
    before = _balances(alice, bruno)

    services.dispute_decide(
        dispute_id=dispute.pk,
        staff=sam,
        decision="adjust",
        reason="The clock charged bruno twice.",
        adjustments=[
            Adjustment(user=bruno, currency="FUN", amount_cents=250),
            Adjustment(user=alice, currency="FUN", amount_cents=-100),
        ],
    )

    assert _balances(alice, bruno) == [before[0] - 100, before[1] + 250]
    assert ledger.currency_total("FUN") == 0
    dispute.refresh_from_db()
    assert dispute.outcome["summary"] == ["bruno: +2.50 FUN.", "alice: −1.00 FUN."]
    memo = LedgerTransaction.objects.get(key=f"dispute:{dispute.pk}:adjust:0").memo
    assert "Dispute #" in memo
    assert "charged bruno twice" in memo


def test_a_refused_adjustment_leaves_every_wallet_and_the_dispute_untouched() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    match = finished_match(alice, bruno)
    dispute = _dispute(bruno, match)
    before = _balances(alice, bruno)

    with pytest.raises(DomainError, match="balance is"):
        services.dispute_decide(
            dispute_id=dispute.pk,
            staff=sam,
            decision="adjust",
            reason="Too much.",
            adjustments=[
                Adjustment(user=bruno, currency="FUN", amount_cents=250),
                Adjustment(user=alice, currency="FUN", amount_cents=-(10**9)),
            ],
        )

    assert _balances(alice, bruno) == before
    dispute.refresh_from_db()
    assert dispute.state == "open"
    assert not AuditEntry.objects.filter(dispute=dispute, action="decided").exists()


def test_a_decision_needs_a_reason_staff_and_an_undecided_dispute() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    match = finished_match(alice, bruno)
    dispute = _dispute(bruno, match)

    with pytest.raises(DomainError, match="Give a reason"):
        services.dispute_decide(dispute_id=dispute.pk, staff=sam, decision="dismiss", reason=" ")
    with pytest.raises(Forbidden):
        services.dispute_decide(dispute_id=dispute.pk, staff=bruno, decision="uphold", reason="I")
    services.dispute_decide(dispute_id=dispute.pk, staff=sam, decision="dismiss", reason="ok")
    with pytest.raises(Conflict, match="decided"):
        services.dispute_decide(dispute_id=dispute.pk, staff=sam, decision="overturn", reason="x")
    assert Match.objects.get(pk=match.pk).winner_seat == 0


def test_a_money_session_cannot_be_overturned_or_voided() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    match_id = start_match(alice, bruno, money=True, stake_cents=10, max_cube=2)
    match = Match.objects.get(pk=match_id)
    dispute = _dispute(bruno, match)

    for decision in ("overturn", "void"):
        with pytest.raises(Conflict, match="money session"):
            services.dispute_decide(dispute_id=dispute.pk, staff=sam, decision=decision, reason="x")
    assert Dispute.objects.get(pk=dispute.pk).state == "open"


def test_taking_a_dispute_puts_it_in_review_and_is_audited() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    dispute = _dispute(bruno, finished_match(alice, bruno))

    response = api_for(sam).post(f"/api/disputes/{dispute.pk}/assign/")

    assert response.status_code == 200
    assert response.json()["state"] == "in_review"
    assert response.json()["assignee"] == "sam"
    entry = AuditEntry.objects.get(dispute=dispute, action="assigned")
    assert entry.before == {"state": "open", "assignee": None}
    assert entry.after == {"state": "in_review", "assignee": "sam"}


def _adjudicated_pot_match(alice: object, bruno: object) -> Match:
    match_id = start_match(alice, bruno, length=5, stake_cents=STAKE, currency="FUN")
    bot = Bot({"alice": alice, "bruno": bruno})  # type: ignore[dict-item]
    for _ in range(6):
        bot.step(match_id)
    match = Match.objects.get(pk=match_id)
    board_left(match_id, match.player_0)
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match_id).update(grace_ends_0=past, deadline=past)
    sweep_deadlines()
    adjudicate_match.apply(args=[match_id])
    return Match.objects.get(pk=match_id)


def test_readjudicating_deeper_resettles_the_pot_by_the_new_numbers() -> None:
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    match = _adjudicated_pot_match(alice, bruno)
    assert match.status == MatchStatus.FINISHED
    dispute = _dispute(alice, match, category="disconnection")

    services.dispute_decide(
        dispute_id=dispute.pk, staff=sam, decision="readjudicate", reason="Check at 3 ply", plies=3
    )

    deeper = Adjudication.objects.get(match=match, supersedes__isnull=False)
    assert deeper.plies == 3
    assert deeper.requested_by == sam
    mwc = deeper.evaluation["players"][0]["mwc"]
    standing = LedgerTransaction.objects.filter(
        escrow_ref=f"match:{match.pk}", kind=TransactionKind.SETTLEMENT, reversed_by__isnull=True
    ).get()
    paid = {e.account.user_id: e.amount for e in standing.entries.select_related("account")}
    split = pot_split(mwc, pot_cents=2 * STAKE, commission=commission_cents)
    assert paid.get(alice.pk, 0) == split.payout_cents[0]  # type: ignore[attr-defined]
    assert paid.get(bruno.pk, 0) == split.payout_cents[1]  # type: ignore[attr-defined]
    assert ledger.escrow_balance(escrow_ref=f"match:{match.pk}", currency="FUN") == 0
    assert ledger.currency_total("FUN") == 0
    dispute.refresh_from_db()
    assert dispute.outcome["adjudication"]["deeper"]["plies"] == 3
    assert "again at 3 ply (it was 2 ply)" in " ".join(dispute.outcome["summary"])
