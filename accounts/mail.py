"""E-mail to players: their address verified, a forgotten password reset, notices by e-mail.

An address is *verified* once its player followed a link mailed to it: a signed token of
the player's id and the address, good for ``CRAWFORD_EMAIL_VERIFY_DAYS`` days and only for
that address (a new address starts unverified and needs a link of its own). Following a
password reset link, which went to the address, proves it as well.

A *notice e-mail* repeats an on-site notice of one of the ``MailKind`` kinds. It goes only to
a verified address, and only while the player's preference for that kind is on (their
profile). Each carries an *unsubscribe link*: a signed token of the player and the kind that
turns that one preference off without logging in, also given in the ``List-Unsubscribe``
headers that mail programs show as a button (answered by a POST, RFC 8058).

Every e-mail is written in its player's language (``Profile.language``): the one they chose
with the switcher, or signed up in.

Mail is sent by Celery tasks (``accounts.tasks``, ``lobby.tasks``), never inside a request:
a slow relay holds up no page, and how long asking for a reset takes does not tell whether
an address has an account.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.mail import EmailMessage
from django.db import models
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.functional import Promise
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import Profile, User
from accounts.selectors import language_of
from core.errors import DomainError
from core.tasks import enqueue_on_commit

VERIFICATION_TASK = "accounts.mail_verification"
PASSWORD_RESET_TASK = "accounts.mail_password_reset"
_VERIFY_SALT = "crawford.mail.verify"
_UNSUBSCRIBE_SALT = "crawford.mail.unsubscribe"


class MailKind(models.TextChoices):
    """The notices a player may also take by e-mail, labelled as the profile offers them."""

    TOURNAMENT_SOON = (
        "tournament_soon",
        _("E-mail me 10 minutes before a tournament I entered"),
    )
    CHALLENGE = "challenge", _("E-mail me a challenge that comes while I am away")
    DISPUTE_DECIDED = (
        "dispute_decided",
        _("E-mail me the decision on a dispute about my match"),
    )


PREFERENCE = {
    MailKind.TOURNAMENT_SOON: "mail_tournament_soon",
    MailKind.CHALLENGE: "mail_challenge_away",
    MailKind.DISPUTE_DECIDED: "mail_dispute_decided",
}
"""The profile's field that says whether the player wants each kind by e-mail."""

AWAY_AFTER = timedelta(minutes=5)
"""A player who opened no page of the site for this long is *away* (``Profile.seen_at``)."""

SUBJECT = {
    MailKind.TOURNAMENT_SOON: _("Your tournament starts soon"),
    MailKind.CHALLENGE: _("You have been challenged"),
    MailKind.DISPUTE_DECIDED: _("Your dispute has been decided"),
}


def site_link(path: str) -> str:
    """``path`` of this site as a link that works from a mail program."""
    return f"{settings.CRAWFORD_SITE_URL}{path}"


def _send(
    *,
    user: User,
    subject: str | Promise,
    template: str,
    context: dict[str, Any],
    **headers: str,
) -> None:
    """Mail ``user`` the ``template`` with ``subject``, both in the player's language."""
    with translation.override(language_of(user_id=user.pk)):
        body = render_to_string(template, {"site": settings.CRAWFORD_SITE_URL, **context})
        title = f"Crawford: {subject}"
    EmailMessage(title, body, to=[user.email], headers=headers or None).send()


# ---------------------------------------------------------------- the address verified


def verification_ask(*, user: User) -> None:
    """Mail ``user`` a link that verifies their address, once the transaction commits."""
    if user.email and not user.email_verified:
        enqueue_on_commit(VERIFICATION_TASK, user.pk)


def verification_send(*, user_id: int) -> bool:
    """Mail the verification link to the player's address; False when there is nothing to
    verify (no address, already verified, the account closed)."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email or user.email_verified:
        return False
    token = signing.dumps({"user": user.pk, "email": user.email}, salt=_VERIFY_SALT)
    _send(
        user=user,
        subject=_("confirm your e-mail address"),
        template="mail/verify_address.txt",
        context={
            "name": user.username,
            "link": site_link(reverse("email-verify", kwargs={"token": token})),
            "days": settings.CRAWFORD_EMAIL_VERIFY_DAYS,
        },
    )
    return True


def address_verify(*, token: str) -> User:
    """Mark verified the address a verification link was sent to; the player it is of."""
    try:
        payload = signing.loads(
            token,
            salt=_VERIFY_SALT,
            max_age=timedelta(days=settings.CRAWFORD_EMAIL_VERIFY_DAYS),
        )
    except signing.SignatureExpired:
        raise DomainError(
            gettext("This link has expired: ask for a new one on your profile page.")
        ) from None
    except signing.BadSignature:
        raise DomainError(
            gettext(
                "This is not a link Crawford sent, or it was cut short: copy the whole link"
                " from the e-mail."
            )
        ) from None
    user_id, email = payload.get("user"), payload.get("email")
    verified = User.objects.filter(pk=user_id, email=email, is_active=True)
    if not verified.update(email_verified=True):
        raise DomainError(gettext("This link was for an address that is no longer on the account."))
    return User.objects.get(pk=user_id)


def email_change(*, user: User, email: str) -> bool:
    """Give ``user`` the address ``email`` ("" for none), unverified, and mail it a link;
    the same address again, still unverified, is mailed a new link. Whether a link goes."""
    email = User.objects.normalize_email(email)
    if email != user.email:
        user.email, user.email_verified = email, False
        user.full_clean(exclude=["password", "username"])
        user.save(update_fields=["email", "email_verified"])
    if not email or user.email_verified:
        return False
    verification_ask(user=user)
    return True


# ---------------------------------------------------------------- a forgotten password


def password_reset_ask(*, user_ids: list[int]) -> None:
    """Mail each of these players a link to choose a new password."""
    for user_id in user_ids:
        enqueue_on_commit(PASSWORD_RESET_TASK, user_id)


def password_reset_send(*, user_id: int) -> bool:
    """Mail the player a password reset link (Django's token: it works once, and for
    ``PASSWORD_RESET_TIMEOUT``); False for an account that cannot log in."""
    user = User.objects.filter(pk=user_id, is_active=True).exclude(email="").first()
    if user is None or not user.has_usable_password():
        return False
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    _send(
        user=user,
        subject=_("choose a new password"),
        template="mail/password_reset.txt",
        context={
            "name": user.username,
            "link": site_link(
                reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})
            ),
            "hours": settings.PASSWORD_RESET_TIMEOUT // 3600,
        },
    )
    return True


# ---------------------------------------------------------------- notices by e-mail


def notice_mail_send(*, user_id: int, kind: MailKind, text: str, url: str) -> bool:
    """Mail the notice ``text`` (about the page ``url``) to the player, if their address is
    verified and they want ``kind`` by e-mail; whether it was sent."""
    user = User.objects.select_related("profile").filter(pk=user_id, is_active=True).first()
    if user is None or not user.email or not user.email_verified:
        return False
    if not getattr(user.profile, PREFERENCE[kind]):
        return False
    unsubscribe = unsubscribe_link(user_id=user_id, kind=kind)
    _send(
        user=user,
        subject=SUBJECT[kind],
        template="mail/notice.txt",
        context={
            "name": user.profile.display_name,
            "text": text,
            "link": site_link(url or "/"),
            "about": kind.label,
            "unsubscribe": unsubscribe,
            "preferences": site_link(reverse("profile")),
        },
        **{
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    return True


def unsubscribe_link(*, user_id: int, kind: MailKind) -> str:
    """A link that stops e-mails of ``kind`` to the player, without logging in."""
    token = signing.dumps([user_id, kind.value], salt=_UNSUBSCRIBE_SALT)
    return site_link(reverse("mail-unsubscribe", kwargs={"token": token}))


def unsubscribe_read(*, token: str) -> tuple[User, MailKind]:
    """Whose e-mails of which kind an unsubscribe link stops."""
    try:
        user_id, kind = signing.loads(token, salt=_UNSUBSCRIBE_SALT)
        user = User.objects.select_related("profile").get(pk=user_id)
        return user, MailKind(kind)
    except (signing.BadSignature, ValueError, TypeError, User.DoesNotExist):
        raise DomainError(
            gettext(
                "This is not an unsubscribe link Crawford sent, or it was cut short: copy the"
                " whole link from the e-mail, or change what you get on your profile page."
            )
        ) from None


def unsubscribe(*, token: str) -> tuple[User, MailKind]:
    """Stop the e-mails an unsubscribe link names; doing it twice changes nothing more."""
    user, kind = unsubscribe_read(token=token)
    Profile.objects.filter(user_id=user.pk).update(**{PREFERENCE[kind]: False})
    return user, kind
