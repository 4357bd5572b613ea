"""Finished matches and people to dispute them, made through the services players use."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from accounts.models import User
from accounts.roles import Role
from matches.models import Match
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for, start_match


def staff(username: str = "sam") -> User:
    return UserFactory(username=username, display_name=f"{username.title()} Staff", role=Role.STAFF)


def resign(match_id: int, loser: User) -> None:
    """``loser`` resigns a single game and the opponent accepts: in a 1-point match, the end."""
    match = Match.objects.get(pk=match_id)
    winner = match.player_1 if match.player_0_id == loser.pk else match.player_0
    resigned = api_for(loser).post(
        f"/api/matches/{match_id}/actions/",
        {"type": "resign", "resign": "single", "seq": 900},
        format="json",
    )
    assert resigned.status_code == 200, resigned.json()
    accepted = api_for(winner).post(
        f"/api/matches/{match_id}/actions/",
        {"type": "accept_resign", "seq": 901},
        format="json",
    )
    assert accepted.status_code == 200, accepted.json()


def finished_match(winner: User, loser: User, **options: Any) -> Match:
    """A 1-point match ``winner`` won because ``loser`` resigned."""
    match_id = start_match(winner, loser, **{"length": 1, **options})
    resign(match_id, loser)
    return Match.objects.get(pk=match_id)


def file(user: User, match: Match, **body: Any) -> Any:
    return api_for(user).post(
        "/api/disputes/",
        {"match": match.pk, "category": "result", "description": "That was wrong.", **body},
        format="json",
    )


def anonymous() -> APIClient:
    return APIClient()
