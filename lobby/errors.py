"""The lobby's refusals: ``LobbyError``, a ``GameError`` with nothing added, so the per-user
socket sends them as the same ``error`` frames as the game socket. Its codes live in the
site's one registry, ``core.errors.CODES`` — the game codes that fit (``not_found``,
``forbidden``, ``bad_message``, ``unauthenticated``, ``throttled``) and the lobby's own,
re-exported here. docs/protocol.md lists them all.
"""

from __future__ import annotations

from core.errors import BLOCKED, CLOSED, DUPLICATE, EXPIRED, TAKEN, TOO_MANY, GameError

__all__ = ["BLOCKED", "CLOSED", "DUPLICATE", "EXPIRED", "TAKEN", "TOO_MANY", "LobbyError"]


class LobbyError(GameError):
    """A refused lobby action: caught and framed like any ``GameError``; ``except LobbyError``
    catches only the lobby's refusals."""
