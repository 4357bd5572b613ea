from django.urls import path

from matches.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/matches/<id:match_id>/", MatchConsumer.as_asgi()),
]
