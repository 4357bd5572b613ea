"""Engine assistance: a player whose analysed matches no human of their rating plays.

After every analysis of a match played here (not against the computer, not pass and play),
each of its two players' *window* is read: their last ``ENGINE_WINDOW`` analysed matches.
Once it holds ``ENGINE_MIN_DECISIONS`` decisions, it opens (or adds to) the case
``engine:<player>`` when

* its PR lies ``ENGINE_Z`` standard deviations or more below what the platform's own
  players of that rating play (:func:`pr_fit`, shown to staff in the evidence), or
* ``ENGINE_AGREEMENT`` of its unforced checker plays or more were GNU Backgammon's best.

Near-constant think times are written into the evidence and the summary as a further
sign; they never open a case alone (a player may simply be quick and steady).

The rating a window is measured against is the one the player had before its first
rated match: the results the window itself won cannot raise the bar it is judged by. The
arithmetic and its assumptions are in :mod:`fairplay.detectors.engine_fit`; this module reads the
rows and writes the case, and scanning the same analysis again finds the same case.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from django.conf import settings
from django.db.models import OuterRef, Q, Subquery

from accounts.models import PerformanceRecord, RatingChange, User
from fairplay.cases import case_report
from fairplay.detectors.engine_fit import (
    NO_THINK_TIMES,
    FitPoint,
    MatchFigures,
    PrFit,
    ThinkTimes,
    Thresholds,
    Window,
    figures_of,
    pr_fit_of,
    think_times_of,
)
from fairplay.models import CaseKind
from matches.models import Action, ActionKind, Match
from reviews.models import Analysis, AnalysisSource, AnalysisStatus

FIT_RECORDS = 5000
"""The most recent (player, match) figures the fit reads: enough for a steady line, few
enough to fit again at every analysis."""


def scan_analysis(analysis_id: int) -> list[Window]:
    """Judge both players' windows after ``analysis_id``; open or add to a case for each
    window flagged. Returns the windows judged (none for a match that does not count)."""
    analysis = (
        Analysis.objects.select_related("match__player_0", "match__player_1")
        .defer("mat")
        .get(pk=analysis_id)
    )
    match = analysis.match
    if match is None or analysis.status != AnalysisStatus.DONE or not _counts(match):
        return []
    fit = pr_fit()
    windows = []
    for user in (match.player_0, match.player_1):
        window = engine_window(user, fit=fit)
        if window is None:
            continue
        windows.append(window)
        if window.flagged:
            case_report(
                kind=CaseKind.ENGINE,
                subject=user,
                key=f"engine:{user.pk}",
                summary=window.summary(user.username),
                evidence=window.evidence(),
            )
    return windows


def pr_fit() -> PrFit:
    """PR against rating over the platform's last :data:`FIT_RECORDS` analysed (player,
    match) figures, each at the rating the player had before that match (their rating now
    for an unrated one); what staff are shown next to every engine case."""
    rating_before = RatingChange.objects.filter(
        user_id=OuterRef("user_id"), match_id=OuterRef("match_id")
    ).values("rating_before")[:1]
    rows = (
        PerformanceRecord.objects.filter(decisions__gt=0)
        .annotate(rating_then=Subquery(rating_before))
        .order_by("-played_at", "-pk")
        .values_list("user_id", "error", "decisions", "rating_then", "user__profile__rating")
    )[:FIT_RECORDS]
    return pr_fit_of(
        [
            FitPoint(
                player=user_id,
                rating=then if then is not None else now,
                error=error,
                decisions=decisions,
            )
            for user_id, error, decisions, then, now in rows
        ]
    )


def engine_window(user: User, *, fit: PrFit | None = None) -> Window | None:
    """``user``'s window as it stands, judged; None before their first analysed match."""
    limits = settings.FAIRPLAY
    analyses = list(
        Analysis.objects.filter(
            Q(match__player_0=user) | Q(match__player_1=user),
            source=AnalysisSource.PLAYED,
            status=AnalysisStatus.DONE,
            match__pass_and_play=False,
            match__engine_strength="",
        )
        .select_related("match__player_0", "match__player_1")
        .defer("mat")
        .order_by("-match__finished_at", "-pk")[: int(limits["ENGINE_WINDOW"])]
    )
    if not analyses:
        return None
    analyses.reverse()
    seats = {_match_id(analysis): _seat(analysis, user) for analysis in analyses}
    matches = tuple(_figures(analysis, seats[_match_id(analysis)]) for analysis in analyses)
    return judged_window(
        matches,
        rating=_rating_before(user, [m.match_id for m in matches]),
        fit=fit or pr_fit(),
        think=_think_times(analyses, seats),
    )


def judged_window(
    matches: Sequence[MatchFigures],
    *,
    rating: float,
    fit: PrFit,
    think: ThinkTimes = NO_THINK_TIMES,
) -> Window:
    """``matches`` judged at ``rating`` against ``fit`` with the thresholds of
    ``settings.FAIRPLAY``: the one judgement of the live detector, of the staff's screen of
    files from other sites (:mod:`fairplay.screening`) and of the calibration bench."""
    return Window(
        matches=tuple(matches), rating=rating, fit=fit, think=think, thresholds=engine_thresholds()
    )


def engine_thresholds() -> Thresholds:
    limits = settings.FAIRPLAY
    return Thresholds(
        min_decisions=int(limits["ENGINE_MIN_DECISIONS"]),
        z=float(limits["ENGINE_Z"]),
        agreement=float(limits["ENGINE_AGREEMENT"]),
    )


def _counts(match: Match) -> bool:
    """Practice against the computer and pass and play say nothing of a person's play."""
    return not match.engine_strength and not match.pass_and_play


def _seat(analysis: Analysis, user: User) -> int:
    assert analysis.match is not None
    return 0 if analysis.match.player_0_id == user.pk else 1


def _figures(analysis: Analysis, seat: int) -> MatchFigures:
    match = analysis.match
    assert match is not None
    assert analysis.result is not None
    finished = match.finished_at or analysis.finished_at
    return figures_of(
        analysis.result,
        seat,
        match_id=match.pk,
        finished_at=finished.isoformat() if finished else "",
        opponent=match.player(1 - seat).username,
        plies=analysis.plies,
    )


def _rating_before(user: User, match_ids: list[int]) -> float:
    """The rating before the first rated match of the window; the rating now without one."""
    first = (
        RatingChange.objects.filter(user=user, match_id__in=match_ids)
        .order_by("created_at", "pk")
        .values_list("rating_before", flat=True)
        .first()
    )
    return first if first is not None else user.profile.rating


def _think_times(analyses: Iterable[Analysis], seats: dict[int, int]) -> ThinkTimes:
    """Seconds from the player's roll to their play, for the plays GNU Backgammon lists as
    unforced. A game's first play is left out: its dice came with the opening roll, which
    the server throws while the players may still be reading the last game's end."""
    unforced: dict[int, set[tuple[int, str]]] = {}
    for analysis in analyses:
        assert analysis.result is not None
        match_id = _match_id(analysis)
        unforced[match_id] = {
            (d["game"], d["position_id"])
            for d in analysis.result["decisions"]
            if d["seat"] == seats[match_id] and d["kind"] == "checker" and not d["forced"]
        }
    actions = (
        Action.objects.filter(match_id__in=unforced, kind__in=[ActionKind.ROLL, ActionKind.PLAY])
        .order_by("match_id", "seq")
        .values_list(
            "match_id", "game_number", "kind", "seat", "actor_id", "gnubg_before", "created_at"
        )
    )
    seconds: list[float] = []
    rolled: tuple[int, int | None, datetime] | None = None  # (match, seat, when) of a roll
    for match_id, game, kind, by, actor, before, at in actions:
        if kind == ActionKind.ROLL:
            rolled = (match_id, by, at)
            continue
        if (
            rolled is not None
            and rolled[:2] == (match_id, by)
            and by == seats[match_id]
            and actor is not None
            and (game, before.partition(":")[0]) in unforced[match_id]
        ):
            seconds.append((at - rolled[2]).total_seconds())
        rolled = None
    return think_times_of(seconds)


def _match_id(analysis: Analysis) -> int:
    assert analysis.match_id is not None
    return analysis.match_id
