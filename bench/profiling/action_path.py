"""The web process's CPU an action, in process: where it goes and how much it is.

Plays ``--actions`` actions through ``matches.play.action_submit`` the way a board socket's
database thread does (inside ``core.live.collected``, with the commit hooks that render
and encode the change's frames), on matches whose two seats and one watcher are connected,
so every change renders the three viewers' snapshots. The player to act answers from the
frame its own socket would get (a roll, or the play ``quick_play`` prefers), as the live
bench's clients do; that choosing is not counted.

Prints the CPU (``time.process_time``) an action spent in the action and its frames; with
``--profile FILE`` the same run under cProfile on the CPU clock (then the figure is not
one), written to FILE and summed up by function. cProfile's cost is by call, so it makes
code of many small calls look dearer than it is; ``--parts`` times a few parts of the path
with the CPU clock instead (``PARTS``: nested parts are inside their parents, and a part's
figure is its own calls' CPU over the actions). Not a measure of the shipped shape
(``bench_live_matches.py`` is): no sockets, no Redis, one thread, but the same code an
action runs on its database thread, without the machine's other load in the figure.

Run: ``.venv/bin/python bench/profiling/action_path.py [--actions 2000] [--profile F | --parts]``
(PostgreSQL on 127.0.0.1; makes and drops a database of its own).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import os
import pstats
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
DATABASE = f"crawford_bench_action_path_{os.getpid()}"
os.environ.update(
    DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
    SECRET_KEY="bench-only",
    DEBUG="false",
)
os.environ.pop("REDIS_URL", None)  # the in-memory layer: the frames are collected, not sent
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
BATCH = 100
PARTS = (  # (module, attribute or Class.method, what it is), timed by ``--parts``
    ("matches.play", "lock_match", "the match lock: its statement and rows"),
    ("core.rows", "Columns.build", "  building the lock's rows"),
    ("matches.play", "_transition", "the rules: the action checked and applied"),
    ("matches.play", "append_play", "the log row of a play"),
    ("matches.play", "append_action", "the log row of another action"),
    ("matches.play", "_apply", "the game's new state stored"),
    ("core.rows", "save_changed", "the changed columns noted"),
    ("core.rows", "_flush", "the held writes sent"),
    ("django.db.backends.base.base", "BaseDatabaseWrapper._commit", "COMMIT"),
    ("matches.events", "broadcast", "the change's snapshots rendered"),
    ("matches.selectors", "_render", "  one viewer's snapshot"),
    ("matches.selectors", "_game_snapshot", "    its game part"),
    ("matches.selectors", "allowed", "    what the viewer may do"),
    ("core.live", "frame_text", "the frames encoded"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--profile", metavar="FILE")
    parser.add_argument("--parts", action="store_true", help="CPU an action by part (PARTS)")
    args = parser.parse_args()
    from benchdb import drop_database, fresh_database

    fresh_database(DATABASE)
    try:
        return run(args)
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(DATABASE)


def run(args: Any) -> int:
    import django

    django.setup()
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from accounts.services import user_create
    from core import live
    from matches import creation, presence
    from matches.actions import PlayerAction
    from matches.models import ClockKind, ClockSettings
    from matches.play import action_submit
    from matches.selectors import match_snapshot, visible_matches
    from tests.integration.matches.helpers import quick_play

    users = {}
    turns = {}
    for number in range(args.matches):
        alice = user_create(username=f"a{number}", password="bench-password-1")
        bruno = user_create(username=f"b{number}", password="bench-password-1")
        watcher = user_create(username=f"w{number}", password="bench-password-1")
        match = creation.match_challenge(
            challenger=alice,
            opponent=bruno,
            length=25,
            rated=False,
            clock_settings=ClockSettings(kind=ClockKind.NONE),
        )
        creation.match_accept(match_id=match.pk, user=bruno)
        for who, user in ((0, alice), (1, bruno), (None, watcher)):
            presence.connection_open(match_id=match.pk, user=user, channel=f"c{match.pk}.{who}")
        users[match.pk] = (alice, bruno)
        shown = visible_matches(user=None).get(pk=match.pk)
        first = {
            key: orjson.dumps({"state": match_snapshot(shown, viewer=viewer)})
            for key, viewer in (("0", alice), ("1", bruno), ("watcher", None))
        }
        turns[match.pk] = {"seq": [0, 0], "frames": first}

    parts = _timed_parts() if args.parts else None
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    spent = 0.0
    batches: list[float] = []  # CPU an action, batch by batch of BATCH actions
    batch = 0.0
    done = 0
    frames = 0
    while done < args.actions:
        for match_id, turn in turns.items():
            seat, action, play = _next(turn, quick_play)
            if seat is None:
                continue
            turn["seq"][seat] += 1
            user = users[match_id][seat]
            started = time.process_time()
            if profiler is not None:
                profiler.enable()
            with live.collected() as sends:
                action_submit(
                    match_id=match_id,
                    user=user,
                    action=PlayerAction(action),
                    seq=turn["seq"][seat],
                    play=play,
                )
            if profiler is not None:
                profiler.disable()
            cpu = time.process_time() - started
            spent += cpu
            batch += cpu
            done += 1
            if done % BATCH == 0:
                batches.append(batch / BATCH)
                batch = 0.0
            changed = [event for _, event in sends if event["type"] == "match.changed"]
            frames += sum(len(event["frames"]) for event in changed)
            turn["frames"] = changed[-1]["frames"]
    print(f"{done} actions, {frames / done:.2f} frames rendered an action")
    print(f"CPU an action in the action and its frames: {spent / done * 1000:.3f} ms", end="")
    if batches:
        batches.sort()
        print(
            f"; by {BATCH} actions, the least {batches[0] * 1000:.3f} ms,"
            f" the median {batches[len(batches) // 2] * 1000:.3f} ms"
        )
    if parts is not None:
        for _, _, label in PARTS:
            print(f"  {label:45s} {parts[label] / done * 1000:7.3f} ms an action")
    if profiler is not None:
        profiler.dump_stats(args.profile)
        stats = pstats.Stats(args.profile)
        stats.sort_stats("cumulative").print_stats(45)
        stats.sort_stats("tottime").print_stats(30)
    return 0


def _timed_parts() -> Counter[str]:
    """Wrap each of ``PARTS`` to add its calls' CPU to the counter returned, by label."""
    spent: Counter[str] = Counter()

    def timed(original: Callable[..., Any], label: str) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent[label] += time.process_time() - started

        return wrapper

    for module_name, name, label in PARTS:
        owner: Any = importlib.import_module(module_name)
        *classes, attribute = name.split(".")
        for class_name in classes:
            owner = getattr(owner, class_name)
        setattr(owner, attribute, timed(getattr(owner, attribute), label))
    return spent


def _next(turn: dict[str, Any], quick_play: Any) -> tuple[int | None, str, str | None]:
    """Who acts next and how, read from the frames of the last change (a roll, or a play)."""
    state = orjson.loads(turn["frames"]["watcher"])["state"]
    game = state["game"]
    if state["status"] != "playing" or game is None:
        return None, "", None
    seat = game["turn_seat"]
    if game["phase"] == "roll":
        return seat, "roll", None
    if game["phase"] == "move":
        mine = orjson.loads(turn["frames"][str(seat)])["state"]["game"]
        return seat, "play", quick_play(mine["legal_plays"])
    return None, "", None


if __name__ == "__main__":
    sys.exit(main())
