"""The cap on open sockets per client address (docs/deploy.md, "The client's address").

``SocketCapMiddleware`` wraps the site's WebSocket application: a client (its address as
``core.client_address`` reads it) with ``SOCKETS_PER_CLIENT`` sockets open on this process has
its next handshake refused (closed before it is accepted: daphne answers 403) until one of them
closes. Hundreds of sockets from one client would otherwise hold a process's event loop and
database thread (one such client stalled ``/healthz`` for 9 s).

The count is the process's own, in memory: it cannot outlive the sockets it counts (a process
that dies takes its sockets and its count along, where a shared count would keep them), and it
guards what the cap is for, each process's loop. Behind a proxy spreading sockets over N
processes a client may open up to N times the cap in all.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from django.conf import settings

from core.client_address import scope_client_address

logger = logging.getLogger(__name__)

#: The close code of a refused handshake (4000 to 4999 are the application's own).
CLOSE_TOO_MANY = 4429

#: Open sockets of this process, per client address.
OPEN: Counter[str] = Counter()


class SocketCapMiddleware:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") != "websocket":
            return await self.app(scope, receive, send)
        address = scope_client_address(scope)
        cap = int(settings.SOCKETS_PER_CLIENT)
        if cap and OPEN[address] >= cap:
            logger.info("socket refused: %s has %d open on this process", address, cap)
            message = await receive()  # the handshake's websocket.connect
            if message.get("type") == "websocket.connect":
                await send({"type": "websocket.close", "code": CLOSE_TOO_MANY})
            return None
        OPEN[address] += 1
        try:
            return await self.app(scope, receive, send)
        finally:
            OPEN[address] -= 1
            if OPEN[address] <= 0:
                del OPEN[address]
