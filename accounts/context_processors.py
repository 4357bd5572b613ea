"""Template context for the navigation bar: who is logged in, their role and their money:
the REAL balance when they hold any, otherwise play money."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import pgettext_lazy

from accounts import ledger
from accounts.models import Currency, User
from accounts.roles import Role, role_of

# Each role as the navigation bar names it, in the page's language.
ROLE_LABELS = {
    Role.GUEST: pgettext_lazy("role", "guest"),
    Role.PLAYER: pgettext_lazy("role", "player"),
    Role.ORGANIZER: pgettext_lazy("role", "organizer"),
    Role.STAFF: pgettext_lazy("role", "staff"),
}


def navigation(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    role = role_of(user)
    context: dict[str, object] = {
        "nav_role": role.value,
        "nav_role_label": ROLE_LABELS[role],
        "nav_is_guest": role is Role.GUEST,
    }
    if isinstance(user, User):
        balances = ledger.balances(user=user)
        shown = Currency.REAL if balances.get(Currency.REAL) else Currency.FUN
        context["nav_balance"] = balances.get(shown, 0)
        context["nav_currency"] = shown
    return context
