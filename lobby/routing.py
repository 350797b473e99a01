"""WebSocket routes of the lobby: one socket per logged-in page, ``/ws/me/``."""

from django.urls import URLPattern, path

from lobby.consumers import NotificationConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/me/", NotificationConsumer.as_asgi(), name="me"),
]
