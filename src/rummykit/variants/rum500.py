"""500 Rum: melds score as they are laid, and the whole discard pile is open.

After HowStuffWorks, "How to Play 500 Rum" (entertainment.howstuffworks.com/
how-to-play-500-rum.htm); docs/rules.md lists every option against it.  Two hooks
differ from the seeds' turn:

* **the draw** (``deep_discard``): besides the stock and the top discard, a player may
  take any card of the pile together with every card above it, provided the deepest
  card taken is used in a meld or lay-off at once.  It is one move,
  ``Move(DRAW_DEEP, n)``, taking the top ``n >= 2`` cards; the deepest is then the
  pending card that the next move must use, as a top discard is under
  ``discard_pickup=must_use``, and the draw is legal only if the turn can go on;
* **the score** (``meld_scoring``): each meld and each lay-off adds its cards' value
  to the score of the player who lays it, when laid (so the running scores are public
  and move during a hand), and when the hand ends each player loses what is left in
  hand.  A high ace in a run or an ace in a set counts ``ace_points`` (15), a low ace
  in A-2-3 counts 1, pictures 10, others their number.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..cards import bits
from ..errors import IllegalMoveError
from ..events import Deal, Laid
from ..melds import RUN, Shape, meld_table
from ..moves import DRAW_DEEP, Move
from ..phase import PENDING_USE, Phase
from ..results import RoundEnd
from ..rules import Family, Rules
from ..scoring import PlayerScore, RoundResult, card_value, hand_value
from .base import MoveGenerator, Variant

if TYPE_CHECKING:
    from ..state import GameState


class Rum500(Variant):
    """Melds scored when laid; deep draws from the discard pile."""

    name = Family.RUM500
    aliases = ("500 Rum", "Rummy 500", "Rum 500", "Pinochle Rummy")

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self._meld_points: dict[int, int] = {}
        """A memo of :meth:`meld_points` by shape (shapes never change)."""

    def phase_moves(self) -> Mapping[Phase, MoveGenerator]:
        moves = dict(super().phase_moves())
        if self.rules.deep_discard:
            moves[Phase.DRAW] = draw_moves
        return moves

    def do_move(self, state: GameState, move: Move) -> None:
        take_deep(state, move.a)

    def draw_error(self, state: GameState, kind: int) -> IllegalMoveError:
        return IllegalMoveError(
            "deep_discard_must_use",
            "a card taken from deep in the discard pile comes with every card above it and "
            "must be melded or laid off at once, and this one cannot be (500 Rum)",
        )

    # -- scoring -------------------------------------------------------------------------
    def meld_points(self, shape: int) -> int:
        points = self._meld_points.get(shape)
        if points is None:
            cells = len(self._shapes(shape).cells)
            points = self._meld_points[shape] = sum(
                self.cell_points(shape, i) for i in range(cells)
            )
        return points

    def cell_points(self, shape: int, index: int) -> int:
        """The card in cell ``index``: a joker counts as the card it stands for, an ace
        1 at the low end of a run and ``ace_points`` elsewhere (HowStuffWorks: "High aces
        count 15, low aces 1")."""
        sh = self._shapes(shape)
        face = sh.cells[index]
        if face % 13 == 0 and sh.kind == RUN and sh.positions[index] == 0:
            return 1
        return card_value(self.rules, face)

    def _shapes(self, shape: int) -> Shape:
        return meld_table(self.rules).shapes[shape]

    def score(self, state: GameState, winner: int | None, reason: RoundEnd) -> RoundResult:
        """The hand's points: each player's melds and lay-offs (already in the score,
        added as they were laid) less the cards left in hand, so the rounds' deltas add
        up to the scores.  The melds are summed from the round's ``laid`` events, so a
        position built by hand counts those laid since it was built."""
        rules = self.rules
        laid = laid_points(state)
        players = []
        for p in range(state.num_players):
            cards = tuple(bits(state.hands[p]))
            held = hand_value(rules, cards)
            notes = (f"melds +{laid[p]}", f"cards in hand -{held}")
            players.append(PlayerScore(cards, held, laid[p] - held, notes))
        went_out = winner is not None
        return RoundResult(
            state.round_no, state.dealer, winner, went_out, reason, False, tuple(players)
        )

    def add_round(self, state: GameState, result: RoundResult) -> None:
        """Only the cards left in hand: the melds were added as they were laid."""
        for p, ps in enumerate(result.players):
            state.scores[p] -= ps.hand_points


def laid_points(state: GameState) -> list[int]:
    """Per player, the points their melds and lay-offs scored this round: the ``laid``
    events since the round's ``deal``."""
    out = [0] * state.num_players
    for event in reversed(state.events):
        if type(event) is Laid:
            out[event.player] += event.points
        elif type(event) is Deal:
            break
    return out


def draw_moves(state: GameState) -> list[Move]:
    """The seeds' draws, then a deep draw of every depth whose deepest card the player
    could use at once."""
    out = list(state.draw_moves())
    pile = len(state.discard)
    for n in range(2, pile + 1):
        t = state.turn_copy()
        take_deep(t, n)
        if t.finishable({}):
            out.append(Move(DRAW_DEEP, n))
    return out


def take_deep(state: GameState, n: int) -> None:
    """The player takes the top ``n`` cards of the discard pile; the deepest is pending."""
    p = state.current
    pile = state.discard
    taken = pile[-n:]
    del pile[-n:]
    mask = 0
    for c in taken:
        mask |= 1 << c
    state.hands[p] |= mask
    state.known[p] |= mask
    deepest = taken[0]
    state.taken = deepest
    state.pending = deepest
    state.pending_kind = PENDING_USE
    state.set_phase(Phase.PLAY)
