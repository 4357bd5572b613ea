"""What a player can do in a game, as one table from ``PlayerAction`` to the rules.

``PlayerAction`` names every action a player sends, over REST, over the WebSocket and in
the ``may_<action>`` flags of the snapshot. ``TRANSITIONS`` maps each to the
``backgammon.turns`` transition it is, and ``MATCH_CUBE_TRANSITIONS`` the match cube's
actions (match swing) to ``backgammon.match_cube``; ``transition`` applies one, and
``allowed`` asks the same transitions (or their checks, for rolling and playing) which
actions a seat may take now, so neither the server's pages nor the browser restate a cube
or turn rule. While a match double waits for its answer, nothing else may be done.

Pure: no database. A refused action raises ``BackgammonError`` with the rule in words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from backgammon import match_cube as match_cube_rules
from backgammon import turns
from backgammon.errors import BackgammonError, gettext_noop
from backgammon.game import ResultKind
from backgammon.match_cube import MatchCube, MatchDrop
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
    MATCH_DOUBLE = "match_double"
    MATCH_TAKE = "match_take"
    MATCH_DROP = "match_drop"


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
    """The state after an action, the play it was (for a play) and what the log records;
    for the match cube's actions, the match cube after it and, for a drop, the match's end."""

    after: GameState
    played: Play | None = None
    detail: dict[str, object] = field(default_factory=dict)
    match_cube: MatchCube | None = None
    match_dropped: MatchDrop | None = None


Rule = Callable[[GameState, int, Request, GameRules], Transition]


def _roll(state: GameState, seat: int, request: Request, rules: GameRules) -> Transition:
    if request.dice is None:
        raise ValueError("the server throws the dice of a roll")
    return Transition(turns.roll(state, seat, request.dice))


def _play(state: GameState, seat: int, request: Request, rules: GameRules) -> Transition:
    if not request.play:
        turns.check_play(state, seat)
        raise BackgammonError(
            gettext_noop('Send the play as "play": "24/18 13/10" or as "position_id"')
        )
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
        raise BackgammonError(gettext_noop('Say what you resign: "%(words)s"'), words=words)
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


MatchCubeRule = Callable[[GameState, int, MatchCube, bool], Transition]


def _match_double(state: GameState, seat: int, cube: MatchCube, turned: bool) -> Transition:
    after = match_cube_rules.double(cube, state, player=seat, game_cube_turned=turned)
    return Transition(state, detail={"match_cube": cube.value * 2}, match_cube=after)


def _match_take(state: GameState, seat: int, cube: MatchCube, turned: bool) -> Transition:
    after = match_cube_rules.take(cube, player=seat)
    return Transition(state, detail={"match_cube": after.value}, match_cube=after)


def _match_drop(state: GameState, seat: int, cube: MatchCube, turned: bool) -> Transition:
    dropped = match_cube_rules.drop(cube, player=seat)
    return Transition(
        state,
        detail={"match_cube": dropped.value},
        match_cube=replace(cube, offered_by=None),
        match_dropped=dropped,
    )


MATCH_CUBE_TRANSITIONS: dict[PlayerAction, MatchCubeRule] = {
    PlayerAction.MATCH_DOUBLE: _match_double,
    PlayerAction.MATCH_TAKE: _match_take,
    PlayerAction.MATCH_DROP: _match_drop,
}


def transition(
    action: PlayerAction,
    state: GameState,
    seat: int,
    request: Request,
    rules: GameRules,
    *,
    match_cube: MatchCube | None = None,
    game_cube_turned: bool = False,
) -> Transition:
    """Apply ``action`` by ``seat``; ``BackgammonError`` says why it is refused.

    ``match_cube``: the match's, when it has one; ``game_cube_turned``: whether the player
    on roll has doubled the game cube this turn (see ``backgammon.match_cube.double``).
    """
    if action in MATCH_CUBE_TRANSITIONS:
        if match_cube is None:
            raise BackgammonError(gettext_noop("This match is played without a match cube"))
        return MATCH_CUBE_TRANSITIONS[action](state, seat, match_cube, game_cube_turned)
    if match_cube is not None:
        match_cube_rules.check_answered(match_cube, player=seat)
    return TRANSITIONS[action](state, seat, request, rules)


# A roll and a play are checked without dice or a play to try: their checks are the rules'.
_CHECKS: dict[PlayerAction, Callable[[GameState, int], None]] = {
    PlayerAction.ROLL: turns.check_roll,
    PlayerAction.PLAY: turns.check_play,
}
_PROBE = Request(resign=ResultKind.SINGLE)


def allowed(
    state: GameState,
    seat: int | None,
    rules: GameRules,
    *,
    match_cube: MatchCube | None = None,
    game_cube_turned: bool = False,
) -> frozenset[PlayerAction]:
    """The actions ``seat`` may take now (none for someone not playing); ``match_cube`` and
    ``game_cube_turned`` as for ``transition``."""
    if seat is None:
        return frozenset()
    may = set()
    for action in PlayerAction:
        try:
            if action in _CHECKS:
                if match_cube is not None:
                    match_cube_rules.check_answered(match_cube, player=seat)
                _CHECKS[action](state, seat)
            else:
                transition(
                    action,
                    state,
                    seat,
                    _PROBE,
                    rules,
                    match_cube=match_cube,
                    game_cube_turned=game_cube_turned,
                )
        except BackgammonError:
            continue
        may.add(action)
    return frozenset(may)
