"""Errors an organizer or a player can cause, with the fields they concern."""

from __future__ import annotations

from core.errors import DomainError


class TournamentInvalid(DomainError):
    """The organizer's settings cannot make a tournament; ``errors`` maps fields to messages."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        self.errors = errors
        field, messages = next(iter(errors.items()))
        super().__init__(messages[0] if field == "non_field_errors" else f"{field}: {messages[0]}")
