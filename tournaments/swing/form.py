"""The organizer's form fields for a swing, shown only while swing is chosen."""

from __future__ import annotations

from typing import Any

from django import forms

from matches.creation import MAX_MATCH_LENGTH
from tournaments.formats.swing import MAX_CPP, CppRaise
from tournaments.models import Tournament, TournamentFormat
from tournaments.settings.swing import MAX_RAISE_MINUTES, MAX_STARTING_CHIPS

SWING = TournamentFormat.SWING
SHOWN = {"data-shown-for": SWING}
RAISES = [
    (CppRaise.GAME.value, "After every game"),
    (CppRaise.MINUTES.value, "Every N minutes"),
    (CppRaise.KNOCKOUT.value, "At every knockout"),
]


class SwingFields(forms.Form):
    starting_chips = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_STARTING_CHIPS,
        initial=1000,
        label="Starting chips",
        widget=forms.NumberInput(attrs=SHOWN),
    )
    cpp_levels = forms.CharField(
        required=False,
        initial="10, 20, 30",
        label="Chips per point (CPP) levels",
        help_text="Rising, e.g. 10, 20, 30; a game plays for points × cube × the CPP of the "
        "level when it starts.",
        widget=forms.TextInput(attrs=SHOWN),
    )
    cpp_step = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_CPP,
        initial=10,
        label="Then each level adds",
        help_text="After the listed levels; 0 keeps the last one.",
        widget=forms.NumberInput(attrs=SHOWN),
    )
    cpp_raise = forms.ChoiceField(
        choices=RAISES,
        initial=CppRaise.GAME.value,
        required=False,
        label="The CPP rises",
        widget=forms.Select(attrs=SHOWN),
    )
    cpp_raise_minutes = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_RAISE_MINUTES,
        label="Minutes per level",
        help_text="When it rises every N minutes.",
        widget=forms.NumberInput(attrs=SHOWN),
    )
    jacoby = forms.BooleanField(
        required=False,
        initial=True,
        label="Jacoby rule",
        help_text="Gammons count only once the cube has been turned.",
        widget=forms.CheckboxInput(attrs=SHOWN),
    )
    beavers = forms.BooleanField(
        required=False, label="Beavers", widget=forms.CheckboxInput(attrs=SHOWN)
    )
    swing_match_length = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_MATCH_LENGTH,
        initial=0,
        label="Match swing: points per match",
        help_text="0 plays single games; N plays a match to N (no Crawford game) with a match "
        "cube beside the game cube.",
        widget=forms.NumberInput(attrs=SHOWN),
    )

    def clean_cpp_levels(self) -> tuple[int, ...]:
        text = self.cleaned_data.get("cpp_levels") or ""
        try:
            return tuple(int(part) for part in text.replace(" ", "").split(",") if part)
        except ValueError:
            raise forms.ValidationError(
                "Write whole numbers of chips separated by commas, e.g. 10, 20, 30."
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
    if tournament.format != SWING:
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
