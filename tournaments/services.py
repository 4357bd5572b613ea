"""Writes for tournaments: what organizers and players do, and what the scheduler runs.

Organizers create, edit (draft or registration only), open, start and cancel tournaments
and withdraw or replace a player before play; players register, check in and unregister.
Money moves only through ``accounts.ledger``: buy-ins and fees at registration (into the
escrow ``tournament:<id>``), refunds when a seat is given up or the tournament cancelled,
prizes when it ends. Each ledger call has a key made of the tournament and entry ids, so a
repeated request moves nothing twice.

Every write locks the tournament row first (``scheduler.locked_tournament``) and changes
state by compare-and-set, so a registration, a start and a cancellation never interleave;
live events go out after commit from ``tournaments.events``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from accounts import ledger
from accounts.models import Currency, User
from config.errors import Conflict, DomainError, Forbidden, InternalError
from matches.models import ClockKind, Match, MatchStatus, TimeoutLoses
from matches.services import MAX_MATCH_LENGTH
from tournaments import events, scheduler
from tournaments.errors import TournamentInvalid
from tournaments.formats.base import FormatError
from tournaments.formats.satellite import TargetTournament, plan_satellite
from tournaments.formats.sit_and_go import MAX_SEATS, MIN_SEATS, should_start
from tournaments.models import (
    Entry,
    EntryStatus,
    Pairing,
    Seeding,
    Ticket,
    Tournament,
    TournamentAbandonPolicy,
    TournamentFormat,
    TournamentState,
)

ORGANIZE_PERMISSION = "accounts.organize_tournaments"
MAX_ENTRANTS = 8192
EDITABLE_STATES = (TournamentState.DRAFT, TournamentState.REGISTRATION)


@dataclass(frozen=True)
class TournamentSettings:
    """Everything an organizer chooses; checked as a whole by ``_check_settings``."""

    name: str
    format: str
    seats: int | None = None
    max_entrants: int | None = None
    buy_in_cents: int = 0
    fee_cents: int = 0
    currency: str = Currency.FUN
    seeding: str = Seeding.RATING
    round_lengths: tuple[int, ...] = (5,)
    clock: dict[str, Any] | None = None
    target_id: int | None = None
    abandon_policy: str = TournamentAbandonPolicy.ENGINE
    show_up_seconds: int = 300
    round_minutes: int | None = None
    starts_at: datetime | None = None
    check_in_minutes: int | None = None


SETTING_FIELDS = tuple(TournamentSettings.__dataclass_fields__)


# ---------------------------------------------------------------- organizers


@transaction.atomic
def tournament_create(*, organizer: User, settings: TournamentSettings) -> Tournament:
    """A draft tournament with the organizer's settings; TournamentInvalid names bad fields."""
    if not organizer.has_perm(ORGANIZE_PERMISSION):
        raise Forbidden("Only organizers can create tournaments.")
    values = _check_settings(settings, tournament=None)
    return Tournament.objects.create(organizer=organizer, draw_seed=secrets.randbits(62), **values)


@transaction.atomic
def tournament_edit(*, tournament_id: int, user: User, changes: dict[str, Any]) -> Tournament:
    """Change settings while the tournament is a draft or open for registration."""
    tournament = scheduler.locked_tournament(tournament_id)
    _require_organizer(tournament, user, "edit")
    if tournament.state not in EDITABLE_STATES:
        raise Conflict(
            f"{tournament.name} is {tournament.get_state_display().lower()}: "
            "it can no longer be changed."
        )
    unknown = set(changes) - set(SETTING_FIELDS)
    if unknown:
        raise InternalError(f"unknown tournament settings {sorted(unknown)}")
    current = settings_of(tournament)
    merged = TournamentSettings(**{**current.__dict__, **changes})
    values = _check_settings(merged, tournament=tournament)
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=list(values))
    events.publish_tournament(tournament.pk)
    return tournament


def settings_of(tournament: Tournament) -> TournamentSettings:
    return TournamentSettings(
        name=tournament.name,
        format=tournament.format,
        seats=tournament.seats,
        max_entrants=tournament.max_entrants,
        buy_in_cents=tournament.buy_in_cents,
        fee_cents=tournament.fee_cents,
        currency=tournament.currency,
        seeding=tournament.seeding,
        round_lengths=tuple(tournament.round_lengths),
        clock=dict(tournament.clock) or None,
        target_id=tournament.target_id,
        abandon_policy=tournament.abandon_policy,
        show_up_seconds=tournament.show_up_seconds,
        round_minutes=tournament.round_minutes,
        starts_at=tournament.starts_at,
        check_in_minutes=tournament.check_in_minutes,
    )


@transaction.atomic
def tournament_open(*, tournament_id: int, user: User) -> Tournament:
    """Open registration for a draft."""
    tournament = scheduler.locked_tournament(tournament_id)
    _require_organizer(tournament, user, "open")
    _move(tournament, TournamentState.DRAFT, TournamentState.REGISTRATION, opened_at=timezone.now())
    return tournament


@transaction.atomic
def tournament_start(*, tournament_id: int, user: User | None) -> Tournament:
    """Close registration and draw the bracket; the first matches start once this commits.

    ``user`` None means the scheduler starts it at its start time.
    """
    tournament = scheduler.locked_tournament(tournament_id)
    if user is not None:
        _require_organizer(tournament, user, "start")
    if tournament.state != TournamentState.REGISTRATION:
        raise Conflict(_not_now(tournament, "started"))
    _start(tournament)
    return tournament


@transaction.atomic
def tournament_cancel(*, tournament_id: int, user: User) -> Tournament:
    """Cancel before the end: every seat's buy-in goes back to its player."""
    tournament = scheduler.locked_tournament(tournament_id)
    _require_organizer(tournament, user, "cancel")
    if tournament.state in (TournamentState.FINISHED, TournamentState.CANCELLED):
        raise Conflict(_not_now(tournament, "cancelled"))
    entries = list(Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED))
    refunds = {entry.user_id: entry.paid_cents for entry in entries if entry.paid_cents}
    if refunds:
        ledger.refund(
            escrow_ref=tournament.escrow_ref,
            currency=tournament.currency,
            payouts=refunds,
            key=f"{tournament.escrow_ref}:cancel",
        )
    _move(tournament, tournament.state, TournamentState.CANCELLED, finished_at=timezone.now())
    return tournament


@transaction.atomic
def entry_withdraw(*, tournament_id: int, user: User, player: User) -> Entry:
    """The organizer takes ``player`` out before play; their buy-in is refunded."""
    tournament = scheduler.locked_tournament(tournament_id)
    _require_organizer(tournament, user, "withdraw players from")
    _require_before_play(tournament, "withdraw a player")
    return _leave(tournament, _seat_of(tournament, player))


@transaction.atomic
def entry_replace(*, tournament_id: int, user: User, player: User, replacement: User) -> Entry:
    """The organizer gives ``player``'s seat to ``replacement``: refund one, the other pays."""
    tournament = scheduler.locked_tournament(tournament_id)
    _require_organizer(tournament, user, "replace players in")
    _require_before_play(tournament, "replace a player")
    leaving = _seat_of(tournament, player)
    _leave(tournament, leaving)
    return _enter(tournament, replacement, seed=leaving.seed)


# ---------------------------------------------------------------- players


@transaction.atomic
def entry_register(*, tournament_id: int, user: User) -> Entry:
    """Take a seat: pay the buy-in and fee (or use a ticket). A full Sit & Go starts now."""
    tournament = scheduler.locked_tournament(tournament_id)
    if tournament.state != TournamentState.REGISTRATION:
        raise Conflict(_not_now(tournament, "joined"))
    entry = _enter(tournament, user, seed=None)
    if tournament.format == TournamentFormat.SIT_AND_GO:
        assert tournament.seats is not None
        if should_start(seats=tournament.seats, seated=_seated(tournament)):
            _start(tournament)
    return entry


@transaction.atomic
def entry_unregister(*, tournament_id: int, user: User) -> Entry:
    """Give up one's seat before the start; the buy-in comes back (the fee stays)."""
    tournament = scheduler.locked_tournament(tournament_id)
    if tournament.state != TournamentState.REGISTRATION:
        raise Conflict(_not_now(tournament, "left"))
    entry = Entry.objects.filter(
        tournament=tournament, user=user, status=EntryStatus.REGISTERED
    ).first()
    if entry is None:
        raise Conflict(f"You are not entered in {tournament.name}.")
    return _leave(tournament, entry)


@transaction.atomic
def entry_check_in(*, tournament_id: int, user: User) -> Entry:
    """Confirm one will play, inside the check-in window before the start."""
    tournament = scheduler.locked_tournament(tournament_id)
    if tournament.state != TournamentState.REGISTRATION:
        raise Conflict(_not_now(tournament, "checked into"))
    opens = check_in_opens(tournament)
    if opens is None:
        raise Conflict(f"{tournament.name} needs no check-in.")
    now = timezone.now()
    if now < opens:
        raise Conflict(
            f"Check-in opens at {opens:%H:%M} UTC, {tournament.check_in_minutes} "
            "minutes before the start."
        )
    entry = Entry.objects.filter(
        tournament=tournament, user=user, status=EntryStatus.REGISTERED
    ).first()
    if entry is None:
        raise Conflict(f"You are not entered in {tournament.name}.")
    Entry.objects.filter(pk=entry.pk, checked_in_at__isnull=True).update(checked_in_at=now)
    entry.refresh_from_db()
    events.publish_tournament(tournament.pk)
    return entry


def check_in_opens(tournament: Tournament) -> datetime | None:
    if tournament.check_in_minutes is None or tournament.starts_at is None:
        return None
    return tournament.starts_at - timedelta(minutes=tournament.check_in_minutes)


@transaction.atomic
def ticket_use(*, ticket: Ticket) -> Entry:
    """Seat a ticket's holder in the target without paying its buy-in.

    The ticket's value waits in the satellite's escrow; using it pays that value to the
    holder as their prize and, in the same transaction, buys them in to the target with no
    fee, so the target's prize pool holds a full buy-in for the seat.
    """
    target = scheduler.locked_tournament(ticket.target_id)
    if ticket.entry_id is not None:
        raise Conflict("This ticket has been used already.")
    if target.state != TournamentState.REGISTRATION:
        raise Conflict(_not_now(target, "joined"))
    holder = User.objects.get(pk=ticket.holder_id)
    entry = _enter(target, holder, seed=None, ticket=ticket)
    if target.format == TournamentFormat.SIT_AND_GO:
        assert target.seats is not None
        if should_start(seats=target.seats, seated=_seated(target)):
            _start(target)
    return entry


# ---------------------------------------------------------------- the scheduler's writes


@transaction.atomic
def match_finished(*, match_id: int) -> bool:
    """Move the tournament on after one of its matches ended; False if there was nothing to do.

    Locks the tournament, then reads the match: running this twice, or for a result already
    recorded, changes nothing.
    """
    tournament_id = (
        Match.objects.filter(pk=match_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return False
    tournament = scheduler.locked_tournament(tournament_id)
    match = Match.objects.get(pk=match_id)
    return scheduler.record_match_result(tournament, match)


@transaction.atomic
def matches_start(*, tournament_id: int) -> int:
    """Create the matches of ready pairings that have none; returns how many were created."""
    tournament = scheduler.locked_tournament(tournament_id)
    if tournament.state != TournamentState.RUNNING:
        return 0
    fmt = scheduler.tournament_format(tournament, pool_cents=tournament.prize_pool_cents)
    draw, rows = scheduler.stored_draw(tournament)
    created = scheduler.start_ready_matches(tournament, fmt, draw, rows)
    if created:
        events.publish_tournament(tournament.pk)
    return created


@dataclass(frozen=True)
class SweepReport:
    late: int
    results_redone: list[int]
    tournaments_to_fill: list[int]
    tournaments_to_start: list[int]


def sweep(*, now: datetime | None = None) -> SweepReport:
    """Mark overdue pairings late, and find work whose task was lost.

    Returns the match ids whose result was never recorded, the running tournaments with a
    ready pairing but no match, and the tournaments whose start time has come; the caller
    enqueues their tasks.
    """
    moment = now or timezone.now()
    with transaction.atomic():
        overdue = list(
            Pairing.objects.select_for_update(skip_locked=True)
            .filter(deadline__lte=moment, late=False, winner__isnull=True)
            .values_list("pk", "tournament_id")
        )
        Pairing.objects.filter(pk__in=[pk for pk, _ in overdue], late=False).update(late=True)
        for tournament_id in {tournament_id for _, tournament_id in overdue}:
            events.publish_tournament(tournament_id)
    running = Pairing.objects.filter(tournament__state=TournamentState.RUNNING, winner__isnull=True)
    finished_match = Match.objects.filter(pk=OuterRef("match_id"), status=MatchStatus.FINISHED)
    unrecorded = list(
        running.filter(match_id__isnull=False)
        .filter(Exists(finished_match))
        .values_list("match_id", flat=True)
    )
    unstarted = sorted(
        set(
            running.filter(
                match_id__isnull=True, top__isnull=False, bottom__isnull=False
            ).values_list("tournament_id", flat=True)
        )
    )
    due = list(
        Tournament.objects.filter(
            state=TournamentState.REGISTRATION, starts_at__lte=moment
        ).values_list("pk", flat=True)
    )
    return SweepReport(len(overdue), [m for m in unrecorded if m is not None], unstarted, due)


# ---------------------------------------------------------------- internals


def _start(tournament: Tournament) -> None:
    """Refund those who did not check in, draw the bracket and set the tournament running."""
    if check_in_opens(tournament) is not None:
        for entry in Entry.objects.filter(
            tournament=tournament, status=EntryStatus.REGISTERED, checked_in_at__isnull=True
        ):
            _leave(tournament, entry)
    entries = list(
        Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED)
        .select_related("user__profile")
        .order_by("pk")
    )
    if len(entries) < 2:
        raise Conflict(
            f"{tournament.name} needs at least 2 players to start; it has {len(entries)}."
        )
    try:
        scheduler.draw_bracket(tournament, entries)
    except FormatError as refusal:
        raise DomainError(str(refusal)) from None
    _move(
        tournament,
        TournamentState.REGISTRATION,
        TournamentState.RUNNING,
        started_at=timezone.now(),
        prize_pool_cents=sum(entry.paid_cents for entry in entries),
    )
    from tournaments.tasks import tournament_start_matches  # tasks call these services

    transaction.on_commit(partial(tournament_start_matches.delay, tournament.pk))


def _enter(
    tournament: Tournament, user: User, *, seed: int | None, ticket: Ticket | None = None
) -> Entry:
    """Seat ``user``, paying with ``ticket`` or, failing that, an unused one they hold."""
    if Entry.objects.filter(
        tournament=tournament, user=user, status=EntryStatus.REGISTERED
    ).exists():
        raise Conflict(f"{_name(user)} is already entered in {tournament.name}.")
    capacity = tournament.capacity
    if capacity is not None and _seated(tournament) >= capacity:
        raise ledger.TournamentFull(f"{tournament.name} is full: all {capacity} seats are taken.")
    if ticket is None:
        ticket = (
            Ticket.objects.select_for_update()
            .filter(target=tournament, holder=user, entry__isnull=True)
            .order_by("pk")
            .first()
        )
    entry = Entry.objects.create(
        tournament=tournament,
        user=user,
        seed=seed,
        paid_cents=tournament.buy_in_cents,
        fee_cents=0 if ticket else tournament.fee_cents,
    )
    if ticket is not None:
        ledger.prize_payout(
            escrow_ref=ticket.satellite.escrow_ref,
            currency=ticket.currency,
            payouts={user.pk: ticket.value_cents},
            key=f"ticket:{ticket.pk}:cash",
        )
        written = Ticket.objects.filter(pk=ticket.pk, entry__isnull=True).update(
            entry=entry, used_at=timezone.now()
        )
        if written != 1:
            raise Conflict("This ticket has been used already.")
    if entry.paid_cents + entry.fee_cents:
        ledger.tournament_buy_in(
            user=user,
            currency=tournament.currency,
            buy_in_cents=entry.paid_cents,
            fee_cents=entry.fee_cents,
            escrow_ref=tournament.escrow_ref,
            key=f"{tournament.escrow_ref}:entry:{entry.pk}",
            max_entries=capacity,
        )
    events.publish_tournament(tournament.pk)
    return entry


def _leave(tournament: Tournament, entry: Entry) -> Entry:
    """Give up a seat by compare-and-set; the buy-in is refunded once."""
    left = Entry.objects.filter(pk=entry.pk, status=EntryStatus.REGISTERED).update(
        status=EntryStatus.WITHDRAWN, withdrawn_at=timezone.now()
    )
    if left != 1:
        raise Conflict("This seat has been given up already.")
    if entry.paid_cents:
        ledger.refund(
            escrow_ref=tournament.escrow_ref,
            currency=tournament.currency,
            payouts={entry.user_id: entry.paid_cents},
            key=f"{tournament.escrow_ref}:entry:{entry.pk}:refund",
        )
    entry.refresh_from_db()
    events.publish_tournament(tournament.pk)
    return entry


def _seated(tournament: Tournament) -> int:
    return Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).count()


def _seat_of(tournament: Tournament, player: User) -> Entry:
    entry = Entry.objects.filter(
        tournament=tournament, user=player, status=EntryStatus.REGISTERED
    ).first()
    if entry is None:
        raise Conflict(f"{_name(player)} is not entered in {tournament.name}.")
    return entry


def _move(tournament: Tournament, old: str, new: str, **fields: Any) -> None:
    """Compare-and-set the state: ``old`` to ``new``, or a Conflict saying what it is now."""
    moved = Tournament.objects.filter(pk=tournament.pk, state=old).update(state=new, **fields)
    if moved != 1:
        raise Conflict(_not_now(tournament, "changed"))
    tournament.state = new
    for name, value in fields.items():
        setattr(tournament, name, value)
    events.publish_tournament(tournament.pk)


def _require_organizer(tournament: Tournament, user: User, doing: str) -> None:
    if user.pk != tournament.organizer_id and not user.is_superuser:
        raise Forbidden(f"Only the organizer of {tournament.name} can {doing} it.")


def _require_before_play(tournament: Tournament, doing: str) -> None:
    if tournament.state not in EDITABLE_STATES:
        raise Conflict(
            f"{tournament.name} is {tournament.get_state_display().lower()}: "
            f"you can {doing} only before play starts."
        )


def _not_now(tournament: Tournament, doing: str) -> str:
    state = TournamentState(tournament.state)
    why = {
        TournamentState.DRAFT: "is still a draft",
        TournamentState.REGISTRATION: "is open for registration",
        TournamentState.RUNNING: "is already running",
        TournamentState.FINISHED: "has finished",
        TournamentState.CANCELLED: "has been cancelled",
    }[state]
    return f"{tournament.name} {why}, so it cannot be {doing} now."


def _name(user: User) -> str:
    return user.profile.display_name


def _check_settings(
    settings: TournamentSettings, *, tournament: Tournament | None
) -> dict[str, Any]:
    """The model fields for ``settings``, or TournamentInvalid with every field's problem."""
    errors: dict[str, list[str]] = {}

    def refuse(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    name = settings.name.strip()
    if not name:
        refuse("name", "Give the tournament a name.")
    if settings.format not in TournamentFormat.values:
        refuse("format", "Choose knockout, Sit & Go or satellite.")
    if settings.currency not in Currency.values:
        refuse("currency", f"Use one of {', '.join(Currency.values)}.")
    if settings.seeding not in Seeding.values:
        refuse("seeding", "Seed by rating or by a random draw.")
    if settings.abandon_policy not in TournamentAbandonPolicy.values:
        refuse("abandon_policy", "Choose the engine or a forfeit.")
    if settings.buy_in_cents < 0:
        refuse("buy_in_cents", "The buy-in cannot be negative.")
    if settings.fee_cents < 0:
        refuse("fee_cents", "The fee cannot be negative.")
    if settings.buy_in_cents == 0 and settings.fee_cents > 0:
        refuse("fee_cents", "A free tournament cannot charge a fee.")
    if not settings.round_lengths:
        refuse("round_lengths", "Give at least one match length: the length of the final.")
    for length in settings.round_lengths:
        if not 1 <= length <= MAX_MATCH_LENGTH:
            refuse("round_lengths", f"Each match is 1 to {MAX_MATCH_LENGTH} points, not {length}.")
            break
    seats, max_entrants = settings.seats, settings.max_entrants
    if settings.format == TournamentFormat.SIT_AND_GO:
        if seats is None or not MIN_SEATS <= seats <= MAX_SEATS:
            refuse("seats", f"A Sit & Go has {MIN_SEATS} to {MAX_SEATS} seats.")
        max_entrants = seats
    else:
        seats = None
        if max_entrants is not None and not 2 <= max_entrants <= MAX_ENTRANTS:
            refuse("max_entrants", f"Allow 2 to {MAX_ENTRANTS:,} players, or leave it empty.")
    clock = _check_clock(settings.clock, refuse)
    if settings.show_up_seconds < 30:
        refuse("show_up_seconds", "Give players at least 30 seconds to reach the board.")
    if settings.round_minutes is not None and settings.round_minutes < 1:
        refuse("round_minutes", "A round deadline is at least 1 minute, or leave it empty.")
    if settings.check_in_minutes is not None:
        if settings.starts_at is None:
            refuse("check_in_minutes", "A check-in needs a start time.")
        elif not 1 <= settings.check_in_minutes <= 24 * 60:
            refuse("check_in_minutes", "Check-in lasts 1 minute to 24 hours.")
    moved_start = tournament is None or tournament.starts_at != settings.starts_at
    if settings.starts_at is not None and settings.starts_at <= timezone.now() and moved_start:
        refuse("starts_at", "Pick a start time in the future.")
    target_id = settings.target_id
    if settings.format == TournamentFormat.SATELLITE:
        _check_target(settings, max_entrants, tournament, refuse)
    else:
        target_id = None
    if tournament is not None and tournament.pk is not None:
        seated = _seated(tournament)
        if seated:
            for field in ("format", "currency", "buy_in_cents", "fee_cents"):
                if getattr(settings, field) != getattr(tournament, field):
                    refuse(field, "Players have paid already: this cannot change now.")
            if max_entrants is not None and max_entrants < seated:
                field = (
                    "seats" if settings.format == TournamentFormat.SIT_AND_GO else "max_entrants"
                )
                refuse(field, f"{seated} players are entered already.")
    if not errors and settings.format in TournamentFormat.values:
        _check_format(settings, refuse)
    if errors:
        raise TournamentInvalid(errors)
    return {
        "name": name,
        "format": settings.format,
        "seats": seats,
        "max_entrants": max_entrants,
        "buy_in_cents": settings.buy_in_cents,
        "fee_cents": settings.fee_cents,
        "currency": settings.currency,
        "seeding": settings.seeding,
        "round_lengths": list(settings.round_lengths),
        "clock": clock,
        "target_id": target_id,
        "abandon_policy": settings.abandon_policy,
        "show_up_seconds": settings.show_up_seconds,
        "round_minutes": settings.round_minutes,
        "starts_at": settings.starts_at,
        "check_in_minutes": settings.check_in_minutes,
    }


def _check_clock(clock: dict[str, Any] | None, refuse: Any) -> dict[str, Any]:
    values = {
        "kind": ClockKind.MOVE,
        "move_seconds": 12,
        "reserve_seconds": 60,
        "delay_seconds": 12,
        "timeout_loses": TimeoutLoses.MATCH,
        **(clock or {}),
    }
    if values["kind"] not in ClockKind.values:
        refuse("clock", f"The clock is one of {', '.join(ClockKind.values)}.")
    if values["timeout_loses"] not in TimeoutLoses.values:
        refuse("clock", 'A timeout loses the "match" or the "game".')
    for name, low, high in (
        ("move_seconds", 1, 600),
        ("delay_seconds", 1, 600),
        ("reserve_seconds", 0, 24 * 3600),
    ):
        value = values[name]
        if not isinstance(value, int) or not low <= value <= high:
            refuse("clock", f"{name.replace('_', ' ').capitalize()} must be {low} to {high:,}.")
    return values


def _check_target(
    settings: TournamentSettings,
    max_entrants: int | None,
    tournament: Tournament | None,
    refuse: Any,
) -> None:
    if settings.target_id is None:
        refuse("target", "Choose the tournament whose seats this satellite gives away.")
        return
    target = Tournament.objects.filter(pk=settings.target_id).first()
    if target is None or (tournament is not None and target.pk == tournament.pk):
        refuse("target", "There is no such tournament to win seats in.")
        return
    if target.state not in EDITABLE_STATES:
        refuse("target", f"{target.name} is {target.get_state_display().lower()}.")
    if target.format == TournamentFormat.SATELLITE:
        refuse("target", "A satellite cannot give seats in another satellite.")
    if target.currency != settings.currency:
        refuse("currency", f"{target.name} is played in {target.currency}; use the same currency.")
    if max_entrants is None:
        refuse("max_entrants", "A satellite needs a maximum number of players.")
        return
    try:
        plan_satellite(
            prize_pool_cents=max_entrants * settings.buy_in_cents,
            target=TargetTournament(target.name, target.buy_in_cents),
        )
    except FormatError as refusal:
        refuse("buy_in_cents", str(refusal))


def _check_format(settings: TournamentSettings, refuse: Any) -> None:
    """Ask the pure format whether it can be run as set (prize table, lengths)."""
    probe = Tournament(
        format=settings.format,
        seats=settings.seats,
        round_lengths=list(settings.round_lengths),
        seeding=settings.seeding,
    )
    if settings.format == TournamentFormat.SATELLITE:
        return
    try:
        scheduler.tournament_format(probe, pool_cents=0)
    except FormatError as refusal:
        field = "seats" if settings.format == TournamentFormat.SIT_AND_GO else "round_lengths"
        refuse(field, str(refusal))
