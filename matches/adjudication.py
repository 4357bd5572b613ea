"""Adjudicating abandoned games with GNU Backgammon.

When a player's reconnection grace runs out under the engine policy, the position is
evaluated at 2 ply (cubeful) and, in one transaction, the evaluation is stored and the
match settled: a money game is split by cubeful equity, a match played for a pot by
cubeful match winning chances (MWC), and any other match (a tournament's, or one with
no stake) is awarded to the player with the higher MWC. Evaluating happens before the
transaction, so no lock is held while the engine thinks; the transaction re-checks that
nobody settled the match meanwhile (compare-and-set on its status), so running twice
does nothing the second time: an adjudication is only ever made in the transaction that
finishes its match, so a match still suspended under the lock has none.

What a player waits for is the engine's time and little more: the position is read in one
statement (the match's row, its game and its suspension's log row together), and the
settlement's writes travel to the database together (the adjudication, the game, the log
rows, the ratings and the match), in a handful of round trips.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from analysis.engine import EvalSettings, Evaluation
from analysis.splits import AbsencePolicy, tournament_award
from core import rows
from core.errors import Conflict, DomainError
from matches import events, money
from matches.engine import engine
from matches.lifecycle import finish_match
from matches.log import append_action
from matches.models import (
    Action,
    ActionKind,
    Adjudication,
    FinishReason,
    Game,
    Match,
    MatchKind,
    MatchStatus,
)
from matches.state import current_game, game_state, lock_match, match_gnubg_id, set_current_game

ADJUDICATION_PLIES = 2


@dataclass(frozen=True)
class Position:
    game_number: int
    gnubg_id: str
    cube_value: int
    absent_seat: int | None


def position_of(match: Match) -> Position:
    """The position of ``match``'s current game and who was absent when it was suspended."""
    return _position(match, current_game(match), _absent_seat(match))


def _position(match: Match, game: Game, suspension: Any) -> Position:
    state = game_state(game)
    return Position(
        game_number=game.number,
        gnubg_id=match_gnubg_id(match, game, state, jacoby=match.jacoby),
        cube_value=state.cube.value,
        absent_seat=_absent_of(suspension),
    )


def evaluate(match: Match, position: Position, plies: int) -> Evaluation:
    settings = EvalSettings(
        plies=plies,
        jacoby=match.is_money and match.jacoby,
        beavers=match.is_money and match.beavers,
    )
    return engine().evaluate(position.gnubg_id, settings)


def adjudicate(*, match_id: int, plies: int = ADJUDICATION_PLIES) -> Adjudication | None:
    """Evaluate and settle a suspended match; None if it is not (or no longer) waiting."""
    found = _suspended(match_id)
    if found is None:
        return None
    match, position = found
    evaluation = evaluate(match, position, plies)
    return _settle(match_id=match_id, position=position, evaluation=evaluation)


@transaction.atomic
def _settle(*, match_id: int, position: Position, evaluation: Evaluation) -> Adjudication | None:
    match = lock_match(match_id)
    if match.status != MatchStatus.SUSPENDED:
        return None
    since = match.last_seq
    decision = _decide(match, position, evaluation)  # the money first: its own statement
    with rows.written_together():
        adjudication = rows.insert(
            Adjudication(
                match=match,
                game_number=position.game_number,
                absent_seat=position.absent_seat,
                gnubg_id=position.gnubg_id,
                plies=evaluation.settings.plies,
                evaluation=evaluation.to_dict(),
                decision=decision,
            )
        )
        game = current_game(match)
        game.finish_reason = FinishReason.ADJUDICATED
        game.finished_at = timezone.now()
        rows.save_changed(game)
        append_action(
            match,
            kind=ActionKind.ADJUDICATION,
            game=game,
            seat=position.absent_seat,
            detail=decision,
        )
        finish_match(
            match,
            winner_seat=decision.get("winner_seat"),
            reason=FinishReason.ADJUDICATED,
            moment=timezone.now(),
            pay_pot=decision["kind"] != "pot",
        )
        rows.save_changed(match)
    events.publish_match(match, since=since)
    return adjudication


@dataclass(frozen=True)
class Verdict:
    """What an evaluation decides for a match: the ``decision`` as stored and logged
    (``kind`` "money", "pot" or "award", and the ``winner_seat``, None for a money game),
    and the ``split`` of the money at stake (None for an award)."""

    decision: dict[str, Any]
    split: money.Split | None

    @property
    def kind(self) -> str:
        return str(self.decision["kind"])

    @property
    def winner_seat(self) -> int | None:
        seat = self.decision.get("winner_seat")
        return seat if isinstance(seat, int) else None


def verdict(
    match: Match,
    *,
    cubeful_equity: float,
    mwc: float | None,
    cube_value: int,
    absent_seat: int | None,
) -> Verdict:
    """The one rule from seat 0's evaluation to a decision: a money game split by its
    cubeful equity at ``cube_value``, a pot by the match winning chances, any other match
    awarded by them (``analysis.splits``). The adjudication settles by it; a staff
    re-adjudication (``disputes``) decides by it again from the deeper evaluation."""
    if match.kind == MatchKind.MONEY:
        split = money.adjudicated_game_split(
            match, cubeful_equity=cubeful_equity, cube_value=cube_value
        )
        return Verdict(split.decision, split)
    assert mwc is not None
    if match.stake_cents:
        split = money.adjudicated_pot_split(match, mwc=mwc)
        return Verdict(split.decision, split)
    award = tournament_award(mwc, policy=AbsencePolicy.ADJUDICATE, absent_index=absent_seat)
    return Verdict(
        {"kind": "award", "mwc": [mwc, 1 - mwc], "winner_seat": award.winner_index}, None
    )


def verdict_of(match: Match, adjudication: Adjudication) -> Verdict:
    """What ``adjudication``'s stored evaluation decides (a re-run's: the deeper one)."""
    seat_0 = adjudication.evaluation["players"][0]
    return verdict(
        match,
        cubeful_equity=seat_0["cubeful_equity"],
        mwc=seat_0.get("mwc"),
        cube_value=adjudication.evaluation["cube_value"],
        absent_seat=adjudication.absent_seat,
    )


def _decide(match: Match, position: Position, evaluation: Evaluation) -> dict[str, Any]:
    """Settle the money the evaluation decides and say what was decided."""
    decided = verdict(
        match,
        cubeful_equity=evaluation.player(0).cubeful_equity,
        mwc=evaluation.player(0).mwc,
        cube_value=position.cube_value,
        absent_seat=position.absent_seat,
    )
    if decided.split is not None and decided.kind == "money":
        money.settle_adjudicated_game(match, position.game_number, decided.split)
    elif decided.split is not None:
        money.settle_adjudicated_pot(match, decided.split)
    return decided.decision


def rerun(*, match_id: int, plies: int, staff: User) -> Adjudication:
    """Staff evaluate an adjudicated position again, deeper, beside the original numbers.

    The original decision stands; overturning it is a dispute decision.
    """
    if not staff.has_perm("accounts.handle_disputes"):
        raise DomainError(_("Only staff can re-run an adjudication"))
    original = Adjudication.objects.filter(match_id=match_id, supersedes__isnull=True).first()
    if original is None:
        raise Conflict(_("This match has not been adjudicated"))
    match = original.match
    position = Position(
        original.game_number,
        original.gnubg_id,
        original.evaluation["cube_value"],
        original.absent_seat,
    )
    evaluation = evaluate(match, position, plies)
    mwc = evaluation.player(0).mwc
    return Adjudication.objects.create(
        match=match,
        supersedes=original,
        requested_by=staff,
        game_number=original.game_number,
        absent_seat=original.absent_seat,
        gnubg_id=original.gnubg_id,
        plies=plies,
        evaluation=evaluation.to_dict(),
        decision={"kind": "rerun", "mwc": [mwc, 1 - mwc] if mwc is not None else None},
    )


def _suspended(match_id: int) -> tuple[Match, Position] | None:
    """The match and the position to evaluate, None unless the match waits suspended: its
    row, its current game and its last suspension's log row in one statement kept prepared
    (the worker's one round trip before the engine; the players are read under the lock).
    """
    with rows.prepared_cursor() as cursor:
        cursor.execute(_suspended_sql(), [match_id, MatchStatus.SUSPENDED.value])
        found = cursor.fetchone()
    if found is None:
        return None
    *values, suspension = found
    match_columns, game_columns = _suspended_columns()
    match = match_columns.build(values[: len(match_columns.fields)])
    game = game_columns.build(values[len(match_columns.fields) :])
    assert isinstance(match, Match)
    assert isinstance(game, Game)
    set_current_game(match, game)
    return match, _position(match, game, suspension)


@cache
def _suspended_columns() -> tuple[rows.Columns, rows.Columns]:
    return rows.columns(Match, "m"), rows.columns(Game, "g")


@cache
def _suspended_sql() -> str:
    match, game, action = (rows.table(model) for model in (Match, Game, Action))
    key, status = rows.column(Match, "id"), rows.column(Match, "status")
    of_game, number = rows.column(Game, "match"), rows.column(Game, "number")
    of_action, seq = rows.column(Action, "match"), rows.column(Action, "seq")
    return (
        f"SELECT {', '.join(part.sql for part in _suspended_columns())},"  # noqa: S608
        f" (SELECT a.{rows.column(Action, 'detail')} FROM {action} a"
        f" WHERE a.{of_action} = m.{key} AND a.{rows.column(Action, 'kind')}"
        f" = '{ActionKind.SUSPEND.value}' ORDER BY a.{seq} DESC LIMIT 1)"
        f" FROM {match} m JOIN {game} g ON g.{of_game} = m.{key} AND g.{number} ="
        f" (SELECT MAX(latest.{number}) FROM {game} latest WHERE latest.{of_game} = m.{key})"
        f" WHERE m.{key} = %s AND m.{status} = %s"
    )


def _absent_seat(match: Match) -> int | None:
    """The seat whose grace ran out when the match was suspended (its last suspension's
    log row), None when both were absent; read in a statement kept prepared, as the ORM
    spent more CPU building it than PostgreSQL running it."""
    with rows.prepared_cursor() as cursor:
        cursor.execute(
            f"SELECT {rows.column(Action, 'detail')} FROM {rows.table(Action)}"  # noqa: S608
            f" WHERE {rows.column(Action, 'match')} = %s AND {rows.column(Action, 'kind')} = %s"
            f" ORDER BY {rows.column(Action, 'seq')} DESC LIMIT 1",
            [match.pk, ActionKind.SUSPEND.value],
        )
        found = cursor.fetchone()
    return _absent_of(found[0] if found is not None else None)


def _absent_of(suspension: Any) -> int | None:
    """The one seat a suspension's log detail names absent; None when both were (or none
    is known). The detail comes as JSON text (Django leaves decoding to the field) or
    decoded."""
    if suspension is None:
        return None
    detail = json.loads(suspension) if isinstance(suspension, str) else suspension
    absent = detail.get("absent") or []
    return absent[0] if len(absent) == 1 else None
