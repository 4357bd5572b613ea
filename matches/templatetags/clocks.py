"""``{% load clocks %}{{ tournament.clock|clock_words }}``: a stored time control in words;
``{{ tournament.clock|match_time:tournament.round_lengths }}``: what it gives each player in
matches of those lengths."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template

from matches.clock import clock_words as words
from matches.clock import match_time_words
from matches.models import ClockSettings

register = template.Library()


@register.filter
def clock_words(stored: Mapping[str, Any] | None) -> str:
    return words(ClockSettings.from_json(stored))


@register.filter
def match_time(stored: Mapping[str, Any] | None, lengths: Sequence[int]) -> str:
    return match_time_words(ClockSettings.from_json(stored), lengths=lengths)
