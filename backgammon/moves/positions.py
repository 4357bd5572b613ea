"""`legal_positions`: the Position IDs a roll can lead to, worked out on the IDs' 80-bit ints.

Terms are those of `backgammon.moves`. Most positions never build a board per result: a
result's int comes from the starting one by arithmetic on the zeros that close each point's
run of ones (see `_two_dice_ids`). The rest go through the play generator.
"""

from __future__ import annotations

from binascii import b2a_base64
from itertools import repeat
from typing import Final, Literal

from backgammon.board import (
    BAR,
    POINTS,
    decode_position_id,
    packed_side_id_bits,
    position_id_from_int,
)
from backgammon.moves.plays import double_sources, generate_from
from backgammon.moves.steps import HITS_SHIFT, HOME_POINTS, PACKED_MASK, landings


def legal_positions(position_id: str, dice: tuple[int, int]) -> set[str]:
    """Position IDs of every legal result of rolling ``dice`` in ``position_id``.

    The results are seen by the player who moved (not swapped). Empty when nothing can move.
    """
    mover, opponent, bits = decode_position_id(position_id)
    die1, die2 = dice
    if 1 <= die1 <= 6 and 1 <= die2 <= 6:
        ids: set[int] | None = None
        # The results carry the separator above their 80 bits (see `_position_ids`).
        if die1 != die2:
            ids = _two_dice_ids(mover, opponent, bits | _SEPARATOR, die1, die2)
        elif mover[BAR] or sum(mover[HOME_POINTS:]) >= 4:
            ids = _double_ids(mover, opponent, bits | _SEPARATOR, die1)
        if ids is not None:
            return _position_ids(ids)
    results = generate_from(mover, opponent, dice)
    if not results:
        return set()
    # The ID holds the opponent's bits first, then the mover's; hits change only the former.
    shift = POINTS + 1 + sum(opponent)
    start = bits & (1 << shift) - 1
    hit_change = _HitChange(opponent, landings(opponent)[1])
    return {
        position_id_from_int(
            start + hit_change[key >> HITS_SHIFT]
            | packed_side_id_bits(key & PACKED_MASK)[0] << shift
        )
        for key in results
    }


def _position_ids(ids: set[int]) -> set[str]:
    """The Position IDs of results whose ints (see `id_int`) carry `_SEPARATOR`, written out
    in one go, which costs less than a base64 call and a slice per result.

    Each result takes 15 bytes, a multiple of 3, so that base64 writes it alone in 20
    characters: the ID's 14, then 6 of the separator's ``/``, which no ID holds.
    """
    little: repeat[Literal["little"]] = repeat("little")
    text = b2a_base64(
        b"".join(map(int.to_bytes, ids, repeat(_RECORD_BYTES), little)), newline=False
    ).decode()
    positions = set(text.split("//////"))
    positions.discard("")
    return positions


_RECORD_BYTES: Final = 15
_SEPARATOR: Final = 0xF << 80 | 0xFFFFFFFF << 88
"""Ones above a Position ID's 80 bits, in a 15-byte record, where base64 writes ``//////``.

Bits 84-87 stay zero: the ID's last character holds them, so it is never ``/``. Inside an ID,
six ``/`` in a row would be 36 one bits in a row of its bytes; any 24 of those cover two whole
bytes, 16 ones in a row of the int, and no run in an ID is longer than 15 checkers. So
splitting on the separator cuts exactly between results.
"""


def _run_starts(mover: list[int], opponent: list[int]) -> list[int]:
    """``starts[i]``: the bit of the Position ID's int where the run of the mover's point ``i``
    starts (``i`` up to 25, one past the bar).

    The mover's bits start above the opponent's 25 zeros and their checkers' ones, and each
    point takes one bit more than its checkers. The zeros closing the mover's points ``t`` to
    ``s - 1`` are then the zeros among bits ``starts[t]`` to ``starts[s] - 1``: with ``zeros``
    the ID's int inverted, ``zeros & _BETWEEN[starts[t]][starts[s]]`` is what a move from ``s``
    to ``t`` takes off the int (see `_two_dice_ids`). Small ints and one table lookup per
    move, where summing the zeros' values point by point would cost a big int per point.

    A plain loop: compiled, it stays in machine words and costs half of `itertools.accumulate`
    over the counts' bytes.
    """
    start = POINTS + 1 + sum(opponent)
    starts = [start] * (POINTS + 2)
    for index in range(POINTS + 1):
        start += mover[index] + 1
        starts[index + 1] = start
    return starts


_ID_BITS: Final = 80
_BETWEEN: Final = [
    [(1 << high) - (1 << low) if low <= high else 0 for high in range(_ID_BITS + 1)]
    for low in range(_ID_BITS + 1)
]
"""``_BETWEEN[low][high]``: the ones at bits ``low`` to ``high - 1``."""

_ID_MASK: Final = (1 << _ID_BITS) - 1
"""The ID's bits: its zeros are the ones of ``bits & _ID_MASK ^ _ID_MASK``, a positive int,
which costs less in ``&`` than ``~bits`` (negative ints go through two's complement copies)."""


def _two_dice_ids(
    mover: list[int], opponent: list[int], bits: int, die1: int, die2: int
) -> set[int] | None:
    """The results, as Position ID ints (see `id_int`), of two different dice when no move
    depends on another's (as in `_two_checkers`): checkers on the bar, or none there and no
    bearing off. None when the position is not of this kind, or when no play uses both dice
    though some checker can move: `generate_from` then decides. (A checker on the bar enters
    outside the home board and stays outside all turn, so nothing bears off then either.)

    A result's int comes from the starting one without writing out its counts. A side's bits
    are a run of ones per point, each closed by a zero; the zero closing point ``i`` stands
    at bit ``i`` plus the checkers on points up to ``i``. Moving a checker from ``source`` to
    ``target`` raises by one bit the zeros closing the points ``target`` to ``source - 1``: the
    int drops by each such zero's value at the start, doubled for a point that one move
    already passed, i.e. by three times that value for a point both moves pass. Hits add
    what `_hit_values` says.
    """
    if not mover[BAR] and sum(mover[HOME_POINTS:]) < 2:
        return None
    blocked, blot = landings(opponent)
    if mover[BAR] and blocked[BAR - die1] and blocked[BAR - die2]:
        return set()
    starts = _run_starts(mover, opponent)
    zeros = bits & _ID_MASK ^ _ID_MASK
    hit = _hit_values(opponent, blot)
    if mover[BAR] > 1:
        # Each die that can enters a checker; nothing else can move.
        low = BAR - max(die1, die2)
        high = BAR - min(die1, die2)
        bar = starts[BAR]
        if blocked[low] or blocked[high]:
            entry = high if blocked[low] else low
            return {bits - (zeros & _BETWEEN[starts[entry]][bar]) + hit[entry]}
        # Both spans end at the bar; the shorter one is passed twice.
        change = 2 * (zeros & _BETWEEN[starts[high]][bar]) + (zeros & _BETWEEN[starts[low]][bar])
        return {bits - change + hit[high] + (hit[low] >> 1 if hit[high] else hit[low])}
    occupied = [index for index in range(POINTS - 1, -1, -1) if mover[index]]
    ids: set[int] = set()
    if mover[BAR]:
        for first, second in ((die1, die2), (die2, die1)):
            entry = BAR - first
            if not blocked[entry]:
                entering = [
                    (BAR, entry, hit[entry] - (zeros & _BETWEEN[starts[entry]][starts[BAR]]))
                ]
                seconds = _id_movers(occupied, blocked, zeros, starts, hit, second)
                _add_pairs(ids, mover, entering, seconds, second, blocked, bits, zeros, starts, hit)
    else:
        firsts = _id_movers(occupied, blocked, zeros, starts, hit, die1)
        seconds = _id_movers(occupied, blocked, zeros, starts, hit, die2)
        _add_pairs(ids, mover, firsts, seconds, die2, blocked, bits, zeros, starts, hit)
        _add_pairs(ids, mover, seconds, [], die1, blocked, bits, zeros, starts, hit)
    return ids or None


_IdStep = tuple[int, int, int]
"""A move for `_two_dice_ids`: source and target index, and the change it alone makes to the
Position ID's int, its hit included."""


def _id_movers(
    occupied: list[int],
    blocked: bytes,
    zeros: int,
    starts: list[int],
    hit: list[int],
    die: int,
) -> list[_IdStep]:
    """`_movers` for `_two_dice_ids`, from the ``occupied`` indices (highest first)."""
    return [
        (
            source,
            source - die,
            hit[source - die] - (zeros & _BETWEEN[starts[source - die]][starts[source]]),
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
    start: int,
    zeros: int,
    starts: list[int],
    hit: list[int],
) -> None:
    """Add to ``ids`` every first move followed by a different checker's second move, and
    every first move's checker moving on by ``die``; see `_two_dice_ids`.

    Each move's change counts its hit as if it were the only one: a second hit at a lower
    index than another counts half (see `_hit_values`), and a second checker landing where
    the first one hit hits nothing.
    """
    for source, target, change in firsts:
        after = start + change
        alone = counts[source] == 1
        first_hit = hit[target]
        for second_source, second_target, second_change in seconds:
            bits = after + second_change
            if second_target < source and target < second_source:
                if alone and second_source == source:
                    continue
                # The spans overlap, from the higher target to the lower source.
                low = target if target > second_target else second_target
                high = source if source < second_source else second_source
                bits -= zeros & _BETWEEN[starts[low]][starts[high]]
                if first_hit and second_target == target:
                    ids.add(bits - first_hit)
                    continue
            if first_hit and hit[second_target]:
                lower = hit[target if target < second_target else second_target]
                bits -= lower - (lower >> 1)
            ids.add(bits)
        onward = target - die
        if onward >= 0 and not blocked[onward]:
            bits = after - (zeros & _BETWEEN[starts[onward]][starts[target]])
            ids.add(bits + (hit[onward] >> 1 if first_hit else hit[onward]))


def _hit_values(opponent: list[int], blot: bytes) -> list[int]:
    """By the mover's index: how much a Position ID's int grows when the opponent's blot there
    goes to the bar (0 where there is none), as the only hit of the play.

    As for the mover (see `_two_dice_ids`): a hit blot on the opponent's index ``u`` lowers
    by one bit the zeros closing the opponent's points ``u`` to 23, which adds half of each
    one's value; a zero lowered by ``r`` hits adds ``1 - 2**-r`` of its value. Summed over
    the hits taken from the opponent's lowest index up (the mover's highest), that is each
    hit's own value divided by two for every hit before it.

    Worked out from the counts in plain loops: the opponent's bits are the ID's lowest 40 at
    most, so compiled, every int here stays in a machine word.
    """
    values = [0] * POINTS
    # The zeros closing the opponent's points; the one closing its bar stays where it is.
    zeros = 0
    bit = 0
    for point in range(POINTS):
        bit += opponent[point]
        zeros |= 1 << bit
        bit += 1
    bit = 0
    for point in range(POINTS):
        if blot[POINTS - 1 - point]:
            # The blot's one stands at `bit`, the zeros from its point up above it.
            values[POINTS - 1 - point] = zeros >> bit + 1 << bit
        bit += opponent[point] + 1
    return values


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
    blocked, blot = landings(opponent)
    starts = _run_starts(mover, opponent)
    zeros = start & _ID_MASK ^ _ID_MASK
    between = _BETWEEN
    hit_change = _HitChange(opponent, blot)
    if mover[BAR] and blocked[BAR - die]:
        return set()
    # The bar, when a checker is there, comes first; while one is there, nothing else moves.
    sources = double_sources(mover, blocked, die)
    # By source: the source, what its move alone takes off the int (see `_run_starts`), the
    # mask of the blot it hits (if any), where its run starts, and the ones from its target's
    # run up to any higher run's start (`_BETWEEN`'s row), for the moves after it.
    moves = [
        (
            source,
            zeros & between[starts[source - die]][starts[source]],
            blot[source - die] << source - die,
            starts[source],
            between[starts[source - die]],
        )
        for source in sources
    ]
    counts = mover
    ones: set[int] = set()
    twos: set[int] = set()
    threes: set[int] = set()
    fours: set[int] = set()
    count = len(sources)
    for first in range(1 if counts[BAR] else count):
        a, drop, hits_a, _, from_ta = moves[first]
        if not counts[a]:
            continue
        ta = a - die
        bits_a = start - drop
        counts[a] -= 1
        counts[ta] += 1
        for second in range(first, 1 if counts[BAR] else count):
            b, drop, hits_b, start_b, from_tb = moves[second]
            if not counts[b]:
                continue
            tb = b - die
            hits_b |= hits_a
            bits_b = bits_a - drop
            if ta < b:
                bits_b -= zeros & from_ta[start_b]
            counts[b] -= 1
            counts[tb] += 1
            for third in range(second, 1 if counts[BAR] else count):
                c, drop, hits_c, start_c, from_tc = moves[third]
                if not counts[c]:
                    continue
                tc = c - die
                hits_c |= hits_b
                bits_c = bits_b - drop
                if tb < c:
                    bits_c -= zeros & from_tb[start_c]
                    if ta < c:
                        bits_c -= 2 * (zeros & from_ta[start_c])
                counts[c] -= 1
                counts[tc] += 1
                for fourth in range(third, 1 if counts[BAR] else count):
                    e, drop, hits, start_e, _ = moves[fourth]
                    if not counts[e]:
                        continue
                    bits = bits_c - drop
                    if tc < e:
                        bits -= zeros & from_tc[start_e]
                        if tb < e:
                            bits -= 2 * (zeros & from_tb[start_e])
                            if ta < e:
                                bits -= 4 * (zeros & from_ta[start_e])
                    hits |= hits_c
                    fours.add(bits + hit_change[hits] if hits else bits)
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
    indices go to the bar (see `_hit_values`); each mask is worked out when first asked for,
    and the blots' values when a first hit asks for them: most plays hit nothing."""

    __slots__ = ("blot", "by_index", "opponent")

    def __init__(self, opponent: list[int], blot: bytes) -> None:
        self[0] = 0
        self.opponent = opponent
        self.blot = blot
        self.by_index: list[int] | None = None

    def __missing__(self, hits: int) -> int:
        by_index = self.by_index
        if by_index is None:
            by_index = self.by_index = _hit_values(self.opponent, self.blot)
        change = 0
        before = 0
        rest = hits
        while rest:
            top = rest.bit_length() - 1
            rest ^= 1 << top
            change += by_index[top] >> before
            before += 1
        self[hits] = change
        return change
