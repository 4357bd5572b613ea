"""Reads for matches: the snapshot a player, a spectator or a program sees."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from accounts.models import RatingChange, User
from backgammon.board import Board
from backgammon.moves import apply_play, legal_plays
from backgammon.notation import format_play
from backgammon.turns import GameState, Phase
from matches.models import Action, ActionKind, Game, Match, MatchStatus
from matches.positions import gnubg_id, match_id
from matches.services import current_game, game_state

LEVEL_WORDS = {1: "single", 2: "gammon", 3: "backgammon"}


def match_for_viewer(*, match_id_: int) -> Match:
    return Match.objects.select_related("player_0__profile", "player_1__profile").get(pk=match_id_)


def visible_matches(*, user: User | None) -> QuerySet[Match]:
    """Matches anyone may watch, plus the private ones ``user`` plays in."""
    public = Q(private=False)
    if user is not None and user.is_authenticated:
        public |= Q(player_0=user) | Q(player_1=user)
    return Match.objects.filter(public).select_related("player_0__profile", "player_1__profile")


def open_challenges(*, user: User) -> QuerySet[Match]:
    return (
        Match.objects.filter(status=MatchStatus.INVITED)
        .filter(Q(player_0=user) | Q(player_1=user))
        .select_related("player_0__profile", "player_1__profile")
        .order_by("-created_at")
    )


def live_matches(*, limit: int = 20) -> QuerySet[Match]:
    return (
        Match.objects.filter(status__in=[MatchStatus.PLAYING, MatchStatus.SUSPENDED], private=False)
        .select_related("player_0__profile", "player_1__profile")
        .order_by("-started_at")[:limit]
    )


def recent_results(*, limit: int = 10) -> QuerySet[Match]:
    return (
        Match.objects.filter(status=MatchStatus.FINISHED, private=False)
        .select_related("player_0__profile", "player_1__profile")
        .order_by("-finished_at")[:limit]
    )


def match_snapshot(match: Match, *, viewer: User | None) -> dict[str, Any]:
    """Everything a board needs, from ``viewer``'s side; legal plays only for the mover."""
    seat = match.seat_of(viewer) if viewer is not None else None
    return _render(match, _SnapshotParts.load(match, with_last_seqs=seat is not None), seat)


BROADCAST_WATCHER = "watcher"


def broadcast_snapshots(match_id_: int) -> dict[str, dict[str, Any]]:
    """The snapshot of each seat and of a watcher, from one read of the match.

    Sent inside the channel-layer event when a match changes, so that each connection
    forwards its own viewer's snapshot instead of reading the database again; keyed by
    ``"0"``, ``"1"`` and ``BROADCAST_WATCHER`` (anyone who is not playing).
    """
    match = match_for_viewer(match_id_=match_id_)
    parts = _SnapshotParts.load(match, with_last_seqs=True)
    snapshots = {str(seat): _render(match, parts, seat) for seat in (0, 1)}
    snapshots[BROADCAST_WATCHER] = _render(match, parts, None)
    return snapshots


@dataclass(frozen=True)
class _SnapshotParts:
    """What a snapshot reads from the database besides the match: read once per change."""

    game: Game | None
    rating_changes: list[dict[str, Any]] | None
    last_seqs: dict[int, int]  # each player's highest client seq, by user id

    @classmethod
    def load(cls, match: Match, *, with_last_seqs: bool) -> _SnapshotParts:
        not_started = (MatchStatus.INVITED, MatchStatus.DECLINED, MatchStatus.CANCELLED)
        return cls(
            game=None if match.status in not_started else current_game(match),
            rating_changes=_rating_changes(match),
            last_seqs=_last_client_seqs(match) if with_last_seqs else {},
        )


def _render(match: Match, parts: _SnapshotParts, seat: int | None) -> dict[str, Any]:
    players = [match.player_0, match.player_1]
    snapshot: dict[str, Any] = {
        "id": match.pk,
        "status": match.status,
        "kind": match.kind,
        "length": match.length,
        "score": [match.score_0, match.score_1],
        "players": [player.username for player in players],
        "names": [player.profile.display_name for player in players],
        "ratings": [round(player.profile.rating, 1) for player in players],
        "colours": [player.profile.checker_colour for player in players],
        "seat": seat,
        "pass_and_play": match.pass_and_play,
        "rated": match.rated,
        "private": match.private,
        "currency": match.currency,
        "stake_cents": match.stake_cents,
        "options": {
            "jacoby": match.jacoby,
            "beavers": match.beavers,
            "max_cube": match.max_cube,
        },
        "crawford": False,
        "post_crawford": False,
        "winner": players[match.winner_seat].username if match.winner_seat is not None else None,
        "winner_seat": match.winner_seat,
        "your_last_seq": (parts.last_seqs.get(players[seat].pk) if seat is not None else None),
        "rating_changes": parts.rating_changes,
        "finish_reason": match.finish_reason or None,
        "dice_check": {
            "commitment": match.dice_commitment or None,
            "seed": match.dice_seed if match.status == MatchStatus.FINISHED else None,
        },
        "clock": {
            "kind": match.clock,
            "move_seconds": match.move_seconds,
            "reserve_ms": [match.reserve_ms_0, match.reserve_ms_1],
            "turn_started_at": match.turn_started_at.isoformat() if match.turn_started_at else None,
            "server_now": timezone.now().isoformat(),
        },
        "presence": {
            "connected": [match.connections_0 > 0, match.connections_1 > 0],
            "grace_ends": [
                match.grace_ends_0.isoformat() if match.grace_ends_0 else None,
                match.grace_ends_1.isoformat() if match.grace_ends_1 else None,
            ],
            "spectators": match.spectators,
        },
        "last_seq": match.last_seq,
        "game": None,
    }
    game = parts.game
    if game is None:
        return snapshot
    state = game_state(game)
    snapshot["crawford"] = game.crawford
    snapshot["post_crawford"] = match.crawford_played and not game.crawford and not match.is_money
    snapshot["game"] = _game_snapshot(match, game, state, seat, players)
    return snapshot


def _game_snapshot(
    match: Match, game: Game, state: GameState, seat: int | None, players: list[User]
) -> dict[str, Any]:
    length = 0 if match.is_money else match.length
    score = (match.score_0, match.score_1)
    to_act = state.to_act
    acting_seat = to_act if match.pass_and_play and to_act is not None else seat
    view_seat = acting_seat if acting_seat is not None else 0
    mover_can_see = (
        acting_seat is not None and acting_seat == state.on_roll and state.phase is Phase.MOVE
    )
    plays = legal_plays(state.board, state.dice) if mover_can_see and state.dice else []
    return {
        "number": game.number,
        "phase": state.phase.value,
        "position_id": state.board.position_id(),
        "match_id": match_id(state, length, score, game.crawford),
        "gnubg_id": gnubg_id(state, length, score, game.crawford),
        "on_roll": players[state.on_roll].username,
        "on_roll_seat": state.on_roll,
        "turn": players[to_act].username if to_act is not None else None,
        "turn_seat": to_act,
        "dice": list(state.dice) if state.dice else None,
        "cube": {
            "value": state.cube.value,
            "owner": players[state.cube.owner].username if state.cube.owner is not None else None,
            "owner_seat": state.cube.owner,
            "offered_by_seat": state.cube.offered_by,
            "offered_value": state.cube.offered_value,
            "offer": state.cube.offer.value if state.cube.offer else None,
        },
        "offered_double": state.phase is Phase.DOUBLED,
        "resignation": (
            {
                "by": players[state.resigned_by].username,
                "by_seat": state.resigned_by,
                "level": LEVEL_WORDS[state.resign_level],
            }
            if state.phase is Phase.RESIGNATION
            and state.resigned_by is not None
            and state.resign_level
            else None
        ),
        "board": board_for_view(state.board_for(view_seat)),
        "view_seat": view_seat,
        "pips": list(state.board_for(view_seat).pip_count()),
        "legal_positions": sorted({apply_play(state.board, play).position_id() for play in plays}),
        "legal_plays": [
            {
                "text": format_play(play, state.board),
                "moves": [[m.from_point, m.to_point] for m in play],
            }
            for play in plays
        ],
        "result": (
            {
                "winner": players[game.winner_seat].username,
                "winner_seat": game.winner_seat,
                "level": LEVEL_WORDS.get(game.result_level or 1, "single"),
                "points": game.points,
            }
            if game.winner_seat is not None
            else None
        ),
    }


def _last_client_seqs(match: Match) -> dict[int, int]:
    """The highest action number each player has used, by user id, so a client can
    continue after it."""
    found = (
        Action.objects.filter(match=match, client_seq__isnull=False)
        .values("actor_id")
        .annotate(last=Max("client_seq"))
        .order_by()
    )
    return {row["actor_id"]: row["last"] for row in found}


def _rating_changes(match: Match) -> list[dict[str, Any]] | None:
    """Each player's rating before and after, once a rated match is over."""
    if match.status != MatchStatus.FINISHED or not match.rated:
        return None
    changes = RatingChange.objects.filter(match_id=match.pk).select_related("user")
    return [
        {
            "player": change.user.username,
            "before": round(change.rating_before, 2),
            "after": round(change.rating_after, 2),
            "change": round(change.rating_after - change.rating_before, 2),
        }
        for change in changes
    ]


def board_for_view(board: Board) -> dict[str, Any]:
    """The board as the viewer sees it: point p holds +n of theirs or −n of the opponent's.

    ``board`` is from the viewer's side; the opponent's point q is the viewer's 25 − q.
    """
    points = [0] * 24
    for index in range(24):
        points[index] += board.mover[index]
        points[23 - index] -= board.opponent[index]
    off = board.borne_off()
    bar = board.on_bar
    return {"points": points, "bar": list(bar), "off": list(off)}


def move_list(match: Match) -> list[dict[str, Any]]:
    """The game records in standard notation: per game, each roll and play, and cube actions."""
    rows = []
    actions = Action.objects.filter(
        match=match,
        kind__in=[
            ActionKind.OPENING,
            ActionKind.PLAY,
            ActionKind.DOUBLE,
            ActionKind.TAKE,
            ActionKind.DROP,
            ActionKind.BEAVER,
            ActionKind.PASS,
            ActionKind.RESIGN,
            ActionKind.ACCEPT_RESIGN,
            ActionKind.GAME_OVER,
            ActionKind.TIMEOUT,
        ],
    ).order_by("seq")
    names = [match.player_0.username, match.player_1.username]
    for action in actions:
        rows.append(
            {
                "seq": action.seq,
                "game": action.game_number,
                "kind": action.kind,
                "player": names[action.seat] if action.seat is not None else None,
                "text": _action_text(action),
            }
        )
    return rows


def _action_text(action: Action) -> str:
    detail = action.detail
    if action.kind == ActionKind.PLAY:
        dice = detail.get("dice", [])
        roll = f"{dice[0]}{dice[1]}: " if len(dice) == 2 else ""
        return f"{roll}{detail.get('play') or '(no move)'}"
    if action.kind == ActionKind.OPENING:
        return f"Opening roll {action.dice[0]}-{action.dice[1]}" if action.dice else "Opening roll"
    if action.kind == ActionKind.DOUBLE:
        return f"Doubles => {detail.get('cube')}"
    if action.kind == ActionKind.TAKE:
        return "Takes"
    if action.kind == ActionKind.DROP:
        return "Drops"
    if action.kind == ActionKind.BEAVER:
        return f"Beavers => {detail.get('cube')}"
    if action.kind == ActionKind.PASS:
        return "Cannot move"
    if action.kind == ActionKind.RESIGN:
        return f"Resigns {detail.get('level')}"
    if action.kind == ActionKind.ACCEPT_RESIGN:
        return "Accepts the resignation"
    if action.kind == ActionKind.GAME_OVER:
        return f"Wins {detail.get('points')} point{'s' if detail.get('points') != 1 else ''}"
    if action.kind == ActionKind.TIMEOUT:
        return "Time ran out"
    return action.get_kind_display()
