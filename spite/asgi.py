"""ASGI entry point: Django for HTTP, Channels consumers for WebSockets (docs/architecture.md)."""

import asyncio
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spite.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs Django set up first)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402
from django.urls import re_path  # noqa: E402

from api.ws import TokenAuthMiddleware  # noqa: E402
from benchfloor.routing import websocket_urlpatterns as bench_floors  # noqa: E402
from core import layer  # noqa: E402
from core.origins import OriginValidator  # noqa: E402
from core.outages import SocketOutageMiddleware  # noqa: E402
from core.socket_cap import SocketCapMiddleware  # noqa: E402
from games import sweeper  # noqa: E402
from spite.routing import websocket_urlpatterns  # noqa: E402

# The bench floors are routed only when settings.BENCH_FLOORS is on (docs/performance.md).
# Last, any other path: refused at the handshake (the server answers 403) rather than raised
# as "No route found", a traceback in the log for each probe.
routes = [*websocket_urlpatterns, *bench_floors(), re_path(r"", WebsocketDenier.as_asgi())]


class _AttachLoop:
    """Hands the server's event loop to ``core.layer`` on every connection (cheap,
    idempotent), so sync code's sends are handed to it without waiting."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        layer.attach_loop(asyncio.get_running_loop())
        return await self.app(scope, receive, send)


application = _AttachLoop(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # Only the site's own pages (scheme, host and port) open a socket (core/origins.py).
            "websocket": OriginValidator(
                # Past SOCKETS_PER_CLIENT open sockets of one client: refused.
                SocketCapMiddleware(
                    # The database away at the handshake: answered, told to retry (4503).
                    SocketOutageMiddleware(
                        # Session first; an API token (?token= or Authorization) overrides it.
                        AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(routes)))
                    )
                )
            ),
        }
    )
)

# Sweep now and then (off when the interval is 0, as in tests). See docs/games.md.
sweeper.start()
