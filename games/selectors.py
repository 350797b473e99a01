"""Reads about games: the frames each viewer receives, replays, the lobby's lists.

One function family builds every ``state`` frame — for the broadcast after a change, for a
socket that connects or asks ``sync``, and for the table page's ``initial_state`` — so the
three can never disagree. A frame holds only the engine's view for its viewer: no frame ever
carries the opponent's hand, the cards under a pay-off top, the stock's order or the seed.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q

import engine
from games.broadcast import viewer_key
from games.errors import NOT_FOUND, GameError
from games.models import SEATS, Game, Match, Move

#: How many of the latest moves a state frame carries.
LAST_MOVES = 20


def game_get(*, game_id: int) -> Game:
    """The game with its match and seated users; GameError ``not_found`` if there is none."""
    game = Game.objects.select_related("match__user0", "match__user1").filter(pk=game_id).first()
    if game is None:
        raise GameError(NOT_FOUND, "There is no such game.")
    return game


def game_replay(game: Game) -> engine.Game:
    """The game rebuilt from its seed, rules, first player and Move rows, in ply order.

    For every game this equals the stored state (a test checks it after every test that uses
    the database); the replay page uses it to step through a finished game.
    """
    rules = engine.Rules.from_dict(game.match.rules)
    replayed = engine.Game.new(seed=game.seed, rules=rules, first_player=game.first_player)
    for text in game.moves.order_by("ply").values_list("text", flat=True):
        replayed.play(text)
    return replayed


# --- frames ---------------------------------------------------------------------------------


def _seat_info(match: Match, seat: int) -> dict[str, Any]:
    level = match.bot_level(seat)
    info: dict[str, Any] = {"name": match.seat_name(seat), "kind": "bot" if level else "human"}
    if level:
        info["level"] = level
    return info


def _next_game_id(game: Game) -> int | None:
    if game.is_active:
        return None
    return (
        Game.objects.filter(match_id=game.match_id, number=game.number + 1)
        .values_list("pk", flat=True)
        .first()
    )


def _match_info(match: Match, next_game: int | None) -> dict[str, Any]:
    return {
        "id": match.pk,
        "status": match.status,
        "target": match.target,
        "scores": match.scores,
        "winner": match.winner,
        "reason": match.end_reason or None,
        "seats": [_seat_info(match, seat) for seat in SEATS],
        "ranked": match.ranked,
        "next_game": next_game,
    }


def _last_moves(game: Game) -> list[dict[str, Any]]:
    rows = list(
        Move.objects.filter(game_id=game.pk)
        .order_by("-ply")
        .values("ply", "seat", "text")[:LAST_MOVES]
    )
    return [{"ply": r["ply"], "seat": r["seat"], "move": r["text"]} for r in reversed(rows)]


class _FrameBuilder:
    """The parts of a state frame every viewer shares, read once; views added per viewer."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.match = game.match
        self.engine_game = engine.Game.from_dict(game.state)
        self.next_game = _next_game_id(game)
        self.common: dict[str, Any] = {
            "game": {
                "id": game.pk,
                "number": game.number,
                "status": game.status,
                "outcome": game.outcome_dict(),
                "first_player": game.first_player,
            },
            "version": game.version,
            "last_moves": _last_moves(game),
            "match": _match_info(self.match, self.next_game),
        }

    def state(self, seat: int | None) -> dict[str, Any]:
        view = self.engine_game.view(seat)
        if not self.game.is_active:
            view["legal_moves"] = []  # ended by resignation: the engine does not know
        return {"type": "state", **self.common, "view": view, "you": seat}

    def game_end(self) -> dict[str, Any]:
        game, match = self.game, self.match
        return {
            "type": "game_end",
            "game": game.pk,
            "winner": game.winner,
            "points": game.points,
            "reason": game.reason,
            "scores": match.scores,
            "match_over": match.status != Match.Status.ACTIVE,
            "next_game": self.next_game,
        }

    def match_end(self) -> dict[str, Any]:
        match = self.match
        return {
            "type": "match_end",
            "match": match.pk,
            "winner": match.winner,
            "scores": match.scores,
            "reason": match.end_reason,
        }


def game_state_frame(game: Game, viewer_seat: int | None) -> dict[str, Any]:
    """The ``state`` frame for one viewer (a seat, or None for a spectator)."""
    return _FrameBuilder(game).state(viewer_seat)


def game_event_frames(
    game: Game, *, game_ended: bool = False, match_ended: bool = False
) -> dict[str, list[dict[str, Any]]]:
    """Every viewer's frames after a change: the state, then ``game_end`` and ``match_end``
    when this change ended the game or the match. Keyed by ``broadcast.viewer_key``; bot
    seats get no frames (nobody watches through their eyes)."""
    builder = _FrameBuilder(game)
    tail = []
    if game_ended:
        tail.append(builder.game_end())
    if match_ended:
        tail.append(builder.match_end())
    viewers: list[int | None] = [s for s in SEATS if not game.match.is_bot(s)]
    viewers.append(None)
    return {viewer_key(seat): [builder.state(seat), *tail] for seat in viewers}


def game_connect(*, game_id: int, user: object) -> tuple[int | None, dict[str, Any]]:
    """For a socket that connects (or asks ``sync``): the viewer's seat and state frame."""
    game = game_get(game_id=game_id)
    seat = game.match.seat_of(user)
    return seat, game_state_frame(game, seat)


# --- lists ----------------------------------------------------------------------------------


def matches_in_progress(*, user: object) -> list[Match]:
    """The active matches where ``user`` sits, newest first, each with ``current_game`` set."""
    if not getattr(user, "is_authenticated", False):
        return []
    pk = getattr(user, "pk", None)
    matches = list(
        Match.objects.filter(status=Match.Status.ACTIVE)
        .filter(Q(user0_id=pk) | Q(user1_id=pk))
        .select_related("user0", "user1")
        .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("-number")))
    )
    for match in matches:
        games = list(match.games.all())
        match.current_game = games[0] if games else None
    return matches
