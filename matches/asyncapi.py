"""The messages of /ws/matches/<id>/, as JSON Schemas for the AsyncAPI document.

``config.asyncapi`` serves them at /api/asyncapi.json; a test checks every frame the match
consumer sends against them. The snapshot's fields are those of ``matches.selectors``.
"""

from __future__ import annotations

from typing import Any

from accounts.models import CheckerColour
from matches.actions import LEVEL_NAMES, RESIGN_LEVELS, PlayerAction
from matches.models import ClockKind, FinishReason, MatchKind, MatchStatus
from matches.move_list import MOVE_LIST_KINDS

Schema = dict[str, Any]

INTEGER: Schema = {"type": "integer"}
STRING: Schema = {"type": "string"}
BOOLEAN: Schema = {"type": "boolean"}
SEAT: Schema = {"type": "integer", "enum": [0, 1]}
TIME: Schema = {"type": "string", "format": "date-time"}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def pair(item: Schema) -> Schema:
    return {"type": "array", "items": item, "minItems": 2, "maxItems": 2}


def closed(properties: dict[str, Schema], *, optional: tuple[str, ...] = ()) -> Schema:
    """An object with exactly these properties (those in ``optional`` may be missing)."""
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name in properties if name not in optional],
        "additionalProperties": False,
    }


MOVE_ROW = closed(
    {
        "seq": INTEGER,
        "game": nullable(INTEGER),
        "kind": {"type": "string", "enum": [kind.value for kind in MOVE_LIST_KINDS]},
        "player": nullable(STRING),
        "seat": nullable(SEAT),
        "text": STRING,
        "result": closed({"points": INTEGER, "level": {"enum": list(RESIGN_LEVELS)}}),
    },
    optional=("result",),
)

CUBE = closed(
    {
        "value": INTEGER,
        "owner": nullable(STRING),
        "owner_seat": nullable(SEAT),
        "offered_by_seat": nullable(SEAT),
        "offered_value": nullable(INTEGER),
        "offer": nullable({"type": "string", "enum": ["double", "beaver"]}),
    }
)

GAME = closed(
    {
        "number": INTEGER,
        "phase": {"type": "string", "enum": ["roll", "move", "doubled", "resignation", "over"]},
        "position_id": STRING,
        "match_id": STRING,
        "gnubg_id": STRING,
        "on_roll": STRING,
        "on_roll_seat": SEAT,
        "turn": nullable(STRING),
        "turn_seat": nullable(SEAT),
        "dice": nullable(pair(INTEGER)),
        "cube": CUBE,
        "offered_double": BOOLEAN,
        "resignation": nullable(
            closed(
                {
                    "by": STRING,
                    "by_seat": SEAT,
                    "level": {"type": "string", "enum": list(RESIGN_LEVELS)},
                    "points": INTEGER,
                }
            )
        ),
        "board": closed(
            {
                "points": {"type": "array", "items": INTEGER, "minItems": 24, "maxItems": 24},
                "bar": pair(INTEGER),
                "off": pair(INTEGER),
            }
        ),
        "view_seat": SEAT,
        "pips": pair(INTEGER),
        "legal_positions": {"type": "array", "items": STRING},
        "legal_plays": {
            "type": "array",
            "items": closed({"text": STRING, "moves": {"type": "array", "items": pair(INTEGER)}}),
        },
        "result": nullable(
            closed(
                {
                    "winner": STRING,
                    "winner_seat": SEAT,
                    "level": {"type": "string", "enum": list(LEVEL_NAMES)},
                    "points": nullable(INTEGER),
                }
            )
        ),
    }
)

PRESENCE = closed(
    {"connected": pair(BOOLEAN), "spectators": INTEGER},
)

SNAPSHOT = closed(
    {
        "id": INTEGER,
        "status": {"type": "string", "enum": MatchStatus.values},
        "kind": {"type": "string", "enum": MatchKind.values},
        "length": INTEGER,
        "score": pair(INTEGER),
        "players": pair(STRING),
        "names": pair(STRING),
        "ratings": pair({"type": "number"}),
        "colours": pair({"type": "string", "enum": CheckerColour.values}),
        "seat": nullable(SEAT),
        "pass_and_play": BOOLEAN,
        "rated": BOOLEAN,
        "private": BOOLEAN,
        "currency": STRING,
        "stake_cents": INTEGER,
        "options": closed(
            {
                "jacoby": BOOLEAN,
                "beavers": BOOLEAN,
                "raccoons": BOOLEAN,
                "automatic_doubles": INTEGER,
                "max_cube": INTEGER,
            }
        ),
        "tournament": nullable(INTEGER),
        "swing": nullable(
            closed(
                {
                    "cpp": INTEGER,
                    "stake": INTEGER,
                    "all_in": BOOLEAN,
                }
            )
        ),
        "crawford": BOOLEAN,
        "post_crawford": BOOLEAN,
        "winner": nullable(STRING),
        "winner_seat": nullable(SEAT),
        "your_last_seq": nullable(INTEGER),
        "rating_changes": nullable(
            {
                "type": "array",
                "items": closed(
                    {
                        "player": STRING,
                        "before": {"type": "number"},
                        "after": {"type": "number"},
                        "change": {"type": "number"},
                    }
                ),
            }
        ),
        "finish_reason": nullable({"type": "string", "enum": FinishReason.values}),
        "dice_check": closed({"commitment": nullable(STRING), "seed": nullable(STRING)}),
        "clock": closed(
            {
                "kind": {"type": "string", "enum": ClockKind.values},
                "move_seconds": INTEGER,
                "reserve_ms": pair(INTEGER),
                "turn_started_at": nullable(TIME),
                "server_now": TIME,
                "running": {
                    **pair(BOOLEAN),
                    "description": "Whose clock counts down now, by the server's rule: "
                    "none before both players showed up, while a resignation waits for its "
                    "answer, or while the match is not played.",
                },
                "move_left_ms": {
                    **pair(nullable(INTEGER)),
                    "description": "At server_now: what is left of a running clock's free "
                    "seconds this turn (null for a clock that is not running).",
                },
                "reserve_left_ms": {
                    **pair(INTEGER),
                    "description": "At server_now: each player's reserve left.",
                },
            }
        ),
        "presence": closed(
            {
                "connected": pair(BOOLEAN),
                "spectators": INTEGER,
                "grace_ends": pair(nullable(TIME)),
            }
        ),
        "match_cube": nullable(
            closed(
                {
                    "value": INTEGER,
                    "owner": nullable(SEAT),
                    "offered_by": nullable(SEAT),
                    "max": {"type": "integer", "description": "0: no limit"},
                }
            )
        ),
        "last_seq": INTEGER,
        "game": nullable(GAME),
        **{f"may_{action.value}": BOOLEAN for action in PlayerAction},
    }
)

CHAT_LINE = closed(
    {
        "id": {"type": "integer", "description": "Report it at /api/chat/<id>/report/."},
        "room": {"type": "string", "enum": ["players", "spectators"]},
        "author": STRING,
        "name": STRING,
        "text": STRING,
        "at": TIME,
    }
)

SENT: dict[str, Schema] = {
    "state": closed(
        {
            "type": {"const": "state"},
            "state": SNAPSHOT,
            "moves": closed({"since": INTEGER, "rows": {"type": "array", "items": MOVE_ROW}}),
        },
        optional=("moves",),
    ),
    "presence": closed({"type": {"const": "presence"}, "presence": PRESENCE}),
    "ack": closed(
        {"type": {"const": "ack"}, "seq": INTEGER, "applied": BOOLEAN, "legal": BOOLEAN},
        optional=("legal",),
    ),
    "error": closed(
        {
            "type": {"const": "error"},
            "message": STRING,
            "seq": nullable(INTEGER),
            "status": INTEGER,
        },
        optional=("seq", "status"),
    ),
    "chat": closed({"type": {"const": "chat"}, "message": CHAT_LINE}),
    "chat_history": closed(
        {"type": {"const": "chat_history"}, "messages": {"type": "array", "items": CHAT_LINE}}
    ),
}
"""What the server sends, by ``type``."""

RECEIVED: dict[str, Schema] = {
    "action": closed(
        {
            "type": {"type": "string", "enum": [action.value for action in PlayerAction]},
            "seq": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
            "play": {"type": "string", "maxLength": 120},
            "position_id": {"type": "string", "pattern": "^[A-Za-z0-9+/]{14}$"},
            "resign": {"type": "string", "enum": list(RESIGN_LEVELS)},
            "check": {"type": "boolean", "description": "A play only checked, not made."},
        },
        optional=("play", "position_id", "resign", "check"),
    ),
    "chat": closed({"type": {"const": "chat"}, "text": {"type": "string", "maxLength": 500}}),
}
"""What a client sends: a player action (``type`` is the action) or a chat line."""
