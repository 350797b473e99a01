"""Channel-layer plumbing of the per-user socket (``/ws/me/``): group names, and sending
frames once the data is committed. The user's own group and ``user_frames_send`` live in
``games.sending.players`` (games reaches players there without importing the lobby) and are
re-exported here.

As for the game socket, the database is the truth and the channel layer only a doorbell
(at-most-once delivery): a socket that missed something asks for ``sync``.
"""

from __future__ import annotations

from core.layer import group_send_soon
from games.sending.players import USER_FRAMES, user_frames_send, user_group

__all__ = [
    "SEEKS_CHANGED",
    "USER_FRAMES",
    "lobby_group",
    "seeks_changed_send",
    "user_frames_send",
    "user_group",
]

#: The consumer method the seeks doorbell is dispatched to (``NotificationConsumer.seeks_changed``).
SEEKS_CHANGED = "seeks.changed"


def lobby_group() -> str:
    """The group of the sockets that show the open seeks (pages that asked ``watch_seeks``)."""
    return "lobby"


def seeks_changed_send() -> None:
    """Ring the lobby's doorbell: each watching socket reads the open seeks its user may see
    (blocks differ per user) and sends them. Called from ``transaction.on_commit``."""
    group_send_soon(lobby_group(), {"type": SEEKS_CHANGED}, what="the lobby's doorbell")
