"""Errors an organizer or a player can cause, with the fields they concern, and a pure
format's refusal in the reader's language."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext

from accounts.money import money_text
from accounts.templatetags.money import page_separators
from core.errors import DomainError
from tournaments.formats.base import Cents, FormatError


class TournamentInvalid(DomainError):
    """The organizer's settings cannot make a tournament; ``errors`` maps fields to messages."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        self.errors = errors
        field, messages = next(iter(errors.items()))
        super().__init__(messages[0] if field == "non_field_errors" else f"{field}: {messages[0]}")


def format_refused(refusal: FormatError) -> str:
    """What a pure format refused (``tournaments.formats``), in the active language: its
    sentence translated, numbers and amounts written as that language writes them."""
    sentence = gettext(refusal.sentence)
    if not refusal.values:
        return sentence
    return sentence % {name: _written(value) for name, value in refusal.values.items()}


def _written(value: object) -> object:
    if isinstance(value, Cents):
        return money_text(value.cents, page_separators())
    if isinstance(value, int) and not isinstance(value, bool):
        return number_format(value, force_grouping=True)
    return value
