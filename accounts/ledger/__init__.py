"""The ledger: the one way money moves, and how much each account holds.

Every movement is a ledger transaction whose entries sum to zero per currency (see
``accounts.models`` for the accounts). Amounts are integer cents (``accounts.money``).

Each write:

* takes an idempotency ``key``: calling again with the same key returns the original
  transaction and moves nothing. The key is unique in the database; when two callers
  insert the same key at once, the second waits for the first, then gets its
  transaction (or, if the first rolled back, goes ahead itself);
* runs in the caller's transaction, or in one of its own when there is none. A refusal
  (``DomainError``) is raised before anything is written, so the caller may catch it and
  go on; a failure later in the caller's block undoes the movement with the rest
  (``rules.all_or_nothing``);
* locks, in primary-key order, every player and escrow account it touches, checks that
  none would go below zero (a refusal a player can understand, ``InsufficientFunds``),
  then writes the transaction, the entries and the cached balances. The database refuses
  a negative balance on its own (a check constraint) and, on PostgreSQL, entries that do
  not sum to zero (a trigger).

The house and external accounts keep no cached balance and are never locked: their
balance is the sum of their entries (``house_balance``).

The package, by concern: ``posting`` (one posting in as few statements as it takes: the
only module that writes entries), ``movements`` (the named movements of play: grants,
stakes, settlements, refunds, prizes, buy-ins, compensations), ``adjustments`` (staff
deposits, withdrawals and corrections, with their idempotency keys), ``approvals`` (a
second staff member for large real-money adjustments), ``reads`` (balances, history,
escrows), ``rules`` (the checks every write makes). Callers use the names below.
"""

from __future__ import annotations

from accounts.ledger.adjustments import (
    AdjustmentAsked,
    adjustment_key,
    check_adjustment,
    correct_between_players,
    deposit,
    withdraw,
)
from accounts.ledger.movements import (
    TournamentFull,
    compensate,
    escrow_stake,
    escrow_stakes,
    grant,
    prize_payout,
    refund,
    settle_match,
    tournament_buy_in,
    transfer_between_players,
)
from accounts.ledger.posting import InsufficientFunds
from accounts.ledger.reads import (
    HistoryLine,
    balance,
    balances,
    currency_total,
    escrow_balance,
    history,
    house_balance,
    seats,
)
from accounts.ledger.rules import ADJUST_PERMISSION
from core.errors import Conflict, Forbidden

__all__ = [
    "ADJUST_PERMISSION",
    "AdjustmentAsked",
    "Conflict",
    "Forbidden",
    "HistoryLine",
    "InsufficientFunds",
    "TournamentFull",
    "adjustment_key",
    "balance",
    "balances",
    "check_adjustment",
    "compensate",
    "correct_between_players",
    "currency_total",
    "deposit",
    "escrow_balance",
    "escrow_stake",
    "escrow_stakes",
    "grant",
    "history",
    "house_balance",
    "prize_payout",
    "refund",
    "seats",
    "settle_match",
    "tournament_buy_in",
    "transfer_between_players",
    "withdraw",
]
