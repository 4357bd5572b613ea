"""Nobody takes a name that passes for another player's: a username or display name whose
confusable skeleton (UTS #39, case-folded) is another player's username or display name is
refused, wherever a name is chosen: sign-up, the profile, the services and the admin."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.test import Client

from accounts.models import Profile, User
from accounts.names import name_skeleton
from accounts.roles import Role
from accounts.selectors import names_taken
from accounts.services import profile_update, user_create
from core.errors import DomainError
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

COOP_CYRILLIC = "\u0441\u043e\u043e\u0440"  # "соор": four Cyrillic letters, one script


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


def test_the_skeleton_is_the_same_for_names_that_pass_for_each_other() -> None:
    assert name_skeleton(COOP_CYRILLIC) == name_skeleton("coop") == name_skeleton("COOP")
    assert name_skeleton("ERIN") == name_skeleton("Erin")
    assert name_skeleton("a1ice") == name_skeleton("alice")  # a digit one for an l
    assert name_skeleton("\uff21lice") == name_skeleton("Alice")  # a fullwidth A
    assert name_skeleton("bob") != name_skeleton("rob")


def test_sign_up_refuses_a_username_in_another_script_that_looks_like_one_taken(
    client: Client,
) -> None:
    UserFactory(username="coop")

    page = sign_up(client, COOP_CYRILLIC)

    assert f"“{COOP_CYRILLIC}” looks like another player&#x27;s name" in page
    assert not User.objects.filter(username=COOP_CYRILLIC).exists()


@pytest.mark.parametrize("taken", ["Erin Doyle", "erin doyle", "ERIN D\u043eYLE", "erin"])
def test_sign_up_refuses_a_display_name_that_copies_another_players_name(
    client: Client, taken: str
) -> None:
    UserFactory(username="erin", display_name="Erin Doyle")

    page = sign_up(client, "mallory", taken)

    assert "looks like another player&#x27;s name" in page
    assert not User.objects.filter(username="mallory").exists()


def test_a_username_may_not_copy_another_players_display_name(client: Client) -> None:
    UserFactory(username="erin", display_name="Queen")

    page = sign_up(client, "queen")

    assert "looks like another player&#x27;s name" in page
    assert not User.objects.filter(username="queen").exists()


def test_the_profile_refuses_another_players_name_and_keeps_ones_own(client: Client) -> None:
    UserFactory(username="erin", display_name="Erin Doyle")
    mallory = UserFactory(username="mallory", display_name="Mallory")
    client.force_login(mallory)
    fields = {"checker_colour": "white", "use_doubling_cube": "on"}

    copied = client.post("/profile/", {"display_name": "Erin Doy1e", **fields})
    kept = client.post("/profile/", {"display_name": "Mallory", **fields})
    own_username = client.post("/profile/", {"display_name": "MALLORY", **fields})

    assert copied.status_code == 200
    assert "looks like another player&#x27;s name" in copied.content.decode()
    assert kept.status_code == own_username.status_code == 302
    mallory.profile.refresh_from_db()
    assert mallory.profile.display_name == "MALLORY"
    assert mallory.profile.display_name_skeleton == name_skeleton("mallory")


def test_the_services_refuse_a_look_alike_whoever_calls_them() -> None:
    coop = UserFactory(username="coop", display_name="Coop")

    with pytest.raises(DomainError, match="looks like another player's name"):
        user_create(username=COOP_CYRILLIC, password=PASSWORD)
    with pytest.raises(DomainError, match="looks like another player's name"):
        user_create(username="dora", password=PASSWORD, display_name="c\u043eop")
    dora = user_create(username="dora", password=PASSWORD)
    with pytest.raises(DomainError, match="looks like another player's name"):
        profile_update(profile=dora.profile, display_name="COOP")

    assert User.objects.count() == 2
    assert coop.username_skeleton == name_skeleton("coop")


def test_the_check_of_both_names_is_one_query(django_assert_num_queries: Any) -> None:
    erin = UserFactory(username="erin", display_name="Erin Doyle")

    with django_assert_num_queries(1):
        taken = names_taken(names=["erin doyle", "someone"], user_id=None)
    with django_assert_num_queries(1):
        own = names_taken(names=["erin doyle", "erin"], user_id=erin.pk)

    assert taken == {"erin doyle"}
    assert own == set()


def test_staff_creating_a_user_in_the_admin_meet_the_same_check(client: Client) -> None:
    UserFactory(username="coop")
    client.force_login(UserFactory(username="root", role=Role.STAFF))
    User.objects.filter(username="root").update(is_superuser=True)

    response = client.post(
        "/admin/accounts/user/add/",
        {
            "username": COOP_CYRILLIC,
            "password1": PASSWORD,
            "password2": PASSWORD,
            "usable_password": "true",
            "profile-TOTAL_FORMS": "0",
            "profile-INITIAL_FORMS": "0",
        },
    )

    assert response.status_code == 200
    assert "looks like another player&#x27;s name" in response.content.decode()
    assert not User.objects.filter(username=COOP_CYRILLIC).exists()


def test_staff_renaming_in_the_admin_meet_the_same_check_and_keep_the_skeleton(
    client: Client,
) -> None:
    UserFactory(username="erin", display_name="Erin Doyle")
    mallory = UserFactory(username="mallory")
    client.force_login(UserFactory(username="root", role=Role.STAFF))
    User.objects.filter(username="root").update(is_superuser=True)
    url = f"/admin/accounts/profile/{mallory.profile.pk}/change/"
    form = {
        "user": mallory.pk,
        "display_name": "Erin Doyle",
        "rating": "1500",
        "experience": "0",
        "checker_colour": "white",
    }

    refused = client.post(url, form)
    renamed = client.post(url, {**form, "display_name": "Mal"})

    assert "looks like another player&#x27;s name" in refused.content.decode()
    assert renamed.status_code == 302
    profile = Profile.objects.get(user=mallory)
    assert (profile.display_name, profile.display_name_skeleton) == ("Mal", name_skeleton("Mal"))


def test_the_migration_fills_the_skeletons_of_existing_players() -> None:
    erin = UserFactory(username="erin", display_name="Erin Doyle")
    User.objects.update(username_skeleton="")
    Profile.objects.update(display_name_skeleton="")
    migration = importlib.import_module("accounts.migrations.0014_name_skeletons")

    migration.fill_skeletons(apps, None)

    erin.refresh_from_db()
    erin.profile.refresh_from_db()
    assert erin.username_skeleton == name_skeleton("erin")
    assert erin.profile.display_name_skeleton == name_skeleton("Erin Doyle")
