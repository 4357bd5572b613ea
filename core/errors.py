"""The two kinds of failure: what a user caused, and what must never happen.

``DomainError`` carries a message a player understands and becomes an HTTP 400
(or 409 / 403 / 404 for its subclasses) or a WebSocket error frame. ``InternalError``
marks a broken invariant; it is logged and never shown raw.
"""

from __future__ import annotations


class DomainError(Exception):
    """A request a user may make but that the rules refuse; the message says why."""

    status_code = 400


class Conflict(DomainError):
    """The request is valid but not now: out of turn, already done, state moved on."""

    status_code = 409


class Forbidden(DomainError):
    """The user may not do this to this object."""

    status_code = 403


class NotFound(DomainError):
    """The object asked for does not exist (or is not visible to the asker)."""

    status_code = 404


class NotInstalled(DomainError):
    """The request needs a part this site does not have (the engine); the message names
    it and why it is missing. Not the user's mistake, and not an outage that passes."""

    status_code = 503


class InternalError(Exception):
    """An invariant of Crawford's own state is broken; a bug, not a user's mistake."""
