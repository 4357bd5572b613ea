""".mat files: writing, reading, replaying, and GNU Backgammon importing what we write."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from backgammon.board import Board
from backgammon.cube import Cube, double, drop, take
from backgammon.errors import BackgammonError, IllegalPlay
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
    replay,
)
from backgammon.moves import apply_play, legal_plays

SHORT_MATCH = """\
; [Site "Crawford"]
; [Crawford "On"]

 2 point match

 Game 1
 Alice : 0                      Bob : 0
  1)                             31: 8/5 6/5
  2) 52: 13/8 13/11               Doubles => 2
  3)  Drops                       Wins 1 point

 Game 2 [Crawford]
 Alice : 0                      Bob : 1
  1) 64: 24/18 13/9              66: 24/18 24/18 13/7 13/7
      Wins 2 points

"""


def test_a_match_is_written_in_the_columns_gnubg_writes() -> None:
    record = MatRecord(
        players=("Alice", "Bob"),
        length=2,
        tags=(("Site", "Crawford"),),
        games=(
            GameRecord(
                score_before=(0, 0),
                actions=(
                    Roll(1, (3, 1), "8/5 6/5"),
                    Roll(0, (5, 2), "13/8 13/11"),
                    CubeDecision(1, CubeAction.DOUBLE, 2),
                    CubeDecision(0, CubeAction.DROP),
                ),
                winner=1,
                points=1,
            ),
            GameRecord(
                score_before=(0, 1),
                actions=(
                    Roll(0, (6, 4), "24/18 13/9"),
                    Roll(1, (6, 6), "24/18 24/18 13/7 13/7"),
                ),
                winner=0,
                points=2,
                crawford=True,
            ),
        ),
    )

    assert format_mat(record) == SHORT_MATCH
    assert parse_mat(SHORT_MATCH) == record
    assert record.final_score == (2, 1)


def test_a_drop_by_player_0_puts_the_win_on_the_same_line() -> None:
    game = GameRecord(
        score_before=(0, 0),
        actions=(
            Roll(0, (3, 1), "8/5 6/5"),
            CubeDecision(1, CubeAction.DOUBLE, 2),
            CubeDecision(0, CubeAction.DROP),
        ),
        winner=1,
        points=1,
    )
    text = format_mat(MatRecord(("A", "B"), 5, (game,)))

    assert "  1) 31: 8/5 6/5                  Doubles => 2\n" in text
    assert "  2)  Drops                       Wins 1 point\n" in text
    assert parse_mat(text).games == (game,)


def test_a_game_read_from_gnubg_s_own_layout_keeps_empty_rolls_and_trailing_spaces() -> None:
    text = (
        " 1 point match\n\n Game 1\n gnubg : 0                      root : 0\n"
        "  1) 43:                         61: 13/7 8/7 \n"
        "  2) 52: 24/22 24/19            \n"
        "      Wins 1 point\n"
    )

    record = parse_mat(text)

    assert record.players == ("gnubg", "root")
    assert record.games[0].actions == (
        Roll(0, (4, 3), ""),
        Roll(1, (6, 1), "13/7 8/7"),
        Roll(0, (5, 2), "24/22 24/19"),
    )
    assert (record.games[0].winner, record.games[0].points) == (0, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello\n", "This is not a .mat file: no line says 'N point match'"),
        (" 5 point match\n", "This .mat file holds no game"),
        (" 5 point match\n Game 1\n  1) 31: 8/5 6/5\n", "Line 3: a game must start with the score"),
        (
            " 5 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n",
            "Line 4: the game ends without saying who won",
        ),
        (
            " 5 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 hello\n",
            "Line 4 of the .mat file cannot be read: '1) 31: 8/5 hello'",
        ),
        (
            " 5 point match\n Game 1\n A : 0   B : 0\n      Wins 1 point\n  1) 31: 8/5 6/5\n",
            "Line 5: the game goes on after it was won",
        ),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_naming_the_line(text: str, message: str) -> None:
    with pytest.raises(BackgammonError) as refused:
        parse_mat(text)

    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("players", "length"), [(("A:1", "B"), 5), (("", "B"), 5), (("A", "B"), 0)]
)
def test_a_record_gnubg_could_not_read_back_is_refused(
    players: tuple[str, str], length: int
) -> None:
    with pytest.raises(BackgammonError):
        MatRecord(players, length, ())


def test_only_the_first_game_at_one_away_is_read_as_the_crawford_game() -> None:
    text = " 3 point match\n" + "".join(
        f" Game {n}\n A : {a}   B : {b}\n      Wins 1 point\n"
        for n, (a, b) in enumerate([(0, 0), (1, 0), (2, 0), (2, 1)], 1)
    )

    record = parse_mat(text)

    assert [game.crawford for game in record.games] == [False, False, True, False]
    off = parse_mat('; [Crawford "Off"]\n' + text)
    assert not off.crawford_rule
    assert not any(game.crawford for game in off.games)


def test_replay_gives_each_position_from_the_acting_player_s_view() -> None:
    game = parse_mat(SHORT_MATCH).games[0]

    positions = replay(game)

    assert positions[0] == Board.initial()
    assert positions[1].opponent_checkers_on(20) == 2
    # the doubler sees the board after their opponent's 52, the dropper the same board turned
    assert positions[3] == positions[2].swapped()


def test_replay_names_the_action_that_breaks_the_rules() -> None:
    game = GameRecord((0, 0), (Roll(0, (3, 1), "8/5 6/4"),), winner=0, points=1)

    with pytest.raises(IllegalPlay, match=r"^Action 1 \(31: 8/5 6/4\): "):
        replay(game)


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
        cube = Cube()
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
                may_double = cube.may_double(player) and not rules.crawford_game
                if may_double and cube.value < length and rng.random() < 0.05:
                    seen.append(board.position_id())
                    actions.append(CubeDecision(player, CubeAction.DOUBLE, cube.value * 2))
                    cube = double(cube, rules, player=player, on_roll=player, rolled=False)
                    seen.append(board.swapped().position_id())
                    if rng.random() < 0.3:
                        actions.append(CubeDecision(1 - player, CubeAction.DROP))
                        dropped = drop(cube, player=1 - player)
                        winner, points = dropped.winner, dropped.points
                        endings.append("drop")
                        break
                    actions.append(CubeDecision(1 - player, CubeAction.TAKE))
                    cube = take(cube, player=1 - player)
                elif rng.random() < 0.005:
                    winner, points = 1 - player, state.game_points(ResultKind.SINGLE, cube)
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
                points = state.game_points(result.kind, cube)
                endings.append(result.kind.name.lower())
                break
            board = board.swapped()
            player = 1 - player
        games.append(GameRecord(state.score, tuple(actions), winner, points, state.crawford))
        positions.append(seen)
        state = state.after_game(winner, points)
    record = MatRecord(("Alice", "Bob"), length, tuple(games), tags=(("Site", "Crawford"),))
    return PlayedMatch(record, positions, endings)


GNUBG_IMPORT = """
import json, sys
import gnubg
gnubg.command("import mat " + sys.argv[1])
match = gnubg.match(analysis=False, boards=True, statistics=False, verbose=False)
with open(sys.argv[2], "w") as out:
    json.dump(match, out)
"""


def gnubg_import(path: Path) -> dict[str, object]:
    """What GNU Backgammon reads from a .mat file, run apart so its state stays its own."""
    out = path.with_suffix(".json")
    subprocess.run(
        [sys.executable, "-c", GNUBG_IMPORT, str(path), str(out)],
        check=True,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    result: dict[str, object] = json.loads(out.read_text())
    return result


@pytest.mark.parametrize("seed", [11, 13])
def test_gnubg_imports_our_file_to_the_same_positions_and_score(seed: int, tmp_path: Path) -> None:
    # given a random 7-point match with takes, drops, resignations and a Crawford game
    played = play_random_match(seed, length=7)
    record = played.record
    assert any(game.crawford for game in record.games)
    takes = [
        action
        for action in _actions(record)
        if action == CubeDecision(action.player, CubeAction.TAKE)
    ]
    assert takes
    assert {"drop", "resign"} <= set(played.endings)
    path = tmp_path / "match.mat"
    path.write_text(format_mat(record))

    # when GNU Backgammon imports it
    imported = gnubg_import(path)

    # then it holds the same games, the same positions before every action, the same results
    info = imported["match-info"]
    assert isinstance(info, dict)
    assert (info["X"]["name"], info["O"]["name"], info["match-length"]) == ("Alice", "Bob", 7)
    gnubg_games = imported["games"]
    assert isinstance(gnubg_games, list)
    assert len(gnubg_games) == len(record.games)
    for game, positions, theirs in zip(record.games, played.positions, gnubg_games, strict=True):
        assert (theirs["info"]["score-X"], theirs["info"]["score-O"]) == game.score_before
        assert theirs["info"]["winner"] == "XO"[game.winner]
        assert theirs["info"]["points-won"] == game.points
        assert theirs["info"].get("crawford", False) is game.crawford
        steps = [step for step in theirs["game"] if step["action"] != "resign"]
        assert [_kind(step) for step in steps] == [_our_kind(action) for action in game.actions]
        for step, action, position in zip(steps, game.actions, positions, strict=True):
            assert step["player"] == "XO"[action.player]
            if "board" in step:
                assert step["board"] == position
            if isinstance(action, Roll):
                assert sorted(step["dice"]) == sorted(action.dice)
        # and our own reading of the file replays to the same positions
        assert [board.position_id() for board in replay(game)] == positions
    assert parse_mat(path.read_text()) == record
    last = gnubg_games[-1]["info"]
    final = [last["score-X"], last["score-O"]]
    final["XO".index(last["winner"])] += last["points-won"]
    assert tuple(final) == record.final_score
    assert max(record.final_score) >= 7


def _actions(record: MatRecord) -> list[Action]:
    return [action for game in record.games for action in game.actions]


def _kind(step: dict[str, object]) -> str:
    return str(step["action"])


def _our_kind(action: Action) -> str:
    if isinstance(action, Roll):
        return "move"
    return {CubeAction.DOUBLE: "double", CubeAction.TAKE: "take", CubeAction.DROP: "drop"}[
        action.action
    ]
