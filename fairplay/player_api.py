"""REST for a player's own standing: what they may do now, and self-exclusion."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import Currency, User
from accounts.standing import SELF_EXCLUSION_DAYS, self_exclude, standing_now
from accounts.viewers import request_user
from core.api import Api

RESTRICTIONS = ["closed", "suspended", "cooldown", "muted", "self_excluded"]
ACTIONS = ["play", "seek", "register", "withdraw", "chat"]


class RestrictionSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.ChoiceField(
        choices=RESTRICTIONS,
        help_text="closed: for good; suspended, muted: by staff; cooldown: after abandoned "
        "matches; self_excluded: the player's own bar on real money.",
    )
    until = serializers.DateTimeField(allow_null=True, help_text="None: no end (closed).")
    reason = serializers.CharField(allow_blank=True)
    refuses = serializers.CharField(help_text="What it keeps the player from, in words.")


class PermissionSerializer(serializers.Serializer[dict[str, Any]]):
    action = serializers.ChoiceField(choices=ACTIONS)
    currency = serializers.ChoiceField(
        choices=Currency.choices, allow_null=True, help_text="None: not about a currency."
    )
    allowed = serializers.BooleanField()
    why = serializers.CharField(
        allow_blank=True, help_text="Why not, as the refusal would say it; empty when allowed."
    )


class StandingOutputSerializer(serializers.Serializer[dict[str, Any]]):
    restrictions = RestrictionSerializer(many=True, help_text="Those in force now.")
    permissions = PermissionSerializer(many=True)
    barred_region = serializers.CharField(
        allow_null=True,
        help_text="The country, declared or logged in from, where real-money play is barred.",
    )
    self_excluded_until = serializers.DateTimeField(allow_null=True)
    self_exclusion_days = serializers.ListField(
        child=serializers.IntegerField(), help_text="The periods a self-exclusion may take."
    )


def _standing_data(user: User) -> dict[str, object]:
    summary = asdict(standing_now(user))
    data = {**summary, "self_exclusion_days": list(SELF_EXCLUSION_DAYS)}
    return dict(StandingOutputSerializer(data).data)


class MyStandingApi(Api):
    """What the caller may do now: each check the services make (play, seek and register
    per currency, withdraw, chat) answered with the refusal's words, the restrictions in
    force with their dates and reasons, and any barred region or self-exclusion."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: StandingOutputSerializer}, operation_id="my_standing")
    def get(self, request: Request) -> Response:
        return Response(_standing_data(request_user(request)))


class SelfExclusionApi(Api):
    """Bar your own real-money play, seeks and buy-ins for ``days``; play money stays open.

    It cannot be shortened: a shorter period than the one in force changes nothing, a
    longer one replaces it. Answers with the caller's standing.
    """

    permission_classes = [IsAuthenticated]

    class SelfExclusionInputSerializer(serializers.Serializer[dict[str, Any]]):
        days = serializers.ChoiceField(
            choices=SELF_EXCLUSION_DAYS,
            error_messages={
                "invalid_choice": format_lazy(
                    _("Choose a self-exclusion of {days} days."),
                    days=", ".join(str(days) for days in SELF_EXCLUSION_DAYS),
                )
            },
        )

    @extend_schema(
        request=SelfExclusionInputSerializer,
        responses={200: StandingOutputSerializer},
        operation_id="my_self_exclusion",
    )
    def post(self, request: Request) -> Response:
        data = self.SelfExclusionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request_user(request)
        self_exclude(user=user, days=int(data.validated_data["days"]))
        return Response(_standing_data(user))
