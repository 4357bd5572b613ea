"""Sign-up and profile forms. They validate input only; services do the writing."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import MAX_AMOUNT_CENTS, AdjustmentDirection, Currency, Profile, User
from accounts.money import cents_of
from accounts.names import display_name_cleaned


class SignUpForm(UserCreationForm[User]):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        required=False,
        help_text=_("How other players see you. Your username if left blank."),
    )
    email = forms.EmailField(label=_("E-mail"), required=False)

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = User
        fields = ("username", "email")

    def clean_display_name(self) -> str:
        return display_name_cleaned(self.cleaned_data["display_name"])


class ProfileForm(forms.ModelForm[Profile]):
    class Meta:
        model = Profile
        fields = (
            "display_name",
            "country",
            "checker_colour",
            "highlight_legal_moves",
            "automatic_forced_moves",
            "use_doubling_cube",
            "notification_sound",
        )
        labels = {
            "display_name": _("Display name"),
            "country": _("Country"),
            "checker_colour": _("Your checkers"),
            "highlight_legal_moves": _("Highlight legal moves"),
            "automatic_forced_moves": _("Play forced moves for me"),
            "use_doubling_cube": _("Doubling cube in money sessions"),
            "notification_sound": _("A sound when it is my turn"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].required = True

    def clean_display_name(self) -> str:
        name = display_name_cleaned(self.cleaned_data["display_name"])
        if not name:
            raise forms.ValidationError(_("Choose a display name others can see."))
        return name


class WalletAdjustForm(forms.Form):
    """A staff deposit or withdrawal. ``key`` is made when the form is shown, so a
    double-clicked or resent form moves the money once."""

    direction = forms.ChoiceField(choices=AdjustmentDirection.choices)
    currency = forms.ChoiceField(choices=Currency.choices)
    amount = forms.DecimalField(
        max_digits=12,
        decimal_places=2,
        min_value=Decimal("0.01"),
        max_value=Decimal(MAX_AMOUNT_CENTS) / 100,
        help_text="In units, with cents after the point: 25.00",
    )
    reason = forms.CharField(
        max_length=300, help_text="Kept in the audit log and shown to staff with the wallet."
    )
    key = forms.CharField(widget=forms.HiddenInput, max_length=64)

    @property
    def amount_cents(self) -> int:
        return cents_of(self.cleaned_data["amount"])


class RatingSearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=40, label="Find a player")
