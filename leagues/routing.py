"""WebSocket routes of the leagues app: one ranked-queue socket per waiting page."""

from django.urls import URLPattern, path

from leagues.consumers import QueueConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/leagues/<slug:slug>/queue/", QueueConsumer.as_asgi(), name="league_queue"),
]
