"""Legal plays by trying every sequence of moves: the bar with two different dice, and
bearing off, where what one move allows depends on the moves before it.

Each finished sequence scores the pips of the dice it used; only the best score survives,
which is both "use as many dice as possible" and "else the higher die".
"""

from __future__ import annotations

from itertools import compress

from backgammon.board import BAR
from backgammon.moves.steps import BEAR_OFF, HOME_POINTS, STEPS, Play, Results, Step


def single_moves(
    counts: list[int], outside: int, blocked: bytes, blot: bytes, die: int, top: int = BAR - 1
) -> list[Step]:
    """Every move of one checker by ``die``: from the bar while a checker is there, else from
    the occupied points ``top`` and below, highest first, bearing off once ``outside`` (the
    checkers outside the home board) is none."""
    if counts[BAR]:
        target = BAR - die
        return [] if blocked[target] else [STEPS[die][BAR][blot[target]]]
    steps = STEPS[die]
    found = []
    for source in compress(range(top, -1, -1), counts[top::-1]):
        target = source - die
        if target >= 0:
            if not blocked[target]:
                found.append(steps[source][blot[target]])
        # A higher number bears off only from the highest occupied point.
        elif not outside and (target == -1 or not any(counts[source + 1 : HOME_POINTS])):
            found.append(BEAR_OFF[source])
    return found


def search_two(
    counts: list[int],
    packed: int,
    outside: int,
    blocked: bytes,
    blot: bytes,
    die1: int,
    die2: int,
) -> Results:
    """Every legal result of two different dice, played in either order.

    Changes ``counts`` while it works and restores it.
    """
    results: Results = {}
    best = 0
    for first_die, second_die in ((die1, die2), (die2, die1)):
        for source, target, change, hits, move, _ in single_moves(
            counts, outside, blocked, blot, first_die
        ):
            counts[source] -= 1
            if target >= 0:
                counts[target] += 1
            after = packed + change | hits
            seconds = single_moves(
                counts, outside - (source >= HOME_POINTS > target), blocked, blot, second_die
            )
            if seconds:
                if best < die1 + die2:
                    results.clear()
                    best = die1 + die2
                add = results.setdefault
                for _, _, second_change, second_hits, second, unhit in seconds:
                    # Two checkers landing on one blot: only the first hits it.
                    add(
                        after + second_change | second_hits,
                        (move, unhit if hits and second_hits == hits else second),
                    )
            elif first_die >= best:
                if first_die > best:
                    results.clear()
                    best = first_die
                results.setdefault(after, (move,))
            if target >= 0:
                counts[target] -= 1
            counts[source] += 1
    return results


def search(
    counts: list[int], packed: int, outside: int, blocked: bytes, blot: bytes, die: int
) -> Results:
    """Every legal result of a double that may bear off, by trying every sequence of moves.

    Depth-first, mutating one list of counts and undoing on the way back. Moves are tried from
    the highest point down (a move never comes from a higher point than the one before), as
    in `backgammon.moves.plays`.
    """
    results: Results = {}
    best = [0]
    path: list[Step] = []

    def walk(depth: int, top: int, outside: int, key: int) -> None:
        moved = False
        if depth < 4:
            for step in single_moves(counts, outside, blocked, blot, die, top):
                source, target, change, hit, _, _ = step
                moved = True
                counts[source] -= 1
                if target >= 0:
                    counts[target] += 1
                path.append(step)
                walk(
                    depth + 1,
                    min(source, BAR - 1),
                    outside - (source >= HOME_POINTS > target),
                    key + change | hit,
                )
                path.pop()
                if target >= 0:
                    counts[target] -= 1
                counts[source] += 1
        if not moved and depth >= best[0]:
            if depth > best[0]:
                results.clear()
                best[0] = depth
            if key not in results:
                results[key] = _play(path)

    walk(0, BAR - 1, outside, packed)
    return results if best[0] else {}


def _play(path: list[Step]) -> Play:
    """The moves of ``path``; a move landing where an earlier one hit hits nothing."""
    hits = 0
    moves = []
    for _, _, _, hit, move, unhit in path:
        moves.append(unhit if hits & hit else move)
        hits |= hit
    return tuple(moves)
