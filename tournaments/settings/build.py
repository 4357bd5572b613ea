"""The organizer's form fields and the API's input fields, built from a setting's one
declaration (``tournaments.settings.fields``): the same limits, choices and default in both,
each in the shape its side takes (an amount of money typed as 10.00 on the form, cents in
the API; a list typed "10, 20, 30" on the form, a JSON list in the API).

A setting of some formats only is shown on the form only while one of them is chosen
(``static/js/site/forms.js`` reads ``data-shown-for``). The form asks for a setting every
format has when it has a default (it proposes it); the API takes any setting but the name
and the format as optional, with its default, or as null when it has none.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from rest_framework import serializers

from accounts.money import amount_of
from core.api import JsonBooleanField
from tournaments.settings.setting import FORMATS, Kind, Setting

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def shown_for(*formats: str, **attrs: str) -> dict[str, str]:
    """Widget attributes: the form shows the field only while one of ``formats`` is chosen."""
    return {"data-shown-for": " ".join(formats), **attrs}


def powers_of_two(setting: Setting) -> list[int]:
    _, high = setting.limits
    return [2**n for n in range(1, high.bit_length()) if setting.allows(2**n)]


def _words(setting: Setting, help_text: StrOrPromise) -> dict[str, Any]:
    words: dict[str, Any] = {}
    if setting.label:
        words["label"] = setting.label
    if help_text:
        words["help_text"] = help_text
    return words


def _widget(setting: Setting, widget: type[forms.Widget], **attrs: str) -> forms.Widget:
    if setting.formats == FORMATS:
        return widget(attrs=attrs or None)
    return widget(attrs=shown_for(*setting.formats, **attrs))


def form_field(setting: Setting) -> forms.Field:
    """The organizer's form field for ``setting``."""
    required = setting.required or (
        setting.default is not None and setting.formats == FORMATS and setting.kind != Kind.FLAG
    )
    common: dict[str, Any] = {
        "required": required,
        "initial": setting.proposed,
        **_words(setting, setting.help),
    }
    kind = setting.kind
    if kind in (Kind.WHOLE, Kind.POWER_OF_TWO):
        return forms.IntegerField(
            min_value=setting.low,
            max_value=setting.high,
            widget=_widget(setting, forms.NumberInput),
            **common,
        )
    if kind == Kind.MONEY:
        low, high = setting.limits
        return forms.DecimalField(
            min_value=Decimal(low) / 100,
            max_value=Decimal(high) / 100,
            decimal_places=2,
            widget=_widget(setting, forms.NumberInput),
            **{**common, "initial": amount_of(setting.proposed)},
        )
    if kind == Kind.CHOICE:
        return forms.ChoiceField(
            choices=setting.choices, widget=_widget(setting, forms.Select), **common
        )
    if kind == Kind.FLAG:
        return forms.BooleanField(widget=_widget(setting, forms.CheckboxInput), **common)
    if kind == Kind.TEXT:
        return forms.CharField(max_length=setting.high, **common)
    if kind == Kind.NUMBERS:
        initial = setting.proposed
        return forms.CharField(
            widget=_widget(setting, forms.TextInput),
            **{**common, "initial": ", ".join(str(n) for n in initial or ())},
        )
    if kind == Kind.MOMENT:
        return forms.DateTimeField(
            widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
            **common,
        )
    if kind == Kind.TOURNAMENT:
        # its choices, the tournaments open to it, are the form's to list when it is made
        return forms.TypedChoiceField(
            coerce=int, empty_value=None, widget=_widget(setting, forms.Select), **common
        )
    raise ValueError(f"{setting.name}'s form field is shaped by hand")


def api_field(setting: Setting) -> serializers.Field[Any, Any, Any, Any]:
    """The API's input field for ``setting``."""
    common: dict[str, Any] = {}
    if setting.api_help:
        common["help_text"] = setting.api_help
    if setting.default is not None:
        common["default"] = setting.default
    elif not setting.required:
        common["required"] = False
        if setting.kind in (Kind.WHOLE, Kind.POWER_OF_TWO, Kind.MOMENT, Kind.TOURNAMENT):
            common["allow_null"] = True  # none: the setting is not used
    kind = setting.kind
    if kind in (Kind.WHOLE, Kind.MONEY, Kind.TOURNAMENT):
        low, high = setting.limits
        return serializers.IntegerField(min_value=low, max_value=high, **common)
    if kind == Kind.POWER_OF_TWO:
        return serializers.ChoiceField(
            choices=[(n, str(n)) for n in powers_of_two(setting)], **common
        )
    if kind == Kind.CHOICE:
        if setting.refusal:
            common["error_messages"] = {"invalid_choice": setting.refusal}
        return serializers.ChoiceField(choices=list(setting.choices), **common)
    if kind == Kind.FLAG:
        return JsonBooleanField(**common)
    if kind == Kind.TEXT:
        _, high = setting.limits
        return serializers.CharField(max_length=high, **common)
    if kind == Kind.NUMBERS:
        low, high = setting.limits
        return serializers.ListField(
            child=serializers.IntegerField(min_value=low, max_value=high),
            max_length=setting.items,
            **common,
        )
    if kind == Kind.MOMENT:
        return serializers.DateTimeField(**common)
    raise ValueError(f"{setting.name}'s API field is shaped by hand")
