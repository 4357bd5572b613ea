"""Move text as GNU Backgammon and .mat files write it.

Terms and conventions:

* A play is written as its checkers' moves separated by spaces: ``24/18 13/10*``. Points are
  numbered from the mover's view; ``bar`` is where a hit checker waits, ``off`` is borne off.
* ``*`` marks a hit: the opponent's blot on that point goes to the bar.
* One checker moving several times is written as a chain: ``24/13`` (no stop shown when
  nothing happened there), ``13/7*/1`` (a stop is shown where it hit).
* ``(n)`` repeats a move for n checkers: ``8/4(2) 6/2(2)``.

`format_play` writes the canonical form, as GNU Backgammon does: chains joined, moves sorted
from the highest starting point down (of two from one point, the longer first), repeated
moves combined, a blot's hit starred once. The move list and the analysis both write plays
with it. `parse_moves` reads any of these forms (``25`` is accepted
for the bar and ``0`` for off); `backgammon.validate.parse_play` turns the moves read into the
legal play they stand for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from backgammon.board import Board
from backgammon.errors import NotationError, gettext_noop
from backgammon.moves import BAR_POINT, OFF_POINT, Move, Play

MOVE_TOKEN = re.compile(r"(bar|\d+)((?:/(?:off|\d+)\*?)+)(?:\((\d)\))?", re.IGNORECASE)
"""One written move: a start, one or more stops (``*`` after a hit), an optional repeat."""
_STOP = re.compile(r"/(off|\d+)(\*?)", re.IGNORECASE)
_MAX_REPEAT = 4


def point_name(point: int) -> str:
    """A point as written in a move: a number, ``bar`` or ``off``."""
    if point == BAR_POINT:
        return "bar"
    if point == OFF_POINT:
        return "off"
    return str(point)


def format_play(play: Sequence[Move], board: Board | None = None) -> str:
    """Canonical text of ``play``; with ``board``, hits are read from the position.

    Without a board the moves' own ``hit`` flags are used. Give the board where the text must
    name every hit whichever order the moves are read in.
    """
    moves = _with_hits(play, _blots(board)) if board is not None else list(play)
    return _written(moves)


def format_plays(plays: Sequence[Sequence[Move]], board: Board) -> list[str]:
    """``format_play(play, board)`` of each of ``plays`` from one ``board`` (a roll's legal
    plays): the board's blots are found once, not once a play."""
    if not plays:
        return []
    blots = _blots(board)
    return [_written(_with_hits(play, blots)) for play in plays]


def _written(moves: list[Move]) -> str:
    chains: list[list[Move]] = []
    for move in sorted(moves, key=lambda move: (-move.from_point, -move.to_point)):
        for chain in chains:
            if chain[-1].to_point == move.from_point != OFF_POINT:
                chain.append(move)
                break
        else:
            chains.append([move])
    # Moves that differ only by which of them hit are the same move for several checkers.
    groups: dict[str, list[list[Move]]] = {}
    for chain in chains:
        groups.setdefault(_format_chain(chain, set()).replace("*", ""), []).append(chain)
    # GNU Backgammon's order: from the highest start down, the longest of a start's chains
    # first; a blot is hit once, so only the first landing written on it carries the star.
    hit: set[int] = set()
    written = []
    for same in sorted(
        groups.values(), key=lambda same: (-same[0][0].from_point, same[0][-1].to_point)
    ):
        chain = max(same, key=lambda chain: sum(move.hit for move in chain))
        written.append(_format_chain(chain, hit) + (f"({len(same)})" if len(same) > 1 else ""))
    return " ".join(written)


def _format_chain(chain: list[Move], hit: set[int]) -> str:
    """One checker's moves as ``13/7*/1``; a hit on a point in ``hit`` (already written as
    hit) loses its star, and the points this chain hits join ``hit``."""
    parts = [point_name(chain[0].from_point)]
    for index, move in enumerate(chain):
        if move.hit or index == len(chain) - 1:
            star = move.hit and move.to_point not in hit
            parts.append(point_name(move.to_point) + ("*" if star else ""))
    hit.update(move.to_point for move in chain if move.hit)
    return "/".join(parts)


def _blots(board: Board) -> set[int]:
    """The points (the mover's numbers) where the opponent has a single checker."""
    return {point for point in range(1, 25) if board.opponent_checkers_on(point) == 1}


def _with_hits(play: Sequence[Move], blots: set[int]) -> list[Move]:
    """The moves with ``hit`` set on every landing on one of ``blots``: whichever of the
    checkers that went there the text shows first is the one that hit."""
    return [Move(move.from_point, move.to_point, move.to_point in blots) for move in play]


def parse_moves(text: str) -> Play:
    """The moves written in ``text``, as written: a chain's legs are separate moves, a move
    may span several dice, ``hit`` is set where ``*`` was written.

    Raises `NotationError` for text that is not move notation.
    """
    moves: list[Move] = []
    for token in text.replace(",", " ").split():
        match = MOVE_TOKEN.fullmatch(token)
        if match is None:
            raise NotationError(
                gettext_noop(
                    "%(token)s is not a move: write moves like 24/18, 13/10*, bar/22, 6/off or "
                    "8/4(2)"
                ),
                token=repr(token),
            )
        start, stops, repeat = match.groups()
        source = BAR_POINT if start.lower() == "bar" else int(start)
        if not 1 <= source <= BAR_POINT:
            raise NotationError(
                gettext_noop("%(token)s: a move starts on a point from 1 to 24 or the bar"),
                token=repr(token),
            )
        legs: list[Move] = []
        for stop, star in _STOP.findall(stops):
            if legs and legs[-1].to_point == OFF_POINT:
                raise NotationError(
                    gettext_noop("%(token)s: a checker borne off cannot move on"), token=repr(token)
                )
            target = OFF_POINT if stop.lower() == "off" else int(stop)
            if not 0 <= target < BAR_POINT:
                raise NotationError(
                    gettext_noop("%(token)s: a move ends on a point from 1 to 24 or off"),
                    token=repr(token),
                )
            if star and target == OFF_POINT:
                raise NotationError(
                    gettext_noop("%(token)s: nothing can be hit when bearing off"),
                    token=repr(token),
                )
            legs.append(Move(source, target, bool(star)))
            source = target
        count = int(repeat) if repeat else 1
        if not 1 <= count <= _MAX_REPEAT:
            raise NotationError(
                gettext_noop("%(token)s: a move repeats for 1 to 4 checkers"), token=repr(token)
            )
        # Only the first checker landing on a blot hits it.
        moves.extend(legs)
        moves.extend(Move(leg.from_point, leg.to_point) for _ in range(count - 1) for leg in legs)
    return tuple(moves)
