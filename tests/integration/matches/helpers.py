"""Drive matches through the REST API the way a simple bot would."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from accounts.models import User
from matches import presence
from matches.models import Match

TEST_SEED = "5eed" * 16


def api_for(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# What the API answers a request without credentials: 401 with a token challenge (the token
# is the first way in), never 403, which would mean "logged in, but not allowed".
NOT_LOGGED_IN = (401, "Token", {"detail": "Authentication credentials were not provided."})


def refusal(response: Any) -> tuple[int, str | None, Any]:
    """A response as ``NOT_LOGGED_IN`` reads: status, challenge, body."""
    return response.status_code, response.get("WWW-Authenticate"), response.json()


def start_match(challenger: User, opponent: User, **body: Any) -> int:
    """Challenge, fix the seed so the dice are known, and accept; returns the match id."""
    response = api_for(challenger).post(
        "/api/matches/", {"opponent": opponent.username, **body}, format="json"
    )
    assert response.status_code == 201, response.json()
    match_id = response.json()["id"]
    Match.objects.filter(pk=match_id).update(dice_seed=TEST_SEED)
    accepted = api_for(opponent).post(f"/api/matches/{match_id}/accept/", format="json")
    assert accepted.status_code == 200, accepted.json()
    return match_id


def quick_play(plays: list[dict[str, Any]]) -> str:
    """A play that keeps games short: no hits if possible, back checkers first."""

    def preference(play: dict[str, Any]) -> tuple[bool, int]:
        return ("*" not in play["text"], sum(start for start, _ in play["moves"]))

    return max(plays, key=preference)["text"]


class Bot:
    """Plays `quick_play`; doubles when ``doubles`` says so, takes unless ``drops``."""

    def __init__(
        self, users: dict[str, User], *, doubles: bool = False, drops: bool = False
    ) -> None:
        self.clients = {name: api_for(user) for name, user in users.items()}
        self.doubles = doubles
        self.drops = drops
        self.seq = 0
        self.actions = 0
        self.last: dict[str, Any] | None = None

    def state(self, match_id: int) -> dict[str, Any]:
        any_client = next(iter(self.clients.values()))
        return any_client.get(f"/api/matches/{match_id}/").json()

    def act(self, match_id: int, username: str, body: dict[str, Any]) -> dict[str, Any]:
        self.seq += 1
        self.actions += 1
        response = self.clients[username].post(
            f"/api/matches/{match_id}/actions/", {**body, "seq": self.seq}, format="json"
        )
        assert response.status_code == 200, (body, response.json())
        self.last = response.json()
        return self.last

    def step(self, match_id: int) -> dict[str, Any]:
        state = self.last if self.last and self.last["id"] == match_id else self.state(match_id)
        game = state["game"]
        player = game["turn"]
        if game["phase"] == "move" and state["players"][state["seat"] or 0] != player:
            state = self.clients[player].get(f"/api/matches/{match_id}/").json()
            game = state["game"]
        if game["phase"] == "doubled":
            return self.act(match_id, player, {"type": "drop" if self.drops else "take"})
        if game["phase"] == "roll":
            cube_mine = game["cube"]["owner"] in (None, player)
            if self.doubles and cube_mine and not state["crawford"] and game["cube"]["value"] < 4:
                return self.act(match_id, player, {"type": "double"})
            return self.act(match_id, player, {"type": "roll"})
        if game["phase"] == "move":
            return self.act(
                match_id, player, {"type": "play", "play": quick_play(game["legal_plays"])}
            )
        raise AssertionError(f"unexpected phase {game['phase']}")

    def play_out(self, match_id: int, *, limit: int = 5000) -> dict[str, Any]:
        state = self.state(match_id)
        for _ in range(limit):
            if state["status"] != "playing":
                return state
            state = self.step(match_id)
        raise AssertionError("the match did not finish")


def board_opened(match_id: int, user: User) -> str:
    """``user`` opens the match page (a socket connects); returns the connection's name."""
    channel = f"test-{match_id}-{user.pk}"
    presence.connection_open(match_id=match_id, user=user, channel=channel)
    return channel


def board_left(match_id: int, user: User) -> None:
    """``user`` opens the match page and closes it again: their reconnection grace starts."""
    presence.connection_close(channel=board_opened(match_id, user))


def until_the_computer_is_to_act(match: Match, client: Any) -> None:
    """The person (seat 0, ``client``) acts in a practice match until it is the computer's
    turn; its request is never sent here (a test's transaction never commits)."""
    for seq in range(1, 20):
        game = client.get(f"/api/matches/{match.pk}/").json()["game"]
        if game["turn"] != match.player_0.username:
            return
        body: dict[str, Any] = {"type": "roll"} if game["phase"] == "roll" else {"type": "take"}
        if game["phase"] == "move":
            body = {"type": "play", "play": quick_play(game["legal_plays"])}
        answer = client.post(
            f"/api/matches/{match.pk}/actions/", {**body, "seq": seq}, format="json"
        )
        assert answer.status_code == 200, answer.json()
    raise AssertionError("the computer never came to act")
