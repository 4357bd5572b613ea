"""Pages go over HTTPS behind the proxy, say so with HSTS, and carry a
Content-Security-Policy that runs only this site's own scripts and styles."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.test.utils import override_settings

from matches.tasks import sweep_deadlines

pytestmark = pytest.mark.django_db

BEHIND_A_TLS_PROXY = {
    "SECURE_SSL_REDIRECT": True,
    "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
    "SECURE_HSTS_SECONDS": 31_536_000,
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
}


def policy(response: object) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {name: values for name, *values in directives}


@override_settings(**BEHIND_A_TLS_PROXY)
def test_plain_http_is_sent_to_https_and_https_gets_hsts() -> None:
    plain = Client().get("/ratings/")
    secure = Client().get("/ratings/", HTTP_X_FORWARDED_PROTO="https")

    assert plain.status_code == 301
    assert plain["Location"] == "https://testserver/ratings/"
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"


@override_settings(**BEHIND_A_TLS_PROXY)
@pytest.mark.usefixtures("tasks_run_in_process")
def test_the_health_checks_answer_over_plain_http_from_inside_the_container() -> None:
    sweep_deadlines.apply(kwargs={"passes": 1})

    live = Client().get("/healthz/live")
    report = Client().get("/healthz")

    assert (live.status_code, live.json()) == (200, {"web": "ok"})
    assert report.status_code == 200
    parts = report.json()
    assert parts.pop("engine").startswith("ok: ")  # which engine: the program or the package
    assert parts == {
        "database": "ok",
        "redis": "ok",
        "celery": "eager",
        "analysis": "ok",
        "sweeps": "ok",
    }


def test_pages_run_only_this_sites_scripts_and_styles() -> None:
    response = Client().get("/")

    directives = policy(response)
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["connect-src"] == ["'self'"]  # sockets to this site only
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]


def test_the_api_docs_load_their_script_as_a_file() -> None:
    response = Client().get("/api/docs/")

    page = response.content.decode()
    assert response.status_code == 200
    assert policy(response)["script-src"] == ["'self'"]
    assert re.search(r"<script>\s*\S", page) is None
    script = re.search(r'<script src="(/api/docs/\?script=)"', page)
    assert script is not None
    assert Client().get(script.group(1)).status_code == 200
