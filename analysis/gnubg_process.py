"""GNU Backgammon as one warm process, driven through its embedded Python.

The Debian program ``/usr/games/gnubg`` is started once as::

    gnubg -t -q -r -p analysis/gnubg_server.py

(text mode, quiet, no ``.gnubgrc``, run the script), or, where only the ``gnubg`` Python
package is installed, this Python runs the same script with the package as its ``gnubg``
module; :mod:`analysis.gnubg_found` chooses. The script reads one JSON request per
line on stdin and answers one JSON line on stdout; see :mod:`analysis.gnubg_server`. The
numbers are therefore GNU Backgammon's own: the same functions its ``eval`` command uses
(cubeful evaluation, its match equity table, its equity to MWC conversion).

:class:`GnubgProcess` is safe to share between threads (one request at a time, under a
lock), starts the program on first use, starts it again when it has died, gives up on an
answer after a timeout (and kills the program, whose state is then unknown), and is closed
with :meth:`GnubgProcess.close` or a ``with`` block.
"""

from __future__ import annotations

import base64
import collections
import json
import marshal
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import IO, Any

from analysis.engine import (
    CubeDecision,
    CubeEquities,
    EngineError,
    EngineInfo,
    EngineTimeout,
    EngineUnavailable,
    EvalSettings,
    Evaluation,
    InvalidMatchError,
    InvalidPositionError,
    MoveChoice,
    PlayerOutlook,
    Strength,
)
from analysis.gnubg_found import GNUBG_EXECUTABLE, SERVER_SCRIPT, EngineStatus, gnubg_found
from analysis.match_analysis import MatchAnalysis, match_analysis
from analysis.rules_as_played import RulesAsPlayed

MARSHALLED = "marshal_base64"
"""The key of a match analysis's answer: marshal bytes in base64 (``gnubg_server.MARSHALLED``)."""

__all__ = ["GNUBG_EXECUTABLE", "SERVER_SCRIPT", "GnubgProcess", "check_gnubg_id"]
GNUBG_ID = re.compile(r"^[A-Za-z0-9+/]{14}:[A-Za-z0-9+/]{12}$")
_VERSION = re.compile(r"^GNU Backgammon (\S+)")
_MAT_ROLL = re.compile(r"\b[1-6][1-6]:")

Progress = Callable[[int, int], None]
"""Told ``(actions analysed, actions in the match)`` while a match is analysed."""
ANALYSIS_SECONDS_PER_ROLL = {0: 0.02, 1: 0.2, 2: 1.0, 3: 10.0, 4: 60.0}
"""A generous bound on ``analyse match``'s time per roll at each depth, from which a match's
timeout is worked out (a 7-point match of 301 rolls took 0.002, 0.004 and 0.06 s a roll at
0, 1 and 2 plies)."""


def check_gnubg_id(gnubg_id: str) -> str:
    if not GNUBG_ID.match(gnubg_id):
        raise InvalidPositionError(
            f"{gnubg_id!r} is not a GNUBG ID (14 characters of Position ID, a colon, "
            "12 characters of Match ID)"
        )
    return gnubg_id


class GnubgProcess:
    """The :class:`analysis.engine.Engine` backed by one long-running GNU Backgammon."""

    def __init__(
        self,
        executable: str = GNUBG_EXECUTABLE,
        *,
        choice: str = "auto",
        python: str = sys.executable,
        met_path: str | None = None,
        timeout: float = 120.0,
        start_timeout: float = 30.0,
        on_call: Callable[[str, float, bool], None] | None = None,
    ) -> None:
        """``executable``: Debian's program; ``python``: the Python that imports the
        package; ``choice``: which of them (:mod:`analysis.gnubg_found`); ``met_path``: the
        match equity table, the engine's own copy of Kazaross XG2 when None.
        ``on_call(request, seconds, answered)`` is told of every request when it ends."""
        self.executable = executable
        self.choice = choice
        self.python = python
        self.on_call = on_call
        self.met_path = met_path
        self.timeout = timeout
        self.start_timeout = start_timeout
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._answers: queue.Queue[str | None] = queue.Queue()
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=40)
        self._info: EngineInfo | None = None

    def __enter__(self) -> GnubgProcess:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The process id of the running program, or None when none runs."""
        with self._lock:
            process = self._process
            return process.pid if process is not None and process.poll() is None else None

    @property
    def info(self) -> EngineInfo:
        with self._lock:
            self._ensure_started()
            assert self._info is not None
            return self._info

    def status(self) -> EngineStatus:
        """The engine this process starts, or why there is none (without starting it)."""
        return gnubg_found(self.choice, executable=self.executable, python=self.python)

    def start(self) -> None:
        with self._lock:
            self._ensure_started()

    def close(self) -> None:
        with self._lock:
            self._stop()

    def evaluate(self, gnubg_id: str, settings: EvalSettings | None = None) -> Evaluation:
        settings = settings or EvalSettings()
        answer = self._request(
            {
                "op": "evaluate",
                "gnubg_id": check_gnubg_id(gnubg_id),
                "plies": settings.plies,
                "jacoby": settings.jacoby,
                "beavers": settings.beavers,
            }
        )
        return _evaluation(gnubg_id, settings, answer, self.info)

    def best_move(
        self, gnubg_id: str, dice: tuple[int, int], strength: Strength, *, seed: int | None = None
    ) -> MoveChoice:
        if not all(1 <= die <= 6 for die in dice) or len(dice) != 2:
            raise InvalidPositionError(f"{dice!r} are not two dice")
        answer = self._request(
            {
                "op": "best_move",
                "gnubg_id": check_gnubg_id(gnubg_id),
                "dice": list(dice),
                "plies": strength.plies,
                "noise": strength.noise,
                "seed": seed,
            }
        )
        return MoveChoice(
            gnubg_id=gnubg_id,
            dice=(dice[0], dice[1]),
            strength=strength,
            move=answer["move"],
            position_id=answer["position_id"],
            equity=answer["equity"],
            best_move=answer.get("best_move"),
            best_equity=answer.get("best_equity"),
            engine=self.info,
        )

    def cube_decision(
        self, gnubg_id: str, strength: Strength, *, seed: int | None = None
    ) -> CubeDecision:
        answer = self._request(
            {
                "op": "cube_decision",
                "gnubg_id": check_gnubg_id(gnubg_id),
                "plies": strength.plies,
                "noise": strength.noise,
                "seed": seed,
            }
        )
        return CubeDecision(
            gnubg_id=gnubg_id,
            strength=strength,
            double=bool(answer["double"]),
            take=bool(answer["take"]),
            equities=_cube_equities(answer),
            engine=self.info,
        )

    def analyse_match(
        self,
        mat_text: str,
        *,
        plies: int,
        on_progress: Progress | None = None,
        rules: RulesAsPlayed | None = None,
    ) -> MatchAnalysis:
        """GNU Backgammon's ``analyse match`` of a .mat text at ``plies`` for both decisions.

        The time allowed grows with the number of rolls in the match; see
        :mod:`analysis.match_analysis` for what the result holds. ``on_progress(done,
        total)`` is called as each game is done, with the actions analysed so far.
        ``rules``: what the file cannot say of a match played here (automatic doubles, the
        match cube), :mod:`analysis.rules_as_played`.
        """
        if plies not in ANALYSIS_SECONDS_PER_ROLL:
            raise ValueError(f"analysis depth must be 0 to 4 plies, not {plies}")
        rolls = len(_MAT_ROLL.findall(mat_text))
        played = (rules or RulesAsPlayed()).request()
        answer = self._request(
            {"op": "analyse_match", "mat": mat_text, "plies": plies, **played},
            timeout=self.timeout + rolls * ANALYSIS_SECONDS_PER_ROLL[plies],
            on_progress=on_progress,
        )
        # Written by our own server process (analysis/gnubg_server.py), nothing else.
        analysed: dict[str, Any] = marshal.loads(base64.b64decode(answer[MARSHALLED]))
        return match_analysis(analysed)

    def _request(
        self,
        payload: dict[str, Any],
        *,
        timeout: float | None = None,
        on_progress: Progress | None = None,
    ) -> dict[str, Any]:
        """Send one request and wait for its answer; a program found dead is started again."""
        began, answered = time.monotonic(), False
        try:
            answer = self._request_once(payload, timeout=timeout, on_progress=on_progress)
            answered = True
            return answer
        finally:
            if self.on_call is not None:
                self.on_call(str(payload.get("op")), time.monotonic() - began, answered)

    def _request_once(
        self,
        payload: dict[str, Any],
        *,
        timeout: float | None = None,
        on_progress: Progress | None = None,
    ) -> dict[str, Any]:
        with self._lock:
            for attempt in (1, 2):
                self._ensure_started()
                try:
                    return self._exchange(payload, timeout or self.timeout, on_progress)
                except _ProcessDied:
                    self._stop()
                    if attempt == 2:
                        raise EngineError(
                            "GNU Backgammon exited while evaluating: " + self._stderr_text()
                        ) from None
        raise AssertionError("unreachable")

    def _exchange(
        self, payload: dict[str, Any], timeout: float, on_progress: Progress | None = None
    ) -> dict[str, Any]:
        assert self._process is not None
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(json.dumps(payload) + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise _ProcessDied from None
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._answers.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
                self._stop(kill=True)
                raise EngineTimeout(f"GNU Backgammon gave no answer within {timeout:g} s") from None
            if line is None:
                raise _ProcessDied
            answer: dict[str, Any] = json.loads(line)
            if "progress" not in answer:
                break
            if on_progress is not None:
                done, total = answer["progress"]
                on_progress(int(done), int(total))
        if answer.get("ok"):
            result: dict[str, Any] = answer["result"]
            return result
        if answer.get("kind") == "invalid_position":
            raise InvalidPositionError(answer["error"])
        if answer.get("kind") == "invalid_match":
            raise InvalidMatchError(answer["error"])
        raise EngineError("GNU Backgammon failed: " + str(answer.get("error")))

    def _alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def _ensure_started(self) -> None:
        if self._alive():
            return
        self._stop()
        found = self.status()
        if found.command is None:
            raise EngineUnavailable(found.reason)
        self._answers = queue.Queue()
        self._stderr_tail.clear()
        self._process = subprocess.Popen(
            list(found.command.argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
            env={
                **os.environ,
                "CRAWFORD_GNUBG_MET": self.met_path or found.command.met_path,
                "CRAWFORD_ANALYSIS_DIR": str(SERVER_SCRIPT.parent),
            },
        )
        assert self._process.stdout is not None
        assert self._process.stderr is not None
        threading.Thread(
            target=_pump, args=(self._process.stdout, self._answers), daemon=True
        ).start()
        threading.Thread(
            target=_drain, args=(self._process.stderr, self._stderr_tail), daemon=True
        ).start()
        self._info = self._await_ready()

    def _await_ready(self) -> EngineInfo:
        version = "unknown"
        while True:
            try:
                line = self._answers.get(timeout=self.start_timeout)
            except queue.Empty:
                self._stop(kill=True)
                raise EngineTimeout("GNU Backgammon did not start in time") from None
            if line is None:
                self._stop()
                raise EngineError("GNU Backgammon did not start: " + self._stderr_text())
            if match := _VERSION.match(line):
                version = match.group(1)
            if line.startswith("{"):
                ready = json.loads(line)
                return EngineInfo(
                    name="GNU Backgammon",
                    version=ready.get("version", version),
                    met=ready["met"],
                    met_path=ready["met_path"],
                )

    def _stop(self, *, kill: bool = False) -> None:
        """End the program: politely by closing its input, or at once when it is stuck."""
        process, self._process = self._process, None
        if process is None:
            return
        if kill:
            process.kill()
            process.wait()
        elif process.poll() is None:
            assert process.stdin is not None
            try:
                process.stdin.close()
                process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                process.kill()
                process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()

    def _stderr_text(self) -> str:
        return "".join(self._stderr_tail).strip() or "(no message)"


class _ProcessDied(Exception):
    pass


def _pump(stream: IO[str], answers: queue.Queue[str | None]) -> None:
    for line in stream:
        answers.put(line.rstrip("\n"))
    answers.put(None)


def _drain(stream: IO[str], tail: collections.deque[str]) -> None:
    for line in stream:
        tail.append(line)


def _cube_equities(answer: dict[str, Any]) -> CubeEquities:
    return CubeEquities(
        no_double=answer["no_double"],
        double_take=answer["double_take"],
        double_pass=answer["double_pass"],
        optimal=answer["optimal"],
        action=answer["cube_action"],
    )


def _evaluation(
    gnubg_id: str, settings: EvalSettings, answer: dict[str, Any], info: EngineInfo
) -> Evaluation:
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = answer["probabilities"]
    cubeless = answer["cubeless_equity"]
    cube = _cube_equities(answer)
    mwc, cubeless_mwc = answer["mwc"], answer["cubeless_mwc"]
    on_roll = PlayerOutlook(
        index=answer["player_on_roll"],
        win=win,
        win_gammon=win_gammon,
        win_backgammon=win_backgammon,
        cubeless_equity=cubeless,
        cubeful_equity=cube.optimal,
        mwc=mwc,
        cubeless_mwc=cubeless_mwc,
    )
    opponent = PlayerOutlook(
        index=1 - on_roll.index,
        win=1.0 - win,
        win_gammon=lose_gammon,
        win_backgammon=lose_backgammon,
        cubeless_equity=-cubeless,
        cubeful_equity=-cube.optimal,
        mwc=None if mwc is None else 1.0 - mwc,
        cubeless_mwc=None if cubeless_mwc is None else 1.0 - cubeless_mwc,
    )
    players = (on_roll, opponent) if on_roll.index == 0 else (opponent, on_roll)
    return Evaluation(
        gnubg_id=gnubg_id,
        match_length=answer["match_length"],
        score=(answer["score"][0], answer["score"][1]),
        crawford=answer["crawford"],
        cube_value=answer["cube_value"],
        cube_owner=answer["cube_owner"] if answer["cube_owner"] in (0, 1) else None,
        player_on_roll=on_roll.index,
        players=players,
        cube=cube,
        settings=settings,
        engine=info,
    )
