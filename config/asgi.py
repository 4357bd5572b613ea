"""ASGI entry point: Django for HTTP, Channels consumers for WebSocket, and on the embedded
set-up the periodic sweeps (``config.embedded``)."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402 - needs Django set up first
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.embedded import EmbeddedBeat  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.sockets import SameOriginValidator  # noqa: E402

application = EmbeddedBeat(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    )
)
