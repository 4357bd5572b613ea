"""Match analyses run on an engine process of their own, so the computer opponent (and an
adjudication) is answered while a long analysis runs, as in the one server of ``make run``."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from analysis.engine import Strength
from matches.engine import analysis_engine, engine

pytestmark = pytest.mark.slow

MATCH = (Path(__file__).resolve().parents[2] / "data" / "mat" / "crawford_3pt.mat").read_text()
OPENING = "4HPwATDgc/ABMA:cAkAAAAAAAAA"


def test_a_practice_move_is_answered_while_a_long_analysis_runs() -> None:
    # given both engines warm, and a 2-ply analysis of a three-point match under way (tens
    # of seconds)
    engine().start()
    analysis_engine().start()
    under_way = threading.Event()
    failures: list[BaseException] = []

    def progressed(done: int, total: int) -> None:
        if done < total:
            under_way.set()

    def analyse() -> None:
        try:
            analysis_engine().analyse_match(MATCH, plies=2, on_progress=progressed)
        except BaseException as error:  # the thread's failure is the test's
            failures.append(error)
            under_way.set()

    analysing = threading.Thread(target=analyse)
    analysing.start()
    assert under_way.wait(timeout=120)

    # when the computer is asked for its move
    choice = engine().best_move(OPENING, (3, 1), Strength.WORLD_CLASS)

    # then it answered while the analysis was still running, on another process
    still_analysing = analysing.is_alive()
    analysing.join(timeout=600)
    assert failures == []
    assert choice.move == "8/5 6/5"
    assert still_analysing, "the move waited for the analysis to finish"
    assert engine().pid != analysis_engine().pid
