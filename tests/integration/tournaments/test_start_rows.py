"""What a knockout's start writes, read back through the ORM field by field: a pairing row
for each slot of the draw the format makes, the first round's matches as the tournament's
settings make them (each with its first game and its log), and every player's notices."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from lobby.models import NoticeKind, Notification
from matches.models import Action, ActionKind, Game, Match, MatchKind, MatchStatus
from tests.integration.tournaments.helpers import open_tournament, organizer, players, register_all
from tournaments import scheduler, services
from tournaments.draw_rows import source_text
from tournaments.formats.base import BYE, Entrant
from tournaments.models import Entry, Pairing

pytestmark = pytest.mark.django_db(transaction=True)

CLOCK = {"kind": "move", "move_seconds": 45, "reserve_seconds": 300}


def test_the_start_writes_the_draw_the_matches_and_the_notices() -> None:
    # given a knockout of six (two byes) with a clock and rounds to play within an hour
    owner, field = organizer(), players(6)
    tournament = open_tournament(
        owner, name='Ærø "Open", {6}', round_lengths=(3, 5, 7), clock=CLOCK, round_minutes=60
    )
    register_all(tournament, field)

    # when it starts
    services.tournament_start(tournament_id=tournament.pk, user=owner)

    # then every slot the format draws has its row, as the format drew it
    tournament.refresh_from_db()
    entries = Entry.objects.filter(tournament=tournament).select_related("user__profile")
    entrants = [
        Entrant(entry.user_id, rating=entry.user.profile.rating, seed=entry.seed)
        for entry in entries.order_by("pk")
    ]
    fmt = scheduler.tournament_format(tournament, pool_cents=tournament.prize_pool_cents)
    draw = fmt.initial_draw(entrants, random.Random(tournament.draw_seed))
    written = {
        (row.flight, row.round, row.position): row
        for row in Pairing.objects.filter(tournament=tournament)
    }
    assert len(written) == len(draw.pairings) == 7
    started = []
    for pairing in draw.pairings:
        row = written[(pairing.key.flight.value, pairing.key.round, pairing.key.position)]
        assert (row.top_id, row.top_bye, row.top_source) == (
            pairing.top if isinstance(pairing.top, int) else None,
            pairing.top is BYE,
            source_text(draw.source(pairing.key, "top")),
        )
        assert (row.bottom_id, row.bottom_bye, row.bottom_source) == (
            pairing.bottom if isinstance(pairing.bottom, int) else None,
            pairing.bottom is BYE,
            source_text(draw.source(pairing.key, "bottom")),
        )
        assert (row.match_length, row.winner_id, row.late) == (
            pairing.match_length,
            pairing.winner,
            False,
        )
        assert (row.decided_at is not None) == (pairing.winner is not None)
        if row.match_id is not None:
            started.append(row)
    assert len(started) == 2

    # and each started slot's match is the tournament's, begun with its opening roll
    for row in started:
        match = Match.objects.get(pk=row.match_id)
        # the round's hour counts from the moment its matches were made, just before they began
        assert timedelta(minutes=59) < row.deadline - match.started_at <= timedelta(minutes=60)
        assert (match.player_0_id, match.player_1_id) == (row.top_id, row.bottom_id)
        assert (match.kind, match.length, match.status, match.rated) == (
            MatchKind.MATCH,
            row.match_length,
            MatchStatus.PLAYING,
            True,
        )
        assert (match.tournament_id, match.stake_cents, match.abandon_policy) == (
            tournament.pk,
            0,
            tournament.abandon_policy,
        )
        assert (match.clock, match.move_seconds, match.reserve_seconds) == ("move", 45, 300)
        assert (match.reserve_ms_0, match.reserve_ms_1) == (300_000, 300_000)
        show_up = timedelta(seconds=tournament.show_up_seconds)
        assert show_up - timedelta(minutes=1) < match.show_up_by - match.started_at <= show_up
        assert match.dice_commitment
        assert match.dice_seed
        game = Game.objects.get(match=match)
        assert (game.number, game.crawford) == (1, False)
        assert game.position_id
        log = list(Action.objects.filter(match=match).order_by("seq"))
        assert [action.seq for action in log] == list(range(1, match.last_seq + 1))
        assert log[0].kind == ActionKind.START
        assert log[0].detail == {"dice_commitment": match.dice_commitment}
        assert {action.kind for action in log[1:]} == {ActionKind.OPENING}
        assert all(action.game_number == 1 and len(action.dice) == 2 for action in log[1:])
        assert log[-1].gnubg_after

    # and every player heard that it started, and each of the four playing that their
    # match is ready, with its link and its data
    bracket = f"/tournaments/{tournament.pk}/bracket/"
    for player in field:
        [told] = Notification.objects.filter(user=player, kind=NoticeKind.TOURNAMENT_STARTED)
        assert (told.key, told.text, told.url, told.data, told.read_at) == (
            f"tournament:{tournament.pk}:started",
            f"{tournament.name} has started. Good luck!",
            bracket,
            {"tournament_id": tournament.pk},
            None,
        )
    for row in started:
        match = Match.objects.get(pk=row.match_id)
        for seat in (0, 1):
            [ready] = Notification.objects.filter(
                user_id=match.player_id(seat), kind=NoticeKind.MATCH_READY
            )
            opponent = match.player(1 - seat).profile.display_name
            assert (ready.key, ready.text, ready.url, ready.data, ready.read_at) == (
                f"match:{match.pk}:ready",
                f"Your 3-point match against {opponent} in {tournament.name} is ready.",
                f"/matches/{match.pk}/",
                {
                    "match_id": match.pk,
                    "show_up_by": match.show_up_by.isoformat(),
                    "tournament_id": tournament.pk,
                },
                None,
            )
