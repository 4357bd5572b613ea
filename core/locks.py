"""Every lock Crawford takes, in the one order they are taken: the lock order as code.

Two transactions that take their locks in one order never wait on each other in a circle, so
PostgreSQL never has to break a deadlock by failing one of them. Every row lock
(``SELECT ... FOR UPDATE``) and every advisory lock of the project is taken here, named by
its ``Lock``; a transaction may take a lock only when it holds none of a later kind, and
several rows of one kind only in ascending key order (a queryset is locked ordered by
primary key).

The order, and why each kind sits where it does:

- ``BEAT``: a sweep's row (``core.beats``). The deadline sweep that finds the platform
  was away holds it while it gives time back to every running match, so it comes before
  the matches those writes wait on.
- ``NAME``: the advisory lock on a name's confusable skeleton, held from the check that
  nobody else has a look-alike to the write of the name (sign-up, a change of name).
- ``REPORTED_PLAYER``: the user row of a player whose chat line is reported
  (``fairplay.conduct``). It stands for the player's conduct case, which may not exist yet,
  so it comes before the case the report then opens or adds to.
- ``DISPUTE``, then ``CASE``: what a staff decision decides. No transaction takes both (an
  appeal files its dispute unlocked, and the decided appeal reaches its case after the
  commit), so their order between them is a choice.
- ``STANDING``: a player's sanctions and cool-downs, written by a case's decision and by the
  detectors that open one, so after the case.
- ``SEEK``: a seek comes before the match made from it (``lobby.seeks``).
- ``MATCH``: the match row (``matches.state.lock_match``, and the sweeper's variant that
  skips a match another transaction holds).
- ``TOURNAMENT``: after the match whose result it records (``tournaments.scheduler``).
- ``PAIRING``: the bracket's rows, under their tournament's lock.
- ``NEXT_MATCH``: a later match of the draw that a correction cancels: an unstarted match,
  locked after its tournament and pairings. Nothing locks an unstarted tournament match
  before its tournament (matches never lock a tournament; a dispute or a case is about a
  match that was played), so this second place of a match row closes no circle.
- ``TICKET``: a satellite's ticket, used under the target tournament's lock.
- ``APPROVAL``, then ``ADJUSTMENT_KEY``: a large wallet adjustment waiting for a second
  staff member, then the advisory lock on the adjustment's key that puts two requests
  under one key one after the other. The key's lock is the one kind outside the order
  (``UNORDERED``): a decision that moves money several times takes a key after a wallet
  (a dispute's adjustments one after another, a closed account's refunds then its payout).
  It closes no circle: a key names one request, either a staff member's, taken first in
  its transaction, or one made from the dispute or case whose lock its transaction took
  first, so whoever else waits on that key is the same request again, waiting before it
  holds anything.
- ``WALLET``: ledger accounts, in primary-key order inside each posting's one statement
  (``accounts.ledger``). Their keys are not known before the statement, so the recorder
  checks the kind only, not the order of accounts across two postings.
- ``RATING_CHANGE``, then ``PROFILE``: the rating history and the profiles whose ratings a
  match moves. A finished match pays its pot, then rates its players, under its lock; a
  voided series gives its money back, then its rating points.
- ``ANALYSIS``, ``DEFERRED_TASK``, ``BRACKET_FRAMES``, ``SEEK_FRAMES``: each taken in a
  transaction of its own with no other lock after it (a post-match analysis claimed or
  finished, the tasks kept while the broker was away, the advisory locks that send one
  tournament's or the lobby's live frames one at a time), so they close the order.

The recorder: with ``CRAWFORD_LOCK_ORDER_CHECKS`` on (the test suite turns it on), every
lock taken here is noted for the transaction that takes it, and one taken out of order
raises ``LockOrderError`` at once, naming both. A test's own transaction (pytest-django's
atomic block around each test) is not the code's: each outermost block the code opens
inside it counts as a transaction, as it is one in production. A lock held already, or on
a row the transaction inserted itself (``made``), is taken again at any point: it waits for
nobody. A savepoint rolled back forgets what the transaction held before it (the check
grows laxer there, never wrong). Off, the check costs one settings read per lock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum, auto
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection, transaction
from django.db.models import QuerySet

from core.errors import InternalError

Key = int | str
_Rows = TypeVar("_Rows", bound=QuerySet[Any])


class Lock(IntEnum):
    """The kinds of lock, in the order a transaction takes them (see the module docstring)."""

    BEAT = auto()
    NAME = auto()
    REPORTED_PLAYER = auto()
    DISPUTE = auto()
    CASE = auto()
    STANDING = auto()
    SEEK = auto()
    MATCH = auto()
    TOURNAMENT = auto()
    PAIRING = auto()
    NEXT_MATCH = auto()
    TICKET = auto()
    APPROVAL = auto()
    ADJUSTMENT_KEY = auto()
    WALLET = auto()
    RATING_CHANGE = auto()
    PROFILE = auto()
    ANALYSIS = auto()
    DEFERRED_TASK = auto()
    BRACKET_FRAMES = auto()
    SEEK_FRAMES = auto()


# Taken at any point of a transaction (see the module docstring); every other kind in order.
UNORDERED = frozenset({Lock.ADJUSTMENT_KEY})


class LockOrderError(InternalError):
    """A transaction took a lock out of the order of ``Lock``: two such transactions could
    wait on each other for ever."""


def select(
    kind: Lock,
    rows: _Rows,
    *keys: Key,
    skip_locked: bool = False,
    of: tuple[str, ...] = (),
) -> _Rows:
    """``rows`` locked as ``kind`` when the caller reads them (at once, in its transaction),
    in primary-key order. ``keys``: which rows of the kind they are (their ids, or what
    the kind is keyed by), when the caller knows; ``skip_locked``: a row another
    transaction holds is left out rather than waited for; ``of``: lock only these tables of
    the query (``"self"``), not the rows it joins."""
    taken(kind, *keys)
    return rows.select_for_update(skip_locked=skip_locked, of=of).order_by("pk")


def clause(alias: str | None = None, *, skip_locked: bool = False) -> str:
    """The locking clause for a statement written by hand (nothing where the database has
    none): its caller says which kind it takes with ``taken`` each time it runs it.
    ``alias``: lock only the rows of that table of the statement."""
    features = connection.features
    if not features.has_select_for_update:
        return ""
    text = " FOR UPDATE"
    if alias is not None and features.has_select_for_update_of:
        text += f" OF {alias}"
    if skip_locked and features.has_select_for_update_skip_locked:
        text += " SKIP LOCKED"
    return text


def advisory(kind: Lock, key: Key) -> None:
    """Take ``kind``'s advisory lock on ``key`` until the transaction ends (PostgreSQL only;
    elsewhere one writer at a time already holds the database)."""
    sql = _ADVISORY[kind]
    taken(kind, key)
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        if isinstance(key, str):
            cursor.execute(f"SELECT pg_advisory_xact_lock(hashtextextended(%s, {sql}))", [key])
        else:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [sql, key])


# The advisory locks' spaces: a text key is hashed with the seed, a number is the second key
# beside the space. The values are those the locks had before they were named here.
_ADVISORY: dict[Lock, int] = {
    Lock.ADJUSTMENT_KEY: 0,
    Lock.NAME: 1,
    Lock.BRACKET_FRAMES: 29_001,
    Lock.SEEK_FRAMES: 29_002,
}


def made(kind: Lock, *keys: Key) -> None:
    """Note that the current transaction inserted these rows of ``kind``: no other can lock
    them before it commits, so taking their lock later waits for nobody, whatever it holds
    then (a match made and accepted in the transaction that voids the one it replays)."""
    if not settings.CRAWFORD_LOCK_ORDER_CHECKS:
        return
    held = _held()
    if held is not None:
        held.made.setdefault(kind, set()).update(keys)


def taken(kind: Lock, *keys: Key) -> None:
    """Note that the current transaction takes ``kind`` (on ``keys``, when known): for a
    statement written by hand with ``clause``. Refuses a lock taken out of order."""
    if not settings.CRAWFORD_LOCK_ORDER_CHECKS:
        return
    held = _held()
    if held is not None:
        held.take(kind, keys)


@dataclass
class _Held:
    """The locks one transaction holds, as the recorder knows them."""

    transaction: tuple[int, str | None, object]
    keys: dict[Lock, list[Key]] = field(default_factory=dict)
    made: dict[Lock, set[Key]] = field(default_factory=dict)

    def take(self, kind: Lock, keys: tuple[Key, ...]) -> None:
        free = [*self.keys.get(kind, []), *self.made.get(kind, ())]
        if kind in UNORDERED or (keys and all(key in free for key in keys)):
            return  # held already, or made here: taking it again waits for nobody
        later = [held for held in self.keys if held > kind]
        if later:
            raise LockOrderError(
                f"{kind.name} {list(keys)} taken after {max(later).name}"
                f" {self.keys[max(later)]}: the lock order is {_ORDER}"
            )
        before = self.keys.setdefault(kind, [])
        new = [key for key in keys if key not in before]
        if new != sorted(new) or (new and before and new[0] < max(before)):  # type: ignore[operator]
            raise LockOrderError(
                f"{kind.name} {new} taken after {kind.name} {before}: rows of one kind are"
                " locked in ascending order"
            )
        before.extend(new)


_ORDER = ", ".join(kind.name for kind in Lock)


def _held() -> _Held | None:
    """The current transaction's record: None outside one, or inside only a test's own block.

    A transaction is known by its outermost block that is not a test's, that block's
    savepoint (each block entered inside a test's has a new one) and the connection's list
    of commit callbacks, which Django replaces whenever a transaction commits or rolls back.
    """
    database = transaction.get_connection()
    if not database.in_atomic_block:
        return None
    depth = next(
        (
            depth
            for depth, block in enumerate(database.atomic_blocks)
            if not getattr(block, "_from_testcase", False)
        ),
        None,
    )
    if depth is None:
        return None
    # The outermost block entered from autocommit has no savepoint entry.
    at = depth - (len(database.atomic_blocks) - len(database.savepoint_ids))
    sid = database.savepoint_ids[at] if at >= 0 else None
    current = (depth, sid, database.run_on_commit)
    held: _Held | None = getattr(database, _HELD, None)
    if held is None or not _same(held.transaction, current):
        held = _Held(transaction=current)
        setattr(database, _HELD, held)
    return held


_HELD = "_crawford_locks_held"


def _same(one: tuple[int, str | None, object], other: tuple[int, str | None, object]) -> bool:
    return one[0] == other[0] and one[1] == other[1] and one[2] is other[2]
