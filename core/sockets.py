"""WebSocket plumbing every consumer shares: frames a client cannot break, origins checked.

``JsonSocket`` is the base of every consumer. Whatever a client sends (text that is not
JSON, a frame too big or nested too deep, bytes, a value of the wrong type, or something
that makes a handler fail), the answer is an error frame ``{"type": "error", "message"}``
and the socket stays open: nothing a client sends closes it with 1011. Handlers raise
``FrameError`` for input they refuse.

A consumer joins its groups with ``join_group`` and leaves them however the socket ends.
(On the Redis pub/sub layer a group's members are the subscriptions of live servers, so a
server that dies leaves no member behind either.)

An address may hold at most ``ANONYMOUS_PER_ADDRESS`` anonymous sockets of one kind on
one server process (``accept_if_room``): a reconnecting crowd cannot fill a server.

A socket of a logged-in player lives only as long as the log-in session it opened with.
It joins the player's ``session_group``, which also carries news about the player a socket
may show (``player_news``: their mutes and blocks changed). When their sessions change (a
password change, "log out everywhere", a suspension, a closed account, a log-out),
``sessions_changed`` tells every such socket to check its own session, and one whose
session has ended closes with 4401 at once. Every message a client sends is checked the
same way before it is handled (``CRAWFORD_SOCKET_SESSION_CHECK`` names the check, so this
plumbing imports no app): on a database thread of its own, or, for the messages a
consumer says it checks itself (``checks_own_session``: a match's actions), within the
message's own database work (``session_checked``), so an action costs one trip to a
database thread, not two.

When the database or Redis is away, a message is answered with an error frame saying so
(status 503), and a socket that cannot be set up closes with 1013 ("try again later"),
so the page reconnects when they are back (``core.outages``).

A socket speaks the language of the page that opened it: the language cookie the switcher
sets, else the browser's ``Accept-Language``, as ``LocaleMiddleware`` chooses a page's
(``language_of``). It is active for the socket's whole life, so a refusal raised while
handling a frame (``DomainError`` messages are written with ``gettext``) reads in it.

``SameOriginValidator`` accepts a browser's socket only from a page of this site: the
``Origin`` header's scheme, host and port must be the request's own (``ws`` goes with
``http``, ``wss`` with ``https``), on a host of ``ALLOWED_HOSTS``, or one of
``CSRF_TRUSTED_ORIGINS``. Programs that send no ``Origin`` are let through, as for HTTP.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

import orjson
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.db import transaction
from django.http import parse_cookie
from django.http.request import validate_host
from django.utils import translation
from django.utils.module_loading import import_string
from django.utils.translation.trans_real import parse_accept_lang_header

from core import live
from core.metrics import OPEN_SOCKETS
from core.outages import message as outage_message
from core.outages import noticed, outage_of

logger = logging.getLogger(__name__)
Result = TypeVar("Result")

MAX_FRAME_CHARS = 16_384
MAX_DEPTH = 16
SHOWN_CHARS = 40
ANONYMOUS_PER_ADDRESS = 16
TOO_MANY = 4429
SESSION_ENDED = 4401
TRY_AGAIN_LATER = 1013


def session_group(user_id: int) -> str:
    """The group of every open socket of one logged-in player."""
    return f"sessions.{user_id}"


def sessions_changed(user_id: int) -> None:
    """Tell every open socket of the player, once the current transaction commits, to
    check its session now (``JsonSocket.sessions_check``)."""
    transaction.on_commit(
        lambda: live.group_send(session_group(user_id), {"type": "sessions.check"})
    )


def player_news(user_id: int, what: str) -> None:
    """Tell every open socket of the player, once the current transaction commits, that
    ``what`` changed about them (their mutes and blocks, say); a consumer that shows it
    reads it again in ``player_changed``."""
    transaction.on_commit(
        lambda: live.group_send(session_group(user_id), {"type": "player.changed", "what": what})
    )


def _session_check(*, session_key: str, user_id: int) -> bool:
    check = import_string(settings.CRAWFORD_SOCKET_SESSION_CHECK)
    return bool(check(session_key=session_key, user_id=user_id))


class Members:
    """This server process's open sockets: the groups each belongs to, and how many
    anonymous sockets of each kind every address holds."""

    def __init__(self) -> None:
        self.groups: dict[str, set[str]] = {}
        self.anonymous: Counter[tuple[str, str]] = Counter()

    def joined(self, channel: str, group: str) -> None:
        self.groups.setdefault(channel, set()).add(group)

    def left(self, channel: str) -> set[str]:
        return self.groups.pop(channel, set())


_members: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Members] = (
    weakref.WeakKeyDictionary()
)


def members() -> Members:
    """The open sockets of the running event loop (one per server process)."""
    return _members.setdefault(asyncio.get_running_loop(), Members())


class FrameError(Exception):
    """A frame the client sent that the server refuses; the message says why."""


class SessionEnded(Exception):
    """The log-in session the socket opened with has ended: nothing of the message is done."""


def language_of(scope: dict[str, Any]) -> str:
    """The language of the page that opened this socket: its language cookie, else the
    first of the browser's languages the site speaks, else the site's default."""
    headers = {
        name.decode("latin-1").lower(): value.decode("latin-1")
        for name, value in scope.get("headers", [])
    }
    chosen = parse_cookie(headers.get("cookie", "")).get(settings.LANGUAGE_COOKIE_NAME)
    asked = [chosen] if chosen else []
    asked += [code for code, _ in parse_accept_lang_header(headers.get("accept-language", ""))]
    for code in asked:
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)


class JsonSocket(AsyncJsonWebsocketConsumer):
    """A JSON WebSocket consumer that answers every bad frame with an error frame.

    Its ``disconnect`` runs once for every socket that was accepted (or said it ``holds``
    something, such as a presence row, before that) however the socket ends: also when a
    send finds the client gone, or the server stops while a handler runs. Channels would
    skip it then, leaving the socket's rows to the sweep.
    """

    holds = False
    _disconnected = False
    _counted: tuple[str, str] | None = None
    # The log-in session this socket opened with, for a logged-in player.
    _session: tuple[str, int] | None = None
    _counted_open = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        # This connection's task alone: the language lives in its context.
        translation.activate(language_of(scope))
        try:
            await super().__call__(scope, receive, send)
        except Exception as error:
            part = outage_of(error)
            if part is None:
                raise
            noticed(part)
            logger.warning("a socket closed: %s is away (%s)", part, error.__class__.__name__)
            if not self._disconnected:
                await self._close_quietly(TRY_AGAIN_LATER)
        finally:
            if self.holds and not self._disconnected:
                self._disconnected = True
                await self.disconnect(1006)
            await self._forget()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Hand ``message`` to its handler, without Channels' clean-up of the database
        connection before every message.

        That clean-up runs on the process's one synchronous thread, so every frame and
        every group message of every socket queued behind the others there, although no
        handler touches the database on that thread: database work goes through
        ``core.live.run`` or ``database_sync_to_async``, whose threads close stale
        connections before and after each call.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def join_group(self, group: str) -> None:
        """Join ``group`` for as long as this socket is open (see the module docstring)."""
        await self.channel_layer.group_add(group, self.channel_name)
        members().joined(self.channel_name, group)

    async def accept_if_room(self) -> bool:
        """Accept the socket, unless its anonymous address holds too many of this kind
        already (closed with 4429)."""
        user = self.scope.get("user")
        client = self.scope.get("client")
        if (user is None or not user.is_authenticated) and client:
            key = (type(self).__name__, str(client[0]))
            if members().anonymous[key] >= ANONYMOUS_PER_ADDRESS:
                await self.refuse(TOO_MANY)
                return False
            members().anonymous[key] += 1
            self._counted = key
        await self.accept()
        return True

    async def refuse(self, code: int) -> None:
        """Open the socket, then close it with ``code`` (4401, 4404, 4429: the AsyncAPI
        document's): a browser reads a close code only once the handshake is done, and a
        socket refused during it shows as 1006 with nothing to say why. It holds nothing,
        so nothing is undone when it goes."""
        await super().accept()
        await self.close(code=code)

    async def _forget(self) -> None:
        if self._counted_open:
            OPEN_SOCKETS.labels(self.metrics_kind()).dec()
            self._counted_open = False
        channel = getattr(self, "channel_name", None)
        here = members()
        if self._counted is not None:
            here.anonymous[self._counted] -= 1
            if here.anonymous[self._counted] <= 0:
                del here.anonymous[self._counted]
            self._counted = None
        for group in here.left(channel) if channel else ():
            try:
                await self.channel_layer.group_discard(group, channel)
            except Exception:  # the layer is down: the member goes with the connection
                logger.exception("socket %s could not leave %s", channel, group)

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        self.holds = True
        user = self.scope.get("user")
        session = self.scope.get("session")
        logged_in = user is not None and user.is_authenticated
        if logged_in and session is not None and session.session_key:
            self._session = (session.session_key, user.pk)
            await self.join_group(session_group(user.pk))
        await super().accept(subprotocol, headers)
        OPEN_SOCKETS.labels(self.metrics_kind()).inc()
        self._counted_open = True

    @classmethod
    def metrics_kind(cls) -> str:
        """The socket's kind in ``crawford_open_sockets``: ``MatchConsumer`` is "match"."""
        return cls.__name__.removesuffix("Consumer").lower()

    async def sessions_check(self, event: dict[str, Any]) -> None:
        """The player's sessions changed: close now if this socket's has ended."""
        if not await self._session_live():
            await self.close(code=SESSION_ENDED)

    async def player_changed(self, event: dict[str, Any]) -> None:
        """Something about the player changed (``player_news``): a socket that shows it
        overrides this; the others have nothing to read again."""

    async def _session_live(self) -> bool:
        if self._session is None:
            return True
        session_key, user_id = self._session
        return await live.run(_session_check, session_key=session_key, user_id=user_id)

    async def require_session(self) -> None:
        """Raise ``SessionEnded`` when the socket's session has ended (a message this
        consumer ``checks_own_session`` of, refused before any database work)."""
        if not await self._session_live():
            raise SessionEnded

    def checks_own_session(self, content: Any) -> bool:
        """Whether the handler of ``content`` checks the session itself, within its own
        database work (``session_checked``) or with ``require_session``."""
        return False

    def session_checked(self, work: Callable[..., Result]) -> Callable[..., Result]:
        """``work`` for ``core.live.run``, checking the socket's session first, on the
        same database thread: ``SessionEnded`` when it has ended, and ``work`` is not run."""
        if self._session is None:
            return work
        session_key, user_id = self._session

        def checked(**kwargs: Any) -> Result:
            if not _session_check(session_key=session_key, user_id=user_id):
                raise SessionEnded
            return work(**kwargs)

        return checked

    async def _session_ended(self) -> None:
        await self.send_error("Your session has ended: log in again.", status=401)
        await self.close(code=SESSION_ENDED)

    async def _close_quietly(self, code: int) -> None:
        try:
            await self.close(code=code)
        except Exception:  # the client went first
            logger.debug("the socket was gone before it could be closed", exc_info=True)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        self._disconnected = True
        await super().websocket_disconnect(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        decoded = False
        try:
            content = self._decoded(text_data, bytes_data)
            decoded = True
            if not self.checks_own_session(content):
                await self.require_session()
            await self.receive_json(content)
        except SessionEnded:
            await self._session_ended()
        except FrameError as refusal:
            if not decoded and not await self._session_live():  # told that, not why
                await self._session_ended()
                return
            await self.send_error(str(refusal))
        except Exception as error:
            part = outage_of(error)
            if part is not None:
                noticed(part)
                await self.send_error(outage_message(part), status=503)
                return
            logger.exception("a socket frame could not be handled")
            await self.send_error("Something went wrong with that message; nothing was done")

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()

    async def send_error(self, message: str, **fields: Any) -> None:
        await self.send_json({"type": "error", "message": message, **fields})

    def _decoded(self, text_data: str | None, bytes_data: bytes | None) -> Any:
        if text_data is None:
            raise FrameError("Send JSON text frames")
        if len(text_data) > MAX_FRAME_CHARS:
            raise FrameError(f"A message is at most {MAX_FRAME_CHARS:,} characters")
        try:
            content = orjson.loads(text_data)
        except orjson.JSONDecodeError as error:
            if "recursion" in str(error).lower():
                raise FrameError("That JSON is nested too deep") from None
            raise FrameError(f"Send JSON: {shorten(text_data)!r} is not") from None
        if nesting(content) > MAX_DEPTH:
            raise FrameError("That JSON is nested too deep")
        return content


def nesting(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (0 for a plain value)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        else:
            deepest = max(deepest, depth)
            continue
        deepest = max(deepest, depth + 1)
    return deepest


def shorten(text: str) -> str:
    """Echo at most ``SHOWN_CHARS`` of what a client sent."""
    return text if len(text) <= SHOWN_CHARS else f"{text[:SHOWN_CHARS]}…"


def whole_number(value: Any, name: str, *, low: int = 0, high: int = 2**31 - 1) -> int:
    """``value`` as an integer in ``low..high``, or ``FrameError`` naming the field."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FrameError(f'"{name}" must be a whole number from {low} to {high:,}')
    return int(value)


def text(value: Any, name: str, *, limit: int, required: bool = True) -> str | None:
    """``value`` as a string of at most ``limit`` characters, without NUL characters."""
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise FrameError(f'"{name}" must be text')
    if len(value) > limit:
        raise FrameError(f'"{name}" is at most {limit} characters')
    return value.replace("\x00", "")


class SameOriginValidator:
    """ASGI middleware: refuse a WebSocket whose Origin is not this site."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not allowed_origin(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)


def allowed_origin(scope: dict[str, Any]) -> bool:
    """Whether the socket's Origin (if any) is this site, or a trusted origin."""
    headers = dict(scope.get("headers") or [])
    origin = headers.get(b"origin")
    if origin is None:
        return True
    key = _origin_key(origin.decode("latin1"))
    if key is None:
        return False
    trusted = {_origin_key(url) for url in settings.CSRF_TRUSTED_ORIGINS}
    host = headers.get(b"host", b"").decode("latin1")
    if not host:  # no Host header (an in-process client): the origin's host must be ours
        return key in trusted or validate_host(key[1], _allowed_hosts())
    own = _origin_key(f"{_page_scheme(scope, headers)}://{host}")
    if own is None or not validate_host(own[1], _allowed_hosts()):
        return False
    return key == own or key in trusted


def _allowed_hosts() -> list[str]:
    if settings.DEBUG and not settings.ALLOWED_HOSTS:
        return [".localhost", "127.0.0.1", "[::1]"]
    return list(settings.ALLOWED_HOSTS)


def _page_scheme(scope: dict[str, Any], headers: dict[bytes, bytes]) -> str:
    """The scheme of the page that opened the socket: https for wss, or behind a proxy that
    ends TLS and says so in the header ``SECURE_PROXY_SSL_HEADER`` names."""
    if scope.get("scheme") in ("wss", "https"):
        return "https"
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        name = proxy[0].removeprefix("HTTP_").replace("_", "-").lower().encode("latin1")
        if headers.get(name, b"").decode("latin1") == proxy[1]:
            return "https"
    return "http"


def _origin_key(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, the port filled in; None when unreadable."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port
