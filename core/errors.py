"""The one error the site raises to players: a stable code and a readable message.

``CODES`` is the site's one registry of codes: the game's, and the lobby's (whose refusals are
``lobby.errors.LobbyError``, a plain subclass). The same codes reach both sockets
(docs/protocol.md) and, later, the REST API; a code not listed here is a programming error.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise, lazy

NOT_YOUR_TURN = "not_your_turn"
ILLEGAL_MOVE = "illegal_move"
STALE_VERSION = "stale_version"
BAD_MESSAGE = "bad_message"
GAME_OVER = "game_over"
FORBIDDEN = "forbidden"
NOT_FOUND = "not_found"
UNAUTHENTICATED = "unauthenticated"
THROTTLED = "throttled"
NOTHING_TO_UNDO = "nothing_to_undo"

# The lobby's (docs/lobby.md):
EXPIRED = "expired"  # the challenge or seek ran out of time
TAKEN = "taken"  # someone else took the seek first
BLOCKED = "blocked"  # you blocked this player (never said to the player who was blocked)
CLOSED = "closed"  # the challenge was already answered or cancelled, the seek cancelled
TOO_MANY = "too_many"  # past a cap: your pending challenges, seeks, tokens, bot matches…
DUPLICATE = "duplicate"  # you already have a pending challenge to this player
UNAVAILABLE = "unavailable"  # the site cannot reach its database for now: try again

CODES = frozenset(
    {
        NOT_YOUR_TURN,
        ILLEGAL_MOVE,
        STALE_VERSION,
        BAD_MESSAGE,
        GAME_OVER,
        FORBIDDEN,
        NOT_FOUND,
        UNAUTHENTICATED,
        THROTTLED,
        NOTHING_TO_UNDO,
        EXPIRED,
        TAKEN,
        BLOCKED,
        CLOSED,
        TOO_MANY,
        DUPLICATE,
        UNAVAILABLE,
    }
)


def _interpolate(message: str | Promise, values: dict[str, Any]) -> str:
    return str(message % values)  # a lazy ngettext picks its form from values


_lazy_interpolate = lazy(_interpolate, str)


def lazy_format(message: str | Promise, /, **values: Any) -> Promise:
    """``message % values``, done when the text is read rather than now: with a
    ``gettext_lazy`` message (and lazy values) it comes out in the language active then.

    ``lazy_format(_("You may not join %(league)s."), league=league.name)``
    """
    return _lazy_interpolate(message, values)  # type: ignore[no-any-return]


class GameError(Exception):
    """A refused action. ``code`` is for programs, ``message`` for people; an engine refusal
    (code ``illegal_move``) keeps the engine's own code in ``engine_code`` and its ``params``.

    The message may be lazy (``gettext_lazy``, ``lazy_format``): ``message`` reads it as a
    plain str in the language active when it is read, i.e. when the frame or the response is
    built; ``lazy_message`` is the text as given, to pass on to another GameError.
    """

    def __init__(
        self,
        code: str,
        message: str | Promise,
        *,
        params: dict[str, Any] | None = None,
        engine_code: str = "",
    ) -> None:
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.lazy_message = message
        self.params = dict(params or {})
        self.engine_code = engine_code

    @property
    def message(self) -> str:
        return str(self.lazy_message)

    def to_frame(self, move_id: str | None = None) -> dict[str, Any]:
        """The ``error`` frame of docs/protocol.md."""
        frame: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.engine_code:
            frame["engine_code"] = self.engine_code
        if self.params or self.engine_code:
            frame["params"] = self.params
        if move_id is not None:
            frame["id"] = move_id
        return frame

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


def refuse_past_limit(
    found: Any, limit: int, message: str | Promise, *, error: type[GameError] | None = None
) -> None:
    """Refuse ``too_many`` (as ``error``, a GameError by default) when the queryset ``found``
    counts ``limit`` rows or more; ``message`` is an ``ngettext_lazy`` on ``limit``."""
    if found.count() >= limit:
        raise (error or GameError)(
            TOO_MANY, lazy_format(message, limit=limit), params={"limit": limit}
        )
