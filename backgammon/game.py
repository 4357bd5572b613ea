"""The end of a game: who won and how much.

Terms:

* A game ends when one player has *borne off* all 15 checkers; that player wins.
* *single* game (1 point): the loser has borne off at least one checker.
* *gammon* (2 points): the loser has borne off none.
* *backgammon* (3 points): a gammon where the loser still has a checker on the bar or in the
  winner's home board (the loser's points 19-24).

Points here are before the doubling cube multiplies them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from backgammon.board import BAR, CHECKERS, Board
from backgammon.errors import InvalidPosition

_WINNERS_HOME = slice(18, BAR + 1)
"""The loser's points 19-24 (the winner's home board) and the loser's bar."""


class Side(Enum):
    """A player relative to a board: the one on roll or the other."""

    MOVER = "mover"
    OPPONENT = "opponent"


class ResultKind(Enum):
    """How a game was won; the value is the points it scores before the cube."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class GameResult:
    winner: Side
    kind: ResultKind

    @property
    def points(self) -> int:
        """Points scored before the cube: 1, 2 or 3."""
        return self.kind.value


def game_result(
    board_or_pair: Board | tuple[Sequence[int], Sequence[int]],
) -> GameResult | None:
    """The result if the game is over, else None.

    Takes a `Board` or a pair of 25-count sides (mover, opponent) in the same layout.
    """
    if isinstance(board_or_pair, Board):
        mover: Sequence[int] = board_or_pair.mover
        opponent: Sequence[int] = board_or_pair.opponent
    else:
        mover, opponent = board_or_pair
    mover_done, opponent_done = not any(mover), not any(opponent)
    if mover_done and opponent_done:
        raise InvalidPosition("Both players cannot have borne off all their checkers")
    if mover_done:
        return GameResult(Side.MOVER, _kind(opponent))
    if opponent_done:
        return GameResult(Side.OPPONENT, _kind(mover))
    return None


def _kind(loser: Sequence[int]) -> ResultKind:
    if sum(loser) < CHECKERS:
        return ResultKind.SINGLE
    if any(loser[_WINNERS_HOME]):
        return ResultKind.BACKGAMMON
    return ResultKind.GAMMON
