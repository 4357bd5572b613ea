"""``{% load money %}{{ cents|money }}``: integer cents as players read them, "1,234.56"."""

from __future__ import annotations

from django import template

from accounts import commission

register = template.Library()


@register.filter
def money(cents: int | None) -> str:
    return commission.money(cents or 0)


@register.filter
def signed_money(cents: int | None) -> str:
    """With an explicit sign, for wallet lines: "+8.70", "-10.00"."""
    cents = cents or 0
    return f"+{commission.money(cents)}" if cents > 0 else commission.money(cents)


@register.simple_tag
def buy_in(buy_in_cents: int, fee_cents: int) -> str:
    """``{% buy_in 1000 65 %}`` -> "10.00 + 0.65"."""
    return commission.format_buy_in(buy_in_cents, fee_cents)
