"""/healthz reports each service, and names the one that is down."""

from __future__ import annotations

import pytest
from django.test import Client
from pytest_django import Settings as SettingsWrapper

pytestmark = pytest.mark.django_db


@pytest.mark.usefixtures("celery_worker_process")
def test_healthy_when_database_redis_and_a_worker_answer(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"database": "ok", "redis": "ok", "celery": "ok"}


def test_503_naming_redis_when_it_is_unreachable(client: Client, settings: SettingsWrapper) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "ok"
    assert body["redis"].startswith("down")
    assert body["celery"] == "down: broker unreachable"
    assert body["down"] == "redis, celery"
