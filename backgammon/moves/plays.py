"""The legal plays of a roll, one per resulting position, built as `Move` tuples directly.

Most positions take a shortcut: with nothing on the bar and too many checkers outside the home
board to bear off this turn, what one checker may do does not depend on the others; a double
that cannot bear off is four nested loops over the points. The rest (the bar with two
different dice, bearing off) is `backgammon.moves.search`.
"""

from __future__ import annotations

from collections.abc import Sequence

from backgammon.board import BAR, Board, pack_side
from backgammon.errors import InternalError
from backgammon.moves.search import search, search_two
from backgammon.moves.steps import HOME_POINTS, STEPS, Play, Results, Step, landings


def legal_plays(board: Board, dice: tuple[int, int]) -> list[Play]:
    """Every legal play with ``dice``, one per distinct resulting position.

    An empty list means no checker can move. Each play lists its single-die moves in an order
    in which they can be made.
    """
    return list(generate_from(list(board.mover), board.opponent, dice).values())


def generate(board: Board, dice: tuple[int, int]) -> Results:
    """Every legal result of ``dice``, each with one play reaching it.

    Results are keyed by packed counts so that finding a repeat costs one dict lookup.
    """
    return generate_from(list(board.mover), board.opponent, dice)


def generate_from(counts: list[int], opponent: Sequence[int], dice: tuple[int, int]) -> Results:
    """`generate` on the mover's counts (a list it may change but restores) and the opponent's."""
    die1, die2 = dice
    if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise InternalError(f"dice out of range: {dice}")
    blocked, blot = landings(opponent)
    packed = pack_side(counts)
    outside = sum(counts[HOME_POINTS:])
    if die1 == die2:
        # A checker on the bar needs all four moves to come home: nothing bears off then.
        if counts[BAR] or outside >= 4:
            return _double(counts, packed, blocked, blot, die1)
        return search(counts, packed, outside, blocked, blot, die1)
    if not counts[BAR] and outside >= 2:
        results = _two_checkers(counts, packed, blocked, blot, die1, die2)
        if results:
            return results
    return search_two(counts, packed, outside, blocked, blot, die1, die2)


def _movers(counts: list[int], blocked: bytes, blot: bytes, die: int) -> list[Step]:
    """The single moves of ``die`` from the points, bearing off aside, back checkers first.

    Back checkers first puts the plays that players look at first (and that the validator
    suggests) at the front.
    """
    steps = STEPS[die]
    return [
        steps[source][blot[source - die]]
        for source in range(BAR - 1, die - 1, -1)
        if counts[source] and not blocked[source - die]
    ]


def _two_checkers(
    counts: list[int], packed: int, blocked: bytes, blot: bytes, die1: int, die2: int
) -> Results:
    """Plays of two different dice that use both, when no move depends on another's.

    With nothing on the bar and no bearing off, a second move is legal after a first exactly
    when it was legal before, unless it moves the checker the first one moved: so the plays are
    every pair of single moves plus every checker moving twice. Empty when no play uses both.
    """
    results: Results = {}
    firsts = _movers(counts, blocked, blot, die1)
    seconds = _movers(counts, blocked, blot, die2)
    onward_steps = STEPS[die2]
    add = results.setdefault
    for source, target, change, hits, move, _ in firsts:
        after = packed + change | hits
        alone = counts[source] == 1
        if hits:
            for second_source, _, second_change, second_hits, second, unhit in seconds:
                if not alone or second_source != source:
                    # Two checkers landing on one blot: only the first hits it.
                    add(
                        after + second_change | second_hits,
                        (move, unhit if second_hits == hits else second),
                    )
        else:
            for second_source, _, second_change, second_hits, second, _ in seconds:
                if not alone or second_source != source:
                    add(after + second_change | second_hits, (move, second))
        onward = target - die2
        if onward >= 0 and not blocked[onward]:
            _, _, onward_change, onward_hits, onward_move, _ = onward_steps[target][blot[onward]]
            add(after + onward_change | onward_hits, (move, onward_move))
    onward_steps = STEPS[die1]
    for _, target, change, hits, move, _ in seconds:
        onward = target - die1
        if onward >= 0 and not blocked[onward]:
            _, _, onward_change, onward_hits, onward_move, _ = onward_steps[target][blot[onward]]
            add(packed + change + onward_change | hits | onward_hits, (move, onward_move))
    return results


def double_sources(counts: list[int], blocked: bytes, die: int) -> list[int]:
    """The points a double's moves can come from, highest first: those with a checker or
    reached by a move from a higher one, and from where ``die`` lands on no block (the bar
    first when a checker is there)."""
    holds = bytearray(counts)
    sources = []
    for source in range(BAR if counts[BAR] else BAR - 1, die - 1, -1):
        if holds[source] and not blocked[source - die]:
            sources.append(source)
            holds[source - die] = 1
    return sources


# Four nested loops kept in one function: a call per move costs more than the loops' work.
def _double(counts: list[int], packed: int, blocked: bytes, blot: bytes, die: int) -> Results:
    """Plays of a double that cannot bear off: nothing on the bar and four checkers or more
    outside the home board, or checkers on the bar (which enter before anything else moves).

    Moves are chosen from the highest point down (a move never comes from a higher point than
    the one before): any legal order of the same moves can be sorted so, and the other orders
    would only repeat results; sorted so, different moves leave different positions. A second
    move from the point of the one before lands where that one did, so it hits nothing.

    A play that stops short of four moves counts only while no longer play is known: any
    move made adds to the results of its own length or a longer one.
    """
    if counts[BAR] and blocked[BAR - die]:
        return {}
    steps = STEPS[die]
    sources = [steps[source][blot[source - die]] for source in double_sources(counts, blocked, die)]
    count = len(sources)
    fours: Results = {}
    threes: Results = {}
    twos: Results = {}
    ones: Results = {}
    for first in range(1 if counts[BAR] else count):
        a, ta, change, hits_a, move_a, _ = sources[first]
        if not counts[a]:
            continue
        packed_a = packed + change | hits_a
        counts[a] -= 1
        counts[ta] += 1
        for second in range(first, 1 if counts[BAR] else count):
            b, tb, change, hits, move_b, unhit = sources[second]
            if not counts[b]:
                continue
            if second == first:
                move_b = unhit
            packed_b = packed_a + change | hits
            counts[b] -= 1
            counts[tb] += 1
            for third in range(second, 1 if counts[BAR] else count):
                c, tc, change, hits, move_c, unhit = sources[third]
                if not counts[c]:
                    continue
                if third == second:
                    move_c = unhit
                packed_c = packed_b + change | hits
                counts[c] -= 1
                counts[tc] += 1
                for fourth in range(third, 1 if counts[BAR] else count):
                    e, _, change, hits, move, unhit = sources[fourth]
                    if not counts[e]:
                        continue
                    fours[packed_c + change | hits] = (
                        move_a,
                        move_b,
                        move_c,
                        unhit if fourth == third else move,
                    )
                counts[tc] -= 1
                counts[c] += 1
                if not fours:
                    threes[packed_c] = (move_a, move_b, move_c)
            counts[tb] -= 1
            counts[b] += 1
            if not threes and not fours:
                twos[packed_b] = (move_a, move_b)
        counts[ta] -= 1
        counts[a] += 1
        if not twos and not threes and not fours:
            ones[packed_a] = (move_a,)
    return fours or threes or twos or ones
