"""REST for divisions and side events: an organizer adds one beside a main event."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.viewers import request_user
from core.api import Api, refused_by_the_rules
from tournaments.api import invalid, settings_from, tournament_data
from tournaments.divisions import services
from tournaments.divisions.serializers import SideEventFields
from tournaments.errors import TournamentInvalid
from tournaments.models import SideKind
from tournaments.serializers import TournamentEditInputSerializer, TournamentOutputSerializer


class SideEventInputSerializer(TournamentEditInputSerializer, SideEventFields):
    """Any settings that differ from the main event's and the kind's preset (a division
    takes its name in ``division``), and a jackpot's paid places."""


class SideEventCreateApi(Api):
    """Add a division, a jackpot or a blitz beside a main event (its organizer): a draft
    tournament of its own, from the main event's settings and the kind's preset (a jackpot:
    a knockout of 8 at twice the buy-in, all to the winner or 70/30 to the top two; a blitz:
    3-point matches on a delay clock of 8 s a move and 60 s a point), with the settings
    given. Open it with ``/open/``."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "kind",
                str,
                OpenApiParameter.PATH,
                enum=SideKind.values,
                description="What to add: a division, a jackpot or a blitz.",
            )
        ],
        request=SideEventInputSerializer,
        responses={201: TournamentOutputSerializer},
        operation_id="tournament_side_event_create",
        extensions=refused_by_the_rules(
            "division: Name the division, e.g. Novice.",
            "division: Spring Open has a Novice division already.",
            "max_rating: The highest rating to enter (1400) is below the lowest (1600).",
        ),
    )
    def post(self, request: Request, tournament_id: int, kind: str) -> Response:
        data = SideEventInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        places = values.pop("places", None)
        user = request_user(request)
        try:
            side = services.side_event_create(
                main_id=tournament_id,
                user=user,
                kind=kind,
                changes=settings_from(values),
                places=None if places is None else int(places),
            )
        except TournamentInvalid as error:
            return invalid(error)
        return Response(tournament_data(side.pk, user), status=status.HTTP_201_CREATED)
