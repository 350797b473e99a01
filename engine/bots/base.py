"""What a bot is, and the registry that names them.

A bot is any object with ``choose(game, player) -> Move`` that looks only at
``game.view(player)``. Add one by subclassing ``BaseBot`` in a module of this
package, decorating it with ``@register("name")``, and importing that module
in ``engine/bots/__init__.py``.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from engine.moves import Move
from engine.rng import Rng

if TYPE_CHECKING:
    from engine.game import Game


class Bot(Protocol):
    """A player program."""

    def choose(self, game: Game, player: int) -> Move:
        """A legal move for ``player``, who must be to move; ValueError otherwise."""
        ...


def view_digest(view: dict[str, Any]) -> bytes:
    """A stable digest of a view (SHA-256 over canonical JSON), never ``hash()``."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).digest()


class BaseBot(ABC):
    """A deterministic bot: ``choose`` checks the turn, then calls ``choose_from_view``.

    ``rng_for(view)`` gives per-call randomness derived from the bot's seed and
    the view only, so equal seeds and equal views give equal choices.
    """

    name: ClassVar[str] = "base"

    def __init__(self, seed: int = 0) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a bot seed must be a non-negative integer, not {seed!r}")
        self.seed = seed

    def choose(self, game: Game, player: int) -> Move:
        if isinstance(player, bool) or player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {player!r}")
        view = game.view(player)
        if view["outcome"] is not None:
            raise ValueError("the game is over: there is no move to choose")
        if view["to_move"] != player:
            raise ValueError(f"player {player} is not to move")
        return self.choose_from_view(view)

    @abstractmethod
    def choose_from_view(self, view: dict[str, Any]) -> Move:
        """The move for the viewer of ``view``, who is to move."""

    def rng_for(self, view: dict[str, Any]) -> Rng:
        """A generator seeded from this bot's seed and a digest of ``view``."""
        digest = hashlib.sha256(self.seed.to_bytes(32, "big") + view_digest(view)).digest()
        return Rng(int.from_bytes(digest[:8], "big"))

    def __repr__(self) -> str:
        return f"bot({self.name!r}, seed={self.seed})"


BotFactory = Callable[..., Bot]
#: Bot name -> factory taking the seed (and the bot's own keyword options, if any).
REGISTRY: dict[str, BotFactory] = {}

B = TypeVar("B", bound=type[BaseBot])


def register(name: str) -> Callable[[B], B]:
    """Class decorator: make ``bot(name, seed)`` build this class with ``seed``."""

    def decorate(cls: B) -> B:
        if name in REGISTRY:
            raise ValueError(f"a bot named {name!r} is already registered")
        cls.name = name
        REGISTRY[name] = cls
        return cls

    return decorate


def names() -> list[str]:
    """The registered bot names, sorted."""
    return sorted(REGISTRY)


def bot(name: str, seed: int = 0, **options: Any) -> Bot:
    """A new bot of the named kind; ValueError for an unknown name or option.

    ``options`` are the bot's own knobs (e.g. ``bot("expert", 1, samples=4)``).
    """
    factory = REGISTRY.get(name) if isinstance(name, str) else None
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; the bots are: {', '.join(names())}")
    try:
        return factory(seed, **options)
    except TypeError as err:
        raise ValueError(f"bad options for bot {name!r}: {err}") from None
