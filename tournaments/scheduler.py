"""The tournament manager: reads the bracket rows, asks the format, writes what changed.

The formats (``tournaments.formats``) are pure; this module turns a tournament's pairing
rows into a ``Draw``, feeds results to the format, writes back the slots that changed with
compare-and-set updates, creates the matches of pairings that became ready, and pays the
prizes when the format says the tournament is over.

Every function here expects the caller to hold the tournament row's lock
(``locked_tournament``), so one tournament advances one result at a time; running any of
them again after it succeeded changes nothing.

The rows and the draw become one another in ``tournaments.draw_rows``.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import Count, Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Profile
from core import locks, rows
from core.errors import InternalError, NotFound
from core.locks import Lock
from core.rows import update_many
from core.tasks import enqueue_on_commit
from matches.creation import Pair, matches_create_for_tournament
from matches.models import ClockSettings, Match, MatchStatus
from tournaments import events
from tournaments.draw_rows import store_draw, stored_draw, write_changes
from tournaments.endings import finish_tournament
from tournaments.formats.base import (
    Draw,
    Entrant,
    Flight,
    Format,
    PairingKey,
    Placing,
    Result,
)
from tournaments.formats.base import Pairing as FormatPairing
from tournaments.formats.knockout import Seeding, seed_order
from tournaments.formats.prizes import (
    DEFAULT_SIT_AND_GO_TABLE,
    Prize,
    cash_prizes,
    flight_cash_prizes,
)
from tournaments.formats.round_robin import RoundRobin
from tournaments.formats.satellite import Satellite
from tournaments.formats.side_flights import (
    WithSideFlights,
)
from tournaments.formats.sit_and_go import SitAndGo
from tournaments.formats.swiss import Swiss
from tournaments.models import (
    Entry,
    Pairing,
    SwingGame,
    SwingSeat,
    Ticket,
    Tournament,
    TournamentFormat,
    TournamentState,
)
from tournaments.settings.clocks import round_clock
from tournaments.settings.pure import tournament_format
from tournaments.swing import services as swing

logger = logging.getLogger(__name__)
USE_TICKET_TASK = "tournaments.use_ticket"


def locked_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked until the end of the caller's transaction.

    ``Lock.TOURNAMENT``: a dispute and a match come before it, the next match after it
    (``core.locks``). A plain statement: every tournament write starts here, and the
    ORM took longer to build the ``select_for_update`` query and its row than PostgreSQL
    to run it.
    """
    columns = rows.columns(Tournament, "t")
    locks.taken(Lock.TOURNAMENT, tournament_id)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns.sql} FROM {rows.table(Tournament)} t WHERE t.id = %s"  # noqa: S608
            f"{locks.clause('t')}",
            [tournament_id],
        )
        found = cursor.fetchone()
    if found is None:
        raise NotFound(gettext("There is no tournament %(number)s.") % {"number": tournament_id})
    tournament = columns.build(found)
    assert isinstance(tournament, Tournament)
    return tournament


def draw_bracket(tournament: Tournament, entries: Sequence[Entry]) -> Draw:
    """Lay out the first draw among ``entries`` and store every pairing row."""
    pool = sum(entry.paid_cents for entry in entries)
    fmt = tournament_format(tournament, pool_cents=pool)
    # The ratings alone, not every entrant's user and profile made instances.
    ratings = dict(
        Profile.objects.filter(
            user_id__in=rows.among([entry.user_id for entry in entries])
        ).values_list("user_id", "rating")
    )
    entrants = [
        Entrant(entry.user_id, rating=ratings[entry.user_id], seed=entry.seed) for entry in entries
    ]
    draw = fmt.initial_draw(entrants, random.Random(tournament.draw_seed))
    # The draw ranks the field first with the same random state; keep each entry's seed.
    ranked = seed_order(entrants, Seeding(tournament.seeding), random.Random(tournament.draw_seed))
    seeds = {entrant.id: number for number, entrant in enumerate(ranked, start=1)}
    for entry in entries:
        entry.drawn_seed = seeds.get(entry.user_id)
    update_many(entries, ["drawn_seed"])
    store_draw(tournament, draw)
    return draw


# ---------------------------------------------------------------- results


def record_match_result(tournament: Tournament, match: Match) -> bool:
    """Record the finished ``match``'s winner and move the tournament on; False if done before."""
    if tournament.format == TournamentFormat.SWING and tournament.state == TournamentState.RUNNING:
        return swing.record_game(tournament, match)
    if tournament.state != TournamentState.RUNNING or match.status != MatchStatus.FINISHED:
        return False
    if match.winner_seat is None:
        logger.error("tournament match %s finished without a winner", match.pk)
        return False
    draw, rows = stored_draw(tournament)
    row = next((r for r in rows.values() if r.match_id == match.pk), None)
    if row is None or row.winner_id is not None:
        return False
    winner = match.player_id(match.winner_seat)
    key = PairingKey(Flight(row.flight), row.round, row.position)
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
    results = list(results)
    after = fmt.advance(draw, results)
    write_changes(tournament, draw, after, rows)
    for result in results:
        loser = after.pairing(result.key).loser
        if isinstance(loser, int) and _eliminated(fmt, after, loser):
            events.publish(events.PlayerEliminated(tournament.pk, loser))
    if fmt.is_finished(after):
        _finish(tournament, fmt, after)
    else:
        start_ready_matches(tournament, fmt, after, rows)
    events.publish_tournament(tournament.pk)
    return after


def _eliminated(fmt: Format, draw: Draw, entrant: int) -> bool:
    """Whether a loss put ``entrant`` out. In a Swiss or a round robin everyone plays on (a
    Swiss's next round is paired only once this one ends): their places come at the end."""
    return not isinstance(fmt, Swiss | RoundRobin) and not _still_playing(draw, entrant)


def _still_playing(draw: Draw, entrant: int) -> bool:
    """Whether ``entrant`` holds a side of a pairing not yet decided."""
    return any(
        pairing.winner is None and entrant in (pairing.top, pairing.bottom)
        for pairing in draw.pairings
    )


def start_ready_matches(
    tournament: Tournament, fmt: Format, draw: Draw, rows: dict[PairingKey, Pairing]
) -> int:
    """Create the match of every ready pairing that has none yet; returns how many."""
    waiting = [
        pairing for pairing in fmt.ready_pairings(draw) if rows[pairing.key].match_id is None
    ]
    if not waiting:
        return 0
    # The tournament is locked: nobody else gives these pairings their matches meanwhile.
    deadline = (
        timezone.now() + timedelta(minutes=tournament.round_minutes)
        if tournament.round_minutes
        else None
    )
    # One batch of matches per time control: each flight's rounds may have their own
    # (``tournaments.settings.clocks``).
    batches: dict[str, tuple[dict[str, object], list[FormatPairing]]] = {}
    rounds = {flight: len(draw.rounds(flight)) for flight in {p.key.flight for p in waiting}}
    for pairing in waiting:
        flight, round_ = pairing.key.flight, pairing.key.round
        clock = round_clock(tournament, flight, round_, rounds[flight])
        batch = batches.setdefault(json.dumps(clock, sort_keys=True), (clock, []))
        batch[1].append(pairing)
    started = []
    for clock, pairings in batches.values():
        matches = matches_create_for_tournament(
            tournament_id=tournament.pk,
            pairs=[Pair(*_players(pairing), pairing.match_length) for pairing in pairings],
            clock_settings=ClockSettings.from_json(clock),
            show_up_seconds=tournament.show_up_seconds,
            rated=True,
            abandon_policy=tournament.abandon_policy,
        )
        for pairing, match in zip(pairings, matches, strict=True):
            row = rows[pairing.key]
            if row.match_id is not None:
                raise InternalError(f"{row} got a second match")
            row.match_id, row.deadline = match.pk, deadline
            started.append(row)
    update_many(started, ["match_id", "deadline"])
    return len(started)


def _players(pairing: FormatPairing) -> tuple[int, int]:
    assert isinstance(pairing.top, int)
    assert isinstance(pairing.bottom, int)
    return pairing.top, pairing.bottom


# ---------------------------------------------------------------- tasks' entry points


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
    tournament = locked_tournament(tournament_id)
    match = Match.objects.get(pk=match_id)
    return record_match_result(tournament, match)


@transaction.atomic
def matches_start(*, tournament_id: int) -> int:
    """Create the matches of ready pairings that have none; returns how many were created."""
    tournament = locked_tournament(tournament_id)
    if tournament.state != TournamentState.RUNNING:
        return 0
    if tournament.format == TournamentFormat.SWING:
        return swing.pair_and_start(tournament)
    fmt = tournament_format(tournament, pool_cents=tournament.prize_pool_cents)
    draw, rows = stored_draw(tournament)
    created = start_ready_matches(tournament, fmt, draw, rows)
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
            locks.select(Lock.PAIRING, Pairing.objects.all(), skip_locked=True)
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
    swing_unsettled = SwingGame.objects.filter(
        tournament__state=TournamentState.RUNNING,
        settled_at__isnull=True,
        match_id__in=Match.objects.filter(status__in=swing.SETTLED_STATUSES).values("pk"),
    ).values_list("match_id", flat=True)
    unrecorded += list(swing_unsettled)
    swing_free = (
        SwingSeat.objects.filter(
            tournament__state=TournamentState.RUNNING,
            out_at__isnull=True,
            current_match_id__isnull=True,
        )
        .values("tournament_id")
        .annotate(free=Count("pk"))
        .filter(free__gte=2)
        .values_list("tournament_id", flat=True)
    )
    unstarted = sorted({*unstarted, *swing_free})
    due = list(
        Tournament.objects.filter(
            state=TournamentState.REGISTRATION, starts_at__lte=moment
        ).values_list("pk", flat=True)
    )
    return SweepReport(len(overdue), [m for m in unrecorded if m is not None], unstarted, due)


# ---------------------------------------------------------------- the end


def _finish(tournament: Tournament, fmt: Format, draw: Draw) -> None:
    """Placings, prizes through the ledger, satellite tickets, and the finished state."""
    prizes = _prizes(tournament, fmt, draw)
    finish_tournament(tournament, fmt.placings(draw), prizes)
    if tournament.format == TournamentFormat.SATELLITE:
        _issue_tickets(tournament, [prize.entrant for prize in prizes if prize.ticket])


def _prizes(tournament: Tournament, fmt: Format, draw: Draw) -> tuple[Prize, ...]:
    """By the organizer's prize table, flight by flight; without one, the format's own (a
    Sit & Go's, a satellite's tickets) or the published table for the main places."""
    pool = tournament.prize_pool_cents
    if isinstance(fmt, Satellite):
        return fmt.prizes(draw)
    table = {Flight(name): tuple(shares) for name, shares in tournament.prize_table.items()}
    if not table and isinstance(fmt, SitAndGo):
        return fmt.prizes(draw, pool_cents=pool)
    if pool == 0:
        return ()
    if not table:
        placings = fmt.placings(draw)
        return cash_prizes(pool, DEFAULT_SIT_AND_GO_TABLE.shares_for(len(placings)), placings)
    return flight_cash_prizes(
        pool, table, {flight: _flight_placings(fmt, draw, flight) for flight in table}
    )


def _flight_placings(fmt: Format, draw: Draw, flight: Flight) -> tuple[Placing, ...]:
    if isinstance(fmt, WithSideFlights):
        return fmt.flight_placings(draw, flight)
    return fmt.placings(draw) if flight is Flight.MAIN else ()


def _issue_tickets(satellite: Tournament, holders: Sequence[int]) -> None:
    """A ticket for each winner; each is used once this commits, if the target is open."""
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
        if ticket.entry_id is None:
            enqueue_on_commit(USE_TICKET_TASK, ticket.pk)
