"""One warm GNU Backgammon serves every request, comes back after dying, and can be closed."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from analysis.engine import EngineError, EngineTimeout, EvalSettings, Strength
from analysis.gnubg_process import GNUBG_EXECUTABLE, GnubgProcess
from backgammon.moves import legal_positions

OPENING_AFTER_52 = "4HPwATDgc/ABMA:cAkAAAAAAAAE"
STRONG_DOUBLE = "4DZ4ACzsnoMDAA:MAEAAAAAAAAE"
MIDDLE_GAME = "mGfwATDQ5+ABMA:MAEAAAAAAAAE"


@pytest.fixture
def engine() -> Iterator[GnubgProcess]:
    if not os.access(GNUBG_EXECUTABLE, os.X_OK):
        pytest.fail(f"GNU Backgammon is not installed at {GNUBG_EXECUTABLE}: apt-get install gnubg")
    with GnubgProcess() as process:
        yield process


def test_one_process_serves_many_requests(engine: GnubgProcess) -> None:
    engine.evaluate(MIDDLE_GAME, EvalSettings(plies=0))
    pid = engine.pid

    engine.evaluate(STRONG_DOUBLE, EvalSettings(plies=0))
    engine.cube_decision(STRONG_DOUBLE, Strength.ADVANCED, seed=1)

    assert engine.pid == pid


def test_a_killed_process_is_started_again_with_the_same_answers(engine: GnubgProcess) -> None:
    before = engine.evaluate(MIDDLE_GAME, EvalSettings(plies=1))
    pid = engine.pid
    assert pid is not None

    os.kill(pid, signal.SIGKILL)
    after = engine.evaluate(MIDDLE_GAME, EvalSettings(plies=1))

    assert engine.pid not in (None, pid)
    assert after == before


def test_a_process_that_stops_answering_times_out_and_is_replaced() -> None:
    with GnubgProcess(timeout=1.0) as engine:
        engine.start()
        pid = engine.pid
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)

        with pytest.raises(EngineTimeout):
            engine.evaluate(MIDDLE_GAME, EvalSettings(plies=0))

        assert engine.pid is None
        assert engine.evaluate(MIDDLE_GAME, EvalSettings(plies=0)).player_on_roll == 0
        assert engine.pid != pid


def test_closing_ends_the_process(engine: GnubgProcess) -> None:
    engine.start()
    pid = engine.pid
    assert pid is not None

    engine.close()

    assert engine.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_threads_share_one_process_safely(engine: GnubgProcess) -> None:
    ids = [MIDDLE_GAME, STRONG_DOUBLE, OPENING_AFTER_52] * 4
    one_by_one = [engine.evaluate(gnubg_id, EvalSettings(plies=0)) for gnubg_id in ids]

    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda g: engine.evaluate(g, EvalSettings(plies=0)), ids))

    assert together == one_by_one


def test_a_missing_program_says_how_to_install_it() -> None:
    engine = GnubgProcess("/nonexistent/gnubg", choice="program")

    with pytest.raises(EngineError, match="apt-get install gnubg"):
        engine.evaluate(MIDDLE_GAME)


@pytest.mark.parametrize("strength", list(Strength))
def test_computer_plays_a_legal_move_at_every_strength(
    engine: GnubgProcess, strength: Strength
) -> None:
    choice = engine.best_move(MIDDLE_GAME, (3, 1), strength, seed=7)

    assert choice.position_id in legal_positions(MIDDLE_GAME.split(":")[0], (3, 1))
    assert choice.move is not None


def test_a_closed_out_checker_on_the_bar_cannot_move(engine: GnubgProcess) -> None:
    closed_out = "27YBBwAA78MHQA:MAEAAAAAAAAE"

    choice = engine.best_move(closed_out, (6, 6), Strength.WORLD_CLASS)

    assert choice.move is None
    assert choice.position_id == closed_out.split(":")[0]
    assert legal_positions(choice.position_id, (6, 6)) == set()


def test_the_strongest_computer_plays_the_engines_best_move(engine: GnubgProcess) -> None:
    choice = engine.best_move(MIDDLE_GAME, (3, 1), Strength.WORLD_CLASS)

    assert choice.move == choice.best_move == "13/10 6/5"


def test_noise_is_reproducible_from_its_seed(engine: GnubgProcess) -> None:
    plays = {
        seed: engine.best_move(MIDDLE_GAME, (6, 4), Strength.BEGINNER, seed=seed).move
        for seed in range(12)
    }

    again = {
        seed: engine.best_move(MIDDLE_GAME, (6, 4), Strength.BEGINNER, seed=seed).move
        for seed in range(12)
    }
    assert again == plays
    assert len(set(plays.values())) > 1


def test_the_strongest_computer_doubles_and_the_opponent_passes(engine: GnubgProcess) -> None:
    decision = engine.cube_decision(STRONG_DOUBLE, Strength.WORLD_CLASS)

    assert decision.double
    assert not decision.take
    assert decision.equities.action == "Double, pass"


def test_the_strongest_computer_holds_the_cube_in_an_even_game(engine: GnubgProcess) -> None:
    decision = engine.cube_decision(MIDDLE_GAME, Strength.WORLD_CLASS)

    assert not decision.double
    assert decision.take


@pytest.mark.parametrize(
    "gnubg_id",
    ["mGfwATDQ5+ABMA:QgkAAAAAAAAE", "4DZ4ACzsnoMDAA:8AngAGAAGAAE"],
    ids=["opponent owns the cube", "Crawford game"],
)
def test_the_computer_never_doubles_when_it_may_not(engine: GnubgProcess, gnubg_id: str) -> None:
    decisions = [
        engine.cube_decision(gnubg_id, Strength.BEGINNER, seed=seed).double for seed in range(10)
    ]

    assert decisions == [False] * 10
    equities = engine.cube_decision(gnubg_id, Strength.WORLD_CLASS).equities
    assert equities.optimal == equities.no_double
