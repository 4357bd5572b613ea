"""REST for a match's chat: read the lines you may see, and say one.

A player of the match talks in the players' room, anyone else who may watch it in the
spectators'. The rules are ``matches.chat``'s, as over the match socket: a line sent too
fast is answered 429 with ``Retry-After``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.viewers import request_user, request_viewer
from core.api import Api, JsonCharField, refused_by_the_rules
from core.errors import NotFound
from matches.chat import MAX_LENGTH, REFUSED_WORD, ChatTooFast, chat_line, chat_recent, chat_send
from matches.models import ChatRoom, Match
from matches.selectors import visible_matches


class ChatLineSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField(help_text="Report it at /api/chat/<id>/report/.")
    room = serializers.ChoiceField(choices=ChatRoom.choices)
    author = serializers.CharField(help_text="The author's username.")
    name = serializers.CharField(help_text="The author's display name.")
    text = serializers.CharField()
    at = serializers.DateTimeField()


def _visible(request: Request, match_id: int) -> Match:
    match = visible_matches(user=request_viewer(request)).filter(pk=match_id).first()
    if match is None:
        raise NotFound(_("There is no such match, or it is private"))
    return match


class MatchChatApi(Api):
    """``GET``: the last 50 lines of the room you are in, oldest first, without those of
    players you muted or blocked or who blocked you. ``POST``: say ``text`` there (log in
    first); refused while you are muted, to an opponent either of you blocked, with a word
    the site does not allow, or past the chat rate (429)."""

    permission_classes = [AllowAny]

    class ChatInputSerializer(serializers.Serializer[dict[str, Any]]):
        text = JsonCharField(max_length=MAX_LENGTH)

    @extend_schema(responses={200: ChatLineSerializer(many=True)}, operation_id="match_chat")
    def get(self, request: Request, match_id: int) -> Response:
        viewer = request_viewer(request)
        match = _visible(request, match_id)
        lines = chat_recent(
            match_id=match.pk,
            players_room=match.seat_of(viewer) is not None,
            viewer_id=viewer.pk if viewer is not None else None,
        )
        return Response(lines)

    @extend_schema(
        request=ChatInputSerializer,
        responses={201: ChatLineSerializer},
        operation_id="match_chat_send",
        extensions=refused_by_the_rules(str(REFUSED_WORD)),
    )
    def post(self, request: Request, match_id: int) -> Response:
        if not request.user.is_authenticated:
            self.permission_denied(request, message="Log in to chat")
        author = request_user(request)
        data = self.ChatInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = _visible(request, match_id)
        try:
            line = chat_send(
                match_id=match.pk,
                author=author,
                seat=match.seat_of(author),
                text=data.validated_data["text"],
            )
        except ChatTooFast as refusal:
            return Response(
                {"detail": str(refusal)},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(refusal.wait)},
            )
        return Response(chat_line(line, author=author), status=status.HTTP_201_CREATED)
