"""Small pieces of play shared by the heuristic bots: all work from a view.

Everything here reads a :class:`~rummykit.view.PlayerView` and the exact solver, and
nothing else, so bots built from it cannot see hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import FACES_PER_DECK, JOKER, bits, copy_of, face_of, is_joker
from ..moves import (
    DISCARD,
    DRAW_DEEP,
    DRAW_DISCARD,
    DRAW_STOCK,
    KNOCK,
    LAYOFF,
    MELD,
    PASS,
    Move,
)
from ..rules import Ace, Family, Rules
from ..scoring import card_value
from ..solver import Solver
from ..state import Phase
from ..view import PlayerView
from .contract import contract_move

JOKER_KEEP = 50.0
"""Points added to the cost of discarding a joker when ``link_weight`` is on."""


def hand_after_meld(view: PlayerView, hand: int, shape_index: int) -> int:
    """The hand left after laying down a shape (copies chosen like the engine)."""
    sh = view.game.melds.shapes[shape_index]
    for i, face in enumerate(sh.cells):
        c = copy_of(hand, JOKER if sh.joker_cells >> i & 1 else face)
        if c >= 0:
            hand &= ~(1 << c)
    return hand


def layoff_face(view: PlayerView, move: Move) -> int:
    """The face a lay-off move puts down (JOKER for a joker)."""
    if move.c:
        return JOKER
    suit, pos = divmod(move.b, 14)
    return suit * 13 + (0 if pos == 13 else pos)


def _partner_table(ace_high: bool) -> tuple[int, ...]:
    """Per face (jokers: 0), the physical cards of either deck that could share a meld
    with it: the same rank in another suit, or the same suit within two ranks (an ace
    also next to the king and queen where it may be high)."""
    table = []
    for face in range(JOKER + 1):
        mask = 0
        if face < JOKER:
            suit, rank = divmod(face, 13)
            near = {rank + d for d in (-2, -1, 1, 2)}
            if ace_high and rank in (0, 11, 12):  # Q-K-A: the ace sits above the king
                near |= {11, 12} if rank == 0 else {0}
            for other in range(4):
                if other != suit:
                    mask |= 1 << (other * 13 + rank)
            for r in near:
                if 0 <= r < 13 and r != rank:
                    mask |= 1 << (suit * 13 + r)
            mask |= mask << FACES_PER_DECK | mask << 2 * FACES_PER_DECK
        table.append(mask)
    return tuple(table)


PARTNERS = {False: _partner_table(False), True: _partner_table(True)}
"""Per ace-may-be-high flag, :func:`_partner_table`: the cards a card is connected to."""


def links(rules: Rules, hand: int, card: int) -> int:
    """How many cards of ``hand`` could share a meld with ``card`` (its prospects).

    >>> from rummykit.cards import parse_cards, mask_of
    >>> from rummykit.rules import Rules
    >>> hand = mask_of(parse_cards("7H 8H 7S KD"))
    >>> links(Rules.preset("basic"), hand, parse_cards("7H")[0])   # 8H and 7S
    2
    >>> links(Rules.preset("basic"), hand, parse_cards("KD")[0])
    0
    """
    return (hand & PARTNERS[rules.ace is Ace.HIGH_OR_LOW][face_of(card)]).bit_count()


def discard_choice(
    view: PlayerView,
    solver: Solver,
    danger: dict[int, float] | None = None,
    link_weight: float = 0.0,
) -> Move:
    """The legal discard that leaves the least deadwood; ties go to the costlier card.

    ``danger`` adds a per-face penalty (in points) for cards an opponent may want.
    ``link_weight`` adds that many points per card of the hand the discard is
    connected to (:func:`links`), and keeps jokers (:data:`JOKER_KEEP`): a cheap
    stand-in for the expert's outs, used by the search's playouts.
    """
    hand = view.hand
    after = solver.without(hand)
    best: Move | None = None
    best_key: tuple[float, int] = (float("inf"), 0)
    for m in view.legal:
        if m.kind != DISCARD:
            continue
        # Prefer another copy than the card just taken; where the legal list still
        # offers the taken card alone (Gin lets it go straight back), throw that.
        c = copy_of(hand, m.a, view.taken)
        if c < 0:
            c = copy_of(hand, m.a)
        cost = after(c) + (danger.get(m.a, 0.0) if danger else 0.0)
        if link_weight:
            cost += JOKER_KEEP if is_joker(c) else link_weight * links(view.rules, hand, c)
        key = (cost, -card_value(view.rules, c))
        if key < best_key:
            best_key = key
            best = m
    if best is None:  # pragma: no cover - callers only ask when a discard is legal
        raise ValueError("no legal discard")
    return best


def best_meld(view: PlayerView, solver: Solver) -> Move | None:
    """The legal meld after which the rest of the hand has the least deadwood."""
    best: Move | None = None
    best_key: tuple[int, int] = (1 << 30, 0)
    for m in view.legal:
        if m.kind != MELD:
            continue
        rest = hand_after_meld(view, view.hand, m.a)
        sh = view.game.melds.shapes[m.a]
        key = (solver.deadwood(rest), sh.njokers)
        if key < best_key:
            best_key = key
            best = m
    return best


def best_layoff(view: PlayerView, solver: Solver) -> Move | None:
    """A lay-off that lowers the hand's deadwood (naturals before jokers)."""
    base = solver.deadwood(view.hand)
    best: Move | None = None
    best_gain = 0
    for m in view.legal:
        if m.kind != LAYOFF:
            continue
        face = layoff_face(view, m)
        c = copy_of(view.hand, face)
        if c < 0:
            continue
        gain = base - solver.deadwood(view.hand & ~(1 << c)) - (5 if m.c else 0)
        if gain > best_gain:
            best_gain = gain
            best = m
    return best


def draw_gain(view: PlayerView, solver: Solver) -> int:
    """How much the top discard lowers deadwood beyond its own value (>0: it melds)."""
    if not view.discard:
        return 0
    card = view.discard[-1]
    with_card = solver.deadwood(view.hand | (1 << card))
    return solver.deadwood(view.hand) + card_value(view.rules, card) - with_card


DEEP_RISK = 0.5
"""In a deep draw, points of the new deadwood weighed against each point it melds: cards
left in hand count against their holder in 500 Rum, but the points melded score now."""


def deep_draw_choice(view: PlayerView, solver: Solver) -> Move | None:
    """500 Rum: the legal draw from the discard pile (top card or deeper) that melds the
    most points, net of :data:`DEEP_RISK` times the deadwood it adds, or None when no
    draw from the pile gains anything.  A card drawn from the pile must be used at once,
    so the legal list offers only draws whose deepest card melds or lays off; those that
    only lay off gain nothing here, a cautious reading of a hand the solver cannot see
    the table for."""
    before = solver.deadwood(view.hand)
    best: Move | None = None
    best_gain = 0.0
    pile = view.discard
    for m in view.legal:
        if m.kind == DRAW_DEEP:
            n = m.a
        elif m.kind == DRAW_DISCARD:
            n = 1
        else:
            continue
        taken = 0
        for c in pile[len(pile) - n :]:
            taken |= 1 << c
        value = sum(card_value(view.rules, c) for c in bits(taken))
        after = solver.deadwood(view.hand | taken)
        melded = before + value - after
        gain = melded - DEEP_RISK * max(0, after - before)
        if gain > best_gain:
            best_gain = gain
            best = m
    return best


def faces_of(mask: int) -> list[int]:
    return [face_of(c) for c in bits(mask)]


def knock_game_move(view: PlayerView, solver: Solver) -> Move | None:
    """The simple choices of Gin's own phases, or None where the usual play applies.

    Take the first upcard only if it melds; knock as soon as the rules allow (also at
    the wall); once nothing is left to lay, pass.
    """
    legal = view.legal
    if view.phase is Phase.FIRST_UPCARD:
        if Move(DRAW_DISCARD) in legal and draw_gain(view, solver) > 0:
            return Move(DRAW_DISCARD)
        return Move(PASS) if Move(PASS) in legal else Move(DRAW_STOCK)
    if Move(KNOCK) in legal:
        return Move(KNOCK)
    if view.phase is Phase.WALL:
        return Move(PASS)
    return None


def pass_if_done(legal: Sequence[Move]) -> Move | None:
    """PASS when it is legal and nothing better was found (Gin's knock and lay-off)."""
    return Move(PASS) if Move(PASS) in legal else None


def greedy_move(
    view: PlayerView, solver: Solver, rng: random.Random, link_weight: float = 0.0
) -> Move:
    """The greedy policy: take the upcard only if it melds, knock when allowed, lay
    the meld that leaves the least deadwood, lay off what helps, discard the card
    that costs least to lose, pass when done.

    ``view`` may be a real :class:`PlayerView` or, inside a search, any object with
    the same few fields read from a sampled state.
    """
    legal = view.legal
    if view.rules.family is Family.CONTRACT:  # Contract Rummy: play to the deal's contract
        chosen = contract_move(view, careful=False)
        if chosen is not None:
            return chosen
    if view.phase is Phase.DRAW:
        if view.rules.deep_discard:
            deep = deep_draw_choice(view, solver)
            if deep is not None:
                return deep
        take = Move(DRAW_DISCARD)
        if take in legal and draw_gain(view, solver) > 0:
            return take
        return Move(DRAW_STOCK) if Move(DRAW_STOCK) in legal else legal[0]
    m = knock_game_move(view, solver) or best_meld(view, solver) or best_layoff(view, solver)
    if m is not None:
        return m
    if any(x.kind == DISCARD for x in legal):
        return discard_choice(view, solver, link_weight=link_weight)
    return last_resort(legal, rng)


def last_resort(legal: Sequence[Move], rng: random.Random) -> Move:
    """When no preferred move applies: pass if that is legal; else a meld or lay-off
    (obligations, such as a pending card, leave only those); else any legal move."""
    done = pass_if_done(legal)
    if done is not None:
        return done
    for kind in (MELD, LAYOFF):
        for x in legal:
            if x.kind == kind:
                return x
    return legal[rng.randrange(len(legal))]
