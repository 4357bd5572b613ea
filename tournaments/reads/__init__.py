"""What a tournament's pages and API read besides the bracket (``tournaments.bracket``):
the standings with their tiebreaks and the Swiss and round-robin pairings by round."""

from __future__ import annotations

from tournaments.reads.standings import (
    PairingRound,
    StandingsTable,
    group_letter,
    pairing_rounds,
    standings_tables,
    tournament_standings,
)

__all__ = [
    "PairingRound",
    "StandingsTable",
    "group_letter",
    "pairing_rounds",
    "standings_tables",
    "tournament_standings",
]
