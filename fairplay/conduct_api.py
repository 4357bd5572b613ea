"""REST for conduct: mute or block a player (and lift it), list whom you muted or
blocked, and report a chat line to staff (``fairplay.conduct``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import Block, BlockKind
from accounts.viewers import request_user
from core.api import Api, JsonCharField, refused_by_the_rules
from fairplay import conduct


class BlockOutputSerializer(serializers.Serializer[dict[str, Any]]):
    player = serializers.CharField(help_text="The username of the player muted or blocked.")
    name = serializers.CharField(help_text="Their display name.")
    kind = serializers.ChoiceField(
        choices=BlockKind.choices,
        help_text="mute: you do not see their chat; block: also no challenges, seeks or chat "
        "between you either way.",
    )
    since = serializers.DateTimeField()


def block_data(block: Block) -> dict[str, Any]:
    return {
        "player": block.other.username,
        "name": block.other.profile.display_name,
        "kind": block.kind,
        "since": block.created_at,
    }


class PlayerBlockApi(Api):
    """``POST``: mute or block the player (a block replaces a mute, and the other way);
    201 when new, 200 when changed. ``DELETE``: lift it (404 when there is none)."""

    permission_classes = [IsAuthenticated]

    class BlockInputSerializer(serializers.Serializer[dict[str, Any]]):
        kind = serializers.ChoiceField(choices=BlockKind.choices)

    @extend_schema(
        request=BlockInputSerializer,
        responses={200: BlockOutputSerializer, 201: BlockOutputSerializer},
        operation_id="player_block",
        extensions=refused_by_the_rules("You cannot mute or block yourself."),
    )
    def post(self, request: Request, username: str) -> Response:
        data = self.BlockInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        block, new = conduct.block(
            owner=request_user(request), username=username, kind=data.validated_data["kind"]
        )
        return Response(
            block_data(block), status=status.HTTP_201_CREATED if new else status.HTTP_200_OK
        )

    @extend_schema(request=None, responses={204: None}, operation_id="player_unblock")
    def delete(self, request: Request, username: str) -> Response:
        conduct.unblock(owner=request_user(request), username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MyBlocksApi(Api):
    """The players you muted or blocked, the latest first."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: BlockOutputSerializer(many=True)}, operation_id="my_blocks")
    def get(self, request: Request) -> Response:
        return Response([block_data(b) for b in conduct.blocks_of(owner=request_user(request))])


class ChatReportOutputSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    message = serializers.IntegerField(help_text="The chat line reported.")
    note = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    detail = serializers.CharField(help_text="What happens next, in a sentence.")


class ChatReportApi(Api):
    """Report a chat line you could read (as a player of the match, or a spectator for
    the spectators' room) to staff, with an optional ``note``. Staff see it with the
    conversation around it. Your own lines cannot be reported, and each line once (409)."""

    permission_classes = [IsAuthenticated]

    class ChatReportInputSerializer(serializers.Serializer[dict[str, Any]]):
        note = JsonCharField(
            max_length=conduct.NOTE_LIMIT,
            required=False,
            allow_blank=True,
            help_text="What was wrong with it, if the line does not say.",
        )

    @extend_schema(
        request=ChatReportInputSerializer,
        responses={201: ChatReportOutputSerializer},
        operation_id="chat_report",
        extensions=refused_by_the_rules("You cannot report your own message."),
    )
    def post(self, request: Request, message_id: int) -> Response:
        data = self.ChatReportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        report = conduct.chat_report(
            message_id=message_id,
            reporter=request_user(request),
            note=data.validated_data.get("note", ""),
        )
        return Response(
            {
                "id": report.pk,
                "message": report.message_id,
                "note": report.note,
                "created_at": report.created_at,
                "detail": "Reported: staff will read the line with the conversation around it.",
            },
            status=status.HTTP_201_CREATED,
        )
