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

from binascii import b2a_base64
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, compress, pairwise
from operator import lshift

from backgammon.board import (
    BAR,
    POINTS,
    Board,
    decode_position_id,
    pack_side,
    packed_side_id_bits,
    position_id_from_int,
    unpack_side,
)
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

ResultKey = tuple[int, int]
"""A play's result: the mover's counts packed by `pack_side`, and a bit mask of the mover's
indices where an opponent blot was hit."""

_Results = dict[ResultKey, tuple[_Step, ...]]

_UNIT_BITS = tuple(1 << index for index in range(POINTS))
"""One bit per index, for masks of indices."""

_UNIT = tuple(1 << 8 * index for index in range(BAR + 1))
"""One checker on each index, in the packed form of a side."""


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
    mover, opponent, bits = decode_position_id(position_id)
    die1, die2 = dice
    if 1 <= die1 <= 6 and 1 <= die2 <= 6:
        ids: set[int] | None = None
        if die1 != die2:
            ids = _two_dice_ids(mover, opponent, bits, die1, die2)
        elif mover[BAR] or sum(mover[_HOME_POINTS:]) >= 4:
            ids = _double_ids(mover, opponent, bits, die1)
        if ids is not None:
            # `position_id_from_int`, inlined: a call per result costs more than the rest.
            return {b2a_base64(result.to_bytes(10, "little"))[:14].decode() for result in ids}
    results = _generate(mover, opponent, dice)
    if not results:
        return set()
    # The ID holds the opponent's bits first, then the mover's; hits change only the former.
    hit_change = _HitChange(opponent, bits)
    shift = POINTS + 1 + sum(opponent)
    return {
        position_id_from_int(
            hit_change.start + hit_change[hits] | packed_side_id_bits(packed)[0] << shift
        )
        for packed, hits in results
    }


def _start_prefix(mover: list[int], opponent: list[int]) -> list[int]:
    """``prefix[i]``: the sum of the values, in the Position ID's int, of the zeros closing the
    mover's points below ``i`` (see `_two_dice_ids`), plus a constant that differences cancel.

    The zero closing point ``i`` stands ``1 + mover[i]`` bits above the one closing point
    ``i - 1``; the mover's bits start above the opponent's 25 zeros and their checkers' ones.
    """
    zeros = accumulate(
        bytes(mover).translate(_ONE_MORE), lshift, initial=1 << POINTS + sum(opponent)
    )
    return list(accumulate(zeros))


_ONE_MORE = bytes(range(1, 256)) + b"\0"
"""For bytes.translate: each count plus one."""


def _two_dice_ids(
    mover: list[int], opponent: list[int], bits: int, die1: int, die2: int
) -> set[int] | None:
    """The results, as Position ID ints (see `id_int`), of two different dice when no move
    depends on another's (as in `_two_checkers`): checkers on the bar, or none there and no
    bearing off. None when the position is not of this kind, or when no play uses both dice
    though some checker can move: `_generate` then decides. (A checker on the bar enters
    outside the home board and stays outside all turn, so nothing bears off then either.)

    A result's int comes from the starting one without writing out its counts. A side's bits
    are a run of ones per point, each closed by a zero; the zero closing point ``i`` stands
    at bit ``i`` plus the checkers on points up to ``i``. Moving a checker from ``source`` to
    ``target`` raises by one bit the zeros closing the points ``target`` to ``source - 1``: the
    int drops by each such zero's value at the start, doubled for a point that one move
    already passed, i.e. by three times that value for a point both moves pass.
    """
    if not mover[BAR] and sum(mover[_HOME_POINTS:]) < 2:
        return None
    blocked, blot = _landings(opponent)
    if mover[BAR] and blocked[BAR - die1] and blocked[BAR - die2]:
        return set()
    prefix = _start_prefix(mover, opponent)
    if mover[BAR] > 1:
        # Each die that can enters a checker; nothing else can move.
        low = BAR - max(die1, die2)
        high = BAR - min(die1, die2)
        if blocked[low] or blocked[high]:
            entry = high if blocked[low] else low
            change = prefix[entry] - prefix[BAR]
            return {bits + change + _HitChange(opponent, bits)[blot[entry] << entry]}
        hits = blot[low] << low | blot[high] << high
        # Both spans end at the bar; the shorter one is passed twice.
        change = 2 * prefix[high] + prefix[low] - 3 * prefix[BAR]
        return {bits + change + _HitChange(opponent, bits)[hits]}
    hit_change = _HitChange(opponent, bits)
    occupied = list(compress(_DOWN, mover[23::-1]))
    ids: set[int] = set()
    if mover[BAR]:
        for first, second in ((die1, die2), (die2, die1)):
            entry = BAR - first
            if not blocked[entry]:
                entering = [(BAR, entry, prefix[entry] - prefix[BAR], blot[entry] << entry)]
                seconds = _id_movers(occupied, blocked, blot, prefix, second)
                _add_pairs(
                    ids, mover, entering, seconds, second, blocked, blot, bits, prefix, hit_change
                )
    else:
        firsts = _id_movers(occupied, blocked, blot, prefix, die1)
        seconds = _id_movers(occupied, blocked, blot, prefix, die2)
        _add_pairs(ids, mover, firsts, seconds, die2, blocked, blot, bits, prefix, hit_change)
        _add_pairs(ids, mover, seconds, [], die1, blocked, blot, bits, prefix, hit_change)
    return ids or None


_DOWN = range(POINTS - 1, -1, -1)

_IdStep = tuple[int, int, int, int]
"""A move for `_two_dice_ids`: source and target index, the change it alone makes to the
Position ID's int, and the mask of the index it hits on (0 if none)."""

_BLOCKED = bytes(count >= 2 for count in range(256))
_BLOT = bytes(count == 1 for count in range(256))


def _landings(opponent: Sequence[int]) -> tuple[bytes, bytes]:
    """By the mover's index: whether the opponent blocks it, whether an opponent blot is there."""
    opposite = bytes(opponent[23::-1])
    return opposite.translate(_BLOCKED), opposite.translate(_BLOT)


def _id_movers(
    occupied: list[int], blocked: bytes, blot: bytes, prefix: list[int], die: int
) -> list[_IdStep]:
    """`_movers` for `_two_dice_ids`, from the ``occupied`` indices (highest first)."""
    return [
        (
            source,
            source - die,
            prefix[source - die] - prefix[source],
            blot[source - die] << source - die,
        )
        for source in occupied
        if source >= die and not blocked[source - die]
    ]


def _add_pairs(
    ids: set[int],
    counts: list[int],
    firsts: list[_IdStep],
    seconds: list[_IdStep],
    die: int,
    blocked: bytes,
    blot: bytes,
    start: int,
    prefix: list[int],
    hit_change: _HitChange,
) -> None:
    """Add to ``ids`` every first move followed by a different checker's second move, and
    every first move's checker moving on by ``die``; see `_two_dice_ids`."""
    add = ids.add
    for source, target, change, hits in firsts:
        after = start + change
        alone = counts[source] == 1
        for second_source, second_target, second_change, second_hits in seconds:
            if alone and second_source == source:
                continue
            bits = after + second_change
            if second_target < source and target < second_source:
                # The spans overlap, from the higher target to the lower source.
                low = target if target > second_target else second_target
                high = source if source < second_source else second_source
                bits -= prefix[high] - prefix[low]
            add(bits + hit_change[hits | second_hits])
        onward = target - die
        if onward >= 0 and not blocked[onward]:
            bits = after - prefix[target] + prefix[onward]
            add(bits + hit_change[hits | blot[onward] << onward])


# The hot path of doubles: four nested loops kept in one function, because splitting them
# into calls costs a fifth of the move generator's time (bench/bench_legal_positions.py).
def _double_ids(  # noqa: C901
    mover: list[int], opponent: list[int], start: int, die: int
) -> set[int]:
    """`_double_in_the_field` as Position ID ints (see `_two_dice_ids`), four nested loops;
    also with checkers on the bar, which must enter before anything else moves. Empty when
    nothing can move.

    No checker can bear off: four checkers outside the home board need more than one move
    each to come home, and a checker on the bar needs all four (19 pips at least).

    Moves go from the highest point down, so each one's span ``[target, source)`` starts no
    higher than the spans before it; a point of the span already passed by ``k`` moves
    weighs ``2**k`` times its starting zero. The zero a later move meets above an earlier
    move's target has been raised by it.

    A play that stops short of four moves counts only while no longer play is known: any
    move made adds to the results of its own length or a longer one.
    """
    blocked, blot = _landings(opponent)
    prefix = _start_prefix(mover, opponent)
    hit_change = _HitChange(opponent, start)
    if mover[BAR] and blocked[BAR - die]:
        return set()
    # The bar, when a checker is there, comes first; while one is there, nothing else moves.
    top = BAR if mover[BAR] else BAR - 1
    sources = [source for source in range(top, die - 1, -1) if not blocked[source - die]]
    # By source: the change its move makes alone, and the mask of the blot it hits (if any).
    spans = [prefix[source - die] - prefix[source] for source in sources]
    landing_hits = [blot[source - die] << source - die for source in sources]
    counts = mover
    ones: set[int] = set()
    twos: set[int] = set()
    threes: set[int] = set()
    fours: set[int] = set()
    count = len(sources)
    for first in range(1 if counts[BAR] else count):
        a = sources[first]
        if not counts[a]:
            continue
        ta = a - die
        hits_a = landing_hits[first]
        bits_a = start + spans[first]
        counts[a] -= 1
        counts[ta] += 1
        for second in range(first, 1 if counts[BAR] else count):
            b = sources[second]
            if not counts[b]:
                continue
            tb = b - die
            hits_b = hits_a | landing_hits[second]
            bits_b = bits_a + spans[second]
            if ta < b:
                bits_b -= prefix[b] - prefix[ta]
            counts[b] -= 1
            counts[tb] += 1
            for third in range(second, 1 if counts[BAR] else count):
                c = sources[third]
                if not counts[c]:
                    continue
                tc = c - die
                hits_c = hits_b | landing_hits[third]
                bits_c = bits_b + spans[third]
                if tb < c:
                    bits_c -= prefix[c] - prefix[tb]
                    if ta < c:
                        bits_c -= 2 * (prefix[c] - prefix[ta])
                counts[c] -= 1
                counts[tc] += 1
                for fourth in range(third, 1 if counts[BAR] else count):
                    e = sources[fourth]
                    if not counts[e]:
                        continue
                    bits = bits_c + spans[fourth]
                    if tc < e:
                        bits -= prefix[e] - prefix[tc]
                        if tb < e:
                            bits -= 2 * (prefix[e] - prefix[tb])
                            if ta < e:
                                bits -= 4 * (prefix[e] - prefix[ta])
                    fours.add(bits + hit_change[hits_c | landing_hits[fourth]])
                counts[tc] -= 1
                counts[c] += 1
                if not fours:
                    threes.add(bits_c + hit_change[hits_c])
            counts[tb] -= 1
            counts[b] += 1
            if not threes and not fours:
                twos.add(bits_b + hit_change[hits_b])
        counts[ta] -= 1
        counts[a] += 1
        if not twos and not threes and not fours:
            ones.add(bits_a + hit_change[hits_a])
    return fours or threes or twos or ones


class _HitChange(dict[int, int]):
    """How much a Position ID's int grows when the opponent's blots at a mask of the mover's
    indices go to the bar; each mask is worked out when first asked for.

    As for the mover (see `_two_dice_ids`): a hit blot on the opponent's index ``u`` lowers
    by one bit the zeros closing the opponent's points ``u`` to 23, which adds half of each
    one's value; a zero lowered by ``r`` hits adds ``1 - 2**-r`` of its value.
    """

    __slots__ = ("opponent", "prefix", "start")

    def __init__(self, opponent: list[int], bits: int) -> None:
        self[0] = 0
        self.opponent = opponent
        # The opponent's part of the ID: its 25 zeros and its checkers' ones.
        self.start = bits & ((1 << POINTS + 1 + sum(opponent)) - 1)
        self.prefix: list[int] | None = None

    def __missing__(self, hits: int) -> int:
        prefix = self.prefix
        if prefix is None:
            # Twice the values of the zeros closing the opponent's points below each index,
            # plus a constant (see `_start_prefix`).
            doubled = accumulate(bytes(self.opponent).translate(_ONE_MORE), lshift, initial=1)
            prefix = self.prefix = list(accumulate(doubled))
        # The opponent's indices hit, lowest first, then the bar's, which ends the last span.
        indices = []
        rest = hits
        while rest:
            top = rest.bit_length() - 1
            indices.append(23 - top)
            rest ^= 1 << top
        indices.append(BAR)
        change = 0
        for lowered, (low, high) in enumerate(pairwise(indices), start=1):
            change += ((1 << lowered) - 1) * (prefix[high] - prefix[low]) >> lowered + 1
        self[hits] = change
        return change


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
    return Board(unpack_side(mover), _hit_opponent(board.opponent, hits))


def _hit_opponent(opponent: Sequence[int], hits: int) -> tuple[int, ...]:
    counts = list(opponent)
    while hits:
        index = (hits & -hits).bit_length() - 1
        hits &= hits - 1
        counts[23 - index] -= 1
        counts[BAR] += 1
    return tuple(counts)


def _to_play(steps: tuple[_Step, ...]) -> Play:
    return tuple(map(_MOVES.__getitem__, steps))


_MOVES = {
    (source, target, hit): Move(source + 1, target + 1, hit)
    for source in range(BAR + 1)
    for target in range(-1, BAR)
    for hit in (False, True)
}
"""Every single move, by its step: moves are immutable, so plays can share them."""


def generate(board: Board, dice: tuple[int, int]) -> _Results:
    """Every legal result of ``dice``, each with one sequence of single-die steps reaching it.

    Results are keyed by packed counts so that finding a repeat costs one dict lookup. Most
    positions take a shortcut: with nothing on the bar and too many checkers outside the home
    board to bear off this turn, what one checker may do does not depend on the others.
    """
    return _generate(list(board.mover), board.opponent, dice)


def _generate(counts: list[int], opponent: Sequence[int], dice: tuple[int, int]) -> _Results:
    """`generate` on the mover's counts (a list it may change but restores) and the opponent's."""
    die1, die2 = dice
    if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise InternalError(f"dice out of range: {dice}")
    # Opponent counts by the mover's index: the opponent's index 23 - i is the mover's i.
    blocked, blot = _landings(opponent)
    blots = sum(compress(_UNIT_BITS, blot))
    packed = pack_side(counts)
    outside = sum(counts[_HOME_POINTS:])
    if not counts[BAR]:
        if die1 != die2 and outside >= 2:
            results = _two_checkers(counts, packed, blocked, blots, die1, die2)
            if results:
                return results
        elif die1 == die2 and outside >= 4:
            return _double_in_the_field(counts, packed, blocked, blots, die1)
    return _search(counts, packed, outside, blocked, blots, dice)


def _movers(counts: list[int], blocked: bytes, blots: int, die: int) -> list[_Step]:
    """The single moves of ``die`` from the points, bearing off aside, back checkers first.

    Back checkers first puts the plays that players look at first (and that the validator
    suggests) at the front.
    """
    return [
        (source, source - die, bool(blots >> (source - die) & 1))
        for source in range(BAR - 1, die - 1, -1)
        if counts[source] and not blocked[source - die]
    ]


def _two_checkers(
    counts: list[int], packed: int, blocked: bytes, blots: int, die1: int, die2: int
) -> _Results:
    """Plays of two different dice that use both, when no move depends on another's.

    With nothing on the bar and no bearing off, a second move is legal after a first exactly
    when it was legal before, unless it moves the checker the first one moved: so the plays are
    every pair of single moves plus every checker moving twice. Empty when no play uses both.
    """
    results: _Results = {}
    firsts = _movers(counts, blocked, blots, die1)
    seconds = [
        (step, _UNIT[step[1]] - _UNIT[step[0]], 1 << step[1] if step[2] else 0)
        for step in _movers(counts, blocked, blots, die2)
    ]
    for first in firsts:
        source, target, hit = first
        after_first = packed + _UNIT[target] - _UNIT[source]
        hits = 1 << target if hit else 0
        alone = counts[source] == 1
        for second, change, second_hits in seconds:
            if alone and second[0] == source:
                continue
            key = (after_first + change, hits | second_hits)
            if key not in results:
                # Two checkers landing on one blot: only the first hits it.
                if hits and second_hits == hits:
                    second = (second[0], second[1], False)
                results[key] = (first, second)
        _add_second_leg(results, first, after_first, hits, die2, blocked, blots)
    for second, change, second_hits in seconds:
        _add_second_leg(results, second, packed + change, second_hits, die1, blocked, blots)
    return results


def _add_second_leg(
    results: _Results,
    first: _Step,
    after_first: int,
    hits: int,
    die: int,
    blocked: bytes,
    blots: int,
) -> None:
    """Record the checker ``first`` moved moving on by ``die``, if it can."""
    start = first[1]
    target = start - die
    if target < 0 or blocked[target]:
        return
    hit = bool(blots >> target & 1)
    key = (after_first + _UNIT[target] - _UNIT[start], hits | (1 << target if hit else 0))
    if key not in results:
        results[key] = (first, (start, target, hit))


def _double_in_the_field(
    counts: list[int], packed: int, blocked: bytes, blots: int, die: int
) -> _Results:
    """Plays of a double when nothing is on the bar and nothing can be borne off.

    Moves are chosen from the highest point down (a move never comes from a higher point than
    the one before): any legal order of the same moves can be sorted so, and the other orders
    would only repeat results. The most moves any sequence makes is what every play must make.
    """
    sources = [source for source in range(BAR - 1, die - 1, -1) if not blocked[source - die]]
    results: _Results = {}
    best = [0]
    path: list[_Step] = []

    def search(first: int, depth: int, packed: int, hits: int) -> None:
        moved = False
        if depth < 4:
            for position in range(first, len(sources)):
                source = sources[position]
                if not counts[source]:
                    continue
                moved = True
                target = source - die
                hit = bool(blots >> target & 1 and not hits >> target & 1)
                counts[source] -= 1
                counts[target] += 1
                path.append((source, target, hit))
                search(
                    position,
                    depth + 1,
                    packed + _UNIT[target] - _UNIT[source],
                    hits | (1 << target) if hit else hits,
                )
                path.pop()
                counts[target] -= 1
                counts[source] += 1
        if not moved and depth >= best[0]:
            if depth > best[0]:
                results.clear()
                best[0] = depth
            if (packed, hits) not in results:
                results[packed, hits] = tuple(path)

    search(0, 0, packed, 0)
    return results if best[0] else {}


def _search(
    counts: list[int],
    packed: int,
    outside: int,
    blocked: bytes,
    blots: int,
    dice: tuple[int, int],
) -> _Results:
    """Every legal result by trying every sequence of moves; handles the bar and bearing off.

    Depth-first over the dice, mutating one list of counts and undoing on the way back. A
    double's moves are tried from the highest point down, as in `_double_in_the_field`. Each
    finished sequence scores the pips of the dice it used; only the best score survives, which
    is both "use as many dice as possible" and "else the higher die".
    """
    die1, die2 = dice
    results: _Results = {}
    best = [0]
    path: list[_Step] = []
    ordered = die1 == die2

    def search(
        sequence: tuple[int, ...], top: int, outside: int, packed: int, hits: int, pips: int
    ) -> None:
        moved = False
        if sequence:
            die = sequence[0]
            rest = sequence[1:]
            sources: Iterable[int]
            if counts[BAR]:
                sources = (BAR,)
            else:
                # The occupied points, read before the loop: each move is undone before the next.
                highest = min(top, BAR - 1)
                sources = compress(range(highest, -1, -1), counts[highest::-1])
            for source in sources:
                target = source - die
                if target >= 0:
                    if blocked[target]:
                        continue
                    hit = bool(blots >> target & 1 and not hits >> target & 1)
                    moved = True
                    counts[source] -= 1
                    counts[target] += 1
                    path.append((source, target, hit))
                    search(
                        rest,
                        source if ordered else BAR,
                        outside - (source >= _HOME_POINTS > target),
                        packed + _UNIT[target] - _UNIT[source],
                        hits | (1 << target) if hit else hits,
                        pips + die,
                    )
                    path.pop()
                    counts[target] -= 1
                    counts[source] += 1
                elif not outside and (target == -1 or not any(counts[source + 1 : _HOME_POINTS])):
                    moved = True
                    counts[source] -= 1
                    path.append((source, -1, False))
                    search(
                        rest,
                        source if ordered else BAR,
                        0,
                        packed - _UNIT[source],
                        hits,
                        pips + die,
                    )
                    path.pop()
                    counts[source] += 1
        if not moved and pips >= best[0]:
            if pips > best[0]:
                results.clear()
                best[0] = pips
            if (packed, hits) not in results:
                results[packed, hits] = tuple(path)

    search((die1,) * 4 if ordered else (die1, die2), BAR, outside, packed, 0, 0)
    if not ordered:
        search((die2, die1), BAR, outside, packed, 0, 0)
    return results if best[0] else {}
