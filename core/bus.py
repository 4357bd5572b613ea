"""Domain events: a lower app tells higher ones what happened, without importing them.

An event is a frozen dataclass (``matches.events.MatchFinished``, say). The app that
cares subscribes a handler to its type in its ``AppConfig.ready``; the app where it
happened publishes it with ``publish_on_commit``, and the handlers run once the
transaction commits, never for one that rolls back. Handlers should be quick (they
usually queue a task by name) and safe to run twice; one that raises is logged and does
not stop the others.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import transaction

Event = TypeVar("Event")
logger = logging.getLogger(__name__)
_handlers: dict[type[Any], list[Callable[[Any], None]]] = {}


def subscribe(event_type: type[Event], handler: Callable[[Event], None]) -> None:
    """Call ``handler`` with every committed event of ``event_type`` (once per handler)."""
    handlers = _handlers.setdefault(event_type, [])
    if handler not in handlers:
        handlers.append(handler)


def subscriptions() -> dict[type[Any], tuple[Callable[[Any], None], ...]]:
    """Every event type subscribed to, with its handlers in the order they run (the house
    plan, ``docs/architecture.md``, lists them and a test holds it to this)."""
    return {event_type: tuple(handlers) for event_type, handlers in _handlers.items()}


def publish_on_commit(event: object) -> None:
    """Hand ``event`` to its subscribers once the current transaction commits."""
    handlers = tuple(_handlers.get(type(event), ()))
    if handlers:
        transaction.on_commit(lambda: _deliver(event, handlers))


def _deliver(event: object, handlers: tuple[Callable[[Any], None], ...]) -> None:
    # What happened has committed: a failing handler is logged and the others still run,
    # so a fault in, say, a fair-play detector never turns a player's move into an error.
    for handler in handlers:
        try:
            handler(event)
        except Exception:
            logger.exception("%s failed on %r", getattr(handler, "__qualname__", handler), event)
