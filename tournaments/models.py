"""Tournaments, their entries, the bracket's pairings and satellite tickets.

Terms (the formats' own terms are defined in ``tournaments.formats``):

* *state*: a tournament is a **draft** (only its organizer sees it), open for
  **registration**, **running**, **finished** or **cancelled**.
* *entry*: a player's seat, paid with the buy-in and the fee (or with a ticket). A
  withdrawn entry has been refunded and holds no seat; the entrant of the formats is
  the entry's user, so user ids travel through the draw.
* *escrow*: every buy-in goes to the ledger escrow ``tournament:<id>``; the prize pool is
  what it holds when play starts.
* *pairing*: one slot of the bracket, found by flight, round and position. Each side holds
  a player, a bye, or nothing yet; its *source* (``top_source``, ``bottom_source``) says
  where the player comes from, as the format laid it out: ``winner:<flight>:<round>:<pos>``
  or ``loser:...`` of another pairing, empty for a side drawn at the start. ``match_id``
  names the match played for it, ``winner`` is set when it is decided.
* *late*: a pairing whose match was not finished by the round's deadline.
* *ticket*: a satellite prize, a seat in the target tournament that its holder takes
  without paying the target's buy-in.
* *event*: a main tournament (no ``parent``) with the tournaments played beside it, each a
  row of its own with its own draw, prizes and format whose ``parent`` is the main one
  (``tournaments.divisions``). Its *side* says what it is: a **division** (a flight of the
  event for part of the field, named in ``division``: Championship, Intermediate, Novice),
  a **jackpot** (a small knockout at a higher buy-in, all of the pool to the winner or the
  top two) or a **blitz** (short matches on a fast clock). The main tournament may name
  its own division too.
* *entry limits*: who may take a seat, by rating (``min_rating``, ``max_rating``) or by
  the rated matches played so far (``max_rated_matches``, for novices); checked when the
  seat is taken.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import Currency

SHOW_UP_SECONDS = 300
"""How long a tournament's player has to reach the board, unless the organizer says."""


class TournamentFormat(models.TextChoices):
    KNOCKOUT = "knockout", _("Knockout")
    SIT_AND_GO = "sit_and_go", _("Sit & Go")
    SATELLITE = "satellite", _("Satellite")
    DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
    TRIPLE_ELIMINATION = "triple_elimination", _("Triple elimination")
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("Round robin")
    SWING = "swing", _("Swing")


# The formats whose main flight is a bracket of single or double losses, which a
# consolation can run beside (a triple elimination's players have had chances enough).
BRACKET_FORMATS = (TournamentFormat.KNOCKOUT, TournamentFormat.DOUBLE_ELIMINATION)


class SideKind(models.TextChoices):
    """What a tournament played beside a main event is (``tournaments.divisions``)."""

    DIVISION = "division", _("Division")
    JACKPOT = "jackpot", _("Jackpot")
    BLITZ = "blitz", _("Blitz")


class TournamentState(models.TextChoices):
    DRAFT = "draft", _("Draft")
    REGISTRATION = "registration", _("Registration open")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class Seeding(models.TextChoices):
    RATING = "rating", _("By rating")
    RANDOM = "random", _("Random draw")


class LastChanceEntry(models.TextChoices):
    """How players enter a last chance (``tournaments.formats.last_chance``)."""

    PROGRESSIVE = "progressive", _("Round by round, as they are knocked out")
    FRESH = "fresh", _("A fresh draw once all of them are known")


class TournamentAbandonPolicy(models.TextChoices):
    ENGINE = "engine", _("Adjudicate with the engine")
    FORFEIT = "forfeit", _("The absent player forfeits")


class Tournament(models.Model):
    name = models.CharField(max_length=120)
    format = models.CharField(max_length=20, choices=TournamentFormat.choices)
    state = models.CharField(
        max_length=12, choices=TournamentState.choices, default=TournamentState.DRAFT
    )
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    seats = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Sit & Go only.")
    max_entrants = models.PositiveIntegerField(null=True, blank=True)
    buy_in_cents = models.PositiveBigIntegerField(default=0)
    fee_cents = models.PositiveBigIntegerField(default=0)
    currency = models.CharField(max_length=4, choices=Currency.choices, default=Currency.FUN)
    seeding = models.CharField(max_length=8, choices=Seeding.choices, default=Seeding.RATING)
    round_lengths = models.JSONField(
        default=list, help_text="Points per round, first round to final."
    )
    clock = models.JSONField(
        default=dict, help_text="kind, move_seconds, reserve_seconds, delay_seconds."
    )
    flight_lengths = models.JSONField(
        default=dict,
        help_text="Double or triple elimination: points per round of the losers' flights and "
        'the finals ({"losers": [...], "second_losers": [...], "final": [...]}); '
        "round_lengths are the main flight's.",
    )
    flight_clocks = models.JSONField(
        default=dict,
        help_text="Time controls by flight (the main one too), each as ``clock``: one for all "
        "the flight's rounds, or a list with one beside each of its match lengths; a flight "
        "without any plays on ``clock``.",
    )
    prize_table = models.JSONField(
        default=dict,
        help_text="Prize shares per flight in basis points of the pool, best place first "
        '({"main": [...], "consolation": [...]}, adding up to 10,000); empty: the published '
        "default table for the main places.",
    )
    grand_final_reset = models.BooleanField(
        default=True,
        help_text="Double elimination: a second final when the losers' flight winner wins the "
        "first. Triple elimination: each final is played again until a finalist has lost "
        "three times.",
    )
    rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Swiss: its rounds. Round robin: play only the first this many rounds of the "
        "table (a truncated round robin); none: the whole table.",
    )
    top_cut = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss: the best this many play a knockout after it."
    )
    consolation_through_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Knockout or double elimination: the consolation takes those knocked out in "
        "the main rounds up to this one (from 0); none: no consolation.",
    )
    last_chance_reenters_at = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Knockout: a last chance whose winner re-enters the main flight in the round "
        "of this many players; double elimination: it takes those knocked out while more than "
        "this many are left in the losers' flight; none: no last chance.",
    )
    last_chance_entry = models.CharField(
        max_length=12,
        choices=LastChanceEntry.choices,
        default=LastChanceEntry.PROGRESSIVE,
        help_text="How players enter the last chance: round by round, or a fresh draw.",
    )
    group_size = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Round robin: players per group (none: one table)."
    )
    advance_per_group = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Round robin: the best of each group play a knockout."
    )
    ties_shared = models.BooleanField(
        default=False,
        help_text="Truncated round robin: the organizer let the ties for paid places stand "
        "instead of scheduling tie-break matches; the tied players share those places.",
    )
    # Swing (``tournaments.swing``): chips, the CPP schedule and the game's house rules.
    starting_chips = models.PositiveBigIntegerField(null=True, blank=True)
    cpp_levels = models.JSONField(default=list, blank=True, help_text="Swing: the CPP levels.")
    cpp_step = models.PositiveIntegerField(
        default=0, help_text="Swing: each level after the listed ones is this much higher."
    )
    cpp_raise = models.CharField(
        max_length=8,
        blank=True,
        help_text="Swing: the CPP rises after each game, every "
        "cpp_raise_minutes, or at each knockout.",
    )
    cpp_raise_minutes = models.PositiveIntegerField(null=True, blank=True)
    jacoby = models.BooleanField(default=False, help_text="Swing: the Jacoby rule.")
    beavers = models.BooleanField(default=False, help_text="Swing: beavers.")
    swing_match_length = models.PositiveSmallIntegerField(
        default=0, help_text="Match swing: each pairing plays a match to this; 0, one game."
    )
    abandon_policy = models.CharField(
        max_length=8,
        choices=TournamentAbandonPolicy.choices,
        default=TournamentAbandonPolicy.ENGINE,
    )
    show_up_seconds = models.PositiveIntegerField(
        default=SHOW_UP_SECONDS,
        help_text="A player not at the board this long after their match starts forfeits.",
    )
    round_minutes = models.PositiveIntegerField(
        null=True, blank=True, help_text="Each match must end this long after it starts."
    )
    starts_at = models.DateTimeField(null=True, blank=True)
    check_in_minutes = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Entrants confirm in the minutes before starts_at; the others are refunded.",
    )
    target = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="satellites",
        help_text="Satellite only: the tournament whose seats are the prizes.",
    )
    # Divisions and side events, and who may enter (``tournaments.divisions``).
    parent = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="side_events",
        help_text="The main event a division or side event is played beside.",
    )
    side = models.CharField(
        max_length=8,
        choices=SideKind.choices,
        blank=True,
        help_text="Beside a main event: a division, a jackpot or a blitz; empty for a main one.",
    )
    division = models.CharField(
        max_length=40, blank=True, help_text="The division's name: Championship, Novice, ..."
    )
    min_rating = models.PositiveIntegerField(null=True, blank=True)
    max_rating = models.PositiveIntegerField(null=True, blank=True)
    max_rated_matches = models.PositiveIntegerField(
        null=True, blank=True, help_text="Only players with at most this many rated matches."
    )
    draw_seed = models.BigIntegerField(default=0, help_text="Seeds the random draw at the start.")
    prize_pool_cents = models.PositiveBigIntegerField(
        default=0, help_text="The escrow when play started."
    )
    champion = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    opened_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["state", "-created_at"], name="tournament_state_recent")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(format="sit_and_go") | Q(seats__gte=2, seats__lte=64),
                name="tournament_sit_and_go_has_seats",
            ),
            models.CheckConstraint(
                condition=~Q(format="satellite") | Q(target__isnull=False),
                name="tournament_satellite_has_target",
            ),
            models.CheckConstraint(
                condition=Q(parent__isnull=True, side="") | (Q(parent__isnull=False) & ~Q(side="")),
                name="tournament_side_event_has_parent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    @property
    def escrow_ref(self) -> str:
        return f"tournament:{self.pk}"

    @property
    def capacity(self) -> int | None:
        """The most players who can hold a seat, or None without a limit."""
        return self.seats if self.starts_when_full else self.max_entrants

    @property
    def starts_when_full(self) -> bool:
        """A Sit & Go, or a swing with seats: it starts when the last seat is taken."""
        return self.format == TournamentFormat.SIT_AND_GO or (
            self.format == TournamentFormat.SWING and self.seats is not None
        )

    @property
    def is_open(self) -> bool:
        return self.state == TournamentState.REGISTRATION


class EntryStatus(models.TextChoices):
    REGISTERED = "registered", "Registered"
    WITHDRAWN = "withdrawn", "Withdrawn and refunded"


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(
        max_length=10, choices=EntryStatus.choices, default=EntryStatus.REGISTERED
    )
    seed = models.PositiveIntegerField(null=True, blank=True, help_text="Set by the organizer.")
    drawn_seed = models.PositiveIntegerField(
        null=True, blank=True, help_text="The seed the draw gave: 1 is the strongest."
    )
    paid_cents = models.PositiveBigIntegerField(default=0, help_text="The buy-in paid in.")
    fee_cents = models.PositiveBigIntegerField(default=0)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)
    shared_to = models.PositiveIntegerField(null=True, blank=True)
    prize_cents = models.PositiveBigIntegerField(default=0)
    won_ticket = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=Q(status="registered"),
                name="entry_one_seat_per_player",
            ),
        ]
        indexes = [models.Index(fields=["user", "-created_at"], name="entry_user_recent")]

    def __str__(self) -> str:
        return f"entry {self.pk} of user {self.user_id} in tournament {self.tournament_id}"


class Pairing(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    flight = models.CharField(max_length=16, default="main")
    round = models.PositiveSmallIntegerField()
    position = models.PositiveIntegerField()
    top = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    top_bye = models.BooleanField(default=False)
    bottom = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    bottom_bye = models.BooleanField(default=False)
    top_source = models.CharField(
        max_length=40, blank=True, help_text="The pairing whose winner or loser takes the top."
    )
    bottom_source = models.CharField(max_length=40, blank=True)
    match_length = models.PositiveSmallIntegerField()
    match_id = models.BigIntegerField(null=True, blank=True, unique=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    late = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "flight", "round", "position"], name="pairing_one_per_slot"
            ),
            models.CheckConstraint(
                condition=~Q(top_bye=True, bottom_bye=True), name="pairing_not_two_byes"
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "top_source"], name="pairing_top_source"),
            models.Index(fields=["tournament", "bottom_source"], name="pairing_bottom_source"),
            models.Index(
                fields=["deadline"],
                name="pairing_deadline_due",
                condition=Q(deadline__isnull=False, late=False, winner__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return (
            f"tournament {self.tournament_id} {self.flight} round {self.round} "
            f"position {self.position}"
        )


class Ticket(models.Model):
    satellite = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tickets")
    target = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="+")
    holder = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    value_cents = models.PositiveBigIntegerField()
    currency = models.CharField(max_length=4, choices=Currency.choices)
    entry = models.OneToOneField(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ticket",
        help_text="The seat in the target tournament it paid for, once used.",
    )
    issued_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["satellite", "holder"], name="ticket_one_per_player_per_satellite"
            ),
        ]

    def __str__(self) -> str:
        return f"ticket to tournament {self.target_id} for user {self.holder_id}"


class SwingSeat(models.Model):
    """A player's chips in a swing tournament and where they are: in a game, waiting for
    one (``free_since``), or out (``out_at``, their place in their entry)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="swing")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    chips = models.PositiveBigIntegerField()
    games = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    free_since = models.DateTimeField(null=True, blank=True, help_text="None while playing.")
    last_opponent_id = models.BigIntegerField(null=True, blank=True)
    current_match_id = models.BigIntegerField(null=True, blank=True)
    out_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="swing_seat_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} holding {self.chips} in tournament {self.tournament_id}"


class SwingGame(models.Model):
    """One game (a match, in match swing) of a swing tournament, its terms and, once
    settled, the chips it moved and each player's chips after it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    match_id = models.BigIntegerField(unique=True)
    player_0 = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    player_1 = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    level = models.PositiveIntegerField()
    cpp = models.PositiveIntegerField()
    stake = models.PositiveBigIntegerField()
    all_in = models.BooleanField(default=False)
    started_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    chips_to_0 = models.BigIntegerField(default=0, help_text="Signed: what player 0 won.")
    chips_after_0 = models.PositiveBigIntegerField(null=True, blank=True)
    chips_after_1 = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["tournament", "settled_at"], name="swing_game_settled")]

    def __str__(self) -> str:
        return f"swing game of match {self.match_id}"
