"""Benchmark: how often the engine-assistance detector flags people who play on their own.

The population is the demo's (``make run``: the sixteen rated players of
lobby/management/commands/load_demo.py, 1342 to 1872). The demo has ratings and results but
no analysed matches, so there is nothing of theirs to scan: this script SIMULATES people
of those ratings, many careers for each demo player, and judges every window of every
career with the detector's own arithmetic (fairplay.detectors.engine_fit: the fit, the window, the
thresholds of settings.FAIRPLAY). Nothing touches a database.

How a simulated person plays. These are assumptions, not measurements, chosen to be less
kind to the detector than its own model (a skewed population, a curved rating line that the
detector fits with a straight one, one spread for all ratings where the truth has several);
change them with the options:

* the usual PR at rating R is ``10 * exp(-(R - 1500) / 400)``: 3.9 at the demo's best
  (1872), 14.8 at its weakest (1342);
* a player's own PR is that times ``exp(N(0, --spread))``: two players of one rating
  differ by a third at the default 0.35, the weaker ones by more PR points;
* ``--newcomers`` of the careers are new accounts, rated 1500 whatever their strength
  (the strength of a random demo player);
* a match has the length of a demo rated result (3, 5, 5, 7, 9 or 11 points) and about 23
  decisions a point for each player (uniform within 40 %), all of them checker plays;
* a decision is the engine's best with chance ``0.85 - 0.015 * own PR``, at least 0.35:
  0.82 at PR 2 (GNU Backgammon's own noisy "advanced" player, PR 1.3-2, agreed 59-78 % at
  0 ply in our runs; people get fewer easy decisions right than a program does, so this
  is generous to them); otherwise it costs a lognormal error (sigma 1.2) whose mean gives
  the player's own PR. The agreement test's false positives depend on this line more
  than on anything else here: no data of real players' agreement were at hand.

Each career plays ``--history`` matches that go into the platform's fit (fitted once, over
every career: what ``fairplay.detectors.engine_use.pr_fit`` would read), then ``--matches`` more,
its window judged after each one once it is full. Printed: the fit, then for each demo
player the windows judged and flagged and the careers flagged at least once, at the
default thresholds; then the same totals at neighbouring thresholds and with the prior
(the demo at launch: no analysed match yet), beside the share of simulated engine users
flagged (an engine at the analysis depth: 98.5 % best plays, PR about 0.3; and one used
for half the plays).

Run: ``.venv/bin/python bench/bench_fairplay_false_positives.py [--careers 100] [--matches 40]
[--spread 0.35] [--newcomers 0.1] [--seed 1]`` (about 15 s; ``--careers 300``, 45 s).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# Django only for settings.FAIRPLAY and the demo's players: no database is opened.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ.setdefault("DEBUG", "true")

import django

django.setup()

from django.conf import settings  # noqa: E402

from fairplay.detectors.engine_fit import (  # noqa: E402
    PRIOR,
    FitPoint,
    MatchFigures,
    PrFit,
    Thresholds,
    Window,
    pr_fit_of,
    think_times_of,
)
from lobby.management.commands.load_demo import DEMO_PLAYERS  # noqa: E402

DEMO_LENGTHS = (3, 5, 5, 7, 9, 11)
DECISIONS_A_POINT = 23
ERROR_SIGMA = 1.2
ENGINE_BEST = 0.985
ENGINE_PR = 0.3
NO_THINK_TIMES = think_times_of([])
NEWCOMERS = "newcomers (rated 1500)"
Career = tuple["Player", list[MatchFigures]]


@dataclass(frozen=True)
class Player:
    name: str
    rating: float
    own_pr: float
    best_chance: float


def usual_pr(rating: float) -> float:
    return 10.0 * math.exp(-(rating - 1500.0) / 400.0)


def human_best_chance(own_pr: float) -> float:
    return max(0.85 - 0.015 * own_pr, 0.35)


def play_match(player: Player, rng: random.Random, number: int) -> MatchFigures:
    length = rng.choice(DEMO_LENGTHS)
    decisions = max(1, round(DECISIONS_A_POINT * length * rng.uniform(0.6, 1.4)))
    best = sum(1 for _ in range(decisions) if rng.random() < player.best_chance)
    # A lognormal error's mean is exp(mu + sigma²/2); the mean of an error is what makes
    # 500 * errors / decisions come out at the player's own PR.
    mean_error = player.own_pr * decisions / 500 / max(decisions - best, 1)
    mu = math.log(max(mean_error, 1e-9)) - ERROR_SIGMA**2 / 2
    error = sum(rng.lognormvariate(mu, ERROR_SIGMA) for _ in range(decisions - best))
    return MatchFigures(
        match_id=number,
        finished_at="",
        opponent="",
        plies=0,
        error=error,
        decisions=decisions,
        checker_plays=decisions,
        checker_best=best,
        cube_decisions=0,
        cube_best=0,
    )


def people(careers: int, spread: float, newcomers: float, rng: random.Random) -> list[Player]:
    found = []
    for name, _display, _country, demo_rating, _experience in DEMO_PLAYERS:
        for _ in range(careers):
            if rng.random() < newcomers:
                label, rating, strength = NEWCOMERS, 1500.0, rng.choice(DEMO_PLAYERS)[3]
            else:
                label, rating, strength = name, demo_rating, demo_rating
            own = usual_pr(strength) * math.exp(rng.gauss(0.0, spread))
            found.append(Player(label, rating, own, human_best_chance(own)))
    return found


@dataclass
class Tally:
    """Windows judged and flagged, careers with one flagged at least; the extremes seen."""

    careers: int = 0
    windows: int = 0
    flagged_windows: int = 0
    flagged_careers: int = 0
    lowest_z: float = math.inf
    highest_agreement: float = 0.0

    def add(self, windows: Sequence[Window]) -> None:
        flags = [window.flagged for window in windows]
        self.careers += 1
        self.windows += len(flags)
        self.flagged_windows += sum(flags)
        self.flagged_careers += any(flags)
        self.lowest_z = min([self.lowest_z, *(w.z for w in windows if w.z is not None)])
        self.highest_agreement = max(
            [self.highest_agreement, *(w.agreement for w in windows if w.agreement is not None)]
        )

    def merge(self, other: Tally) -> None:
        self.careers += other.careers
        self.windows += other.windows
        self.flagged_windows += other.flagged_windows
        self.flagged_careers += other.flagged_careers
        self.lowest_z = min(self.lowest_z, other.lowest_z)
        self.highest_agreement = max(self.highest_agreement, other.highest_agreement)


def judge(
    careers: Sequence[Career], fit: PrFit, thresholds: Thresholds, size: int
) -> dict[str, Tally]:
    tallies: dict[str, Tally] = {}
    for player, matches in careers:
        windows = [
            Window(
                matches=tuple(matches[end - size : end]),
                rating=player.rating,
                fit=fit,
                think=NO_THINK_TIMES,
                thresholds=thresholds,
            )
            for end in range(size, len(matches) + 1)
        ]
        tallies.setdefault(player.name, Tally()).add([w for w in windows if w.assessed])
    return tallies


def total(tallies: dict[str, Tally], keep: Callable[[str], bool] = lambda _: True) -> Tally:
    whole = Tally()
    for name, tally in tallies.items():
        if keep(name):
            whole.merge(tally)
    return whole


def rate(part: int, whole: int) -> str:
    """``part`` of ``whole``; with none, the 95 % upper bound by the rule of three."""
    if not whole:
        return "-"
    if not part:
        return f"0/{whole} (< {300 / whole:.3f} %)"
    return f"{part}/{whole} = {100 * part / whole:.3f} %"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--careers", type=int, default=100, help="careers per demo player")
    parser.add_argument("--history", type=int, default=10, help="matches each, for the fit")
    parser.add_argument("--matches", type=int, default=40, help="matches each, judged")
    parser.add_argument("--spread", type=float, default=0.35, help="log-sd of own PR")
    parser.add_argument("--newcomers", type=float, default=0.1, help="share rated 1500")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    limits = settings.FAIRPLAY
    size = int(limits["ENGINE_WINDOW"])
    default = Thresholds(
        min_decisions=int(limits["ENGINE_MIN_DECISIONS"]),
        z=float(limits["ENGINE_Z"]),
        agreement=float(limits["ENGINE_AGREEMENT"]),
    )

    humans = people(options.careers, options.spread, options.newcomers, rng)
    cheats = [Player("engine", 1500.0, ENGINE_PR, ENGINE_BEST) for _ in range(options.careers)]
    halves = [
        Player(
            "engine half the time",
            rating,
            (ENGINE_PR + usual_pr(rating)) / 2,
            (human_best_chance(usual_pr(rating)) + ENGINE_BEST) / 2,
        )
        for rating in (1400.0, 1500.0, 1700.0)
        for _ in range(options.careers)
    ]
    careers: list[Career] = []
    points = []
    for number, player in enumerate(humans):
        matches = [play_match(player, rng, k) for k in range(options.history + options.matches)]
        points += [
            FitPoint(player=number, rating=player.rating, error=m.error, decisions=m.decisions)
            for m in matches[: options.history]
        ]
        careers.append((player, matches[options.history :]))
    cheat_careers = [
        (player, [play_match(player, rng, k) for k in range(options.matches)])
        for player in cheats + halves
    ]
    fit = pr_fit_of(points)

    print(
        f"{len(humans)} simulated careers of the {len(DEMO_PLAYERS)} demo players "
        f"({options.newcomers:.0%} newcomers rated 1500), {options.history} matches each "
        f"for the fit, {options.matches} judged; window {size} matches, seed {options.seed}"
    )
    print(
        f"fit: PR = {fit.intercept:.2f} {fit.slope:+.5f} * rating (PR {fit.expected(1500):.2f} "
        f"at 1500), player sd {fit.player_sd:.2f}, decision sd {fit.decision_sd:.1f}, "
        f"{fit.points} points, {fit.players} players"
    )
    print()
    print(f"At the default thresholds ({default.to_dict()}), the platform's fit:")
    print(
        f"{'player':24} {'rating':>6} {'usual PR':>8} {'windows flagged':>22} "
        f"{'careers flagged':>20} {'lowest z':>8} {'top agreement':>13}"
    )
    tallies = judge(careers, fit, default, size)
    ratings = {name: rating for name, _d, _c, rating, _e in DEMO_PLAYERS}
    for name, tally in tallies.items():
        rating = ratings.get(name, 1500.0)
        usual = "-" if name == NEWCOMERS else f"{usual_pr(rating):.1f}"
        print(
            f"{name:24} {rating:6.0f} {usual:>8} "
            f"{rate(tally.flagged_windows, tally.windows):>22} "
            f"{rate(tally.flagged_careers, tally.careers):>20} "
            f"{tally.lowest_z:8.2f} {tally.highest_agreement:13.3f}"
        )
    print()
    print("All careers, the fit and the prior, at neighbouring thresholds:")
    print(
        f"{'model':6} {'z':>4} {'agree':>6} {'human windows flagged':>26} "
        f"{'human careers flagged':>24} {'engine':>9} {'engine half':>12}"
    )
    neighbours = [(default.z, default.agreement)]
    neighbours += [(z, default.agreement) for z in (3.0, 2.5)]
    neighbours += [(default.z, agreement) for agreement in (0.95, 0.9, 0.85)]
    for model_name, model in (("fit", fit), ("prior", PRIOR)):
        for z, agreement in neighbours:
            thresholds = Thresholds(default.min_decisions, z, agreement)
            people_tally = total(judge(careers, model, thresholds, size))
            cheat = judge(cheat_careers, model, thresholds, size)
            engine = total(cheat, lambda name: name == "engine")
            half = total(cheat, lambda name: name != "engine")
            mark = " <- default" if thresholds == default else ""
            print(
                f"{model_name:6} {z:4.1f} {agreement:6.2f} "
                f"{rate(people_tally.flagged_windows, people_tally.windows):>26} "
                f"{rate(people_tally.flagged_careers, people_tally.careers):>24} "
                f"{100 * engine.flagged_careers / max(engine.careers, 1):8.1f}% "
                f"{100 * half.flagged_careers / max(half.careers, 1):11.1f}%{mark}"
            )


if __name__ == "__main__":
    main()
