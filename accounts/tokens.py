"""API tokens: issued at log-in, listed and revoked by their owner.

A token is django-rest-knox's: only its SHA-512 digest is stored, with an expiry
``API_TOKEN_TTL`` after it was issued. Its owner tells their tokens apart by a *token
id*, the first 16 hex digits of that digest: enough to name one, useless to log in with.
Changing the password or logging out everywhere revokes every token
(``accounts.services.password_change``, ``tokens_revoke_all``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from knox.models import AuthToken

from accounts.models import User
from core.errors import Conflict, NotFound

TOKEN_ID_LENGTH = 16
# A bound on the rows one player keeps; a program that logs in on every run reaches it
# only if it never lets a token expire or revokes it.
MAX_LIVE_TOKENS = 25
_TOKEN_ID = re.compile(rf"[0-9a-f]{{{TOKEN_ID_LENGTH}}}")


@dataclass(frozen=True)
class IssuedToken:
    token: str
    token_id: str
    expiry: datetime


@dataclass(frozen=True)
class TokenRow:
    token_id: str
    created: datetime
    expiry: datetime | None


def token_id_of(token: AuthToken) -> str:
    return str(token.digest[:TOKEN_ID_LENGTH])


def current_token_id(auth: object) -> str | None:
    """The id of the token a request was authenticated with (``request.auth``), if any."""
    return token_id_of(auth) if isinstance(auth, AuthToken) else None


def token_issue(*, user: User) -> IssuedToken:
    """A new token for ``user``; the secret is in the answer and nowhere else."""
    AuthToken.objects.filter(user=user, expiry__lte=timezone.now()).delete()
    if _live(user).count() >= MAX_LIVE_TOKENS:
        raise Conflict(
            _(
                "You already have %(count)s API tokens: revoke one you no longer use"
                " (DELETE /api/auth/tokens/<id>/) or all of them (POST /api/auth/logout-all/)."
            )
            % {"count": MAX_LIVE_TOKENS}
        )
    instance, token = AuthToken.objects.create(user=user, expiry=settings.API_TOKEN_TTL)
    return IssuedToken(token=token, token_id=token_id_of(instance), expiry=instance.expiry)


def tokens_of(*, user: User) -> list[TokenRow]:
    """``user``'s tokens that have not expired, newest first."""
    return [
        TokenRow(token_id=token_id_of(token), created=token.created, expiry=token.expiry)
        for token in _live(user).order_by("-created")
    ]


def token_revoke(*, user: User, token_id: str) -> None:
    """Revoke one of ``user``'s tokens; another player's is as unknown as a made-up id."""
    if _TOKEN_ID.fullmatch(token_id) is None:
        raise NotFound(
            _("A token id is %(length)s hexadecimal digits, as listed.")
            % {"length": TOKEN_ID_LENGTH}
        )
    deleted, _by_model = AuthToken.objects.filter(user=user, digest__startswith=token_id).delete()
    if not deleted:
        raise NotFound(_("You have no token with that id; it may have expired already."))


def tokens_revoke_all(*, user: User) -> int:
    """Revoke every token of ``user``; how many there were."""
    deleted, _by_model = AuthToken.objects.filter(user=user).delete()
    return int(deleted)


def _live(user: User) -> QuerySet[Any]:
    live: QuerySet[Any] = AuthToken.objects.filter(user=user).exclude(expiry__lte=timezone.now())
    return live
