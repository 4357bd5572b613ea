"""The divisions' part of the API's shapes: a tournament's place in its event and its
entry limits, out; a side event's kind, in."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.divisions.presets import JACKPOT_TABLES


class EventMemberOutputSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    side = serializers.CharField(
        allow_blank=True, help_text="Empty for the main event; division, jackpot or blitz."
    )
    division = serializers.CharField(allow_blank=True)
    format = serializers.CharField()
    state = serializers.CharField()
    seated = serializers.IntegerField()


class DivisionOutputFields(serializers.Serializer[dict[str, Any]]):
    """A tournament's event and entry limits."""

    # a declared field, not the serializer's own ``parent``: DRF takes fields off the class
    parent = serializers.IntegerField(  # type: ignore[assignment]
        allow_null=True, help_text="The main event it is played beside; null for a main event."
    )
    side = serializers.CharField(
        allow_blank=True,
        help_text="division, jackpot or blitz beside the main event; empty for a main event.",
    )
    division = serializers.CharField(
        allow_blank=True, help_text="The division's name; empty: none."
    )
    min_rating = serializers.IntegerField(allow_null=True)
    max_rating = serializers.IntegerField(allow_null=True)
    max_rated_matches = serializers.IntegerField(allow_null=True)
    entry_limits = serializers.ListField(
        child=serializers.CharField(), help_text="Who may enter, in words; empty: anyone."
    )
    event = EventMemberOutputSerializer(
        many=True,
        help_text="The event's tournaments (the main one first, then its divisions and side "
        "events) when there are several; empty otherwise.",
    )


class SideEventFields(serializers.Serializer[dict[str, Any]]):
    """A jackpot's paid places."""

    places = serializers.ChoiceField(
        choices=[(n, str(n)) for n in JACKPOT_TABLES],
        required=False,
        help_text="A jackpot's paid places: 1, all of the pool to the winner (default); 2, "
        "70% and 30%.",
    )
