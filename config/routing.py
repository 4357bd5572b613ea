"""WebSocket URL routes, gathered from each app."""

from __future__ import annotations

from django.urls import path

from config.consumers import PingConsumer
from disputes.routing import websocket_urlpatterns as dispute_routes
from matches.routing import websocket_urlpatterns as match_routes
from tournaments.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    *match_routes,
    *tournament_routes,
    *dispute_routes,
]
