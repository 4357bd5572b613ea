"""The board: where every checker stands, seen by the player on roll.

Terms used throughout the rules core:

* *mover*: the player whose turn it is (on roll); *opponent*: the other player.
* *point*: one of the 24 places a checker can stand. Each player numbers the points from their
  own side: their point 1 is the deepest point of their *home board* (points 1-6), their point
  24 is the opponent's point 1. So the mover's point ``p`` is the opponent's point ``25 - p``.
* *bar*: where a checker goes when it is hit; it must *enter* into the opponent's home board
  before its owner may move anything else.
* *borne off*: checkers already taken off the board; every player has 15 checkers, so those not
  on a point or on the bar are borne off.
* *pip count*: the total number of pips a player needs to bear off every checker: a checker on
  point ``p`` counts ``p``, a checker on the bar counts 25.
* *Position ID*: GNU Backgammon's 14-character base64 text for a position (see the GNU
  Backgammon manual, "Position ID"): for the player NOT on roll and then for the player on roll,
  for each of their points 1..24 and their bar, as many 1 bits as checkers followed by one 0 bit;
  the 80 bits are packed least significant bit first into 10 bytes and base64 encoded without
  padding.

`Board` mirrors GNU Backgammon's board arrays: two tuples of 25 counts, index ``i`` in 0..23 is
the owner's point ``i + 1`` from the owner's own view and index 24 is the owner's bar.
"""

from __future__ import annotations

import binascii
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import mul
from typing import Final

from backgammon.errors import InvalidPosition

CHECKERS: Final = 15
"""Checkers each player owns."""

POINTS: Final = 24
BAR: Final = 24
"""Index of the bar in a side's 25 counts."""

_INITIAL_SIDE: Final = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)

_ID_LENGTH: Final = 14
_ID_BYTES: Final = 10


@dataclass(frozen=True, slots=True)
class Board:
    """A position from the view of the player on roll.

    ``mover[i]`` is how many of the mover's checkers stand on the mover's point ``i + 1``
    (``mover[24]``: on the mover's bar); ``opponent[i]`` likewise for the opponent, numbered
    from the opponent's own view. Construction checks that the position can occur and raises
    `InvalidPosition` otherwise.
    """

    mover: tuple[int, ...]
    opponent: tuple[int, ...]

    def __post_init__(self) -> None:
        for name, side in (("player on roll", self.mover), ("opponent", self.opponent)):
            if len(side) != POINTS + 1:
                raise InvalidPosition(
                    f"A position needs 25 counts for the {name} (24 points and the bar), "
                    f"not {len(side)}"
                )
            if min(side) < 0:
                raise InvalidPosition(f"The {name} cannot have a negative number of checkers")
            if sum(side) > CHECKERS:
                raise InvalidPosition(
                    f"The {name} has {sum(side)} checkers on the board; a player has only 15"
                )
        # The mover's index i is the opponent's index 23 - i; a product is non-zero only
        # where both have checkers.
        if any(map(mul, self.mover[:POINTS], self.opponent[POINTS - 1 :: -1])):
            index = next(i for i in range(POINTS) if self.mover[i] and self.opponent[23 - i])
            raise InvalidPosition(
                f"Point {index + 1} of the player on roll holds checkers of both players"
            )
        if (
            self.mover[BAR]
            and self.opponent[BAR]
            and all(self.mover[i] >= 2 and self.opponent[i] >= 2 for i in range(6))
        ):
            raise InvalidPosition(
                "Both players have a checker on the bar against a closed home board, "
                "which cannot happen"
            )

    @classmethod
    def initial(cls) -> Board:
        """The starting position: 2 on the 24 point, 5 on the 13, 3 on the 8, 5 on the 6."""
        return cls(_INITIAL_SIDE, _INITIAL_SIDE)

    @classmethod
    def from_points(cls, mover: Mapping[int, int], opponent: Mapping[int, int]) -> Board:
        """Build a board from ``{point: count}`` maps, each side numbered from its own view.

        Point 25 stands for the bar; points left out are empty, so the rest is borne off.
        """
        return cls(_side_from_points(mover), _side_from_points(opponent))

    @classmethod
    def from_position_id(cls, position_id: str) -> Board:
        """Decode a GNU Backgammon Position ID (14 base64 characters)."""
        mover, opponent, _ = decode_position_id(position_id)
        return cls(tuple(mover), tuple(opponent))

    def position_id(self) -> str:
        """This position as a GNU Backgammon Position ID."""
        return encode_position_id(self.mover, self.opponent)

    def swapped(self) -> Board:
        """The same position seen by the other player (as when the turn passes)."""
        return Board(self.opponent, self.mover)

    def pip_count(self) -> tuple[int, int]:
        """Pips (mover, opponent) each needs to bear off everything."""
        return _pips(self.mover), _pips(self.opponent)

    def borne_off(self) -> tuple[int, int]:
        """Checkers (mover, opponent) have borne off."""
        return CHECKERS - sum(self.mover), CHECKERS - sum(self.opponent)

    @property
    def on_bar(self) -> tuple[int, int]:
        """Checkers (mover, opponent) have on the bar."""
        return self.mover[BAR], self.opponent[BAR]

    def mover_checkers_on(self, point: int) -> int:
        """The mover's checkers on the mover's ``point`` (25: the bar, 0: borne off)."""
        if point == 0:
            return CHECKERS - sum(self.mover)
        return self.mover[point - 1]

    def opponent_checkers_on(self, point: int) -> int:
        """The opponent's checkers on the mover's ``point`` (1..24), i.e. its point 25 - point."""
        return self.opponent[POINTS - point]

    def __str__(self) -> str:
        return self.position_id()


def decode_position_id(position_id: str) -> tuple[list[int], list[int], int]:
    """The (mover, opponent) counts of a Position ID, checked as `Board` checks them, and its
    80 bits as an int (see `id_int`).

    Raises `InvalidPosition`, with `Board`'s reasons, for an ID no position has. Lists, not
    tuples, and no `Board`: the move generator works on these directly.
    """
    text = position_id.strip()
    if len(text) != _ID_LENGTH:
        raise InvalidPosition(f"A Position ID has 14 characters; {position_id!r} has {len(text)}")
    try:
        raw = binascii.a2b_base64(text + "==", strict_mode=True)
    except binascii.Error:
        raise InvalidPosition(
            f"{position_id!r} is not a Position ID: it may hold only letters, digits, '+' and '/'"
        ) from None
    # The runs of ones, each closed by a zero, read a byte at a time from a table: a run
    # open at the end of a byte goes on into the next.
    runs: list[int] = []
    open_run = 0
    for byte in raw:
        first, whole, last = _BYTE_RUNS[byte]
        if first < 0:
            open_run += 8
        else:
            runs.append(open_run + first)
            runs += whole
            open_run = last
    if len(runs) < 2 * (POINTS + 1):
        raise InvalidPosition(f"{position_id!r} describes more than 30 checkers")
    if open_run or any(runs[2 * (POINTS + 1) :]):
        raise InvalidPosition(f"{position_id!r} has checkers beyond the last point")
    bits = int.from_bytes(raw, "little")
    # The ID lists the player not on roll first.
    opponent = runs[: POINTS + 1]
    mover = runs[POINTS + 1 : 2 * (POINTS + 1)]
    opponent_checkers = sum(opponent)
    if (
        opponent_checkers > CHECKERS
        # Every one bit is a checker.
        or bits.bit_count() - opponent_checkers > CHECKERS
        or (mover[BAR] and opponent[BAR])
        # The opponent's counts on the points where the mover has checkers.
        or any(compress(opponent[POINTS - 1 :: -1], mover))
    ):
        # Rare: let Board find the reason (a bar on each side is often legal).
        Board(tuple(mover), tuple(opponent))
    return mover, opponent, bits


def _byte_runs(byte: int) -> tuple[int, tuple[int, ...], int]:
    """A byte of a Position ID, least significant bit first, as runs of ones: the ones before
    its first zero (-1 when it has none), the runs closed by each later zero, the ones after
    its last zero."""
    runs = [len(run) for run in format(byte, "08b")[::-1].split("0")]
    if len(runs) == 1:
        return -1, (), 0
    return runs[0], tuple(runs[1:-1]), runs[-1]


_BYTE_RUNS: Final = [_byte_runs(byte) for byte in range(256)]


def encode_position_id(mover: Sequence[int], opponent: Sequence[int]) -> str:
    """The Position ID of a position given as two 25-count sides (mover is on roll)."""
    return position_id_from_int(id_int(pack_side(mover), pack_side(opponent)))


def id_int(mover: int, opponent: int) -> int:
    """The 80 bits of a Position ID as one int, from both sides packed by `pack_side`."""
    opponent_bits, opponent_length = packed_side_id_bits(opponent)
    return opponent_bits | packed_side_id_bits(mover)[0] << opponent_length


def position_id_from_int(bits: int) -> str:
    """The Position ID whose 80 bits (see `id_int`) are given."""
    return binascii.b2a_base64(bits.to_bytes(_ID_BYTES, "little"))[:_ID_LENGTH].decode("ascii")


def packed_side_id_bits(packed: int) -> tuple[int, int]:
    """A packed side's part of a Position ID, point 1's run lowest, and its number of bits.

    Five table lookups, one per five points, in place of a loop over the 25 counts.
    """
    try:
        bits, length = _CHUNK_BITS[packed >> 160]
        for shift in (120, 80, 40, 0):
            chunk, chunk_length = _CHUNK_BITS[packed >> shift & _CHUNK_MASK]
            bits = chunk | bits << chunk_length
            length += chunk_length
    except KeyError:
        # More than 15 checkers in five points: no real side, but the ID can still be written.
        bits = length = 0
        for count in reversed(packed.to_bytes(POINTS + 1, "little")):
            bits = (1 << count) - 1 | bits << count + 1
            length += count + 1
    return bits, length


def pack_side(counts: Sequence[int]) -> int:
    """A side's 25 counts as one int, a byte per point (point 1 lowest): a cheap dict key."""
    return int.from_bytes(bytes(counts), "little")


def unpack_side(packed: int) -> tuple[int, ...]:
    """The 25 counts `pack_side` packed."""
    return tuple(packed.to_bytes(POINTS + 1, "little"))


def _chunk_bits() -> dict[int, tuple[int, int]]:
    """Position ID bits and their number for every way to put at most 15 checkers on five
    points, keyed by the five counts packed as `pack_side` packs them."""
    table = {0: (0, 0)}
    for place in range(_CHUNK_POINTS):
        table = {
            key | count << 8 * place: (bits | ((1 << count) - 1) << length, length + count + 1)
            for key, (bits, length) in table.items()
            # Each point so far took one bit more than its checkers.
            for count in range(CHECKERS + 1 - (length - place))
        }
    return table


_CHUNK_POINTS: Final = 5
_CHUNK_MASK: Final = (1 << 8 * _CHUNK_POINTS) - 1
_CHUNK_BITS: Final = _chunk_bits()
"""`_chunk_bits`: 15,504 entries."""


def _pips(side: tuple[int, ...]) -> int:
    return sum(count * (index + 1) for index, count in enumerate(side))


def _side_from_points(points: Mapping[int, int]) -> tuple[int, ...]:
    side = [0] * (POINTS + 1)
    for point, count in points.items():
        if not 1 <= point <= POINTS + 1:
            raise InvalidPosition(f"There is no point {point}: points run 1-24, 25 is the bar")
        side[point - 1] = count
    return tuple(side)
