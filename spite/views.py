"""Site-wide pages: home, rules and the health check."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "rules.html")


def _check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def _check_channel_layer() -> str:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.send)(channel, {"type": "healthz.ping"})
    message = async_to_sync(layer.receive)(channel)
    if message.get("type") != "healthz.ping":
        raise RuntimeError("the channel layer returned another message")
    return "ok"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database (and the Redis channel layer, when one is set) answers; else 503."""
    checks = {"database": _check_database}
    if settings.REDIS_URL:
        checks["channel_layer"] = _check_channel_layer
    results: dict[str, str] = {}
    for name, check in checks.items():
        try:
            results[name] = check()
        except Exception as exc:  # a health check reports every failure, whatever it is
            results[name] = f"error: {exc.__class__.__name__}"
    healthy = all(value == "ok" for value in results.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": results}, status=200 if healthy else 503
    )
