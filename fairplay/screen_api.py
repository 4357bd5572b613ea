"""REST for staff's engine screen of match files from other sites (:mod:`fairplay.screening`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.viewers import request_user
from core.api import Api, refused_by_the_rules
from core.errors import Forbidden
from fairplay.screening import MAX_SCREEN_FILE_BYTES, MAX_SCREEN_FILES, screen, screen_upload
from fairplay.selectors import is_fairplay_staff


class ScreenInputSerializer(serializers.Serializer[dict[str, Any]]):
    files = serializers.ListField(
        child=serializers.FileField(allow_empty_file=True),
        help_text=(
            f"Up to {MAX_SCREEN_FILES} match files (any format an upload takes) of at most "
            f"{MAX_SCREEN_FILE_BYTES // 1024} KB each, in the order they were played."
        ),
    )


class ScreenPlayerSerializer(serializers.Serializer[dict[str, Any]]):
    player = serializers.CharField(help_text="The name the files write, compared without case.")
    matches = serializers.IntegerField()
    files = serializers.ListField(child=serializers.CharField())
    decisions = serializers.IntegerField(help_text="What the PR divides by.")
    checker_plays = serializers.IntegerField(help_text="Unforced checker plays.")
    agreement = serializers.FloatField(
        allow_null=True, help_text="Share of unforced checker plays that were the engine's best."
    )
    pr = serializers.FloatField(allow_null=True)
    flagged = serializers.BooleanField(
        help_text="Whether the live detector would have opened a case after any of the matches."
    )
    windows = serializers.IntegerField()
    windows_assessed = serializers.IntegerField()
    windows_flagged = serializers.IntegerField()
    lowest_z = serializers.FloatField(allow_null=True)
    signs = serializers.ListField(child=serializers.CharField())
    rating = serializers.FloatField(help_text="A newcomer's rating: the files carry none.")
    fit = serializers.DictField()
    thresholds = serializers.DictField()


class ScreenFileSerializer(serializers.Serializer[dict[str, Any]]):
    file = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    refused = serializers.CharField(allow_blank=True)


class ScreenOutputSerializer(serializers.Serializer[dict[str, Any]]):
    files = ScreenFileSerializer(many=True)
    players = ScreenPlayerSerializer(many=True)


class ScreenApi(Api):
    """Staff: analyse match files from any site at the server's depth and judge each player
    in them with the live engine-assistance detector. The files are analysed before the
    answer (a few seconds to a minute or two each); nothing is kept."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": ScreenInputSerializer},
        responses={200: ScreenOutputSerializer},
        operation_id="fairplay_screen",
        extensions=refused_by_the_rules(
            'Send one match file or more in the multipart field "files".',
            f"Send {MAX_SCREEN_FILES} files at most; these are 21.",
            "b.mat: This .mat file cannot be read: line 17: a play is not legal here",
            "b.doc: This is not a match file this site reads: it is none of Jellyfish .mat, ...",
            f"b.mat: The file is larger than {MAX_SCREEN_FILE_BYTES // 1024} KB.",
        ),
    )
    def post(self, request: Request) -> Response:
        if not is_fairplay_staff(request_user(request)):
            raise Forbidden(_("Only staff screen match files."))
        uploads = request.FILES.getlist("files")
        screened = screen_upload([(upload.name or "", upload.read()) for upload in uploads])
        return Response(
            {
                "files": [file.to_dict() for file in screened],
                "players": [player.to_dict() for player in screen(screened)],
            }
        )
