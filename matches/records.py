"""The match record as a .mat file, built from the action log, for GNU Backgammon.

Only finished games are written: a .mat game needs its result. Money sessions have no
match length and cannot be written in this format.
"""

from __future__ import annotations

from accounts.models import User
from backgammon.matfile import Action as MatAction
from backgammon.matfile import CubeAction, CubeDecision, GameRecord, MatRecord, Roll, format_mat
from config.errors import DomainError
from matches.models import Action, ActionKind, Match


def match_file(match: Match) -> str:
    if match.is_money:
        raise DomainError(
            "A money session has no match length, so it cannot be written as a .mat file"
        )
    games: list[GameRecord] = []
    score = [0, 0]
    actions = Action.objects.filter(match=match, game_number__isnull=False).order_by("seq")
    by_game: dict[int, list[Action]] = {}
    for action in actions:
        assert action.game_number is not None
        by_game.setdefault(action.game_number, []).append(action)
    for game in match.games.order_by("number"):
        if game.winner_seat is None or game.points is None:
            break
        games.append(
            GameRecord(
                score_before=(score[0], score[1]),
                actions=tuple(_mat_actions(by_game.get(game.number, []))),
                winner=game.winner_seat,
                points=game.points,
                crawford=game.crawford,
            )
        )
        score[game.winner_seat] += game.points
    record = MatRecord(
        players=(_name(match.player_0), _name(match.player_1)),
        length=match.length,
        games=tuple(games),
        tags=(
            ("Site", "Crawford"),
            ("Match ID", str(match.pk)),
            ("Dice commitment", match.dice_commitment),
        ),
    )
    return format_mat(record)


def _mat_actions(actions: list[Action]) -> list[MatAction]:
    entries: list[MatAction] = []
    last_roll: tuple[int, int] | None = None
    for action in actions:
        seat = action.seat
        if action.kind == ActionKind.ROLL:
            last_roll = (int(action.dice[0]), int(action.dice[1]))
        elif action.kind == ActionKind.PLAY and seat is not None:
            dice = action.detail["dice"]
            entries.append(
                Roll(player=seat, dice=(int(dice[0]), int(dice[1])), play=action.detail["mat"])
            )
        elif action.kind == ActionKind.PASS and seat is not None and last_roll is not None:
            entries.append(Roll(player=seat, dice=last_roll, play=""))
        elif action.kind == ActionKind.DOUBLE and seat is not None:
            entries.append(
                CubeDecision(player=seat, action=CubeAction.DOUBLE, value=action.detail.get("cube"))
            )
        elif action.kind == ActionKind.TAKE and seat is not None:
            entries.append(CubeDecision(player=seat, action=CubeAction.TAKE))
        elif action.kind == ActionKind.DROP and seat is not None:
            entries.append(CubeDecision(player=seat, action=CubeAction.DROP))
    return entries


def _name(user: User) -> str:
    return user.username
