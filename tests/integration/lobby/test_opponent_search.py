"""Finding an opponent by typing: ``GET /api/opponents/?q=`` answers the players whose
username or display name starts with what was typed (a few, whom the player may challenge),
and the challenge form takes a name typed whole instead of a list of every player."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import BlockKind, User
from accounts.roles import Role
from accounts.standing import block_set
from matches.models import Match
from tests.integration.config.rate_limits import low_rates
from tests.integration.lobby.helpers import player
from tests.integration.matches.helpers import api_for

pytestmark = pytest.mark.django_db


def _found(user: User, typed: str) -> list[str]:
    response = api_for(user).get("/api/opponents/", {"q": typed})
    assert response.status_code == 200, response.json()
    return [row["username"] for row in response.json()]


def test_players_are_found_by_the_start_of_their_username_or_display_name() -> None:
    alice = player("alice")
    player("bruno", "Bruno Bianchi", rating=1612.4)
    player("brunhilde", "Hilde")
    player("carla", "Brunella Conti")
    player("dario", "Dario Abrun")

    # by display name: Brunella Conti, Bruno Bianchi, Hilde
    assert _found(alice, "BRU") == ["carla", "bruno", "brunhilde"]
    assert _found(alice, "hil") == ["brunhilde"]
    [bruno] = api_for(alice).get("/api/opponents/", {"q": "bruno"}).json()
    assert bruno == {"username": "bruno", "display_name": "Bruno Bianchi", "rating": 1612}


def test_a_username_typed_whole_comes_first() -> None:
    alice = player("alice")
    player("ann", "Zoe")
    player("annabel", "Annabel")

    assert _found(alice, "ann") == ["ann", "annabel"]


def test_the_searcher_the_blocked_and_the_closed_are_never_offered() -> None:
    alice = player("alice", "Alice Adams")
    blocked, blocking = player("albert"), player("alfredo")
    closed = player("alma")
    player("alvaro")
    block_set(owner=alice, other=blocked, kind=BlockKind.BLOCK)
    block_set(owner=blocking, other=alice, kind=BlockKind.BLOCK)
    User.objects.filter(pk=closed.pk).update(is_active=False)

    assert _found(alice, "al") == ["alvaro"]


def test_a_muted_player_may_still_be_challenged() -> None:
    alice, muted = player("alice"), player("mario")
    block_set(owner=alice, other=muted, kind=BlockKind.MUTE)

    assert _found(alice, "mar") == ["mario"]


def test_at_most_ten_players_are_answered() -> None:
    alice = player("alice")
    for n in range(12):
        player(f"zed{n:02d}", f"Zed {n:02d}")

    assert _found(alice, "zed") == [f"zed{n:02d}" for n in range(10)]


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ({}, "q"),
        ({"q": ""}, "q"),
        ({"q": "x" * 151}, "q"),
        ({"q": "al", "limit": "500"}, "Unknown query parameter 'limit'"),
    ],
)
def test_a_search_without_a_name_or_with_more_is_a_400(query: dict[str, Any], detail: str) -> None:
    response = api_for(player("alice")).get("/api/opponents/", query)

    assert response.status_code == 400
    assert detail in str(response.json())


def test_only_players_logged_in_may_search() -> None:
    player("bruno")

    assert Client().get("/api/opponents/", {"q": "bru"}).status_code in (401, 403)


def test_searching_faster_than_the_limit_is_a_429() -> None:
    alice = player("alice")

    with low_rates(search="2/minute"):
        answers = [api_for(alice).get("/api/opponents/", {"q": "b"}) for _ in range(3)]

    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert int(answers[2]["Retry-After"]) >= 1


# ---------------------------------------------------------------- the challenge form


def _challenge(user: User, opponent: str) -> Any:
    client = Client()
    client.force_login(user)
    form = {"kind": "match", "length": "5", "stake": "0", "currency": "FUN", "clock": "standard"}
    form.update({"clock_kind": "delay", "move_seconds": "12", "reserve_seconds": "120"})
    form.update({"timeout_loses": "match", "max_cube": "16", "rated": "on"})
    return client.post("/play/challenge/", {**form, "opponent": opponent}, follow=True)


def test_the_challenge_form_asks_for_a_name_instead_of_listing_everyone() -> None:
    alice = player("alice")
    for n in range(3):
        player(f"someone{n}", f"Someone {n}")
    client = Client()
    client.force_login(alice)

    page = client.get("/play/").content.decode()

    assert '<select name="opponent"' not in page
    assert "Someone 1" not in page
    assert 'list="opponent-options"' in page
    assert 'data-opponent-search="/api/opponents/"' in page
    assert '<datalist id="opponent-options"></datalist>' in page
    assert "js/lobby/opponent-search.js" in page


@pytest.mark.parametrize("typed", ["bruno", "BRUNO", " bruno ", "Bruno Bianchi"])
def test_a_challenge_takes_a_username_or_display_name_typed_whole(typed: str) -> None:
    alice, bruno = player("alice"), player("bruno", "Bruno Bianchi")

    page = _challenge(alice, typed)

    assert "Challenge sent to Bruno Bianchi" in page.content.decode()
    assert Match.objects.get(player_0=alice).player_1 == bruno


@pytest.mark.parametrize("typed", ["nobody", "alice", "bru", "staffer"])
def test_a_name_nobody_to_challenge_has_is_refused_beside_the_opponent(typed: str) -> None:
    alice = player("alice")
    player("bruno")
    player("staffer", role=Role.STAFF)

    page = _challenge(alice, typed)

    assert page.status_code == 400
    assert page.context["form"].errors["opponent"] == [
        f"There is no player called {typed} to challenge."
    ]
    assert not Match.objects.exists()
