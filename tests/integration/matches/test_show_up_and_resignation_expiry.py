"""Deadlines that end a wait without costing anyone the match unfairly: a match nobody
starts is aborted with the stakes returned, and a resignation nobody answers is declined."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import ledger
from accounts.models import RatingChange
from matches import deadlines
from matches.models import Action, ActionKind, Match, MatchStatus
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, api_for, board_opened, start_match

pytestmark = pytest.mark.django_db


def _after_show_up(match_id: int) -> None:
    match = Match.objects.get(pk=match_id)
    assert match.show_up_by is not None
    deadlines.no_show_expire(match_id=match_id, now=match.show_up_by + timedelta(seconds=1))


def test_a_staked_match_nobody_comes_to_is_aborted_and_both_stakes_come_back() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    before = [ledger.balance(user=p, currency="FUN") for p in (alice, bruno)]
    house = ledger.house_balance("FUN")
    match_id = start_match(alice, bruno, length=5, stake_cents=1000, currency="FUN")

    _after_show_up(match_id)

    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.ABORTED
    assert [ledger.balance(user=p, currency="FUN") for p in (alice, bruno)] == before
    assert ledger.house_balance("FUN") == house
    assert not RatingChange.objects.filter(match_id=match_id).exists()
    assert match.deadline is None


def test_a_money_session_whose_first_move_is_never_made_is_aborted_without_commission() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    before = [ledger.balance(user=p, currency="FUN") for p in (alice, bruno)]
    match_id = start_match(alice, bruno, money=True, stake_cents=100, max_cube=4)
    board_opened(match_id, alice)
    board_opened(match_id, bruno)

    _after_show_up(match_id)

    assert Match.objects.get(pk=match_id).status == MatchStatus.ABORTED
    assert [ledger.balance(user=p, currency="FUN") for p in (alice, bruno)] == before
    assert ledger.escrow_balance(escrow_ref=f"match:{match_id}", currency="FUN") == 0
    assert ledger.currency_total("FUN") == 0


def test_a_match_both_players_started_is_not_aborted() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    show_up_by = Match.objects.get(pk=match_id).show_up_by
    assert show_up_by is not None
    board_opened(match_id, alice)
    board_opened(match_id, bruno)
    Bot({"alice": alice, "bruno": bruno}).step(match_id)

    expired = deadlines.no_show_expire(match_id=match_id, now=show_up_by + timedelta(seconds=1))

    match = Match.objects.get(pk=match_id)
    assert not expired
    assert match.status == MatchStatus.PLAYING
    assert match.show_up_by is None


@pytest.mark.parametrize("money", [False, True], ids=["blitz 1-point match", "money session"])
def test_no_clock_runs_out_before_anyone_shows_up_and_the_match_is_aborted(money: bool) -> None:
    # given: a fast clock that would run out long before the show-up time, and nobody comes
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    before = [ledger.balance(user=p, currency="FUN") for p in (alice, bruno)]
    house = ledger.house_balance("FUN")
    blitz = {"kind": "move", "move_seconds": 5, "reserve_seconds": 10}
    terms = {"money": True, "stake_cents": 100, "max_cube": 4} if money else {"length": 1}
    match_id = start_match(alice, bruno, clock=blitz, **terms)
    started = timezone.now()
    show_up_by = Match.objects.get(pk=match_id).show_up_by
    assert show_up_by is not None

    # when: the sweeper runs well past the clock's deadline, then past the show-up time
    deadlines.sweep_due(batch=10, now=started + timedelta(seconds=60))
    during = Match.objects.get(pk=match_id)
    deadlines.sweep_due(batch=10, now=show_up_by + timedelta(seconds=1))

    # then: nothing was decided on time; the match is aborted, the money all back
    assert during.status == MatchStatus.PLAYING
    assert during.games.count() == 1
    assert not Action.objects.filter(match_id=match_id, kind=ActionKind.TIMEOUT).exists()
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.ABORTED
    assert [ledger.balance(user=p, currency="FUN") for p in (alice, bruno)] == before
    assert ledger.house_balance("FUN") == house
    assert ledger.currency_total("FUN") == 0


def test_a_resignation_nobody_answers_is_declined_and_play_goes_on() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    bot = Bot({"alice": alice, "bruno": bruno})
    bot.step(match_id)
    state = bot.state(match_id)
    resigner = state["game"]["turn"]
    client = bot.clients[resigner]
    client.post(
        f"/api/matches/{match_id}/actions/",
        {"type": "resign", "seq": 99, "resign": "single"},
        format="json",
    )
    match = Match.objects.get(pk=match_id)
    other = 1 - state["players"].index(resigner)
    reserve = match.reserve_ms(other)
    assert match.deadline is not None

    # when nobody answers until well past the answer time and the clock
    later = timezone.now() + timedelta(hours=1)
    handled = deadlines.timeout_expire(match_id=match_id, now=later)

    # then the offer is declined, the match goes on, and the silent player lost no time
    match.refresh_from_db()
    after = api_for(alice).get(f"/api/matches/{match_id}/").json()
    assert handled
    assert match.status == MatchStatus.PLAYING
    assert after["game"]["resignation"] is None
    assert after["game"]["turn"] == resigner
    assert match.reserve_ms(other) == reserve
    expired = Action.objects.filter(match=match, kind=ActionKind.REJECT_RESIGN).get()
    assert expired.detail == {"expired": True}
