"""Fair-play cases: what a detector (or a player's report) found, and what staff decided.

Terms:

* *case*: one suspicion about one *subject* (a player), of one *kind*, with the *evidence*
  a detector gathered (its statistics and their window, the matches and the moves, money
  flows, linked accounts, chat). A detector that finds more while the case is undecided
  adds to it (the case's ``key`` names what it is about), so staff see one case, not ten.
* *sanction*: what staff decided against a player: a warning, a mute or a suspension
  until a date, closing the account, reversing dumped money through ledger corrections,
  voiding the rating changes of a manipulated series. Each is applied through the
  services that own the thing it changes, and the player is told.
* *event*: the case's audit log (opened, evidence added, taken, decided, appealed, appeal
  decided); never changed.
* *appeal*: the subject may appeal a sanction once; the appeal is a dispute (category
  ``appeal``, in the disputes queue) and the case is **appealed** until it is decided.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from disputes.models import Dispute
from matches.models import ChatMessage


class CaseKind(models.TextChoices):
    ENGINE = "engine", _("Engine assistance")
    DUMPING = "dumping", _("Chip dumping or rating manipulation")
    ACCOUNTS = "accounts", _("Multiple accounts")
    CONDUCT = "conduct", _("Chat and conduct")
    STALLING = "stalling", _("Disconnection and stalling")


class CaseState(models.TextChoices):
    OPEN = "open", pgettext_lazy("case state", "Open")
    IN_REVIEW = "in_review", pgettext_lazy("case state", "In review")
    DECIDED = "decided", pgettext_lazy("case state", "Decided")
    APPEALED = "appealed", pgettext_lazy("case state", "Appealed")


class Case(models.Model):
    kind = models.CharField(max_length=10, choices=CaseKind.choices)
    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="fairplay_cases"
    )
    others = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="+",
        help_text="The other accounts in it: an opponent, linked accounts, a reporter.",
    )
    key = models.CharField(max_length=120, help_text='What it is about, as "dumping:3:7".')
    summary = models.CharField(max_length=300)
    evidence = models.JSONField(default=dict)
    state = models.CharField(max_length=10, choices=CaseState.choices, default=CaseState.OPEN)
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decision = models.CharField(max_length=16, blank=True)
    decision_reason = models.TextField(max_length=2000, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    appeal = models.TextField(max_length=2000, blank=True)
    appealed_at = models.DateTimeField(null=True, blank=True)
    appeal_dispute = models.OneToOneField(
        Dispute,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The dispute the appeal was filed as; staff decide it in the disputes queue.",
    )
    opened_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-opened_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["key"],
                condition=Q(state__in=["open", "in_review"]),
                name="case_one_undecided_per_key",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["decided", "appealed"], decided_at__isnull=False)
                | Q(state__in=["open", "in_review"]),
                name="case_decided_has_date",
            ),
        ]
        indexes = [models.Index(fields=["state", "opened_at"], name="case_queue")]

    def __str__(self) -> str:
        return f"fair-play case #{self.pk} ({self.kind}) about {self.subject_id}"

    @property
    def is_undecided(self) -> bool:
        return self.state in (CaseState.OPEN, CaseState.IN_REVIEW)

    @property
    def decision_label(self) -> str:
        """The decision as a badge and a sentence say it: "Dismissed", "Sanctioned"."""
        return str(DECISION_LABELS.get(self.decision, self.decision.capitalize()))


DECISION_LABELS = {
    "dismiss": pgettext_lazy("case decision", "Dismissed"),
    "sanction": pgettext_lazy("case decision", "Sanctioned"),
}


class SanctionKind(models.TextChoices):
    WARN = "warn", _("Warning")
    MUTE = "mute", _("Muted")
    SUSPEND = "suspend", _("Suspended")
    CLOSE = "close", _("Account closed")
    REVERSE = "reverse", _("Dumped money reversed")
    VOID_RATINGS = "void_ratings", _("Rating changes voided")
    LINK = "link", _("Accounts linked")
    LIFT = "lift", _("Restrictions lifted")


class Sanction(models.Model):
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="sanctions")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=16, choices=SanctionKind.choices)
    until = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(max_length=2000)
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    outcome = models.JSONField(default=dict, blank=True, help_text="What it changed.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id} (case {self.case_id})"


class CaseEvent(models.Model):
    """One line of a case's audit log; ``actor`` None is a detector."""

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="events")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=16)
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.action} on case {self.case_id}"


class ChatReport(models.Model):
    """A player reported a chat line; it reaches staff in a conduct case with the talk."""

    message = models.ForeignKey(ChatMessage, on_delete=models.PROTECT, related_name="+")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="reports")
    note = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="report_once"),
        ]

    def __str__(self) -> str:
        return f"report of message {self.message_id} by {self.reporter_id}"


class AccountLink(models.Model):
    """Staff found two accounts to be one person's (the ``link`` sanction); ``low`` is the
    account with the lower id, so a pair is stored once."""

    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField(max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="account_link_once"),
            models.CheckConstraint(
                condition=models.Q(low__lt=models.F("high")), name="account_link_ordered"
            ),
        ]
        indexes = [models.Index(fields=["high", "low"], name="account_link_high")]

    def __str__(self) -> str:
        return f"{self.low_id} and {self.high_id} are one person's"
