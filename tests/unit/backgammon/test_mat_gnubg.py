"""GNU Backgammon's own ``import mat`` reads .mat files the way `parse_mat` does.

Each file is imported by Debian's program (/usr/games/gnubg), which runs a small script in
its embedded Python and hands back ``gnubg.match()``: every game's score, winner and points,
and every step (a move with its dice and the position before it, a double, a take, a drop, a
resignation and its level). We build the same steps from our own reading and compare.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from backgammon.matfile import (
    CubeAction,
    Ending,
    EndKind,
    GameRecord,
    MatRecord,
    Roll,
    format_mat,
    game_ending,
    parse_mat,
    replay,
)
from backgammon.moves import legal_plays
from tests.unit.backgammon.test_mat_writer import (
    BEAVER,
    DOUBLE,
    DROP,
    OPENING,
    RACCOON,
    TAKE,
    cube,
    play_random_match,
    roll,
)

GNUBG = Path("/usr/games/gnubg")
IMPORTS = Path(__file__).resolve().parents[2] / "data" / "mat" / "imports"

_GNUBG_SCRIPT = """
import json, os, gnubg
found = []
for job in json.loads(os.environ["CRAWFORD_MAT_JOBS"]):
    gnubg.command("set jacoby " + ("on" if job["jacoby"] else "off"))
    gnubg.command('import mat "%s"' % job["path"])
    found.append(gnubg.match(analysis=False, boards=True, statistics=False, verbose=False))
    if job["export"]:
        gnubg.command('export match mat "%s"' % job["export"])
with open(os.environ["CRAWFORD_MAT_OUT"], "w") as out:
    json.dump(found, out)
"""


@dataclass(frozen=True)
class Job:
    """A file for GNU Backgammon to import, under its Jacoby setting for money sessions (it
    reads no rule from the header), and where to export what it read, if anywhere."""

    path: Path
    jacoby: bool = False
    export: Path | None = None


def gnubg_reads(jobs: Sequence[Job], work: Path) -> list[dict[str, Any]]:
    """``gnubg.match()`` after importing each file, in one run of the program."""
    if not os.access(GNUBG, os.X_OK):
        pytest.fail(f"GNU Backgammon is not installed at {GNUBG}: apt-get install gnubg")
    script, out = work / "gnubg_reads.py", work / "gnubg_reads.json"
    script.write_text(_GNUBG_SCRIPT)
    listed = [
        {"path": str(job.path), "jacoby": job.jacoby, "export": str(job.export or "")}
        for job in jobs
    ]
    subprocess.run(
        [str(GNUBG), "-t", "-q", "-p", str(script)],
        check=True,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
        env={
            **os.environ,
            "CRAWFORD_MAT_JOBS": json.dumps(listed),
            "CRAWFORD_MAT_OUT": str(out),
        },
    )
    found: list[dict[str, Any]] = json.loads(out.read_text())
    return found


@dataclass(frozen=True)
class Step:
    """One step of a game as GNU Backgammon records it: ``detail`` is the sorted dice of a
    move (``set``: dice rolled and not played) or the level of a resignation; ``board`` the
    Position ID before a move, seen by its player (GNU Backgammon gives none for a ``set``)."""

    kind: str
    player: int
    detail: tuple[int, ...] = ()
    board: str = ""


@dataclass(frozen=True)
class GameSeen:
    score: tuple[int, int]
    crawford: bool
    winner: int | None
    points: int
    steps: tuple[Step, ...]


def seen_by_gnubg(match: dict[str, Any]) -> list[GameSeen]:
    games = []
    for game in match["games"]:
        info = game["info"]
        steps = []
        for step in game["game"]:
            player = "XO".index(step["player"])
            kind = step["action"]
            if kind in ("move", "set"):
                dice = tuple(sorted(step["dice"]))
                steps.append(Step(kind, player, dice, step.get("board", "")))
            elif kind == "resign":
                steps.append(Step(kind, player, (step["points"],)))
            else:
                steps.append(Step(kind, player))
        winner = None if info["winner"] is None else "XO".index(info["winner"])
        score = (info["score-X"], info["score-O"])
        crawford = info.get("crawford", False)
        games.append(GameSeen(score, crawford, winner, info.get("points-won", 0), tuple(steps)))
    return games


_GNUBG_CUBE_WORDS = {
    CubeAction.DOUBLE: "double",
    CubeAction.BEAVER: "double",
    CubeAction.RACCOON: "double",
    CubeAction.TAKE: "take",
    CubeAction.DROP: "drop",
}


def seen_by_us(record: MatRecord) -> list[GameSeen]:
    """Our reading of ``record`` in GNU Backgammon's steps: it counts a beaver or raccoon as
    a double, taken (when no Takes follows) as its doubled player rolls."""
    return [
        GameSeen(game.score_before, game.crawford, game.winner, game.points, tuple(_steps(game)))
        for game in record.games
    ]


def _steps(game: GameRecord) -> list[Step]:
    steps: list[Step] = []
    implied_take: int | None = None
    for action, position in zip(game.actions, replay(game), strict=True):
        if isinstance(action, Roll):
            if implied_take is not None:
                steps.append(Step("take", implied_take))
            dice = tuple(sorted(action.dice))
            if not action.play and len(legal_plays(position, action.dice)) > 1:
                steps.append(Step("set", action.player, dice))
            else:
                steps.append(Step("move", action.player, dice, position.position_id()))
            implied_take = None
            continue
        steps.append(Step(_GNUBG_CUBE_WORDS[action.action], action.player))
        redoubled = action.action in (CubeAction.BEAVER, CubeAction.RACCOON)
        implied_take = 1 - action.player if redoubled else None
    ending = game_ending(game)
    if ending is not None and ending.kind is EndKind.RESIGNED:
        assert game.winner is not None
        steps.append(Step("resign", 1 - game.winner, (ending.level,)))
    return steps


def read_sample(name: str) -> str:
    """A sample file's text exactly as written: byte order mark and line ends kept."""
    return (IMPORTS / name).read_bytes().decode("utf-8")


AGREED_SAMPLES = [
    "wins_wordings.mat",
    "resign_after_roll.mat",
    "resigned_off_the_cube.mat",
    "layout_forgiven.mat",
    "unfinished.mat",
    "money_running_totals.mat",
    "beavers.mat",
    "xg_export.mat",
    "bgstudio_export.mat",
]


def test_gnubg_reads_each_sample_file_as_we_do(tmp_path: Path) -> None:
    # given the sample files of each way other programs write .mat files
    ours = {name: parse_mat(read_sample(name)) for name in AGREED_SAMPLES}

    # when GNU Backgammon imports them
    theirs = gnubg_reads(
        [Job(IMPORTS / name, jacoby=_jacoby(ours[name])) for name in AGREED_SAMPLES], tmp_path
    )

    # then it finds the same games, scores, winners, points, moves and cube actions
    for name, match in zip(AGREED_SAMPLES, theirs, strict=True):
        assert seen_by_gnubg(match) == seen_by_us(ours[name]), name
        assert match["match-info"]["match-length"] == ours[name].length


def test_gnubg_skips_a_pass_written_cant_move_which_we_read_as_a_pass(tmp_path: Path) -> None:
    ours = parse_mat(read_sample("passes.mat"))

    (match,) = gnubg_reads([Job(IMPORTS / "passes.mat")], tmp_path)

    # GNU Backgammon's import knows "Cannot Move" and an empty play, not "Can't move": it
    # leaves that roll out. Nothing moved, so the game goes on the same, but as its turn
    # did not pass it shows the later positions from the other side.
    assert Roll(1, (6, 6), "") in ours.games[1].actions
    theirs, expected = seen_by_gnubg(match), seen_by_us(ours)
    assert (theirs[0], theirs[2]) == (expected[0], expected[2])
    assert _without_boards(theirs[1]) == _without_boards(expected[1], leaving_out=(6, 6))


def _without_boards(game: GameSeen, leaving_out: tuple[int, ...] = ()) -> GameSeen:
    steps = tuple(
        Step(step.kind, step.player, step.detail)
        for step in game.steps
        if step.detail != leaving_out
    )
    return GameSeen(game.score, game.crawford, game.winner, game.points, steps)


def test_gnubg_does_not_know_galaxy_s_losses_rows(tmp_path: Path) -> None:
    ours = parse_mat(read_sample("galaxy_losses.mat"))

    (match,) = gnubg_reads([Job(IMPORTS / "galaxy_losses.mat")], tmp_path)

    # A game ended by a drop needs no result row: GNU Backgammon agrees on those. The
    # resigned ones it leaves unfinished, as "Losses" means nothing to it.
    theirs = seen_by_gnubg(match)
    assert [game.winner for game in ours.games] == [0, 1, 0, 1]
    assert [game.winner for game in theirs] == [0, None, None, 1]
    for mine, seen in zip(seen_by_us(ours), theirs, strict=True):
        assert seen.score == mine.score
        assert seen.steps == tuple(
            step for step in mine.steps if seen.winner is not None or step.kind != "resign"
        )


def _jacoby(record: MatRecord) -> bool:
    return dict(record.tags).get("Jacoby", "Off") == "On"


def write_and_read_back(records: Sequence[MatRecord], work: Path) -> list[dict[str, Any]]:
    """Write each record, have GNU Backgammon import it and export it again; the answers are
    what it read, and the exports are in ``work`` as ``back-<n>.mat``."""
    jobs = []
    for number, record in enumerate(records):
        path = work / f"ours-{number}.mat"
        path.write_text(format_mat(record))
        jobs.append(Job(path, jacoby=_jacoby(record), export=work / f"back-{number}.mat"))
    return gnubg_reads(jobs, work)


MONEY_SESSION = MatRecord(
    ("Alice", "Bob"),
    0,
    (
        GameRecord(
            (0, 0),
            (
                *OPENING,
                cube(1, DOUBLE, 2),
                cube(0, TAKE),
                roll(1, "43", "24/21 13/9"),
                cube(0, DOUBLE, 4),
                cube(1, DROP),
            ),
            winner=0,
            points=2,
        ),
        GameRecord(
            (2, 0),
            (
                roll(1, "32", "24/21 13/11"),
                roll(0, "61", "13/7 8/7"),
                cube(1, DOUBLE, 2),
                cube(0, TAKE),
                roll(1, "44", "13/9 13/9 6/2 6/2"),
            ),
            winner=1,
            points=4,
        ),
    ),
    tags=(("Jacoby", "Off"),),
)
"""A money session: a redouble dropped, then a gammon resigned on a cube of 2."""

CRAWFORD_MATCH = MatRecord(
    ("Alice", "Bob"),
    3,
    (
        # Bob doubles, Alice takes, Bob resigns at once: a row holding only "Takes"
        GameRecord((0, 0), (*OPENING, cube(1, DOUBLE, 2), cube(0, TAKE)), winner=0, points=2),
        GameRecord((2, 0), OPENING[:2], winner=1, points=1, crawford=True),
        # Alice takes and resigns before Bob rolls: her take and his win share a row
        GameRecord((2, 1), (*OPENING, cube(1, DOUBLE, 2), cube(0, TAKE)), winner=1, points=2),
    ),
)

BEAVER_SESSION = MatRecord(
    ("Alice", "Bob"),
    0,
    (
        # a beaver taken in words, then a gammon resigned out of turn
        GameRecord(
            (0, 0),
            (
                *OPENING,
                cube(1, DOUBLE, 2),
                cube(0, BEAVER, 4),
                cube(1, TAKE),
                roll(1, "43", "24/21 13/9"),
            ),
            winner=0,
            points=8,
        ),
        # a beaver answered by a raccoon, then a single resigned
        GameRecord(
            (8, 0),
            (
                *OPENING,
                cube(1, DOUBLE, 2),
                cube(0, BEAVER, 4),
                cube(1, RACCOON, 8),
                roll(1, "43", "24/21 13/9"),
            ),
            winner=1,
            points=8,
        ),
        # a raccoon the game ended on, written taken
        GameRecord(
            (8, 8),
            (
                *OPENING,
                cube(1, DOUBLE, 2),
                cube(0, BEAVER, 4),
                cube(1, RACCOON, 8),
                cube(0, TAKE),
            ),
            winner=1,
            points=8,
        ),
    ),
    tags=(("Jacoby", "On"),),
)

UNFINISHED_MATCH = MatRecord(
    ("Alice", "Bob"),
    5,
    (
        GameRecord((0, 0), (*OPENING, roll(1, "65", "")), winner=0, points=3),
        GameRecord((3, 0), (*OPENING, cube(1, DOUBLE, 2)), winner=None, points=0),
    ),
)
"""A backgammon resigned after a roll left unplayed, then a game cut off at a double."""


@pytest.mark.parametrize(
    "record",
    [MONEY_SESSION, CRAWFORD_MATCH, BEAVER_SESSION, UNFINISHED_MATCH],
    ids=["money", "crawford", "beavers", "unfinished"],
)
def test_gnubg_reads_what_we_write_as_we_meant_it(record: MatRecord, tmp_path: Path) -> None:
    # when a record is written and GNU Backgammon imports it
    (match,) = write_and_read_back([record], tmp_path)

    # then it reads every game's score, winner, points, moves and cube actions as we do
    assert seen_by_gnubg(match) == seen_by_us(record)
    # and what it writes in turn we read back to the same games (its writer leaves out a
    # Takes after a beaver or raccoon, which changes nothing for us)
    written_back = parse_mat((tmp_path / "back-0.mat").read_text())
    assert games_played(written_back) == games_played(record)


def games_played(
    record: MatRecord,
) -> list[tuple[tuple[int, int], int | None, int, Ending | None, list[tuple[int, str]]]]:
    """Each game's score, winner, points, ending, and every roll's player and position."""
    return [
        (
            game.score_before,
            game.winner,
            game.points,
            game_ending(game),
            [
                (action.player, position.position_id())
                for action, position in zip(game.actions, replay(game), strict=True)
                if isinstance(action, Roll)
            ],
        )
        for game in record.games
    ]


def test_gnubg_reads_each_sample_as_we_read_it_once_we_have_written_it(tmp_path: Path) -> None:
    # given every sample, the ones GNU Backgammon reads otherwise included
    names = sorted(path.name for path in IMPORTS.glob("*.mat"))
    records = [parse_mat(read_sample(name)) for name in names]

    # when we write each and GNU Backgammon imports what we wrote
    theirs = write_and_read_back(records, tmp_path)

    # then it reads what we read: a Galaxy "Losses" is written as a "Wins", a "Can't move" as
    # an empty roll
    for name, record, match in zip(names, records, theirs, strict=True):
        assert seen_by_gnubg(match) == seen_by_us(record), name


@pytest.mark.parametrize("seed", [11, 13])
def test_gnubg_imports_a_random_match_to_the_same_positions_and_score(
    seed: int, tmp_path: Path
) -> None:
    # given a random 7-point match with takes, drops, resignations and a Crawford game
    played = play_random_match(seed, length=7)
    record = played.record
    assert any(game.crawford for game in record.games)
    actions = [action for game in record.games for action in game.actions]
    assert any(action == cube(action.player, TAKE) for action in actions)
    assert {"drop", "resign"} <= set(played.endings)

    # when GNU Backgammon imports what we write
    (match,) = write_and_read_back([record], tmp_path)

    # then it holds the same games, positions before every move and results
    assert match["match-info"]["match-length"] == 7
    assert seen_by_gnubg(match) == seen_by_us(record)
    # and our own replay passes through the positions the match was played in
    for game, positions in zip(record.games, played.positions, strict=True):
        assert [board.position_id() for board in replay(game)] == positions
    assert max(record.final_score) >= 7
