"""The words notices share, written in the active language: what a match is played for, an
amount of money, a place in a tournament.

``lobby.notifications`` calls a notice's sentence in its reader's language, so these are
called there too. An offer is written whole with the article or the possessive in front of
it ("an 11-point match", "your money session at 1.00 FUN a point"): a language agrees them
with the noun (Italian "un match", "la tua sessione"), so a sentence never puts "your" or
"a" before an offer itself.
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext, pgettext

from accounts.templatetags.money import money
from matches.models import MatchKind


def amount(cents: int, currency: str) -> str:
    """An amount with its currency, as the language writes it: "1,234.50 FUN"."""
    return f"{money(cents)} {currency}"


def an_offer(*, kind: str, length: int, stake_cents: int, currency: str) -> str:
    """What is played, after "a" or "an": "an 11-point match for 10.00 FUN", "a money
    session at 1.00 FUN a point"."""
    if kind == MatchKind.MONEY:
        return gettext("a money session at %(stake)s a point") % {
            "stake": amount(stake_cents, currency)
        }
    blanks = {"length": length, "stake": amount(stake_cents, currency)}
    # English says "an" before a number spoken with a vowel: eight, eleven, eighteen.
    if length in {8, 11, 18}:
        if stake_cents:
            return (
                ngettext(
                    "an %(length)s-point match for %(stake)s",
                    "an %(length)s-point match for %(stake)s",
                    length,
                )
                % blanks
            )
        return ngettext("an %(length)s-point match", "an %(length)s-point match", length) % blanks
    if stake_cents:
        return (
            ngettext(
                "a %(length)s-point match for %(stake)s",
                "a %(length)s-point match for %(stake)s",
                length,
            )
            % blanks
        )
    return ngettext("a %(length)s-point match", "a %(length)s-point match", length) % blanks


def your_offer(*, kind: str, length: int, stake_cents: int, currency: str) -> str:
    """What the reader plays, after "your": "your 5-point match for 10.00 FUN"."""
    if kind == MatchKind.MONEY:
        return gettext("your money session at %(stake)s a point") % {
            "stake": amount(stake_cents, currency)
        }
    blanks = {"length": length, "stake": amount(stake_cents, currency)}
    if stake_cents:
        return (
            ngettext(
                "your %(length)s-point match for %(stake)s",
                "your %(length)s-point match for %(stake)s",
                length,
            )
            % blanks
        )
    return ngettext("your %(length)s-point match", "your %(length)s-point match", length) % blanks


def placing(place: int, shared_to: int | None) -> str:
    """A place in a tournament, as in "2nd", or "3rd–4th" for a shared one."""
    shared = shared_to or place
    if shared == place:
        return ordinal(place)
    return f"{ordinal(place)}–{ordinal(shared)}"


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    blanks = {"number": number}
    if 10 <= number % 100 <= 20:
        return pgettext("ordinal", "%(number)sth") % blanks
    last = number % 10
    if last == 1:
        return pgettext("ordinal", "%(number)sst") % blanks
    if last == 2:
        return pgettext("ordinal", "%(number)snd") % blanks
    if last == 3:
        return pgettext("ordinal", "%(number)srd") % blanks
    return pgettext("ordinal", "%(number)sth") % blanks
