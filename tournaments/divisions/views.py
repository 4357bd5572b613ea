"""Pages for divisions and side events: the organizer's form that adds one beside a main
event, and what a tournament's page shows of its event and entry limits."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.viewers import request_user
from core.errors import DomainError
from tournaments import selectors
from tournaments.divisions import services
from tournaments.divisions.form import SideEventForm
from tournaments.divisions.limits import limit_words
from tournaments.divisions.reads import event_of, may_add_beside, viewer_refusal
from tournaments.errors import TournamentInvalid
from tournaments.models import SideKind, Tournament


def event_shown(tournament: Tournament, viewer: User | None) -> dict[str, object]:
    """What a tournament's page shows of its event: the main event and what is played
    beside it, whether the viewer may add to it, who may enter and why the viewer may not."""
    event = event_of(tournament, viewer=viewer)
    return {
        "event": event if len(event.members) > 1 else None,
        "may_add_beside": may_add_beside(tournament, viewer),
        "side_kinds": SideKind.choices,
        "entry_limits": limit_words(tournament),
        "entry_refusal": viewer_refusal(tournament, viewer),
    }


@login_required
def side_event_new(request: HttpRequest, tournament_id: int, kind: str) -> HttpResponse:
    """The form that adds a division, a jackpot or a blitz beside a main event."""
    user = request_user(request)
    main = (
        selectors.visible_tournaments(viewer=user)
        .select_related("organizer")
        .filter(pk=tournament_id)
        .first()
    )
    if main is None or kind not in SideKind.values:
        raise Http404("No such tournament")
    if not may_add_beside(main, user):
        raise PermissionDenied(_("Only the organizer of a main event can add events beside it."))
    form = SideEventForm(request.POST if request.method == "POST" else None, kind=kind, main=main)
    if request.method == "POST" and form.is_valid():
        try:
            side = services.side_event_create(
                main_id=main.pk,
                user=user,
                kind=kind,
                changes=form.changes(),
                places=form.paid_places(),
            )
        except TournamentInvalid as error:
            form.show_errors(error.errors)
        except DomainError as error:
            messages.error(request, str(error))
            return redirect("tournament", tournament_id=main.pk)
        else:
            messages.success(
                request,
                _("%(name)s is saved as a draft beside %(main)s. Open it to players.")
                % {"name": side.name, "main": main.name},
            )
            return redirect("tournament", tournament_id=side.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "tournaments/side_form.html",
        {"form": form, "main": main, "kind": kind, "kind_label": SideKind(kind).label},
        status=status,
    )
