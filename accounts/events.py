"""What accounts tell the apps above them (through ``core.bus``), after commit."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AccountSighted:
    """``user_id`` signed up or logged in; ``sighting_ids`` are the ``Sighting`` rows of
    the address and device it came from (``accounts.standing.sighting_record``)."""

    user_id: int
    sighting_ids: tuple[int, ...]
