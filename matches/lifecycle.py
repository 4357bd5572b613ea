"""A match from its start to its result: start, games, finish, and staff decisions.

States (``MatchStatus``): a match comes to be (``matches.creation``) *invited*, or
*playing* at once; once it starts, both players must come and move within ``SHOW_UP`` or
it is *aborted* (``matches.deadlines``).
A match being played may be *suspended* (a player's reconnection grace ran out, see
``matches.deadlines``) and ends *finished*. Tournament, practice and pass-and-play matches
start at once.

Each game opens with its opening roll (``open_game``); when a game is over, ``end_game``
scores it, settles it in money play and opens the next game or ends the match
(``finish_match``: the pot, ratings, the dice seed revealed and ``MatchFinished``).

Staff decisions reach a match only through the services at the end: ``match_void``,
``match_award`` and ``match_cancel`` (a replay is ``matches.creation.match_replay``); their
money is ``matches.money``'s. A cancelled tournament ends its matches still being played with
``match_stop``.

Every service that changes an existing match locks it first (``matches.state.lock_match``);
the functions without ``@transaction.atomic`` expect the caller to hold that lock.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Profile, User
from accounts.services import rating_record_match
from backgammon import turns
from backgammon.match import MatchOptions, MatchState
from backgammon.turns import GameState, Phase
from core import rows
from core.errors import Conflict, InternalError
from core.rows import among
from core.tasks import enqueue_on_commit
from matches import clock, events, money
from matches import dice as fair_dice
from matches.engine import engine_status
from matches.log import append_action, append_play, insert_all, new_action
from matches.models import (
    Action,
    ActionKind,
    FinishReason,
    Game,
    Match,
    MatchStatus,
)
from matches.state import current_game, game_rules, game_state, set_current_game, store_state

SHOW_UP = timedelta(minutes=5)
ENGINE_SEAT = 1
ENGINE_TURN_TASK = "analysis.engine_turn"


# ---------------------------------------------------------------- playing the games


def start_match(match: Match) -> None:
    """Start the match: the seed is committed to, the clocks set, game 1 opened.

    Expects the match row new or locked.
    """
    since = match.last_seq
    now = timezone.now()
    _begin(match, now)
    append_action(match, kind=ActionKind.START, detail={"dice_commitment": match.dice_commitment})
    game = open_game(match, number=1, crawford=False)
    waiting = game_state(game)
    clock.restart(match, now, waiting)
    match.save()
    events.publish_match(match, since=since)
    if _has_two_people(match) or against_demo_player(match):
        events.publish_ready([match])
    wake_engine(match, waiting.to_act, seats=computer_seats(match))


def start_matches(matches: list[Match]) -> None:
    """Start new matches between people together (a tournament's round), as ``start_match``
    does each, in one statement a table whatever their number.

    Nobody can be watching a match that did not exist, so only ``MatchesReady`` is published
    (one event for all). Game 1 opens with the opening roll, which from the starting position
    always leaves a choice of plays: no pass and no forced move to make.
    """
    now = timezone.now()
    games, actions, states = [], [], []
    demo_players = _demo_players_to_play(matches)
    for match in matches:
        _begin(match, now, computer=_demo_seats(match, demo_players))
        actions.append(
            new_action(
                match, kind=ActionKind.START, detail={"dice_commitment": match.dice_commitment}
            )
        )
        game, state, opening = _opening_roll(match, number=1, crawford=False)
        if state.phase is not Phase.MOVE:
            raise InternalError(f"an opening roll from the starting position left {state.phase}")
        games.append(game)
        states.append(state)
        actions.extend(opening)
        clock.restart(match, now, state)
    rows.insert_many(matches)
    for game in games:
        set_current_game(game.match, game)
    rows.insert_many(games)
    insert_all(actions)
    events.publish_ready(matches)
    for match, state in zip(matches, states, strict=True):
        wake_engine(match, state.to_act, seats=_demo_seats(match, demo_players))


def _demo_players_to_play(matches: list[Match]) -> set[int]:
    """Which players of a tournament's new ``matches`` the computer plays (demo players),
    read in one statement; none when the engine is missing here: a demo player then does
    not come to the board, and forfeits at the show-up time as anyone absent does."""
    demo = _demo_players(matches)
    return demo if demo and engine_status().available else set()


def _demo_players(matches: list[Match]) -> set[int]:
    ids = {match.player_id(seat) for match in matches for seat in (0, 1)}
    return set(
        Profile.objects.filter(user_id__in=among(list(ids)))
        .exclude(bot_strength="")
        .values_list("user_id", flat=True)
    )


def _demo_seats(match: Match, demo_players: set[int]) -> tuple[int, ...]:
    return tuple(seat for seat in (0, 1) if match.player_id(seat) in demo_players)


def computer_seats(match: Match) -> tuple[int, ...]:
    """The seats the computer plays: seat 1 of a practice match or of a challenge a demo
    player accepted (``engine_strength``), and in a tournament every demo player's seat
    (one statement for a tournament's match, none for another)."""
    if match.engine_strength:
        return (ENGINE_SEAT,)
    if match.tournament_id is None or match.pass_and_play:
        return ()
    return _demo_seats(match, _demo_players([match]))


def seat_strength(match: Match, seat: int) -> str:
    """The strength the computer plays ``seat`` at (one of ``computer_seats``)."""
    return match.engine_strength or match.player(seat).profile.bot_strength


def _begin(match: Match, now: datetime, computer: tuple[int, ...] = ()) -> None:
    """The match being played from ``now``: its show-up time, the dice seed committed to,
    both reserves full; the computer's seats (``computer``, else a demo player's seat 1)
    are at the board from the start."""
    match.status = MatchStatus.PLAYING
    match.started_at = now
    computer_seated = against_demo_player(match)
    for seat in computer or ((ENGINE_SEAT,) if computer_seated else ()):
        match.mark_seen(seat)
    if (
        match.show_up_by is None
        and match.tournament_id is None
        and (_has_two_people(match) or computer_seated)
    ):
        # A correspondence match gives the first move its days; a live one, a few minutes.
        correspondence = clock.is_correspondence(match)
        match.show_up_by = now + (
            timedelta(seconds=match.move_seconds) if correspondence else SHOW_UP
        )
    match.dice_commitment = fair_dice.commitment(match.dice_seed)
    match.reserve_ms_0 = match.reserve_ms_1 = clock.initial_reserve_ms(match)


def _has_two_people(match: Match) -> bool:
    """A match between two people (not pass and play, not practice against the engine)."""
    return not match.pass_and_play and not match.engine_strength


def against_demo_player(match: Match) -> bool:
    """A person against a demo player the computer plays (``matches.creation``): played
    as between two people (a clock, a show-up period for the person, ratings, stakes) but
    with the computer in seat 1, as in practice."""
    return bool(match.engine_strength) and bool(match.player(ENGINE_SEAT).profile.bot_strength)


def open_game(match: Match, *, number: int, crawford: bool) -> Game:
    """Throw the opening roll of a new game and escrow a money game's exposure."""
    money.escrow_game_exposure(match, number)
    game, state, opening = _opening_roll(match, number=number, crawford=crawford)
    game.save()
    set_current_game(match, game)
    for action in opening:
        rows.insert(action)
    if state.phase is Phase.ROLL:  # the opening roll could not be played at all
        append_action(
            match,
            kind=ActionKind.PASS,
            game=game,
            seat=1 - state.on_roll,
            before=state,
            after=state,
        )
    after = play_forced_moves(match, game, state)
    if after is not state:
        store_state(game, after)
    return game


def _opening_roll(
    match: Match, *, number: int, crawford: bool
) -> tuple[Game, GameState, list[Action]]:
    """Game ``number`` of ``match`` with its opening roll thrown, and the roll's actions
    (one a throw: doubles are thrown again), none of them written yet."""
    throws = fair_dice.opening_throws(match.dice_seed, number)
    game = Game(match=match, number=number, crawford=crawford, turn=0, position_id="")
    state = turns.opening(throws, game_rules(match, game))
    store_state(game, state, save=False)
    opening = [
        new_action(match, kind=ActionKind.OPENING, game=game, after=state, dice=throw)
        for throw in throws
    ]
    return game, state, opening


def play_forced_moves(match: Match, game: Game, state: GameState) -> GameState:
    """Play the only legal play for a player who asked for forced moves to be made."""
    while state.phase is Phase.MOVE:
        if not match.player(state.on_roll).profile.automatic_forced_moves:
            return state
        only = turns.forced_play(state)
        if only is None:
            return state
        before = state
        state, played = turns.play(state, state.on_roll, only, game_rules(match, game))
        append_play(
            match,
            game,
            seat=before.on_roll,
            actor=None,
            before=before,
            after=state,
            played=played,
            automatic=True,
        )
    return state


def end_game(match: Match, game: Game, state: GameState, moment: datetime) -> Game | None:
    """Score a finished game, settle it in money play, and open the next game (returned)
    or end the match (None)."""
    outcome = state.outcome
    assert outcome is not None
    game.finished_at = moment
    game.save()
    append_action(
        match,
        kind=ActionKind.GAME_OVER,
        game=game,
        seat=outcome.winner,
        before=state,
        after=state,
        detail={"winner": outcome.winner, "level": outcome.level, "points": outcome.points},
    )
    before = MatchState(
        length=match.length,
        score=(match.score_0, match.score_1),
        crawford=game.crawford,
        post_crawford=match.crawford_played and not game.crawford,
        game_number=game.number,
        options=MatchOptions(crawford_rule=match.crawford_rule),
    )
    if outcome.winner == 0:
        match.score_0 += outcome.points
    else:
        match.score_1 += outcome.points
    if match.is_money:
        money.settle_game(match, game.number, winner=outcome.winner, points=outcome.points)
        if match.game_limit and game.number >= match.game_limit:
            reason = game.finish_reason or FinishReason.PLAYED
            finish_match(match, winner_seat=outcome.winner, reason=reason, moment=moment)
            return None
        if not money.session_can_continue(match):
            finish_match(match, winner_seat=None, reason=FinishReason.SESSION_ENDED, moment=moment)
            return None
        clock.add_game_reserve(match)
        return open_game(match, number=game.number + 1, crawford=False)
    after = before.after_game(outcome.winner, outcome.points)
    if after.over:
        finish_match(match, winner_seat=outcome.winner, reason=game.finish_reason, moment=moment)
        return None
    match.crawford_played = after.crawford or after.post_crawford
    return open_game(match, number=after.game_number, crawford=after.crawford)


def finish_match(
    match: Match, *, winner_seat: int | None, reason: str, moment: datetime, pay_pot: bool = True
) -> None:
    """End the match: the pot to the winner (unless already split), ratings, the seed shown.

    Expects the match row locked (``matches.state.lock_match``); ``MatchFinished`` is
    published once the transaction commits.
    """
    match.status = MatchStatus.FINISHED
    match.winner_seat = winner_seat
    match.finish_reason = reason
    match.finished_at = moment
    match.deadline = None
    match.turn_started_at = None
    append_action(
        match,
        kind=ActionKind.MATCH_OVER,
        seat=winner_seat,
        detail={
            "winner": winner_seat,
            "reason": reason,
            "dice_seed": match.dice_seed,
            "score": [match.score_0, match.score_1],
        },
    )
    events.publish_finished(match)
    if winner_seat is None:
        return
    if pay_pot:
        money.settle_pot(match, winner_seat)
    if match.rated and not match.pass_and_play:
        rating_record_match(
            winner=match.player(winner_seat),
            loser=match.player(1 - winner_seat),
            match_length=match.length,
            match_id=match.pk,
        )


def match_abort(match: Match, *, absent: list[int], moment: datetime) -> None:
    """Nobody started the match: what was staked goes back, no rating, no commission.

    Expects the match row locked.
    """
    money.refund_unplayed(match)
    match.status = MatchStatus.ABORTED
    match.finished_at = moment
    match.deadline = None
    match.turn_started_at = None
    append_action(match, kind=ActionKind.MATCH_OVER, detail={"reason": "aborted", "absent": absent})
    events.publish_stopped(match, "aborted", absent=tuple(absent))


def wake_engine(
    match: Match, to_act: int | None, *, seats: tuple[int, ...], acted: int | None = None
) -> None:
    """The computer acts once this transaction commits when ``to_act`` is one of the
    ``seats`` it plays (``computer_seats``), unless it just acted itself (``acted``): its
    own turn goes on in its loop (``matches.practice.engine_turn``), and between two demo
    players the sweep that wakes it paces the match."""
    if to_act is not None and to_act in seats and acted not in seats:
        enqueue_on_commit(ENGINE_TURN_TASK, match.pk)


# ---------------------------------------------------------------- staff decisions


def match_void(
    match: Match, *, staff: User, key_prefix: str, reason: str, cause: dict[str, object]
) -> bool:
    """Void the match: a settled pot reversed, both stakes refunded, the match cancelled.

    Returns whether it had finished (its result is void) rather than been stopped.
    ``cause`` (say, ``{"dispute": 7}``) goes into the log. Expects the match row locked.
    """
    if match.is_money:
        raise Conflict(_("A money session is settled game by game; adjust money instead."))
    if match.status not in (MatchStatus.FINISHED, MatchStatus.PLAYING, MatchStatus.SUSPENDED):
        state = _(match.get_status_display()).lower()
        raise Conflict(_("This match is %(state)s; it cannot be voided.") % {"state": state})
    since = match.last_seq
    if match.stake_cents:
        standing = money.standing_settlement(match)
        if standing is not None:
            money.reverse(match, standing, key_prefix=key_prefix, reason=reason, staff=staff)
        money.refund_stakes(match, key_prefix=key_prefix)
    was_finished = match.status == MatchStatus.FINISHED
    match.status = MatchStatus.CANCELLED
    match.winner_seat = None
    match.deadline = None
    match.turn_started_at = None
    match.finished_at = match.finished_at or timezone.now()
    append_action(
        match,
        kind=ActionKind.MATCH_OVER,
        actor=staff,
        detail={"winner": None, "reason": "voided", **cause},
    )
    match.save()
    events.publish_match(match, since=since)
    events.publish_stopped(match, "voided")
    return was_finished


def session_void(match: Match, *, actor: User, key_prefix: str, cause: dict[str, object]) -> None:
    """Void the game in play of a money session and end the session without a result:
    both exposures of that game go back, the games settled before stand. For what no staff
    decision can mend (the computer that plays a demo player failed for good); a staff
    void of a money session adjusts money instead (``match_void``).

    Expects the match row locked.
    """
    if not match.is_money or match.status != MatchStatus.PLAYING:
        raise InternalError(f"match #{match.pk} is no money session in play")
    since = match.last_seq
    game = current_game(match)
    if game.finished_at is None:
        money.refund_game_exposure(match, game.number, key_prefix=key_prefix)
    match.status = MatchStatus.CANCELLED
    match.winner_seat = None
    match.deadline = None
    match.turn_started_at = None
    match.finished_at = timezone.now()
    append_action(
        match,
        kind=ActionKind.MATCH_OVER,
        actor=actor,
        detail={"winner": None, "reason": "voided", **cause},
    )
    match.save()
    events.publish_match(match, since=since)
    events.publish_stopped(match, "voided")


def match_award(
    match: Match, seat: int, *, staff: User, why: str, cause: dict[str, object]
) -> None:
    """Give a finished match to ``seat`` (its money is resettled by the caller).

    Expects the match row locked.
    """
    if match.status != MatchStatus.FINISHED:
        raise Conflict(_("Only a finished match can be awarded to a player."))
    since = match.last_seq
    match.winner_seat = seat
    append_action(
        match,
        kind=ActionKind.MATCH_OVER,
        seat=seat,
        actor=staff,
        detail={"winner": seat, "reason": why, **cause},
    )
    match.save(update_fields=["winner_seat", "last_seq"])
    events.publish_match(match, since=since)


def match_cancel(match: Match, *, cause: dict[str, object]) -> None:
    """Cancel a match nobody has come to play (a bracket correction took its slot away).

    Expects the match row locked.
    """
    if match.seen_0 or match.seen_1 or match.status != MatchStatus.PLAYING:
        raise Conflict(
            _("Match #%(number)s has started; it is not taken away from the players in it.")
            % {"number": match.pk}
        )
    since = match.last_seq
    match.status = MatchStatus.CANCELLED
    match.deadline = None
    match.turn_started_at = None
    match.show_up_by = None
    append_action(match, kind=ActionKind.MATCH_OVER, detail={"reason": "cancelled", **cause})
    match.save()
    events.publish_match(match, since=since)
    events.publish_stopped(match, "cancelled")


def match_stop(match: Match, *, cause: dict[str, object], moment: datetime) -> bool:
    """End a match still being played without a result: its tournament was cancelled. The
    clocks stop (no deadline is left for the sweeper), nobody is rated, and it is drawn as
    cancelled on the board. Returns False for a match that had ended already.

    A tournament's match holds no stake (the buy-ins are the tournament's, refunded by its
    cancellation). Expects the match row locked.
    """
    if match.status not in (MatchStatus.PLAYING, MatchStatus.SUSPENDED):
        return False
    if match.stake_cents:
        raise InternalError(f"match #{match.pk} holds a stake; only unstaked matches are stopped")
    since = match.last_seq
    match.status = MatchStatus.CANCELLED
    match.winner_seat = None
    match.deadline = None
    match.turn_started_at = None
    match.show_up_by = None
    match.finished_at = moment
    append_action(match, kind=ActionKind.MATCH_OVER, detail={"winner": None, **cause})
    match.save()
    events.publish_match(match, since=since)
    return True
