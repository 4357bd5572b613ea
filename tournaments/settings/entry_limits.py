"""A tournament's division name and entry limits, checked as settings.

The limits say who may take a seat: by rating (a lowest and a highest) or by the rated
matches played so far (a most, for a novice division). What they mean at entry, and the
words a refused player reads, are ``tournaments.divisions.limits``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from tournaments.settings import entry_fields
from tournaments.settings.refusals import Refuse

if TYPE_CHECKING:
    from tournaments.settings.general import TournamentSettings


def limit_values(settings: TournamentSettings, refuse: Refuse) -> dict[str, Any]:
    """The model's fields for the division and the entry limits; each bad one refused."""
    division = settings.division.strip()
    _low, high = entry_fields.DIVISION.limits
    if len(division) > high:
        refuse(
            "division",
            _("A division's name is at most %(most)s characters.") % {"most": high},
        )
    for setting in (
        entry_fields.MIN_RATING,
        entry_fields.MAX_RATING,
        entry_fields.MAX_RATED_MATCHES,
    ):
        value = getattr(settings, setting.name)
        if value is not None and not setting.allows(value):
            low, high = setting.limits
            refuse(
                setting.name,
                _("Give %(low)s to %(high)s, or leave it empty for no limit.")
                % {"low": low, "high": high},
            )
    least, most = settings.min_rating, settings.max_rating
    if least is not None and most is not None and least > most:
        refuse(
            "max_rating",
            _("The highest rating to enter (%(most)s) is below the lowest (%(least)s).")
            % {"most": most, "least": least},
        )
    return {
        "division": division,
        "min_rating": settings.min_rating,
        "max_rating": settings.max_rating,
        "max_rated_matches": settings.max_rated_matches,
    }
