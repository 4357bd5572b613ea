"""WebSocket URL routes, gathered from each app."""

from __future__ import annotations

from django.urls import path

from config.consumers import PingConsumer
from matches.routing import websocket_urlpatterns as match_routes

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    *match_routes,
]
