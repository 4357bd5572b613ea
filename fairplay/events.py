"""What fair play tells the apps above it (through ``core.bus``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SanctionApplied:
    """Staff sanctioned ``user_id``; ``text`` says what and why, for the player to read."""

    case_id: int
    user_id: int
    kind: str
    text: str
