"""Pages for getting in: sign-up, log-in, password change and reset, the e-mail address
(verified by a mailed link), e-mail notices stopped by their link, and the answers to too
many tries.

Log-in and sign-up are rate limited per address (``core.throttles``, scopes ``login``
and ``signup``; the log-in form shares its budget with ``POST /api/auth/token/``), and
repeated failed log-ins lock out the account and the address (django-axes, which calls
``locked_out`` for the answer), and asking for mail (a reset link, a verification link)
has a budget per address (scope ``mail``). Each answer is 429 with ``Retry-After``.
"""

from __future__ import annotations

from typing import Any

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, SetPasswordForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts import mail
from accounts.forms import EmailForm, MailedPasswordResetForm, SignUpForm
from accounts.models import User
from accounts.services import logout_everywhere, password_change, password_reset, user_create
from core.errors import DomainError
from core.sockets import sessions_changed
from core.throttles import address_of, retry_after, throttle


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if request.method == "POST" and (wait := throttle("signup", address_of(request))):
        return _too_many(
            request, wait, _("Too many accounts have been made from your address just now.")
        )
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = user_create(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
                display_name=form.cleaned_data["display_name"],
                language=translation.get_language() or "",
            )
        except DomainError as error:
            form.add_error(None, str(error))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                _("Welcome to Crawford, %(name)s!") % {"name": user.profile.display_name},
            )
            return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class LogInView(auth_views.LoginView):
    """Django's log-in page, rate limited per address."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if wait := throttle("login", address_of(request)):
            return _too_many(
                request, wait, _("Too many log-ins have been tried from your address.")
            )
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        """Logged in; a browser that has not chosen a language yet (a new device) takes the
        one the player chose, as the pages after this one will speak it. The site's own
        language is every account's default, not a choice: a browser asking for another
        keeps it."""
        answer = super().form_valid(form)
        chosen = form.get_user().profile.language
        if settings.LANGUAGE_COOKIE_NAME not in self.request.COOKIES and (
            chosen != settings.LANGUAGE_CODE
        ):
            answer.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                chosen,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
            )
        return answer


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change page; the new password also revokes every API token."""

    success_url = reverse_lazy("password_change_done")

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        # This browser stays logged in; sessions elsewhere end with the old password, and
        # their sockets close.
        password_change(
            user=form.user,
            new_password=form.cleaned_data["new_password1"],
            keep_session=self.request.session.session_key,
        )
        update_session_auth_hash(self.request, form.user)
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetView(auth_views.PasswordResetView):
    """Django's "forgot your password" page; the link goes by a task, within the ``mail``
    budget of the address asking."""

    form_class = MailedPasswordResetForm
    success_url = reverse_lazy("password_reset_done")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if wait := throttle("mail", address_of(request)):
            return _too_many(
                request, wait, _("Too many e-mails have been asked for from your address.")
            )
        return super().post(request, *args, **kwargs)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's page behind a reset link: a new password ends every session and API token,
    as a change does (the player then logs in with it), and proves the address.

    It also lifts the lockout of the account's failed log-ins: the player who was locked
    out for guessing and reset their password logs in with the new one at once, and the
    guesses themselves are forgotten (they were made against the old password).
    """

    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form: SetPasswordForm[Any]) -> HttpResponse:
        password_reset(user=form.user, new_password=form.cleaned_data["new_password1"])
        axes_reset(username=form.user.get_username())
        del self.request.session[auth_views.INTERNAL_RESET_SESSION_TOKEN]
        return HttpResponseRedirect(self.get_success_url())


def email_verify(request: HttpRequest, token: str) -> HttpResponse:
    """A verification link followed: the address it was sent to is the player's, verified."""
    try:
        user = mail.address_verify(token=token)
    except DomainError as error:
        return render(
            request, "registration/email_verified.html", {"error": str(error)}, status=400
        )
    return render(request, "registration/email_verified.html", {"address": user.email})


@login_required
@require_POST
def email_change_view(request: HttpRequest) -> HttpResponse:
    """Change the player's address (or mail a new link to the one not yet verified)."""
    user = request.user
    assert isinstance(user, User)
    form = EmailForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(error) for error in form.errors["email"]))
        return redirect("profile")
    if wait := throttle("mail", address_of(request)):
        return _too_many(
            request, wait, _("Too many e-mails have been asked for from your address.")
        )
    if mail.email_change(user=user, email=form.cleaned_data["email"]):
        messages.success(
            request,
            _("We sent a link to %(address)s: follow it to confirm the address.")
            % {"address": user.email},
        )
    elif user.email:
        messages.success(
            request, _("%(address)s is your confirmed address.") % {"address": user.email}
        )
    else:
        messages.success(request, _("Your account has no e-mail address now."))
    return redirect("profile")


@csrf_exempt  # the signed link is the authority: mail programs post to it without a form
def mail_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """Stop one kind of e-mail notice without logging in: the page asks, a POST does it (a
    mail program's one-click button posts too)."""
    try:
        if request.method == "POST":
            user, kind = mail.unsubscribe(token=token)
        else:
            user, kind = mail.unsubscribe_read(token=token)
    except DomainError as error:
        return render(request, "registration/unsubscribe.html", {"error": str(error)}, status=400)
    return render(
        request,
        "registration/unsubscribe.html",
        {"done": request.method == "POST", "kind": kind, "address": user.email},
    )


class LogOutView(auth_views.LogoutView):
    """Django's log-out; the sockets this browser had open close with its session."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user_id = request.user.pk if request.user.is_authenticated else None
        response = super().post(request, *args, **kwargs)
        if user_id is not None:
            sessions_changed(user_id)
        return response


@login_required
@require_POST
def logout_everywhere_view(request: HttpRequest) -> HttpResponse:
    """End every session and API token of the player, this browser's too."""
    user = request.user
    assert isinstance(user, User)
    sessions, tokens = logout_everywhere(user=user)
    logout(request)
    messages.success(
        request,
        _("You were logged out everywhere: %(sessions)s and %(tokens)s ended.")
        % {
            "sessions": ngettext("%(count)s session", "%(count)s sessions", sessions)
            % {"count": sessions},
            "tokens": ngettext("%(count)s API token", "%(count)s API tokens", tokens)
            % {"count": tokens},
        },
    )
    return redirect("login")


def locked_out(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    """django-axes' answer to a log-in from a locked-out account or address.

    Every failure during the lockout starts it again, so the wait is the whole of it.
    (Axes passes the original response and credentials, differently when async: unused.)
    """
    wait = settings.AXES_COOLOFF_TIME.total_seconds()
    reason = _("Too many failed log-ins for this account or from your address.")
    return _too_many(request, wait, reason)


def _too_many(request: HttpRequest, wait: float, reason: str) -> HttpResponse:
    seconds = retry_after(wait)
    minutes = -(-seconds // 60)
    if seconds < 60:
        when = ngettext("%(count)s second", "%(count)s seconds", seconds) % {"count": seconds}
    else:
        when = ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"detail": _("%(reason)s Try again in %(when)s.") % {"reason": reason, "when": when}},
            status=429,
        )
    else:
        response = render(
            request,
            "registration/too_many_attempts.html",
            {"reason": reason, "when": when},
            status=429,
        )
    response["Retry-After"] = str(seconds)
    return response
