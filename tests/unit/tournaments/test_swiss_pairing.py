"""Swiss pairing from the standings in a Swiss of any length, up to the field minus one rounds:
every round checked against oracles of the test's own (a brute force over every pairing of a
small field, a maximum matching of a big one) for the rules of ``tournaments.formats.pairing``.

The pairing of a round depends on the rounds played, never on how many are to come, so a
Swiss played to the field minus one rounds passes through every shorter Swiss: checking each
of its rounds checks every round count from 1 to the field minus one (the last test here
shows the shorter Swisses are its prefixes).
"""

import random
from dataclasses import dataclass, field

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.base import (
    BYE,
    Entrant,
    Flight,
    Pairing,
    PairingKey,
    Result,
    build_draw,
    play_out,
    record_results,
)
from tournaments.formats.matching import cheapest_pairing
from tournaments.formats.pairing import pair_round
from tournaments.formats.swiss import Swiss, SwissOptions

BRUTE_FORCE_UP_TO = 11  # players; 10 left after the bye is 945 pairings


def played(count: int, rounds: int, seed: int, choose=None):
    """A Swiss of ``count`` (entrant k is the k-th seed) played with random or chosen winners."""
    rng = random.Random(seed)
    entrants = [Entrant(id_, rating=2000.0 - id_) for id_ in range(count)]
    fmt = Swiss(SwissOptions(rounds, (5,)))

    def coin_flip(pairing) -> int:
        return pairing.top if rng.random() < 0.5 else pairing.bottom

    return play_out(fmt, fmt.initial_draw(entrants, rng), choose or coin_flip)


@dataclass
class Before:
    """The standings before a round, as this test reckons them from the rounds played."""

    count: int
    points: dict[int, int] = field(default_factory=dict)
    met_in: dict[frozenset, list[int]] = field(default_factory=dict)
    byes: set[int] = field(default_factory=set)

    def ranked(self) -> list[int]:
        return sorted(range(self.count), key=lambda e: (-self.points.get(e, 0), e))

    def eligible_for_bye(self) -> list[int]:
        lacking = [e for e in range(self.count) if e not in self.byes]
        return lacking or list(range(self.count))

    def cost(self, pairs) -> tuple[int, int]:
        """(rematches, recency): earlier meetings, then the rounds they last met in, + 1."""
        meetings = [self.met_in.get(frozenset(pair), []) for pair in pairs]
        return sum(map(len, meetings)), sum(m[-1] + 1 for m in meetings if m)

    def record(self, round_, pairings) -> None:
        for pairing in pairings:
            self.points[pairing.winner] = self.points.get(pairing.winner, 0) + 1
            if pairing.is_bye:
                self.byes.add(pairing.top)
            else:
                self.met_in.setdefault(frozenset((pairing.top, pairing.bottom)), []).append(round_)


def rounds_with_their_standings(draw, count):
    before = Before(count)
    for round_, pairings in enumerate(draw.rounds(Flight.MAIN)):
        yield before, pairings
        before.record(round_, pairings)


def cheapest(players, before) -> tuple[int, int]:
    """The least (rematches, recency) of any pairing of ``players``, by trying them all."""
    if not players:
        return (0, 0)
    first, rest = players[0], players[1:]
    best = None
    for i, other in enumerate(rest):
        tail = cheapest(rest[:i] + rest[i + 1 :], before)
        here = before.cost([(first, other)])
        total = (here[0] + tail[0], here[1] + tail[1])
        best = total if best is None else min(best, total)
    return best


def fewest_rematches(players, before) -> int:
    """Half the players less a maximum matching of those who have not met."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from(
        (a, b)
        for i, a in enumerate(players)
        for b in players[i + 1 :]
        if frozenset((a, b)) not in before.met_in
    )
    return len(players) // 2 - len(nx.max_weight_matching(graph, maxcardinality=True))


def without(players, one):
    return [player for player in players if player != one]


def check_round(before: Before, pairings) -> None:
    count = before.count
    seated = sorted(side for p in pairings for side in (p.top, p.bottom) if side is not BYE)
    assert seated == list(range(count)), "everyone plays once or has the bye"
    byes = [p.top for p in pairings if p.is_bye]
    assert len(byes) == count % 2
    pairs = [(p.top, p.bottom) for p in pairings if not p.is_bye]
    got = before.cost(pairs)
    eligible = before.eligible_for_bye()
    candidates = eligible if byes else [None]
    if byes:
        assert byes[0] in eligible, "no second bye while someone has had none"
    ranked = before.ranked()
    if count <= BRUTE_FORCE_UP_TO:
        best = min(cheapest(without(ranked, c), before) for c in candidates)
        assert got == best, "the fewest rematches, then those met longest ago"
        if byes:
            below = ranked[ranked.index(byes[0]) + 1 :]
            for lower in set(below) & set(eligible):
                assert cheapest(without(ranked, lower), before) > got, "the lowest takes the bye"
        return
    if got[0]:
        best = min(fewest_rematches(without(ranked, c), before) for c in candidates)
        assert got[0] == best, "the fewest rematches"
    if byes:
        # By count alone: a lower bye may cost as many rematches, but met more recently.
        below = ranked[ranked.index(byes[0]) + 1 :]
        for lower in set(below) & set(eligible):
            fewest = fewest_rematches(without(ranked, lower), before)
            assert fewest > 0 if got[0] == 0 else fewest >= got[0], "the lowest takes the bye"


def check_swiss(count: int, seed: int) -> None:
    draw = played(count, count - 1, seed)
    assert len(draw.rounds(Flight.MAIN)) == count - 1
    for before, pairings in rounds_with_their_standings(draw, count):
        check_round(before, pairings)


@settings(max_examples=40, deadline=None)
@given(count=st.integers(min_value=3, max_value=16), seed=st.integers(0, 2**32))
def test_every_round_of_a_small_swiss_of_any_length_follows_the_pairing_rules(count, seed):
    check_swiss(count, seed)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(count=st.integers(min_value=3, max_value=64), seed=st.integers(0, 2**32))
def test_every_round_of_a_swiss_of_up_to_64_of_any_length_follows_the_pairing_rules(count, seed):
    check_swiss(count, seed)


@pytest.mark.parametrize("count", range(3, 13))
def test_every_swiss_of_three_to_twelve_played_to_the_end_follows_the_pairing_rules(count):
    for seed in range(4):
        check_swiss(count, seed)


@settings(max_examples=30, deadline=None)
@given(
    count=st.integers(min_value=3, max_value=30),
    length=st.floats(min_value=0, max_value=1),
    seed=st.integers(0, 2**32),
)
def test_a_shorter_swiss_plays_the_first_rounds_of_the_longest(count, length, seed):
    rounds = 1 + round(length * (count - 2))

    short = played(count, rounds, seed).rounds(Flight.MAIN)
    longest = played(count, count - 1, seed).rounds(Flight.MAIN)

    assert len(short) == rounds
    assert short == longest[:rounds]


def test_a_nine_player_seven_round_swiss_never_gives_the_leader_the_bye_while_one_below_lacks_it():
    draw = played(9, 7, 0, choose=lambda p: min(p.top, p.bottom))  # the favourites win

    holders = []
    for before, pairings in rounds_with_their_standings(draw, 9):
        (bye,) = [p.top for p in pairings if p.is_bye]
        ranked = before.ranked()
        assert all(e in before.byes for e in ranked[ranked.index(bye) + 1 :])
        holders.append(bye)
    # Seeds 8, 7, 6 and 5 (entrants 8 down to 5) sit out first; the leader (entrant 0, who
    # wins every match) never does.
    assert holders == [8, 7, 6, 5, 3, 4, 2]
    assert 0 not in holders


def key(round_: int, position: int) -> PairingKey:
    return PairingKey(Flight.MAIN, round_, position)


def test_two_triangles_of_unplayed_pairs_are_paired_with_one_rematch_met_longest_ago():
    # Six players, three rounds, everyone has met everyone on the other side: 1-2-3 and
    # 4-5-6 are two triangles of unplayed pairs, and no fourth round avoids a rematch.
    rounds = [[(1, 4), (2, 5), (3, 6)], [(1, 5), (2, 6), (3, 4)], [(1, 6), (2, 4), (3, 5)]]
    pairings = [
        Pairing(key(r, position), top, bottom, 5)
        for r, boards in enumerate(rounds)
        for position, (top, bottom) in enumerate(boards)
    ]
    draw = record_results(
        build_draw(pairings),
        [Result(p.key, p.top) for p in pairings if p.key.round < 2],
    )
    fmt = Swiss(SwissOptions(5, (5,)))

    draw = fmt.advance(draw, [Result(p.key, p.top) for p in pairings if p.key.round == 2])

    played_pairs = {frozenset(pair) for boards in rounds for pair in boards}
    fourth = [frozenset((p.top, p.bottom)) for p in draw.rounds(Flight.MAIN)[3]]
    rematches = [pair for pair in fourth if pair in played_pairs]
    assert len(rematches) == 1
    assert tuple(sorted(rematches[0])) in rounds[0]  # met in the first round, longest ago


def test_once_everyone_has_had_a_bye_the_lowest_on_the_lowest_score_has_a_second():
    ranked = [1, 2, 3, 4, 5]
    points = {1: 3, 2: 2, 3: 2, 4: 1, 5: 1}
    history = {e: {} for e in ranked}

    round_ = pair_round(ranked, points, history, had_bye={1, 2, 3, 4, 5}, rounds_played=5)

    assert round_.bye == 5
    assert round_.pairs == [(1, 2), (3, 4)]


def test_the_bye_goes_to_one_who_has_not_had_it_even_from_the_top_score_group():
    ranked = [1, 2, 3]
    points = {1: 2, 2: 1, 3: 1}
    history = {1: {}, 2: {3: (1, 0)}, 3: {2: (1, 0)}}

    round_ = pair_round(ranked, points, history, had_bye={2, 3}, rounds_played=2)

    assert round_.bye == 1
    assert round_.pairs == [(2, 3)]
    assert round_.cost > 0


def test_the_cheapest_pairing_takes_the_cheap_pairs_and_a_limit_below_it_finds_none():
    prices = {frozenset((1, 2)): 0, frozenset((3, 4)): 9, frozenset((1, 3)): 4}
    prices |= {frozenset((2, 4)): 5, frozenset((1, 4)): 7, frozenset((2, 3)): 1}
    # 1-2 and 3-4 cost 9, 1-3 and 2-4 cost 9, 1-4 and 2-3 cost 8.

    def price(a: int, b: int) -> int:
        return prices[frozenset((a, b))]

    assert cheapest_pairing([1, 2, 3, 4], price) == (8, {frozenset((1, 4)), frozenset((2, 3))})
    assert cheapest_pairing([1, 2, 3, 4], price, limit=8) is not None
    assert cheapest_pairing([1, 2, 3, 4], price, limit=7) is None
