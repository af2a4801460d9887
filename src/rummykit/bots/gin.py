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

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class GinStyle:
    """How an expert knocks and draws in Gin: ``medium`` plays :data:`MEDIUM`, and the
    search that ``hard`` runs starts from :data:`HARD`'s moves."""

    wait_deadwood: int = GIN_WAIT_DEADWOOD
    """Play on for gin with this much deadwood or less..."""
    wait_stock: int = GIN_WAIT_STOCK
    """...while the stock holds at least this many cards."""
    draw_margin: float = DRAW_MARGIN
    """How much the upcard must improve the hand's value to be taken."""
    outs_weight: float | None = None
    """The outs' weight in Gin (None: the expert's own, ``expert.OUTS_WEIGHT``)."""


MEDIUM = GinStyle()
"""``medium``'s Gin, chosen against OpenSpiel's ``SimpleGinRummyBot`` (above)."""

HARD = GinStyle(wait_deadwood=8, draw_margin=4.0, outs_weight=2.0)
"""The moves ``hard``'s search keeps unless another measures better, chosen against
``medium`` (1,000 duplicate single hands each, points share against ``medium``):
waiting for gin with up to 8 points of deadwood 51.2% (up to 6: 50.5%, 10: 51.1%),
an upcard taken at a gain of 5 points 50.5% (2: 48.6%), outs weighted 2.5 49.8% (4:
47.3%), and the three together at 8, 4 and 2: 52.1% (0.3 to 1.7 points a hand).  The
search on them took 59.5% of the points from ``medium`` where it took 56.9% on
``medium``'s moves (200 deals, 100 samples a move, paired +1.08 points a hand, -0.29 to
+2.45), and 57.6% over 400 deals with 200 fresh ones (docs/bots.md, "The search against
medium at Gin").  They wait longer than ``medium`` before knocking and win fewer
hands against ``SimpleGinRummyBot`` (46% against 52%) for more points, which is why
``medium`` keeps its own."""


def is_knock_game(view: PlayerView) -> bool:
    """Whether the Gin rules apply: only knock games have a knock card."""
    return view.rules.family is Family.GIN


def should_knock(view: PlayerView, solver: Solver, style: GinStyle = MEDIUM) -> bool:
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
    waiting = view.phase is not Phase.WALL and view.stock_size >= style.wait_stock
    return not (waiting and d <= style.wait_deadwood)


def knock_game_choice(view: PlayerView, solver: Solver, style: GinStyle = MEDIUM) -> Move | None:
    """The expert's move in Gin's knock decisions, or None for its usual play: knock
    or play on (:func:`should_knock`), and knock or void the hand at the wall."""
    legal = view.legal
    if Move(KNOCK) in legal:
        # At the wall should_knock never waits: the alternative is a void hand.
        return Move(KNOCK) if should_knock(view, solver, style) else None
    if view.phase is Phase.WALL:
        return Move(PASS)
    return None
