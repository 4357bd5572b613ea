"""What a player can do in a game, as one table from ``PlayerAction`` to the rules.

``PlayerAction`` names every action a player sends, over REST, over the WebSocket and in
the ``may_<action>`` flags of the snapshot. ``TRANSITIONS`` maps each to the
``backgammon.turns`` transition it is; ``transition`` applies one, and ``allowed`` asks the
same transitions (or their checks, for rolling and playing) which actions a seat may take
now, so neither the server's pages nor the browser restate a cube or turn rule.

Pure: no database. A refused action raises ``BackgammonError`` with the rule in words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from backgammon import turns
from backgammon.errors import BackgammonError
from backgammon.game import ResultKind
from backgammon.moves import Play
from backgammon.turns import GameRules, GameState


class PlayerAction(StrEnum):
    ROLL = "roll"
    PLAY = "play"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RACCOON = "raccoon"
    RESIGN = "resign"
    ACCEPT_RESIGN = "accept_resign"
    REJECT_RESIGN = "reject_resign"


RESIGN_LEVELS: dict[str, ResultKind] = {kind.name.lower(): kind for kind in ResultKind}
"""What a player may resign, by the word they send: "single", "gammon", "backgammon"."""
LEVEL_NAMES = tuple(RESIGN_LEVELS)
"""The levels of a win or a resignation, in words, as the API names them."""


@dataclass(frozen=True)
class Request:
    """What came with the action: the play (move text or Position ID), the resignation
    level, or, for a roll, the dice the server threw."""

    play: str | None = None
    resign: ResultKind | None = None
    dice: tuple[int, int] | None = None


@dataclass(frozen=True)
class Transition:
    """The state after an action, the play it was (for a play) and what the log records."""

    after: GameState
    played: Play | None = None
    detail: dict[str, object] = field(default_factory=dict)


Rule = Callable[[GameState, int, Request, GameRules], Transition]


def _roll(state: GameState, seat: int, request: Request, rules: GameRules) -> Transition:
    if request.dice is None:
        raise ValueError("the server throws the dice of a roll")
    return Transition(turns.roll(state, seat, request.dice))


def _play(state: GameState, seat: int, request: Request, rules: GameRules) -> Transition:
    if not request.play:
        turns.check_play(state, seat)
        raise BackgammonError('Send the play as "play": "24/18 13/10" or as "position_id"')
    after, played = turns.play(state, seat, request.play, rules)
    return Transition(after, played)


def _double(state: GameState, seat: int, request: Request, rules: GameRules) -> Transition:
    after = turns.double(state, seat, rules)
    return Transition(after, detail={"cube": after.cube.offered_value})


def _take(state: GameState, seat: int, request: Request, rules: GameRules) -> Transition:
    after = turns.take(state, seat)
    return Transition(after, detail={"cube": after.cube.value})


def _drop(state: GameState, seat: int, request: Request, rules: GameRules) -> Transition:
    return Transition(turns.drop(state, seat))


def _beaver(state: GameState, seat: int, request: Request, rules: GameRules) -> Transition:
    after = turns.beaver(state, seat, rules)
    return Transition(after, detail={"cube": after.cube.offered_value or after.cube.value})


def _raccoon(state: GameState, seat: int, request: Request, rules: GameRules) -> Transition:
    after = turns.raccoon(state, seat, rules)
    return Transition(after, detail={"cube": after.cube.value})


def _resign(state: GameState, seat: int, request: Request, rules: GameRules) -> Transition:
    if request.resign is None:
        words = '", "'.join(RESIGN_LEVELS)
        raise BackgammonError(f'Say what you resign: "{words}"')
    after = turns.resign(state, seat, request.resign.value)
    return Transition(after, detail={"level": request.resign.name.lower()})


def _accept_resign(state: GameState, seat: int, request: Request, rules: GameRules) -> Transition:
    return Transition(turns.accept_resignation(state, seat, rules))


def _reject_resign(state: GameState, seat: int, request: Request, rules: GameRules) -> Transition:
    return Transition(turns.reject_resignation(state, seat))


TRANSITIONS: dict[PlayerAction, Rule] = {
    PlayerAction.ROLL: _roll,
    PlayerAction.PLAY: _play,
    PlayerAction.DOUBLE: _double,
    PlayerAction.TAKE: _take,
    PlayerAction.DROP: _drop,
    PlayerAction.BEAVER: _beaver,
    PlayerAction.RACCOON: _raccoon,
    PlayerAction.RESIGN: _resign,
    PlayerAction.ACCEPT_RESIGN: _accept_resign,
    PlayerAction.REJECT_RESIGN: _reject_resign,
}


def transition(
    action: PlayerAction, state: GameState, seat: int, request: Request, rules: GameRules
) -> Transition:
    """Apply ``action`` by ``seat``; ``BackgammonError`` says why it is refused."""
    return TRANSITIONS[action](state, seat, request, rules)


# A roll and a play are checked without dice or a play to try: their checks are the rules'.
_CHECKS: dict[PlayerAction, Callable[[GameState, int], None]] = {
    PlayerAction.ROLL: turns.check_roll,
    PlayerAction.PLAY: turns.check_play,
}
_PROBE = Request(resign=ResultKind.SINGLE)


def allowed(state: GameState, seat: int | None, rules: GameRules) -> frozenset[PlayerAction]:
    """The actions ``seat`` may take now (none for someone not playing)."""
    if seat is None:
        return frozenset()
    may = set()
    for action in PlayerAction:
        try:
            if action in _CHECKS:
                _CHECKS[action](state, seat)
            else:
                transition(action, state, seat, _PROBE, rules)
        except BackgammonError:
            continue
        may.add(action)
    return frozenset(may)
