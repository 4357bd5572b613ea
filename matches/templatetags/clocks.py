"""``{% load clocks %}{{ tournament.clock|clock_words }}``: a stored time control in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from matches.clock import clock_words as words
from matches.models import ClockSettings

register = template.Library()


@register.filter
def clock_words(stored: Mapping[str, Any] | None) -> str:
    return words(ClockSettings.from_json(stored))
