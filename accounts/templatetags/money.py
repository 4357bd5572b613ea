"""``{% load money %}{{ cents|money }}``: integer cents as players read them, in the page's
language: "1,234.56" in English, "1.234,56" in Italian."""

from __future__ import annotations

from django import template
from django.utils import formats

from accounts.money import Separators, format_buy_in, money_text, signed_money_text

register = template.Library()


def page_separators() -> Separators:
    """The active language's separators, as Django's format files give them."""
    return Separators(
        thousands=str(formats.get_format("THOUSAND_SEPARATOR")),
        decimal=str(formats.get_format("DECIMAL_SEPARATOR")),
    )


@register.filter
def money(cents: int | None) -> str:
    return money_text(cents or 0, page_separators())


@register.filter
def signed_money(cents: int | None) -> str:
    """With an explicit sign, for wallet lines: "+8.70", "-10.00"."""
    return signed_money_text(cents or 0, page_separators())


@register.simple_tag
def buy_in(buy_in_cents: int, fee_cents: int) -> str:
    """``{% buy_in 1000 65 %}`` -> "10.00 + 0.65"."""
    return format_buy_in(buy_in_cents, fee_cents, page_separators())
