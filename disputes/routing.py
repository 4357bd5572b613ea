from django.urls import path

from disputes.consumers import DisputeConsumer

websocket_urlpatterns = [
    path("ws/disputes/", DisputeConsumer.as_asgi()),
]
