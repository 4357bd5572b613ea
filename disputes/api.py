"""REST for disputes: file one, list and read them (with evidence for staff), take, decide."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import MAX_AMOUNT_CENTS, Currency, User
from accounts.viewers import request_user
from core.api import Api, refused_by_the_rules
from core.errors import DomainError
from disputes import services
from disputes.models import MATCH_CATEGORIES, Decision, Dispute, DisputeCategory, DisputeState
from disputes.outcome import summary_lines
from disputes.remedies import Adjustment
from disputes.selectors import can_see_evidence, dispute_queue, evidence, is_staff, visible_disputes


class DisputeOutputSerializer(serializers.Serializer[dict[str, Any]]):
    """A dispute; ``evidence`` for staff and the tournament's organizer, else null."""

    id = serializers.IntegerField()
    match = serializers.IntegerField(allow_null=True)
    fairplay_case = serializers.IntegerField(
        allow_null=True, help_text="For an appeal (category appeal): the fair-play case."
    )
    tournament = serializers.IntegerField(allow_null=True)
    filed_by = serializers.CharField()
    category = serializers.CharField()
    description = serializers.CharField()
    state = serializers.CharField()
    assignee = serializers.CharField(allow_null=True)
    decision = serializers.CharField(allow_blank=True)
    decision_label = serializers.CharField(allow_blank=True)
    decision_reason = serializers.CharField(allow_blank=True)
    decided_by = serializers.CharField(allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    outcome = serializers.DictField()
    created_at = serializers.DateTimeField()
    evidence = serializers.DictField(allow_null=True, required=False)


def dispute_data(dispute: Dispute, *, viewer: User, with_evidence: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": dispute.pk,
        "match": dispute.match_id,
        "fairplay_case": dispute.fairplay_case_id,
        "tournament": dispute.tournament_id,
        "filed_by": dispute.filed_by.username,
        "category": dispute.category,
        "description": dispute.description,
        "state": dispute.state,
        "assignee": dispute.assignee.username if dispute.assignee else None,
        "decision": dispute.decision,
        "decision_label": dispute.get_decision_display() if dispute.decision else "",
        "decision_reason": dispute.decision_reason,
        "decided_by": dispute.decided_by.username if dispute.decided_by else None,
        "decided_at": dispute.decided_at,
        # The lines the code wrote, in the reader's language (``disputes.outcome``).
        "outcome": {**dispute.outcome, "summary": summary_lines(dispute.outcome)},
        "created_at": dispute.created_at,
    }
    if with_evidence:
        data["evidence"] = evidence(dispute) if can_see_evidence(viewer, dispute) else None
    return data


def _visible(viewer: User, dispute_id: int) -> Dispute:
    dispute = visible_disputes(viewer=viewer).filter(pk=dispute_id).first()
    if dispute is None:
        raise Http404("No such dispute.")
    return dispute


class DisputeQuerySerializer(serializers.Serializer[dict[str, Any]]):
    state = serializers.ChoiceField(
        choices=[*DisputeState.values, "undecided"],
        required=False,
        help_text="undecided: not decided yet",
    )
    category = serializers.ChoiceField(choices=DisputeCategory.values, required=False)
    tournament = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    age = serializers.ChoiceField(
        choices=["hour", "day", "week"], required=False, help_text="Filed longer ago than this."
    )


class DisputeListCreateApi(Api):
    """List the disputes you may see (staff: all; filters for the queue), or file one."""

    permission_classes = [IsAuthenticated]
    query_serializer = DisputeQuerySerializer

    class DisputeCreateInputSerializer(serializers.Serializer[dict[str, Any]]):
        match = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
        category = serializers.ChoiceField(
            choices=[value for value, label in MATCH_CATEGORIES],
            help_text="An appeal of a fair-play decision is filed from its case.",
        )
        description = serializers.CharField(
            max_length=services.DESCRIPTION_LIMIT,
            error_messages={
                "blank": gettext_lazy("Describe what went wrong: staff read it first.")
            },
        )

    @extend_schema(
        parameters=[DisputeQuerySerializer],
        responses={200: DisputeOutputSerializer(many=True)},
        operation_id="dispute_list",
    )
    def get(self, request: Request) -> Response:
        viewer = request_user(request)
        disputes = dispute_queue(
            viewer=viewer,
            state=self.query.get("state", ""),
            category=self.query.get("category", ""),
            tournament=self.query.get("tournament"),
            age=self.query.get("age", ""),
        )
        return Response(
            [dispute_data(d, viewer=viewer, with_evidence=False) for d in disputes[:500]]
        )

    @extend_schema(
        request=DisputeCreateInputSerializer,
        responses={201: DisputeOutputSerializer},
        operation_id="dispute_create",
    )
    def post(self, request: Request) -> Response:
        data = self.DisputeCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        viewer = request_user(request)
        dispute = services.dispute_file(
            user=viewer,
            match_id=data.validated_data["match"],
            category=data.validated_data["category"],
            description=data.validated_data["description"],
        )
        return Response(
            dispute_data(dispute, viewer=viewer, with_evidence=False),
            status=status.HTTP_201_CREATED,
        )


class DisputeDetailApi(Api):
    """One dispute; staff and the tournament's organizer also get the evidence."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: DisputeOutputSerializer}, operation_id="dispute_detail")
    def get(self, request: Request, dispute_id: int) -> Response:
        viewer = request_user(request)
        return Response(
            dispute_data(_visible(viewer, dispute_id), viewer=viewer, with_evidence=True)
        )


class DisputeAssignApi(Api):
    """Staff: take the dispute."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: DisputeOutputSerializer}, operation_id="dispute_assign"
    )
    def post(self, request: Request, dispute_id: int) -> Response:
        viewer = request_user(request)
        _visible(viewer, dispute_id)
        dispute = services.dispute_assign(dispute_id=dispute_id, staff=viewer)
        return Response(dispute_data(dispute, viewer=viewer, with_evidence=False))


class DisputeAdjustmentInputSerializer(serializers.Serializer[dict[str, Any]]):
    user = serializers.CharField(max_length=150)
    currency = serializers.ChoiceField(choices=Currency.choices)
    amount_cents = serializers.IntegerField(
        min_value=-MAX_AMOUNT_CENTS,
        max_value=MAX_AMOUNT_CENTS,
        help_text="Positive into the wallet, negative out.",
    )


class DisputeDecideApi(Api):
    """Staff: decide the dispute with a reason. ``readjudicate`` takes ``plies`` (3 or 4);
    ``adjust`` takes ``adjustments``: [{"user", "currency", "amount_cents"}]."""

    permission_classes = [IsAuthenticated]

    class DisputeDecideInputSerializer(serializers.Serializer[dict[str, Any]]):
        decision = serializers.ChoiceField(choices=Decision.values)
        reason = serializers.CharField(max_length=2000)
        plies = serializers.IntegerField(required=False, min_value=1, max_value=4)
        adjustments = serializers.ListField(
            child=DisputeAdjustmentInputSerializer(), required=False, max_length=20
        )

    @extend_schema(
        request=DisputeDecideInputSerializer,
        responses={200: DisputeOutputSerializer},
        operation_id="dispute_decide",
        extensions=refused_by_the_rules(
            "Say whose wallet changes, in which currency and by how much.",
            "An adjustment of 0.00 moves nothing; leave it out.",
            "There is no player called zed.",
            "An appeal is decided dismiss (the sanctions stand) or uphold (they are lifted).",
            "Staff cannot adjust their own wallet: another staff member must do it.",
            "erin's FUN balance is 0.00; this needs 5.00.",
        ),
    )
    def post(self, request: Request, dispute_id: int) -> Response:
        viewer = request_user(request)
        _visible(viewer, dispute_id)
        data = self.DisputeDecideInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        dispute = services.dispute_decide(
            dispute_id=dispute_id,
            staff=viewer,
            decision=values["decision"],
            reason=values["reason"],
            plies=values.get("plies"),
            adjustments=adjustments_from(values.get("adjustments", []), staff=viewer),
        )
        return Response(dispute_data(dispute, viewer=viewer, with_evidence=False))


def adjustments_from(rows: list[dict[str, Any]], *, staff: User) -> list[Adjustment]:
    """Turn ``{"user": username, ...}`` rows into adjustments; unknown names are refused."""
    if rows and not is_staff(staff):
        return []
    names = {row["user"] for row in rows}
    users = {user.username: user for user in User.objects.filter(username__in=names)}
    missing = sorted(names - users.keys())
    if missing:
        raise DomainError(_("There is no player called %(name)s.") % {"name": missing[0]})
    return [
        Adjustment(
            user=users[row["user"]], currency=row["currency"], amount_cents=row["amount_cents"]
        )
        for row in rows
    ]
