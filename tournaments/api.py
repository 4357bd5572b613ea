"""REST for tournaments: organizers create and run them, players enter and follow them.

The tournament's matches are ordinary matches of the match API (``/api/matches/<id>/``).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Currency, User
from config.api import request_user, request_viewer
from config.errors import DomainError
from matches.models import ClockKind, TimeoutLoses
from matches.services import MAX_MATCH_LENGTH
from tournaments import selectors, services
from tournaments.errors import TournamentInvalid
from tournaments.models import Seeding, TournamentAbandonPolicy, TournamentFormat
from tournaments.services import TournamentSettings


class TournamentClockSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ClockKind.values, default=ClockKind.MOVE)
    move_seconds = serializers.IntegerField(default=12, min_value=1, max_value=600)
    reserve_seconds = serializers.IntegerField(default=60, min_value=0, max_value=24 * 3600)
    delay_seconds = serializers.IntegerField(default=12, min_value=1, max_value=600)
    timeout_loses = serializers.ChoiceField(choices=TimeoutLoses.values, default="match")


class TournamentSettingsInputSerializer(serializers.Serializer):
    """An organizer's settings; ``seats`` for a Sit & Go, ``target`` for a satellite."""

    name = serializers.CharField(max_length=120)
    format = serializers.ChoiceField(choices=TournamentFormat.values)
    seats = serializers.IntegerField(required=False, allow_null=True, min_value=2, max_value=64)
    max_entrants = serializers.IntegerField(
        required=False, allow_null=True, min_value=2, max_value=services.MAX_ENTRANTS
    )
    buy_in_cents = serializers.IntegerField(default=0, min_value=0)
    fee_cents = serializers.IntegerField(default=0, min_value=0)
    currency = serializers.CharField(default=Currency.FUN, help_text="FUN or REAL")
    seeding = serializers.ChoiceField(choices=Seeding.values, default=Seeding.RATING)
    round_lengths = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_MATCH_LENGTH),
        min_length=1,
        default=[5],
        help_text="Points per round, first round to final; a bigger field repeats the first.",
    )
    clock = TournamentClockSerializer(required=False)
    target = serializers.IntegerField(
        required=False, allow_null=True, help_text="Satellite: the target tournament's id."
    )
    abandon_policy = serializers.ChoiceField(
        choices=TournamentAbandonPolicy.values, default=TournamentAbandonPolicy.ENGINE
    )
    show_up_seconds = serializers.IntegerField(default=300, min_value=30, max_value=3600)
    round_minutes = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_minutes = serializers.IntegerField(required=False, allow_null=True, min_value=1)


class TournamentEditInputSerializer(TournamentSettingsInputSerializer):
    """Any settings to change; the others keep their values."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, partial=True, **kwargs)


class TournamentEntrantOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    rating = serializers.FloatField()
    place = serializers.CharField(allow_blank=True)
    prize_cents = serializers.IntegerField()
    ticket = serializers.BooleanField()
    checked_in = serializers.BooleanField()


class TournamentPrizeOutputSerializer(serializers.Serializer):
    place = serializers.CharField()
    cents = serializers.IntegerField()


class TournamentTicketOutputSerializer(serializers.Serializer):
    holder = serializers.CharField()
    target = serializers.IntegerField()
    value_cents = serializers.IntegerField()
    used = serializers.BooleanField()


class TournamentOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField()
    state = serializers.CharField()
    organizer = serializers.CharField()
    currency = serializers.CharField()
    buy_in_cents = serializers.IntegerField()
    fee_cents = serializers.IntegerField()
    buy_in = serializers.CharField(help_text='As shown to players: "10.00 + 0.65".')
    seats = serializers.IntegerField(allow_null=True)
    max_entrants = serializers.IntegerField(allow_null=True)
    seeding = serializers.CharField()
    round_lengths = serializers.ListField(child=serializers.IntegerField())
    clock = serializers.DictField()
    abandon_policy = serializers.CharField()
    target = serializers.IntegerField(allow_null=True)
    starts_at = serializers.DateTimeField(allow_null=True)
    entrants = TournamentEntrantOutputSerializer(many=True)
    prize_pool_cents = serializers.IntegerField()
    prizes = TournamentPrizeOutputSerializer(many=True)
    tickets = TournamentTicketOutputSerializer(many=True)
    champion = serializers.CharField(allow_null=True)


class BracketSideOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()


class BracketSlotOutputSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    top = BracketSideOutputSerializer(allow_null=True)
    bottom = BracketSideOutputSerializer(allow_null=True)
    top_bye = serializers.BooleanField()
    bottom_bye = serializers.BooleanField()
    match_id = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(
        help_text="waiting, bye, live, suspended, finished, forfeit, adjudicated or not played"
    )
    score = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    winner = serializers.CharField(allow_null=True)
    late = serializers.BooleanField()


class BracketRoundOutputSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    name = serializers.CharField()
    match_length = serializers.IntegerField()
    slots = BracketSlotOutputSerializer(many=True)


class TournamentBracketOutputSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    state = serializers.CharField()
    rounds = BracketRoundOutputSerializer(many=True)


class TournamentPlayerInputSerializer(serializers.Serializer):
    username = serializers.CharField()


class TournamentReplaceInputSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="The player giving up the seat.")
    replacement = serializers.CharField(help_text="The player taking it, who pays the buy-in.")


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
        "clock": t.clock,
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
    }


def settings_from(values: dict[str, Any]) -> dict[str, Any]:
    """Serializer fields to ``TournamentSettings`` names."""
    changes = dict(values)
    if "target" in changes:
        changes["target_id"] = changes.pop("target")
    if "round_lengths" in changes:
        changes["round_lengths"] = tuple(changes["round_lengths"])
    if "clock" in changes:
        changes["clock"] = dict(changes["clock"])
    return changes


def invalid(error: TournamentInvalid) -> Response:
    errors = {("target" if f == "target_id" else f): m for f, m in error.errors.items()}
    return Response({"detail": str(error), "errors": errors}, status=status.HTTP_400_BAD_REQUEST)


def player(username: str) -> User:
    found = User.objects.select_related("profile").filter(username=username).first()
    if found is None:
        raise DomainError(f"There is no player called {username}.")
    return found


class TournamentCreateApi(APIView):
    """Create a draft tournament (organizers only); open it with ``/open/``."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=TournamentSettingsInputSerializer,
        responses={201: TournamentOutputSerializer},
        operation_id="tournament_create",
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


class TournamentDetailApi(APIView):
    """A tournament: state, entrants, prize pool, prizes and champion."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentOutputSerializer}, operation_id="tournament_detail")
    def get(self, request: Request, tournament_id: int) -> Response:
        viewer = request_viewer(request)
        get_object_or_404(selectors.visible_tournaments(viewer=viewer), pk=tournament_id)
        return Response(tournament_data(tournament_id, viewer))


class TournamentBracketApi(APIView):
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
        rounds = selectors.bracket(tournament)
        return Response(
            {
                "tournament": tournament.pk,
                "state": tournament.state,
                "rounds": selectors.bracket_data(rounds),
            }
        )


class TournamentEditApi(APIView):
    """Change settings while a draft or open for registration (organizer)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=TournamentEditInputSerializer,
        responses={200: TournamentOutputSerializer},
        operation_id="tournament_edit",
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


class _TournamentActionApi(APIView):
    """A POST that runs one service for the caller and answers with the tournament."""

    permission_classes = [IsAuthenticated]

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        raise NotImplementedError

    def post(self, request: Request, tournament_id: int) -> Response:
        user = request_user(request)
        self.act(user, tournament_id, request)
        return Response(tournament_data(tournament_id, user))


def _action_schema(operation_id: str, request: type[serializers.Serializer] | None = None) -> Any:
    return extend_schema(
        request=request, responses={200: TournamentOutputSerializer}, operation_id=operation_id
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
    """Cancel; every buy-in is refunded (organizer)."""

    @_action_schema("tournament_cancel")
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)

    def act(self, user: User, tournament_id: int, request: Request) -> None:
        services.tournament_cancel(tournament_id=tournament_id, user=user)


class TournamentRegisterApi(_TournamentActionApi):
    """Take a seat: the buy-in and fee leave the caller's wallet (or a ticket is used)."""

    @_action_schema("tournament_register")
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

    @_action_schema("tournament_withdraw", TournamentPlayerInputSerializer)
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

    @_action_schema("tournament_replace", TournamentReplaceInputSerializer)
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
