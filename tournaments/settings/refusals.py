"""How a setting is refused: by its field's name with a sentence for the organizer, every
field's problems gathered in one pass so the form shows them all beside their fields."""

from __future__ import annotations

from collections.abc import Callable

Refuse = Callable[[str, str], None]


class Refusals:
    """Every field's problems, gathered in one pass; called as a ``Refuse``."""

    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def __call__(self, field: str, message: str) -> None:
        self.errors.setdefault(field, []).append(message)
