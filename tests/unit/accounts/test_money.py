"""Money's one home: the house's commission, amounts written for players and read from them."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.money import (
    CommissionSchedule,
    NotAnAmount,
    amount_of,
    cents_from_text,
    cents_of,
    commission_cents,
    format_buy_in,
    money_text,
    signed_money_text,
    winner_commission_cents,
)


@pytest.mark.parametrize(
    ("sum_per_player", "per_player"),
    [
        (0, 0),  # nothing won, nothing paid
        (1, 3),  # 0.01: the flat 3 cents
        (49, 3),  # 0.49: still flat
        (50, 4),  # 0.50: 50 x 6.5 % = 3.25, rounded up
        (100, 7),  # 1.00: 6.5, rounded up
        (1000, 65),  # 10.00: exactly 0.65
        (12345, 803),  # 123.45: 802.425, rounded up
    ],
)
def test_commission_per_player_follows_the_schedule(sum_per_player: int, per_player: int) -> None:
    assert commission_cents(sum_per_player) == per_player


def test_the_winner_of_a_ten_unit_game_receives_eight_seventy() -> None:
    stake = 1000

    paid_by_winner = winner_commission_cents(stake)

    assert paid_by_winner == 130
    assert stake - paid_by_winner == 870


def test_a_different_schedule_can_be_passed_in() -> None:
    schedule = CommissionSchedule(flat_cents=5, flat_below_cents=100, rate_per_mille=50)

    assert commission_cents(99, schedule) == 5
    assert commission_cents(101, schedule) == 6  # 5.05 rounded up
    assert winner_commission_cents(1000, schedule) == 100


def test_a_negative_sum_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="negative"):
        commission_cents(-1)


@given(st.integers(min_value=50, max_value=10**9))
def test_the_rate_is_never_undercharged_nor_more_than_a_cent_over(cents: int) -> None:
    per_player = commission_cents(cents)

    assert per_player * 1000 >= cents * 65
    assert (per_player - 1) * 1000 < cents * 65


@pytest.mark.parametrize(
    ("cents", "text"),
    [
        (0, "0.00"),
        (5, "0.05"),
        (100, "1.00"),
        (123456, "1,234.56"),
        (100000000, "1,000,000.00"),
        (-1505, "-15.05"),
    ],
)
def test_money_is_written_with_thousands_and_two_decimals(cents: int, text: str) -> None:
    assert money_text(cents) == text


def test_a_buy_in_is_shown_with_its_fee_beside_it() -> None:
    assert format_buy_in(1000, 65) == "10.00 + 0.65"
    assert format_buy_in(250000, 0) == "2,500.00"


def test_a_wallet_line_carries_its_sign() -> None:
    assert [signed_money_text(c) for c in (870, -1000, 0)] == ["+8.70", "-10.00", "0.00"]


@pytest.mark.parametrize(
    ("typed", "cents"),
    [("12.50", 1250), (" -3 ", -300), ("1,234.56", 123456), ("0.05", 5), ("7.1", 710)],
)
def test_an_amount_typed_is_read_as_cents(typed: str, cents: int) -> None:
    assert cents_from_text(typed) == cents


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("1.005", "fraction of a cent"),
        ("12,50 EUR", "not an amount such as 12.50"),
        ("NaN", "not an amount of money"),
        ("-Infinity", "not an amount of money"),
        ("1e30", "too large"),
    ],
)
def test_what_is_not_an_amount_is_refused_with_the_reason(typed: str, why: str) -> None:
    with pytest.raises(NotAnAmount, match=why):
        cents_from_text(typed)


def test_a_form_amount_becomes_cents_and_back_without_rounding() -> None:
    assert cents_of(Decimal("10.65")) == 1065
    assert amount_of(1065) == Decimal("10.65")
    with pytest.raises(NotAnAmount):
        cents_of(Decimal("0.655"))


@given(st.integers(min_value=-(10**11), max_value=10**11))
def test_what_is_written_reads_back_as_the_same_cents(cents: int) -> None:
    assert cents_from_text(money_text(cents)) == cents
    assert cents_of(amount_of(cents)) == cents
