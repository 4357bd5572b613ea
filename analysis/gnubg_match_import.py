"""One match file imported by GNU Backgammon and written back as .mat, run inside the program.

Started by :mod:`analysis.match_import` as ``gnubg -t -q -r -p gnubg_match_import.py``
(Debian's program) or ``python gnubg_match_import.py`` (the ``gnubg`` Python package); it
is never imported by the platform itself. It reads one JSON request on stdin, ``{"command":
"import sgg", "path": ..., "export": ...}``, runs the command on the file, and when a match
was read writes it with ``export match mat`` to ``export``. It answers with one JSON line
on the original stdout: ``{"ok": true, "info": ..., "games": n, "set_up": ...}`` (``info``:
the match information ``gnubg.match()`` gives: names, length, rules, variation; ``set_up``:
whether a game starts from a position set up rather than the opening), or ``{"ok": false}``
when the program read no match; what the program said about the file is on stderr.
"""

import importlib
import json
import os
import sys
from typing import Any

gnubg: Any = importlib.import_module("gnubg")


def imported(request: dict[str, Any]) -> dict[str, Any]:
    gnubg.command("set display off")
    gnubg.command("set confirm new off")
    gnubg.command(f'{request["command"]} "{request["path"]}"')
    try:
        match = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    except Exception:  # the program has no match to give: it read none
        match = None
    if not match or not match.get("games"):
        return {"ok": False}
    gnubg.command(f'export match mat "{request["export"]}"')
    info = {key: value for key, value in match["match-info"].items() if key != "date"}
    set_up = any(
        action.get("action") == "set" and "board" in action
        for game in match["games"]
        for action in game["game"]
    )
    return {"ok": True, "info": info, "games": len(match["games"]), "set_up": set_up}


def main() -> None:
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    sys.stdout.flush()
    # what the program prints itself is sent to stderr, where the caller reads its reasons
    os.dup2(2, 1)
    request = json.loads(sys.stdin.readline())
    answers.write(json.dumps(imported(request)) + "\n")
    answers.flush()


main()
