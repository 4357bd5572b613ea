"""Each tournament setting is declared once (``tournaments.settings.fields``): the
organizer's form, the API and the settings' checks all take it within the declared limits,
choices and default, and neither the form nor the API has a field the declaration does not
know."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

import pytest
from rest_framework.exceptions import ValidationError

from tests.integration.tournaments.helpers import organizer
from tournaments.errors import TournamentInvalid
from tournaments.forms import TournamentForm
from tournaments.serializers import (
    PrizeTableField,
    RoundLengthsField,
    TournamentSettingsInputSerializer,
)
from tournaments.settings import check_settings, fields, swing_fields
from tournaments.settings.general import TournamentSettings
from tournaments.settings.setting import FORMATS, Kind, Setting

# Fields made by hand: text for one flight's lengths or prizes, a flight by flight value,
# the clock as a whole, and the API's word for the consolation switch.
FORM_BY_HAND = {
    "round_lengths",
    "losers_lengths",
    "second_losers_lengths",
    "consolation_lengths",
    "last_chance_lengths",
    "final_lengths",
    "prizes",
    "consolation_prizes",
    "last_chance_prizes",
}
API_BY_HAND = {"round_lengths", "prize_table", "clock", "flight_clocks", "consolation"}


def built(setting: Setting) -> bool:
    return setting.kind != Kind.BY_FLIGHT


def powers_of_two_within(setting: Setting) -> list[int]:
    low, high = setting.limits
    return [n for n in range(low, high + 1) if n & (n - 1) == 0]


def test_the_form_has_a_field_for_each_declared_setting_and_no_other() -> None:
    declared = {s.field for s in fields.SETTINGS if s.on_form and built(s)}
    assert set(TournamentForm.base_fields) - FORM_BY_HAND == declared


def test_the_api_has_a_field_for_each_declared_setting_and_no_other() -> None:
    declared = {s.name for s in fields.SETTINGS if s.in_api and built(s)}
    assert set(TournamentSettingsInputSerializer().fields) - API_BY_HAND == declared


@pytest.mark.parametrize(
    "setting", [s for s in fields.SETTINGS if s.on_form and built(s)], ids=lambda s: s.name
)
def test_the_form_field_takes_the_declared_limits_words_and_formats(setting: Setting) -> None:
    field: Any = TournamentForm.base_fields[setting.field]
    if setting.kind in (Kind.WHOLE, Kind.POWER_OF_TWO):
        assert (field.min_value, field.max_value) == setting.limits
    if setting.kind == Kind.MONEY:
        assert (field.min_value * 100, field.max_value * 100) == setting.limits
        assert field.initial == Decimal(setting.proposed) / 100
    if setting.kind == Kind.CHOICE:
        assert list(field.choices) == list(setting.choices)
    if setting.kind == Kind.TEXT:
        assert field.max_length == setting.limits[1]
    if setting.kind in (Kind.WHOLE, Kind.CHOICE, Kind.FLAG):
        assert field.initial == setting.proposed
    if setting.label:
        assert field.label == setting.label
    assert field.help_text == setting.help
    shown = field.widget.attrs.get("data-shown-for")
    assert shown == (None if setting.formats == FORMATS else " ".join(setting.formats))


@pytest.mark.parametrize(
    "setting", [s for s in fields.SETTINGS if s.in_api and built(s)], ids=lambda s: s.name
)
def test_the_api_field_takes_the_declared_limits_and_default(setting: Setting) -> None:
    field: Any = TournamentSettingsInputSerializer().fields[setting.name]
    if setting.kind in (Kind.WHOLE, Kind.MONEY, Kind.TOURNAMENT):
        assert (field.min_value, field.max_value) == setting.limits
    if setting.kind == Kind.POWER_OF_TWO:
        assert sorted(field.choices) == powers_of_two_within(setting)
    if setting.kind == Kind.CHOICE:
        assert list(field.choices) == list(setting.values)
    if setting.kind == Kind.NUMBERS:
        assert (field.child.min_value, field.child.max_value) == setting.limits
        assert field.max_length == setting.items
    if setting.kind == Kind.TEXT:
        assert field.max_length == setting.limits[1]
    assert field.required == setting.required
    if setting.default is not None:
        assert field.default == setting.default
    assert (field.help_text or "") == setting.api_help


@pytest.mark.parametrize(
    ("made", "setting"),
    [(RoundLengthsField, fields.ROUND_LENGTHS), (PrizeTableField, fields.PRIZE_TABLE)],
)
def test_a_flight_by_flight_value_in_the_api_takes_the_declared_limits(
    made: type[RoundLengthsField], setting: Setting
) -> None:
    low, high = setting.limits
    most = setting.items or 0
    field = made()
    assert field.to_internal_value([high] * most) == {"main": [high] * most}
    for refused in ([high + 1], [low - 1], [low] * (most + 1)):
        with pytest.raises(ValidationError, match=r"each is|give a list"):
            field.to_internal_value(refused)


# Settings whose check states their limits, with what else makes them count.
CHECKED: list[tuple[Setting, dict[str, Any]]] = [
    (fields.SEATS, {"format": "sit_and_go"}),
    (fields.MAX_ENTRANTS, {}),
    (fields.SHOW_UP_SECONDS, {}),
    (fields.ROUND_MINUTES, {}),
    (fields.ROUNDS, {"format": "swiss"}),
    (fields.TOP_CUT, {"format": "swiss", "rounds": 3}),
    (fields.GROUP_SIZE, {"format": "round_robin", "advance_per_group": 1}),
    (fields.CONSOLATION_THROUGH_ROUND, {}),
    (fields.LAST_CHANCE_REENTERS_AT, {}),
    (swing_fields.STARTING_CHIPS, {"format": "swing", "cpp_levels": (10,)}),
    (
        swing_fields.CPP_RAISE_MINUTES,
        {"format": "swing", "starting_chips": 100, "cpp_levels": (10,), "cpp_raise": "minutes"},
    ),
    (
        swing_fields.SWING_MATCH_LENGTH,
        {"format": "swing", "starting_chips": 100, "cpp_levels": (10,)},
    ),
]


def given(settings: TournamentSettings, **changes: Any) -> TournamentSettings:
    return dataclasses.replace(settings, **changes)


@pytest.mark.django_db
@pytest.mark.parametrize(("setting", "beside"), CHECKED, ids=lambda s: getattr(s, "name", ""))
def test_the_check_takes_the_declared_limits(setting: Setting, beside: dict[str, Any]) -> None:
    """The highest value is taken; one more is refused beside the setting's field."""
    owner = organizer()
    settings = given(TournamentSettings("Limits", "knockout", round_lengths=(1,)), **beside)
    low, high = setting.limits
    check_settings(given(settings, **{setting.name: high}), organizer=owner, tournament=None)
    above = high * 2 if setting.kind == Kind.POWER_OF_TWO else high + 1
    with pytest.raises(TournamentInvalid) as refused:
        check_settings(given(settings, **{setting.name: above}), organizer=owner, tournament=None)
    assert list(refused.value.errors) == [setting.name]
    if low > 0:
        with pytest.raises(TournamentInvalid):
            check_settings(
                given(settings, **{setting.name: low - 1}), organizer=owner, tournament=None
            )
