"""Channel-layer plumbing of the ranked queue socket (``/ws/leagues/<slug>/queue/``), and the
leagues' frames on the per-user socket (``/ws/me/``): the queue's ``paired`` and a tournament
round's ``tournament_paired``.

As everywhere on the site, the database is the truth and the channel layer only a doorbell:
each queue socket also reads the count and its own pairing from the database every
``LEAGUES_QUEUE_TICK`` seconds, so a lost message costs at most one tick.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.layer import group_send_soon

#: The consumer method the waiting count is dispatched to (``QueueConsumer.queue_changed``).
QUEUE_CHANGED = "queue.changed"
#: The consumer method pairings are dispatched to (``QueueConsumer.queue_paired``).
QUEUE_PAIRED = "queue.paired"


def queue_group(league_id: int) -> str:
    """The group of every socket waiting in one league's ranked queue."""
    return f"league-queue-{league_id}"


def _group_send(group: str, message: dict[str, Any]) -> None:
    group_send_soon(group, message, what=f"{message.get('type')} to {group}")


def queue_changed_send(league_id: int, waiting: int) -> None:
    """Tell the league's queue sockets how many wait now. Called on commit; never raises."""
    _group_send(queue_group(league_id), {"type": QUEUE_CHANGED, "waiting": waiting})


def queue_paired_send(league_id: int, frames: Mapping[int, dict[str, Any]]) -> None:
    """Send each paired user (by id) their ``paired`` frame: on the league's queue sockets
    (each forwards only its own user's frame) and on every ``/ws/me/`` socket of that user
    (any page; ``notify.js`` dispatches it as a ``spite:me`` event). Called on commit."""
    from lobby.broadcast import user_frames_send

    _group_send(
        queue_group(league_id),
        {"type": QUEUE_PAIRED, "frames": {str(uid): frame for uid, frame in frames.items()}},
    )
    user_frames_send({uid: [frame] for uid, frame in frames.items()})


def tournament_paired_send(frames: Mapping[int, list[dict[str, Any]]]) -> None:
    """Tell each entrant (by id) that their tournament round is paired: ``tournament_paired``
    on every ``/ws/me/`` socket of theirs (``notify.js`` shows it as a notice). Called on
    commit; never raises. The tournament's page says the same to whoever missed it."""
    from lobby.broadcast import user_frames_send

    user_frames_send(frames)
