"""Writes about matches and games: the only code that touches both the engine and the database.

Every action is one transaction that locks the game row (one writer per game), checks who
acts, whose turn it is and which version the action was chosen against, lets the engine
decide, saves the state with ``version + 1`` and an append-only Move row, and — only once
the transaction commits — broadcasts each viewer's frames and wakes the bot runner.

A package since it grew past a few hundred lines (ARCHITECTURE.md): ``matches`` creates
matches, deals games and handles rematches; ``play`` moves, resigns, takes back and aborts;
``_common`` holds the locked read, the seat checks and a move's result; ``inputs`` what a
client sends for a move, checked alike at both doors; ``store`` a change's
SQL (the locked read as a ``GameRow``, and its write). Import names from here.

``_new_seed`` is the package's patch point, looked up at call time by the modules inside: every
secret seed (tests make it deterministic). The doorbell's is ``games.sending.groups``.
"""

from __future__ import annotations

import secrets


def _new_seed() -> int:
    """A fresh secret seed (63 bits: it fits a signed BigIntegerField)."""
    return secrets.randbits(63)


from games.services._common import RESIGN_SCOPES, MoveResult  # noqa: E402
from games.services.inputs import MAX_MOVE_ID, MoveInput, move_input  # noqa: E402
from games.services.matches import (  # noqa: E402
    REMATCH_ACTIONS,
    RematchResult,
    match_create,
    match_create_between,
    match_rematch,
)
from games.services.play import (  # noqa: E402
    game_abort,
    game_play_move,
    game_resign,
    game_undo,
)

__all__ = [
    "MAX_MOVE_ID",
    "REMATCH_ACTIONS",
    "RESIGN_SCOPES",
    "MoveInput",
    "MoveResult",
    "RematchResult",
    "game_abort",
    "game_play_move",
    "game_resign",
    "game_undo",
    "match_create",
    "match_create_between",
    "match_rematch",
    "move_input",
]
