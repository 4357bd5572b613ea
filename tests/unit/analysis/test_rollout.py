"""Rollouts by the real GNU Backgammon program, read from the table it prints."""

from __future__ import annotations

import pytest

from analysis.engine import EngineError, EvalSettings, InvalidPositionError
from analysis.gnubg_process import GnubgProcess
from analysis.rollout import Rollout, RolloutSettings, parse_rollout_output, rollout

OPENING_TO_ROLL = "4HPwATDgc/ABMA:cAkAAAAAAAAA"


@pytest.fixture(scope="module")
def opening() -> Rollout:
    return rollout(OPENING_TO_ROLL, RolloutSettings(trials=36, seed=7))


def test_a_rollout_reports_every_figure_with_its_standard_error(opening: Rollout) -> None:
    result = opening.to_dict()

    assert result["trials"] == 36
    assert result["win"] + result["lose"] == pytest.approx(1, abs=0.002)
    assert 0 <= result["win_backgammon"] <= result["win_gammon"] <= result["win"]
    assert set(result["standard_errors"]) == {
        "win", "win_gammon", "win_backgammon", "lose", "lose_gammon", "lose_backgammon",
        "cubeless_equity", "cubeful_equity",
    }  # fmt: skip
    assert result["engine"].startswith("GNU Backgammon 1.")
    assert result["settings"] == {"trials": 36, "plies": 0, "seed": 7}


def test_the_same_seed_gives_the_same_rollout(opening: Rollout) -> None:
    assert rollout(OPENING_TO_ROLL, RolloutSettings(trials=36, seed=7)) == opening


def test_a_rollout_agrees_with_the_evaluation_within_its_error(opening: Rollout) -> None:
    with GnubgProcess() as engine:
        evaluation = engine.evaluate(OPENING_TO_ROLL, EvalSettings(plies=0))
    on_roll = evaluation.players[evaluation.player_on_roll]

    assert opening.win == pytest.approx(on_roll.win, abs=0.05)
    assert opening.win_gammon == pytest.approx(on_roll.win_gammon, abs=0.05)


def test_bad_settings_and_ids_are_refused_before_the_program_starts() -> None:
    with pytest.raises(InvalidPositionError, match="is not a GNUBG ID"):
        rollout("4HPwATDgc/ABMA")
    with pytest.raises(ValueError, match="trials must be 1 to"):
        RolloutSettings(trials=0)
    with pytest.raises(ValueError, match="rollout plies must be 0, 1 or 2"):
        RolloutSettings(plies=3)


def test_a_missing_program_is_named_with_how_to_install_it() -> None:
    with pytest.raises(EngineError, match="apt-get install gnubg"):
        rollout(OPENING_TO_ROLL, executable="/nonexistent/gnubg")


def test_output_without_a_finished_rollout_is_an_engine_error() -> None:
    with pytest.raises(EngineError, match="did not finish the rollout"):
        parse_rollout_output(
            "Setting GNUbg ID ...\n", gnubg_id=OPENING_TO_ROLL, settings=RolloutSettings()
        )
