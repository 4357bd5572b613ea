"""``action_submit``: one player action in a live match, checked first, then done.

Every action a player sends (``matches.actions.PlayerAction``), over REST or the WebSocket,
comes here. Under the match lock it is checked (the sender plays in the match, the match is
being played, it is their turn, and the rules allow it: the ``backgammon.turns`` transition
of ``matches.actions``), and only then done: the clock charged, the state stored, the action
logged with the validated play, the game scored when it ends (the match, when a match
double is dropped), the next turn's clock started and the change published once committed.

The client's ``seq`` is its own counter of actions in this match, higher each time: a
``seq`` already used with the same request is answered again without being applied twice;
one used with a different request, or a ``seq`` below the player's last that was never
used, is refused. Each player's last ``seq`` is kept on the match row.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from backgammon.errors import BackgammonError
from backgammon.game import ResultKind
from backgammon.turns import GameState, Phase
from core import rows
from core.errors import Conflict, DomainError, Forbidden
from matches import clock, events
from matches import dice as fair_dice
from matches.actions import PlayerAction, Request, Transition, transition
from matches.lifecycle import (
    computer_seats,
    end_game,
    finish_match,
    play_forced_moves,
    wake_engine,
)
from matches.log import append_action, append_play
from matches.models import Action, ActionKind, FinishReason, Game, Match, MatchStatus
from matches.refusals import rules_refused
from matches.state import (
    current_game,
    game_cube_turned,
    game_rules,
    game_state,
    lock_match,
    match_cube_of,
    seat_to_act,
    store_match_cube,
    store_state,
)


@dataclass(frozen=True)
class ActionResult:
    match: Match
    applied: bool


@transaction.atomic
def action_submit(
    *,
    match_id: int,
    user: User,
    action: PlayerAction,
    seq: int | None = None,
    play: str | None = None,
    resign: ResultKind | None = None,
    now: datetime | None = None,
) -> ActionResult:
    """Apply one player action; a repeated ``seq`` is answered without applying it again."""
    match = lock_match(match_id, presence=True)
    sender = _seat(match, user)  # in pass and play, the seat the seq is counted for
    digest = request_digest(action, play, resign)
    if seq is not None and seq <= match.last_client_seq(sender):
        _check_repeat(match, user, sender, seq, digest)
        return ActionResult(match, applied=False)
    game = current_game(match)
    state = game_state(game)
    seat = _acting_seat(match, state, sender, action)
    request = Request(play=play, resign=resign)
    if action is PlayerAction.ROLL:
        request = Request(dice=fair_dice.turn_dice(match.dice_seed, game.number, game.rolls + 1))
    done = _transition(action, state, seat, request, match, game)

    # Checked: from here on the action is done.
    # Its writes travel to the database together (the log rows, the game, the match).
    with rows.written_together():
        since = match.last_seq
        moment = now or timezone.now()
        match.mark_seen(sender)
        if seq is not None:
            match.set_last_client_seq(sender, seq)
        clock.charge(match, state, moment)
        if action is PlayerAction.ROLL:
            game.rolls += 1
        if done.played is not None:
            append_play(
                match,
                game,
                seat=seat,
                actor=user,
                before=state,
                after=done.after,
                played=done.played,
                client_seq=seq,
                request_digest=digest,
            )
        else:
            append_action(
                match,
                kind=ActionKind(action.value),
                game=game,
                seat=seat,
                actor=user,
                before=state,
                after=done.after,
                client_seq=seq,
                request_digest=digest,
                dice=request.dice,
                detail=done.detail,
            )
        if action is PlayerAction.ROLL and done.after.phase is Phase.ROLL:
            append_action(
                match,
                kind=ActionKind.PASS,
                game=game,
                seat=seat,
                before=done.after,
                after=done.after,
            )
        waiting, current = _apply(match, game, done, moment)
        clock.end_show_up(match, moved=True)
        clock.restart(match, moment, waiting)
        rows.save_changed(match)
        events.publish_match(match, since=since, game=current)
        to_act = seat_to_act(match, waiting)
        computer = computer_seats(match) if to_act != seat else ()
        if to_act != seat and to_act not in computer:
            events.publish_awaited(match, to_act)
        wake_engine(match, to_act, seats=computer, acted=seat)
    return ActionResult(match, applied=True)


def _apply(
    match: Match, game: Game, done: Transition, moment: datetime
) -> tuple[GameState | None, Game | None]:
    """Store what the action changed and end the game or the match it ended: the game
    state the match now waits in and its game (None, None: the match is over)."""
    if done.match_cube is not None:
        store_match_cube(match, done.match_cube)
    after = play_forced_moves(match, game, done.after)
    if done.match_dropped is not None:
        game.finished_at = moment
        game.finish_reason = FinishReason.MATCH_CUBE_DROPPED
        store_state(game, after)
        finish_match(
            match,
            winner_seat=done.match_dropped.winner,
            reason=FinishReason.MATCH_CUBE_DROPPED,
            moment=moment,
        )
        return None, None
    store_state(game, after)
    if after.phase is not Phase.OVER:
        return after, game
    current = end_game(match, game, after, moment)
    return (game_state(current) if current else None), current


def play_check(*, match_id: int, user: User, play: str) -> None:
    """Check a play without making it: ``DomainError`` names the rule it breaks.

    Lets a board explain why a checker cannot go where it was dropped, in the words the
    validator uses for a play sent in earnest (the same checks as ``action_submit``);
    nothing is logged or locked.
    """
    match = Match.objects.select_related("player_0", "player_1").get(pk=match_id)
    game = current_game(match)
    state = game_state(game)
    seat = _acting_seat(match, state, _seat(match, user), PlayerAction.PLAY)
    _transition(PlayerAction.PLAY, state, seat, Request(play=play), match, game)


def _seat(match: Match, user: User) -> int:
    seat = match.seat_of(user)
    if seat is None:
        raise Forbidden(_("You are not playing in this match"))
    return seat


def _acting_seat(match: Match, state: GameState, seat: int, action: PlayerAction) -> int:
    """The seat ``action`` is taken for (in pass and play, whoever is to act), refused
    unless the match is being played and it is that seat's turn (resigning excepted)."""
    if match.status != MatchStatus.PLAYING:
        raise Conflict(
            _("The match is not being played: it is %(state)s")
            % {"state": _(match.get_status_display()).lower()}
        )
    to_act = seat_to_act(match, state)
    if match.pass_and_play and to_act is not None:
        seat = to_act
    if to_act != seat and action is not PlayerAction.RESIGN:
        raise Conflict(_out_of_turn(match, state, seat))
    return seat


def _transition(
    action: PlayerAction, state: GameState, seat: int, request: Request, match: Match, game: Game
) -> Transition:
    turned = action is PlayerAction.MATCH_DOUBLE and game_cube_turned(match, game, state)
    try:
        return transition(
            action,
            state,
            seat,
            request,
            game_rules(match, game),
            match_cube=match_cube_of(match),
            game_cube_turned=turned,
        )
    except BackgammonError as error:
        raise DomainError(rules_refused(error)) from error


def request_digest(action: PlayerAction, play: str | None, resign: ResultKind | None) -> str:
    """A short fingerprint of what a client asked, to tell a repeat from a different request."""
    asked = f"{action.value}|{(play or '').strip()}|{resign.name if resign else ''}"
    return hashlib.sha256(asked.encode()).hexdigest()[:16]


def _check_repeat(match: Match, user: User, seat: int, seq: int, digest: str) -> None:
    """A ``seq`` already used: fine if it repeats the same request, refused otherwise."""
    last = match.last_client_seq(seat)
    earlier = (
        Action.objects.filter(match=match, actor=user, client_seq=seq)
        .values_list("request_digest", flat=True)
        .first()
    )
    if earlier is None:
        raise Conflict(
            _("seq %(seq)s is not after your last action (%(last)s): send %(next)s")
            % {"seq": seq, "last": last, "next": last + 1}
        )
    if earlier and earlier != digest:
        raise Conflict(
            _("seq %(seq)s was used for a different action: send %(next)s")
            % {"seq": seq, "next": last + 1}
        )


def _out_of_turn(match: Match, state: GameState, seat: int) -> str:
    if state.phase is Phase.OVER:
        return _("The game is over")
    if match.match_cube_offered_by == seat:
        return _("Wait for your opponent to answer your match double")
    if state.phase is Phase.DOUBLED:
        return _("Wait for your opponent to answer your double")
    if state.phase is Phase.RESIGNATION and state.resigned_by == seat:
        return _("Wait for your opponent to answer your resignation")
    return _("It is not your turn")
