"""Every benchmark, run small, and one table of what each measured against its baseline.

``make bench`` runs this. Each benchmark runs as its own process with the small arguments
below (the full runs are the commands in ``bench/README.md``); from its output the table keeps
the lines that carry a ratio to the baseline or the figure its goal is stated in (a p99, a
lateness, milliseconds a player, seconds a round). A benchmark that fails is shown as failed,
with the end of its output, and the run goes on; the run then exits with status 1, so CI
(``.ci/run``) notices a benchmark that rotted. A benchmark fails when it exits with an error,
or when a traceback or an ERROR line shows in its output: an exception in any process it
started (the processes of ``bench/shape.py`` are checked by the benchmark itself, which exits
with an error and prints the lines).
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from shape import TROUBLE  # a traceback, ERROR or CRITICAL

HERE = Path(__file__).resolve().parent

SMALL = [
    ("bench_legal_positions.py", []),
    ("bench_ledger.py", ["1"]),
    ("bench_analysis.py", ["20"]),
    ("bench_match_analysis.py", ["--small", "--rounds", "3"]),
    ("bench_adjudication.py", ["3"]),
    ("bench_tournament_knockout.py", ["256"]),
    ("bench_swiss.py", ["--players", "256", "--rounds", "8", "--long-players", "24"]),
    ("bench_clocks.py", ["--clocks", "2000", "--timeouts", "200", "--window", "10"]),
    ("bench_fairplay_false_positives.py", ["--careers", "20"]),
    ("bench_fairplay_calibration.py", ["--limit", "2"]),
    ("bench_one_way_series.py", ["--pairs", "2000"]),
    ("bench_watchers.py", ["--small"]),
    (
        "bench_live_matches.py",
        [
            *("--matches", "20", "--spectators", "10", "--rate", "10", "--max-rate", "40"),
            *("--step-seconds", "5", "--pgbench-seconds", "3"),
        ],
    ),
]
KEPT = re.compile(
    r"\d+(\.\d+)?x\b|p99|lateness|ms a player|s a round|queries\)|ratio|/ baseline|<- default",
    re.I,
)


def main() -> int:
    rows: list[tuple[str, str, list[str]]] = []
    failed = 0
    for script, args in SMALL:
        print(f"running {script} {' '.join(args)} ...", flush=True)
        began = time.perf_counter()
        done = subprocess.run(
            [sys.executable, str(HERE / script), *args],
            cwd=HERE.parent,
            capture_output=True,
            text=True,
            check=False,
        )
        took = f"{time.perf_counter() - began:.0f} s"
        lines = done.stdout.splitlines()
        trouble = [
            line for line in (done.stdout + done.stderr).splitlines() if TROUBLE.search(line)
        ]
        if done.returncode != 0 or trouble:
            failed += 1
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            why = [f"exit status {done.returncode}"] if done.returncode else []
            rows.append((script, took, ["FAILED", *why, *trouble[:5], *tail]))
            continue
        rows.append((script, took, [line.strip() for line in lines if KEPT.search(line)]))
    print()
    width = max(len(script) for script, _, _ in rows)
    print(f"{'benchmark':{width}}  {'took':>6}  figures (the baseline is in each line)")
    for script, took, kept in rows:
        for n, line in enumerate(kept or ["(no figure printed)"]):
            print(f"{script if n == 0 else '':{width}}  {took if n == 0 else '':>6}  {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
