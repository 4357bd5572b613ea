"""The end of a game: single game, gammon, backgammon."""

from __future__ import annotations

import pytest

from backgammon import Board
from backgammon.errors import InvalidPosition
from backgammon.game import GameResult, ResultKind, Side, game_result


@pytest.mark.parametrize(
    ("loser", "kind"),
    [
        ({6: 14}, ResultKind.SINGLE),
        ({6: 13, 24: 1}, ResultKind.SINGLE),
        ({6: 15}, ResultKind.GAMMON),
        ({6: 14, 18: 1}, ResultKind.GAMMON),
        ({6: 14, 19: 1}, ResultKind.BACKGAMMON),
        ({6: 14, 25: 1}, ResultKind.BACKGAMMON),
    ],
)
def test_the_loser_s_checkers_decide_how_much_is_won(
    loser: dict[int, int], kind: ResultKind
) -> None:
    # given the mover has just borne off the last checker
    board = Board.from_points({}, loser)

    result = game_result(board)

    assert result == GameResult(Side.MOVER, kind)
    assert result is not None
    assert result.points == kind.value


def test_the_opponent_can_be_the_winner_and_pairs_are_read_too() -> None:
    board = Board.from_points({6: 15}, {})

    assert game_result(board) == GameResult(Side.OPPONENT, ResultKind.GAMMON)
    assert game_result((board.mover, board.opponent)) == GameResult(
        Side.OPPONENT, ResultKind.GAMMON
    )


def test_a_game_in_progress_has_no_result() -> None:
    assert game_result(Board.initial()) is None


def test_both_sides_borne_off_is_impossible() -> None:
    with pytest.raises(InvalidPosition):
        game_result(Board.from_points({}, {}))
