"""ASGI entry point: Django for HTTP, Channels consumers for WebSocket, and on the embedded
set-up the periodic sweeps (``config.embedded``)."""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application
from django.core.exceptions import ImproperlyConfigured

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from django.conf import settings  # noqa: E402 - after set-up, as the application needs

if settings.DATABASES["default"]["CONN_MAX_AGE"]:
    # Under ASGI each request runs on a thread of its own; a connection kept past the
    # request stays with its finished thread and is never used or closed again: one web
    # process was seen holding 99 of them. The pool (DB_POOL_SIZE) keeps connections instead.
    raise ImproperlyConfigured(
        "DB_CONN_MAX_AGE leaks database connections under the ASGI server: set it to 0 and"
        " DB_POOL_SIZE to the connections each web process may hold"
    )

from channels.auth import AuthMiddlewareStack  # noqa: E402 - needs Django set up first
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.embedded import EmbeddedBeat  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from core.sockets import SameOriginValidator  # noqa: E402

application = EmbeddedBeat(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    )
)

# The collector's youngest generation is collected after 50,000 new objects rather than
# Python's 700, and what start-up made (Django, the URL and model registries) is set aside
# for good. With two thousand sockets open, frequent collections that walk the live objects
# showed in the latency tail: on bench/bench_live_matches.py at 1,000 matches and 200
# actions a second, p99 180-184 ms and 82-84% of a core with these settings, 436 ms and
# 93% without (bench/README.md).
gc.freeze()
gc.set_threshold(50_000, 50, 1000)
