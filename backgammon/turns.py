"""The course of one game: rolls, plays, the doubling cube and resignations.

Terms:

* *seat*: player 0 or player 1 of a match; the board is always kept from the view of
  the player *on roll* (the seat whose turn it is).
* *phase*: what the game waits for. ``ROLL``: the player on roll doubles or rolls.
  ``MOVE``: they play the dice. ``DOUBLED``: a cube offer waits for its answer (take,
  drop, beaver or raccoon). ``RESIGNATION``: the other player accepts or rejects an
  offered resignation. ``OVER``: the game has a result.
* *cube*: the doubling cube of ``backgammon.cube``; this module decides only when the
  game lets a player touch it (before rolling, on their own turn) and what a drop or
  an accepted offer does to the game.
* *level*: 1 single, 2 gammon, 3 backgammon; ``backgammon.match.game_points`` says
  what a win of that level is worth under the cube and the Jacoby rule.

Every function takes a state and returns a new one, or raises `BackgammonError` with
a message for the player. Randomness stays outside: the caller passes the dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from backgammon import cube as doubling
from backgammon.board import Board
from backgammon.cube import Cube, CubeRules
from backgammon.errors import BackgammonError, gettext_noop
from backgammon.game import ResultKind, Side, game_result
from backgammon.match import game_points as match_game_points
from backgammon.moves import Play, legal_plays
from backgammon.validate import resolve


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
    """What a game may do, set by the match: the cube's rules, Jacoby, the cube at all."""

    cube: CubeRules = field(default_factory=CubeRules)
    jacoby: bool = False
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
    cube: Cube = field(default_factory=Cube)
    resigned_by: int | None = None
    resign_level: int | None = None
    resume_phase: Phase | None = None
    outcome: Outcome | None = None

    @property
    def to_act(self) -> int | None:
        """The seat the game waits for, or None when it is over."""
        if self.phase is Phase.OVER:
            return None
        if self.phase is Phase.DOUBLED:
            return self.cube.awaiting
        if self.phase is Phase.RESIGNATION:
            assert self.resigned_by is not None
            return 1 - self.resigned_by
        return self.on_roll

    def board_for(self, seat: int) -> Board:
        """The board from ``seat``'s view."""
        return self.board if seat == self.on_roll else self.board.swapped()


def opening(
    throws: list[tuple[int, int]], rules: GameRules, *, board: Board | None = None
) -> GameState:
    """A new game after the opening roll: the higher die's player plays both numbers.

    ``throws`` are the opening throws, (player 0's die, player 1's die) each: any with
    equal dice were thrown again (and may have doubled the cube automatically); the last
    one differs.
    """
    *ties, (first, second) = throws
    if first == second or any(a != b for a, b in ties):
        raise ValueError("the opening roll is thrown again until the dice differ, and only then")
    cube = Cube()
    for tie in ties:
        cube = doubling.opening_roll(cube, rules.cube, tie)
    state = GameState(
        board=board or Board.initial(),
        on_roll=0 if first > second else 1,
        phase=Phase.MOVE,
        dice=(max(first, second), min(first, second)),
        cube=cube,
    )
    # From the starting position any two numbers can be played (the back checkers and
    # those on the midpoint, the 8 and the 6 points all have open points ahead): only
    # another ``board`` may leave the opening roll nothing to play. Not asking saves a
    # tournament's start a search of the legal plays for each of its matches.
    return state if board is None else _pass_if_blocked(state)


def double(state: GameState, seat: int, rules: GameRules) -> GameState:
    """The player on roll offers a double before rolling."""
    if state.phase is Phase.OVER:
        raise BackgammonError(gettext_noop("The game is over"))
    if not rules.cube_enabled:
        raise BackgammonError(gettext_noop("This game is played without the doubling cube"))
    if state.phase in (Phase.DOUBLED, Phase.RESIGNATION):
        raise BackgammonError(gettext_noop("Answer the offer on the table first"))
    cube = doubling.double(
        state.cube, rules.cube, player=seat, on_roll=state.on_roll, rolled=state.phase is Phase.MOVE
    )
    return replace(state, phase=Phase.DOUBLED, cube=cube)


def take(state: GameState, seat: int) -> GameState:
    """Accept the open double (or beaver): the game goes on at the offered value."""
    _expect_cube_answer(state, gettext_noop("There is no double to take"))
    return replace(state, phase=Phase.ROLL, cube=doubling.take(state.cube, player=seat))


def drop(state: GameState, seat: int) -> GameState:
    """Refuse the double: the doubler wins the value before it."""
    _expect_cube_answer(state, gettext_noop("There is no double to drop"))
    dropped = doubling.drop(state.cube, player=seat)
    return _over(state, Outcome(dropped.winner, 1, dropped.points, EndReason.DROPPED))


def beaver(state: GameState, seat: int, rules: GameRules) -> GameState:
    """Take the double and redouble at once, keeping the cube (money play only)."""
    _expect_cube_answer(state, gettext_noop("There is no double to beaver"))
    cube = doubling.beaver(state.cube, rules.cube, player=seat)
    return replace(state, phase=Phase.DOUBLED if cube.offer else Phase.ROLL, cube=cube)


def raccoon(state: GameState, seat: int, rules: GameRules) -> GameState:
    """Answer a beaver by redoubling again, keeping the cube (money play only)."""
    _expect_cube_answer(state, gettext_noop("There is no double to raccoon"))
    return replace(
        state, phase=Phase.ROLL, cube=doubling.raccoon(state.cube, rules.cube, player=seat)
    )


def check_roll(state: GameState, seat: int) -> None:
    """Refuse, saying why, unless it is ``seat``'s turn to throw the dice."""
    if state.phase is Phase.MOVE and state.on_roll == seat:
        raise BackgammonError(gettext_noop("You have rolled already: play your dice"))
    if state.phase is not Phase.ROLL or state.on_roll != seat:
        raise BackgammonError(_waiting_for(state, seat))


def roll(state: GameState, seat: int, dice: tuple[int, int]) -> GameState:
    """Throw the dice; a roll with no legal play passes the turn at once."""
    check_roll(state, seat)
    return _pass_if_blocked(replace(state, phase=Phase.MOVE, dice=dice))


def check_play(state: GameState, seat: int) -> None:
    """Refuse, saying why, unless ``seat`` has dice to play now."""
    if state.phase is Phase.ROLL and state.on_roll == seat:
        raise BackgammonError(gettext_noop("Roll the dice first"))
    if state.phase is not Phase.MOVE or state.on_roll != seat:
        raise BackgammonError(_waiting_for(state, seat))


def play(
    state: GameState, seat: int, submitted: Play | str, rules: GameRules
) -> tuple[GameState, Play]:
    """Play the dice: a `Play`, move text or the resulting Position ID (mover's view).

    Returns the new state and the legal play it was, as single-die moves.
    """
    check_play(state, seat)
    assert state.dice is not None
    played, after = resolve(state.board, state.dice, submitted)
    result = game_result(after)
    if result is not None:
        winner = seat if result.winner is Side.MOVER else 1 - seat
        level = result.points
        finished = replace(state, board=after)
        outcome = Outcome(winner, level, game_points(state, level, rules), EndReason.BORNE_OFF)
        return _over(finished, outcome), played
    next_state = replace(
        state, board=after.swapped(), on_roll=1 - seat, phase=Phase.ROLL, dice=None
    )
    return next_state, played


def forced_play(state: GameState) -> Play | None:
    """The only legal play of the dice, when there is exactly one."""
    if state.phase is not Phase.MOVE or state.dice is None:
        return None
    plays = legal_plays(state.board, state.dice)
    return plays[0] if len(plays) == 1 else None


def resign(state: GameState, seat: int, level: int) -> GameState:
    """Offer to resign ``level`` (1, 2 or 3) times the cube; the opponent answers."""
    if level not in {kind.value for kind in ResultKind}:
        raise BackgammonError(
            gettext_noop("Resign a single game (1), a gammon (2) or a backgammon (3)")
        )
    if state.phase is Phase.OVER:
        raise BackgammonError(gettext_noop("The game is over"))
    if state.phase in (Phase.DOUBLED, Phase.RESIGNATION):
        raise BackgammonError(gettext_noop("Answer the offer on the table first"))
    return replace(
        state,
        phase=Phase.RESIGNATION,
        resigned_by=seat,
        resign_level=level,
        resume_phase=state.phase,
    )


def accept_resignation(state: GameState, seat: int, rules: GameRules) -> GameState:
    _expect_resignation_answer(state, seat, gettext_noop("There is no resignation to accept"))
    assert state.resign_level is not None
    level = state.resign_level
    return _over(state, Outcome(seat, level, game_points(state, level, rules), EndReason.RESIGNED))


def reject_resignation(state: GameState, seat: int) -> GameState:
    _expect_resignation_answer(state, seat, gettext_noop("There is no resignation to reject"))
    assert state.resume_phase is not None
    return replace(
        state, phase=state.resume_phase, resigned_by=None, resign_level=None, resume_phase=None
    )


def forfeit(state: GameState, loser: int, reason: EndReason) -> GameState:
    """End the game against ``loser`` (timeout, abandonment): a single at the cube's value."""
    return _over(state, Outcome(1 - loser, 1, state.cube.value, reason))


def game_points(state: GameState, level: int, rules: GameRules) -> int:
    """What a win of ``level`` is worth now (cube × level, Jacoby applied)."""
    return match_game_points(
        ResultKind(level), state.cube, money=rules.cube.money, jacoby=rules.jacoby
    )


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
        cube=replace(state.cube, offer=None, offered_by=None, offered_value=None),
        resigned_by=None,
        resign_level=None,
        resume_phase=None,
        outcome=outcome,
    )


def _expect_cube_answer(state: GameState, refusal: str) -> None:
    """Refuse with ``refusal`` (there is no double to answer so) unless a double waits."""
    if state.phase is not Phase.DOUBLED:
        raise BackgammonError(refusal)


def _expect_resignation_answer(state: GameState, seat: int, refusal: str) -> None:
    """Refuse with ``refusal`` (there is no resignation to answer so) unless one waits for
    ``seat``'s answer."""
    if state.phase is not Phase.RESIGNATION:
        raise BackgammonError(refusal)
    if state.resigned_by == seat:
        raise BackgammonError(gettext_noop("Your opponent must answer your resignation"))


def _waiting_for(state: GameState, seat: int) -> str:
    if state.phase is Phase.OVER:
        return gettext_noop("The game is over")
    if state.phase is Phase.DOUBLED:
        if state.cube.awaiting != seat:
            return gettext_noop("Wait for your opponent to answer your double")
        return gettext_noop("Answer the double: take or drop")
    if state.phase is Phase.RESIGNATION:
        if state.resigned_by == seat:
            return gettext_noop("Wait for your opponent to answer your resignation")
        return gettext_noop("Answer the resignation first")
    return gettext_noop("It is not your turn")
