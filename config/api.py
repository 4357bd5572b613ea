"""API plumbing shared by every app: errors become JSON with a message."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.errors import DomainError

if TYPE_CHECKING:
    from django.http import HttpRequest

    from accounts.models import User


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Turn a domain error into HTTP 400 with its message; leave the rest to DRF.

    DRF's own errors keep their shape but always carry a top-level "detail" so a
    client can show one sentence.
    """
    if isinstance(exc, DomainError):
        return Response({"detail": str(exc)}, status=exc.status_code)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(data, list) or (isinstance(data, dict) and "detail" not in data):
        response.data = {"detail": _first_message(data), "errors": data}
    return response


def _first_message(data: Any) -> str:
    if isinstance(data, dict):
        for field, value in data.items():
            message = _first_message(value)
            return message if field == "non_field_errors" else f"{field}: {message}"
        return "Invalid request."
    if isinstance(data, list) and data:
        return _first_message(data[0])
    return str(data)


def request_user(request: HttpRequest | Any) -> User:
    """The logged-in user of a request whose view requires authentication."""
    from accounts.models import User

    user = request.user
    if not isinstance(user, User):
        raise PermissionError("this view must require an authenticated user")
    return user


def request_viewer(request: HttpRequest | Any) -> User | None:
    """The logged-in user, or None for an anonymous visitor."""
    return request_user(request) if request.user.is_authenticated else None
