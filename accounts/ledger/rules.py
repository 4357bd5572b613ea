"""The checks every ledger write makes before it moves anything, and the rule that makes
each write all or nothing on every database."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import connection, transaction
from django.utils.translation import gettext as _

from accounts.models import MAX_AMOUNT_CENTS, Currency, User
from accounts.money import money_text
from core.errors import DomainError, Forbidden

ADJUST_PERMISSION = "accounts.adjust_wallets"

P = ParamSpec("P")
R = TypeVar("R")


def all_or_nothing(write: Callable[P, R]) -> Callable[P, R]:
    """Make ``write`` all or nothing, on SQLite as on PostgreSQL.

    On PostgreSQL a posting already is: one statement, or a transaction of its own
    (a savepoint inside the caller's) where it takes several, with every refusal raised
    before the first write; and a statement that fails dooms the caller's transaction,
    so nothing half-done is ever committed. SQLite lets a transaction go on after a failed
    statement, so there each write runs in ``transaction.atomic``.
    """

    @functools.wraps(write)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if connection.vendor == "postgresql":
            return write(*args, **kwargs)
        with transaction.atomic():
            return write(*args, **kwargs)

    return run


def display_name(user: User) -> str:
    return user.profile.display_name


def known_currency(currency: str) -> str:
    if currency not in Currency.values:
        raise DomainError(
            _("Unknown currency %(currency)r: use one of %(currencies)s.")
            % {"currency": currency[:12], "currencies": ", ".join(Currency.values)}
        )
    return currency


def require_amount(amount_cents: int) -> None:
    if amount_cents <= 0:
        raise DomainError(_("The amount must be at least %(least)s.") % {"least": money_text(1)})
    if amount_cents > MAX_AMOUNT_CENTS:
        raise DomainError(
            _("The amount must be at most %(most)s.") % {"most": money_text(MAX_AMOUNT_CENTS)}
        )


def require_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise DomainError(_("Give a reason: it is kept in the audit log."))
    return reason


def require_staff(staff: User) -> None:
    if not staff.has_perm(ADJUST_PERMISSION):
        raise Forbidden(_("Only staff who may adjust wallets can do this."))
