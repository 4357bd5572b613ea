"""Backgammon rules core: board, dice, legal moves, validation, notation and game end.

Pure Python with no framework imports, so every other part (web, tasks, analysis) can use it
and it can be tested on its own. Positions cross every boundary as GNU Backgammon Position IDs.
"""

from backgammon.board import Board
from backgammon.errors import BackgammonError
from backgammon.moves import Move, Play, legal_plays, legal_positions

__all__ = ["BackgammonError", "Board", "Move", "Play", "legal_plays", "legal_positions"]
