""".mat files: writing, reading, replaying, and how each game ended."""

from __future__ import annotations

from pathlib import Path

import pytest

from backgammon.board import Board
from backgammon.errors import BackgammonError, IllegalPlay
from backgammon.matfile import (
    CubeAction,
    CubeDecision,
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

# Rows as GNU Backgammon lays them out; player 0's column is padded to its full width even
# where nothing follows (see test_mat_writer.py for why).
SHORT_MATCH = (
    """\
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
"""
    + "      Wins 2 points".ljust(33)
    + "\n\n"
)

SHORT_RECORD = MatRecord(
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


def test_a_match_is_written_in_the_columns_gnubg_writes_and_read_back() -> None:
    assert format_mat(SHORT_RECORD) == SHORT_MATCH
    assert parse_mat(SHORT_MATCH) == SHORT_RECORD
    assert SHORT_RECORD.final_score == (2, 1)


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
    # GNU Backgammon writes a roll nobody could play as the dice alone, a space after a play
    text = (
        " 1 point match\n\n Game 1\n gnubg : 0                      root : 0\n"
        "  1)                             31: 8/5 6/5 \n"
        "  2) 23: 6/4 24/21               66: 13/7 8/2 8/2 7/1* \n"
        "  3) 41: 25/24* 8/4              55: 25/20 20/15 6/1* 6/1\n"
        "  4) 21:                         16: 24/23 24/18 \n"
        "      Wins 1 point\n"
    )

    record = parse_mat(text)

    assert record.players == ("gnubg", "root")
    assert record.games[0].actions[-2:] == (Roll(0, (2, 1), ""), Roll(1, (1, 6), "24/23 24/18"))
    assert (record.games[0].winner, record.games[0].points) == (0, 1)


@pytest.mark.parametrize(
    ("players", "length"), [(("A:1", "B"), 5), (("", "B"), 5), (("A", "B"), -1)]
)
def test_a_record_gnubg_could_not_read_back_is_refused(
    players: tuple[str, str], length: int
) -> None:
    with pytest.raises(BackgammonError):
        MatRecord(players, length, ())


def test_a_money_session_is_a_record_of_length_0() -> None:
    record = MatRecord(("A", "B"), 0, ())

    assert " 0 point match\n" in format_mat(record)


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


def test_the_final_score_counts_the_last_game_only_when_it_is_finished() -> None:
    finished = GameRecord((0, 0), (), winner=1, points=2)
    unfinished = GameRecord((0, 2), (Roll(0, (3, 1), "8/5 6/5"),), winner=None, points=0)

    assert MatRecord(("A", "B"), 5, (finished,)).final_score == (0, 2)
    assert MatRecord(("A", "B"), 5, (finished, unfinished)).final_score == (0, 2)
    assert MatRecord(("A", "B"), 5, ()).final_score == (0, 0)


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


OPENING = (Roll(0, (3, 1), "8/5 6/5"), Roll(1, (5, 2), "13/8 13/11"))


@pytest.mark.parametrize(
    ("actions", "points", "ending"),
    [
        ((*OPENING,), 1, Ending(EndKind.RESIGNED, 1)),
        ((*OPENING,), 2, Ending(EndKind.RESIGNED, 2)),
        ((*OPENING,), 3, Ending(EndKind.RESIGNED, 3)),
        (
            (*OPENING, CubeDecision(0, CubeAction.DOUBLE, 2), CubeDecision(1, CubeAction.TAKE)),
            4,
            Ending(EndKind.RESIGNED, 2),
        ),
        (
            (*OPENING, CubeDecision(0, CubeAction.DOUBLE, 2), CubeDecision(1, CubeAction.TAKE)),
            6,
            Ending(EndKind.RESIGNED, 3),
        ),
        (
            (*OPENING, CubeDecision(0, CubeAction.DOUBLE, 2), CubeDecision(1, CubeAction.DROP)),
            1,
            Ending(EndKind.DROPPED, 1),
        ),
        # a double nobody answered: the game was resigned at the cube before it
        ((*OPENING, CubeDecision(0, CubeAction.DOUBLE, 2)), 1, Ending(EndKind.RESIGNED, 1)),
    ],
)
def test_a_game_ended_by_neither_a_bear_off_nor_a_drop_was_resigned_at_points_over_cube(
    actions: tuple[Roll | CubeDecision, ...], points: int, ending: Ending
) -> None:
    game = GameRecord((0, 0), actions, winner=0, points=points)

    assert game_ending(game) == ending


def test_a_game_without_a_winner_has_no_ending() -> None:
    assert game_ending(GameRecord((0, 0), OPENING, winner=None, points=0)) is None


RESIGNED_OFF_THE_CUBE = (
    Path(__file__).resolve().parents[2] / "data" / "mat" / "imports" / "resigned_off_the_cube.mat"
)


def test_a_resigned_game_scores_its_level_times_the_cube_whatever_points_are_written() -> None:
    # given a match whose resigned games are written "Wins 3 point" on a cube of 2, "Wins 2
    # points" on a cube of 2, "Wins 7 points" on a cube of 2 and "Wins 4 points" on a cube
    # of 1 (GNU Backgammon's import gives them 4, 2, 6 and 3: test_mat_gnubg.py)
    text = RESIGNED_OFF_THE_CUBE.read_text()

    # when it is read
    record = parse_mat(text)

    # then each is scored at the least level covering what is written, times the cube
    assert [(game.winner, game.points) for game in record.games] == [(0, 4), (1, 2), (0, 6), (1, 3)]
    assert [game_ending(game) for game in record.games] == [
        Ending(EndKind.RESIGNED, level) for level in (2, 1, 3, 3)
    ]
    assert record.final_score == (10, 5)
    assert parse_mat(format_mat(record)) == record
