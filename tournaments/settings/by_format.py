"""The settings that belong to some formats only: flights, rounds, groups and the prize table.

``tournaments.settings.general`` checks what every tournament has; this module knows which format
takes which of the others, which flights each format plays (so which flights may have their
own match lengths, clocks and prizes; a flight's clocks per round are
``tournaments.settings.clocks``), and turns those settings into the model's fields, or
refuses them field by field with the same ``refuse`` as ``general``. Each setting and its
limits are declared in ``tournaments.settings.fields``.

Counting as organizers do: ``consolation_through_round`` is a round of the main flight from
1 (the model stores it from 0, as the formats count), or of the last chance when one runs
beside it; ``last_chance_reenters_at`` is the number of players left in the main flight when
the last chance's winner comes back (8: the quarter-finals), or beside a double elimination
the number left in the losers' flight once the last chance takes nobody more
(``tournaments.formats.side_flights`` says how the flights fit together).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from tournaments.formats.base import Flight
from tournaments.formats.prizes import WHOLE_POOL
from tournaments.models import TournamentFormat
from tournaments.settings import fields
from tournaments.settings.clocks import ClockCheck, flight_clocks_values, listed_lengths
from tournaments.settings.refusals import Refuse
from tournaments.settings.swing import SWING_DEFAULTS, swing_values

# A flight as a refusal names it ("Pay 1 to 256 places of the %(flight)s.").
FLIGHT_WORDS = {
    Flight.MAIN: pgettext_lazy("a flight, in a sentence", "main flight"),
    Flight.LOSERS: pgettext_lazy("a flight, in a sentence", "losers' flight"),
    Flight.SECOND_LOSERS: pgettext_lazy("a flight, in a sentence", "second losers' flight"),
    Flight.CONSOLATION: pgettext_lazy("a flight, in a sentence", "consolation"),
    Flight.LAST_CHANCE: pgettext_lazy("a flight, in a sentence", "last chance"),
    Flight.FINAL: pgettext_lazy("a flight, in a sentence", "final"),
}


def switched(on: bool | None, value: int | None, default: int) -> int | None:
    """A side flight's round setting from its switch: off is None whatever the round, on
    without a round is ``default``, and no switch leaves the round as given."""
    if on is None:
        return value
    if not on:
        return None
    return default if value is None else value


def flights_of(values: Mapping[str, Any]) -> tuple[Flight, ...]:
    """The flights a tournament with these settings plays, main first."""
    format_ = values["format"]
    if format_ == TournamentFormat.DOUBLE_ELIMINATION:
        flights = [Flight.MAIN, Flight.LOSERS, Flight.FINAL]
    elif format_ == TournamentFormat.TRIPLE_ELIMINATION:
        flights = [Flight.MAIN, Flight.LOSERS, Flight.SECOND_LOSERS, Flight.FINAL]
    elif format_ == TournamentFormat.SWISS:
        flights = [Flight.MAIN] + ([Flight.FINAL] if values.get("top_cut") else [])
    elif format_ == TournamentFormat.ROUND_ROBIN:
        flights = [Flight.MAIN] + ([Flight.FINAL] if values.get("advance_per_group") else [])
    else:
        flights = [Flight.MAIN]
    if values.get("consolation_through_round") is not None:
        flights.append(Flight.CONSOLATION)
    if values.get("last_chance_reenters_at") is not None:
        flights.append(Flight.LAST_CHANCE)
    return tuple(flights)


def prize_flights(flights: Sequence[Flight]) -> tuple[Flight, ...]:
    """The flights with places of their own to pay: the main one, a consolation and a last
    chance. A last chance's winner also goes back into the main flight and is paid there by
    their place too; a last chance pays places of its own only where the table gives it
    shares."""
    return tuple(f for f in flights if f in (Flight.MAIN, Flight.CONSOLATION, Flight.LAST_CHANCE))


def format_values(
    settings: Any, max_entrants: int | None, refuse: Refuse, check_clock: ClockCheck
) -> dict[str, Any]:
    """The model fields of the format-only settings. A setting the format does not take is
    left out, as ``seats`` outside a Sit & Go (a client may send every field; the tournament
    it gets back shows what was kept); so are the lengths and clock of a flight it does not
    play. Only money is never guessed: prize shares for a flight it does not play are
    refused."""
    values: dict[str, Any] = {"format": settings.format}
    for setting in fields.FORMAT_ONLY:
        taken = settings.format in setting.formats
        values[setting.name] = getattr(settings, setting.name) if taken else setting.default
    _check_rounds(values, max_entrants, refuse)
    _check_side_flights(values, max_entrants, refuse)
    flights = flights_of(values)
    # The main flight's lengths are ``round_lengths``; its clocks, as every flight's, may be
    # given per round (``tournaments.settings.clocks``).
    values["flight_lengths"] = _flight_lengths(settings.flight_lengths, flights[1:], refuse)
    listed = {
        flight: listed_lengths(flight, settings.round_lengths, values["flight_lengths"])
        for flight in flights
    }
    values["flight_clocks"] = flight_clocks_values(
        settings.flight_clocks, listed, refuse, check_clock, _words
    )
    values["prize_table"] = _prize_table(settings, flights, max_entrants, refuse)
    if settings.format == TournamentFormat.SWING:
        values.update(swing_values(settings, refuse))
    else:
        values.update(SWING_DEFAULTS)
    through = values["consolation_through_round"]
    values["consolation_through_round"] = None if through is None else through - 1
    del values["format"]
    return values


def _check_rounds(values: dict[str, Any], max_entrants: int | None, refuse: Refuse) -> None:
    format_ = values["format"]
    if format_ == TournamentFormat.SWISS:
        rounds = values["rounds"]
        if rounds is None:
            refuse("rounds", _("Say how many rounds the Swiss has."))
        elif not fields.ROUNDS.allows(rounds):
            low, high = fields.ROUNDS.limits
            refuse(
                "rounds",
                _("A Swiss has %(low)s to %(high)s rounds, not %(rounds)s.")
                % {"low": low, "high": high, "rounds": rounds},
            )
        elif max_entrants is not None and rounds > max_entrants - 1:
            refuse(
                "rounds",
                _("%(players)s players can play at most %(most)s rounds without meeting twice.")
                % {"players": max_entrants, "most": max_entrants - 1},
            )
        cut = values["top_cut"]
        if cut is not None and not fields.TOP_CUT.allows(cut):
            refuse(
                "top_cut", _("The top cut is 2, 4, 8, 16, ... players, not %(cut)s.") % {"cut": cut}
            )
        elif cut is not None and max_entrants is not None and cut > max_entrants:
            refuse(
                "top_cut", _("A top cut of %(cut)s needs at least %(cut)s players.") % {"cut": cut}
            )
    if format_ == TournamentFormat.ROUND_ROBIN:
        _check_truncation(values, max_entrants, refuse)
        size, through = values["group_size"], values["advance_per_group"]
        if size is not None and not fields.GROUP_SIZE.allows(size):
            low, high = fields.GROUP_SIZE.limits
            refuse(
                "group_size",
                _("A group has %(low)s to %(high)s players, not %(size)s.")
                % {"low": low, "high": high, "size": size},
            )
        elif size is not None and through is None:
            refuse("advance_per_group", _("Say how many of each group go through to the knockout."))
        elif through is not None and size is not None and not 1 <= through < size:
            refuse(
                "advance_per_group",
                _("1 to %(most)s of each group of %(size)s can go through, not %(through)s.")
                % {"most": size - 1, "size": size, "through": through},
            )
        elif through is not None and size is None:
            refuse(
                "group_size", _("A knockout after the round robin needs groups: give their size.")
            )


def _check_truncation(values: dict[str, Any], max_entrants: int | None, refuse: Refuse) -> None:
    """A truncated round robin (``rounds`` set): one table, cut to a round it has."""
    rounds = values["rounds"]
    if rounds is None:
        return
    if values["group_size"] is not None or values["advance_per_group"] is not None:
        refuse(
            "rounds",
            _(
                "A round robin cut to fewer rounds is one table: leave the groups and the "
                "knockout out, or play the whole table."
            ),
        )
    elif not fields.ROUNDS.allows(rounds):
        low, high = fields.ROUNDS.limits
        refuse(
            "rounds",
            _("A round robin cut to fewer rounds plays %(low)s to %(high)s rounds, not %(rounds)s.")
            % {"low": low, "high": high, "rounds": rounds},
        )
    elif max_entrants is not None and rounds > max_entrants + max_entrants % 2 - 1:
        refuse(
            "rounds",
            _("%(players)s players meet everyone in %(most)s rounds: play at most that many.")
            % {"players": max_entrants, "most": max_entrants + max_entrants % 2 - 1},
        )


def _check_side_flights(values: dict[str, Any], max_entrants: int | None, refuse: Refuse) -> None:
    through, reenters_at = values["consolation_through_round"], values["last_chance_reenters_at"]
    if through is not None and not fields.CONSOLATION_THROUGH_ROUND.allows(through):
        low, high = fields.CONSOLATION_THROUGH_ROUND.limits
        refuse(
            "consolation_through_round",
            _(
                "The consolation takes the losers of rounds 1 to %(through)s: give a round from "
                "%(low)s to %(high)s."
            )
            % {"through": through, "low": low, "high": high},
        )
    if reenters_at is None:
        return
    if not fields.LAST_CHANCE_REENTERS_AT.allows(reenters_at):
        refuse(
            "last_chance_reenters_at",
            _(
                "The last chance's winner comes back when 2, 4, 8, ... players are left, not "
                "%(left)s."
            )
            % {"left": reenters_at},
        )
    elif values["format"] == TournamentFormat.DOUBLE_ELIMINATION:
        if max_entrants is not None and max_entrants < 2 * reenters_at + 1:
            refuse(
                "last_chance_reenters_at",
                _(
                    "Beside a double elimination the last chance takes those knocked out while "
                    "more than %(left)s players are left in the losers' flight: that needs at "
                    "least %(least)s players; allow more, or give a smaller number."
                )
                % {"left": reenters_at, "least": 2 * reenters_at + 1},
            )
    elif max_entrants is not None and max_entrants < reenters_at + 1:
        refuse(
            "last_chance_reenters_at",
            _(
                "Coming back with %(left)s players left needs at least %(least)s players; allow "
                "more, or come back later."
            )
            % {"left": reenters_at, "least": reenters_at + 1},
        )


def _flight_lengths(
    given: Mapping[str, Sequence[int]], flights: Sequence[Flight], refuse: Refuse
) -> dict[str, list[int]]:
    stored: dict[str, list[int]] = {}
    for name, lengths in given.items():
        flight = _flight(name, flights, "round_lengths", refuse)
        if flight is None:
            continue
        if not lengths:
            refuse(
                "round_lengths",
                _("Give at least one match length for the %(flight)s.")
                % {"flight": _words(flight)},
            )
        wrong = next((n for n in lengths if not fields.ROUND_LENGTHS.allows(n)), None)
        if wrong is not None:
            low, high = fields.ROUND_LENGTHS.limits
            refuse(
                "round_lengths",
                _("Each match of the %(flight)s is %(low)s to %(high)s points, not %(wrong)s.")
                % {"flight": _words(flight), "low": low, "high": high, "wrong": wrong},
            )
        stored[flight.value] = list(lengths)
    return stored


def _prize_table(
    settings: Any, flights: Sequence[Flight], max_entrants: int | None, refuse: Refuse
) -> dict[str, list[int]]:
    table: Mapping[str, Sequence[int]] = settings.prize_table
    if not table:
        return {}
    if settings.format == TournamentFormat.SATELLITE:
        refuse("prize_table", _("A satellite's prizes are seats in its target, not a table."))
        return {}
    paid = prize_flights(flights)
    stored: dict[str, list[int]] = {}
    for name, shares in table.items():
        flight = _flight(name, paid, "prize_table", refuse)
        if flight is None:
            refuse(
                "prize_table",
                _("This tournament has no %(flight)s to pay.") % {"flight": name.replace("_", " ")},
            )
            continue
        if not shares or len(shares) > (most := fields.PRIZE_TABLE.items or 0):
            refuse(
                "prize_table",
                _("Pay 1 to %(most)s places of the %(flight)s.")
                % {"most": most, "flight": _words(flight)},
            )
        elif any(share <= 0 for share in shares):
            refuse(
                "prize_table",
                _("Every paid place of the %(flight)s gets more than 0%%.")
                % {"flight": _words(flight)},
            )
        elif any(later > earlier for earlier, later in itertools.pairwise(shares)):
            refuse(
                "prize_table",
                _("A place of the %(flight)s cannot pay more than the place above it.")
                % {"flight": _words(flight)},
            )
        elif flight is Flight.MAIN and max_entrants is not None and len(shares) > max_entrants:
            refuse(
                "prize_table",
                _("%(places)s paid places need at least as many players.")
                % {"places": len(shares)},
            )
        stored[flight.value] = list(shares)
    if Flight.MAIN.value not in table:
        refuse("prize_table", _("Give the main flight's shares: its winner is the champion."))
    total = sum(sum(shares) for shares in table.values())
    if total != WHOLE_POOL:
        refuse(
            "prize_table",
            _("The shares add up to %(total)s%% of the pool, not 100%%.")
            % {"total": number_format(total / 100 if total % 100 else total // 100)},
        )
    return stored


def _flight(name: str, flights: Sequence[Flight], field: str, refuse: Refuse) -> Flight | None:
    """The flight called ``name`` if this tournament plays it; an unknown name is refused,
    a flight this tournament does not play is None."""
    known = ", ".join(flight.value for flight in flights) or "none"
    try:
        flight = Flight(name)
    except ValueError:
        refuse(
            field,
            _("There is no flight called %(name)s; this tournament has %(known)s.")
            % {"name": repr(name), "known": known},
        )
        return None
    return flight if flight in flights else None


def _words(flight: Flight) -> str:
    return str(FLIGHT_WORDS[flight])
