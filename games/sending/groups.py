"""Channel-layer plumbing: group names, and sending a game event once the data is committed.

The database is the truth; the channel layer is only a doorbell with at-most-once delivery.
A lost event costs nothing but a ``sync`` (docs/protocol.md).
"""

from __future__ import annotations

from typing import Any

from core.layer import group_send_soon

#: The consumer method a game event is dispatched to (``GameConsumer.game_event``).
GAME_EVENT = "game.event"


def game_group(game_id: int) -> str:
    """The channel-layer group of one game's sockets: players and spectators alike."""
    return f"game-{game_id}"


def game_event_send(*, game_id: int, version: int, frames: dict[str, list[dict[str, Any]]]) -> None:
    """Send one event to every socket on the game; each picks its own list of frames.

    ``frames`` maps a viewer key ("0", "1" or "spectator", see ``viewer_key``) to the frames
    that viewer receives. Called from ``transaction.on_commit``; returns without waiting for the
    send in the server (``core.layer``); a failure is logged, never raised (the move is
    committed whatever happens to the doorbell).
    """
    group_send_soon(
        game_group(game_id),
        {"type": GAME_EVENT, "version": version, "frames": frames},
        what=f"version {version} of game {game_id}",
    )


def viewer_key(seat: int | None) -> str:
    """The key of a viewer's frames in an event: "0", "1", or "spectator"."""
    return "spectator" if seat is None else str(seat)


#: The consumer method a notice is dispatched to (``GameConsumer.game_notice``).
GAME_NOTICE = "game.notice"


def game_notice_send(*, game_id: int, frame: dict[str, Any]) -> None:
    """Send one frame, the same for every viewer and outside the game's versions (a rematch
    offer, a spectator count), to every socket on the game. Never raises."""
    group_send_soon(
        game_group(game_id),
        {"type": GAME_NOTICE, "frame": frame},
        what=f"a {frame.get('type')} notice to game {game_id}",
    )


#: The consumer method a hint is dispatched to (``GameConsumer.game_hint``).
GAME_HINT = "game.hint"


def game_hint_send(*, game_id: int, seat: int, frame: dict[str, Any]) -> None:
    """Send a ``hint`` frame to the sockets of ``seat`` on the game (only that player's; the
    socket adds the reason's sentence in its language). Never raises."""
    group_send_soon(
        game_group(game_id),
        {"type": GAME_HINT, "seat": seat, "frame": frame},
        what=f"a hint to seat {seat} of game {game_id}",
    )
