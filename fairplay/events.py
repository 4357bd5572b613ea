"""What fair play tells the apps above it (through ``core.bus``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SanctionApplied:
    """Staff sanctioned ``user_id`` (the ``Sanction`` row ``sanction_id``); ``text`` says
    what and why in English, as the case keeps it (the player's notice is written in their
    language from the row: ``fairplay.selectors.sanction_told``)."""

    case_id: int
    user_id: int
    kind: str
    text: str
    sanction_id: int
