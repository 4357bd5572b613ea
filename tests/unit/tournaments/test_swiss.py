"""Swiss: pairing by score without rematches, byes, standings and tiebreaks, placings, top cut."""

import random
from collections import Counter
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.base import (
    BYE,
    DrawInvariantError,
    Entrant,
    Flight,
    FormatError,
    Pairing,
    PairingKey,
    Placing,
    Result,
    build_draw,
    play_out,
    record_results,
)
from tournaments.formats.standings import standings
from tournaments.formats.swiss import Swiss, SwissOptions


def by_rating(count: int) -> list[Entrant]:
    """Entrants whose id is also their rating seed: entrant 1 is the highest rated."""
    return [Entrant(id_, rating=2000.0 - id_) for id_ in range(1, count + 1)]


def favourite(pairing) -> int:
    return min(pairing.top, pairing.bottom)


def swiss(rounds: int, **options) -> Swiss:
    return Swiss(SwissOptions(rounds, (5,), **options))


def sides(round_) -> list[tuple]:
    return [(pairing.top, pairing.bottom) for pairing in round_]


def play_round(fmt, draw, choose_winner):
    return fmt.advance(draw, [Result(p.key, choose_winner(p)) for p in fmt.ready_pairings(draw)])


def played_at_random(count: int, rounds: int, seed: int, **options):
    rng = random.Random(seed)
    entrants = [Entrant(id_, rating=1500 + 500 * rng.random()) for id_ in range(count)]
    fmt = swiss(rounds, **options)

    def coin_flip(pairing) -> int:
        return pairing.top if rng.random() < 0.5 else pairing.bottom

    return fmt, play_out(fmt, fmt.initial_draw(entrants, rng), coin_flip)


def assert_no_rematch_and_everyone_plays_once_a_round(draw, count: int) -> None:
    met = set()
    for round_ in draw.rounds(Flight.MAIN):
        seated = [side for p in round_ for side in (p.top, p.bottom) if side is not BYE]
        assert sorted(seated) == list(range(count))
        for pairing in round_:
            if not pairing.is_bye:
                pair = frozenset((pairing.top, pairing.bottom))
                assert pair not in met
                met.add(pair)


# ---------------------------------------------------------------- pairing


def test_round_zero_pairs_the_top_half_against_the_bottom_half():
    draw = swiss(3).initial_draw(by_rating(8), random.Random(0))

    (round_zero,) = draw.rounds()
    assert sides(round_zero) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert [p.key for p in round_zero] == [PairingKey(Flight.MAIN, 0, i) for i in range(4)]


def test_in_an_odd_field_the_lowest_seed_has_the_first_bye_and_scores_a_win():
    draw = swiss(3).initial_draw(by_rating(7), random.Random(0))

    assert sides(draw.rounds()[0]) == [(1, 4), (2, 5), (3, 6), (7, BYE)]
    assert draw.rounds()[0][-1].winner == 7
    assert swiss(3).ready_pairings(draw) == draw.rounds()[0][:3]


def test_winners_meet_winners_and_losers_meet_losers():
    fmt = swiss(3)
    draw = play_round(fmt, fmt.initial_draw(by_rating(8), random.Random(0)), favourite)

    assert sides(draw.rounds()[1]) == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_the_odd_one_out_of_a_score_group_floats_down_to_the_top_of_the_next():
    fmt = swiss(3)
    draw = play_round(fmt, fmt.initial_draw(by_rating(6), random.Random(0)), favourite)

    # 1, 2 and 3 won: 1 meets 2, and 3 drops to meet 4, the best of those who lost.
    assert sides(draw.rounds()[1]) == [(1, 2), (3, 4), (5, 6)]


def test_the_leaders_take_a_lesser_pairing_when_the_best_leaves_the_rest_a_rematch():
    fmt = swiss(3)
    draw = fmt.initial_draw(by_rating(6), random.Random(0))
    for _ in range(2):
        draw = play_round(fmt, draw, favourite)

    # After 1-4 2-5 3-6 and 1-2 3-4 5-6: 1 and 3 on 2 points, 2 and 5 on 1, 4 and 6 on 0.
    # 2 v 4 would leave 5 v 6, a rematch; so 2 meets 6, and 5 meets 4.
    assert sides(draw.rounds()[2]) == [(1, 3), (2, 6), (5, 4)]


def test_a_leader_alone_on_their_score_meets_the_best_of_the_next_group():
    fmt = swiss(4)
    draw = play_round(fmt, fmt.initial_draw(by_rating(9), random.Random(0)), favourite)

    # 1 to 4 won and 9 had the bye: 1-3 and 2-4 leave 9 alone on 1 point, to meet 5, the best
    # of those on none. 8 is the lowest without a bye.
    assert sides(draw.rounds()[1]) == [(1, 3), (2, 4), (9, 5), (6, 7), (8, BYE)]


def test_a_swiss_of_entrants_minus_one_rounds_is_paired_from_the_standings_too():
    fmt = swiss(3)  # 3 rounds for 4 entrants: each has met everyone at the end
    draw = play_round(fmt, fmt.initial_draw(by_rating(4), random.Random(0)), favourite)

    # After 1-3 and 2-4, the winners meet and so do the losers; then the last unplayed pairs.
    assert sides(draw.rounds()[1]) == [(1, 2), (3, 4)]
    draw = play_round(fmt, draw, favourite)
    assert sides(draw.rounds()[2]) == [(1, 4), (2, 3)]


def test_byes_go_to_the_lowest_ranked_without_one_and_nobody_has_two():
    fmt = swiss(4)
    draw = play_out(fmt, fmt.initial_draw(by_rating(9), random.Random(0)), favourite)

    byes = [p.top for p in draw.pairings if p.is_bye]
    # Favourites win. 9 sits out first; then the lowest without a bye: 8, then 7 (alone on no
    # points after losing to 3 and 6), then 6, below whom everyone has had one.
    assert byes == [9, 8, 7, 6]
    assert {row.entrant: row.byes for row in fmt.standings(draw)}[9] == 1


@pytest.mark.parametrize("count", range(4, 41))
def test_no_pair_meets_twice_in_a_swiss_of_at_most_half_the_field_rounded_up(count):
    # Longer Swisses may come to a round that cannot avoid a rematch: test_swiss_pairing.py.
    for rounds in sorted({1, 2, (count + 1) // 2 - 1, (count + 1) // 2} - {0}):
        for seed in range(3):
            fmt, draw = played_at_random(count, rounds, seed)

            assert fmt.is_finished(draw)
            assert len(draw.rounds(Flight.MAIN)) == rounds
            assert_no_rematch_and_everyone_plays_once_a_round(draw, count)


@settings(max_examples=150, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=40),
    length=st.floats(min_value=0, max_value=1),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_any_swiss_of_at_most_half_the_field_rounded_up_is_played_without_rematches(
    count, length, seed
):
    rounds = 1 + round(length * ((count + 1) // 2 - 1))

    fmt, draw = played_at_random(count, rounds, seed)

    assert fmt.is_finished(draw)
    assert_no_rematch_and_everyone_plays_once_a_round(draw, count)
    byes = [p.top for p in draw.pairings if p.is_bye]
    assert len(byes) == len(set(byes)) == (rounds if count % 2 else 0)


def test_a_thousand_and_twenty_four_player_swiss_plays_its_ten_rounds():
    fmt, draw = played_at_random(1024, 10, 7)

    assert fmt.is_finished(draw)
    assert [len(round_) for round_ in draw.rounds(Flight.MAIN)] == [512] * 10
    assert_no_rematch_and_everyone_plays_once_a_round(draw, 1024)
    # Score groups of a field of 2^10 stay even, so nobody floats: the points fall out as a
    # binomial, one entrant on 10 wins, ten on 9, and so on.
    points = Counter(row.points for row in fmt.standings(draw))
    assert points == {wins: comb(10, wins) for wins in range(11)}


def test_a_simulated_swiss_is_reproducible_from_its_random_seed():
    assert played_at_random(50, 6, 3)[1] == played_at_random(50, 6, 3)[1]


def test_match_lengths_follow_the_rounds_and_the_last_one_repeats():
    fmt = Swiss(SwissOptions(4, (3, 5)))

    draw = play_out(fmt, fmt.initial_draw(by_rating(8), random.Random(0)), favourite)

    assert [round_[0].match_length for round_ in draw.rounds()] == [3, 5, 5, 5]


# ---------------------------------------------------------------- advancing


def test_the_next_round_is_drawn_only_when_the_last_match_of_the_round_ends():
    fmt = swiss(3)
    draw = fmt.initial_draw(by_rating(4), random.Random(0))
    first, second = draw.rounds()[0]

    draw = fmt.advance(draw, [Result(first.key, 1)])
    assert len(draw.rounds()) == 1
    assert fmt.ready_pairings(draw) == (second,)

    draw = fmt.advance(draw, [Result(second.key, 2)])
    assert len(draw.rounds()) == 2
    assert fmt.ready_pairings(draw) == draw.rounds()[1]


def test_a_result_reported_twice_draws_the_next_round_once():
    fmt = swiss(3)
    draw = fmt.initial_draw(by_rating(4), random.Random(0))
    results = [Result(p.key, favourite(p)) for p in draw.rounds()[0]]
    once = fmt.advance(draw, results)

    assert fmt.advance(once, results) == once


def test_a_result_naming_someone_who_was_not_playing_is_refused():
    fmt = swiss(3)
    draw = fmt.initial_draw(by_rating(4), random.Random(0))

    with pytest.raises(DrawInvariantError, match="4 is not playing"):
        fmt.advance(draw, [Result(draw.rounds()[0][0].key, 4)])


def test_a_swiss_is_not_finished_before_its_last_round_is_decided():
    fmt = swiss(2)
    draw = play_round(fmt, fmt.initial_draw(by_rating(4), random.Random(0)), favourite)

    assert not fmt.is_finished(draw)
    assert fmt.is_finished(play_round(fmt, draw, favourite))


# ---------------------------------------------------------------- the organizer's mistakes


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (SwissOptions(0, (5,)), "at least 1 round"),
        (SwissOptions(3, ()), "at least one match length"),
        (SwissOptions(3, (5, 0)), "at least 1 point long, not 0"),
        (SwissOptions(3, (5,), top_cut=6), "power of two"),
        (SwissOptions(3, (5,), top_cut=1), "power of two"),
        (SwissOptions(3, (5,), top_cut=4, top_cut_match_lengths=(-1,)), "not -1"),
    ],
)
def test_impossible_options_are_refused_when_the_swiss_is_created(options, message):
    with pytest.raises(FormatError, match=message):
        Swiss(options)


def test_more_rounds_than_opponents_are_refused_at_the_draw():
    with pytest.raises(FormatError, match="6 entrants can play at most 5 rounds"):
        swiss(6).initial_draw(by_rating(6), random.Random(0))


def test_a_top_cut_bigger_than_the_field_is_refused_at_the_draw():
    with pytest.raises(FormatError, match="top cut of 8 needs at least 8 entrants; 6 came"):
        swiss(3, top_cut=8).initial_draw(by_rating(6), random.Random(0))


def test_a_swiss_of_one_is_refused():
    with pytest.raises(FormatError, match="at least 2 entrants"):
        swiss(1).initial_draw(by_rating(1), random.Random(0))


def test_an_entrant_registered_twice_is_a_caller_bug():
    with pytest.raises(DrawInvariantError):
        swiss(1).initial_draw([Entrant(1, 1500.0), Entrant(1, 1600.0)], random.Random(0))


# ---------------------------------------------------------------- standings and tiebreaks


def key(round_: int, position: int) -> PairingKey:
    return PairingKey(Flight.MAIN, round_, position)


def hand_drawn(rounds):
    """A draw laid out round by round from (top, bottom, winner) boards, byes decided."""
    pairings = [
        Pairing(key(r, position), top, bottom, 5)
        for r, boards in enumerate(rounds)
        for position, (top, bottom, _) in enumerate(boards)
    ]
    results = [
        Result(key(r, position), winner)
        for r, boards in enumerate(rounds)
        for position, (_, bottom, winner) in enumerate(boards)
        if bottom is not BYE
    ]
    return record_results(build_draw(pairings), results)


def five_player_swiss():
    """Five players, three rounds, laid out by hand (winner first where it matters):

    ======  ==========  ==========  ==========
    round   board 0     board 1     bye
    ======  ==========  ==========  ==========
    0       1 beat 3    4 beat 2    5
    1       1 beat 4    5 beat 2    3
    2       1 beat 5    3 beat 4    2
    ======  ==========  ==========  ==========

    Points: 1 has 3; 3 and 5 have 2 (a win and a bye each); 2 and 4 have 1.
    A bye counts as a win over a dummy on the holder's own points, capped at half the rounds
    (3 // 2 = 1): so 1 for each of 2, 3 and 5.

    ======  ===================  ===============  ===========  ===================
    player  opponents' points    Buchholz         median       Sonneborn-Berger
    ======  ===================  ===============  ===========  ===================
    1       3:2  4:1  5:2        5                2 (drop 1,2) 2 + 1 + 2 = 5
    2       4:1  5:2  dummy:1    4                1            dummy 1 = 1
    3       1:3  4:1  dummy:1    5                1            4:1 + dummy 1 = 2
    4       2:1  1:3  3:2        6                2            2:1 = 1
    5       2:1  1:3  dummy:1    5                1            2:1 + dummy 1 = 2
    ======  ===================  ===============  ===========  ===================

    3 and 5 are level on everything but the points margin. Match scores (top's first):
    1-3 5:1, 2-4 2:5, 1-4 5:3, 5-2 5:0, 1-5 5:3, 4-3 2:5, so margins are
    1: +4 +2 +2 = +8; 2: -3 -5 = -8; 3: -4 +3 = -1; 4: +3 -2 -3 = -2; 5: +5 -2 = +3.
    """
    draw = hand_drawn(
        [
            [(1, 3, 1), (2, 4, 4), (5, BYE, 5)],
            [(1, 4, 1), (5, 2, 5), (3, BYE, 3)],
            [(1, 5, 1), (4, 3, 3), (2, BYE, 2)],
        ]
    )
    scores = {
        key(0, 0): (5, 1),
        key(0, 1): (2, 5),
        key(1, 0): (5, 3),
        key(1, 1): (5, 0),
        key(2, 0): (5, 3),
        key(2, 1): (2, 5),
    }
    return draw, scores


def test_the_tiebreaks_of_a_five_player_swiss_worked_by_hand():
    draw, _ = five_player_swiss()

    rows = {row.entrant: row for row in standings(draw, [1, 2, 3, 4, 5])}

    got = {
        entrant: (r.points, r.wins, r.losses, r.byes, r.buchholz, r.median_buchholz)
        for entrant, r in rows.items()
    }
    assert got == {
        1: (3, 3, 0, 0, 5, 2),
        2: (1, 0, 2, 1, 4, 1),
        3: (2, 1, 1, 1, 5, 1),
        4: (1, 1, 2, 0, 6, 2),
        5: (2, 1, 1, 1, 5, 1),
    }
    assert {e: r.sonneborn_berger for e, r in rows.items()} == {1: 5, 2: 1, 3: 2, 4: 1, 5: 2}
    assert {e: r.points_margin for e, r in rows.items()} == dict.fromkeys(range(1, 6), 0)


def test_players_level_on_every_tiebreak_share_a_rank():
    draw, _ = five_player_swiss()

    ranked = [(row.entrant, row.rank) for row in standings(draw, [1, 2, 3, 4, 5])]

    # 3 and 5 are level; 4 beats 2 on Buchholz (6 to 4).
    assert ranked == [(1, 1), (3, 2), (5, 2), (4, 4), (2, 5)]


def test_the_points_margin_breaks_the_last_tie():
    draw, scores = five_player_swiss()

    rows = standings(draw, [1, 2, 3, 4, 5], scores)

    assert [(row.entrant, row.rank, row.points_margin) for row in rows] == [
        (1, 1, 8),
        (5, 2, 3),
        (3, 3, -1),
        (4, 4, -2),
        (2, 5, -8),
    ]


def test_a_buchholz_tie_falls_to_median_buchholz():
    """Seven players, three rounds (winner last):

    round 0: 1-4 1, 2-5 5, 3-6 6, 7 bye; round 1: 1-6 6, 5-7 5, 2-3 3, 4 bye;
    round 2: 5-6 5, 1-7 1, 3-4 4, 2 bye.

    2 and 3 have 1 point each. 2 met 5 (3 points) and 3 (1), and the dummy of the bye counts
    2's own point (capped at 3 // 2 = 1): Buchholz 3 + 1 + 1 = 5, median 1. 3 met 6 (2), 2 (1)
    and 4 (2): Buchholz 5, median 2. So 3 is ahead.
    """
    draw = hand_drawn(
        [
            [(1, 4, 1), (2, 5, 5), (3, 6, 6), (7, BYE, 7)],
            [(1, 6, 6), (5, 7, 5), (2, 3, 3), (4, BYE, 4)],
            [(5, 6, 5), (1, 7, 1), (3, 4, 4), (2, BYE, 2)],
        ]
    )

    rows = {row.entrant: row for row in standings(draw, range(1, 8))}

    assert [(rows[e].points, rows[e].buchholz, rows[e].median_buchholz) for e in (2, 3)] == [
        (1, 5, 1),
        (1, 5, 2),
    ]
    assert rows[3].rank < rows[2].rank


def test_a_median_buchholz_tie_falls_to_sonneborn_berger():
    """Six players, three rounds (winner last):

    round 0: 1-4 1, 2-5 5, 3-6 3; round 1: 1-3 1, 5-6 6, 2-4 4; round 2: 1-2 2, 3-5 3, 4-6 6.

    1, 3 and 6 have 2 points; 2, 4 and 5 have 1.
    1 met 4 (1), 3 (2), 2 (1): Buchholz 4, median 1, Sonneborn-Berger 1 + 2 = 3 (beat 4, 3).
    6 met 3 (2), 5 (1), 4 (1): Buchholz 4, median 1, Sonneborn-Berger 1 + 1 = 2 (beat 5, 4).
    3 met 6 (2), 1 (2), 5 (1): Buchholz 5, so 3 leads. Among the 1-pointers 4 (met 1, 2, 6)
    and 5 (met 2, 6, 3) have Buchholz 5, median 2 and Sonneborn-Berger 1 (both beat 2) and
    share 4th; 2 (Buchholz 1 + 1 + 2 = 4) is last.
    """
    draw = hand_drawn(
        [
            [(1, 4, 1), (2, 5, 5), (3, 6, 3)],
            [(1, 3, 1), (5, 6, 6), (2, 4, 4)],
            [(1, 2, 2), (3, 5, 3), (4, 6, 6)],
        ]
    )

    rows = standings(draw, range(1, 7))

    assert [(row.entrant, row.rank) for row in rows] == [
        (3, 1),
        (1, 2),
        (6, 3),
        (4, 4),
        (5, 4),
        (2, 6),
    ]
    assert [(row.buchholz, row.median_buchholz, row.sonneborn_berger) for row in rows[1:3]] == [
        (4, 1, 3),
        (4, 1, 2),
    ]


def test_standings_without_a_tiebreak_only_separate_on_points():
    draw, _ = five_player_swiss()

    rows = standings(draw, [1, 2, 3, 4, 5], tiebreaks=())

    assert [(row.entrant, row.rank) for row in rows] == [(1, 1), (3, 2), (5, 2), (2, 4), (4, 4)]


# ---------------------------------------------------------------- placings and the top cut


def test_placings_follow_the_standings_and_ties_share_places():
    fmt = swiss(2)
    draw = play_out(fmt, fmt.initial_draw(by_rating(4), random.Random(0)), favourite)

    # 1 beat 3 and 2; 2 beat 4 and lost to 1; 3 lost to 1 and beat 4; 4 lost twice.
    # 2 and 3 have 1 point and Buchholz 2 + 0 = 2 each, and the same on everything else.
    assert fmt.placings(draw) == (
        Placing(1, 1, 1),
        Placing(2, 2, 3),
        Placing(3, 2, 3),
        Placing(4, 4, 4),
    )


def test_the_top_cut_is_a_knockout_of_the_best_seeded_by_the_standings():
    fmt = swiss(3, top_cut=4, top_cut_match_lengths=(7, 11))
    draw = fmt.initial_draw(by_rating(8), random.Random(0))
    for _ in range(3):
        draw = play_round(fmt, draw, favourite)

    semi_finals, final = draw.rounds(Flight.FINAL)
    # Favourites won every Swiss round, so the standings read 1, 2, 3, 4 at the top.
    assert sides(semi_finals) == [(1, 4), (2, 3)]
    assert [p.match_length for p in (*semi_finals, *final)] == [7, 7, 11]
    assert not fmt.is_finished(draw)
    assert fmt.ready_pairings(draw) == semi_finals


def test_a_swiss_with_a_top_cut_places_the_cut_as_a_knockout_then_the_rest_by_standings():
    fmt = swiss(3, top_cut=4)
    draw = fmt.initial_draw(by_rating(8), random.Random(0))
    for _ in range(3):
        draw = play_round(fmt, draw, favourite)
    draw = play_round(fmt, draw, lambda p: max(p.top, p.bottom))  # the semi-finals' underdogs
    draw = play_round(fmt, draw, favourite)

    assert fmt.is_finished(draw)
    placings = fmt.placings(draw)
    assert placings[:4] == (Placing(3, 1, 1), Placing(4, 2, 2), Placing(1, 3, 4), Placing(2, 3, 4))
    assert sorted(p.entrant for p in placings[4:]) == [5, 6, 7, 8]
    assert all(p.place >= 5 for p in placings[4:])


@pytest.mark.parametrize(("count", "cut"), [(8, 8), (9, 4), (33, 8), (100, 16)])
def test_a_swiss_with_a_top_cut_plays_through_to_one_champion(count, cut):
    fmt, draw = played_at_random(count, 5, 11, top_cut=cut)

    assert fmt.is_finished(draw)
    final = draw.rounds(Flight.FINAL)[-1][0]
    placings = fmt.placings(draw)
    assert placings[0] == Placing(final.winner, 1, 1)
    assert sorted(p.entrant for p in placings) == list(range(count))
