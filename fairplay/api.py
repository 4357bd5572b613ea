"""REST for fair play: staff read the case queue and decide cases; a player appeals."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from accounts.viewers import request_user
from core.api import Api, refused_by_the_rules
from core.errors import DomainError, Forbidden, NotFound
from fairplay import appeals, sanctions
from fairplay.models import Case, CaseKind, CaseState, SanctionKind
from fairplay.selectors import case_data, case_queue, is_fairplay_staff

ORDER_KINDS = [kind for kind in SanctionKind.values if kind != SanctionKind.LIFT]


class CaseOutputSerializer(serializers.Serializer[dict[str, Any]]):
    """A fair-play case; ``evidence`` and ``log`` for staff only."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=CaseKind.choices)
    kind_label = serializers.CharField()
    subject = serializers.CharField()
    others = serializers.ListField(child=serializers.CharField())
    summary = serializers.CharField()
    state = serializers.ChoiceField(choices=CaseState.choices)
    assignee = serializers.CharField(allow_null=True)
    decision = serializers.CharField(allow_blank=True)
    decision_reason = serializers.CharField(allow_blank=True)
    decided_by = serializers.CharField(allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    appeal = serializers.CharField(allow_blank=True)
    appealed_at = serializers.DateTimeField(allow_null=True)
    appeal_dispute = serializers.IntegerField(
        allow_null=True, help_text="The dispute the appeal was filed as (GET /api/disputes/<id>/)."
    )
    opened_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    sanctions = serializers.ListField(child=serializers.DictField())
    evidence = serializers.DictField(required=False)
    log = serializers.ListField(child=serializers.DictField(), required=False)


class CaseQuerySerializer(serializers.Serializer[dict[str, Any]]):
    state = serializers.ChoiceField(
        choices=[*CaseState.values, "undecided"], required=False, help_text="undecided: not decided"
    )
    kind = serializers.ChoiceField(choices=CaseKind.values, required=False)
    subject = serializers.CharField(max_length=150, required=False, help_text="A username.")
    age = serializers.ChoiceField(
        choices=["hour", "day", "week"], required=False, help_text="Opened longer ago than this."
    )


def _staff(request: Request) -> User:
    viewer = request_user(request)
    if not is_fairplay_staff(viewer):
        raise Forbidden(_("Only staff handle fair-play cases."))
    return viewer


def _case(case_id: int) -> Case:
    case = (
        Case.objects.select_related("subject", "assignee", "decided_by").filter(pk=case_id).first()
    )
    if case is None:
        raise NotFound(_("No such case."))
    return case


class CaseListApi(Api):
    """Staff: the fair-play queue, oldest first, with filters."""

    permission_classes = [IsAuthenticated]
    query_serializer = CaseQuerySerializer

    @extend_schema(
        parameters=[CaseQuerySerializer],
        responses={200: CaseOutputSerializer(many=True)},
        operation_id="fairplay_case_list",
    )
    def get(self, request: Request) -> Response:
        _staff(request)
        cases = case_queue(
            state=self.query.get("state", ""),
            kind=self.query.get("kind", ""),
            subject=self.query.get("subject", ""),
            age=self.query.get("age", ""),
        )
        return Response([case_data(case, with_evidence=False) for case in cases[:500]])


class CaseDetailApi(Api):
    """One case: staff see its evidence and log; its subject sees a decided case about them."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: CaseOutputSerializer}, operation_id="fairplay_case_detail")
    def get(self, request: Request, case_id: int) -> Response:
        viewer = request_user(request)
        case = _case(case_id)
        if is_fairplay_staff(viewer):
            return Response(case_data(case, with_evidence=True))
        if case.subject_id == viewer.pk and case.state in (CaseState.DECIDED, CaseState.APPEALED):
            return Response(case_data(case, with_evidence=False))
        raise NotFound(_("No such case."))


class CaseAssignApi(Api):
    """Staff: take the case."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: CaseOutputSerializer}, operation_id="fairplay_case_assign"
    )
    def post(self, request: Request, case_id: int) -> Response:
        case = sanctions.case_assign(case_id=case_id, staff=_staff(request))
        return Response(case_data(case, with_evidence=False))


class OrderInputSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.ChoiceField(choices=ORDER_KINDS)
    user = serializers.CharField(
        max_length=150, required=False, help_text="A username in the case; the subject if left out."
    )
    until = serializers.DateTimeField(required=False, help_text="For mute and suspend.")


class CaseDecideApi(Api):
    """Staff: decide with a reason. ``dismiss``, or ``sanction`` with ``sanctions``:
    [{"kind": warn|mute|suspend|close|reverse|void_ratings|link, "user", "until"}]. An
    appeal is a dispute, decided at ``POST /api/disputes/<id>/decide/``."""

    permission_classes = [IsAuthenticated]

    class CaseDecideInputSerializer(serializers.Serializer[dict[str, Any]]):
        decision = serializers.ChoiceField(choices=list(sanctions.Decision.ALL))
        reason = serializers.CharField(max_length=sanctions.REASON_LIMIT)
        sanctions = serializers.ListField(
            child=OrderInputSerializer(), required=False, max_length=10
        )

    @extend_schema(
        request=CaseDecideInputSerializer,
        responses={200: CaseOutputSerializer},
        operation_id="fairplay_case_decide",
        extensions=refused_by_the_rules(
            "Choose at least one sanction, or dismiss the case.",
            "A dismissed case carries no sanction.",
            "A suspended sanction needs a date in the future.",
            "bruno is not in this case.",
            "There is no player called 'zed'.",
            "This case names no matches, so there is no money to move back.",
            "No money moved between these players in the case's matches.",
        ),
    )
    def post(self, request: Request, case_id: int) -> Response:
        staff = _staff(request)
        _case(case_id)  # a case that is not there is a 404 whatever the body says
        data = self.CaseDecideInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        case = sanctions.case_decide(
            case_id=case_id,
            staff=staff,
            decision=values["decision"],
            reason=values["reason"],
            orders=orders_from(values.get("sanctions", [])),
        )
        return Response(case_data(case, with_evidence=False))


def orders_from(rows: list[dict[str, Any]]) -> list[sanctions.Order]:
    """Sanction rows with usernames as orders; an unknown name is refused."""
    orders = []
    for row in rows:
        user = None
        if row.get("user"):
            user = User.objects.filter(username=row["user"]).first()
            if user is None:
                raise DomainError(_("There is no player called %(name)r.") % {"name": row["user"]})
        orders.append(sanctions.Order(kind=row["kind"], user=user, until=row.get("until")))
    return orders


class CaseAppealApi(Api):
    """The case's subject appeals a decided sanction, once, with their reasons. The appeal
    is filed as a dispute (``appeal_dispute``); staff decide it in the disputes queue:
    ``uphold`` lifts the mute, suspension and closure, ``dismiss`` leaves them."""

    permission_classes = [IsAuthenticated]

    class CaseAppealInputSerializer(serializers.Serializer[dict[str, Any]]):
        text = serializers.CharField(
            max_length=sanctions.REASON_LIMIT,
            error_messages={"blank": "Say why the decision is wrong: staff read it first."},
        )

    @extend_schema(
        request=CaseAppealInputSerializer,
        responses={200: CaseOutputSerializer},
        operation_id="fairplay_case_appeal",
    )
    def post(self, request: Request, case_id: int) -> Response:
        data = self.CaseAppealInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        case = appeals.case_appeal(
            case_id=case_id, user=request_user(request), text=data.validated_data["text"]
        )
        return Response(case_data(case, with_evidence=False))
