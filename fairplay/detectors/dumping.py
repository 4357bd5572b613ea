"""Chip dumping and rating manipulation: money or rating flowing one way between two accounts.

Three signs, read over the last ``DUMPING_DAYS`` days of matches between the same pair:

* *early resignations*: the loser resigned a game at their first or second turn of it,
  in a rated match or one with money at stake (``EARLY_RESIGNATIONS`` of them);
* *clear takes dropped*: GNU Backgammon's analysis of the matches shows the loser
  dropping doubles it rates a take by at least ``WRONG_DROP_ERROR`` (``WRONG_DROPS``);
* *resignations while winning*: the analysis rates the position of the last play before
  a game the loser resigned at least ``WINNING_RESIGNATION_EQUITY`` (EMG) in the
  loser's favour (``WINNING_RESIGNATIONS`` of them);
* *a one-way series*: over at least ``ONE_WAY_MATCHES`` matches the loser lost so many
  that players of their ratings would lose that many with a chance of at most
  ``ONE_WAY_CHANCE``. Each match's chance comes from the FIBS rating formula
  (``accounts.ratings.upset_probability``) with both ratings before it, and the chance of
  the series is the tail of their sum (a Poisson binomial), so losing to a much stronger
  player is expected and losing 14 in a row to an equal one is not.

Any one opens (or adds to) the case ``dumping:<loser>:<winner>`` about the loser, with every
match between them in the window, the money and rating that moved, and the wrong drops.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, Sum
from django.utils import timezone

from accounts.models import LedgerEntry, Profile, RatingChange, User
from accounts.ratings import upset_probability
from fairplay.cases import case_report
from fairplay.models import CaseKind
from matches.models import ActionKind, FinishReason, Match, MatchStatus
from matches.money import escrow_ref
from reviews.models import Analysis, AnalysisStatus

# A resignation this early (the resigner's plays in the game so far) is no contest.
EARLY_PLAYS = 1


def scan_match(match_id: int) -> None:
    match = Match.objects.select_related("player_0", "player_1").get(pk=match_id)
    if not _counts(match) or match.winner_seat is None:
        return
    _check_pair(loser=match.player(1 - match.winner_seat), winner=match.player(match.winner_seat))


def scan_analysis(analysis_id: int) -> None:
    analysis = Analysis.objects.select_related("match").get(pk=analysis_id)
    match = analysis.match
    if match is None or not _counts(match):
        return
    # Either player may have dropped or resigned: each one's flow goes to the other.
    for seat in (0, 1):
        if _wrong_drops(analysis, seat) or _winning_resignations(analysis, match, seat):
            _check_pair(loser=match.player(seat), winner=match.player(1 - seat))


def _counts(match: Match) -> bool:
    """Only a rated match or one played for money can move rating or money."""
    return (
        match.status == MatchStatus.FINISHED
        and not match.pass_and_play
        and not match.engine_strength
        and (match.rated or match.stake_cents > 0 or bool(match.chip_stake))
    )


def _check_pair(*, loser: User, winner: User) -> None:
    limits = settings.FAIRPLAY
    since = timezone.now() - timedelta(days=limits["DUMPING_DAYS"])
    matches = list(
        Match.objects.filter(
            Q(player_0=loser, player_1=winner) | Q(player_0=winner, player_1=loser),
            status=MatchStatus.FINISHED,
            finished_at__gte=since,
            pass_and_play=False,
        ).order_by("finished_at", "pk")
    )
    rows = [_row(match, loser) for match in matches if _counts(match)]
    early = sum(1 for row in rows if row["early_resignation"])
    drops = [drop for row in rows for drop in row["wrong_drops"]]
    winning = [line for row in rows for line in row["resigned_winning"]]
    series = one_way_series(rows)
    one_way = (
        series["matches"] >= limits["ONE_WAY_MATCHES"]
        and series["chance"] <= limits["ONE_WAY_CHANCE"]
    )
    if (
        early < limits["EARLY_RESIGNATIONS"]
        and len(drops) < limits["WRONG_DROPS"]
        and len(winning) < limits["WINNING_RESIGNATIONS"]
        and not one_way
    ):
        return
    lost = [row for row in rows if row["lost"]]
    money = _money_to(winner, loser, rows)
    rating_lost = sum(row["rating_delta"] or 0.0 for row in rows)
    signs = []
    if early >= limits["EARLY_RESIGNATIONS"]:
        signs.append(f"{early} early resignations")
    if len(drops) >= limits["WRONG_DROPS"]:
        signs.append(f"{len(drops)} clear takes dropped")
    if len(winning) >= limits["WINNING_RESIGNATIONS"]:
        signs.append(f"{len(winning)} resignations while winning")
    if one_way:
        signs.append(
            f"{series['lost']} of {series['matches']} lost, a chance of "
            f"{series['chance']:.2g} for their ratings"
        )
    case_report(
        kind=CaseKind.DUMPING,
        subject=loser,
        others=[winner],
        key=f"dumping:{loser.pk}:{winner.pk}",
        summary=(
            f"{loser.username} lost {len(lost)} of {len(rows)} matches to {winner.username} in "
            f"{limits['DUMPING_DAYS']} days: {', '.join(signs)}"
        ),
        evidence={
            "window_days": limits["DUMPING_DAYS"],
            "thresholds": {
                "early_resignations": limits["EARLY_RESIGNATIONS"],
                "wrong_drops": limits["WRONG_DROPS"],
                "wrong_drop_error": limits["WRONG_DROP_ERROR"],
                "winning_resignations": limits["WINNING_RESIGNATIONS"],
                "winning_resignation_equity": limits["WINNING_RESIGNATION_EQUITY"],
                "one_way_matches": limits["ONE_WAY_MATCHES"],
                "one_way_chance": limits["ONE_WAY_CHANCE"],
            },
            "loser": loser.username,
            "winner": winner.username,
            "matches_played": len(rows),
            "matches_lost": len(lost),
            "early_resignations": early,
            "wrong_drops": drops,
            "resigned_winning": winning,
            "one_way_series": series,
            "money_to_winner": money,
            "rating_lost": round(rating_lost, 2),
            "matches": rows,
        },
    )


def _row(match: Match, loser: User) -> dict[str, Any]:
    seat = 0 if match.player_0_id == loser.pk else 1
    change = RatingChange.objects.filter(user=loser, match_id=match.pk).first()
    return {
        "win_chance": _win_chance(match, seat),
        "match": match.pk,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "length": match.length,
        "rated": match.rated,
        "currency": match.currency,
        "stake_cents": match.stake_cents,
        "reason": match.finish_reason,
        "lost": match.winner_seat == 1 - seat,
        "early_resignation": _resigned_early(match, seat),
        "rating_delta": None if change is None else round(change.delta, 2),
        "money_cents": _net_cents(match, loser),
        **_analysed_signs(match, seat),
    }


def _win_chance(match: Match, seat: int) -> float | None:
    """``seat``'s chance to win the match by the FIBS formula, from both ratings before it
    (today's ratings for an unrated match); None for a money session (no match length)."""
    if match.length < 1:
        return None
    before = dict(
        RatingChange.objects.filter(match_id=match.pk).values_list("user_id", "rating_before")
    )
    ratings = []
    for player in (match.player(seat), match.player(1 - seat)):
        rating = before.get(player.pk)
        ratings.append(rating if rating is not None else Profile.objects.get(user=player).rating)
    upset = upset_probability(ratings[0] - ratings[1], match.length)
    return upset if ratings[0] <= ratings[1] else 1.0 - upset


def one_way_series(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """How many of the matches with a known chance the loser lost, and the chance that
    players of their ratings lose at least that many: the upper tail of the Poisson
    binomial distribution of losses."""
    chances = [1.0 - row["win_chance"] for row in rows if row["win_chance"] is not None]
    lost = sum(1 for row in rows if row["win_chance"] is not None and row["lost"])
    # losses[k]: the chance of exactly k losses among the matches so far
    losses = [1.0]
    for p in chances:
        losses = [
            (losses[k] if k < len(losses) else 0.0) * (1.0 - p)
            + (losses[k - 1] * p if k > 0 else 0.0)
            for k in range(len(losses) + 1)
        ]
    return {"matches": len(chances), "lost": lost, "chance": round(sum(losses[lost:]), 6)}


def _resigned_early(match: Match, seat: int) -> bool:
    """``seat`` resigned a game before making more than ``EARLY_PLAYS`` plays in it."""
    resigned = match.games.filter(winner_seat=1 - seat, finish_reason=FinishReason.RESIGNED)
    for game in resigned:
        plays = match.actions.filter(
            game_number=game.number, seat=seat, kind__in=[ActionKind.PLAY, ActionKind.PASS]
        ).count()
        if plays <= EARLY_PLAYS:
            return True
    return False


def _net_cents(match: Match, user: User) -> dict[str, int]:
    """What ``user``'s wallets gained (+) or lost (-) through the match, per currency."""
    sums = (
        LedgerEntry.objects.filter(
            transaction__escrow_ref=escrow_ref(match),
            account__user=user,
        )
        .values("account__currency")
        .annotate(total=Sum("amount"))
    )
    return {row["account__currency"]: int(row["total"]) for row in sums if row["total"]}


def money_between(loser: User, winner: User, match_ids: list[int]) -> dict[str, int]:
    """What ``loser`` lost net to ``winner`` over these matches between them, per currency."""
    rows = [
        {"money_cents": _net_cents(match, loser)}
        for match in Match.objects.filter(
            Q(player_0=loser, player_1=winner) | Q(player_0=winner, player_1=loser),
            pk__in=match_ids,
        )
    ]
    return {
        currency: cents for currency, cents in _money_to(winner, loser, rows).items() if cents > 0
    }


def _money_to(winner: User, loser: User, rows: list[dict[str, Any]]) -> dict[str, int]:
    """The net money that went from the loser to the winner over the matches, per currency."""
    flow: dict[str, int] = {}
    for row in rows:
        for currency, cents in row["money_cents"].items():
            flow[currency] = flow.get(currency, 0) - cents
    return {currency: cents for currency, cents in flow.items() if cents}


def _analysed_signs(match: Match, seat: int) -> dict[str, list[dict[str, Any]]]:
    analysis = Analysis.objects.filter(match=match, status=AnalysisStatus.DONE).first()
    if analysis is None:
        return {"wrong_drops": [], "resigned_winning": []}
    return {
        "wrong_drops": _wrong_drops(analysis, seat),
        "resigned_winning": _winning_resignations(analysis, match, seat),
    }


def _winning_resignations(analysis: Analysis, match: Match, seat: int) -> list[dict[str, Any]]:
    """The games ``seat`` resigned although the position of the last play before it was
    theirs by at least ``WINNING_RESIGNATION_EQUITY``, by GNU Backgammon's numbers: the
    best play's equity less the error of the one played, for whoever made it."""
    threshold = settings.FAIRPLAY["WINNING_RESIGNATION_EQUITY"]
    resigned = set(
        match.games.filter(winner_seat=1 - seat, finish_reason=FinishReason.RESIGNED).values_list(
            "number", flat=True
        )
    )
    last: dict[int, dict[str, Any]] = {}
    for decision in (analysis.result or {}).get("decisions", []):
        if decision.get("kind") == "checker" and decision.get("candidates"):
            last[decision["game"]] = decision
    found = []
    for game in sorted(resigned):
        decision = last.get(game)
        if decision is None:
            continue
        value = decision["candidates"][0]["equity"] - decision["error"]
        theirs = value if decision["seat"] == seat else -value
        if theirs >= threshold:
            found.append(
                {
                    "match": analysis.match_id,
                    "game": game,
                    "number": decision["number"],
                    "position_id": decision["position_id"],
                    "match_id": decision["match_id"],
                    "equity": round(theirs, 3),
                }
            )
    return found


def _wrong_drops(analysis: Analysis, seat: int) -> list[dict[str, Any]]:
    """The doubles ``seat`` dropped that GNU Backgammon rates a clear take."""
    threshold = settings.FAIRPLAY["WRONG_DROP_ERROR"]
    decisions = (analysis.result or {}).get("decisions", [])
    return [
        {
            "match": analysis.match_id,
            "game": decision["game"],
            "number": decision["number"],
            "position_id": decision["position_id"],
            "match_id": decision["match_id"],
            "best": decision["best"],
            "error": decision["error"],
        }
        for decision in decisions
        if decision.get("seat") == seat
        and decision.get("kind") == "cube"
        and decision.get("action") == "drop"
        and decision.get("best") == "take"
        and decision.get("error", 0.0) >= threshold
    ]
