"""The scheduler's tasks: no-shows forfeit and the winner moves on, a result is recorded once,
late matches are marked, and lost work is found again by the sweep."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from matches import deadlines
from matches.models import FinishReason, Match, MatchStatus
from tests.integration.matches.helpers import board_opened
from tests.integration.tournaments.helpers import (
    bracket_rows,
    concede,
    live_matches,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import scheduler, services
from tournaments.models import Pairing
from tournaments.tasks import tournament_match_finished, tournament_sweep

pytestmark = pytest.mark.django_db(transaction=True)


def started(count: int, **settings: object):  # type: ignore[no-untyped-def]
    owner = organizer()
    tournament = open_tournament(owner, **settings)
    field = players(count)
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    return tournament, field


def test_a_player_who_never_shows_forfeits_and_the_opponent_moves_on() -> None:
    # given
    tournament, _ = started(4, show_up_seconds=60)
    match = live_matches(tournament)[0]
    present = User.objects.get(pk=match.player_0_id)
    board_opened(match.pk, present)

    # when
    later = timezone.now() + timedelta(seconds=61)
    assert deadlines.no_show_expire(match_id=match.pk, now=later)

    # then
    match.refresh_from_db()
    assert match.finish_reason == FinishReason.FORFEIT
    pairing = Pairing.objects.get(match_id=match.pk)
    assert pairing.winner_id == present.pk
    final = bracket_rows(tournament)[-1]
    assert present.pk in (final.top_id, final.bottom_id)
    assert Match.objects.get(pk=match.pk).show_up_by is None


def test_the_match_finished_task_run_twice_changes_nothing_the_second_time() -> None:
    # given: a semi-final was won, its task ran once on commit
    tournament, _ = started(4)
    first, second = live_matches(tournament)
    concede(first, User.objects.get(pk=first.player_1_id))
    concede(second, User.objects.get(pk=second.player_1_id))
    rows_before = [
        (r.top_id, r.bottom_id, r.winner_id, r.match_id, r.decided_at)
        for r in bracket_rows(tournament)
    ]
    matches_before = Match.objects.filter(tournament_id=tournament.pk).count()

    # when
    again = tournament_match_finished.apply(args=[first.pk]).get()

    # then
    assert again is False
    rows_after = [
        (r.top_id, r.bottom_id, r.winner_id, r.match_id, r.decided_at)
        for r in bracket_rows(tournament)
    ]
    assert rows_after == rows_before
    assert Match.objects.filter(tournament_id=tournament.pk).count() == matches_before == 3


def test_a_result_whose_task_was_lost_is_recorded_by_the_sweep() -> None:
    # given: a match ends but its result never reached the tournament
    tournament, _ = started(2)
    (match,) = live_matches(tournament)
    Match.objects.filter(pk=match.pk).update(
        status=MatchStatus.FINISHED, winner_seat=0, finish_reason=FinishReason.RESIGNED
    )

    # when
    tournament_sweep.apply().get()

    # then
    tournament.refresh_from_db()
    assert tournament.state == "finished"
    assert tournament.champion_id == match.player_0_id


def test_a_match_past_the_round_deadline_is_marked_late() -> None:
    tournament, _ = started(4, round_minutes=30)
    match = live_matches(tournament)[0]
    pairing = Pairing.objects.get(match_id=match.pk)
    assert pairing.deadline is not None

    report = scheduler.sweep(now=pairing.deadline + timedelta(seconds=1))

    assert report.late == 2
    pairing.refresh_from_db()
    assert pairing.late
    assert scheduler.sweep(now=pairing.deadline + timedelta(seconds=2)).late == 0


def test_an_entrant_sees_their_next_match_and_the_bracket_shows_seeds(client: Client) -> None:
    owner = organizer()
    tournament = open_tournament(owner)
    field = players(4)
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    top_seed = field[-1]  # the highest rated
    match = next(
        m for m in live_matches(tournament) if top_seed.pk in (m.player_0_id, m.player_1_id)
    )
    client.force_login(top_seed)

    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    bracket = client.get(f"/api/tournaments/{tournament.pk}/bracket/").json()

    assert f'href="/matches/{match.pk}/" data-testid="your-next-match"' in page
    seeds = {
        side["username"]: side["seed"]
        for slot in bracket["rounds"][0]["slots"]
        for side in (slot["top"], slot["bottom"])
        if side
    }
    assert seeds[top_seed.username] == 1
    assert sorted(seeds.values()) == [1, 2, 3, 4]
