"""The language the site speaks to a player: the one chosen with the switcher.

The switcher (``templates/partials/language_switcher.html``) posts to ``set_language``, which
is Django's view here, kept in a cookie for the pages, and also remembered on a logged-in
player's profile (``Profile.language``): what the site writes to them when they are not
looking at a page (notices, e-mails) is written in it.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.i18n import set_language

from accounts.services import language_remember


def language_choose(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language``; the language it kept in the cookie is remembered on the
    account of a logged-in player too (a language not offered sets nothing)."""
    answer = set_language(request)
    chosen = answer.cookies.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen is not None and request.user.is_authenticated:
        language_remember(user_id=request.user.pk, language=chosen.value)
    return answer
