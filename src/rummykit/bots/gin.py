"""The expert's Gin strategy: the decisions only knock games have.

Used by :class:`~rummykit.bots.expert.ExpertBot` when ``rules.knock_card is not
None``; every other game keeps the expert's usual play.  Each rule reads the view and
the solver only, and each constant was chosen on paired deals against OpenSpiel's
``SimpleGinRummyBot`` with ``benchmarks/gin_strength.py`` (docs/bots.md, "Gin
strategy", has the figures):

* **Knock timing: wait for gin or an undercut.**  Gin (no deadwood) always goes down.
  With :data:`GIN_WAIT_DEADWOOD` points of deadwood or fewer while the stock still
  holds :data:`GIN_WAIT_STOCK` cards or more, the expert plays on: it may reach gin
  (25 more), and an opponent who knocks meanwhile, with up to 10, is likely to be
  undercut (25 more, and the difference).  Otherwise it knocks when it can.
* **The wall.**  Near the end of the stock (below :data:`GIN_WAIT_STOCK`, and at the
  wall itself) it knocks whenever it can: the opponent's hand only improves, and at
  the wall a pass voids the hand.
* **Drawing from the pile** (:data:`DRAW_MARGIN`): the upcard must improve the
  hand's value by 3 points, not 1, to be taken; every card taken is a card the
  opponent knows, and a stock card keeps the outs open.
"""

from __future__ import annotations

from ..knock import deadwood_shown
from ..moves import KNOCK, PASS, Move
from ..rules import Family
from ..solver import Solver
from ..state import Phase
from ..view import PlayerView

GIN_WAIT_DEADWOOD = 5
"""Play on for gin (or an undercut) with this much deadwood or less; chosen on
4,000-hand paired runs (points share against SimpleGinRummyBot): 0 (knock at once)
60.5%, 2: 62.1%, 4: 64.2%, 5: 65.1%, 6: 65.6%, 8: 66.3% but fewer than half the hands
won; 5 keeps the win rate while the points gain is most of the way there."""
GIN_WAIT_STOCK = 10
"""...while the stock holds at least this many cards (a Gin stock starts at 31)."""
DRAW_MARGIN = 3.0
"""How much the hand's value (deadwood less outs) must improve for the expert to take
a discard in Gin (1.0 in other games): 60.5% of points at 3 against 58.4% at 1."""


def is_knock_game(view: PlayerView) -> bool:
    """Whether the Gin rules apply: only knock games have a knock card."""
    return view.rules.family is Family.GIN


def should_knock(view: PlayerView, solver: Solver) -> bool:
    """Knock now (``KNOCK`` is legal), or play on for gin or an undercut?

    >>> from rummykit.position import position_from_text
    >>> g = position_from_text(
    ...     "gin 2H3H4H7S7D7C9C9D9S2CKD/AS2S3S4S5S6S8S5HTSJS - 8H 30 1p -/- 0,0 dealer=2")
    >>> should_knock(g.view(0), g.game.solver)   # 2 points after KD goes, 30 in stock
    False
    """
    d = deadwood_shown(view.game, view.hand)
    if d == 0:
        return True
    waiting = view.phase is not Phase.WALL and view.stock_size >= GIN_WAIT_STOCK
    return not (waiting and d <= GIN_WAIT_DEADWOOD)


def knock_game_choice(view: PlayerView, solver: Solver) -> Move | None:
    """The expert's move in Gin's knock decisions, or None for its usual play: knock
    or play on (:func:`should_knock`), and knock or void the hand at the wall."""
    legal = view.legal
    if Move(KNOCK) in legal:
        # At the wall should_knock never waits: the alternative is a void hand.
        return Move(KNOCK) if should_knock(view, solver) else None
    if view.phase is Phase.WALL:
        return Move(PASS)
    return None
