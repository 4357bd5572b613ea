"""Request loop run inside GNU Backgammon's embedded Python.

Started by :mod:`analysis.gnubg_process` as ``gnubg -t -q -r -p gnubg_server.py`` (Debian's
program), or as ``python gnubg_server.py`` where the ``gnubg`` Python package is installed (the
same engine and command interpreter as a module); it is never imported by the platform
itself. It reads one JSON request per line on stdin and writes one
JSON answer per line on the original stdout. Everything GNU Backgammon prints itself (boards,
messages) is sent to /dev/null so it can never be mistaken for an answer.

Terms used here, as GNU Backgammon uses them:

- *board*: a pair of 25-tuples, ``(opponent, player on roll)``, checkers on points 1..24 seen
  from each side's own home board, index 24 being the bar.
- *cube info*: cube value and owner, who is on roll, match length and score, Crawford flag,
  Jacoby and beaver rules, gammon prices.
- *eval context*: depth in plies, cubeful or cubeless, pruning, noise, determinism.
- *no double / double take / double pass*: the cubeful equities of the three cube actions,
  from the view of the player on roll, normalised to the current cube value; the *optimal*
  equity is the one reached when both sides act correctly.

Answers: ``{"ok": true, "result": {...}}`` or ``{"ok": false, "error": "...", "kind":
"invalid_position" | "invalid_match" | "internal"}``. The first line written is ``{"ready":
true, ...}``. The Python package lacks two functions of the program's module
(``cfevaluate``, ``calcgammonprice``); there the cube's equities are read from its own
``eval`` command, the same evaluation printed (:mod:`analysis.gnubg_package_eval`). Match
analysis (``analyse_match``) lives in :mod:`analysis.gnubg_match_analysis`,
loaded beside this script; its result goes marshalled (:data:`MARSHALLED`).
"""

import base64
import importlib
import importlib.util
import json
import marshal
import os
import random
import sys
import traceback
from collections.abc import Callable
from typing import Any

gnubg: Any = importlib.import_module("gnubg")
# Debian's program embeds a module with ``cfevaluate``; the Python package has none.
PACKAGE = not hasattr(gnubg, "cfevaluate")

DEFAULT_MET = "/usr/share/gnubg/met/Kazaross-XG2.xml"
MARSHALLED = "marshal_base64"
"""A whole match's analysis is a megabyte of dicts, lists and floats: written as JSON, its
floats' decimal text cost as much as the rest of the dump. It goes as Python's ``marshal``
bytes in base64 instead (exact floats, tuples kept as the program gives them). Both ends are
the same Python (3.11: the project pins it, and Debian's program embeds it), whose marshal
format for plain data has not changed since 3.4; only this process's own answer is read so."""


class InvalidPosition(Exception):
    """The request names a position GNU Backgammon does not accept."""


def eval_context(plies: int) -> dict[str, Any]:
    return {"cubeful": 1, "plies": int(plies), "prune": 1, "deterministic": 1, "noise": 0.0}


def set_position(gnubg_id: str) -> None:
    """Make ``gnubg_id`` the current position, refusing IDs the program rejects.

    ``set gnubgid`` leaves the old position (or the old match state) in place when a part is
    illegal, so the current ID is compared with the one asked for.
    """
    position_id, _, match_id = gnubg_id.partition(":")
    gnubg.command("set gnubgid " + gnubg_id)
    if gnubg.positionid() != position_id or gnubg.matchid() != match_id:
        raise InvalidPosition(f"GNU Backgammon does not accept the GNUBG ID {gnubg_id!r}")


def current_cube_info(jacoby: bool, beavers: bool) -> dict[str, Any]:
    """The cube info of the current position with the money rules asked for.

    The program's own ``eval`` takes Jacoby from the session and beavers from the global
    setting; both are set explicitly here, and gammon prices recomputed for them.
    """
    if PACKAGE:
        return dict(package_eval().cube_info(gnubg, jacoby=jacoby, beavers=beavers))
    cube_info = dict(gnubg.cubeinfo())
    money = cube_info["matchto"] == 0
    cube_info["jacoby"] = int(jacoby and money)
    cube_info["beavers"] = int(beavers and money)
    return dict(gnubg.calcgammonprice(cube_info))


def set_position_and_rules(gnubg_id: str, jacoby: bool, beavers: bool) -> dict[str, Any]:
    """The position made current and its cube info under the money rules asked for.

    The Python package's ``eval`` takes the Jacoby rule from the Match ID and beavers from
    the program's setting, so both are set with the position there.
    """
    if PACKAGE:
        gnubg_id = package_eval().with_money_rules(gnubg, gnubg_id, jacoby=jacoby, beavers=beavers)
    set_position(gnubg_id)
    return current_cube_info(jacoby, beavers)


def cube_equities(board: Any, cube_info: dict[str, Any], plies: int) -> tuple[Any, ...]:
    """``(optimal, no double, double take, double pass, _, action)`` as ``cfevaluate``."""
    if PACKAGE:
        return tuple(package_eval().cube_equities(gnubg, plies))
    return tuple(gnubg.cfevaluate(board, cube_info, eval_context(plies)))


def evaluate(request: dict[str, Any]) -> dict[str, Any]:
    cube_info = set_position_and_rules(
        request["gnubg_id"], request.get("jacoby", False), request.get("beavers", False)
    )
    context = eval_context(request["plies"])
    board = gnubg.board()
    probabilities = gnubg.evaluate(board, cube_info, context)
    cube = cube_equities(board, cube_info, request["plies"])
    optimal, no_double, double_take, double_pass = (float(x) for x in cube[:4])
    match_play = cube_info["matchto"] > 0
    cubeless_equity = float(probabilities[5])
    return {
        "player_on_roll": int(cube_info["move"]),
        "match_length": int(cube_info["matchto"]),
        "score": [int(points) for points in cube_info["score"]],
        "crawford": bool(cube_info["crawford"]),
        "cube_value": int(cube_info["cube"]),
        "cube_owner": int(cube_info["cubeowner"]),
        "probabilities": [float(x) for x in probabilities[:5]],
        "cubeless_equity": cubeless_equity,
        "optimal": optimal,
        "no_double": no_double,
        "double_take": double_take,
        "double_pass": double_pass,
        "cube_action": str(cube[5]),
        "mwc": float(gnubg.eq2mwc(optimal, cube_info)) if match_play else None,
        "cubeless_mwc": float(gnubg.eq2mwc(cubeless_equity, cube_info)) if match_play else None,
        "jacoby": bool(cube_info["jacoby"]),
        "beavers": bool(cube_info["beavers"]),
    }


def apply_move(board: Any, move_text: str) -> tuple[list[int], list[int]]:
    """The board after ``move_text``, still seen by the player who moved."""
    opponent = list(board[0])
    mover = list(board[1])
    for source, target in gnubg.parsemove(move_text):
        mover[source - 1] -= 1
        if target > 0:
            mover[target - 1] += 1
            if opponent[24 - target] == 1:
                opponent[24 - target] = 0
                opponent[24] += 1
    return opponent, mover


def noise_source(request: dict[str, Any]) -> Callable[[float], float]:
    """Adds normal noise of the requested deviation, drawn from the requested seed."""
    rng = random.Random(request.get("seed"))
    deviation = float(request.get("noise", 0.0))

    def noisy(equity: float) -> float:
        return equity + rng.gauss(0.0, deviation) if deviation > 0 else equity

    return noisy


def best_move(request: dict[str, Any]) -> dict[str, Any]:
    """Candidate plays ranked at the requested depth; the one that looks best after noise."""
    set_position(request["gnubg_id"])
    die1, die2 = (int(d) for d in request["dice"])
    gnubg.command(f"set dice {die1} {die2}")
    if sorted(gnubg.posinfo()["dice"]) != sorted((die1, die2)):
        raise InvalidPosition(f"{request['gnubg_id']!r} is not a position to roll {die1}-{die2} in")
    gnubg.command(f"set evaluation chequerplay evaluation plies {int(request['plies'])}")
    board = gnubg.board()
    if PACKAGE:  # the package's ``hint`` answers a broken structure; its move finder does not
        jacoby = package_eval().jacoby_of(request["gnubg_id"])
        cube_info = package_eval().cube_info(gnubg, jacoby=jacoby, beavers=False)
        ranked = gnubg.findbestmoves(board, cube_info, eval_context(request["plies"]), (die1, die2))
        candidates = [
            (gnubg.movetupletostring(entry["move"], board), float(entry["score"]))
            for entry in ranked
        ]
    else:
        candidates = [(entry["move"], float(entry["equity"])) for entry in gnubg.hint(1000)["hint"]]
    if not candidates:
        return {"move": None, "position_id": gnubg.positionid(board), "equity": None}
    noisy = noise_source(request)
    move, equity = max(candidates, key=lambda candidate: noisy(candidate[1]))
    return {
        "move": move,
        "position_id": gnubg.positionid(apply_move(board, move)),
        "equity": equity,
        "best_move": candidates[0][0],
        "best_equity": candidates[0][1],
    }


def cube_decision(request: dict[str, Any]) -> dict[str, Any]:
    """Double or not for the player on roll, take or pass for the opponent, after noise."""
    cube_info = set_position_and_rules(
        request["gnubg_id"], request.get("jacoby", False), request.get("beavers", False)
    )
    cube = cube_equities(gnubg.board(), cube_info, request["plies"])
    optimal, no_double, double_take, double_pass = (float(x) for x in cube[:4])
    noisy = noise_source(request)
    no_double_seen, take_seen, pass_seen = noisy(no_double), noisy(double_take), noisy(double_pass)
    cube_available = cube_info["cubeowner"] in (-1, cube_info["move"]) and not cube_info["crawford"]
    return {
        "double": cube_available and min(take_seen, pass_seen) > no_double_seen,
        "take": take_seen <= pass_seen,
        "optimal": optimal,
        "no_double": no_double,
        "double_take": double_take,
        "double_pass": double_pass,
        "cube_action": str(cube[5]),
    }


def load_beside(name: str) -> Any:
    """A module of :mod:`analysis` (``gnubg_match_analysis``, ``gnubg_package_eval``), found
    through the folder the parent names.

    The embedded interpreter gives this script no ``__file__``, so the folder comes from
    ``CRAWFORD_ANALYSIS_DIR``; each is loaded on first use only.
    """
    if name not in sys.modules:
        path = os.path.join(os.environ["CRAWFORD_ANALYSIS_DIR"], name + ".py")
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return sys.modules[name]


def package_eval() -> Any:
    return load_beside("gnubg_package_eval")


def analyse_match(request: dict[str, Any]) -> dict[str, Any]:
    """The match's analysis, marshalled (see :data:`MARSHALLED`)."""
    module = load_beside("gnubg_match_analysis")
    result: dict[str, Any] = module.analyse_match(
        gnubg, request, progress=report, evaluate=evaluate
    )
    return {MARSHALLED: base64.b64encode(marshal.dumps(result)).decode("ascii")}


def report(done: int, total: int) -> None:
    """A progress line while a request runs (``serve`` sets where it goes)."""
    _progress_out({"progress": [done, total]})


def _progress_out(payload: dict[str, Any]) -> None:
    raise AssertionError("serve() sets this before any request")


def setup(met_path: str) -> dict[str, Any]:
    gnubg.command("set display off")
    if PACKAGE:
        package_eval().setup(gnubg)
    gnubg.command("set matchequitytable " + met_path)
    first_line = gnubg.show("matchequitytable").splitlines()[0]
    ready = {"met": first_line.partition(":")[2].strip(), "met_path": met_path}
    if PACKAGE:
        ready["version"] = str(gnubg.version)
    return ready


HANDLERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "evaluate": evaluate,
    "best_move": best_move,
    "cube_decision": cube_decision,
    "analyse_match": analyse_match,
}


def serve() -> None:
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    sys.stdout.flush()
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)

    def answer(payload: dict[str, Any]) -> None:
        answers.write(json.dumps(payload) + "\n")
        answers.flush()

    global _progress_out
    _progress_out = answer
    answer({"ready": True, **setup(os.environ.get("CRAWFORD_GNUBG_MET", DEFAULT_MET))})
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            result = HANDLERS[request["op"]](request)
        except InvalidPosition as error:
            answer({"ok": False, "kind": "invalid_position", "error": str(error)})
        except Exception as error:
            # A match file the program cannot read says so by its kind; anything else is ours.
            kind = getattr(error, "kind", "internal")
            if kind == "internal":
                traceback.print_exc(file=sys.stderr)
            answer({"ok": False, "kind": kind, "error": f"{type(error).__name__}: {error}"})
        else:
            answer({"ok": True, "result": result})


serve()
