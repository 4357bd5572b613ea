"""Who is asking: the logged-in user of a request, for views and API views of every app."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.models import User


def request_user(request: HttpRequest | Any) -> User:
    """The logged-in user of a request whose view requires authentication."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionError("this view must require an authenticated user")
    return user


def request_viewer(request: HttpRequest | Any) -> User | None:
    """The logged-in user, or None for an anonymous visitor."""
    return request_user(request) if request.user.is_authenticated else None
