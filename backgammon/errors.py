"""Errors of the rules core.

A *domain error* is something a player (or a client acting for one) can cause: an illegal
play, a malformed position ID, unreadable move text. It is raised as `BackgammonError` (or a
subclass) and its `str()` is a sentence a player understands, so callers may show it as is.

The core knows no language: a refusal a player meets is written as a sentence with named
blanks (``"Point %(point)s is blocked"``) marked by `gettext_noop`, and the values that fill
them. ``str()`` is the English; the app translates ``sentence`` and fills the blanks where it
shows the refusal (``matches.refusals.rules_refused``), in the reader's language.

Anything else that goes wrong inside the core is a broken invariant, a bug: it is raised as
`InternalError` and must never be shown raw to a player.
"""

from __future__ import annotations

from dataclasses import dataclass


def gettext_noop(text: str) -> str:
    """Marks a sentence for the translators' catalog and leaves it as it is: the core refuses
    in English, and the app translates ``BackgammonError.sentence`` where it shows it."""
    return text


@dataclass(frozen=True)
class Listed:
    """Items a sentence lists, joined by "and" or "or" ("5 and 3", "13/7 or 13/10 10/7"):
    the app joins them with the reader's word."""

    items: tuple[str, ...]
    word: str = "and"

    def __str__(self) -> str:
        return f" {self.word} ".join(self.items)


class BackgammonError(Exception):
    """A rule or format error a player can cause; the message is fit to show them.

    ``sentence`` is the message with its named blanks (``%(point)s``), ``values`` fill them:
    ``str()`` gives it in English."""

    def __init__(self, sentence: str, **values: object) -> None:
        self.sentence = sentence
        self.values = values
        super().__init__(sentence % values if values else sentence)


class InvalidPosition(BackgammonError):
    """A position (or its ID) that cannot occur in backgammon."""


class IllegalPlay(BackgammonError):
    """A submitted play that the rules do not allow with the dice rolled."""


class NotationError(BackgammonError):
    """Move text that cannot be read."""


class InternalError(Exception):
    """A broken invariant inside the rules core; never caused by player input."""
