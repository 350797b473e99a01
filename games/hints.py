"""Hints (docs/games.md, "Hints"): in a casual game against a server bot, a player may ask the
expert what it would play from their own view.

``hint_ask`` checks who asks and where (only a player of a casual match against a bot, in
their own turn, at the current version: refused with the reason anywhere else, ranked play and
games between people above all) and records the hint; the job ``hint_compute`` runs on the
play queue (a player waits for it; reviews wait on the background queue) and asks
``engine.coach.hint`` with the player's view only. The hint reaches the player's sockets as a
``hint`` frame, and the REST API reads it back. Asking twice at one version is one hint.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

import engine
from core import jobs
from core.errors import FORBIDDEN, GAME_OVER, NOT_YOUR_TURN, STALE_VERSION, GameError
from engine import coach
from games.models import Game, Hint, Match
from games.reasons import reason_text
from games.selectors.actions import hint_allowed
from games.selectors.frames import game_get
from games.sending.groups import game_hint_send
from games.services._common import acting_seat

logger = logging.getLogger(__name__)

NOT_HERE = _("Hints are for casual games against a bot: never in ranked play or against a person.")

#: The expert's seed for hints: its per-call randomness comes from this and the view alone.
HINT_SEED = 0


def hint_options() -> dict[str, int]:
    """The expert's budget for a hint (and a review's expert): worlds and states, counts."""
    return {"samples": settings.GAMES_HINT_WORLDS, "budget": settings.GAMES_HINT_STATES}


def hint_ask(*, game_id: int, user: Any, version: int) -> Hint:
    """Record ``user``'s request for a hint in ``game_id`` at ``version`` and have the job
    compute it once the request commits; the hint already asked at that version if there is
    one. Refusals: not_found, unauthenticated, forbidden (a spectator; ranked play; a game
    against a person), game_over, not_your_turn, stale_version."""
    with transaction.atomic():
        game = game_get(game_id=game_id)
        match = game.match
        seat = acting_seat(match, user=user)
        if not hint_allowed(match):
            raise GameError(FORBIDDEN, NOT_HERE)
        if not game.is_active or match.status != Match.Status.ACTIVE:
            raise GameError(GAME_OVER, _("This game is over."))
        if game.to_move != seat:
            raise GameError(NOT_YOUR_TURN, _("Hints are for your own turn."))
        if version != game.version:
            raise GameError(
                STALE_VERSION,
                _("The table moved on since you asked; here is the current state."),
                params={"version": game.version},
            )
        hint, created = Hint.objects.get_or_create(game=game, seat=seat, version=version)
        if created:
            jobs.enqueue(hint_compute, hint.pk, queue=jobs.PLAY)
    return hint


def hint_compute(hint_id: int) -> bool:
    """The job: the expert's move for the hint's seat and version, from that seat's view, then
    the ``hint`` frame to the player's sockets. Nothing when the game moved on. Runs again
    harmlessly (the stored hint is sent again). True if it computed the hint."""
    try:
        hint = Hint.objects.select_related("game").get(pk=hint_id)
    except Hint.DoesNotExist:
        return False
    game = hint.game
    computed = False
    if not hint.move:
        if game.version != hint.version or not game.is_active:
            return False
        view = engine.Game.from_dict(game.state).view(hint.seat)
        found = coach.hint(view, seed=HINT_SEED, **hint_options())
        hint.move, hint.line = found.move.text, [m.text for m in found.line]
        hint.reason = None if found.reason is None else found.reason.to_dict()
        hint.save(update_fields=["move", "line", "reason"])
        computed = True
        logger.info("hint in game %s at version %s: %s", game.pk, hint.version, hint.move)
    game_hint_send(game_id=game.pk, seat=hint.seat, frame=hint_frame(hint, text=False))
    return computed


def hint_frame(hint: Hint, *, text: bool = True) -> dict[str, Any]:
    """The ``hint`` frame (docs/protocol.md); ``text``: with the reason's sentence in the
    active language (a socket adds it in its own)."""
    frame: dict[str, Any] = {
        "type": "hint",
        "game": hint.game_id,
        "version": hint.version,
        "move": hint.move or None,
        "line": list(hint.line),
        "reason": hint.reason,
    }
    if text:
        frame["text"] = reason_text(hint.reason)
    return frame


def hint_latest(*, game_id: int, user: Any) -> Hint | None:
    """The hint ``user`` asked at the game's current version, if any (not_found, forbidden as
    ``hint_ask``)."""
    game = game_get(game_id=game_id)
    seat = acting_seat(game.match, user=user)
    return Hint.objects.filter(game=game, seat=seat, version=game.version).first()


def hint_get(hint_id: int) -> Hint | None:
    """A hint by its id, or None."""
    return Hint.objects.filter(pk=hint_id).first()


def hints_used(game: Game) -> list[int]:
    """How many hints each seat asked for in ``game``."""
    counts = [0, 0]
    for seat in Hint.objects.filter(game=game).values_list("seat", flat=True):
        counts[seat] += 1
    return counts
