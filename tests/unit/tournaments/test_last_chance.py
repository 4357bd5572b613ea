"""The main flight with a last chance and a consolation together, as a weekend event runs
them: every field from 4 to 128 players, random results, each road a player can take."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tournaments.formats.base import (
    Draw,
    Entrant,
    Flight,
    FormatError,
    Pairing,
    Result,
    replay,
)
from tournaments.formats.double_elimination import DoubleElimination, DoubleEliminationOptions
from tournaments.formats.knockout import Knockout, KnockoutOptions
from tournaments.formats.last_chance import LastChanceEntry, losers_positions
from tournaments.formats.side_flights import SideFlightOptions, WithSideFlights

KNOCKOUT = Knockout(KnockoutOptions((3, 5)))
DOUBLE = DoubleElimination(DoubleEliminationOptions({Flight.MAIN: (3, 5)}))
MAINS = {"knockout": KNOCKOUT, "double elimination": DOUBLE}


def abt(main, *, reenters_at=4, through=1, entry=LastChanceEntry.FRESH) -> WithSideFlights:
    return WithSideFlights(
        main,
        SideFlightOptions(
            consolation_through_round=through,
            last_chance_reenters_at=reenters_at,
            last_chance_entry=entry,
            draw_seed=11,
        ),
    )


def by_rating(count: int) -> list[Entrant]:
    return [Entrant(id_, rating=2000 - id_) for id_ in range(1, count + 1)]


def players(draw: Draw, flight: Flight) -> set[int]:
    return {
        side
        for p in draw.pairings
        if p.key.flight is flight
        for side in (p.top, p.bottom)
        if isinstance(side, int)
    }


def undecided_seats(draw: Draw) -> Counter[int]:
    """How many undecided pairings each entrant sits in."""
    return Counter(
        side
        for p in draw.pairings
        if p.winner is None
        for side in (p.top, p.bottom)
        if isinstance(side, int)
    )


def play_at_random(fmt: WithSideFlights, draw: Draw, rng: random.Random) -> Draw:
    """Play ``draw`` out, checking after every batch that nobody sits in two undecided
    pairings and that a fresh last chance is drawn exactly when its players are known."""
    while not fmt.is_finished(draw):
        ready = fmt.ready_pairings(draw)
        assert ready, "nothing to play in an unfinished draw"
        results = []
        for pairing in ready:
            winner = pairing.top if rng.random() < 0.5 else pairing.bottom
            assert isinstance(winner, int)
            results.append(Result(pairing.key, winner))
        draw = fmt.advance(draw, results)
        assert max(undecided_seats(draw).values(), default=0) <= 1
    return draw


def reentered(draw: Draw) -> int:
    final = draw.rounds(Flight.LAST_CHANCE)[-1][0]
    assert final.winner is not None
    return final.winner


@pytest.mark.parametrize("entry", list(LastChanceEntry))
@pytest.mark.parametrize("main_name", list(MAINS))
@pytest.mark.parametrize("count", range(4, 129))
def test_every_field_plays_main_last_chance_and_consolation_to_the_end(count, main_name, entry):
    main = MAINS[main_name]
    rng = random.Random(count)
    reenters_at = rng.choice([2, 4, 8])
    fmt = abt(main, reenters_at=reenters_at, through=rng.choice([0, 1, 5]), entry=entry)
    entrants = by_rating(count)
    try:
        draw = fmt.initial_draw(entrants, rng)
    except FormatError as refusal:
        refused = str(refusal)
    else:
        refused = ""
    if refused:
        # Too few players can be knocked out before the winner comes back.
        assert "needs" in refused
        return

    draw = play_at_random(fmt, draw, rng)

    everyone = {e.id for e in entrants}
    main_places = fmt.placings(draw)
    assert sorted(p.entrant for p in main_places) == sorted(everyone)
    assert (main_places[0].place, main_places[0].shared_to) == (1, 1)
    last_chance = players(draw, Flight.LAST_CHANCE)
    assert len(last_chance) >= 2
    winner = reentered(draw)
    # The last chance's winner came back and played on in the main event.
    reentry = next(
        p
        for p in draw.pairings
        if p.key.flight is not Flight.LAST_CHANCE
        and winner in (p.top, p.bottom)
        and any(
            getattr(p, side) == winner
            and draw.source(p.key, side) is not None
            and draw.source(p.key, side).key.flight is Flight.LAST_CHANCE
            for side in ("top", "bottom")
        )
    )
    assert reentry.winner is not None
    # The consolation is played by the last chance's early losers only, its winner placed 1st.
    consolation = players(draw, Flight.CONSOLATION)
    assert consolation <= last_chance - {winner}
    if consolation:
        places = fmt.flight_placings(draw, Flight.CONSOLATION)
        assert {p.entrant for p in places} == consolation
        assert (places[0].place, places[0].shared_to) == (1, 1)
    assert {p.entrant for p in fmt.flight_placings(draw, Flight.LAST_CHANCE)} == last_chance


@pytest.mark.parametrize("main_name", list(MAINS))
@pytest.mark.parametrize("count", [13, 17, 30, 64, 100])
def test_a_fresh_last_chance_is_drawn_once_every_player_knocked_out_before_it_is_known(
    count, main_name
):
    fmt = abt(MAINS[main_name], reenters_at=4, through=None)
    rng = random.Random(count)
    draw = fmt.initial_draw(by_rating(count), rng)
    assert not draw.rounds(Flight.LAST_CHANCE)
    while not draw.rounds(Flight.LAST_CHANCE):
        ready = fmt.ready_pairings(draw)
        draw = fmt.advance(draw, [Result(p.key, p.top) for p in ready[:1]])  # one at a time
    feeders = _feeders(draw, main_name)
    assert all(p.winner is not None for p in feeders)
    knocked_out = {p.loser for p in feeders if isinstance(p.loser, int)}
    assert players(draw, Flight.LAST_CHANCE) == knocked_out


def _feeders(draw: Draw, main_name: str) -> list[Pairing]:
    if main_name == "knockout":
        return [p for r in draw.rounds(Flight.MAIN)[: _reentry(draw)] for p in r]
    positions = losers_positions(len(draw.rounds(Flight.MAIN)))
    fed_by = sum(1 for n in positions if 2 * n > 4)
    return [p for r in draw.rounds(Flight.LOSERS)[:fed_by] for p in r]


def _reentry(draw: Draw) -> int:
    for p in draw.pairings:
        source = draw.source(p.key, "bottom")
        if p.key.flight is Flight.MAIN and source and source.key.flight is Flight.LAST_CHANCE:
            return p.key.round
    raise AssertionError("no re-entry in the main flight")


def test_the_same_results_draw_the_same_fresh_last_chance_again():
    fmt = abt(KNOCKOUT, reenters_at=4)
    rng = random.Random(3)
    layout = fmt.initial_draw(by_rating(20), rng)
    played = play_at_random(fmt, layout, rng)

    again = replay(fmt, layout.pairings, played.pairings)

    assert again == played


def test_the_last_chance_is_drawn_at_random_not_in_the_main_brackets_order():
    """The same main results, tournaments with their own seeds: different last chances."""
    draws = set()
    for seed in range(6):
        fmt = WithSideFlights(
            KNOCKOUT,
            SideFlightOptions(
                last_chance_reenters_at=2, last_chance_entry=LastChanceEntry.FRESH, draw_seed=seed
            ),
        )
        draw = fmt.initial_draw(by_rating(16), random.Random(0))
        while not draw.rounds(Flight.LAST_CHANCE):
            draw = fmt.advance(draw, [Result(p.key, p.top) for p in fmt.ready_pairings(draw)])
        first = draw.rounds(Flight.LAST_CHANCE)[0]
        draws.add(frozenset(frozenset((p.top, p.bottom)) for p in first))
    assert len(draws) > 1


def test_a_double_elimination_last_chance_needs_players_knocked_out_while_more_are_left():
    with pytest.raises(FormatError, match="more than 8 players are left in the losers' flight"):
        abt(DOUBLE, reenters_at=8).initial_draw(by_rating(16), random.Random(0))


def test_the_double_elimination_last_chance_winner_meets_the_losers_champion_for_the_final():
    fmt = abt(DOUBLE, reenters_at=2, through=None)
    draw = fmt.initial_draw(by_rating(16), random.Random(0))
    reentry = draw.rounds(Flight.LOSERS)[-1]
    grand_final = draw.rounds(Flight.FINAL)[0][0]

    assert len(reentry) == 1
    assert draw.source(grand_final.key, "bottom").key == reentry[0].key
    assert draw.source(reentry[0].key, "top").key == draw.rounds(Flight.LOSERS)[-2][0].key
    assert draw.source(reentry[0].key, "bottom").key.flight is Flight.LAST_CHANCE
