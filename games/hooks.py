"""What apps above games hear from it, through listeners they register in their
``AppConfig.ready()``: games never imports them (docs/architecture.md, "Layers").

- ``ranked_terms``: a ranked match is being opened (new or a rematch); the one listener (the
  leagues app) returns its rules or raises GameError forbidden. With none, no match is ranked.
- ``match_finished``: a match finished. Listeners registered ``in_transaction`` run in the
  transaction that finished it (a rating commits with its result), each in a savepoint: a
  listener that fails is logged and rolled back alone, never refusing the move that finished
  the match. Listeners registered ``on_commit`` run once that transaction commits, each in a
  transaction of its own, for work that can fail on its own (pairing a tournament's next
  round); a failure is logged with the match, and the match stays finished.
- ``match_aborted``: a match was aborted (``Match.aborted_by`` says by whom; None: by the
  site), told the same two ways (a tournament counts a player's abort as a forfeit).
- ``sweep_jobs``: work the sweeper runs every round beside its own (the lobby's expiry).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

import engine
from core.errors import FORBIDDEN, GameError

logger = logging.getLogger(__name__)

RankedTerms = Callable[..., engine.Rules]
MatchListener = Callable[[Any], None]

_ranked_terms: list[RankedTerms] = []
#: Each event's listeners: (run in the transaction, run once it commits).
_finished: tuple[list[MatchListener], list[MatchListener]] = ([], [])
_aborted: tuple[list[MatchListener], list[MatchListener]] = ([], [])
#: The sweeper's extra jobs, by name (``games.sweeper.sweep``).
sweep_jobs: dict[str, Callable[[], object]] = {}


def ranked_terms_register(listener: RankedTerms) -> None:
    """Let ``listener(league=…, user0=…, user1=…, bot0=…, bot1=…, scheduled=…)`` decide every
    ranked match (``scheduled``: a tournament's pairing, which the players did not choose)."""
    if listener not in _ranked_terms:
        _ranked_terms.append(listener)


def ranked_terms(**seats: Any) -> engine.Rules:
    """The rules of a ranked match with these seats (and its ``league``), or GameError
    forbidden: the registered listener decides."""
    if not _ranked_terms:
        raise GameError(FORBIDDEN, _("Ranked matches are played in a league."))
    return _ranked_terms[0](**seats)


def match_finished_register(listener: MatchListener, *, on_commit: bool = False) -> None:
    """Call ``listener(match)`` whenever a match finishes: in its transaction, or with
    ``on_commit`` once it commits."""
    _register(_finished, listener, on_commit)


def match_finished(match: Any) -> None:
    """Tell the listeners that ``match`` finished; called inside the transaction that
    finished it. Never raises."""
    _tell(_finished, match, "finished")


def match_aborted_register(listener: MatchListener, *, on_commit: bool = False) -> None:
    """Call ``listener(match)`` whenever a match is aborted, as ``match_finished_register``."""
    _register(_aborted, listener, on_commit)


def match_aborted(match: Any) -> None:
    """Tell the listeners that ``match`` was aborted; called inside the transaction that
    aborted it. Never raises."""
    _tell(_aborted, match, "aborted")


def _register(
    listeners: tuple[list[MatchListener], list[MatchListener]],
    listener: MatchListener,
    on_commit: bool,
) -> None:
    chosen = listeners[1] if on_commit else listeners[0]
    if listener not in chosen:
        chosen.append(listener)


def _tell(
    listeners: tuple[list[MatchListener], list[MatchListener]], match: Any, event: str
) -> None:
    in_transaction, on_commit = listeners
    for listener in in_transaction:
        try:
            with transaction.atomic():
                listener(match)
        except Exception:
            logger.exception("%s failed for the %s match %s", _name(listener), event, match.pk)
    for listener in on_commit:
        transaction.on_commit(partial(_after_commit, listener, match, event))


def _after_commit(listener: MatchListener, match: Any, event: str) -> None:
    try:
        with transaction.atomic():
            listener(match)
    except Exception:
        logger.exception(
            "%s failed after the match %s %s; the match stays %s",
            _name(listener),
            match.pk,
            event,
            event,
        )


def _name(listener: Callable[..., Any]) -> str:
    return f"{listener.__module__}.{getattr(listener, '__qualname__', listener)}"
