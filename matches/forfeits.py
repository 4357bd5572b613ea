"""Forfeits decided off the board: a player barred from play loses their tournament matches.

A player is *barred* while their account is suspended or closed (``accounts.standing``).
Their tournament matches are forfeited as a no-show's are (``matches.deadlines``): the
opponent wins the match, it is rated as any tournament result, and the tournament moves on
from ``MatchFinished`` by its own rules, so the opponent advances, and prizes and any chips
follow as they would after a no-show. The matches they are playing are forfeited when the
sanction is decided (``barred_player_forfeits``); a later match of the draw is forfeited the
moment it comes up while the bar lasts (``barred_forfeits_at_start``). When both players
are barred, seat 1 forfeits, as when neither shows up.

A forfeit of this kind is logged with the barred seats (``forfeited_barred``): the player
did not walk away, so fair play's stalling detector does not count it, and the players'
notices say why.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Q
from django.utils import timezone

from accounts.standing import barred_from_play
from core import locks, rows
from core.locks import Lock
from matches import events
from matches.lifecycle import finish_match
from matches.log import append_action
from matches.models import Action, ActionKind, FinishReason, Match, MatchStatus
from matches.state import lock_match

IN_PLAY = (MatchStatus.PLAYING, MatchStatus.SUSPENDED)


def tournament_matches_in_play(player_ids: Sequence[int]) -> list[int]:
    """The ids of the tournament matches these players are in, played or suspended, in id
    order: what ``barred_player_forfeits`` will lock, for a caller to lock first."""
    return list(
        Match.objects.filter(
            Q(player_0_id__in=player_ids) | Q(player_1_id__in=player_ids),
            tournament_id__isnull=False,
            status__in=IN_PLAY,
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def barred_player_forfeits(*, player_id: int) -> list[int]:
    """The barred player forfeits every tournament match they are in; the ids forfeited.
    Takes each match's lock, in id order (``core.locks``)."""
    if player_id not in barred_from_play([player_id]):
        return []
    forfeited = []
    for match_id in tournament_matches_in_play([player_id]):
        match = lock_match(match_id)
        barred = barred_from_play([match.player_0_id, match.player_1_id])
        if _forfeit(match, barred):
            forfeited.append(match_id)
    return forfeited


def barred_forfeits_at_start(matches: Sequence[Match]) -> list[int]:
    """Forfeit at once each of these tournament matches, just made in this transaction,
    with a barred player in it; the ids forfeited. One statement reads the bars, whatever
    the number of matches."""
    players = {player for match in matches for player in (match.player_0_id, match.player_1_id)}
    barred = barred_from_play(list(players)) if players else set()
    forfeited = []
    for made in matches:
        if made.player_0_id in barred or made.player_1_id in barred:
            locks.made(Lock.MATCH, made.pk)
            if _forfeit(lock_match(made.pk), barred):
                forfeited.append(made.pk)
    return forfeited


def forfeited_barred(match: Match) -> bool:
    """Whether ``match`` ended by a forfeit of this kind (nobody walked away)."""
    return (
        match.finish_reason == FinishReason.FORFEIT
        and Action.objects.filter(
            match=match, kind=ActionKind.FORFEIT, detail__has_key="barred"
        ).exists()
    )


def _forfeit(match: Match, barred: set[int]) -> bool:
    """Expects the match row locked."""
    if match.status not in IN_PLAY or match.tournament_id is None:
        return False
    seats = [seat for seat in (0, 1) if match.player_id(seat) in barred]
    if not seats:
        return False
    loser = seats[0] if len(seats) == 1 else 1
    since = match.last_seq
    append_action(match, kind=ActionKind.FORFEIT, seat=loser, detail={"barred": seats})
    finish_match(match, winner_seat=1 - loser, reason=FinishReason.FORFEIT, moment=timezone.now())
    rows.save_changed(match)
    events.publish_match(match, since=since)
    return True
