"""Writes for matches: challenges, every action of live play, clocks and presence.

Each service locks the match row (``select_for_update``) before reading its state, so
two requests for one match run one after the other; the rules come from
``backgammon.turns``; every change appends to the action log; live events are
published by ``matches.events`` after the transaction commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts import ledger
from accounts.commission import commission_cents
from accounts.models import Currency, User
from accounts.services import rating_record_match
from backgammon import turns
from backgammon.board import Board
from backgammon.cube import Cube, CubeRules, Offer
from backgammon.errors import BackgammonError
from backgammon.match import MatchState
from backgammon.matfile import mat_play_text
from backgammon.moves import Play, apply_play, legal_plays
from backgammon.notation import format_play
from backgammon.turns import EndReason, GameRules, GameState, Phase
from config.celery import enqueue_on_commit
from config.errors import Conflict, DomainError, Forbidden, InternalError
from matches import dice as fair_dice
from matches import events
from matches.models import (
    CENTRED,
    AbandonPolicy,
    Action,
    ActionKind,
    ClockKind,
    FinishReason,
    Game,
    GamePhase,
    Match,
    MatchKind,
    MatchStatus,
    TimeoutLoses,
)
from matches.positions import gnubg_id

MAX_MATCH_LENGTH = 25
MONEY_DEFAULT_MAX_CUBE = 16
RESIGN_LEVELS = {"single": 1, "gammon": 2, "backgammon": 3}
_END_REASONS = {
    EndReason.BORNE_OFF: FinishReason.PLAYED,
    EndReason.DROPPED: FinishReason.PLAYED,
    EndReason.RESIGNED: FinishReason.RESIGNED,
    EndReason.TIMEOUT: FinishReason.TIMEOUT,
    EndReason.FORFEIT: FinishReason.FORFEIT,
}


@dataclass(frozen=True)
class ClockSettings:
    kind: str = ClockKind.MOVE
    move_seconds: int = 12
    reserve_seconds: int = 60
    delay_seconds: int = 12
    timeout_loses: str = TimeoutLoses.MATCH


# ---------------------------------------------------------------- challenges


@transaction.atomic
def match_challenge(
    *,
    challenger: User,
    opponent: User,
    length: int | None = None,
    money: bool = False,
    stake_cents: int = 0,
    currency: str = Currency.FUN,
    jacoby: bool = True,
    beavers: bool = False,
    max_cube: int | None = None,
    rated: bool = True,
    private: bool = False,
    clock: ClockSettings | None = None,
    tournament_id: int | None = None,
) -> Match:
    """Invite ``opponent`` to a match to ``length`` points or to a money session."""
    if opponent.pk == challenger.pk:
        raise DomainError("You cannot challenge yourself; try pass and play instead")
    if not opponent.is_active:
        raise DomainError(f"{opponent.username} cannot be challenged")
    if currency not in Currency.values:
        raise DomainError(f"Currency must be one of {', '.join(Currency.values)}")
    if stake_cents < 0:
        raise DomainError("The stake cannot be negative")
    if money:
        if stake_cents <= 0:
            raise DomainError("A money session needs a stake per point of at least 0.01")
        kind, length = MatchKind.MONEY, 0
        max_cube = MONEY_DEFAULT_MAX_CUBE if max_cube is None else max_cube
        if max_cube < 1 or max_cube & (max_cube - 1):
            raise DomainError("The maximum cube must be a power of two such as 8, 16 or 64")
        rated = False
    else:
        if length is None or not 1 <= length <= MAX_MATCH_LENGTH:
            raise DomainError(f"A match is played to 1 to {MAX_MATCH_LENGTH} points")
        kind, max_cube = MatchKind.MATCH, 0
        jacoby = beavers = False
    settings = clock or ClockSettings()
    _check_clock(settings)
    return Match.objects.create(
        kind=kind,
        length=length,
        player_0=challenger,
        player_1=opponent,
        currency=currency,
        stake_cents=stake_cents,
        jacoby=jacoby,
        beavers=beavers,
        max_cube=max_cube,
        rated=rated,
        private=private,
        clock=settings.kind,
        move_seconds=settings.delay_seconds
        if settings.kind == ClockKind.DELAY
        else settings.move_seconds,
        reserve_seconds=settings.reserve_seconds,
        delay_seconds=settings.delay_seconds,
        timeout_loses=settings.timeout_loses,
        tournament_id=tournament_id,
        dice_seed=fair_dice.new_seed(),
    )


@transaction.atomic
def pass_and_play_create(*, user: User, length: int) -> Match:
    """An unrated match without stake for two people sharing one screen."""
    if not 1 <= length <= MAX_MATCH_LENGTH:
        raise DomainError(f"A match is played to 1 to {MAX_MATCH_LENGTH} points")
    match = Match.objects.create(
        kind=MatchKind.MATCH,
        length=length,
        player_0=user,
        player_1=user,
        pass_and_play=True,
        rated=False,
        private=True,
        clock=ClockKind.NONE,
        dice_seed=fair_dice.new_seed(),
    )
    start_match(match)
    return match


@transaction.atomic
def match_create_for_tournament(
    *,
    tournament_id: int,
    player_0: User,
    player_1: User,
    length: int,
    clock: ClockSettings | None = None,
    show_up_seconds: int | None = None,
    rated: bool = True,
    abandon_policy: str = AbandonPolicy.ENGINE,
) -> Match:
    """A tournament match between two seated players, started at once.

    The money is the tournament's, so no stake moves here. With ``show_up_seconds`` a
    player who has neither connected nor acted by then forfeits the match.
    """
    if not 1 <= length <= MAX_MATCH_LENGTH:
        raise DomainError(f"A match is played to 1 to {MAX_MATCH_LENGTH} points")
    settings = clock or ClockSettings()
    _check_clock(settings)
    match = Match.objects.create(
        kind=MatchKind.MATCH,
        length=length,
        player_0=player_0,
        player_1=player_1,
        rated=rated,
        clock=settings.kind,
        move_seconds=settings.delay_seconds
        if settings.kind == ClockKind.DELAY
        else settings.move_seconds,
        reserve_seconds=settings.reserve_seconds,
        delay_seconds=settings.delay_seconds,
        timeout_loses=settings.timeout_loses,
        tournament_id=tournament_id,
        abandon_policy=abandon_policy,
        dice_seed=fair_dice.new_seed(),
    )
    if show_up_seconds is not None:
        match.show_up_by = timezone.now() + timedelta(seconds=show_up_seconds)
    start_match(match)
    return match


@transaction.atomic
def match_accept(*, match_id: int, user: User) -> Match:
    """Accept an invitation: stakes go into escrow and the opening roll is thrown."""
    match = locked_match(match_id)
    if match.player_1_id != user.pk:
        raise Forbidden("Only the player challenged can accept this invitation")
    if match.status != MatchStatus.INVITED:
        raise Conflict(f"This invitation is {match.get_status_display().lower()} already")
    if match.kind == MatchKind.MATCH and match.stake_cents:
        for seat in (0, 1):
            ledger.escrow_stake(
                user=match.player(seat),
                currency=match.currency,
                amount_cents=match.stake_cents,
                escrow_ref=escrow_ref(match),
                key=f"match:{match.pk}:stake:{seat}",
            )
    start_match(match)
    return match


@transaction.atomic
def match_decline(*, match_id: int, user: User) -> Match:
    match = locked_match(match_id)
    seat = match.seat_of(user)
    if seat is None:
        raise Forbidden("This invitation is not yours")
    if match.status != MatchStatus.INVITED:
        raise Conflict(f"This invitation is {match.get_status_display().lower()} already")
    match.status = MatchStatus.DECLINED if seat == 1 else MatchStatus.CANCELLED
    match.save(update_fields=["status"])
    events.publish_match(match)
    return match


# ---------------------------------------------------------------- live play


@dataclass(frozen=True)
class ActionResult:
    match: Match
    applied: bool


@transaction.atomic
def action_submit(
    *,
    match_id: int,
    user: User,
    kind: str,
    seq: int | None = None,
    play: str | None = None,
    position_id: str | None = None,
    resign: str | None = None,
    now: datetime | None = None,
    engine: bool = False,
) -> ActionResult:
    """Apply one player action; a repeated ``seq`` is answered without applying it again."""
    match = locked_match(match_id)
    seat = match.seat_of(user)
    if seat is None:
        raise Forbidden("You are not playing in this match")
    if seq is not None and Action.objects.filter(match=match, actor=user, client_seq=seq).exists():
        return ActionResult(match, applied=False)
    if match.status != MatchStatus.PLAYING:
        raise Conflict(f"The match is not being played: it is {match.get_status_display().lower()}")
    _mark_seen(match, seat)
    game = current_game(match)
    state = game_state(game)
    if match.pass_and_play and state.to_act is not None:
        seat = state.to_act
    if state.to_act != seat and kind != "resign":
        raise Conflict(_out_of_turn(state, seat))
    moment = now or timezone.now()
    _charge_clock(match, state.to_act, moment)
    rules = game_rules(match, game)
    before = state
    try:
        if kind == "roll":
            rolled = fair_dice.turn_dice(match.dice_seed, game.number, game.rolls + 1)
            game.rolls += 1
            after = turns.roll(state, seat, rolled)
            append_action(match, game, ActionKind.ROLL, seat, user, before, after, seq, dice=rolled)
            if after.phase is Phase.ROLL:
                append_action(match, game, ActionKind.PASS, seat, None, after, after, None)
        elif kind == "play":
            submitted = position_id or play
            if not submitted:
                raise DomainError('Send the play as "play": "24/18 13/10" or as "position_id"')
            after, _board = turns.play(state, seat, submitted, rules)
            _log_play(match, game, seat, user, before, after, seq)
        elif kind == "double":
            after = turns.double(state, seat, rules)
            append_action(
                match,
                game,
                ActionKind.DOUBLE,
                seat,
                user,
                before,
                after,
                seq,
                detail={"cube": after.cube.offered_value},
            )
        elif kind == "take":
            after = turns.take(state, seat)
            append_action(
                match,
                game,
                ActionKind.TAKE,
                seat,
                user,
                before,
                after,
                seq,
                detail={"cube": after.cube.value},
            )
        elif kind == "drop":
            after = turns.drop(state, seat)
            append_action(match, game, ActionKind.DROP, seat, user, before, after, seq)
        elif kind == "beaver":
            after = turns.beaver(state, seat, rules)
            append_action(
                match,
                game,
                ActionKind.BEAVER,
                seat,
                user,
                before,
                after,
                seq,
                detail={"cube": after.cube.offered_value or after.cube.value},
            )
        elif kind == "raccoon":
            after = turns.raccoon(state, seat, rules)
            append_action(
                match,
                game,
                ActionKind.RACCOON,
                seat,
                user,
                before,
                after,
                seq,
                detail={"cube": after.cube.value},
            )
        elif kind == "resign":
            level = RESIGN_LEVELS.get(resign or "")
            if level is None:
                raise DomainError('Say what you resign: "single", "gammon" or "backgammon"')
            after = turns.resign(state, seat, level)
            append_action(
                match,
                game,
                ActionKind.RESIGN,
                seat,
                user,
                before,
                after,
                seq,
                detail={"level": resign},
            )
        elif kind == "accept_resign":
            after = turns.accept_resignation(state, seat, rules)
            append_action(match, game, ActionKind.ACCEPT_RESIGN, seat, user, before, after, seq)
        elif kind == "reject_resign":
            after = turns.reject_resignation(state, seat)
            append_action(match, game, ActionKind.REJECT_RESIGN, seat, user, before, after, seq)
        else:
            raise DomainError(f"Unknown action {kind!r}")
    except BackgammonError as error:
        raise DomainError(str(error)) from error
    after = _autoplay_forced(match, game, after)
    _store(game, after)
    to_act = after.to_act
    if after.phase is Phase.OVER:
        next_game = _end_game(match, game, after, moment)
        to_act = game_state(next_game).to_act if next_game else None
    _restart_clock(match, moment, to_act)
    match.save()
    events.publish_match(match)
    if match.engine_strength and to_act == 1 and not engine:
        _wake_engine(match)
    return ActionResult(match, applied=True)


def _autoplay_forced(match: Match, game: Game, state: GameState) -> GameState:
    """Play the only legal play for a player who asked for forced moves to be made."""
    while state.phase is Phase.MOVE:
        player = match.player(state.on_roll)
        if not player.profile.automatic_forced_moves:
            return state
        only = turns.forced_play(state)
        if only is None:
            return state
        before = state
        state, _board = turns.play(state, state.on_roll, only, game_rules(match, game))
        _log_play(match, game, before.on_roll, None, before, state, None, automatic=True)
    return state


# ---------------------------------------------------------------- timeouts, presence


@transaction.atomic
def timeout_expire(*, match_id: int, now: datetime | None = None) -> bool:
    """End the game or match of the player whose time ran out; False if nothing was due."""
    moment = now or timezone.now()
    match = locked_match(match_id)
    if match.status != MatchStatus.PLAYING or match.clock == ClockKind.NONE:
        return False
    game = current_game(match)
    state = game_state(game)
    seat = state.to_act
    if seat is None or match.turn_started_at is None:
        return False
    if moment < clock_deadline(match, seat):
        return False
    _set_reserve(match, seat, 0)
    after = turns.forfeit(state, seat, EndReason.TIMEOUT)
    append_action(match, game, ActionKind.TIMEOUT, seat, None, state, after, None)
    _store(game, after)
    to_act = None
    if match.timeout_loses == TimeoutLoses.MATCH and not match.is_money:
        finish_match(match, winner_seat=1 - seat, reason=FinishReason.TIMEOUT, moment=moment)
        game.finished_at = moment
        game.save()
    else:
        next_game = _end_game(match, game, after, moment)
        to_act = game_state(next_game).to_act if next_game else None
    _restart_clock(match, moment, to_act)
    match.save()
    events.publish_match(match)
    return True


@transaction.atomic
def spectator_count(*, match_id: int, change: int) -> None:
    """Count a spectator in (+1) or out (−1); the count is shown beside the board."""
    match = locked_match(match_id)
    match.spectators = max(0, match.spectators + change)
    match.save(update_fields=["spectators"])
    events.publish_match(match)


@transaction.atomic
def presence_connect(*, match_id: int, user: User) -> None:
    """A player's connection opened; returning within the grace resumes the match."""
    match = locked_match(match_id)
    seat = match.seat_of(user)
    if seat is None:
        spectator_count(match_id=match_id, change=+1)
        return
    was_away = _connections(match, seat) == 0 and _grace(match, seat) is not None
    _set_connections(match, seat, _connections(match, seat) + 1)
    _mark_seen(match, seat)
    if was_away:
        _set_grace(match, seat, None)
        append_action(match, None, ActionKind.RECONNECT, seat, user, None, None, None)
        if match.status == MatchStatus.SUSPENDED and _grace(match, 1 - seat) is None:
            match.status = MatchStatus.PLAYING
        _restart_deadline(match, _to_act(match))
    match.save()
    events.publish_match(match)


@transaction.atomic
def presence_disconnect(*, match_id: int, user: User, now: datetime | None = None) -> None:
    moment = now or timezone.now()
    match = locked_match(match_id)
    seat = match.seat_of(user)
    if seat is None:
        spectator_count(match_id=match_id, change=-1)
        return
    _set_connections(match, seat, max(0, _connections(match, seat) - 1))
    if (
        _connections(match, seat) == 0
        and match.status == MatchStatus.PLAYING
        and not match.pass_and_play
    ):
        _set_grace(match, seat, moment + timedelta(seconds=match.reconnect_grace_seconds))
        append_action(match, None, ActionKind.DISCONNECT, seat, user, None, None, None)
        _restart_deadline(match, _to_act(match))
    match.save()
    events.publish_match(match)


@transaction.atomic
def no_show_expire(*, match_id: int, now: datetime | None = None) -> bool:
    """A player who never showed up by ``show_up_by`` forfeits; False if nothing was due."""
    moment = now or timezone.now()
    match = locked_match(match_id)
    if match.status != MatchStatus.PLAYING or match.show_up_by is None or moment < match.show_up_by:
        return False
    absent = [seat for seat in (0, 1) if not _seen(match, seat)]
    match.show_up_by = None
    if not absent:
        _restart_deadline(match, _to_act(match))
        match.save()
        return False
    # Both absent: the draw's lower seat goes through, as a coin would have to decide.
    loser = absent[0] if len(absent) == 1 else 1
    append_action(
        match, None, ActionKind.FORFEIT, loser, None, None, None, None, detail={"absent": absent}
    )
    finish_match(match, winner_seat=1 - loser, reason=FinishReason.FORFEIT, moment=moment)
    match.save()
    events.publish_match(match)
    return True


@transaction.atomic
def grace_expire(*, match_id: int, now: datetime | None = None) -> bool:
    """Act on a reconnection grace that ran out, by the match's abandon policy.

    Forfeit: the absent player loses. Engine: the match is suspended and adjudicated on
    the analysis queue. Suspend: staff decide.
    """
    moment = now or timezone.now()
    match = locked_match(match_id)
    if match.status != MatchStatus.PLAYING:
        return False
    absent = [
        seat for seat in (0, 1) if (ends := _grace(match, seat)) is not None and ends <= moment
    ]
    if not absent:
        return False
    detail: dict[str, object] = {"absent": absent}
    if match.abandon_policy == AbandonPolicy.FORFEIT and len(absent) == 1 and not match.is_money:
        append_action(
            match, None, ActionKind.FORFEIT, absent[0], None, None, None, None, detail=detail
        )
        finish_match(match, winner_seat=1 - absent[0], reason=FinishReason.FORFEIT, moment=moment)
        match.save()
        events.publish_match(match)
        return True
    match.status = MatchStatus.SUSPENDED
    append_action(match, None, ActionKind.SUSPEND, absent[0], None, None, None, None, detail=detail)
    match.deadline = None
    match.save()
    if match.abandon_policy == AbandonPolicy.ENGINE or match.is_money:
        from matches.tasks import adjudicate_match  # the task module imports this one

        enqueue_on_commit(adjudicate_match, match.pk)
    events.publish_match(match)
    return True


@transaction.atomic
def deadline_refresh(*, match_id: int) -> None:
    """Recompute when the sweeper must next look at the match."""
    match = locked_match(match_id)
    _restart_deadline(match, _to_act(match))
    match.save(update_fields=["deadline"])


# ---------------------------------------------------------------- reads used by the API


def current_game(match: Match) -> Game:
    game = match.games.order_by("-number").first()
    if game is None:
        raise InternalError(f"match {match.pk} is {match.status} without a game")
    return game


def game_state(game: Game) -> GameState:
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


def game_rules(match: Match, game: Game | None) -> GameRules:
    return GameRules(
        cube=CubeRules(
            money=match.is_money,
            beavers=match.beavers,
            max_cube=match.max_cube or None,
            crawford_game=bool(game and game.crawford),
            automatic_doubles=match.automatic_doubles,
        ),
        jacoby=match.jacoby,
    )


def escrow_ref(match: Match) -> str:
    return f"match:{match.pk}"


def clock_deadline(match: Match, seat: int) -> datetime:
    assert match.turn_started_at is not None
    return match.turn_started_at + timedelta(
        seconds=match.move_seconds, milliseconds=_reserve(match, seat)
    )


# ---------------------------------------------------------------- internals


def locked_match(match_id: int) -> Match:
    """The match row, locked for the rest of the transaction."""
    try:
        return (
            Match.objects.select_for_update(of=("self",))
            .select_related("player_0__profile", "player_1__profile")
            .get(pk=match_id)
        )
    except Match.DoesNotExist:
        raise DomainError(f"There is no match {match_id}") from None


def _check_clock(settings: ClockSettings) -> None:
    if settings.kind not in ClockKind.values:
        raise DomainError(f"The clock must be one of {', '.join(ClockKind.values)}")
    if settings.timeout_loses not in TimeoutLoses.values:
        raise DomainError('A timeout loses "match" or "game"')
    if settings.kind != ClockKind.NONE:
        if not 1 <= settings.move_seconds <= 600 or not 1 <= settings.delay_seconds <= 600:
            raise DomainError("The move timer or delay must be 1 to 600 seconds")
        if not 0 <= settings.reserve_seconds <= 24 * 3600:
            raise DomainError("The reserve must be 0 to 86,400 seconds")


def start_match(match: Match) -> None:
    """Start the match: the seed is committed to, the clocks set, game 1 opened.

    Expects the match row new or locked.
    """
    now = timezone.now()
    match.status = MatchStatus.PLAYING
    match.started_at = now
    match.dice_commitment = fair_dice.commitment(match.dice_seed)
    reserve_ms = _initial_reserve_ms(match)
    match.reserve_ms_0 = match.reserve_ms_1 = reserve_ms
    append_action(
        match,
        None,
        ActionKind.START,
        None,
        None,
        None,
        None,
        None,
        detail={"dice_commitment": match.dice_commitment},
    )
    game = _open_game(match, number=1, crawford=False)
    to_act = game_state(game).to_act
    _restart_clock(match, now, to_act)
    match.save()
    events.publish_match(match)
    if match.engine_strength and to_act == 1:
        _wake_engine(match)


def _initial_reserve_ms(match: Match) -> int:
    if match.clock == ClockKind.NONE:
        return 0
    if match.clock == ClockKind.DELAY and not match.is_money:
        return match.reserve_seconds * match.length * 1000
    return match.reserve_seconds * 1000


def _open_game(match: Match, *, number: int, crawford: bool) -> Game:
    """Throw the opening roll of a new game and escrow a money game's exposure."""
    if match.is_money and match.stake_cents:
        exposure = 3 * match.max_cube * match.stake_cents
        for seat in (0, 1):
            ledger.escrow_stake(
                user=match.player(seat),
                currency=match.currency,
                amount_cents=exposure,
                escrow_ref=escrow_ref(match),
                key=f"match:{match.pk}:game:{number}:exposure:{seat}",
            )
    throws = fair_dice.opening_throws(match.dice_seed, number)
    game = Game(match=match, number=number, crawford=crawford, turn=0, position_id="")
    state = turns.opening(throws, game_rules(match, game))
    _store(game, state, save=False)
    game.save()
    for throw in throws:
        append_action(match, game, ActionKind.OPENING, None, None, None, state, None, dice=throw)
    if state.phase is Phase.ROLL:  # the opening roll could not be played at all
        append_action(match, game, ActionKind.PASS, 1 - state.on_roll, None, state, state, None)
    after = _autoplay_forced(match, game, state)
    if after is not state:
        _store(game, after)
    return game


def _store(game: Game, state: GameState, *, save: bool = True) -> None:
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
        game.finish_reason = _END_REASONS[state.outcome.reason]
    if save:
        game.save()


def _end_game(match: Match, game: Game, state: GameState, moment: datetime) -> Game | None:
    """Score a finished game, settle it in money play, and open the next game (returned)
    or end the match (None)."""
    outcome = state.outcome
    assert outcome is not None
    game.finished_at = moment
    game.save()
    append_action(
        match,
        game,
        ActionKind.GAME_OVER,
        outcome.winner,
        None,
        state,
        state,
        None,
        detail={"winner": outcome.winner, "level": outcome.level, "points": outcome.points},
    )
    score_before = (match.score_0, match.score_1)
    if outcome.winner == 0:
        match.score_0 += outcome.points
    else:
        match.score_1 += outcome.points
    if match.is_money:
        _settle_money_game(match, game, outcome.winner, outcome.points)
        if not _can_continue_session(match):
            finish_match(match, winner_seat=None, reason=FinishReason.SESSION_ENDED, moment=moment)
            return None
        return _open_game(match, number=game.number + 1, crawford=False)
    before = MatchState(
        length=match.length,
        score=(score_before[0], score_before[1]),
        crawford=game.crawford,
        post_crawford=match.crawford_played and not game.crawford,
        game_number=game.number,
    )
    after = before.after_game(outcome.winner, outcome.points)
    if after.over:
        finish_match(match, winner_seat=outcome.winner, reason=game.finish_reason, moment=moment)
        return None
    match.crawford_played = after.crawford or after.post_crawford
    return _open_game(match, number=after.game_number, crawford=after.crawford)


def _settle_money_game(match: Match, game: Game, winner: int, points: int) -> None:
    if not match.stake_cents:
        return
    exposure = 3 * match.max_cube * match.stake_cents
    won = min(points * match.stake_cents, exposure)
    commission = 2 * commission_cents(won)
    payouts = {
        match.player(winner).pk: exposure + won - commission,
        match.player(1 - winner).pk: exposure - won,
    }
    ledger.settle_match(
        escrow_ref=escrow_ref(match),
        currency=match.currency,
        payouts=payouts,
        commission_cents=commission,
        key=f"match:{match.pk}:game:{game.number}:settle",
    )


def _can_continue_session(match: Match) -> bool:
    exposure = 3 * match.max_cube * match.stake_cents
    return all(
        ledger.balance(user=match.player(seat), currency=match.currency) >= exposure
        for seat in (0, 1)
    )


def finish_match(
    match: Match, *, winner_seat: int | None, reason: str, moment: datetime, pay_pot: bool = True
) -> None:
    """End the match: the pot to the winner (unless already split), ratings, the tournament.

    Expects the match row locked (``locked_match``).
    """
    match.status = MatchStatus.FINISHED
    match.winner_seat = winner_seat
    match.finish_reason = reason
    match.finished_at = moment
    match.deadline = None
    match.turn_started_at = None
    append_action(
        match,
        None,
        ActionKind.MATCH_OVER,
        winner_seat,
        None,
        None,
        None,
        None,
        detail={
            "winner": winner_seat,
            "reason": reason,
            "dice_seed": match.dice_seed,
            "score": [match.score_0, match.score_1],
        },
    )
    if match.tournament_id is not None:
        _tell_tournament(match)
    if winner_seat is None:
        return
    winner, loser = match.player(winner_seat), match.player(1 - winner_seat)
    if match.kind == MatchKind.MATCH and match.stake_cents and pay_pot:
        commission = 2 * commission_cents(match.stake_cents)
        ledger.settle_match(
            escrow_ref=escrow_ref(match),
            currency=match.currency,
            payouts={winner.pk: 2 * match.stake_cents - commission},
            commission_cents=commission,
            key=f"match:{match.pk}:pot",
        )
    if match.rated and not match.pass_and_play:
        rating_record_match(
            winner=winner, loser=loser, match_length=match.length, match_id=match.pk
        )


def _wake_engine(match: Match) -> None:
    """The computer opponent acts once this transaction commits (practice matches)."""
    from matches.tasks import engine_turn  # the task module imports this one

    enqueue_on_commit(engine_turn, match.pk)


def _tell_tournament(match: Match) -> None:
    """The tournament scheduler fills the next slot once this result is committed."""
    from tournaments.tasks import tournament_match_finished  # tournaments builds on matches

    enqueue_on_commit(tournament_match_finished, match.pk)


def _charge_clock(match: Match, seat: int | None, moment: datetime) -> None:
    """Charge ``seat`` (the player to act) for time used beyond the move timer."""
    if match.clock == ClockKind.NONE or match.turn_started_at is None or seat is None:
        return
    used_ms = int((moment - match.turn_started_at).total_seconds() * 1000)
    over_ms = max(0, used_ms - match.move_seconds * 1000)
    _set_reserve(match, seat, max(0, _reserve(match, seat) - over_ms))


def _restart_clock(match: Match, moment: datetime, to_act: int | None) -> None:
    match.turn_started_at = moment if match.status == MatchStatus.PLAYING else None
    _restart_deadline(match, to_act)


def _to_act(match: Match) -> int | None:
    if match.status != MatchStatus.PLAYING:
        return None
    return game_state(current_game(match)).to_act


def _restart_deadline(match: Match, to_act: int | None) -> None:
    """The earliest moment the sweeper must look at this match again."""
    candidates = [ends for seat in (0, 1) if (ends := _grace(match, seat)) is not None]
    if match.show_up_by is not None:
        candidates.append(match.show_up_by)
    clock_runs = match.clock != ClockKind.NONE and match.turn_started_at is not None
    if match.status == MatchStatus.PLAYING and clock_runs and to_act is not None:
        candidates.append(clock_deadline(match, to_act))
    match.deadline = min(candidates) if candidates and match.status == MatchStatus.PLAYING else None


def append_action(
    match: Match,
    game: Game | None,
    kind: str,
    seat: int | None,
    actor: User | None,
    before: GameState | None,
    after: GameState | None,
    client_seq: int | None,
    *,
    dice: tuple[int, int] | None = None,
    detail: dict[str, object] | None = None,
) -> Action:
    match.last_seq += 1
    length = 0 if match.is_money else match.length
    score = (match.score_0, match.score_1)
    crawford = bool(game and game.crawford)
    return Action.objects.create(
        match=match,
        game_number=game.number if game else None,
        seq=match.last_seq,
        kind=kind,
        seat=seat,
        actor=actor,
        gnubg_before=gnubg_id(before, length, score, crawford) if before else "",
        gnubg_after=gnubg_id(after, length, score, crawford) if after else "",
        dice=f"{dice[0]}{dice[1]}" if dice else "",
        detail=detail or {},
        clock_0_ms=match.reserve_ms_0,
        clock_1_ms=match.reserve_ms_1,
        client_seq=client_seq,
    )


def _log_play(
    match: Match,
    game: Game,
    seat: int,
    actor: User | None,
    before: GameState,
    after: GameState,
    client_seq: int | None,
    *,
    automatic: bool = False,
) -> None:
    assert before.dice is not None
    mover_after = after.board if after.phase is Phase.OVER else after.board.swapped()
    played = _the_play(before.board, before.dice, mover_after)
    append_action(
        match,
        game,
        ActionKind.PLAY,
        seat,
        actor,
        before,
        after,
        client_seq,
        detail={
            "play": format_play(played, before.board),
            "mat": mat_play_text(played),
            "automatic": automatic,
            "dice": list(before.dice),
        },
    )


def _the_play(board: Board, dice: tuple[int, int], after: Board) -> Play:
    """The legal play (single-die moves) that led from ``board`` to ``after``."""
    for candidate in legal_plays(board, dice):
        if apply_play(board, candidate) == after:
            return candidate
    raise InternalError("a validated play has no matching legal play")


def _out_of_turn(state: GameState, seat: int) -> str:
    if state.phase is Phase.OVER:
        return "The game is over"
    if state.phase is Phase.DOUBLED:
        return "Wait for your opponent to answer your double"
    if state.phase is Phase.RESIGNATION and state.resigned_by == seat:
        return "Wait for your opponent to answer your resignation"
    return "It is not your turn"


def _reserve(match: Match, seat: int) -> int:
    return match.reserve_ms_0 if seat == 0 else match.reserve_ms_1


def _set_reserve(match: Match, seat: int, value: int) -> None:
    if seat == 0:
        match.reserve_ms_0 = value
    else:
        match.reserve_ms_1 = value


def _connections(match: Match, seat: int) -> int:
    return match.connections_0 if seat == 0 else match.connections_1


def _set_connections(match: Match, seat: int, value: int) -> None:
    if seat == 0:
        match.connections_0 = value
    else:
        match.connections_1 = value


def _seen(match: Match, seat: int) -> bool:
    return match.seen_0 if seat == 0 else match.seen_1


def _mark_seen(match: Match, seat: int) -> None:
    if seat == 0:
        match.seen_0 = True
    else:
        match.seen_1 = True


def _grace(match: Match, seat: int) -> datetime | None:
    return match.grace_ends_0 if seat == 0 else match.grace_ends_1


def _set_grace(match: Match, seat: int, value: datetime | None) -> None:
    if seat == 0:
        match.grace_ends_0 = value
    else:
        match.grace_ends_1 = value
