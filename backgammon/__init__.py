"""Backgammon rules core: board, dice, legal moves, validation, notation, the cube, match and
money play, the course of a game, and the GNUBG, XGID and .mat formats.

Pure Python with no framework imports, so every other part (web, tasks, analysis) can use it
and it can be tested on its own. Positions cross every boundary as GNU Backgammon Position IDs.
"""

# First: it decides whether the modules below load compiled or from their sources.
import backgammon.native  # noqa: F401  # isort: skip
from backgammon.board import Board
from backgammon.cube import Cube, CubeRules, Drop
from backgammon.errors import BackgammonError
from backgammon.match import MatchOptions, MatchState, game_points
from backgammon.matchid import MatchId
from backgammon.matfile import GameRecord, MatRecord, format_mat, parse_mat
from backgammon.moves import Move, Play, legal_plays, legal_positions
from backgammon.validate import validate_play
from backgammon.xgid import Xgid

__all__ = [
    "BackgammonError",
    "Board",
    "Cube",
    "CubeRules",
    "Drop",
    "GameRecord",
    "MatRecord",
    "MatchId",
    "MatchOptions",
    "MatchState",
    "Move",
    "Play",
    "Xgid",
    "format_mat",
    "game_points",
    "legal_plays",
    "legal_positions",
    "parse_mat",
    "validate_play",
]
