"""Reads about games: the frames each viewer receives, replays, the lobby's lists.

One function family builds every ``state`` frame — for the broadcast after a change, for a
socket that connects or asks ``sync``, and for the table page's ``initial_state`` — so the
three can never disagree. A frame holds only the engine's view for its viewer: no frame ever
carries the opponent's hand, the cards under a pay-off top, the stock's order or the seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Prefetch, Q, QuerySet

import engine
from games.broadcast import viewer_key
from games.errors import NOT_FOUND, GameError
from games.models import SEATS, Game, Match, Move
from games.spectators import spectator_count, spectator_counts

#: How many of the latest moves a state frame carries.
LAST_MOVES = 20


def game_get(*, game_id: int) -> Game:
    """The game with its match and seated users; GameError ``not_found`` if there is none."""
    game = Game.objects.select_related("match__user0", "match__user1").filter(pk=game_id).first()
    if game is None:
        raise GameError(NOT_FOUND, "There is no such game.")
    return game


@dataclass(frozen=True, slots=True)
class LogRow:
    """One row of a game's Move log, as the replay reads it."""

    ply: int
    seat: int
    kind: str
    text: str
    undoes: int


def game_log(game: Game) -> list[LogRow]:
    """Every Move row of ``game`` in ply order: moves and undo rows."""
    rows = Move.objects.filter(game_id=game.pk).order_by("ply")
    return [LogRow(*r) for r in rows.values_list("ply", "seat", "kind", "text", "undoes")]


def _deal(game: Game) -> engine.Game:
    rules = engine.Rules.from_dict(game.match.rules)
    return engine.Game.new(seed=game.seed, rules=rules, first_player=game.first_player)


def _in_force_after(in_force: list[LogRow], row: LogRow) -> list[LogRow]:
    """The moves in force once ``row`` is applied to ``in_force``: an undo row drops the last
    ``undoes`` of them, a move row adds itself."""
    if row.kind != Move.Kind.UNDO:
        return [*in_force, row]
    if not 0 < row.undoes <= len(in_force):
        raise ValueError(f"undo row {row.ply} takes back {row.undoes} of {len(in_force)} moves")
    return in_force[: len(in_force) - row.undoes]


def _replay_rows(
    game: Game, rows: list[LogRow], on_row: Callable[[LogRow, engine.Game], None] | None = None
) -> tuple[engine.Game, list[LogRow]]:
    """Deal ``game`` and apply ``rows``; return the engine game and the moves in force.

    A move row is played; an undo row restores the position before the moves it takes back by
    dealing again and replaying the moves still in force (undo is rare, replay is cheap), so
    the restored position is exact, shuffler included. ``on_row`` sees each row and the game
    after it.
    """
    replayed = _deal(game)
    in_force: list[LogRow] = []
    for row in rows:
        in_force = _in_force_after(in_force, row)
        if row.kind == Move.Kind.UNDO:
            replayed = _deal(game)
            for kept in in_force:
                replayed.play(kept.text)
        else:
            replayed.play(row.text)
        if on_row is not None:
            on_row(row, replayed)
    return replayed, in_force


def game_replay(game: Game) -> engine.Game:
    """The game rebuilt from its seed, rules, first player and Move rows, in ply order (an
    undo row takes back the moves it names).

    For every game this equals the stored state (a test checks it after every test that uses
    the database); the replay page steps through the same rows (``game_replay_frames``).
    """
    return _replay_rows(game, game_log(game))[0]


# --- undo and abort -------------------------------------------------------------------------


def _reveals(before: dict[str, Any], after: dict[str, Any], seat: int) -> bool:
    """Whether a move showed ``seat`` a card it had not seen: new hand cards (a refill of an
    empty hand) or a new pay-off top. Views of ``seat`` before and after the move."""
    was, now = before["players"][seat], after["players"][seat]
    if Counter(now["hand"] or []) - Counter(was["hand"] or []):
        return True
    return now["payoff_top"] is not None and now["payoff_size"] < was["payoff_size"]


@dataclass(frozen=True, slots=True)
class UndoPlan:
    """What an undo would do now: take back ``moves`` moves and restore ``state``."""

    moves: int
    state: dict[str, Any]


def game_undo_plan(game: Game, seat: int) -> UndoPlan | None:
    """What ``seat`` may take back now, or None: the moves of its current turn since cards last
    came into view for it (the turn's draw, a refill of an emptied hand, a new pay-off top —
    cards once seen cannot be unseen). Checks only the log; who may undo at all (a casual
    match against a bot, the human's turn) is the service's business."""
    if not game.is_active or game.to_move != seat:
        return None
    in_force: list[LogRow] = []
    for row in game_log(game):
        in_force = _in_force_after(in_force, row)
    turn = 0
    while turn < len(in_force) and in_force[len(in_force) - 1 - turn].seat == seat:
        turn += 1
    if not turn:
        return None
    start = len(in_force) - turn
    replayed = _deal(game)
    for row in in_force[:start]:
        replayed.play(row.text)
    snapshot, cut = replayed.to_dict(), start
    for index in range(start, len(in_force)):
        before = replayed.view(seat)
        replayed.play(in_force[index].text)
        if _reveals(before, replayed.view(seat), seat):
            snapshot, cut = replayed.to_dict(), index + 1
    if cut == len(in_force):
        return None
    return UndoPlan(moves=len(in_force) - cut, state=snapshot)


def _may_undo(game: Game, seat: int | None) -> bool:
    match = game.match
    return (
        seat is not None
        and undo_allowed(match)
        and not match.is_bot(seat)
        and game.is_active
        and match.status == Match.Status.ACTIVE
        and game.to_move == seat
    )


def undo_allowed(match: Match) -> bool:
    """Undo exists only in casual matches of a person against a bot."""
    return match.against_bot and not match.ranked


def game_seats_moved(game: Game) -> set[int]:
    """The seats that have played a move in ``game`` (taken-back moves count too)."""
    moved = Move.objects.filter(game_id=game.pk, kind=Move.Kind.MOVE)
    return set(moved.values_list("seat", flat=True).distinct())


def game_may_abort(game: Game, seat: int | None, moved: set[int] | None = None) -> bool:
    """Whether ``seat`` may abort ``game`` now: a person's seat, the match's first game, in
    play, and not both seats have moved yet."""
    if seat is None or game.match.is_bot(seat) or game.number != 1 or not game.is_active:
        return False
    if game.match.status != Match.Status.ACTIVE:
        return False
    return len(game_seats_moved(game) if moved is None else moved) < 2


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
        "rematch": _rematch_info(match),
    }


def _last_moves(game: Game) -> list[dict[str, Any]]:
    """The latest rows of the log, oldest first. A move taken back says ``"undone": true``; an
    undo row is ``{"ply", "seat", "move": "undo", "kind": "undo", "undoes": n}``. Rows shown
    are only ever taken back by later rows, which are shown too, so the window suffices."""
    rows = list(
        Move.objects.filter(game_id=game.pk)
        .order_by("-ply")
        .values("ply", "seat", "kind", "text", "undoes")[:LAST_MOVES]
    )
    rows.reverse()
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


class _FrameBuilder:
    """The parts of a state frame every viewer shares, read once; views added per viewer."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.match = game.match
        self.engine_game = engine.Game.from_dict(game.state)
        self.next_game = _next_game_id(game)
        self._moved: set[int] | None = None
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
            "spectators": spectator_count(game.pk),
        }

    def can_undo(self, seat: int | None) -> bool:
        if seat is None or not _may_undo(self.game, seat):
            return False
        return game_undo_plan(self.game, seat) is not None

    def can_abort(self, seat: int | None) -> bool:
        if seat is None or self.game.number != 1 or not self.game.is_active:
            return False
        if self._moved is None:
            self._moved = game_seats_moved(self.game)
        return game_may_abort(self.game, seat, self._moved)

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


def games_live() -> QuerySet[Game]:
    """Games in play (neither over nor aborted, in a match still going on), newest first, with
    their matches and seated users: the "watch" list."""
    return (
        Game.objects.filter(status=Game.Status.ACTIVE, match__status=Match.Status.ACTIVE)
        .select_related("match__user0", "match__user1")
        .order_by("-created_at", "-pk")
    )


@dataclass(frozen=True)
class LiveGame:
    """One line of the watch list."""

    game: Game
    names: tuple[str, str]
    scores: tuple[int, int]
    spectators: int


def live_game_rows(games: list[Game]) -> list[LiveGame]:
    """The watch list's lines for ``games`` (a page of ``games_live()``), spectators counted."""
    counts = spectator_counts(g.pk for g in games)
    return [
        LiveGame(
            game=g,
            names=(g.match.seat_name(0), g.match.seat_name(1)),
            scores=(g.match.score0, g.match.score1),
            spectators=counts.get(g.pk, 0),
        )
        for g in games
    ]


# --- history --------------------------------------------------------------------------------


def match_history_for(user: object) -> QuerySet[Match]:
    """Every match ``user`` sat in, newest first, with seated users and games read along.
    Turn a page of it into lines with ``match_history_rows``."""
    pk = getattr(user, "pk", None)
    return (
        Match.objects.filter(Q(user0_id=pk) | Q(user1_id=pk))
        .select_related("user0", "user1")
        .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number")))
        .order_by("-created_at", "-pk")
    )


@dataclass(frozen=True)
class HistoryEntry:
    """One match seen from one player's seat."""

    match: Match
    seat: int
    opponent: str
    opponent_is_bot: bool
    opponent_username: str  # "" for a bot, or an account no longer active
    result: str  # "won", "lost", "aborted", "in_progress"
    score: int
    opponent_score: int
    target: int
    ranked: bool
    date: datetime
    games: list[Game]
    current_game: Game | None

    @property
    def replayable(self) -> list[Game]:
        """The games of the match that are over and may be replayed."""
        return [g for g in self.games if not g.is_active]


def _result(match: Match, seat: int) -> str:
    if match.status == Match.Status.ACTIVE:
        return "in_progress"
    if match.status == Match.Status.ABORTED or match.winner is None:
        return "aborted"
    return "won" if match.winner == seat else "lost"


def match_history_rows(matches: list[Match], user: object) -> list[HistoryEntry]:
    """Lines for a page of ``match_history_for(user)``."""
    rows = []
    for match in matches:
        seat = match.seat_of(user)
        if seat is None:  # an inactive user's own history: find the seat by id
            seat = 0 if match.user0_id == getattr(user, "pk", None) else 1
        games = list(match.games.all())
        opponent = match.user_at(1 - seat)
        rows.append(
            HistoryEntry(
                match=match,
                seat=seat,
                opponent=match.seat_name(1 - seat),
                opponent_is_bot=match.is_bot(1 - seat),
                opponent_username=opponent.username
                if opponent is not None and opponent.is_active
                else "",
                result=_result(match, seat),
                score=match.scores[seat],
                opponent_score=match.scores[1 - seat],
                target=match.target,
                ranked=match.ranked,
                date=match.finished_at or match.created_at,
                games=games,
                current_game=games[-1] if games else None,
            )
        )
    return rows


# --- replay ---------------------------------------------------------------------------------


def _board(replayed: engine.Game) -> dict[str, Any]:
    """The whole table after the game: both hands (it is over), pay-off piles as top and count,
    the stock only as a count."""
    board = replayed.view(None)
    for seat in SEATS:
        board["players"][seat]["hand"] = replayed.view(seat)["players"][seat]["hand"]
    for key in ("seat", "legal_moves", "rules"):
        board.pop(key, None)
    return board


def game_replay_frames(game: Game) -> list[dict[str, Any]]:
    """One frame per row of the log, after the deal's: ``len(rows) + 1`` frames. Each holds
    the board after that row and the row itself (``ply``, ``seat``, ``kind``, ``move``, and
    ``undoes`` for an undo row); the first frame is the deal (``kind`` "deal"). Only for games
    that are over: the boards show both hands."""
    frames: list[dict[str, Any]] = []
    dealt = _deal(game)
    frames.append(
        {"index": 0, "ply": None, "seat": None, "kind": "deal", "move": "", "board": _board(dealt)}
    )

    def record(row: LogRow, replayed: engine.Game) -> None:
        frame: dict[str, Any] = {
            "index": len(frames),
            "ply": row.ply,
            "seat": row.seat,
            "kind": row.kind,
            "move": row.text,
            "board": _board(replayed),
        }
        if row.kind == Move.Kind.UNDO:
            frame["undoes"] = row.undoes
        frames.append(frame)

    _replay_rows(game, game_log(game), record)
    return frames
