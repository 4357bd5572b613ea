"""A wallet line says what happened to the player's money in words: a stake held, a stake
given back (a refund, whether the match was aborted or an adjudication moved no money),
a share of the stakes paid out after the house's commission."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.utils import timezone

from accounts import ledger
from accounts.ledger.reads import HistoryLine
from accounts.models import User
from matches import money
from matches.lifecycle import match_abort
from matches.models import Match
from matches.state import lock_match
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match

pytestmark = pytest.mark.django_db(transaction=True)


def newest(user: User) -> HistoryLine:
    return ledger.history(user=user, limit=1)[0]


def words(line: HistoryLine) -> tuple[str, str, str]:
    return line.kind, line.description, line.detail


def _money_session() -> tuple[Match, User, User]:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, money=True, stake_cents=50)
    return Match.objects.get(pk=match_id), alice, bruno


def test_a_stake_held_for_a_money_game_says_it_is_held() -> None:
    _, alice, _ = _money_session()

    assert words(newest(alice)) == (
        "stake",
        "Stake",
        "Held in escrow until the game or match is settled",
    )


def test_an_adjudication_that_moves_no_money_gives_the_stakes_back_as_a_refund() -> None:
    # given a money session whose first game is adjudicated level: nobody wins anything
    match, alice, bruno = _money_session()
    before = ledger.balance(user=alice, currency="FUN")
    split = money.adjudicated_game_split(match, cubeful_equity=0.0, cube_value=1)

    # when it is settled
    with transaction.atomic():
        money.settle_adjudicated_game(match, 1, split)

    # then each wallet reads a refund of the stake, and the stake is back whole
    for player in (alice, bruno):
        line = newest(player)
        assert words(line) == ("refund", "Refund", "Your stake back")
        assert line.amount == money.exposure_cents(match)
    assert ledger.balance(user=alice, currency="FUN") == before + money.exposure_cents(match)
    assert ledger.currency_total("FUN") == 0


def test_an_adjudication_that_moves_money_is_a_payout_after_commission() -> None:
    match, alice, _ = _money_session()
    split = money.adjudicated_game_split(match, cubeful_equity=0.6, cube_value=1)

    with transaction.atomic():
        money.settle_adjudicated_game(match, 1, split)

    assert words(newest(alice)) == (
        "settlement",
        "Payout",
        "Your share of the stakes, after the house's commission",
    )


def test_an_aborted_match_gives_the_stakes_back_as_a_refund() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3, stake_cents=200)

    with transaction.atomic():
        match = lock_match(match_id)
        match_abort(match, absent=[1], moment=timezone.now())
        match.save()

    assert words(newest(bruno)) == ("refund", "Refund", "Your stake back")
    assert newest(bruno).amount == 200
