"""The one publisher of tournament events, always after the transaction commits.

Each tournament has a channel-layer group ``tournament.<id>``. Its consumers are told that
the tournament changed (an entry, a filled slot, a result, the end): with the changed
slots' markup, rendered once for every watcher, or plainly, and then the page fetches the
bracket again (``tournaments.bracket.live``). Nothing is broadcast that a spectator could
not read on the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from core import bus, live
from tournaments.bracket import live as bracket_live


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def publish_tournament(
    tournament_id: int, *, state: str | None = None, moved: bool = False
) -> None:
    """Tell everyone watching the tournament that it changed, once the change is committed.

    ``state``: the tournament's, when the caller has it; one not drawn yet (taking entries)
    is told plainly, with nothing read. ``moved``: the tournament changed state (it opened,
    started or was cancelled), which changes the shape of every page: the frame would be
    plain whatever the bracket shows (``tournaments.bracket.live``), so it is sent plainly
    without reading the bracket, and the next frame reads it and keeps its slots' digests.
    """
    if state in bracket_live.NOT_DRAWN:
        transaction.on_commit(lambda: _send_plain(tournament_id))
    elif moved:
        transaction.on_commit(lambda: _send_plain_in_turn(tournament_id), robust=True)
    else:
        # Robust: the change stands whatever becomes of its frame (a failure is logged).
        transaction.on_commit(lambda: _send(tournament_id), robust=True)


def _send_plain(tournament_id: int) -> None:
    live.group_send(
        tournament_group(tournament_id), {"type": "tournament.changed", "text": bracket_live.PLAIN}
    )


def _send_plain_in_turn(tournament_id: int) -> None:
    """The plain frame, after any frame being built from an earlier read: a page that
    fetched the bracket again on this one never has an older frame's slots put over it."""
    with bracket_live.one_at_a_time(tournament_id):
        _send_plain(tournament_id)


def _send(tournament_id: int) -> None:
    with bracket_live.one_at_a_time(tournament_id):
        text = bracket_live.changed_frame(tournament_id)
        if text is not None:
            live.group_send(
                tournament_group(tournament_id), {"type": "tournament.changed", "text": text}
            )


# Domain events (``core.bus``), for the apps above: the lobby tells the players.


@dataclass(frozen=True)
class TournamentStarted:
    tournament_id: int
    entrant_ids: tuple[int, ...]


@dataclass(frozen=True)
class PlayerEliminated:
    """``user_id`` lost a match that left them no way on in the tournament."""

    tournament_id: int
    user_id: int


@dataclass(frozen=True)
class SwingWaiting:
    """In a swing, ``user_id`` is free with nobody free to play: they wait for the next game
    to end."""

    tournament_id: int
    user_id: int


@dataclass(frozen=True)
class Finish:
    """Where one entrant finished: place (to ``shared_to``), cash prize, a ticket won."""

    user_id: int
    place: int
    shared_to: int
    prize_cents: int
    ticket: bool


@dataclass(frozen=True)
class TournamentFinished:
    tournament_id: int
    champion_id: int | None
    currency: str
    finishes: tuple[Finish, ...]


@dataclass(frozen=True)
class TournamentCancelled:
    """The organizer cancelled the tournament: each of ``entrant_ids`` has their buy-in and
    fee back, and the matches still being played (``stopped_match_ids``) ended without a
    result."""

    tournament_id: int
    entrant_ids: tuple[int, ...]
    stopped_match_ids: tuple[int, ...]


def publish(
    event: TournamentStarted
    | PlayerEliminated
    | SwingWaiting
    | TournamentFinished
    | TournamentCancelled,
) -> None:
    bus.publish_on_commit(event)
