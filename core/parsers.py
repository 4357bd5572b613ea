"""Request bodies within bounds: too big, too deep or unreadable JSON is a 400, not a 500.

A module of its own because DRF imports its parser classes while it is still starting up.
"""

from __future__ import annotations

import json
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from core.sockets import nesting, shorten

MAX_BODY_BYTES = 256 * 1024
MAX_DEPTH = 32


class BoundedJsonParser(JSONParser):
    """JSON request bodies within bounds: too big, too deep or unreadable is a 400."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        raw = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_BODY_BYTES:
            raise ParseError(f"A request body is at most {MAX_BODY_BYTES // 1024} KB of JSON.")
        try:
            data = json.loads(raw.decode("utf-8")) if raw else {}
        except RecursionError:
            raise ParseError("That JSON is nested too deep.") from None
        except (ValueError, UnicodeDecodeError) as error:
            raise ParseError(f"The body is not JSON: {shorten(str(error))}") from None
        if nesting(data) > MAX_DEPTH:
            raise ParseError("That JSON is nested too deep.")
        return data
