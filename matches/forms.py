"""Forms for challenges; they validate input only, services do the work."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms

from accounts.models import Currency, User
from matches.services import MAX_MATCH_LENGTH


class OpponentField(forms.ModelChoiceField[User]):
    def label_from_instance(self, obj: User) -> str:
        return f"{obj.profile.display_name} ({obj.profile.rating:.0f})"


class ChallengeForm(forms.Form):
    opponent = OpponentField(queryset=User.objects.none(), to_field_name="username")
    kind = forms.ChoiceField(
        choices=[("match", "Match to N points"), ("money", "Money session")], initial="match"
    )
    length = forms.IntegerField(min_value=1, max_value=MAX_MATCH_LENGTH, initial=5, required=False)
    stake = forms.DecimalField(
        min_value=Decimal("0"),
        max_digits=10,
        decimal_places=2,
        initial=Decimal("0"),
        required=False,
        help_text="Each player's stake for a match, or the value of a point in a money session.",
    )
    currency = forms.ChoiceField(choices=Currency.choices, initial=Currency.FUN)
    rated = forms.BooleanField(required=False, initial=True)
    private = forms.BooleanField(required=False, help_text="Nobody else can watch.")

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        others = User.objects.filter(
            is_active=True, groups__name__in=["player", "organizer"]
        ).distinct()
        if user is not None:
            others = others.exclude(pk=user.pk)
        opponent = self.fields["opponent"]
        assert isinstance(opponent, OpponentField)
        opponent.queryset = others.select_related("profile").order_by("username")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        stake = data.get("stake") or Decimal("0")
        data["stake_cents"] = int(stake * 100)
        if data.get("kind") == "match" and not data.get("length"):
            self.add_error("length", "Say how many points the match is played to.")
        if data.get("kind") == "money" and data["stake_cents"] <= 0:
            self.add_error("stake", "A money session needs a stake per point.")
        return data


class PassAndPlayForm(forms.Form):
    length = forms.IntegerField(min_value=1, max_value=MAX_MATCH_LENGTH, initial=3)
