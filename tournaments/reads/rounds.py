"""Round names: what the bracket, a correction's summary and the dispute page call a round
and a match in it, so all three say "Semi-finals, match 2" of the same match.

A knockout's rounds are named by what is left ("Final", "Semi-finals", "Quarter-finals",
"Round of 16"); a Swiss's or a round robin's rounds by number ("Round 3"); a double
elimination's winners' rounds as a knockout's ("Winners' semi-finals"), its final "Grand
final" then "Reset final"; the losers', consolation and last-chance flights by number up to
their final ("Losers' round 2", "Consolation final"). ``total`` is how many rounds the
flight has on the draw's rows.
"""

from __future__ import annotations

from django.db.models import Count, Max, Q

from tournaments.formats.base import Flight
from tournaments.models import Pairing, TournamentFormat

ROUND_BY_ROUND = (TournamentFormat.SWISS, TournamentFormat.ROUND_ROBIN)


def knockout_round_name(number: int, total: int) -> str:
    """ "Final", "Semi-finals", "Quarter-finals", else "Round of 16" and so on."""
    left = total - number
    named = {1: "Final", 2: "Semi-finals", 3: "Quarter-finals"}
    return named.get(left, f"Round of {2**left}")


def round_name(format_: str, flight: str, number: int, total: int) -> str:
    """Round ``number`` (from 0) of ``total`` in ``flight`` of a tournament of ``format_``."""
    if flight == Flight.MAIN and format_ in ROUND_BY_ROUND:
        return f"Round {number + 1}"
    if flight == Flight.FINAL and format_ == TournamentFormat.DOUBLE_ELIMINATION:
        return "Grand final" if number == 0 else "Reset final"
    if flight in (Flight.MAIN, Flight.FINAL):
        knockout = knockout_round_name(number, total)
        if flight == Flight.MAIN and format_ == TournamentFormat.DOUBLE_ELIMINATION:
            return f"Winners' {knockout[0].lower()}{knockout[1:]}"
        return knockout
    label = {
        Flight.LOSERS: "Losers'",
        Flight.CONSOLATION: "Consolation",
        Flight.LAST_CHANCE: "Last chance",
    }[Flight(flight)]
    return f"{label} final" if number == total - 1 else f"{label} round {number + 1}"


def slot_words(name: str, *, matches: int, position: int) -> str:
    """A match in its round: "Winners' semi-finals, match 2", or "Grand final" alone for a
    round of one match."""
    return name if matches == 1 else f"{name}, match {position + 1}"


def pairing_words(pairing: Pairing, format_: str) -> str:
    """``slot_words`` of one pairing row, counting its flight's rounds and its round's
    matches on the rows as the bracket does (one query)."""
    counted = Pairing.objects.filter(tournament_id=pairing.tournament_id, flight=pairing.flight)
    figures = counted.aggregate(last=Max("round"), matches=Count("pk", Q(round=pairing.round)))
    name = round_name(format_, pairing.flight, pairing.round, figures["last"] + 1)
    return slot_words(name, matches=figures["matches"], position=pairing.position)
