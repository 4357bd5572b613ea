"""Input and output shapes of the tournament API: what programs send and get back."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.models import MAX_AMOUNT_CENTS, Currency
from core.api import JsonBooleanField
from matches.api import ClockSerializer
from matches.creation import MAX_MATCH_LENGTH
from tournaments import selectors
from tournaments.formats.base import Flight
from tournaments.formats.prizes import WHOLE_POOL
from tournaments.models import (
    SHOW_UP_SECONDS,
    Seeding,
    TournamentAbandonPolicy,
    TournamentFormat,
)
from tournaments.settings.by_format import (
    DEFAULT_CONSOLATION_THROUGH,
    DEFAULT_LAST_CHANCE_REENTRY,
    MAX_CONSOLATION_ROUND,
    MAX_GROUP_SIZE,
    MAX_PAID_PLACES,
    MAX_SWISS_ROUNDS,
    switched,
)
from tournaments.settings.general import (
    MAX_CHECK_IN_MINUTES,
    MAX_ENTRANTS,
    MAX_ROUND_MINUTES,
    MAX_SHOW_UP_SECONDS,
    MIN_SHOW_UP_SECONDS,
)
from tournaments.swing.serializers import (
    SwingOutputSerializer,
    SwingSettingsInputSerializer,
    SwingStandingFields,
)

MAX_ID = 2**63 - 1
MAX_ROUNDS = 16
POWERS_OF_TWO = [(2**n, str(2**n)) for n in range(1, MAX_ENTRANTS.bit_length())]


def _list_schema(item: dict[str, Any], max_items: int) -> dict[str, Any]:
    return {"type": "array", "items": item, "minItems": 1, "maxItems": max_items}


def _by_flight_schema(
    flights: list[Flight], item: dict[str, Any], max_items: int, what: str
) -> dict[str, Any]:
    listed = _list_schema(item, max_items)
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
    """A list for the main flight, or a mapping of flight names to lists of integers."""

    flights: list[Flight] = []
    low, high, max_items = 1, 1, 1

    def to_internal_value(self, data: Any) -> dict[str, list[int]]:
        if isinstance(data, list):
            return {Flight.MAIN.value: self._numbers("", data)}
        if not isinstance(data, dict):
            raise serializers.ValidationError("Give a list, or a list per flight by its name.")
        names = [flight.value for flight in self.flights]
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise serializers.ValidationError(
                f"There is no flight called {unknown[0]!r} here; use {', '.join(names)}."
            )
        if Flight.MAIN.value not in data:
            raise serializers.ValidationError("Give the main flight's as well.")
        return {name: self._numbers(name, values) for name, values in data.items()}

    def _numbers(self, name: str, values: Any) -> list[int]:
        """``values`` checked; ``name`` is the flight's, empty for a plain list."""
        flight = f"{name}: " if name else ""
        if not isinstance(values, list) or not 1 <= len(values) <= self.max_items:
            raise serializers.ValidationError(f"{flight}give a list of 1 to {self.max_items}.")
        for value in values:
            if isinstance(value, bool) or not isinstance(value, int):
                raise serializers.ValidationError(f"{flight}{value!r} is not a whole number.")
            if not self.low <= value <= self.high:
                raise serializers.ValidationError(
                    f"{flight}each is {self.low} to {self.high:,}, not {value}."
                )
        return list(values)

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(
    _by_flight_schema(
        [Flight.MAIN, Flight.LOSERS, Flight.CONSOLATION, Flight.LAST_CHANCE, Flight.FINAL],
        {"type": "integer", "minimum": 1, "maximum": MAX_MATCH_LENGTH},
        MAX_ROUNDS,
        "points per round, first round to final",
    )
)
class RoundLengthsField(ByFlightField):
    flights = [Flight.MAIN, Flight.LOSERS, Flight.CONSOLATION, Flight.LAST_CHANCE, Flight.FINAL]
    low, high, max_items = 1, MAX_MATCH_LENGTH, MAX_ROUNDS


@extend_schema_field(
    _by_flight_schema(
        [Flight.MAIN, Flight.CONSOLATION],
        {"type": "integer", "minimum": 1, "maximum": WHOLE_POOL},
        MAX_PAID_PLACES,
        "prize shares, best place first, in basis points of the pool (1/100 of a percent)",
    )
)
class PrizeTableField(ByFlightField):
    flights = [Flight.MAIN, Flight.CONSOLATION]
    low, high, max_items = 1, WHOLE_POOL, MAX_PAID_PLACES


class FlightClocksSerializer(serializers.Serializer[dict[str, Any]]):
    """The other flights' time controls, each as ``clock``."""

    losers = ClockSerializer(required=False, help_text="Double elimination's losers' flight.")
    consolation = ClockSerializer(required=False)
    last_chance = ClockSerializer(required=False)
    final = ClockSerializer(
        required=False,
        help_text="A double elimination's final, or the knockout after a Swiss or round robin.",
    )


class TournamentSettingsInputSerializer(SwingSettingsInputSerializer):
    """An organizer's settings; ``seats`` for a Sit & Go, ``target`` for a satellite."""

    name = serializers.CharField(max_length=120)
    format = serializers.ChoiceField(choices=TournamentFormat.values)
    seats = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=2,
        max_value=64,
        help_text="A Sit & Go's seats: it starts when they are all taken (8 if not given).",
    )
    max_entrants = serializers.IntegerField(
        required=False, allow_null=True, min_value=2, max_value=MAX_ENTRANTS
    )
    buy_in_cents = serializers.IntegerField(default=0, min_value=0, max_value=MAX_AMOUNT_CENTS)
    fee_cents = serializers.IntegerField(default=0, min_value=0, max_value=MAX_AMOUNT_CENTS)
    currency = serializers.ChoiceField(
        choices=Currency.choices,
        default=Currency.FUN,
        error_messages={"invalid_choice": f"Use one of {', '.join(Currency.values)}."},
    )
    seeding = serializers.ChoiceField(choices=Seeding.values, default=Seeding.RATING)
    round_lengths = RoundLengthsField(
        default=[5],
        help_text="Points per round, first round to final; a bigger field repeats the first "
        "round's. A list is the main flight's; or one per flight: {\"main\": [5, 5, 7], "
        '"losers": [3], "consolation": [3], "final": [7]} (a flight not given plays the main '
        "flight's lengths).",
    )
    clock = ClockSerializer(required=False)
    flight_clocks = FlightClocksSerializer(
        required=False,
        help_text="A time control for a flight other than the main one, by its name; the "
        "flights not given play on ``clock``.",
    )
    grand_final_reset = JsonBooleanField(
        required=False,
        help_text="Double elimination: a second final when the losers' flight winner wins "
        "the first (default true).",
    )
    rounds = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_SWISS_ROUNDS,
        help_text="Swiss: the number of rounds.",
    )
    top_cut = serializers.ChoiceField(
        choices=POWERS_OF_TWO,
        required=False,
        allow_null=True,
        help_text="Swiss: the best this many (2, 4, 8, ...) play a knockout after it "
        '(its lengths: round_lengths\' "final").',
    )
    group_size = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=2,
        max_value=MAX_GROUP_SIZE,
        help_text="Round robin: players per group; none: everyone meets everyone.",
    )
    advance_per_group = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_GROUP_SIZE,
        help_text='Round robin with groups: the best this many of each play a knockout ("final").',
    )
    consolation = serializers.ChoiceField(
        choices=["none", "progressive"],
        required=False,
        help_text="Knockout or double elimination: a progressive consolation for the players "
        "knocked out early, with its own champion.",
    )
    consolation_through_round = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_CONSOLATION_ROUND,
        help_text="The consolation takes those knocked out in rounds 1 to this one "
        f"(default {DEFAULT_CONSOLATION_THROUGH}).",
    )
    last_chance = JsonBooleanField(
        required=False,
        help_text="Knockout: a one-loss flight for the players knocked out early whose winner "
        "comes back into the main flight.",
    )
    last_chance_reenters_at = serializers.ChoiceField(
        choices=POWERS_OF_TWO,
        required=False,
        allow_null=True,
        help_text="The last chance's winner comes back when this many (2, 4, 8, ...) are left "
        f"in the main flight (default {DEFAULT_LAST_CHANCE_REENTRY}).",
    )
    prize_table = PrizeTableField(
        required=False,
        help_text="Prize shares in basis points of the pool (10,000 is all of it), best place "
        'first: a list for the main flight, or {"main": [...], "consolation": [...]}, adding '
        "up to 10,000 across flights. Tied places split their shares. None: the published "
        "table by the number of players.",
    )
    target = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ID,
        help_text="Satellite: the target tournament's id.",
    )
    abandon_policy = serializers.ChoiceField(
        choices=TournamentAbandonPolicy.values, default=TournamentAbandonPolicy.ENGINE
    )
    show_up_seconds = serializers.IntegerField(
        default=SHOW_UP_SECONDS, min_value=MIN_SHOW_UP_SECONDS, max_value=MAX_SHOW_UP_SECONDS
    )
    round_minutes = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_ROUND_MINUTES
    )
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_minutes = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_CHECK_IN_MINUTES
    )

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


class TournamentOutputSerializer(serializers.Serializer[dict[str, Any]]):
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
        child=serializers.DictField(), help_text="The other flights' own time controls."
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
