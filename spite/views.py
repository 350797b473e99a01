"""Site-wide pages: home, rules, privacy and the health check."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.selectors import user_has_played, user_is_guest
from core import jobs
from core.i18n import duration_text
from core.layer import bounded
from games.models import BotLevel
from games.presets import QUICK
from games.refusals import KNOB_LABELS
from games.selectors import matches_in_progress
from lobby.selectors import challenge_data, challenges_pending


def home(request: HttpRequest) -> HttpResponse:
    """Playing first: a quick game against a bot in one click, a way to a person, and for a
    signed-in player (or a guest) their games in progress and the challenges waiting."""
    user = request.user
    signed_in = user.is_authenticated and not user_is_guest(user)
    context = {
        "quick": QUICK,
        "bots": BotLevel.choices,
        "matches_in_progress": matches_in_progress(user=user),
        "challenges": [
            {**challenge_data(c, viewer_id=user.pk), "expires": c.expires_at}
            for c in challenges_pending(user=user)  # type: ignore[arg-type]
            if c.challenged_id == user.pk
        ]
        if signed_in
        else [],
        "returning": signed_in and user_has_played(user=user),  # type: ignore[arg-type]
    }
    return render(request, "home.html", context)


def rules(request: HttpRequest) -> HttpResponse:
    """The rules; the Variants table names each knob as the rules form does."""
    return render(request, "rules.html", {"knob_labels": KNOB_LABELS})


def privacy(request: HttpRequest) -> HttpResponse:
    """What the site stores, who sees it, for how long, and what deleting an account does;
    the durations are the settings' own."""
    language_cookie_age = settings.LANGUAGE_COOKIE_AGE
    context = {
        "session_age": duration_text(settings.SESSION_COOKIE_AGE),
        "csrf_age": duration_text(settings.CSRF_COOKIE_AGE),
        "language_age": duration_text(language_cookie_age) if language_cookie_age else "",
        "failures": settings.AXES_FAILURE_LIMIT,
        "cooloff": duration_text(float(settings.AXES_COOLOFF_TIME) * 3600),
        "guest_ttl": duration_text(settings.ACCOUNTS_GUEST_TTL),
        "guest_window": duration_text(settings.GAMES_GUEST_LIMIT_WINDOW),
    }
    return render(request, "privacy.html", context)


def _check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def _check_channel_layer() -> str:
    """A message sent to a new channel and received back, within ``CHANNEL_LAYER_TIMEOUT``
    (a silent Redis fails the check instead of holding it)."""
    return async_to_sync(_layer_round_trip)()


async def _layer_round_trip() -> str:
    layer = get_channel_layer()

    async def round_trip() -> dict:
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "healthz.ping"})
        return await layer.receive(channel)

    message = await bounded(round_trip())
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
    body: dict[str, object] = {"status": "ok" if healthy else "error", "checks": results}
    # The job queues, for whoever watches the workers: an "overdue" job is one no worker took.
    # The web process is healthy all the same.
    try:
        body["jobs"] = jobs.queue_status()
    except Exception as exc:  # the database away, or not migrated yet
        body["jobs"] = f"error: {exc.__class__.__name__}"
    return JsonResponse(body, status=200 if healthy else 503)
