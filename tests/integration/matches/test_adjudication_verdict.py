"""What an engine's evaluation decides for a match, the one rule the adjudication settles by
and a staff re-adjudication decides by again (``matches.adjudication.verdict``)."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.money import winner_commission_cents
from matches import adjudication
from matches.models import Adjudication, Match
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match

pytestmark = pytest.mark.django_db


def _evaluated(match: Match, *, equity: float, mwc: float | None, cube: int) -> Adjudication:
    """A stored evaluation of seat 0's chances, as the engine's run keeps it."""
    evaluation: dict[str, Any] = {
        "cube_value": cube,
        "players": [{"cubeful_equity": equity, "mwc": mwc}, {"cubeful_equity": -equity}],
    }
    return Adjudication(
        match=match, game_number=1, absent_seat=1, gnubg_id="x", plies=3, evaluation=evaluation
    )


def _match(**terms: object) -> Match:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    return Match.objects.get(pk=start_match(alice, bruno, **terms))


def test_a_money_game_is_split_by_seat_0s_cubeful_equity_at_the_cube() -> None:
    match = _match(money=True, stake_cents=100, max_cube=4, currency="FUN")

    decided = adjudication.verdict_of(match, _evaluated(match, equity=0.4, mwc=None, cube=2))

    assert decided.kind == "money"
    assert decided.decision["settlement_cents"] == [80, -80]
    assert decided.decision["commission_cents"] == [winner_commission_cents(80), 0]
    assert decided.winner_seat is None
    assert decided.split is not None
    assert decided.split.house_cents == winner_commission_cents(80)


def test_a_pot_is_shared_by_match_winning_chances_and_won_by_the_likelier() -> None:
    match = _match(length=5, stake_cents=1000, currency="FUN")

    decided = adjudication.verdict_of(match, _evaluated(match, equity=0.0, mwc=0.3, cube=1))

    assert decided.kind == "pot"
    assert decided.decision["shares_cents"] == [600, 1400]
    assert decided.winner_seat == 1


def test_a_match_without_a_stake_is_awarded_to_the_likelier_winner() -> None:
    match = _match(length=5)

    decided = adjudication.verdict_of(match, _evaluated(match, equity=0.0, mwc=0.8, cube=1))

    assert decided.decision == {"kind": "award", "mwc": [0.8, pytest.approx(0.2)], "winner_seat": 0}
    assert decided.split is None
