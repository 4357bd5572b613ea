"""A client's seq is its own counter: reused for another request, or going back, it is
refused; and no number a client sends reaches the database out of range."""

from __future__ import annotations

import pytest

from matches.models import Action, ActionKind
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, api_for, start_match

pytestmark = pytest.mark.django_db


def _mover(match_id: int, bot: Bot) -> tuple[str, object]:
    state = bot.state(match_id)
    name = state["game"]["turn"]
    return name, bot.clients[name]


def test_the_same_seq_for_a_different_request_is_refused_with_409() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=1)
    bot = Bot({"alice": alice, "bruno": bruno})
    bot.step(match_id)  # the opening play
    _, client = _mover(match_id, bot)
    url = f"/api/matches/{match_id}/actions/"

    rolled = client.post(url, {"type": "roll", "seq": 900}, format="json")  # type: ignore[attr-defined]
    other = client.post(url, {"type": "double", "seq": 900}, format="json")  # type: ignore[attr-defined]

    assert rolled.status_code == 200
    assert other.status_code == 409
    assert "different action" in other.json()["detail"]
    assert Action.objects.filter(match_id=match_id, kind=ActionKind.DOUBLE).count() == 0


def test_a_seq_below_the_players_last_is_refused_not_applied() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=1)
    bot = Bot({"alice": alice, "bruno": bruno})
    bot.step(match_id)
    name, client = _mover(match_id, bot)
    url = f"/api/matches/{match_id}/actions/"
    client.post(url, {"type": "roll", "seq": 50}, format="json")  # type: ignore[attr-defined]
    state = bot.state(match_id)
    assert state["game"]["turn"] == name
    assert state["game"]["phase"] == "move"
    mover = alice if name == "alice" else bruno
    plays = api_for(mover).get(f"/api/matches/{match_id}/").json()["game"]["legal_plays"]

    stale = client.post(  # type: ignore[attr-defined]
        url, {"type": "play", "seq": 7, "play": plays[0]["text"]}, format="json"
    )

    assert stale.status_code == 409
    assert "send 51" in stale.json()["detail"]
    assert Action.objects.filter(match_id=match_id, kind=ActionKind.PLAY, client_seq=7).count() == 0


@pytest.mark.parametrize(
    "body",
    [
        {"type": "roll", "seq": 2**31},
        {"type": "roll", "seq": 2**63},
        {"type": "roll", "seq": -1},
        {"type": "play", "seq": 1, "play": "24/23 " * 100},
    ],
)
def test_numbers_and_text_out_of_range_are_a_400_not_a_500(body: dict[str, object]) -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=1)

    response = api_for(alice).post(f"/api/matches/{match_id}/actions/", body, format="json")

    assert response.status_code == 400
    assert len(response.json()["detail"]) < 300


@pytest.mark.parametrize(
    "body",
    [
        {"length": 3, "stake_cents": 2**63},
        {"money": True, "stake_cents": 100, "max_cube": 2**31},
        {"money": True, "stake_cents": 100, "automatic_doubles": 2**31},
        {"length": 3, "clock": {"kind": "move", "move_seconds": 2**63}},
        {"length": 2**31},
    ],
)
def test_a_challenge_out_of_range_is_a_400(body: dict[str, object]) -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")

    response = api_for(alice).post(
        "/api/matches/", {"opponent": bruno.username, **body}, format="json"
    )

    assert response.status_code == 400


def test_a_json_body_nested_five_thousand_deep_is_a_400_logged_in_or_not() -> None:
    from rest_framework.test import APIClient

    alice = UserFactory(username="alice")
    deep = "[" * 5000 + "]" * 5000
    anonymous = APIClient().post("/api/auth/token/", deep, content_type="application/json")
    logged_in = api_for(alice).post("/api/matches/", deep, content_type="application/json")

    assert anonymous.status_code == 400
    assert logged_in.status_code == 400
    assert "nested too deep" in logged_in.json()["detail"]


def test_a_challenge_with_a_clock_plays_under_it() -> None:
    alice = UserFactory(username="alice")
    UserFactory(username="bruno")
    clock = {"kind": "move", "move_seconds": 30, "reserve_seconds": 300, "timeout_loses": "game"}

    made = api_for(alice).post(
        "/api/matches/", {"opponent": "bruno", "length": 3, "clock": clock}, format="json"
    )

    assert made.status_code == 201
    assert made.json()["clock"]["move_seconds"] == 30
