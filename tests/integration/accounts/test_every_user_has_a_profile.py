"""Every user has a profile, however the account was made: by sign-up, by an operator's
``createsuperuser``, or by a script calling ``create_user``. The pages, the notices and the
fair-play detectors read a player's profile and would fail on a user without one."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from accounts.models import STARTING_RATING, Profile, User
from accounts.names import name_skeleton


@pytest.mark.django_db
def test_a_user_made_by_create_user_has_a_profile_named_after_them() -> None:
    user = User.objects.create_user(username="carol", password="a-long-password-1")

    profile = Profile.objects.get(user=user)
    assert profile.display_name == "carol"
    assert profile.display_name_skeleton == name_skeleton("carol")
    assert profile.rating == STARTING_RATING
    assert user.username_skeleton == name_skeleton("carol")


@pytest.mark.django_db
def test_an_operators_createsuperuser_has_a_profile() -> None:
    call_command("createsuperuser", interactive=False, username="root", email="root@example.org")

    assert Profile.objects.get(user__username="root").display_name == "root"
