"""The floors' routes: present only when ``settings.BENCH_FLOORS`` is on (spite/asgi.py)."""

from django.conf import settings
from django.urls import path

from benchfloor.consumers import CommitConsumer, EchoConsumer


def websocket_urlpatterns() -> list:
    if not settings.BENCH_FLOORS:
        return []
    return [
        path("ws/bench/echo/", EchoConsumer.as_asgi()),
        path("ws/bench/commit/", CommitConsumer.as_asgi()),
    ]
