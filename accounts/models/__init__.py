"""Users and player profiles, wallets and the ledger, and rating history.

A *profile* holds what backgammon players know each other by: the display name,
country, FIBS-style rating (everyone starts at 1500.0) and experience (the sum of
the lengths of the rated matches played), plus the board preferences every match
page follows.

Money lives in a double-entry *ledger*, in integer cents per *currency* (FUN is play
money, REAL is real money). Every movement is a *ledger transaction* made of *entries*
on *ledger accounts* whose amounts sum to zero per currency. Accounts belong to a
player, to the *house* (which collects commission and fees), to an *escrow* (holding
the stakes of one match or the buy-ins of one tournament, named by a reference such as
"match:12") or to the *external* world (money coming in or going out). Only
``accounts.ledger`` writes these rows.
"""

from __future__ import annotations

from typing import Any, ClassVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as AuthUserManager
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from accounts.models.ledger import (
    KINDS_WITH_BALANCE,
    MAX_AMOUNT_CENTS,
    AccountKind,
    AdjustmentApproval,
    AdjustmentDirection,
    ApprovalState,
    Currency,
    LedgerAccount,
    LedgerEntry,
    LedgerTransaction,
    TransactionKind,
    WalletAdjustment,
)
from accounts.names import SKELETON_LENGTH, name_skeleton, validate_username
from accounts.ratings import STARTING_RATING
from accounts.roles import role_of

__all__ = [
    "KINDS_WITH_BALANCE",
    "MAX_AMOUNT_CENTS",
    "STARTING_RATING",
    "AccountKind",
    "AdjustmentApproval",
    "AdjustmentDirection",
    "ApprovalState",
    "Currency",
    "LedgerAccount",
    "LedgerEntry",
    "LedgerTransaction",
    "TransactionKind",
    "WalletAdjustment",
]


class UserManager(AuthUserManager["User"]):
    """Every user made through ``create_user`` or ``create_superuser`` has a profile: sign-up
    (``accounts.services.user_create``), an operator's ``createsuperuser``, a script. Pages,
    notices and the fair-play detectors read a player's profile and would fail without one.

    ``profile`` holds the profile's fields; the display name is the username unless given.
    """

    @transaction.atomic
    def _create_user(
        self, username: str, email: str | None, password: str | None, **extra_fields: Any
    ) -> User:
        profile: dict[str, Any] = extra_fields.pop("profile", None) or {}
        extra_fields.setdefault("username_skeleton", name_skeleton(username))
        user: User = super()._create_user(  # type: ignore[misc]
            username, email, password, **extra_fields
        )
        display_name = profile.pop("display_name", None) or user.username
        Profile.objects.create(
            user=user,
            display_name=display_name,
            display_name_skeleton=name_skeleton(display_name),
            **profile,
        )
        return user

    async def _acreate_user(
        self, username: str, email: str | None, password: str | None, **extra_fields: Any
    ) -> User:
        return await sync_to_async(self._create_user)(username, email, password, **extra_fields)


class User(AbstractUser):
    """Crawford's own user model, so accounts can grow without a painful swap later."""

    objects: ClassVar[UserManager] = UserManager()

    # Django's own field, with a validator that keeps a username to one script.
    username = models.CharField(
        _("username"),
        max_length=150,
        unique=True,
        help_text=_("150 characters at most: letters of one script, digits and _ - . only."),
        validators=[validate_username],
        error_messages={"unique": _("A user with that username already exists.")},
    )
    username_skeleton = models.CharField(
        max_length=SKELETON_LENGTH,
        db_index=True,
        editable=False,
        default="",
        help_text="What the username looks like (accounts.names.name_skeleton).",
    )
    email_verified = models.BooleanField(
        default=False,
        help_text="The player followed a link mailed to this address (accounts.mail).",
    )

    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]
        swappable = "AUTH_USER_MODEL"

    @property
    def role(self) -> str:
        """The highest role held: "staff", "organizer", "player" or "guest"."""
        return role_of(self).value


class CheckerColour(models.TextChoices):
    WHITE = "white", _("White")
    BLACK = "black", _("Black")
    RED = "red", _("Red")
    BLUE = "blue", _("Blue")


# A demo player's strength (``analysis.engine.Strength``'s values), as its line says it.
BOT_STRENGTHS = {
    "beginner": _("beginner"),
    "casual": _("casual"),
    "intermediate": _("intermediate"),
    "advanced": _("advanced"),
    "world_class": _("world class"),
}


class MadeBy(models.TextChoices):
    """Who made an account: its player, the demo loader (``load_demo``) or staff."""

    SIGNUP = "signup", "Signed up"
    DEMO = "demo", "Demo loader"
    STAFF = "staff", "Staff"


class Profile(models.Model):
    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=40)
    display_name_skeleton = models.CharField(
        max_length=SKELETON_LENGTH,
        db_index=True,
        editable=False,
        default="",
        help_text="What the display name looks like (accounts.names.name_skeleton).",
    )
    country = CountryField(blank=True)
    rating = models.FloatField(default=STARTING_RATING)
    experience = models.PositiveIntegerField(
        default=0, help_text="Sum of the lengths of the rated matches played."
    )
    checker_colour = models.CharField(
        max_length=8, choices=CheckerColour.choices, default=CheckerColour.WHITE
    )
    highlight_legal_moves = models.BooleanField(
        default=True, help_text=_("Show where a checker may go when you pick it up.")
    )
    automatic_forced_moves = models.BooleanField(
        default=False, help_text=_("Play a move for me when it is the only legal one.")
    )
    use_doubling_cube = models.BooleanField(
        default=True, help_text=_("Play with the doubling cube in money sessions I start.")
    )
    notification_sound = models.BooleanField(
        default=True,
        help_text=_("Play a sound when a match waits for me on a board I do not have open."),
    )
    made_by = models.CharField(
        max_length=8,
        choices=MadeBy.choices,
        default=MadeBy.SIGNUP,
        help_text=_("Accounts the demo loader or staff made share devices by design."),
    )
    bot_strength = models.CharField(
        max_length=12,
        blank=True,
        default="",
        help_text=_(
            "A demo player the computer plays, at this strength "
            "(analysis.engine.Strength's value); empty for a person."
        ),
    )
    # Notices that also come by e-mail, to a verified address (accounts.mail.MailKind).
    mail_tournament_soon = models.BooleanField(
        default=True, help_text="E-mail me 10 minutes before a tournament I entered starts."
    )
    mail_challenge_away = models.BooleanField(
        default=True, help_text="E-mail me a challenge that comes while I am away from the site."
    )
    mail_dispute_decided = models.BooleanField(
        default=True, help_text="E-mail me the decision on a dispute about my match."
    )
    seen_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When the player last opened a page of the site (to a minute).",
    )
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_(
            "The language the site writes to me in: notices and e-mails, and the pages"
            " until I choose another."
        ),
    )

    class Meta:
        permissions = [
            ("play_games", "Can play matches and enter tournaments"),
            ("organize_tournaments", "Can create and run tournaments"),
            ("handle_disputes", "Can handle disputes"),
            ("adjust_wallets", "Can see any wallet and adjust it"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rating__gte=0), name="profile_rating_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def computer_played(self) -> str:
        """What a demo player the computer plays is, in words, in the reader's language
        ("Computer-played demo player, intermediate"); empty for a person."""
        if not self.bot_strength:
            return ""
        strength = BOT_STRENGTHS.get(self.bot_strength, self.bot_strength.replace("_", " "))
        return gettext("Computer-played demo player, %(strength)s") % {"strength": strength}


class RatingChange(models.Model):
    """One player's rating before and after one rated match."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    # A plain integer until the matches app links it; None for results recorded by hand.
    match_id = models.BigIntegerField(null=True, blank=True)
    match_length = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    experience_after = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now, help_text="When the match ended.")
    voided_at = models.DateTimeField(
        null=True, blank=True, help_text="Staff undid it (a manipulated series, say)."
    )

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "match_id"], name="rating_change_once_per_player_and_match"
            ),
        ]
        indexes = [models.Index(fields=["user", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rating_before:.1f} -> {self.rating_after:.1f}"

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


class PerformanceRecord(models.Model):
    """One player's play in one analysed match, as GNU Backgammon rated it.

    ``error`` is the EMG the player gave up over ``decisions`` (unforced moves and close
    cube decisions), so a run of matches has PR ``500 * sum(error) / sum(decisions)``.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="performances"
    )
    # A plain integer, as for RatingChange: accounts sits below the matches app.
    match_id = models.BigIntegerField()
    opponent_name = models.CharField(max_length=150)
    decisions = models.PositiveIntegerField()
    error = models.FloatField(help_text="EMG given up over the decisions.")
    pr = models.FloatField(null=True, blank=True)
    luck = models.FloatField(help_text="EMG the dice gave over the match.")
    analysed_at = models.DateTimeField(default=timezone.now)
    played_at = models.DateTimeField(help_text="When the match ended.")

    class Meta:
        ordering = ["played_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "match_id"], name="performance_once_per_player_and_match"
            ),
        ]
        indexes = [models.Index(fields=["user", "played_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} in match {self.match_id}: PR {self.pr}"


class Standing(models.Model):
    """What a player may do, as fair-play sanctions and the player's own choices left it.

    No row means nothing is restricted. A date in the past restricts nothing; a closed
    account stays closed. Only ``accounts.standing`` writes these rows, and the checks
    every service makes before play, seeking, registration, chat or a withdrawal read them.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="standing"
    )
    muted_until = models.DateTimeField(null=True, blank=True, help_text="No chat until then.")
    suspended_until = models.DateTimeField(
        null=True, blank=True, help_text="No play, registration or withdrawal until then."
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    cooldown_until = models.DateTimeField(
        null=True, blank=True, help_text="No seeks or tournament registration until then."
    )
    self_excluded_until = models.DateTimeField(
        null=True, blank=True, help_text="The player barred their own real-money play until then."
    )
    reason = models.CharField(max_length=500, blank=True, help_text="Told to the player.")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"standing of {self.user_id}"


class BlockKind(models.TextChoices):
    MUTE = "mute", "Muted"
    BLOCK = "block", "Blocked"


class Block(models.Model):
    """``owner`` muted ``other`` (hears nothing from them) or blocked them (also no
    challenges, seeks or chat either way)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=BlockKind.choices)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "other"], name="block_once_per_pair"),
            models.CheckConstraint(
                condition=~models.Q(owner=models.F("other")), name="block_other"
            ),
        ]
        indexes = [models.Index(fields=["other", "owner"], name="block_other_owner")]

    def __str__(self) -> str:
        return f"{self.owner_id} {self.kind}s {self.other_id}"


class SightingKind(models.TextChoices):
    ADDRESS = "address", "Network address"
    DEVICE = "device", "Device cookie"


class Sighting(models.Model):
    """A salted digest of an address or device cookie an account signed up or logged in from.

    The address itself is never stored, only ``HMAC(secret, address)``; rows unseen for
    ``CRAWFORD_SIGHTING_DAYS`` are deleted by a daily sweep.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sightings"
    )
    kind = models.CharField(max_length=8, choices=SightingKind.choices)
    digest = models.CharField(max_length=64)
    country = models.CharField(
        max_length=2, blank=True, help_text="The address's country, when a GeoIP file is set."
    )
    first_seen = models.DateTimeField(default=timezone.now)
    last_seen = models.DateTimeField(default=timezone.now)
    times = models.PositiveIntegerField(default=1)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "digest"], name="sighting_once"),
        ]
        indexes = [
            models.Index(fields=["kind", "digest"], name="sighting_digest"),
            models.Index(fields=["last_seen"], name="sighting_last_seen"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.digest[:8]} of {self.user_id}"


# Registered with the other models of the app; the engine behind SESSION_ENGINE.
from accounts.sessions import Session  # noqa: E402, F401
