"""Writes for tournaments: what organizers and players do.

Organizers create, edit (draft or registration only), open, start and cancel tournaments
and withdraw or replace a player before play; players register, check in and unregister.
Money moves only through ``accounts.ledger``: buy-ins and fees at registration (into the
escrow ``tournament:<id>``) and refunds when a seat is given up (``tournaments.seats``),
refunds when the tournament is cancelled, prizes when it ends. Each ledger call has a key
made of the tournament and entry ids, so a repeated request moves nothing twice. Whoever
takes a seat (registering, by a ticket, or as a replacement) must be allowed to by
``accounts.standing`` in the tournament's currency, and by the tournament's entry limits
(``tournaments.divisions.limits``).

Every write locks the tournament row first (``scheduler.locked_tournament``) and changes
state by compare-and-set, so a registration, a start and a cancellation never interleave;
live events go out after commit from ``tournaments.events``. What the scheduler runs as
results come in is ``tournaments.scheduler``'s; settings are checked by
``tournaments.settings.general``.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts import ledger
from accounts.models import User
from accounts.standing import require_may_register, require_standing_may_register
from core import locks
from core.errors import Conflict, DomainError, Forbidden, InternalError
from core.locks import Lock
from core.tasks import enqueue_on_commit
from matches.lifecycle import match_stop
from matches.models import Match, MatchStatus
from matches.state import lock_match
from tournaments import events, scheduler, seats
from tournaments.divisions.limits import require_may_enter
from tournaments.errors import format_refused
from tournaments.formats.base import FormatError
from tournaments.formats.sit_and_go import should_start
from tournaments.models import (
    Entry,
    EntryStatus,
    Ticket,
    Tournament,
    TournamentFormat,
    TournamentState,
)
from tournaments.selectors import check_in_opens, entry_checks, seated_count
from tournaments.settings.general import (
    EDITABLE_STATES,
    SETTING_FIELDS,
    TournamentSettings,
    check_settings,
    settings_of,
)
from tournaments.swing import services as swing

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

ORGANIZE_PERMISSION = "accounts.organize_tournaments"
START_MATCHES_TASK = "tournaments.start_matches"


# ---------------------------------------------------------------- organizers


@transaction.atomic
def tournament_create(*, organizer: User, settings: TournamentSettings) -> Tournament:
    """A draft tournament with the organizer's settings; TournamentInvalid names bad fields."""
    if not organizer.has_perm(ORGANIZE_PERMISSION):
        raise Forbidden(_("Only organizers can create tournaments."))
    values = check_settings(settings, organizer=organizer, tournament=None)
    tournament = Tournament.objects.create(
        organizer=organizer, draw_seed=secrets.randbits(62), **values
    )
    # Nobody else can lock a row this transaction made: a caller that moved money first (the
    # demo's loader) may open it and register players without breaking the lock order.
    locks.made(Lock.TOURNAMENT, tournament.pk)
    return tournament


@transaction.atomic
def tournament_edit(*, tournament_id: int, user: User, changes: dict[str, Any]) -> Tournament:
    """Change settings while the tournament is a draft or open for registration."""
    tournament = scheduler.locked_tournament(tournament_id)
    _require_organizer(tournament, user, _("Only the organizer of %(name)s can edit it."))
    if tournament.state not in EDITABLE_STATES:
        raise Conflict(
            _("%(name)s is %(state)s: it can no longer be changed.")
            % {"name": tournament.name, "state": tournament.get_state_display().lower()}
        )
    unknown = set(changes) - set(SETTING_FIELDS)
    if unknown:
        raise InternalError(f"unknown tournament settings {sorted(unknown)}")
    current = settings_of(tournament)
    merged = TournamentSettings(**{**current.__dict__, **changes})
    values = check_settings(merged, organizer=tournament.organizer, tournament=tournament)
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=list(values))
    events.publish_tournament(tournament.pk)
    return tournament


@transaction.atomic
def tournament_open(*, tournament_id: int, user: User) -> Tournament:
    """Open registration for a draft."""
    tournament = scheduler.locked_tournament(tournament_id)
    _require_organizer(tournament, user, _("Only the organizer of %(name)s can open it."))
    _move(tournament, TournamentState.DRAFT, TournamentState.REGISTRATION, opened_at=timezone.now())
    return tournament


@transaction.atomic
def tournament_start(*, tournament_id: int, user: User | None) -> Tournament:
    """Close registration and draw the bracket; the first matches start once this commits.

    ``user`` None means the scheduler starts it at its start time.
    """
    tournament = scheduler.locked_tournament(tournament_id)
    if user is not None:
        _require_organizer(tournament, user, _("Only the organizer of %(name)s can start it."))
    if tournament.state != TournamentState.REGISTRATION:
        raise Conflict(_not_now(tournament, STARTED))
    _start(tournament)
    return tournament


@transaction.atomic
def tournament_cancel(*, tournament_id: int, user: User) -> Tournament:
    """Cancel before the end: the matches still being played end without a result and their
    clocks stop (``matches.lifecycle.match_stop``), every seat's buy-in and fee go back to
    its player, and every player is told (``TournamentCancelled``).

    The matches are locked before the tournament, as ``core.locks`` orders them; one the
    draw made meanwhile is new and unstarted, and is locked after it (``Lock.NEXT_MATCH``).
    """
    unlocked = Tournament.objects.filter(pk=tournament_id).first()
    if unlocked is not None:
        _require_organizer(unlocked, user, _("Only the organizer of %(name)s can cancel it."))
    matches = [lock_match(match_id) for match_id in _match_ids_in_play(tournament_id)]
    tournament = scheduler.locked_tournament(tournament_id)
    _require_organizer(tournament, user, _("Only the organizer of %(name)s can cancel it."))
    if tournament.state in (TournamentState.FINISHED, TournamentState.CANCELLED):
        raise Conflict(_not_now(tournament, CANCELLED))
    held = {match.pk for match in matches}
    matches += [
        lock_match(match_id, kind=Lock.NEXT_MATCH)
        for match_id in _match_ids_in_play(tournament_id)
        if match_id not in held
    ]
    moment = timezone.now()
    cause = {"reason": "tournament_cancelled", "tournament": tournament.pk}
    stopped = tuple(match.pk for match in matches if match_stop(match, cause=cause, moment=moment))
    entries = list(Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED))
    refunds = {entry.user_id: entry.paid_cents for entry in entries if entry.paid_cents}
    fees = {entry.user_id: entry.fee_cents for entry in entries if entry.fee_cents}
    if refunds or fees:
        ledger.refund(
            escrow_ref=tournament.escrow_ref,
            currency=tournament.currency,
            payouts=refunds,
            fees=fees,
            key=f"{tournament.escrow_ref}:cancel",
        )
    _move(tournament, tournament.state, TournamentState.CANCELLED, finished_at=moment)
    events.publish(
        events.TournamentCancelled(
            tournament.pk, tuple(entry.user_id for entry in entries), stopped
        )
    )
    return tournament


def _match_ids_in_play(tournament_id: int) -> list[int]:
    """The tournament's matches being played (or suspended), in the order they are locked."""
    return list(
        Match.objects.filter(
            tournament_id=tournament_id,
            status__in=(MatchStatus.PLAYING, MatchStatus.SUSPENDED),
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )


@transaction.atomic
def entry_withdraw(*, tournament_id: int, user: User, player: User) -> Entry:
    """The organizer takes ``player`` out before play; their buy-in and fee are refunded."""
    tournament = scheduler.locked_tournament(tournament_id)
    _require_organizer(
        tournament, user, _("Only the organizer of %(name)s can withdraw players from it.")
    )
    _require_before_play(
        tournament, _("%(name)s is %(state)s: you can withdraw a player only before play starts.")
    )
    return seats.leave(tournament, seats.seat_of(tournament, player), fee_back=True)


def entries_withdraw_closed(*, player: User) -> list[Entry]:
    """A closed account leaves every tournament it waits to play in, refunded in full
    (buy-in and fee): the other entrants keep a fair draw.

    Every tournament is locked first, in id order, then left: a refund locks wallets, which
    come after tournaments in the lock order (``core.locks``)."""
    left = []
    with transaction.atomic():
        for tournament in tournaments_lock_waited_in(player_ids=[player.pk]):
            if tournament.state in EDITABLE_STATES:
                seat = seats.seat_of(tournament, player)
                left.append(seats.leave(tournament, seat, fee_back=True))
    return left


def tournaments_lock_waited_in(*, player_ids: Collection[int]) -> list[Tournament]:
    """Lock, in id order, every tournament these players wait to play in. A decision that
    moves money and then closes accounts calls it before the money: the closures leave
    these tournaments after wallets are locked, and tournaments come first in the lock
    order (``core.locks``); taking them again then waits for nobody."""
    waiting = Entry.objects.filter(
        user_id__in=player_ids,
        status=EntryStatus.REGISTERED,
        tournament__state__in=EDITABLE_STATES,
    ).values_list("tournament_id", flat=True)
    return [scheduler.locked_tournament(pk) for pk in sorted(set(waiting))]


@transaction.atomic
def entry_replace(*, tournament_id: int, user: User, player: User, replacement: User) -> Entry:
    """The organizer gives ``player``'s seat to ``replacement``: refund one, the other pays."""
    tournament = scheduler.locked_tournament(tournament_id)
    _require_organizer(
        tournament, user, _("Only the organizer of %(name)s can replace players in it.")
    )
    _require_before_play(
        tournament, _("%(name)s is %(state)s: you can replace a player only before play starts.")
    )
    leaving = seats.seat_of(tournament, player)
    try:
        require_may_register(replacement, currency=tournament.currency)
    except Forbidden:  # why is the player's to read, not the organizer's
        raise Forbidden(
            _("%(player)s cannot enter tournaments at the moment.") % {"player": _name(replacement)}
        ) from None
    require_may_enter(tournament, replacement, yours=False)
    seats.leave(tournament, leaving, fee_back=True)
    return seats.enter(tournament, replacement, seed=leaving.seed)


# ---------------------------------------------------------------- players


@transaction.atomic
def entry_register(*, tournament_id: int, user: User) -> Entry:
    """Take a seat: pay the buy-in and fee (or use a ticket). A full Sit & Go starts now."""
    tournament = scheduler.locked_tournament(tournament_id)
    if tournament.state != TournamentState.REGISTRATION:
        raise Conflict(_not_now(tournament, JOINED))
    checks = entry_checks(tournament, user)
    require_standing_may_register(user, checks.standing, currency=tournament.currency)
    require_may_enter(tournament, user)
    entry = seats.enter(tournament, user, seed=None, checks=checks)
    if tournament.starts_when_full:
        assert tournament.seats is not None
        if should_start(seats=tournament.seats, seated=seated_count(tournament)):
            _start(tournament)
    return entry


@transaction.atomic
def entry_unregister(*, tournament_id: int, user: User) -> Entry:
    """Give up one's seat before the start; the buy-in comes back (the fee stays)."""
    tournament = scheduler.locked_tournament(tournament_id)
    if tournament.state != TournamentState.REGISTRATION:
        raise Conflict(_not_now(tournament, LEFT))
    entry = Entry.objects.filter(
        tournament=tournament, user=user, status=EntryStatus.REGISTERED
    ).first()
    if entry is None:
        raise Conflict(_("You are not entered in %(name)s.") % {"name": tournament.name})
    return seats.leave(tournament, entry)


@transaction.atomic
def entry_check_in(*, tournament_id: int, user: User) -> Entry:
    """Confirm one will play, inside the check-in window before the start."""
    tournament = scheduler.locked_tournament(tournament_id)
    if tournament.state != TournamentState.REGISTRATION:
        raise Conflict(_not_now(tournament, CHECKED_INTO))
    opens = check_in_opens(tournament)
    if opens is None:
        raise Conflict(_("%(name)s needs no check-in.") % {"name": tournament.name})
    now = timezone.now()
    if now < opens:
        raise Conflict(
            _("Check-in opens at %(time)s UTC, %(minutes)s minutes before the start.")
            % {"time": f"{opens:%H:%M}", "minutes": tournament.check_in_minutes}
        )
    entry = Entry.objects.filter(
        tournament=tournament, user=user, status=EntryStatus.REGISTERED
    ).first()
    if entry is None:
        raise Conflict(_("You are not entered in %(name)s.") % {"name": tournament.name})
    Entry.objects.filter(pk=entry.pk, checked_in_at__isnull=True).update(checked_in_at=now)
    entry.refresh_from_db()
    events.publish_tournament(tournament.pk, state=tournament.state)
    return entry


@transaction.atomic
def ticket_use(*, ticket_id: int) -> Entry:
    """Seat a ticket's holder in the target without paying its buy-in.

    The ticket's value waits in the satellite's escrow; using it pays that value to the
    holder as their prize and, in the same transaction, buys them in to the target with no
    fee, so the target's prize pool holds a full buy-in for the seat. A holder who may not
    register now (``accounts.standing``) is refused, and the ticket stays unused.
    """
    ticket = Ticket.objects.get(pk=ticket_id)
    target = scheduler.locked_tournament(ticket.target_id)
    ticket = locks.select(Lock.TICKET, Ticket.objects.all(), ticket_id).get(pk=ticket_id)
    if ticket.entry_id is not None:
        raise Conflict(_("This ticket has been used already."))
    if target.state != TournamentState.REGISTRATION:
        raise Conflict(_not_now(target, JOINED))
    holder = User.objects.get(pk=ticket.holder_id)
    require_may_register(holder, currency=target.currency)
    require_may_enter(target, holder)
    entry = seats.enter(target, holder, seed=None, ticket=ticket)
    if target.format == TournamentFormat.SIT_AND_GO:
        assert target.seats is not None
        if should_start(seats=target.seats, seated=seated_count(target)):
            _start(target)
    return entry


# ---------------------------------------------------------------- internals


def _start(tournament: Tournament) -> None:
    """Refund those who did not check in, draw the bracket and set the tournament running."""
    if check_in_opens(tournament) is not None:
        for entry in Entry.objects.filter(
            tournament=tournament, status=EntryStatus.REGISTERED, checked_in_at__isnull=True
        ):
            seats.leave(tournament, entry)
    entries = list(
        Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).order_by("pk")
    )
    if len(entries) < 2:
        raise Conflict(
            _("%(name)s needs at least 2 players to start; it has %(count)s.")
            % {"name": tournament.name, "count": len(entries)}
        )
    if tournament.format == TournamentFormat.SWING:
        swing.seat_players(tournament, entries, timezone.now())
    else:
        try:
            scheduler.draw_bracket(tournament, entries)
        except FormatError as refusal:
            raise DomainError(format_refused(refusal)) from None
    _move(
        tournament,
        TournamentState.REGISTRATION,
        TournamentState.RUNNING,
        started_at=timezone.now(),
        prize_pool_cents=sum(entry.paid_cents for entry in entries),
    )
    enqueue_on_commit(START_MATCHES_TASK, tournament.pk)
    events.publish(events.TournamentStarted(tournament.pk, tuple(e.user_id for e in entries)))


def _move(tournament: Tournament, old: str, new: str, **fields: Any) -> None:
    """Compare-and-set the state: ``old`` to ``new``, or a Conflict saying what it is now."""
    moved = Tournament.objects.filter(pk=tournament.pk, state=old).update(state=new, **fields)
    if moved != 1:
        raise Conflict(_not_now(tournament, CHANGED))
    tournament.state = new
    for name, value in fields.items():
        setattr(tournament, name, value)
    events.publish_tournament(tournament.pk, state=new, moved=True)


def may_organize(tournament: Tournament, user: User) -> bool:
    """Whether ``user`` may change ``tournament``: its organizer, or a superuser."""
    return user.pk == tournament.organizer_id or user.is_superuser


def _require_organizer(tournament: Tournament, user: User, refusal: str) -> None:
    """``refusal`` names the tournament as ``%(name)s``."""
    if not may_organize(tournament, user):
        raise Forbidden(refusal % {"name": tournament.name})


def _require_before_play(tournament: Tournament, refusal: str) -> None:
    """``refusal`` names the tournament and its state as ``%(name)s`` and ``%(state)s``."""
    if tournament.state not in EDITABLE_STATES:
        raise Conflict(
            refusal % {"name": tournament.name, "state": tournament.get_state_display().lower()}
        )


# What a player or organizer asked for that the tournament's state forbids, each naming the
# tournament (``%(name)s``) and saying why (``%(why)s``, from ``WHY_NOT_NOW``).
STARTED = gettext_lazy("%(name)s %(why)s, so it cannot be started now.")
CANCELLED = gettext_lazy("%(name)s %(why)s, so it cannot be cancelled now.")
JOINED = gettext_lazy("%(name)s %(why)s, so it cannot be joined now.")
LEFT = gettext_lazy("%(name)s %(why)s, so it cannot be left now.")
CHECKED_INTO = gettext_lazy("%(name)s %(why)s, so it cannot be checked into now.")
CHANGED = gettext_lazy("%(name)s %(why)s, so it cannot be changed now.")
WHY_NOT_NOW = {
    TournamentState.DRAFT: pgettext_lazy("a tournament's state, as why", "is still a draft"),
    TournamentState.REGISTRATION: pgettext_lazy(
        "a tournament's state, as why", "is open for registration"
    ),
    TournamentState.RUNNING: pgettext_lazy("a tournament's state, as why", "is already running"),
    TournamentState.FINISHED: pgettext_lazy("a tournament's state, as why", "has finished"),
    TournamentState.CANCELLED: pgettext_lazy("a tournament's state, as why", "has been cancelled"),
}


def _not_now(tournament: Tournament, refusal: StrPromise) -> str:
    why = WHY_NOT_NOW[TournamentState(tournament.state)]
    return str(refusal) % {"name": tournament.name, "why": why}


def _name(user: User) -> str:
    return user.profile.display_name
