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
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from backgammon.board import BAR, Board, encode_position_id
from backgammon.errors import InternalError

BAR_POINT = 25
"""The bar in move notation (from the mover's view)."""
OFF_POINT = 0
"""Borne off, in move notation."""

_HOME_POINTS = 6


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moving from ``from_point`` to ``to_point`` (25: bar, 0: off)."""

    from_point: int
    to_point: int
    hit: bool = False


Play = tuple[Move, ...]
"""All the moves of one turn, in the order they are made."""

_Step = tuple[int, int, bool]
"""A move as board indices: from (24: bar), to (-1: off), whether it hits."""

ResultKey = tuple[tuple[int, ...], int]
"""A play's result: the mover's 25 counts and a bit mask of the mover's indices hit."""


def legal_plays(board: Board, dice: tuple[int, int]) -> list[Play]:
    """Every legal play with ``dice``, one per distinct resulting position.

    An empty list means no checker can move. Each play lists its single-die moves in an order
    in which they can be made.
    """
    return [_to_play(steps) for steps in generate(board, dice).values()]


def legal_positions(position_id: str, dice: tuple[int, int]) -> set[str]:
    """Position IDs of every legal result of rolling ``dice`` in ``position_id``.

    The results are seen by the player who moved (not swapped). Empty when nothing can move.
    """
    board = Board.from_position_id(position_id)
    return {result_position_id(board, key) for key in generate(board, dice)}


def apply_move(board: Board, move: Move) -> Board:
    """The board after ``move``, still from the mover's view; hits the blot it lands on.

    Checks only that the checker exists and the landing point is not blocked; whether the move
    fits the dice is for `legal_plays` and the validator to decide.
    """
    return apply_play(board, (move,))


def apply_play(board: Board, play: Iterable[Move]) -> Board:
    """The board after every move of ``play``, from the mover's view (not swapped)."""
    mover = list(board.mover)
    opponent = list(board.opponent)
    for move in play:
        source = move.from_point - 1
        if not 0 <= source <= BAR or not mover[source]:
            raise InternalError(f"no checker to move in {move}")
        mover[source] -= 1
        if move.to_point == OFF_POINT:
            continue
        target = move.to_point - 1
        opposing = 23 - target
        if not 0 <= target < BAR or opponent[opposing] > 1:
            raise InternalError(f"cannot land: {move}")
        if opponent[opposing]:
            opponent[opposing] = 0
            opponent[BAR] += 1
        mover[target] += 1
    return Board(tuple(mover), tuple(opponent))


def result_board(board: Board, key: ResultKey) -> Board:
    """The board a result key stands for."""
    mover, hits = key
    return Board(mover, _hit_opponent(board.opponent, hits))


def result_position_id(board: Board, key: ResultKey) -> str:
    """The Position ID a result key stands for, without building a `Board`."""
    mover, hits = key
    opponent = _hit_opponent(board.opponent, hits) if hits else board.opponent
    return encode_position_id(mover, opponent)


def _hit_opponent(opponent: tuple[int, ...], hits: int) -> tuple[int, ...]:
    counts = list(opponent)
    for index in range(24):
        if hits >> index & 1:
            counts[23 - index] -= 1
            counts[BAR] += 1
    return tuple(counts)


def _to_play(steps: tuple[_Step, ...]) -> Play:
    return tuple(Move(source + 1, target + 1, hit) for source, target, hit in steps)


def generate(board: Board, dice: tuple[int, int]) -> dict[ResultKey, tuple[_Step, ...]]:
    """Every legal result of ``dice``, each with one sequence of single-die steps reaching it.

    Depth-first search over the dice, mutating one list of counts and undoing on the way back,
    because building a board per step would dominate the cost. A double's moves are tried in
    order of non-increasing source point: any legal order of the same moves can be reordered
    that way, so the other orders would only repeat results. Each finished sequence scores the
    pips of the dice it used; only the best score survives, which is both "use as many dice as
    possible" and "else the higher die".
    """
    die1, die2 = dice
    if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise InternalError(f"dice out of range: {dice}")
    mover = list(board.mover)
    # Opponent counts indexed by the mover's index: its point 24 - i is the mover's i + 1.
    opposing = board.opponent[23::-1]
    blocked = tuple(count >= 2 for count in opposing)
    blots = sum(1 << index for index, count in enumerate(opposing) if count == 1)
    results: dict[ResultKey, tuple[_Step, ...]] = {}
    best = [0]
    path: list[_Step] = []
    ordered = die1 == die2
    sequence = (die1,) * 4 if ordered else (die1, die2)

    def search(depth: int, top: int, outside: int, hits: int, pips: int) -> None:
        moved = False
        if depth < len(sequence):
            die = sequence[depth]
            sources: Iterable[int] = (BAR,) if mover[BAR] else range(min(top, 23), -1, -1)
            for source in sources:
                if not mover[source]:
                    continue
                target = source - die
                if target >= 0:
                    if blocked[target]:
                        continue
                    hit = bool(blots >> target & 1 and not hits >> target & 1)
                    moved = True
                    mover[source] -= 1
                    mover[target] += 1
                    path.append((source, target, hit))
                    search(
                        depth + 1,
                        source if ordered else BAR,
                        outside - (source >= _HOME_POINTS > target),
                        hits | (1 << target) if hit else hits,
                        pips + die,
                    )
                    path.pop()
                    mover[target] -= 1
                    mover[source] += 1
                elif not outside and (target == -1 or not any(mover[source + 1 : _HOME_POINTS])):
                    moved = True
                    mover[source] -= 1
                    path.append((source, -1, False))
                    search(depth + 1, source if ordered else BAR, 0, hits, pips + die)
                    path.pop()
                    mover[source] += 1
        if not moved and pips >= best[0]:
            if pips > best[0]:
                results.clear()
                best[0] = pips
            key = (tuple(mover), hits)
            if key not in results:
                results[key] = tuple(path)

    outside = sum(mover[_HOME_POINTS:])
    search(0, BAR, outside, 0, 0)
    if not ordered:
        sequence = (die2, die1)
        search(0, BAR, outside, 0, 0)
    if best[0] == 0:
        return {}
    return results
