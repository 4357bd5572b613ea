"""What a tournament's pages and API read besides the bracket (``tournaments.bracket``):
the standings with their tiebreaks and the Swiss and round-robin pairings by round; and
the rounds' names (``rounds``), which the bracket, corrections and disputes all use."""

from __future__ import annotations

from tournaments.reads.rounds import (
    ROUND_BY_ROUND,
    knockout_round_name,
    pairing_words,
    plays_tiebreaks,
    round_name,
    slot_words,
)
from tournaments.reads.standings import (
    PairingRound,
    StandingsTable,
    group_letter,
    pairing_rounds,
    standings_tables,
    ties_waiting,
    ties_waiting_names,
    tournament_standings,
)

__all__ = [
    "ROUND_BY_ROUND",
    "PairingRound",
    "StandingsTable",
    "group_letter",
    "knockout_round_name",
    "pairing_rounds",
    "pairing_words",
    "plays_tiebreaks",
    "round_name",
    "slot_words",
    "standings_tables",
    "ties_waiting",
    "ties_waiting_names",
    "tournament_standings",
]
