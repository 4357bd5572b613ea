"""Legal moves: which plays the rules allow with a roll of the dice.

Terms:

* *move*: one checker moving by the number on one die (a double lets four such moves). Points
  are numbered from the mover's view, as GNU Backgammon writes them: 25 is the bar, 1..24 the
  points, 0 is off the board (*borne off*).
* *hit*: landing on a point where the opponent has a single checker (a *blot*); that checker
  goes to the opponent's bar.
* *blocked* point: one where the opponent has two or more checkers; nothing may land there.
* *enter*: move a checker from the bar with die ``d`` to the mover's point ``25 - d`` (in the
  opponent's home board). While a checker is on the bar, nothing else may move.
* *bear off*: once all 15 checkers are in the home board (points 1-6), a checker on point ``d``
  leaves with die ``d``; a higher die may bear off from the highest occupied point.
* *play*: all moves of one turn. The rules demand as many dice as can be played; when only one
  of two different dice can be played, the higher one if it can.

Two plays that leave the same position (the same checkers on the same points and the same
opponent checkers hit) are the same play; `legal_plays` lists each resulting position once.

The package: `steps` (single moves, applying them), `plays` (the generator and its shortcuts),
`search` (the bar and bearing off), `positions` (results as Position IDs).
"""

from backgammon.moves.plays import generate, legal_plays
from backgammon.moves.positions import legal_positions
from backgammon.moves.steps import (
    BAR_POINT,
    OFF_POINT,
    Move,
    Play,
    ResultKey,
    Results,
    apply_move,
    apply_play,
    result_board,
    result_key,
    split_key,
)

__all__ = [
    "BAR_POINT",
    "OFF_POINT",
    "Move",
    "Play",
    "ResultKey",
    "Results",
    "apply_move",
    "apply_play",
    "generate",
    "legal_plays",
    "legal_positions",
    "result_board",
    "result_key",
    "split_key",
]
