"""What a client sends to play a move, checked the same way at both doors: the game socket's
``move`` message and the REST API's ``POST /api/v1/games/<id>/moves/`` body
(docs/protocol.md, docs/api.md). A field missing or of the wrong kind is ``bad_message`` with
the same words at each, and ``params.field`` names the field."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.errors import BAD_MESSAGE, GameError

#: A client move id: 1 to 64 printable characters.
MAX_MOVE_ID = 64
#: The longest move text (the engine's longest is "h:10D-c12", 9 characters).
MAX_MOVE_TEXT = 32


@dataclass(frozen=True, slots=True)
class MoveInput:
    id: str
    move: str
    version: int


def plain_text(value: str) -> bool:
    """Whether ``value`` may be stored and echoed as it is: no NUL, no lone surrogate (which
    PostgreSQL or UTF-8 refuse), no other control character."""
    return value.isprintable()


def _refused(field: str, message: str | Promise) -> GameError:
    return GameError(BAD_MESSAGE, message, params={"field": field})


def move_input(content: Any) -> MoveInput:
    """The move ``content`` asks for; GameError ``bad_message`` if any field is wrong. The
    version may be any integer: one that is not the game's is ``stale_version`` later."""
    if not isinstance(content, Mapping):
        raise _refused("", _("A move is a JSON object with its id, move and version."))
    move_id, move, version = content.get("id"), content.get("move"), content.get("version")
    if (
        not isinstance(move_id, str)
        or not 1 <= len(move_id) <= MAX_MOVE_ID
        or not plain_text(move_id)
    ):
        raise _refused("id", _("A move needs an id: a string of 1 to 64 printable characters."))
    if not isinstance(move, str) or not move or len(move) > MAX_MOVE_TEXT:
        raise _refused("move", _("A move needs its text, such as h:7D-c2."))
    if isinstance(version, bool) or not isinstance(version, int):
        raise _refused("version", _("A move needs the version it was chosen against."))
    return MoveInput(id=move_id, move=move, version=version)
