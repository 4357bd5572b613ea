"""Playing a knockout through: results move winners on, placings, and results that do not fit."""

import random

import pytest

from tournaments.formats.base import (
    BYE,
    DrawInvariantError,
    Entrant,
    Flight,
    PairingKey,
    Placing,
    Result,
    play_out,
)
from tournaments.formats.knockout import Knockout, KnockoutOptions, simulate_knockout

KNOCKOUT = Knockout(KnockoutOptions((5, 7, 9)))


def by_rating(count: int) -> list[Entrant]:
    """Entrants whose id is also their rating seed: entrant 1 is the highest rated."""
    return [Entrant(id_, rating=2000.0 - id_) for id_ in range(1, count + 1)]


def favourite(pairing) -> int:
    return min(pairing.top, pairing.bottom)


def underdog(pairing) -> int:
    return max(pairing.top, pairing.bottom)


@pytest.mark.parametrize("count", [2, 3, 5, 8, 13, 16, 33, 100])
def test_a_bracket_played_through_crowns_one_champion(count):
    draw = KNOCKOUT.initial_draw(by_rating(count), random.Random(0))

    draw = play_out(KNOCKOUT, draw, favourite)

    assert KNOCKOUT.is_finished(draw)
    assert KNOCKOUT.ready_pairings(draw) == ()
    placings = KNOCKOUT.placings(draw)
    assert placings[0] == Placing(1, 1, 1)
    assert placings[1] == Placing(2, 2, 2)
    assert sorted(p.entrant for p in placings) == list(range(1, count + 1))


def test_a_sixteen_player_knockout_places_losers_by_the_round_they_went_out():
    draw = play_out(KNOCKOUT, KNOCKOUT.initial_draw(by_rating(16), random.Random(0)), favourite)

    places = {p.entrant: (p.place, p.shared_to) for p in KNOCKOUT.placings(draw)}

    assert places[1] == (1, 1)
    assert places[2] == (2, 2)
    assert {places[3], places[4]} == {(3, 4)}
    assert {places[seed] for seed in range(5, 9)} == {(5, 8)}
    assert {places[seed] for seed in range(9, 17)} == {(9, 16)}


def test_within_a_shared_place_the_player_beaten_by_the_champion_comes_first():
    draw = play_out(KNOCKOUT, KNOCKOUT.initial_draw(by_rating(8), random.Random(0)), favourite)

    placings = KNOCKOUT.placings(draw)

    # Seed 4 lost the semi-final to the champion, seed 3 to the runner-up.
    assert placings[2:4] == (Placing(4, 3, 4), Placing(3, 3, 4))


def test_byes_are_not_losers_and_first_round_losers_share_the_last_places():
    draw = play_out(KNOCKOUT, KNOCKOUT.initial_draw(by_rating(5), random.Random(0)), underdog)

    placings = KNOCKOUT.placings(draw)

    # 5 entrants in a bracket of 8: only 4 v 5 is played in the first round. The underdog
    # wins every match: 5 beats 4 then 1, 3 beats 2, and 5 beats 3 in the final.
    assert [(p.entrant, p.place, p.shared_to) for p in placings] == [
        (5, 1, 1),
        (3, 2, 2),
        (1, 3, 4),
        (2, 3, 4),
        (4, 5, 5),
    ]


def test_a_winner_moves_on_to_the_side_waiting_for_them():
    draw = KNOCKOUT.initial_draw(by_rating(4), random.Random(0))
    first, second = draw.rounds()[0]

    draw = KNOCKOUT.advance(draw, [Result(first.key, 4)])

    final = draw.rounds()[1][0]
    assert final.top == 4
    assert not final.is_ready
    assert KNOCKOUT.ready_pairings(draw) == (second,)

    draw = KNOCKOUT.advance(draw, [Result(second.key, 2)])

    assert KNOCKOUT.ready_pairings(draw) == (draw.rounds()[1][0],)
    assert (draw.rounds()[1][0].top, draw.rounds()[1][0].bottom) == (4, 2)


def test_an_unfinished_knockout_lists_the_players_still_in_as_sharing_the_top_places():
    draw = KNOCKOUT.initial_draw(by_rating(4), random.Random(0))
    first = draw.rounds()[0][0]

    draw = KNOCKOUT.advance(draw, [Result(first.key, 1)])

    assert not KNOCKOUT.is_finished(draw)
    assert KNOCKOUT.placings(draw) == (
        Placing(1, 1, 3),
        Placing(2, 1, 3),
        Placing(3, 1, 3),
        Placing(4, 4, 4),
    )


def test_the_same_result_reported_twice_changes_nothing():
    draw = KNOCKOUT.initial_draw(by_rating(4), random.Random(0))
    result = Result(draw.rounds()[0][0].key, 1)
    once = KNOCKOUT.advance(draw, [result])

    assert KNOCKOUT.advance(once, [result]) == once


def test_a_result_that_contradicts_an_earlier_one_is_refused():
    draw = KNOCKOUT.initial_draw(by_rating(4), random.Random(0))
    key = draw.rounds()[0][0].key
    draw = KNOCKOUT.advance(draw, [Result(key, 1)])

    with pytest.raises(DrawInvariantError, match="was won by 1"):
        KNOCKOUT.advance(draw, [Result(key, 4)])


def test_a_result_naming_someone_who_was_not_playing_is_refused():
    draw = KNOCKOUT.initial_draw(by_rating(4), random.Random(0))

    with pytest.raises(DrawInvariantError, match="3 is not playing"):
        KNOCKOUT.advance(draw, [Result(draw.rounds()[0][0].key, 3)])


def test_a_result_for_a_pairing_still_waiting_for_its_players_is_refused():
    draw = KNOCKOUT.initial_draw(by_rating(4), random.Random(0))

    with pytest.raises(DrawInvariantError, match="not ready"):
        KNOCKOUT.advance(draw, [Result(PairingKey(Flight.MAIN, 1, 0), 1)])


def test_a_result_for_a_pairing_outside_the_draw_is_refused():
    draw = KNOCKOUT.initial_draw(by_rating(4), random.Random(0))

    with pytest.raises(DrawInvariantError, match="No pairing"):
        KNOCKOUT.advance(draw, [Result(PairingKey(Flight.MAIN, 5, 0), 1)])


def test_recording_a_result_leaves_the_earlier_draw_untouched():
    draw = KNOCKOUT.initial_draw(by_rating(4), random.Random(0))
    before = draw.pairings

    KNOCKOUT.advance(draw, [Result(draw.rounds()[0][0].key, 1)])

    assert draw.pairings == before


def test_an_entrant_registered_twice_is_a_caller_bug():
    with pytest.raises(DrawInvariantError):
        KNOCKOUT.initial_draw([Entrant(1, 1500.0), Entrant(1, 1600.0)], random.Random(0))


def test_a_4096_player_knockout_plays_through_to_one_champion():
    draw = simulate_knockout(4096, random.Random(7))

    final = draw.pairings[-1]
    assert len(draw.pairings) == 4095
    assert final.key == PairingKey(Flight.MAIN, 11, 0)
    assert final.winner in (final.top, final.bottom)
    assert all(p.winner is not None and BYE not in (p.top, p.bottom) for p in draw.pairings)


def test_a_simulated_knockout_is_reproducible_from_its_random_seed():
    assert simulate_knockout(300, random.Random(3)) == simulate_knockout(300, random.Random(3))
