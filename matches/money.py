"""Match money: stakes, exposures, settlements and every ledger key a match uses.

Terms:

* *escrow*: the ledger account ``match:<id>`` that holds what is at stake while the match
  is played (``escrow_ref``).
* *stake* (a match to N points): each player's stake goes into escrow when the invitation
  is accepted; the *pot* (both stakes) goes to the winner, less commission.
* *exposure* (a money session): the most a player can lose in one game, 3 (a backgammon)
  × the maximum cube × the stake per point. Both players escrow it when each game starts;
  the game's settlement pays the loser's loss (points × stake, capped at the exposure) to
  the winner, less commission, and gives the rest back. A session goes on while both can
  cover the next game's exposure.
* *adjudicated settlement*: a game or match the engine decided (``matches.adjudication``):
  a money game is split by cubeful equity, a pot by match winning chances.
* *resettlement*: a staff decision that changes a settled result reverses the standing
  settlement (a compensation) and settles again, each under a key derived from the decision.

Money moves only through ``accounts.ledger``, always under an idempotency key made here, so
running any of these twice moves nothing twice. Every function expects the match row locked
(``matches.state.lock_match``).
"""

from __future__ import annotations

from dataclasses import dataclass

from accounts import ledger
from accounts.ledger import InsufficientFunds
from accounts.models import LedgerTransaction, TransactionKind, User
from accounts.money import commission_cents, winner_commission_cents
from accounts.money import money_text as format_money
from analysis.splits import money_settlement, pot_split
from matches.models import Match, MatchKind

BACKGAMMON_POINTS = 3
DEFAULT_MAX_CUBE = 16  # a money session's highest cube unless the players agree another


def exposure_for(*, stake_cents: int, max_cube: int = DEFAULT_MAX_CUBE) -> int:
    """The most one money game can cost a player: 3 × the maximum cube × the stake."""
    return BACKGAMMON_POINTS * max_cube * stake_cents


def escrow_ref(match: Match) -> str:
    """The ledger account that holds the match's stakes."""
    return f"match:{match.pk}"


def exposure_cents(match: Match) -> int:
    """What each player escrows for one of ``match``'s money games."""
    return exposure_for(stake_cents=match.stake_cents, max_cube=match.max_cube)


def adjudicated_game_key(match: Match, game_number: int) -> str:
    return f"match:{match.pk}:game:{game_number}:adjudicated"


# ---------------------------------------------------------------- stakes in


def cover_needed(*, money_play: bool, stake_cents: int, max_cube: int = DEFAULT_MAX_CUBE) -> int:
    """What each player must hold to play these terms: the stake of a match to N points, or
    one money game's exposure at ``max_cube``. A match asks it (``stake_needed``), and so
    does a seek before its match exists (``lobby.terms``)."""
    if money_play:
        return exposure_for(stake_cents=stake_cents, max_cube=max_cube)
    return stake_cents


def stake_needed(match: Match) -> int:
    """What each player must hold to start ``match``: ``cover_needed`` at its own cube."""
    return cover_needed(
        money_play=match.is_money, stake_cents=match.stake_cents, max_cube=match.max_cube
    )


def require_cover(match: Match, *, seats: tuple[int, ...], asker: User) -> None:
    """Refuse, naming whose balance is short, unless each of ``seats`` can cover the stake."""
    needed = stake_needed(match)
    if not needed:
        return
    for seat in seats:
        player = match.player(seat)
        have = ledger.balance(user=player, currency=match.currency)
        if have < needed:
            whose = "Your" if player.pk == asker.pk else f"{player.profile.display_name}'s"
            what = "a game of this session" if match.is_money else "this match"
            raise InsufficientFunds(
                f"{whose} {match.currency} balance is {format_money(have)}; "
                f"{what} needs {format_money(needed)} {match.currency} from each player."
            )


def escrow_stakes(match: Match) -> None:
    """Both players' stakes into escrow (a match to N points played for a pot)."""
    if match.kind != MatchKind.MATCH or not match.stake_cents:
        return
    ledger.escrow_stakes(
        users=_both(match),
        currency=match.currency,
        amount_cents=match.stake_cents,
        escrow_ref=escrow_ref(match),
        key=f"match:{match.pk}:stakes",
    )


def escrow_game_exposure(match: Match, game_number: int) -> None:
    """Both players' exposure into escrow as a money game starts."""
    if not match.is_money or not match.stake_cents:
        return
    ledger.escrow_stakes(
        users=_both(match),
        currency=match.currency,
        amount_cents=exposure_cents(match),
        escrow_ref=escrow_ref(match),
        key=f"match:{match.pk}:game:{game_number}:exposure",
    )


def _both(match: Match) -> tuple[User, User]:
    return match.player(0), match.player(1)


def session_can_continue(match: Match) -> bool:
    """Whether both players can cover the next money game's exposure."""
    exposure = exposure_cents(match)
    return all(
        ledger.balance(user=match.player(seat), currency=match.currency) >= exposure
        for seat in (0, 1)
    )


# ---------------------------------------------------------------- settlements


def settle_game(match: Match, game_number: int, *, winner: int, points: int) -> None:
    """Settle a finished money game: the loser's loss to the winner, less commission."""
    if not match.stake_cents:
        return
    exposure = exposure_cents(match)
    won = min(points * match.stake_cents, exposure)
    commission = winner_commission_cents(won)
    ledger.settle_match(
        escrow_ref=escrow_ref(match),
        currency=match.currency,
        payouts={
            match.player_id(winner): exposure + won - commission,
            match.player_id(1 - winner): exposure - won,
        },
        commission_cents=commission,
        key=f"match:{match.pk}:game:{game_number}:settle",
    )


def pot_payouts(match: Match, winner_seat: int) -> tuple[dict[int, int], int]:
    """The pot to ``winner_seat`` less both players' commission: (payouts, commission)."""
    commission = winner_commission_cents(match.stake_cents)
    return {match.player_id(winner_seat): 2 * match.stake_cents - commission}, commission


def settle_pot(match: Match, winner_seat: int) -> None:
    """Pay a finished match's pot to its winner."""
    if match.kind != MatchKind.MATCH or not match.stake_cents:
        return
    payouts, commission = pot_payouts(match, winner_seat)
    ledger.settle_match(
        escrow_ref=escrow_ref(match),
        currency=match.currency,
        payouts=payouts,
        commission_cents=commission,
        key=f"match:{match.pk}:pot",
    )


@dataclass(frozen=True)
class Split:
    """An engine-decided division of what is at stake: who gets what, and the house's cut."""

    payouts: dict[int, int]
    house_cents: int
    decision: dict[str, object]
    winner_seat: int | None = None


def adjudicated_game_split(match: Match, *, cubeful_equity: float, cube_value: int) -> Split:
    """A money game split by seat 0's cubeful equity (normalised to a 1-cube). The equity
    and cube are kept in the decision: a swing game pays its chips by them."""
    position = {"cubeful_equity": cubeful_equity, "cube_value": cube_value}
    if not match.stake_cents:
        decision: dict[str, object] = {
            "kind": "money",
            "settlement_cents": [0, 0],
            "commission_cents": [0, 0],
            "winner_seat": None,
            **position,
        }
        return Split({}, 0, decision)
    settlement = money_settlement(
        cubeful_equity,
        cube_value=cube_value,
        stake_cents=match.stake_cents,
        commission=commission_cents,
    )
    exposure = exposure_cents(match)
    return Split(
        payouts={match.player_id(seat): exposure + settlement.net_cents[seat] for seat in (0, 1)},
        house_cents=settlement.house_cents,
        decision={
            "kind": "money",
            "settlement_cents": list(settlement.settlement_cents),
            "commission_cents": list(settlement.commission_cents),
            "winner_seat": None,
            **position,
        },
    )


def adjudicated_pot_split(match: Match, *, mwc: float) -> Split:
    """A match's pot split by seat 0's match winning chances."""
    split = pot_split(mwc, pot_cents=2 * match.stake_cents, commission=commission_cents)
    winner = 0 if split.shares_cents[0] >= split.shares_cents[1] else 1
    return Split(
        payouts={match.player_id(seat): split.payout_cents[seat] for seat in (0, 1)},
        house_cents=split.house_cents,
        decision={
            "kind": "pot",
            "mwc": [mwc, 1 - mwc],
            "shares_cents": list(split.shares_cents),
            "commission_cents": list(split.commission_cents),
            "winner_seat": winner,
        },
        winner_seat=winner,
    )


def settle_adjudicated_game(match: Match, game_number: int, split: Split) -> None:
    """Pay out a money game's split; a split that moves no money (a level position, or
    one where nobody had moved) gives each player their exposure back, as a refund."""
    if (
        split.payouts
        and not split.house_cents
        and all(cents == exposure_cents(match) for cents in split.payouts.values())
    ):
        ledger.refund(
            escrow_ref=escrow_ref(match),
            currency=match.currency,
            payouts=split.payouts,
            key=adjudicated_game_key(match, game_number),
        )
    elif split.payouts:
        ledger.settle_match(
            escrow_ref=escrow_ref(match),
            currency=match.currency,
            payouts=split.payouts,
            commission_cents=split.house_cents,
            key=adjudicated_game_key(match, game_number),
        )


def settle_adjudicated_pot(match: Match, split: Split) -> None:
    ledger.settle_match(
        escrow_ref=escrow_ref(match),
        currency=match.currency,
        payouts=split.payouts,
        commission_cents=split.house_cents,
        key=f"match:{match.pk}:pot-adjudicated",
    )


# ---------------------------------------------------------------- corrections


def refund_stakes(match: Match, *, key_prefix: str) -> None:
    """Give both stakes back (a voided match to N points)."""
    ledger.refund(
        escrow_ref=escrow_ref(match),
        currency=match.currency,
        payouts=dict.fromkeys((match.player_0_id, match.player_1_id), match.stake_cents),
        key=f"{key_prefix}:refund",
    )


def refund_game_exposure(match: Match, game_number: int, *, key_prefix: str) -> None:
    """Give back both exposures of a money game that will never be finished (its session
    voided); the games settled before stand."""
    if not match.stake_cents:
        return
    ledger.refund(
        escrow_ref=escrow_ref(match),
        currency=match.currency,
        payouts=dict.fromkeys((match.player_0_id, match.player_1_id), exposure_cents(match)),
        key=f"{key_prefix}:game:{game_number}:refund",
    )


def refund_unplayed(match: Match) -> None:
    """Give back what a match nobody started holds: both stakes, or the first game's
    exposures in money play; no commission."""
    if not match.stake_cents:
        return
    each = exposure_cents(match) if match.is_money else match.stake_cents
    ledger.refund(
        escrow_ref=escrow_ref(match),
        currency=match.currency,
        payouts=dict.fromkeys((match.player_0_id, match.player_1_id), each),
        key=f"match:{match.pk}:aborted",
    )


def standing_settlement(match: Match) -> LedgerTransaction | None:
    """The newest settlement out of the match's escrow that no correction reversed."""
    return (
        LedgerTransaction.objects.filter(
            escrow_ref=escrow_ref(match),
            kind=TransactionKind.SETTLEMENT,
            reversed_by__isnull=True,
        )
        .order_by("-pk")
        .first()
    )


def adjudicated_settlement(match: Match, game_number: int) -> LedgerTransaction | None:
    return LedgerTransaction.objects.filter(key=adjudicated_game_key(match, game_number)).first()


def reverse(
    match: Match, settled: LedgerTransaction, *, key_prefix: str, reason: str, staff: User
) -> LedgerTransaction:
    """Staff reverse one of the match's settlements (entries of the opposite sign)."""
    return ledger.compensate(
        transaction=settled,
        reason=reason,
        staff=staff,
        key=f"{key_prefix}:correct:{settled.pk}",
    )


def player_amounts(settled: LedgerTransaction) -> dict[int, int]:
    """What a settlement paid each player, by user id."""
    return {
        entry.account.user_id: entry.amount
        for entry in settled.entries.select_related("account")
        if entry.account.user_id is not None
    }


@dataclass(frozen=True)
class Resettlement:
    """What a resettlement did: nothing (the money already stood so) or two transactions."""

    reversed: LedgerTransaction | None
    settled: LedgerTransaction | None

    @property
    def changed(self) -> bool:
        return self.settled is not None


def resettle(
    match: Match,
    standing: LedgerTransaction,
    payouts: dict[int, int],
    house_cents: int,
    *,
    key_prefix: str,
    reason: str,
    staff: User,
) -> Resettlement:
    """Replace ``standing`` by a settlement paying ``payouts``, unless it paid that already."""
    if player_amounts(standing) == {pk: cents for pk, cents in payouts.items() if cents}:
        return Resettlement(None, None)
    reversed_ = reverse(match, standing, key_prefix=key_prefix, reason=reason, staff=staff)
    settled = ledger.settle_match(
        escrow_ref=escrow_ref(match),
        currency=match.currency,
        payouts=payouts,
        commission_cents=house_cents,
        key=f"{key_prefix}:settle",
    )
    return Resettlement(reversed_, settled)
