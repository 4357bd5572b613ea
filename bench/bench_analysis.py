"""Benchmark: evaluations per second through the warm GNU Backgammon process.

Builds a fixed set of GNUBG IDs (positions met in seeded random games, in money play and in a
7-point match) and evaluates them, in the same run:

* warm: one :class:`analysis.gnubg_process.GnubgProcess` answering every request;
* fresh (the baseline): a new ``gnubg -t -q -r -p analysis/gnubg_server.py`` per position,
  doing the same evaluation, as a worker without a warm process would.

at 0 ply and at 2 ply, and prints evaluations per second of each and warm as a ratio to fresh.
Run: ``.venv/bin/python bench/bench_analysis.py [positions]``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.engine import EvalSettings
from analysis.gnubg_process import (
    GNUBG_EXECUTABLE,
    SERVER_SCRIPT,
    GnubgProcess,
)
from backgammon.board import Board
from backgammon.moves import legal_positions

SEED = 20240601
MATCH_IDS = ("MAEAAAAAAAAE", "MAHgAAAAAAAE")  # money, and a 7-point match at 0-0


def sample_gnubg_ids(count: int, seed: int = SEED) -> list[str]:
    """Positions met in random games, each with player 0 on roll, money and match alternately."""
    rng = random.Random(seed)
    ids: list[str] = []
    while len(ids) < count:
        board = Board.initial()
        while len(ids) < count:
            ids.append(f"{board.position_id()}:{MATCH_IDS[len(ids) % 2]}")
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            results = sorted(legal_positions(board.position_id(), dice))
            if results:
                board = Board.from_position_id(rng.choice(results))
                if sum(board.mover) == 0:
                    break
            board = board.swapped()
    return ids


def warm_rate(engine: GnubgProcess, ids: list[str], plies: int) -> float:
    settings = EvalSettings(plies=plies)
    start = time.perf_counter()
    for gnubg_id in ids:
        engine.evaluate(gnubg_id, settings)
    return len(ids) / (time.perf_counter() - start)


def fresh_rate(ids: list[str], plies: int) -> float:
    start = time.perf_counter()
    for gnubg_id in ids:
        request = json.dumps({"op": "evaluate", "gnubg_id": gnubg_id, "plies": plies})
        completed = subprocess.run(
            [GNUBG_EXECUTABLE, "-t", "-q", "-r", "-p", str(SERVER_SCRIPT)],
            input=request + "\n",
            capture_output=True,
            text=True,
            check=True,
        )
        if '"ok": true' not in completed.stdout:
            raise RuntimeError(completed.stdout[-500:] + completed.stderr[-500:])
    return len(ids) / (time.perf_counter() - start)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    ids = sample_gnubg_ids(count)
    baseline_ids = ids[: max(10, count // 10)]
    print(f"{len(ids)} positions warm, {len(baseline_ids)} with a fresh process each")
    with GnubgProcess() as engine:
        engine.start()
        print(f"engine: {engine.info.name} {engine.info.version}, MET {engine.info.met}")
        for plies in (0, 2):
            warm = warm_rate(engine, ids, plies)
            fresh = fresh_rate(baseline_ids, plies)
            print(
                f"{plies} ply: warm {warm:8.1f} evaluations/s, "
                f"fresh process {fresh:6.1f} evaluations/s, ratio {warm / fresh:6.1f}x"
            )


if __name__ == "__main__":
    main()
