"""Entry limits: who may take a seat in a division, and the words of a refusal.

A limit is checked when a seat is taken (registering, by a ticket, or as a replacement),
by ``tournaments.services`` while it holds the tournament's lock; a player who later
climbs past a limit keeps the seat they took. The rating is the player's rating now; the
rated matches played are their rating changes that were not voided.
"""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Profile, RatingChange, User
from core.errors import DomainError
from tournaments.models import Tournament


def has_limits(tournament: Tournament) -> bool:
    return any(
        limit is not None
        for limit in (tournament.min_rating, tournament.max_rating, tournament.max_rated_matches)
    )


def rated_matches(user_id: int) -> int:
    """How many rated matches the player has played (voided ones left out)."""
    return RatingChange.objects.filter(user_id=user_id, voided_at__isnull=True).count()


def limit_words(tournament: Tournament) -> list[str]:
    """Each limit as the entry page shows it: "rated at least 1600", ..."""
    words = []
    if tournament.min_rating is not None:
        words.append(_("rated at least %(least)s") % {"least": tournament.min_rating})
    if tournament.max_rating is not None:
        words.append(_("rated at most %(most)s") % {"most": tournament.max_rating})
    if (most := tournament.max_rated_matches) is not None:
        words.append(
            ngettext(
                "at most %(most)s rated match played",
                "at most %(most)s rated matches played",
                most,
            )
            % {"most": most}
        )
    return words


def entry_refusal(tournament: Tournament, user: User, *, yours: bool = True) -> str | None:
    """Why ``user`` may not enter ``tournament``, or None. ``yours``: the sentence speaks to
    the player (registering); else of them (an organizer seating a replacement)."""
    if not has_limits(tournament):
        return None
    rating = Profile.objects.filter(user_id=user.pk).values_list("rating", flat=True).first()
    rating = rating or 0.0
    named = {
        "name": tournament.division or tournament.name,
        "player": user.profile.display_name,
        "rating": number_format(rating, decimal_pos=1),
    }
    if tournament.min_rating is not None and rating < tournament.min_rating:
        sentence = (
            _("%(name)s is for players rated at least %(least)s; your rating is %(rating)s.")
            if yours
            else _(
                "%(name)s is for players rated at least %(least)s; %(player)s is rated %(rating)s."
            )
        )
        return sentence % {**named, "least": tournament.min_rating}
    if tournament.max_rating is not None and rating > tournament.max_rating:
        sentence = (
            _("%(name)s is for players rated at most %(most)s; your rating is %(rating)s.")
            if yours
            else _(
                "%(name)s is for players rated at most %(most)s; %(player)s is rated %(rating)s."
            )
        )
        return sentence % {**named, "most": tournament.max_rating}
    most = tournament.max_rated_matches
    if most is not None and (played := rated_matches(user.pk)) > most:
        sentence = (
            ngettext(
                "%(name)s is for players with at most %(most)s rated match; "
                "you have played %(played)s.",
                "%(name)s is for players with at most %(most)s rated matches; "
                "you have played %(played)s.",
                most,
            )
            if yours
            else ngettext(
                "%(name)s is for players with at most %(most)s rated match; "
                "%(player)s has played %(played)s.",
                "%(name)s is for players with at most %(most)s rated matches; "
                "%(player)s has played %(played)s.",
                most,
            )
        )
        return sentence % {**named, "most": most, "played": played}
    return None


def require_may_enter(tournament: Tournament, user: User, *, yours: bool = True) -> None:
    """Refuse, in words, a player the tournament's entry limits keep out. The caller holds
    the tournament's lock (``scheduler.locked_tournament``)."""
    refusal = entry_refusal(tournament, user, yours=yours)
    if refusal is not None:
        raise DomainError(refusal)
