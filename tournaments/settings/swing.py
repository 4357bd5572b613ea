"""A swing tournament's own settings: chips, the CPP schedule, the games' house rules.

The organizer gives ``starting_chips`` and the CPP either as ``cpp_levels`` (then, if
``cpp_step`` is given, each later level that much higher) or as ``cpp_start`` and
``cpp_step``; ``cpp_raise`` says when the level rises (with every game each player plays,
the default; every ``cpp_raise_minutes``; or at every knockout). ``swing_match_length``
0 plays single games, N a match to N with a match cube (match swing). The checks refuse
field by field with ``by_format``'s ``refuse``; each setting and its limits are declared in
``tournaments.settings.fields``, the pure schedule is ``tournaments.formats.swing``.
"""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from tournaments.errors import format_refused
from tournaments.formats.base import FormatError
from tournaments.formats.swing import CppRaise, CppSchedule
from tournaments.settings import swing_fields
from tournaments.settings.refusals import Refuse

SWING_DEFAULTS: dict[str, Any] = {
    "starting_chips": None,
    "cpp_levels": [],
    "cpp_step": 0,
    "cpp_raise": "",
    "cpp_raise_minutes": None,
    "jacoby": False,
    "beavers": False,
    "swing_match_length": 0,
}


def swing_values(settings: Any, refuse: Refuse) -> dict[str, Any]:
    """The model fields of a swing's settings, every problem refused by field."""
    chips = settings.starting_chips
    if chips is None:
        refuse("starting_chips", _("Say how many chips each player starts with."))
    elif not swing_fields.STARTING_CHIPS.allows(chips):
        low, high = swing_fields.STARTING_CHIPS.limits
        refuse(
            "starting_chips",
            _("Start each player with %(low)s to %(high)s chips.")
            % {"low": low, "high": number_format(high, force_grouping=True)},
        )
    levels = _levels(settings, refuse)
    raise_on = settings.cpp_raise or CppRaise.GAME
    if raise_on not in swing_fields.CPP_RAISE.values:
        refuse(
            "cpp_raise", _("The CPP rises after each game, every N minutes, or at each knockout.")
        )
        raise_on = CppRaise.GAME
    minutes = settings.cpp_raise_minutes if raise_on == CppRaise.MINUTES else None
    if raise_on == CppRaise.MINUTES and (
        minutes is None or not swing_fields.CPP_RAISE_MINUTES.allows(minutes)
    ):
        low, high = swing_fields.CPP_RAISE_MINUTES.limits
        refuse(
            "cpp_raise_minutes",
            _("Raise the CPP every %(low)s to %(high)s minutes.") % {"low": low, "high": high},
        )
    length = settings.swing_match_length or 0
    if not swing_fields.SWING_MATCH_LENGTH.allows(length):
        high = swing_fields.SWING_MATCH_LENGTH.limits[1]
        refuse(
            "swing_match_length",
            _("Play single games (0) or matches of 1 to %(high)s points, not %(length)s.")
            % {"high": high, "length": length},
        )
    step = settings.cpp_step or 0
    if levels and chips is not None and levels[0] > chips:
        refuse(
            "cpp_levels",
            _(
                "The first CPP (%(cpp)s) is more than the starting chips (%(chips)s): every game "
                "would be all-in."
            )
            % {
                "cpp": number_format(levels[0], force_grouping=True),
                "chips": number_format(chips, force_grouping=True),
            },
        )
    if levels:
        try:
            CppSchedule(tuple(levels), step)  # the levels themselves; the raise is checked above
        except FormatError as refusal:
            refuse("cpp_levels", format_refused(refusal))
    return {
        "starting_chips": chips,
        "cpp_levels": levels,
        "cpp_step": step,
        "cpp_raise": str(raise_on),
        "cpp_raise_minutes": minutes,
        "jacoby": bool(settings.jacoby) and not length,
        "beavers": bool(settings.beavers) and not length,
        "swing_match_length": length,
    }


def _levels(settings: Any, refuse: Refuse) -> list[int]:
    levels, start, step = list(settings.cpp_levels or ()), settings.cpp_start, settings.cpp_step
    if step is not None and step < swing_fields.CPP_STEP.limits[0]:
        refuse("cpp_step", _("The CPP step cannot be negative."))
    if levels and start is not None:
        refuse("cpp_start", _("Give the CPP levels, or a starting CPP and a step: not both."))
        return []
    if start is not None:
        if start < swing_fields.CPP_START.limits[0]:
            refuse("cpp_start", _("The CPP starts at 1 chip a point or more."))
            return []
        if not step:
            refuse("cpp_step", _("Say how much the CPP rises at each level."))
        return [start]
    if not levels:
        refuse("cpp_levels", _("Give the CPP levels, or a starting CPP and a step."))
    elif len(levels) > (most := swing_fields.CPP_LEVELS.items or 0):
        refuse("cpp_levels", _("Give at most %(most)s CPP levels.") % {"most": most})
        return []
    return levels
