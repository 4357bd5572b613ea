"""WebSocket URL routes, gathered from each app."""

from __future__ import annotations

from django.urls import path

from config import converters  # noqa: F401 - registers <id:...> before the apps' routes
from config.consumers import PingConsumer
from lobby.routing import websocket_urlpatterns as lobby_routes
from matches.routing import websocket_urlpatterns as match_routes
from tournaments.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    *match_routes,
    *tournament_routes,
    *lobby_routes,
]
