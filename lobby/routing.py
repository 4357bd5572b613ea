from django.urls import path

from lobby.consumers import LobbyConsumer, MeConsumer

websocket_urlpatterns = [
    path("ws/me/", MeConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
