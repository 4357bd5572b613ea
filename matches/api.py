"""REST for matches: challenge, accept, decline, read the state, act, export the record.

Programs play through these exactly as the browser board does over WebSocket.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Currency, User
from config.api import request_user, request_viewer
from config.errors import DomainError, Forbidden
from matches import services
from matches.models import Match
from matches.records import match_file
from matches.selectors import match_snapshot, move_list, visible_matches


class MatchStateSerializer(serializers.Serializer):
    """The match as its viewer sees it (see the field list in the API description)."""

    id = serializers.IntegerField()
    status = serializers.CharField()
    kind = serializers.CharField()
    length = serializers.IntegerField()
    score = serializers.ListField(child=serializers.IntegerField())
    players = serializers.ListField(child=serializers.CharField())
    crawford = serializers.BooleanField()
    winner = serializers.CharField(allow_null=True)
    game = serializers.DictField(allow_null=True)
    last_seq = serializers.IntegerField()


class MatchCreateApi(APIView):
    """Challenge a player to a match (``opponent``, ``length``) or a money session
    (``opponent``, ``money``: true, ``stake_cents``, ``currency``)."""

    permission_classes = [IsAuthenticated]

    class MatchCreateInputSerializer(serializers.Serializer):
        opponent = serializers.CharField()
        length = serializers.IntegerField(
            required=False, min_value=1, max_value=services.MAX_MATCH_LENGTH
        )
        money = serializers.BooleanField(default=False)
        stake_cents = serializers.IntegerField(default=0, min_value=0)
        currency = serializers.ChoiceField(choices=Currency.values, default=Currency.FUN)
        jacoby = serializers.BooleanField(default=True)
        beavers = serializers.BooleanField(default=False)
        max_cube = serializers.IntegerField(required=False, min_value=1)
        rated = serializers.BooleanField(default=True)
        private = serializers.BooleanField(default=False)

        def validate(self, data: dict[str, object]) -> dict[str, object]:
            if not data["money"] and "length" not in data:
                raise serializers.ValidationError(
                    'Give a match "length" in points, or "money": true'
                )
            return data

    @extend_schema(
        request=MatchCreateInputSerializer,
        responses={201: MatchStateSerializer},
        operation_id="match_create",
    )
    def post(self, request: Request) -> Response:
        data = self.MatchCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        opponent = User.objects.filter(username=values["opponent"]).first()
        if opponent is None:
            raise DomainError(f"There is no player called {values['opponent']}")
        match = services.match_challenge(
            challenger=request_user(request),
            opponent=opponent,
            length=values.get("length"),
            money=values["money"],
            stake_cents=values["stake_cents"],
            currency=values["currency"],
            jacoby=values["jacoby"],
            beavers=values["beavers"],
            max_cube=values.get("max_cube"),
            rated=values["rated"],
            private=values["private"],
        )
        return Response(
            match_snapshot(match, viewer=request_user(request)), status=status.HTTP_201_CREATED
        )


class MatchDetailApi(APIView):
    """The match state, from the caller's side (spectators see no legal plays)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: MatchStateSerializer}, operation_id="match_detail")
    def get(self, request: Request, match_id: int) -> Response:
        user = request_viewer(request)
        match = get_object_or_404(visible_matches(user=user), pk=match_id)
        return Response(match_snapshot(match, viewer=user))


class MatchAcceptApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: MatchStateSerializer}, operation_id="match_accept")
    def post(self, request: Request, match_id: int) -> Response:
        match = services.match_accept(match_id=match_id, user=request_user(request))
        return Response(match_snapshot(match, viewer=request_user(request)))


class MatchDeclineApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: MatchStateSerializer}, operation_id="match_decline"
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = services.match_decline(match_id=match_id, user=request_user(request))
        return Response(match_snapshot(match, viewer=request_user(request)))


class MatchActionApi(APIView):
    """Act in a match. An illegal action answers 400 with the rule in words; out of turn 409."""

    permission_classes = [IsAuthenticated]

    class MatchActionInputSerializer(serializers.Serializer):
        type = serializers.ChoiceField(
            choices=[
                "roll",
                "play",
                "double",
                "take",
                "drop",
                "beaver",
                "resign",
                "accept_resign",
                "reject_resign",
            ]
        )
        seq = serializers.IntegerField(min_value=0, required=False)
        play = serializers.CharField(required=False, allow_blank=True)
        position_id = serializers.RegexField(r"^[A-Za-z0-9+/]{14}$", required=False)
        resign = serializers.ChoiceField(choices=["single", "gammon", "backgammon"], required=False)

    @extend_schema(
        request=MatchActionInputSerializer,
        responses={
            200: MatchStateSerializer,
            400: OpenApiResponse(description="Illegal"),
            409: OpenApiResponse(description="Out of turn"),
        },
        operation_id="match_action",
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = self.MatchActionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        result = services.action_submit(
            match_id=match_id,
            user=request_user(request),
            kind=values["type"],
            seq=values.get("seq"),
            play=values.get("play"),
            position_id=values.get("position_id"),
            resign=values.get("resign"),
        )
        return Response(match_snapshot(result.match, viewer=request_user(request)))


class MoveRowSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True)
    kind = serializers.CharField()
    player = serializers.CharField(allow_null=True)
    text = serializers.CharField(
        help_text='Standard notation, e.g. "52: 13/8 13/11" or "Doubles => 2"'
    )


class MatchMovesApi(APIView):
    """The move list: every roll, play and cube action in standard notation."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: MoveRowSerializer(many=True)}, operation_id="match_moves")
    def get(self, request: Request, match_id: int) -> Response:
        user = request_viewer(request)
        match = get_object_or_404(visible_matches(user=user), pk=match_id)
        return Response(move_list(match))


def _require_visible(request: Request, match_id: int) -> Match:
    user = request_viewer(request)
    match = visible_matches(user=user).filter(pk=match_id).first()
    if match is None:
        raise Forbidden("This match is private")
    return match


class MatchExportApi(APIView):
    """The match record as a .mat file for GNU Backgammon."""

    permission_classes = [AllowAny]

    @extend_schema(responses={(200, "text/plain"): str}, operation_id="match_export_mat")
    def get(self, request: Request, match_id: int) -> HttpResponse:
        match = _require_visible(request, match_id)
        response = HttpResponse(match_file(match), content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="crawford-match-{match.pk}.mat"'
        return response
