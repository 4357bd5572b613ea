"""The move list: the game records in standard notation, read from the action log.

A *row* is one action a move list shows (the opening roll, a play, a cube action, a
resignation, a game's end or a timeout) with who made it and its text: "52: 13/8 13/11",
"Doubles => 2", "Doubles the match stake => 4". The snapshot's publisher sends the rows a
change added (``matches.selectors.broadcast``); the API and the page read the whole list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from backgammon.game import ResultKind
from matches.models import Action, ActionKind, Match

MOVE_LIST_KINDS = (
    ActionKind.OPENING,
    ActionKind.PLAY,
    ActionKind.DOUBLE,
    ActionKind.TAKE,
    ActionKind.DROP,
    ActionKind.BEAVER,
    ActionKind.RACCOON,
    ActionKind.PASS,
    ActionKind.RESIGN,
    ActionKind.ACCEPT_RESIGN,
    ActionKind.REJECT_RESIGN,
    ActionKind.GAME_OVER,
    ActionKind.TIMEOUT,
    ActionKind.MATCH_DOUBLE,
    ActionKind.MATCH_TAKE,
    ActionKind.MATCH_DROP,
)


def move_list(match: Match, *, after_seq: int = 0) -> list[dict[str, Any]]:
    """The game records in standard notation: per game, each roll and play, and cube actions.

    ``after_seq`` leaves out the rows logged up to that sequence number.
    """
    actions = (
        Action.objects.filter(match=match, kind__in=MOVE_LIST_KINDS, seq__gt=after_seq)
        .only("seq", "game_number", "kind", "seat", "dice", "detail")
        .order_by("seq")
    )
    return move_rows(match, actions)


def move_rows(match: Match, actions: Iterable[Action]) -> list[dict[str, Any]]:
    """The move-list rows of ``actions`` (those of the kinds a move list shows)."""
    names = [match.player_0.username, match.player_1.username]
    return [
        {
            "seq": action.seq,
            "game": action.game_number,
            "kind": action.kind,
            "player": names[action.seat] if action.seat is not None else None,
            "seat": action.seat,
            "text": _action_text(action),
            **_game_result(action),
        }
        for action in actions
        if action.kind in MOVE_LIST_KINDS
    ]


def _game_result(action: Action) -> dict[str, Any]:
    """A game's end, as scored: ``{"result": {"points", "level"}}`` (the level of the win,
    single, gammon or backgammon; the points after the cube and the Jacoby rule)."""
    if action.kind != ActionKind.GAME_OVER or "points" not in action.detail:
        return {}
    level = ResultKind(action.detail["level"]).name.lower()
    return {"result": {"points": action.detail["points"], "level": level}}


def _play_text(action: Action) -> str:
    dice = action.detail.get("dice", [])
    roll = f"{dice[0]}{dice[1]}: " if len(dice) == 2 else ""
    return f"{roll}{action.detail.get('play') or '(no move)'}"


def _opening_text(action: Action) -> str:
    return f"Opening roll {action.dice[0]}-{action.dice[1]}" if action.dice else "Opening roll"


def _won_text(action: Action) -> str:
    points = action.detail.get("points")
    return f"Wins {points} point{'s' if points != 1 else ''}"


class _Detail(dict[str, Any]):
    """An action's detail, reading None for what an older row does not have."""

    def __missing__(self, key: str) -> None:
        return None


def _said(words: str) -> Callable[[Action], str]:
    """A row's text with ``{key}`` filled in from the action's detail."""
    return lambda action: words.format_map(_Detail(action.detail))


_TEXTS: dict[str, Callable[[Action], str]] = {
    ActionKind.PLAY: _play_text,
    ActionKind.OPENING: _opening_text,
    ActionKind.DOUBLE: _said("Doubles => {cube}"),
    ActionKind.TAKE: _said("Takes"),
    ActionKind.DROP: _said("Drops"),
    ActionKind.BEAVER: _said("Beavers => {cube}"),
    ActionKind.RACCOON: _said("Raccoons => {cube}"),
    ActionKind.REJECT_RESIGN: _said("Rejects the resignation"),
    ActionKind.PASS: _said("Cannot move"),
    ActionKind.RESIGN: _said("Resigns {level}"),
    ActionKind.ACCEPT_RESIGN: _said("Accepts the resignation"),
    ActionKind.GAME_OVER: _won_text,
    ActionKind.TIMEOUT: _said("Time ran out"),
    ActionKind.MATCH_DOUBLE: _said("Doubles the match stake => {match_cube}"),
    ActionKind.MATCH_TAKE: _said("Takes the match double"),
    ActionKind.MATCH_DROP: _said("Drops the match double"),
}


def _action_text(action: Action) -> str:
    text = _TEXTS.get(action.kind)
    return text(action) if text is not None else action.get_kind_display()
