"""Rollouts by GNU Backgammon: a position played out many times, with the program's own numbers.

The embedded Python of Debian's ``gnubg`` (1.07) has no rollout function, and the program's
``rollout`` command prints its results only when its output is a terminal. So a rollout
starts the program once under a pseudo-terminal, gives it the settings and the position,
and reads the final table it prints. Rollouts take seconds to minutes: they are an option
for staff and the command line, never part of automatic adjudication.

All figures are from the view of the player on roll in the Match ID, per unit cube;
``cubeful_equity`` is the normalised cubeful equity (in match play too, where GNU
Backgammon normalises it against the match equity table).
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import time
from dataclasses import asdict, dataclass
from typing import Any

from analysis.engine import EngineError, EngineTimeout
from analysis.gnubg_process import GNUBG_EXECUTABLE, check_gnubg_id

ROLLOUT_PLIES = (0, 1, 2)
MAX_TRIALS = 46_656

_NUMBER = r"([+-]?\d+\.\d+)"
_RESULT = re.compile(
    r"^\s*" + r" ".join([_NUMBER] * 3) + r" - " + r" ".join([_NUMBER] * 3)
    + r" CL\s+" + _NUMBER + r" CF\s+" + _NUMBER,
    re.MULTILINE,
)  # fmt: skip
_ERRORS = re.compile(
    r"^\s*\[" + r" ".join([_NUMBER] * 3) + r" - " + r" ".join([_NUMBER] * 3)
    + r" CL\s+" + _NUMBER + r" CF\s+" + _NUMBER + r"\]",
    re.MULTILINE,
)  # fmt: skip
_GAMES = re.compile(r"^(\d+) games, ", re.MULTILINE)
_VERSION = re.compile(r"GNU Backgammon (\d\S*)")
_DONE = "Rollout done."
_FIELDS = (
    "win",
    "win_gammon",
    "win_backgammon",
    "lose",
    "lose_gammon",
    "lose_backgammon",
    "cubeless_equity",
    "cubeful_equity",
)


@dataclass(frozen=True)
class RolloutSettings:
    """How many games, how deep the checker play and cube decisions in them, which dice.

    Cubeful, with variance reduction and quasi-random dice, as the program's defaults; the
    seed makes a rollout repeatable.
    """

    trials: int = 1296
    plies: int = 0
    seed: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.trials <= MAX_TRIALS:
            raise ValueError(f"trials must be 1 to {MAX_TRIALS:,}, not {self.trials}")
        if self.plies not in ROLLOUT_PLIES:
            raise ValueError(f"rollout plies must be 0, 1 or 2, not {self.plies}")
        if self.seed < 0:
            raise ValueError(f"the seed must not be negative, not {self.seed}")

    def commands(self, gnubg_id: str) -> str:
        return "\n".join(
            [
                "set output mwc off",
                f"set rollout trials {self.trials}",
                f"set rollout seed {self.seed}",
                "set rollout cubeful on",
                "set rollout varredn on",
                "set rollout quasirandom on",
                f"set rollout chequerplay plies {self.plies}",
                f"set rollout cubedecision plies {self.plies}",
                f"set gnubgid {gnubg_id}",
                "rollout",
                "",
            ]
        )


@dataclass(frozen=True)
class Rollout:
    """The result: each figure's mean and standard error over ``trials`` games."""

    gnubg_id: str
    trials: int
    win: float
    win_gammon: float
    win_backgammon: float
    lose: float
    lose_gammon: float
    lose_backgammon: float
    cubeless_equity: float
    cubeful_equity: float
    standard_errors: dict[str, float]
    settings: RolloutSettings
    engine: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_rollout_output(text: str, *, gnubg_id: str, settings: RolloutSettings) -> Rollout:
    """Read the final table the program prints after "Rollout done."."""
    version = _VERSION.search(text)
    done = text.rfind(_DONE)
    if done < 0:
        raise EngineError(f"GNU Backgammon did not finish the rollout: {text[-500:]!r}")
    final = text[done:]
    result, errors, games = _RESULT.search(final), _ERRORS.search(final), _GAMES.search(final)
    if result is None or errors is None or games is None:
        raise EngineError(f"GNU Backgammon's rollout table was not found in {final[:500]!r}")
    means = dict(zip(_FIELDS, (float(value) for value in result.groups()), strict=True))
    return Rollout(
        gnubg_id=gnubg_id,
        trials=int(games.group(1)),
        **means,
        standard_errors=dict(
            zip(_FIELDS, (float(value) for value in errors.groups()), strict=True)
        ),
        settings=settings,
        engine=f"GNU Backgammon {version.group(1) if version else 'unknown'}",
    )


def rollout(
    gnubg_id: str,
    settings: RolloutSettings | None = None,
    *,
    executable: str = GNUBG_EXECUTABLE,
    timeout: float = 900.0,
) -> Rollout:
    """Roll ``gnubg_id`` out with GNU Backgammon; raises EngineTimeout past ``timeout``."""
    check_gnubg_id(gnubg_id)
    settings = settings or RolloutSettings()
    if not os.path.exists(executable):
        raise EngineError(f"GNU Backgammon is not installed at {executable}: apt-get install gnubg")
    text = _run_under_terminal(
        [executable, "-t", "-q", "-r"], settings.commands(gnubg_id), timeout=timeout
    )
    return parse_rollout_output(text, gnubg_id=gnubg_id, settings=settings)


def _run_under_terminal(argv: list[str], commands: str, *, timeout: float) -> str:
    """Run ``argv`` with ``commands`` on its input and a pseudo-terminal as its output."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=follower, stderr=follower, close_fds=True
    )
    os.close(follower)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        assert process.stdin is not None
        process.stdin.write(commands.encode())
        process.stdin.close()  # the program quits at the end of its input
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineTimeout(f"the rollout did not finish within {timeout:.0f} s")
            ready, _, _ = select.select([leader], [], [], min(left, 1.0))
            if not ready:
                continue
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the program closed the terminal: it has exited
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(leader)
        if process.poll() is None:
            process.kill()
        process.wait()
    return b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
