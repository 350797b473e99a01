"""ASGI entry point: Django for HTTP, Channels consumers for WebSockets, and the bot worker's
channel (``manage.py run_bots``, ``GAMES_BOT_RUNNER = "worker"``; docs/games.md)."""

import asyncio
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spite.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs Django set up first)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from api.ws import TokenAuthMiddleware  # noqa: E402
from benchfloor.routing import websocket_urlpatterns as bench_floors  # noqa: E402
from core import layer  # noqa: E402
from core.outages import SocketOutageMiddleware  # noqa: E402
from games import sweeper  # noqa: E402
from games.bot_runner import turns as bots  # noqa: E402
from games.bot_runner.checks import bot_runner_refuse  # noqa: E402
from games.bot_runner.worker import BotTurnConsumer  # noqa: E402
from spite.routing import websocket_urlpatterns  # noqa: E402

bot_runner_refuse()  # servers run no system checks: refuse to start a runner that cannot play

# The bench floors are routed only when settings.BENCH_FLOORS is on (docs/performance.md).
routes = [*websocket_urlpatterns, *bench_floors()]


class _AttachBotRunner:
    """Hands the server's event loop to the bot runner and to ``core.layer`` on every
    connection (cheap, idempotent), so bot turns run as tasks on it and sync code's sends are
    handed to it without waiting."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        loop = asyncio.get_running_loop()
        bots.attach_loop(loop)
        layer.attach_loop(loop)
        return await self.app(scope, receive, send)


application = _AttachBotRunner(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                # The database away at the handshake: answered, told to retry (4503).
                SocketOutageMiddleware(
                    # Session first; an API token (?token= or Authorization) overrides it.
                    AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(routes)))
                )
            ),
            # Only the bot worker listens on a channel, one only (bots.bot_channel(), under the
            # layer's prefix); a server never gets this scope.
            "channel": BotTurnConsumer.as_asgi(),
        }
    )
)

# Resume bot turns a restart left unfinished, then sweep now and then (off when the
# interval is 0, as in tests). See docs/games.md.
sweeper.start()
