"""The mapping between match rows and ``backgammon`` game state, and the match lock.

A ``Game`` row stores one ``backgammon.turns.GameState``: the Position ID (from the view of
the player on roll), whose turn, the phase, the dice, the cube and any open offer; the
``Match`` row of a match swing stores its match cube (``backgammon.match_cube``). This
module turns one into the other, gives the rules a match's games are played under, and
writes positions as GNUBG IDs (``PositionID:MatchID``), the form they take in the log, the
snapshots, disputes and the engine (a player's play comes in as move text or as the
resulting Position ID).

While a match double waits for its answer, the match waits for the player who must give
it, whoever is on roll in the game (``seat_to_act``): his clock runs, and he is the one
told it is his turn.

The match lock: ``lock_match`` is the one way to take a match row for writing, as
``Lock.MATCH`` in the one lock order across apps (``core.locks``).
"""

from __future__ import annotations

from functools import cache

from django.utils.translation import gettext as _

from accounts.models import Profile, User
from backgammon.board import Board
from backgammon.cube import Cube, CubeRules, Offer
from backgammon.game import ResultKind
from backgammon.match_cube import MatchCube
from backgammon.matchid import GameState as MatchIdGameState
from backgammon.matchid import MatchId
from backgammon.turns import EndReason, GameRules, GameState, Phase
from core import locks, rows
from core.errors import InternalError, NotFound
from core.locks import Lock
from matches.models import (
    CENTRED,
    Action,
    ActionKind,
    FinishReason,
    Game,
    GamePhase,
    Match,
    MatchConnection,
    MatchStatus,
)

END_REASONS = {
    EndReason.BORNE_OFF: FinishReason.PLAYED,
    EndReason.DROPPED: FinishReason.PLAYED,
    EndReason.RESIGNED: FinishReason.RESIGNED,
    EndReason.TIMEOUT: FinishReason.TIMEOUT,
    EndReason.FORFEIT: FinishReason.FORFEIT,
}
NOT_STARTED = (MatchStatus.INVITED, MatchStatus.DECLINED, MatchStatus.CANCELLED)


def lock_match(match_id: int, *, presence: bool = False, kind: Lock = Lock.MATCH) -> Match:
    """The match row, locked for the rest of the caller's transaction, with both players
    (and their profiles) and its current game, read in one statement.

    ``presence``: the same statement counts the match's connections, for a change to tell
    (``locked_presence``) without reading them again after its commit. They are counted
    only when the lock is free: a statement that waits for it reads the other tables as
    they were when it began, before the holder's changes (a board closed meanwhile), so
    then the lock is taken again, waiting, and nothing is counted.

    Take it after the dispute's lock and before the tournament's (``core.locks``); ``kind``
    ``Lock.NEXT_MATCH`` for an unstarted match a tournament's correction cancels, after it.
    """
    locks.taken(kind, match_id)
    match = _locked(match_id, skip_locked=True, presence=True) if presence else None
    if match is None:
        match = _locked(match_id, skip_locked=False)
    if match is None:
        raise NotFound(_("There is no match %(number)s") % {"number": match_id})
    return match


def locked_presence(match: Match) -> tuple[int, int, int] | None:
    """The connections of seat 0, of seat 1 and of watchers when ``lock_match(presence=True)``
    read ``match``, None when they were not counted (the lock was busy). A player's
    connection cannot open or close while the lock is held (it takes the lock), nor can a
    watcher's open (its row waits on it, as a key to the locked row); a watcher's can close,
    and one that committed just as the lock was taken can be missed."""
    return getattr(match, _PRESENCE, None)


def lock_match_unless_busy(match_id: int) -> Match | None:
    """``lock_match``, or None when another transaction holds the match (a player acting,
    another sweeper) or it is gone: for work that can as well be done on the next pass."""
    locks.taken(Lock.MATCH, match_id)
    return _locked(match_id, skip_locked=True)


def _locked(match_id: int, *, skip_locked: bool, presence: bool = False) -> Match | None:
    with rows.prepared_cursor() as cursor:
        cursor.execute(_lock_sql(skip_locked, presence), [match_id])
        found = cursor.fetchone()
    if found is None:
        return None
    values = list(found)
    counted = tuple(values[-3:]) if presence else None
    if presence:
        del values[-3:]
    parts = []
    for part in _lock_columns():
        parts.append(values[: len(part.fields)])
        del values[: len(part.fields)]
    match = rows.columns(Match, "m").build(parts[0])
    assert isinstance(match, Match)
    for seat in (0, 1):
        user = rows.columns(User, f"u{seat}").build(parts[1 + 2 * seat])
        assert isinstance(user, User)
        if parts[2 + 2 * seat][0] is not None:
            profile = rows.columns(Profile, f"p{seat}").build(parts[2 + 2 * seat])
            assert isinstance(profile, Profile)
            user.profile = profile
        setattr(match, f"player_{seat}", user)
    if parts[5][0] is not None:
        game = rows.columns(Game, "g").build(parts[5])
        assert isinstance(game, Game)
        set_current_game(match, game)
    if counted is not None:
        setattr(match, _PRESENCE, counted)
    return match


@cache
def _lock_columns() -> tuple[rows.Columns, ...]:
    return (
        rows.columns(Match, "m"),
        rows.columns(User, "u0"),
        rows.columns(Profile, "p0"),
        rows.columns(User, "u1"),
        rows.columns(Profile, "p1"),
        rows.columns(Game, "g"),
    )


@cache
def _lock_sql(skip_locked: bool, presence: bool) -> str:
    select = ", ".join(part.sql for part in _lock_columns())
    match, user, profile, game = (rows.table(model) for model in (Match, User, Profile, Game))
    if presence:
        connections = rows.table(MatchConnection)
        of_match = rows.column(MatchConnection, "match")
        seat = rows.column(MatchConnection, "seat")
        key = rows.column(Match, "id")
        select += "".join(
            f", (SELECT COUNT(*) FROM {connections} c WHERE c.{of_match} = m.{key}"  # noqa: S608
            f" AND c.{seat} {where})"
            for where in ("= 0", "= 1", "IS NULL")
        )
    game_match, number = rows.column(Game, "match"), rows.column(Game, "number")
    user_key, profile_user = rows.column(User, "id"), rows.column(Profile, "user")
    match_key = rows.column(Match, "id")
    players = "".join(
        f" JOIN {user} u{seat} ON u{seat}.{user_key} = m.{rows.column(Match, f'player_{seat}')}"
        f" LEFT JOIN {profile} p{seat} ON p{seat}.{profile_user} = u{seat}.{user_key}"
        for seat in (0, 1)
    )
    return (
        f"SELECT {select} FROM {match} m{players}"  # noqa: S608
        f" LEFT JOIN {game} g ON g.{game_match} = m.{match_key} AND g.{number} ="
        f" (SELECT MAX(latest.{number}) FROM {game} latest"
        f" WHERE latest.{game_match} = m.{match_key})"
        f" WHERE m.{match_key} = %s" + locks.clause("m", skip_locked=skip_locked)
    )


_CURRENT_GAME = "_current_game"
_PRESENCE = "_locked_presence"


def current_game(match: Match) -> Game:
    """The match's latest game (as read with the match by ``lock_match``, or opened since)."""
    known: Game | None = getattr(match, _CURRENT_GAME, None)
    if known is not None:
        return known
    game = match.games.order_by("-number").first()
    if game is None:
        raise InternalError(f"match {match.pk} is {match.status} without a game")
    return set_current_game(match, game)


def set_current_game(match: Match, game: Game) -> Game:
    """Say that ``game``, as read or just saved, is ``match``'s latest (``open_game`` does,
    for the game it opens)."""
    rows.remember(game)
    game.match = match
    setattr(match, _CURRENT_GAME, game)
    return game


def game_state(game: Game) -> GameState:
    """The pure game state a ``Game`` row stores."""
    return GameState(
        board=Board.from_position_id(game.position_id),
        on_roll=game.turn,
        phase=Phase(game.phase),
        dice=game.dice,
        cube=Cube(
            value=game.cube_value,
            owner=None if game.cube_owner == CENTRED else game.cube_owner,
            offer=Offer(game.cube_offer) if game.cube_offer else None,
            offered_by=game.cube_offered_by,
            offered_value=game.cube_offered_value,
            automatic_doubles=game.automatic_doubles,
        ),
        resigned_by=game.resigned_by,
        resign_level=game.resign_level,
        resume_phase=Phase(game.resume_phase) if game.resume_phase else None,
    )


def store_state(game: Game, state: GameState, *, save: bool = True) -> None:
    """Write ``state`` into the ``Game`` row (and save it unless ``save`` is False)."""
    game.position_id = state.board.position_id()
    game.turn = state.on_roll
    game.phase = GamePhase(state.phase.value)
    game.dice_0, game.dice_1 = state.dice if state.dice else (None, None)
    cube = state.cube
    game.cube_value = cube.value
    game.cube_owner = CENTRED if cube.owner is None else cube.owner
    game.cube_offer = cube.offer.value if cube.offer else ""
    game.cube_offered_by = cube.offered_by
    game.cube_offered_value = cube.offered_value
    game.automatic_doubles = cube.automatic_doubles
    game.resigned_by = state.resigned_by
    game.resign_level = state.resign_level
    game.resume_phase = state.resume_phase.value if state.resume_phase else ""
    if state.outcome is not None:
        game.winner_seat = state.outcome.winner
        game.result_level = state.outcome.level
        game.points = state.outcome.points
        game.finish_reason = END_REASONS[state.outcome.reason]
    if save:
        rows.save_changed(game)


def game_rules(match: Match, game: Game | None) -> GameRules:
    """The rules ``game`` of ``match`` is played under (cube limits, Crawford, Jacoby)."""
    return GameRules(
        cube=CubeRules(
            money=match.is_money,
            beavers=match.beavers,
            raccoons=match.raccoons,
            max_cube=match.max_cube or None,
            crawford_game=bool(game and game.crawford),
            automatic_doubles=match.automatic_doubles,
        ),
        jacoby=match.jacoby,
    )


def match_cube_of(match: Match) -> MatchCube | None:
    """The match cube ``match`` is played with, or None when it has none."""
    if match.match_cube < 1:
        return None
    return MatchCube(
        value=match.match_cube,
        owner=match.match_cube_owner,
        offered_by=match.match_cube_offered_by,
        maximum=match.max_match_cube or None,
    )


def store_match_cube(match: Match, cube: MatchCube) -> None:
    """Write ``cube`` into the match row (the caller saves it)."""
    match.match_cube = cube.value
    match.match_cube_owner = cube.owner
    match.match_cube_offered_by = cube.offered_by


def seat_to_act(match: Match, state: GameState | None) -> int | None:
    """The seat the match waits for in the game state ``state``: the player who must answer
    a match double, else the game's player to act; None when nobody must act."""
    if state is None or state.phase is Phase.OVER:
        return None
    if match.match_cube_offered_by is not None:
        return 1 - match.match_cube_offered_by
    return state.to_act


# The actions that begin a turn, and the double that can follow in it.
_TURN_KINDS = (ActionKind.OPENING, ActionKind.PLAY, ActionKind.PASS, ActionKind.DOUBLE)


def game_cube_turned(match: Match, game: Game, state: GameState) -> bool:
    """Whether the player on roll has doubled the game cube in this turn (he is on roll
    again after the take, but his turn is no longer at its start, when the match stake may
    be doubled): read from the log, and only when it could decide a match double."""
    cube = match_cube_of(match)
    if cube is None or state.phase is not Phase.ROLL or not cube.may_double(state.on_roll):
        return False
    latest = (
        Action.objects.filter(match=match, game_number=game.number, kind__in=_TURN_KINDS)
        .order_by("-seq")
        .values_list("kind", flat=True)
        .first()
    )
    return latest == ActionKind.DOUBLE


def waiting_state(match: Match) -> GameState | None:
    """The game state the match waits in, or None when it is not being played."""
    if match.status != MatchStatus.PLAYING:
        return None
    return game_state(current_game(match))


def match_id(
    state: GameState, length: int, score: tuple[int, int], crawford: bool, *, jacoby: bool = False
) -> str:
    """The GNUBG Match ID of ``state`` in a match to ``length`` points (0 in money play)."""
    id_state = MatchIdGameState.PLAYING
    if state.outcome is not None:
        id_state = {
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
        game_state=id_state,
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
    """``PositionID:MatchID`` of ``state``."""
    return f"{state.board.position_id()}:{match_id(state, length, score, crawford, jacoby=jacoby)}"


def match_gnubg_id(match: Match, game: Game, state: GameState, *, jacoby: bool = False) -> str:
    """The GNUBG ID of ``state`` in ``game`` of ``match``, with the match's score."""
    length = 0 if match.is_money else match.length
    score = (match.score_0, match.score_1)
    return gnubg_id(state, length, score, game.crawford, jacoby=jacoby)
