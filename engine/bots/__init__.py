"""Bots: player programs that see only ``game.view(player)``.

>>> from engine import Game
>>> game = Game.new(seed=1)
>>> bot("random", seed=5).choose(game, game.to_move) in game.legal_moves()
True
>>> bot("greedy").choose(game, game.to_move) in game.legal_moves()
True
"""

from engine.bots import expert as expert
from engine.bots import greedy as greedy
from engine.bots import random_bot as random_bot
from engine.bots.base import REGISTRY, BaseBot, Bot, bot, names, register, view_digest

# Bot modules register themselves on import; add new ones here.
_ = (random_bot, greedy, expert)

__all__ = ["REGISTRY", "BaseBot", "Bot", "bot", "names", "register", "view_digest"]
