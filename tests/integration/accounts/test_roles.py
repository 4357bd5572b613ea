"""What an anonymous visitor, a player, an organizer and staff may each do."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from accounts.roles import Role
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PERMISSIONS = [
    "accounts.play_games",
    "accounts.organize_tournaments",
    "accounts.handle_disputes",
    "accounts.adjust_wallets",
]


@pytest.mark.parametrize(
    ("role", "granted"),
    [
        (Role.PLAYER, {"accounts.play_games"}),
        (Role.ORGANIZER, {"accounts.play_games", "accounts.organize_tournaments"}),
        (
            Role.STAFF,
            {"accounts.play_games", "accounts.handle_disputes", "accounts.adjust_wallets"},
        ),
    ],
)
def test_each_role_has_exactly_its_permissions(role: Role, granted: set[str]) -> None:
    user = UserFactory(role=role)
    user = User.objects.get(pk=user.pk)  # fresh object: no cached permissions

    assert {name for name in PERMISSIONS if user.has_perm(name)} == granted
    assert user.role == role.value


def test_anonymous_visitors_see_the_home_page_but_not_a_profile(client: Client) -> None:
    assert client.get("/").status_code == 200
    response = client.get("/profile/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


@pytest.mark.parametrize(
    ("role", "admin_status"),
    [(Role.PLAYER, 302), (Role.ORGANIZER, 302), (Role.STAFF, 200)],
)
def test_only_staff_reach_the_admin_site(client: Client, role: Role, admin_status: int) -> None:
    client.force_login(UserFactory(role=role))

    assert client.get("/admin/").status_code == admin_status


def test_staff_can_view_players_in_the_admin_but_not_delete_them(client: Client) -> None:
    player = UserFactory()
    client.force_login(UserFactory(role=Role.STAFF))

    assert client.get(f"/admin/accounts/user/{player.pk}/change/").status_code == 200
    assert client.get(f"/admin/accounts/user/{player.pk}/delete/").status_code == 403


def test_anonymous_api_callers_are_refused() -> None:
    response = Client().get("/api/me/")
    assert response.status_code == 401
    assert "credentials were not provided" in response.json()["detail"]
