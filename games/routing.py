"""WebSocket routes of the games app (the live-table issue adds the game consumer)."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
