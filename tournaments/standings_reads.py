"""A tournament's standings as players read them: rank, points, wins, losses, byes and the
tiebreaks, from the stored draw and the matches' scores.

A Swiss is ranked on points, then Buchholz, median Buchholz, Sonneborn-Berger and the points
margin (``tournaments.formats.standings``); a round robin per group, on points, then
Sonneborn-Berger and the points margin. Other formats list the places the format gives
(final once the tournament ends), with each player's wins and losses; they have no
tiebreaks. The points margin counts the points scored in the matches less those conceded,
from each match's score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from accounts.models import User
from matches.models import Match
from tournaments import draw_rows, scheduler
from tournaments.formats.base import BYE, Draw, PairingKey, Placing
from tournaments.formats.round_robin import ROUND_ROBIN_TIEBREAKS, RoundRobin
from tournaments.formats.standings import StandingRow, Tiebreak, standings
from tournaments.formats.swiss import Swiss
from tournaments.models import Tournament


def tournament_standings(tournament: Tournament) -> list[dict[str, Any]]:
    """Rows of ``username``, ``display_name``, ``group`` (a round robin's, from 1; else
    null), ``rank``, ``points``, ``wins``, ``losses``, ``byes`` and ``tiebreaks`` (by name);
    empty before the draw."""
    draw, rows = draw_rows.stored_draw(tournament)
    if not draw.pairings:
        return []
    fmt = scheduler.tournament_format(tournament, pool_cents=tournament.prize_pool_cents)
    margins = _margins(tournament, rows)
    table: list[tuple[int | None, StandingRow, tuple[Tiebreak, ...]]] = []
    if isinstance(fmt, Swiss):
        table = [(None, row, SWISS) for row in fmt.standings(draw, margins)]
    elif isinstance(fmt, RoundRobin):
        for number, group in enumerate(fmt.groups(draw), start=1):
            ranked = standings(
                draw, group, margins, tiebreaks=ROUND_ROBIN_TIEBREAKS, bye_is_a_win=False
            )
            table.extend((number, row, ROUND_ROBIN_TIEBREAKS) for row in ranked)
    else:
        table = [(None, row, ()) for row in _by_place(fmt.placings(draw), draw)]
    names = {
        pk: (username, display_name)
        for pk, username, display_name in User.objects.filter(
            pk__in=[row.entrant for _, row, _ in table]
        ).values_list("pk", "username", "profile__display_name")
    }
    return [
        {
            "username": names[row.entrant][0],
            "display_name": names[row.entrant][1] or "",
            "group": group,
            "rank": row.rank,
            "points": row.points,
            "wins": row.wins,
            "losses": row.losses,
            "byes": row.byes,
            "tiebreaks": {tiebreak.value: getattr(row, tiebreak.value) for tiebreak in used},
        }
        for group, row, used in table
    ]


SWISS = (
    Tiebreak.BUCHHOLZ,
    Tiebreak.MEDIAN_BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.POINTS_MARGIN,
)


def _margins(
    tournament: Tournament, rows: dict[PairingKey, Any]
) -> dict[PairingKey, tuple[int, int]]:
    """Each played pairing's score as (top, bottom): the match seats its top player first."""
    scores = {
        pk: (score_0, score_1)
        for pk, score_0, score_1 in Match.objects.filter(tournament_id=tournament.pk).values_list(
            "pk", "score_0", "score_1"
        )
    }
    return {key: scores[row.match_id] for key, row in rows.items() if row.match_id in scores}


def _by_place(placings: Sequence[Placing], draw: Draw) -> list[StandingRow]:
    """The format's places as rows, with each player's wins, losses and byes in the draw."""
    wins: dict[int, int] = {}
    losses: dict[int, int] = {}
    byes: dict[int, int] = {}
    for pairing in draw.pairings:
        if pairing.winner is None:
            continue
        loser = pairing.loser
        if loser is BYE:
            byes[pairing.winner] = byes.get(pairing.winner, 0) + 1
            continue
        wins[pairing.winner] = wins.get(pairing.winner, 0) + 1
        if isinstance(loser, int):
            losses[loser] = losses.get(loser, 0) + 1
    return [
        StandingRow(
            placing.entrant,
            placing.place,
            wins.get(placing.entrant, 0),
            wins.get(placing.entrant, 0),
            losses.get(placing.entrant, 0),
            byes.get(placing.entrant, 0),
            0,
            0,
            0,
            0,
        )
        for placing in placings
    ]
