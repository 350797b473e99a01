"""The per-user doorbell (``/ws/me/``, docs/protocol.md "The per-user socket"): the group of
every socket one user has open, sending frames to it once the data is committed, and the
frames the games app sends there — ``game_started``, ``your_turn`` and the ``games`` list.

The consumer lives in ``lobby`` (which depends on ``games``, never the reverse); this module
is what ``games`` and every other app use to reach a player on any page. As everywhere, the
database is the truth and the channel layer only a doorbell (at-most-once delivery): a socket
that reconnects or asks ``sync`` reads ``games`` again.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.urls import get_script_prefix, reverse

from accounts.selectors import user_person
from core.layer import group_send_soon
from games.models import SEATS, Game, Match
from games.selectors import matches_in_progress

#: The consumer method frames for one user are dispatched to (``NotificationConsumer.user_frames``).
USER_FRAMES = "user.frames"


def user_group(user_id: int) -> str:
    """The group of every socket one user has open, on any page, in any tab."""
    return f"user-{user_id}"


def user_frames_send(frames: Mapping[int, list[dict[str, Any]]]) -> None:
    """Send each user (by id) their frames, on every socket they have open: one group send
    per user.

    Called from ``transaction.on_commit``; a failure is logged, never raised (the change is
    committed whatever happens to the doorbell).
    """
    for user_id, user_frames in frames.items():
        group_send_soon(
            user_group(user_id),
            {"type": USER_FRAMES, "frames": user_frames},
            what=f"frames to user {user_id}",
        )


# --- the frames games sends -------------------------------------------------------------------


def _addresses(game_id: int) -> dict[str, str]:
    """The table's page and the API's game resource."""
    url, api_url = _addresses_under(get_script_prefix(), game_id)
    return {"url": url, "api_url": api_url}


@lru_cache(maxsize=4096)
def _addresses_under(prefix: str, game_id: int) -> tuple[str, str]:
    """Reversed once per game (a player's every turn needs them): two reverse() calls cost
    more than the rest of the ``your_turn`` frame."""
    return (
        reverse("games:table", kwargs={"game_id": game_id}),
        reverse("api:game", args=[game_id]),
    )


def _is_turn_of(game: Game, seat: int) -> bool:
    return game.is_active and game.match.status == Match.Status.ACTIVE and game.to_move == seat


def your_turn_frame(game: Game) -> dict[str, Any]:
    """``your_turn``: the player to move in ``game`` may play now (against ``version``)."""
    return {
        "type": "your_turn",
        "match": game.match_id,
        "game": game.pk,
        "version": game.version,
        **_addresses(game.pk),
    }


def game_started_frames(game: Game) -> dict[int, list[dict[str, Any]]]:
    """For each person seated in ``game`` (just dealt): ``game_started``, followed by
    ``your_turn`` for the one who moves first. Bot seats get nothing. No query: the user
    ids are on the match."""
    match = game.match
    frames: dict[int, list[dict[str, Any]]] = {}
    for seat in SEATS:
        user_id = match.user_id_at(seat)
        if user_id is None:
            continue
        yours = _is_turn_of(game, seat)
        started = {
            "type": "game_started",
            "match": match.pk,
            "game": game.pk,
            "number": game.number,
            "seat": seat,
            "your_turn": yours,
            **_addresses(game.pk),
        }
        frames[user_id] = [started, your_turn_frame(game)] if yours else [started]
    return frames


def turn_passed_frames(
    game: Game, *, to_move_before: int | None
) -> dict[int, list[dict[str, Any]]]:
    """``your_turn`` for the person to move after a change, when the change handed them the
    turn (``to_move_before`` was another seat, or is unknown); nothing otherwise — a player's
    own moves within their turn, a bot to move, a game or match over."""
    match = game.match
    seat = game.to_move
    user_id = match.user_id_at(seat)
    if user_id is None or seat == to_move_before or not _is_turn_of(game, seat):
        return {}
    return {user_id: [your_turn_frame(game)]}


def _opponent(match: Match, seat: int) -> dict[str, Any]:
    level = match.bot_level(seat)
    if level:
        return {"bot": level}
    user = match.user_at(seat)
    if user is None:
        return {"username": None, "name": "?", "is_bot": False}
    return user_person(user)


def games_frame(*, user: Any) -> dict[str, Any]:
    """``games``: ``user``'s games in progress, newest match first, each with the seat held,
    whether it is that seat's turn, the opponent and the addresses to play it."""
    entries = []
    for match in matches_in_progress(user=user):
        game = match.current_game
        seat = match.seat_of(user)
        if game is None or seat is None or not game.is_active:
            continue
        entries.append(
            {
                "match": match.pk,
                "game": game.pk,
                "version": game.version,
                "seat": seat,
                "your_turn": _is_turn_of(game, seat),
                "opponent": _opponent(match, 1 - seat),
                **_addresses(game.pk),
            }
        )
    return {"type": "games", "games": entries}
