"""A tournament's draw as its pairing rows: written when laid out, read back, and changed
slot by slot as results come in.

Each row keeps its sides' sources as the format laid them out
(``winner:<flight>:<round>:<position>`` or ``loser:...``), so the draw read back from the
rows is the one the format made, and bracket corrections (``tournaments.corrections``)
follow the same sources instead of restating the geometry. A format that pairs as it goes
(a Swiss's next round, a knockout stage after groups) adds pairings to the draw; they are
inserted as new rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from django.utils import timezone

from core.errors import InternalError
from core.rows import insert_many
from tournaments.formats.base import BYE, Draw, Flight, LoserOf, PairingKey, Side, WinnerOf
from tournaments.formats.base import Pairing as DrawPairing
from tournaments.models import Pairing, Tournament


def store_pairings(
    tournament: Tournament, draw: Draw, pairings: Sequence[DrawPairing]
) -> list[Pairing]:
    """Insert a row for each of ``pairings`` of ``draw`` (new slots); returns the rows."""
    now = timezone.now()
    new_rows = [
        Pairing(
            tournament=tournament,
            flight=pairing.key.flight.value,
            round=pairing.key.round,
            position=pairing.key.position,
            top_id=pairing.top if isinstance(pairing.top, int) else None,
            top_bye=pairing.top is BYE,
            top_source=source_text(draw.source(pairing.key, "top")),
            bottom_id=pairing.bottom if isinstance(pairing.bottom, int) else None,
            bottom_bye=pairing.bottom is BYE,
            bottom_source=source_text(draw.source(pairing.key, "bottom")),
            match_length=pairing.match_length,
            winner_id=pairing.winner,
            decided_at=now if pairing.winner is not None else None,
        )
        for pairing in pairings
    ]
    insert_many(new_rows)
    return new_rows


def key_text(key: PairingKey) -> str:
    return f"{key.flight.value}:{key.round}:{key.position}"


def source_text(side: WinnerOf | LoserOf | None) -> str:
    """How a row stores where a side's player comes from ("" for a side drawn at once)."""
    if isinstance(side, WinnerOf):
        return f"winner:{key_text(side.key)}"
    if isinstance(side, LoserOf):
        return f"loser:{key_text(side.key)}"
    return ""


@lru_cache(maxsize=1 << 16)
def source_side(source: str) -> WinnerOf | LoserOf:
    """A side's stored source read back: the inverse of ``source_text`` (never "").

    Kept: every frame of a bracket's watchers reads every slot's sources again, and the
    answer (a frozen value) is the same each time."""
    which, flight, round_, position = source.split(":")
    key = PairingKey(Flight(flight), int(round_), int(position))
    return WinnerOf(key) if which == "winner" else LoserOf(key)


def stored_draw(tournament: Tournament) -> tuple[Draw, dict[PairingKey, Pairing]]:
    """The draw as its rows say, and the rows by key."""
    rows = list(
        Pairing.objects.filter(tournament=tournament)
        .only(
            "pk",
            "round",
            "position",
            "flight",
            "top_id",
            "top_bye",
            "top_source",
            "bottom_id",
            "bottom_bye",
            "bottom_source",
            "match_length",
            "match_id",
            "winner_id",
        )
        .order_by("pk")
    )
    by_key = {PairingKey(Flight(row.flight), row.round, row.position): row for row in rows}
    pairings = [
        DrawPairing(
            key,
            _side(row.top_id, row.top_bye, row.top_source),
            _side(row.bottom_id, row.bottom_bye, row.bottom_source),
            row.match_length,
            row.winner_id,
        )
        for key, row in by_key.items()
    ]
    return Draw(tuple(pairings)), by_key


def laid_out(rows: Iterable[Pairing]) -> list[DrawPairing]:
    """The rows' pairings as their format laid them out: a side with a source waits on it
    again and nothing is decided (``formats.base.replay`` plays the results on them again)."""
    return [
        DrawPairing(
            PairingKey(Flight(row.flight), row.round, row.position),
            source_side(row.top_source) if row.top_source else _side(row.top_id, row.top_bye, ""),
            source_side(row.bottom_source)
            if row.bottom_source
            else _side(row.bottom_id, row.bottom_bye, ""),
            row.match_length,
        )
        for row in rows
    ]


def _side(user_id: int | None, bye: bool, source: str) -> Side:
    if bye:
        return BYE
    if user_id is not None:
        return user_id
    if not source:
        raise InternalError("a pairing side has neither a player, a bye nor a source")
    return source_side(source)


def write_changes(
    tournament: Tournament, before: Draw, after: Draw, rows: dict[PairingKey, Pairing]
) -> None:
    """Write the slots ``after`` changed since ``before`` (a side filled, a bye where a match
    was called off, a winner) and insert the pairings it added; ``rows`` gains the new rows."""
    now = timezone.now()
    kept = after.pairings[: len(before.pairings)]
    for old, new in zip(before.pairings, kept, strict=True):
        if old.key != new.key:
            raise InternalError(f"the format moved {old.key} to {new.key}")
        if old == new:
            continue
        row = rows[new.key]
        changes: dict[str, object] = {}
        for side in ("top", "bottom"):
            was, held = getattr(old, side), getattr(new, side)
            if was == held:
                continue
            if held is BYE:
                changes[f"{side}_bye"] = True
                setattr(row, f"{side}_bye", True)
            elif isinstance(held, int):
                changes[f"{side}_id"] = held
                setattr(row, f"{side}_id", held)
        if old.winner is None and new.winner is not None:
            changes["winner_id"] = row.winner_id = new.winner
            changes["decided_at"] = now
        # Compare-and-set: a slot is filled and decided once; a second writer changes nothing.
        written = Pairing.objects.filter(pk=row.pk, winner__isnull=True).update(**changes)
        if written != 1:
            raise InternalError(f"{row} was decided by someone else")
    added = after.pairings[len(before.pairings) :]
    for row in store_pairings(tournament, after, added):
        rows[PairingKey(Flight(row.flight), row.round, row.position)] = row
