"""The gnubg Python package answers as Debian's program does: the same evaluations, best
moves and cube decisions, within what their builds of the same neural nets differ by.

Both engines are started here; the test is skipped only when one of them is not installed.
At 0 ply the two builds' cubeful equities differ by up to 0.05 (their win and gammon
chances by less than 0.001); at 2 ply, the depth of adjudication and of the expert, by
less than 0.01. Where the cube is not the player's to turn (the opponent owns it, the
Crawford game) the program still works out double/take and double/pass, which nothing
uses; the package gives no double's equity for both, and they are not compared.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from analysis.engine import EvalSettings, Evaluation, Strength
from analysis.gnubg_found import GNUBG_EXECUTABLE, gnubg_found
from analysis.gnubg_process import GnubgProcess

EVALUATED = [
    ("money, centred cube", "mGfwATDQ5+ABMA:cAkAAAAAAAAE", False, False),
    ("money, Jacoby and beavers", "4DZ4ACzsnoMDAA:MAEAAAAAAAAA", True, True),
    ("money, cube on 2 owned by the player on roll", "7O41AADYzowxAA:AQEAAAAAAAAE", False, False),
    ("money, cube on 4 owned by the opponent", "mGfwATDQ5+ABMA:QgkAAAAAAAAE", False, False),
    ("match to 7 at 0-0", "mGfwATDQ5+ABMA:MAHgAAAAAAAE", False, False),
    ("match to 7, Crawford game at 6-3", "4DZ4ACzsnoMDAA:8AngAGAAGAAE", False, False),
    ("match to 7, post-Crawford at 6-4", "7O41AADYzowxAA:cAngAGAAIAAE", False, False),
    (
        "match to 5 at 1-2, cube on 2 owned by the opponent",
        "7O41AADYzowxAA:EQGgABAAEAAE",
        False,
        False,
    ),
]
OPENING = "4HPwATDgc/ABMA:cAkAAAAAAAAA"
MIDDLE_GAME = "mGfwATDQ5+ABMA:MAEAAAAAAAAE"
STRONG_DOUBLE = "4DZ4ACzsnoMDAA:MAEAAAAAAAAE"
MOVES = [
    (OPENING, (3, 1)),
    (OPENING, (6, 5)),
    (OPENING, (4, 4)),
    (OPENING, (2, 1)),
    (MIDDLE_GAME, (3, 1)),
    (MIDDLE_GAME, (6, 5)),
    (MIDDLE_GAME, (4, 4)),
    (MIDDLE_GAME, (2, 1)),
]


@pytest.fixture(scope="module")
def engines() -> Iterator[tuple[GnubgProcess, GnubgProcess]]:
    if not os.access(GNUBG_EXECUTABLE, os.X_OK):
        pytest.skip(f"Debian's program is not installed at {GNUBG_EXECUTABLE}")
    if not gnubg_found("package").available:
        pytest.skip("the gnubg Python package is not installed")
    with GnubgProcess(choice="program") as program, GnubgProcess(choice="package") as package:
        yield program, package


def figures(evaluation: Evaluation) -> dict[str, float]:
    me = evaluation.player(evaluation.player_on_roll)
    if evaluation.crawford or evaluation.cube_owner not in (None, evaluation.player_on_roll):
        return {
            "win": me.win,
            "win gammon": me.win_gammon,
            "cubeless equity": me.cubeless_equity,
            "no double": evaluation.cube.no_double,
            "match winning chances": me.mwc if me.mwc is not None else 0.0,
        }
    return {
        "win": me.win,
        "win gammon": me.win_gammon,
        "cubeless equity": me.cubeless_equity,
        "no double": evaluation.cube.no_double,
        "double/take": evaluation.cube.double_take,
        "double/pass": evaluation.cube.double_pass,
        "optimal": evaluation.cube.optimal,
        "match winning chances": me.mwc if me.mwc is not None else 0.0,
    }


@pytest.mark.parametrize(("name", "gnubg_id", "jacoby", "beavers"), EVALUATED)
@pytest.mark.parametrize(("plies", "tolerance"), [(0, 0.05), (2, 0.01)])
def test_evaluations_agree(
    engines: tuple[GnubgProcess, GnubgProcess],
    name: str,
    gnubg_id: str,
    jacoby: bool,
    beavers: bool,
    plies: int,
    tolerance: float,
) -> None:
    program, package = engines
    settings = EvalSettings(plies=plies, jacoby=jacoby, beavers=beavers)

    theirs, ours = program.evaluate(gnubg_id, settings), package.evaluate(gnubg_id, settings)

    apart = {
        key: round(abs(value - figures(ours)[key]), 4)
        for key, value in figures(theirs).items()
        if abs(value - figures(ours)[key]) > tolerance
    }
    assert apart == {}, f"{name}: the package differs from the program by {apart}"
    assert (ours.match_length, ours.score, ours.crawford, ours.cube_value, ours.cube_owner) == (
        theirs.match_length,
        theirs.score,
        theirs.crawford,
        theirs.cube_value,
        theirs.cube_owner,
    )
    assert abs(ours.player(0).win - theirs.player(0).win) < (0.001 if plies == 0 else 0.005)


@pytest.mark.parametrize(("gnubg_id", "dice"), MOVES)
def test_the_expert_plays_the_same_move(
    engines: tuple[GnubgProcess, GnubgProcess], gnubg_id: str, dice: tuple[int, int]
) -> None:
    program, package = engines

    theirs = program.best_move(gnubg_id, dice, Strength.WORLD_CLASS)
    ours = package.best_move(gnubg_id, dice, Strength.WORLD_CLASS)

    assert (ours.move, ours.position_id) == (theirs.move, theirs.position_id)
    assert ours.equity is not None
    assert theirs.equity is not None
    assert abs(ours.equity - theirs.equity) < 0.02


@pytest.mark.parametrize(
    ("gnubg_id", "double", "take"),
    [(OPENING, False, True), (MIDDLE_GAME, False, True), (STRONG_DOUBLE, True, False)],
)
def test_cube_decisions_agree(
    engines: tuple[GnubgProcess, GnubgProcess], gnubg_id: str, double: bool, take: bool
) -> None:
    for engine in engines:
        decision = engine.cube_decision(gnubg_id, Strength.WORLD_CLASS)

        assert (decision.double, decision.take) == (double, take), engine.status().described


def test_a_closed_out_checker_cannot_move_in_either(
    engines: tuple[GnubgProcess, GnubgProcess],
) -> None:
    for engine in engines:
        assert (
            engine.best_move("27YBBwAA78MHQA:MAEAAAAAAAAE", (6, 6), Strength.WORLD_CLASS).move
            is None
        )
