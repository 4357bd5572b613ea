"""A program starts from nothing: ``POST /api/auth/signup/`` makes an account under the
sign-up page's rules and answers an API token for it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rest_framework.test import APIClient

from accounts.ledger import balances
from accounts.models import User
from tests.factories import PASSWORD, UserFactory
from tests.integration.config.rate_limits import low_rates
from tests.mailbox import Mailbox

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _tasks_in_process(tasks_run_in_process: None) -> Iterator[None]:
    with low_rates():
        yield


def _sign_up(**body: object) -> tuple[int, dict[str, object]]:
    response = APIClient().post("/api/auth/signup/", body, format="json")
    return response.status_code, response.json()


def test_a_bot_signs_up_and_plays_with_the_token_it_gets() -> None:
    status, answer = _sign_up(username="gnubot", password=PASSWORD, display_name="GNU Bot")

    assert status == 201, answer
    assert answer["username"] == "gnubot"
    me = APIClient().get("/api/me/", HTTP_AUTHORIZATION=f"Token {answer['token']}")
    assert me.status_code == 200
    assert me.json()["display_name"] == "GNU Bot"
    assert balances(user=User.objects.get(username="gnubot"))["FUN"] == 100_000


def test_an_address_given_is_mailed_a_link_to_confirm_it(mailbox: Mailbox) -> None:
    status, _ = _sign_up(username="gnubot", password=PASSWORD, email="bot@example.com")

    assert status == 201
    [message] = mailbox.about("confirm your e-mail address")
    assert message["To"] == "bot@example.com"


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"username": "alice"}, "username: A user with that username already exists."),
        ({"username": "a1ice"}, "looks like another player's name"),
        ({"password": "password123"}, "password: This password is too common."),
        ({"password": "short"}, "password: This password is too short."),
        ({"username": "pаypal"}, "username: A username must be written in one script"),
        ({"email": "not an address"}, "email: Enter a valid email address."),
    ],
)
def test_the_sign_up_pages_rules_refuse_with_a_message(body: dict[str, str], detail: str) -> None:
    UserFactory(username="alice")

    status, answer = _sign_up(**{"username": "newbie", "password": PASSWORD, **body})

    assert status == 400
    assert detail in str(answer["detail"])
    assert (
        not User.objects.filter(username=body.get("username", "newbie"))
        .exclude(username="alice")
        .exists()
    )


def test_sign_ups_share_the_pages_budget_per_address() -> None:
    with low_rates(signup="2/hour"):
        first, _ = _sign_up(username="bot1", password=PASSWORD)
        second, _ = _sign_up(username="bot2", password=PASSWORD)
        third, _ = _sign_up(username="bot3", password=PASSWORD)

    assert (first, second, third) == (201, 201, 429)


def test_the_schema_documents_the_sign_up() -> None:
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()

    operation = schema["paths"]["/api/auth/signup/"]["post"]
    assert set(operation["responses"]) >= {"201", "400", "429"}
    assert operation["security"] == [{}]
