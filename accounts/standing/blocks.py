"""Blocks and mutes between two players: whose chat a player does not hear, and whom they
may not challenge."""

from __future__ import annotations

import time

from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import Block, BlockKind, User
from core.errors import DomainError


def unheard_by(user_id: int) -> set[int]:
    """Whose chat ``user_id`` must not see: the people they muted or blocked, and the
    people who blocked them. ``unheard_version`` says when this last changed."""
    mine = Block.objects.filter(owner_id=user_id).values_list("other_id", flat=True)
    theirs = Block.objects.filter(other_id=user_id, kind=BlockKind.BLOCK).values_list(
        "owner_id", flat=True
    )
    return set(mine) | set(theirs)


def unheard_version(user_id: int) -> int | None:
    """A mark that changes whenever ``unheard_by(user_id)`` does (kept in the cache, which
    every web process shares), so an open board can tell when to read it again."""
    value = cache.get(_UNHEARD_VERSION.format(user_id))
    return int(value) if value is not None else None


_UNHEARD_VERSION = "crawford:unheard:{}"


def _unheard_changed(*users: User) -> None:
    def mark() -> None:
        now = time.time_ns()
        cache.set_many({_UNHEARD_VERSION.format(user.pk): now for user in users}, timeout=None)

    transaction.on_commit(mark)


def block_set(*, owner: User, other: User, kind: str) -> Block:
    """``owner`` mutes or blocks ``other`` (a block replaces a mute, and the other way)."""
    if kind not in BlockKind.values:
        raise DomainError(_('Choose "mute" or "block".'))
    if owner.pk == other.pk:
        raise DomainError(_("You cannot mute or block yourself."))
    block, _created = Block.objects.update_or_create(
        owner=owner, other=other, defaults={"kind": kind}
    )
    _unheard_changed(owner, other)
    return block


def block_remove(*, owner: User, other: User) -> bool:
    removed = Block.objects.filter(owner=owner, other=other).delete()[0] > 0
    _unheard_changed(owner, other)
    return removed
