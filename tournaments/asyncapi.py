"""The messages of /ws/tournaments/<id>/, as JSON Schemas for the AsyncAPI document."""

from __future__ import annotations

from typing import Any

SENT: dict[str, dict[str, Any]] = {
    "changed": {
        "type": "object",
        "description": (
            "The tournament changed: read GET /api/tournaments/<id>/bracket/ again. When "
            "only a few matches of a drawn bracket changed, `slots` carries their markup as "
            "the bracket page draws them, by slot key (flight:round:position), in the site's "
            "language; `translated` carries them in each other language, by its code."
        ),
        "properties": {
            "type": {"const": "changed"},
            "slots": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "maxProperties": 64,
            },
            "translated": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": {"type": "string"},
                    "maxProperties": 64,
                },
            },
        },
        "required": ["type"],
        "additionalProperties": False,
    },
    "error": {
        "type": "object",
        "properties": {"type": {"const": "error"}, "message": {"type": "string"}},
        "required": ["type", "message"],
        "additionalProperties": False,
    },
}
