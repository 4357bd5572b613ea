"""REST for the match analysis: a match's analysis, and the player's own uploads."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.viewers import request_user, request_viewer
from analysis.cube_decisions import CUBE_OPTIONS, CubeVerdict
from core.api import Api, refused_by_the_rules
from core.errors import Conflict, DomainError, Forbidden, NotFound, NotInstalled
from matches.engine import analysis_status
from matches.models import MatchStatus
from matches.selectors import visible_matches
from reviews.models import AnalysisStatus
from reviews.selectors import analysis_data, analysis_summary, library, visible_analyses
from reviews.services import analysis_for_match, analysis_upload

STATUSES = [choice.value for choice in AnalysisStatus]


class FiguresSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField(help_text="The player (the file's name for an upload).")
    pr = serializers.FloatField(
        allow_null=True, help_text="Performance rating: 500 × EMG lost per decision."
    )
    error_rate = serializers.FloatField(allow_null=True, help_text="mEMG lost per decision.")
    checker_error_rate = serializers.FloatField(allow_null=True)
    cube_error_rate = serializers.FloatField(allow_null=True)
    error = serializers.FloatField(help_text="EMG lost in all.")
    checker_error = serializers.FloatField()
    cube_error = serializers.FloatField()
    luck = serializers.FloatField(help_text="EMG the dice gave, against the average roll.")
    luck_rate = serializers.FloatField(allow_null=True, help_text="mEMG per move.")
    decisions = serializers.IntegerField(help_text="Unforced moves and close cube decisions.")
    unforced = serializers.IntegerField()
    moves = serializers.IntegerField()
    cube_decisions = serializers.IntegerField(help_text="Close cube decisions.")
    very_bad = serializers.IntegerField()
    bad = serializers.IntegerField()
    doubtful = serializers.IntegerField()
    rating = serializers.CharField(allow_null=True, help_text='GNU Backgammon\'s words: "Expert"')
    checker_rating = serializers.CharField(allow_null=True)
    cube_rating = serializers.CharField(allow_null=True)
    luck_rating = serializers.CharField(allow_null=True)


class GameSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    score = serializers.ListField(child=serializers.IntegerField(), help_text="Before the game.")
    crawford = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True, help_text="0 or 1; null if unfinished.")
    points = serializers.IntegerField()
    resigned = serializers.BooleanField()
    players = FiguresSerializer(many=True, allow_null=True)


class CandidateSerializer(serializers.Serializer[dict[str, Any]]):
    move = serializers.CharField()
    equity = serializers.FloatField(help_text="EMG, for the player on roll.")
    mwc = serializers.FloatField(allow_null=True, help_text="Match winning chance (0 to 1).")


class CubeOptionSerializer(serializers.Serializer[dict[str, Any]]):
    action = serializers.ChoiceField(
        choices=list(CUBE_OPTIONS), help_text="A redouble when the cube was the doubler's."
    )
    equity = serializers.FloatField(help_text="The doubler's cubeful equity, EMG (1-cube).")
    diff = serializers.FloatField(
        help_text="Equity less the proper action's: 0 for it, below 0 for a worse choice of"
        " the doubler, above 0 where the opponent's wrong answer would gain the doubler."
    )
    mwc = serializers.FloatField(
        allow_null=True, help_text="Match play: the doubler's match winning chance (0 to 1)."
    )
    diff_mwc = serializers.FloatField(
        allow_null=True, help_text="Match play: MWC less the proper action's (0.01 is 1 %)."
    )
    played = serializers.BooleanField(
        help_text="The player's action chose it: a double both double rows, a take or"
        " beaver the take, a drop the pass, a no double the no double."
    )


class CubeSerializer(serializers.Serializer[dict[str, Any]]):
    verdict = serializers.ChoiceField(
        choices=[verdict.value for verdict in CubeVerdict],
        help_text='The proper cube action in GNU Backgammon\'s words: "Double, take",'
        ' "Too good to double, pass", "No redouble, beaver"...',
    )
    too_good = serializers.BooleanField(
        help_text="Too good to double: playing on for the gammon beats cashing."
    )
    centred = serializers.BooleanField(help_text="False: the cube was the doubler's (redouble).")
    options = CubeOptionSerializer(
        many=True, help_text="No double, double/take, double/pass, from the doubler's view."
    )


class DecisionSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    number = serializers.IntegerField()
    player = serializers.CharField()
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["checker", "cube"])
    action = serializers.CharField(help_text="move, no double, double, take, drop or beaver.")
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    position_id = serializers.CharField()
    match_id = serializers.CharField()
    played = serializers.CharField()
    best = serializers.CharField(
        help_text="The best play; for a cube decision no double, too good (not doubling, to"
        " play on for the gammon), double, take, beaver or drop."
    )
    error = serializers.FloatField(help_text="EMG given up against the best choice.")
    error_mwc = serializers.FloatField(allow_null=True, help_text="Match play: MWC given up.")
    mark = serializers.ChoiceField(choices=["doubtful", "bad", "very bad"], allow_null=True)
    forced = serializers.BooleanField()
    luck = serializers.FloatField(allow_null=True)
    luck_mark = serializers.CharField(allow_null=True)
    candidates = CandidateSerializer(many=True)
    cube = CubeSerializer(
        allow_null=True,
        help_text="A cube decision's equities and proper action (null for a checker play,"
        " and for analyses made before they were kept).",
    )


class CoursePointSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    number = serializers.IntegerField()
    value = serializers.FloatField(
        help_text="For the first player: equity (money) or match winning chance."
    )


class ProgressSerializer(serializers.Serializer[dict[str, Any]]):
    done = serializers.IntegerField()
    total = serializers.IntegerField()


class SettingsSerializer(serializers.Serializer[dict[str, Any]]):
    engine = serializers.CharField()
    plies = serializers.IntegerField()
    cubeful = serializers.BooleanField()
    checker_play = serializers.CharField()
    cube_decisions = serializers.CharField()


class AnalysisSummarySerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=STATUSES)
    origin = serializers.ChoiceField(choices=["played", "uploaded"])
    match = serializers.IntegerField(allow_null=True, help_text="The match played here.")
    filename = serializers.CharField(allow_blank=True)
    format = serializers.CharField(
        allow_null=True,
        help_text="The uploaded file's format, told by its content: mat, sgf, sgg or tmg"
        " (null for a match played here).",
    )
    format_name = serializers.CharField(
        allow_null=True, help_text='As players know it: "GamesGrid .sgg".'
    )
    names = serializers.ListField(child=serializers.CharField())
    length = serializers.IntegerField(help_text="0: money play.")
    settings = SettingsSerializer()
    progress = ProgressSerializer(help_text="Actions analysed of all the match's actions.")
    error = serializers.CharField(allow_null=True, help_text="Why it failed.")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    players = FiguresSerializer(many=True)


class AnalysisSerializer(AnalysisSummarySerializer):
    games = GameSerializer(many=True)
    decisions = DecisionSerializer(many=True)
    course = CoursePointSerializer(many=True)


class UploadSerializer(serializers.Serializer[dict[str, Any]]):
    # An empty file is refused by the reader, in the same words as any unreadable one.
    file = serializers.FileField(
        allow_empty_file=True,
        help_text="A match file (at most 512 KB): .mat, or GNU Backgammon's .sgf, GamesGrid's"
        " .sgg or TrueMoneyGames' .tmg, which GNU Backgammon reads. The format is told by the"
        " content, the name's extension breaking a tie.",
    )


def _analysis_installed() -> None:
    found = analysis_status()
    if not found.available:
        raise NotInstalled(_("Analysis is unavailable here: %(reason)s") % {"reason": found.reason})


class MatchAnalysisApi(Api):
    """The analysis of a finished match: queued, running, done or failed."""

    def get_permissions(self) -> list[BasePermission]:
        return [IsAuthenticated() if self.request.method == "POST" else AllowAny()]

    @extend_schema(responses={200: AnalysisSerializer}, operation_id="match_analysis")
    def get(self, request: Request, match_id: int) -> Response:
        user = request_viewer(request)
        get_object_or_404(visible_matches(user=user), pk=match_id)
        analysis = visible_analyses(user=user).filter(match_id=match_id).first()
        if analysis is None:
            raise NotFound(
                _("This match has not been analysed: it is not finished, or no game was played")
            )
        return Response(analysis_data(analysis))

    @extend_schema(
        request=None, responses={202: AnalysisSerializer}, operation_id="match_analysis_request"
    )
    def post(self, request: Request, match_id: int) -> Response:
        """Ask for the analysis of a finished match that has none (one from before
        analysis was turned on); a match already analysed or queued is answered as it is."""
        user = request_user(request)
        match = get_object_or_404(visible_matches(user=user), pk=match_id)
        if match.seat_of(user) is None and not user.is_staff:
            raise Forbidden(_("Only the match's players and staff may ask for its analysis"))
        if match.status != MatchStatus.FINISHED:
            raise Conflict(_("The match is not finished: it is analysed once it is"))
        _analysis_installed()
        analysis = analysis_for_match(match.pk)
        if analysis is None:
            raise Conflict(_("No game of this match was played, so there is nothing to analyse"))
        return Response(analysis_data(analysis), status=status.HTTP_202_ACCEPTED)


class AnalysisListApi(Api):
    """The player's library of uploaded matches; a new upload (multipart, field ``file``)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(responses={200: AnalysisSummarySerializer(many=True)}, operation_id="analyses")
    def get(self, request: Request) -> Response:
        return Response([analysis_summary(a) for a in library(user=request_user(request))])

    @extend_schema(
        request={"multipart/form-data": UploadSerializer},
        responses={201: AnalysisSummarySerializer},
        operation_id="analysis_upload",
        extensions=refused_by_the_rules(
            "This .mat file cannot be read: line 2: a match is 64 points at most (the longest"
            " GNU Backgammon analyses), not 99999999",
            "This .sgg file cannot be read: GNU Backgammon says: club.sgg: not a valid SGG file",
            "This .txt file cannot be read: a Snowie .txt file holds one position, not a match:"
            " export the match from Snowie as a .mat file",
            "This is not a match file this site reads: it is none of Jellyfish .mat, GNU"
            " Backgammon .sgf, GamesGrid .sgg, TrueMoneyGames .tmg.",
            "The file is larger than 512 KB.",
        ),
    )
    def post(self, request: Request) -> Response:
        upload = request.FILES.get("file")
        if upload is None:  # also an empty file: the multipart parser drops it
            raise DomainError(_('Send the match file, not empty, in the multipart field "file".'))
        _analysis_installed()
        analysis = analysis_upload(
            owner=request_user(request), filename=upload.name or "", content=upload.read()
        )
        return Response(analysis_summary(analysis), status=status.HTTP_201_CREATED)


class AnalysisDetailApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: AnalysisSerializer}, operation_id="analysis_detail")
    def get(self, request: Request, analysis_id: int) -> Response:
        analysis = visible_analyses(user=request_viewer(request)).filter(pk=analysis_id).first()
        if analysis is None:
            raise NotFound(_("There is no such analysis, or it is not yours"))
        return Response(analysis_data(analysis))
