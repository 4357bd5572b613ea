"""What happens when a match's deadline passes: time runs out, a grace ends, nobody shows.

The sweeper (``matches.tasks.sweep_deadlines``, on beat every second, two passes a run) takes the
matches whose ``deadline`` is due, each locked with ``SKIP LOCKED`` in a transaction of its
own so several workers share the work and a busy match waits for the next pass, and asks
each service below in turn whether its deadline has passed:

* *show-up* (``no_show_expire``): by ``show_up_by`` both players must have come to the
  board (connected or acted) and, outside tournaments, made the first move; a tournament
  player who never came forfeits, any other match nobody started is aborted;
* *reconnection grace* (``grace_expire``): a player who left and has not come back; the
  match's abandon policy decides: the absent player forfeits, or the match is suspended and
  adjudicated by the engine on the analysis queue, or suspended for staff;
* *clock* (``timeout_expire``): the player to act (the one who must answer a match
  double, while one waits) ran out of time and loses the game or the match, as the time
  control says; a resignation offer nobody answered in time is declined instead;
* *lost adjudication* (``adjudication_requeue``): a suspended match the engine should
  settle but nobody is settling (its worker was killed) is queued again.

Each service locks the match and re-checks, so a deadline moved meanwhile does nothing.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from backgammon import turns
from backgammon.turns import EndReason, Phase
from core import metrics, rows
from core.tasks import enqueue, enqueue_on_commit
from matches import clock, events
from matches.lifecycle import end_game, finish_match, match_abort
from matches.log import append_action, player_has_acted
from matches.models import (
    AbandonPolicy,
    Action,
    ActionKind,
    FinishReason,
    Match,
    MatchKind,
    MatchStatus,
    TimeoutLoses,
)
from matches.state import (
    current_game,
    game_state,
    lock_match,
    lock_match_unless_busy,
    seat_to_act,
    store_state,
    waiting_state,
)

logger = logging.getLogger(__name__)
ADJUDICATE_TASK = "analysis.adjudicate_match"


@transaction.atomic
def timeout_expire(*, match_id: int, now: datetime | None = None) -> bool:
    """End the game or match of the player whose time ran out, or decline a resignation
    nobody answered; False if nothing was due."""
    return _timeout(lock_match(match_id), now or timezone.now())


def _timeout(match: Match, moment: datetime) -> bool:
    if match.status != MatchStatus.PLAYING or not clock.runs(match):
        return False
    game = current_game(match)
    state = game_state(game)
    since = match.last_seq
    if state.phase is Phase.RESIGNATION:
        seat = seat_to_act(match, state)
        if seat is None or moment < clock.resignation_deadline(match):
            return False
        after = turns.reject_resignation(state, seat)
        append_action(
            match,
            kind=ActionKind.REJECT_RESIGN,
            game=game,
            seat=seat,
            before=state,
            after=after,
            detail={"expired": True},
        )
        store_state(game, after)
        clock.restart(match, moment, after)
        match.save()
        events.publish_match(match, since=since)
        return True
    seat = clock.running_seat(match, state)
    if seat is None or moment < clock.clock_deadline(match, seat):
        return False
    match.set_reserve_ms(seat, 0)
    match.match_cube_offered_by = None  # a match double left unanswered lapses with the game
    after = turns.forfeit(state, seat, EndReason.TIMEOUT)
    append_action(match, kind=ActionKind.TIMEOUT, game=game, seat=seat, before=state, after=after)
    store_state(game, after)
    waiting = None
    if match.timeout_loses == TimeoutLoses.MATCH and not match.is_money:
        finish_match(match, winner_seat=1 - seat, reason=FinishReason.TIMEOUT, moment=moment)
        game.finished_at = moment
        game.save()
    else:
        next_game = end_game(match, game, after, moment)
        waiting = game_state(next_game) if next_game else None
    clock.restart(match, moment, waiting)
    match.save()
    events.publish_match(match, since=since)
    return True


@transaction.atomic
def no_show_expire(*, match_id: int, now: datetime | None = None) -> bool:
    """Nobody started the match by ``show_up_by``; False if nothing was due.

    In a tournament the player who never came forfeits (both absent: the draw's lower seat
    goes through, as a coin would have to decide). Any other match is aborted when a player
    never came or no move was made: stakes back, no rating, no commission.
    """
    return _no_show(lock_match(match_id), now or timezone.now())


def _no_show(match: Match, moment: datetime) -> bool:
    if match.status != MatchStatus.PLAYING or match.show_up_by is None or moment < match.show_up_by:
        return False
    absent = [seat for seat in (0, 1) if not match.seen(seat)]
    since = match.last_seq
    match.show_up_by = None
    if match.tournament_id is None and (absent or not player_has_acted(match)):
        match_abort(match, absent=absent, moment=moment)
    elif absent:
        loser = absent[0] if len(absent) == 1 else 1
        append_action(match, kind=ActionKind.FORFEIT, seat=loser, detail={"absent": absent})
        finish_match(match, winner_seat=1 - loser, reason=FinishReason.FORFEIT, moment=moment)
    else:
        clock.refresh_deadline(match, waiting_state(match))
        match.save()
        return False
    match.save()
    events.publish_match(match, since=since)
    return True


@transaction.atomic
def grace_expire(*, match_id: int, now: datetime | None = None) -> bool:
    """Act on a reconnection grace that ran out, by the match's abandon policy.

    Forfeit: the absent player loses. Engine: the match is suspended and adjudicated on
    the analysis queue. Suspend: staff decide.
    """
    return _grace(lock_match(match_id), now or timezone.now())


def _grace(match: Match, moment: datetime) -> bool:
    if match.status != MatchStatus.PLAYING:
        return False
    absent = [
        seat for seat in (0, 1) if (ends := match.grace_ends(seat)) is not None and ends <= moment
    ]
    if not absent:
        return False
    since = match.last_seq
    detail: dict[str, object] = {"absent": absent}
    if match.abandon_policy == AbandonPolicy.FORFEIT and len(absent) == 1 and not match.is_money:
        append_action(match, kind=ActionKind.FORFEIT, seat=absent[0], detail=detail)
        finish_match(match, winner_seat=1 - absent[0], reason=FinishReason.FORFEIT, moment=moment)
        rows.save_changed(match)
        events.publish_match(match, since=since)
        return True
    match.status = MatchStatus.SUSPENDED
    append_action(match, kind=ActionKind.SUSPEND, seat=absent[0], detail=detail)
    match.deadline = None
    # The columns it changed only: a whole row's UPDATE built by the ORM was a third of
    # the sweep's CPU on the way to an adjudication.
    rows.save_changed(match)
    if match.abandon_policy == AbandonPolicy.ENGINE or match.is_money:
        enqueue_on_commit(ADJUDICATE_TASK, match.pk)
    events.publish_match(match, since=since)
    return True


@transaction.atomic
def deadline_refresh(*, match_id: int) -> None:
    """Recompute when the sweeper must next look at the match."""
    match = lock_match(match_id)
    clock.refresh_deadline(match, waiting_state(match))
    match.save(update_fields=["deadline"])


def sweep_due(*, batch: int, now: datetime | None = None) -> int:
    """Handle up to ``batch`` matches whose deadline is due; returns how many were due.

    Each match is taken in a transaction of its own with ``lock_match_unless_busy``: one a
    player is acting on (or another sweeper holds) is left for the next pass instead of
    waited for, and no player waits on a batch.
    """
    moment = now or timezone.now()
    due = _due(moment, batch)
    for match_id in due:
        try:
            _sweep(match_id, moment)
        except Exception:
            logger.exception("sweeping match %s failed; it stays due", match_id)
    return len(due)


def _due(moment: datetime, batch: int) -> list[int]:
    """The ids of up to ``batch`` played matches whose deadline is due, the earliest first.

    Every pass of every sweep runs it, and a grace's end waits on it: a statement kept
    prepared (the ORM spent more CPU building it than PostgreSQL running it)."""
    deadline = rows.column(Match, "deadline")
    with rows.prepared_cursor() as cursor:
        cursor.execute(
            f"SELECT {rows.column(Match, 'id')} FROM {rows.table(Match)}"  # noqa: S608
            f" WHERE {deadline} <= %s AND {rows.column(Match, 'status')} = %s"
            f" ORDER BY {deadline} LIMIT %s",
            [connection.ops.adapt_datetimefield_value(moment), MatchStatus.PLAYING.value, batch],
        )
        return [match_id for (match_id,) in cursor.fetchall()]


@transaction.atomic
def _sweep(match_id: int, moment: datetime) -> None:
    match = lock_match_unless_busy(match_id)
    if match is None:
        return
    # One lock for the three checks; each handler saves what it changed, its log rows
    # travelling to the database with the match's row.
    due_at = match.deadline
    with rows.written_together():
        handled = _no_show(match, moment) or _grace(match, moment) or _timeout(match, moment)
    if handled:
        if due_at is not None:
            metrics.DEADLINE_LATENESS.observe((timezone.now() - due_at).total_seconds())
        # A match that left play (suspended, finished, aborted) has no deadline: the
        # handler cleared it. One still played is read afresh: a handler may have begun a game.
        if match.status == MatchStatus.PLAYING:
            deadline_refresh(match_id=match_id)
        return
    logger.debug("match %s was due but nothing had expired", match_id)
    clock.refresh_deadline(match, waiting_state(match))
    match.save(update_fields=["deadline"])


REQUEUE_AFTER = timedelta(seconds=60)


def adjudication_requeue(*, now: datetime | None = None) -> list[int]:
    """Queue again the adjudication of every match suspended for the engine longer than
    ``REQUEUE_AFTER`` without an adjudication (a killed worker's); returns their ids.

    Adjudicating twice settles once (``matches.adjudication`` re-checks under the lock).
    """
    moment = now or timezone.now()
    suspended_since = Action.objects.filter(match=OuterRef("pk"), kind=ActionKind.SUSPEND).order_by(
        "-seq"
    )
    lost = list(
        Match.objects.filter(status=MatchStatus.SUSPENDED, adjudications__isnull=True)
        .filter(Q(abandon_policy=AbandonPolicy.ENGINE) | Q(kind=MatchKind.MONEY))
        .annotate(suspended_at=Subquery(suspended_since.values("created_at")[:1]))
        .filter(suspended_at__lte=moment - REQUEUE_AFTER)
        .values_list("pk", flat=True)
    )
    for match_id in lost:
        enqueue(ADJUDICATE_TASK, match_id)
    return lost
