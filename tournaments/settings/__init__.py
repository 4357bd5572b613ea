"""An organizer's settings for a tournament: each field and its limit declared once, checked
as a whole and by format, and the pure format they make.

``fields`` declares each setting once (kind, words, limits, default, the formats that take
it) and ``build`` makes the organizer's form fields and the API's fields from it;
``general`` is what every tournament has (``TournamentSettings``, ``check_settings``),
``by_format`` the settings that belong to some formats only (flights, rounds, groups, the
prize table), ``swing`` a swing's own (chips, the CPP schedule), ``refusals`` how a field is
refused, ``pure`` the pure format (``tournaments.formats``) the settings make.
"""

from __future__ import annotations

from tournaments.settings.general import (
    EDITABLE_STATES,
    TournamentSettings,
    check_settings,
    settings_of,
)
from tournaments.settings.pure import tournament_format

__all__ = [
    "EDITABLE_STATES",
    "TournamentSettings",
    "check_settings",
    "settings_of",
    "tournament_format",
]
