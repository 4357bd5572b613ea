"""Adjudicating abandoned games with GNU Backgammon.

When a player's reconnection grace runs out under the engine policy, the position is
evaluated at 2 ply (cubeful) and, in one transaction, the evaluation is stored and the
match settled: a money game is split by cubeful equity, a match played for a pot by
cubeful match winning chances (MWC), and any other match (a tournament's, or one with
no stake) is awarded to the player with the higher MWC. Evaluating happens before the
transaction, so no lock is held while the engine thinks; the transaction re-checks that
nobody settled the match meanwhile (compare-and-set on its status), so running twice
does nothing the second time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts import ledger
from accounts.commission import commission_cents
from accounts.models import User
from analysis.engine import EvalSettings, Evaluation
from analysis.splits import AbsencePolicy, money_settlement, pot_split, tournament_award
from config.errors import Conflict, DomainError
from matches import events
from matches.engine import engine
from matches.models import (
    Action,
    ActionKind,
    Adjudication,
    FinishReason,
    Match,
    MatchKind,
    MatchStatus,
)
from matches.positions import gnubg_id
from matches.services import (
    append_action,
    current_game,
    escrow_ref,
    finish_match,
    game_state,
    locked_match,
)

ADJUDICATION_PLIES = 2


@dataclass(frozen=True)
class Position:
    game_number: int
    gnubg_id: str
    cube_value: int
    absent_seat: int | None


def position_of(match: Match) -> Position:
    game = current_game(match)
    state = game_state(game)
    length = 0 if match.is_money else match.length
    absent = _absent_seat(match)
    return Position(
        game_number=game.number,
        gnubg_id=gnubg_id(
            state, length, (match.score_0, match.score_1), game.crawford, jacoby=match.jacoby
        ),
        cube_value=state.cube.value,
        absent_seat=absent,
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
    match = Match.objects.select_related("player_0", "player_1").get(pk=match_id)
    if match.status != MatchStatus.SUSPENDED or match.adjudications.exists():
        return None
    position = position_of(match)
    evaluation = evaluate(match, position, plies)
    return _settle(match_id=match_id, position=position, evaluation=evaluation)


@transaction.atomic
def _settle(*, match_id: int, position: Position, evaluation: Evaluation) -> Adjudication | None:
    match = locked_match(match_id)
    if match.status != MatchStatus.SUSPENDED or match.adjudications.exists():
        return None
    decision = _decide(match, position, evaluation)
    adjudication = Adjudication.objects.create(
        match=match,
        game_number=position.game_number,
        absent_seat=position.absent_seat,
        gnubg_id=position.gnubg_id,
        plies=evaluation.settings.plies,
        evaluation=evaluation.to_dict(),
        decision=decision,
    )
    game = current_game(match)
    game.finish_reason = FinishReason.ADJUDICATED
    game.finished_at = timezone.now()
    game.save(update_fields=["finish_reason", "finished_at"])
    append_action(
        match,
        game,
        ActionKind.ADJUDICATION,
        position.absent_seat,
        None,
        None,
        None,
        None,
        detail=decision,
    )
    finish_match(
        match,
        winner_seat=decision.get("winner_seat"),
        reason=FinishReason.ADJUDICATED,
        moment=timezone.now(),
        pay_pot=decision["kind"] != "pot",
    )
    match.save()
    events.publish_match(match)
    return adjudication


def _decide(match: Match, position: Position, evaluation: Evaluation) -> dict[str, Any]:
    players = [match.player_0, match.player_1]
    if match.kind == MatchKind.MONEY:
        if not match.stake_cents:
            return {
                "kind": "money",
                "settlement_cents": [0, 0],
                "commission_cents": [0, 0],
                "winner_seat": None,
            }
        settlement = money_settlement(
            evaluation.player(0).cubeful_equity,
            cube_value=position.cube_value,
            stake_cents=match.stake_cents,
            commission=commission_cents,
        )
        exposure = 3 * match.max_cube * match.stake_cents
        ledger.settle_match(
            escrow_ref=escrow_ref(match),
            currency=match.currency,
            payouts={players[seat].pk: exposure + settlement.net_cents[seat] for seat in (0, 1)},
            commission_cents=settlement.house_cents,
            key=f"match:{match.pk}:game:{position.game_number}:adjudicated",
        )
        return {
            "kind": "money",
            "settlement_cents": list(settlement.settlement_cents),
            "commission_cents": list(settlement.commission_cents),
            "winner_seat": None,
        }
    mwc = evaluation.player(0).mwc
    assert mwc is not None
    if match.stake_cents:
        split = pot_split(mwc, pot_cents=2 * match.stake_cents, commission=commission_cents)
        ledger.settle_match(
            escrow_ref=escrow_ref(match),
            currency=match.currency,
            payouts={players[seat].pk: split.payout_cents[seat] for seat in (0, 1)},
            commission_cents=split.house_cents,
            key=f"match:{match.pk}:pot-adjudicated",
        )
        return {
            "kind": "pot",
            "mwc": [mwc, 1 - mwc],
            "shares_cents": list(split.shares_cents),
            "commission_cents": list(split.commission_cents),
            "winner_seat": 0 if split.shares_cents[0] >= split.shares_cents[1] else 1,
        }
    award = tournament_award(
        mwc, policy=AbsencePolicy.ADJUDICATE, absent_index=position.absent_seat
    )
    return {"kind": "award", "mwc": [mwc, 1 - mwc], "winner_seat": award.winner_index}


def rerun(*, match_id: int, plies: int, staff: User) -> Adjudication:
    """Staff evaluate an adjudicated position again, deeper, beside the original numbers.

    The original decision stands; overturning it is a dispute decision.
    """
    if not staff.has_perm("accounts.handle_disputes"):
        raise DomainError("Only staff can re-run an adjudication")
    original = Adjudication.objects.filter(match_id=match_id, supersedes__isnull=True).first()
    if original is None:
        raise Conflict("This match has not been adjudicated")
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


def _absent_seat(match: Match) -> int | None:
    suspended = Action.objects.filter(match=match, kind=ActionKind.SUSPEND).order_by("-seq").first()
    if suspended is None:
        return None
    absent = suspended.detail.get("absent") or []
    return absent[0] if len(absent) == 1 else None
