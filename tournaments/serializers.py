"""Input and output shapes of the tournament API: what programs send and get back."""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches.api import ClockSerializer
from tournaments import selectors
from tournaments.divisions.serializers import DivisionOutputFields
from tournaments.formats.base import Flight
from tournaments.settings import entry_fields, fields
from tournaments.settings.build import api_field, powers_of_two
from tournaments.settings.by_format import switched
from tournaments.settings.fields import DEFAULT_CONSOLATION_THROUGH, DEFAULT_LAST_CHANCE_REENTRY
from tournaments.settings.setting import Setting
from tournaments.swing.serializers import (
    SwingOutputSerializer,
    SwingSettingsInputSerializer,
    SwingStandingFields,
)


def _by_flight_schema(flights: list[Flight], setting: Setting, what: str) -> dict[str, Any]:
    low, high = setting.limits
    listed = {
        "type": "array",
        "items": {"type": "integer", "minimum": low, "maximum": high},
        "minItems": 1,
        "maxItems": setting.items,
    }
    return {
        "oneOf": [
            {**listed, "description": f"The main flight's {what} only."},
            {
                "type": "object",
                "properties": {flight.value: listed for flight in flights},
                "required": [Flight.MAIN.value],
                "additionalProperties": False,
                "description": f"The {what} of each flight.",
            },
        ]
    }


class ByFlightField(serializers.Field[Any, Any, Any, Any]):
    """A list for the main flight, or a mapping of flight names to lists of integers, each
    list within ``setting``'s limits."""

    setting: Setting
    flights: list[Flight] = []

    def to_internal_value(self, data: Any) -> dict[str, list[int]]:
        if isinstance(data, list):
            return {Flight.MAIN.value: self._numbers("", data)}
        if not isinstance(data, dict):
            raise serializers.ValidationError(_("Give a list, or a list per flight by its name."))
        names = [flight.value for flight in self.flights]
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise serializers.ValidationError(
                _("There is no flight called %(name)s here; use %(flights)s.")
                % {"name": repr(unknown[0]), "flights": ", ".join(names)}
            )
        if Flight.MAIN.value not in data:
            raise serializers.ValidationError(_("Give the main flight's as well."))
        return {name: self._numbers(name, values) for name, values in data.items()}

    def _numbers(self, name: str, values: Any) -> list[int]:
        """``values`` checked; ``name`` is the flight's, empty for a plain list."""
        flight = f"{name}: " if name else ""
        low, high = self.setting.limits
        most = self.setting.items
        if not isinstance(values, list) or not 1 <= len(values) <= (most or 0):
            refusal = _("give a list of 1 to %(most)s.") % {"most": most}
            raise serializers.ValidationError(f"{flight}{refusal}")
        for value in values:
            if isinstance(value, bool) or not isinstance(value, int):
                refusal = _("%(value)s is not a whole number.") % {"value": repr(value)}
                raise serializers.ValidationError(f"{flight}{refusal}")
            if not low <= value <= high:
                refusal = _("each is %(low)s to %(high)s, not %(value)s.") % {
                    "low": low,
                    "high": number_format(high, force_grouping=True),
                    "value": value,
                }
                raise serializers.ValidationError(f"{flight}{refusal}")
        return list(values)

    def to_representation(self, value: Any) -> Any:
        return value


# The choices of ``top_cut`` and ``last_chance_reenters_at``, one enum in the schema
# (``config.settings.api``) while their limits are the same.
POWERS_OF_TWO = [(n, str(n)) for n in powers_of_two(fields.TOP_CUT)]
LENGTH_FLIGHTS = [
    Flight.MAIN,
    Flight.LOSERS,
    Flight.SECOND_LOSERS,
    Flight.CONSOLATION,
    Flight.LAST_CHANCE,
    Flight.FINAL,
]
PRIZE_FLIGHTS = [Flight.MAIN, Flight.CONSOLATION, Flight.LAST_CHANCE]


@extend_schema_field(
    _by_flight_schema(
        LENGTH_FLIGHTS, fields.ROUND_LENGTHS, "points per round, first round to final"
    )
)
class RoundLengthsField(ByFlightField):
    setting = fields.ROUND_LENGTHS
    flights = LENGTH_FLIGHTS


@extend_schema_field(
    _by_flight_schema(
        PRIZE_FLIGHTS,
        fields.PRIZE_TABLE,
        "prize shares, best place first, in basis points of the pool (1/100 of a percent)",
    )
)
class PrizeTableField(ByFlightField):
    setting = fields.PRIZE_TABLE
    flights = PRIZE_FLIGHTS


class FlightClockField(serializers.Field[Any, Any, Any, Any]):
    """One time control for all the flight's rounds, or a list of them: one beside each of
    the flight's match lengths, read as the lengths are (``tournaments.settings.clocks``)."""

    def to_internal_value(self, data: Any) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(data, dict):
            return self._clock(data)
        most = fields.ROUND_LENGTHS.items or 0
        if not isinstance(data, list) or not 1 <= len(data) <= most:
            raise serializers.ValidationError(
                _("Give a clock, or a list of 1 to %(most)s clocks, one per match length.")
                % {"most": most}
            )
        clocks = []
        for number, clock in enumerate(data, start=1):
            try:
                clocks.append(self._clock(clock))
            except serializers.ValidationError as refusal:
                raise serializers.ValidationError(
                    {_("clock %(number)s") % {"number": number}: refusal.detail}
                ) from None
        return clocks

    def _clock(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError(_("A clock is an object of its fields."))
        clock = ClockSerializer(data=data)
        if not clock.is_valid():
            raise serializers.ValidationError(clock.errors)
        return dict(clock.validated_data)

    def to_representation(self, value: Any) -> Any:
        return value


# drf-spectacular's extension base is untyped.
class FlightClockSchema(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    """drf-spectacular: ``FlightClockField`` is a clock, or a list of 1 to 16 of them."""

    target_class = FlightClockField

    def map_serializer_field(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        clock = auto_schema.resolve_serializer(ClockSerializer, direction).ref
        listed = {"type": "array", "items": clock, "minItems": 1}
        return {"oneOf": [clock, {**listed, "maxItems": fields.ROUND_LENGTHS.items}]}


class FlightClocksSerializer(serializers.Serializer[dict[str, Any]]):
    """Each flight's time controls, as ``clock``: one for all its rounds, or one per match
    length of the flight."""

    main = FlightClockField(
        required=False, help_text="The main flight's, when not ``clock`` for all its rounds."
    )
    losers = FlightClockField(
        required=False,
        help_text="Double elimination's losers' flight, triple elimination's first one.",
    )
    second_losers = FlightClockField(
        required=False, help_text="Triple elimination's second losers' flight."
    )
    consolation = FlightClockField(required=False)
    last_chance = FlightClockField(required=False)
    final = FlightClockField(
        required=False,
        help_text="A double or triple elimination's finals, or the knockout after a Swiss or "
        "round robin.",
    )


class TournamentSettingsInputSerializer(SwingSettingsInputSerializer):
    """An organizer's settings; ``seats`` for a Sit & Go, ``target`` for a satellite."""

    name = api_field(fields.NAME)
    format = api_field(fields.FORMAT)
    seats = api_field(fields.SEATS)
    max_entrants = api_field(fields.MAX_ENTRANTS)
    buy_in_cents = api_field(fields.BUY_IN_CENTS)
    fee_cents = api_field(fields.FEE_CENTS)
    currency = api_field(fields.CURRENCY)
    seeding = api_field(fields.SEEDING)
    round_lengths = RoundLengthsField(
        default=[5],
        help_text="Points per round, first round to final; a bigger field repeats the first "
        "round's. A list is the main flight's; or one per flight: {\"main\": [5, 5, 7], "
        '"losers": [3], "second_losers": [3], "consolation": [3], "final": [7]} (a flight not '
        "given plays the main flight's lengths; a triple elimination's second losers' flight "
        "the losers' flight's).",
    )
    clock = ClockSerializer(required=False)
    flight_clocks = FlightClocksSerializer(
        required=False,
        help_text="Time controls by flight: one clock for all of a flight's rounds, or a list "
        "with one clock beside each of its match lengths, read as they are (from the final "
        'backwards; a Swiss\'s rounds first round first): {"main": [{"preset": "standard"}, '
        '{"preset": "relaxed"}], "consolation": {"preset": "blitz"}}. A flight not given '
        "plays on ``clock``.",
    )
    grand_final_reset = api_field(fields.GRAND_FINAL_RESET)
    rounds = api_field(fields.ROUNDS)
    top_cut = api_field(fields.TOP_CUT)
    group_size = api_field(fields.GROUP_SIZE)
    advance_per_group = api_field(fields.ADVANCE_PER_GROUP)
    consolation = serializers.ChoiceField(
        choices=["none", "progressive"],
        required=False,
        help_text="Knockout or double elimination: a progressive consolation for the players "
        "knocked out early, with its own champion.",
    )
    consolation_through_round = api_field(fields.CONSOLATION_THROUGH_ROUND)
    last_chance = api_field(fields.LAST_CHANCE)
    last_chance_reenters_at = api_field(fields.LAST_CHANCE_REENTERS_AT)
    last_chance_entry = api_field(fields.LAST_CHANCE_ENTRY)
    prize_table = PrizeTableField(
        required=False,
        help_text="Prize shares in basis points of the pool (10,000 is all of it), best place "
        'first: a list for the main flight, or {"main": [...], "consolation": [...]}, adding '
        "up to 10,000 across flights. Tied places split their shares. None: the published "
        "table by the number of players.",
    )
    target = api_field(fields.TARGET)
    abandon_policy = api_field(fields.ABANDON_POLICY)
    show_up_seconds = api_field(fields.SHOW_UP_SECONDS)
    round_minutes = api_field(fields.ROUND_MINUTES)
    starts_at = api_field(fields.STARTS_AT)
    check_in_minutes = api_field(fields.CHECK_IN_MINUTES)
    # divisions and entry limits (``tournaments.divisions``)
    division = api_field(entry_fields.DIVISION)
    min_rating = api_field(entry_fields.MIN_RATING)
    max_rating = api_field(entry_fields.MAX_RATING)
    max_rated_matches = api_field(entry_fields.MAX_RATED_MATCHES)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        """``consolation`` and ``last_chance`` switch their flight on or off (off wins over a
        round given beside it); the round settings say where it joins."""
        consolation = data.pop("consolation", None)
        if consolation is not None or "consolation_through_round" in data:
            data["consolation_through_round"] = switched(
                None if consolation is None else consolation == "progressive",
                data.get("consolation_through_round"),
                DEFAULT_CONSOLATION_THROUGH,
            )
        if "last_chance" in data or "last_chance_reenters_at" in data:
            data["last_chance_reenters_at"] = switched(
                data.pop("last_chance", None),
                data.get("last_chance_reenters_at"),
                DEFAULT_LAST_CHANCE_REENTRY,
            )
        return data


class TournamentEditInputSerializer(TournamentSettingsInputSerializer):
    """Any settings to change; the others keep their values."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, partial=True, **kwargs)


class TournamentEntrantOutputSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField()
    display_name = serializers.CharField()
    rating = serializers.FloatField()
    place = serializers.CharField(allow_blank=True)
    prize_cents = serializers.IntegerField()
    ticket = serializers.BooleanField()
    checked_in = serializers.BooleanField()


class TournamentPrizeOutputSerializer(serializers.Serializer[dict[str, Any]]):
    place = serializers.CharField()
    cents = serializers.IntegerField()


class TournamentTicketOutputSerializer(serializers.Serializer[dict[str, Any]]):
    holder = serializers.CharField()
    target = serializers.IntegerField()
    value_cents = serializers.IntegerField()
    used = serializers.BooleanField()


class TournamentOutputSerializer(DivisionOutputFields):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField()
    state = serializers.CharField()
    organizer = serializers.CharField()
    currency = serializers.CharField()
    buy_in_cents = serializers.IntegerField()
    fee_cents = serializers.IntegerField()
    buy_in = serializers.CharField(help_text='As shown to players: "10.00 + 0.65".')
    seats = serializers.IntegerField(allow_null=True)
    max_entrants = serializers.IntegerField(allow_null=True)
    seeding = serializers.CharField()
    round_lengths = serializers.ListField(
        child=serializers.IntegerField(), help_text="The main flight's points per round."
    )
    flight_lengths = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Points per round of the other flights that have their own, by flight.",
    )
    clock = serializers.DictField()
    flight_clocks = serializers.DictField(
        child=FlightClockField(),
        help_text="The flights' own time controls: one clock, or one per match length.",
    )
    grand_final_reset = serializers.BooleanField()
    rounds = serializers.IntegerField(allow_null=True)
    top_cut = serializers.IntegerField(allow_null=True)
    group_size = serializers.IntegerField(allow_null=True)
    advance_per_group = serializers.IntegerField(allow_null=True)
    consolation = serializers.CharField(help_text="none or progressive")
    consolation_through_round = serializers.IntegerField(allow_null=True)
    last_chance = serializers.BooleanField()
    last_chance_reenters_at = serializers.IntegerField(allow_null=True)
    last_chance_entry = serializers.CharField(help_text="progressive or fresh")
    prize_table = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Shares in basis points by flight, as set; empty: the published table.",
    )
    abandon_policy = serializers.CharField()
    target = serializers.IntegerField(allow_null=True)
    starts_at = serializers.DateTimeField(allow_null=True)
    entrants = TournamentEntrantOutputSerializer(many=True)
    prize_pool_cents = serializers.IntegerField()
    prizes = TournamentPrizeOutputSerializer(many=True)
    tickets = TournamentTicketOutputSerializer(many=True)
    champion = serializers.CharField(allow_null=True)
    swing = SwingOutputSerializer(
        allow_null=True, help_text="A swing's settings, CPP level and next level; null elsewhere."
    )
    flight_champions = serializers.DictField(
        child=serializers.CharField(),
        help_text="The winner of each side flight (consolation, last_chance) once decided.",
    )


class BracketSideOutputSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField()
    display_name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True, help_text="1 is the top seed of the draw.")


class BracketSlotRefOutputSerializer(serializers.Serializer[dict[str, Any]]):
    flight = serializers.CharField()
    round = serializers.IntegerField()
    position = serializers.IntegerField()


class BracketSourceOutputSerializer(serializers.Serializer[dict[str, Any]]):
    winner_of = BracketSlotRefOutputSerializer(required=False, help_text="The winner of a slot.")
    loser_of = BracketSlotRefOutputSerializer(required=False, help_text="The loser of a slot.")


class BracketSlotOutputSerializer(serializers.Serializer[dict[str, Any]]):
    position = serializers.IntegerField()
    top = BracketSideOutputSerializer(allow_null=True)
    bottom = BracketSideOutputSerializer(allow_null=True)
    top_bye = serializers.BooleanField()
    bottom_bye = serializers.BooleanField()
    match_id = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(
        help_text="waiting, bye, live, suspended, finished, forfeit, adjudicated or not played"
    )
    score = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    winner = serializers.CharField(allow_null=True)
    late = serializers.BooleanField()
    top_from = BracketSourceOutputSerializer(
        allow_null=True, help_text="Where the top player comes from; null: drawn at the start."
    )
    bottom_from = BracketSourceOutputSerializer(allow_null=True)


class BracketRoundOutputSerializer(serializers.Serializer[dict[str, Any]]):
    flight = serializers.CharField(
        help_text="main, losers (double elimination), consolation, last_chance or final"
    )
    round = serializers.IntegerField()
    name = serializers.CharField()
    match_length = serializers.IntegerField()
    slots = BracketSlotOutputSerializer(many=True)


class TournamentBracketOutputSerializer(serializers.Serializer[dict[str, Any]]):
    tournament = serializers.IntegerField()
    state = serializers.CharField()
    rounds = BracketRoundOutputSerializer(many=True)


class StandingRowOutputSerializer(SwingStandingFields):
    """A player's row: rank, points and tiebreaks, or in a swing chips and games."""

    username = serializers.CharField()
    display_name = serializers.CharField()
    group = serializers.IntegerField(
        required=False, allow_null=True, help_text="A round robin's group, from 1; null elsewhere."
    )
    rank = serializers.IntegerField(
        required=False, help_text="Tied players share a rank (a place elsewhere)."
    )
    points = serializers.IntegerField(
        required=False, help_text="Matches won, a Swiss bye counting as one."
    )
    wins = serializers.IntegerField(required=False)
    losses = serializers.IntegerField(required=False)
    byes = serializers.IntegerField(required=False)
    tiebreaks = serializers.DictField(
        required=False,
        child=serializers.IntegerField(),
        help_text="By name, in the order they rank: buchholz, median_buchholz, "
        "sonneborn_berger, points_margin (Swiss); sonneborn_berger, points_margin (round robin).",
    )


class TournamentStandingsOutputSerializer(serializers.Serializer[dict[str, Any]]):
    tournament = serializers.IntegerField()
    state = serializers.CharField()
    format = serializers.CharField()
    rows = StandingRowOutputSerializer(many=True)


class TournamentPlayerInputSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField(max_length=150)


class TournamentReplaceInputSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField(max_length=150, help_text="The player giving up the seat.")
    replacement = serializers.CharField(
        max_length=150, help_text="The player taking it, who pays the buy-in."
    )


class TournamentListQuerySerializer(serializers.Serializer[dict[str, Any]]):
    state = serializers.ChoiceField(
        choices=list(selectors.LOBBY_FILTERS),
        required=False,
        help_text="open (registration), running, or finished (or cancelled); all without it",
    )
    mine = serializers.BooleanField(
        required=False, help_text="Only tournaments you entered or organize (log in)."
    )


class TournamentRowSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField()
    state = serializers.CharField()
    currency = serializers.CharField()
    buy_in_cents = serializers.IntegerField()
    fee_cents = serializers.IntegerField()
    seated = serializers.IntegerField(help_text="Players holding a seat.")
    capacity = serializers.IntegerField(allow_null=True, help_text="Seats; null: no limit.")
    starts_at = serializers.DateTimeField(allow_null=True)
    champion = serializers.CharField(allow_null=True)
    # divisions and side events (``tournaments.divisions``)
    # a declared field, not the serializer's own ``parent``: DRF takes fields off the class
    parent = serializers.IntegerField(  # type: ignore[assignment]
        allow_null=True, help_text="The main event it is played beside; null for a main event."
    )
    side = serializers.CharField(
        allow_blank=True, help_text="division, jackpot or blitz; empty: a main event."
    )
    division = serializers.CharField(
        allow_blank=True, help_text="The division's name; empty: none."
    )
