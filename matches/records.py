"""The match record as a .mat file, built from the action log, for GNU Backgammon.

Only finished games are written. A money session is written as a "0 point match", its score
lines the running totals. A game that ended neither by bearing off nor by a drop (a
resignation, time running out, a forfeit, an adjudication) is written with its result alone,
which GNU Backgammon reads as a resignation worth those points.

The format has no room for the match cube of match swing or for automatic doubles
(:func:`rules_as_played` gives them to the analysis beside the file), and GNU Backgammon
takes the Jacoby rule of a money session from its own settings, not from the header's tag.
"""

from __future__ import annotations

from django.db.models import Q

from accounts.models import User
from analysis.rules_as_played import MatchDouble, RulesAsPlayed
from backgammon.board import Board
from backgammon.matfile import Action as MatAction
from backgammon.matfile import CubeAction, CubeDecision, GameRecord, MatRecord, Roll, format_mat
from backgammon.moves import legal_plays
from matches.models import Action, ActionKind, FinishReason, Game, Match

_CUBE_ACTIONS = {
    ActionKind.DOUBLE: CubeAction.DOUBLE,
    ActionKind.BEAVER: CubeAction.BEAVER,
    ActionKind.RACCOON: CubeAction.RACCOON,
    ActionKind.TAKE: CubeAction.TAKE,
    ActionKind.DROP: CubeAction.DROP,
}
_OFFERS = (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON)


def match_file(match: Match) -> str:
    """The .mat file of ``match``'s finished games (and of the game its match drop ended)."""
    games: list[GameRecord] = []
    score = [0, 0]
    by_game = _actions_by_game(match)
    for game in _written_games(match):
        games.append(
            GameRecord(
                score_before=(score[0], score[1]),
                actions=tuple(_mat_actions(by_game.get(game.number, []), match.raccoons)),
                winner=game.winner_seat,
                points=game.points or 0,
                crawford=game.crawford,
            )
        )
        if game.winner_seat is not None and game.points is not None:
            score[game.winner_seat] += game.points
    tags = [
        ("Site", "Crawford"),
        ("Match ID", str(match.pk)),
        ("Dice commitment", match.dice_commitment),
    ]
    if match.is_money:
        tags += [("Jacoby", _on_off(match.jacoby)), ("Beaver", _on_off(match.beavers))]
    record = MatRecord(
        players=(_name(match.player_0), _name(match.player_1)),
        length=match.length,
        games=tuple(games),
        tags=tuple(tags),
        crawford_rule=match.crawford_rule and not match.is_money,
    )
    return format_mat(record)


def rules_as_played(match: Match) -> RulesAsPlayed:
    """What :func:`match_file` cannot write: each written game's cube before its first roll
    (after its automatic doubles) and the match doubles, where they were offered."""
    by_game = _actions_by_game(match)
    games = _written_games(match)
    doubles: list[MatchDouble] = []
    for game in games:
        rolls, rolled = 0, False  # rolls the file writes so far; a roll not yet played
        offered: tuple[Action, int] | None = None
        for action in by_game.get(game.number, []):
            if action.kind == ActionKind.ROLL:
                rolled = True
            elif action.kind == ActionKind.PLAY or (action.kind == ActionKind.PASS and rolled):
                rolls, rolled = rolls + 1, False
            elif action.kind == ActionKind.MATCH_DOUBLE:
                offered = (action, rolls)
            elif action.kind in (ActionKind.MATCH_TAKE, ActionKind.MATCH_DROP) and offered:
                double, before = offered
                assert double.seat is not None
                doubles.append(
                    MatchDouble(
                        game=game.number,
                        rolls=before,
                        player=double.seat,
                        gnubg_id=double.gnubg_before,
                        taken=action.kind == ActionKind.MATCH_TAKE,
                    )
                )
                offered = None
    return RulesAsPlayed(
        initial_cubes=tuple(2**game.automatic_doubles for game in games),
        match_doubles=tuple(doubles),
    )


def _actions_by_game(match: Match) -> dict[int, list[Action]]:
    by_game: dict[int, list[Action]] = {}
    actions = Action.objects.filter(match=match, game_number__isnull=False).order_by("seq")
    for action in actions:
        assert action.game_number is not None
        by_game.setdefault(action.game_number, []).append(action)
    return by_game


WRITTEN_GAME = Q(winner_seat__isnull=False, points__isnull=False) | Q(
    finish_reason=FinishReason.MATCH_CUBE_DROPPED
)
"""The games a file writes: finished, or ended by a dropped match double."""


def _written_games(match: Match) -> list[Game]:
    """The games the file holds: the finished ones, up to the first that is not, and the
    game a dropped match double ended (unfinished, its match double being the end)."""
    written = []
    for game in match.games.order_by("number"):
        if game.winner_seat is not None and game.points is not None:
            written.append(game)
            continue
        if game.finish_reason == FinishReason.MATCH_CUBE_DROPPED:
            written.append(game)
        break
    return written


def _mat_actions(actions: list[Action], raccoons: bool) -> list[MatAction]:
    entries: list[MatAction] = []
    rolled: Action | None = None  # the last roll, until it is played or passed
    for action in actions:
        seat = action.seat
        if action.kind == ActionKind.ROLL:
            rolled = action
        elif action.kind == ActionKind.PLAY and seat is not None:
            dice = action.detail["dice"]
            entries.append(
                Roll(player=seat, dice=(int(dice[0]), int(dice[1])), play=action.detail["mat"])
            )
            rolled = None
        elif action.kind == ActionKind.PASS and seat is not None and rolled is not None:
            entries.append(Roll(player=seat, dice=_dice(rolled), play=""))
            rolled = None
        elif action.kind in _CUBE_ACTIONS and seat is not None:
            entries.append(
                CubeDecision(
                    player=seat,
                    action=_CUBE_ACTIONS[ActionKind(action.kind)],
                    value=action.detail.get("cube") if action.kind in _OFFERS else None,
                )
            )
    if rolled is not None and rolled.seat is not None and _had_a_choice(rolled):
        # The game ended between the roll and its play: an empty roll says so, as long as it
        # cannot be read as the only legal play, made.
        entries.append(Roll(player=rolled.seat, dice=_dice(rolled), play=""))
    last = entries[-1] if entries else None
    if isinstance(last, CubeDecision) and _stood(last, raccoons):
        # GNU Backgammon counts a beaver or raccoon taken only at the next roll or a Takes
        entries.append(CubeDecision(player=1 - last.player, action=CubeAction.TAKE))
    return entries


def _stood(decision: CubeDecision, raccoons: bool) -> bool:
    """Whether ``decision`` turned the cube with no answer to wait for: a raccoon, or a beaver
    where raccoons are not played."""
    if decision.action is CubeAction.BEAVER:
        return not raccoons
    return decision.action is CubeAction.RACCOON


def _dice(roll: Action) -> tuple[int, int]:
    return (int(roll.dice[0]), int(roll.dice[1]))


def _had_a_choice(roll: Action) -> bool:
    """Whether the roller had more than one legal play (the position after a roll is seen by
    the roller, who is on roll)."""
    board = Board.from_position_id(roll.gnubg_after.split(":")[0])
    return len(legal_plays(board, _dice(roll))) > 1


def _on_off(rule: bool) -> str:
    return "On" if rule else "Off"


def _name(user: User) -> str:
    return user.username
