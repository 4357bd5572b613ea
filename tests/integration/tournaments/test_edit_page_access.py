"""Only a tournament's organizer (and a superuser, as the edit itself allows) sees its
settings form or sends it: anyone else is answered 403 and nothing changes."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from accounts.roles import Role
from tests.factories import UserFactory
from tests.integration.tournaments.helpers import open_tournament, organizer
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_organizer_sees_the_settings_form() -> None:
    owner = organizer("orla")
    tournament = open_tournament(owner, name="Orla's Open")

    response = logged_in(owner).get(f"/tournaments/{tournament.pk}/edit/")

    assert response.status_code == 200
    assert 'value="Orla&#x27;s Open"' in response.content.decode()


@pytest.mark.parametrize(
    "who",
    [
        lambda: organizer("otto"),
        lambda: UserFactory(username="pia"),
        lambda: UserFactory(username="sam", role=Role.STAFF),
    ],
    ids=["another-organizer", "player", "staff"],
)
def test_anyone_else_is_refused_the_form_and_the_change(who: object) -> None:
    tournament = open_tournament(organizer("orla"), name="Orla's Open")
    client = logged_in(who())  # type: ignore[operator]
    url = f"/tournaments/{tournament.pk}/edit/"

    shown = client.get(url)
    sent = client.post(url, {"name": "Hijacked"})

    assert shown.status_code == 403
    assert "Orla&#x27;s Open" not in shown.content.decode()
    assert sent.status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).name == "Orla's Open"


def test_a_superuser_may_edit_as_the_service_allows() -> None:
    tournament = open_tournament(organizer("orla"), name="Orla's Open")
    root = UserFactory(username="root", role=Role.STAFF)
    User.objects.filter(pk=root.pk).update(is_superuser=True)

    assert (
        logged_in(User.objects.get(pk=root.pk))
        .get(f"/tournaments/{tournament.pk}/edit/")
        .status_code
        == 200
    )
