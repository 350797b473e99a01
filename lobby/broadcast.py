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
    "ONLINE_CHANGED",
    "SEEKS_CHANGED",
    "USER_FRAMES",
    "lobby_group",
    "online_changed_send",
    "online_group",
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


#: The consumer method of the who-is-online doorbell (``NotificationConsumer.online_changed``).
ONLINE_CHANGED = "online.changed"


def online_group() -> str:
    """The group of the sockets that show who is online (pages that asked ``watch_online``)."""
    return "lobby-online"


def online_changed_send() -> None:
    """Ring the who-is-online doorbell: someone came or went (lobby/online.py). Each watching
    socket reads the list its user may see and sends it if it changed. From on_commit."""
    group_send_soon(online_group(), {"type": ONLINE_CHANGED}, what="the online doorbell")
