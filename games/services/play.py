"""Playing: moves, resignations, take-backs (undo against a bot) and aborts; ending games."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import engine
from core.errors import (
    BAD_MESSAGE,
    FORBIDDEN,
    GAME_OVER,
    ILLEGAL_MOVE,
    NOT_YOUR_TURN,
    NOTHING_TO_UNDO,
    STALE_VERSION,
    GameError,
    lazy_format,
)
from games import bots, hooks, reviews
from games.clocks import turn as clock
from games.models import Game, Match, Move
from games.refusals import refusal_message
from games.selectors import game_may_abort, game_seats_moved, game_undo_plan, undo_allowed
from games.sending.changes import broadcast_on_commit
from games.sending.groups import viewer_key
from games.services._common import (
    RESIGN_SCOPES,
    MoveResult,
    acting_seat,
    game_lock,
    opponent_phrase,
)
from games.services.inputs import MAX_MOVE_ID
from games.services.matches import game_create
from games.services.store import GameRow, log_append, row_write


def game_play_move(
    *,
    game_id: int,
    move: str,
    version: int,
    move_id: str = "",
    user: Any = None,
    bot: bool = False,
    seat: int | None = None,
    timed_out: bool = False,
) -> MoveResult:
    """Play ``move`` in game ``game_id`` for ``user`` (or, with ``bot=True``, for the bot in
    ``seat``), chosen against ``version``. ``timed_out``: the server plays it for ``user``,
    whose time ran out (``games.clocks.timeouts.turn_timeout``), counting a timeout.

    One transaction: lock and read (``game_lock``: the game, its match and the log's tail),
    check the seat, the turn and the version, let the engine play it, write the log row and the
    game, and build every viewer's frames, sent once the transaction commits.

    A ``move_id`` already recorded for this game returns the earlier result and applies
    nothing. Raises GameError: not_found, unauthenticated, forbidden, bad_message, game_over,
    not_your_turn, stale_version, illegal_move (with the engine's code and params).
    """
    if not isinstance(move_id, str) or len(move_id) > MAX_MOVE_ID:
        raise GameError(
            BAD_MESSAGE,
            lazy_format(
                _("A move id is a string of at most %(count)d characters."), count=MAX_MOVE_ID
            ),
        )
    if not isinstance(move, str):
        raise GameError(BAD_MESSAGE, _("A move is a text such as h:7D-c2."))
    acting: int | None = None
    try:
        with transaction.atomic():
            row = game_lock(game_id)
            game, match = row.game, row.match
            acting = acting_seat(match, user=user, bot=bot, seat=seat)
            fresh = game.is_active and game.to_move == acting and version == game.version
            if move_id and not fresh:
                # A resend of a move already applied carries the version it was chosen
                # against, so it is refused below: look for it first. (A fresh move's id is
                # checked by the log's unique constraint instead, saving a query per move.)
                earlier = _move_by_id(game.pk, move_id)
                if earlier is not None:
                    return _replayed(earlier, acting)
            if not game.is_active:
                raise GameError(GAME_OVER, _("This game is over."))
            if game.to_move != acting:
                raise GameError(
                    NOT_YOUR_TURN,
                    lazy_format(
                        # Translators: %(opponent)s is the opponent's username or "the Easy bot".
                        _("It is not your turn: %(opponent)s is playing."),
                        opponent=opponent_phrase(match, 1 - acting),
                    ),
                )
            if version != game.version:
                raise GameError(
                    STALE_VERSION,
                    _("The table moved on since you chose that move; here is the current state."),
                    params={"version": game.version},
                )
            played, parsed = _engine_move(game, move)
            game.state = played.to_dict()
            game.version += 1
            log = log_append(row, seat=acting, text=str(parsed), client_move_id=move_id)
            game_ended = match_ended = False
            if played.outcome is not None:
                outcome = played.outcome
                match_ended = _game_finish(
                    game, winner=outcome.winner, points=outcome.points, reason=outcome.reason
                )
                game_ended = True
            clock.after_move(game, acting=acting, timed_out=timed_out)
            row_write(row)
            event_frames = broadcast_on_commit(
                game,
                to_move_before=row.to_move_before,
                log=log,
                game_ended=game_ended,
                match_ended=match_ended,
                engine_game=played,
            )
            if game.is_active and match.is_bot(game.to_move):
                delay = float(settings.GAMES_BOT_MOVE_DELAY) if match.is_bot(acting) else 0.0
                bots.bot_move_enqueue(game.pk, game.version, delay=delay)
            return MoveResult(
                game_id=game.pk,
                version=game.version,
                ply=log[-1]["ply"],
                seat=acting,
                move=str(parsed),
                replayed=False,
                frames=tuple(event_frames.get(viewer_key(acting), ())),
            )
    except IntegrityError:
        # The log's unique constraint: this id was used before, at the current version.
        earlier = _move_by_id(game_id, move_id) if move_id and acting is not None else None
        if earlier is None or acting is None:
            raise
        return _replayed(earlier, acting)


def _engine_move(game: Game, move: str) -> tuple[engine.Game, engine.Move]:
    """The engine's game after ``move``, and the move; GameError ``illegal_move``."""
    played = engine.Game.from_dict(game.state)
    try:
        parsed = engine.Move.parse(move)
        played.play(parsed)
    except engine.IllegalMove as exc:
        raise GameError(
            ILLEGAL_MOVE,
            refusal_message(exc, king_on_empty=played.rules.king_on_empty),
            params=dict(exc.params),
            engine_code=exc.code,
        ) from exc
    return played, parsed


def _move_by_id(game_id: int, move_id: str) -> Move | None:
    """The log row with this client move id, if any (at most one: unique per game)."""
    return next(
        iter(Move.objects.filter(game_id=game_id, client_move_id=move_id).order_by()[:1]), None
    )


def _replayed(earlier: Move, acting: int) -> MoveResult:
    """The result of a move id seen before: the earlier move's, if the same seat sent it."""
    if earlier.seat != acting:
        raise GameError(BAD_MESSAGE, _("That move id was already used in this game."))
    return MoveResult(
        game_id=earlier.game_id,
        version=earlier.version,
        ply=earlier.ply,
        seat=earlier.seat,
        move=earlier.text,
        replayed=True,
    )


def game_resign(*, game_id: int, user: Any, scope: str) -> Game:
    """``user`` resigns the game (scope "game": the opponent scores the cards left in the
    resigner's pay-off pile) or the whole match (scope "match": the opponent wins it; the
    game ends as resigned and scores nothing more). Returns the ended game."""
    if scope not in RESIGN_SCOPES:
        raise GameError(BAD_MESSAGE, _('Resign the "game" or the "match".'))
    with transaction.atomic():
        row = game_lock(game_id)
        game = row.game
        seat = acting_seat(game.match, user=user, bot=False, seat=None)
        if not game.is_active:
            raise GameError(GAME_OVER, _("This game is over."))
        left = len(game.state["players"][seat]["payoff"])
        game.version += 1
        match_ended = _game_finish(
            game,
            winner=1 - seat,
            points=left if scope == "game" else 0,
            reason=Game.Reason.RESIGNED,
            match_resigned=scope == "match",
        )
        game_end_write(row, match_ended=match_ended)
    return game


def game_undo(*, game_id: int, user: Any, version: int) -> Game:
    """``user`` takes back moves of the current turn, in a casual match against a bot.

    Takes back every move of the turn since cards last came into view for the player (the
    turn's draw, a refill of an emptied hand, a new pay-off top: cards once seen cannot be
    unseen, and the stock is never dealt again) and restores exactly the position before them,
    shuffler included (``games.selectors.game_undo_plan`` replays the log). The undo is a row of
    the log (``kind="undo"``, ``undoes`` = how many moves) with its own ply, and a change like
    any other (version + 1, broadcast). GameError: bad_message, not_found, unauthenticated,
    forbidden (a spectator; ranked play; against a person), game_over, not_your_turn,
    stale_version, nothing_to_undo.
    """
    if isinstance(version, bool) or not isinstance(version, int):
        raise GameError(BAD_MESSAGE, _("An undo needs the version it was asked against."))
    with transaction.atomic():
        row = game_lock(game_id)
        game, match = row.game, row.match
        seat = acting_seat(match, user=user)
        if not undo_allowed(match):
            raise GameError(
                FORBIDDEN,
                _("Moves cannot be taken back in ranked play.")
                if match.ranked
                else _("Moves can be taken back only in a game against a bot."),
            )
        if not game.is_active or match.status != Match.Status.ACTIVE:
            raise GameError(GAME_OVER, _("This game is over."))
        if game.to_move != seat:
            raise GameError(NOT_YOUR_TURN, _("You can take back moves only in your own turn."))
        if version != game.version:
            raise GameError(
                STALE_VERSION,
                _("The table moved on since you asked; here is the current state."),
                params={"version": game.version},
            )
        plan = game_undo_plan(game, seat)
        if plan is None:
            raise GameError(
                NOTHING_TO_UNDO,
                _(
                    "Nothing to take back: you have made no move this turn since new cards "
                    "came into view."
                ),
            )
        game.state = plan.state
        game.version += 1
        log = log_append(row, seat=seat, kind=Move.Kind.UNDO, text="undo", undoes=plan.moves)
        row_write(row)
        broadcast_on_commit(game, to_move_before=row.to_move_before, log=log)
    return game


def game_abort(*, game_id: int, user: Any = None) -> Game:
    """``user`` calls off the match in its first game, before both seats have moved; with no
    ``user``, the site does (a tournament's forfeit).

    The game and the match end as ``aborted``: no winner, no points, nothing for any rating;
    ``Match.aborted_by`` keeps who did it, and the apps above hear it
    (``hooks.match_aborted``). After game 1, or once both seats have moved (a taken-back move
    counts), the players resign instead. A bot never aborts. Frames: the state, ``game_end``
    and ``match_end``, both with reason ``aborted``. GameError: not_found, unauthenticated,
    forbidden, game_over.
    """
    with transaction.atomic():
        row = game_lock(game_id)
        game, match = row.game, row.match
        seat = acting_seat(match, user=user) if user is not None else None
        if not game.is_active or match.status != Match.Status.ACTIVE:
            raise GameError(GAME_OVER, _("This game is over."))
        if game.number != 1:
            raise GameError(
                FORBIDDEN, _("Only a match's first game can be aborted: resign instead.")
            )
        may = game_may_abort(game, seat) if user is not None else len(game_seats_moved(game)) < 2
        if not may:
            raise GameError(FORBIDDEN, _("Both players have moved: resign instead of aborting."))
        now = timezone.now()
        game.status = Game.Status.ABORTED
        game.reason = Game.Reason.ABORTED
        game.winner = None
        game.points = 0
        game.finished_at = now
        game.version += 1
        match.status = Match.Status.ABORTED
        match.end_reason = Match.EndReason.ABORTED
        match.winner = None
        match.finished_at = now
        match.aborted_by = user
        match.save()
        game_end_write(row, match_ended=True)
        hooks.match_aborted(match)
    return game


# --- ending -----------------------------------------------------------------------------------


def game_end_write(row: GameRow, *, match_ended: bool) -> None:
    """Write a game that ended without a move (resigned, aborted, forfeited) and send every
    viewer's frames of it once the transaction commits."""
    row_write(row)
    broadcast_on_commit(
        row.game,
        to_move_before=row.to_move_before,
        log=row.log_tail,
        game_ended=True,
        match_ended=match_ended,
    )


def _game_finish(
    game: Game,
    *,
    winner: int | None,
    points: int,
    reason: str,
    match_resigned: bool = False,
    match_reason: str = "",
) -> bool:
    """Record the game's outcome, add its points to the match, then end the match (target
    reached, resigned, or ``match_reason``: a forfeit) or deal the next game. The caller saves
    ``game``. Returns whether the match ended."""
    now = timezone.now()
    reviews.review_enqueue(game)  # the expert reviews each person's turns, in the background
    game.status = Game.Status.FINISHED
    game.winner = winner
    game.points = points if winner is not None else 0
    game.reason = reason
    game.finished_at = now
    match = game.match  # locked with the game by game_lock
    if winner is not None:
        if winner == 0:
            match.score0 += game.points
        else:
            match.score1 += game.points
    if match_resigned or match_reason:
        _match_finish(match, winner=winner, reason=match_reason or Match.EndReason.RESIGNED)
        return True
    if winner is not None and match.scores[winner] >= match.target:
        _match_finish(match, winner=winner, reason=Match.EndReason.TARGET_REACHED)
        return True
    match.save(update_fields=["score0", "score1", "updated_at"])
    game_create(match=match, number=game.number + 1, first_player=1 - game.first_player)
    return False


def _match_finish(match: Match, *, winner: int | None, reason: str) -> None:
    match.status = Match.Status.FINISHED
    match.winner = winner
    match.end_reason = reason
    match.finished_at = timezone.now()
    match.save()
    # Ratings and tournaments hear of it (an aborted match never gets here).
    hooks.match_finished(match)
