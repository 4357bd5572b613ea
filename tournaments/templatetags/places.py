"""``{% load places %}{{ n|place }}``: a finishing place as the page's language writes it,
"3rd" in English, "3º" in Italian."""

from __future__ import annotations

from django import template

from tournaments.selectors import ordinal

register = template.Library()


@register.filter
def place(n: int) -> str:
    return ordinal(n)
