"""Every new player gets their play money once, and sees it in the navigation."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client, RequestFactory

from accounts import ledger
from accounts.context_processors import navigation
from accounts.models import LedgerTransaction, TransactionKind, User
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_signing_up_grants_one_thousand_play_money_and_shows_it(client: Client) -> None:
    response = client.post(
        "/signup/",
        {"username": "rookie", "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )

    rookie = User.objects.get(username="rookie")
    assert ledger.balances(user=rookie) == {"FUN": 100000, "REAL": 0}
    assert 'data-testid="nav-balance"' in response.content.decode()
    assert "1,000.00 <small>FUN</small>" in response.content.decode()


def test_the_grant_lands_once_however_often_it_is_asked_for() -> None:
    player = UserFactory()

    again = ledger.grant(user=player, key=f"grant:{player.pk}")

    assert again.kind == TransactionKind.GRANT
    assert LedgerTransaction.objects.filter(kind=TransactionKind.GRANT).count() == 1
    assert ledger.balance(user=player, currency="FUN") == 100000
    assert ledger.currency_total("FUN") == 0


def test_the_grant_follows_the_setting(settings: Any) -> None:
    settings.CRAWFORD_FUN_GRANT_CENTS = 2500

    assert ledger.balance(user=UserFactory(), currency="FUN") == 2500


def test_no_grant_when_the_setting_is_zero(settings: Any) -> None:
    settings.CRAWFORD_FUN_GRANT_CENTS = 0

    player = UserFactory()

    assert ledger.balances(user=player) == {"FUN": 0, "REAL": 0}
    assert not LedgerTransaction.objects.exists()


def test_the_navigation_balance_costs_one_query(django_assert_num_queries: Any) -> None:
    player = User.objects.prefetch_related("groups").get(pk=UserFactory().pk)
    request = RequestFactory().get("/")
    request.user = player
    with django_assert_num_queries(1):
        context = navigation(request)
    assert (context["nav_balance"], context["nav_currency"]) == (100000, "FUN")

    request.user = AnonymousUser()
    assert "nav_balance" not in navigation(request)
