"""``{% load rating_charts %}{% rating_chart history %}``: a rating history as an SVG chart."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.utils.translation import gettext

from accounts.rating_chart import rating_chart as lay_out

register = template.Library()


@register.inclusion_tag("accounts/partials/rating_chart.html")
def rating_chart(history: Sequence[tuple[str, float]], title: str = "") -> dict[str, Any]:
    """``title`` names what is charted: the rating (the default), or "PR"."""
    chart = lay_out(history, width=880, height=280)
    return {
        "chart": chart,
        "title": title or gettext("Rating"),
        "matches": max(0, len(history) - 1),
    }
