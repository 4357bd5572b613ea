"""Reads for matches: the snapshot a player, a spectator or a program sees (the move list
is ``matches.move_list``'s).

The *snapshot* is everything a board needs, from one viewer's side: the match, the game
state, the clocks, presence, the match cube of a match swing, and what the viewer may do
now (``may_<action>`` for every ``matches.actions.PlayerAction``); only the player to move
sees their legal plays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from functools import cached_property
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import RatingChange, User
from backgammon.board import Board
from backgammon.game import ResultKind
from backgammon.matchid import MatchId
from backgammon.moves import legal_plays, legal_positions
from backgammon.notation import format_plays
from backgammon.turns import GameState, Phase, game_points
from core import rows
from matches.actions import PlayerAction, allowed
from matches.clock import readings as clock_readings
from matches.models import Action, Game, Match, MatchConnection, MatchStatus
from matches.move_list import move_list, move_rows
from matches.state import (
    NOT_STARTED,
    current_game,
    game_cube_turned,
    game_rules,
    game_state,
    gnubg_id,
    match_cube_of,
    match_id,
    seat_to_act,
)

# A match is *live* while both players have come to the board and the turn started this
# recently: what the home page lists and the bracket marks "live" (with "Watch").
LIVE_WITHIN = timedelta(minutes=15)


def match_for_viewer(*, match_id_: int) -> Match:
    return Match.objects.select_related("player_0__profile", "player_1__profile").get(pk=match_id_)


def visible_matches(*, user: User | None) -> QuerySet[Match]:
    """Matches anyone may watch, plus the private ones ``user`` plays in."""
    public = Q(private=False)
    if user is not None and user.is_authenticated:
        public |= Q(player_0=user) | Q(player_1=user)
    return Match.objects.filter(public).select_related("player_0__profile", "player_1__profile")


MATCH_LISTS = {
    "invited": (MatchStatus.INVITED,),
    "playing": (MatchStatus.PLAYING, MatchStatus.SUSPENDED),
    "finished": (MatchStatus.FINISHED,),
    "ended": (MatchStatus.DECLINED, MatchStatus.CANCELLED, MatchStatus.ABORTED),
}


def matches_of(*, user: User, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
    """``user``'s matches, newest first, as rows for programs: invitations say whether they
    came in or went out."""
    matches = Match.objects.filter(Q(player_0=user) | Q(player_1=user))
    if status is not None:
        matches = matches.filter(status__in=MATCH_LISTS[status])
    rows = []
    for match in matches.select_related("player_0", "player_1").order_by("-created_at")[:limit]:
        seat = match.seat_of(user)
        assert seat is not None
        rows.append(
            {
                "id": match.pk,
                "status": match.status,
                "kind": match.kind,
                "length": match.length,
                "opponent": match.player(1 - seat).username,
                "seat": seat,
                "direction": (
                    ("outgoing" if seat == 0 else "incoming")
                    if match.status == MatchStatus.INVITED
                    else None
                ),
                "score": [match.score_0, match.score_1],
                "winner_seat": match.winner_seat,
                "currency": match.currency,
                "stake_cents": match.stake_cents,
                "tournament": match.tournament_id,
                "created_at": match.created_at.isoformat(),
            }
        )
    return rows


def match_snapshot(match: Match, *, viewer: User | None) -> dict[str, Any]:
    """Everything a board needs, from ``viewer``'s side; legal plays only for the mover."""
    seat = match.seat_of(viewer) if viewer is not None else None
    return _render(match, _SnapshotParts.load(match), seat)


BROADCAST_WATCHER = "watcher"


def broadcast(
    match_id_: int,
    *,
    since: int,
    match: Match | None = None,
    game: Game | None = None,
    appended: list[Action] | None = None,
    counted: tuple[int, int, int] | None = None,
) -> dict[str, Any] | None:
    """What a change sends to every connection, from one read of the match; None when
    nobody has the match open (a connection that opens later reads its own snapshot).

    ``snapshots``: each seat's and a watcher's, keyed ``"0"``, ``"1"`` and
    ``BROADCAST_WATCHER`` (anyone not playing), so each connection forwards its own viewer's
    without reading the database again; only those of the viewers the presence counts
    show (a seat with no connection, or a board nobody watches, costs no snapshot). A
    connection that finds no snapshot of its own in the event (it opened as the change
    was made) reads its own (``matches.consumers``). ``moves``: the move-list rows logged
    after ``since``, so boards extend their move list without asking for it again.

    ``match`` (with its players' profiles) and its current ``game``, as an action just saved
    them, are used instead of reading them again while the match is being played; a match
    that ended is read afresh (its ratings changed). ``appended``, every action logged after
    ``since``, spares reading the new rows back. ``counted``, the connections of each seat
    and the watchers counted under the match's lock (``matches.state.locked_presence``), is
    used when it shows anyone; when it shows nobody (or was not taken: the lock was busy)
    they are counted again, as one may have committed just as the lock was taken.
    """
    presence = _presence(*counted) if counted and any(counted) else presence_of(match_id_)
    if not any(presence["connected"]) and not presence["spectators"]:
        return None
    if match is not None and game is not None and match.status == MatchStatus.PLAYING:
        parts = _SnapshotParts(game=game, rating_changes=None, presence=presence)
        return _broadcast_of(match, parts, since, appended)
    with rows.one_snapshot():  # read afresh: the row, its game and its log as one
        match = match_for_viewer(match_id_=match_id_)
        parts = _SnapshotParts.load(match, presence=presence)
        return _broadcast_of(match, parts, since, appended)


def _broadcast_of(
    match: Match, parts: _SnapshotParts, since: int, appended: list[Action] | None
) -> dict[str, Any]:
    connected = parts.presence["connected"]
    snapshots = {str(seat): _render(match, parts, seat) for seat in (0, 1) if connected[seat]}
    if parts.presence["spectators"]:
        snapshots[BROADCAST_WATCHER] = _render(match, parts, None)
    rows_ = move_list(match, after_seq=since) if appended is None else move_rows(match, appended)
    return {"seq": match.last_seq, "snapshots": snapshots, "moves": {"since": since, "rows": rows_}}


def presence_of(match_id_: int) -> dict[str, Any]:
    """Which seats are connected and how many watch, from the connection rows.

    Read after a change that did not count them under the match's lock, so written as the
    one plain statement it is.
    """
    table = MatchConnection._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT seat, COUNT(*) FROM {table} WHERE match_id = %s GROUP BY seat",  # noqa: S608
            [match_id_],
        )
        counts = dict(cursor.fetchall())
    return _presence(counts.get(0, 0), counts.get(1, 0), counts.get(None, 0))


def _presence(seat_0: int, seat_1: int, watchers: int) -> dict[str, Any]:
    return {"connected": [seat_0 > 0, seat_1 > 0], "spectators": watchers}


@dataclass(frozen=True)
class _SnapshotParts:
    """What a snapshot reads from the database besides the match: read once per change.

    ``shared`` keeps what every viewer's snapshot of the change has in common, made by the
    first ``_render`` and reused by the others (a change is rendered for both seats and a
    watcher).
    """

    game: Game | None
    rating_changes: list[dict[str, Any]] | None
    presence: dict[str, Any]
    shared: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def load(cls, match: Match, *, presence: dict[str, Any] | None = None) -> _SnapshotParts:
        return cls(
            game=None if match.status in NOT_STARTED else current_game(match),
            rating_changes=_rating_changes(match),
            presence=presence if presence is not None else presence_of(match.pk),
        )

    @cached_property
    def state(self) -> GameState | None:
        return game_state(self.game) if self.game is not None else None

    def game_cube_turned(self, match: Match) -> bool:
        """``matches.state.game_cube_turned``, read once for every viewer of a change."""
        if self.game is None or self.state is None:
            return False
        if "game_cube_turned" not in self.shared:
            self.shared["game_cube_turned"] = game_cube_turned(match, self.game, self.state)
        return bool(self.shared["game_cube_turned"])


def _render(match: Match, parts: _SnapshotParts, seat: int | None) -> dict[str, Any]:
    snapshot: dict[str, Any] = {
        **_match_part(match, parts),
        "seat": seat,
        "your_last_seq": match.last_client_seq(seat) if seat is not None else None,
        **_may(set()),
    }
    game, state = parts.game, parts.state
    if game is None or state is None:
        return snapshot
    snapshot["crawford"] = game.crawford
    snapshot["post_crawford"] = match.crawford_played and not game.crawford and not match.is_money
    snapshot["game"] = _game_snapshot(match, parts, game, state, seat)
    if match.status == MatchStatus.PLAYING:
        acting = _acting_seat(match, state, seat)
        may = allowed(
            state,
            acting,
            game_rules(match, game),
            match_cube=match_cube_of(match),
            game_cube_turned=acting is not None and parts.game_cube_turned(match),
        )
        snapshot.update(_may(may))
    return snapshot


def _match_part(match: Match, parts: _SnapshotParts) -> dict[str, Any]:
    """The snapshot's fields that are the same whoever views the match."""
    if "match" in parts.shared:
        return parts.shared["match"]  # type: ignore[no-any-return]
    players = [match.player_0, match.player_1]
    common = {
        "id": match.pk,
        "status": match.status,
        "kind": match.kind,
        "length": match.length,
        "score": [match.score_0, match.score_1],
        "players": [player.username for player in players],
        "names": [player.profile.display_name for player in players],
        "ratings": [round(player.profile.rating, 1) for player in players],
        "colours": [player.profile.checker_colour for player in players],
        "pass_and_play": match.pass_and_play,
        "rated": match.rated,
        "private": match.private,
        "currency": match.currency,
        "stake_cents": match.stake_cents,
        "options": {
            "jacoby": match.jacoby,
            "beavers": match.beavers,
            "raccoons": match.raccoons,
            "automatic_doubles": match.automatic_doubles,
            "max_cube": match.max_cube,
        },
        "tournament": match.tournament_id,
        "swing": (
            {"cpp": match.chips_per_point, "stake": match.chip_stake, "all_in": match.all_in}
            if match.chips_per_point is not None
            else None
        ),
        "crawford": False,
        "post_crawford": False,
        "winner": players[match.winner_seat].username if match.winner_seat is not None else None,
        "winner_seat": match.winner_seat,
        "rating_changes": parts.rating_changes,
        "finish_reason": match.finish_reason or None,
        "dice_check": {
            "commitment": match.dice_commitment or None,
            "seed": match.dice_seed if match.status == MatchStatus.FINISHED else None,
        },
        "clock": _clock_part(match, parts),
        "presence": {
            **parts.presence,
            "grace_ends": [
                match.grace_ends_0.isoformat() if match.grace_ends_0 else None,
                match.grace_ends_1.isoformat() if match.grace_ends_1 else None,
            ],
        },
        "match_cube": _match_cube_part(match),
        "last_seq": match.last_seq,
        "game": None,
    }
    parts.shared["match"] = common
    return common


def _clock_part(match: Match, parts: _SnapshotParts) -> dict[str, Any]:
    """The time control and both clocks read at ``server_now`` by the server's rule
    (``matches.clock.readings``): a board draws them as they are, and counts a running one
    down from ``server_now`` on the server's time."""
    now = timezone.now()
    readings = clock_readings(match, parts.state, now)
    return {
        "kind": match.clock,
        "move_seconds": match.move_seconds,
        "reserve_ms": [match.reserve_ms_0, match.reserve_ms_1],
        "turn_started_at": match.turn_started_at.isoformat() if match.turn_started_at else None,
        "server_now": now.isoformat(),
        "running": [reading.running for reading in readings],
        "move_left_ms": [reading.move_ms for reading in readings],
        "reserve_left_ms": [reading.reserve_ms for reading in readings],
    }


_MAY_KEYS = tuple((f"may_{action.value}", action) for action in PlayerAction)


def _may(actions: set[PlayerAction] | frozenset[PlayerAction]) -> dict[str, bool]:
    """``may_<action>`` for every player action: what the viewer may do now."""
    return {key: action in actions for key, action in _MAY_KEYS}


def _match_cube_part(match: Match) -> dict[str, Any] | None:
    """The match cube of a match swing (``max`` 0: no limit), or None without one."""
    cube = match_cube_of(match)
    if cube is None:
        return None
    return {
        "value": cube.value,
        "owner": cube.owner,
        "offered_by": cube.offered_by,
        "max": match.max_match_cube,
    }


def _acting_seat(match: Match, state: GameState, seat: int | None) -> int | None:
    """The seat the viewer acts for: their own, or in pass and play whoever must act."""
    to_act = seat_to_act(match, state)
    if match.pass_and_play and seat is not None and to_act is not None:
        return to_act
    return seat


def _game_snapshot(
    match: Match, parts: _SnapshotParts, game: Game, state: GameState, seat: int | None
) -> dict[str, Any]:
    acting_seat = _acting_seat(match, state, seat)
    view_seat = acting_seat if acting_seat is not None else 0
    mover_can_see = (
        acting_seat is not None and acting_seat == state.on_roll and state.phase is Phase.MOVE
    )
    plays = legal_plays(state.board, state.dice) if mover_can_see and state.dice else []
    common = _game_part(match, parts, game, state)
    return {
        **common,
        **_view_part(parts, state, view_seat),
        # The positions the plays lead to, worked out from the position's ID as the rules
        # core's contract has them (the same set as applying each play, without the boards).
        "legal_positions": (
            sorted(legal_positions(common["position_id"], state.dice))
            if plays and state.dice
            else []
        ),
        "legal_plays": [
            {"text": text, "moves": [[m.from_point, m.to_point] for m in play]}
            for play, text in zip(plays, format_plays(plays, state.board), strict=True)
        ],
    }


def _view_part(parts: _SnapshotParts, state: GameState, view_seat: int) -> dict[str, Any]:
    """The board as seen from ``view_seat``: the same for every viewer who sees it so."""
    key = ("view", view_seat)
    if key not in parts.shared:
        board = state.board_for(view_seat)
        parts.shared[key] = {
            "board": board_for_view(board),
            "view_seat": view_seat,
            "pips": list(board.pip_count()),
        }
    return parts.shared[key]  # type: ignore[no-any-return]


def _game_part(match: Match, parts: _SnapshotParts, game: Game, state: GameState) -> dict[str, Any]:
    """The game's fields that are the same whoever views it."""
    if "game" in parts.shared:
        return parts.shared["game"]  # type: ignore[no-any-return]
    players = [match.player_0, match.player_1]
    length = 0 if match.is_money else match.length
    score = (match.score_0, match.score_1)
    to_act = seat_to_act(match, state)
    common = {
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
                "level": ResultKind(state.resign_level).name.lower(),
                "points": game_points(state, state.resign_level, game_rules(match, game)),
            }
            if state.phase is Phase.RESIGNATION
            and state.resigned_by is not None
            and state.resign_level
            else None
        ),
        "result": (
            {
                "winner": players[game.winner_seat].username,
                "winner_seat": game.winner_seat,
                "level": ResultKind(game.result_level or 1).name.lower(),
                "points": game.points,
            }
            if game.winner_seat is not None
            else None
        ),
    }
    parts.shared["game"] = common
    return common


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


def board_model(gnubg: str | None) -> dict[str, Any]:
    """A ``static/js/lib/board.js`` BoardModel of a GNUBG ID, seat 0 at the bottom (the
    starting position for None)."""
    if not gnubg:
        board, ids = Board.initial(), MatchId()
    else:
        position_id, _, match_id = gnubg.partition(":")
        board, ids = Board.from_position_id(position_id), MatchId.decode(match_id)
    seat0_view = board if ids.player_on_roll == 0 else board.swapped()
    model = board_for_view(seat0_view)
    model["pips"] = list(seat0_view.pip_count())
    if gnubg and ids.dice:
        model["dice"] = {
            "values": list(ids.dice),
            "used": [False, False],
            "side": "bottom" if ids.player_on_roll == 0 else "top",
        }
    if ids.cube_value > 1 or ids.cube_owner is not None:
        place = {None: "centre", 0: "bottom", 1: "top"}[ids.cube_owner]
        model["cube"] = {"value": ids.cube_value, "place": place, "offered": ids.double_offered}
    return model
