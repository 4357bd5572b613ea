"""Round robin: Berger tables, play in table order, groups, the knockout stage and placings."""

import random
from itertools import combinations

import pytest

from tournaments.formats.base import (
    BYE,
    DrawInvariantError,
    Entrant,
    Flight,
    FormatError,
    PairingKey,
    Placing,
    Result,
    play_out,
)
from tournaments.formats.round_robin import RoundRobin, RoundRobinOptions
from tournaments.formats.stages import berger_table


def by_rating(count: int) -> list[Entrant]:
    """Entrants whose id is also their rating seed: entrant 1 is the highest rated."""
    return [Entrant(id_, rating=2000.0 - id_) for id_ in range(1, count + 1)]


def favourite(pairing) -> int:
    return min(pairing.top, pairing.bottom)


def round_robin(**options) -> RoundRobin:
    return RoundRobin(RoundRobinOptions((5,), **options))


def sides(pairings) -> list[tuple]:
    return [(pairing.top, pairing.bottom) for pairing in pairings]


def assert_places_are_consistent(placings, count: int) -> None:
    """Every entrant placed once; a place shared by k entrants spans k places, in order."""
    assert sorted(p.entrant for p in placings) == list(range(1, count + 1))
    next_place = 1
    i = 0
    while i < len(placings):
        place, shared_to = placings[i].place, placings[i].shared_to
        assert place == next_place
        sharing = placings[i : i + shared_to - place + 1]
        assert all((p.place, p.shared_to) == (place, shared_to) for p in sharing)
        i += len(sharing)
        next_place = shared_to + 1
    assert next_place == count + 1


# ---------------------------------------------------------------- Berger tables


def test_the_berger_table_for_six_is_the_one_fide_publishes():
    # FIDE Handbook C.05 Annex 1, 5 or 6 players.
    assert berger_table(6) == (
        ((1, 6), (2, 5), (3, 4)),
        ((6, 4), (5, 3), (1, 2)),
        ((2, 6), (3, 1), (4, 5)),
        ((6, 5), (1, 4), (2, 3)),
        ((3, 6), (4, 2), (5, 1)),
    )


def test_the_berger_table_for_eight_is_the_one_fide_publishes():
    assert berger_table(8) == (
        ((1, 8), (2, 7), (3, 6), (4, 5)),
        ((8, 5), (6, 4), (7, 3), (1, 2)),
        ((2, 8), (3, 1), (4, 7), (5, 6)),
        ((8, 6), (7, 5), (1, 4), (2, 3)),
        ((3, 8), (4, 2), (5, 1), (6, 7)),
        ((8, 7), (1, 6), (2, 5), (3, 4)),
        ((4, 8), (5, 3), (6, 2), (7, 1)),
    )


@pytest.mark.parametrize("count", range(2, 31))
def test_a_berger_table_pairs_everyone_once_and_nobody_twice_in_a_round(count):
    table = berger_table(count)

    numbers = count + count % 2
    assert len(table) == numbers - 1
    for boards in table:
        assert sorted(n for board in boards for n in board) == list(range(1, numbers + 1))
    met = sorted(tuple(sorted(board)) for boards in table for board in boards)
    assert met == list(combinations(range(1, numbers + 1), 2))


@pytest.mark.parametrize("count", range(2, 31))
def test_a_round_robin_draw_holds_every_match_once_and_every_sit_out_decided(count):
    draw = round_robin().initial_draw(by_rating(count), random.Random(0))

    rounds = draw.rounds(Flight.MAIN)
    assert len(rounds) == count - 1 + count % 2
    matches = [frozenset((p.top, p.bottom)) for p in draw.pairings if not p.is_bye]
    assert sorted(map(sorted, matches)) == [
        list(pair) for pair in combinations(range(1, count + 1), 2)
    ]
    for round_ in rounds:
        seated = [side for p in round_ for side in (p.top, p.bottom) if side is not BYE]
        assert sorted(seated) == list(range(1, count + 1))
    sit_outs = [p for p in draw.pairings if p.is_bye]
    assert len(sit_outs) == (count if count % 2 else 0)
    assert all(p.bottom is BYE and p.winner == p.top for p in sit_outs)


def test_the_table_numbers_entrants_by_rating():
    draw = round_robin().initial_draw(by_rating(6), random.Random(0))

    assert [sides(round_) for round_ in draw.rounds()][:2] == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
    ]


# ---------------------------------------------------------------- play order


def test_a_match_is_ready_once_both_players_finished_their_earlier_rounds():
    fmt = round_robin()
    draw = fmt.initial_draw(by_rating(6), random.Random(0))
    one_six, _, three_four = draw.rounds()[0]

    assert fmt.ready_pairings(draw) == draw.rounds()[0]

    draw = fmt.advance(draw, [Result(one_six.key, 1), Result(three_four.key, 4)])

    # Round 1 is 6-4, 5-3, 1-2: only 6 and 4 are both free; 2, 3 and 5 are still playing.
    six_four = draw.rounds()[1][0]
    assert sides([six_four]) == [(6, 4)]
    assert fmt.ready_pairings(draw) == (draw.rounds()[0][1], six_four)


def test_a_result_for_a_match_whose_players_are_not_free_yet_is_refused():
    fmt = round_robin()
    draw = fmt.initial_draw(by_rating(4), random.Random(0))

    with pytest.raises(DrawInvariantError, match="not ready"):
        fmt.advance(draw, [Result(PairingKey(Flight.MAIN, 1, 0), 4)])


def test_the_same_result_reported_twice_changes_nothing():
    fmt = round_robin()
    draw = fmt.initial_draw(by_rating(4), random.Random(0))
    result = Result(draw.rounds()[0][0].key, 1)
    once = fmt.advance(draw, [result])

    assert fmt.advance(once, [result]) == once


def test_match_lengths_follow_the_table_rounds():
    fmt = RoundRobin(RoundRobinOptions((3, 5)))

    draw = fmt.initial_draw(by_rating(4), random.Random(0))

    assert [round_[0].match_length for round_ in draw.rounds()] == [3, 5, 5]


# ---------------------------------------------------------------- standings and placings


def test_a_single_table_is_placed_by_points_then_sonneborn_berger():
    fmt = round_robin()
    draw = play_out(fmt, fmt.initial_draw(by_rating(5), random.Random(0)), favourite)

    assert fmt.is_finished(draw)
    assert fmt.placings(draw) == tuple(Placing(e, e, e) for e in range(1, 6))
    rows = fmt.standings(draw, range(1, 6))
    # Sit-outs score nothing: the favourite of five wins four, sits out once.
    assert [(row.entrant, row.points, row.byes) for row in rows] == [
        (1, 4, 1),
        (2, 3, 1),
        (3, 2, 1),
        (4, 1, 1),
        (5, 0, 1),
    ]


def test_a_circle_of_wins_is_a_shared_first_place():
    fmt = round_robin()
    draw = fmt.initial_draw(by_rating(3), random.Random(0))

    # Each beats the next: 1 beats 2, 2 beats 3, 3 beats 1. All have 1 point, and each beat
    # a 1-point player, so Sonneborn-Berger cannot separate them.
    beats = {frozenset((1, 2)): 1, frozenset((2, 3)): 2, frozenset((1, 3)): 3}
    draw = play_out(fmt, draw, lambda p: beats[frozenset((p.top, p.bottom))])

    assert fmt.placings(draw) == (Placing(1, 1, 3), Placing(2, 1, 3), Placing(3, 1, 3))


def test_sonneborn_berger_puts_the_one_who_beat_the_stronger_player_ahead():
    fmt = round_robin()
    draw = fmt.initial_draw(by_rating(4), random.Random(0))
    # 1 beats 2 and 3; 2 beats 3 and 4; 3 beats 4; 4 beats 1.
    # Points: 1 and 2 have 2, 3 has 1, 4 has 1. 1 beat 2 (2) and 3 (1): SB 3.
    # 2 beat 3 (1) and 4 (1): SB 2. 3 beat 4 (1): SB 1; 4 beat 1 (2): SB 2, so 4 is 3rd.
    wins = {frozenset(pair): winner for *pair, winner in [(1, 2, 1), (1, 3, 1), (2, 3, 2)]}
    wins |= {frozenset(pair): winner for *pair, winner in [(2, 4, 2), (3, 4, 3), (1, 4, 4)]}
    draw = play_out(fmt, draw, lambda p: wins[frozenset((p.top, p.bottom))])

    assert fmt.placings(draw) == (
        Placing(1, 1, 1),
        Placing(2, 2, 2),
        Placing(4, 3, 3),
        Placing(3, 4, 4),
    )


# ---------------------------------------------------------------- groups and the knockout


def test_groups_are_dealt_in_snake_order_by_rating():
    fmt = round_robin(group_size=4, advance_per_group=2)

    draw = fmt.initial_draw(by_rating(16), random.Random(0))

    assert fmt.groups(draw) == (
        (1, 8, 9, 16),
        (2, 7, 10, 15),
        (3, 6, 11, 14),
        (4, 5, 12, 13),
    )


def test_each_group_plays_its_own_table_on_its_own_positions():
    fmt = round_robin(group_size=5, advance_per_group=2)

    draw = fmt.initial_draw(by_rating(13), random.Random(0))

    # 13 entrants in groups of at most 5: three groups, of 5, 4 and 4, each with 3 boards
    # a round (a group of 5 has a sit-out), at positions 0-2, 3-5 and 6-8.
    groups = fmt.groups(draw)
    assert [len(group) for group in groups] == [5, 4, 4]
    group_of = {entrant: g for g, group in enumerate(groups) for entrant in group}
    for pairing in draw.pairings:
        members = {group_of[side] for side in (pairing.top, pairing.bottom) if side is not BYE}
        assert members == {pairing.key.position // 3}
    for group in groups:
        met = {frozenset((p.top, p.bottom)) for p in draw.pairings if not p.is_bye}
        assert {frozenset(pair) for pair in combinations(group, 2)} <= met
    assert len(draw.rounds()) == 5


def test_group_winners_meet_runners_up_of_other_groups():
    fmt = round_robin(group_size=4, advance_per_group=2)
    draw = play_out_groups(fmt, 16)

    first_round = draw.rounds(Flight.FINAL)[0]
    # Groups A to D are won by 1 to 4; their runners-up are 8, 7, 6 and 5. A's winner meets C's
    # runner-up, D's meets B's, C's meets A's and B's meets D's.
    assert sides(first_round) == [(1, 6), (4, 7), (3, 8), (2, 5)]


@pytest.mark.parametrize("group_count", [2, 4, 8, 16])
def test_with_two_through_group_mates_can_meet_again_only_in_the_final(group_count):
    fmt = round_robin(group_size=4, advance_per_group=2)
    draw = play_out_groups(fmt, 4 * group_count)

    lines = [side for p in draw.rounds(Flight.FINAL)[0] for side in (p.top, p.bottom)]
    for group in fmt.groups(draw):
        winner, runner_up = (lines.index(entrant) for entrant in group[:2])
        # Lines meet in the round of the highest bit they differ in: the final's is the top bit.
        assert (winner ^ runner_up).bit_length() == len(draw.rounds(Flight.FINAL))


@pytest.mark.parametrize(
    ("count", "group_size", "through"),
    [(12, 4, 2), (20, 4, 2), (24, 4, 3), (18, 6, 2), (40, 5, 2), (9, 3, 2), (10, 5, 1)],
)
def test_no_first_knockout_match_is_between_two_players_of_one_group(count, group_size, through):
    fmt = round_robin(group_size=group_size, advance_per_group=through)
    draw = play_out_groups(fmt, count)

    group_of = {e: g for g, group in enumerate(fmt.groups(draw)) for e in group}
    for pairing in draw.rounds(Flight.FINAL)[0]:
        if not pairing.is_bye:
            assert group_of[pairing.top] != group_of[pairing.bottom]


def play_out_groups(fmt, count):
    """Groups played with favourites winning: the knockout stage is then laid out."""
    draw = fmt.initial_draw(by_rating(count), random.Random(0))
    while not draw.rounds(Flight.FINAL):
        ready = fmt.ready_pairings(draw)
        draw = fmt.advance(draw, [Result(p.key, favourite(p)) for p in ready])
    return draw


@pytest.mark.parametrize(
    ("count", "group_size", "through"),
    [
        (16, 4, 2),
        (13, 5, 2),
        (12, 3, 1),
        (30, 6, 3),
        (7, 7, 4),
        (4, 2, 1),
        (31, 4, 2),
        (64, 8, 2),
    ],
)
@pytest.mark.parametrize("seed", range(3))
def test_groups_and_knockout_play_through_to_complete_placings(count, group_size, through, seed):
    rng = random.Random(seed)
    entrants = [Entrant(id_, rating=1500 + 500 * rng.random()) for id_ in range(1, count + 1)]
    fmt = round_robin(group_size=group_size, advance_per_group=through)

    def coin_flip(pairing) -> int:
        return pairing.top if rng.random() < 0.5 else pairing.bottom

    draw = play_out(fmt, fmt.initial_draw(entrants, rng), coin_flip)

    assert fmt.is_finished(draw)
    knockout = draw.rounds(Flight.FINAL)
    assert sum(1 for p in knockout[0] for s in (p.top, p.bottom) if s is not BYE) == (
        through * len(fmt.groups(draw))
    )
    placings = fmt.placings(draw)
    assert placings[0] == Placing(knockout[-1][0].winner, 1, 1)
    assert_places_are_consistent(placings, count)


def test_after_the_knockout_every_groups_thirds_share_places_then_their_fourths():
    fmt = round_robin(group_size=4, advance_per_group=2)
    draw = play_out(fmt, fmt.initial_draw(by_rating(16), random.Random(0)), favourite)

    placings = fmt.placings(draw)

    assert placings[:2] == (Placing(1, 1, 1), Placing(2, 2, 2))
    assert {p.entrant: (p.place, p.shared_to) for p in placings[8:]} == {
        9: (9, 12),
        10: (9, 12),
        11: (9, 12),
        12: (9, 12),
        13: (13, 16),
        14: (13, 16),
        15: (13, 16),
        16: (13, 16),
    }


def test_a_single_table_can_send_its_best_to_a_knockout():
    fmt = round_robin(advance_per_group=4)
    draw = play_out_groups(fmt, 6)

    assert sides(draw.rounds(Flight.FINAL)[0]) == [(1, 4), (2, 3)]


def test_the_knockout_stage_has_its_own_match_lengths():
    fmt = RoundRobin(RoundRobinOptions((3,), 4, 2, knockout_match_lengths=(5, 7, 9)))

    draw = play_out_groups(fmt, 16)

    assert [r[0].match_length for r in draw.rounds(Flight.FINAL)] == [5, 7, 9]


# ---------------------------------------------------------------- the organizer's mistakes


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (RoundRobinOptions(()), "at least one match length"),
        (RoundRobinOptions((5, 0)), "at least 1 point long, not 0"),
        (RoundRobinOptions((5,), group_size=1, advance_per_group=1), "at least 2 players"),
        (RoundRobinOptions((5,), group_size=4), "how many players of each group go through"),
        (RoundRobinOptions((5,), group_size=4, advance_per_group=0), "At least 1 player"),
    ],
)
def test_impossible_options_are_refused_when_the_round_robin_is_created(options, message):
    with pytest.raises(FormatError, match=message):
        RoundRobin(options)


def test_sending_a_whole_group_through_is_refused_at_the_draw():
    # 10 in groups of at most 4: groups of 4, 3 and 3.
    with pytest.raises(FormatError, match="3 players per group go through, but the smallest"):
        round_robin(group_size=4, advance_per_group=3).initial_draw(by_rating(10), random.Random(0))


def test_a_knockout_of_one_is_refused_at_the_draw():
    with pytest.raises(FormatError, match="at least 2 players"):
        round_robin(advance_per_group=1).initial_draw(by_rating(6), random.Random(0))


def test_a_round_robin_of_one_is_refused():
    with pytest.raises(FormatError, match="at least 2 entrants"):
        round_robin().initial_draw(by_rating(1), random.Random(0))
