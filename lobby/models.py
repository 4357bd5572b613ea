"""Notices to players and open seeks.

Terms:

* *notice* (``Notification``): one thing a player is told, live on ``/ws/me/`` and kept for
  the bell and ``/notifications/``: a challenge received or answered, a match ready, their
  turn, a tournament's start, an elimination, a prize, a dispute's decision. Its *key* names
  what it is about (``challenge:12:accepted``), once per player: an event delivered twice
  finds the notice it made the first time. A notice is *read* once the player has seen what
  it points to or said so.
* *seek*: a player's standing offer to play anyone eligible: a match to N points (perhaps
  for a stake) or a money session, with a clock, rated or not, perhaps only for opponents
  rated between two numbers. It is *open* until someone *takes* it (a match starts, the
  seek's creator in seat 0) or it is *cancelled* (by its creator, or because their match
  started elsewhere). A player has at most one open seek.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Currency
from matches.models import Match, MatchKind


class NoticeKind(models.TextChoices):
    CHALLENGE = "challenge", _("Challenge received")
    CHALLENGE_ACCEPTED = "challenge_accepted", _("Challenge accepted")
    CHALLENGE_DECLINED = "challenge_declined", _("Challenge declined")
    CHALLENGE_WITHDRAWN = "challenge_withdrawn", _("Challenge withdrawn")
    SEEK_TAKEN = "seek_taken", _("Seek taken")
    MATCH_READY = "match_ready", _("Match ready")
    TURN = "turn", _("Your turn")
    TOURNAMENT_SOON = "tournament_soon", _("Tournament starting soon")
    TOURNAMENT_STARTED = "tournament_started", _("Tournament started")
    TOURNAMENT_CANCELLED = "tournament_cancelled", _("Tournament cancelled")
    ELIMINATED = "eliminated", _("Out of a tournament")
    WAITING = "waiting", _("Waiting for an opponent")
    PRIZE = "prize", _("Prize")
    DISPUTE_DECIDED = "dispute_decided", _("Dispute decided")
    ANALYSIS = "analysis", _("Analysis ready")
    SANCTION = "sanction", _("Fair-play decision")
    MATCH_OVER = "match_over", _("Match over")
    PRACTICE_VOIDED = "practice_voided", _("Practice match voided")


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=NoticeKind.choices)
    key = models.CharField(max_length=64, help_text="What it is about, once per player.")
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=200, blank=True, help_text="The page it points to.")
    data = models.JSONField(default=dict, blank=True, help_text="Ids and times for the page.")
    # Not auto_now_add: a "your turn" notice is brought back to the top on each new turn.
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    mailed_at = models.DateTimeField(
        null=True, blank=True, help_text="Taken for e-mail (lobby.mail): once per notice."
    )

    class Meta:
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notice_user_recent"),
            models.Index(
                fields=["user", "url"], name="notice_user_unread", condition=Q(read_at__isnull=True)
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notice_once_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.user_id}: {self.text[:40]}"


def _open() -> Q:
    return Q(taken_by__isnull=True, cancelled_at__isnull=True)


class Seek(models.Model):
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=8, choices=MatchKind.choices, default=MatchKind.MATCH)
    length = models.PositiveSmallIntegerField(default=0, help_text="Points; 0 in money play.")
    stake_cents = models.PositiveBigIntegerField(
        default=0, help_text="Each player's stake in a match; the value of a point in money play."
    )
    currency = models.CharField(max_length=4, choices=Currency.choices, default=Currency.FUN)
    clock = models.JSONField(default=dict, help_text="The fields of matches.models.ClockSettings.")
    rated = models.BooleanField(default=True)
    min_rating = models.PositiveIntegerField(null=True, blank=True)
    max_rating = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    taken_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["-created_at"], name="seek_open_recent", condition=_open()),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["creator"], condition=_open(), name="seek_one_open_per_player"
            ),
            models.CheckConstraint(
                condition=Q(kind="money", length=0, stake_cents__gt=0, rated=False)
                | Q(kind="match", length__gte=1, length__lte=64),
                name="seek_terms_fit_kind",
            ),
            models.CheckConstraint(
                condition=Q(taken_by__isnull=True, match__isnull=True, taken_at__isnull=True)
                | Q(
                    taken_by__isnull=False,
                    match__isnull=False,
                    taken_at__isnull=False,
                    cancelled_at__isnull=True,
                ),
                name="seek_taken_with_a_match",
            ),
            models.CheckConstraint(
                condition=Q(min_rating__isnull=True)
                | Q(max_rating__isnull=True)
                | Q(min_rating__lte=models.F("max_rating")),
                name="seek_rating_range_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"seek #{self.pk} by {self.creator_id}"

    @property
    def is_open(self) -> bool:
        return self.taken_by_id is None and self.cancelled_at is None
