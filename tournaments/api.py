"""REST for tournaments: organizers create and run them, players enter and follow them.

The tournament's matches are ordinary matches of the match API (``/api/matches/<id>/``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from accounts.viewers import request_user, request_viewer
from core.api import Api, refused_by_the_rules
from core.errors import DomainError
from tournaments import bracket, reads, selectors, services, tiebreaks
from tournaments.divisions.reads import event_data
from tournaments.errors import TournamentInvalid
from tournaments.models import TournamentFormat
from tournaments.serializers import (
    TournamentBracketOutputSerializer,
    TournamentEditInputSerializer,
    TournamentListQuerySerializer,
    TournamentOutputSerializer,
    TournamentPlayerInputSerializer,
    TournamentReplaceInputSerializer,
    TournamentRowSerializer,
    TournamentSettingsInputSerializer,
    TournamentStandingsOutputSerializer,
)
from tournaments.settings.general import TournamentSettings
from tournaments.swing import reads as swing_reads

F = TypeVar("F", bound=Callable[..., Response])


def tournament_data(tournament_id: int, viewer: User | None) -> dict[str, Any]:
    view = selectors.tournament_view(tournament_id=tournament_id, viewer=viewer)
    t = view.tournament
    return {
        "id": t.pk,
        "name": t.name,
        "format": t.format,
        "state": t.state,
        "organizer": t.organizer.username,
        "currency": t.currency,
        "buy_in_cents": t.buy_in_cents,
        "fee_cents": t.fee_cents,
        "buy_in": view.buy_in,
        "seats": t.seats,
        "max_entrants": t.max_entrants,
        "seeding": t.seeding,
        "round_lengths": t.round_lengths,
        "flight_lengths": t.flight_lengths,
        "clock": t.clock,
        "flight_clocks": t.flight_clocks,
        "grand_final_reset": t.grand_final_reset,
        "rounds": t.rounds,
        "top_cut": t.top_cut,
        "group_size": t.group_size,
        "advance_per_group": t.advance_per_group,
        "consolation": "none" if t.consolation_through_round is None else "progressive",
        "consolation_through_round": (
            None if t.consolation_through_round is None else t.consolation_through_round + 1
        ),
        "last_chance": t.last_chance_reenters_at is not None,
        "last_chance_reenters_at": t.last_chance_reenters_at,
        "last_chance_entry": t.last_chance_entry,
        "prize_table": t.prize_table,
        "abandon_policy": t.abandon_policy,
        "target": t.target_id,
        "starts_at": t.starts_at,
        "entrants": [
            {
                "username": e.user.username,
                "display_name": e.user.profile.display_name,
                "rating": e.user.profile.rating,
                "place": selectors.place_label(e),
                "prize_cents": e.prize_cents,
                "ticket": e.won_ticket,
                "checked_in": e.checked_in_at is not None,
            }
            for e in view.entries
        ],
        "prize_pool_cents": view.pool_cents,
        "prizes": [{"place": p.place, "cents": p.cents} for p in view.prizes],
        "tickets": [
            {
                "holder": ticket.holder.username,
                "target": ticket.target_id,
                "value_cents": ticket.value_cents,
                "used": ticket.entry_id is not None,
            }
            for ticket in view.tickets
        ],
        "champion": t.champion.username if t.champion else None,
        "swing": swing_reads.swing_settings(t),
        "flight_champions": {
            flight: champion.username for flight, champion in view.flight_champions.items()
        },
        **event_data(t, viewer=viewer),
    }


def settings_from(values: dict[str, Any]) -> dict[str, Any]:
    """Serializer fields to ``TournamentSettings`` names."""
    changes = dict(values)
    if "target" in changes:
        changes["target_id"] = changes.pop("target")
    if "round_lengths" in changes:
        lengths = changes.pop("round_lengths")
        by_flight = {"main": lengths} if isinstance(lengths, list) else dict(lengths)
        changes["round_lengths"] = tuple(by_flight.pop("main"))
        if not isinstance(lengths, list):
            changes["flight_lengths"] = {name: tuple(v) for name, v in by_flight.items()}
    if "clock" in changes:
        changes["clock"] = dict(changes["clock"])
    if "flight_clocks" in changes:
        changes["flight_clocks"] = {
            name: [dict(c) for c in clocks] if isinstance(clocks, list) else dict(clocks)
            for name, clocks in changes["flight_clocks"].items()
        }
    if "cpp_levels" in changes:
        changes["cpp_levels"] = tuple(changes["cpp_levels"])
    elif changes.get("cpp_start") is not None:
        changes["cpp_levels"] = ()  # a start and a step in place of the listed levels
    if "prize_table" in changes:
        changes["prize_table"] = {name: tuple(v) for name, v in changes["prize_table"].items()}
    return changes


def invalid(error: TournamentInvalid) -> Response:
    errors = {("target" if f == "target_id" else f): m for f, m in error.errors.items()}
    return Response({"detail": str(error), "errors": errors}, status=status.HTTP_400_BAD_REQUEST)


def player(username: str) -> User:
    found = User.objects.select_related("profile").filter(username=username).first()
    if found is None:
        raise DomainError(_("There is no player called %(username)s.") % {"username": username})
    return found


class TournamentCreateApi(Api):
    """Tournaments newest first (``GET``: by ``state``, or ``mine``), or create a draft
    tournament (organizers only; open it with ``/open/``)."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    query_serializer = TournamentListQuerySerializer

    @extend_schema(
        parameters=[TournamentListQuerySerializer],
        responses={200: TournamentRowSerializer(many=True)},
        operation_id="tournament_list",
    )
    def get(self, request: Request) -> Response:
        viewer = request_viewer(request)
        state = self.query.get("state", "")
        if self.query.get("mine"):
            if viewer is None:
                raise NotAuthenticated(_("Log in to list your tournaments."))
            found = selectors.tournaments_of(user=viewer)
            if state:
                found = found.filter(state__in=selectors.LOBBY_FILTERS[state])
        else:
            found = selectors.lobby(viewer=viewer, show=state or "all")
        return Response(
            [
                {
                    "id": t.pk,
                    "name": t.name,
                    "format": t.format,
                    "state": t.state,
                    "currency": t.currency,
                    "buy_in_cents": t.buy_in_cents,
                    "fee_cents": t.fee_cents,
                    "seated": t.seated,  # type: ignore[attr-defined]  # counted by the selector
                    "capacity": t.capacity,
                    "starts_at": t.starts_at,
                    "champion": t.champion.username if t.champion else None,
                    "parent": t.parent_id,
                    "side": t.side,
                    "division": t.division,
                }
                for t in found[:100]
            ]
        )

    @extend_schema(
        request=TournamentSettingsInputSerializer,
        responses={201: TournamentOutputSerializer},
        operation_id="tournament_create",
        extensions=refused_by_the_rules(
            "starts_at: Pick a start time in the future.",
            "fee_cents: A free tournament cannot charge a fee.",
            "rounds: Say how many rounds the Swiss has.",
            "prize_table: The shares add up to 90% of the pool, not 100%.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = TournamentSettingsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            tournament = services.tournament_create(
                organizer=request_user(request),
                settings=TournamentSettings(**settings_from(data.validated_data)),
            )
        except TournamentInvalid as error:
            return invalid(error)
        return Response(
            tournament_data(tournament.pk, request_user(request)), status=status.HTTP_201_CREATED
        )


class TournamentDetailApi(Api):
    """A tournament: state, entrants, prize pool, prizes and champion."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentOutputSerializer}, operation_id="tournament_detail")
    def get(self, request: Request, tournament_id: int) -> Response:
        viewer = request_viewer(request)
        get_object_or_404(selectors.visible_tournaments(viewer=viewer), pk=tournament_id)
        return Response(tournament_data(tournament_id, viewer))


class TournamentBracketApi(Api):
    """Every round of the bracket with its slots: players or a bye, match, score, winner."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: TournamentBracketOutputSerializer}, operation_id="tournament_bracket"
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        viewer = request_viewer(request)
        tournament = get_object_or_404(
            selectors.visible_tournaments(viewer=viewer), pk=tournament_id
        )
        rounds = bracket.bracket(tournament)
        return Response(
            {
                "tournament": tournament.pk,
                "state": tournament.state,
                "rounds": bracket.bracket_data(rounds),
            }
        )


class TournamentStandingsApi(Api):
    """The standings: a Swiss's or a round robin's ranking with its tiebreaks, a swing's chip
    leaderboard, or the places of the other formats; empty before the draw."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: TournamentStandingsOutputSerializer},
        operation_id="tournament_standings",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        viewer = request_viewer(request)
        tournament = get_object_or_404(
            selectors.visible_tournaments(viewer=viewer), pk=tournament_id
        )
        return Response(
            {
                "tournament": tournament.pk,
                "state": tournament.state,
                "format": tournament.format,
                "rows": (
                    swing_reads.swing_standings(tournament)
                    if tournament.format == TournamentFormat.SWING
                    else reads.tournament_standings(tournament)
                ),
            }
        )


class TournamentEditApi(Api):
    """Change settings while a draft or open for registration (organizer)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=TournamentEditInputSerializer,
        responses={200: TournamentOutputSerializer},
        operation_id="tournament_edit",
        extensions=refused_by_the_rules(
            "starts_at: Pick a start time in the future.",
            "fee_cents: A free tournament cannot charge a fee.",
        ),
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = TournamentEditInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request_user(request)
        try:
            services.tournament_edit(
                tournament_id=tournament_id, user=user, changes=settings_from(data.validated_data)
            )
        except TournamentInvalid as error:
            return invalid(error)
        return Response(tournament_data(tournament_id, user))


class _TournamentActionApi(Api):
    """A POST that runs one service for the caller and answers with the tournament."""

    permission_classes = [IsAuthenticated]

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        raise NotImplementedError

    def post(self, request: Request, tournament_id: int) -> Response:
        user = request_user(request)
        self.act(user, tournament_id, request)
        return Response(tournament_data(tournament_id, user))


def _action_schema(
    operation_id: str,
    request: type[serializers.Serializer[Any]] | None = None,
    refusals: tuple[str, ...] = (),
) -> Callable[[F], F]:
    return extend_schema(
        request=request,
        responses={200: TournamentOutputSerializer},
        operation_id=operation_id,
        extensions=refused_by_the_rules(*refusals) if refusals else None,
    )


class TournamentOpenApi(_TournamentActionApi):
    """Open registration (organizer)."""

    @_action_schema("tournament_open")
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        services.tournament_open(tournament_id=tournament_id, user=user)


class TournamentStartApi(_TournamentActionApi):
    """Close registration and draw the bracket; the first matches start at once (organizer)."""

    @_action_schema("tournament_start")
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        services.tournament_start(tournament_id=tournament_id, user=user)


class TournamentCancelApi(_TournamentActionApi):
    """Cancel (organizer): matches being played end without a result and their clocks stop,
    every buy-in and fee is refunded, and every player is told."""

    @_action_schema("tournament_cancel")
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        services.tournament_cancel(tournament_id=tournament_id, user=user)


class TournamentTiebreakApi(_TournamentActionApi):
    """A truncated round robin played out with players tied for a paid place (organizer):
    schedule their tie-break, 1-point matches played like any other (two tied players meet
    once; three or more play a stepladder); their results decide the places."""

    @_action_schema("tournament_tiebreak", None, ("No players are tied for a place that matters.",))
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        tiebreaks.tiebreaks_schedule(tournament_id=tournament_id, user=user)


class TournamentShareTiesApi(_TournamentActionApi):
    """A truncated round robin played out with players tied for a paid place (organizer):
    let the ties stand; the tied players share the places and split their prizes, and the
    tournament finishes."""

    @_action_schema(
        "tournament_share_ties", None, ("No players are tied for a place that matters.",)
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        tiebreaks.ties_share(tournament_id=tournament_id, user=user)


class TournamentRegisterApi(_TournamentActionApi):
    """Take a seat: the buy-in and fee leave the caller's wallet (or a ticket is used)."""

    @_action_schema(
        "tournament_register",
        None,
        (
            "Your FUN balance is 5.00; this needs 10.65.",
            "Novice is for players with at most 50 rated matches; you have played 212.",
        ),
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        services.entry_register(tournament_id=tournament_id, user=user)


class TournamentUnregisterApi(_TournamentActionApi):
    """Leave before the start; the buy-in is refunded."""

    @_action_schema("tournament_unregister")
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        services.entry_unregister(tournament_id=tournament_id, user=user)


class TournamentCheckInApi(_TournamentActionApi):
    """Confirm you will play, inside the check-in window."""

    @_action_schema("tournament_check_in")
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        services.entry_check_in(tournament_id=tournament_id, user=user)


class TournamentWithdrawApi(_TournamentActionApi):
    """Take a player out before play, refunding their buy-in (organizer)."""

    @_action_schema(
        "tournament_withdraw", TournamentPlayerInputSerializer, ("There is no player called zed.",)
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        data = TournamentPlayerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.entry_withdraw(
            tournament_id=tournament_id, user=user, player=player(data.validated_data["username"])
        )


class TournamentReplaceApi(_TournamentActionApi):
    """Give a player's seat to another before play: one refunded, the other pays (organizer)."""

    @_action_schema(
        "tournament_replace",
        TournamentReplaceInputSerializer,
        (
            "There is no player called zed.",
            "Championship is for players rated at least 1600; Zed is rated 1512.3.",
        ),
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        data = TournamentReplaceInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.entry_replace(
            tournament_id=tournament_id,
            user=user,
            player=player(data.validated_data["username"]),
            replacement=player(data.validated_data["replacement"]),
        )
