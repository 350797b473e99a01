"""PostgreSQL connections that give up on a server that stops answering (docs/deploy.md).

A refused or reset connection fails at once, but a server that goes silent (hung, or a network
that holds everything) leaves a query waiting for an answer for ever, and with it the thread,
the page and every socket of the process waiting behind that thread. The servers' pooled
connections are ``DeadlineConnection``: each exchange with the server must finish within
``DATABASE_QUERY_DEADLINE`` seconds, or the connection is closed and the query fails like a
lost connection (``OperationalError``), which the site answers with its 503 page
(``core.outages``). Management commands (migrations among them) do not use the pool, so no
deadline cuts a long migration.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.conf import settings
from psycopg import errors


class DeadlineConnection(psycopg.Connection[Any]):
    def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
        deadline = float(settings.DATABASE_QUERY_DEADLINE) if timeout is None else timeout
        try:
            return super().wait(gen, interval=interval, timeout=deadline or None)
        except errors._WaitTimeout:  # psycopg's own: the exchange is cut half-way
            self.pgconn.finish()  # so the connection can serve nothing more
            raise psycopg.OperationalError(
                f"the database did not answer within {deadline:g} s"
            ) from None
