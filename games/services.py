"""Writes about matches and games: the only code that touches both the engine and the database.

Every action is one transaction that locks the game row (one writer per game), checks who
acts, whose turn it is and which version the action was chosen against, lets the engine
decide, saves the state with ``version + 1`` and an append-only Move row, and — only once
the transaction commits — broadcasts each viewer's frames and wakes the bot runner.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

import engine
from games import bots as bot_runner
from games.broadcast import game_event_send
from games.errors import (
    BAD_MESSAGE,
    FORBIDDEN,
    GAME_OVER,
    ILLEGAL_MOVE,
    NOT_FOUND,
    NOT_YOUR_TURN,
    STALE_VERSION,
    UNAUTHENTICATED,
    GameError,
)
from games.models import SEATS, BotLevel, Game, Match, Move
from games.selectors import game_event_frames

RESIGN_SCOPES = ("game", "match")
MAX_MOVE_ID = 64


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What a played move produced. ``replayed`` is True when the client move id had been
    seen before: nothing was applied, and this is the earlier move's result."""

    game_id: int
    version: int
    ply: int
    seat: int
    move: str
    replayed: bool


def _new_seed() -> int:
    """A fresh secret seed (63 bits: it fits a signed BigIntegerField)."""
    return secrets.randbits(63)


# --- creating ---------------------------------------------------------------------------------


def match_create(*, user: Any, bot: str, rules: engine.Rules, ranked: bool = False) -> Match:
    """A new match of ``user`` (seat 0, player one) against a bot (seat 1), with its first game.

    ``rules`` are the knobs of every game (``match_target`` included). The bot level must be
    one the engine knows (ValueError otherwise); an anonymous user gets ``unauthenticated``.
    """
    if not getattr(user, "is_authenticated", False):
        raise GameError(UNAUTHENTICATED, "Log in to start a match.")
    if bot not in BotLevel.values:
        raise ValueError(f"unknown bot level {bot!r}")
    engine.bot(bot, seed=0)  # ValueError if the engine has no such bot (yet)
    return _match_open(rules=rules, ranked=ranked, user0=user, bot1=bot)


def match_create_between(
    *, user0: Any, user1: Any, rules: engine.Rules, ranked: bool = False
) -> Match:
    """A new match between two people, with its first game. ``user0`` is player one (the one
    who challenged or posted the seek: RULES.md lets player one start on equal pay-off cards)."""
    for user in (user0, user1):
        if not getattr(user, "is_authenticated", False) or not user.is_active:
            raise GameError(UNAUTHENTICATED, "Both players need an active account.")
    if user0.pk == user1.pk:
        raise GameError(FORBIDDEN, "You cannot play against yourself.")
    return _match_open(rules=rules, ranked=ranked, user0=user0, user1=user1)


def _match_open(*, rules: engine.Rules, ranked: bool, **seats: Any) -> Match:
    """Create the match with ``seats`` (user0/user1/bot0/bot1) and deal its first game."""
    with transaction.atomic():
        match = Match.objects.create(
            rules=rules.to_dict(), target=rules.match_target, ranked=ranked, **seats
        )
        _game_create(match=match, number=1, first_player=None)
    return match


def _game_create(*, match: Match, number: int, first_player: int | None) -> Game:
    """Deal game ``number`` of ``match``; ``first_player`` None lets RULES.md choose (game 1).

    Must run inside the caller's transaction; wakes the bot runner on commit if a bot starts.
    """
    seed = _new_seed()
    rules = engine.Rules.from_dict(match.rules)
    dealt = engine.Game.new(seed=seed, rules=rules, first_player=first_player)
    game = Game.objects.create(
        match=match,
        number=number,
        seed=seed,
        bot_seed=_new_seed(),
        first_player=dealt.to_move,
        state=dealt.to_dict(),
        version=0,
    )
    game.match = match
    if match.is_bot(dealt.to_move):
        transaction.on_commit(partial(bot_runner.bot_turn_schedule, game.pk))
    return game


# --- acting -----------------------------------------------------------------------------------


def _game_lock(game_id: int) -> Game:
    """The game row and its match row, locked until the transaction ends (seated users are
    read along, not locked: PostgreSQL locks no nullable side of an outer join)."""
    game = (
        Game.objects.select_for_update(of=("self", "match"))
        .select_related("match", "match__user0", "match__user1")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise GameError(NOT_FOUND, "There is no such game.")
    return game


def _acting_seat(match: Match, *, user: Any, bot: bool, seat: int | None) -> int:
    """The seat that acts: a bot's given seat, or the seat the user holds."""
    if bot:
        if seat not in SEATS or not match.is_bot(seat):
            raise GameError(FORBIDDEN, "No bot sits in that seat.")
        return seat
    if user is None or not getattr(user, "is_authenticated", False):
        raise GameError(UNAUTHENTICATED, "Log in to play; anyone may watch.")
    held = match.seat_of(user)
    if held is None:
        raise GameError(FORBIDDEN, "You are watching this game: only its players may act.")
    return held


def _opponent_phrase(match: Match, seat: int) -> str:
    name = match.seat_name(seat)
    return f"the {name}" if match.is_bot(seat) else name


def game_play_move(
    *,
    game_id: int,
    move: str,
    version: int,
    move_id: str = "",
    user: Any = None,
    bot: bool = False,
    seat: int | None = None,
) -> MoveResult:
    """Play ``move`` in game ``game_id`` for ``user`` (or, with ``bot=True``, for the bot in
    ``seat``), chosen against ``version``.

    A ``move_id`` already recorded for this game returns the earlier result and applies
    nothing. Raises GameError: not_found, unauthenticated, forbidden, bad_message, game_over,
    not_your_turn, stale_version, illegal_move (with the engine's code and params).
    """
    if not isinstance(move_id, str) or len(move_id) > MAX_MOVE_ID:
        raise GameError(BAD_MESSAGE, f"A move id is a string of at most {MAX_MOVE_ID} characters.")
    if not isinstance(move, str):
        raise GameError(BAD_MESSAGE, "A move is a text such as h:7D-c2.")
    with transaction.atomic():
        game = _game_lock(game_id)
        match = game.match
        acting = _acting_seat(match, user=user, bot=bot, seat=seat)
        if move_id:
            earlier = Move.objects.filter(game_id=game.pk, client_move_id=move_id).first()
            if earlier is not None:
                if earlier.seat != acting:
                    raise GameError(BAD_MESSAGE, "That move id was already used in this game.")
                return MoveResult(
                    game_id=game.pk,
                    version=earlier.version,
                    ply=earlier.ply,
                    seat=earlier.seat,
                    move=earlier.text,
                    replayed=True,
                )
        if not game.is_active:
            raise GameError(GAME_OVER, "This game is over.")
        if game.to_move != acting:
            raise GameError(
                NOT_YOUR_TURN,
                f"It is not your turn: {_opponent_phrase(match, 1 - acting)} is playing.",
            )
        if version != game.version:
            raise GameError(
                STALE_VERSION,
                "The table moved on since you chose that move; here is the current state.",
                params={"version": game.version},
            )
        played = engine.Game.from_dict(game.state)
        try:
            parsed = engine.Move.parse(move)
            played.play(parsed)
        except engine.IllegalMove as exc:
            raise GameError(
                ILLEGAL_MOVE, str(exc), params=dict(exc.params), engine_code=exc.code
            ) from exc
        ply = game.ply
        game.state = played.to_dict()
        game.version += 1
        Move.objects.create(
            game=game,
            ply=ply,
            seat=acting,
            text=str(parsed),
            client_move_id=move_id,
            version=game.version,
        )
        game_ended = match_ended = False
        if played.outcome is not None:
            outcome = played.outcome
            match_ended = _game_finish(
                game, winner=outcome.winner, points=outcome.points, reason=outcome.reason
            )
            game_ended = True
        game.save()
        _broadcast_on_commit(game, game_ended=game_ended, match_ended=match_ended)
        if game.is_active and match.is_bot(game.to_move):
            transaction.on_commit(partial(bot_runner.bot_turn_schedule, game.pk))
    return MoveResult(
        game_id=game.pk,
        version=game.version,
        ply=ply,
        seat=acting,
        move=str(parsed),
        replayed=False,
    )


def game_resign(*, game_id: int, user: Any, scope: str) -> Game:
    """``user`` resigns the game (scope "game": the opponent scores the cards left in the
    resigner's pay-off pile) or the whole match (scope "match": the opponent wins it; the
    game ends as resigned and scores nothing more). Returns the ended game."""
    if scope not in RESIGN_SCOPES:
        raise GameError(BAD_MESSAGE, 'Resign the "game" or the "match".')
    with transaction.atomic():
        game = _game_lock(game_id)
        seat = _acting_seat(game.match, user=user, bot=False, seat=None)
        if not game.is_active:
            raise GameError(GAME_OVER, "This game is over.")
        left = len(game.state["players"][seat]["payoff"])
        game.version += 1
        match_ended = _game_finish(
            game,
            winner=1 - seat,
            points=left if scope == "game" else 0,
            reason=Game.Reason.RESIGNED,
            match_resigned=scope == "match",
        )
        game.save()
        _broadcast_on_commit(game, game_ended=True, match_ended=match_ended)
    return game


# --- ending -----------------------------------------------------------------------------------


def _game_finish(
    game: Game, *, winner: int | None, points: int, reason: str, match_resigned: bool = False
) -> bool:
    """Record the game's outcome, add its points to the match, then end the match (target
    reached, or resigned) or deal the next game. The caller saves ``game``. Returns whether
    the match ended."""
    now = timezone.now()
    game.status = Game.Status.FINISHED
    game.winner = winner
    game.points = points if winner is not None else 0
    game.reason = reason
    game.finished_at = now
    match = game.match  # locked with the game by _game_lock
    if winner is not None:
        if winner == 0:
            match.score0 += game.points
        else:
            match.score1 += game.points
    if match_resigned:
        _match_finish(match, winner=winner, reason=Match.EndReason.RESIGNED)
        return True
    if winner is not None and match.scores[winner] >= match.target:
        _match_finish(match, winner=winner, reason=Match.EndReason.TARGET_REACHED)
        return True
    match.save(update_fields=["score0", "score1", "updated_at"])
    _game_create(match=match, number=game.number + 1, first_player=1 - game.first_player)
    return False


def _match_finish(match: Match, *, winner: int | None, reason: str) -> None:
    match.status = Match.Status.FINISHED
    match.winner = winner
    match.end_reason = reason
    match.finished_at = timezone.now()
    match.save()


def _broadcast_on_commit(game: Game, *, game_ended: bool, match_ended: bool) -> None:
    """Build every viewer's frames now (inside the transaction: they show exactly this
    version) and send them once the transaction commits."""
    frames = game_event_frames(game, game_ended=game_ended, match_ended=match_ended)
    transaction.on_commit(
        partial(game_event_send, game_id=game.pk, version=game.version, frames=frames)
    )
