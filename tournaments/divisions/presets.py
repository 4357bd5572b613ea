"""What a division, a jackpot or a blitz starts from, beside its main event.

Each starts from the main event's settings (currency, clock, lengths, rules) with no
division name, no entry limits and no start time of its own, then takes its kind's
preset; what the organizer gives wins over both.

* A *division* keeps the main event's format and prizes; its name is the event's and the
  division's ("Spring Open – Novice").
* A *jackpot* is a knockout of at most ``JACKPOT_SEATS`` at twice the main event's buy-in
  (the same fee), paying all of its pool to the winner, or 70% and 30% to the top two
  (``JACKPOT_TABLES``), with no side flights.
* A *blitz* is a knockout of ``BLITZ_LENGTHS``-point matches on ``BLITZ_CLOCK``: a delay
  clock of 8 seconds a move and a minute's reserve a point (a 3-point match gives each
  player 3 minutes beyond the delays), with the published prize table.
"""

from __future__ import annotations

from typing import Any

from tournaments.formats.prizes import WHOLE_POOL
from tournaments.models import SideKind, Tournament, TournamentFormat
from tournaments.settings.fields import MAX_ENTRANTS

JACKPOT_SEATS = 8
JACKPOT_TABLES: dict[int, tuple[int, ...]] = {1: (WHOLE_POOL,), 2: (7000, 3000)}
BLITZ_LENGTHS = (3,)
BLITZ_CLOCK: dict[str, Any] = {
    "kind": "delay",
    "move_seconds": 8,
    "delay_seconds": 8,
    "reserve_seconds": 60,
}
assert MAX_ENTRANTS.allows(JACKPOT_SEATS)

# Nothing of the main event's own place in it carries over to what is played beside it.
UNSHARED: dict[str, Any] = {
    "division": "",
    "min_rating": None,
    "max_rating": None,
    "max_rated_matches": None,
    "starts_at": None,
    "check_in_minutes": None,
}
# A knockout with no side flights, whatever the main event's format.
PLAIN_KNOCKOUT: dict[str, Any] = {
    "format": TournamentFormat.KNOCKOUT,
    "seats": None,
    "target_id": None,
    "flight_lengths": {},
    "flight_clocks": {},
    "consolation_through_round": None,
    "last_chance_reenters_at": None,
}


def preset(kind: str, main: Tournament, *, places: int = 1) -> dict[str, Any]:
    """The settings ``kind`` changes from ``main``'s; ``places`` is a jackpot's paid places."""
    if kind == SideKind.JACKPOT:
        return {
            **UNSHARED,
            **PLAIN_KNOCKOUT,
            "name": f"{main.name} Jackpot",
            "max_entrants": JACKPOT_SEATS,
            "buy_in_cents": 2 * main.buy_in_cents,
            "prize_table": {"main": JACKPOT_TABLES[places]},
        }
    if kind == SideKind.BLITZ:
        return {
            **UNSHARED,
            **PLAIN_KNOCKOUT,
            "name": f"{main.name} Blitz",
            "round_lengths": BLITZ_LENGTHS,
            "clock": dict(BLITZ_CLOCK),
            "prize_table": {},
        }
    return dict(UNSHARED)


def division_name(main: Tournament, division: str) -> str:
    """A division's tournament name: the event's, then the division's."""
    return f"{main.name} – {division}"
