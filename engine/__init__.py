"""The rules engine of Spite & Malice: pure Python, no Django.

>>> from engine import Game
>>> game = Game.new(seed=7)
>>> game.play(game.legal_moves()[-1])
>>> game.ply
1
"""

from engine.bots import bot
from engine.game import Game, Outcome
from engine.moves import IllegalMove, Move
from engine.rules import Rules, RulesError

__all__ = ["Game", "IllegalMove", "Move", "Outcome", "Rules", "RulesError", "bot"]
