"""What every WebSocket consumer of the site shares."""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name


class DirectDispatch:
    """Hands each message straight to its handler.

    Channels (4.2 and later) first runs ``close_old_connections`` through ``sync_to_async``,
    i.e. in the process's one database thread, for every message a consumer gets: every frame
    from the client and every group event. Under load every state frame then waited in that
    thread's queue behind other tables' moves (docs/performance.md). Our handlers reach the
    database only through ``database_sync_to_async``, which closes old connections in that
    thread around each call, so the hop bought nothing.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
