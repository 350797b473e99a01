"""System checks of the games app's settings (``manage.py check``; every management command,
``run_bots`` included, runs them first)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ImproperlyConfigured

RUNNERS = ("thread", "worker", "inline", "off")
IN_MEMORY_LAYER = "channels.layers.InMemoryChannelLayer"


@register()
def bot_runner_check(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """``GAMES_BOT_RUNNER`` is one of ``RUNNERS``; ``"worker"`` needs a channel layer that
    reaches another process (the in-memory one never leaves its own)."""
    runner = settings.GAMES_BOT_RUNNER
    if runner not in RUNNERS:
        return [
            Error(
                f"GAMES_BOT_RUNNER is {runner!r}, not one of {', '.join(RUNNERS)}.",
                id="games.E001",
            )
        ]
    layer = settings.CHANNEL_LAYERS.get("default", {})
    if runner == "worker" and layer.get("BACKEND") in (None, IN_MEMORY_LAYER):
        return [
            Error(
                'GAMES_BOT_RUNNER is "worker" but the channel layer is the in-memory one, '
                "so the bot worker (manage.py run_bots, another process) would never hear of "
                "a bot's turn.",
                hint='Set REDIS_URL (the Redis channel layer), or GAMES_BOT_RUNNER="thread".',
                id="games.E002",
            )
        ]
    return []


def bot_runner_refuse() -> None:
    """Raise ImproperlyConfigured if ``bot_runner_check`` finds a problem. ``spite/asgi.py``
    calls it: daphne and uvicorn run no system checks, and a server in worker mode on the
    in-memory layer would start and silently never play a bot's turn."""
    problems = bot_runner_check()
    if problems:
        raise ImproperlyConfigured(
            " ".join(f"{p.id}: {p.msg} {p.hint or ''}".strip() for p in problems)
        )
