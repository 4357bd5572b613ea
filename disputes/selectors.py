"""Reads for disputes: who may see what, the staff queue, and the evidence of a dispute.

Who sees a dispute: staff (permission ``accounts.handle_disputes``) see all of them; the
organizer of a tournament sees the disputes about its matches, read-only; a player sees
the disputes they filed and those about their own matches (they are a party to them). An
appeal of a fair-play decision is seen by staff and the player who filed it.

The *evidence* is read from the record, never typed in: the action log with positions,
clocks and connection events, the dice check, the engine's stored evaluations, the ledger
entries of the match's and the tournament's escrows, the tournament context and the chat.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from accounts.models import LedgerEntry, User
from accounts.money import money_text
from disputes.models import AuditEntry, Dispute, DisputeCategory, DisputeState
from matches.models import Action, ActionKind, ChatMessage, Match
from matches.money import escrow_ref
from matches.selectors import board_model
from matches.verification import verify_match_dice
from tournaments.models import Entry, EntryStatus, Pairing, Tournament
from tournaments.reads import pairing_words, plays_tiebreaks

HANDLE_DISPUTES = "accounts.handle_disputes"
AGES = {"hour": timedelta(hours=1), "day": timedelta(days=1), "week": timedelta(weeks=1)}
CONNECTION_KINDS = (
    ActionKind.DISCONNECT,
    ActionKind.RECONNECT,
    ActionKind.SUSPEND,
    ActionKind.TIMEOUT,
    ActionKind.FORFEIT,
    ActionKind.ADJUDICATION,
)


def is_staff(user: User | None) -> bool:
    return user is not None and user.is_authenticated and user.has_perm(HANDLE_DISPUTES)


def can_file(user: User, match: Match) -> bool:
    """Players of the match, and entrants of its tournament, may dispute it."""
    if match.seat_of(user) is not None:
        return True
    if match.tournament_id is None:
        return False
    return Entry.objects.filter(
        tournament_id=match.tournament_id, user=user, status=EntryStatus.REGISTERED
    ).exists()


def visible_disputes(*, viewer: User) -> QuerySet[Dispute]:
    disputes = Dispute.objects.select_related(
        "match__player_0__profile",
        "match__player_1__profile",
        "filed_by__profile",
        "assignee",
        "decided_by",
    )
    if is_staff(viewer):
        return disputes
    organized = Tournament.objects.filter(organizer=viewer).values("pk")
    return disputes.filter(
        Q(filed_by=viewer)
        | Q(match__player_0=viewer)
        | Q(match__player_1=viewer)
        | Q(tournament_id__in=organized)
    )


def can_see_evidence(viewer: User, dispute: Dispute) -> bool:
    """Staff and the tournament's organizer read the evidence; players read the decision."""
    if is_staff(viewer):
        return True
    if dispute.tournament_id is None:
        return False
    return Tournament.objects.filter(pk=dispute.tournament_id, organizer=viewer).exists()


def dispute_queue(
    *,
    viewer: User,
    state: str = "",
    category: str = "",
    tournament: int | None = None,
    age: str = "",
) -> QuerySet[Dispute]:
    """The disputes ``viewer`` may see, filtered; the oldest undecided first."""
    disputes = visible_disputes(viewer=viewer)
    if state in DisputeState.values:
        disputes = disputes.filter(state=state)
    elif state == "undecided":
        disputes = disputes.exclude(state=DisputeState.DECIDED)
    if category in DisputeCategory.values:
        disputes = disputes.filter(category=category)
    if tournament is not None:
        disputes = disputes.filter(tournament_id=tournament)
    if age in AGES:
        disputes = disputes.filter(created_at__lte=timezone.now() - AGES[age])
    return disputes.order_by("created_at", "pk")


def disputes_of(*, user: User) -> QuerySet[Dispute]:
    """The disputes a player filed, or that are about their matches, newest first."""
    return (
        visible_disputes(viewer=user)
        .filter(Q(filed_by=user) | Q(match__player_0=user) | Q(match__player_1=user))
        .order_by("-created_at", "-pk")
    )


def disputes_about(*, match: Match, viewer: User | None) -> list[Dispute]:
    if viewer is None:
        return []
    return list(visible_disputes(viewer=viewer).filter(match=match).order_by("-created_at"))


def audit_log(*, dispute_id: int | None = None, limit: int = 200) -> QuerySet[AuditEntry]:
    entries = AuditEntry.objects.select_related("actor", "dispute__match")
    if dispute_id is not None:
        entries = entries.filter(dispute_id=dispute_id)
    return entries.order_by("-created_at", "-pk")[:limit]


# ---------------------------------------------------------------- evidence


@dataclass(frozen=True)
class ReplayStep:
    """One position of the match as the board after an action, seat 0 at the bottom."""

    seq: int
    game: int | None
    label: str
    board: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "game": self.game, "label": self.label, "board": self.board}


def evidence(dispute: Dispute) -> dict[str, Any]:
    """Everything the record holds about the disputed match, as plain data; for an appeal,
    the fair-play decision appealed (its case page holds the rest)."""
    match = dispute.match
    if match is None:
        return {"appealed": dispute.appealed}
    names = [match.player_0.username, match.player_1.username]
    actions = list(Action.objects.filter(match=match).select_related("actor").order_by("seq"))
    dice = verify_match_dice(match, reveal=True)
    return {
        "match": {
            "id": match.pk,
            "kind": match.kind,
            "length": match.length,
            "players": names,
            "status": match.status,
            "winner": names[match.winner_seat] if match.winner_seat is not None else None,
            "finish_reason": match.finish_reason,
            "score": [match.score_0, match.score_1],
            "stake_cents": match.stake_cents,
            "currency": match.currency,
            "clock": match.clock,
            "started_at": match.started_at,
            "finished_at": match.finished_at,
        },
        "actions": [_action_row(action, names) for action in actions],
        "connections": [
            _action_row(action, names) for action in actions if action.kind in CONNECTION_KINDS
        ],
        "dice": {
            "ok": dice.ok,
            "checked": dice.checked,
            "summary": dice.summary,
            "mismatches": dice.mismatches,
        },
        "adjudications": [
            {
                "id": adjudication.pk,
                "plies": adjudication.plies,
                "gnubg_id": adjudication.gnubg_id,
                "game": adjudication.game_number,
                "absent": names[adjudication.absent_seat]
                if adjudication.absent_seat is not None
                else None,
                "decision": adjudication.decision,
                "players": adjudication.evaluation.get("players"),
                "requested_by": adjudication.requested_by.username
                if adjudication.requested_by
                else None,
                "created_at": adjudication.created_at,
            }
            for adjudication in match.adjudications.select_related("requested_by").order_by(
                "created_at"
            )
        ],
        "ledger": _ledger(match),
        "tournament": _tournament(match),
        "chat": [
            {
                "author": message.author.username,
                "room": message.room,
                "text": message.text,
                "at": message.created_at,
            }
            for message in ChatMessage.objects.filter(match=match)
            .select_related("author")
            .order_by("created_at", "pk")
        ],
    }


def replay_steps(match: Match) -> list[ReplayStep]:
    """The board after every action that changed it, for stepping through the match."""
    steps = [ReplayStep(0, None, _("Before the first roll"), board_model(None))]
    actions = Action.objects.filter(match=match).exclude(gnubg_after="").order_by("seq")
    names = [match.player_0.username, match.player_1.username]
    for action in actions:
        steps.append(
            ReplayStep(
                action.seq,
                action.game_number,
                _describe(action, names),
                board_model(action.gnubg_after),
            )
        )
    return steps


def _action_row(action: Action, names: list[str]) -> dict[str, Any]:
    return {
        "seq": action.seq,
        "game": action.game_number,
        "kind": action.kind,
        "player": names[action.seat] if action.seat in (0, 1) else None,
        "text": _describe(action, names),
        "dice": action.dice,
        "gnubg_before": action.gnubg_before,
        "gnubg_after": action.gnubg_after,
        "clocks_ms": [action.clock_0_ms, action.clock_1_ms],
        "at": action.created_at,
    }


# The kinds whose label is also a button's word elsewhere ("Take" a case, "Roll" the dice),
# said as a log line says them.
_LOGGED_AS = {
    ActionKind.ROLL: pgettext_lazy("match log", "Roll"),
    ActionKind.DOUBLE: pgettext_lazy("match log", "Double"),
    ActionKind.TAKE: pgettext_lazy("match log", "Take"),
    ActionKind.DROP: pgettext_lazy("match log", "Drop"),
}


def _kind(action: Action) -> str:
    """What the log says ``action`` was, in the reader's language."""
    return str(_LOGGED_AS.get(ActionKind(action.kind)) or _(action.get_kind_display()))


def _describe(action: Action, names: list[str]) -> str:
    who = f"{names[action.seat]}: " if action.seat in (0, 1) else ""
    detail = action.detail
    if action.kind == ActionKind.PLAY:
        roll = "".join(str(d) for d in detail.get("dice", []))
        return f"{who}{roll} {detail.get('play') or _('(no move)')}".strip()
    if action.kind in (ActionKind.OPENING, ActionKind.ROLL) and action.dice:
        return f"{who}{_kind(action)} {action.dice[0]}-{action.dice[1]}"
    if action.kind == ActionKind.MATCH_OVER and detail.get("dispute"):
        result = _("Result %(reason)s by dispute #%(dispute)s") % {
            "reason": detail.get("reason"),
            "dispute": detail["dispute"],
        }
        return f"{who}{result}"
    return f"{who}{_kind(action)}"


def _ledger(match: Match) -> list[dict[str, Any]]:
    refs = [escrow_ref(match)]
    if match.tournament_id is not None:
        refs.append(f"tournament:{match.tournament_id}")
    entries = (
        LedgerEntry.objects.filter(transaction__escrow_ref__in=refs)
        .select_related("transaction", "account__user")
        .order_by("transaction_id", "pk")
    )
    transactions: dict[int, dict[str, Any]] = {}
    for entry in entries:
        posted = entry.transaction
        row = transactions.setdefault(
            posted.pk,
            {
                "id": posted.pk,
                "kind": posted.kind,
                "label": posted.get_kind_display(),
                "memo": posted.memo,
                "escrow_ref": posted.escrow_ref,
                "reverses": posted.reverses_id,
                "at": posted.created_at,
                "entries": [],
            },
        )
        account = entry.account
        row["entries"].append(
            {
                "account": account.user.username if account.user else str(account),
                "currency": account.currency,
                "amount_cents": entry.amount,
                "amount": money_text(entry.amount),
            }
        )
    return list(transactions.values())


def _tournament(match: Match) -> dict[str, Any] | None:
    if match.tournament_id is None:
        return None
    tournament = Tournament.objects.select_related("organizer").get(pk=match.tournament_id)
    pairing = Pairing.objects.filter(match_id=match.pk).select_related("winner").first()
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "state": tournament.state,
        "organizer": tournament.organizer.username,
        "round": pairing.round + 1 if pairing else None,
        "position": pairing.position + 1 if pairing else None,
        "slot": (
            pairing_words(pairing, tournament.format, tiebreaks=plays_tiebreaks(tournament))
            if pairing
            else None
        ),
        "pairing_winner": pairing.winner.username if pairing and pairing.winner else None,
    }
