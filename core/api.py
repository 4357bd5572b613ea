"""API plumbing shared by every app: errors become JSON with a message, and request
fields are read and documented as strictly as the schema promises."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils import html
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from core import outages
from core.errors import DomainError
from core.outages import noticed, outage_of
from core.sockets import shorten

# Messages that repeat what the client sent ('"GOLD" is not a valid choice.') are cut to
# this many characters, so a megabyte sent is not a megabyte echoed.
MESSAGE_LIMIT = 200


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Turn a domain error into HTTP 400 with its message, and a database or Redis outage
    into 503 with ``Retry-After`` (``core.outages``); leave the rest to DRF.

    DRF's own errors keep their shape but always carry a top-level "detail" so a
    client can show one sentence. Every message is cut to ``MESSAGE_LIMIT`` characters.
    """
    if isinstance(exc, DomainError):
        return Response({"detail": _cut(str(exc))}, status=exc.status_code)
    part = outage_of(exc)
    if part is not None:
        noticed(part)
        return Response(
            {"detail": outages.message(part), "unavailable": part},
            status=503,
            headers={"Retry-After": str(outages.RETRY_AFTER_SECONDS)},
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = _cut(response.data)
    if isinstance(data, list) or (isinstance(data, dict) and "detail" not in data):
        data = {"detail": _first_message(data), "errors": data}
    response.data = data
    return response


def _cut(data: Any) -> Any:
    if isinstance(data, dict):
        return {key: _cut(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_cut(item) for item in data]
    if isinstance(data, str) and len(data) > MESSAGE_LIMIT:
        return ErrorDetail(data[: MESSAGE_LIMIT - 1] + "…", getattr(data, "code", None))
    return data


def _first_message(data: Any) -> str:
    if isinstance(data, dict):
        for field, value in data.items():
            message = _first_message(value)
            return message if field == "non_field_errors" else f"{field}: {message}"
        return "Invalid request."
    if isinstance(data, list) and data:
        return _first_message(data[0])
    return str(data)


class Api(APIView):
    """The base of every API view: query parameters are checked before anything else.

    A view that reads query parameters names them in ``query_serializer`` (documented in
    the schema through ``extend_schema(parameters=[...])``); a parameter it does not know,
    or one given twice, is a 400 naming it. ``self.query`` holds the validated values.
    """

    query_serializer: type[serializers.Serializer[Any]] | None = None
    query: dict[str, Any]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.query = checked_query(request, self.query_serializer)


def checked_query(
    request: Request, serializer_class: type[serializers.Serializer[Any]] | None
) -> dict[str, Any]:
    known = set(serializer_class().fields) if serializer_class is not None else set()
    params = request.query_params
    unknown = sorted(name for name in params if name not in known)
    if unknown:
        allowed = ", ".join(sorted(known)) or "none"
        raise ValidationError(
            {"query": f"Unknown query parameter {shorten(unknown[0])!r}; allowed: {allowed}."}
        )
    repeated = sorted(name for name in params if len(params.getlist(name)) > 1)
    if repeated:
        raise ValidationError({"query": f"Give {repeated[0]!r} once."})
    if serializer_class is None:
        return {}
    values = serializer_class(data={name: params[name] for name in params})
    values.is_valid(raise_exception=True)
    return dict(values.validated_data)


class JsonBooleanField(serializers.BooleanField):
    """A request body's true or false, as the schema says: DRF alone would also read 1,
    "yes" or "on" as true. A form (parsed still, though the schema promises only JSON)
    can only send words, so it keeps DRF's reading."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool) and not html.is_html_input(
            getattr(self.root, "initial_data", None)
        ):
            self.fail("invalid", input=data)
        return bool(super().to_internal_value(data))


class JsonCharField(serializers.CharField):
    """A request body's text, as the schema says: DRF alone would also take a number and
    turn it into text (5 into "5"). A form sends only text, so it is read as before."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


# What DRF refuses in any text of a request besides its length, as patterns: a NUL
# (PostgreSQL cannot store one), and, in text that must not be blank, nothing but the
# whitespace it trims away first. That is what Python's ``str.strip`` removes, listed
# character by character: a pattern's ``\s`` is read differently by other regex engines
# (JavaScript's leaves out U+001C-U+001F and U+0085, which Python strips).
_STRIPPED = (
    r"\t\n\u000b\f\r \u001c-\u001f\u0085\u00a0\u1680\u2000-\u200a"
    r"\u2028\u2029\u202f\u205f\u3000"
)
NO_NUL = r"^[^\u0000]*$"
NOT_BLANK = rf"^[^\u0000]*[^\u0000{_STRIPPED}][^\u0000]*$"


# drf-spectacular's extension base is untyped.
class TextRequestField(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    """drf-spectacular: a text field of a request body carries ``NO_NUL`` or ``NOT_BLANK``
    as its pattern, so a request the schema allows is one DRF takes."""

    target_class = serializers.CharField

    def map_serializer_field(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer_field(
            self.target, direction, bypass_extensions=True
        )
        if direction != "request":
            return schema
        field = self.target
        blank_refused = not field.allow_blank and field.trim_whitespace
        return {**schema, "pattern": NOT_BLANK if blank_refused else NO_NUL}


class JsonTextRequestField(TextRequestField):  # type: ignore[no-untyped-call]
    """The same patterns for ``JsonCharField``, which the schema already gives as a string."""

    target_class = JsonCharField


ERROR_STATUSES = {
    "400": "The request is malformed or the rules refuse it; `detail` says why.",
    "401": "No valid credentials (log in, or send `Authorization: Token <token>`).",
    "403": "You may not do this.",
    "404": "There is no such object, or you may not see it.",
    "409": "Not now: out of turn, already done, or the state moved on.",
    "429": "Too many requests: wait the seconds `Retry-After` says.",
    "503": (
        "The database or Redis is away for a moment; nothing was done. `unavailable` names"
        " which; try again after the seconds `Retry-After` says."
    ),
}
ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "detail": {"type": "string", "description": "One sentence for a person."},
        "errors": {
            "type": "object",
            "additionalProperties": True,
            "description": "Field by field, when the body was invalid.",
        },
        "unavailable": {
            "type": "string",
            "enum": ["database", "redis"],
            "description": "With 503: the service that is away.",
        },
    },
    "required": ["detail"],
}


RULE_REFUSALS = "x-rule-refusals"


def refused_by_the_rules(*examples: str) -> dict[str, list[str]]:
    """``extend_schema(extensions=...)`` of an operation whose rules refuse, with a 400, some
    requests its schema allows (a balance too small, a player who does not exist, one field
    that needs another): a ``detail`` each refusal answers, word for word or with example
    names and amounts. ``document_errors`` puts them in the operation's 400."""
    return {RULE_REFUSALS: list(examples)}


def document_errors(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular hook: every operation lists every error it may answer, with the body;
    a 400 the rules give beside the schema's is described with examples of its ``detail``."""
    components = result.setdefault("components", {})
    components.setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    reference = {"$ref": "#/components/schemas/Error"}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            refusals = operation.get(RULE_REFUSALS, [])
            for status, description in ERROR_STATUSES.items():
                # An operation may name its own answer ("Illegal"): it gets the body too.
                answer = responses.setdefault(status, {"description": description})
                answer.setdefault("content", {"application/json": {"schema": reference}})
                if status == "400" and refusals:
                    answer["description"] += (
                        " Besides requests the schema forbids, the rules refuse some it"
                        " allows, saying why in `detail`, as in: "
                        + " ".join(f"“{refusal}”" for refusal in refusals)
                    )
                    answer["content"]["application/json"]["examples"] = {
                        f"rule_{number}": {"value": {"detail": refusal}}
                        for number, refusal in enumerate(refusals, 1)
                    }
                if status in ("429", "503"):
                    answer.setdefault(
                        "headers",
                        {
                            "Retry-After": {
                                "schema": {"type": "integer"},
                                "description": "Seconds to wait before trying again.",
                            }
                        },
                    )
    return result


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: JSON with a ``detail`` under ``/api/`` (as the schema says), the page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "There is no such address in the API."}, status=404)
    return page_not_found(request, exception or Http404())
