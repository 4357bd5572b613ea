"""A truncated round robin: the first N rounds of the Berger table, ranked by wins, the tied
players' mutual results and tie-break matches."""

import random

import pytest

from tournaments.formats.base import (
    Draw,
    Entrant,
    Flight,
    FormatError,
    Pairing,
    PairingKey,
    Placing,
    Result,
    build_draw,
    play_out,
)
from tournaments.formats.round_robin import RoundRobin, RoundRobinOptions
from tournaments.formats.stages import berger_table
from tournaments.formats.truncated import truncated_standings


def by_rating(count: int) -> list[Entrant]:
    """Entrants whose id is also their rating seed: entrant 1 is the highest rated."""
    return [Entrant(id_, rating=2000.0 - id_) for id_ in range(1, count + 1)]


def truncated(rounds: int, **options) -> RoundRobin:
    return RoundRobin(RoundRobinOptions((7,), rounds=rounds, **options))


def table(*results: tuple[int, int]) -> Draw:
    """A table of decided matches, one a round, each given as (winner, loser)."""
    return build_draw(
        Pairing(PairingKey(Flight.MAIN, round_, 0), winner, loser, 7, winner)
        for round_, (winner, loser) in enumerate(results)
    )


def ranks(draw: Draw, entrants: list[int]) -> dict[int, int]:
    return {row.entrant: row.rank for row in truncated_standings(draw, entrants)}


# ---------------------------------------------------------------- the cut table


@pytest.mark.parametrize("count", range(3, 33))
def test_every_cut_of_every_table_meets_no_pair_twice_and_seats_everyone_once_a_round(count):
    for rounds in range(1, len(berger_table(count)) + 1):
        draw = truncated(rounds).initial_draw(by_rating(count), random.Random(0))

        played = draw.rounds(Flight.MAIN)
        assert len(played) == rounds
        met = []
        for pairings in played:
            seated = [side for p in pairings for side in (p.top, p.bottom) if isinstance(side, int)]
            assert sorted(seated) == list(range(1, count + 1))
            met.extend(
                frozenset((p.top, p.bottom))
                for p in pairings
                if isinstance(p.top, int) and isinstance(p.bottom, int)
            )
        assert len(met) == len(set(met))


def test_the_cut_table_is_the_first_rounds_of_the_whole_one():
    whole = RoundRobin(RoundRobinOptions((7,))).initial_draw(by_rating(8), random.Random(0))
    cut = truncated(3).initial_draw(by_rating(8), random.Random(0))

    assert cut.rounds(Flight.MAIN) == whole.rounds(Flight.MAIN)[:3]


@pytest.mark.parametrize(("count", "rounds"), [(7, 8), (8, 8), (3, 4), (2, 2)])
def test_more_rounds_than_the_table_has_are_refused_in_words(count, rounds):
    with pytest.raises(FormatError, match=f"meet everyone in {len(berger_table(count))} rounds"):
        truncated(rounds).initial_draw(by_rating(count), random.Random(0))


def test_no_round_at_all_is_refused():
    with pytest.raises(FormatError, match="at least 1 round"):
        truncated(0)


def test_a_cut_table_takes_no_groups():
    with pytest.raises(FormatError, match="no groups and no knockout"):
        truncated(3, group_size=4, advance_per_group=2)


# ---------------------------------------------------------------- standings


def test_more_wins_rank_first():
    draw = table((1, 2), (1, 3), (2, 3))

    assert ranks(draw, [1, 2, 3]) == {1: 1, 2: 2, 3: 3}


def test_two_tied_on_wins_are_ordered_by_their_head_to_head_match():
    # 1 and 2 have two wins each; 2 beat 1. 3, 4 and 5 won nothing and never all met.
    draw = table((2, 1), (1, 3), (1, 4), (2, 5))

    assert ranks(draw, [1, 2, 3, 4, 5]) == {2: 1, 1: 2, 3: 3, 4: 3, 5: 3}


def test_two_tied_who_never_met_share_their_place():
    draw = table((1, 3), (2, 4))

    assert ranks(draw, [1, 2, 3, 4]) == {1: 1, 2: 1, 3: 3, 4: 3}


def test_three_tied_who_all_met_are_ordered_by_their_mini_table():
    # 1, 2 and 3 have two wins each; among themselves 1 beat 2 and 3, 2 beat 3. 4 and 5 have
    # one each, and 5 beat 4.
    draw = table((1, 2), (1, 3), (2, 3), (4, 1), (2, 4), (3, 4), (3, 5), (5, 4))

    assert ranks(draw, [1, 2, 3, 4, 5]) == {1: 1, 2: 2, 3: 3, 5: 4, 4: 5}


def test_three_tied_in_a_circle_stay_tied():
    draw = table((1, 2), (2, 3), (3, 1))

    assert ranks(draw, [1, 2, 3]) == {1: 1, 2: 1, 3: 1}


def test_the_mini_table_is_used_again_among_those_it_leaves_level():
    # 1 to 4 have two wins each. Among themselves 1 and 2 won two, 3 and 4 one; then 1 beat
    # 2 and 4 beat 3.
    draw = table((1, 2), (3, 1), (1, 4), (2, 3), (2, 4), (4, 3), (3, 5), (4, 6))

    assert ranks(draw, [1, 2, 3, 4, 5, 6]) == {1: 1, 2: 2, 4: 3, 3: 4, 5: 5, 6: 5}


def test_four_tied_when_some_of_them_never_met_share_their_place():
    draw = table((1, 2), (3, 4), (4, 1), (2, 3))

    assert ranks(draw, [1, 2, 3, 4]) == {1: 1, 2: 1, 3: 1, 4: 1}


# ---------------------------------------------------------------- tie-break matches


def played_to_a_tie_for_first() -> tuple[RoundRobin, Draw]:
    """Four players, one round (1-4, 2-3): the two winners are tied for first and never met."""
    fmt = truncated(1, prize_places=1)
    draw = fmt.initial_draw(by_rating(4), random.Random(0))
    # played by a table that does not wait, or play_out would find nothing left to play
    return fmt, play_out(truncated(1, ties_shared=True), draw, lambda p: min(p.top, p.bottom))


def test_a_tie_for_first_after_the_last_table_match_keeps_the_prizes_waiting():
    fmt, draw = played_to_a_tie_for_first()

    assert fmt.ties_to_break(draw) == ((1, 2),)
    assert not fmt.is_finished(draw)
    assert not fmt.ready_pairings(draw)
    assert fmt.placings(draw)[:2] == (Placing(1, 1, 2), Placing(2, 1, 2))


def test_a_tie_break_match_is_one_point_and_its_winner_takes_the_place():
    fmt, draw = played_to_a_tie_for_first()

    draw = fmt.with_tiebreaks(draw)
    (match,) = fmt.ready_pairings(draw)
    assert (match.key.flight, match.match_length) == (Flight.FINAL, 1)
    assert {match.top, match.bottom} == {1, 2}
    assert fmt.ties_to_break(draw) == ()
    assert not fmt.is_finished(draw)

    draw = fmt.advance(draw, [Result(match.key, 2)])

    assert fmt.is_finished(draw)
    assert fmt.placings(draw)[:2] == (Placing(2, 1, 1), Placing(1, 2, 2))


def test_only_a_tie_for_a_paid_place_waits_and_the_organizer_may_let_it_stand():
    fmt = truncated(1, prize_places=1)
    # 1-4 and 2-3: 1 and 3 win; the losers 4 and 2 share third, which pays nothing.
    draw = fmt.initial_draw(by_rating(4), random.Random(0))
    draw = play_out(
        truncated(1, ties_shared=True), draw, lambda p: 1 if 1 in (p.top, p.bottom) else 3
    )

    assert fmt.ties_to_break(draw) == ((1, 3),)
    shared = truncated(1, prize_places=1, ties_shared=True)
    assert shared.is_finished(draw)
    assert shared.placings(draw) == (
        Placing(1, 1, 2),
        Placing(3, 1, 2),
        Placing(2, 3, 4),
        Placing(4, 3, 4),
    )


def test_three_tied_play_a_stepladder_that_orders_all_of_them():
    # A table of 3 has 3 rounds, each player sitting out one; played in a circle, all three
    # have one win.
    fmt = truncated(3, prize_places=2)
    draw = fmt.initial_draw(by_rating(3), random.Random(0))
    circle = {frozenset((1, 2)): 1, frozenset((2, 3)): 2, frozenset((1, 3)): 3}
    draw = play_out(
        truncated(3, ties_shared=True), draw, lambda p: circle[frozenset((p.top, p.bottom))]
    )
    assert fmt.ties_to_break(draw) == ((1, 2, 3),)

    draw = fmt.with_tiebreaks(draw)
    (first,) = fmt.ready_pairings(draw)
    assert {first.top, first.bottom} == {2, 3}  # the two lowest seeds first
    draw = fmt.advance(draw, [Result(first.key, 3)])
    assert fmt.placings(draw) == (Placing(1, 1, 2), Placing(3, 1, 2), Placing(2, 3, 3))
    (second,) = fmt.ready_pairings(draw)
    assert {second.top, second.bottom} == {1, 3}
    draw = fmt.advance(draw, [Result(second.key, 3)])

    assert fmt.is_finished(draw)
    assert fmt.placings(draw) == (Placing(3, 1, 1), Placing(1, 2, 2), Placing(2, 3, 3))


def test_a_tie_break_is_refused_while_the_table_is_played_or_when_nothing_is_tied():
    fmt = truncated(1, prize_places=1)
    draw = fmt.initial_draw(by_rating(4), random.Random(0))
    with pytest.raises(FormatError, match="still being played"):
        fmt.with_tiebreaks(draw)

    draw = play_out(truncated(1, ties_shared=True), draw, lambda p: min(p.top, p.bottom))
    draw = fmt.with_tiebreaks(draw)
    draw = play_out(fmt, draw, lambda p: 1)
    with pytest.raises(FormatError, match="No players are tied"):
        fmt.with_tiebreaks(draw)


def test_a_whole_round_robin_breaks_no_ties_with_a_match():
    fmt = RoundRobin(RoundRobinOptions((7,)))
    draw = play_out(fmt, fmt.initial_draw(by_rating(3), random.Random(0)), lambda p: p.top)

    with pytest.raises(FormatError, match="Only a round robin cut to fewer rounds"):
        fmt.with_tiebreaks(draw)


@pytest.mark.parametrize("count", range(3, 17))
def test_every_cut_played_out_with_its_tie_breaks_places_everyone_once(count):
    rng = random.Random(count)
    for rounds in range(1, len(berger_table(count)) + 1):
        fmt = truncated(rounds, prize_places=3)
        draw = fmt.initial_draw(by_rating(count), rng)
        draw = play_out(
            RoundRobin(RoundRobinOptions((7,), rounds=rounds, ties_shared=True)),
            draw,
            lambda p: rng.choice((p.top, p.bottom)),
        )
        if fmt.ties_to_break(draw):
            draw = play_out(fmt, fmt.with_tiebreaks(draw), lambda p: rng.choice((p.top, p.bottom)))
        placings = fmt.placings(draw)

        assert fmt.is_finished(draw)
        assert sorted(p.entrant for p in placings) == list(range(1, count + 1))
        assert all(p.place == p.shared_to for p in placings if p.place <= 3)
