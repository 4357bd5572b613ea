"""A program lists its matches: invitations in and out told apart, filtered by status."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for, start_match

pytestmark = pytest.mark.django_db


def test_a_player_lists_their_matches_by_status_with_invitations_told_apart() -> None:
    alice, bruno, chloe = (UserFactory(username=name) for name in ("alice", "bruno", "chloe"))
    playing = start_match(alice, bruno, length=3)
    sent = api_for(alice).post("/api/matches/", {"opponent": "chloe", "length": 1}, format="json")
    received = api_for(chloe).post(
        "/api/matches/", {"opponent": "alice", "length": 1}, format="json"
    )

    everything = api_for(alice).get("/api/matches/").json()
    invited = api_for(alice).get("/api/matches/?status=invited").json()
    live = api_for(alice).get("/api/matches/?status=playing").json()

    assert {row["id"] for row in everything} == {
        playing,
        sent.json()["id"],
        received.json()["id"],
    }
    assert {row["id"]: row["direction"] for row in invited} == {
        sent.json()["id"]: "outgoing",
        received.json()["id"]: "incoming",
    }
    assert [(row["id"], row["opponent"], row["direction"]) for row in live] == [
        (playing, "bruno", None)
    ]


def test_finished_matches_are_listed_apart_from_live_ones() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    over = start_match(alice, bruno, length=1)
    api_for(alice).post(
        f"/api/matches/{over}/actions/", {"type": "resign", "resign": "single"}, format="json"
    )
    api_for(bruno).post(f"/api/matches/{over}/actions/", {"type": "accept_resign"}, format="json")
    live = start_match(alice, bruno, length=3)

    finished = api_for(alice).get("/api/matches/?status=finished").json()
    playing = api_for(bruno).get("/api/matches/?status=playing").json()

    assert [(row["id"], row["status"]) for row in finished] == [(over, "finished")]
    assert [row["id"] for row in playing] == [live]


def test_an_unknown_status_or_parameter_is_refused() -> None:
    alice = UserFactory(username="alice")

    assert api_for(alice).get("/api/matches/?status=lost").status_code == 400
    assert api_for(alice).get("/api/matches/?page=2").status_code == 400
