"""A newcomer signs up, logs in and out, and keeps the preferences they set."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Profile, User
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_sign_up_creates_a_player_with_a_starting_profile_and_logs_them_in(client: Client) -> None:
    response = client.post(
        "/signup/",
        {
            "username": "newbie",
            "email": "",
            "display_name": "New Bie",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        follow=True,
    )

    assert response.status_code == 200
    user = User.objects.get(username="newbie")
    assert user.role == "player"
    assert user.profile.display_name == "New Bie"
    assert user.profile.rating == 1500.0
    assert user.profile.experience == 0
    assert user.profile.use_doubling_cube is True
    assert b"Welcome to Crawford, New Bie" in response.content
    assert response.context["user"] == user


def test_sign_up_explains_a_password_mismatch_and_creates_nobody(client: Client) -> None:
    response = client.post(
        "/signup/",
        {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )

    assert response.status_code == 200
    assert "The two password fields didn\u2019t match." in response.content.decode()
    assert not User.objects.filter(username="newbie").exists()


def test_log_in_shows_the_player_and_role_in_the_navigation(client: Client) -> None:
    UserFactory(username="alice", display_name="Alice M")

    response = client.post("/login/", {"username": "alice", "password": PASSWORD}, follow=True)

    page = response.content.decode()
    assert "Alice M" in page
    assert 'data-testid="nav-role">player<' in page


def test_wrong_password_is_refused_with_a_message(client: Client) -> None:
    UserFactory(username="alice")

    response = client.post("/login/", {"username": "alice", "password": "nope"})

    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_log_out_ends_the_session(client: Client) -> None:
    client.force_login(UserFactory())

    client.post("/logout/")

    assert "_auth_user_id" not in client.session


def test_preferences_are_kept(client: Client) -> None:
    user = UserFactory()
    client.force_login(user)

    response = client.post(
        "/profile/",
        {
            "display_name": "Blitz",
            "country": "NZ",
            "checker_colour": "red",
            "highlight_legal_moves": "",
            "automatic_forced_moves": "on",
            "use_doubling_cube": "on",
        },
        follow=True,
    )

    assert b"Your preferences are saved" in response.content
    profile = Profile.objects.get(user=user)
    assert (profile.display_name, profile.country.code, profile.checker_colour) == (
        "Blitz",
        "NZ",
        "red",
    )
    assert profile.highlight_legal_moves is False
    assert profile.automatic_forced_moves is True
    page = client.get("/profile/").content.decode()
    assert 'value="red" selected' in page


def test_a_blank_display_name_is_refused_beside_the_field(client: Client) -> None:
    user = UserFactory(display_name="Keep Me")
    client.force_login(user)

    response = client.post("/profile/", {"display_name": "", "checker_colour": "white"})

    assert "This field is required." in response.content.decode()
    user.profile.refresh_from_db()
    assert user.profile.display_name == "Keep Me"


def test_password_change_takes_effect(client: Client) -> None:
    user = UserFactory()
    client.force_login(user)

    client.post(
        "/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-secret",
            "new_password2": "another-long-secret",
        },
    )

    user.refresh_from_db()
    assert user.check_password("another-long-secret")
