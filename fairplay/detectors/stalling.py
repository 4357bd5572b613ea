"""Disconnecting on purpose and letting the clock run out, counted per player.

A match *stalled* by a player is one they lost on time, by forfeit (they never came back
or never showed up) or one the engine adjudicated after they were the one absent: also a
money session's or a swing game's, split by the engine's equity with no winner, whichever
way the split went (the walk-away is theirs, not the split's). Once a
player has ``STALLED_MATCHES`` of them in ``STALLING_DAYS`` days, a case opens (or grows)
and the player cannot post or take seeks or register for tournaments for
``COOLDOWN_HOURS`` hours (``accounts.standing``); each further stall starts the
cool-down again.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from accounts.standing import standing_restrict
from fairplay.cases import case_report
from fairplay.models import CaseKind
from matches.forfeits import forfeited_barred
from matches.models import Adjudication, FinishReason, Match, MatchStatus

STALLED_REASONS = (FinishReason.TIMEOUT, FinishReason.FORFEIT, FinishReason.ADJUDICATED)


def scan_match(match_id: int) -> None:
    match = Match.objects.select_related("player_0", "player_1").get(pk=match_id)
    if match.pass_and_play or match.finish_reason not in STALLED_REASONS:
        return
    seat = stalled_seat(match)
    if seat is None or match.player(seat).pk == match.player(1 - seat).pk:
        return
    _check(match.player(seat))


def stalled_seat(match: Match) -> int | None:
    """Who stalled a finished match: the loser on time or by forfeit; the absent player of
    an adjudication, with a winner or split. A forfeit for a sanction is nobody's stall."""
    if match.finish_reason in (FinishReason.TIMEOUT, FinishReason.FORFEIT):
        if match.winner_seat is None or forfeited_barred(match):
            return None
        return 1 - match.winner_seat
    adjudication = Adjudication.objects.filter(match=match).order_by("-pk").first()
    return None if adjudication is None else adjudication.absent_seat


def stalls_of(user: User, *, days: int) -> list[dict[str, Any]]:
    since = timezone.now() - timedelta(days=days)
    found = []
    for match in Match.objects.filter(
        Q(player_0=user) | Q(player_1=user),
        status=MatchStatus.FINISHED,
        finish_reason__in=STALLED_REASONS,
        finished_at__gte=since,
        pass_and_play=False,
    ).order_by("finished_at", "pk"):
        seat = stalled_seat(match)
        if seat is not None and match.player_id(seat) == user.pk:
            found.append(
                {
                    "match": match.pk,
                    "finished_at": match.finished_at.isoformat() if match.finished_at else None,
                    "reason": match.finish_reason,
                    "opponent": match.player(1 - seat).username,
                    "tournament": match.tournament_id,
                }
            )
    return found


def _check(user: User) -> None:
    limits = settings.FAIRPLAY
    stalls = stalls_of(user, days=int(limits["STALLING_DAYS"]))
    if len(stalls) < limits["STALLED_MATCHES"]:
        return
    until = timezone.now() + timedelta(hours=limits["COOLDOWN_HOURS"])
    standing_restrict(
        user=user,
        cooldown_until=until,
        reason=f"{len(stalls)} matches abandoned or lost on time in {limits['STALLING_DAYS']} days",
    )
    case_report(
        kind=CaseKind.STALLING,
        subject=user,
        key=f"stalling:{user.pk}",
        summary=(
            f"{user.username} abandoned or ran out the clock in {len(stalls)} matches in "
            f"{limits['STALLING_DAYS']} days; no seeks or registration until "
            f"{timezone.localtime(until):%d %b %H:%M}"
        ),
        evidence={
            "window_days": limits["STALLING_DAYS"],
            "threshold": limits["STALLED_MATCHES"],
            "cooldown_hours": limits["COOLDOWN_HOURS"],
            "cooldown_until": until.isoformat(),
            "stalls": stalls,
        },
    )
