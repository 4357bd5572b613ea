"""Corrections to a tournament's bracket when a dispute changes a match's result.

The tournament scheduler only ever fills a slot once; a decision that gives a match to the
other player, or voids it, must undo what the old result did: the winner placed in the next
round's slot, and the next match if it was created for them. That is only done while the
next match has not started (neither player has come to the board): a match already being
played is not taken away from the players in it.

Every function expects to run inside the caller's transaction; it locks the tournament row
(``scheduler.locked_tournament``) and the pairing rows it changes.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from config.errors import Conflict
from matches import events as match_events
from matches.models import ActionKind, Match, MatchStatus
from matches.services import append_action
from tournaments import events as tournament_events
from tournaments import scheduler
from tournaments.models import Pairing, Tournament, TournamentState


def overturn(*, match: Match, new_winner_id: int, dispute_id: int) -> dict[str, Any]:
    """Give ``match``'s pairing to ``new_winner_id`` and put them in the next round's slot."""
    tournament, row = _locked_pairing(match)
    changes: dict[str, Any] = {"pairing": _slot_name(row)}
    old_winner = row.winner_id
    if old_winner is None:
        # The scheduler has not recorded the result yet; it will read the corrected winner.
        return changes
    if old_winner == new_winner_id:
        return changes
    successor = _successor(row)
    if successor is not None:
        changes.update(_take_back(successor, row, old_winner, dispute_id))
    Pairing.objects.filter(pk=row.pk).update(winner_id=new_winner_id, decided_at=timezone.now())
    if successor is not None:
        Pairing.objects.filter(pk=successor.pk).update(**{f"{_side(row)}_id": new_winner_id})
        changes["next_pairing"] = _slot_name(successor)
    changes["new_matches"] = _start_ready(tournament)
    tournament_events.publish_tournament(tournament.pk)
    return changes


def void(*, match: Match, dispute_id: int) -> dict[str, Any]:
    """Clear ``match``'s pairing (and what its result did) and create the replay match."""
    tournament, row = _locked_pairing(match)
    changes: dict[str, Any] = {"pairing": _slot_name(row)}
    if row.winner_id is not None:
        successor = _successor(row)
        if successor is not None:
            changes.update(_take_back(successor, row, row.winner_id, dispute_id))
    Pairing.objects.filter(pk=row.pk).update(
        winner_id=None, decided_at=None, match_id=None, deadline=None, late=False
    )
    _start_ready(tournament)
    replay = Pairing.objects.values_list("match_id", flat=True).get(pk=row.pk)
    changes["replay_match"] = replay
    tournament_events.publish_tournament(tournament.pk)
    return changes


def _locked_pairing(match: Match) -> tuple[Tournament, Pairing]:
    assert match.tournament_id is not None
    tournament = scheduler.locked_tournament(match.tournament_id)
    if tournament.state == TournamentState.FINISHED:
        raise Conflict("The tournament has finished and its prizes are paid; adjust money instead.")
    if tournament.state != TournamentState.RUNNING:
        raise Conflict(f"The tournament is {tournament.get_state_display().lower()}.")
    row = (
        Pairing.objects.select_for_update().filter(tournament=tournament, match_id=match.pk).first()
    )
    if row is None:
        raise Conflict("This match has no place in the tournament's bracket.")
    return tournament, row


def _successor(row: Pairing) -> Pairing | None:
    """The next round's pairing the winner of ``row`` goes to (None after the final)."""
    return (
        Pairing.objects.select_for_update()
        .filter(tournament_id=row.tournament_id, round=row.round + 1, position=row.position // 2)
        .first()
    )


def _side(row: Pairing) -> str:
    return "top" if row.position % 2 == 0 else "bottom"


def _take_back(
    successor: Pairing, row: Pairing, old_winner: int, dispute_id: int
) -> dict[str, Any]:
    """Empty the slot ``old_winner`` took in ``successor``; cancel its match if unstarted."""
    side = _side(row)
    if getattr(successor, f"{side}_id") != old_winner:
        return {}
    changes: dict[str, Any] = {}
    if successor.winner_id is not None:
        raise Conflict(
            f"The next match ({_slot_name(successor)}) has been played already; "
            "the bracket cannot be corrected by this decision."
        )
    if successor.match_id is not None:
        following = Match.objects.select_for_update().get(pk=successor.match_id)
        if following.seen_0 or following.seen_1 or following.status != MatchStatus.PLAYING:
            raise Conflict(
                f"The next match (#{following.pk}) has started; "
                "it is not taken away from the players in it."
            )
        _cancel(following, dispute_id)
        changes["cancelled_match"] = following.pk
    Pairing.objects.filter(pk=successor.pk).update(
        **{f"{side}_id": None}, match_id=None, deadline=None, late=False
    )
    return changes


def _cancel(match: Match, dispute_id: int) -> None:
    match.status = MatchStatus.CANCELLED
    match.deadline = None
    match.turn_started_at = None
    match.show_up_by = None
    append_action(
        match,
        None,
        ActionKind.MATCH_OVER,
        None,
        None,
        None,
        None,
        None,
        detail={"reason": "cancelled", "dispute": dispute_id},
    )
    match.save()
    match_events.publish_match(match)


def _start_ready(tournament: Tournament) -> list[int]:
    fmt = scheduler.tournament_format(tournament, pool_cents=tournament.prize_pool_cents)
    draw, rows = scheduler.stored_draw(tournament)
    before = {row.pk for row in rows.values() if row.match_id is not None}
    scheduler.start_ready_matches(tournament, fmt, draw, rows)
    return sorted(
        row.match_id for row in rows.values() if row.match_id is not None and row.pk not in before
    )


def _slot_name(row: Pairing) -> str:
    return f"round {row.round + 1}, match {row.position + 1}"
