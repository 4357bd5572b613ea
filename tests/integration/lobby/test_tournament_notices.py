"""A Sit & Go tells its entrants that it started, that each match is ready (the next one
too), who is out, and who was paid what."""

from __future__ import annotations

import pytest

from accounts.models import User
from accounts.money import money_text
from lobby import tournament_notices
from lobby.models import NoticeKind, Notification
from matches.models import Match, MatchStatus
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import (
    concede_round,
    open_tournament,
    organizer,
    players,
)
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _told(user: User, kind: str) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=kind).order_by("created_at", "pk"))


def _full_sit_and_go(field: list[User]) -> Tournament:
    tournament = open_tournament(
        organizer(),
        name="Friday Sit & Go",
        format="sit_and_go",
        seats=len(field),
        buy_in_cents=500,
        fee_cents=35,
        round_lengths=(1,),
    )
    for entrant in field:
        response = api_for(entrant).post(f"/api/tournaments/{tournament.pk}/register/")
        assert response.status_code == 200, response.json()
    return tournament


def test_entrants_hear_the_start_and_that_their_first_match_is_ready() -> None:
    field = players(4)
    tournament = _full_sit_and_go(field)

    for entrant in field:
        [started] = _told(entrant, NoticeKind.TOURNAMENT_STARTED)
        assert started.text == "Friday Sit & Go has started. Good luck!"
        assert started.url == f"/tournaments/{tournament.pk}/bracket/"
        [ready] = _told(entrant, NoticeKind.MATCH_READY)
        match = Match.objects.get(pk=ready.data["match_id"])
        opponent = match.player(1 - (match.seat_of(entrant) or 0))
        assert ready.text == (
            f"Your 1-point match against {opponent.profile.display_name} "
            "in Friday Sit & Go is ready."
        )
        assert ready.url == f"/matches/{match.pk}/"
        assert ready.data["tournament_id"] == tournament.pk
        assert ready.data["show_up_by"] == (
            match.show_up_by.isoformat() if match.show_up_by else None
        )


def test_the_next_match_drawn_the_knocked_out_and_the_prizes_are_told() -> None:
    # given a four-seat Sit & Go whose first round is played
    field = players(4)
    tournament = _full_sit_and_go(field)
    concede_round(tournament)

    # then the losers are out, the winners hear of the final
    final = Match.objects.get(tournament_id=tournament.pk, status=MatchStatus.PLAYING)
    finalists = {final.player_0_id, final.player_1_id}
    for entrant in field:
        out = _told(entrant, NoticeKind.ELIMINATED)
        ready = _told(entrant, NoticeKind.MATCH_READY)
        if entrant.pk in finalists:
            assert (len(out), len(ready)) == (0, 2)
        else:
            assert [n.text for n in out] == ["You are out of Friday Sit & Go. Thanks for playing."]
            assert len(ready) == 1

    # when the final is played
    concede_round(tournament)

    # then the champion and everyone paid hear what they won, as money
    entries = Entry.objects.filter(tournament=tournament).select_related("user")
    told = {entry.place: [n.text for n in _told(entry.user, NoticeKind.PRIZE)] for entry in entries}
    paid = {entry.place: money_text(entry.prize_cents) for entry in entries}
    assert told[1] == [f"You won Friday Sit & Go: {paid[1]} FUN is in your wallet."]
    assert told[2] == (
        [f"You finished 2nd in Friday Sit & Go: {paid[2]} FUN is in your wallet."]
        if paid[2] != "0.00"
        else []
    )


def test_the_tournament_tasks_tell_nobody_twice() -> None:
    field = players(2)
    tournament = _full_sit_and_go(field)

    again = tournament_notices.tell_tournament_started(tournament_id=tournament.pk)

    assert again == 0
    assert all(len(_told(entrant, NoticeKind.TOURNAMENT_STARTED)) == 1 for entrant in field)
