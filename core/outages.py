"""A service Crawford depends on is away: the answer is 503 with ``Retry-After``, never a 500.

An *outage* is PostgreSQL or Redis not answering: a connection refused or lost, a pool with
no connection free within ``DB_POOL_TIMEOUT``, a broker that takes no task. Nothing a
client did caused it and trying again soon will work, so every such failure of a request
becomes ``503 Service Unavailable`` with ``Retry-After``: JSON ``{"detail", "unavailable"}``
for the API, a short page for the rest. Three places turn it into that answer, whichever
layer the failure reached: the API's exception handler (``core.api``), the error
handler Django calls for anything else a view or a middleware raised (``server_error``,
``handler500``), and the sockets' error frames (``core.sockets``).

Rate limits are counted in Redis; when Redis is away they cannot be counted, and the
request is refused with this 503 rather than let through uncounted (``core.throttles``):
the limits hold during an outage, and a client retries after ``Retry-After``.

After a database outage the connections still waiting in a web process's pool are dead;
the first one to fail has the pool check them all (``_drop_dead_connections``), so one
request fails for the outage rather than one per pooled connection.
"""

from __future__ import annotations

import logging
import sqlite3
import sys
from types import TracebackType

from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import server_error as django_server_error

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
DATABASE = "database"
REDIS = "redis"

_PARTS = {DATABASE: "the database", REDIS: "Redis (live updates, tasks and rate limits)"}


def outage_of(error: BaseException | None) -> str | None:
    """Which service ``error`` says is away (``"database"`` or ``"redis"``), or None when
    it is another failure. Follows the chain of causes (``raise ... from``)."""
    import psycopg
    import redis
    from kombu.exceptions import OperationalError as BrokerError

    seen = 0
    while error is not None and seen < 8:
        if isinstance(error, psycopg.OperationalError | psycopg.InterfaceError):
            return DATABASE if _connection_failure(error.sqlstate) else None
        if isinstance(error, psycopg.Error):
            return None
        if isinstance(error, sqlite3.OperationalError):
            return DATABASE  # locked or unreachable: the embedded run's transient failures
        if isinstance(error, redis.ConnectionError | redis.TimeoutError | BrokerError):
            return REDIS
        if isinstance(error, ConnectionRefusedError | ConnectionResetError):
            return REDIS  # the channel layer's asyncio client raises these bare
        error = error.__cause__ or error.__context__
        seen += 1
    return None


# SQLSTATEs of a server that is away or refusing connections, as opposed to a statement
# that failed (a deadlock, a constraint): the PostgreSQL manual's appendix "PostgreSQL
# Error Codes" (class 08, connection exception; 57P01-57P03, shut down or starting;
# 53300, too many connections). A connection that fails before any statement (refused,
# the pool's timeout) carries none.
_AWAY_STATES = frozenset({"57P01", "57P02", "57P03", "53300"})


def _connection_failure(sqlstate: str | None) -> bool:
    return sqlstate is None or sqlstate.startswith("08") or sqlstate in _AWAY_STATES


class Unavailable(Exception):
    """A request cannot be served because ``part`` is away; answered with 503."""

    def __init__(self, part: str) -> None:
        super().__init__(message(part))
        self.part = part


def message(part: str) -> str:
    return (
        f"Crawford cannot reach {_PARTS.get(part, part)} just now; nothing was done."
        f" Try again in a few seconds."
    )


def unavailable_response(request: HttpRequest, part: str) -> HttpResponse:
    """The 503 for ``part``: JSON for the API and for clients asking for JSON, a page
    otherwise (rendered without the database, which may be what is away)."""
    wants_json = request.path.startswith("/api/") or "json" in request.headers.get("Accept", "")
    response: HttpResponse
    if wants_json:
        response = JsonResponse({"detail": message(part), "unavailable": part}, status=503)
    else:
        response = HttpResponse(_PAGE.format(message=message(part)), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def noticed(part: str) -> None:
    """An outage of ``part`` was met: after a database one, drop the pool's dead
    connections so the next requests get live ones."""
    if part == DATABASE:
        _drop_dead_connections()


def _drop_dead_connections() -> None:
    for connection in connections.all(initialized_only=True):
        pool = getattr(connection, "pool", None) if connection.vendor == "postgresql" else None
        if pool is None:
            continue
        try:
            pool.check()
        except Exception:  # the database is still away: the next failure checks again
            logger.info("the connection pool could not be checked yet", exc_info=True)


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """``handler500``: an outage becomes its 503; anything else is a bug, Django's 500."""
    error: BaseException | None = sys.exc_info()[1]
    part = outage_of(error)
    if part is not None:
        noticed(part)
        return unavailable_response(request, part)
    return django_server_error(request, template_name)


def log_outage(part: str, error: BaseException, traceback: TracebackType | None = None) -> None:
    logger.warning("%s is away: %s", _PARTS.get(part, part), error.__class__.__name__)


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Back in a moment - Crawford</title></head>
<body><main><h1>Back in a moment</h1><p>{message}</p>
<p><a href="">Try again</a></p></main></body></html>
"""
