"""Each round's match length and clock, flight by flight, as the tournament page lists them.

Before the draw the rounds are the organizer's rows, named from the final backwards (the
last row is the final's, the one before it the semi-finals'), a Swiss's or a round robin's
own rounds by number; once drawn, they are the rounds on the draw's rows, each with the
length and clock its matches are given (``tournaments.settings.clocks``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Max

from tournaments.formats.base import Flight
from tournaments.models import Pairing, Tournament, TournamentFormat
from tournaments.reads.rounds import ROUND_BY_ROUND, plays_tiebreaks, round_name
from tournaments.settings.by_format import FLIGHT_WORDS, flights_of
from tournaments.settings.clocks import listed_at, listed_lengths, round_clock


@dataclass(frozen=True)
class RoundRule:
    name: str
    points: int
    clock: dict[str, Any]


@dataclass(frozen=True)
class FlightRounds:
    flight: str
    words: str
    rounds: list[RoundRule]


def flight_rounds(tournament: Tournament) -> list[FlightRounds]:
    """Every flight's rounds with their lengths and clocks; none for a swing (one query)."""
    if tournament.format == TournamentFormat.SWING or not tournament.round_lengths:
        return []
    flights = flights_of(
        {
            "format": tournament.format,
            "top_cut": tournament.top_cut,
            "advance_per_group": tournament.advance_per_group,
            "consolation_through_round": tournament.consolation_through_round,
            "last_chance_reenters_at": tournament.last_chance_reenters_at,
        }
    )
    drawn = dict(
        Pairing.objects.filter(tournament=tournament)
        .values("flight")
        .annotate(last=Max("round"))
        .values_list("flight", "last")
    )
    shown = []
    for flight in flights:
        lengths = listed_lengths(flight, tournament.round_lengths, tournament.flight_lengths)
        last = drawn.get(flight.value)
        total = len(lengths) if last is None else last + 1
        first_round_first = flight is Flight.MAIN and tournament.format in ROUND_BY_ROUND
        if first_round_first:  # a Swiss pairs its rounds one by one
            total = max(total, tournament.rounds or 0)
        rounds = [
            RoundRule(
                round_name(
                    tournament.format,
                    flight.value,
                    number,
                    total,
                    tiebreaks=plays_tiebreaks(tournament),
                ),
                lengths[
                    listed_at(len(lengths), number, total, first_round_first=first_round_first)
                ],
                round_clock(tournament, flight, number, total),
            )
            for number in range(total)
        ]
        shown.append(FlightRounds(flight.value, str(FLIGHT_WORDS[flight]), rounds))
    return shown
