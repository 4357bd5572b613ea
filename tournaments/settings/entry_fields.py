"""A division's name and the limits on who may enter it (any tournament may have them).

Declared as ``tournaments.settings.fields`` declares every setting, and listed there in
this order with the rest (``fields.SETTINGS``).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments.settings.setting import Kind, Setting

# The highest rating a limit can name: far above any player's (everyone starts at 1500).
MAX_RATING_LIMIT = 5000
DIVISION = Setting(
    "division",
    Kind.TEXT,
    low=0,
    high=40,
    label=_("Division"),
    help=_("Its division of the event, e.g. Championship, Intermediate or Novice; empty: none."),
    api_help="The division of its event this tournament is (Championship, Novice, ...).",
)
MIN_RATING = Setting(
    "min_rating",
    Kind.WHOLE,
    low=0,
    high=MAX_RATING_LIMIT,
    label=_("Lowest rating to enter"),
    help=_("Players rated below it cannot enter; empty: no limit."),
    api_help="Only players rated at least this may enter; none: no limit.",
)
MAX_RATING = Setting(
    "max_rating",
    Kind.WHOLE,
    low=0,
    high=MAX_RATING_LIMIT,
    label=_("Highest rating to enter"),
    help=_("Players rated above it cannot enter; empty: no limit."),
    api_help="Only players rated at most this may enter; none: no limit.",
)
MAX_RATED_MATCHES = Setting(
    "max_rated_matches",
    Kind.WHOLE,
    low=0,
    high=1_000_000,
    label=_("Most rated matches played to enter"),
    help=_("For novices: players who have played more rated matches cannot enter."),
    api_help="Only players who have played at most this many rated matches may enter "
    "(a novice division); none: no limit.",
)

# This module's settings, in the order declared.
SETTINGS = tuple(value for value in tuple(globals().values()) if isinstance(value, Setting))
