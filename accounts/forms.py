"""Sign-up and profile forms. They validate input only; services do the writing."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import Profile, User


class SignUpForm(UserCreationForm[User]):
    display_name = forms.CharField(
        max_length=40,
        required=False,
        help_text="How other players see you. Your username if left blank.",
    )
    email = forms.EmailField(required=False)

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = User
        fields = ("username", "email")


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
        )
        labels = {
            "checker_colour": "Your checkers",
            "highlight_legal_moves": "Highlight legal moves",
            "automatic_forced_moves": "Play forced moves for me",
            "use_doubling_cube": "Doubling cube in money sessions",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].required = True
