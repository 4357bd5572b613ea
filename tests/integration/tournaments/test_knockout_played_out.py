"""A 13-player knockout played to the end through the match API: byes, rounds, prizes, money."""

from __future__ import annotations

import pytest

from accounts import ledger
from accounts.models import User
from matches.models import Match, MatchStatus
from tests.integration.tournaments.helpers import (
    bracket_rows,
    open_tournament,
    organizer,
    play_round,
    players,
    register_all,
)
from tournaments import services
from tournaments.models import Entry, TournamentState

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_thirteen_players_play_a_knockout_to_the_end_and_the_prizes_are_paid() -> None:
    # given
    owner = organizer()
    field = players(13)
    tournament = open_tournament(owner, round_lengths=(1, 1, 1, 1))
    register_all(tournament, field)
    before = {user.pk: ledger.balance(user=user, currency="FUN") for user in field}
    house_before = ledger.house_balance("FUN")

    # when
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    rounds_played = []
    while (played := play_round(tournament, field)) > 0:
        rounds_played.append(played)

    # then
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    assert rounds_played == [5, 4, 2, 1]  # 3 top seeds had byes in a bracket of 16
    rows = bracket_rows(tournament)
    assert len(rows) == 15
    assert all(row.winner_id is not None for row in rows)
    assert sum(1 for row in rows if row.top_bye or row.bottom_bye) == 3
    final = rows[-1]
    assert tournament.champion_id == final.winner_id
    assert Match.objects.filter(tournament_id=tournament.pk).count() == 12
    assert not Match.objects.filter(
        tournament_id=tournament.pk, status=MatchStatus.PLAYING
    ).exists()

    pool = 13 * 1000
    assert tournament.prize_pool_cents == pool
    assert ledger.escrow_balance(escrow_ref=tournament.escrow_ref, currency="FUN") == 0
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=tournament)}
    runner_up = final.top_id if final.winner_id == final.bottom_id else final.bottom_id
    # 13 players are paid like 8: 65% and 35%.
    assert entries[final.winner_id].prize_cents == 8450
    assert entries[final.winner_id].place == 1
    assert entries[runner_up].prize_cents == 4550
    assert entries[runner_up].place == 2
    after = {user.pk: ledger.balance(user=user, currency="FUN") for user in field}
    for user in field:
        assert after[user.pk] == before[user.pk] + entries[user.pk].prize_cents
    assert sum(after.values()) == sum(before.values()) + pool
    assert ledger.house_balance("FUN") == house_before  # fees were taken at registration
    assert ledger.currency_total("FUN") == 0


def test_every_player_in_the_final_has_been_rated_by_the_matches_alone() -> None:
    owner = organizer()
    field = players(4)
    tournament = open_tournament(owner, buy_in_cents=0, fee_cents=0)
    register_all(tournament, field)

    services.tournament_start(tournament_id=tournament.pk, user=owner)
    while play_round(tournament, field):
        pass

    tournament.refresh_from_db()
    champion = User.objects.select_related("profile").get(pk=tournament.champion_id)
    assert champion.profile.experience == 2  # two 1-point matches, rated once each
