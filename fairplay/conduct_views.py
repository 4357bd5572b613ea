"""Pages for conduct: the mute, block and unblock buttons of a player's page post here."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts.models import BlockKind
from accounts.viewers import request_user
from core.errors import DomainError
from fairplay import conduct

DONE = {
    BlockKind.MUTE: _("You muted %(name)s: you will not see their chat."),
    BlockKind.BLOCK: _(
        "You blocked %(name)s: neither of you can challenge the other, take the other's seeks"
        " or read the other's chat."
    ),
}


@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    """``kind`` "mute" or "block" sets it; "none" lifts either."""
    owner = request_user(request)
    kind = request.POST.get("kind", "")
    try:
        if kind == "none":
            other = conduct.unblock(owner=owner, username=username)
            messages.success(
                request,
                gettext("%(name)s is no longer muted or blocked.")
                % {"name": other.profile.display_name},
            )
        else:
            made, _created = conduct.block(owner=owner, username=username, kind=kind)
            name = made.other.profile.display_name
            messages.success(request, DONE[BlockKind(made.kind)] % {"name": name})
    except DomainError as error:
        messages.error(request, str(error))
    return redirect("player", username=username)
