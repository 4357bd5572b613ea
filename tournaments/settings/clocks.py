"""The clocks of a tournament's flights and rounds: checked as settings, and found for a round.

Terms:

* *listed lengths*: a flight's match lengths as the organizer lists them, first round to
  final: its own (``flight_lengths``; the main flight's are ``round_lengths``), or for a
  flight without them the main flight's, except a *final* flight (a double elimination's
  final, the knockout after a Swiss or a round robin), which plays the main flight's last.
* *clocks per round*: ``flight_clocks`` gives a flight (the main one too) either one clock
  for all its rounds, or a list with one clock for each of its listed lengths; a flight not
  given plays on ``clock``, the tournament's clock. Old tournaments hold one clock per
  flight, which is still one of the two shapes.
* *reading*: a round's clock is read from the list as its length is: a Swiss's or a round
  robin's own rounds first round first, the last repeating (``tournaments.formats.stages``);
  every bracket from the final backwards, a bigger field repeating the first
  (``tournaments.formats.knockout``). So the clock listed beside a length is the clock of
  the rounds played to that length.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.formats.base import Flight
from tournaments.models import Tournament, TournamentFormat
from tournaments.settings.refusals import Refuse

ClockCheck = Callable[[dict[str, Any] | None, Refuse], dict[str, Any]]
FlightWords = Callable[[Flight], str]
# A flight's stored clocks: one for every round, or one per listed length.
FlightClocks = dict[str, Any] | list[dict[str, Any]]

ROUND_BY_ROUND = (TournamentFormat.SWISS, TournamentFormat.ROUND_ROBIN)


def listed_lengths(
    flight: Flight, round_lengths: Sequence[int], flight_lengths: Mapping[str, Sequence[int]]
) -> tuple[int, ...]:
    """The lengths ``flight`` plays, as listed (see the module docstring)."""
    if flight is Flight.MAIN:
        return tuple(round_lengths)
    own = flight_lengths.get(flight.value)
    if own:
        return tuple(own)
    return tuple(round_lengths[-1:]) if flight is Flight.FINAL else tuple(round_lengths)


def listed_at(count: int, round_: int, rounds: int, *, first_round_first: bool) -> int:
    """Which of ``count`` listed values round ``round_`` (from 0) of ``rounds`` plays."""
    if first_round_first:
        return min(round_, count - 1)
    return max(0, count - rounds + round_)


def round_clock(tournament: Tournament, flight: Flight, round_: int, rounds: int) -> dict[str, Any]:
    """The stored clock of ``flight``'s round ``round_`` (from 0), the flight having
    ``rounds`` rounds on the draw."""
    given: FlightClocks | None = tournament.flight_clocks.get(flight.value)
    if given is None:
        return dict(tournament.clock)
    if isinstance(given, dict):
        return dict(given)
    at = listed_at(
        len(given),
        round_,
        rounds,
        first_round_first=flight is Flight.MAIN and tournament.format in ROUND_BY_ROUND,
    )
    return dict(given[at])


def clocks_by_length(tournament: Tournament, flight: Flight) -> list[tuple[int, dict[str, Any]]]:
    """``flight``'s listed lengths, each with the clock of the rounds played to it."""
    lengths = listed_lengths(flight, tournament.round_lengths, tournament.flight_lengths)
    given: FlightClocks | None = tournament.flight_clocks.get(flight.value)
    if isinstance(given, list) and len(given) == len(lengths):
        return list(zip(lengths, (dict(c) for c in given), strict=True))
    clock = dict(given) if isinstance(given, dict) else dict(tournament.clock)
    return [(length, clock) for length in lengths]


def flight_clocks_values(
    given: Mapping[str, Any],
    lengths: Mapping[Flight, tuple[int, ...]],
    refuse: Refuse,
    check_clock: ClockCheck,
    words: FlightWords,
) -> dict[str, FlightClocks]:
    """The stored ``flight_clocks`` of the flights played (``lengths``: each one's listed
    lengths), or refusals under ``flight_clocks``. A flight the tournament does not play is
    left out; a name that is no flight at all is refused."""
    stored: dict[str, FlightClocks] = {}
    for name, clocks in given.items():
        try:
            flight = Flight(name)
        except ValueError:
            known = ", ".join(flight.value for flight in lengths)
            refuse(
                "flight_clocks",
                _("There is no flight called %(name)s; this tournament has %(known)s.")
                % {"name": repr(name), "known": known},
            )
            continue
        if flight not in lengths:
            continue
        refuse_here = _clock_refusal(words(flight), refuse)
        if isinstance(clocks, Mapping) or clocks is None:
            stored[flight.value] = check_clock(dict(clocks or {}), refuse_here)
            continue
        listed = lengths[flight]
        if not isinstance(clocks, list | tuple) or len(clocks) != len(listed):
            refuse(
                "flight_clocks",
                ngettext(
                    "The %(flight)s lists %(count)s match length: give it one clock, or one "
                    "clock for each length (%(given)s given).",
                    "The %(flight)s lists %(count)s match lengths: give it one clock, or one "
                    "clock for each length (%(given)s given).",
                    len(listed),
                )
                % {
                    "flight": words(flight),
                    "count": len(listed),
                    "given": len(clocks) if isinstance(clocks, list | tuple) else 0,
                },
            )
            continue
        checked = []
        for number, clock in enumerate(clocks, start=1):
            if not isinstance(clock, Mapping):
                _numbered(number, refuse_here)("", _("give the clock's fields."))
                continue
            checked.append(check_clock(dict(clock), _numbered(number, refuse_here)))
        stored[flight.value] = checked
    return stored


def _clock_refusal(flight: str, refuse: Refuse) -> Refuse:
    def refuse_for_flight(field: str, message: str) -> None:
        refuse(
            "flight_clocks",
            _("The %(flight)s's clock: %(refusal)s") % {"flight": flight, "refusal": message},
        )

    return refuse_for_flight


def _numbered(number: int, refuse: Refuse) -> Refuse:
    """Refusals of the clock listed beside the ``number``th length."""

    def refuse_for_round(field: str, message: str) -> None:
        refuse(
            field,
            _("the clock beside length %(number)s: %(refusal)s")
            % {"number": number, "refusal": message},
        )

    return refuse_for_round
