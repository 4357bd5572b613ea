"""``{% load money %}{{ cents|money }}``: integer cents as players read them, "1,234.56"."""

from __future__ import annotations

from django import template

from accounts.money import format_buy_in, money_text, signed_money_text

register = template.Library()


@register.filter
def money(cents: int | None) -> str:
    return money_text(cents or 0)


@register.filter
def signed_money(cents: int | None) -> str:
    """With an explicit sign, for wallet lines: "+8.70", "-10.00"."""
    return signed_money_text(cents or 0)


@register.simple_tag
def buy_in(buy_in_cents: int, fee_cents: int) -> str:
    """``{% buy_in 1000 65 %}`` -> "10.00 + 0.65"."""
    return format_buy_in(buy_in_cents, fee_cents)
