"""Disputes about a match, the staff's decisions, and the audit log of every staff action.

Terms:

* *dispute*: a player's complaint about one match (filed by one of its players, or by an
  entrant of its tournament), with a category and a description. It is **open** until a
  staff member takes it (**in review**), then **decided** once, with a reason.
* *appeal*: a dispute about a fair-play decision instead of a match (category
  ``appeal``): the sanctioned player asks staff to look again. It names the case by id
  (``fairplay_case_id``; fair play sits above disputes and files it) and keeps the decision
  as it stood (``appealed``). It is decided **dismiss** (the sanctions stand) or **uphold**
  (they are lifted: fair play applies that once the decision commits).
* *decision*: what staff decided: **dismiss** (nothing was wrong), **uphold** (the player
  was right; nothing in the result changes), **overturn** (the match goes to the other
  player), **void** (the match is cancelled and replayed), **readjudicate** (the engine
  evaluates the abandoned position again, deeper, and a changed result is applied), or
  **adjust** (money moves between wallets with compensating ledger entries).
* *evidence*: what the record says about the match (action log, dice check, engine
  evaluation, ledger, tournament, chat); gathered when read, never typed in.
* *audit entry*: one staff (or filing) action on a dispute: who, when, what, and the state
  before and after. Audit entries are never changed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import override, pgettext_lazy

from matches.models import Match


class DisputeCategory(models.TextChoices):
    DICE = "dice", _("Dice")
    DISCONNECTION = "disconnection", _("Disconnection or adjudication")
    CLOCK = "clock", _("Clock")
    CONDUCT = "conduct", _("Opponent's conduct")
    RESULT = "result", _("Wrong result")
    OTHER = "other", _("Other")
    APPEAL = "appeal", _("Appeal of a fair-play decision")


def english_label(label: str | Promise) -> str:
    """A choice's label as the audit log keeps it: in English, whoever acted."""
    with override("en"):
        return str(label)


# What a player may choose when disputing a match; an appeal is filed from its case.
MATCH_CATEGORIES = [choice for choice in DisputeCategory.choices if choice[0] != "appeal"]


class DisputeState(models.TextChoices):
    OPEN = "open", pgettext_lazy("dispute state", "Open")
    IN_REVIEW = "in_review", pgettext_lazy("dispute state", "In review")
    DECIDED = "decided", pgettext_lazy("dispute state", "Decided")


class Decision(models.TextChoices):
    DISMISS = "dismiss", _("Dismissed")
    UPHOLD = "uphold", _("Upheld")
    OVERTURN = "overturn", _("Result overturned")
    VOID = "void", _("Match voided, replay ordered")
    READJUDICATE = "readjudicate", _("Re-adjudicated deeper")
    ADJUST = "adjust", _("Money adjusted")


class Dispute(models.Model):
    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="disputes"
    )
    fairplay_case_id = models.BigIntegerField(
        null=True, blank=True, db_index=True, help_text="The fair-play case, for an appeal."
    )
    appealed = models.JSONField(
        default=dict, blank=True, help_text="For an appeal: the decision as it stood when filed."
    )
    tournament_id = models.BigIntegerField(
        null=True, blank=True, db_index=True, help_text="The match's tournament, for filtering."
    )
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="disputes_filed"
    )
    category = models.CharField(max_length=16, choices=DisputeCategory.choices)
    description = models.TextField(max_length=2000)
    state = models.CharField(max_length=10, choices=DisputeState.choices, default=DisputeState.OPEN)
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="disputes_assigned",
    )
    decision = models.CharField(max_length=16, choices=Decision.choices, blank=True)
    decision_reason = models.TextField(max_length=2000, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    outcome = models.JSONField(
        default=dict, blank=True, help_text="What the decision changed, for the players to read."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "filed_by"],
                condition=~Q(state="decided"),
                name="dispute_one_open_per_player_and_match",
            ),
            models.UniqueConstraint(
                fields=["fairplay_case_id"],
                condition=~Q(state="decided"),
                name="dispute_one_open_appeal_per_case",
            ),
            models.CheckConstraint(
                condition=Q(match__isnull=False, fairplay_case_id__isnull=True)
                | Q(match__isnull=True, fairplay_case_id__isnull=False, category="appeal"),
                name="dispute_about_a_match_or_a_case",
            ),
            models.CheckConstraint(
                condition=Q(state="decided", decided_at__isnull=False, decision__gt="")
                | (~Q(state="decided") & Q(decision="")),
                name="dispute_decided_has_decision",
            ),
        ]
        indexes = [models.Index(fields=["state", "created_at"], name="dispute_queue")]

    def __str__(self) -> str:
        if self.is_appeal:
            return f"appeal #{self.pk} of fair-play case {self.fairplay_case_id}"
        return f"dispute #{self.pk} about match {self.match_id}"

    @property
    def is_decided(self) -> bool:
        return self.state == DisputeState.DECIDED

    @property
    def is_appeal(self) -> bool:
        return self.fairplay_case_id is not None


class AuditAction(models.TextChoices):
    FILED = "filed", pgettext_lazy("dispute audit", "Filed")
    ASSIGNED = "assigned", pgettext_lazy("dispute audit", "Taken")
    DECIDED = "decided", pgettext_lazy("dispute audit", "Decided")


class AuditEntry(models.Model):
    """One action on a dispute, with the state before and after; written once, never changed."""

    dispute = models.ForeignKey(Dispute, on_delete=models.PROTECT, related_name="audit")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=10, choices=AuditAction.choices)
    what = models.CharField(max_length=200)
    reason = models.TextField(max_length=2000, blank=True)
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.get_action_display()} dispute #{self.dispute_id} by {self.actor_id}"
