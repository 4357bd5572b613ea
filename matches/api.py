"""REST for matches: challenge, accept, decline, read the state, act, export the record.

Programs play through these exactly as the browser board does over WebSocket.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import MAX_AMOUNT_CENTS, Currency, User
from accounts.viewers import request_user, request_viewer
from core import rows
from core.api import Api, JsonBooleanField, refused_by_the_rules
from core.errors import DomainError, NotFound
from core.metrics import action_timed
from matches.actions import LEVEL_NAMES, RESIGN_LEVELS, PlayerAction
from matches.clock import (
    CLOCK_PRESETS,
    MAX_CORRESPONDENCE_SECONDS,
    MAX_MOVE_SECONDS,
    MAX_RESERVE_SECONDS,
    check_clock,
)
from matches.creation import (
    MAX_MATCH_LENGTH,
    challenge_from_input,
    match_accept,
    match_decline,
)
from matches.models import (
    DEFAULT_CLOCK,
    ClockKind,
    ClockSettings,
    Match,
    TimeoutLoses,
)
from matches.move_list import move_list
from matches.play import action_submit
from matches.records import match_file
from matches.selectors import MATCH_LISTS, match_snapshot, matches_of, visible_matches


class MatchCubeSerializer(serializers.Serializer[dict[str, Any]]):
    """The match cube of a match swing: it doubles the stake of the whole match."""

    value = serializers.IntegerField(help_text="The match stake: 1, 2, 4, ...")
    owner = serializers.IntegerField(
        allow_null=True, help_text="The seat that may double it next; null while centred."
    )
    offered_by = serializers.IntegerField(
        allow_null=True, help_text="The seat whose match double waits for its answer."
    )
    max = serializers.IntegerField(help_text="The highest value it may reach; 0 for no limit.")


class MatchStateSerializer(serializers.Serializer[dict[str, Any]]):
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
    match_cube = MatchCubeSerializer(
        allow_null=True, help_text="Null unless the match is played with a match cube."
    )
    last_seq = serializers.IntegerField()


class ClockSerializer(serializers.Serializer[dict[str, Any]]):
    """A time control, the same for challenges and tournaments (see the README): a named
    ``preset`` (then nothing else), or the fields; validated into the fields."""

    preset = serializers.ChoiceField(choices=list(CLOCK_PRESETS), required=False)
    kind = serializers.ChoiceField(choices=ClockKind.values, default=DEFAULT_CLOCK.kind)
    move_seconds = serializers.IntegerField(
        default=DEFAULT_CLOCK.move_seconds,
        min_value=1,
        max_value=MAX_CORRESPONDENCE_SECONDS,
        help_text="Seconds a move: up to 600, or up to 14 days for correspondence.",
    )
    reserve_seconds = serializers.IntegerField(
        default=DEFAULT_CLOCK.reserve_seconds, min_value=0, max_value=MAX_RESERVE_SECONDS
    )
    delay_seconds = serializers.IntegerField(
        default=DEFAULT_CLOCK.delay_seconds, min_value=1, max_value=MAX_MOVE_SECONDS
    )
    timeout_loses = serializers.ChoiceField(
        choices=TimeoutLoses.values, default=DEFAULT_CLOCK.timeout_loses
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        preset = data.pop("preset", None)
        settings = CLOCK_PRESETS[preset][1] if preset else ClockSettings(**data)
        try:
            check_clock(settings)
        except DomainError as refusal:
            raise serializers.ValidationError(str(refusal)) from None
        return dataclasses.asdict(settings)


class MatchListQuerySerializer(serializers.Serializer[dict[str, Any]]):
    status = serializers.ChoiceField(
        choices=list(MATCH_LISTS),
        required=False,
        help_text="invited, playing (or suspended), finished, or ended (declined, cancelled "
        "or aborted); all of them without it",
    )


class MatchRowSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    status = serializers.CharField()
    kind = serializers.CharField()
    length = serializers.IntegerField()
    opponent = serializers.CharField()
    seat = serializers.IntegerField()
    direction = serializers.ChoiceField(
        choices=["incoming", "outgoing"],
        allow_null=True,
        help_text="For an invitation: whether you were challenged or challenged them.",
    )
    score = serializers.ListField(child=serializers.IntegerField())
    winner_seat = serializers.IntegerField(allow_null=True)
    currency = serializers.CharField()
    stake_cents = serializers.IntegerField()
    tournament = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class MatchCreateApi(Api):
    """Your matches, newest first (``GET``, filtered by ``status``); or challenge a player
    to a match (``opponent``, ``length``) or a money session (``opponent``, ``money``: true,
    ``stake_cents``, ``currency``)."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "challenge"
    query_serializer = MatchListQuerySerializer

    @extend_schema(
        parameters=[MatchListQuerySerializer],
        responses={200: MatchRowSerializer(many=True)},
        operation_id="match_list",
    )
    def get(self, request: Request) -> Response:
        rows = matches_of(user=request_user(request), status=self.query.get("status"))
        return Response(rows)

    class MatchCreateInputSerializer(serializers.Serializer[dict[str, Any]]):
        opponent = serializers.CharField(max_length=150)
        length = serializers.IntegerField(required=False, min_value=1, max_value=MAX_MATCH_LENGTH)
        money = JsonBooleanField(default=False)
        stake_cents = serializers.IntegerField(default=0, min_value=0, max_value=MAX_AMOUNT_CENTS)
        currency = serializers.ChoiceField(choices=Currency.choices, default=Currency.FUN)
        jacoby = JsonBooleanField(default=True)
        beavers = JsonBooleanField(default=False)
        raccoons = JsonBooleanField(
            default=False, help_text="Money play with beavers: a beavered player may redouble."
        )
        automatic_doubles = serializers.IntegerField(
            default=0,
            min_value=0,
            max_value=3,
            help_text="Money play: equal opening throws double the cube, up to this many times.",
        )
        max_cube = serializers.ChoiceField(
            choices=[2**power for power in range(11)],
            required=False,
            error_messages={
                "invalid_choice": "The maximum cube is a power of two, like 64, not {input}"
            },
        )
        rated = JsonBooleanField(default=True)
        private = JsonBooleanField(default=False)
        clock = ClockSerializer(required=False)

        def validate(self, data: dict[str, Any]) -> dict[str, Any]:
            if not data["money"] and "length" not in data:
                raise serializers.ValidationError(
                    _('Give a match "length" in points, or "money": true')
                )
            if "clock" in data:  # in the names a challenge takes
                data["clock_settings"] = ClockSettings(**data.pop("clock"))
            return data

    @extend_schema(
        request=MatchCreateInputSerializer,
        responses={201: MatchStateSerializer},
        operation_id="match_create",
        extensions=refused_by_the_rules(
            'Give a match "length" in points, or "money": true',
            "A money session needs a stake per point of at least 0.01",
            "Raccoons answer beavers: allow beavers to allow raccoons",
            "Your FUN balance is 5.00; this match needs 10.00 FUN from each player.",
            "There is no player called zed",
            "clock: The move timer or delay must be 1 to 600 seconds",
        ),
    )
    def post(self, request: Request) -> Response:
        data = self.MatchCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        opponent = User.objects.filter(username=values["opponent"]).first()
        if opponent is None:
            raise DomainError(
                _("There is no player called %(name)s.") % {"name": values["opponent"]}
            )
        match = challenge_from_input(
            challenger=request_user(request), opponent=opponent, values=values
        )
        return Response(
            match_snapshot(match, viewer=request_user(request)), status=status.HTTP_201_CREATED
        )


class MatchDetailApi(Api):
    """The match state, from the caller's side (spectators see no legal plays)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: MatchStateSerializer}, operation_id="match_detail")
    def get(self, request: Request, match_id: int) -> Response:
        user = request_viewer(request)
        with rows.one_snapshot():
            match = get_object_or_404(visible_matches(user=user), pk=match_id)
            return Response(match_snapshot(match, viewer=user))


class MatchAcceptApi(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: MatchStateSerializer},
        operation_id="match_accept",
        extensions=refused_by_the_rules(
            "Your FUN balance is 5.00; this match needs 10.00 FUN from each player.",
            "Alice Martin's FUN balance is 1.00; this match needs 999.00 FUN from each player.",
        ),
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = match_accept(match_id=match_id, user=request_user(request))
        return Response(match_snapshot(match, viewer=request_user(request)))


class MatchDeclineApi(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: MatchStateSerializer}, operation_id="match_decline"
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = match_decline(match_id=match_id, user=request_user(request))
        return Response(match_snapshot(match, viewer=request_user(request)))


class MatchActionApi(Api):
    """Act in a match. An illegal action answers 400 with the rule in words; out of turn 409.

    With a match cube (match swing), ``match_double`` offers to double the match stake at the
    start of one's turn; the opponent answers ``match_take`` or ``match_drop`` (the match
    ends, won by the doubler) before anything else is done.
    """

    permission_classes = [IsAuthenticated]

    class MatchActionInputSerializer(serializers.Serializer[dict[str, Any]]):
        type = serializers.ChoiceField(choices=[action.value for action in PlayerAction])
        seq = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False)
        play = serializers.CharField(required=False, max_length=120)
        position_id = serializers.RegexField(r"^[A-Za-z0-9+/]{14}$", required=False)
        resign = serializers.ChoiceField(choices=LEVEL_NAMES, required=False)

    @extend_schema(
        request=MatchActionInputSerializer,
        responses={
            200: MatchStateSerializer,
            400: OpenApiResponse(description="Illegal"),
            409: OpenApiResponse(description="Out of turn"),
        },
        operation_id="match_action",
        extensions=refused_by_the_rules(
            "That is not a legal play with 6-1", "No move is possible: the turn passes"
        ),
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = self.MatchActionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        resign = values.get("resign")
        with action_timed(values["type"]):
            result = action_submit(
                match_id=match_id,
                user=request_user(request),
                action=PlayerAction(values["type"]),
                seq=values.get("seq"),
                play=values.get("position_id") or values.get("play"),
                resign=RESIGN_LEVELS[resign] if resign else None,
            )
        return Response(match_snapshot(result.match, viewer=request_user(request)))


class GameResultSerializer(serializers.Serializer[dict[str, Any]]):
    points = serializers.IntegerField(help_text="What the game scored, after the cube.")
    level = serializers.ChoiceField(choices=LEVEL_NAMES)


class MoveRowSerializer(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True)
    kind = serializers.CharField()
    player = serializers.CharField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True, help_text="0 or 1; null for the server.")
    text = serializers.CharField(
        help_text='Standard notation, e.g. "52: 13/8 13/11" or "Doubles => 2"'
    )
    result = GameResultSerializer(
        required=False, help_text='Only on a "game_over" row: how the winner (seat) won.'
    )


class MatchMovesApi(Api):
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
        raise NotFound(_("There is no such match, or it is private"))
    return match


class MatchExportApi(Api):
    """The match record as a .mat file for GNU Backgammon."""

    permission_classes = [AllowAny]

    @extend_schema(responses={(200, "text/plain"): str}, operation_id="match_export_mat")
    def get(self, request: Request, match_id: int) -> HttpResponse:
        match = _require_visible(request, match_id)
        response = HttpResponse(match_file(match), content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="crawford-match-{match.pk}.mat"'
        return response
