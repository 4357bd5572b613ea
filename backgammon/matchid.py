"""GNU Backgammon Match ID: the state of a match around a position, in 12 characters.

A GNUBG ID is ``PositionID:MatchID``; the Position ID (see `backgammon.board`) says where the
checkers stand, the Match ID says everything else. Its fields, in the order of the bit string
(each field least significant bit first; see the GNU Backgammon manual, "Match ID"):

=====  ====  ===================================================================
bits   size  field
=====  ====  ===================================================================
0-3    4     cube value as log2 (0: 1, 1: 2, 2: 4, ...)
4-5    2     cube owner: 0 or 1, 3 when centred
6      1     *player on roll*: the player whose dice these are (the board's mover)
7      1     Crawford: this game is the Crawford game
8-10   3     game state: 0 no game, 1 playing, 2 over, 3 resigned, 4 ended by a drop
11     1     *turn*: the player who must act now (differs from the player on roll while
             a double or a resignation waits for an answer)
12     1     a double is offered
13-14  2     resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-17  3     first die (0: not rolled)
18-20  3     second die
21-35  15    match length (0: money play)
36-50  15    player 0's score
51-65  15    player 1's score
66     1     the Jacoby rule is *off* for this game (GNU Backgammon writes it inverted so
             that IDs written before the bit existed read as "Jacoby on"; it always sets it
             in match play, where the Jacoby rule never applies)
=====  ====  ===================================================================

The bits are packed into 9 bytes, little-endian, and base64 encoded (12 characters).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import Enum

from backgammon.cube import PLAYERS, Cube
from backgammon.errors import InvalidPosition
from backgammon.game import ResultKind
from backgammon.match import MAX_MATCH_LENGTH, MatchState

_LENGTH = 12
_BYTES = 9
_CENTRED = 3
_SCORE_LIMIT = 1 << 15
_MAX_CUBE_LOG = 15

_FIELDS = (
    ("cube_log", 4),
    ("cube_owner", 2),
    ("player_on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resignation", 2),
    ("die_1", 3),
    ("die_2", 3),
    ("length", 15),
    ("score_0", 15),
    ("score_1", 15),
    ("jacoby_off", 1),
)
_BITS = sum(width for _, width in _FIELDS)


class GameState(Enum):
    """Where the game stands, as the Match ID writes it."""

    NO_GAME = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


@dataclass(frozen=True, slots=True)
class MatchId:
    """The decoded fields of a Match ID; `encode` and `decode` convert to and from text."""

    cube_value: int = 1
    cube_owner: int | None = None
    """0 or 1, None when centred."""
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: ResultKind | None = None
    dice: tuple[int, int] | None = None
    """None before the player on roll has rolled."""
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        if self.cube_value < 1 or self.cube_value & (self.cube_value - 1):
            raise InvalidPosition(f"A cube value is a power of two, not {self.cube_value}")
        if self.cube_value > 1 << _MAX_CUBE_LOG:
            raise InvalidPosition(f"A Match ID holds a cube of at most {1 << _MAX_CUBE_LOG}")
        if self.cube_owner not in (None, *PLAYERS):
            raise InvalidPosition("The cube is centred or owned by player 0 or player 1")
        if self.player_on_roll not in PLAYERS or self.turn not in PLAYERS:
            raise InvalidPosition("The player on roll and the player to act are 0 or 1")
        if self.dice is not None and not all(1 <= die <= 6 for die in self.dice):
            raise InvalidPosition(f"Dice show 1 to 6, not {self.dice}")
        if not 0 <= self.length <= MAX_MATCH_LENGTH:
            raise InvalidPosition(f"A Match ID holds a match of at most {MAX_MATCH_LENGTH} points")
        if not all(0 <= points < _SCORE_LIMIT for points in self.score):
            raise InvalidPosition(f"A Match ID holds scores from 0 to {_SCORE_LIMIT - 1}")

    @classmethod
    def of(
        cls,
        match: MatchState,
        cube: Cube,
        *,
        player_on_roll: int,
        dice: tuple[int, int] | None = None,
        game_state: GameState = GameState.PLAYING,
        resignation: ResultKind | None = None,
        resigned_by: int | None = None,
    ) -> MatchId:
        """The Match ID of the current game of ``match``.

        The player to act is the one who must answer an open double or resignation (offered
        by ``resigned_by``), else the player on roll.
        """
        turn = player_on_roll
        if cube.awaiting is not None:
            turn = cube.awaiting
        elif resignation is not None:
            if resigned_by is None:
                raise ValueError("a resignation needs the player who offered it")
            turn = 1 - resigned_by
        return cls(
            cube_value=cube.value,
            cube_owner=cube.owner,
            player_on_roll=player_on_roll,
            crawford=match.crawford,
            game_state=game_state,
            turn=turn,
            double_offered=cube.offer is not None,
            resignation=resignation,
            dice=dice,
            length=match.length,
            score=match.score,
            jacoby=match.money and match.options.jacoby,
        )

    def encode(self) -> str:
        """The 12-character Match ID."""
        values = {
            "cube_log": self.cube_value.bit_length() - 1,
            "cube_owner": _CENTRED if self.cube_owner is None else self.cube_owner,
            "player_on_roll": self.player_on_roll,
            "crawford": int(self.crawford),
            "game_state": self.game_state.value,
            "turn": self.turn,
            "double_offered": int(self.double_offered),
            "resignation": 0 if self.resignation is None else self.resignation.value,
            "die_1": self.dice[0] if self.dice else 0,
            "die_2": self.dice[1] if self.dice else 0,
            "length": self.length,
            "score_0": self.score[0],
            "score_1": self.score[1],
            "jacoby_off": int(not self.jacoby),
        }
        number, shift = 0, 0
        for name, width in _FIELDS:
            number |= values[name] << shift
            shift += width
        return base64.b64encode(number.to_bytes(_BYTES, "little")).decode("ascii")

    @classmethod
    def decode(cls, text: str) -> MatchId:
        """Read a Match ID; raises `InvalidPosition` with the reason when it is not one."""
        match_id = text.strip()
        if len(match_id) != _LENGTH:
            raise InvalidPosition(f"A Match ID has 12 characters; {text!r} has {len(match_id)}")
        try:
            raw = base64.b64decode(match_id, validate=True)
        except binascii.Error:
            raise InvalidPosition(
                f"{text!r} is not a Match ID: it may hold only letters, digits, '+' and '/'"
            ) from None
        number = int.from_bytes(raw, "little")
        if number >> _BITS:
            raise InvalidPosition(f"{text!r} is not a Match ID: it has bits past the last field")
        fields: dict[str, int] = {}
        for name, width in _FIELDS:
            fields[name] = number & ((1 << width) - 1)
            number >>= width
        if fields["cube_owner"] == 2:
            raise InvalidPosition(f"{text!r} is not a Match ID: its cube owner is unknown")
        if fields["game_state"] > GameState.DROPPED.value:
            raise InvalidPosition(f"{text!r} is not a Match ID: its game state is unknown")
        dice = (fields["die_1"], fields["die_2"])
        if (0 in dice and dice != (0, 0)) or max(dice) > 6:
            raise InvalidPosition(f"{text!r} is not a Match ID: its dice are not a roll")
        return cls(
            cube_value=1 << fields["cube_log"],
            cube_owner=None if fields["cube_owner"] == _CENTRED else fields["cube_owner"],
            player_on_roll=fields["player_on_roll"],
            crawford=bool(fields["crawford"]),
            game_state=GameState(fields["game_state"]),
            turn=fields["turn"],
            double_offered=bool(fields["double_offered"]),
            resignation=ResultKind(fields["resignation"]) if fields["resignation"] else None,
            dice=None if dice == (0, 0) else dice,
            length=fields["length"],
            score=(fields["score_0"], fields["score_1"]),
            jacoby=not fields["jacoby_off"],
        )

    def __str__(self) -> str:
        return self.encode()
