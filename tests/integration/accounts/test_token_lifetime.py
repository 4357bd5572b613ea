"""API tokens expire; their owner lists and revokes them, and a new password or logging
out everywhere revokes them all."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.test.utils import override_settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from knox.models import AuthToken

from accounts.roles import Role
from accounts.tokens import MAX_LIVE_TOKENS
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def issue(username: str) -> dict[str, Any]:
    response = Client().post(
        "/api/auth/token/",
        {"username": username, "password": PASSWORD},
        content_type="application/json",
    )
    assert response.status_code == 200, response.json()
    return dict(response.json())


def bearer(token: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {token}")


@override_settings(API_TOKEN_TTL=timedelta(hours=2))
def test_a_token_expires_after_the_configured_lifetime() -> None:
    UserFactory(username="bot")

    issued = issue("bot")

    expiry = parse_datetime(issued["expiry"])
    assert expiry is not None
    assert abs(expiry - (timezone.now() + timedelta(hours=2))) < timedelta(minutes=1)
    assert bearer(issued["token"]).get("/api/me/").status_code == 200
    AuthToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))
    expired = bearer(issued["token"]).get("/api/me/")
    assert expired.status_code == 401
    assert expired.json()["detail"] == "Invalid token."


def test_the_owner_lists_their_tokens_by_an_id_that_is_not_the_secret() -> None:
    UserFactory(username="bot")
    UserFactory(username="other")
    older, newer = issue("bot"), issue("bot")
    issue("other")

    listed = bearer(newer["token"]).get("/api/auth/tokens/").json()

    assert [row["id"] for row in listed] == [newer["id"], older["id"]]
    assert [row["current"] for row in listed] == [True, False]
    for row, issued in zip(listed, (newer, older), strict=True):
        assert row["id"] not in issued["token"]
        assert row["expiry"] == issued["expiry"]
        assert set(row) == {"id", "created", "expiry", "current"}


def test_a_revoked_token_stops_working_and_the_others_go_on() -> None:
    UserFactory(username="bot")
    kept, revoked = issue("bot"), issue("bot")
    client = bearer(kept["token"])

    response = client.delete(f"/api/auth/tokens/{revoked['id']}/")

    assert response.status_code == 204
    assert bearer(revoked["token"]).get("/api/me/").status_code == 401
    assert client.get("/api/me/").status_code == 200
    assert [row["id"] for row in client.get("/api/auth/tokens/").json()] == [kept["id"]]


def test_nobody_revokes_another_players_token() -> None:
    UserFactory(username="bot")
    UserFactory(username="mallory")
    victim, attacker = issue("bot"), issue("mallory")

    response = bearer(attacker["token"]).delete(f"/api/auth/tokens/{victim['id']}/")

    assert response.status_code == 404
    assert bearer(victim["token"]).get("/api/me/").status_code == 200


def test_an_id_that_is_not_one_gets_404_with_a_message() -> None:
    UserFactory(username="bot")
    client = bearer(issue("bot")["token"])

    response = client.delete("/api/auth/tokens/not-an-id/")

    assert response.status_code == 404
    assert response.json()["detail"] == "A token id is 16 hexadecimal digits, as listed."


def test_logging_out_everywhere_revokes_every_token() -> None:
    UserFactory(username="bot")
    UserFactory(username="other")
    tokens = [issue("bot")["token"] for _ in range(3)]
    others = issue("other")["token"]

    response = bearer(tokens[0]).post("/api/auth/logout-all/")

    assert response.status_code == 200
    assert response.json() == {"revoked": 3, "sessions": 0}
    assert all(bearer(token).get("/api/me/").status_code == 401 for token in tokens)
    assert bearer(others).get("/api/me/").status_code == 200


def test_changing_the_password_revokes_every_token(client: Client) -> None:
    user = UserFactory(username="bot")
    token = issue("bot")["token"]
    client.force_login(user)

    response = client.post(
        "/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-secret",
            "new_password2": "another-long-secret",
        },
    )

    assert response.status_code == 302
    assert bearer(token).get("/api/me/").status_code == 401
    assert client.get("/profile/").status_code == 200  # this browser stays logged in


def test_a_password_staff_set_in_the_admin_revokes_every_token(client: Client) -> None:
    player = UserFactory(username="bot")
    token = issue("bot")["token"]
    staff = UserFactory(username="sam", role=Role.STAFF)
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client.force_login(staff)

    response = client.post(
        f"/admin/accounts/user/{player.pk}/password/",
        {"password1": "a-new-long-secret", "password2": "a-new-long-secret"},
    )

    assert response.status_code == 302
    assert bearer(token).get("/api/me/").status_code == 401
    player.refresh_from_db()
    assert player.check_password("a-new-long-secret")


def test_a_player_cannot_pile_up_tokens_without_end() -> None:
    UserFactory(username="bot")
    for _ in range(MAX_LIVE_TOKENS):
        issue("bot")

    refused = Client().post(
        "/api/auth/token/",
        {"username": "bot", "password": PASSWORD},
        content_type="application/json",
    )

    assert refused.status_code == 409
    assert refused.json()["detail"].startswith(f"You already have {MAX_LIVE_TOKENS} API tokens")


def test_token_management_needs_credentials() -> None:
    assert Client().get("/api/auth/tokens/").status_code == 401
    assert Client().post("/api/auth/logout-all/").status_code == 401
