"""Round names: what the bracket, a correction's summary and the dispute page call a round
and a match in it, so all three say "Semi-finals, match 2" of the same match.

A knockout's rounds are named by what is left ("Final", "Semi-finals", "Quarter-finals",
"Round of 16"); a Swiss's or a round robin's rounds by number ("Round 3"); a double
elimination's winners' rounds as a knockout's ("Winners' semi-finals"), its final "Grand
final" then "Reset final"; the losers', consolation and last-chance flights by number up to
their final ("Losers' round 2", "Consolation final"). A triple elimination's winners' rounds
are named as a double elimination's, its losers' flights "First losers' round 2", "Second
losers' final", and its finals "Losers' playoff", "Playoff reset", "Grand final", then "Grand
final reset 1" and on (``tournaments.formats.triple_elimination``). ``total`` is how many rounds the
flight has on the draw's rows.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Count, Max, Q
from django.utils.translation import gettext as _

from tournaments.formats.base import Flight
from tournaments.models import Pairing, Tournament, TournamentFormat

ROUND_BY_ROUND = (TournamentFormat.SWISS, TournamentFormat.ROUND_ROBIN)
ELIMINATION = (TournamentFormat.DOUBLE_ELIMINATION, TournamentFormat.TRIPLE_ELIMINATION)


def knockout_round_name(number: int, total: int) -> str:
    """ "Final", "Semi-finals", "Quarter-finals", else "Round of 16" and so on."""
    left = total - number
    named = {
        1: _("Final"),
        2: _("Semi-finals"),
        3: _("Quarter-finals"),
        4: _("Round of 16"),
        5: _("Round of 32"),
    }
    return named.get(left) or _("Round of %(players)s") % {"players": 2**left}


def _winners_round_name(number: int, total: int) -> str:
    """A double elimination's winners' round: "Winners' semi-finals"."""
    left = total - number
    named = {
        1: _("Winners' final"),
        2: _("Winners' semi-finals"),
        3: _("Winners' quarter-finals"),
        4: _("Winners' round of 16"),
        5: _("Winners' round of 32"),
    }
    return named.get(left) or _("Winners' round of %(players)s") % {"players": 2**left}


def _triple_final_name(number: int, total: int) -> str:
    """A triple elimination's finals: the playoff (and its reset), then the grand final and
    its resets; without resets (2 rounds) one playoff and one grand final."""
    grand_final = total - 1 if total <= 2 else 2
    if number < grand_final:
        return _("Losers' playoff") if number == 0 else _("Playoff reset")
    if number == grand_final:
        return _("Grand final")
    return _("Grand final reset %(number)s") % {"number": number - grand_final}


def _triple_losers_round_name(flight: Flight, number: int, total: int) -> str:
    """A round of a triple elimination's first or second losers' flight, by number."""
    first = flight == Flight.LOSERS
    if number == total - 1:
        return _("First losers' final") if first else _("Second losers' final")
    if first:
        return _("First losers' round %(number)s") % {"number": number + 1}
    return _("Second losers' round %(number)s") % {"number": number + 1}


def _side_round_name(flight: Flight, number: int, total: int) -> str:
    """A losers', consolation or last-chance round, by number up to its final."""
    if number == total - 1:
        return {
            Flight.LOSERS: _("Losers' final"),
            Flight.CONSOLATION: _("Consolation final"),
            Flight.LAST_CHANCE: _("Last chance final"),
        }[flight]
    numbered = {
        Flight.LOSERS: _("Losers' round %(number)s"),
        Flight.CONSOLATION: _("Consolation round %(number)s"),
        Flight.LAST_CHANCE: _("Last chance round %(number)s"),
    }[flight]
    return numbered % {"number": number + 1}


def plays_tiebreaks(tournament: Tournament) -> bool:
    """Whether the tournament's ``final`` flight holds tie-break matches: a truncated round
    robin's (``tournaments.formats.truncated``), which has no knockout after it."""
    return tournament.format == TournamentFormat.ROUND_ROBIN and tournament.rounds is not None


def round_name(
    format_: str, flight: str, number: int, total: int, *, tiebreaks: bool = False
) -> str:
    """Round ``number`` (from 0) of ``total`` in ``flight`` of a tournament of ``format_``,
    in the active language (``tiebreaks``: its final flight is tie-break matches)."""
    if flight == Flight.FINAL and tiebreaks:
        if total == 1:
            return _("Tie-break")
        return _("Tie-break, step %(number)s") % {"number": number + 1}
    if flight == Flight.MAIN and format_ in ROUND_BY_ROUND:
        return _("Round %(number)s") % {"number": number + 1}
    if flight == Flight.FINAL and format_ == TournamentFormat.DOUBLE_ELIMINATION:
        return _("Grand final") if number == 0 else _("Reset final")
    if format_ == TournamentFormat.TRIPLE_ELIMINATION:
        if flight == Flight.FINAL:
            return _triple_final_name(number, total)
        if flight in (Flight.LOSERS, Flight.SECOND_LOSERS):
            return _triple_losers_round_name(Flight(flight), number, total)
    if flight == Flight.MAIN and format_ in ELIMINATION:
        return _winners_round_name(number, total)
    if flight in (Flight.MAIN, Flight.FINAL):
        return knockout_round_name(number, total)
    return _side_round_name(Flight(flight), number, total)


def slot_words(name: str, *, matches: int, position: int, gettext: Callable[[str], str] = _) -> str:
    """A match in its round: "Winners' semi-finals, match 2", or "Grand final" alone for a
    round of one match. ``gettext``: the translation, for a caller that keeps its answers
    (the bracket's layout asks for every slot)."""
    if matches == 1:
        return name
    return gettext("%(round)s, match %(number)s") % {"round": name, "number": position + 1}


def pairing_words(pairing: Pairing, format_: str, *, tiebreaks: bool = False) -> str:
    """``slot_words`` of one pairing row, counting its flight's rounds and its round's
    matches on the rows as the bracket does (one query)."""
    counted = Pairing.objects.filter(tournament_id=pairing.tournament_id, flight=pairing.flight)
    figures = counted.aggregate(last=Max("round"), matches=Count("pk", Q(round=pairing.round)))
    name = round_name(
        format_, pairing.flight, pairing.round, figures["last"] + 1, tiebreaks=tiebreaks
    )
    return slot_words(name, matches=figures["matches"], position=pairing.position)
