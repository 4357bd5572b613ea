"""Fair dice that anyone can check after the match.

Each match draws a secret *seed* from ``secrets`` when it starts and shows both players
its SHA-256 *commitment*. Every die is derived from the seed: the bytes of
HMAC-SHA256(seed, "game:roll:block") are read in turn, bytes of 252 and above are
thrown away (*rejection sampling*, so each face has exactly 42 of the 252 kept values)
and the rest give ``byte % 6 + 1``. Roll 0 of a game is its opening roll, which draws
one die per player until they differ (equal throws may double the cube automatically
in money play). When the match ends the seed is revealed and
every roll in the log can be recomputed.

Pure Python: no Django.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator

SEED_BYTES = 32
ACCEPTED_BELOW = 252  # the largest multiple of 6 not above 256


def new_seed() -> str:
    """A fresh secret seed, as 64 hexadecimal digits."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """The SHA-256 of the seed, shown to both players before the first roll."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def dice_stream(seed: str, game_number: int, roll_number: int) -> Iterator[int]:
    """Endless dice for one roll of one game, derived from the seed."""
    key = bytes.fromhex(seed)
    block = 0
    while True:
        digest = hmac.new(
            key, f"{game_number}:{roll_number}:{block}".encode(), hashlib.sha256
        ).digest()
        for byte in digest:
            if byte < ACCEPTED_BELOW:
                yield byte % 6 + 1
        block += 1


def opening_throws(seed: str, game_number: int) -> list[tuple[int, int]]:
    """The opening throws of a game, (player 0's die, player 1's die) each, up to and
    including the first that differ; equal throws were thrown again."""
    stream = dice_stream(seed, game_number, 0)
    throws = []
    while True:
        throw = next(stream), next(stream)
        throws.append(throw)
        if throw[0] != throw[1]:
            return throws


def turn_dice(seed: str, game_number: int, roll_number: int) -> tuple[int, int]:
    """The dice of a later roll (``roll_number`` from 1) of a game."""
    if roll_number < 1:
        raise ValueError("roll 0 of a game is its opening roll")
    stream = dice_stream(seed, game_number, roll_number)
    return next(stream), next(stream)
