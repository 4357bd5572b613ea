"""The swing tournament's part of the API's shapes: its settings in, its level and chips out."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from core.api import JsonBooleanField
from matches.creation import MAX_MATCH_LENGTH
from tournaments.formats.swing import MAX_CPP, MAX_LEVELS, CppRaise
from tournaments.settings.swing import MAX_RAISE_MINUTES, MAX_STARTING_CHIPS


class SwingSettingsInputSerializer(serializers.Serializer[dict[str, Any]]):
    """A swing's settings; the other formats leave them out."""

    starting_chips = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_STARTING_CHIPS,
        help_text="Swing: the chips each player starts with.",
    )
    cpp_levels = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_CPP),
        required=False,
        max_length=MAX_LEVELS,
        help_text="Swing: the chips per point (CPP) at each level, rising: [10, 15, 20, ...]. "
        "Or give cpp_start and cpp_step.",
    )
    cpp_start = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_CPP,
        help_text="Swing: the first level's CPP, each next level cpp_step more.",
    )
    cpp_step = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=MAX_CPP,
        help_text="Swing: how much each level after the listed ones (or after cpp_start) adds.",
    )
    cpp_raise = serializers.ChoiceField(
        choices=[raise_on.value for raise_on in CppRaise],
        required=False,
        help_text="Swing: the CPP rises after every game (default), every cpp_raise_minutes, "
        "or every time a player is knocked out.",
    )
    cpp_raise_minutes = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_RAISE_MINUTES
    )
    jacoby = JsonBooleanField(
        required=False, help_text="Swing: gammons count only once the cube is turned (default)."
    )
    beavers = JsonBooleanField(required=False, help_text="Swing: beavers allowed.")
    swing_match_length = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_MATCH_LENGTH,
        help_text="Match swing: each pairing plays a match to this many points, no Crawford "
        "game, with a match cube; 0 (default): single games.",
    )


class SwingOutputSerializer(serializers.Serializer[dict[str, Any]]):
    starting_chips = serializers.IntegerField()
    cpp_levels = serializers.ListField(child=serializers.IntegerField())
    cpp_step = serializers.IntegerField()
    cpp_raise = serializers.CharField()
    cpp_raise_minutes = serializers.IntegerField(allow_null=True)
    jacoby = serializers.BooleanField()
    beavers = serializers.BooleanField()
    swing_match_length = serializers.IntegerField()
    level = serializers.IntegerField(help_text="The CPP level a game starting now plays, from 1.")
    cpp = serializers.IntegerField(help_text="The CPP a game starting now plays for.")
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
