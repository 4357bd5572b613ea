"""Drawing a knockout bracket: size, byes, standard seeding order, random draws, match lengths."""

import random

import pytest

from tournaments.formats.base import BYE, Entrant, Flight, FormatError, PairingKey, WinnerOf
from tournaments.formats.knockout import (
    Knockout,
    KnockoutOptions,
    Seeding,
    bracket_size,
    standard_order,
)

ENTRANT_COUNTS = range(2, 131)


def by_rating(count: int) -> list[Entrant]:
    """Entrants whose id is also their rating seed: entrant 1 is the highest rated."""
    return [Entrant(id_, rating=2000.0 - id_) for id_ in range(1, count + 1)]


def draw_by_rating(count: int):
    return Knockout(KnockoutOptions((5,))).initial_draw(by_rating(count), random.Random(0))


@pytest.mark.parametrize("count", ENTRANT_COUNTS)
def test_the_bracket_is_the_next_power_of_two_and_holds_everyone_once(count):
    rounds = draw_by_rating(count).rounds()

    size = 2 * len(rounds[0])
    assert size == bracket_size(count)
    assert size & (size - 1) == 0
    assert size // 2 < count <= size
    assert [len(round_) for round_ in rounds] == [size >> (r + 1) for r in range(len(rounds))]
    lines = [side for p in rounds[0] for side in (p.top, p.bottom)]
    assert sorted(side for side in lines if side is not BYE) == list(range(1, count + 1))
    assert lines.count(BYE) == size - count


@pytest.mark.parametrize("count", ENTRANT_COUNTS)
def test_byes_go_to_the_top_seeds_who_advance_at_once_and_never_meet_each_other(count):
    draw = draw_by_rating(count)
    size = bracket_size(count)

    bye_pairings = [p for p in draw.rounds()[0] if p.is_bye]
    assert all(not (p.top is BYE and p.bottom is BYE) for p in draw.rounds()[0])
    assert sorted(p.winner for p in bye_pairings) == list(range(1, size - count + 1))
    for pairing in bye_pairings:
        following = draw.pairing(PairingKey(Flight.MAIN, 1, pairing.key.position // 2))
        side = following.top if pairing.key.position % 2 == 0 else following.bottom
        assert side == pairing.winner


@pytest.mark.parametrize("count", ENTRANT_COUNTS)
def test_first_round_opponents_add_up_to_bracket_size_plus_one(count):
    size = bracket_size(count)
    for pairing in draw_by_rating(count).rounds()[0]:
        top = pairing.top
        bottom = size + 1 - top if pairing.bottom is BYE else pairing.bottom
        assert top < bottom
        assert top + bottom == size + 1


@pytest.mark.parametrize("count", ENTRANT_COUNTS)
def test_the_top_seeds_are_spread_so_they_meet_as_late_as_possible(count):
    size = bracket_size(count)
    lines = [side for p in draw_by_rating(count).rounds()[0] for side in (p.top, p.bottom)]

    # Seeds 1..2^k sit in 2^k different sections: 1 and 2 in opposite halves, 1..4 in
    # different quarters, and so on down to the first round.
    sections = 2
    while sections <= min(size, count):
        section_of = {seed: lines.index(seed) * sections // size for seed in range(1, sections + 1)}
        assert len(set(section_of.values())) == sections
        sections *= 2


def test_sixteen_seeds_are_paired_in_the_standard_order():
    pairs = [(p.top, p.bottom) for p in draw_by_rating(16).rounds()[0]]

    assert pairs == [(1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15)]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128, 256])
def test_when_favourites_win_every_round_pairs_seeds_adding_up_to_its_size_plus_one(size):
    order = list(standard_order(size))
    while len(order) > 1:
        pairs = list(zip(order[::2], order[1::2], strict=True))
        assert all(a + b == len(order) + 1 for a, b in pairs)
        order = [min(pair) for pair in pairs]


def test_hand_set_seeds_keep_their_number_and_the_rest_follow_by_rating():
    entrants = [
        Entrant(10, rating=1500.0, seed=1),
        Entrant(11, rating=1900.0),
        Entrant(12, rating=1600.0, seed=2),
        Entrant(13, rating=1700.0),
    ]

    draw = Knockout(KnockoutOptions((5,))).initial_draw(entrants, random.Random(0))

    # seeds: 10 is 1, 12 is 2, then 11 (1900) is 3 and 13 (1700) is 4; 1 v 4 and 2 v 3.
    assert [(p.top, p.bottom) for p in draw.rounds()[0]] == [(10, 13), (12, 11)]


@pytest.mark.parametrize(
    ("seeds", "message"),
    [((1, 1), "Seed 1 is given to two entrants."), ((1, 5), "Seed 5 is out of range")],
)
def test_hand_set_seeds_must_be_distinct_and_within_the_field(seeds, message):
    entrants = [Entrant(i, 1500.0, seed=seed) for i, seed in enumerate(seeds)]
    entrants += [Entrant(9, 1500.0), Entrant(8, 1500.0)]

    with pytest.raises(FormatError, match=message):
        Knockout(KnockoutOptions((5,))).initial_draw(entrants, random.Random(0))


def test_a_random_draw_is_reproducible_from_the_seed_of_the_random_generator():
    knockout = Knockout(KnockoutOptions((5,), Seeding.RANDOM))
    entrants = by_rating(20)

    first = knockout.initial_draw(entrants, random.Random(42))
    again = knockout.initial_draw(list(reversed(entrants)), random.Random(42))
    other = knockout.initial_draw(entrants, random.Random(43))

    assert first == again
    assert first != other


def test_a_random_draw_gives_the_byes_without_regard_to_rating():
    knockout = Knockout(KnockoutOptions((5,), Seeding.RANDOM))

    bye_holders = [
        {
            p.winner
            for p in knockout.initial_draw(by_rating(12), random.Random(s)).pairings
            if p.is_bye
        }
        for s in range(20)
    ]

    assert all(len(holders) == 4 for holders in bye_holders)
    assert any(holders != {1, 2, 3, 4} for holders in bye_holders)


def test_equal_ratings_are_ordered_by_the_random_draw():
    entrants = [Entrant(i, rating=1500.0) for i in range(1, 9)]
    knockout = Knockout(KnockoutOptions((5,)))

    first_pairs = {
        knockout.initial_draw(entrants, random.Random(s)).rounds()[0][0] for s in range(10)
    }

    assert len(first_pairs) > 1


@pytest.mark.parametrize(
    ("count", "lengths"),
    [
        (16, (5, 5, 7, 9)),
        (32, (5, 5, 5, 7, 9)),
        (20, (5, 5, 5, 7, 9)),
        (4, (7, 9)),
        (2, (9,)),
    ],
)
def test_match_lengths_are_read_from_the_final_backwards(count, lengths):
    knockout = Knockout(KnockoutOptions((5, 5, 7, 9)))

    draw = knockout.initial_draw(by_rating(count), random.Random(0))

    assert tuple(round_[0].match_length for round_ in draw.rounds()) == lengths


def test_later_rounds_wait_for_the_winners_of_the_pairings_that_feed_them():
    draw = draw_by_rating(8)

    final = draw.rounds()[-1][0]

    assert final.top == WinnerOf(PairingKey(Flight.MAIN, 1, 0))
    assert final.bottom == WinnerOf(PairingKey(Flight.MAIN, 1, 1))
    assert not final.is_ready


@pytest.mark.parametrize("count", [0, 1])
def test_a_knockout_needs_two_entrants(count):
    with pytest.raises(FormatError, match="A knockout needs at least 2 entrants"):
        Knockout(KnockoutOptions((5,))).initial_draw(by_rating(count), random.Random(0))


@pytest.mark.parametrize(
    ("lengths", "message"),
    [((), "Give at least one match length"), ((5, 0), "at least 1 point long")],
)
def test_match_lengths_must_be_given_and_positive(lengths, message):
    with pytest.raises(FormatError, match=message):
        Knockout(KnockoutOptions(lengths))
