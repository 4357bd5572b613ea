"""A seek asks its taker and its creator for what the match made from it will ask each
player to hold: one rule (``matches.money.cover_needed``) at the match's own highest cube."""

from __future__ import annotations

import pytest

from accounts import ledger
from lobby import seeks
from lobby.seeks import SeekTerms
from lobby.terms import take_rules
from matches import money
from matches.models import MatchKind
from tests.integration.disputes.helpers import staff
from tests.integration.lobby.helpers import player

pytestmark = pytest.mark.django_db


def test_a_money_seeks_cover_is_what_its_match_asks_each_player_to_hold() -> None:
    # given a money session sought at 0.25 a point, and a taker who holds enough
    alice, bruno, sam = player("alice"), player("bruno"), staff()
    for who in (alice, bruno):
        ledger.deposit(
            user=who, currency="FUN", amount_cents=50_000, reason="t", staff=sam, key=who.username
        )
    seek = seeks.seek_post(user=alice, terms=SeekTerms(kind=MatchKind.MONEY, stake_cents=25))
    [cover] = [rule["cents"] for rule in take_rules(seek) if rule["rule"] == "balance"]

    # when Bruno takes it
    match = seeks.seek_accept(seek_id=seek.pk, user=bruno)

    # then the match asks each player for the cover the seek named, and escrows it
    assert money.stake_needed(match) == cover
    assert cover == money.cover_needed(money_play=True, stake_cents=25, max_cube=match.max_cube)
    assert ledger.escrow_balance(escrow_ref=money.escrow_ref(match), currency="FUN") == 2 * cover


def test_a_match_to_n_points_asks_for_its_stake_and_a_money_game_for_its_exposure() -> None:
    assert money.cover_needed(money_play=False, stake_cents=1_000, max_cube=64) == 1_000
    assert money.cover_needed(money_play=True, stake_cents=100, max_cube=8) == 3 * 8 * 100
    assert money.cover_needed(money_play=True, stake_cents=100) == 3 * 16 * 100
