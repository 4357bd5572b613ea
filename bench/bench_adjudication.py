"""Benchmark: the time from a reconnection grace running out to the settlement committed.

In one process, on PostgreSQL, for N suspended-to-be matches (a few moves into a 5-point
match played for a pot): the periodic sweep finds the expired grace and suspends the match,
then the adjudication (2-ply evaluation through the warm engine, and the settlement through
the ledger in one transaction) runs as the analysis worker would run it. Beside it, in the
same run, the bare 2-ply evaluation of the same positions: the baseline, so the ratio shows
what the platform adds to the engine's own time.

Run: ``.venv/bin/python bench/bench_adjudication.py [matches]`` (PostgreSQL on 127.0.0.1;
the script creates and migrates its own database, crawford_bench_adjudication).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

from benchdb import fresh_database

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATABASE = "crawford_bench_adjudication"
os.environ.update(
    DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
    SECRET_KEY="bench-only",
    DEBUG="false",
)
os.environ.pop("REDIS_URL", None)  # tasks run in this process, as on one analysis worker
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def main(count: int) -> None:
    fresh_database(DATABASE)
    import django

    django.setup()
    from django.utils import timezone

    from accounts.services import user_create
    from analysis.engine import EvalSettings
    from matches import adjudication, creation
    from matches.actions import PlayerAction
    from matches.engine import engine
    from matches.models import Match
    from matches.play import action_submit
    from matches.selectors import match_snapshot
    from matches.tasks import sweep_deadlines
    from tests.integration.matches.helpers import board_left, quick_play

    alice = user_create(username="bench-alice", password="bench-password-1")
    bruno = user_create(username="bench-bruno", password="bench-password-1")
    match_ids = []
    for _ in range(count):
        match = creation.match_challenge(
            challenger=alice, opponent=bruno, length=5, stake_cents=100
        )
        creation.match_accept(match_id=match.pk, user=bruno)
        for seq in range(1, 7):  # each player's seq only has to grow
            match = Match.objects.get(pk=match.pk)  # afresh: a match caches its game
            state = match_snapshot(match, viewer=None)
            seat = state["game"]["turn_seat"]
            player = match.player(seat)
            mine = match_snapshot(match, viewer=player)["game"]
            if mine["phase"] == "roll":
                action_submit(match_id=match.pk, user=player, action=PlayerAction.ROLL, seq=seq)
            else:
                action_submit(
                    match_id=match.pk,
                    user=player,
                    action=PlayerAction.PLAY,
                    play=quick_play(mine["legal_plays"]),
                    seq=seq,
                )
        board_left(match.pk, bruno)
        match_ids.append(match.pk)
    engine().start()

    baseline = []
    for match_id in match_ids:
        position = adjudication.position_of(Match.objects.get(pk=match_id))
        started = time.perf_counter()
        engine().evaluate(position.gnubg_id, EvalSettings(plies=2))
        baseline.append(time.perf_counter() - started)

    timings = []
    for match_id in match_ids:
        past = timezone.now() - timedelta(seconds=1)
        Match.objects.filter(pk=match_id).update(grace_ends_1=past, deadline=past)
        started = time.perf_counter()
        sweep_deadlines()  # suspends the match and (eagerly) adjudicates and settles it
        timings.append(time.perf_counter() - started)
        assert Match.objects.get(pk=match_id).status == "finished"

    def ms(values: list[float], q: float) -> float:
        return 1000 * sorted(values)[min(len(values) - 1, int(q * len(values)))]

    print(f"matches adjudicated:                 {count}")
    for label, values in (
        ("bare 2-ply evaluation (baseline)", baseline),
        ("grace expiry -> settlement committed", timings),
    ):
        print(f"{label:38} median {ms(values, 0.5):7.1f} ms   p95 {ms(values, 0.95):7.1f} ms")
    ratio = statistics.median(timings) / statistics.median(baseline)
    print(f"ratio (median): {ratio:.2f}x the bare evaluation")
    engine().close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
