"""Challenges accepted at the same moment on PostgreSQL: each refused accepter is told
their own situation, never someone else's balance as theirs. One challenge accepted
several times at once (a double tap, two tabs, a retrying client) starts once and the rest
hear it was already accepted (409); two challenges of one challenger accepted at once, when
the challenger can cover only one, start one and tell the other accepter that the
challenger's balance is short. Each thread has its own database connection, as separate
web processes would."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts import ledger
from matches.models import Match, MatchStatus
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for

pytestmark = pytest.mark.django_db(transaction=True)

ACCEPTS = 4


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        try:
            barrier.wait()
            return call()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def accept(client: APIClient, match_id: int) -> Callable[[], tuple[int, str]]:
    def call() -> tuple[int, str]:
        response = client.post(f"/api/matches/{match_id}/accept/", format="json")
        return response.status_code, response.json().get("detail", "")

    return call


@pytest.mark.parametrize(
    "body",
    [
        {"length": 3, "stake_cents": 99_900, "currency": "FUN"},
        {"money": True, "stake_cents": 1_000, "currency": "FUN"},
    ],
    ids=["match-for-a-pot", "money-session"],
)
def test_accepting_one_challenge_at_once_starts_it_once_and_tells_the_rest_why(
    body: dict[str, Any],
) -> None:
    # given a challenge whose stake takes nearly all of each player's play money
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    created = api_for(alice).post("/api/matches/", {"opponent": "bruno", **body}, format="json")
    assert created.status_code == 201, created.json()
    match_id = created.json()["id"]
    clients = [api_for(bruno) for _ in range(ACCEPTS)]

    # when bruno accepts it from several places at the same moment
    answers = at_once([accept(client, match_id) for client in clients])

    # then one accept started it, and every other was told it was already accepted
    assert sorted(status for status, _ in answers) == [200] + [409] * (ACCEPTS - 1), answers
    refusals = {detail for status, detail in answers if status == 409}
    assert refusals == {"This challenge was already accepted: the match has started."}
    assert Match.objects.get(pk=match_id).status == MatchStatus.PLAYING
    assert ledger.currency_total("FUN") == 0


def test_two_challenges_accepted_at_once_tell_the_second_accepter_whose_balance_is_short() -> None:
    # given Alice's two challenges, each staking nearly all her play money
    alice = UserFactory(username="alice", display_name="Alice Martin")
    bruno, carla = UserFactory(username="bruno"), UserFactory(username="carla")
    ids = []
    for opponent in ("bruno", "carla"):
        created = api_for(alice).post(
            "/api/matches/",
            {"opponent": opponent, "length": 3, "stake_cents": 99_900, "currency": "FUN"},
            format="json",
        )
        assert created.status_code == 201, created.json()
        ids.append(created.json()["id"])

    # when Bruno and Carla accept at the same moment
    answers = at_once([accept(api_for(bruno), ids[0]), accept(api_for(carla), ids[1])])

    # then one match started, and the other accepter reads Alice's balance as Alice's
    assert sorted(status for status, _ in answers) == [200, 400], answers
    refused = next(detail for status, detail in answers if status == 400)
    assert refused == (
        "Alice Martin's FUN balance is 1.00; this match needs 999.00 FUN from each player."
    )
    statuses = sorted(Match.objects.filter(pk__in=ids).values_list("status", flat=True))
    assert statuses == [MatchStatus.INVITED, MatchStatus.PLAYING]
    assert ledger.balance(user=alice, currency="FUN") == 100
    assert ledger.currency_total("FUN") == 0
