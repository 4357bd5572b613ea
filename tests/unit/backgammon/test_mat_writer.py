"""Writing .mat files so that GNU Backgammon's import reads every row as we meant it.

GNU Backgammon's import (1.07, Debian's) splits a row into player 0's and player 1's text in
one of two ways: before the second roll when the row holds two (two colons), otherwise at the
first two spaces from the row's 16th character on. A row where neither applies keeps the
split of the row before, and reads whatever that row left in its line buffer there: a lone
``  3)  Takes`` under ``  2) 64: 24/18 13/9    Doubles => 2`` was read as a second double.
`gnubg_columns` is that rule; every row we write must split by it into the entries we meant.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.board import Board
from backgammon.cube import Cube, double, drop, take
from backgammon.game import ResultKind, Side, game_result
from backgammon.match import MatchState
from backgammon.matfile import (
    Action,
    CubeAction,
    CubeDecision,
    GameRecord,
    MatRecord,
    Roll,
    format_mat,
    mat_play_text,
    parse_mat,
)
from backgammon.moves import apply_play, legal_plays


def gnubg_columns(row: str) -> tuple[str, str] | None:
    """Player 0's and player 1's text of ``row`` as GNU Backgammon's import splits it; None
    where it finds no split of its own."""
    first = row.find(":")
    second = row.find(":", first + 1) if first >= 0 else -1
    if second > 3:
        left, right = row[: second - 3], row[second - 2 :]
    elif len(row) > 15 and (gap := row.find("  ", 15)) >= 0:
        left, right = row[:gap], row[gap + 1 :]
    else:
        return None
    if ")" in left:
        left = left[left.index(")") + 1 :]
    return left.strip(), right.strip()


def game_rows(text: str) -> list[str]:
    """The rows of every game: the lines after each score line, up to the blank line."""
    rows, in_game = [], False
    for line in text.splitlines():
        if " : " in line:
            in_game = True
        elif not line.strip():
            in_game = False
        elif in_game:
            rows.append(line)
    return rows


def roll(player: int, dice: str, play: str = "") -> Roll:
    return Roll(player, (int(dice[0]), int(dice[1])), play)


def cube(player: int, action: CubeAction, value: int | None = None) -> CubeDecision:
    return CubeDecision(player, action, value)


DOUBLE, BEAVER, RACCOON = CubeAction.DOUBLE, CubeAction.BEAVER, CubeAction.RACCOON
TAKE, DROP = CubeAction.TAKE, CubeAction.DROP
OPENING = (roll(0, "31", "8/5 6/5"), roll(1, "52", "13/8 13/11"), roll(0, "64", "24/18 13/9"))
"""Three plays after which Bob may double."""


@pytest.mark.parametrize(
    ("actions", "winner", "points", "rows"),
    [
        pytest.param(
            (*OPENING, cube(1, DOUBLE, 2), cube(0, TAKE)),
            0,
            2,
            [("Takes", ""), ("Wins 2 points", "")],
            id="a take alone, then the doubler resigns",
        ),
        pytest.param(
            (*OPENING, cube(1, DOUBLE, 2), cube(0, TAKE)),
            1,
            2,
            [("Takes", "Wins 2 points")],
            id="a take, then the taker resigns",
        ),
        pytest.param(
            (*OPENING, cube(1, DOUBLE, 2), cube(0, DROP)),
            1,
            1,
            [("Drops", "Wins 1 point")],
            id="a drop",
        ),
        pytest.param(
            (*OPENING[:2], cube(0, DOUBLE, 2), cube(1, DROP)),
            0,
            1,
            [("Doubles => 2", "Drops"), ("Wins 1 point", "")],
            id="player 0 doubles, player 1 drops",
        ),
        pytest.param(
            (*OPENING, cube(1, DOUBLE, 2), cube(0, BEAVER, 4), roll(1, "43", "24/21 13/9")),
            0,
            8,
            [("Beavers => 4", "43: 24/21 13/9"), ("Wins 8 points", "")],
            id="a beaver the doubler's roll takes",
        ),
        pytest.param(
            (*OPENING, cube(1, DOUBLE, 2), cube(0, BEAVER, 4), cube(1, TAKE)),
            1,
            4,
            [("Beavers => 4", "Takes"), ("", "Wins 4 points")],
            id="a beaver taken in words",
        ),
        pytest.param(
            (*OPENING, cube(1, DOUBLE, 2), cube(0, BEAVER, 4), cube(1, RACCOON, 8)),
            0,
            8,
            [("Beavers => 4", "Beavers => 8"), ("Wins 8 points", "")],
            id="a raccoon, written as a beaver of the beaver",
        ),
        pytest.param(
            (*OPENING, roll(1, "65")),
            0,
            3,
            [("64: 24/18 13/9", "65:"), ("Wins 3 points", "")],
            id="a roll left unplayed",
        ),
        pytest.param(
            OPENING,
            1,
            1,
            [("64: 24/18 13/9", "Wins 1 point")],
            id="a resignation after player 0's roll",
        ),
        pytest.param(
            OPENING[:2],
            0,
            2,
            [("31: 8/5 6/5", "52: 13/8 13/11"), ("Wins 2 points", "")],
            id="a resignation out of turn",
        ),
        pytest.param(
            (*OPENING, cube(1, DOUBLE, 2)),
            None,
            0,
            [("64: 24/18 13/9", "Doubles => 2")],
            id="an unfinished game",
        ),
    ],
)
def test_every_row_splits_in_gnubg_into_the_columns_we_meant(
    actions: tuple[Action, ...],
    winner: int | None,
    points: int,
    rows: list[tuple[str, str]],
) -> None:
    record = MatRecord(("Alice", "Bob"), 0, (GameRecord((0, 0), actions, winner, points),))

    text = format_mat(record)

    split = [gnubg_columns(row) for row in game_rows(text)]
    assert None not in split
    assert split[-len(rows) :] == rows
    assert parse_mat(text) == record


def test_a_long_play_keeps_two_spaces_before_player_1_s_column() -> None:
    game = GameRecord(
        (0, 0),
        (
            roll(1, "66", "24/18 24/18 13/7 13/7"),
            roll(0, "22", "24/22* 22/20 13/11 13/11"),
            cube(1, DOUBLE, 2),
        ),
        winner=None,
        points=0,
    )

    rows = game_rows(format_mat(MatRecord(("Alice", "Bob"), 5, (game,))))

    assert rows[1] == "  2) 22: 24/22* 22/20 13/11 13/11   Doubles => 2"
    assert gnubg_columns(rows[1]) == ("22: 24/22* 22/20 13/11 13/11", "Doubles => 2")


def test_a_money_session_is_a_0_point_match_with_running_totals() -> None:
    record = MatRecord(
        ("Alice", "Bob"),
        0,
        (
            GameRecord((0, 0), OPENING, winner=1, points=1),
            GameRecord((0, 1), OPENING[:2], winner=1, points=2),
            GameRecord((0, 3), OPENING, winner=0, points=1),
        ),
        crawford_rule=False,
    )

    text = format_mat(record)

    assert "\n 0 point match\n" in text
    assert [line for line in text.splitlines() if " : " in line] == [
        " Alice : 0                      Bob : 0",
        " Alice : 0                      Bob : 1",
        " Alice : 0                      Bob : 3",
    ]
    assert "[Crawford]" not in text.replace('[Crawford "Off"]', "")
    assert parse_mat(text) == record
    assert record.final_score == (1, 3)


def test_an_unfinished_game_is_written_without_a_result() -> None:
    record = MatRecord(("Alice", "Bob"), 3, (GameRecord((0, 0), OPENING, None, 0),))

    text = format_mat(record)

    assert "Wins" not in text
    assert parse_mat(text) == record


@dataclass(frozen=True)
class PlayedMatch:
    record: MatRecord
    positions: list[list[str]]
    """Position ID before each action, from the acting player's view, per game."""
    endings: list[str]
    """How each game ended: single, gammon, backgammon, drop or resign."""


def play_random_match(seed: int, length: int) -> PlayedMatch:
    """A whole match of random legal plays and cube actions, recorded as it goes."""
    rng = random.Random(seed)
    state = MatchState(length=length)
    games: list[GameRecord] = []
    positions: list[list[str]] = []
    endings: list[str] = []
    while not state.over:
        rules = state.cube_rules()
        cube_now = Cube()
        board = Board.initial()
        actions: list[Action] = []
        seen: list[str] = []
        first, second = 0, 0
        while first == second:
            first, second = rng.randint(1, 6), rng.randint(1, 6)
        player = 0 if first > second else 1
        dice = (max(first, second), min(first, second))
        while True:
            # after the opening roll: maybe a double, rarely a resignation, then a roll
            if actions:
                may_double = cube_now.may_double(player) and not rules.crawford_game
                if may_double and cube_now.value < length and rng.random() < 0.05:
                    seen.append(board.position_id())
                    actions.append(CubeDecision(player, DOUBLE, cube_now.value * 2))
                    cube_now = double(cube_now, rules, player=player, on_roll=player, rolled=False)
                    seen.append(board.swapped().position_id())
                    if rng.random() < 0.3:
                        actions.append(CubeDecision(1 - player, DROP))
                        dropped = drop(cube_now, player=1 - player)
                        winner, points = dropped.winner, dropped.points
                        endings.append("drop")
                        break
                    actions.append(CubeDecision(1 - player, TAKE))
                    cube_now = take(cube_now, player=1 - player)
                elif rng.random() < 0.005:
                    winner, points = 1 - player, state.game_points(ResultKind.SINGLE, cube_now)
                    endings.append("resign")
                    break
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(board, dice)
            play = rng.choice(plays) if plays else ()
            seen.append(board.position_id())
            actions.append(Roll(player, dice, mat_play_text(play)))
            board = apply_play(board, play)
            result = game_result(board)
            if result is not None:
                winner = player if result.winner is Side.MOVER else 1 - player
                points = state.game_points(result.kind, cube_now)
                endings.append(result.kind.name.lower())
                break
            board = board.swapped()
            player = 1 - player
        games.append(GameRecord(state.score, tuple(actions), winner, points, state.crawford))
        positions.append(seen)
        state = state.after_game(winner, points)
    record = MatRecord(("Alice", "Bob"), length, tuple(games), tags=(("Site", "Crawford"),))
    return PlayedMatch(record, positions, endings)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), length=st.integers(1, 3))
def test_any_match_played_by_the_rules_is_read_back_as_written(seed: int, length: int) -> None:
    record = play_random_match(seed, length).record

    text = format_mat(record)

    assert parse_mat(text) == record
    assert None not in [gnubg_columns(row) for row in game_rows(text)]
