"""The ``state``, ``game_end`` and ``match_end`` frames a viewer receives.

One builder serves the broadcast after a change (``game_event_frames``), a socket that connects
or asks ``sync`` (``game_connect``) and the table page's ``initial_state``
(``game_state_frame``), so the three can never disagree. A frame holds only the engine's view
for its viewer: never the opponent's hand, the cards under a pay-off top, the stock's order or
the seed.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

import engine
from core.errors import NOT_FOUND, GameError
from games.clocks import turn as clock
from games.clocks.presence import match_presence
from games.models import SEATS, Game, Match, Move
from games.selectors.actions import (
    _may_undo,
    game_may_abort,
    game_may_hint,
    game_seats_moved,
    game_undo_plan,
)
from games.sending.groups import viewer_key
from games.spectators import spectator_count

#: How many of the latest moves a state frame carries.
LAST_MOVES = 20


def game_get(*, game_id: int) -> Game:
    """The game with its match, seated users and league; GameError ``not_found`` if none."""
    try:  # get(), not first(): no ORDER BY to compile over the joined columns
        return Game.objects.select_related("match__user0", "match__user1", "match__league").get(
            pk=game_id
        )
    except Game.DoesNotExist:
        raise GameError(NOT_FOUND, _("There is no such game.")) from None


def _seat_info(match: Match, seat: int) -> dict[str, Any]:
    level = match.bot_level(seat)
    info: dict[str, Any] = {"name": match.seat_name(seat), "kind": "bot" if level else "human"}
    info["is_bot"] = bool(level) or bool(getattr(match.user_at(seat), "is_bot", False))
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


def _rematch_info(match: Match) -> dict[str, Any] | None:
    """The rematch after a finished match: who offered it, and the new match once accepted."""
    if match.status != Match.Status.FINISHED:
        return None
    game = None
    if match.rematch_id is not None:
        game = (
            Game.objects.filter(match_id=match.rematch_id, number=1)
            .values_list("pk", flat=True)
            .first()
        )
    return {"offered_by": match.rematch_offered_by, "match": match.rematch_id, "game": game}


def _league_info(match: Match) -> dict[str, Any] | None:
    """The match's league (a ranked match always has one), with its page's address."""
    if match.league_id is None:
        return None
    league = match.league
    url = reverse("leagues:detail", kwargs={"slug": league.slug})
    return {"name": league.name, "slug": league.slug, "url": url}


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
        "league": _league_info(match),
        "next_game": next_game,
        "rematch": _rematch_info(match),
    }


@cache
def _log_tail_sql(vendor: str) -> str:
    q = connection.ops.quote_name
    meta = Move._meta
    columns = ", ".join(q(meta.get_field(name).column) for name in LOG_COLUMNS)
    return (
        f"SELECT {columns} FROM {q(meta.db_table)} WHERE {q(meta.get_field('game').column)} = %s"
        f" ORDER BY {q(meta.get_field('ply').column)} DESC LIMIT {LAST_MOVES}"
    )


#: The columns of ``log_tail``'s rows: integers and plain text, read as the driver gives them.
LOG_COLUMNS = ("ply", "seat", "kind", "text", "undoes")


def log_tail(game_id: int) -> list[dict[str, Any]]:
    """The game's latest ``LAST_MOVES`` log rows, oldest first, as dicts of ``ply``, ``seat``,
    ``kind``, ``text`` and ``undoes`` (what a state frame's ``last_moves`` is made of). Written
    out as SQL: it runs on every move, and the ORM's compiling cost more than the query."""
    with connection.cursor() as cursor:
        cursor.execute(*log_tail_query(game_id))
        return log_tail_read(cursor.fetchall())


def log_tail_query(game_id: int) -> tuple[str, list[Any]]:
    """``log_tail``'s SQL and parameters, for a caller that sends it along with other
    statements (``games.services._rows.game_row_lock``); ``log_tail_read`` reads its rows."""
    return _log_tail_sql(connection.vendor), [game_id]


def log_tail_read(rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """``log_tail``'s rows (newest first, as the query gives them) as its dicts, oldest first."""
    return [dict(zip(LOG_COLUMNS, row, strict=True)) for row in reversed(rows)]


def _last_moves(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The frame's ``last_moves`` from the latest log rows (``log_tail``), oldest first. A move
    taken back says ``"undone": true``; an undo row is ``{"ply", "seat", "move": "undo",
    "kind": "undo", "undoes": n}``. Rows shown are only ever taken back by later rows, which
    are shown too, so the window suffices."""
    entries: list[dict[str, Any]] = []
    in_force: list[dict[str, Any]] = []
    for r in rows:
        entry: dict[str, Any] = {"ply": r["ply"], "seat": r["seat"], "move": r["text"]}
        if r["kind"] == Move.Kind.UNDO:
            entry.update(kind="undo", undoes=r["undoes"])
            for _ in range(min(r["undoes"], len(in_force))):
                in_force.pop()["undone"] = True
        else:
            in_force.append(entry)
        entries.append(entry)
    return entries


def _clock_info(game: Game) -> dict[str, Any] | None:
    """The turn clock (docs/protocol.md): null when the match has none (casual, or a league
    without a limit); ``turn_deadline`` null when no turn runs against it (a bot to move, the
    game over). ``now`` is the server's time, so a client can count down on its own clock."""
    match = game.match
    limit = clock.turn_limit(match)
    if limit <= 0:
        return None
    running = game.is_active and match.status == Match.Status.ACTIVE
    return {
        "turn_deadline": clock.iso(game.turn_deadline if running else None),
        "limit": limit,
        "timeouts": [match.timeouts0, match.timeouts1],
        "max_timeouts": clock.max_timeouts(),
        "now": clock.iso(clock.now()),
    }


def _presence_info(game: Game) -> list[dict[str, Any]] | None:
    """Each seat's ``{connected, grace_ends_at}`` while a ranked match is in play
    (games.clocks.presence); null in a casual one or once over, when nobody keeps track."""
    if not game.match.ranked or game.match.status != Match.Status.ACTIVE:
        return None
    return [state.to_dict() for state in match_presence(game.match)]


class _FrameBuilder:
    """The parts of a state frame every viewer shares, read once; views added per viewer.

    A service that just changed the game passes what it already holds: the engine's game for
    ``game.state`` and the log's latest rows (``log_tail`` after its own row), saving a parse and
    a query per move. ``count_spectators=False`` leaves ``spectators`` None, for the socket to
    fill in (``game_event_frames``)."""

    def __init__(
        self,
        game: Game,
        *,
        engine_game: engine.Game | None = None,
        log: list[dict[str, Any]] | None = None,
        count_spectators: bool = True,
    ) -> None:
        self.game = game
        self.match = game.match
        if engine_game is None:
            engine_game = engine.Game.from_dict(game.state)
        self.engine_game = engine_game
        self.next_game = _next_game_id(game)
        self._moved: set[int] | None = None
        self.last_moves = _last_moves(log_tail(game.pk) if log is None else log[-LAST_MOVES:])
        self.common: dict[str, Any] = {
            "game": {
                "id": game.pk,
                "number": game.number,
                "status": game.status,
                "outcome": game.outcome_dict(),
                "first_player": game.first_player,
            },
            "version": game.version,
            "last_moves": self.last_moves,
            "match": _match_info(self.match, self.next_game),
            "spectators": spectator_count(game.pk) if count_spectators else None,
            "clock": _clock_info(game),
            "presence": _presence_info(game),
        }

    def can_undo(self, seat: int | None) -> bool:
        if seat is None or not _may_undo(self.game, seat):
            return False
        return game_undo_plan(self.game, seat) is not None

    def can_abort(self, seat: int | None) -> bool:
        if seat is None or self.game.number != 1 or not self.game.is_active:
            return False
        if self._moved is None:
            self._moved = self._seats_moved()
        return game_may_abort(self.game, seat, self._moved)

    def _seats_moved(self) -> set[int]:
        """The seats that have moved (taken-back moves count), from the rows already read for
        ``last_moves`` when they tell: both seats in them, or them the whole log (the first
        row's ply is 0). Else read from the log (a query per move in a first game before)."""
        seats = {row["seat"] for row in self.last_moves if row.get("kind") != "undo"}
        if len(seats) == len(SEATS) or not self.last_moves or self.last_moves[0]["ply"] == 0:
            return seats
        return game_seats_moved(self.game)

    def state(self, seat: int | None) -> dict[str, Any]:
        view = self.engine_game.view(seat)
        if not self.game.is_active:
            view["legal_moves"] = []  # ended by resignation or abort: the engine does not know
        return {
            "type": "state",
            **self.common,
            "view": view,
            "you": seat,
            "can_undo": self.can_undo(seat),
            "can_hint": game_may_hint(self.game, seat),
            "can_abort": self.can_abort(seat),
        }

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
    game: Game,
    *,
    game_ended: bool = False,
    match_ended: bool = False,
    engine_game: engine.Game | None = None,
    log: list[dict[str, Any]] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Every viewer's frames after a change: the state, then ``game_end`` and ``match_end``
    when this change ended the game or the match. Keyed by ``broadcast.viewer_key``; bot
    seats get no frames (nobody watches through their eyes). ``engine_game`` and ``log``: see
    ``_FrameBuilder``. The state's ``spectators`` is None: each socket fills in the count it
    keeps current from ``spectators`` notices (``GameConsumer.game_event``), so a move costs no
    read of the shared count."""
    builder = _FrameBuilder(game, engine_game=engine_game, log=log, count_spectators=False)
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
