"""The organizer's form fields for divisions and entry limits, and the form that adds a
division, a jackpot or a blitz beside a main event; they parse input only, the services
judge it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.money import amount_of, cents_of
from tournaments.divisions.presets import preset
from tournaments.models import SideKind, Tournament
from tournaments.settings import entry_fields, fields
from tournaments.settings.build import form_field

LIMITS = ("min_rating", "max_rating", "max_rated_matches")


def division_settings(data: dict[str, Any]) -> dict[str, Any]:
    """The ``TournamentSettings`` fields of the division and its limits, from a form's
    values."""
    return {"division": data.get("division") or "", **{name: data.get(name) for name in LIMITS}}


def division_initial(tournament: Tournament) -> dict[str, Any]:
    return {
        "division": tournament.division,
        **{name: getattr(tournament, name) for name in LIMITS},
    }


PLACES = [
    (1, _("All of the pool to the winner")),
    (2, _("70% to the winner, 30% to the runner-up")),
]
# Where a service's complaint about a setting is shown on this form.
FIELD_OF_SETTING = {"buy_in_cents": "buy_in", "fee_cents": "fee"}


class SideEventForm(forms.Form):
    """A division, a jackpot or a blitz beside ``main``, proposing the kind's preset."""

    division = form_field(entry_fields.DIVISION)
    name = forms.CharField(
        max_length=fields.NAME.high,
        label=fields.NAME.label,
        help_text=_("Proposed from the main event's."),
    )
    buy_in = form_field(fields.BUY_IN_CENTS)
    fee = form_field(fields.FEE_CENTS)
    max_entrants = form_field(fields.MAX_ENTRANTS)
    places = forms.TypedChoiceField(
        choices=PLACES, coerce=int, initial=1, label=_("Prizes"), widget=forms.RadioSelect
    )
    min_rating = form_field(entry_fields.MIN_RATING)
    max_rating = form_field(entry_fields.MAX_RATING)
    max_rated_matches = form_field(entry_fields.MAX_RATED_MATCHES)

    def __init__(self, *args: Any, kind: str, main: Tournament, **kwargs: Any) -> None:
        values = {**_main_values(main), **preset(kind, main)}
        kwargs["initial"] = {
            "name": values.get("name", ""),
            "buy_in": amount_of(values["buy_in_cents"]),
            "fee": amount_of(values["fee_cents"]),
            "max_entrants": values["max_entrants"],
            "places": 1,
        }
        super().__init__(*args, **kwargs)
        self.kind = kind
        if kind == SideKind.DIVISION:
            # the name follows the division's unless the organizer writes one
            self.fields["name"].required = False
            self.fields["name"].help_text = _("Empty: the event's name and the division's.")
            self.fields["division"].required = True
            self.fields["division"].widget.attrs["placeholder"] = _("e.g. Novice")
            del self.fields["places"]
        else:
            del self.fields["division"]
            if kind != SideKind.JACKPOT:
                del self.fields["places"]

    def changes(self) -> dict[str, Any]:
        """The ``TournamentSettings`` changes typed (``tournaments.divisions.services``)."""
        data = self.cleaned_data
        changes: dict[str, Any] = {
            "buy_in_cents": cents_of(data["buy_in"]),
            "fee_cents": cents_of(data["fee"]),
            "max_entrants": data.get("max_entrants"),
            **{name: data.get(name) for name in LIMITS},
        }
        if data.get("name"):
            changes["name"] = data["name"]
        if "division" in self.fields:
            changes["division"] = data.get("division") or ""
        return changes

    def paid_places(self) -> int | None:
        return self.cleaned_data.get("places") if "places" in self.fields else None

    def show_errors(self, errors: dict[str, list[str]]) -> None:
        for setting, messages in errors.items():
            field = FIELD_OF_SETTING.get(setting, setting)
            for message in messages:
                self.add_error(field if field in self.fields else None, message)


def _main_values(main: Tournament) -> dict[str, Any]:
    return {
        "buy_in_cents": main.buy_in_cents,
        "fee_cents": main.fee_cents,
        "max_entrants": main.max_entrants,
    }
