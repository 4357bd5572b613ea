"""Blocks and mutes between two players: whose chat a player does not hear, and whom they
may not challenge."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import Block, BlockKind, User
from core.errors import DomainError
from core.sockets import player_news


def unheard_by(user_id: int) -> set[int]:
    """Whose chat ``user_id`` must not see: the people they muted or blocked, and the
    people who blocked them. A change is told to both players' open sockets at once."""
    mine = Block.objects.filter(owner_id=user_id).values_list("other_id", flat=True)
    theirs = Block.objects.filter(other_id=user_id, kind=BlockKind.BLOCK).values_list(
        "owner_id", flat=True
    )
    return set(mine) | set(theirs)


UNHEARD_CHANGED = "unheard"  # the news an open socket of both players hears of a change


def _unheard_changed(*users: User) -> None:
    """Tell both players' open sockets (a board's chat) to read ``unheard_by`` again."""
    for user in users:
        player_news(user.pk, UNHEARD_CHANGED)


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
