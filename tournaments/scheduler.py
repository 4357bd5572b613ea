"""The tournament manager: reads the bracket rows, asks the format, writes what changed.

The formats (``tournaments.formats``) are pure; this module turns a tournament's pairing
rows into a ``Draw``, feeds results to the format, writes back the slots that changed with
compare-and-set updates, creates the matches of pairings that became ready, and pays the
prizes when the format says the tournament is over.

Every function here expects the caller to hold the tournament row's lock
(``locked_tournament``), so one tournament advances one result at a time; running any of
them again after it succeeded changes nothing.

All formats here are knockouts: a pending side of round r, position p waits for the winner
of round r - 1, position 2p (top) or 2p + 1 (bottom).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable, Sequence
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts import ledger
from accounts.models import User
from config.errors import DomainError, InternalError
from matches.models import Match, MatchStatus
from matches.services import ClockSettings, match_create_for_tournament
from tournaments import events
from tournaments.formats.base import (
    BYE,
    Draw,
    Entrant,
    Flight,
    Format,
    FormatError,
    PairingKey,
    Result,
    Side,
    WinnerOf,
)
from tournaments.formats.base import Pairing as DrawPairing
from tournaments.formats.knockout import Knockout, KnockoutOptions, Seeding
from tournaments.formats.prizes import DEFAULT_SIT_AND_GO_TABLE, Prize, cash_prizes, split_pool
from tournaments.formats.satellite import Satellite, SatelliteOptions, TargetTournament
from tournaments.formats.sit_and_go import SitAndGo, SitAndGoOptions
from tournaments.models import (
    Entry,
    EntryStatus,
    Pairing,
    Ticket,
    Tournament,
    TournamentFormat,
    TournamentState,
)

logger = logging.getLogger(__name__)


def locked_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked until the end of the caller's transaction."""
    try:
        return Tournament.objects.select_for_update(of=("self",)).get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise DomainError(f"There is no tournament {tournament_id}.") from None


def tournament_format(tournament: Tournament, *, pool_cents: int) -> Format:
    """The pure format for the tournament's settings; FormatError says what is wrong."""
    lengths = tuple(tournament.round_lengths)
    seeding = Seeding(tournament.seeding)
    if tournament.format == TournamentFormat.SIT_AND_GO:
        assert tournament.seats is not None
        return SitAndGo(SitAndGoOptions(tournament.seats, lengths, seating=seeding))
    if tournament.format == TournamentFormat.SATELLITE:
        target = tournament.target
        assert target is not None
        return Satellite(
            SatelliteOptions(
                lengths,
                TargetTournament(target.name, target.buy_in_cents),
                prize_pool_cents=pool_cents,
                seeding=seeding,
            )
        )
    return Knockout(KnockoutOptions(lengths, seeding))


# ---------------------------------------------------------------- the draw


def draw_bracket(tournament: Tournament, entries: Sequence[Entry]) -> Draw:
    """Lay out the first draw among ``entries`` and store every pairing row."""
    pool = sum(entry.paid_cents for entry in entries)
    fmt = tournament_format(tournament, pool_cents=pool)
    entrants = [
        Entrant(entry.user_id, rating=entry.user.profile.rating, seed=entry.seed)
        for entry in entries
    ]
    draw = fmt.initial_draw(entrants, random.Random(tournament.draw_seed))
    now = timezone.now()
    Pairing.objects.bulk_create(
        Pairing(
            tournament=tournament,
            round=pairing.key.round,
            position=pairing.key.position,
            top_id=pairing.top if isinstance(pairing.top, int) else None,
            top_bye=pairing.top is BYE,
            bottom_id=pairing.bottom if isinstance(pairing.bottom, int) else None,
            bottom_bye=pairing.bottom is BYE,
            match_length=pairing.match_length,
            winner_id=pairing.winner,
            decided_at=now if pairing.winner is not None else None,
        )
        for pairing in draw.pairings
    )
    return draw


def stored_draw(tournament: Tournament) -> tuple[Draw, dict[PairingKey, Pairing]]:
    """The draw as its rows say, and the rows by key."""
    rows = list(
        Pairing.objects.filter(tournament=tournament)
        .only(
            "pk",
            "round",
            "position",
            "top_id",
            "top_bye",
            "bottom_id",
            "bottom_bye",
            "match_length",
            "match_id",
            "winner_id",
        )
        .order_by("round", "position")
    )
    by_key = {PairingKey(Flight.MAIN, row.round, row.position): row for row in rows}
    pairings = [
        DrawPairing(
            key,
            _side(row.top_id, row.top_bye, key, 0),
            _side(row.bottom_id, row.bottom_bye, key, 1),
            row.match_length,
            row.winner_id,
        )
        for key, row in by_key.items()
    ]
    return Draw(tuple(pairings)), by_key


def _side(user_id: int | None, bye: bool, key: PairingKey, offset: int) -> Side:
    if bye:
        return BYE
    if user_id is not None:
        return user_id
    return WinnerOf(PairingKey(key.flight, key.round - 1, 2 * key.position + offset))


# ---------------------------------------------------------------- results


def record_match_result(tournament: Tournament, match: Match) -> bool:
    """Record the finished ``match``'s winner and move the tournament on; False if done before."""
    if tournament.state != TournamentState.RUNNING or match.status != MatchStatus.FINISHED:
        return False
    if match.winner_seat is None:
        logger.error("tournament match %s finished without a winner", match.pk)
        return False
    draw, rows = stored_draw(tournament)
    row = next((r for r in rows.values() if r.match_id == match.pk), None)
    if row is None or row.winner_id is not None:
        return False
    winner = match.player_0_id if match.winner_seat == 0 else match.player_1_id
    key = PairingKey(Flight.MAIN, row.round, row.position)
    advance(tournament, draw, rows, [Result(key, winner)])
    return True


def advance(
    tournament: Tournament,
    draw: Draw,
    rows: dict[PairingKey, Pairing],
    results: Iterable[Result],
) -> Draw:
    """Feed ``results`` to the format, write the changed slots, start or finish what is due."""
    fmt = tournament_format(tournament, pool_cents=tournament.prize_pool_cents)
    after = fmt.advance(draw, results)
    _write_changes(draw, after, rows)
    if fmt.is_finished(after):
        _finish(tournament, fmt, after)
    else:
        start_ready_matches(tournament, fmt, after, rows)
    events.publish_tournament(tournament.pk)
    return after


def _write_changes(before: Draw, after: Draw, rows: dict[PairingKey, Pairing]) -> None:
    now = timezone.now()
    for old, new in zip(before.pairings, after.pairings, strict=True):
        if old == new:
            continue
        row = rows[new.key]
        changes: dict[str, object] = {}
        if old.top != new.top and isinstance(new.top, int):
            changes["top_id"] = row.top_id = new.top
        if old.bottom != new.bottom and isinstance(new.bottom, int):
            changes["bottom_id"] = row.bottom_id = new.bottom
        if old.winner is None and new.winner is not None:
            changes["winner_id"] = row.winner_id = new.winner
            changes["decided_at"] = now
        # Compare-and-set: a slot is filled and decided once; a second writer changes nothing.
        written = Pairing.objects.filter(pk=row.pk, winner__isnull=True).update(**changes)
        if written != 1:
            raise InternalError(f"{row} was decided by someone else")


def start_ready_matches(
    tournament: Tournament, fmt: Format, draw: Draw, rows: dict[PairingKey, Pairing]
) -> int:
    """Create the match of every ready pairing that has none yet; returns how many."""
    waiting = [
        pairing for pairing in fmt.ready_pairings(draw) if rows[pairing.key].match_id is None
    ]
    if not waiting:
        return 0
    player_ids = {side for pairing in waiting for side in (pairing.top, pairing.bottom)}
    players = User.objects.select_related("profile").in_bulk(player_ids)
    clock = ClockSettings(**tournament.clock) if tournament.clock else None
    deadline_after = (
        timedelta(minutes=tournament.round_minutes) if tournament.round_minutes else None
    )
    for pairing in waiting:
        assert isinstance(pairing.top, int)
        assert isinstance(pairing.bottom, int)
        match = match_create_for_tournament(
            tournament_id=tournament.pk,
            player_0=players[pairing.top],
            player_1=players[pairing.bottom],
            length=pairing.match_length,
            clock=clock,
            show_up_seconds=tournament.show_up_seconds,
            rated=True,
            abandon_policy=tournament.abandon_policy,
        )
        row = rows[pairing.key]
        deadline = timezone.now() + deadline_after if deadline_after else None
        written = Pairing.objects.filter(pk=row.pk, match_id__isnull=True).update(
            match_id=match.pk, deadline=deadline
        )
        if written != 1:
            raise InternalError(f"{row} got a second match")
        row.match_id = match.pk
    return len(waiting)


# ---------------------------------------------------------------- the end


def _finish(tournament: Tournament, fmt: Format, draw: Draw) -> None:
    """Placings, prizes through the ledger, satellite tickets, and the finished state."""
    placings = fmt.placings(draw)
    prizes = {prize.entrant: prize for prize in _prizes(tournament, fmt, draw)}
    entries = {
        entry.user_id: entry
        for entry in Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED)
    }
    for placing in placings:
        entry = entries[placing.entrant]
        prize = prizes.get(placing.entrant, Prize(placing.entrant, 0))
        entry.place, entry.shared_to = placing.place, placing.shared_to
        entry.prize_cents, entry.won_ticket = prize.cash_cents, prize.ticket
    Entry.objects.bulk_update(
        entries.values(), ["place", "shared_to", "prize_cents", "won_ticket"], batch_size=1000
    )
    payouts = {user_id: prize.cash_cents for user_id, prize in prizes.items() if prize.cash_cents}
    if payouts:
        ledger.prize_payout(
            escrow_ref=tournament.escrow_ref,
            currency=tournament.currency,
            payouts=payouts,
            key=f"{tournament.escrow_ref}:prizes",
        )
    if tournament.format == TournamentFormat.SATELLITE:
        _issue_tickets(tournament, [user_id for user_id, p in prizes.items() if p.ticket])
    champion = placings[0].entrant if placings and placings[0].shared_to == 1 else None
    finished = Tournament.objects.filter(pk=tournament.pk, state=TournamentState.RUNNING).update(
        state=TournamentState.FINISHED, finished_at=timezone.now(), champion_id=champion
    )
    if finished != 1:
        raise InternalError(f"{tournament} finished twice")
    tournament.state = TournamentState.FINISHED


def _prizes(tournament: Tournament, fmt: Format, draw: Draw) -> tuple[Prize, ...]:
    pool = tournament.prize_pool_cents
    if isinstance(fmt, SitAndGo):
        return fmt.prizes(draw, pool_cents=pool)
    if isinstance(fmt, Satellite):
        return fmt.prizes(draw)
    placings = fmt.placings(draw)
    if pool == 0:
        return ()
    return cash_prizes(pool, DEFAULT_SIT_AND_GO_TABLE.shares_for(len(placings)), placings)


def _issue_tickets(satellite: Tournament, holders: Sequence[int]) -> None:
    """A ticket for each winner, used at once when the target is open for registration."""
    from tournaments.services import ticket_use  # services build on the scheduler

    target = satellite.target
    assert target is not None
    for holder_id in holders:
        ticket, _ = Ticket.objects.get_or_create(
            satellite=satellite,
            holder_id=holder_id,
            defaults={
                "target": target,
                "value_cents": target.buy_in_cents,
                "currency": satellite.currency,
            },
        )
        if ticket.entry_id is not None:
            continue
        try:
            with transaction.atomic():
                ticket_use(ticket=ticket)
        except DomainError as refusal:
            logger.info("ticket %s kept for later: %s", ticket.pk, refusal)


def prize_preview(tournament: Tournament, *, entrants: int, pool_cents: int) -> list[int]:
    """Cents per place, best first, that a field of ``entrants`` would pay (cash formats)."""
    if entrants < 2 or pool_cents <= 0:
        return []
    try:
        if tournament.format == TournamentFormat.SIT_AND_GO and tournament.seats:
            shares = DEFAULT_SIT_AND_GO_TABLE.shares_for(tournament.seats)
        else:
            shares = DEFAULT_SIT_AND_GO_TABLE.shares_for(entrants)
    except FormatError:
        return []
    return list(split_pool(pool_cents, shares))


def pool_so_far(tournament: Tournament) -> int:
    """The buy-ins held for the tournament now: the escrow, whatever the state."""
    return ledger.escrow_balance(escrow_ref=tournament.escrow_ref, currency=tournament.currency)
