"""Pages a player uses about their own standing: the self-exclusion form of the profile."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.standing import self_exclude
from accounts.viewers import request_user
from core.errors import DomainError


@login_required
@require_POST
def self_exclusion(request: HttpRequest) -> HttpResponse:
    """Bar one's own real-money play for the chosen ``days``, once ``confirm`` is ticked."""
    back = HttpResponseRedirect(f"{reverse('profile')}#standing")
    if request.POST.get("confirm") != "yes":
        messages.error(
            request, _("Tick the box to confirm: a self-exclusion cannot be shortened or undone.")
        )
        return back
    days = request.POST.get("days", "")
    try:
        standing = self_exclude(user=request_user(request), days=int(days) if days.isdigit() else 0)
    except DomainError as refusal:
        messages.error(request, str(refusal))
        return back
    until = timezone.localtime(standing.self_excluded_until)
    messages.success(
        request,
        _("You are excluded from real-money play until %(until)s. Play money stays open.")
        % {"until": date_format(until, "d M Y H:i")},
    )
    return back
