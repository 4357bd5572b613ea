"""Where GNU Backgammon is not installed (neither Debian's program nor the gnubg Python
package), practice is shown as unavailable with the reason, never offered and then broken,
and /healthz names the engine. The engine is hidden from every process the test starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from pytest_django import Settings as SettingsWrapper

from core.errors import NotInstalled
from matches.models import Match
from matches.practice import practice_create
from tests.engines import MISSING_PROGRAM, hide_the_package
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

WHY = (
    f"GNU Backgammon is not installed: neither the program {MISSING_PROGRAM} "
    "(apt-get install gnubg) nor the gnubg Python package"
)


@pytest.fixture
def no_engine(settings: SettingsWrapper, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings.GNUBG_PROGRAM = MISSING_PROGRAM
    hide_the_package(monkeypatch, tmp_path)


@pytest.mark.usefixtures("no_engine")
def test_the_play_page_says_practice_is_unavailable_and_why(client: Client) -> None:
    client.force_login(UserFactory())

    page = client.get("/play/").content.decode()

    assert 'data-testid="practice-form"' not in page
    assert 'data-testid="practice-unavailable"' in page
    assert f"Practice is unavailable here: {WHY}" in page
    assert "apt-get install gnubg" in page


@pytest.mark.usefixtures("no_engine")
def test_asking_for_practice_anyway_is_refused_with_the_reason(client: Client) -> None:
    player = UserFactory()
    client.force_login(player)

    response = client.post("/play/practice/", {"strength": "casual", "length": "3"})

    assert response.status_code == 302
    assert not Match.objects.filter(player_0=player).exists()
    [message] = [str(m) for m in get_messages(response.wsgi_request)]
    assert message.startswith(f"Practice against the computer is unavailable here: {WHY}")


@pytest.mark.usefixtures("no_engine")
def test_the_service_refuses_as_unavailable_not_as_a_users_mistake() -> None:
    with pytest.raises(
        NotInstalled, match="Practice against the computer is unavailable"
    ) as caught:
        practice_create(user=UserFactory(), length=3, strength="casual")

    assert caught.value.status_code == 503


@pytest.mark.usefixtures("no_engine")
def test_healthz_names_the_missing_engine_and_why(client: Client) -> None:
    body = client.get("/healthz").json()

    assert body["engine"].startswith(f"down: {WHY}")
    assert "engine" in body["down"]


@pytest.mark.usefixtures("no_engine", "tasks_run_in_process")
def test_on_the_embedded_run_the_missing_engine_is_reported_but_not_down(client: Client) -> None:
    body = client.get("/healthz").json()

    assert body["engine"].startswith(f"unavailable: {WHY}")
    assert body["analysis"].startswith(f"unavailable: {WHY}")
    assert "engine" not in body.get("down", "")


def test_healthz_names_the_engine_it_runs(client: Client) -> None:
    body = client.get("/healthz").json()

    assert body["engine"] == "ok: the program /usr/games/gnubg"
    assert body["analysis"] == "ok"


def test_with_the_package_alone_practice_is_offered(
    client: Client, settings: SettingsWrapper
) -> None:
    settings.GNUBG_PROGRAM = MISSING_PROGRAM
    client.force_login(UserFactory())

    page = client.get("/play/").content.decode()

    assert 'data-testid="practice-form"' in page
    assert client.get("/healthz").json()["engine"].startswith("ok: the gnubg Python package in ")
