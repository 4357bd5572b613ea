"""Rate limits: how often one address or one player may do a thing.

A *scope* names a kind of action with its own limit in ``CRAWFORD_THROTTLE_RATES`` (read
from the environment by ``config.settings``): ``anon`` and ``user`` for every API call,
and the stricter ``login`` (the log-in form and ``POST /api/auth/token/``, one budget per
address), ``signup`` (per address), ``chat`` and ``challenge`` (per player). A
*requester* is who is counted: ``player(user_id)`` or ``address_of(request)``.

The counts live in Django's cache (Redis in production, so every server process shares
them) and are kept by Django REST framework's sliding window. Three ways in:

* REST views: ``AnonThrottle`` and ``UserThrottle`` apply to every view (the defaults in
  ``REST_FRAMEWORK``); a view with ``throttle_scope = "challenge"`` also gets that
  scope's limit on its writes through ``ScopedThrottle``;
* Django views and services (which WebSocket consumers call): ``throttle(scope,
  requester)`` or ``throttle_player(scope, user_id)``.

Each counts the action and answers None when it may go ahead, or the seconds to wait.
A REST view and a page or socket that use the same scope share one budget.
"""

from __future__ import annotations

import ipaddress
import math
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

__all__ = [
    "AnonThrottle",
    "ScopedThrottle",
    "UserThrottle",
    "address_of",
    "client_address",
    "player",
    "rate_of",
    "requester",
    "retry_after",
    "throttle",
    "throttle_player",
]


def client_address(request: HttpRequest | Request) -> str:
    """The address a request came from.

    Behind ``TRUSTED_PROXY_COUNT`` proxies, each appending the address it saw to
    ``X-Forwarded-For``, that is the entry as many places from the end: whatever stands
    before it, a client may have written itself.
    """
    proxies: int = settings.TRUSTED_PROXY_COUNT
    if proxies:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= proxies:
            return _address(forwarded[-proxies])
    return _address(str(request.META.get("REMOTE_ADDR") or ""))


UNKNOWN_ADDRESS = "0.0.0.0"


def _address(text: str) -> str:
    """``text`` when it is an IP address; otherwise a placeholder that stores as one."""
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return UNKNOWN_ADDRESS


def address_of(request: HttpRequest | Request) -> str:
    return f"address:{client_address(request)}"


def player(user_id: int) -> str:
    return f"user:{user_id}"


def requester(request: HttpRequest | Request) -> str:
    """The player when logged in, otherwise the address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return player(user.pk)
    return address_of(request)


def rate_of(scope: str) -> str:
    """The scope's rate, read at each use so tests and operators may change it."""
    rates: dict[str, str] = settings.CRAWFORD_THROTTLE_RATES
    try:
        return rates[scope]
    except KeyError:
        raise ImproperlyConfigured(
            f"CRAWFORD_THROTTLE_RATES has no rate for the scope {scope!r}"
        ) from None


def retry_after(wait: float) -> int:
    """Whole seconds for a ``Retry-After`` header: never 0, which would mean "now"."""
    return max(1, math.ceil(wait))


def throttle(scope: str, requester: str) -> float | None:
    """Count one action of ``requester`` in ``scope``: None if it may go ahead, else the
    seconds until it may (nothing is counted then)."""
    window = _Window(scope, requester)
    # The window knows its key, so DRF's check needs neither a request nor a view.
    if window.allow_request(None, None):  # type: ignore[arg-type]
        return None
    return window.wait() or 1.0


def throttle_player(scope: str, user_id: int) -> float | None:
    return throttle(scope, player(user_id))


def _key(scope: str, requester: str) -> str:
    return f"throttle:{scope}:{requester}"


class _RateThrottle(SimpleRateThrottle):
    """DRF's sliding window with the rate read from settings at each request."""

    def get_rate(self) -> str:
        return rate_of(self.scope_name)

    @property
    def scope_name(self) -> str:
        if self.scope is None:
            raise ImproperlyConfigured(f"{type(self).__name__} has no throttle scope")
        return self.scope

    def get_ident(self, request: Request) -> str:
        return client_address(request)


class _Window(_RateThrottle):
    """One scope and one requester, outside any view."""

    def __init__(self, scope: str, requester: str) -> None:
        self.scope = scope
        self.requester = requester
        super().__init__()

    def get_cache_key(self, request: Any, view: Any) -> str:
        return _key(self.scope_name, self.requester)


class AnonThrottle(_RateThrottle):
    """Every API call without credentials, per address (scope ``anon``)."""

    scope = "anon"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.user is not None and request.user.is_authenticated:
            return None
        return _key(self.scope_name, address_of(request))


class UserThrottle(_RateThrottle):
    """Every API call of a logged-in player, per player (scope ``user``)."""

    scope = "user"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.user is None or not request.user.is_authenticated:
            return None
        return _key(self.scope_name, player(request.user.pk))


class ScopedThrottle(_RateThrottle):
    """The view's ``throttle_scope`` on its writes (reads keep the general limits), per
    player, or per address for callers without credentials."""

    def __init__(self) -> None:
        # The scope, and so the rate, is the view's: known only in allow_request.
        pass

    def allow_request(self, request: Request, view: Any) -> bool:
        scope = getattr(view, "throttle_scope", None)
        if scope is None or request.method in SAFE_METHODS:
            return True
        self.scope = scope
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request: Request, view: Any) -> str:
        return _key(self.scope_name, requester(request))
