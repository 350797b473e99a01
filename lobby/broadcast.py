"""Channel-layer plumbing of the per-user socket (``/ws/me/``): group names, and sending
frames once the data is committed.

As for the game socket, the database is the truth and the channel layer only a doorbell
(at-most-once delivery): a socket that missed something asks for ``sync``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

#: The consumer method frames for one user are dispatched to (``NotificationConsumer.user_frames``).
USER_FRAMES = "user.frames"
#: The consumer method the seeks doorbell is dispatched to (``NotificationConsumer.seeks_changed``).
SEEKS_CHANGED = "seeks.changed"


def user_group(user_id: int) -> str:
    """The group of every socket one user has open, on any page, in any tab."""
    return f"user-{user_id}"


def lobby_group() -> str:
    """The group of the sockets that show the open seeks (pages that asked ``watch_seeks``)."""
    return "lobby"


def user_frames_send(frames: Mapping[int, list[dict[str, Any]]]) -> None:
    """Send each user (by id) their frames, on every socket they have open.

    Called from ``transaction.on_commit``; a failure is logged, never raised (the change is
    committed whatever happens to the doorbell).
    """
    layer = get_channel_layer()
    if layer is None:
        return
    for user_id, user_frames in frames.items():
        try:
            async_to_sync(layer.group_send)(
                user_group(user_id), {"type": USER_FRAMES, "frames": user_frames}
            )
        except Exception:
            logger.exception("could not notify user %s", user_id)


def seeks_changed_send() -> None:
    """Ring the lobby's doorbell: each watching socket reads the open seeks its user may see
    (blocks differ per user) and sends them. Called from ``transaction.on_commit``."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(lobby_group(), {"type": SEEKS_CHANGED})
    except Exception:
        logger.exception("could not ring the lobby's doorbell")
