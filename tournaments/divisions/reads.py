"""Reads for divisions and side events: a tournament's event as its page and the API show
it, and who may enter, in words."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, Count, IntegerField, Q, Value, When

from accounts.models import User
from tournaments.divisions.limits import entry_refusal, limit_words
from tournaments.models import EntryStatus, SideKind, Tournament, TournamentState
from tournaments.selectors import visible_tournaments

# The order an event's tournaments are listed in: the main one, its divisions, then the
# side events.
SIDE_ORDER = Case(
    When(side="", then=Value(0)),
    When(side=SideKind.DIVISION, then=Value(1)),
    When(side=SideKind.JACKPOT, then=Value(2)),
    default=Value(3),
    output_field=IntegerField(),
)


@dataclass(frozen=True)
class EventRow:
    """One tournament of an event, with who may enter it in words."""

    tournament: Tournament
    limits: str


@dataclass(frozen=True)
class EventView:
    """A tournament's event: its main tournament and those played beside it, each with
    ``seated`` counted, in ``SIDE_ORDER``."""

    main: Tournament
    members: list[Tournament]

    @property
    def rows(self) -> list[EventRow]:
        return [EventRow(t, " · ".join(limit_words(t))) for t in self.members]


def event_of(tournament: Tournament, *, viewer: User | None) -> EventView:
    """The event ``tournament`` belongs to, as ``viewer`` may see it (other organizers'
    drafts left out). Two queries."""
    main_id = tournament.parent_id or tournament.pk
    members: list[Tournament] = list(
        visible_tournaments(viewer=viewer)
        .filter(Q(pk=main_id) | Q(parent_id=main_id))
        .annotate(
            seated=Count("entries", filter=Q(entries__status=EntryStatus.REGISTERED)),
            listed=SIDE_ORDER,
        )
        .order_by("listed", "pk")
    )
    main: Tournament | None = next((t for t in members if t.pk == main_id), None)
    if main is None:  # a side event of a draft the viewer may not see
        main = Tournament.objects.get(pk=main_id)
    return EventView(main, members)


def may_add_beside(tournament: Tournament, viewer: User | None) -> bool:
    """Whether ``viewer`` may add a division or side event beside ``tournament``."""
    return (
        viewer is not None
        and tournament.parent_id is None
        and (viewer.pk == tournament.organizer_id or viewer.is_superuser)
        and tournament.state not in (TournamentState.FINISHED, TournamentState.CANCELLED)
    )


def viewer_refusal(tournament: Tournament, viewer: User | None) -> str | None:
    """Why the viewer could not enter now, shown on the page in place of the button."""
    if viewer is None or tournament.state != TournamentState.REGISTRATION:
        return None
    return entry_refusal(tournament, viewer)


def event_data(tournament: Tournament, *, viewer: User | None) -> dict[str, object]:
    """The API's fields for the tournament's place in its event and who may enter it
    (``serializers.DivisionOutputFields``)."""
    event = event_of(tournament, viewer=viewer)
    return {
        "parent": tournament.parent_id,
        "side": tournament.side,
        "division": tournament.division,
        "min_rating": tournament.min_rating,
        "max_rating": tournament.max_rating,
        "max_rated_matches": tournament.max_rated_matches,
        "entry_limits": limit_words(tournament),
        "event": [
            {
                "id": member.pk,
                "name": member.name,
                "side": member.side,
                "division": member.division,
                "format": member.format,
                "state": member.state,
                "seated": member.seated,  # type: ignore[attr-defined]  # counted by event_of
            }
            for member in event.members
        ]
        if len(event.members) > 1
        else [],
    }
