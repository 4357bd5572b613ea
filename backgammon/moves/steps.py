"""Single moves and what the move generators share: moves as prebuilt objects, the tables of
one checker's move by each die, and applying moves to a board.

Terms are those of `backgammon.moves`. A *step* is a move as board indices of the mover's
side (0..23 the points, 24 the bar, -1 off), as the generators work with them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from backgammon.board import BAR, POINTS, Board, unpack_side
from backgammon.errors import InternalError

BAR_POINT: Final = 25
"""The bar in move notation (from the mover's view)."""
OFF_POINT: Final = 0
"""Borne off, in move notation."""

HOME_POINTS: Final = 6
"""The home board's points, indices 0..5."""


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moving from ``from_point`` to ``to_point`` (25: bar, 0: off)."""

    from_point: int
    to_point: int
    hit: bool = False


Play = tuple[Move, ...]
"""All the moves of one turn, in the order they are made."""

ResultKey = int
"""A play's result as one int, a cheap dict key: the mover's counts packed by `pack_side` in
the low `HITS_SHIFT` bits, and above them a bit mask of the mover's indices where an opponent
blot was hit (see `result_key`)."""

HITS_SHIFT: Final = 8 * (BAR + 1)
"""Where a result key's hit mask starts: above the packed side's 25 bytes."""
PACKED_MASK: Final = (1 << HITS_SHIFT) - 1

Results = dict[ResultKey, Play]
"""Every legal result of a roll, each with one play reaching it."""

UNIT: Final = tuple(1 << 8 * index for index in range(BAR + 1))
"""One checker on each index, in the packed form of a side."""

Step = tuple[int, int, int, int, Move, Move]
"""One checker's move as the generators use it: source and target index, the change to the
packed side, the bit of the target in a result key's hit mask (0 when nothing is hit), the
move, and the same move without its hit (for a second checker landing where the first one
hit). A result's key is the packed side plus the changes, or-ed with the hit bits."""

MOVES: Final = {
    (source, target, hit): Move(source + 1, target + 1, hit)
    for source in range(BAR + 1)
    for target in range(-1, BAR)
    for hit in (False, True)
}
"""Every single move, by source index, target index (-1: off) and whether it hits: moves are
immutable, so plays share them."""


def _step(source: int, target: int, hit: bool) -> Step:
    return (
        source,
        target,
        UNIT[target] - UNIT[source],
        1 << HITS_SHIFT + target if hit else 0,
        MOVES[source, target, hit],
        MOVES[source, target, False],
    )


STEPS: Final = tuple(
    tuple(
        (_step(source, source - die, False), _step(source, source - die, True))
        if source >= die >= 1
        else ()
        for source in range(BAR + 1)
    )
    for die in range(7)
)
"""``STEPS[die][source][blot]``: the checker on ``source`` moving by ``die`` onto the point
``source - die``, hitting when ``blot`` (0 or 1) says an opponent blot stands there."""

BEAR_OFF: Final = tuple(
    (source, -1, -UNIT[source], 0, MOVES[source, -1, False], MOVES[source, -1, False])
    for source in range(HOME_POINTS)
)
"""``BEAR_OFF[source]``: the checker on ``source`` (in the home board) borne off."""

_BLOCKED: Final = bytes(count >= 2 for count in range(256))
_BLOT: Final = bytes(count == 1 for count in range(256))


def landings(opponent: Sequence[int]) -> tuple[bytes, bytes]:
    """By the mover's index: whether the opponent blocks it, whether an opponent blot is there.

    The opponent's index ``23 - i`` is the mover's ``i``.
    """
    opposite = bytes(opponent[23::-1])
    return opposite.translate(_BLOCKED), opposite.translate(_BLOT)


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


def result_key(packed: int, hits: int) -> ResultKey:
    """The key of the result where the mover's side packs to ``packed`` and the blots on the
    mover's indices set in ``hits`` were hit."""
    return packed | hits << HITS_SHIFT


def split_key(key: ResultKey) -> tuple[int, int]:
    """The packed side and the hit mask of a result key."""
    return key & PACKED_MASK, key >> HITS_SHIFT


def result_board(board: Board, key: ResultKey) -> Board:
    """The board a result key stands for."""
    mover, hits = split_key(key)
    return Board(unpack_side(mover), _hit_opponent(board.opponent, hits))


def _hit_opponent(opponent: Sequence[int], hits: int) -> tuple[int, ...]:
    counts = list(opponent)
    while hits:
        index = (hits & -hits).bit_length() - 1
        hits &= hits - 1
        counts[POINTS - 1 - index] -= 1
        counts[BAR] += 1
    return tuple(counts)
