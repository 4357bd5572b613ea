"""The swing tournament's part of the API's shapes: its settings in, its level and chips out."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.settings import swing_fields
from tournaments.settings.build import api_field


class SwingSettingsInputSerializer(serializers.Serializer[dict[str, Any]]):
    """A swing's settings; the other formats leave them out."""

    starting_chips = api_field(swing_fields.STARTING_CHIPS)
    cpp_levels = api_field(swing_fields.CPP_LEVELS)
    cpp_start = api_field(swing_fields.CPP_START)
    cpp_step = api_field(swing_fields.CPP_STEP)
    cpp_raise = api_field(swing_fields.CPP_RAISE)
    cpp_raise_minutes = api_field(swing_fields.CPP_RAISE_MINUTES)
    jacoby = api_field(swing_fields.JACOBY)
    beavers = api_field(swing_fields.BEAVERS)
    swing_match_length = api_field(swing_fields.SWING_MATCH_LENGTH)


class SwingOutputSerializer(serializers.Serializer[dict[str, Any]]):
    starting_chips = serializers.IntegerField()
    cpp_levels = serializers.ListField(child=serializers.IntegerField())
    cpp_step = serializers.IntegerField()
    cpp_raise = serializers.CharField()
    cpp_raise_minutes = serializers.IntegerField(allow_null=True)
    jacoby = serializers.BooleanField()
    beavers = serializers.BooleanField()
    swing_match_length = serializers.IntegerField()
    level = serializers.IntegerField(
        help_text=(
            "The CPP level reached, from 1: on the clock or by knockouts, the level a game "
            "starting now plays; when the CPP rises with every game, each game plays at the "
            "level of its players' round (the more games either has played), and this is "
            "the highest round a player still holding chips has reached."
        )
    )
    cpp = serializers.IntegerField(help_text="The CPP at that level.")
    next_cpp = serializers.IntegerField(allow_null=True, help_text="Null: the CPP rises no more.")
    next_at = serializers.DateTimeField(
        allow_null=True, help_text="When the next level comes, if it comes on the clock."
    )
    next_when = serializers.CharField(help_text="When the next level comes, in words.")


class SwingStandingFields(serializers.Serializer[dict[str, Any]]):
    """A swing's standing row: chips, and the game being played (if any)."""

    chips = serializers.IntegerField(required=False, help_text="Swing: chips held now.")
    place = serializers.IntegerField(
        required=False, allow_null=True, help_text="Swing: the place, once out (or first)."
    )
    games = serializers.IntegerField(required=False)
    won = serializers.IntegerField(required=False)
    lost = serializers.IntegerField(required=False)
    current_match_id = serializers.IntegerField(
        required=False, allow_null=True, help_text="Swing: the game being played, if any."
    )
    waiting_since = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="Swing: free and waiting for an opponent since then.",
    )
