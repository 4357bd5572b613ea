"""The action log: every change to a match, appended and never altered.

Each ``Action`` keeps the GNUBG ID before and after it, the dice, both reserves and, for a
player's action, the client's ``seq``. The log is what the move list, the .mat record, the
dice check, adjudication and disputes are read from. On PostgreSQL a trigger refuses any
update or delete of a logged action.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec

from accounts.models import User
from backgammon.matfile import mat_play_text
from backgammon.moves import Play
from backgammon.notation import format_play
from backgammon.turns import GameState
from core import rows
from matches.actions import PlayerAction
from matches.models import Action, ActionKind, Game, Match
from matches.state import match_gnubg_id

Arguments = ParamSpec("Arguments")

# The actions appended through a match object, so a publisher can send the new move-list
# rows without reading them back.
_APPENDED = "_appended_actions"


def new_action(
    match: Match,
    *,
    kind: ActionKind,
    game: Game | None = None,
    seat: int | None = None,
    actor: User | None = None,
    before: GameState | None = None,
    after: GameState | None = None,
    client_seq: int | None = None,
    request_digest: str = "",
    dice: tuple[int, int] | None = None,
    detail: dict[str, object] | None = None,
) -> Action:
    """``match``'s next action as its next ``seq``, not yet written: ``append_action``
    inserts it at once; the start of many matches together writes theirs in one statement
    (``insert_all``).

    Expects the match row locked (``matches.state.lock_match``) or new; the caller saves the
    match, whose ``last_seq`` this moves on.
    """
    match.last_seq += 1
    action = Action(
        match=match,
        game_number=game.number if game else None,
        seq=match.last_seq,
        kind=kind,
        seat=seat,
        actor=actor,
        gnubg_before=match_gnubg_id(match, game, before) if before and game else "",
        gnubg_after=match_gnubg_id(match, game, after) if after and game else "",
        dice=f"{dice[0]}{dice[1]}" if dice else "",
        detail=detail or {},
        clock_0_ms=match.reserve_ms_0,
        clock_1_ms=match.reserve_ms_1,
        client_seq=client_seq,
        request_digest=request_digest,
    )
    appended = getattr(match, _APPENDED, None)
    if appended is None:
        appended = []
        setattr(match, _APPENDED, appended)
    appended.append(action)
    return action


def _written(make: Callable[Arguments, Action]) -> Callable[Arguments, Action]:
    """``make`` with the action it makes inserted at once."""

    @wraps(make)
    def write(*args: Arguments.args, **kwargs: Arguments.kwargs) -> Action:
        return rows.insert(make(*args, **kwargs))

    return write


append_action = _written(new_action)
"""Append one action to ``match``'s log: ``new_action``, inserted at once."""


def insert_all(actions: list[Action]) -> None:
    """Write actions made by ``new_action`` for matches saved since, in one statement."""
    rows.insert_many(actions)


def appended_since(match: Match, seq: int) -> list[Action] | None:
    """The actions logged after ``seq`` through this ``match`` object, in order; None when
    some of them were not (they were logged elsewhere: read the log instead)."""
    actions = [action for action in getattr(match, _APPENDED, ()) if action.seq > seq]
    if [action.seq for action in actions] != list(range(seq + 1, match.last_seq + 1)):
        return None
    return actions


def append_play(
    match: Match,
    game: Game,
    *,
    seat: int,
    actor: User | None,
    before: GameState,
    after: GameState,
    played: Play,
    client_seq: int | None = None,
    request_digest: str = "",
    automatic: bool = False,
) -> Action:
    """Log a play, written in standard notation and as a .mat line, from the validated play."""
    assert before.dice is not None
    return append_action(
        match,
        kind=ActionKind.PLAY,
        game=game,
        seat=seat,
        actor=actor,
        before=before,
        after=after,
        client_seq=client_seq,
        request_digest=request_digest,
        detail={
            "play": format_play(played, before.board),
            "mat": mat_play_text(played),
            "automatic": automatic,
            "dice": list(before.dice),
        },
    )


def player_has_acted(match: Match) -> bool:
    """Whether a player (not the server, not a forced move made for them) has acted."""
    return Action.objects.filter(
        match=match, actor__isnull=False, kind__in=[action.value for action in PlayerAction]
    ).exists()
