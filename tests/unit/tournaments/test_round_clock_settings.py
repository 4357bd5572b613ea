"""Clocks per round of each flight: which listed clock a round plays, read as its length is,
what the settings keep, and what they refuse in words (``tournaments.settings.clocks``),
and how the form's rows become lengths and clocks (``tournaments.round_rows``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django import forms

from accounts.models import User
from matches.models import DEFAULT_CLOCK
from tournaments.errors import TournamentInvalid
from tournaments.formats.base import Flight
from tournaments.formats.knockout import lengths_by_round
from tournaments.formats.stages import round_length
from tournaments.models import Tournament
from tournaments.round_rows import clock_code, clock_of_code, flight_clocks_of, rows_of
from tournaments.settings import check_settings
from tournaments.settings.clocks import listed_at, listed_lengths, round_clock
from tournaments.settings.general import TournamentSettings

STANDARD = dataclasses.asdict(DEFAULT_CLOCK)
RELAXED = {**STANDARD, "move_seconds": 30, "delay_seconds": 30, "reserve_seconds": 180}
BLITZ = {**STANDARD, "move_seconds": 8, "delay_seconds": 8, "reserve_seconds": 30}


@pytest.mark.parametrize("listed", [(11,), (11, 13), (7, 9, 11, 13), (5, 5, 7, 9, 11, 13)])
@pytest.mark.parametrize("rounds", [1, 2, 3, 4, 6])
def test_a_bracket_rounds_clock_is_the_one_beside_its_length(
    listed: tuple[int, ...], rounds: int
) -> None:
    """Read from the final backwards: the clock beside a length is its rounds' clock."""
    lengths = lengths_by_round(listed, rounds)
    for round_ in range(rounds):
        at = listed_at(len(listed), round_, rounds, first_round_first=False)
        assert listed[at] == lengths[round_]
    assert listed_at(len(listed), rounds - 1, rounds, first_round_first=False) == len(listed) - 1


@pytest.mark.parametrize("listed", [(3,), (3, 5), (3, 5, 7)])
def test_a_swiss_rounds_clock_is_read_first_round_first(listed: tuple[int, ...]) -> None:
    for round_ in range(6):
        at = listed_at(len(listed), round_, 6, first_round_first=True)
        assert listed[at] == round_length(listed, round_)


def test_a_flight_without_lengths_of_its_own_lists_the_main_flights() -> None:
    main, own = (11, 11, 13), {"consolation": (7,)}
    assert listed_lengths(Flight.MAIN, main, own) == main
    assert listed_lengths(Flight.CONSOLATION, main, own) == (7,)
    assert listed_lengths(Flight.LAST_CHANCE, main, own) == main
    # a final flight without its own plays the main flight's last length
    assert listed_lengths(Flight.FINAL, main, own) == (13,)


def test_a_round_plays_its_flights_clock_its_listed_clock_or_the_tournaments() -> None:
    tournament = Tournament(
        format="knockout",
        round_lengths=[11, 13],
        clock=STANDARD,
        flight_clocks={"main": [STANDARD, RELAXED], "consolation": BLITZ},
    )
    # eight players: three rounds, the first repeating the first row
    assert [round_clock(tournament, Flight.MAIN, r, 3) for r in range(3)] == [
        STANDARD,
        STANDARD,
        RELAXED,
    ]
    assert round_clock(tournament, Flight.CONSOLATION, 0, 2) == BLITZ
    assert round_clock(tournament, Flight.LAST_CHANCE, 0, 2) == STANDARD


def test_a_tournament_stored_with_one_clock_a_flight_still_plays_it() -> None:
    tournament = Tournament(
        format="double_elimination", clock=STANDARD, flight_clocks={"losers": BLITZ}
    )
    assert round_clock(tournament, Flight.LOSERS, 3, 5) == BLITZ
    assert round_clock(tournament, Flight.MAIN, 0, 3) == STANDARD


def settings(**changes: Any) -> TournamentSettings:
    values: dict[str, Any] = {
        "round_lengths": (11, 13),
        "clock": STANDARD,
        "consolation_through_round": 1,
        "flight_lengths": {"consolation": (7,)},
    }
    return TournamentSettings("Open", "knockout", **{**values, **changes})


def checked(**changes: Any) -> dict[str, Any]:
    return check_settings(settings(**changes), organizer=User(), tournament=None)


def refusals(**changes: Any) -> dict[str, list[str]]:
    with pytest.raises(TournamentInvalid) as refused:
        checked(**changes)
    return refused.value.errors


def test_the_settings_keep_one_clock_or_one_per_length() -> None:
    values = checked(flight_clocks={"main": [STANDARD, RELAXED], "consolation": BLITZ})
    assert values["flight_clocks"] == {"main": [STANDARD, RELAXED], "consolation": BLITZ}


def test_the_clocks_of_a_flight_not_played_are_left_out() -> None:
    values = checked(flight_clocks={"losers": [BLITZ], "final": BLITZ})
    assert values["flight_clocks"] == {}


@pytest.mark.parametrize(
    ("flight_clocks", "said"),
    [
        (
            {"main": [STANDARD]},
            "The main flight lists 2 match lengths: give it one clock, or one clock for each "
            "length (1 given).",
        ),
        (
            {"consolation": [STANDARD, BLITZ]},
            "The consolation lists 1 match length: give it one clock, or one clock for each "
            "length (2 given).",
        ),
        (
            {"main": [STANDARD, {**RELAXED, "kind": "sundial"}]},
            "The main flight's clock: the clock beside length 2: The clock must be one of",
        ),
        (
            {"main": [STANDARD, {"moves": 3}]},
            "The main flight's clock: the clock beside length 2: Unknown setting.",
        ),
        (
            {"main": [STANDARD, "blitz"]},
            "The main flight's clock: the clock beside length 2: give the clock's fields.",
        ),
        ({"looser": BLITZ}, "There is no flight called 'looser'"),
    ],
)
def test_bad_clocks_per_round_are_refused_in_words(flight_clocks: Any, said: str) -> None:
    errors = refusals(flight_clocks=flight_clocks)
    assert list(errors) == ["flight_clocks"]
    assert any(message.startswith(said) for message in errors["flight_clocks"]), errors


def test_a_length_out_of_range_is_refused_in_words() -> None:
    errors = refusals(round_lengths=(11, 26))
    assert errors["round_lengths"][0] == "Each match is 1 to 25 points, not 26."


def test_a_clock_code_names_the_clock_it_was_made_from() -> None:
    for clock in (STANDARD, RELAXED, BLITZ):
        assert clock_of_code(clock_code(clock)) == clock
    with pytest.raises(forms.ValidationError):
        clock_of_code("delay:twelve")


def test_the_forms_rows_become_one_clock_a_flight_when_they_share_it() -> None:
    relaxed, blitz = clock_code(RELAXED), clock_code(BLITZ)
    assert flight_clocks_of([(11, ""), (13, "")], STANDARD) is None
    assert flight_clocks_of([(7, blitz), (7, blitz)], STANDARD) == BLITZ
    assert flight_clocks_of([(11, ""), (13, relaxed)], STANDARD) == [STANDARD, RELAXED]
    # and the stored clocks show as the rows again, the tournament's clock as itself
    assert rows_of([(11, STANDARD), (13, RELAXED)], STANDARD) == [(11, ""), (13, relaxed)]
