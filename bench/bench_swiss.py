"""Benchmark: pairing a Swiss round from the standings (``tournaments.formats.swiss``).

Plays a ``--players`` (1,024) entrant, ``--rounds`` (10) round Swiss with seeded random
winners and times, for every round, the format's ``advance`` that records the round's
results and pairs the next one, in seconds a round (goal: under 2 s). The pairing must never
repeat a pairing a round can avoid and should break score groups only as much as it must:
the run counts rematches (0 in a Swiss this short) and floats (an entrant paired with
someone on other points).

Then a long Swiss: ``--long-players`` (64) entrants play the field less one rounds, where
late rounds can be left unable to avoid a rematch and are paired at the least rematch cost
(a minimum-cost matching of the field); its rematches are counted, not required to be 0.

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
from dataclasses import dataclass
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


@dataclass
class Played:
    """One Swiss played out: the seconds each round's pairing took, ours and the baseline's."""

    ours: list[float]
    baseline: list[float]
    rematches: int
    floats: int


def play(players: int, rounds: int, seed: int) -> Played:
    rng = random.Random(seed)
    entrants = [Entrant(n, rating=1500.0 + rng.random() * 500) for n in range(players)]
    swiss = Swiss(SwissOptions(rounds=rounds, match_lengths=(5,)))
    draw = swiss.initial_draw(entrants, random.Random(seed))
    seeds = seed_order_of(draw)
    ours: list[float] = []
    baseline: list[float] = []
    for _ in range(rounds - 1):
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
    return Played(ours, baseline, rematches, floats)


def report(title: str, played: Played, rounds: int, rematches_wanted: str) -> None:
    def seconds(values: list[float]) -> str:
        return f"median {statistics.median(values):.4f} s, longest {max(values):.4f} s"

    print(title)
    print(f"  seconds a round (ours)        {seconds(played.ours)} (goal < 2 s)")
    print(f"  baseline: naive pairing       {seconds(played.baseline)}")
    ratio = statistics.median(played.ours) / statistics.median(played.baseline)
    longest = max(played.ours) / max(played.baseline)
    print(f"  ratio ours / baseline         {ratio:.2f}x median round, {longest:.2f}x longest")
    print(f"  rematches                     {played.rematches} ({rematches_wanted})")
    print(f"  floats (paired across points) {played.floats} over {rounds - 1} rounds")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--long-players", type=int, default=64)
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()

    played = play(options.players, options.rounds, options.seed)
    title = f"{options.players:,}-player Swiss, {options.rounds} rounds, random winners"
    report(title, played, options.rounds, "must be 0")
    if played.rematches:
        sys.exit("A short Swiss repeated a pairing")
    count = options.long_players
    long_swiss = play(count, count - 1, options.seed)
    title = f"{count}-player Swiss, {count - 1} rounds (everyone could meet everyone)"
    report(title, long_swiss, count - 1, "only where a round could not avoid one")


if __name__ == "__main__":
    main()
