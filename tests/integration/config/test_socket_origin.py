"""A browser's socket is let in only from a page of this site: scheme, host and port."""

from __future__ import annotations

import pytest
from django.test import override_settings

from core.sockets import allowed_origin


def _scope(origin: str | None, host: str | None = "crawford.example", scheme: str = "ws") -> dict:
    headers = []
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if host is not None:
        headers.append((b"host", host.encode()))
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@override_settings(ALLOWED_HOSTS=["crawford.example"], CSRF_TRUSTED_ORIGINS=[])
@pytest.mark.parametrize(
    ("origin", "host", "scheme", "allowed"),
    [
        ("http://crawford.example", "crawford.example", "ws", True),
        ("https://crawford.example", "crawford.example", "wss", True),
        ("http://crawford.example:8000", "crawford.example:8000", "ws", True),
        ("http://crawford.example:8001", "crawford.example:8000", "ws", False),
        ("https://crawford.example", "crawford.example", "ws", False),
        ("http://crawford.example", "crawford.example", "wss", False),
        ("http://evil.example", "crawford.example", "ws", False),
        ("http://evil.example", "evil.example", "ws", False),
        ("null", "crawford.example", "ws", False),
        (None, "crawford.example", "ws", True),
    ],
)
def test_the_origin_must_be_this_sites_scheme_host_and_port(
    origin: str | None, host: str, scheme: str, allowed: bool
) -> None:
    assert allowed_origin(_scope(origin, host, scheme)) is allowed


@override_settings(
    ALLOWED_HOSTS=["crawford.example"],
    CSRF_TRUSTED_ORIGINS=["https://play.crawford.example"],
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
)
def test_behind_a_tls_proxy_and_from_a_trusted_origin() -> None:
    proxied = _scope("https://crawford.example")
    proxied["headers"].append((b"x-forwarded-proto", b"https"))

    assert allowed_origin(proxied)
    assert not allowed_origin(_scope("https://crawford.example"))
    assert allowed_origin(_scope("https://play.crawford.example"))
