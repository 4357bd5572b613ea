"""REST for notices and seeks: what the bell and the lobby's seek list do, for programs.

Notices: ``GET /api/notifications/`` (newest first, with the unread count) and
``POST /api/notifications/read/``. Seeks: ``GET`` and ``POST /api/seeks/``,
``POST /api/seeks/<id>/accept/`` (the match starts: its state is the answer),
``DELETE /api/seeks/<id>/`` and ``POST /api/seeks/play-now/``. Opponents to challenge, as
one types their name: ``GET /api/opponents/?q=``.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import Throttled
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import MAX_AMOUNT_CENTS, Currency, User
from accounts.selectors import opponents_named
from accounts.viewers import request_user, request_viewer
from core.api import Api, JsonBooleanField, refused_by_the_rules
from core.throttles import retry_after, throttle_player
from lobby import seeks, selectors
from lobby.models import NoticeKind, Seek
from lobby.notifications import notices_read
from lobby.seeks import MAX_RATING, SeekTerms
from lobby.terms import clock_of
from matches.api import ClockSerializer, MatchStateSerializer
from matches.creation import MAX_MATCH_LENGTH
from matches.models import DEFAULT_CLOCK, ClockSettings, Match, MatchKind
from matches.selectors import match_snapshot

MAX_ID = 2**63 - 1
MAX_READ_IDS = 100
MAX_PAGE = 100


# ---------------------------------------------------------------- opponents


class OpponentSearchApi(Api):
    """Players the caller may challenge whose username or display name starts with ``q``
    (any case), at most 10, a username typed whole first: the challenge form's opponent
    field asks as the player types. Limited per player (scope ``search``)."""

    permission_classes = [IsAuthenticated]

    class OpponentQuerySerializer(serializers.Serializer[dict[str, Any]]):
        q = serializers.CharField(
            max_length=150,
            trim_whitespace=False,  # spaces alone find nobody, as nothing typed yet
            help_text="The first letters of a username or display name.",
        )

    class OpponentOutputSerializer(serializers.Serializer[dict[str, Any]]):
        username = serializers.CharField()
        display_name = serializers.CharField()
        rating = serializers.IntegerField()

    query_serializer = OpponentQuerySerializer

    @extend_schema(
        parameters=[OpponentQuerySerializer],
        responses={200: OpponentOutputSerializer(many=True)},
        operation_id="opponents",
    )
    def get(self, request: Request) -> Response:
        user = request_user(request)
        wait = throttle_player("search", user.pk)
        if wait is not None:
            raise Throttled(wait=retry_after(wait))
        found = opponents_named(typed=self.query["q"], seeker=user)
        return Response(
            [
                {
                    "username": profile.user.username,
                    "display_name": profile.display_name,
                    "rating": round(profile.rating),
                }
                for profile in found
            ]
        )


# ---------------------------------------------------------------- notices


class NoticeOutputSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=NoticeKind.choices)
    text = serializers.CharField(help_text="One sentence for the player.")
    url = serializers.CharField(help_text="The page it points to (a path of this site).")
    created_at = serializers.DateTimeField()
    read = serializers.BooleanField()

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # A field named "data" cannot be declared on the class: it would hide Serializer.data.
        fields: dict[str, serializers.Field[Any, Any, Any, Any]] = super().get_fields()
        fields["data"] = serializers.DictField(
            help_text="Ids the notice is about (match_id, tournament_id, dispute_id) and, for "
            "a match ready, show_up_by: when both players must be at the board."
        )
        return fields


class NotificationListApi(Api):
    """The caller's notices, newest first, and how many are unread."""

    permission_classes = [IsAuthenticated]

    class NotificationQuerySerializer(serializers.Serializer[dict[str, Any]]):
        unread = serializers.BooleanField(default=False, help_text="Only the unread ones.")
        before = serializers.IntegerField(
            required=False, min_value=1, max_value=MAX_ID, help_text="Notices older than this id."
        )
        limit = serializers.IntegerField(default=50, min_value=1, max_value=MAX_PAGE)

    class NotificationListOutputSerializer(serializers.Serializer[dict[str, Any]]):
        unread = serializers.IntegerField()
        notifications = NoticeOutputSerializer(many=True)

    query_serializer = NotificationQuerySerializer

    @extend_schema(
        parameters=[NotificationQuerySerializer],
        responses={200: NotificationListOutputSerializer},
        operation_id="notifications",
    )
    def get(self, request: Request) -> Response:
        user = request_user(request)
        notices = selectors.notices_of(
            user_id=user.pk,
            unread_only=self.query["unread"],
            before=self.query.get("before"),
            limit=self.query["limit"],
        )
        return Response(
            {
                "unread": selectors.unread_count(user_id=user.pk),
                "notifications": [selectors.notice_data(notice) for notice in notices],
            }
        )


class NotificationReadApi(Api):
    """Mark notices read: ``{"ids": [...]}`` (the caller's among them), or ``{"all": true}``."""

    permission_classes = [IsAuthenticated]

    class NotificationReadInputSerializer(serializers.Serializer[dict[str, Any]]):
        ids = serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
            required=False,
            max_length=MAX_READ_IDS,
        )
        all = JsonBooleanField(default=False, help_text="Every unread notice.")

        def validate(self, data: dict[str, Any]) -> dict[str, Any]:
            if ("ids" in data) == data["all"]:
                raise serializers.ValidationError(_('Send "ids", or "all": true, not both.'))
            return data

    class NotificationReadOutputSerializer(serializers.Serializer[dict[str, Any]]):
        read = serializers.IntegerField(help_text="How many notices this marked read.")
        unread = serializers.IntegerField(help_text="How many are still unread.")

    @extend_schema(
        request=NotificationReadInputSerializer,
        responses={200: NotificationReadOutputSerializer},
        operation_id="notifications_read",
        extensions=refused_by_the_rules('Send "ids", or "all": true, not both.'),
    )
    def post(self, request: Request) -> Response:
        data = self.NotificationReadInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request_user(request)
        marked = notices_read(user_id=user.pk, ids=data.validated_data.get("ids"))
        return Response({"read": marked, "unread": selectors.unread_count(user_id=user.pk)})


# ---------------------------------------------------------------- seeks


class SeekOutputSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    creator = serializers.CharField(help_text="The username of the player waiting.")
    display_name = serializers.CharField()
    rating = serializers.FloatField()
    kind = serializers.ChoiceField(choices=MatchKind.choices)
    length = serializers.IntegerField(help_text="Points; 0 for a money session.")
    stake_cents = serializers.IntegerField()
    currency = serializers.CharField()
    clock = ClockSerializer()
    rated = serializers.BooleanField()
    min_rating = serializers.IntegerField(allow_null=True)
    max_rating = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    terms = serializers.CharField(help_text='In words: "5-point match for 10.00 FUN".')
    may_take = serializers.BooleanField(help_text="Whether the caller may take it now.")
    why_not = serializers.CharField(allow_null=True, help_text="Why the caller may not.")


def seek_data(row: selectors.SeekRow) -> dict[str, Any]:
    seek = row.seek
    return {
        "id": seek.pk,
        "creator": seek.creator.username,
        "display_name": seek.creator.profile.display_name,
        "rating": seek.creator.profile.rating,
        "kind": seek.kind,
        "length": seek.length,
        "stake_cents": seek.stake_cents,
        "currency": seek.currency,
        "clock": asdict(clock_of(seek)),
        "rated": seek.rated,
        "min_rating": seek.min_rating,
        "max_rating": seek.max_rating,
        "created_at": seek.created_at,
        "terms": row.terms,
        "may_take": row.may_take,
        "why_not": row.refusal,
    }


def own_seek_data(seek: Seek, user: User) -> dict[str, Any]:
    return seek_data(selectors.seek_row(seek, viewer=user))


class SeekListApi(Api):
    """``GET``: the open seeks, newest first, each saying whether the caller may take it.
    ``POST``: offer a match to N points (``length``) or a money session (``kind``:
    "money", ``stake_cents`` a point) to anyone eligible; one open seek per player."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    throttle_scope = "challenge"

    class SeekInputSerializer(serializers.Serializer[dict[str, Any]]):
        kind = serializers.ChoiceField(choices=MatchKind.values, default=MatchKind.MATCH)
        length = serializers.IntegerField(required=False, min_value=1, max_value=MAX_MATCH_LENGTH)
        stake_cents = serializers.IntegerField(default=0, min_value=0, max_value=MAX_AMOUNT_CENTS)
        currency = serializers.ChoiceField(choices=Currency.values, default=Currency.FUN)
        clock = ClockSerializer(required=False)
        rated = JsonBooleanField(default=True, help_text="Money sessions are unrated.")
        min_rating = serializers.IntegerField(
            required=False, allow_null=True, min_value=0, max_value=MAX_RATING
        )
        max_rating = serializers.IntegerField(
            required=False, allow_null=True, min_value=0, max_value=MAX_RATING
        )

        def validate(self, data: dict[str, Any]) -> dict[str, Any]:
            if data["kind"] == MatchKind.MATCH and "length" not in data:
                raise serializers.ValidationError(_('Give a match "length" in points.'))
            low, high = data.get("min_rating"), data.get("max_rating")
            if low is not None and high is not None and low > high:
                raise serializers.ValidationError(_('"min_rating" must not be above "max_rating".'))
            return data

    @extend_schema(responses={200: SeekOutputSerializer(many=True)}, operation_id="seeks")
    def get(self, request: Request) -> Response:
        rows = selectors.open_seeks(viewer=request_viewer(request))
        return Response([seek_data(row) for row in rows])

    @extend_schema(
        request=SeekInputSerializer,
        responses={201: SeekOutputSerializer},
        operation_id="seek_post",
        extensions=refused_by_the_rules(
            'Give a match "length" in points.',
            '"min_rating" must not be above "max_rating".',
            "A money session needs a stake per point of at least 0.01",
            "You have 5.00 FUN; a 5-point match for 10.00 FUN needs 10.00 FUN.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = self.SeekInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        user = request_user(request)
        money_play = values["kind"] == MatchKind.MONEY
        seek = seeks.seek_post(
            user=user,
            terms=SeekTerms(
                kind=values["kind"],
                length=0 if money_play else values["length"],
                stake_cents=values["stake_cents"],
                currency=values["currency"],
                clock=ClockSettings(**values["clock"]) if "clock" in values else DEFAULT_CLOCK,
                rated=values["rated"],
                min_rating=values.get("min_rating"),
                max_rating=values.get("max_rating"),
            ),
        )
        return Response(own_seek_data(seek, user), status=status.HTTP_201_CREATED)


class SeekDetailApi(Api):
    """Cancel your open seek."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None}, operation_id="seek_cancel")
    def delete(self, request: Request, seek_id: int) -> Response:
        seeks.seek_cancel(seek_id=seek_id, user=request_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeekAcceptApi(Api):
    """Take a seek: the match starts at once (the seek's creator in seat 0)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={201: MatchStateSerializer},
        operation_id="seek_accept",
        extensions=refused_by_the_rules(
            "This is your own seek",
            "This seek is for players rated 1600–1900; your rating is 1500",
            "This seek needs 10.00 FUN; you have 5.00 FUN",
        ),
    )
    def post(self, request: Request, seek_id: int) -> Response:
        user = request_user(request)
        match = seeks.seek_accept(seek_id=seek_id, user=user)
        return Response(match_snapshot(match, viewer=user), status=status.HTTP_201_CREATED)


class PlayNowApi(Api):
    """Start a match to N points in play money or without a stake, never a money session:
    the closest-rated recent seek you may take, else a demo player the computer plays, else
    wait in a seek of your own. ``match`` is the match started, or ``seek`` the seek that
    waits."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "challenge"

    class PlayNowOutputSerializer(serializers.Serializer[dict[str, Any]]):
        match = MatchStateSerializer(allow_null=True)
        seek = SeekOutputSerializer(allow_null=True)

    @extend_schema(
        request=None, responses={200: PlayNowOutputSerializer}, operation_id="seek_play_now"
    )
    def post(self, request: Request) -> Response:
        user = request_user(request)
        found = seeks.play_now(user=user)
        if isinstance(found, Match):
            return Response({"match": match_snapshot(found, viewer=user), "seek": None})
        return Response({"match": None, "seek": own_seek_data(found, user)})
