"""Input and output shapes of the tournament API: what programs send and get back."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounts.models import MAX_AMOUNT_CENTS, Currency
from matches.api import ClockSerializer
from matches.creation import MAX_MATCH_LENGTH
from tournaments import selectors
from tournaments.models import (
    OFFERED_FORMAT_CHOICES,
    SHOW_UP_SECONDS,
    Seeding,
    TournamentAbandonPolicy,
)
from tournaments.options import (
    MAX_CHECK_IN_MINUTES,
    MAX_ENTRANTS,
    MAX_ROUND_MINUTES,
    MAX_SHOW_UP_SECONDS,
    MIN_SHOW_UP_SECONDS,
)

MAX_ID = 2**63 - 1
MAX_ROUNDS = 16


class TournamentSettingsInputSerializer(serializers.Serializer):
    """An organizer's settings; ``seats`` for a Sit & Go, ``target`` for a satellite."""

    name = serializers.CharField(max_length=120)
    format = serializers.ChoiceField(choices=[value for value, _ in OFFERED_FORMAT_CHOICES])
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
    round_lengths = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_MATCH_LENGTH),
        min_length=1,
        max_length=MAX_ROUNDS,
        default=[5],
        help_text="Points per round, first round to final; a bigger field repeats the first.",
    )
    clock = ClockSerializer(required=False)
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


class TournamentEditInputSerializer(TournamentSettingsInputSerializer):
    """Any settings to change; the others keep their values."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, partial=True, **kwargs)


class TournamentEntrantOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    rating = serializers.FloatField()
    place = serializers.CharField(allow_blank=True)
    prize_cents = serializers.IntegerField()
    ticket = serializers.BooleanField()
    checked_in = serializers.BooleanField()


class TournamentPrizeOutputSerializer(serializers.Serializer):
    place = serializers.CharField()
    cents = serializers.IntegerField()


class TournamentTicketOutputSerializer(serializers.Serializer):
    holder = serializers.CharField()
    target = serializers.IntegerField()
    value_cents = serializers.IntegerField()
    used = serializers.BooleanField()


class TournamentOutputSerializer(serializers.Serializer):
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
    round_lengths = serializers.ListField(child=serializers.IntegerField())
    clock = serializers.DictField()
    abandon_policy = serializers.CharField()
    target = serializers.IntegerField(allow_null=True)
    starts_at = serializers.DateTimeField(allow_null=True)
    entrants = TournamentEntrantOutputSerializer(many=True)
    prize_pool_cents = serializers.IntegerField()
    prizes = TournamentPrizeOutputSerializer(many=True)
    tickets = TournamentTicketOutputSerializer(many=True)
    champion = serializers.CharField(allow_null=True)


class BracketSideOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True, help_text="1 is the top seed of the draw.")


class BracketSlotRefOutputSerializer(serializers.Serializer):
    flight = serializers.CharField()
    round = serializers.IntegerField()
    position = serializers.IntegerField()


class BracketSourceOutputSerializer(serializers.Serializer):
    winner_of = BracketSlotRefOutputSerializer(required=False, help_text="The winner of a slot.")
    loser_of = BracketSlotRefOutputSerializer(required=False, help_text="The loser of a slot.")


class BracketSlotOutputSerializer(serializers.Serializer):
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


class BracketRoundOutputSerializer(serializers.Serializer):
    flight = serializers.CharField(
        help_text="main, losers (double elimination), consolation, last_chance or final"
    )
    round = serializers.IntegerField()
    name = serializers.CharField()
    match_length = serializers.IntegerField()
    slots = BracketSlotOutputSerializer(many=True)


class TournamentBracketOutputSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    state = serializers.CharField()
    rounds = BracketRoundOutputSerializer(many=True)


class StandingRowOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    group = serializers.IntegerField(
        allow_null=True, help_text="A round robin's group, from 1; null elsewhere."
    )
    rank = serializers.IntegerField(help_text="Tied players share a rank (a place elsewhere).")
    points = serializers.IntegerField(help_text="Matches won, a Swiss bye counting as one.")
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    tiebreaks = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="By name, in the order they rank: buchholz, median_buchholz, "
        "sonneborn_berger, points_margin (Swiss); sonneborn_berger, points_margin (round robin).",
    )


class TournamentStandingsOutputSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    state = serializers.CharField()
    format = serializers.CharField()
    rows = StandingRowOutputSerializer(many=True)


class TournamentPlayerInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class TournamentReplaceInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="The player giving up the seat.")
    replacement = serializers.CharField(
        max_length=150, help_text="The player taking it, who pays the buy-in."
    )


class TournamentListQuerySerializer(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=list(selectors.LOBBY_FILTERS),
        required=False,
        help_text="open (registration), running, or finished (or cancelled); all without it",
    )
    mine = serializers.BooleanField(
        required=False, help_text="Only tournaments you entered or organize (log in)."
    )


class TournamentRowSerializer(serializers.Serializer):
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
