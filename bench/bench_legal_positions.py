"""Benchmark: our legal plays and `legal_positions` against GNU Backgammon's C move generator
(gnubg-nn).

Builds a fixed set of (Position ID, dice) pairs from seeded random games, then times on the
same set, in the same run:

* ours, plays: ``legal_plays(board, dice)``, a `Board` in, the list of plays (`Move` tuples)
  out: what every action and snapshot of a match does;
* ours, positions: ``legal_positions(position_id, dice)``, Position ID in, set of Position
  IDs out;
* gnubg raw: ``gnubg_nn.moves(board, d1, d2)`` on boards already in gnubg's form, returning
  its internal position keys (the C generator alone, the baseline of the goal);
* gnubg with moves: the same with the moves of each play (``verbose=1``), what our plays give;
* gnubg same contract: Position ID in, set of Position IDs out, through gnubg-nn's helpers.

Runs them in turn for several rounds and prints the time per position of each (CPU time,
best and median round) and ours as a ratio to the baselines. The goal is at most 5x the raw C
generator. Run: ``.venv/bin/python bench/bench_legal_positions.py``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import gnubg_nn

from backgammon.board import Board
from backgammon.moves import legal_plays, legal_positions

SEED = 20240601
GAMES = 60
REPEATS = 9

Sample = tuple[str, tuple[int, int]]


def sample_positions(seed: int, games: int) -> list[Sample]:
    """Every position met, with the roll thrown, in ``games`` random games from the start."""
    rng = random.Random(seed)
    samples: list[Sample] = []
    for _ in range(games):
        position_id = Board.initial().position_id()
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            samples.append((position_id, dice))
            results = sorted(legal_positions(position_id, dice))
            board = Board.from_position_id(rng.choice(results)) if results else None
            if board is None:
                board = Board.from_position_id(position_id)
            elif sum(board.mover) == 0:
                break
            position_id = board.swapped().position_id()
    return samples


def time_rounds(runs: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[float]]:
    """CPU seconds of each run in each of ``rounds`` rounds, the runs taking turns in a round.

    The process's own CPU time, not the clock's: on a busy machine the time spent waiting for a
    core would count otherwise. Taking turns spreads what other work still costs (caches, a
    shared core) over all of them alike, so the ratios stay fair when the times wander.
    """
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.process_time()
            run()
            times[name].append(time.process_time() - start)
    return times


def main() -> None:
    samples = sample_positions(SEED, GAMES)
    gnubg_boards = []
    boards = []
    for position_id, (die1, die2) in samples:
        board = Board.from_position_id(position_id)
        boards.append((board, (die1, die2)))
        gnubg_boards.append(([list(board.opponent), list(board.mover)], die1, die2))

    def ours_plays() -> None:
        for board, dice in boards:
            legal_plays(board, dice)

    def ours() -> None:
        for position_id, dice in samples:
            legal_positions(position_id, dice)

    def gnubg_raw() -> None:
        for board, die1, die2 in gnubg_boards:
            gnubg_nn.moves(board, die1, die2)

    def gnubg_steps() -> None:
        for board, die1, die2 in gnubg_boards:
            gnubg_nn.moves(board, die1, die2, 1)

    def gnubg_contract() -> None:
        for position_id, (die1, die2) in samples:
            board = gnubg_nn.board_from_position_id(position_id)
            {
                gnubg_nn.position_id([list(side) for side in gnubg_nn.board_from_position_key(key)])
                for key in gnubg_nn.moves(board, die1, die2)
            }

    count = len(samples)
    times = time_rounds(
        {
            "ours plays": ours_plays,
            "ours": ours,
            "gnubg raw": gnubg_raw,
            "gnubg steps": gnubg_steps,
            "gnubg contract": gnubg_contract,
        },
        REPEATS,
    )
    # The best round is the least disturbed by other work; the median shows the spread.
    best = {name: min(spent) / count for name, spent in times.items()}
    median = {name: statistics.median(spent) / count for name, spent in times.items()}
    print(f"positions: {count} from {GAMES} seeded random games (seed {SEED}), {REPEATS} rounds")
    print("                                      best      median  (us/position)")
    for label, name in (
        ("ours legal_plays:", "ours plays"),
        ("ours legal_positions:", "ours"),
        ("gnubg-nn moves (C, raw keys):", "gnubg raw"),
        ("gnubg-nn moves with their moves:", "gnubg steps"),
        ("gnubg-nn, ID in -> IDs out:", "gnubg contract"),
    ):
        print(f"{label:33s} {best[name] * 1e6:8.2f}    {median[name] * 1e6:8.2f}")
    for label, ours_name, baseline, goal in (
        ("legal_plays / gnubg raw:", "ours plays", "gnubg raw", "  (goal <= 5x)"),
        ("legal_plays / gnubg with moves:", "ours plays", "gnubg steps", ""),
        ("legal_positions / gnubg raw:", "ours", "gnubg raw", "  (goal <= 5x)"),
        ("legal_positions / gnubg ID -> IDs:", "ours", "gnubg contract", ""),
    ):
        print(
            f"ratio {label:34s} {best[ours_name] / best[baseline]:6.2f}x"
            f"   {median[ours_name] / median[baseline]:6.2f}x{goal}"
        )


if __name__ == "__main__":
    main()
