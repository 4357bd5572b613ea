"""Benchmark: pairing a Swiss round of a big field (``tournaments.formats.swiss``).

Plays a ``--players`` (1,024) entrant, ``--rounds`` (10) round Swiss with seeded random
winners and times, for every round, the format's ``advance`` that records the round's
results and pairs the next one. The pairing must never repeat a pairing and should break
score groups only as much as it must: the run counts rematches (must be 0) and floats (an
entrant paired with someone on other points).

Baseline, in the same run on the same standings: the naive pairing (the field sorted by
points and seed, neighbours paired, rematches ignored) with the same results recorded, so
the ratio is what avoiding rematches and keeping score groups whole costs.

Run: ``.venv/bin/python bench/bench_swiss.py`` (or ``--players 4096 --rounds 12``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.formats.base import (
    Draw,
    Entrant,
    Flight,
    Result,
    record_results,
)
from tournaments.formats.standings import standings
from tournaments.formats.swiss import Swiss, SwissOptions, seed_order_of


def naive_pairing(draw: Draw, seeds: tuple[int, ...]) -> list[tuple[int, int]]:
    """Neighbours in the standings, rematches and all: the baseline's work for a round."""
    rows = standings(draw, seeds, tiebreaks=())
    ranked = [row.entrant for row in rows]
    return list(zip(ranked[::2], ranked[1::2], strict=False))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()

    rng = random.Random(options.seed)
    entrants = [Entrant(n, rating=1500.0 + rng.random() * 500) for n in range(options.players)]
    swiss = Swiss(SwissOptions(rounds=options.rounds, match_lengths=(5,)))
    draw = swiss.initial_draw(entrants, random.Random(options.seed))
    seeds = seed_order_of(draw)
    ours: list[float] = []
    baseline: list[float] = []
    for _ in range(options.rounds - 1):
        results = [
            Result(pairing.key, rng.choice((pairing.top, pairing.bottom)))  # type: ignore[arg-type]
            for pairing in swiss.ready_pairings(draw)
        ]
        started = time.perf_counter()
        recorded = record_results(draw, results)
        naive_pairing(recorded, seeds)
        baseline.append(time.perf_counter() - started)
        started = time.perf_counter()
        draw = swiss.advance(draw, results)
        ours.append(time.perf_counter() - started)

    met: set[frozenset[int]] = set()
    rematches = floats = 0
    points: dict[int, int] = {}
    for round_ in draw.rounds(Flight.MAIN):
        for pairing in round_:
            if not (isinstance(pairing.top, int) and isinstance(pairing.bottom, int)):
                continue
            pair = frozenset((pairing.top, pairing.bottom))
            rematches += pair in met
            met.add(pair)
            floats += points.get(pairing.top, 0) != points.get(pairing.bottom, 0)
        for pairing in round_:
            if pairing.winner is not None:
                points[pairing.winner] = points.get(pairing.winner, 0) + 1

    def ms(values: list[float]) -> str:
        median, longest = statistics.median(values) * 1000, max(values) * 1000
        return f"median {median:7.1f} ms, longest {longest:7.1f} ms"

    print(f"{options.players:,}-player Swiss, {options.rounds} rounds, random winners")
    print(f"  pairing a round (ours)        {ms(ours)}")
    print(f"  baseline: naive pairing       {ms(baseline)}")
    ratio = statistics.median(ours) / statistics.median(baseline)
    print(f"  ratio ours / baseline         {ratio:.2f}x (median round)")
    print(f"  rematches                     {rematches} (must be 0)")
    print(f"  floats (paired across points) {floats} over {options.rounds - 1} rounds")


if __name__ == "__main__":
    main()
