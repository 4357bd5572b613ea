"""Money's one home: amounts as cents and as text, and the house's commission.

Money is always an integer number of cents; it is read from what a person typed or a form
cleaned (``cents_from_text``, ``cents_of``) and written for players (``money_text``) only
here, so every page, notice, message and refusal reads an amount the same way.

A *money game* is settled between two players: the loser pays the sum won, the winner
receives it less the commission, which the winner pays *for both players*: twice the
per-player commission on the sum won per player. The per-player commission follows the
house *schedule*: nothing on nothing, a flat 3 cents below 0.50, and 6.5 % rounded up to the
cent from 0.50 up. A 10.00 game therefore costs the winner 2 x 0.65 and pays out 8.70.

A tournament's *fee* is the house's part of an entry, shown beside the *buy-in*, the part
that goes to the prize pool: "10.00 + 0.65".

Pure Python: no Django, so the pure cores, the apps and the templates can all use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation


@dataclass(frozen=True)
class CommissionSchedule:
    """Flat ``flat_cents`` below ``flat_below_cents``, else ``rate_per_mille`` rounded up."""

    flat_cents: int = 3
    flat_below_cents: int = 50
    rate_per_mille: int = 65


STANDARD_SCHEDULE = CommissionSchedule()


def commission_cents(
    sum_cents_per_player: int, schedule: CommissionSchedule = STANDARD_SCHEDULE
) -> int:
    """The commission per player, in cents, on the sum won per player."""
    if sum_cents_per_player < 0:
        raise ValueError(f"a sum won cannot be negative: {sum_cents_per_player}")
    if sum_cents_per_player == 0:
        return 0
    if sum_cents_per_player < schedule.flat_below_cents:
        return schedule.flat_cents
    # Ceiling division in integers: no float ever touches money.
    return -(-sum_cents_per_player * schedule.rate_per_mille // 1000)


def winner_commission_cents(
    sum_cents_per_player: int, schedule: CommissionSchedule = STANDARD_SCHEDULE
) -> int:
    """What the winner of a money game pays the house: the commission for both players."""
    return 2 * commission_cents(sum_cents_per_player, schedule)


@dataclass(frozen=True)
class Separators:
    """How a language writes an amount: English "1,234.56", Italian "1.234,56"."""

    thousands: str = ","
    decimal: str = "."


ENGLISH = Separators()


def money_text(cents: int, separators: Separators = ENGLISH) -> str:
    """An amount as players read it: 123456 -> "1,234.56", -5 -> "-0.05" (the page's
    language's separators come from the ``money`` template filter)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    grouped = f"{whole:,}".replace(",", separators.thousands)
    return f"{sign}{grouped}{separators.decimal}{part:02d}"


def format_buy_in(buy_in_cents: int, fee_cents: int, separators: Separators = ENGLISH) -> str:
    """A tournament entry as shown beside it: "10.00 + 0.65", or "10.00" without a fee."""
    if fee_cents == 0:
        return money_text(buy_in_cents, separators)
    return f"{money_text(buy_in_cents, separators)} + {money_text(fee_cents, separators)}"


def signed_money_text(cents: int, separators: Separators = ENGLISH) -> str:
    """With an explicit sign, for wallet lines: "+8.70", "-10.00", "0.00"."""
    text = money_text(cents, separators)
    return f"+{text}" if cents > 0 else text


class NotAnAmount(ValueError):
    """Text or a number that is not an amount of money in whole cents; the message says why."""


def cents_of(amount: Decimal) -> int:
    """``Decimal("12.50")`` -> 1250. Refused, not rounded, when it has a fraction of a cent."""
    if not amount.is_finite():
        raise NotAnAmount(f"{amount} is not an amount of money.")
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise NotAnAmount(f"{amount} has a fraction of a cent: amounts are in whole cents.")
    return int(cents)


def cents_from_text(text: str) -> int:
    """What a person typed, "12.50", "-3", "1,234.56", as cents; ``NotAnAmount`` says why not."""
    cleaned = text.strip().replace(",", "")
    try:
        amount = Decimal(cleaned)
    except InvalidOperation:
        raise NotAnAmount(
            f"{text.strip()[:20]!r} is not an amount such as 12.50 or -3.00."
        ) from None
    if amount.is_finite() and abs(amount) >= Decimal(10) ** 12:
        raise NotAnAmount(f"{text.strip()[:20]!r} is too large an amount.")
    return cents_of(amount)


def amount_of(cents: int) -> Decimal:
    """Cents as the decimal a form shows: 1250 -> Decimal("12.50")."""
    return Decimal(cents).scaleb(-2)
