"""Benchmark: how often the one-way-series sign of the dumping detector flags honest pairs.

The population is the demo's sixteen rated players (1342 to 1872). The demo's pairs have
not played each other often enough to be judged, so this script SIMULATES pairs of them
playing a run of one-point to eleven-point matches inside the detector's window, and
judges the series after every match with the detector's own arithmetic
(``fairplay.detectors.dumping.one_way_series`` and ``settings.FAIRPLAY``). Nothing touches a
database.

Assumptions, not measurements:

* a pair plays ``--matches`` matches in the window, each of a demo rated result's length;
* each player's true strength is their rating plus ``N(0, --misrating)`` rating points
  (their rating is that far off what they play like: newcomers are, for a while), and the
  winner is drawn with the FIBS chance of the true strengths; the detector sees only the
  ratings, which stay fixed (so the series does not move them);
* a dumper loses each match on purpose with chance ``--dump`` and otherwise plays as
  themself.

Printed: the share of honest pairs flagged at least once, at the default chance and
neighbouring ones, beside its baseline, the chance itself (what a single judgement would
flag: judging after every match, and ratings that are off, make it more), and the share
of dumping pairs caught, with the matches it took.

Run: ``.venv/bin/python bench/bench_one_way_series.py [--pairs 20000] [--matches 20]
[--misrating 100] [--dump 1.0] [--seed 1]`` (about 20 s at the defaults).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ.setdefault("DEBUG", "true")

import django

django.setup()

from django.conf import settings  # noqa: E402

from accounts.ratings import upset_probability  # noqa: E402
from fairplay.detectors.dumping import one_way_series  # noqa: E402
from lobby.management.commands.load_demo import DEMO_PLAYERS  # noqa: E402

DEMO_LENGTHS = (1, 3, 5, 5, 7, 9, 11)


def win_chance(rating: float, other: float, length: int) -> float:
    upset = upset_probability(rating - other, length)
    return upset if rating <= other else 1.0 - upset


def series_flags(
    rng: random.Random, matches: int, misrating: float, dump: float, chance_limit: float
) -> int | None:
    """The number of matches after which the pair is flagged, or None."""
    ratings = [player[3] for player in rng.sample(DEMO_PLAYERS, 2)]
    strengths = [rating + rng.gauss(0.0, misrating) for rating in ratings]
    least = settings.FAIRPLAY["ONE_WAY_MATCHES"]
    # the series as each player's side of it reads (player 0 is the dumper, if any)
    sides: tuple[list[dict[str, object]], list[dict[str, object]]] = ([], [])
    for number in range(1, matches + 1):
        length = rng.choice(DEMO_LENGTHS)
        truly = win_chance(strengths[0], strengths[1], length)
        lost = rng.random() < dump or rng.random() >= truly
        chance = win_chance(ratings[0], ratings[1], length)
        sides[0].append({"win_chance": chance, "lost": lost})
        sides[1].append({"win_chance": 1.0 - chance, "lost": not lost})
        # the detector judges the player who just lost, after every match
        loser = sides[0] if lost else sides[1]
        if number >= least and one_way_series(loser)["chance"] <= chance_limit:
            return number
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20000)
    parser.add_argument("--matches", type=int, default=20, help="matches a pair plays")
    parser.add_argument("--misrating", type=float, default=100.0, help="rating points")
    parser.add_argument("--dump", type=float, default=1.0, help="a dumper's share of losses")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    default = settings.FAIRPLAY["ONE_WAY_CHANCE"]
    print(
        f"{args.pairs} pairs of demo players, {args.matches} matches each in the window, "
        f"ratings off by N(0, {args.misrating:g}) points, judged after every match from "
        f"match {settings.FAIRPLAY['ONE_WAY_MATCHES']}:"
    )
    for limit in (default / 10, default, default * 10):
        rng = random.Random(args.seed)
        honest = [
            series_flags(rng, args.matches, args.misrating, 0.0, limit) for _ in range(args.pairs)
        ]
        flagged = sum(1 for found in honest if found is not None)
        share = flagged / args.pairs
        mark = "  <- default" if limit == default else ""
        print(
            f"  chance {limit:g}: honest pairs flagged {flagged}/{args.pairs} = "
            f"{share:.4%} ({share / limit:.2f}x the chance of one judgement){mark}"
        )
        rng = random.Random(args.seed + 1)
        dumping = [
            series_flags(rng, args.matches, args.misrating, args.dump, limit)
            for _ in range(args.pairs // 10)
        ]
        caught = sorted(found for found in dumping if found is not None)
        median = caught[len(caught) // 2] if caught else None
        print(
            f"    dumpers losing {args.dump:.0%} on purpose: caught {len(caught)}/{len(dumping)}"
            f" = {len(caught) / len(dumping):.1%}, after a median of {median} matches"
        )


if __name__ == "__main__":
    main()
