"""Sign-up and profile forms. They validate input only; services do the writing."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from accounts.mail import AWAY_AFTER, MailKind, password_reset_ask
from accounts.models import MAX_AMOUNT_CENTS, AdjustmentDirection, Currency, Profile, User
from accounts.money import cents_of
from accounts.names import display_name_cleaned


def _away_help() -> str:
    return _("Only when no page of Crawford has been open for %(minutes)s minutes.") % {
        "minutes": AWAY_AFTER.seconds // 60
    }


# The challenge e-mail's condition, written in the language of the page that shows it.
away_help = lazy(_away_help, str)


class SignUpForm(UserCreationForm[User]):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        required=False,
        help_text=_("How other players see you. Your username if left blank."),
    )
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_(
            "Optional, but without one a forgotten password cannot be reset and no notice"
            " comes by e-mail. We send a link to confirm it."
        ),
    )

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
            "mail_tournament_soon",
            "mail_challenge_away",
            "mail_dispute_decided",
        )
        labels = {
            "display_name": _("Display name"),
            "country": _("Country"),
            "checker_colour": _("Your checkers"),
            "highlight_legal_moves": _("Highlight legal moves"),
            "automatic_forced_moves": _("Play forced moves for me"),
            "use_doubling_cube": _("Doubling cube in money sessions"),
            "notification_sound": _("A sound when it is my turn"),
            "mail_tournament_soon": MailKind.TOURNAMENT_SOON.label,
            "mail_challenge_away": MailKind.CHALLENGE.label,
            "mail_dispute_decided": MailKind.DISPUTE_DECIDED.label,
        }
        help_texts = {
            "mail_tournament_soon": _("To your confirmed address, once per tournament."),
            "mail_challenge_away": away_help(),
            "mail_dispute_decided": _("The decision as the site tells it, by e-mail too."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].required = True

    def clean_display_name(self) -> str:
        name = display_name_cleaned(self.cleaned_data["display_name"])
        if not name:
            raise forms.ValidationError(_("Choose a display name others can see."))
        return name


class EmailForm(forms.Form):
    email = forms.EmailField(
        required=False,
        label=_("E-mail address"),
        help_text=_("For a forgotten password and the notices you choose; never shown to anyone."),
    )


class MailedPasswordResetForm(PasswordResetForm):
    """Django's reset form, but the link is mailed by a task (``accounts.mail``): the page
    answers at once, and as fast whether the address has an account or not."""

    def save(self, *args: Any, **kwargs: Any) -> None:
        password_reset_ask(
            user_ids=[user.pk for user in self.get_users(self.cleaned_data["email"])]
        )


class WalletAdjustForm(forms.Form):
    """A staff deposit or withdrawal. ``key`` is made when the form is shown, so a
    double-clicked or resent form moves the money once."""

    direction = forms.ChoiceField(label=_("Direction"), choices=AdjustmentDirection.choices)
    currency = forms.ChoiceField(
        label=_("Currency"),
        choices=[(Currency.FUN, _("Play money")), (Currency.REAL, _("Real money"))],
    )
    amount = forms.DecimalField(
        label=_("Amount"),
        max_digits=12,
        decimal_places=2,
        min_value=Decimal("0.01"),
        max_value=Decimal(MAX_AMOUNT_CENTS) / 100,
        help_text=_("In units, with cents after the point: 25.00"),
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=300,
        help_text=_("Kept in the audit log and shown to staff with the wallet."),
    )
    key = forms.CharField(widget=forms.HiddenInput, max_length=64)

    @property
    def amount_cents(self) -> int:
        return cents_of(self.cleaned_data["amount"])


class RatingSearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=40, label=_("Find a player"))
