"""Triple elimination: three losses to go out, two losers' flights, the finals, placings."""

import random
from collections import Counter
from collections.abc import Callable, Mapping

import pytest

from tournaments.formats.base import (
    BYE,
    Draw,
    DrawInvariantError,
    Entrant,
    Flight,
    FormatError,
    LoserOf,
    Pairing,
    PairingKey,
    Placing,
    Result,
    WinnerOf,
)
from tournaments.formats.double_elimination import DoubleElimination, DoubleEliminationOptions
from tournaments.formats.triple_elimination import (
    PLAYOFF,
    TripleElimination,
    TripleEliminationOptions,
    losses_by_entrant,
)

FIELD_SIZES = range(4, 129)


def by_rating(count: int) -> list[Entrant]:
    """Entrants whose id is also their rating seed: entrant 1 is the highest rated."""
    return [Entrant(id_, rating=2000.0 - id_) for id_ in range(1, count + 1)]


def triple_elimination(
    *, reset: bool = True, lengths: Mapping[Flight, tuple[int, ...]] | None = None
) -> TripleElimination:
    round_lengths = {Flight.MAIN: (5,)} if lengths is None else lengths
    return TripleElimination(TripleEliminationOptions(round_lengths, grand_final_reset=reset))


def players(pairing: Pairing) -> tuple[int, int]:
    assert isinstance(pairing.top, int)
    assert isinstance(pairing.bottom, int)
    return pairing.top, pairing.bottom


def favourite(pairing: Pairing) -> int:
    return min(players(pairing))


def underdog(pairing: Pairing) -> int:
    return max(players(pairing))


def coin_flips(rng: random.Random) -> Callable[[Pairing], int]:
    def choose(pairing: Pairing) -> int:
        return rng.choice(players(pairing))

    return choose


def key(flight: Flight, round_: int, position: int = 0) -> PairingKey:
    return PairingKey(flight, round_, position)


def checked_play_out(
    fmt: TripleElimination, count: int, choose_winner: Callable[[Pairing], int]
) -> Draw:
    """The draw played to the end one batch at a time, checking after every batch that
    nobody waits in two undecided pairings and nobody is placed out before three losses."""
    draw = fmt.initial_draw(by_rating(count), random.Random(count))
    for _batch in range(10 * count):
        if fmt.is_finished(draw):
            return draw
        waiting = Counter(
            side
            for pairing in draw.pairings
            if pairing.winner is None
            for side in (pairing.top, pairing.bottom)
            if isinstance(side, int)
        )
        assert max(waiting.values(), default=1) == 1
        if fmt.options.grand_final_reset:
            losses = losses_by_entrant(draw)
            still_in = [p.entrant for p in fmt.placings(draw) if p.place == 1]
            out = set(range(1, count + 1)) - set(still_in)
            assert all(losses[entrant] == 3 for entrant in out)
        ready = fmt.ready_pairings(draw)
        assert ready, "the draw is stuck"
        draw = fmt.advance(draw, [Result(p.key, choose_winner(p)) for p in ready])
    raise AssertionError("the draw never finished")


@pytest.mark.parametrize("count", FIELD_SIZES)
@pytest.mark.parametrize("results", ["favourites", "coin flips", "underdogs"])
def test_every_field_plays_to_a_champion_with_everyone_else_out_on_their_third_loss(
    count: int, results: str
) -> None:
    choose = {
        "favourites": favourite,
        "coin flips": coin_flips(random.Random(count)),
        "underdogs": underdog,
    }[results]
    fmt = triple_elimination()
    draw = checked_play_out(fmt, count, choose)

    placings = fmt.placings(draw)
    losses = losses_by_entrant(draw)
    assert sorted(p.entrant for p in placings) == list(range(1, count + 1))
    assert [(p.place, p.shared_to) for p in placings[:3]] == [(1, 1), (2, 2), (3, 3)]
    assert placings[-1].shared_to == count
    assert losses[placings[0].entrant] <= 2
    assert all(losses[p.entrant] == 3 for p in placings[1:])
    if results == "favourites":
        assert [p.entrant for p in placings[:3]] == [1, 2, 3]


@pytest.mark.parametrize("count", FIELD_SIZES)
def test_without_resets_the_finals_are_one_match_each_and_only_their_losers_go_out_early(
    count: int,
) -> None:
    fmt = triple_elimination(reset=False)
    draw = checked_play_out(fmt, count, coin_flips(random.Random(count)))

    finals = [pairing for round_ in draw.rounds(Flight.FINAL) for pairing in round_]
    placings = fmt.placings(draw)
    losses = losses_by_entrant(draw)
    assert len(finals) == 2
    finals_losers = {final.loser for final in finals}
    assert {p.entrant for p in placings[1:3]} == finals_losers
    assert all(losses[p.entrant] == 3 for p in placings[3:])
    assert sorted(p.entrant for p in placings) == list(range(1, count + 1))


def test_sixteen_players_drop_through_two_losers_flights_in_stages() -> None:
    draw = triple_elimination().initial_draw(by_rating(16), random.Random(0))

    first = [len(round_) for round_ in draw.rounds(Flight.LOSERS)]
    second = [len(round_) for round_ in draw.rounds(Flight.SECOND_LOSERS)]
    assert first == [4, 4, 2, 2, 1, 1]
    assert second == [4, 2, 2, 2, 1, 1, 1]
    assert len(draw.rounds(Flight.FINAL)) == 6
    # The opening: first losers' round 0 against round 1, shifted by halves.
    opening = draw.rounds(Flight.SECOND_LOSERS)[0]
    assert [(draw.source(p.key, "top"), draw.source(p.key, "bottom")) for p in opening] == [
        (LoserOf(key(Flight.LOSERS, 0, q)), LoserOf(key(Flight.LOSERS, 1, q ^ 2))) for q in range(4)
    ]
    # A survivor round, then drop rounds from first losers' rounds 2 (m(2) keeps the order
    # of two positions) and 3 (m(3) swaps them).
    assert draw.source(key(Flight.SECOND_LOSERS, 1, 1), "top") == WinnerOf(
        key(Flight.SECOND_LOSERS, 0, 2)
    )
    assert draw.source(key(Flight.SECOND_LOSERS, 2, 0), "bottom") == LoserOf(
        key(Flight.LOSERS, 2, 0)
    )
    assert draw.source(key(Flight.SECOND_LOSERS, 3, 0), "bottom") == LoserOf(
        key(Flight.LOSERS, 3, 1)
    )
    # The second losers' final takes the loser of the first losers' final.
    assert draw.source(key(Flight.SECOND_LOSERS, 6), "bottom") == LoserOf(key(Flight.LOSERS, 5))


def test_the_finals_take_each_flights_champion() -> None:
    draw = triple_elimination().initial_draw(by_rating(8), random.Random(0))

    assert draw.source(PLAYOFF, "top") == WinnerOf(key(Flight.LOSERS, 3))
    assert draw.source(PLAYOFF, "bottom") == WinnerOf(key(Flight.SECOND_LOSERS, 3))
    assert draw.source(key(Flight.FINAL, 1), "bottom") == LoserOf(PLAYOFF)
    assert draw.source(key(Flight.FINAL, 2), "top") == WinnerOf(key(Flight.MAIN, 2))
    assert draw.source(key(Flight.FINAL, 2), "bottom") == WinnerOf(key(Flight.FINAL, 1))


def finals_from(draw: Draw, fmt: TripleElimination, playoff_winner: int) -> Draw:
    """Eight by rating, favourites winning up to the finals: 1 unbeaten, 2 with one loss
    (the first losers' champion), 3 with two (the second losers' champion)."""
    while not draw.pairing(PLAYOFF).is_ready:
        draw = fmt.advance(draw, [Result(p.key, favourite(p)) for p in fmt.ready_pairings(draw)])
    assert players(draw.pairing(PLAYOFF)) == (2, 3)
    return fmt.advance(draw, [Result(PLAYOFF, playoff_winner)])


def test_the_playoff_is_played_again_only_when_the_second_losers_champion_wins_it() -> None:
    fmt = triple_elimination()
    start = fmt.initial_draw(by_rating(8), random.Random(0))

    straight = finals_from(start, fmt, playoff_winner=2)
    assert straight.pairing(key(Flight.FINAL, 1)).winner == 2  # called off
    assert straight.pairing(key(Flight.FINAL, 1)).bottom is BYE
    assert players(straight.pairing(key(Flight.FINAL, 2))) == (1, 2)

    again = finals_from(start, fmt, playoff_winner=3)
    assert players(again.pairing(key(Flight.FINAL, 1))) == (3, 2)
    again = fmt.advance(again, [Result(key(Flight.FINAL, 1), 3)])
    assert players(again.pairing(key(Flight.FINAL, 2))) == (1, 3)
    assert [p.entrant for p in fmt.placings(again)][2] == 2


@pytest.mark.parametrize(
    ("winners", "matches_played"),
    [
        ([1], 1),  # the unbeaten champion beats a two-loss finalist once
        ([3, 3, 3], 3),  # the finalist with two losses beats them three times
        ([3, 1], 2),
        ([3, 3, 1], 3),
    ],
)
def test_the_grand_final_is_played_until_a_finalist_has_lost_three_times(
    winners: list[int], matches_played: int
) -> None:
    fmt = triple_elimination()
    draw = finals_from(fmt.initial_draw(by_rating(8), random.Random(0)), fmt, playoff_winner=3)
    draw = fmt.advance(draw, [Result(key(Flight.FINAL, 1), 3)])

    for round_, winner in enumerate(winners, start=2):
        assert not fmt.is_finished(draw)
        draw = fmt.advance(draw, [Result(key(Flight.FINAL, round_), winner)])

    assert fmt.is_finished(draw)
    played = [p for round_ in draw.rounds(Flight.FINAL)[2:] for p in round_ if not p.is_bye]
    assert len(played) == matches_played
    placings = fmt.placings(draw)
    assert placings[0] == Placing(winners[-1], 1, 1)
    assert placings[1] == Placing(({1, 3} - {winners[-1]}).pop(), 2, 2)


def test_a_finalist_with_one_loss_may_need_four_grand_final_matches() -> None:
    fmt = triple_elimination()
    draw = finals_from(fmt.initial_draw(by_rating(8), random.Random(0)), fmt, playoff_winner=2)

    for round_, winner in zip(range(2, 6), [2, 2, 1, 1], strict=True):
        draw = fmt.advance(draw, [Result(key(Flight.FINAL, round_), winner)])

    assert fmt.is_finished(draw)
    assert losses_by_entrant(draw)[2] == 3
    assert losses_by_entrant(draw)[1] == 2
    assert fmt.placings(draw)[0] == Placing(1, 1, 1)


def test_an_unfinished_draw_places_those_still_in_together_at_the_top() -> None:
    fmt = triple_elimination()
    draw = fmt.initial_draw(by_rating(8), random.Random(0))
    draw = fmt.advance(draw, [Result(p.key, favourite(p)) for p in fmt.ready_pairings(draw)])

    placings = fmt.placings(draw)
    assert {p.place for p in placings} == {1}
    assert {p.shared_to for p in placings} == {8}


def test_byes_never_make_a_pairing_of_two_byes_and_keys_keep_positions() -> None:
    draw = triple_elimination().initial_draw(by_rating(5), random.Random(0))

    for pairing in draw.pairings:
        assert not (pairing.top is BYE and pairing.bottom is BYE)
    # The opening's first pairing would hold two byes: it is not laid out.
    opening = draw.rounds(Flight.SECOND_LOSERS)[0]
    assert [p.key.position for p in opening] == [1]


@pytest.mark.parametrize(
    ("lengths", "first", "second", "finals"),
    [
        ({Flight.MAIN: (5, 7, 9)}, (5, 5, 7, 9), (5, 5, 7, 9), (9,) * 6),
        ({Flight.MAIN: (5, 7, 9), Flight.LOSERS: (3,)}, (3,) * 4, (3,) * 4, (9,) * 6),
        (
            {Flight.MAIN: (5,), Flight.SECOND_LOSERS: (1, 3), Flight.FINAL: (7, 11)},
            (5,) * 4,
            (1, 1, 1, 3),
            (7, 7, 7, 7, 7, 11),
        ),
    ],
)
def test_each_flight_takes_its_own_lengths_or_follows_the_ones_before(
    lengths: Mapping[Flight, tuple[int, ...]],
    first: tuple[int, ...],
    second: tuple[int, ...],
    finals: tuple[int, ...],
) -> None:
    draw = triple_elimination(lengths=lengths).initial_draw(by_rating(8), random.Random(0))

    def per_round(flight: Flight) -> tuple[int, ...]:
        return tuple(round_[0].match_length for round_ in draw.rounds(flight))

    assert per_round(Flight.LOSERS) == first
    assert per_round(Flight.SECOND_LOSERS) == second
    assert per_round(Flight.FINAL) == finals


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_a_triple_elimination_needs_four_entrants(count: int) -> None:
    with pytest.raises(FormatError, match="needs at least 4 entrants"):
        triple_elimination().initial_draw(by_rating(count), random.Random(0))


@pytest.mark.parametrize(
    ("lengths", "message"),
    [
        ({Flight.LOSERS: (5,)}, "Give the match lengths of the winners' flight"),
        ({Flight.MAIN: (5,), Flight.CONSOLATION: (3,)}, "not a consolation flight"),
        ({Flight.MAIN: (5,), Flight.SECOND_LOSERS: (3, 0)}, "at least 1 point long, not 0"),
    ],
)
def test_bad_lengths_are_refused_in_words(
    lengths: Mapping[Flight, tuple[int, ...]], message: str
) -> None:
    with pytest.raises(FormatError, match=message):
        triple_elimination(lengths=lengths)


def test_a_duplicate_entrant_is_a_bug_in_the_caller() -> None:
    with pytest.raises(DrawInvariantError):
        triple_elimination().initial_draw([*by_rating(4), Entrant(1, 0.0)], random.Random(0))


def test_its_first_two_flights_are_the_double_eliminations() -> None:
    triple = triple_elimination().initial_draw(by_rating(13), random.Random(0))
    double = DoubleElimination(DoubleEliminationOptions({Flight.MAIN: (5,)})).initial_draw(
        by_rating(13), random.Random(0)
    )

    for flight in (Flight.MAIN, Flight.LOSERS):
        assert triple.rounds(flight) == double.rounds(flight)
