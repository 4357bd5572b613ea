"""What the bracket's watchers are told when the tournament changes: one frame, rendered and
encoded once whoever watches.

For a tournament drawn as flights (a knockout, double elimination, a satellite, ...) the
frame carries the markup of the slots that changed, ``{"type": "changed", "slots": {key:
html}}``, and the page puts them in place without asking for anything. Which slots changed
is found by comparing each slot's digest (of everything its markup shows) with those of
the last frame, kept in the cache. When that cannot say (no digests kept, the draw's shape
or the current round changed, more than ``MAX_SLOTS`` slots at once, a Swiss's standings,
a swing's chips, a tournament not drawn yet) the frame is the plain ``{"type": "changed"}``
and each page fetches what it shows again, as before. A change of the tournament's state
(its start, its cancellation) changes the shape, so its frame is plain whatever the slots
say: it is sent without reading the bracket (``tournaments.events.publish_tournament``),
and the next frame keeps the digests.

The slots are written in the site's language, and once more in each other language the
site speaks (``"translated": {"it": {key: html}}``); a page takes those of its own.

Frames of one tournament are built one at a time (a PostgreSQL advisory lock held from the
read to the send), so a frame never reaches the watchers after one built from a later
read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import translation

from core import locks
from core.live import frame_text
from core.locks import Lock
from core.outages import outage_of
from tournaments.bracket.html import slot_html
from tournaments.bracket.layout import Cell, FlightLayout, flights
from tournaments.bracket.page import current_round
from tournaments.bracket.reads import bracket
from tournaments.models import Tournament, TournamentFormat, TournamentState
from tournaments.reads.rounds import ROUND_BY_ROUND

MAX_SLOTS = 64
KEPT_SECONDS = 7 * 24 * 3600
PLAIN = frame_text({"type": "changed"})
NOT_DRAWN = (TournamentState.DRAFT, TournamentState.REGISTRATION)
SHAPE = ""  # the digests' entry for the state and the current rounds


def digests_key(tournament_id: int) -> str:
    return f"bracket-slots:{tournament_id}"


@contextmanager
def one_at_a_time(tournament_id: int) -> Iterator[None]:
    """Hold the tournament's frame lock: build the frame and send it within."""
    with transaction.atomic():
        locks.advisory(Lock.BRACKET_FRAMES, tournament_id)
        yield


def changed_frame(tournament_id: int) -> str | None:
    """The frame, as text, that tells every watcher of the tournament what changed; None
    when nothing the bracket shows did. Its digests and slots are the site language's,
    whoever's request or task asked for it."""
    with translation.override(settings.LANGUAGE_CODE):
        return _changed_frame(tournament_id)


def _changed_frame(tournament_id: int) -> str | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if (
        tournament is None
        or tournament.state in NOT_DRAWN
        or tournament.format in (*ROUND_BY_ROUND, TournamentFormat.SWING)
    ):
        return PLAIN
    layouts = flights(bracket(tournament), tournament.format)
    cells = _cells(layouts)
    digests = {key: _digest(cell) for key, cell in cells.items()}
    # The start's moment too: digests kept for another database's tournament of this id
    # (a test run's, a restored copy's) never pass for this one's.
    shape = (tournament.started_at, tournament.state, [current_round(x) for x in layouts])
    digests[SHAPE] = _digest(shape)
    try:
        before: dict[str, bytes] | None = cache.get(digests_key(tournament_id))
        cache.set(digests_key(tournament_id), digests, KEPT_SECONDS)
    except Exception as error:
        if outage_of(error) is None:
            raise
        return PLAIN  # Redis is away: the frame is lost too (core.live), and no harm done
    if before is None or before.keys() != digests.keys() or before[SHAPE] != digests[SHAPE]:
        return PLAIN
    changed = [key for key, digest in digests.items() if before[key] != digest]
    if not changed:
        return None
    if len(changed) > MAX_SLOTS:
        return PLAIN
    many = len(layouts) > 1
    frame: dict[str, Any] = {
        "type": "changed",
        "slots": {key: slot_html(cells[key], many=many) for key in changed},
        "translated": {},
    }
    for language, _name in settings.LANGUAGES:
        if language == settings.LANGUAGE_CODE:
            continue
        with translation.override(language):
            theirs = _cells(flights(bracket(tournament), tournament.format))
            frame["translated"][language] = {
                key: slot_html(theirs[key], many=many) for key in changed
            }
    return frame_text(frame)


def _cells(layouts: list[FlightLayout]) -> dict[str, Cell]:
    return {
        cell.key: cell
        for layout in layouts
        for column in layout.columns
        for cell in column.cells
        if cell.slot is not None
    }


def _digest(value: object) -> bytes:
    # The frozen dataclasses' repr names every field the markup shows.
    return hashlib.blake2b(repr(value).encode(), digest_size=8).digest()
