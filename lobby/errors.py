"""The lobby's refusals: ``GameError``'s shape (a stable code, a readable message), so the
per-user socket sends them as the same ``error`` frames as the game socket, with the game
codes that fit (``not_found``, ``forbidden``, ``bad_message``, ``unauthenticated``,
``throttled``) and a few of its own. docs/protocol.md lists them all.
"""

from __future__ import annotations

from typing import Any

from games.errors import CODES as GAME_CODES
from games.errors import GameError

EXPIRED = "expired"  # the challenge or seek ran out of time
TAKEN = "taken"  # someone else took the seek first
BLOCKED = "blocked"  # you blocked this player (never said to the player who was blocked)
CLOSED = "closed"  # the challenge was already answered or cancelled, the seek cancelled
TOO_MANY = "too_many"  # too many pending challenges or open seeks of yours
DUPLICATE = "duplicate"  # you already have a pending challenge to this player

LOBBY_CODES = frozenset({EXPIRED, TAKEN, BLOCKED, CLOSED, TOO_MANY, DUPLICATE})
CODES = GAME_CODES | LOBBY_CODES


class LobbyError(GameError):
    """A refused lobby action. A ``GameError`` (caught and framed the same way) whose code
    may also be one of the lobby's."""

    def __init__(self, code: str, message: str, *, params: dict[str, Any] | None = None) -> None:
        if code not in CODES:
            raise ValueError(f"unknown lobby error code {code!r}")
        # GameError checks its own list of codes; pass a known one, then set the real code.
        super().__init__("forbidden", message, params=params)
        self.code = code

    def __repr__(self) -> str:
        return f"LobbyError({self.code!r}, {self.message!r})"
