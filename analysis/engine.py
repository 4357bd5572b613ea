"""The engine interface: what an evaluation of a backgammon position says, and who said it.

Terms:

- *GNUBG ID*: ``PositionID:MatchID`` as GNU Backgammon writes it. The Match ID says who is on
  roll, the cube value and owner, the match length (0 for money play), the score and whether
  this is the Crawford game.
- *index*: player 0 or player 1, the numbering of the Match ID. Every figure is given for both.
- *cube owner*: the index of the player who may double next, or None while the cube is centred.
- *ply*: depth of the look-ahead; 0 ply is the neural net alone, 2 ply looks at both sides'
  next rolls.
- *win / gammon / backgammon chances*: chances to win the game at all, by a gammon or more,
  by a backgammon, without regard to the cube.
- *cubeless equity*: expected points per unit cube if nobody could double again.
- *cubeful equity*: expected points per unit of the current cube in money play, when the
  player on roll makes the correct cube action now (no double, or double and the opponent
  takes or passes correctly) and both sides handle the cube well later.
- *match winning chances (MWC)*: in match play, the chance to win the match, from the cubeful
  equity through the match equity table (MET), which gives each player's MWC at every score.
- *Jacoby rule*: in money play gammons count single while the cube is centred.
- *beaver*: in money play the taker may redouble at once and keep the cube.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from analysis.match_analysis import MatchAnalysis
from analysis.rules_as_played import RulesAsPlayed


class EngineError(Exception):
    """The engine failed or answered something it should not have (an internal error)."""


class EngineUnavailable(EngineError):
    """No engine is installed on this machine (or it is turned off); the message says why
    and what to install."""


class EngineTimeout(EngineError):
    """The engine did not answer within the time allowed."""


class InvalidPositionError(ValueError):
    """The GNUBG ID given is not a position the engine accepts (a caller's error)."""


class InvalidMatchError(ValueError):
    """The .mat text given is not a match the engine can import (a caller's error)."""


@dataclass(frozen=True)
class EngineInfo:
    """Which engine, which version, and which match equity table."""

    name: str
    version: str
    met: str
    met_path: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


ALLOWED_PLIES = (0, 1, 2, 3, 4)
"""Depths the engine evaluates at. Adjudication uses 2; staff may look deeper (3 takes about
half a second a position, 4 several seconds)."""


@dataclass(frozen=True)
class EvalSettings:
    """How deep and under which money rules a position is evaluated.

    Evaluations are cubeful, with pruning, without noise and deterministic, as the program's
    own ``eval`` with its default settings, so the same request gives the same numbers. As
    that command does, the position is valued before the roll: dice already thrown in the
    Match ID are not taken into account.
    """

    plies: int = 2
    jacoby: bool = False
    beavers: bool = False

    def __post_init__(self) -> None:
        if self.plies not in ALLOWED_PLIES:
            raise ValueError(f"plies must be 0 to {max(ALLOWED_PLIES)}, not {self.plies}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "plies": self.plies,
            "cubeful": True,
            "prune": True,
            "noise": 0.0,
            "deterministic": True,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
        }


@dataclass(frozen=True)
class PlayerOutlook:
    """One player's chances and values, from that player's own view."""

    index: int
    win: float
    win_gammon: float
    win_backgammon: float
    cubeless_equity: float
    cubeful_equity: float
    mwc: float | None
    cubeless_mwc: float | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CubeEquities:
    """Cubeful equities of the three cube actions for the player on roll, per unit cube."""

    no_double: float
    double_take: float
    double_pass: float
    optimal: float
    action: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Evaluation:
    """An evaluation of one GNUBG ID, for both players, with engine and settings recorded."""

    gnubg_id: str
    match_length: int
    score: tuple[int, int]
    crawford: bool
    cube_value: int
    cube_owner: int | None
    player_on_roll: int
    players: tuple[PlayerOutlook, PlayerOutlook]
    cube: CubeEquities
    settings: EvalSettings
    engine: EngineInfo

    @property
    def is_match(self) -> bool:
        return self.match_length > 0

    def player(self, index: int) -> PlayerOutlook:
        return self.players[index]

    def to_dict(self) -> dict[str, Any]:
        return {
            "gnubg_id": self.gnubg_id,
            "match_length": self.match_length,
            "score": list(self.score),
            "crawford": self.crawford,
            "cube_value": self.cube_value,
            "cube_owner": self.cube_owner,
            "player_on_roll": self.player_on_roll,
            "players": [player.to_dict() for player in self.players],
            "cube": self.cube.to_dict(),
            "settings": self.settings.to_dict(),
            "engine": self.engine.to_dict(),
        }


class Strength(enum.Enum):
    """Playing strength of the computer opponent: look-ahead depth and equity noise.

    Depth and noise follow GNU Backgammon's predefined players of the same names
    (world class being its 2-ply player). Noise is the standard deviation, in equity, of
    the normal noise added to each candidate's equity before the choice.
    """

    BEGINNER = "beginner"
    CASUAL = "casual"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"
    WORLD_CLASS = "world_class"

    @property
    def plies(self) -> int:
        return 2 if self is Strength.WORLD_CLASS else 0

    @property
    def noise(self) -> float:
        return _NOISE[self]


_NOISE = {
    Strength.BEGINNER: 0.060,
    Strength.CASUAL: 0.050,
    Strength.INTERMEDIATE: 0.040,
    Strength.ADVANCED: 0.015,
    Strength.WORLD_CLASS: 0.0,
}


@dataclass(frozen=True)
class MoveChoice:
    """The play chosen for a roll; ``move`` is None when no checker can move."""

    gnubg_id: str
    dice: tuple[int, int]
    strength: Strength
    move: str | None
    position_id: str
    equity: float | None
    best_move: str | None
    best_equity: float | None
    engine: EngineInfo

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["strength"] = self.strength.value
        data["dice"] = list(self.dice)
        return data


@dataclass(frozen=True)
class CubeDecision:
    """Whether the player on roll doubles, and whether the opponent takes if doubled."""

    gnubg_id: str
    strength: Strength
    double: bool
    take: bool
    equities: CubeEquities
    engine: EngineInfo

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["strength"] = self.strength.value
        return data


class Engine(Protocol):
    """What the platform needs from a backgammon engine."""

    @property
    def info(self) -> EngineInfo: ...

    def evaluate(self, gnubg_id: str, settings: EvalSettings) -> Evaluation: ...

    def best_move(
        self, gnubg_id: str, dice: tuple[int, int], strength: Strength, *, seed: int | None = None
    ) -> MoveChoice: ...

    def cube_decision(
        self, gnubg_id: str, strength: Strength, *, seed: int | None = None
    ) -> CubeDecision: ...

    def analyse_match(
        self, mat_text: str, *, plies: int, rules: RulesAsPlayed | None = None
    ) -> MatchAnalysis: ...
