"""Nobody signs up as a look-alike of someone else: usernames keep to one script, and
display names lose the invisible characters that would disguise them."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Profile, User
from accounts.services import profile_update, user_create
from core.errors import DomainError
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: shows what follows backwards
ZWSP = "\u200b"  # ZERO WIDTH SPACE


def sign_up(client: Client, username: str, display_name: str = "") -> str:
    response = client.post(
        "/signup/",
        {
            "username": username,
            "display_name": display_name,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        follow=True,
    )
    return response.content.decode()


@pytest.mark.parametrize(
    ("username", "scripts"),
    [
        ("p\u0430ypal", "Cyrillic and Latin"),  # a Cyrillic "а" among Latin letters
        ("\u03bfscar", "Greek and Latin"),  # a Greek omicron for an "o"
        ("admin\u0456", "Cyrillic and Latin"),
    ],
)
def test_sign_up_refuses_a_username_that_mixes_scripts(
    client: Client, username: str, scripts: str
) -> None:
    page = sign_up(client, username)

    assert f"this one mixes {scripts} letters" in page
    assert not User.objects.filter(username=username).exists()


@pytest.mark.parametrize(
    "username", ["alice", "ольга", "山田たろう", "김민준", "δημήτρης", "j.doe-2_x"]
)
def test_sign_up_takes_a_username_in_one_script_with_digits_and_marks(
    client: Client, username: str
) -> None:
    sign_up(client, username)

    assert User.objects.filter(username=username).exists()


@pytest.mark.parametrize(
    ("username", "shown"),
    [("bob@home", "“@” (U+0040 COMMERCIAL AT)"), (f"bo{ZWSP}b", "U+200B ZERO WIDTH SPACE")],
)
def test_sign_up_names_a_character_a_username_may_not_hold(
    client: Client, username: str, shown: str
) -> None:
    page = sign_up(client, username)

    assert f"A username may hold letters, digits and _ - . only, not {shown}." in page
    assert User.objects.count() == 0


def test_the_service_refuses_a_mixed_script_username_too() -> None:
    with pytest.raises(DomainError, match="must be written in one script"):
        user_create(username="p\u0430ypal", password=PASSWORD)

    assert not User.objects.exists()


def test_sign_up_strips_bidirectional_controls_from_the_display_name(client: Client) -> None:
    page = sign_up(client, "mallory", f"  Alice{RLO}  ecnalab{ZWSP} \u2066x\u2069 ")

    profile = Profile.objects.get(user__username="mallory")
    assert profile.display_name == "Alice ecnalab x"
    assert "Welcome to Crawford, Alice ecnalab x!" in page


def test_a_display_name_of_nothing_visible_becomes_the_username(client: Client) -> None:
    sign_up(client, "quiet", f"{RLO}{ZWSP}\u3164")

    assert Profile.objects.get(user__username="quiet").display_name == "quiet"


def test_the_profile_page_strips_them_and_refuses_a_name_that_shows_nothing(
    client: Client,
) -> None:
    user = UserFactory(display_name="Keep Me")
    client.force_login(user)
    fields = {"checker_colour": "white", "use_doubling_cube": "on"}

    client.post("/profile/", {"display_name": f"Bo{RLO}b", **fields})
    user.profile.refresh_from_db()
    renamed = user.profile.display_name
    refused = client.post("/profile/", {"display_name": f"{RLO}{ZWSP}", **fields})

    assert renamed == "Bob"
    assert "Choose a display name others can see." in refused.content.decode()
    user.profile.refresh_from_db()
    assert user.profile.display_name == "Bob"


def test_the_services_strip_them_whatever_calls_them() -> None:
    user = user_create(username="svc", password=PASSWORD, display_name=f"Ev{RLO}e\x07")

    assert user.profile.display_name == "Eve"
    profile_update(profile=user.profile, display_name="\u202aZed\u202c")
    assert Profile.objects.get(user=user).display_name == "Zed"
    with pytest.raises(DomainError, match="Choose a display name others can see"):
        profile_update(profile=user.profile, display_name=ZWSP)
