"""rummykit: a pure-Python rummy rules engine.

>>> from rummykit import new_game
>>> g = new_game("cg101", players=3, seed=1)
>>> g.rules.target_score, g.hand_size(0)
(150, 7)
"""

from .cards import format_card, format_cards, parse_card, parse_cards
from .errors import IllegalMoveError, NotationError, RulesError, RummyError
from .moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD, SWAP, TAKE, Move
from .position import position_from_text, position_to_text
from .rules import PRESETS, Rules
from .state import Game, GameState, MatchResult, Phase, new_game
from .view import PlayerView, determinize

__all__ = [
    "DISCARD", "DRAW_DISCARD", "DRAW_STOCK", "LAYOFF", "MELD", "PRESETS", "SWAP", "TAKE",
    "Game", "GameState", "IllegalMoveError", "MatchResult", "Move", "NotationError",
    "Phase", "PlayerView", "Rules", "RulesError", "RummyError", "determinize",
    "format_card", "format_cards", "new_game", "parse_card", "parse_cards",
    "position_from_text", "position_to_text",
]  # fmt: skip
