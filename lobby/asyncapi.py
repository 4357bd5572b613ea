"""The messages of /ws/me/ and /ws/lobby/, as JSON Schemas for the AsyncAPI document.

A notice's ``data`` has one shape per kind, the one ``lobby.subscribers`` gives it: the ids
and times a page needs to act on the notice without reading it again.
"""

from __future__ import annotations

from typing import Any

from accounts.models import Currency
from disputes.models import Decision
from lobby.models import NoticeKind
from matches.models import FinishReason

STOPPED = ("aborted", "voided", "cancelled")
"""How a match ends without a result (``matches.events.MatchStopped``)."""

Schema = dict[str, Any]

ID: Schema = {"type": "integer", "minimum": 1}
TIME: Schema = {"type": "string", "format": "date-time"}


def _closed(description: str, **properties: Schema) -> Schema:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


_ABOUT_A_MATCH = _closed("The match it is about.", match_id=ID)
_READY = _closed(
    "The match, ready: both players must come to the board by `show_up_by` (null: no time set).",
    match_id=ID,
    show_up_by={"anyOf": [TIME, {"type": "null"}]},
)
_ABOUT_A_TOURNAMENT = _closed("The tournament it is about.", tournament_id=ID)

NOTICE_DATA: dict[str, Schema] = {
    NoticeKind.CHALLENGE: _ABOUT_A_MATCH,
    NoticeKind.CHALLENGE_ACCEPTED: _READY,
    NoticeKind.CHALLENGE_DECLINED: _ABOUT_A_MATCH,
    NoticeKind.CHALLENGE_WITHDRAWN: _ABOUT_A_MATCH,
    NoticeKind.SEEK_TAKEN: _READY,
    NoticeKind.MATCH_READY: _closed(
        "A tournament's match, ready: both players must come by `show_up_by`.",
        **_READY["properties"],
        tournament_id=ID,
    ),
    NoticeKind.TURN: _ABOUT_A_MATCH,
    NoticeKind.TOURNAMENT_SOON: _closed(
        "A tournament the player entered starts at `starts_at`, in ten minutes or less.",
        tournament_id=ID,
        starts_at=TIME,
    ),
    NoticeKind.TOURNAMENT_STARTED: _ABOUT_A_TOURNAMENT,
    NoticeKind.TOURNAMENT_CANCELLED: _ABOUT_A_TOURNAMENT,
    NoticeKind.ELIMINATED: _ABOUT_A_TOURNAMENT,
    NoticeKind.WAITING: _ABOUT_A_TOURNAMENT,
    NoticeKind.PRIZE: _closed(
        "Where the player finished and what they won: cents of `currency`, and whether "
        "a seat in the tournament's target (a satellite's ticket).",
        tournament_id=ID,
        place={"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
        prize_cents={"type": "integer", "minimum": 0},
        currency={"type": "string", "enum": Currency.values},
        ticket={"type": "boolean"},
    ),
    NoticeKind.DISPUTE_DECIDED: _closed(
        "The dispute decided, the match it was about (or, for an appeal of a fair-play "
        "decision, the case), and the decision.",
        dispute_id=ID,
        match_id={"anyOf": [ID, {"type": "null"}]},
        fairplay_case_id={"anyOf": [ID, {"type": "null"}]},
        decision={"type": "string", "enum": Decision.values},
    ),
    NoticeKind.ANALYSIS: _closed(
        "The analysis ready, and the match it is of (null for an uploaded file).",
        analysis_id=ID,
        match_id={"anyOf": [ID, {"type": "null"}]},
    ),
    NoticeKind.SANCTION: _closed(
        "A fair-play decision about the player (the notice's text says what and why), the "
        "case it is in (the player can read it and appeal it at the notice's url), and the "
        "sanction: warn, mute, suspend, close, reverse, void_ratings, link, lift or uphold.",
        case_id=ID,
        sanction={"type": "string"},
    ),
    NoticeKind.MATCH_OVER: _closed(
        "How the player's match ended (`how`: a finish reason of the match, or aborted, "
        "voided or cancelled) and whether they won it (null: nobody did).",
        match_id=ID,
        how={"type": "string", "enum": [*FinishReason.values, *STOPPED]},
        won={"anyOf": [{"type": "boolean"}, {"type": "null"}]},
    ),
    NoticeKind.PRACTICE_VOIDED: _ABOUT_A_MATCH,
}
"""A notice's ``data``, by its ``kind``."""


def _notice_of(kind: NoticeKind) -> Schema:
    return {
        "type": "object",
        "title": kind.label,
        "properties": {
            "id": ID,
            "kind": {"const": kind.value},
            "text": {"type": "string"},
            "url": {"type": "string"},
            "data": NOTICE_DATA[kind],
            "created_at": TIME,
            "read": {"type": "boolean"},
        },
        "required": ["id", "kind", "text", "url", "data", "created_at", "read"],
        "additionalProperties": False,
    }


NOTICE: Schema = {
    "description": (
        "One thing the player is told, as GET /api/notifications/ lists it; `kind` says "
        "what, and `data` has that kind's shape."
    ),
    "oneOf": [_notice_of(kind) for kind in NoticeKind],
}
UNREAD: Schema = {"type": "integer", "minimum": 0, "description": "Notices not read yet."}
ERROR: Schema = {
    "type": "object",
    "properties": {"type": {"const": "error"}, "message": {"type": "string"}},
    "required": ["type", "message"],
    "additionalProperties": False,
}


def _frame(kind: str, description: str, **fields: Schema) -> Schema:
    return {
        "type": "object",
        "description": description,
        "properties": {"type": {"const": kind}, **fields},
        "required": ["type", *fields],
        "additionalProperties": False,
    }


ME_SENT: dict[str, Schema] = {
    "notice": _frame("notice", "A new notice, live.", notice=NOTICE, unread=UNREAD),
    "unread": _frame("unread", "Notices were read (in any of the player's tabs).", unread=UNREAD),
    "page": _frame(
        "page",
        "The answer to a page opening: the unread count after reading the notices that point "
        "to it, and the matches still waiting for the player to come to the board.",
        unread=UNREAD,
        waiting={"type": "array", "items": NOTICE},
    ),
    "analysis": _frame(
        "analysis",
        "An analysis the player follows (of their match, or a file they uploaded) was "
        "queued, moved on (done of total moves analysed), finished or failed: read "
        "GET /api/analyses/<id>/ for it.",
        analysis=_closed(
            "The analysis as it stands.",
            id={"type": "integer"},
            match={"type": ["integer", "null"]},
            status={"enum": ["queued", "running", "done", "failed"]},
            done={"type": "integer", "minimum": 0},
            total={"type": "integer", "minimum": 0},
        ),
    ),
    "error": ERROR,
}
ME_RECEIVED: dict[str, Schema] = {
    "page": _frame(
        "page",
        "Sent by each page as it opens: the notices pointing to it are read.",
        url={"type": "string", "maxLength": 200},
    ),
    "read": _frame(
        "read",
        "These notices are read (a card dismissed).",
        ids={"type": "array", "maxItems": 100, "items": {"type": "integer", "minimum": 1}},
    ),
}
_REFUSAL: Schema = {
    "type": "string",
    "description": (
        "What a viewer who fails the check is told; `{rating}` and `{balance}` stand for "
        "their own rating and balance in the seek's currency, as their page was served them."
    ),
}
_BOUND: Schema = {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]}
TAKE_RULE: Schema = {
    "description": (
        "One check of who may take the seek (`lobby.terms.take_rules`); the first a viewer "
        "fails gives the words they see."
    ),
    "oneOf": [
        _closed(
            "Not the seek's own creator.",
            rule={"const": "not_own"},
            creator=ID,
            refusal=_REFUSAL,
        ),
        _closed(
            "A rating from `low` to `high`, both included (null: no bound).",
            rule={"const": "rating"},
            low=_BOUND,
            high=_BOUND,
            refusal=_REFUSAL,
        ),
        _closed(
            "At least `cents` of `currency`: the seek's cover.",
            rule={"const": "balance"},
            currency={"type": "string", "enum": Currency.values},
            cents={"type": "integer", "minimum": 0},
            refusal=_REFUSAL,
        ),
    ],
}
LOBBY_SENT: dict[str, Schema] = {
    "seek": {
        "description": "A seek was posted, taken or cancelled.",
        "oneOf": [
            _frame(
                "seek",
                "A seek was posted; the frame is the same for every viewer. `row` is its "
                "line of the play lobby (HTML), whose actions are three <template> elements "
                '(data-case "own": Cancel, "take": Play, "refused": the words); a page shows '
                "it unless `creator` and its viewer blocked each other, and picks own when "
                "its viewer is `creator`, refused with the first failing rule's words when "
                "one of `rules` fails (or the viewer is not logged in), take otherwise. "
                "POST /api/seeks/<id>/accept/ checks them again. `row` and the rules' words "
                "are written in `language`, the site's default: a page in another language "
                "fetches its list instead.",
                event={"const": "posted"},
                seek=ID,
                language={"type": "string"},
                row={"type": "string"},
                creator=ID,
                rules={"type": "array", "items": TAKE_RULE},
            ),
            _frame(
                "seek",
                "A seek was taken or cancelled: it is no longer open.",
                event={"enum": ["taken", "cancelled"]},
                seek=ID,
            ),
        ],
    },
    "error": ERROR,
}
