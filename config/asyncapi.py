"""GET /api/asyncapi.json: the WebSocket messages, as an AsyncAPI 3 document.

The REST API is described by OpenAPI at /api/schema/; the sockets by this document, built
from the message schemas each app keeps beside its consumer (``matches.asyncapi``,
``tournaments.asyncapi``, ``lobby.asyncapi``), so the description and the code live
together.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from config import consumers as ping_messages
from core.sockets import TOO_MANY
from lobby import asyncapi as lobby_messages
from lobby.consumers import NOT_LOGGED_IN
from matches import asyncapi as match_messages
from matches.consumers import NOT_FOUND as NO_MATCH
from tournaments import asyncapi as tournament_messages
from tournaments.consumers import NOT_FOUND as NO_TOURNAMENT

Schema = dict[str, Any]

# The codes a socket is closed with when it is refused, by channel (``x-close-codes``):
# it is opened first, so a browser can read them. The same code is a refusal everywhere.
VISITOR = {str(NOT_LOGGED_IN): "Not logged in: this socket is for a logged-in player."}
CROWDED = {
    str(TOO_MANY): "This address already holds as many anonymous sockets of this kind as"
    " it may; log in, or close one."
}
CLOSE_CODES: dict[str, dict[str, str]] = {
    "match": {
        str(NO_MATCH): "There is no such match, or it is private and not yours.",
        **CROWDED,
    },
    "tournament": {
        str(NO_TOURNAMENT): "There is no such tournament, or it is a draft of someone else's.",
        **CROWDED,
    },
    "me": VISITOR,
    "lobby": CROWDED,
    "ping": {str(ping_messages.NOT_LOGGED_IN): VISITOR[str(NOT_LOGGED_IN)]},
}


def _messages(prefix: str, schemas: dict[str, Schema]) -> dict[str, Schema]:
    return {
        f"{prefix}_{name}": {"name": name, "contentType": "application/json", "payload": schema}
        for name, schema in schemas.items()
    }


def _channel(channel: str, address: str, description: str, messages: dict[str, Schema]) -> Schema:
    codes = CLOSE_CODES[channel]
    refused = " ".join(f"{code}: {meaning}" for code, meaning in codes.items())
    return {
        "address": address,
        "description": f"{description} Refused (opened, then closed) with {refused}",
        "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in messages},
        "x-close-codes": codes,
    }


def _operation(action: str, channel: str, messages: dict[str, Schema]) -> Schema:
    return {
        "action": action,
        "channel": {"$ref": f"#/channels/{channel}"},
        "messages": [{"$ref": f"#/channels/{channel}/messages/{name}"} for name in messages],
    }


def document() -> Schema:
    """The AsyncAPI document of every socket."""
    match_out = _messages("match", match_messages.SENT)
    match_in = _messages("match_in", match_messages.RECEIVED)
    tournament_out = _messages("tournament", tournament_messages.SENT)
    me_out = _messages("me", lobby_messages.ME_SENT)
    me_in = _messages("me_in", lobby_messages.ME_RECEIVED)
    lobby_out = _messages("lobby", lobby_messages.LOBBY_SENT)
    ping_out = _messages("ping", ping_messages.SENT)
    ping_in = _messages("ping_in", ping_messages.RECEIVED)
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Crawford live updates",
            "version": "1",
            "description": (
                "WebSockets on the same host as the site, authenticated by the session "
                "cookie; the Origin must be this site. Every frame is a JSON object with a "
                "`type`; a frame the server cannot use is answered with an `error` frame."
            ),
        },
        "channels": {
            "match": _channel(
                "match",
                "/ws/matches/{match_id}/",
                "A match: snapshots out after every change, actions and chat in.",
                {**match_out, **match_in},
            ),
            "tournament": _channel(
                "tournament",
                "/ws/tournaments/{tournament_id}/",
                "A tournament: told when it changes.",
                tournament_out,
            ),
            "me": _channel(
                "me",
                "/ws/me/",
                "The logged-in player's notices (one socket per tab).",
                {**me_out, **me_in},
            ),
            "lobby": _channel(
                "lobby", "/ws/lobby/", "The play lobby: told when seeks change.", lobby_out
            ),
            "ping": _channel(
                "ping",
                "/ws/ping/",
                "An echo through the channel layer, to check the live path.",
                {**ping_out, **ping_in},
            ),
        },
        "operations": {
            "matchUpdates": _operation("receive", "match", match_out),
            "matchActions": _operation("send", "match", match_in),
            "tournamentUpdates": _operation("receive", "tournament", tournament_out),
            "noticeUpdates": _operation("receive", "me", me_out),
            "noticeRequests": _operation("send", "me", me_in),
            "seekUpdates": _operation("receive", "lobby", lobby_out),
            "pingEchoes": _operation("receive", "ping", ping_out),
            "pingMessages": _operation("send", "ping", ping_in),
        },
        "components": {
            "messages": {
                **match_out,
                **match_in,
                **tournament_out,
                **me_out,
                **me_in,
                **lobby_out,
                **ping_out,
                **ping_in,
            }
        },
    }


@require_GET
def asyncapi(request: HttpRequest) -> JsonResponse:
    return JsonResponse(document())
