"""The "random" bot: a uniformly random legal move."""

from __future__ import annotations

from typing import Any

from engine.bots.base import BaseBot, register
from engine.moves import Move


@register("random")
class RandomBot(BaseBot):
    """Plays a legal move chosen uniformly at random (seeded)."""

    def choose_from_view(self, view: dict[str, Any]) -> Move:
        return Move.parse(self.rng_for(view).choice(view["legal_moves"]))
