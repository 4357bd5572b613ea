"""The organizer's form fields for a swing, shown only while swing is chosen."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _

from tournaments.formats.swing import CppRaise
from tournaments.models import Tournament, TournamentFormat
from tournaments.settings import swing_fields
from tournaments.settings.build import form_field


class SwingFields(forms.Form):
    starting_chips = form_field(swing_fields.STARTING_CHIPS)
    cpp_levels = form_field(swing_fields.CPP_LEVELS)
    cpp_step = form_field(swing_fields.CPP_STEP)
    cpp_raise = form_field(swing_fields.CPP_RAISE)
    cpp_raise_minutes = form_field(swing_fields.CPP_RAISE_MINUTES)
    jacoby = form_field(swing_fields.JACOBY)
    beavers = form_field(swing_fields.BEAVERS)
    swing_match_length = form_field(swing_fields.SWING_MATCH_LENGTH)

    def clean_cpp_levels(self) -> tuple[int, ...]:
        text = self.cleaned_data.get("cpp_levels") or ""
        try:
            return tuple(int(part) for part in text.replace(" ", "").split(",") if part)
        except ValueError:
            raise forms.ValidationError(
                _("Write whole numbers of chips separated by commas, e.g. 10, 20, 30.")
            ) from None


def swing_settings(data: dict[str, Any]) -> dict[str, Any]:
    """The ``TournamentSettings`` fields a swing takes, from the form's values."""
    levels = data.get("cpp_levels") or ()
    return {
        "starting_chips": data.get("starting_chips"),
        "cpp_levels": levels if isinstance(levels, tuple) else (),
        "cpp_step": data.get("cpp_step") or 0,
        "cpp_raise": data.get("cpp_raise") or CppRaise.GAME.value,
        "cpp_raise_minutes": data.get("cpp_raise_minutes"),
        "jacoby": bool(data.get("jacoby")),
        "beavers": bool(data.get("beavers")),
        "swing_match_length": data.get("swing_match_length") or 0,
    }


def swing_initial(tournament: Tournament) -> dict[str, Any]:
    if tournament.format != TournamentFormat.SWING:
        return {}
    return {
        "starting_chips": tournament.starting_chips,
        "cpp_levels": ", ".join(str(level) for level in tournament.cpp_levels),
        "cpp_step": tournament.cpp_step,
        "cpp_raise": tournament.cpp_raise or CppRaise.GAME.value,
        "cpp_raise_minutes": tournament.cpp_raise_minutes,
        "jacoby": tournament.jacoby,
        "beavers": tournament.beavers,
        "swing_match_length": tournament.swing_match_length,
    }
