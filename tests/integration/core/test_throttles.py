"""Rate limits answer 429 with Retry-After: every API call per address or per player, and
the scopes the match code uses for chat and challenges, over REST and from a socket."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.test.utils import override_settings
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.throttles import (
    client_address,
    rate_of,
    throttle,
    throttle_player,
)
from tests.factories import UserFactory
from tests.integration.config.rate_limits import low_rates

pytestmark = pytest.mark.django_db


class ChallengeApi(APIView):
    """Stands for a view of the match app that limits the challenges a player sends."""

    permission_classes = [AllowAny]
    throttle_scope = "challenge"

    def get(self, request: Request) -> Response:
        return Response({"read": True})

    def post(self, request: Request) -> Response:
        return Response({"sent": True})


def test_anonymous_api_calls_past_the_rate_get_429_with_retry_after() -> None:
    with low_rates(anon="2/minute"):
        answers = [Client().get("/api/auth/token/", REMOTE_ADDR="10.1.0.1") for _ in range(3)]
        other_address = Client().get("/api/auth/token/", REMOTE_ADDR="10.1.0.2")

    assert [answer.status_code for answer in answers] == [405, 405, 429]
    assert 0 < int(answers[2]["Retry-After"]) <= 60
    assert answers[2].json()["detail"].startswith("Request was throttled.")
    assert other_address.status_code == 405


def test_a_players_api_calls_past_the_rate_get_429_whatever_the_address() -> None:
    player = UserFactory()
    client = Client()
    client.force_login(player)
    with low_rates(user="2/minute"):
        first = client.get("/api/me/", REMOTE_ADDR="10.1.0.1")
        second = client.get("/api/me/", REMOTE_ADDR="10.1.0.2")
        third = client.get("/api/me/", REMOTE_ADDR="10.1.0.3")
        someone_else = Client()
        someone_else.force_login(UserFactory())
        other_player = someone_else.get("/api/me/")

    assert (first.status_code, second.status_code, third.status_code) == (200, 200, 429)
    assert int(third["Retry-After"]) > 0
    assert other_player.status_code == 200


def test_a_scoped_view_limits_writes_and_leaves_reads_alone() -> None:
    player = UserFactory()
    view = ChallengeApi.as_view()
    factory = RequestFactory()

    def send(method: str) -> Response:
        request = getattr(factory, method)("/challenges/")
        request.user = player
        request._dont_enforce_csrf_checks = True
        return view(request)

    with low_rates(challenge="2/minute"):
        sent = [send("post").status_code for _ in range(3)]
        read = send("get")
        from_the_page = throttle_player("challenge", player.pk)

    assert sent == [200, 200, 429]
    assert read.status_code == 200
    assert from_the_page is not None


def test_the_player_helper_counts_per_player_and_says_how_long_to_wait() -> None:
    with low_rates(chat="3/minute"):
        allowed = [throttle_player("chat", 7) for _ in range(3)]
        refused = throttle_player("chat", 7)
        other = throttle_player("chat", 8)

    assert allowed == [None, None, None]
    assert refused is not None
    assert 0 < refused <= 60
    assert other is None


def test_a_scope_without_a_rate_is_a_configuration_error() -> None:
    with pytest.raises(Exception, match="has no rate for the scope 'duel'"):
        throttle("duel", "user:1")
    with pytest.raises(Exception, match="has no rate"):
        rate_of("duel")


def test_behind_a_proxy_the_address_is_the_one_the_proxy_saw() -> None:
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.5"
    )

    assert client_address(request) == "10.9.9.9"
    with override_settings(TRUSTED_PROXY_COUNT=1):
        assert client_address(request) == "203.0.113.5"
    with override_settings(TRUSTED_PROXY_COUNT=3):
        assert client_address(request) == "10.9.9.9"
