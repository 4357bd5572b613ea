"""A GNU Backgammon analysis as the API and the analysis page give it (plain JSON).

``result_of`` turns :class:`analysis.match_analysis.MatchAnalysis` into the ``result`` kept on
:class:`reviews.models.Analysis`: the players' figures for the match and each game, every
decision, and the course of the match for its graph. ``usernames`` names the players as
this site knows them (the .mat's names for an uploaded file).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analysis.cube_decisions import CUBE_OPTIONS, CubeAnalysis, played_options
from analysis.match_analysis import Decision, MatchAnalysis, PlayerStatistics

SKILL_MARKS = ("very bad", "bad", "doubtful")
"""GNU Backgammon's marks of an error, worst first (``analysis.match_analysis``)."""


def result_of(analysis: MatchAnalysis, usernames: Sequence[str]) -> dict[str, Any]:
    return {
        "match": {
            "length": analysis.match_length,
            "money": analysis.money,
            "players": list(analysis.players),
            "rules": list(analysis.rules),
        },
        "players": _players(analysis.statistics, analysis.decisions, usernames),
        "games": [
            {
                "number": game.number,
                "score": list(game.score),
                "crawford": game.crawford,
                "winner": game.winner,
                "points": game.points,
                "resigned": game.resigned,
                "players": (
                    _players(game.statistics, game.decisions, usernames)
                    if game.statistics is not None
                    else None
                ),
            }
            for game in analysis.games
        ],
        "decisions": [_decision(decision, usernames) for decision in analysis.decisions],
        "course": _course(analysis),
    }


def _players(
    statistics: Sequence[PlayerStatistics], decisions: Sequence[Decision], usernames: Sequence[str]
) -> list[dict[str, Any]]:
    return [
        {
            "username": usernames[seat],
            "pr": _round(stats.pr, 2),
            "error_rate": _round(stats.error_rate, 1),
            "checker_error_rate": _round(stats.checker_error_rate, 1),
            "cube_error_rate": _round(stats.cube_error_rate, 1),
            "error": round(stats.error, 4),
            "checker_error": round(stats.checker_error, 4),
            "cube_error": round(stats.cube_error, 4),
            "luck": round(stats.luck, 4),
            "luck_rate": _round(stats.luck_rate, 1),
            "decisions": stats.decisions,
            "unforced": stats.unforced_moves,
            "moves": stats.moves,
            "cube_decisions": stats.close_cube_decisions,
            **_marked(decisions, seat),
            "rating": stats.overall_rating,
            "checker_rating": stats.checker_rating,
            "cube_rating": stats.cube_rating,
            "luck_rating": stats.luck_rating,
        }
        for seat, stats in enumerate(statistics)
    ]


def _marked(decisions: Sequence[Decision], seat: int) -> dict[str, int]:
    """How many of the player's decisions (moves and cube actions) carry each mark."""
    counts = {"very_bad": 0, "bad": 0, "doubtful": 0}
    for decision in decisions:
        if decision.player == seat and decision.skill in SKILL_MARKS:
            counts[str(decision.skill).replace(" ", "_")] += 1
    return counts


def _decision(decision: Decision, usernames: Sequence[str]) -> dict[str, Any]:
    return {
        "game": decision.game,
        "number": decision.number,
        "player": usernames[decision.player],
        "seat": decision.player,
        "kind": decision.kind,
        "action": decision.action,
        "dice": list(decision.dice) if decision.dice else None,
        "position_id": decision.position_id,
        "match_id": decision.match_id,
        "played": decision.played,
        "best": decision.best,
        "error": round(decision.error, 4),
        "error_mwc": None if decision.error_mwc is None else round(decision.error_mwc, 5),
        "mark": decision.skill if decision.skill in SKILL_MARKS else None,
        "forced": decision.forced,
        "luck": None if decision.luck is None else round(decision.luck, 4),
        "luck_mark": decision.luck_mark,
        "candidates": [
            {
                "move": candidate.move,
                "equity": round(candidate.equity, 4),
                "mwc": None if candidate.mwc is None else round(candidate.mwc, 5),
            }
            for candidate in decision.candidates
        ],
        "cube": None if decision.cube is None else _cube(decision.cube, decision.action),
    }


def _cube(cube: CubeAnalysis, action: str) -> dict[str, Any]:
    """The table of a cube decision, from the doubler's view: each of no double,
    double/take and double/pass with its equity, and what it gives up against the optimal
    value (``diff``, 0 for the proper action, above 0 where the opponent's wrong answer
    would gain the doubler), marked ``played`` where the player's action chose it."""
    optimal, optimal_mwc = cube.optimal, cube.optimal_mwc
    mwc = cube.mwc or (None, None, None)
    return {
        "verdict": cube.verdict.value,
        "too_good": cube.verdict.too_good,
        "centred": cube.centred,
        "options": [
            {
                "action": option,
                "equity": round(equity, 4),
                "diff": round(equity - optimal, 4),
                "mwc": None if chance is None else round(chance, 5),
                "diff_mwc": (
                    None
                    if chance is None or optimal_mwc is None
                    else round(chance - optimal_mwc, 5)
                ),
                "played": played,
            }
            for option, equity, chance, played in zip(
                CUBE_OPTIONS, cube.emg, mwc, played_options(action), strict=True
            )
        ],
    }


def _course(analysis: MatchAnalysis) -> list[dict[str, Any]]:
    """After each checker play, how the match stood for the first player: equity (EMG)
    in money play, the chance of winning the match in match play (from the best play's
    value less the error of the one played)."""
    points = []
    for decision in analysis.decisions:
        if decision.kind != "checker" or not decision.candidates:
            continue
        best = decision.candidates[0]
        if analysis.money or best.mwc is None or decision.error_mwc is None:
            value = best.equity - decision.error
            value = value if decision.player == 0 else -value
        else:
            value = best.mwc - decision.error_mwc
            value = value if decision.player == 0 else 1 - value
        points.append({"game": decision.game, "number": decision.number, "value": round(value, 4)})
    return points


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)
