"""XGID: eXtreme Gammon's one-line text for a position with its cube, dice and score.

An XGID reads ``XGID=<position>:<cube>:<cube owner>:<turn>:<dice>:<score X>:<score O>:
<rules>:<match length>:<max cube>``:

* *position*: 26 characters. Character 0 is the top player's (O's) bar, characters 1 to 24 are
  points 1 to 24 numbered from the bottom player's (X's) view, character 25 is X's bar. ``-``
  is empty, ``A``..``O`` are 1..15 of X's checkers, ``a``..``o`` 1..15 of O's.
* *cube*: log2 of its value. *cube owner*: 1 X, -1 O, 0 centred.
* *turn*: 1 when X is on roll, -1 when O is.
* *dice*: ``00`` before rolling, two digits once rolled, ``D`` when the player on roll has
  doubled and the other must answer, ``B`` when that double was beavered (the doubler must
  answer), ``R`` when the beaver was raccooned.
* *score X*, *score O*; *match length* (0: money play).
* *rules*: in match play 1 when this game is the Crawford game; in money play 1 for the Jacoby
  rule plus 2 for beavers.
* *max cube*: log2 of the largest value the cube may reach.

Players are numbered as GNU Backgammon numbers them when it reads an XGID, so that an `Xgid`
and its `MatchId` agree: player 1 is X (bottom), player 0 is O (top). Scores are (player 0,
player 1), i.e. (O, X), unlike the text, which gives X's first.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from backgammon.board import BAR, POINTS, Board
from backgammon.cube import PLAYERS
from backgammon.errors import InvalidPosition
from backgammon.matchid import GameState, MatchId

PREFIX = "XGID="
X_PLAYER = 1
"""The bottom player, X, written in capitals."""
O_PLAYER = 0
"""The top player, O, written in small letters."""

_POSITION_LENGTH = POINTS + 2
_FIELDS = 10
_DEFAULT_MAX_CUBE = 1 << 10
_OWNERS = {1: X_PLAYER, -1: O_PLAYER, 0: None}
_TURNS = {1: X_PLAYER, -1: O_PLAYER}
_JACOBY, _BEAVERS = 1, 2


class CubeAction(Enum):
    """A cube offer waiting for an answer, as the XGID dice field writes it."""

    DOUBLED = "D"
    BEAVERED = "B"
    RACCOONED = "R"


@dataclass(frozen=True, slots=True)
class Xgid:
    """The fields of an XGID. ``board`` is seen by the player on roll (``on_roll``)."""

    board: Board
    on_roll: int = X_PLAYER
    cube_value: int = 1
    cube_owner: int | None = None
    dice: tuple[int, int] | None = None
    cube_action: CubeAction | None = None
    score: tuple[int, int] = (0, 0)
    """(player 0 = O, player 1 = X)."""
    length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = _DEFAULT_MAX_CUBE

    def __post_init__(self) -> None:
        if self.on_roll not in PLAYERS or self.cube_owner not in (None, *PLAYERS):
            raise InvalidPosition("Players are 0 (O, top) and 1 (X, bottom)")
        for name, value in (("cube", self.cube_value), ("maximum cube", self.max_cube)):
            if value < 1 or value & (value - 1):
                raise InvalidPosition(f"The {name} value is a power of two, not {value}")
        if self.dice is not None and not all(1 <= die <= 6 for die in self.dice):
            raise InvalidPosition(f"Dice show 1 to 6, not {self.dice}")
        if self.dice is not None and self.cube_action is not None:
            raise InvalidPosition("The dice are not rolled while a double waits for an answer")
        if self.length < 0 or min(self.score) < 0:
            raise InvalidPosition("A match length or score cannot be negative")
        if self.length and (self.jacoby or self.beavers):
            raise InvalidPosition("The Jacoby rule and beavers belong to money play")
        if not self.length and self.crawford:
            raise InvalidPosition("Money play has no Crawford game")

    @property
    def sides(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The checkers of (O, X), each side numbered from its own view (24: the bar)."""
        if self.on_roll == X_PLAYER:
            return self.board.opponent, self.board.mover
        return self.board.mover, self.board.opponent

    @classmethod
    def parse(cls, text: str) -> Xgid:
        """Read an XGID (the ``XGID=`` prefix is optional); raises `InvalidPosition` with the
        reason when the text is not one."""
        body = text.strip()
        if body.upper().startswith(PREFIX):
            body = body[len(PREFIX) :]
        fields = body.split(":")
        if len(fields) != _FIELDS:
            raise InvalidPosition(
                f"An XGID has 10 fields separated by ':'; {text!r} has {len(fields)}"
            )
        position, cube, owner, turn, dice, score_x, score_o, rules, length, max_cube = fields
        top, bottom = _read_position(position)
        cube_log, owner_code, turn_code, x_points, o_points, flags, match_length, max_log = (
            _integer(value, name)
            for value, name in (
                (cube, "cube"),
                (owner, "cube owner"),
                (turn, "turn"),
                (score_x, "score"),
                (score_o, "score"),
                (rules, "rules"),
                (length, "match length"),
                (max_cube, "maximum cube"),
            )
        )
        if owner_code not in _OWNERS:
            raise InvalidPosition(f"The XGID cube owner is 1, 0 or -1, not {owner_code}")
        if turn_code not in _TURNS:
            raise InvalidPosition(f"The XGID turn is 1 or -1, not {turn_code}")
        if not 0 <= cube_log <= 30 or not 0 <= max_log <= 30:
            raise InvalidPosition("The XGID cube is written as its power of two, from 0 to 30")
        if not 0 <= flags <= _JACOBY + _BEAVERS:
            raise InvalidPosition(f"The XGID rules field is 0 to 3, not {flags}")
        on_roll = _TURNS[turn_code]
        board = Board(bottom, top) if on_roll == X_PLAYER else Board(top, bottom)
        rolled, action = _read_dice(dice)
        money = match_length == 0
        return cls(
            board=board,
            on_roll=on_roll,
            cube_value=1 << cube_log,
            cube_owner=_OWNERS[owner_code],
            dice=rolled,
            cube_action=action,
            score=(o_points, x_points),
            length=match_length,
            crawford=not money and bool(flags),
            jacoby=money and bool(flags & _JACOBY),
            beavers=money and bool(flags & _BEAVERS),
            max_cube=1 << max_log,
        )

    def __str__(self) -> str:
        """The XGID text, with its ``XGID=`` prefix."""
        top, bottom = self.sides
        position = [_char(top[BAR], upper=False)]
        position += [
            _char(bottom[point - 1], upper=True)
            if bottom[point - 1]
            else _char(top[POINTS - point], upper=False)
            for point in range(1, POINTS + 1)
        ]
        position.append(_char(bottom[BAR], upper=True))
        owner = {X_PLAYER: 1, O_PLAYER: -1, None: 0}[self.cube_owner]
        if self.cube_action is not None:
            dice = self.cube_action.value
        elif self.dice is not None:
            dice = f"{self.dice[0]}{self.dice[1]}"
        else:
            dice = "00"
        if self.length:
            flags = int(self.crawford)
        else:
            flags = _JACOBY * self.jacoby + _BEAVERS * self.beavers
        fields = [
            "".join(position),
            self.cube_value.bit_length() - 1,
            owner,
            1 if self.on_roll == X_PLAYER else -1,
            dice,
            self.score[X_PLAYER],
            self.score[O_PLAYER],
            flags,
            self.length,
            self.max_cube.bit_length() - 1,
        ]
        return PREFIX + ":".join(str(field) for field in fields)

    def match_id(self) -> MatchId:
        """The same game state as a GNU Backgammon Match ID.

        A beaver or raccoon waiting for an answer has no place in a Match ID, nor has the
        maximum cube or the beaver rule.
        """
        if self.cube_action in (CubeAction.BEAVERED, CubeAction.RACCOONED):
            raise InvalidPosition("A Match ID cannot show a beaver waiting for an answer")
        doubled = self.cube_action is CubeAction.DOUBLED
        return MatchId(
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            player_on_roll=self.on_roll,
            crawford=self.crawford,
            game_state=GameState.PLAYING,
            turn=1 - self.on_roll if doubled else self.on_roll,
            double_offered=doubled,
            dice=self.dice,
            length=self.length,
            score=self.score,
            jacoby=self.jacoby,
        )

    def gnubg_id(self) -> str:
        """``PositionID:MatchID``, as positions travel through Crawford."""
        return f"{self.board.position_id()}:{self.match_id().encode()}"

    @classmethod
    def from_gnubg(cls, board: Board, match_id: MatchId) -> Xgid:
        """The XGID of a position (seen by the player on roll) and its Match ID."""
        return cls(
            board=board,
            on_roll=match_id.player_on_roll,
            cube_value=match_id.cube_value,
            cube_owner=match_id.cube_owner,
            dice=None if match_id.double_offered else match_id.dice,
            cube_action=CubeAction.DOUBLED if match_id.double_offered else None,
            score=match_id.score,
            length=match_id.length,
            crawford=match_id.crawford,
            jacoby=match_id.length == 0 and match_id.jacoby,
        )


def _char(count: int, *, upper: bool) -> str:
    if not count:
        return "-"
    return chr((ord("A") if upper else ord("a")) + count - 1)


def _read_position(position: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The (O, X) sides of an XGID position, each numbered from its own view."""
    if len(position) != _POSITION_LENGTH:
        raise InvalidPosition(
            f"An XGID position has 26 characters; {position!r} has {len(position)}"
        )
    top = [0] * (POINTS + 1)
    bottom = [0] * (POINTS + 1)
    for index, char in enumerate(position):
        if char == "-":
            continue
        if "A" <= char <= "O":
            if index == 0:
                raise InvalidPosition("The first XGID character is O's bar: X cannot stand there")
            bottom[index - 1] = ord(char) - ord("A") + 1
        elif "a" <= char <= "o":
            if index == _POSITION_LENGTH - 1:
                raise InvalidPosition("The last XGID character is X's bar: O cannot stand there")
            top[POINTS - index] = ord(char) - ord("a") + 1
        else:
            raise InvalidPosition(
                f"{char!r} is not an XGID checker count: use '-', A to O for X, a to o for O"
            )
    return tuple(top), tuple(bottom)


def _read_dice(dice: str) -> tuple[tuple[int, int] | None, CubeAction | None]:
    if dice == "00":
        return None, None
    for action in CubeAction:
        if dice == action.value:
            return None, action
    if len(dice) == 2 and all("1" <= die <= "6" for die in dice):
        return (int(dice[0]), int(dice[1])), None
    raise InvalidPosition(f"The XGID dice are 00, D, B, R or two dice from 1 to 6, not {dice!r}")


def _integer(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidPosition(f"The XGID {name} must be a whole number, not {text!r}") from None
