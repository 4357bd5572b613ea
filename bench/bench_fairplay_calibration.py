"""Benchmark: the engine-assistance detector calibrated on real human matches.

The set is ``/work/shared/data/realmat-calibration/files`` (300 .mat files from two online
rooms, sources in the set's ``SOURCES.tsv``). Each file is read by the reader of a player's
upload and analysed through the live path (:mod:`fairplay.screening`: the analysis engine
at ``settings.ANALYSIS_PLIES``, :func:`reviews.results.result_of`); every analysis is kept
in ``--cache`` (one JSON file per match and depth), so a file is analysed once, and a run
stopped half-way goes on where it stopped. Files the reader refuses are counted and named.

Which files: the set in a shuffled order (``--seed``), the first ``--limit`` of it (all by
default), so any limit is a uniform random subset of the set; ``--cached-only`` judges the
files already in the cache and analyses nothing (they were analysed in that same order).

What the files say of their players (there is no rating in them: the rooms' ``Player N
Elo`` tags hold each player's final score of the match, capped at its length, not a level
or a rating): a *player* is a name, compared without case, one row each whatever the
number of their matches. Printed:

1. the players' agreement with GNU Backgammon's best play and their PR, quantiles over
   players, and both by band of measured strength (the player's own PR over all their
   matches): what a rating band would have shown, had the files carried ratings;
2. the prior fitted from them (players as players: each player's own PR once, the spread
   between players less what their own decisions explain, and the spread of one decision
   within a player's matches), which :data:`fairplay.detectors.engine_fit.PRIOR` states;
3. at the thresholds of ``settings.FAIRPLAY`` and the prior, each player judged by
   :func:`fairplay.detectors.engine_screen.screen_players` with the live detector's
   :func:`fairplay.detectors.engine_use.judged_window`, after each of their matches (files
   in name order), as the live detector judges after each analysis: the human players
   flagged; the players of GNU Backgammon self-play matches (``--selfplay FILES``, by
   default ``bench/data/selfplay``) flagged;
   and the *half-engine* players caught;
4. the same at neighbouring thresholds.

Half-engine players are simulated from the humans: for each human player, a random half
of their own decisions (unforced checker plays and cube decisions; seeded) is replaced by
GNU Backgammon's best play at the analysis depth (its error set to 0, the play counted as
the best), as someone would who asks the engine on every other move. The positions stay
the ones the human met: a replaced move would have led to another position, whose
difficulty is taken to be that of the one recorded. The other half keeps the human's own
play and error. ``--engine-share`` changes the half.

Run: ``PYTHONPATH=. .venv/bin/python bench/bench_fairplay_calibration.py [--cache
/tmp/calib-cache] [--limit N] [--cached-only] [--selfplay FILES...] [--seed 33]
[--patience 7200]``
(analysis about 40 s a match on a loaded 2-core machine at 2 plies; judging, seconds).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ.setdefault("DEBUG", "true")

import django

django.setup()

from django.conf import settings  # noqa: E402

from core.errors import DomainError  # noqa: E402
from fairplay.detectors.engine_fit import (  # noqa: E402
    NO_THINK_TIMES,
    PRIOR,
    PrFit,
    Thresholds,
    Window,
)
from fairplay.detectors.engine_screen import PlayerScreen, screen_players  # noqa: E402
from fairplay.detectors.engine_use import engine_thresholds, judged_window  # noqa: E402
from fairplay.screening import analysed, mat_record  # noqa: E402
from matches.engine import analysis_engine  # noqa: E402

# The set beside the checkout (../shared).
CALIBRATION = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "realmat-calibration" / "files"
)
SELFPLAY = Path(__file__).resolve().parent / "data" / "selfplay"
"""GNU Backgammon playing itself, 7-point matches at 2 plies without noise, both sides:
``gnubg -t < gnubg_selfplay_commands.txt`` (seeds 7, 8, 9), exported with ``export match
mat``; the players' names were then written per match (``gnubg_seed7_a``...), so that each
match's two players are players of their own."""
Result = dict[str, Any]


def cached_analysis(path: Path, cache: Path, plies: int, *, analyse: bool) -> Result | None:
    """The cache's entry for ``path`` (``{"file", "result"}`` or ``{"file", "refused"}``),
    analysing it first when ``analyse``; None when it is not cached and not analysed."""
    kept = cache / f"{path.stem}.{plies}ply.json"
    if kept.exists():
        return dict(json.loads(kept.read_text()))
    if not analyse:
        return None
    started = time.monotonic()
    try:
        record = mat_record(path.read_bytes(), path.name)
    except DomainError as error:
        entry: Result = {"file": path.name, "refused": str(error)}
    else:
        entry = {
            "file": path.name,
            "plies": plies,
            "players": list(record.players),
            "tags": [list(tag) for tag in record.tags],
            "length": record.length,
            "result": analysed(record),
            "seconds": round(time.monotonic() - started, 1),
        }
    partial = kept.with_suffix(".part")
    partial.write_text(json.dumps(entry))
    partial.rename(kept)
    return entry


def chosen(folder: Path, seed: int, limit: int | None) -> list[Path]:
    files = sorted(folder.glob("*.mat"))
    random.Random(seed).shuffle(files)
    return files[:limit]


def half_engine(result: Result, seat: int, share: float, rng: random.Random) -> Result:
    """``result`` with ``share`` of ``seat``'s own decisions played as the engine's best."""
    copied = copy.deepcopy(result)
    error = 0.0
    for decision in copied["decisions"]:
        if decision["seat"] != seat or decision["forced"]:
            continue
        if rng.random() < share:
            decision["played"] = decision["best"]
            decision["error"] = 0.0
        error += decision["error"]
    copied["players"][seat]["error"] = error
    return copied


def fitted_prior(players: Sequence[PlayerScreen]) -> PrFit:
    """The detector's model fitted to people whose rating is unknown, players as players.

    ``decision_sd²``: the decision-weighted spread of each player's matches about their own
    PR, over the degrees of freedom (players with two matches or more); ``intercept``: the
    mean of the players' own PRs; ``player_sd²``: their spread about it, less what
    ``decision_sd² / D`` of their own decisions explains."""
    within, freedom = 0.0, 0
    for player in players:
        if len(player.matches) < 2 or not player.decisions:
            continue
        own = player.pr or 0.0
        within += sum(
            m.decisions * (500 * m.error / m.decisions - own) ** 2
            for m in player.matches
            if m.decisions
        )
        freedom += sum(1 for m in player.matches if m.decisions) - 1
    rows = [(player.pr, player.decisions) for player in players if player.pr is not None]
    if not freedom or len(rows) < 2:
        return PRIOR  # too few to say: a small run
    decision_var = within / freedom
    mean = statistics.fmean(pr for pr, _ in rows)
    player_var = sum((pr - mean) ** 2 - decision_var / d for pr, d in rows) / (len(rows) - 1)
    return PrFit(
        intercept=mean,
        slope=0.0,
        player_sd=math.sqrt(max(player_var, 0.0)),
        decision_sd=math.sqrt(decision_var),
        points=sum(len(player.matches) for player in players),
        players=len(rows),
        prior=True,
    )


def quantiles(values: Sequence[float], marks: Iterable[float]) -> str:
    ordered = sorted(values)
    if not ordered:
        return "-"
    picked = []
    for mark in marks:
        index = min(len(ordered) - 1, max(0, round(mark * (len(ordered) - 1))))
        picked.append(f"p{round(mark * 100)} {ordered[index]:.3f}")
    return ", ".join(picked)


def rate(part: int, whole: int) -> str:
    """``part`` of ``whole``; with none, the 95 % upper bound by the rule of three."""
    if not whole:
        return "-"
    if not part:
        return f"0/{whole} (< {300 / whole:.1f} %)"
    return f"{part}/{whole} = {100 * part / whole:.1f} %"


def rejudged(player: PlayerScreen, fit: PrFit, thresholds: Thresholds, size: int) -> bool:
    """Whether ``player`` is flagged at other thresholds (the grid of section 4)."""
    played = player.matches
    return any(
        Window(
            matches=played[max(0, end - size) : end],
            rating=player.windows[0].rating,
            fit=fit,
            think=NO_THINK_TIMES,
            thresholds=thresholds,
        ).flagged
        for end in range(1, len(played) + 1)
    )


def screened(
    entries: Sequence[Result], fit: PrFit, plies: int, size: int, rating: float
) -> list[PlayerScreen]:
    return screen_players(
        [(entry["file"], entry["result"]) for entry in entries],
        judge=lambda matches: judged_window(matches, rating=rating, fit=fit),
        size=size,
        plies=plies,
    )


def band_of(pr: float) -> str:
    for top, name in ((4.0, "PR < 4"), (6.0, "4-6"), (9.0, "6-9"), (13.0, "9-13")):
        if pr < top:
            return name
    return "13+"


def options_of() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=Path, default=CALIBRATION)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/calib-cache"))
    parser.add_argument("--limit", type=int, default=None, help="first N of the shuffled set")
    parser.add_argument("--cached-only", action="store_true", help="analyse nothing")
    parser.add_argument("--selfplay", type=Path, nargs="*", default=sorted(SELFPLAY.glob("*.mat")))
    parser.add_argument("--engine-share", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument(
        "--patience",
        type=float,
        default=7200.0,
        help="seconds GNU Backgammon may take over one match (a loaded machine is slow)",
    )
    return parser.parse_args()


def read_set(options: argparse.Namespace, plies: int) -> list[Result]:
    """The chosen files' analyses (analysing the missing ones unless ``--cached-only``),
    in file-name order; what was refused or left out is printed."""
    entries, refused, missing = [], [], 0
    for path in chosen(options.files, options.seed, options.limit):
        entry = cached_analysis(path, options.cache, plies, analyse=not options.cached_only)
        if entry is None:
            missing += 1
        elif "refused" in entry:
            refused.append(entry)
        else:
            entries.append(entry)
    entries.sort(key=lambda entry: entry["file"])
    print(
        f"{len(entries)} matches analysed at {plies} plies, {len(refused)} refused by the reader, "
        f"{missing} of the chosen files not analysed yet (--cached-only); seed {options.seed}"
    )
    for entry in refused:
        print(f"  refused: {entry['file']}: {entry['refused']}")
    sites: dict[str, int] = {}
    for entry in entries:
        site = _site(entry["tags"])
        sites[site] = sites.get(site, 0) + 1
    print(f"rooms: {sites}")
    return entries


def print_distributions(humans: Sequence[PlayerScreen]) -> None:
    regulars = sorted(humans, key=lambda p: -len(p.matches))[:3]
    print(
        f"{len(humans)} distinct players; most matches: "
        + ", ".join(f"{p.player} {len(p.matches)}" for p in regulars)
        + f"; players with 2 matches or more: {sum(1 for p in humans if len(p.matches) >= 2)}"
    )
    marks = (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)
    agreements = [p.agreement for p in humans if p.agreement is not None]
    prs = [p.pr for p in humans if p.pr is not None]
    print()
    print("1. Over players (each once, all their matches):")
    print(f"   agreement: mean {statistics.fmean(agreements):.3f}; {quantiles(agreements, marks)}")
    print(f"   PR:        mean {statistics.fmean(prs):.2f}; {quantiles(prs, marks)}")
    per_match = [
        m.checker_best / m.checker_plays for p in humans for m in p.matches if m.checker_plays
    ]
    print(
        f"   one match each ({len(per_match)} player-matches): agreement "
        f"{quantiles(per_match, marks)}"
    )
    print(
        f"   {'band (own PR)':14} {'players':>7} {'decisions':>9} "
        f"{'agreement mean':>14} {'agreement p95':>13} {'PR mean':>7}"
    )
    bands: dict[str, list[PlayerScreen]] = {}
    for player in humans:
        if player.pr is not None:
            bands.setdefault(band_of(player.pr), []).append(player)
    for name in ("PR < 4", "4-6", "6-9", "9-13", "13+"):
        group = bands.get(name, [])
        found = [p.agreement for p in group if p.agreement is not None]
        if not found:
            continue
        print(
            f"   {name:14} {len(group):7} {sum(p.decisions for p in group):9} "
            f"{statistics.fmean(found):14.3f} {quantiles(found, (0.95,)):>13} "
            f"{statistics.fmean(p.pr or 0.0 for p in group):7.2f}"
        )


def print_verdicts(
    humans: Sequence[PlayerScreen],
    engines: Sequence[PlayerScreen],
    halves: Sequence[PlayerScreen],
    share: float,
    size: int,
) -> None:
    default = engine_thresholds()
    print()
    print(f"3. At the defaults {default.to_dict()}, window {size}, the detector's PRIOR:")
    judged = [p for p in humans if any(w.assessed for w in p.windows)]
    print(
        f"   human players flagged: {rate(sum(p.flagged for p in humans), len(humans))} "
        f"({len(judged)} had a window of {default.min_decisions} decisions or more: "
        f"{rate(sum(p.flagged for p in judged), len(judged))})"
    )
    for player in humans:
        if player.flagged:
            print(f"     flagged: {player.player}: {player.flagged_windows[0].signs()}")
    for name, group in (("human", humans), ("half-engine", halves)):
        windows = [w for p in group for w in p.windows if w.assessed]
        if windows:
            print(
                f"   {name} windows assessed: {len(windows)}, flagged "
                f"{rate(sum(w.flagged for w in windows), len(windows))}; lowest z "
                f"{min(w.z or 0.0 for w in windows):.2f}, highest agreement "
                f"{max(w.agreement or 0.0 for w in windows):.3f}, lowest PR "
                f"{min(w.pr or 0.0 for w in windows):.2f}"
            )
    print(f"   self-play players flagged: {rate(sum(p.flagged for p in engines), len(engines))}")
    for player in engines:
        print(
            f"     {player.player} ({', '.join(player.files)}): {player.decisions} decisions, "
            f"agreement {player.agreement or 0.0:.3f}, PR {player.pr or 0.0:.2f}, "
            f"flagged {player.flagged}"
        )
    half_judged = [p for p in halves if any(w.assessed for w in p.windows)]
    print(
        f"   {share:.0%}-engine players caught: "
        f"{rate(sum(p.flagged for p in halves), len(halves))} "
        f"(of those with a window of {default.min_decisions} decisions: "
        f"{rate(sum(p.flagged for p in half_judged), len(half_judged))})"
    )


def print_grid(groups: Sequence[Sequence[PlayerScreen]], fitted: PrFit, size: int) -> None:
    default = engine_thresholds()
    print()
    print("4. Neighbouring thresholds (players flagged or caught, all players):")
    print(
        f"   {'fit':6} {'min D':>5} {'z':>4} {'agree':>6} {'humans':>22} "
        f"{'self-play':>14} {'half-engine':>22}"
    )
    grid = [(default.min_decisions, default.z, default.agreement)]
    grid += [(d, default.z, a) for d in (80, 100, 150) for a in (0.85, 0.88, 0.90, 0.92, 0.95)]
    grid += [(default.min_decisions, z, default.agreement) for z in (2.5, 3.0, 3.5, 4.0)]
    for fit_name, fit in (("PRIOR", PRIOR), ("fitted", fitted)):
        for min_d, z, agreement in grid:
            thresholds = Thresholds(min_decisions=min_d, z=z, agreement=agreement)
            shares = [
                rate(sum(rejudged(p, fit, thresholds, size) for p in group), len(group))
                for group in groups
            ]
            mark = " <- default" if (thresholds == default and fit is PRIOR) else ""
            print(
                f"   {fit_name:6} {min_d:5} {z:4.1f} {agreement:6.2f} {shares[0]:>22} "
                f"{shares[1]:>14} {shares[2]:>22}{mark}"
            )


def main() -> None:
    options = options_of()
    # The live timeout is sized for a worker of its own; the analysis asked is the same.
    analysis_engine().timeout = options.patience
    options.cache.mkdir(parents=True, exist_ok=True)
    plies = settings.ANALYSIS_PLIES
    size = int(settings.FAIRPLAY["ENGINE_WINDOW"])
    rating = 1500.0

    entries = read_set(options, plies)
    engine_entries = [
        entry
        for path in options.selfplay
        if (entry := cached_analysis(path, options.cache, plies, analyse=True)) is not None
        and "result" in entry
    ]
    if not entries:
        print("no analysed match: nothing to measure")
        return
    humans = screened(entries, PRIOR, plies, size, rating)
    print_distributions(humans)

    prior = fitted_prior(humans)
    print()
    print(
        f"2. Prior fitted: PR {prior.intercept:.2f} at any rating, player sd "
        f"{prior.player_sd:.2f}, decision sd {prior.decision_sd:.1f} "
        f"({prior.players} players); the detector's PRIOR: PR {PRIOR.intercept}, "
        f"player sd {PRIOR.player_sd}, decision sd {PRIOR.decision_sd}"
    )

    rng = random.Random(options.seed)
    share = options.engine_share
    halves = [
        {
            "file": entry["file"],
            "result": half_engine(half_engine(entry["result"], 0, share, rng), 1, share, rng),
        }
        for entry in entries
    ]
    half_players = screened(halves, PRIOR, plies, size, rating)
    engines = screened(engine_entries, PRIOR, plies, size, rating)
    print_verdicts(humans, engines, half_players, share, size)
    print_grid([humans, engines, half_players], prior, size)


def _site(tags: Sequence[Sequence[str]]) -> str:
    return next((value for key, value in tags if re.fullmatch("site", key, re.I)), "?")


if __name__ == "__main__":
    main()
