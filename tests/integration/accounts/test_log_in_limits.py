"""Guessing passwords is slow: log-in and sign-up are rate limited per address, and
repeated failures lock out the account and the address, on the form and the token API."""

from __future__ import annotations

import asyncio

import pytest
from django.test import AsyncClient, Client
from django.test.utils import override_settings

from accounts.models import User
from tests.factories import PASSWORD, UserFactory
from tests.integration.config.rate_limits import low_rates

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/auth/token/"
LOCKOUT_SECONDS = str(15 * 60)


def log_in(client: Client, username: str, password: str, address: str = "10.0.0.1") -> object:
    return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def token(client: Client, username: str, password: str, address: str = "10.0.0.1") -> object:
    return client.post(
        TOKEN_URL,
        {"username": username, "password": password},
        content_type="application/json",
        REMOTE_ADDR=address,
    )


def sign_up(client: Client, username: str) -> object:
    return client.post(
        "/signup/",
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR="10.0.0.9",
    )


def test_the_log_in_form_past_its_rate_answers_429_with_a_page_and_retry_after(
    client: Client,
) -> None:
    UserFactory(username="alice")
    with low_rates(login="2/minute"):
        log_in(Client(), "alice", PASSWORD)
        log_in(Client(), "alice", PASSWORD)

        refused = log_in(client, "alice", PASSWORD)

    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "Too many log-ins have been tried from your address" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_rate_is_per_address(client: Client) -> None:
    UserFactory(username="alice")
    with low_rates(login="1/minute"):
        log_in(Client(), "alice", PASSWORD, address="10.0.0.1")

        elsewhere = log_in(client, "alice", PASSWORD, address="10.0.0.2")

    assert elsewhere.status_code == 302
    assert client.session["_auth_user_id"] == str(User.objects.get(username="alice").pk)


def test_the_token_api_shares_the_log_in_budget_and_answers_429_in_json(client: Client) -> None:
    UserFactory(username="bot")
    with low_rates(login="2/minute"):
        log_in(Client(), "bot", PASSWORD)
        assert token(client, "bot", PASSWORD).status_code == 200

        refused = token(client, "bot", PASSWORD)

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert refused.json()["detail"].startswith("Request was throttled.")


def test_signing_up_past_its_rate_answers_429_and_creates_nobody(client: Client) -> None:
    with low_rates(signup="2/hour"):
        sign_up(Client(), "first")
        sign_up(Client(), "second")

        refused = sign_up(client, "third")

    assert refused.status_code == 429
    assert 60 < int(refused["Retry-After"]) <= 3600
    assert "Too many accounts have been made from your address" in refused.content.decode()
    assert list(User.objects.order_by("username").values_list("username", flat=True)) == [
        "first",
        "second",
    ]


@override_settings(AXES_FAILURE_LIMIT=3)
def test_failed_log_ins_lock_the_account_even_against_the_right_password(
    client: Client,
) -> None:
    UserFactory(username="alice")
    for address in ("10.0.0.1", "10.0.0.2"):
        assert log_in(Client(), "alice", "guess", address).status_code == 200
    third = log_in(Client(), "alice", "guess", "10.0.0.3")

    locked = log_in(client, "alice", PASSWORD, "10.0.0.4")

    assert third.status_code == 429
    assert locked.status_code == 429
    assert locked["Retry-After"] == LOCKOUT_SECONDS
    assert "Too many failed log-ins for this account or from your address" in (
        locked.content.decode()
    )
    assert "Try again in 15 minutes." in locked.content.decode()
    assert "_auth_user_id" not in client.session


@override_settings(AXES_FAILURE_LIMIT=3)
def test_failed_log_ins_lock_the_address_out_for_every_account(client: Client) -> None:
    UserFactory(username="alice")
    for guessed in ("bruno", "chloe", "dmitri"):
        log_in(Client(), guessed, "guess", "10.0.0.7")

    from_there = log_in(client, "alice", PASSWORD, "10.0.0.7")
    from_elsewhere = log_in(Client(), "alice", PASSWORD, "10.0.0.8")

    assert from_there.status_code == 429
    assert from_there["Retry-After"] == LOCKOUT_SECONDS
    assert from_elsewhere.status_code == 302


@override_settings(AXES_FAILURE_LIMIT=3)
def test_the_token_api_locks_out_after_repeated_failures(client: Client) -> None:
    UserFactory(username="bot")
    first, second = token(client, "bot", "guess"), token(client, "bot", "guess")
    third = token(client, "bot", "guess")

    locked = token(client, "bot", PASSWORD, address="10.0.0.5")

    assert (first.status_code, second.status_code) == (400, 400)
    assert third.status_code == 429
    assert locked.status_code == 429
    assert locked["Retry-After"] == LOCKOUT_SECONDS
    assert locked.json()["detail"] == (
        "Too many failed log-ins for this account or from your address. Try again in 15 minutes."
    )


@override_settings(AXES_FAILURE_LIMIT=3)
def test_failures_on_the_form_and_the_api_add_up(client: Client) -> None:
    UserFactory(username="bot")
    log_in(Client(), "bot", "guess")
    token(Client(), "bot", "guess")

    assert token(client, "bot", "guess").status_code == 429


@pytest.mark.django_db(transaction=True)
# The sessions the async threads leave open are ended before the database is dropped.
@pytest.mark.usefixtures("other_processes_leave_the_test_database")
@override_settings(AXES_FAILURE_LIMIT=2)
def test_the_lockout_page_is_served_by_the_asgi_server_too() -> None:
    """Under daphne, django-axes' middleware answers from its async path."""
    UserFactory(username="alice")
    client = AsyncClient()

    async def three_guesses() -> list[object]:
        return [
            await client.post("/login/", {"username": "alice", "password": "guess"})
            for _ in range(3)
        ]

    answers = asyncio.run(three_guesses())

    assert [answer.status_code for answer in answers] == [200, 429, 429]
    assert answers[2]["Retry-After"] == LOCKOUT_SECONDS
