"""Running a swing tournament: chips, continuous pairing, settlements, knockouts, the end.

The rules are the pure ``tournaments.formats.swing``'s; this module keeps the rows: one
``SwingSeat`` per player (chips, games, whether free, in a game or out) and one
``SwingGame`` per game (its terms when it started, what it moved once settled).

- ``seat_players`` gives every entrant the starting chips when the tournament starts;
  ``pair_and_start`` pairs the free players and starts their games (each an ordinary match
  with the game's CPP, stake and cube limit, ``matches.creation.SwingTerms``) at the level
  of the pair's round (a CPP rising with every game) or the field's, and tells a player
  left over that they wait.
- ``record_game`` settles a finished game in chips: a played game pays points × cube × CPP
  within the loser's cap, an adjudicated one the split of its cubeful equity, a match in
  match swing its match stake × CPP. The caps are the chips the players held when the game
  started, which are the chips their seats hold when it is settled: a player plays one game
  at a time and only its settlement moves their chips. A player left with no chips is out,
  in the place the players still holding chips give them; the free players are paired
  again, or, once one player holds every chip, the tournament ends and pays.

Every function expects the tournament row locked (``scheduler.locked_tournament``); a game
is settled once (``SwingGame.settled_at`` by compare-and-set), so running twice moves no chip
twice.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.utils import timezone

from core.errors import InternalError
from core.rows import update_many
from matches.creation import Pair, SwingTerms, matches_create_for_tournament
from matches.models import Adjudication, ClockSettings, Match, MatchStatus
from tournaments import events
from tournaments.endings import finish_tournament
from tournaments.formats.base import Flight, Placing
from tournaments.formats.prizes import (
    DEFAULT_SIT_AND_GO_TABLE,
    Prize,
    cash_prizes,
    flight_cash_prizes,
)
from tournaments.formats.swing import (
    Free,
    GameTerms,
    adjudicated_transfer,
    game_terms,
    pair_free,
    payout,
)
from tournaments.models import Entry, EntryStatus, SwingGame, SwingSeat, Tournament
from tournaments.swing.reads import current_level, schedule

SETTLED_STATUSES = (MatchStatus.FINISHED, MatchStatus.ABORTED, MatchStatus.CANCELLED)


# ---------------------------------------------------------------- the start


def seat_players(tournament: Tournament, entries: list[Entry], now: datetime) -> None:
    """Give each entrant the starting chips, free in a random order (who waits "longest"
    among players who all came at once is drawn, so the first pairings are random)."""
    assert tournament.starting_chips
    order = list(entries)
    random.Random(tournament.draw_seed).shuffle(order)
    SwingSeat.objects.bulk_create(
        SwingSeat(
            tournament=tournament,
            user_id=entry.user_id,
            chips=tournament.starting_chips,
            free_since=now + timedelta(microseconds=number),
        )
        for number, entry in enumerate(order)
    )


def pair_and_start(tournament: Tournament, now: datetime | None = None) -> int:
    """Pair the free players and start their games; returns how many games started."""
    moment = now or timezone.now()
    seats = list(
        SwingSeat.objects.filter(
            tournament=tournament, out_at__isnull=True, current_match_id__isnull=True
        ).order_by("free_since", "pk")
    )
    free = [Free(seat.user_id, seat.free_since or moment, seat.last_opponent_id) for seat in seats]
    rng = random.Random(f"{tournament.draw_seed}:{tournament.pk}:{moment.isoformat()}")
    pairs, waiting = pair_free(free, rng)
    for user_id in waiting:
        events.publish(events.SwingWaiting(tournament.pk, user_id))
    if not pairs:
        return 0
    by_user = {seat.user_id: seat for seat in seats}
    plan = schedule(tournament)
    field_level = current_level(tournament, moment)
    wanted = []
    for first, second in pairs:
        level = plan.game_level(field_level, (by_user[first].games, by_user[second].games))
        terms = game_terms(plan.cpp(level), (by_user[first].chips, by_user[second].chips))
        wanted.append((first, second, level, terms))
    matches = matches_create_for_tournament(
        tournament_id=tournament.pk,
        pairs=[Pair(a, b, 0, _match_terms(tournament, terms)) for a, b, _, terms in wanted],
        clock_settings=ClockSettings.from_json(tournament.clock),
        show_up_seconds=tournament.show_up_seconds,
        rated=False,
        abandon_policy=tournament.abandon_policy,
    )
    games = []
    for (first, second, level, terms), match in zip(wanted, matches, strict=True):
        games.append(
            SwingGame(
                tournament=tournament,
                match_id=match.pk,
                player_0_id=first,
                player_1_id=second,
                level=level,
                cpp=terms.cpp,
                stake=terms.stake,
                all_in=terms.all_in,
            )
        )
        for user_id in (first, second):
            by_user[user_id].current_match_id, by_user[user_id].free_since = match.pk, None
    SwingGame.objects.bulk_create(games)
    update_many(
        [by_user[user] for pair in pairs for user in pair], ["current_match_id", "free_since"]
    )
    events.publish_tournament(tournament.pk)
    return len(pairs)


def _match_terms(tournament: Tournament, terms: GameTerms) -> SwingTerms:
    length = tournament.swing_match_length
    return SwingTerms(
        chips_per_point=terms.cpp,
        chip_stake=terms.stake,
        all_in=terms.all_in,
        max_cube=terms.max_cube,
        match_length=length,
        max_match_cube=terms.max_cube if length else 0,
        jacoby=tournament.jacoby,
        beavers=tournament.beavers,
    )


# ---------------------------------------------------------------- a game's result


def record_game(tournament: Tournament, match: Match) -> bool:
    """Settle ``match``'s chips and move the tournament on; False if there was nothing to do."""
    if match.status not in SETTLED_STATUSES:
        return False
    game = SwingGame.objects.filter(match_id=match.pk, settled_at__isnull=True).first()
    if game is None:
        return False
    now = timezone.now()
    seats = {
        seat.user_id: seat
        for seat in SwingSeat.objects.filter(
            tournament=tournament, user_id__in=(game.player_0_id, game.player_1_id)
        )
    }
    first, second = seats[game.player_0_id], seats[game.player_1_id]
    to_first = _chips_to_seat_0(game_terms(game.cpp, (first.chips, second.chips)), match)
    if first.chips + to_first < 0 or second.chips - to_first < 0:
        raise InternalError(f"swing game {game.pk} would move chips nobody holds")
    first.chips += to_first
    second.chips -= to_first
    active_before = SwingSeat.objects.filter(tournament=tournament, out_at__isnull=True).count()
    knocked_out = 0
    for seat, opponent, gained in ((first, second, to_first), (second, first, -to_first)):
        seat.games += 1
        seat.won += gained > 0
        seat.lost += gained < 0
        seat.current_match_id, seat.last_opponent_id = None, opponent.user_id
        seat.free_since = now
        if seat.chips == 0:
            seat.out_at, seat.free_since = now, None
            knocked_out += 1
    update_many(
        [first, second],
        [
            "chips",
            "games",
            "won",
            "lost",
            "current_match_id",
            "last_opponent_id",
            "free_since",
            "out_at",
        ],
    )
    settled = SwingGame.objects.filter(pk=game.pk, settled_at__isnull=True).update(
        settled_at=now, chips_to_0=to_first, chips_after_0=first.chips, chips_after_1=second.chips
    )
    if settled != 1:
        raise InternalError(f"swing game {game.pk} settled twice")
    for seat in (first, second):
        if seat.out_at is not None:
            Entry.objects.filter(
                tournament=tournament, user_id=seat.user_id, status=EntryStatus.REGISTERED
            ).update(place=active_before, shared_to=active_before)
            events.publish(events.PlayerEliminated(tournament.pk, seat.user_id))
    if active_before - knocked_out <= 1:
        _finish(tournament)
    else:
        pair_and_start(tournament, now)
    events.publish_tournament(tournament.pk)
    return True


def _chips_to_seat_0(terms: GameTerms, match: Match) -> int:
    """What the game moved to its seat 0 (negative: to seat 1)."""
    if match.status != MatchStatus.FINISHED:
        return 0
    if match.winner_seat is None:
        adjudication = Adjudication.objects.filter(match=match, supersedes__isnull=True).first()
        decision = adjudication.decision if adjudication else {}
        if "cubeful_equity" not in decision:
            return 0
        return adjudicated_transfer(terms, decision["cubeful_equity"], decision["cube_value"])
    points = _points_won(match)
    chips = payout(terms, points, loser=1 - match.winner_seat)
    return chips if match.winner_seat == 0 else -chips


def _points_won(match: Match) -> int:
    """A single game's points (its result × the cube), or a match's match stake. A game
    its loser forfeited before it was played counts one point at the cube it had."""
    if match.match_cube:
        return match.match_cube
    assert match.winner_seat is not None
    return max(1, match.score_0 if match.winner_seat == 0 else match.score_1)


# ---------------------------------------------------------------- the end


def _finish(tournament: Tournament) -> None:
    """The player holding every chip is first; the others by the order they went out."""
    entries = Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED)
    holder = SwingSeat.objects.filter(tournament=tournament, out_at__isnull=True).first()
    placings = [Placing(holder.user_id, 1, 1)] if holder else []
    placings += sorted(
        (
            Placing(entry.user_id, entry.place, entry.place)
            for entry in entries
            if entry.place is not None and (holder is None or entry.user_id != holder.user_id)
        ),
        key=lambda placing: placing.place,
    )
    finish_tournament(tournament, placings, _prizes(tournament, placings))


def _prizes(tournament: Tournament, placings: list[Placing]) -> tuple[Prize, ...]:
    pool = tournament.prize_pool_cents
    if pool == 0:
        return ()
    shares = tournament.prize_table.get(Flight.MAIN.value)
    if not shares:
        return cash_prizes(pool, DEFAULT_SIT_AND_GO_TABLE.shares_for(len(placings)), placings)
    return flight_cash_prizes(pool, {Flight.MAIN: tuple(shares)}, {Flight.MAIN: tuple(placings)})
