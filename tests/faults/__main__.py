"""Run the fault suite: ``python -m tests.faults [--short] [--only NAME ...]``."""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import time
from collections.abc import Awaitable, Callable

from tests.faults import checks
from tests.faults.bots import Ledger, Player, cancelled, pair_plays, sit_and_go
from tests.faults.scenarios import Outcome, Scenarios
from tests.faults.world import Account, World

PAIRS = 4
WARM_UP = 20.0


def plan(
    scenarios: Scenarios, *, short: bool
) -> list[tuple[str, Callable[[], Awaitable[Outcome]]]]:
    every = [
        ("redis-15s", lambda: scenarios.redis_stopped(15)),
        ("redis-2min", lambda: scenarios.redis_stopped(120)),
        ("postgres", scenarios.postgres_restarted),
        ("kill-adjudication", scenarios.worker_killed_in_adjudication),
        ("kill-analysis", scenarios.worker_killed_in_analysis),
        ("kill-computer-move", scenarios.worker_killed_in_computer_move),
        ("kill-beat", scenarios.beat_killed),
        ("kill-web", scenarios.web_process_killed),
        ("term-web", scenarios.web_terminated),
        ("term-default", lambda: scenarios.worker_terminated("default")),
        ("term-analysis", lambda: scenarios.worker_terminated("analysis")),
        ("term-review", lambda: scenarios.worker_terminated("review")),
        ("term-beat", scenarios.beat_terminated),
    ]
    if short:
        kept = {"redis-15s", "postgres", "kill-adjudication", "kill-web", "term-web"}
        every = [entry for entry in every if entry[0] in kept]
    return every


async def run(
    world: World, accounts: list[Account], organizer: Account, *, short: bool, only: set[str]
) -> list[Outcome]:
    ledger = Ledger()
    players = [Player(account, world, ledger) for account in accounts]
    stop = asyncio.Event()
    pairs = players[: 2 * PAIRS]
    background = [
        asyncio.create_task(pair_plays(pairs[n], pairs[n + 1], stop))
        for n in range(0, len(pairs), 2)
    ]
    background.append(
        asyncio.create_task(sit_and_go(organizer, players[2 * PAIRS : 2 * PAIRS + 4], stop))
    )
    scenarios = Scenarios(world, ledger, spare=players[2 * PAIRS + 4 :])
    outcomes = []
    try:
        await asyncio.sleep(WARM_UP)
        for name, scenario in plan(scenarios, short=short):
            if only and name not in only:
                continue
            print(f"fault: {name} ...", flush=True)
            began = time.monotonic()
            outcome = await scenario()
            print(
                f"  recovered in {_seconds(outcome.recovered)}, {len(outcome.problems)} problems"
                f" ({time.monotonic() - began:.0f} s)",
                flush=True,
            )
            outcomes.append(outcome)
    finally:
        stop.set()
        await cancelled(background)
    final = Outcome("after every fault", 0.0)
    final.problems = await asyncio.to_thread(
        checks.settled, [checks.money, checks.moves_kept(ledger), checks.no_task_lost], within=60
    )
    final.note = (
        f"{len(ledger.acknowledged)} moves acknowledged, {len(set(ledger.finished))} matches"
        f" finished, {len(ledger.errors)} refusals"
    )
    outcomes.append(final)
    for error in ledger.errors[:10]:
        print(f"refused: {error}")
    return outcomes


def _seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.1f} s"


def report(outcomes: list[Outcome]) -> bool:
    width = max(len(outcome.fault) for outcome in outcomes)
    print()
    print(f"{'fault':{width}}  {'recovered':>9}  {'lost':>7}  invariants")
    healthy = True
    for outcome in outcomes:
        ok = not outcome.problems and outcome.recovered is not None
        healthy &= ok
        lost = (
            "nothing"
            if not any("acknowledged" in p or "sum" in p for p in outcome.problems)
            else "SOME"
        )
        print(
            f"{outcome.fault:{width}}  {_seconds(outcome.recovered):>9}  {lost:>7}  "
            f"{'all hold' if not outcome.problems else 'BROKEN'}"
            f"{'  (' + outcome.note + ')' if outcome.note else ''}"
        )
        for problem in outcome.problems:
            print(f"{'':{width}}    - {problem}")
    print()
    print(
        "invariants: the ledger sums to zero and no balance is negative; every acknowledged"
        " move is in the log; no match lost on time; no deadline overdue; no adjudication"
        " waiting; no task kept or stuck; every open socket present at its board"
    )
    return healthy


def main() -> int:
    parser = argparse.ArgumentParser(description="Pull each plug of the production shape.")
    parser.add_argument("--short", action="store_true", help="CI's form")
    parser.add_argument("--only", nargs="*", default=[], help="run only these faults")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
    world = World.create()
    try:
        world.start_all()
        accounts = [world.account(f"player{n:02d}") for n in range(2 * PAIRS + 4 + 3)]
        organizer = world.account("orla", role="organizer")
        outcomes = asyncio.run(
            run(world, accounts, organizer, short=args.short, only=set(args.only))
        )
    finally:
        world.close()
    return 0 if report(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
