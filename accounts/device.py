"""The device cookie, and what a sign-up or log-in leaves behind: where it came from.

A *device cookie* is a long random token this site gives a browser the first time it
comes (``DeviceCookieMiddleware``): HttpOnly, SameSite=Lax, Secure over HTTPS, kept two
years. It says nothing by itself; it only lets two accounts used in one browser be seen
as such. At every sign-up and log-in (Django's ``user_logged_in``, and the token log-in
of ``POST /api/auth/token/``, where a device counts only if the program sent its cookie
back) ``log_in_seen`` keeps a salted digest of the request's address and of that cookie
(``accounts.standing.sighting_record``, never the values themselves) and tells fair play,
which looks for accounts that share them (``accounts.events.AccountSighted``).
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin
from rest_framework.request import Request

from accounts.models import User
from accounts.standing import sighting_record
from core.throttles import UNKNOWN_ADDRESS, client_address

DEVICE_COOKIE = "crawford_device"
DEVICE_COOKIE_SECONDS = 2 * 365 * 24 * 60 * 60
# The request attribute holding this browser's token, new or sent back: on the response
# that first sets the cookie, a sign-up has no cookie to read yet.
DEVICE_ATTRIBUTE = "crawford_device"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,64}")


def device_of(request: HttpRequest | Request) -> str:
    """The browser's device token: the one it sent, or the one this response gives it."""
    token = getattr(request, DEVICE_ATTRIBUTE, None) or device_sent(request)
    return token if _TOKEN.fullmatch(token) else ""


def device_sent(request: HttpRequest | Request) -> str:
    """The device token the client sent back, or "" (a program that keeps no cookies)."""
    token = request.COOKIES.get(DEVICE_COOKIE, "")
    return token if _TOKEN.fullmatch(token) else ""


class DeviceCookieMiddleware(MiddlewareMixin):
    """Give a browser without a (well-formed) device cookie a new one."""

    def process_request(self, request: HttpRequest) -> None:
        sent = request.COOKIES.get(DEVICE_COOKIE, "")
        setattr(
            request,
            DEVICE_ATTRIBUTE,
            sent if _TOKEN.fullmatch(sent) else secrets.token_urlsafe(32),
        )

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        token = getattr(request, DEVICE_ATTRIBUTE, None)
        if token and request.COOKIES.get(DEVICE_COOKIE) != token:
            response.set_cookie(
                DEVICE_COOKIE,
                token,
                max_age=DEVICE_COOKIE_SECONDS,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure() or settings.SESSION_COOKIE_SECURE,
            )
        return response


def log_in_seen(*, request: HttpRequest | Request, user: User, device: str) -> None:
    """Keep the address and ``device`` ``user`` signed up or logged in from (either may be
    unknown: ""), and tell fair play."""
    address = client_address(request)
    sighting_record(user=user, address="" if address == UNKNOWN_ADDRESS else address, device=device)


@receiver(user_logged_in, dispatch_uid="accounts.device.log_in_seen")
def _logged_in(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    # Connected in AccountsConfig.ready. A sign-up's browser keeps the cookie its first
    # response sets, so that one counts.
    if request is not None:
        log_in_seen(request=request, user=user, device=device_of(request))
