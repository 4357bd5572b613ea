"""Pages for tournaments: the lobby, a tournament, its bracket, the organizer's forms."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.viewers import request_user, request_viewer
from core.errors import DomainError
from matches.models import Match
from reviews.selectors import pr_table
from tournaments import bracket, reads, selectors, services, tiebreaks
from tournaments.bracket.page import bracket_page as page_of
from tournaments.bracket.page import column_html, find_column
from tournaments.divisions.views import event_shown
from tournaments.errors import TournamentInvalid
from tournaments.formats.base import Flight
from tournaments.forms import PlayerForm, TournamentForm
from tournaments.models import Tournament, TournamentFormat, TournamentState
from tournaments.reads.round_clocks import flight_rounds
from tournaments.settings.general import check_settings
from tournaments.swing import reads as swing_reads

SHOW_CHOICES = [
    ("open", pgettext_lazy("tournaments to show", "Open")),
    ("running", pgettext_lazy("tournaments to show", "Running")),
    ("finished", pgettext_lazy("tournaments to show", "Finished")),
]


def lobby(request: HttpRequest) -> HttpResponse:
    viewer = request_viewer(request)
    show = request.GET.get("show", "open")
    format_ = request.GET.get("format", "")
    return render(
        request,
        "tournaments/lobby.html",
        {
            "tournaments": selectors.lobby(viewer=viewer, show=show, format=format_),
            "show": show,
            "format": format_,
            "show_choices": SHOW_CHOICES,
            "format_choices": TournamentFormat.choices,
            "can_organize": viewer is not None and viewer.has_perm(services.ORGANIZE_PERMISSION),
        },
    )


@login_required
def mine(request: HttpRequest) -> HttpResponse:
    user = request_user(request)
    return render(
        request,
        "tournaments/mine.html",
        {"tournaments": selectors.tournaments_of(user=user)},
    )


@login_required
def create(request: HttpRequest) -> HttpResponse:
    user = request_user(request)
    if not user.has_perm(services.ORGANIZE_PERMISSION):
        messages.error(request, _("Only organizers can create tournaments."))
        return redirect("tournaments")
    # An empty POST is still a form sent (every field missing), not a form to show.
    form = TournamentForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and _checked(form, user, None):
        try:
            tournament = services.tournament_create(organizer=user, settings=form.settings())
        except TournamentInvalid as error:
            form.show_errors(error.errors)
        else:
            messages.success(
                request,
                _("%(name)s is saved as a draft. Open it to players.") % {"name": tournament.name},
            )
            return redirect("tournament", tournament_id=tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request, "tournaments/form.html", {"form": form, "tournament": None}, status=status
    )


@login_required
def edit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The settings form: shown to, and taken from, those who may change it only."""
    user = request_user(request)
    tournament = _visible(user, tournament_id)
    if not services.may_organize(tournament, user):
        raise PermissionDenied
    form = TournamentForm(
        request.POST if request.method == "POST" else None,
        initial=TournamentForm.initial_for(tournament),
    )
    if request.method == "POST" and _checked(form, user, tournament):
        try:
            services.tournament_edit(
                tournament_id=tournament.pk, user=user, changes=form.settings().__dict__
            )
        except TournamentInvalid as error:
            form.show_errors(error.errors)
        except DomainError as error:
            messages.error(request, str(error))
            return redirect("tournament", tournament_id=tournament.pk)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("tournament", tournament_id=tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request, "tournaments/form.html", {"form": form, "tournament": tournament}, status=status
    )


def detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    viewer = request_viewer(request)
    _visible(viewer, tournament_id)
    view = selectors.tournament_view(tournament_id=tournament_id, viewer=viewer)
    return render(
        request,
        "tournaments/detail.html",
        {
            "view": view,
            "check_in_opens": selectors.check_in_opens(view.tournament),
            "ties_waiting": reads.ties_waiting_names(view.tournament) if view.can_manage else [],
            "flight_rounds": flight_rounds(view.tournament),
            "pr_table": pr_table(
                Match.objects.filter(tournament_id=tournament_id).values_list("pk", flat=True)
            ),
            **_draw_shown(view.tournament, viewer),
            **event_shown(view.tournament, viewer),
        },
    )


@gzip_page
def bracket_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    viewer = request_viewer(request)
    tournament = _visible(viewer, tournament_id)
    return render(request, "tournaments/bracket.html", _draw_shown(tournament, viewer))


@gzip_page
def bracket_fragment(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The live part of the page again, with the rounds the page has opened
    (``?rounds=main:0,losers:2``)."""
    viewer = request_viewer(request)
    tournament = _visible(viewer, tournament_id)
    try:
        opened = _rounds_asked(request.GET.get("rounds", ""))
    except ValueError as error:
        return HttpResponseBadRequest(str(error), content_type="text/plain; charset=utf-8")
    shown = _draw_shown(tournament, viewer, opened=opened)
    return render(request, "tournaments/partials/bracket.html", shown)


@gzip_page
def bracket_round(
    request: HttpRequest, tournament_id: int, flight: str, number: int
) -> HttpResponse:
    """One round's column of the bracket, for a big field's page that opens it."""
    tournament = _visible(request_viewer(request), tournament_id)
    if tournament.format == TournamentFormat.SWING:
        raise Http404("A swing has no bracket")
    rounds = bracket.bracket(tournament)
    if tournament.format in bracket.ROUND_BY_ROUND:
        rounds = [r for r in rounds if r.flight == Flight.FINAL]
    layouts = bracket.flights(rounds, tournament.format)
    column = find_column(layouts, flight, number)
    if column is None:
        raise Http404("No such round in this bracket")
    return HttpResponse(column_html(column, many=len(layouts) > 1))


MAX_ROUNDS_ASKED = 64


def _rounds_asked(text: str) -> set[tuple[str, int]]:
    """``main:0,losers:2`` as {("main", 0), ("losers", 2)}; ValueError saying what is wrong."""
    asked = set()
    for part in filter(None, text.split(",")):
        flight, _colon, number = part.partition(":")
        if flight not in bracket.FLIGHT_ORDER or not number.isdigit() or len(number) > 3:
            raise ValueError(f"rounds: {part[:40]!r} is not a flight and a round (main:0)")
        asked.add((flight, int(number)))
    if len(asked) > MAX_ROUNDS_ASKED:
        raise ValueError(f"rounds: ask for at most {MAX_ROUNDS_ASKED}")
    return asked


def _draw_shown(
    tournament: Tournament, viewer: User | None, *, opened: set[tuple[str, int]] | None = None
) -> dict[str, object]:
    """What the bracket partial draws: a knockout's or a double elimination's flights; for a
    Swiss or a round robin, the standings and each round's pairings, and the knockout stage
    after them as a bracket. The same few queries whatever the field; a big field's page
    draws the viewer's path and the current rounds, and the rounds in ``opened``."""
    # Who won, with the state, is in the live part: the page follows the end without a reload.
    winners: dict[str, object] = {
        "champion": tournament.champion.profile.display_name if tournament.champion else None,
        "flight_champions": selectors.flight_champions(tournament)
        if tournament.state == TournamentState.FINISHED
        else {},
    }
    if tournament.format == TournamentFormat.SWING:
        return {"tournament": tournament, "rounds": [], **winners, **swing_shown(tournament)}
    rounds = bracket.bracket(tournament)
    shown: dict[str, object] = {"tournament": tournament, "rounds": rounds, **winners}
    viewer_id = viewer.pk if viewer is not None else None
    if tournament.format not in bracket.ROUND_BY_ROUND:
        layouts = bracket.flights(rounds, tournament.format)
        shown["flights"] = layouts
        shown["page"] = page_of(layouts, viewer_id=viewer_id, opened=opened or set())
        return shown
    rows = reads.tournament_standings(tournament) if rounds else []
    knockout_stage = [r for r in rounds if r.flight == Flight.FINAL]
    layouts = bracket.flights(knockout_stage, tournament.format)
    shown |= {
        "round_by_round": True,
        "standings": reads.standings_tables(rows),
        "pairing_rounds": reads.pairing_rounds(rounds, rows),
        "flights": layouts,
        "page": page_of(layouts, viewer_id=viewer_id, opened=opened or set()),
    }
    return shown


def swing_shown(tournament: Tournament) -> dict[str, object]:
    """A swing's live part: the CPP level, the chip leaderboard and chart, the games being
    played, the knockouts."""
    started = tournament.state in (TournamentState.RUNNING, TournamentState.FINISHED)
    return {
        "swing": True,
        "level": swing_reads.swing_level(tournament) if started else None,
        "leaders": swing_reads.swing_standings(tournament),
        "chart": swing_reads.chip_chart(tournament),
        "chart_size": (swing_reads.CHART_WIDTH, swing_reads.CHART_HEIGHT),
        "games": swing_reads.games_in_play(tournament),
        "knockouts": swing_reads.knockouts(tournament),
    }


def _player(username: str) -> User:
    found = User.objects.select_related("profile").filter(username=username).first()
    if found is None:
        raise DomainError(_("There is no player called %(username)s.") % {"username": username})
    return found


def _withdraw(user: User, tournament_id: int, form: PlayerForm) -> str:
    player = _player(form.cleaned_data["username"])
    services.entry_withdraw(tournament_id=tournament_id, user=user, player=player)
    return _("%(player)s is withdrawn and refunded.") % {"player": player.profile.display_name}


def _replace(user: User, tournament_id: int, form: PlayerForm) -> str:
    player = _player(form.cleaned_data["username"])
    replacement = _player(form.cleaned_data["replacement"] or "")
    services.entry_replace(
        tournament_id=tournament_id, user=user, player=player, replacement=replacement
    )
    return _("%(replacement)s takes %(player)s's seat.") % {
        "replacement": replacement.profile.display_name,
        "player": player.profile.display_name,
    }


ACTIONS: dict[str, Callable[[User, int], object]] = {
    "open": lambda user, t: services.tournament_open(tournament_id=t, user=user),
    "start": lambda user, t: services.tournament_start(tournament_id=t, user=user),
    "cancel": lambda user, t: services.tournament_cancel(tournament_id=t, user=user),
    "tiebreak": lambda user, t: tiebreaks.tiebreaks_schedule(tournament_id=t, user=user),
    "share-ties": lambda user, t: tiebreaks.ties_share(tournament_id=t, user=user),
    "register": lambda user, t: services.entry_register(tournament_id=t, user=user),
    "unregister": lambda user, t: services.entry_unregister(tournament_id=t, user=user),
    "check-in": lambda user, t: services.entry_check_in(tournament_id=t, user=user),
}
DONE = {
    "open": gettext_lazy("Registration is open."),
    "start": gettext_lazy("The tournament has started: the first matches are on."),
    "cancel": gettext_lazy(
        "The tournament is cancelled: every buy-in and fee is refunded and every player told."
    ),
    "tiebreak": gettext_lazy(
        "The tie-break matches are on: 1 point each, and their results decide the places."
    ),
    "share-ties": gettext_lazy("The tied players share their places and split their prizes."),
    "register": gettext_lazy("You are in. Good luck!"),
    "unregister": gettext_lazy("You have left the tournament; your buy-in is back in your wallet."),
    "check-in": gettext_lazy("You are checked in."),
}


@login_required
def cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organizer's confirmation, saying what cancelling will do; sent, it cancels."""
    if request.method == "POST":
        return act(request, tournament_id, "cancel")
    user = request_user(request)
    tournament = _visible(user, tournament_id)
    if not services.may_organize(tournament, user):
        raise PermissionDenied(_("Only the organizer can cancel this tournament."))
    if tournament.state in (TournamentState.FINISHED, TournamentState.CANCELLED):
        return redirect("tournament", tournament_id=tournament_id)
    return render(
        request,
        "tournaments/cancel.html",
        {"tournament": tournament, "cancellation": selectors.cancellation(tournament)},
    )


@login_required
@require_POST
def act(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    user = request_user(request)
    _visible(user, tournament_id)
    try:
        if action in ACTIONS:
            ACTIONS[action](user, tournament_id)
            messages.success(request, DONE[action])
        elif action in ("withdraw", "replace"):
            form = PlayerForm(request.POST)
            if not form.is_valid():
                raise DomainError(_("Say which player."))
            done = (_withdraw if action == "withdraw" else _replace)(user, tournament_id, form)
            messages.success(request, done)
        else:
            raise Http404("No such action")
    except DomainError as error:
        messages.error(request, str(error))
    return redirect("tournament", tournament_id=tournament_id)


def _visible(viewer: User | None, tournament_id: int) -> Tournament:
    tournament = (
        selectors.visible_tournaments(viewer=viewer)
        .select_related("champion__profile")
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None:
        raise Http404("No such tournament")
    return tournament


def _checked(form: TournamentForm, user: User, tournament: Tournament | None) -> bool:
    """Whether the form is valid; if not, the settings' own checks have also spoken of the
    fields that did parse, so every error shows in one pass."""
    if form.is_valid():
        return True
    try:
        check_settings(form.settings(), organizer=user, tournament=tournament)
    except TournamentInvalid as error:
        form.show_errors(error.errors)
    return False
