"""The organizer's tournament form; it parses input only, ``services`` judges the settings."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms

from accounts.models import Currency
from accounts.money import amount_of, cents_of
from matches.clock import MAX_CORRESPONDENCE_SECONDS, MAX_RESERVE_SECONDS
from matches.models import DEFAULT_CLOCK, ClockKind
from tournaments.formats.sit_and_go import MAX_SEATS, MIN_SEATS
from tournaments.models import (
    BRACKET_FORMATS,
    SHOW_UP_SECONDS,
    Seeding,
    Tournament,
    TournamentAbandonPolicy,
    TournamentFormat,
    TournamentState,
)
from tournaments.settings.by_format import (
    DEFAULT_CONSOLATION_THROUGH,
    DEFAULT_LAST_CHANCE_REENTRY,
    MAX_CONSOLATION_ROUND,
    MAX_GROUP_SIZE,
    MAX_SWISS_ROUNDS,
    switched,
)
from tournaments.settings.general import (
    MAX_CHECK_IN_MINUTES,
    MAX_ENTRANTS,
    MAX_ROUND_MINUTES,
    MAX_SHOW_UP_SECONDS,
    MIN_SHOW_UP_SECONDS,
    TournamentSettings,
)
from tournaments.swing.form import SWING, SwingFields, swing_initial, swing_settings

# Where a service's complaint about a setting is shown on the form.
FIELD_OF_SETTING = {
    "buy_in_cents": "buy_in",
    "fee_cents": "fee",
    "clock": "clock_kind",
    "target_id": "target",
    "flight_clocks": "clock_kind",
    "prize_table": "prizes",
    "last_chance_reenters_at": "last_chance_reenters_at",
}
KNOCKOUT, DOUBLE = TournamentFormat.KNOCKOUT, TournamentFormat.DOUBLE_ELIMINATION
SWISS, ROUND_ROBIN = TournamentFormat.SWISS, TournamentFormat.ROUND_ROBIN
NOT_SIT_AND_GO = [f for f in TournamentFormat.values if f != TournamentFormat.SIT_AND_GO]
NOT_SATELLITE = [f for f in TournamentFormat.values if f != TournamentFormat.SATELLITE]
NOT_SWING = [f for f in TournamentFormat.values if f != SWING]
# The side flights' match lengths, by form field: (flight, the formats that play it).
FLIGHT_LENGTH_FIELDS = {
    "losers_lengths": ("losers", (DOUBLE,)),
    "consolation_lengths": ("consolation", BRACKET_FORMATS),
    "last_chance_lengths": ("last_chance", (KNOCKOUT,)),
    "final_lengths": ("final", (DOUBLE, SWISS, ROUND_ROBIN)),
}


def shown_for(*formats: str, **attrs: str) -> dict[str, str]:
    """Widget attributes: the form shows the field only while one of ``formats`` is chosen
    (``static/js/site/forms.js``)."""
    return {"data-shown-for": " ".join(formats), **attrs}


def _lengths_field(label: str, help_text: str, formats: tuple[str, ...]) -> forms.CharField:
    return forms.CharField(
        required=False,
        label=label,
        help_text=help_text,
        widget=forms.TextInput(attrs=shown_for(*formats, placeholder="as the main flight")),
    )


class TournamentForm(SwingFields):
    name = forms.CharField(max_length=120)
    format = forms.ChoiceField(
        choices=TournamentFormat.choices,
        initial=TournamentFormat.KNOCKOUT,
        help_text="Knockout: one loss and out. Double elimination: out at the second loss. "
        "Swiss: a set number of rounds, players with equal scores meet. Round robin: everyone "
        "meets everyone. Swing: everyone starts with the same chips, the stakes rise, the last "
        "player holding chips wins.",
    )
    seats = forms.IntegerField(
        required=False,
        min_value=MIN_SEATS,
        max_value=MAX_SEATS,
        help_text="Sit & Go: 2 to 64 seats (8 if left empty). Swing: seats to start when full, "
        "or empty to start by hand.",
        widget=forms.NumberInput(attrs=shown_for(TournamentFormat.SIT_AND_GO, SWING)),
    )
    max_entrants = forms.IntegerField(
        required=False,
        min_value=2,
        max_value=MAX_ENTRANTS,
        label="Maximum players",
        help_text="Leave empty for no limit.",
        widget=forms.NumberInput(attrs=shown_for(*NOT_SIT_AND_GO)),
    )
    rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_SWISS_ROUNDS,
        label="Swiss rounds",
        widget=forms.NumberInput(attrs=shown_for(SWISS)),
    )
    top_cut = forms.IntegerField(
        required=False,
        min_value=2,
        max_value=MAX_ENTRANTS,
        label="Top cut",
        help_text="The best 2, 4, 8, ... play a knockout after the Swiss; empty: none.",
        widget=forms.NumberInput(attrs=shown_for(SWISS)),
    )
    group_size = forms.IntegerField(
        required=False,
        min_value=2,
        max_value=MAX_GROUP_SIZE,
        label="Players per group",
        help_text="Empty: one table, everyone meets everyone.",
        widget=forms.NumberInput(attrs=shown_for(ROUND_ROBIN)),
    )
    advance_per_group = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_GROUP_SIZE,
        label="Through from each group",
        help_text="The best of each group play a knockout.",
        widget=forms.NumberInput(attrs=shown_for(ROUND_ROBIN)),
    )
    grand_final_reset = forms.BooleanField(
        required=False,
        initial=True,
        label="Reset final: a second final if the losers' flight winner wins the first",
        widget=forms.CheckboxInput(attrs=shown_for(DOUBLE)),
    )
    consolation = forms.BooleanField(
        required=False,
        label="Progressive consolation for those knocked out early",
        widget=forms.CheckboxInput(attrs=shown_for(*BRACKET_FORMATS)),
    )
    consolation_through_round = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_CONSOLATION_ROUND,
        initial=DEFAULT_CONSOLATION_THROUGH,
        label="Consolation takes the losers of rounds 1 to",
        help_text="Beside a double elimination: those knocked out in losers' rounds 1 to this.",
        widget=forms.NumberInput(attrs=shown_for(*BRACKET_FORMATS)),
    )
    last_chance = forms.BooleanField(
        required=False,
        label="Last chance: its winner comes back into the main flight",
        widget=forms.CheckboxInput(attrs=shown_for(KNOCKOUT)),
    )
    last_chance_reenters_at = forms.IntegerField(
        required=False,
        min_value=2,
        max_value=MAX_ENTRANTS,
        initial=DEFAULT_LAST_CHANCE_REENTRY,
        label="The last chance's winner comes back with this many left",
        help_text="2, 4, 8, ...: 8 is the quarter-finals.",
        widget=forms.NumberInput(attrs=shown_for(KNOCKOUT)),
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
        widget=forms.TextInput(attrs=shown_for(*NOT_SWING)),
    )
    losers_lengths = _lengths_field(
        "Losers' flight match lengths", "Points per losers' round, e.g. 3.", (DOUBLE,)
    )
    consolation_lengths = _lengths_field(
        "Consolation match lengths", "Points per consolation round, e.g. 3.", BRACKET_FORMATS
    )
    last_chance_lengths = _lengths_field(
        "Last chance match lengths", "Points per last-chance round.", (KNOCKOUT,)
    )
    final_lengths = _lengths_field(
        "Final match lengths",
        "Double elimination: the final between the flights' winners. Swiss or round robin: "
        "the knockout after it, first round to final.",
        (DOUBLE, SWISS, ROUND_ROBIN),
    )
    prizes = forms.CharField(
        required=False,
        label="Prize shares (%)",
        help_text="Best place first, e.g. 50, 30, 20; empty: the published table by the number "
        "of players. Tied places split their shares.",
        widget=forms.TextInput(attrs=shown_for(*NOT_SATELLITE)),
    )
    consolation_prizes = forms.CharField(
        required=False,
        label="Consolation prize shares (%)",
        help_text="Of the same pool, e.g. 10, 5: with the main shares they add up to 100.",
        widget=forms.TextInput(attrs=shown_for(*BRACKET_FORMATS)),
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
        widget=forms.Select(attrs=shown_for(TournamentFormat.SATELLITE)),
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

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name in (*FLIGHT_LENGTH_FIELDS, "prizes", "consolation_prizes"):
            text = cleaned.get(name)
            if not text:
                continue
            try:
                cleaned[name] = _percents(text) if name.endswith("prizes") else _lengths(text)
            except forms.ValidationError as error:
                self.add_error(name, error)
        return cleaned

    def settings(self) -> TournamentSettings:
        """The settings typed. After errors, a field that did not parse counts as its
        initial value, so the settings' own checks can still speak of every other field in
        the same pass (``show_errors`` leaves the fields in error alone). What a hidden
        field of another format holds is left out by the settings' checks."""
        data = {name: self._value(name) for name in self.fields}
        flight_lengths = {
            flight: data[name] for name, (flight, _) in FLIGHT_LENGTH_FIELDS.items() if data[name]
        }
        prize_table = {
            flight: data[name]
            for flight, name in (("main", "prizes"), ("consolation", "consolation_prizes"))
            if data[name] and (flight == "main" or data["consolation"])
        }
        return TournamentSettings(
            name=data["name"],
            format=data["format"],
            seats=data["seats"],
            max_entrants=data["max_entrants"],
            buy_in_cents=cents_of(data["buy_in"]),
            fee_cents=cents_of(data["fee"]),
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
            flight_lengths=flight_lengths,
            grand_final_reset=bool(data["grand_final_reset"]),
            rounds=data["rounds"],
            top_cut=data["top_cut"],
            group_size=data["group_size"],
            advance_per_group=data["advance_per_group"],
            consolation_through_round=switched(
                bool(data["consolation"]),
                data["consolation_through_round"],
                DEFAULT_CONSOLATION_THROUGH,
            ),
            last_chance_reenters_at=switched(
                bool(data["last_chance"]),
                data["last_chance_reenters_at"],
                DEFAULT_LAST_CHANCE_REENTRY,
            ),
            prize_table=prize_table,
            **swing_settings(data),
        )

    def _value(self, name: str) -> Any:
        cleaned = getattr(self, "cleaned_data", {})
        if name in cleaned:
            return cleaned[name]
        initial = self.get_initial_for_field(self.fields[name], name)
        if name == "round_lengths":
            return _lengths(str(initial))
        if name in FLIGHT_LENGTH_FIELDS or name.endswith("prizes") or name == "cpp_levels":
            return ()
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
            "buy_in": amount_of(tournament.buy_in_cents),
            "fee": amount_of(tournament.fee_cents),
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
            **{
                name: _listed(tournament.flight_lengths.get(flight, ()))
                for name, (flight, _) in FLIGHT_LENGTH_FIELDS.items()
            },
            "grand_final_reset": tournament.grand_final_reset,
            "rounds": tournament.rounds,
            "top_cut": tournament.top_cut,
            "group_size": tournament.group_size,
            "advance_per_group": tournament.advance_per_group,
            "consolation": tournament.consolation_through_round is not None,
            "consolation_through_round": (
                DEFAULT_CONSOLATION_THROUGH
                if tournament.consolation_through_round is None
                else tournament.consolation_through_round + 1
            ),
            "last_chance": tournament.last_chance_reenters_at is not None,
            "last_chance_reenters_at": (
                tournament.last_chance_reenters_at or DEFAULT_LAST_CHANCE_REENTRY
            ),
            "prizes": _listed(_percent_text(bp) for bp in tournament.prize_table.get("main", ())),
            "consolation_prizes": _listed(
                _percent_text(bp) for bp in tournament.prize_table.get("consolation", ())
            ),
            **swing_initial(tournament),
        }


def _listed(values: Any) -> str:
    return ", ".join(str(value) for value in values)


def _percent_text(basis_points: int) -> str:
    whole, cents = divmod(basis_points, 100)
    return f"{whole}.{cents:02d}".rstrip("0").rstrip(".") if cents else str(whole)


def _percents(text: str) -> tuple[int, ...]:
    """Prize shares typed in percent (up to two decimals), as basis points."""
    try:
        percents = [Decimal(part) for part in text.replace(" ", "").split(",") if part]
    except ArithmeticError:
        raise forms.ValidationError(
            "Write percentages separated by commas, e.g. 50, 30, 20."
        ) from None
    shares = []
    for percent in percents:
        # checked before it is multiplied out: "1e999999999" is a Decimal too
        if not percent.is_finite() or not 0 < percent <= 100:
            raise forms.ValidationError(f"Each share is above 0% and at most 100%, not {percent}.")
        basis_points = percent * 100
        if basis_points != basis_points.to_integral_value():
            raise forms.ValidationError(f"Give each share to at most two decimals, not {percent}.")
        shares.append(int(basis_points))
    return tuple(shares)


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
