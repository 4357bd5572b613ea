"""Errors of the rules core.

A *domain error* is something a player (or a client acting for one) can cause: an illegal
play, a malformed position ID, unreadable move text. It is raised as `BackgammonError` (or a
subclass) and its `str()` is a sentence a player understands, so callers may show it as is.

Anything else that goes wrong inside the core is a broken invariant, a bug: it is raised as
`InternalError` and must never be shown raw to a player.
"""


class BackgammonError(Exception):
    """A rule or format error a player can cause; the message is fit to show them."""


class InvalidPosition(BackgammonError):
    """A position (or its ID) that cannot occur in backgammon."""


class IllegalPlay(BackgammonError):
    """A submitted play that the rules do not allow with the dice rolled."""


class NotationError(BackgammonError):
    """Move text that cannot be read."""


class InternalError(Exception):
    """A broken invariant inside the rules core; never caused by player input."""
