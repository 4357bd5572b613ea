"""A challenge from input: the play page's form and the API's body are mapped to a match by
one function (``matches.creation.challenge_from_input``), so the same terms make the same
match whichever way they were sent."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.creation import challenge_from_input
from matches.models import DEFAULT_CLOCK, Match, MatchKind
from tests.factories import UserFactory
from tests.integration.lobby.helpers import player
from tests.integration.matches.helpers import api_for

pytestmark = pytest.mark.django_db

TERMS = ("kind", "length", "stake_cents", "currency", "max_cube", "jacoby", "beavers")
MORE = ("raccoons", "automatic_doubles", "rated", "private", "clock", "move_seconds")


def _terms(match: Match) -> tuple[object, ...]:
    return tuple(getattr(match, name) for name in (*TERMS, *MORE, "reserve_seconds"))


def test_a_money_session_sent_on_the_page_and_over_the_api_is_the_same_match() -> None:
    alice, bruno, chloe = player("alice"), player("bruno"), player("chloe")
    page = Client()
    page.force_login(alice)

    page.post(
        "/play/challenge/",
        {
            "opponent": bruno.username,
            "kind": "money",
            "stake": "0.50",
            "currency": "FUN",
            "clock": "standard",
            "max_cube": "8",
            "beavers": "on",
            "rated": "on",
            # the form's own clock, unused beside a preset
            "clock_kind": "delay",
            "move_seconds": "12",
            "reserve_seconds": "60",
            "timeout_loses": "match",
        },
    )
    api = api_for(alice).post(
        "/api/matches/",
        {
            "opponent": chloe.username,
            "money": True,
            "stake_cents": 50,
            "currency": "FUN",
            "clock": {"preset": "standard"},
            "max_cube": 8,
            "beavers": True,
            "jacoby": False,
        },
        format="json",
    )

    assert api.status_code == 201, api.json()
    by_page = Match.objects.get(player_1=bruno)
    by_api = Match.objects.get(player_1=chloe)
    assert _terms(by_page) == _terms(by_api)
    assert (by_page.kind, by_page.max_cube, by_page.stake_cents) == (MatchKind.MONEY, 8, 50)


def test_what_the_input_leaves_out_takes_the_challenges_defaults() -> None:
    alice, bruno = UserFactory(), UserFactory()

    match = challenge_from_input(challenger=alice, opponent=bruno, values={"length": 3})

    assert (match.kind, match.length, match.stake_cents, match.currency) == ("match", 3, 0, "FUN")
    assert (match.rated, match.private, match.automatic_doubles) == (True, False, 0)
    assert (match.clock, match.move_seconds) == (DEFAULT_CLOCK.kind, DEFAULT_CLOCK.move_seconds)


def test_a_money_session_ignores_a_length_sent_with_it() -> None:
    alice, bruno = UserFactory(), UserFactory()

    match = challenge_from_input(
        challenger=alice,
        opponent=bruno,
        values={"money": True, "length": 7, "stake_cents": 10},
    )

    assert (match.kind, match.length, match.max_cube) == (MatchKind.MONEY, 0, 16)
