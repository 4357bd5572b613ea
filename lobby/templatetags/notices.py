"""``{% unread_notices user as unread %}``: the bell's count, on every page's navigation."""

from __future__ import annotations

from typing import Any

from django import template

from lobby.selectors import unread_count

register = template.Library()


@register.simple_tag
def unread_notices(user: Any) -> int:
    if user is None or not user.is_authenticated:
        return 0
    return unread_count(user_id=user.pk)
