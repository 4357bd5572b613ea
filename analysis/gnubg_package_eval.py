"""The cube's equities where GNU Backgammon runs as the ``gnubg`` Python package.

Loaded by :mod:`analysis.gnubg_server` when its ``gnubg`` module is the Python package, which
has no ``cfevaluate`` and no ``calcgammonprice``; the ``gnubg`` module is passed in, so this
file imports nothing of the engine and nothing of Django.

The package's ``eval`` command prints the evaluation the program's ``cfevaluate`` returns:
the cubeless and cubeful equities at each depth and, when the player on roll may double,
the cubeful equities of no double, double/take and double/pass and the proper cube action.
Those lines are read here, printed with six decimals, as money equities (EMG in match play),
the Jacoby rule taken from the Match ID (bit 66, written inverted: set means off) and
beavers from the program's setting, both set here before the position.

Terms: *ND*, *DT*, *DP*: the cubeful equities of no double, double/take, double/pass, from
the view of the player on roll, per unit of the current cube; *optimal*: the one reached
when both sides act correctly.
"""

import base64
import ctypes
import os
import re
import tempfile
from typing import Any

_EVALUATION_LINE = re.compile(r"^\s*(?:static|\d+ ply):\s+(.*)$")
_CUBE_LINE = re.compile(
    r"^\d\.\s+(No double|Double, take|Double, beaver|Double, pass)\s+([-+]\d+\.\d+)"
)
_PROPER = re.compile(r"^Proper cube action:\s+(.*?)(?:\s+\([\d.]+%\))?\s*$")
_CUBE_ACTIONS = {
    "No double": "no double",
    "Double, take": "take",
    "Double, beaver": "take",
    "Double, pass": "pass",
}
_JACOBY_OFF_BYTE, _JACOBY_OFF_MASK = 66 // 8, 1 << (66 % 8)
_CUBE_UNAVAILABLE = "No double (the cube is not available)"


class PackageOutputError(Exception):
    """The package's ``eval`` printed something this module cannot read."""


def setup(gnubg: Any) -> None:
    """Settings the reading relies on.

    One thread: the package's evaluation threads never finish a cube decision (the ``eval``
    of a 2-ply cube decision waits for ever with the default number of threads). No
    evaluation cache: the package's serves a match position the evaluation of a money
    position evaluated before it (a 1-point match's equity read as +0.99 after the opening
    in money play), which costs about twice the time of a cached 2-ply evaluation.
    """
    gnubg.command("set threads 1")
    gnubg.command("set cache 0")
    gnubg.command("set output digits 6")
    gnubg.command("set output mwc off")
    for decision in ("chequerplay", "cubedecision"):
        prefix = f"set evaluation {decision} evaluation"
        gnubg.command(f"{prefix} cubeful on")
        gnubg.command(f"{prefix} prune on")
        gnubg.command(f"{prefix} deterministic on")
        gnubg.command(f"{prefix} noise 0")


def with_money_rules(gnubg: Any, gnubg_id: str, *, jacoby: bool, beavers: bool) -> str:
    """``gnubg_id`` with the Jacoby rule asked for, beavers set for the next evaluation."""
    gnubg.command("set beavers " + ("1" if beavers else "0"))
    position_id, _, match_id = gnubg_id.partition(":")
    return f"{position_id}:{_with_jacoby(match_id, jacoby)}"


def _with_jacoby(match_id: str, jacoby: bool) -> str:
    key = _match_key(match_id)
    if key is None:
        return match_id  # not a Match ID: the program refuses it in its own words
    key[_JACOBY_OFF_BYTE] &= ~_JACOBY_OFF_MASK & 0xFF
    if not jacoby:
        key[_JACOBY_OFF_BYTE] |= _JACOBY_OFF_MASK
    return base64.b64encode(bytes(key)).decode()


def jacoby_of(gnubg_id: str) -> bool:
    """Whether the GNUBG ID plays money under the Jacoby rule (its bit 66 clear)."""
    key = _match_key(gnubg_id.partition(":")[2])
    return key is None or not key[_JACOBY_OFF_BYTE] & _JACOBY_OFF_MASK


def _match_key(match_id: str) -> bytearray | None:
    try:
        key = bytearray(base64.b64decode(match_id, validate=True))
    except ValueError:
        return None
    return key if len(key) == 9 else None


def cube_info(gnubg: Any, *, jacoby: bool, beavers: bool) -> dict[str, Any]:
    """The current position's cube info with the money rules asked for.

    The package's ``cubeinfo`` keeps money play's defaults; its gammon prices are worked
    out here as the program does for money play (gammons and backgammons count one more
    point each, none while the cube is centred under the Jacoby rule).
    """
    info = dict(gnubg.cubeinfo())
    if info["matchto"] != 0:
        return info
    info["jacoby"], info["beavers"] = int(jacoby), int(beavers)
    price = 0.0 if jacoby and info["cubeowner"] == -1 else 1.0
    info["gammonprice"] = ((price, price), (price, price))
    return info


def cube_equities(gnubg: Any, plies: int) -> tuple[float, float, float, float, int, str]:
    """``(optimal, ND, DT, DP, 0, proper action)`` as the program's ``cfevaluate`` gives."""
    gnubg.command(f"set evaluation cubedecision evaluation plies {int(plies)}")
    return read_eval(printed(gnubg, "eval"))


def read_eval(text: str) -> tuple[float, float, float, float, int, str]:
    """The cube's equities from the text of ``eval``.

    Without a cube analysis (the cube is dead, or not the player's to turn) no double is the
    only action: the cubeful equity of the deepest evaluation stands for all three.
    """
    lines = [line.rstrip() for line in text.splitlines()]
    deepest = [m.group(1).split() for line in lines if (m := _EVALUATION_LINE.match(line))]
    if not deepest:
        raise PackageOutputError("eval printed no evaluation: " + text[-500:])
    no_double = float(deepest[-1][-1])
    cube: dict[str, float] = {}
    proper = ""
    for line in lines:
        if m := _CUBE_LINE.match(line.strip()):
            cube[_CUBE_ACTIONS[m.group(1)]] = float(m.group(2))
        elif m := _PROPER.match(line.strip()):
            proper = m.group(1)
    if not cube:  # as the program's: a take keeps the game as it is, a pass is never right
        return (no_double, no_double, no_double, 1.0, 0, _CUBE_UNAVAILABLE)
    if set(cube) != {"no double", "take", "pass"} or not proper:
        raise PackageOutputError("eval printed an incomplete cube analysis: " + text[-500:])
    nd, dt, dp = cube["no double"], cube["take"], cube["pass"]
    return (max(nd, min(dt, dp)), nd, dt, dp, 0, proper)


def printed(gnubg: Any, command: str) -> str:
    """What ``command`` prints on standard output (file descriptor 1), caught in a file."""
    libc = ctypes.CDLL(None)
    libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as caught:
        os.dup2(caught.fileno(), 1)
        try:
            gnubg.command(command)
        finally:
            libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        caught.seek(0)
        return caught.read()
