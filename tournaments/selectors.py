"""Reads for tournaments: the lobby, a tournament with its entrants and prizes, the bracket.

The bracket is read in a fixed number of queries whatever its size: the pairing rows with
both players' names (one query) and the tournament's matches (one query).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count, F, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts.ledger import reads as ledger_reads
from accounts.models import Standing, User
from accounts.money import format_buy_in
from core.rows import columns, prepared_cursor, table
from matches.models import Match, MatchStatus
from tournaments.formats.base import Flight, FormatError
from tournaments.formats.prizes import DEFAULT_SIT_AND_GO_TABLE, WHOLE_POOL, split_pool
from tournaments.formats.side_flights import SIDE_FLIGHT_NAMES
from tournaments.models import (
    Entry,
    EntryStatus,
    Pairing,
    Ticket,
    Tournament,
    TournamentFormat,
    TournamentState,
)

LOBBY_FILTERS = {
    "open": (TournamentState.REGISTRATION,),
    "running": (TournamentState.RUNNING,),
    "finished": (TournamentState.FINISHED, TournamentState.CANCELLED),
}


@dataclass(frozen=True)
class EntryChecks:
    """What deciding a new entry needs, read at once: whether the player holds a seat
    already, their oldest unused ticket to the tournament, (with a capacity) how many
    seats are taken, and the player's standing (None when they have no row)."""

    entered: bool
    ticket_id: int | None
    seated: int | None
    standing: Standing | None


def entry_checks(tournament: Tournament, user: User) -> EntryChecks:
    """One query for ``EntryChecks``; read after the tournament row is locked, so no other
    registration can change what it says before the caller's transaction ends.

    Written as SQL: on the path every registration takes, Django took four times as long to
    build the query as PostgreSQL to answer it, and the standing's own query as long as
    the rest of the checks together.
    """
    entries, tickets = Entry._meta.db_table, Ticket._meta.db_table
    standing = columns(Standing, "s")
    seated = "NULL"
    if tournament.capacity is not None:
        seated = (
            f"(SELECT COUNT(*) FROM {entries} WHERE tournament_id = %(t)s AND status = %(seated)s)"  # noqa: S608
        )
    sql = f"""
        SELECT
            EXISTS (SELECT 1 FROM {entries}
                    WHERE tournament_id = %(t)s AND user_id = %(u)s AND status = %(seated)s),
            (SELECT id FROM {tickets}
             WHERE target_id = %(t)s AND holder_id = %(u)s AND entry_id IS NULL
             ORDER BY id LIMIT 1),
            {seated},
            {standing.sql}
        FROM (SELECT 1) AS one LEFT JOIN {table(Standing)} s ON s.user_id = %(u)s
    """  # noqa: S608 (only table and column names from the models are put into the text)
    with prepared_cursor() as cursor:
        cursor.execute(sql, {"t": tournament.pk, "u": user.pk, "seated": EntryStatus.REGISTERED})
        entered, ticket_id, count, *standing_values = cursor.fetchone()
    found = standing.build(standing_values) if standing_values[0] is not None else None
    assert found is None or isinstance(found, Standing)
    return EntryChecks(entered=entered, ticket_id=ticket_id, seated=count, standing=found)


def seated_count(tournament: Tournament) -> int:
    """How many players hold a seat in ``tournament``."""
    return Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).count()


def check_in_opens(tournament: Tournament) -> datetime | None:
    if tournament.check_in_minutes is None or tournament.starts_at is None:
        return None
    return tournament.starts_at - timedelta(minutes=tournament.check_in_minutes)


def visible_tournaments(*, viewer: User | None) -> QuerySet[Tournament]:
    """Every tournament but other organizers' drafts."""
    shown = ~Q(state=TournamentState.DRAFT)
    if viewer is not None and viewer.is_superuser:
        shown = Q()
    elif viewer is not None:
        shown |= Q(organizer=viewer)
    return Tournament.objects.filter(shown)


def lobby(
    *, viewer: User | None, show: str = "open", format: str = "", limit: int = 100
) -> QuerySet[Tournament]:
    """Tournaments for the lobby, newest first, each with ``seated`` (players holding a seat)
    and followed by the tournaments played beside it (``by_event``)."""
    tournaments = visible_tournaments(viewer=viewer)
    if show in LOBBY_FILTERS:
        tournaments = tournaments.filter(state__in=LOBBY_FILTERS[show])
    elif show == "drafts" and viewer is not None:
        tournaments = tournaments.filter(state=TournamentState.DRAFT, organizer=viewer)
    if format in TournamentFormat.values:
        tournaments = tournaments.filter(format=format)
    return by_event(
        tournaments.select_related("champion__profile").annotate(
            seated=Count("entries", filter=Q(entries__status=EntryStatus.REGISTERED))
        )
    )[:limit]


def by_event(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Newest event first, each main tournament followed by the divisions and side events
    played beside it (``tournaments.divisions``), oldest first."""
    return tournaments.annotate(
        event_created=Coalesce("parent__created_at", "created_at"),
        event_id=Coalesce("parent_id", "id"),
    ).order_by("-event_created", "-event_id", F("parent_id").asc(nulls_first=True), "pk")


def tournaments_of(*, user: User) -> QuerySet[Tournament]:
    """Tournaments ``user`` entered or organizes, newest first, with ``seated`` counted."""
    entered = Entry.objects.filter(user=user).values("tournament_id")
    return by_event(
        Tournament.objects.filter(Q(pk__in=entered) | Q(organizer=user))
        .select_related("champion__profile")
        .annotate(seated=Count("entries", filter=Q(entries__status=EntryStatus.REGISTERED)))
    )


@dataclass(frozen=True)
class PrizeLine:
    place: str
    cents: int


@dataclass(frozen=True)
class NextMatch:
    """The viewer's match in the tournament waiting to be played (or being played)."""

    match_id: int
    opponent: str


def next_match_of(tournament: Tournament, user: User) -> NextMatch | None:
    """``user``'s undecided pairing that has a match, with the opponent's name."""
    row = (
        Pairing.objects.filter(tournament=tournament, winner__isnull=True, match_id__isnull=False)
        .filter(Q(top=user) | Q(bottom=user))
        .values_list(
            "match_id", "top_id", "top__profile__display_name", "bottom__profile__display_name"
        )
        .first()
    )
    if row is None:
        return None
    match_id, top_id, top_name, bottom_name = row
    assert match_id is not None  # filtered above
    return NextMatch(match_id, bottom_name if top_id == user.pk else top_name)


@dataclass
class TournamentView:
    """A tournament as its page and the API show it."""

    tournament: Tournament
    entries: list[Entry]
    pool_cents: int
    prizes: list[PrizeLine]
    tickets: list[Ticket]
    flight_champions: dict[str, FlightChampion]
    viewer_entry: Entry | None
    can_manage: bool
    match_counts: dict[str, int] = field(default_factory=dict)
    next_match: NextMatch | None = None

    @property
    def buy_in(self) -> str:
        return format_buy_in(self.tournament.buy_in_cents, self.tournament.fee_cents)

    @property
    def seated(self) -> int:
        return len(self.entries)


def tournament_view(*, tournament_id: int, viewer: User | None) -> TournamentView:
    """The tournament with its entrants (best placed first once finished) and its prizes."""
    tournament = (
        visible_tournaments(viewer=viewer)
        .select_related("organizer__profile", "champion__profile", "target", "parent")
        .get(pk=tournament_id)
    )
    entries = list(
        Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED)
        .select_related("user__profile")
        .order_by("place", "-user__profile__rating", "pk")
    )
    running_or_done = tournament.state in (TournamentState.RUNNING, TournamentState.FINISHED)
    pool = (
        tournament.prize_pool_cents
        if running_or_done
        else ledger_reads.escrow_balance(
            escrow_ref=tournament.escrow_ref, currency=tournament.currency
        )
    )
    tickets = (
        list(Ticket.objects.filter(satellite=tournament).select_related("holder__profile"))
        if tournament.format == TournamentFormat.SATELLITE
        else []
    )
    viewer_entry = next((e for e in entries if viewer and e.user_id == viewer.pk), None)
    following = (
        next_match_of(tournament, viewer)
        if viewer is not None
        and viewer_entry is not None
        and tournament.state == TournamentState.RUNNING
        else None
    )
    can_manage = viewer is not None and (
        viewer.pk == tournament.organizer_id or viewer.is_superuser
    )
    counts = dict(
        Match.objects.filter(tournament_id=tournament.pk)
        .values_list("status")
        .annotate(n=Count("pk"))
        .values_list("status", "n")
    )
    return TournamentView(
        tournament=tournament,
        entries=entries,
        pool_cents=pool,
        prizes=_prize_lines(tournament, entries, pool),
        tickets=tickets,
        flight_champions=flight_champions(tournament),
        viewer_entry=viewer_entry,
        can_manage=can_manage,
        match_counts=counts,
        next_match=following,
    )


@dataclass(frozen=True)
class FlightChampion:
    username: str
    display_name: str


def flight_champions(tournament: Tournament) -> dict[str, FlightChampion]:
    """The winner of each side flight (consolation, last chance) whose final is decided."""
    if tournament.consolation_through_round is None and tournament.last_chance_reenters_at is None:
        return {}
    rows = (
        Pairing.objects.filter(tournament=tournament, flight__in=list(SIDE_FLIGHT_NAMES))
        .order_by("flight", "-round")
        .values_list("flight", "winner__username", "winner__profile__display_name")
    )
    finals: dict[str, FlightChampion | None] = {}
    for flight, username, name in rows:
        if flight not in finals:  # the flight's last round comes first: its final
            finals[flight] = FlightChampion(username, name) if username else None
    return {flight: champion for flight, champion in finals.items() if champion}


def _prize_lines(tournament: Tournament, entries: list[Entry], pool: int) -> list[PrizeLine]:
    """What each place wins: paid prizes once finished, else what the field would pay now."""
    if tournament.state == TournamentState.FINISHED:
        return [
            PrizeLine(_place(entry), entry.prize_cents)
            for entry in entries
            if entry.prize_cents or entry.won_ticket
        ]
    if tournament.format == TournamentFormat.SATELLITE:
        return []
    field_size = tournament.seats if tournament.starts_when_full else None
    entrants = field_size or len(entries)
    if tournament.state == TournamentState.REGISTRATION and field_size:
        pool = tournament.buy_in_cents * field_size
    if entrants < 2 or pool <= 0:
        return []
    if tournament.prize_table:
        return _table_lines(tournament.prize_table, entrants, pool)
    try:
        shares = DEFAULT_SIT_AND_GO_TABLE.shares_for(entrants)
    except FormatError:
        return []
    parts = split_pool(pool, shares)
    return [PrizeLine(ordinal(place), cents) for place, cents in enumerate(parts, start=1)]


def _table_lines(table: dict[str, list[int]], entrants: int, pool: int) -> list[PrizeLine]:
    """The organizer's table as it would pay a full field: each flight's places and their
    share of the pool (a smaller field passes the unreached places' shares up)."""
    lines = []
    for flight, shares in table.items():
        reached = shares[:entrants]
        for place, share in enumerate(reached, start=1):
            lines.append(PrizeLine(_prize_place(flight, place), pool * share // WHOLE_POOL))
    return lines


def _prize_place(flight: str, place: int) -> str:
    """ "2nd", or "Consolation 2nd" for a place of a flight beside the main one."""
    if flight == Flight.CONSOLATION:
        return _("Consolation %(place)s") % {"place": ordinal(place)}
    return ordinal(place)


def _place(entry: Entry) -> str:
    if entry.place is None:
        return ""
    if entry.shared_to and entry.shared_to != entry.place:
        return f"{ordinal(entry.place)}–{ordinal(entry.shared_to)}"
    return ordinal(entry.place)


def place_label(entry: Entry) -> str:
    return _place(entry)


def ordinal(n: int) -> str:
    """A place as the active language writes it: "1st", "22nd", "13th"; Italian "1º"."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return pgettext("a place", "%(place)sth") % {"place": n}
    if n % 10 == 1:
        return pgettext("a place", "%(place)sst") % {"place": n}
    if n % 10 == 2:
        return pgettext("a place", "%(place)snd") % {"place": n}
    return pgettext("a place", "%(place)srd") % {"place": n}


@dataclass(frozen=True)
class Cancellation:
    """What cancelling the tournament now would do, told on the organizer's confirmation
    page before it is done: the matches being played that end without a result, the
    players told, and the buy-ins and fees given back (in all)."""

    matches_in_play: int
    players: int
    refund_cents: int


def cancellation(tournament: Tournament) -> Cancellation:
    entries = Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED)
    paid = entries.values_list("paid_cents", "fee_cents")
    return Cancellation(
        matches_in_play=Match.objects.filter(
            tournament_id=tournament.pk,
            status__in=(MatchStatus.PLAYING, MatchStatus.SUSPENDED),
        ).count(),
        players=len(paid),
        refund_cents=sum(buy_in + fee for buy_in, fee in paid),
    )
