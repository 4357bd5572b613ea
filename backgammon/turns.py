"""The course of one game: rolls, plays, the doubling cube and resignations.

Terms:

* *seat*: player 0 or player 1 of a match; the board is always kept from the view of
  the player *on roll* (the seat whose turn it is).
* *phase*: what the game waits for. ``ROLL``: the player on roll doubles or rolls.
  ``MOVE``: they play the dice. ``DOUBLED``: their opponent takes, drops or (money
  play, when allowed) beavers. ``RESIGNATION``: the other player accepts or rejects an
  offered resignation. ``OVER``: the game has a result.
* *cube*: its value and owner (centred while nobody has taken a double). The player on
  roll may double before rolling when the cube is centred or theirs, never in the
  Crawford game and never beyond the maximum cube. A *drop* loses the value before
  the double; a *beaver* takes and redoubles at once, the beaverer keeping the cube.
* *level*: 1 single, 2 gammon, 3 backgammon. A game scores cube × level, except that
  under the *Jacoby rule* (money play) gammons and backgammons count as singles
  while the cube has not been turned.

Every function takes a state and returns a new one, or raises `BackgammonError` with
a message for the player. Randomness stays outside: the caller passes the dice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from backgammon.board import Board
from backgammon.errors import BackgammonError
from backgammon.game import Side, game_result
from backgammon.moves import Play, legal_plays
from backgammon.validate import validate_play

CENTRED = -1
LEVEL_NAMES = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


class Phase(Enum):
    ROLL = "roll"
    MOVE = "move"
    DOUBLED = "doubled"
    RESIGNATION = "resignation"
    OVER = "over"


class EndReason(Enum):
    BORNE_OFF = "played"
    DROPPED = "dropped"
    RESIGNED = "resigned"
    TIMEOUT = "timeout"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class GameRules:
    """What a game may do, set by the match: cube limits, Crawford, Jacoby, beavers."""

    crawford_game: bool = False
    money: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = 0
    cube_enabled: bool = True


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: int
    level: int
    points: int
    reason: EndReason


@dataclass(frozen=True, slots=True)
class GameState:
    board: Board
    on_roll: int
    phase: Phase
    dice: tuple[int, int] | None = None
    cube_value: int = 1
    cube_owner: int = CENTRED
    cube_turned: bool = False
    offered_by: int | None = None
    offered_level: int | None = None
    resume_phase: Phase | None = None
    outcome: Outcome | None = None

    @property
    def to_act(self) -> int | None:
        """The seat the game waits for, or None when it is over."""
        if self.phase is Phase.OVER:
            return None
        if self.phase in (Phase.DOUBLED, Phase.RESIGNATION):
            assert self.offered_by is not None
            return 1 - self.offered_by
        return self.on_roll

    def board_for(self, seat: int) -> Board:
        """The board from ``seat``'s view."""
        return self.board if seat == self.on_roll else self.board.swapped()


def opening(opening_dice: tuple[int, int], *, board: Board | None = None) -> GameState:
    """A new game after the opening roll: the higher die's player plays both numbers.

    ``opening_dice`` is (player 0's die, player 1's die).
    """
    first, second = opening_dice
    if first == second:
        raise ValueError("the opening roll is thrown again until the dice differ")
    starter = 0 if first > second else 1
    state = GameState(
        board=board or Board.initial(),
        on_roll=starter,
        phase=Phase.MOVE,
        dice=(max(first, second), min(first, second)),
    )
    return _pass_if_blocked(state)


def may_double(state: GameState, seat: int, rules: GameRules) -> str | None:
    """Why ``seat`` may not double now, or None if they may."""
    if state.phase is Phase.OVER:
        return "The game is over"
    if not rules.cube_enabled:
        return "This game is played without the doubling cube"
    if rules.crawford_game:
        return "No doubling in the Crawford game"
    if state.phase is not Phase.ROLL or state.on_roll != seat:
        if state.on_roll == seat and state.phase is Phase.MOVE:
            return "Doubling is only allowed before you roll"
        return "You may double only on your own turn, before rolling"
    if state.cube_owner not in (CENTRED, seat):
        return "You may not double: your opponent owns the cube"
    if rules.max_cube and state.cube_value * 2 > rules.max_cube:
        return f"The cube is at its maximum ({rules.max_cube})"
    return None


def double(state: GameState, seat: int, rules: GameRules) -> GameState:
    reason = may_double(state, seat, rules)
    if reason:
        raise BackgammonError(reason)
    return replace(state, phase=Phase.DOUBLED, offered_by=seat)


def take(state: GameState, seat: int) -> GameState:
    _expect_answer(state, seat, Phase.DOUBLED, "There is no double to take")
    return replace(
        state,
        phase=Phase.ROLL,
        cube_value=state.cube_value * 2,
        cube_owner=seat,
        cube_turned=True,
        offered_by=None,
    )


def drop(state: GameState, seat: int) -> GameState:
    _expect_answer(state, seat, Phase.DOUBLED, "There is no double to drop")
    doubler = 1 - seat
    return _over(state, Outcome(doubler, 1, state.cube_value, EndReason.DROPPED))


def beaver(state: GameState, seat: int, rules: GameRules) -> GameState:
    """Take the double and redouble at once, keeping the cube (money play only)."""
    _expect_answer(state, seat, Phase.DOUBLED, "There is no double to beaver")
    if not (rules.money and rules.beavers):
        raise BackgammonError("Beavers are not allowed in this game")
    value = state.cube_value * 4
    if rules.max_cube and value > rules.max_cube:
        raise BackgammonError(f"The cube is at its maximum ({rules.max_cube}): take or drop")
    return replace(
        state,
        phase=Phase.ROLL,
        cube_value=value,
        cube_owner=seat,
        cube_turned=True,
        offered_by=None,
    )


def roll(state: GameState, seat: int, dice: tuple[int, int]) -> GameState:
    """Throw the dice; a roll with no legal play passes the turn at once."""
    if state.phase is Phase.MOVE and state.on_roll == seat:
        raise BackgammonError("You have rolled already: play your dice")
    if state.phase is not Phase.ROLL or state.on_roll != seat:
        raise BackgammonError(_waiting_for(state, seat))
    return _pass_if_blocked(replace(state, phase=Phase.MOVE, dice=dice))


def play(
    state: GameState, seat: int, submitted: Play | str, rules: GameRules
) -> tuple[GameState, Board]:
    """Play the dice: a `Play`, move text or the resulting Position ID (mover's view).

    Returns the new state and the board after the play from the mover's view.
    """
    if state.phase is Phase.ROLL and state.on_roll == seat:
        raise BackgammonError("Roll the dice first")
    if state.phase is not Phase.MOVE or state.on_roll != seat:
        raise BackgammonError(_waiting_for(state, seat))
    assert state.dice is not None
    after = validate_play(state.board, state.dice, submitted)
    result = game_result(after)
    if result is not None:
        winner = seat if result.winner is Side.MOVER else 1 - seat
        level = result.points
        finished = replace(state, board=after)
        outcome = Outcome(winner, level, game_points(state, level, rules), EndReason.BORNE_OFF)
        return _over(finished, outcome), after
    next_state = replace(
        state, board=after.swapped(), on_roll=1 - seat, phase=Phase.ROLL, dice=None
    )
    return next_state, after


def forced_play(state: GameState) -> Play | None:
    """The only legal play of the dice, when there is exactly one."""
    if state.phase is not Phase.MOVE or state.dice is None:
        return None
    plays = legal_plays(state.board, state.dice)
    return plays[0] if len(plays) == 1 else None


def resign(state: GameState, seat: int, level: int) -> GameState:
    """Offer to resign ``level`` (1, 2 or 3) times the cube; the opponent answers."""
    if level not in LEVEL_NAMES:
        raise BackgammonError("Resign a single game (1), a gammon (2) or a backgammon (3)")
    if state.phase is Phase.OVER:
        raise BackgammonError("The game is over")
    if state.phase in (Phase.DOUBLED, Phase.RESIGNATION):
        raise BackgammonError("Answer the offer on the table first")
    return replace(
        state,
        phase=Phase.RESIGNATION,
        offered_by=seat,
        offered_level=level,
        resume_phase=state.phase,
    )


def accept_resignation(state: GameState, seat: int, rules: GameRules) -> GameState:
    _expect_answer(state, seat, Phase.RESIGNATION, "There is no resignation to accept")
    assert state.offered_level is not None
    level = state.offered_level
    return _over(state, Outcome(seat, level, game_points(state, level, rules), EndReason.RESIGNED))


def reject_resignation(state: GameState, seat: int) -> GameState:
    _expect_answer(state, seat, Phase.RESIGNATION, "There is no resignation to reject")
    assert state.resume_phase is not None
    return replace(
        state, phase=state.resume_phase, offered_by=None, offered_level=None, resume_phase=None
    )


def forfeit(state: GameState, loser: int, reason: EndReason) -> GameState:
    """End the game against ``loser`` (timeout, abandonment): a single at the cube's value."""
    return _over(state, Outcome(1 - loser, 1, state.cube_value, reason))


def game_points(state: GameState, level: int, rules: GameRules) -> int:
    """Cube × level, with gammons counting single under Jacoby while the cube is centred."""
    if rules.money and rules.jacoby and not state.cube_turned:
        level = 1
    return state.cube_value * level


def _pass_if_blocked(state: GameState) -> GameState:
    assert state.dice is not None
    if legal_plays(state.board, state.dice):
        return state
    return replace(
        state, board=state.board.swapped(), on_roll=1 - state.on_roll, phase=Phase.ROLL, dice=None
    )


def _over(state: GameState, outcome: Outcome) -> GameState:
    return replace(
        state,
        phase=Phase.OVER,
        offered_by=None,
        offered_level=None,
        resume_phase=None,
        outcome=outcome,
    )


def _expect_answer(state: GameState, seat: int, phase: Phase, nothing_to_answer: str) -> None:
    if state.phase is not phase:
        raise BackgammonError(nothing_to_answer)
    if state.offered_by == seat:
        raise BackgammonError("Your opponent must answer your offer")


def _waiting_for(state: GameState, seat: int) -> str:
    if state.phase is Phase.OVER:
        return "The game is over"
    if state.phase is Phase.DOUBLED:
        if state.offered_by == seat:
            return "Wait for your opponent to answer your double"
        return "Answer the double: take or drop"
    if state.phase is Phase.RESIGNATION:
        if state.offered_by == seat:
            return "Wait for your opponent to answer your resignation"
        return "Answer the resignation first"
    return "It is not your turn"
