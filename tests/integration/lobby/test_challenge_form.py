"""The challenge form of the play lobby: a clock of the player's own beside the presets,
and a money session's house rules (the Jacoby rule, beavers, raccoons, the highest cube)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from matches.models import Match
from tests.integration.lobby.helpers import player

pytestmark = pytest.mark.django_db


def _post(user: User, **fields: Any) -> Any:
    client = Client()
    client.force_login(user)
    form = {"kind": "match", "length": "5", "stake": "0", "currency": "FUN", "clock": "standard"}
    form.update({"clock_kind": "delay", "move_seconds": "12", "reserve_seconds": "60"})
    form.update({"timeout_loses": "match", "max_cube": "16", "rated": "on"})
    return client.post("/play/challenge/", {**form, **fields}, follow=True)


def test_a_challenge_with_a_clock_of_ones_own_and_money_rules() -> None:
    alice, bruno = player("alice"), player("bruno")

    page = _post(
        alice,
        opponent="bruno",
        kind="money",
        stake="0.50",
        clock="custom",
        clock_kind="move",
        move_seconds="20",
        reserve_seconds="90",
        timeout_loses="game",
        beavers="on",
        raccoons="on",
        max_cube="8",
    )

    assert "Challenge sent to" in page.content.decode()
    match = Match.objects.get(player_0=alice, player_1=bruno)
    assert (match.clock, match.move_seconds, match.reserve_seconds) == ("move", 20, 90)
    assert match.timeout_loses == "game"
    assert (match.jacoby, match.beavers, match.raccoons, match.max_cube) == (False, True, True, 8)


def test_raccoons_without_beavers_and_a_clock_out_of_range_are_refused_beside_their_fields() -> (
    None
):
    alice = player("alice")
    player("bruno")

    page = _post(
        alice,
        opponent="bruno",
        kind="money",
        stake="1.00",
        clock="custom",
        clock_kind="delay",
        move_seconds="5000",
        raccoons="on",
    )

    assert page.status_code == 400
    errors = page.context["form"].errors
    assert "Raccoons answer beavers" in errors["raccoons"][0]
    assert "1 to 600 seconds" in errors["clock_kind"][0]
    assert 'data-testid="challenge-more" open' in page.content.decode()  # unfolded
    assert not Match.objects.exists()
