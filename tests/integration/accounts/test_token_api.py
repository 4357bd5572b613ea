"""Programs log in with a token and read the OpenAPI schema."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def issue(client: Client, username: str) -> dict[str, Any]:
    response = client.post(
        "/api/auth/token/",
        {"username": username, "password": PASSWORD},
        content_type="application/json",
    )
    assert response.status_code == 200, response.json()
    return dict(response.json())


def test_token_for_a_good_password_authenticates_later_calls(client: Client) -> None:
    UserFactory(username="bot", display_name="Gammon Bot")

    response = client.post(
        "/api/auth/token/",
        {"username": "bot", "password": PASSWORD},
        content_type="application/json",
    )

    assert response.status_code == 200
    token = response.json()["token"]
    me = Client().get("/api/me/", HTTP_AUTHORIZATION=f"Token {token}")
    assert me.status_code == 200
    assert me.json()["username"] == "bot"
    assert me.json()["display_name"] == "Gammon Bot"
    assert me.json()["role"] == "player"
    assert me.json()["rating"] == 1500.0


def test_each_log_in_gets_a_token_of_its_own_and_both_work(client: Client) -> None:
    UserFactory(username="bot")

    first, second = issue(client, "bot"), issue(client, "bot")

    assert first["token"] != second["token"]
    for issued in (first, second):
        me = Client().get("/api/me/", HTTP_AUTHORIZATION=f"Token {issued['token']}")
        assert me.status_code == 200


def test_a_wrong_password_gets_400_with_a_message(client: Client) -> None:
    UserFactory(username="bot")

    response = client.post(
        "/api/auth/token/", {"username": "bot", "password": "x"}, content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["detail"] == "Those are not a valid username and password."


def test_a_malformed_request_gets_400_naming_the_missing_field(client: Client) -> None:
    response = client.post("/api/auth/token/", {"username": "bot"}, content_type="application/json")

    assert response.status_code == 400
    assert response.json()["detail"] == "password: This field is required."


def test_a_bad_token_is_refused() -> None:
    response = Client().get("/api/me/", HTTP_AUTHORIZATION="Token not-a-token")
    assert response.status_code == 401
    assert response.json()["detail"] == "Invalid token."


def test_openapi_schema_builds_without_warnings(tmp_path: object) -> None:
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", f"{tmp_path}/schema.yml")


def test_schema_and_docs_are_served() -> None:
    client = Client()
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/auth/token/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content
