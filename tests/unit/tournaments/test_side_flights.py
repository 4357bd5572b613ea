"""Side flights: a progressive consolation and a last chance beside the main draw."""

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import pytest

from tournaments.formats.base import (
    BYE,
    Draw,
    Entrant,
    Flight,
    FormatError,
    LoserOf,
    Pairing,
    PairingKey,
    Placing,
    Result,
    WinnerOf,
    play_out,
)
from tournaments.formats.double_elimination import DoubleElimination, DoubleEliminationOptions
from tournaments.formats.knockout import Knockout, KnockoutOptions
from tournaments.formats.side_flights import SideFlightOptions, WithSideFlights

FIELD_SIZES = range(4, 129)
KNOCKOUT = Knockout(KnockoutOptions((5,)))
DOUBLE = DoubleElimination(DoubleEliminationOptions({Flight.MAIN: (5,)}))
DOUBLE_FLIGHTS = {Flight.MAIN, Flight.LOSERS, Flight.FINAL}


def by_rating(count: int) -> list[Entrant]:
    """Entrants whose id is also their rating seed: entrant 1 is the highest rated."""
    return [Entrant(id_, rating=2000.0 - id_) for id_ in range(1, count + 1)]


def consolation(through: int, main: Knockout | DoubleElimination = KNOCKOUT) -> WithSideFlights:
    return WithSideFlights(main, SideFlightOptions(consolation_through_round=through))


def last_chance(reenters_at: int) -> WithSideFlights:
    return WithSideFlights(KNOCKOUT, SideFlightOptions(last_chance_reenters_at=reenters_at))


def players(pairing: Pairing) -> tuple[int, int]:
    assert isinstance(pairing.top, int)
    assert isinstance(pairing.bottom, int)
    return pairing.top, pairing.bottom


def favourite(pairing: Pairing) -> int:
    return min(players(pairing))


def key(flight: Flight, round_: int, position: int) -> PairingKey:
    return PairingKey(flight, round_, position)


@dataclass(frozen=True)
class Watched:
    """The format, checked at every moment of play: nobody is in two ready pairings and no
    pairing holds two byes. It offers a random part of the ready pairings, so side flights
    and the main flight get ahead of one another in every way."""

    fmt: WithSideFlights
    rng: random.Random

    def initial_draw(self, entrants: Sequence[Entrant], rng: random.Random) -> Draw:
        return self.fmt.initial_draw(entrants, rng)

    def advance(self, draw: Draw, results: Iterable[Result]) -> Draw:
        return self.fmt.advance(draw, results)

    def ready_pairings(self, draw: Draw) -> tuple[Pairing, ...]:
        ready = self.fmt.ready_pairings(draw)
        busy = Counter(player for pairing in ready for player in players(pairing))
        assert all(times == 1 for times in busy.values())
        assert not any(p.top is BYE and p.bottom is BYE for p in draw.pairings)
        part = tuple(p for p in ready if self.rng.random() < 0.5)
        return part or ready[:1]

    def is_finished(self, draw: Draw) -> bool:
        return self.fmt.is_finished(draw)

    def placings(self, draw: Draw) -> tuple[Placing, ...]:
        return self.fmt.placings(draw)


def played_out(
    fmt: WithSideFlights, count: int, choose_winner: Callable[[Pairing], int], seed: int = 0
) -> Draw:
    rng = random.Random(seed)
    return play_out(Watched(fmt, rng), fmt.initial_draw(by_rating(count), rng), choose_winner)


def coin_flips(seed: int) -> Callable[[Pairing], int]:
    rng = random.Random(seed)
    return lambda pairing: rng.choice(players(pairing))


def losers(draw: Draw, flight: Flight, rounds: range | None = None) -> list[int]:
    """The players who lost a match in ``flight`` (in ``rounds`` if given)."""
    return [
        loser
        for pairing in draw.pairings
        if pairing.key.flight is flight
        and (rounds is None or pairing.key.round in rounds)
        and isinstance(loser := pairing.loser, int)
    ]


def entered(draw: Draw, flight: Flight) -> set[int]:
    return {
        side
        for pairing in draw.pairings
        if pairing.key.flight is flight
        for side in (pairing.top, pairing.bottom)
        if isinstance(side, int)
    }


def assert_consecutive_places(placings: tuple[Placing, ...], entrants: set[int]) -> None:
    assert sorted(p.entrant for p in placings) == sorted(entrants)
    next_place = 1
    for placing in placings:
        if placing.place == next_place:
            next_place = placing.shared_to + 1
        assert placing.place <= placing.shared_to < next_place
    assert next_place == len(entrants) + 1


@pytest.mark.parametrize("count", FIELD_SIZES)
def test_a_knockout_consolation_takes_every_early_loser_and_crowns_one_of_them(count):
    fmt = consolation(1)
    for seed in range(2):
        draw = played_out(fmt, count, coin_flips(seed), seed)

        assert fmt.is_finished(draw)
        # Rounds 0 and 1, but never the final: 4 players send only their semi-finalists.
        early_losers = losers(draw, Flight.MAIN, range(min(2, len(draw.rounds()) - 1)))
        assert entered(draw, Flight.CONSOLATION) == set(early_losers)
        lost = Counter(losers(draw, Flight.CONSOLATION))
        champion = fmt.flight_placings(draw, Flight.CONSOLATION)[0].entrant
        assert set(lost) == set(early_losers) - {champion}
        assert all(times == 1 for times in lost.values())
        assert_consecutive_places(fmt.placings(draw), set(range(1, count + 1)))
        assert_consecutive_places(fmt.flight_placings(draw, Flight.CONSOLATION), set(early_losers))


@pytest.mark.parametrize("count", FIELD_SIZES)
def test_a_double_elimination_consolation_takes_those_knocked_out_in_the_first_losers_rounds(
    count,
):
    fmt = consolation(2, DOUBLE)
    for seed in range(2):
        draw = played_out(fmt, count, coin_flips(seed), seed)

        assert fmt.is_finished(draw)
        # Rounds 0 to 2, but never the losers' final.
        fed_by = range(min(3, len(draw.rounds(Flight.LOSERS)) - 1))
        knocked_out = losers(draw, Flight.LOSERS, fed_by)
        if len(knocked_out) < 2:  # 4 players: one goes out before the losers' final
            assert draw.rounds(Flight.CONSOLATION) == ()
            continue
        assert entered(draw, Flight.CONSOLATION) == set(knocked_out)
        first_losses = set(losers(draw, Flight.MAIN))
        assert set(knocked_out) <= first_losses
        assert_consecutive_places(fmt.placings(draw), set(range(1, count + 1)))
        assert_consecutive_places(fmt.flight_placings(draw, Flight.CONSOLATION), set(knocked_out))


@pytest.mark.parametrize(
    ("count", "reenters_at"),
    [(count, at) for at in (2, 4, 8) for count in FIELD_SIZES if count > at],
)
def test_the_last_chance_winner_re_enters_the_main_flight_at_the_chosen_round(count, reenters_at):
    fmt = last_chance(reenters_at)
    draw = played_out(fmt, count, coin_flips(count), count)

    assert fmt.is_finished(draw)
    main_rounds = draw.rounds(Flight.MAIN)
    reentry = len(main_rounds) - (reenters_at.bit_length() - 1)
    assert len(main_rounds[reentry]) == reenters_at // 2
    knocked_out_early = losers(draw, Flight.MAIN, range(reentry))
    assert entered(draw, Flight.LAST_CHANCE) == set(knocked_out_early)
    winner = fmt.flight_placings(draw, Flight.LAST_CHANCE)[0].entrant
    assert draw.pairing(key(Flight.MAIN, reentry, 0)).bottom == winner
    assert_consecutive_places(fmt.placings(draw), set(range(1, count + 1)))
    assert_consecutive_places(fmt.flight_placings(draw, Flight.LAST_CHANCE), set(knocked_out_early))


def test_main_round_1_losers_drop_into_consolation_round_1_against_the_other_half():
    draw = consolation(1).initial_draw(by_rating(16), random.Random(0))

    rounds = draw.rounds(Flight.CONSOLATION)

    assert [len(round_) for round_ in rounds] == [4, 4, 2, 1]
    assert [(p.top, p.bottom) for p in rounds[0]] == [
        (LoserOf(key(Flight.MAIN, 0, 2 * q)), LoserOf(key(Flight.MAIN, 0, 2 * q + 1)))
        for q in range(4)
    ]
    assert [p.top for p in rounds[1]] == [WinnerOf(key(Flight.CONSOLATION, 0, q)) for q in range(4)]
    assert [p.bottom for p in rounds[1]] == [LoserOf(key(Flight.MAIN, 1, q)) for q in (2, 3, 0, 1)]


def test_the_main_flight_beside_a_consolation_is_the_plain_format_s():
    for main in (KNOCKOUT, DOUBLE):
        plain = main.initial_draw(by_rating(27), random.Random(3))
        with_consolation = consolation(1, main).initial_draw(by_rating(27), random.Random(3))

        for flight in (Flight.MAIN, Flight.LOSERS, Flight.FINAL):
            assert with_consolation.rounds(flight) == plain.rounds(flight)


def test_a_consolation_beyond_the_semi_finals_is_cut_back_to_them():
    draw = consolation(9).initial_draw(by_rating(8), random.Random(0))

    fed_by = {
        side.key
        for pairing in draw.rounds(Flight.CONSOLATION)[1]
        for side in (pairing.top, pairing.bottom)
        if isinstance(side, LoserOf)
    }
    assert fed_by == {key(Flight.MAIN, 1, 0), key(Flight.MAIN, 1, 1)}
    assert [len(round_) for round_ in draw.rounds(Flight.CONSOLATION)] == [2, 2, 1]


def test_sixteen_favourites_place_in_the_consolation_by_the_round_they_went_out():
    fmt = consolation(1)
    draw = played_out(fmt, 16, favourite)

    places = {
        p.entrant: (p.place, p.shared_to) for p in fmt.flight_placings(draw, Flight.CONSOLATION)
    }

    # Main round 0 losers are seeds 9 to 16, main round 1 losers seeds 5 to 8: seed 5 wins,
    # 6 is runner-up, 7 and 8 lose the semi-finals, 9 to 12 the drop round.
    assert places[5] == (1, 1)
    assert places[6] == (2, 2)
    assert {places[7], places[8]} == {(3, 4)}
    assert {places[seed] for seed in range(9, 13)} == {(5, 8)}
    assert {places[seed] for seed in range(13, 17)} == {(9, 12)}
    assert fmt.placings(draw)[:2] == (Placing(1, 1, 1), Placing(2, 2, 2))


def test_six_players_last_chance_winner_meets_seed_1_in_the_semi_final():
    fmt = last_chance(4)
    draw = fmt.initial_draw(by_rating(6), random.Random(0))

    assert [p.key.position for p in draw.rounds(Flight.MAIN)[0]] == [0, 2, 3]
    semi_final = draw.pairing(key(Flight.MAIN, 1, 0))
    assert semi_final.bottom == WinnerOf(key(Flight.LAST_CHANCE, 1, 0))

    draw = play_out(fmt, draw, favourite)

    assert players(draw.pairing(key(Flight.MAIN, 0, 0))) == (1, 6)
    # 6 had a bye in the last chance's first round, 4 beat 5, then 4 beat 6.
    assert fmt.flight_placings(draw, Flight.LAST_CHANCE) == (
        Placing(4, 1, 1),
        Placing(6, 2, 2),
        Placing(5, 3, 3),
    )
    assert players(draw.pairing(key(Flight.MAIN, 1, 0))) == (1, 4)
    assert fmt.placings(draw)[:2] == (Placing(1, 1, 1), Placing(2, 2, 2))
    assert {(p.entrant, p.shared_to) for p in fmt.placings(draw) if p.place == 3} == {
        (3, 4),
        (4, 4),
    }


def test_the_main_flight_waits_for_the_last_chance_final():
    fmt = last_chance(4)
    draw = fmt.initial_draw(by_rating(6), random.Random(0))

    draw = fmt.advance(draw, [Result(p.key, favourite(p)) for p in fmt.ready_pairings(draw)])

    ready = {p.key for p in fmt.ready_pairings(draw)}
    assert key(Flight.MAIN, 1, 1) in ready
    assert key(Flight.LAST_CHANCE, 0, 1) in ready
    assert key(Flight.MAIN, 1, 0) not in ready
    assert not fmt.is_finished(draw)


def test_side_flights_play_their_own_lengths_or_the_main_flight_s():
    options = SideFlightOptions(
        consolation_through_round=1, round_lengths={Flight.CONSOLATION: (3, 5)}
    )
    draw = WithSideFlights(Knockout(KnockoutOptions((7, 9))), options).initial_draw(
        by_rating(16), random.Random(0)
    )
    chance = WithSideFlights(
        Knockout(KnockoutOptions((7, 9))), SideFlightOptions(last_chance_reenters_at=2)
    ).initial_draw(by_rating(8), random.Random(0))

    def per_round(draw: Draw, flight: Flight) -> tuple[int, ...]:
        return tuple(round_[0].match_length for round_ in draw.rounds(flight))

    assert per_round(draw, Flight.CONSOLATION) == (3, 3, 3, 5)
    assert per_round(draw, Flight.MAIN) == (7, 7, 7, 9)
    # 7 players knocked out in main rounds 0 to 2 of a bracket of 16 whose bottom half is
    # the last chance winner's: they enter over 5 rounds, the final last.
    assert per_round(chance, Flight.LAST_CHANCE) == (7, 7, 7, 7, 9)


@pytest.mark.parametrize(
    ("main", "options", "message"),
    [
        (KNOCKOUT, SideFlightOptions(), "Choose a consolation or a last chance"),
        (KNOCKOUT, SideFlightOptions(consolation_through_round=-1), "round 0 does not exist"),
        (KNOCKOUT, SideFlightOptions(last_chance_reenters_at=6), "not 6"),
        (KNOCKOUT, SideFlightOptions(last_chance_reenters_at=1), "not 1"),
        (
            KNOCKOUT,
            SideFlightOptions(consolation_through_round=0, round_lengths={Flight.LOSERS: (3,)}),
            "the losers flight takes the main format's",
        ),
        (
            KNOCKOUT,
            SideFlightOptions(consolation_through_round=0, round_lengths={Flight.CONSOLATION: ()}),
            "at least one match length for the consolation",
        ),
        (
            KNOCKOUT,
            SideFlightOptions(last_chance_reenters_at=2, round_lengths={Flight.LAST_CHANCE: (0,)}),
            "at least 1 point long, not 0",
        ),
    ],
)
def test_options_an_organizer_gets_wrong_are_refused_with_a_reason(main, options, message):
    with pytest.raises(FormatError, match=message):
        WithSideFlights(main, options)


def test_a_last_chance_needs_two_players_out_before_its_winner_re_enters():
    with pytest.raises(FormatError, match="needs at least 5 entrants, so that two can lose"):
        last_chance(4).initial_draw(by_rating(4), random.Random(0))


def test_a_double_elimination_champion_is_placed_alone_while_the_consolation_plays_on():
    fmt = consolation(1, DOUBLE)
    draw = fmt.initial_draw(by_rating(8), random.Random(0))
    while main_ready := [p for p in fmt.ready_pairings(draw) if p.key.flight in DOUBLE_FLIGHTS]:
        draw = fmt.advance(draw, [Result(p.key, favourite(p)) for p in main_ready])

    assert not fmt.is_finished(draw)
    assert fmt.placings(draw)[:2] == (Placing(1, 1, 1), Placing(2, 2, 2))
