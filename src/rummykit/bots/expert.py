"""``expert`` (difficulty ``medium``): greedy play plus card counting and defence.

What it adds to :mod:`greedy`:

* **Card tracking.**  From the view it knows every card that is not in an unknown
  place: its hand, the discard pile, the table, and the cards opponents took face up.
  The rest are *live* cards, any of which it might still draw.
* **Draw and discard by outs.**  A hand is valued as its deadwood minus how much the
  live cards would improve it on average ("outs"), so it keeps connected cards that
  still have live partners, takes the upcard when the resulting hand is worth more
  than a blind draw's expectation, and throws the card with the fewest prospects.
* **Defence.**  It avoids discarding a card that fits a meld on the table (the next
  player could take it and lay it off) or that matches what an opponent has been
  collecting from the discard pile.
* **Opening (Rami).**  Until it has opened it keeps the cards that build the 51
  points rather than shedding the highest, since never melding costs 100.
* **Contract Rummy** (:mod:`.contract`): before going down it plays to the deal's
  contract, valuing a hand by the cards the contract still lacks and its outs among
  the live cards; once down it keeps only cards that may yet be laid off.
* **Joker care (Rami).**  A joker is worth more than its deadwood in the hand: it
  never lays one off alone and discards one only as a last resort.
"""

from __future__ import annotations

import random

from ..cards import FACE_MASKS, JOKER, bits, copy_of, face_of, is_joker
from ..melds import RUN
from ..moves import BUY, DISCARD, DRAW_DISCARD, DRAW_STOCK, LAYOFF, PASS, Move
from ..rules import Family
from ..scoring import card_value
from ..solver import Solver
from ..state import Phase
from ..table import layoff_cells
from ..view import PlayerView, unseen_faces
from . import gin
from .base import Bot
from .contract import contract_move
from .contract import discard_keys as contract_discard_keys
from .indian import indian_move
from .rummikub import expert_move
from .tactics import (
    best_layoff,
    best_meld,
    deep_draw_choice,
    draw_gain,
    knock_game_move,
    last_resort,
)

OUTS_WEIGHT = 1.5
"""How much one expected point of improvement from a future draw is worth now."""

OPENING_WEIGHT = 1.0
"""Before an opening minimum is reached (Rami's 51), how much a card's points count for
keeping it: high cards build the opening, and never melding costs 100.  Chosen by
single-round duplicate deals of rami51 with four players against ``greedy`` (300
deals each): mean advantage per seat 1.5 points at 0, 4.3 at 0.5, 12.4 at 1.0, 7.8 at
1.5, 8.2 at 2.0."""


class ExpertBot(Bot):
    name = "expert"

    def __init__(
        self,
        outs_weight: float = OUTS_WEIGHT,
        danger_weight: float = 1.0,
        opening_weight: float = OPENING_WEIGHT,
        contract_aware: bool = True,
        gin_style: gin.GinStyle = gin.MEDIUM,
    ) -> None:
        self.outs_weight = outs_weight
        self.gin_style = gin_style
        """How it knocks and draws in Gin (``gin.MEDIUM``; ``hard`` searches from
        ``gin.HARD``)."""
        self.danger_weight = danger_weight
        self.opening_weight = opening_weight
        self.contract_aware = contract_aware
        """False: play Contract Rummy by deadwood as the other games (kept to measure
        the contract play against, ``benchmarks/contract_play.py``)."""

    # -- evaluation ------------------------------------------------------------------
    def _neighbours(self, hand: int, live: dict[int, int]) -> list[tuple[int, int]]:
        """Live faces that could join a meld with some card of the hand."""
        near: set[int] = set()
        have_joker = False
        for c in bits(hand):
            f = face_of(c)
            if f == JOKER:
                have_joker = True
                continue
            suit, rank = divmod(f, 13)
            for s in range(4):
                near.add(s * 13 + rank)
            for d in (-2, -1, 1, 2):
                r = (rank + d) % 13
                near.add(suit * 13 + r)
        if have_joker:
            near.add(JOKER)
        return [(f, live[f]) for f in near if f in live]

    def _value(self, view: PlayerView, solver: Solver, hand: int, live: dict[int, int]) -> float:
        """Deadwood minus the expected improvement of one more draw."""
        base = solver.deadwood(hand)
        if not live:
            return float(base)
        total_live = sum(live.values())
        gain = 0.0
        for f, copies in self._neighbours(hand, live):
            free = FACE_MASKS[f] & ~hand  # the copies of f not in the hand
            if not free:
                continue
            probe = free & -free  # the first of them (first deck first), as a bit
            v = card_value(view.rules, f)  # a face's value is its cards' value
            improvement = base + v - solver.deadwood(hand | probe)
            if improvement > 0:
                gain += improvement * copies
        weight = self.outs_weight
        if self.gin_style.outs_weight is not None and gin.is_knock_game(view):
            weight = self.gin_style.outs_weight
        return base - weight * gain / total_live

    def _danger(self, view: PlayerView) -> dict[int, float]:
        """Per face, points of help a discard would give an opponent."""
        t = view.game.melds
        danger: dict[int, float] = {}
        for tm in view.table:
            for _code, face, _idx in layoff_cells(t, tm):
                danger[face] = danger.get(face, 0.0) + 0.5 * card_value(view.rules, face)
        for p, known in enumerate(view.known):
            if p == view.player:
                continue
            for c in bits(known):
                f = face_of(c)
                if f == JOKER:
                    continue
                suit, rank = divmod(f, 13)
                for s in range(4):
                    g = s * 13 + rank
                    danger[g] = danger.get(g, 0.0) + 2.0
                for d in (-1, 1):
                    if 0 <= rank + d < 13:
                        g = suit * 13 + rank + d
                        danger[g] = danger.get(g, 0.0) + 1.5
        return danger

    # -- decisions -----------------------------------------------------------------------
    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        if view.rules.family is Family.RUMMIKUB:  # (bots/rummikub.py)
            return expert_move(view)
        if view.rules.family is Family.INDIAN:  # Indian Rummy (bots/indian.py)
            return indian_move(view, rng, careful=True)
        legal = view.legal
        solver = view.game.solver
        if view.rules.family is Family.CONTRACT and self.contract_aware:
            danger = self._danger(view) if view.phase is Phase.PLAY else None  # discards
            chosen = contract_move(view, careful=True, danger=danger)
            if chosen is not None:
                return chosen
        if gin.is_knock_game(view):
            decided = gin.knock_game_choice(view, solver, self.gin_style)
            if decided is not None:
                return decided
            if view.phase is Phase.FIRST_UPCARD:
                return knock_game_move(view, solver) or legal[0]
        else:
            special = knock_game_move(view, solver)
            if special is not None:
                return special
        if view.phase is Phase.DRAW:
            return self._draw(view, solver, legal)
        if view.phase is Phase.BUY:  # Contract Rummy by deadwood: buy what melds
            buy = (
                Move(BUY) in legal
                and not view.down
                and view.hand.bit_count() <= view.deal_size + 1
                and draw_gain(view, solver) > 0
            )
            return Move(BUY) if buy else Move(PASS)
        if view.pending >= 0:
            return self._resolve_pending(view, solver, legal)
        meld = best_meld(view, solver)
        if meld is not None and self._worth_melding(view, solver, meld):
            return meld
        layoff = self._layoff(view, solver)
        if layoff is not None:
            return layoff
        discards = [m for m in legal if m.kind == DISCARD]
        if discards:
            return self._discard(view, solver, discards)
        return last_resort(legal, rng)

    def _draw(self, view: PlayerView, solver: Solver, legal: tuple[Move, ...]) -> Move:
        if view.rules.deep_discard:  # 500 Rum: the whole pile is open, and melds score
            deep = deep_draw_choice(view, solver)
            if deep is not None:
                return deep
        take = Move(DRAW_DISCARD)
        stock = Move(DRAW_STOCK)
        if take not in legal:
            return stock if stock in legal else legal[0]
        if stock not in legal or draw_gain(view, solver) > 0:
            return take
        # Compare the hand after taking the upcard (and the best discard) with the
        # expected hand of a blind draw, approximated by the current hand's value.
        live = unseen_faces(view)
        card = view.discard[-1]
        hand = view.hand | (1 << card)
        best_after = min(
            self._value(view, solver, hand & ~(1 << c), live) for c in bits(hand) if c != card
        )
        now = self._value(view, solver, view.hand, live)
        margin = self.gin_style.draw_margin if gin.is_knock_game(view) else 1.0
        return take if best_after < now - margin else stock

    def _resolve_pending(self, view: PlayerView, solver: Solver, legal: tuple[Move, ...]) -> Move:
        meld = best_meld(view, solver)
        if meld is not None:
            return meld
        for m in legal:
            if m.kind == LAYOFF:
                return m
        return legal[0]

    def _worth_melding(self, view: PlayerView, solver: Solver, meld: Move) -> bool:
        """Meld unless it only feeds opponents' lay-offs while the hand is far from out."""
        sh = view.game.melds.shapes[meld.a]
        if view.phase in (Phase.KNOCK, Phase.LAYOFF):
            return True  # the hand is over: whatever is not melded counts
        if (view.rules.opening_minimum or view.rules.contracts) and not view.opened[view.player]:
            return True  # the opening is planned by legality: any legal start can finish
        cards_left = view.hand.bit_count() - len(sh.cells)
        if cards_left <= 2 or min(view.hand_sizes) <= 4:
            return True
        # A long run or a 4-set exposes few lay-offs; a 3-card run exposes two ends.
        exposure = 2 if sh.kind == RUN and len(sh.cells) == 3 else 1
        return exposure < 2 or view.hand.bit_count() >= 8

    def _layoff(self, view: PlayerView, solver: Solver) -> Move | None:
        m = best_layoff(view, solver)
        if m is None or m.c:
            # Keep jokers for melds unless that lay-off goes out.
            if m is not None and view.hand.bit_count() <= 1:
                return m
            naturals = [x for x in view.legal if x.kind == LAYOFF and not x.c]
            return naturals[0] if naturals and m is not None else None
        return m

    def _discard(self, view: PlayerView, solver: Solver, discards: list[Move]) -> Move:
        return min(self.discard_keys(view, solver, discards), key=lambda km: km[0])[1]

    def discard_keys(
        self, view: PlayerView, solver: Solver, discards: list[Move]
    ) -> list[tuple[float, Move]]:
        """Each discard with its cost (lower is better): the value of the hand left,
        the help it gives opponents, a large penalty for a joker, and a small bonus for
        shedding points.  :mod:`ismcts` searches the few cheapest.  Contract Rummy's
        are :func:`.contract.discard_keys`."""
        if view.rules.family is Family.CONTRACT and self.contract_aware:
            return contract_discard_keys(view, discards, True, self._danger(view))
        live = unseen_faces(view)
        danger = self._danger(view)
        hand = view.hand
        opening = (
            self.opening_weight
            if view.rules.opening_minimum and not view.opened[view.player]
            else 0.0
        )
        out: list[tuple[float, Move]] = []
        for m in discards:
            c = copy_of(hand, m.a, view.taken)
            if c < 0:
                continue
            rest = hand & ~(1 << c)
            key = self._value(view, solver, rest, live) + self.danger_weight * danger.get(m.a, 0.0)
            if is_joker(c):
                key += 25.0
            key += (opening - 0.01) * card_value(view.rules, c)
            out.append((key, m))
        return out or [(0.0, discards[0])]
