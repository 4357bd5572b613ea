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


def publish_tournament(tournament_id: int, *, state: str | None = None) -> None:
    """Tell everyone watching the tournament that it changed, once the change is committed.

    ``state``: the tournament's, when the caller has it; one not drawn yet (taking entries)
    is told plainly, with nothing read."""
    if state in bracket_live.NOT_DRAWN:
        transaction.on_commit(lambda: _send_plain(tournament_id))
    else:
        # Robust: the change stands whatever becomes of its frame (a failure is logged).
        transaction.on_commit(lambda: _send(tournament_id), robust=True)


def _send_plain(tournament_id: int) -> None:
    live.group_send(
        tournament_group(tournament_id), {"type": "tournament.changed", "text": bracket_live.PLAIN}
    )


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
