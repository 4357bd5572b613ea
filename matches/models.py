"""Matches, their games and the append-only action log.

Terms:

* *match*: a contest to ``length`` points (``kind`` "match") or a *money session* of
  single games for ``stake_cents`` a point (``kind`` "money"). Seat 0 is the challenger,
  seat 1 the opponent; "player 0/1" always means the seat.
* *game*: one game of backgammon inside a match, with its cube and result.
* *action*: one entry of the match's log (a roll, a play, a double, a take, ...). The log
  is only ever appended to: every action keeps the GNUBG ID (``PositionID:MatchID``)
  before and after it, the dice and both clocks, so the match can be replayed, audited
  and disputed. A database trigger refuses updates and deletes on PostgreSQL.
* *exposure*: the most a player can lose in one money game, 3 (a backgammon) times the
  maximum cube times the stake; it is escrowed at the start of each money game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_noop

from accounts.models import Currency, User


class MatchKind(models.TextChoices):
    MATCH = "match", "Match to N points"
    MONEY = "money", "Money session"


class MatchStatus(models.TextChoices):
    # Labels marked for translation and said in the reader's language where shown
    # (``gettext(match.get_status_display())``); kept plain here for the typed choices.
    INVITED = "invited", gettext_noop("Invited")
    DECLINED = "declined", gettext_noop("Declined")
    CANCELLED = "cancelled", gettext_noop("Cancelled")
    ABORTED = "aborted", gettext_noop("Aborted: nobody started it")
    PLAYING = "playing", gettext_noop("Playing")
    SUSPENDED = "suspended", gettext_noop("Suspended")
    FINISHED = "finished", gettext_noop("Finished")


class ClockKind(models.TextChoices):
    NONE = "none", gettext_noop("No clock")
    MOVE = "move", gettext_noop("Move timer with a reserve")
    DELAY = "delay", gettext_noop("Match clock with a delay per move")
    CORRESPONDENCE = "days", gettext_noop("Correspondence: days per move")


class TimeoutLoses(models.TextChoices):
    MATCH = "match", gettext_noop("The match")
    GAME = "game", gettext_noop("The game")


@dataclass(frozen=True)
class ClockSettings:
    """A time control (``matches.clock`` explains each kind): a move timer with a reserve
    for the whole match, a delay per move with a reserve per point, or correspondence;
    ``timeout_loses`` says what running out costs."""

    kind: str = ClockKind.DELAY
    move_seconds: int = 12
    reserve_seconds: int = 120
    delay_seconds: int = 12
    timeout_loses: str = TimeoutLoses.MATCH

    @classmethod
    def from_json(cls, stored: Mapping[str, Any] | None) -> ClockSettings:
        """The settings stored as JSON (a tournament's or a seek's), the standard clock's
        values for fields it does not name."""
        return cls(**{**asdict(cls()), **(stored or {})})


# The standard time control (``matches.clock.CLOCK_PRESETS``), live tournament play's: twelve
# seconds of each move free, then two minutes per point of the match (14 in a 7-point match).
DEFAULT_CLOCK = ClockSettings()


class AbandonPolicy(models.TextChoices):
    SUSPEND = "suspend", "Suspend for staff"
    ENGINE = "engine", "Adjudicate with the engine"
    FORFEIT = "forfeit", "The absent player forfeits"


class FinishReason(models.TextChoices):
    PLAYED = "played", gettext_noop("Played out")
    RESIGNED = "resigned", gettext_noop("Resigned")
    TIMEOUT = "timeout", gettext_noop("Time ran out")
    FORFEIT = "forfeit", gettext_noop("Forfeit")
    ADJUDICATED = "adjudicated", gettext_noop("Adjudicated by the engine")
    SESSION_ENDED = "session_ended", gettext_noop("Session ended")
    MATCH_CUBE_DROPPED = "match_dropped", gettext_noop("Match cube dropped")


class Match(models.Model):
    kind = models.CharField(max_length=8, choices=MatchKind.choices, default=MatchKind.MATCH)
    length = models.PositiveSmallIntegerField(
        default=0, help_text="Points to win; 0 in money play."
    )
    player_0 = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    player_1 = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    pass_and_play = models.BooleanField(
        default=False, help_text="Both seats played by one person at one screen."
    )
    status = models.CharField(
        max_length=10, choices=MatchStatus.choices, default=MatchStatus.INVITED
    )
    currency = models.CharField(max_length=4, choices=Currency.choices, default=Currency.FUN)
    stake_cents = models.PositiveBigIntegerField(
        default=0, help_text="Each player's stake in a match; the value of a point in money play."
    )
    jacoby = models.BooleanField(default=False)
    beavers = models.BooleanField(default=False)
    raccoons = models.BooleanField(
        default=False, help_text="A beavered player may redouble at once (money play, beavers)."
    )
    automatic_doubles = models.PositiveSmallIntegerField(
        default=0, help_text="How many times equal opening dice double the cube (money play)."
    )
    max_cube = models.PositiveIntegerField(default=0, help_text="0 means no limit.")
    # Swing tournaments (tournaments.swing): a game's chips per point, its cap (the most
    # either player can win from the other), the all-in flag; match swing's match cube.
    crawford_rule = models.BooleanField(default=True)
    game_limit = models.PositiveSmallIntegerField(default=0, help_text="Money play; 0, no limit.")
    chips_per_point = models.PositiveIntegerField(null=True, blank=True)
    chip_stake = models.PositiveBigIntegerField(null=True, blank=True)
    all_in = models.BooleanField(default=False)
    match_cube = models.PositiveIntegerField(default=0, help_text="0: no match cube.")
    match_cube_owner = models.SmallIntegerField(null=True, blank=True)
    match_cube_offered_by = models.SmallIntegerField(null=True, blank=True)
    max_match_cube = models.PositiveIntegerField(default=0, help_text="0 means no limit.")
    rated = models.BooleanField(default=True)
    private = models.BooleanField(default=False)

    clock = models.CharField(max_length=8, choices=ClockKind.choices, default=DEFAULT_CLOCK.kind)
    move_seconds = models.PositiveIntegerField(default=DEFAULT_CLOCK.move_seconds)
    reserve_seconds = models.PositiveIntegerField(
        default=DEFAULT_CLOCK.reserve_seconds, help_text="Per point of a match, or per game."
    )
    delay_seconds = models.PositiveIntegerField(default=DEFAULT_CLOCK.delay_seconds)
    timeout_loses = models.CharField(
        max_length=8, choices=TimeoutLoses.choices, default=DEFAULT_CLOCK.timeout_loses
    )
    reconnect_grace_seconds = models.PositiveIntegerField(default=180)
    abandon_policy = models.CharField(
        max_length=8,
        choices=AbandonPolicy.choices,
        default=AbandonPolicy.ENGINE,
        help_text="What happens when a player's reconnection grace runs out.",
    )

    tournament_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    engine_strength = models.CharField(
        max_length=16, blank=True, help_text="Practice: the computer plays seat 1 at this strength."
    )

    score_0 = models.PositiveSmallIntegerField(default=0)
    score_1 = models.PositiveSmallIntegerField(default=0)
    crawford_played = models.BooleanField(default=False)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    finish_reason = models.CharField(max_length=16, choices=FinishReason.choices, blank=True)

    dice_seed = models.CharField(max_length=64, help_text="Secret until the match ends.")
    dice_commitment = models.CharField(max_length=64)

    reserve_ms_0 = models.BigIntegerField(
        default=0, help_text="Player 0's reserve (global) time left."
    )
    reserve_ms_1 = models.BigIntegerField(default=0)
    turn_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player to act was asked to."
    )
    grace_ends_0 = models.DateTimeField(null=True, blank=True)
    grace_ends_1 = models.DateTimeField(null=True, blank=True)
    seen_0 = models.BooleanField(default=False, help_text="Player 0 has connected or acted.")
    seen_1 = models.BooleanField(default=False)
    show_up_by = models.DateTimeField(
        null=True, blank=True, help_text="A player not seen by then forfeits (tournament play)."
    )
    last_seq = models.PositiveIntegerField(
        default=0, help_text="Sequence number of the newest action."
    )
    last_client_seq_0 = models.PositiveIntegerField(
        default=0, help_text="The highest seq player 0's client has used."
    )
    last_client_seq_1 = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player to act runs out of time, or their grace ends.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        indexes = [
            models.Index(
                fields=["deadline"], name="match_deadline_due", condition=Q(deadline__isnull=False)
            ),
            models.Index(fields=["status", "-created_at"], name="match_status_recent"),
            models.Index(fields=["finished_at"], name="match_finished"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="money", length=0)
                | Q(kind="match", length__gte=1, length__lte=64),
                name="match_length_fits_kind",
            ),
            models.CheckConstraint(
                condition=Q(winner_seat__in=[0, 1]) | Q(winner_seat__isnull=True),
                name="match_winner_is_a_seat",
            ),
        ]

    def __str__(self) -> str:
        what = f"{self.length}-point match" if self.kind == MatchKind.MATCH else "money session"
        what = "swing game" if self.chips_per_point and self.game_limit else what
        return f"{what} #{self.pk}"

    @property
    def is_money(self) -> bool:
        return self.kind == MatchKind.MONEY

    def seat_of(self, user: User | None) -> int | None:
        """The seat of ``user`` (0 or 1), or None for someone not playing."""
        user_id = user.pk if user is not None else None
        if user_id is None:
            return None
        return next((seat for seat in (0, 1) if self.player_id(seat) == user_id), None)

    def player(self, seat: int) -> User:
        return self.player_0 if seat == 0 else self.player_1

    def player_id(self, seat: int) -> int:
        return self.player_0_id if seat == 0 else self.player_1_id

    # Per-seat columns, read and written by seat number.

    def reserve_ms(self, seat: int) -> int:
        return self.reserve_ms_0 if seat == 0 else self.reserve_ms_1

    def set_reserve_ms(self, seat: int, value: int) -> None:
        if seat == 0:
            self.reserve_ms_0 = value
        else:
            self.reserve_ms_1 = value

    def grace_ends(self, seat: int) -> datetime | None:
        return self.grace_ends_0 if seat == 0 else self.grace_ends_1

    def set_grace_ends(self, seat: int, value: datetime | None) -> None:
        if seat == 0:
            self.grace_ends_0 = value
        else:
            self.grace_ends_1 = value

    def last_client_seq(self, seat: int) -> int:
        return self.last_client_seq_0 if seat == 0 else self.last_client_seq_1

    def set_last_client_seq(self, seat: int, value: int) -> None:
        if seat == 0:
            self.last_client_seq_0 = value
        else:
            self.last_client_seq_1 = value

    def seen(self, seat: int) -> bool:
        return self.seen_0 if seat == 0 else self.seen_1

    def mark_seen(self, seat: int) -> None:
        if seat == 0:
            self.seen_0 = True
        else:
            self.seen_1 = True


CENTRED = -1


class GamePhase(models.TextChoices):
    ROLL = "roll", "To roll or double"
    MOVE = "move", "To play the roll"
    DOUBLED = "doubled", "To answer a double"
    RESIGNATION = "resignation", "To answer a resignation"
    OVER = "over", "Over"


class Game(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    crawford = models.BooleanField(default=False)
    phase = models.CharField(max_length=12, choices=GamePhase.choices, default=GamePhase.ROLL)
    turn = models.PositiveSmallIntegerField(help_text="Seat to act.")
    position_id = models.CharField(max_length=14, help_text="From the view of the player on roll.")
    dice_0 = models.PositiveSmallIntegerField(null=True, blank=True)
    dice_1 = models.PositiveSmallIntegerField(null=True, blank=True)
    rolls = models.PositiveIntegerField(default=0, help_text="Rolls thrown after the opening roll.")
    cube_value = models.PositiveIntegerField(default=1)
    cube_owner = models.SmallIntegerField(
        default=CENTRED, help_text="-1 centred, else the owning seat."
    )
    cube_offer = models.CharField(
        max_length=8, blank=True, help_text='"double" or "beaver" awaiting an answer.'
    )
    cube_offered_by = models.SmallIntegerField(null=True, blank=True)
    cube_offered_value = models.PositiveIntegerField(null=True, blank=True)
    automatic_doubles = models.PositiveSmallIntegerField(default=0)
    resigned_by = models.SmallIntegerField(null=True, blank=True)
    resign_level = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1, 2 or 3.")
    resume_phase = models.CharField(max_length=12, choices=GamePhase.choices, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    result_level = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1 single, 2 gammon, 3 backgammon."
    )
    points = models.PositiveIntegerField(null=True, blank=True)
    finish_reason = models.CharField(max_length=16, choices=FinishReason.choices, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique_in_match"),
            models.CheckConstraint(condition=Q(turn__in=[0, 1]), name="game_turn_is_a_seat"),
        ]
        ordering = ["match", "number"]

    def __str__(self) -> str:
        return f"game {self.number} of match {self.match_id}"

    @property
    def dice(self) -> tuple[int, int] | None:
        if self.dice_0 is None or self.dice_1 is None:
            return None
        return (self.dice_0, self.dice_1)


class ActionKind(models.TextChoices):
    START = "start", gettext_noop("Match started")
    OPENING = "opening", gettext_noop("Opening roll")
    ROLL = "roll", gettext_noop("Roll")
    PLAY = "play", gettext_noop("Play")
    PASS = "pass", gettext_noop("No legal play")
    DOUBLE = "double", gettext_noop("Double")
    TAKE = "take", gettext_noop("Take")
    DROP = "drop", gettext_noop("Drop")
    BEAVER = "beaver", gettext_noop("Beaver")
    RACCOON = "raccoon", gettext_noop("Raccoon")
    RESIGN = "resign", gettext_noop("Resignation offered")
    ACCEPT_RESIGN = "accept_resign", gettext_noop("Resignation accepted")
    REJECT_RESIGN = "reject_resign", gettext_noop("Resignation rejected")
    GAME_OVER = "game_over", gettext_noop("Game over")
    MATCH_OVER = "match_over", gettext_noop("Match over")
    TIMEOUT = "timeout", gettext_noop("Timeout")
    DISCONNECT = "disconnect", gettext_noop("Disconnected")
    RECONNECT = "reconnect", gettext_noop("Reconnected")
    SUSPEND = "suspend", gettext_noop("Suspended")
    ADJUDICATION = "adjudication", gettext_noop("Adjudicated")
    FORFEIT = "forfeit", gettext_noop("Forfeit")
    CHAT = "chat", gettext_noop("Chat")
    MATCH_DOUBLE = "match_double", gettext_noop("Match stake doubled")
    MATCH_TAKE = "match_take", gettext_noop("Match double taken")
    MATCH_DROP = "match_drop", gettext_noop("Match double dropped")


class Action(models.Model):
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="actions")
    game_number = models.PositiveSmallIntegerField(null=True, blank=True)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=ActionKind.choices)
    seat = models.SmallIntegerField(
        null=True, blank=True, help_text="Who acted; null for the server."
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    gnubg_before = models.CharField(max_length=32, blank=True)
    gnubg_after = models.CharField(max_length=32, blank=True)
    dice = models.CharField(max_length=3, blank=True, help_text='Rolled dice as "52".')
    detail = models.JSONField(default=dict, blank=True)
    clock_0_ms = models.BigIntegerField(null=True, blank=True)
    clock_1_ms = models.BigIntegerField(null=True, blank=True)
    client_seq = models.PositiveIntegerField(null=True, blank=True)
    request_digest = models.CharField(
        max_length=16, blank=True, help_text="What the client asked, so a repeated seq is checked."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="action_seq_unique_in_match"),
            models.UniqueConstraint(
                fields=["match", "actor", "client_seq"],
                condition=Q(client_seq__isnull=False),
                name="action_client_seq_once",
            ),
        ]
        ordering = ["match", "seq"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} (match {self.match_id}, #{self.seq})"


class MatchConnection(models.Model):
    """One open WebSocket to a match's page: a player's (``seat`` 0 or 1) or a watcher's.

    Presence is read from these rows: a seat is connected while it has one, and the
    spectators are the rows without a seat. A watcher's row is written without touching
    the match row, so people coming and going never queue behind the players' actions.
    The server holding the socket marks its rows seen every half minute or so; a row not
    seen for ``matches.presence.CONNECTION_TTL`` belongs to a server that died, and the
    sweep closes it as if the socket had closed.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    seat = models.SmallIntegerField(null=True, blank=True, help_text="None for a watcher.")
    channel = models.CharField(max_length=120, unique=True, help_text="The socket's channel name.")
    address = models.GenericIPAddressField(null=True, blank=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(auto_now_add=True, help_text="Its server's last heartbeat.")

    class Meta:
        indexes = [
            models.Index(fields=["match", "seat"], name="connection_match_seat"),
            models.Index(fields=["seen_at"], name="connection_seen"),
            models.Index(fields=["address"], name="connection_address"),
        ]

    def __str__(self) -> str:
        return f"connection {self.channel} to match {self.match_id}"


class ChatRoom(models.TextChoices):
    PLAYERS = "players", "Players"
    SPECTATORS = "spectators", "Spectators"


class ChatMessage(models.Model):
    """A chat line beside the board, kept with the match record for disputes."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    room = models.CharField(max_length=10, choices=ChatRoom.choices)
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "created_at", "pk"]
        indexes = [models.Index(fields=["match", "room", "created_at"], name="chat_recent")]

    def __str__(self) -> str:
        return f"{self.author_id}: {self.text[:40]}"


class Adjudication(models.Model):
    """The engine's evaluation of an abandoned game and what it decided.

    The first adjudication of a match settles it; a staff re-run at another depth is kept
    beside it (``supersedes``) so old and new numbers can be compared.
    """

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="adjudications")
    supersedes = models.ForeignKey("self", models.PROTECT, null=True, blank=True, related_name="+")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    game_number = models.PositiveSmallIntegerField()
    absent_seat = models.SmallIntegerField(null=True, blank=True)
    gnubg_id = models.CharField(max_length=32)
    plies = models.PositiveSmallIntegerField()
    evaluation = models.JSONField(help_text="The engine's numbers, engine and settings, as stored.")
    decision = models.JSONField(help_text="Settlements, pot shares or the winner decided.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(supersedes__isnull=True),
                name="one_adjudication_per_match",
            ),
        ]
        ordering = ["match", "created_at"]

    def __str__(self) -> str:
        return f"adjudication of match {self.match_id} at {self.plies} ply"
