"""Template context for the navigation bar: who is logged in and their role."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.roles import Role, role_of


def navigation(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    role = role_of(user)
    return {"nav_role": role.value, "nav_is_guest": role is Role.GUEST}
