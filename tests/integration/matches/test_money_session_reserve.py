"""A money session's delay clock gives each player the reserve again at every game: a session
has no points to count it by, and a long one must not run its players out of time."""

from __future__ import annotations

import pytest

from accounts.models import User
from matches.models import Match
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match
from tests.integration.tournaments.helpers import concede

pytestmark = pytest.mark.django_db


def _players() -> tuple[User, User]:
    return UserFactory(username="alice"), UserFactory(username="bruno")


def test_each_game_of_a_money_session_adds_the_reserve_to_what_is_left() -> None:
    alice, bruno = _players()
    match_id = start_match(alice, bruno, money=True, stake_cents=10, clock={"preset": "standard"})
    match = Match.objects.get(pk=match_id)
    assert (match.reserve_ms_0, match.reserve_ms_1) == (120_000, 120_000)
    Match.objects.filter(pk=match_id).update(reserve_ms_0=45_000)

    concede(match, bruno)

    match.refresh_from_db()
    assert match.games.count() == 2
    assert (match.reserve_ms_0, match.reserve_ms_1) == (165_000, 240_000)


def test_a_match_to_points_keeps_its_reserve_from_game_to_game() -> None:
    alice, bruno = _players()
    match_id = start_match(alice, bruno, length=5, clock={"preset": "standard"})
    match = Match.objects.get(pk=match_id)
    assert (match.reserve_ms_0, match.reserve_ms_1) == (600_000, 600_000)

    concede(match, bruno)

    match.refresh_from_db()
    assert match.score_0 == 1
    assert (match.reserve_ms_0, match.reserve_ms_1) == (600_000, 600_000)
