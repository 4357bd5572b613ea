"""Staff wallet adjustments sent with an idempotency key, keyed as Stripe scopes keys.

A key belongs to the wallet it adjusts (``adjustment_key``) and to the request it came with:
the same key with the same request answers the original adjustment; with another request
it is refused (409), never answered with another request's result.
"""

from __future__ import annotations

import hashlib
import json

from django.db import connection

from accounts.commission import money
from accounts.models import LedgerTransaction, User, WalletAdjustment
from config.errors import Conflict


def adjustment_key(*, user: User, key: str) -> str:
    """The ledger key of a staff adjustment sent with ``key``: a key belongs to the wallet,
    so the same key on two wallets makes two adjustments."""
    return f"adjust:{user.pk}:{key}"


def adjustment_under(key: str) -> WalletAdjustment | None:
    """The adjustment made under ``key``, once any being made under it has committed.

    On PostgreSQL a transaction-long advisory lock on the key puts two requests with the
    same key one after the other, so the second finds the first's adjustment and compares
    the requests, rather than racing it into the ledger. Other keys never wait on it.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [key])
    return (
        WalletAdjustment.objects.select_related("transaction").filter(transaction__key=key).first()
    )


def same_request(earlier: WalletAdjustment, asked: str) -> LedgerTransaction:
    """A retry gets the original transaction; another request under its key is refused."""
    if earlier.request_hash and earlier.request_hash != asked:
        raise Conflict(
            "That key was already used for another adjustment of this wallet (a"
            f" {earlier.get_direction_display().lower()} of {money(earlier.amount_cents)}"
            f" {earlier.currency}): send a new key for a new adjustment."
        )
    return earlier.transaction


def request_hash(**asked: object) -> str:
    return hashlib.sha256(json.dumps(asked, sort_keys=True).encode()).hexdigest()
