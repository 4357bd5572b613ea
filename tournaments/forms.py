"""The organizer's tournament form; it parses input only, ``services`` judges the settings."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms

from accounts.models import Currency
from matches.clock import MAX_CORRESPONDENCE_SECONDS, MAX_RESERVE_SECONDS
from matches.models import DEFAULT_CLOCK, ClockKind
from tournaments.formats.sit_and_go import MAX_SEATS, MIN_SEATS
from tournaments.models import (
    OFFERED_FORMAT_CHOICES,
    SHOW_UP_SECONDS,
    Seeding,
    Tournament,
    TournamentAbandonPolicy,
    TournamentFormat,
    TournamentState,
)
from tournaments.options import (
    MAX_CHECK_IN_MINUTES,
    MAX_ENTRANTS,
    MAX_ROUND_MINUTES,
    MAX_SHOW_UP_SECONDS,
    MIN_SHOW_UP_SECONDS,
    TournamentSettings,
)

# Where a service's complaint about a setting is shown on the form.
FIELD_OF_SETTING = {
    "buy_in_cents": "buy_in",
    "fee_cents": "fee",
    "clock": "clock_kind",
    "target_id": "target",
}


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120)
    format = forms.ChoiceField(choices=OFFERED_FORMAT_CHOICES, initial=TournamentFormat.KNOCKOUT)
    seats = forms.IntegerField(
        required=False,
        min_value=MIN_SEATS,
        max_value=MAX_SEATS,
        help_text="Sit & Go: 2 to 64 seats (8 if left empty).",
    )
    max_entrants = forms.IntegerField(
        required=False,
        min_value=2,
        max_value=MAX_ENTRANTS,
        label="Maximum players",
        help_text="Leave empty for no limit.",
    )
    buy_in = forms.DecimalField(
        min_value=Decimal("0"),
        max_digits=10,
        decimal_places=2,
        initial=Decimal("10.00"),
        label="Buy-in",
        help_text="Goes to the prize pool.",
    )
    fee = forms.DecimalField(
        min_value=Decimal("0"),
        max_digits=10,
        decimal_places=2,
        initial=Decimal("0.65"),
        help_text="Kept by the house.",
    )
    currency = forms.ChoiceField(choices=Currency.choices, initial=Currency.FUN)
    seeding = forms.ChoiceField(choices=Seeding.choices, initial=Seeding.RATING)
    round_lengths = forms.CharField(
        initial="5, 5, 7",
        label="Match length per round",
        help_text="Points, first round to final, e.g. 5, 5, 7, 9. A bigger field repeats the "
        "first length.",
    )
    clock_kind = forms.ChoiceField(
        choices=ClockKind.choices, initial=DEFAULT_CLOCK.kind, label="Clock"
    )
    move_seconds = forms.IntegerField(
        initial=DEFAULT_CLOCK.move_seconds,
        min_value=1,
        max_value=MAX_CORRESPONDENCE_SECONDS,
        label="Seconds per move",
    )
    reserve_seconds = forms.IntegerField(
        initial=DEFAULT_CLOCK.reserve_seconds,
        min_value=0,
        max_value=MAX_RESERVE_SECONDS,
        label="Reserve seconds",
    )
    abandon_policy = forms.ChoiceField(
        choices=TournamentAbandonPolicy.choices,
        initial=TournamentAbandonPolicy.ENGINE,
        label="When a player abandons",
    )
    show_up_seconds = forms.IntegerField(
        initial=SHOW_UP_SECONDS,
        min_value=MIN_SHOW_UP_SECONDS,
        max_value=MAX_SHOW_UP_SECONDS,
        label="Show-up time (seconds)",
        help_text="A player not at the board forfeits.",
    )
    round_minutes = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ROUND_MINUTES,
        label="Round deadline (minutes)",
        help_text="Matches not finished this long after they start are marked late.",
    )
    starts_at = forms.DateTimeField(
        required=False,
        label="Starts at (UTC)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        help_text="Leave empty to start it by hand; a Sit & Go starts when full.",
    )
    check_in_minutes = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_CHECK_IN_MINUTES,
        label="Check-in window (minutes)",
        help_text="Entrants confirm in this window before the start; the others are refunded.",
    )
    target = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        label="Satellite target",
        help_text="Satellite: the tournament whose seats are the prizes.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        targets = Tournament.objects.filter(
            state__in=[TournamentState.DRAFT, TournamentState.REGISTRATION],
            buy_in_cents__gt=0,
        ).exclude(format=TournamentFormat.SATELLITE)
        target = self.fields["target"]
        assert isinstance(target, forms.TypedChoiceField)
        target.choices = [("", "—")] + [(t.pk, f"{t.name} (#{t.pk})") for t in targets]

    def clean_round_lengths(self) -> tuple[int, ...]:
        return _lengths(self.cleaned_data["round_lengths"])

    def settings(self) -> TournamentSettings:
        """The settings typed. After errors, a field that did not parse counts as its
        initial value, so the settings' own checks can still speak of every other field in
        the same pass (``show_errors`` leaves the fields in error alone)."""
        data = {name: self._value(name) for name in self.fields}
        return TournamentSettings(
            name=data["name"],
            format=data["format"],
            seats=data["seats"],
            max_entrants=data["max_entrants"],
            buy_in_cents=int(data["buy_in"] * 100),
            fee_cents=int(data["fee"] * 100),
            currency=data["currency"],
            seeding=data["seeding"],
            round_lengths=data["round_lengths"],
            clock={
                "kind": data["clock_kind"],
                "move_seconds": data["move_seconds"],
                # a delay clock's free seconds a move are what the organizer typed too
                "delay_seconds": data["move_seconds"],
                "reserve_seconds": data["reserve_seconds"],
            },
            target_id=data["target"],
            abandon_policy=data["abandon_policy"],
            show_up_seconds=data["show_up_seconds"],
            round_minutes=data["round_minutes"],
            starts_at=data["starts_at"],
            check_in_minutes=data["check_in_minutes"],
        )

    def _value(self, name: str) -> Any:
        cleaned = getattr(self, "cleaned_data", {})
        if name in cleaned:
            return cleaned[name]
        initial = self.get_initial_for_field(self.fields[name], name)
        if name == "round_lengths":
            return _lengths(str(initial))
        try:
            return self.fields[name].clean(initial)
        except forms.ValidationError:
            return None

    def show_errors(self, errors: dict[str, list[str]]) -> None:
        for setting, messages in errors.items():
            field = FIELD_OF_SETTING.get(setting, setting)
            if field in self.errors:
                continue  # what was typed there did not parse; that error says enough
            for message in messages:
                self.add_error(field if field in self.fields else None, message)

    @classmethod
    def initial_for(cls, tournament: Tournament) -> dict[str, Any]:
        clock = tournament.clock or {}
        return {
            "name": tournament.name,
            "format": tournament.format,
            "seats": tournament.seats,
            "max_entrants": tournament.max_entrants,
            "buy_in": Decimal(tournament.buy_in_cents) / 100,
            "fee": Decimal(tournament.fee_cents) / 100,
            "currency": tournament.currency,
            "seeding": tournament.seeding,
            "round_lengths": ", ".join(str(n) for n in tournament.round_lengths),
            "clock_kind": clock.get("kind", DEFAULT_CLOCK.kind),
            "move_seconds": clock.get("move_seconds", DEFAULT_CLOCK.move_seconds),
            "reserve_seconds": clock.get("reserve_seconds", DEFAULT_CLOCK.reserve_seconds),
            "abandon_policy": tournament.abandon_policy,
            "show_up_seconds": tournament.show_up_seconds,
            "round_minutes": tournament.round_minutes,
            "starts_at": tournament.starts_at,
            "check_in_minutes": tournament.check_in_minutes,
            "target": tournament.target_id,
        }


def _lengths(text: str) -> tuple[int, ...]:
    try:
        lengths = tuple(int(part) for part in text.replace(" ", "").split(",") if part)
    except ValueError:
        raise forms.ValidationError(
            "Write whole numbers of points separated by commas, e.g. 5, 5, 7."
        ) from None
    if not lengths:
        raise forms.ValidationError("Give at least one match length: the length of the final.")
    return lengths


class PlayerForm(forms.Form):
    username = forms.CharField()
    replacement = forms.CharField(required=False)
