"""/metrics: Prometheus's text format for a scraper with the token, nothing for anyone else;
the players' actions, open sockets, queues, the analysis backlog and the sweeps, added up
over every process of the web service."""

from __future__ import annotations

import asyncio

import pytest
import requests
import websockets
from django.conf import settings
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families
from pytest_django import Settings as SettingsWrapper

from bench.shape import Shape
from matches.tasks import sweep_deadlines
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for, quick_play, start_match
from tests.workers import _test_database_url

pytestmark = pytest.mark.slow

TOKEN = "scrape-me-please"


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample by name and labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(client: Client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    return samples(response.content.decode())


@pytest.mark.django_db
def test_there_are_no_metrics_without_the_setting_and_none_for_a_wrong_token(
    client: Client, settings: SettingsWrapper
) -> None:
    assert client.get("/metrics").status_code == 404

    settings.CRAWFORD_METRICS_TOKEN = TOKEN

    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer guess").status_code == 401


@pytest.mark.django_db
def test_the_figures_count_actions_and_read_the_state_of_the_site(
    client: Client, settings: SettingsWrapper
) -> None:
    settings.CRAWFORD_METRICS_TOKEN = TOKEN
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    sweep_deadlines.apply(kwargs={"passes": 1})
    played = ("crawford_actions_total", (("action", "play"), ("outcome", "done")))
    before = scrape(client).get(played, 0)

    # when the player on roll plays the opening roll
    game = api_for(alice).get(f"/api/matches/{match_id}/").json()["game"]
    mover = alice if game["turn"] == "alice" else bruno
    play = {"type": "play", "play": quick_play(game["legal_plays"])}
    answer = api_for(mover).post(f"/api/matches/{match_id}/actions/", play, format="json")
    assert answer.status_code == 200

    # then it is counted, and the site's state is read out
    figures = scrape(client)
    assert figures[played] == before + 1
    assert ("crawford_action_seconds_count", ()) in figures
    assert figures[("crawford_matches_playing", ())] == 1
    assert figures[("crawford_queue_depth", (("queue", "review"),))] >= 0
    assert figures[("crawford_deferred_tasks", ())] == 0
    assert figures[("crawford_analysis_backlog", (("status", "queued"),))] == 0
    assert figures[("crawford_sweep_age_seconds", (("sweep", "matches.sweep_deadlines"),))] < 60


@pytest.mark.django_db(transaction=True)
def test_the_web_service_adds_up_the_sockets_of_all_its_processes() -> None:
    # given the production web service (two processes) with three match sockets open
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    shape = Shape(
        database_url=_test_database_url(),
        redis_url=str(settings.REDIS_URL),
        overrides={"CRAWFORD_METRICS_TOKEN": TOKEN, "WEB_WORKERS": "2"},
    )
    try:
        web = shape.web()

        async def watch_and_scrape() -> list[float]:
            origin = websockets.Origin(f"http://127.0.0.1:{web.port}")
            url = f"ws://127.0.0.1:{web.port}/ws/matches/{match_id}/"
            sockets = [await websockets.connect(url, origin=origin) for _ in range(3)]
            for socket in sockets:
                await socket.recv()  # the state: the socket is counted
            # each scrape lands on whichever process takes it: all must say 3
            counted = [await asyncio.to_thread(_open_match_sockets, web.port) for _ in range(6)]
            for socket in sockets:
                await socket.close()
            return counted

        # then every scrape, whichever process answers it, counts all three
        assert asyncio.run(watch_and_scrape()) == [3.0] * 6
    finally:
        shape.stop_all()


def _open_match_sockets(port: int) -> float:
    answer = requests.get(
        f"http://127.0.0.1:{port}/metrics",
        headers={"Authorization": f"Bearer {TOKEN}", "Connection": "close"},
        timeout=30,
    )
    answer.raise_for_status()
    return samples(answer.text)[("crawford_open_sockets", (("kind", "match"),))]
