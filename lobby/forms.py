"""Forms for challenges and seeks; they validate input only, services do the work."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import Currency, User
from accounts.money import cents_of
from accounts.standing import require_not_a_demo_player
from core.errors import DomainError
from lobby.seeks import MAX_RATING
from matches.clock import (
    CLOCK_PRESETS,
    MAX_CORRESPONDENCE_SECONDS,
    MAX_MOVE_SECONDS,
    MAX_RESERVE_SECONDS,
    check_clock,
    match_time_words,
)
from matches.creation import MAX_MATCH_LENGTH
from matches.models import DEFAULT_CLOCK, ClockKind, ClockSettings, MatchKind, TimeoutLoses
from matches.money import DEFAULT_MAX_CUBE

CUSTOM = "custom"
# The presets as the live sentence under the clock reads them (``static/js/lobby``).
PRESETS_JSON = json.dumps(
    {
        name: {
            "kind": clock.kind,
            "move": clock.move_seconds,
            "delay": clock.delay_seconds,
            "reserve": clock.reserve_seconds,
        }
        for name, (label, clock) in CLOCK_PRESETS.items()
    }
)


def say_what_the_clock_means(field: forms.Field, *, length: int) -> None:
    """Give the preset field the presets' values and, under its help, the sentence that says
    what the standard clock means for a ``length``-point match; the page's script keeps it
    saying what the fields say."""
    field.widget.attrs["data-presets"] = PRESETS_JSON
    sentence = match_time_words(CLOCK_PRESETS["standard"][1], lengths=[length])
    field.help_text = format_html(
        '{} <span class="clock-sentence" data-clock-sentence aria-live="polite">{}</span>',
        field.help_text,
        sentence,
    )


class OpponentInput(forms.TextInput):
    """A text box that suggests players as one types (``static/js/lobby/opponent-search.js``
    fills its list from ``GET /api/opponents/``); a username typed whole needs no list."""

    def __init__(self) -> None:
        super().__init__(
            attrs={
                "list": "opponent-options",
                "autocomplete": "off",
                "autocapitalize": "none",
                "spellcheck": "false",
                "placeholder": _("Type a name"),
                "data-opponent-search": "/api/opponents/",
                "aria-describedby": "opponent-found",
            }
        )

    def render(self, name: str, value: Any, attrs: Any = None, renderer: Any = None) -> SafeString:
        return format_html(
            '{}<datalist id="opponent-options"></datalist>'
            '<span id="opponent-found" class="visually-hidden" aria-live="polite"></span>',
            super().render(name, value, attrs, renderer),
        )


def opponent_called(typed: str, *, seeker: User | None) -> User | None:
    """The player ``typed`` names: their username (any case), or a display name only one
    player has; never ``seeker``."""
    players = User.objects.filter(
        is_active=True, groups__name__in=["player", "organizer"]
    ).select_related("profile")
    if seeker is not None:
        players = players.exclude(pk=seeker.pk)
    found = players.filter(username__iexact=typed).first()
    if found is not None:
        return found
    named = list(players.filter(profile__display_name__iexact=typed).distinct()[:2])
    return named[0] if len(named) == 1 else None


class _TermsForm(forms.Form):
    """What is played: a match to N points or a money session, its stake and currency
    (``stake_cents`` in the cleaned data), the same in a challenge and a seek."""

    kind = forms.ChoiceField(
        choices=[("match", _("Match to N points")), ("money", _("Money session"))],
        initial="match",
        label=_("Kind"),
    )
    length = forms.IntegerField(
        min_value=1, max_value=MAX_MATCH_LENGTH, initial=5, required=False, label=_("Length")
    )
    stake = forms.DecimalField(
        min_value=Decimal("0"),
        max_digits=10,
        decimal_places=2,
        initial=Decimal("0"),
        required=False,
        label=_("Stake"),
        help_text=_("Each player's stake for a match, or the value of a point in a money session."),
    )
    currency = forms.ChoiceField(
        choices=[(Currency.FUN, _("Play money")), (Currency.REAL, _("Real money"))],
        initial=Currency.FUN,
        label=_("Currency"),
    )

    def __init__(self, *args: Any, user: User | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        if user is not None and user.profile.bot_strength:
            # A demo player the computer plays is kept to play money (accounts.standing).
            currency = self.fields["currency"]
            assert isinstance(currency, forms.ChoiceField)
            currency.choices = [(Currency.FUN, Currency.FUN.label)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        stake = data.get("stake") or Decimal("0")
        data["stake_cents"] = cents_of(stake)
        if data.get("kind") == "match" and not data.get("length"):
            self.add_error("length", gettext("Say how many points the match is played to."))
        if data.get("kind") == "money" and data["stake_cents"] <= 0:
            self.add_error("stake", gettext("A money session needs a stake per point."))
        return data


class ChallengeForm(_TermsForm):
    field_order = ["opponent"]

    opponent = forms.CharField(
        max_length=150,
        widget=OpponentInput(),
        label=_("Opponent"),
        help_text=_("A player's username or display name: pick one of the names suggested."),
    )
    clock = forms.ChoiceField(
        choices=[
            *((name, label) for name, (label, clock) in CLOCK_PRESETS.items()),
            (CUSTOM, _("My own: the clock below")),
        ],
        initial="standard",
        label=_("Clock"),
        help_text=_("Correspondence is for a few moves a day: leaving the board costs nothing."),
    )
    clock_kind = forms.ChoiceField(
        choices=[(kind, _(label)) for kind, label in ClockKind.choices],
        initial=DEFAULT_CLOCK.kind,
        label=_("My own clock"),
    )
    move_seconds = forms.IntegerField(
        min_value=1,
        max_value=MAX_CORRESPONDENCE_SECONDS,
        initial=DEFAULT_CLOCK.move_seconds,
        label=_("Seconds per move"),
        help_text=_(
            "Per move: a delay clock's first seconds of every move cost nothing (a delay, "
            "not an increment); correspondence: 86400 a day."
        ),
    )
    reserve_seconds = forms.IntegerField(
        min_value=0,
        max_value=MAX_RESERVE_SECONDS,
        initial=DEFAULT_CLOCK.reserve_seconds,
        label=_("Reserve seconds per point"),
        help_text=_(
            "A delay clock: per point of the match, or added each game of a money "
            "session; a move timer: for the whole match."
        ),
    )
    timeout_loses = forms.ChoiceField(
        choices=[(loses, _(label)) for loses, label in TimeoutLoses.choices],
        initial=DEFAULT_CLOCK.timeout_loses,
        label=_("Running out loses"),
    )
    rated = forms.BooleanField(required=False, initial=True, label=_("Rated"))
    private = forms.BooleanField(
        required=False, label=_("Private"), help_text=_("Nobody else can watch.")
    )
    jacoby = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Jacoby rule"),
        help_text=_("Money sessions: gammons count only once the cube was turned."),
    )
    beavers = forms.BooleanField(
        required=False,
        label=_("Beavers"),
        help_text=_("Money sessions: a player doubled may redouble and keep the cube."),
    )
    raccoons = forms.BooleanField(
        required=False,
        label=_("Raccoons"),
        help_text=_("Money sessions, with beavers: the beavered player may redouble."),
    )
    max_cube = forms.TypedChoiceField(
        coerce=int,
        choices=[(value, str(value)) for value in (2, 4, 8, 16, 32, 64)],
        initial=DEFAULT_MAX_CUBE,
        label=_("Highest cube"),
        help_text=_("Money sessions: what each player escrows a game is 3 × this × the stake."),
    )

    def __init__(self, *args: Any, user: User | None = None, **kwargs: Any) -> None:
        super().__init__(*args, user=user, **kwargs)
        say_what_the_clock_means(self.fields["clock"], length=self.fields["length"].initial)

    # Shown folded under the main fields: few challenges need them.
    MORE = (
        "clock_kind",
        "move_seconds",
        "reserve_seconds",
        "timeout_loses",
        "jacoby",
        "beavers",
        "raccoons",
        "max_cube",
    )

    def clean_opponent(self) -> User:
        typed = self.cleaned_data["opponent"].strip()
        found = opponent_called(typed, seeker=self.user)
        if found is None:
            raise forms.ValidationError(
                gettext("There is no player called %(name)s to challenge.") % {"name": typed}
            )
        return found

    def main_fields(self) -> list[forms.BoundField]:
        return [field for field in self.visible_fields() if field.name not in self.MORE]

    def more_fields(self) -> list[forms.BoundField]:
        return [field for field in self.visible_fields() if field.name in self.MORE]

    def more_errors(self) -> bool:
        return any(self.errors.get(name) for name in self.MORE)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["clock_settings"] = self._clock(data)
        data["money"] = data.get("kind") == MatchKind.MONEY  # in the names a challenge takes
        opponent = data.get("opponent")
        if isinstance(opponent, User) and data.get("currency") == Currency.REAL:
            try:
                require_not_a_demo_player(opponent)
            except DomainError as refusal:
                self.add_error("currency", str(refusal))
        if data.get("raccoons") and not data.get("beavers"):
            self.add_error(
                "raccoons", gettext("Raccoons answer beavers: allow beavers to allow raccoons.")
            )
        return data

    def _clock(self, data: dict[str, Any]) -> ClockSettings:
        if data.get("clock") != CUSTOM:
            return CLOCK_PRESETS[data.get("clock") or "standard"][1]
        seconds = data.get("move_seconds") or DEFAULT_CLOCK.move_seconds
        custom = ClockSettings(
            kind=data.get("clock_kind") or DEFAULT_CLOCK.kind,
            move_seconds=seconds,
            delay_seconds=min(seconds, MAX_MOVE_SECONDS),
            reserve_seconds=data.get("reserve_seconds") or 0,
            timeout_loses=data.get("timeout_loses") or DEFAULT_CLOCK.timeout_loses,
        )
        try:
            check_clock(custom)
        except DomainError as refusal:
            self.add_error("clock_kind", f"{refusal}.")
        return custom


class PassAndPlayForm(forms.Form):
    length = forms.IntegerField(
        min_value=1, max_value=MAX_MATCH_LENGTH, initial=3, label=_("Length")
    )


class SeekForm(_TermsForm):
    # The play lobby shows this form beside the challenge form, whose fields share names.
    prefix = "seek"

    clock = forms.ChoiceField(
        choices=[(name, label) for name, (label, clock) in CLOCK_PRESETS.items()],
        initial="standard",
        label=_("Clock"),
    )
    rated = forms.BooleanField(
        required=False, initial=True, label=_("Rated"), help_text=_("Money sessions are unrated.")
    )
    min_rating = forms.IntegerField(
        min_value=0,
        max_value=MAX_RATING,
        required=False,
        label=_("Lowest opponent rating"),
        help_text=_("Leave empty for anyone."),
    )
    max_rating = forms.IntegerField(
        min_value=0,
        max_value=MAX_RATING,
        required=False,
        label=_("Highest opponent rating"),
        help_text=_("Leave empty for anyone."),
    )

    def __init__(self, *args: Any, user: User | None = None, **kwargs: Any) -> None:
        super().__init__(*args, user=user, **kwargs)
        say_what_the_clock_means(self.fields["clock"], length=self.fields["length"].initial)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        low, high = data.get("min_rating"), data.get("max_rating")
        if low is not None and high is not None and low > high:
            self.add_error(
                "max_rating", gettext("The highest rating must not be below the lowest.")
            )
        return data
