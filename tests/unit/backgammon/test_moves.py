"""Legal plays: agreement with GNU Backgammon's move generator, rule cases, properties."""

from __future__ import annotations

import random

import gnubg_nn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon import Board, legal_positions
from backgammon.moves import OFF_POINT, apply_play, legal_plays
from backgammon.notation import format_play

ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]


def gnubg_positions(board: Board, dice: tuple[int, int]) -> set[str]:
    """GNU Backgammon's legal results, as Position IDs seen by the player who moved."""
    results = set()
    for key in gnubg_nn.moves([list(board.opponent), list(board.mover)], *dice):
        opponent, mover = gnubg_nn.board_from_position_key(key)
        results.add(Board(tuple(mover), tuple(opponent)).position_id())
    return results


def random_game_positions(seed: int, count: int) -> list[tuple[Board, tuple[int, int]]]:
    """(position, roll) pairs met in random games from the start, playing random legal plays."""
    rng = random.Random(seed)
    samples: list[tuple[Board, tuple[int, int]]] = []
    board = Board.initial()
    while len(samples) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        samples.append((board, dice))
        plays = legal_plays(board, dice)
        after = apply_play(board, rng.choice(plays)) if plays else board
        board = Board.initial() if not any(after.mover) else after.swapped()
    return samples


def random_position(rng: random.Random, kind: str) -> Board:
    """A position of a kind the random games meet too rarely to trust them alone.

    ``bar``: the mover has checkers on the bar against a strong home board; ``closed``: against
    a closed one; ``bearoff``: every mover checker is home; ``almost_home``: all but one are.
    """
    mover = [0] * 25
    opponent = [0] * 25
    if kind in ("bar", "closed"):
        made = 6 if kind == "closed" else rng.randint(2, 5)
        for index in rng.sample(range(6), made):
            opponent[index] = 2
        mover[24] = rng.randint(1, 3)
    mover_points = {
        "bar": range(24),
        "closed": range(24),
        "bearoff": range(6),
        "almost_home": range(6),
    }[kind]
    if kind == "almost_home":
        mover[rng.randint(6, 11)] = 1
    for _ in range(rng.randint(1, 15 - sum(mover))):
        index = rng.choice(mover_points)
        if not opponent[23 - index]:
            mover[index] += 1
    for _ in range(rng.randint(1, 15 - sum(opponent))):
        index = rng.randrange(25)
        if index == 24 or not mover[23 - index]:
            opponent[index] += 1
    return Board(tuple(mover), tuple(opponent))


def special_positions(seed: int, per_kind: int) -> list[tuple[Board, tuple[int, int]]]:
    rng = random.Random(seed)
    samples = []
    for kind in ("bar", "closed", "bearoff", "almost_home"):
        for _ in range(per_kind):
            board = random_position(rng, kind)
            samples.extend((board, roll) for roll in ROLLS)
    return samples


def test_every_legal_result_agrees_with_gnu_backgammon() -> None:
    # given 7,000 positions from random games and 4,200 chosen ones, every roll of the latter
    samples = random_game_positions(seed=1, count=7000) + special_positions(seed=2, per_kind=50)
    dice_used = set()
    mismatches = []

    # when both generators list the results
    for board, dice in samples:
        ours = legal_positions(board.position_id(), dice)
        if ours != gnubg_positions(board, dice):
            mismatches.append((board.position_id(), dice))
        plays = legal_plays(board, dice)
        dice_used.add((dice[0] == dice[1], len(plays[0]) if plays else 0))

    # then they agree everywhere, and the samples met every way a roll can be cut short
    assert mismatches == []
    assert len(samples) >= 10_000
    assert {(False, 0), (False, 1), (False, 2), (True, 1), (True, 2), (True, 3)} <= dice_used


CASES = [
    pytest.param(
        Board.initial(),
        (6, 5),
        ["13/2", "13/7 13/8", "13/7 8/3", "24/13", "24/18 13/8", "24/18 8/3", "8/2 8/3"],
        id="opening 6-5",
    ),
    pytest.param(
        Board.from_points({25: 1, 6: 5, 8: 3, 13: 5, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2}),
        (6, 4),
        ["bar/15", "bar/21 13/7", "bar/21 24/18", "bar/21 8/2"],
        id="the bar checker enters first, the 6 point is blocked",
    ),
    pytest.param(
        Board.from_points({25: 2, 6: 13}, {6: 5, 8: 3, 13: 5, 24: 2}),
        (6, 4),
        ["bar/21"],
        id="two on the bar, only one can enter",
    ),
    pytest.param(
        Board.from_points({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}),
        (6, 5),
        [],
        id="no entry against a closed board",
    ),
    pytest.param(
        Board.from_points({24: 1, 1: 14}, {12: 2, 3: 13}),
        (6, 5),
        ["24/18"],
        id="either die but not both: the higher",
    ),
    pytest.param(
        Board.from_points({24: 1, 1: 14}, {12: 2, 7: 2, 3: 11}),
        (6, 5),
        ["24/19"],
        id="the higher die cannot move: the lower",
    ),
    pytest.param(
        Board.from_points({24: 1, 1: 14}, {13: 2, 3: 13}),
        (4, 4),
        ["24/16"],
        id="two of four 4s",
    ),
    pytest.param(
        Board.from_points({5: 1, 3: 2}, {6: 15}),
        (6, 1),
        ["5/off", "5/off 3/2"],
        id="the 6 bears off from the highest point",
    ),
    pytest.param(
        Board.from_points({7: 1, 3: 14}, {6: 15}),
        (6, 1),
        ["7/1 3/2", "7/off"],
        id="bearing off once the last checker is home",
    ),
]


@pytest.mark.parametrize(("board", "dice", "expected"), CASES)
def test_legal_plays_follow_each_rule(
    board: Board, dice: tuple[int, int], expected: list[str]
) -> None:
    plays = legal_plays(board, dice)

    assert sorted(format_play(play, board) for play in plays) == expected
    assert legal_positions(board.position_id(), dice) == gnubg_positions(board, dice)


def test_no_move_gives_no_position() -> None:
    closed = Board.from_points({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})

    assert legal_positions(closed.position_id(), (6, 5)) == set()


STACKED = [
    pytest.param(
        Board.from_points({13: 15}, {13: 15}),
        id="every checker of each side on one point: the ID's longest runs of ones",
    ),
    pytest.param(
        Board.from_points({24: 14, 20: 1}, {2: 14, 8: 1}),
        id="fourteen back, a blot each",
    ),
    pytest.param(
        Board.from_points({25: 1, 24: 13, 13: 1}, {2: 1, 3: 1, 4: 1, 5: 1, 7: 1, 24: 10}),
        id="on the bar against five blots: up to four hits",
    ),
    pytest.param(
        Board.from_points(
            {25: 2, 16: 1, 17: 1, 18: 1, 13: 10}, {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 10: 9}
        ),
        id="two on the bar, blots where they enter and beyond",
    ),
]


@pytest.mark.parametrize("board", STACKED)
def test_positions_with_long_runs_and_many_hits_agree_with_gnu_backgammon(board: Board) -> None:
    for dice in ROLLS:
        ours = legal_positions(board.position_id(), dice)

        assert ours == gnubg_positions(board, dice), dice
        plays = legal_plays(board, dice)
        assert ours == {apply_play(board, play).position_id() for play in plays}


game_boards = st.builds(
    lambda seed, plies: random_game_positions(seed, plies)[-1][0],
    st.integers(0, 10**6),
    st.integers(1, 120),
)
chosen_boards = st.builds(
    random_position,
    st.builds(random.Random, st.integers(0, 10**6)),
    st.sampled_from(["bar", "closed", "bearoff", "almost_home"]),
)
boards = st.one_of(game_boards, chosen_boards)
rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=150, deadline=None)
@given(board=boards, dice=rolls)
def test_every_play_keeps_fifteen_checkers_each_and_no_shared_point(
    board: Board, dice: tuple[int, int]
) -> None:
    for play in legal_plays(board, dice):
        after = apply_play(board, play)

        on_board = sum(after.mover), sum(after.opponent)
        assert tuple(a + b for a, b in zip(on_board, after.borne_off(), strict=True)) == (15, 15)
        assert board.borne_off()[1] == after.borne_off()[1]
        for point in range(1, 25):
            assert not (after.mover_checkers_on(point) and after.opponent_checkers_on(point))


@settings(max_examples=150, deadline=None)
@given(board=boards, dice=rolls)
def test_pips_moved_equal_the_dice_used(board: Board, dice: tuple[int, int]) -> None:
    for play in legal_plays(board, dice):
        after = apply_play(board, play)
        moved = board.pip_count()[0] - after.pip_count()[0]
        used = len(play) * dice[0] if dice[0] == dice[1] else sum(dice) if len(play) == 2 else None
        # A checker hit on the mover's point p stood p pips from the bar, its new start.
        hit_pips = sum(move.to_point for move in play if move.hit)

        if used is None:
            # One die of two: which one is read from the move.
            assert moved in dice or play[0].to_point == OFF_POINT
        elif any(move.to_point == OFF_POINT for move in play):
            # Bearing off with a higher number than needed moves fewer pips than the dice.
            assert moved <= used
        else:
            assert moved == used
        assert after.pip_count()[1] - board.pip_count()[1] == hit_pips


@settings(max_examples=100, deadline=None)
@given(board=boards, dice=rolls)
def test_plays_are_distinct_and_match_the_positions(board: Board, dice: tuple[int, int]) -> None:
    results = [apply_play(board, play).position_id() for play in legal_plays(board, dice)]

    assert len(results) == len(set(results))
    assert set(results) == legal_positions(board.position_id(), dice)
    assert legal_positions(board.position_id(), dice[::-1]) == set(results)
