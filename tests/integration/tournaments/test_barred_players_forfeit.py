"""A player suspended or closed by fair play forfeits their matches in running tournaments:
the match they are playing at once, and each later match of the draw the moment it comes
up, as a no-show would; the opponent advances, the prizes follow the bracket, no money is
made or lost, and the forfeit does not count as stalling."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from accounts import ledger
from accounts.models import User
from fairplay.cases import case_report
from fairplay.detectors import stalling
from fairplay.models import CaseKind, Sanction
from lobby.models import Notification
from matches.models import FinishReason, Match, MatchStatus
from tests.integration.disputes.helpers import staff
from tests.integration.matches.helpers import Bot, api_for
from tests.integration.tournaments.helpers import (
    bracket_rows,
    live_matches,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentState

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _knockout_of_four() -> tuple[Tournament, list[User]]:
    owner = organizer()
    field = players(4)
    tournament = open_tournament(owner, round_lengths=(1, 1))
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    return tournament, field


def _sanction(player: User, **sanction: Any) -> Sanction:
    case = case_report(
        kind=CaseKind.ACCOUNTS, subject=player, key=f"test:{player.pk}", summary="x", evidence={}
    )
    answer = api_for(staff()).post(
        f"/api/fairplay/cases/{case.pk}/decide/",
        {"decision": "sanction", "reason": "Found out.", "sanctions": [sanction]},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    return Sanction.objects.get(case=case)


def _play_out(match: Match, field: list[User]) -> None:
    seated = [user for user in field if user.pk in (match.player_0_id, match.player_1_id)]
    Bot({user.username: user for user in seated}).play_out(match.pk)


def _other(match: Match, player: User) -> User:
    return match.player_1 if match.player_0_id == player.pk else match.player_0


def test_a_suspended_player_forfeits_the_match_they_are_playing_and_the_opponent_advances() -> None:
    # given a knockout of four in its first round
    tournament, field = _knockout_of_four()
    first, second = live_matches(tournament)
    suspended = first.player_0
    opponent = _other(first, suspended)

    # when fair play suspends a player in the middle of their match
    until = (timezone.now() + timedelta(days=7)).isoformat()
    sanction = _sanction(suspended, kind="suspend", until=until)

    # then the match is the opponent's by forfeit, and the opponent meets the other winner
    first.refresh_from_db()
    assert (first.status, first.finish_reason) == (MatchStatus.FINISHED, FinishReason.FORFEIT)
    assert first.player(first.winner_seat) == opponent
    assert sanction.outcome["tournament_matches_forfeited"] == [first.pk]
    told = Notification.objects.get(user=opponent, key=f"match:{first.pk}:over").text
    name = suspended.profile.display_name
    assert told.endswith(f": {name} forfeited: their account is suspended or closed."), told
    _play_out(second, field)
    second.refresh_from_db()
    (final,) = live_matches(tournament)
    assert {final.player_0_id, final.player_1_id} == {
        opponent.pk,
        second.player_id(second.winner_seat),
    }
    # and a forfeit for a sanction is no walk-away
    assert stalling.stalls_of(suspended, days=int(settings.FAIRPLAY["STALLING_DAYS"])) == []


def test_a_closed_players_next_match_is_forfeited_when_it_comes_up_and_the_prizes_follow() -> None:
    # given a knockout of four whose first semi-final is won, the other still played
    tournament, field = _knockout_of_four()
    first, second = live_matches(tournament)
    _play_out(first, field)
    first.refresh_from_db()
    closed = first.player(first.winner_seat)
    before = {user.pk: ledger.balance(user=user, currency="FUN") for user in field}

    # when fair play closes the winner's account, then the other semi-final ends
    sanction = _sanction(closed, kind="close")
    assert sanction.outcome["tournament_matches_forfeited"] == []
    _play_out(second, field)

    # then the final came up, was forfeited at once, and its winner is the champion
    second.refresh_from_db()
    finalist = second.player(second.winner_seat)
    final = Match.objects.get(pk=bracket_rows(tournament)[-1].match_id)
    assert (final.status, final.finish_reason) == (MatchStatus.FINISHED, FinishReason.FORFEIT)
    assert final.player(final.winner_seat) == finalist
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    assert tournament.champion_id == finalist.pk
    entries = {entry.user_id: entry for entry in Entry.objects.filter(tournament=tournament)}
    assert (entries[finalist.pk].place, entries[closed.pk].place) == (1, 2)
    # the prizes went where the bracket says; the closed player's balance had been paid out
    paid_out = sanction.outcome["paid_out"].get("FUN", 0)
    for user in field:
        expected = before[user.pk] + entries[user.pk].prize_cents
        if user.pk == closed.pk:
            expected -= paid_out
        assert ledger.balance(user=user, currency="FUN") == expected
    assert ledger.currency_total("FUN") == 0
