"""The organizer's tournament form; it parses input only, ``services`` judges the settings."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.formats import get_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.money import amount_of, cents_of
from matches.clock import match_time_words
from matches.models import DEFAULT_CLOCK, ClockSettings
from tournaments.divisions.form import division_initial, division_settings
from tournaments.formats.base import Flight
from tournaments.models import BRACKET_FORMATS, Tournament, TournamentFormat, TournamentState
from tournaments.round_rows import RoundsField, RoundsWidget, flight_clocks_of, rows_of
from tournaments.settings import entry_fields, fields
from tournaments.settings.build import form_field, shown_for
from tournaments.settings.by_format import switched
from tournaments.settings.clocks import clocks_by_length
from tournaments.settings.fields import DEFAULT_CONSOLATION_THROUGH, DEFAULT_LAST_CHANCE_REENTRY
from tournaments.settings.general import TournamentSettings
from tournaments.settings.setting import DOUBLE, FORMATS, ROUND_ROBIN, SWISS, TRIPLE
from tournaments.swing.form import SwingFields, swing_initial, swing_settings

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# Where a service's complaint about a setting is shown on the form.
FIELD_OF_SETTING = {
    **{setting.name: setting.field for setting in fields.SETTINGS if setting.form_name},
    "clock": "clock_kind",
    "target_id": "target",
    "flight_clocks": "round_lengths",
    "prize_table": "prizes",
    "last_chance_reenters_at": "last_chance_reenters_at",
}
# The prize shares, by flight: the form field of each.
PRIZE_FIELDS = {
    "main": "prizes",
    "consolation": "consolation_prizes",
    "last_chance": "last_chance_prizes",
}
# The fields the clock's sentence is read from.
CLOCK = ("clock_kind", "move_seconds", "reserve_seconds", "round_lengths")
# Live events' usual lengths, proposed by the blank form: 11 points in the main flight's
# early rounds, 7 in the consolation; the tournament's clock is the standard one.
MAIN_EARLY_LENGTH = 11
CONSOLATION_LENGTH = 7
# Each flight's rounds, by form field: (flight, the formats that play it).
ROUND_FIELDS = {"round_lengths": ("main", FORMATS)}
# The side flights' match lengths, by form field: (flight, the formats that play it).
FLIGHT_LENGTH_FIELDS = {
    "losers_lengths": ("losers", (DOUBLE, TRIPLE)),
    "second_losers_lengths": ("second_losers", (TRIPLE,)),
    "consolation_lengths": ("consolation", BRACKET_FORMATS),
    "last_chance_lengths": ("last_chance", BRACKET_FORMATS),
    "final_lengths": ("final", (DOUBLE, TRIPLE, SWISS, ROUND_ROBIN)),
}


def _rounds_field(
    label: StrOrPromise, help_text: StrOrPromise, formats: tuple[str, ...], initial: Any
) -> RoundsField:
    return RoundsField(
        required=False,
        label=label,
        help_text=help_text,
        initial=initial,
        widget=RoundsWidget(attrs=shown_for(*formats)),
    )


class TournamentForm(SwingFields):
    name = form_field(fields.NAME)
    format = form_field(fields.FORMAT)
    seats = form_field(fields.SEATS)
    max_entrants = form_field(fields.MAX_ENTRANTS)
    rounds = form_field(fields.ROUNDS)
    top_cut = form_field(fields.TOP_CUT)
    group_size = form_field(fields.GROUP_SIZE)
    advance_per_group = form_field(fields.ADVANCE_PER_GROUP)
    grand_final_reset = form_field(fields.GRAND_FINAL_RESET)
    consolation = form_field(fields.CONSOLATION)
    consolation_through_round = form_field(fields.CONSOLATION_THROUGH_ROUND)
    last_chance = form_field(fields.LAST_CHANCE)
    last_chance_reenters_at = form_field(fields.LAST_CHANCE_REENTERS_AT)
    last_chance_entry = form_field(fields.LAST_CHANCE_ENTRY)
    buy_in = form_field(fields.BUY_IN_CENTS)
    fee = form_field(fields.FEE_CENTS)
    currency = form_field(fields.CURRENCY)
    seeding = form_field(fields.SEEDING)
    round_lengths = RoundsField(
        initial=[(MAIN_EARLY_LENGTH, "")],
        label=fields.ROUND_LENGTHS.label,
        help_text=gettext_lazy(
            "A row per round, first round to final, with its clock; a bigger field repeats "
            "the first row, a smaller one drops the first rows. Blank rows are left out."
        ),
        widget=RoundsWidget(attrs=shown_for(*fields.ROUND_LENGTHS.formats)),
    )
    losers_lengths = _rounds_field(
        gettext_lazy("Losers' flight rounds"),
        gettext_lazy("Points per losers' round, e.g. 3; none: as the main flight."),
        (DOUBLE, TRIPLE),
        (),
    )
    second_losers_lengths = _rounds_field(
        gettext_lazy("Second losers' flight rounds"),
        gettext_lazy(
            "Points per round of the players with two losses; none: as the losers' flight."
        ),
        (TRIPLE,),
        (),
    )
    consolation_lengths = _rounds_field(
        gettext_lazy("Consolation rounds"),
        gettext_lazy("Points per consolation round; none: as the main flight."),
        BRACKET_FORMATS,
        [(CONSOLATION_LENGTH, "")],
    )
    last_chance_lengths = _rounds_field(
        gettext_lazy("Last chance rounds"),
        gettext_lazy("Points per last-chance round; none: as the main flight."),
        BRACKET_FORMATS,
        (),
    )
    final_lengths = _rounds_field(
        gettext_lazy("Final rounds"),
        gettext_lazy(
            "Double or triple elimination: the finals between the flights' winners. Swiss or "
            "round robin: the knockout after it, first round to final. None: the main "
            "flight's last."
        ),
        (DOUBLE, TRIPLE, SWISS, ROUND_ROBIN),
        (),
    )
    prizes = forms.CharField(
        required=False,
        label=fields.PRIZE_TABLE.label,
        help_text=gettext_lazy(
            "Best place first, e.g. 50, 30, 20; empty: the published table by the number of "
            "players. Tied places split their shares."
        ),
        widget=forms.TextInput(attrs=shown_for(*fields.PRIZE_TABLE.formats)),
    )
    consolation_prizes = forms.CharField(
        required=False,
        label=gettext_lazy("Consolation prize shares (%)"),
        help_text=gettext_lazy(
            "Of the same pool, e.g. 10, 5: with the main shares they add up to 100."
        ),
        widget=forms.TextInput(attrs=shown_for(*BRACKET_FORMATS)),
    )
    last_chance_prizes = forms.CharField(
        required=False,
        label=gettext_lazy("Last chance prize shares (%)"),
        help_text=gettext_lazy("Of the same pool, e.g. 5; empty: the last chance pays nothing."),
        widget=forms.TextInput(attrs=shown_for(*BRACKET_FORMATS)),
    )
    clock_kind = form_field(fields.CLOCK_KIND)
    move_seconds = form_field(fields.MOVE_SECONDS)
    reserve_seconds = form_field(fields.RESERVE_SECONDS)
    abandon_policy = form_field(fields.ABANDON_POLICY)
    show_up_seconds = form_field(fields.SHOW_UP_SECONDS)
    round_minutes = form_field(fields.ROUND_MINUTES)
    starts_at = form_field(fields.STARTS_AT)
    check_in_minutes = form_field(fields.CHECK_IN_MINUTES)
    target = form_field(fields.TARGET)
    # divisions and entry limits (``tournaments.divisions``)
    division = form_field(entry_fields.DIVISION)
    min_rating = form_field(entry_fields.MIN_RATING)
    max_rating = form_field(entry_fields.MAX_RATING)
    max_rated_matches = form_field(entry_fields.MAX_RATED_MATCHES)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        targets = Tournament.objects.filter(
            state__in=[TournamentState.DRAFT, TournamentState.REGISTRATION],
            buy_in_cents__gt=0,
        ).exclude(format=TournamentFormat.SATELLITE)
        target = self.fields["target"]
        assert isinstance(target, forms.TypedChoiceField)
        target.choices = [("", "—")] + [(t.pk, f"{t.name} (#{t.pk})") for t in targets]
        self._say_what_the_clock_means()

    def _say_what_the_clock_means(self) -> None:
        """Under the reserve, the sentence saying what the clock gives each player in the
        rounds' match lengths ("A 5-point match: 10 minutes each; ..."), kept up to date
        as the organizer types by ``static/js/tournament/clock-sentence.js``."""
        initial = {name: self.get_initial_for_field(self.fields[name], name) for name in CLOCK}
        try:
            lengths = tuple(
                n for n, _code in self.fields["round_lengths"].clean(initial["round_lengths"])
            )
        except forms.ValidationError:
            lengths = ()
        clock = ClockSettings(
            kind=initial["clock_kind"],
            move_seconds=initial["move_seconds"],
            delay_seconds=initial["move_seconds"],
            reserve_seconds=initial["reserve_seconds"],
        )
        reserve = self.fields["reserve_seconds"]
        reserve.help_text = format_html(
            '{} <span class="clock-sentence" data-clock-sentence aria-live="polite">{}</span>',
            reserve.help_text,
            match_time_words(clock, lengths=lengths),
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name in PRIZE_FIELDS.values():
            text = cleaned.get(name)
            if not text:
                continue
            try:
                cleaned[name] = _percents(text)
            except forms.ValidationError as error:
                self.add_error(name, error)
        return cleaned

    def settings(self) -> TournamentSettings:
        """The settings typed. After errors, a field that did not parse counts as its
        initial value, so the settings' own checks can still speak of every other field in
        the same pass (``show_errors`` leaves the fields in error alone). What a hidden
        field of another format holds is left out by the settings' checks."""
        data = {name: self._value(name) for name in self.fields}
        clock = {
            "kind": data["clock_kind"],
            "move_seconds": data["move_seconds"],
            # a delay clock's free seconds a move are what the organizer typed too
            "delay_seconds": data["move_seconds"],
            "reserve_seconds": data["reserve_seconds"],
        }
        flight_lengths = {
            flight: tuple(n for n, _code in data[name])
            for name, (flight, _) in FLIGHT_LENGTH_FIELDS.items()
            if data[name]
        }
        flight_clocks = {
            flight: clocks
            for name, (flight, _) in {**ROUND_FIELDS, **FLIGHT_LENGTH_FIELDS}.items()
            if (clocks := flight_clocks_of(data[name], clock)) is not None
        }
        prize_table = {
            flight: data[name]
            for flight, name in PRIZE_FIELDS.items()
            if data[name] and (flight == "main" or data[flight])
        }
        return TournamentSettings(
            name=data["name"] or "",  # left empty, it has no initial value either
            format=data["format"],
            seats=data["seats"],
            max_entrants=data["max_entrants"],
            buy_in_cents=cents_of(data["buy_in"]),
            fee_cents=cents_of(data["fee"]),
            currency=data["currency"],
            seeding=data["seeding"],
            round_lengths=tuple(n for n, _code in data["round_lengths"]),
            clock=clock,
            target_id=data["target"],
            abandon_policy=data["abandon_policy"],
            show_up_seconds=data["show_up_seconds"],
            round_minutes=data["round_minutes"],
            starts_at=data["starts_at"],
            check_in_minutes=data["check_in_minutes"],
            flight_lengths=flight_lengths,
            flight_clocks=flight_clocks,
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
            last_chance_entry=data["last_chance_entry"] or fields.LAST_CHANCE_ENTRY.default,
            prize_table=prize_table,
            **swing_settings(data),
            **division_settings(data),
        )

    def _value(self, name: str) -> Any:
        cleaned = getattr(self, "cleaned_data", {})
        if name in cleaned:
            return cleaned[name]
        initial = self.get_initial_for_field(self.fields[name], name)
        if name in ROUND_FIELDS or name in FLIGHT_LENGTH_FIELDS:
            try:
                return self.fields[name].clean(initial)
            except forms.ValidationError:
                return ()
        if name.endswith("prizes") or name == "cpp_levels":
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
            "round_lengths": _rows(tournament, Flight.MAIN),
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
                name: _rows(tournament, Flight(flight))
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
            "last_chance_entry": tournament.last_chance_entry,
            **{
                name: _listed(_percent_text(bp) for bp in tournament.prize_table.get(flight, ()))
                for flight, name in PRIZE_FIELDS.items()
                if flight != "main"
            },
            **swing_initial(tournament),
            **division_initial(tournament),
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
            _("Write percentages separated by commas, e.g. 50, 30, 20.")
        ) from None
    shares = []
    for percent in percents:
        # checked before it is multiplied out: "1e999999999" is a Decimal too
        if not percent.is_finite() or not 0 < percent <= 100:
            raise forms.ValidationError(
                _("Each share is above 0%% and at most 100%%, not %(share)s.")
                % {"share": _as_typed(percent)}
            )
        basis_points = percent * 100
        if basis_points != basis_points.to_integral_value():
            raise forms.ValidationError(
                _("Give each share to at most two decimals, not %(share)s.")
                % {"share": _as_typed(percent)}
            )
        shares.append(int(basis_points))
    return tuple(shares)


def _as_typed(percent: Decimal) -> str:
    """A share as the organizer typed it, with the page language's decimal mark."""
    return str(percent).replace(".", str(get_format("DECIMAL_SEPARATOR")))


def _rows(tournament: Tournament, flight: Flight) -> list[tuple[int, str]]:
    """A flight's rows as stored: none for a side flight playing the main flight's lengths
    on the tournament's clock."""
    own = flight is Flight.MAIN or flight.value in tournament.flight_lengths
    if not own and flight.value not in tournament.flight_clocks:
        return []
    return rows_of(clocks_by_length(tournament, flight), tournament.clock or {})


class PlayerForm(forms.Form):
    username = forms.CharField()
    replacement = forms.CharField(required=False)
