"""What a seek offers, in players' words, and who may take it.

Terms:

* *cover*: what a player must have in the seek's currency to play it, by the rule a match
  asks it (``matches.money.cover_needed``): the stake of a match to N points; for a money
  session, one game's *exposure* at the seek's highest cube (``SEEK_MAX_CUBE``), the cube
  of the match made from it, which ``matches.money`` escrows when each game starts.
* *eligible*: a player may take a seek that is not their own, whose rating range holds
  their rating and whose cover they have.
* *take rules*: that rule for one seek, as data: the checks in the order they are asked,
  each with the words that refuse a player who fails it. ``refusal`` applies them here;
  the play lobby's page applies the same list, sent in the seek's live frame, to its viewer
  (``static/js/lobby/seeks.js``), so which checks there are, their order and their words live
  here alone. A refusal's ``{rating}`` and ``{balance}`` are the player's own figures,
  written by ``rating_words`` and ``money``.

Reads nothing: callers pass the balance and the rating they read.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.money import money_text
from accounts.templatetags.money import page_separators
from lobby.models import Seek
from matches.models import ClockSettings, MatchKind
from matches.money import DEFAULT_MAX_CUBE, cover_needed


def clock_of(seek: Seek) -> ClockSettings:
    """The seek's time control (the default for fields it does not name)."""
    return ClockSettings.from_json(seek.clock)


# A seek's money session is offered at the house's usual highest cube: its cover is counted
# at it and the match made from it is challenged with it (``lobby.seeks``).
SEEK_MAX_CUBE = DEFAULT_MAX_CUBE


def cover_cents(*, kind: str, stake_cents: int) -> int:
    """What each player must have to play these terms."""
    return cover_needed(
        money_play=kind == MatchKind.MONEY, stake_cents=stake_cents, max_cube=SEEK_MAX_CUBE
    )


def offer_text(*, kind: str, length: int, stake_cents: int, currency: str) -> str:
    """What is played, as in "5-point match for 10.00 FUN" or "money session at 1.00 FUN
    a point"."""
    values = {
        "length": length,
        "stake": money_text(stake_cents, page_separators()),
        "currency": currency,
    }
    if kind == MatchKind.MONEY:
        return _("money session at %(stake)s %(currency)s a point") % values
    if stake_cents:
        return (
            ngettext(
                "%(length)s-point match for %(stake)s %(currency)s",
                "%(length)s-point match for %(stake)s %(currency)s",
                length,
            )
            % values
        )
    return ngettext("%(length)s-point match", "%(length)s-point match", length) % values


def with_article(offer: str) -> str:
    """The offer after "a" or "an": "an 11-point match", "a money session ..."."""
    spoken_with_a_vowel = offer.split("-", 1)[0] in {"8", "11", "18"}
    words = _("an %(offer)s") if spoken_with_a_vowel else _("a %(offer)s")
    return words % {"offer": offer}


def terms_text(seek: Seek) -> str:
    """The seek's offer as a line of the lobby: "5-point match for 10.00 FUN"."""
    offer = offer_text(
        kind=seek.kind, length=seek.length, stake_cents=seek.stake_cents, currency=seek.currency
    )
    return offer[0].upper() + offer[1:]


def range_text(seek: Seek) -> str:
    """Who may take it by rating: "rated 1600–1900", "rated 1600 and up", or ""."""
    low, high = seek.min_rating, seek.max_rating
    if low is not None and high is not None:
        return _("rated %(low)s–%(high)s") % {"low": low, "high": high}
    if low is not None:
        return _("rated %(low)s and up") % {"low": low}
    if high is not None:
        return _("rated up to %(high)s") % {"high": high}
    return ""


LOG_IN_TO_TAKE = gettext_lazy("Log in to take a seek")


def rating_words(rating: float) -> str:
    """A rating as a refusal shows it: "1523"."""
    return f"{rating:.0f}"


def take_rules(seek: Seek) -> list[dict[str, Any]]:
    """Who may take ``seek``, as checks asked in order (see the module's *take rules*):
    ``{"rule": "not_own", "creator": id}``, ``{"rule": "rating", "low": n | None, "high":
    n | None}`` (bounds included) and ``{"rule": "balance", "currency": c, "cents": n}``
    (at least), each with its ``"refusal"``."""
    rules: list[dict[str, Any]] = [
        {"rule": "not_own", "creator": seek.creator_id, "refusal": _("This is your own seek")}
    ]
    if seek.min_rating is not None or seek.max_rating is not None:
        rules.append(
            {
                "rule": "rating",
                "low": seek.min_rating,
                "high": seek.max_rating,
                # {rating} stays a blank for the viewer's own figure.
                "refusal": _("This seek is for players %(range)s; your rating is {rating}")
                % {"range": range_text(seek)},
            }
        )
    needed = cover_cents(kind=seek.kind, stake_cents=seek.stake_cents)
    rules.append(
        {
            "rule": "balance",
            "currency": seek.currency,
            "cents": needed,
            "refusal": _("This seek needs %(needed)s %(currency)s; you have {balance} %(currency)s")
            % {"needed": money_text(needed, page_separators()), "currency": seek.currency},
        }
    )
    return rules


def _holds(rule: dict[str, Any], *, user_id: int, rating: float, balance_cents: int) -> bool:
    if rule["rule"] == "not_own":
        return bool(rule["creator"] != user_id)
    if rule["rule"] == "rating":
        low: int | None = rule["low"]
        high: int | None = rule["high"]
        return (low is None or rating >= low) and (high is None or rating <= high)
    cents: int = rule["cents"]
    return balance_cents >= cents


def refusal(seek: Seek, *, user_id: int, rating: float, balance_cents: int) -> str | None:
    """Why the player cannot take ``seek``, in their words, or None when they may."""
    for rule in take_rules(seek):
        if not _holds(rule, user_id=user_id, rating=rating, balance_cents=balance_cents):
            words: str = rule["refusal"]
            return words.replace("{rating}", rating_words(rating)).replace(
                "{balance}", money_text(balance_cents, page_separators())
            )
    return None
