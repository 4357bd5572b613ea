"""GNUBG IDs (``PositionID:MatchID``) for the states of a live game.

The Position ID is from the view of the player on roll; the Match ID carries the cube,
who is on roll and who must act, the dice, any offer, the score, the match length and
the Crawford flag (``backgammon.matchid``).
"""

from __future__ import annotations

from backgammon.game import ResultKind
from backgammon.matchid import GameState as MatchIdGameState
from backgammon.matchid import MatchId
from backgammon.turns import EndReason, GameState, Phase


def match_id(
    state: GameState, length: int, score: tuple[int, int], crawford: bool, *, jacoby: bool = False
) -> str:
    """The Match ID of ``state`` in a match to ``length`` (0 in money play)."""
    game_state = MatchIdGameState.PLAYING
    if state.outcome is not None:
        game_state = {
            EndReason.DROPPED: MatchIdGameState.DROPPED,
            EndReason.RESIGNED: MatchIdGameState.RESIGNED,
        }.get(state.outcome.reason, MatchIdGameState.OVER)
    resigning = state.phase is Phase.RESIGNATION and state.resign_level is not None
    turn = state.to_act if state.to_act is not None else state.on_roll
    return MatchId(
        cube_value=state.cube.value,
        cube_owner=state.cube.owner,
        player_on_roll=state.on_roll,
        crawford=crawford,
        game_state=game_state,
        turn=turn,
        double_offered=state.cube.offer is not None,
        resignation=ResultKind(state.resign_level) if resigning and state.resign_level else None,
        # GNU Backgammon keeps the higher die first; so do we, so IDs compare equal.
        dice=(max(state.dice), min(state.dice)) if state.dice else None,
        length=length,
        score=score,
        jacoby=jacoby,
    ).encode()


def gnubg_id(
    state: GameState, length: int, score: tuple[int, int], crawford: bool, *, jacoby: bool = False
) -> str:
    return f"{state.board.position_id()}:{match_id(state, length, score, crawford, jacoby=jacoby)}"
