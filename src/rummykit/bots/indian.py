"""The heuristic bots' Indian Rummy play: draw, discard, declare and drop.

Used by :class:`~rummykit.bots.greedy.GreedyBot` (``careful=False``),
:class:`~rummykit.bots.expert.ExpertBot` (``careful=True``) and the search bot
(``careful=True, lookahead=True``: one draw ahead, see :func:`lookahead_discard`), whose
move the search bot plays unless its samples show another of
:func:`search_candidates` to be better.  Everything reads the view only: the hand, the public wild
cut, the discard pile, the drops and the scores.

* **Hand value**: :meth:`HandSolver.soft`, the loose cards of the best grouping plus a
  charge for each missing sequence and for a missing pure one (jokers and wild cards
  are free).
* **Declare** whenever the hand makes a valid show, never a wrong one (under
  ``wrong_show`` declaring is always legal); when declaring, put out a card that
  leaves a valid show.
* **Draw**: take the top discard when the best hand after taking it (and discarding
  another card) is worth at least :data:`TAKE_MARGIN` less than the hand now.
* **Discard** the card whose loss leaves the lowest hand value, the costliest on a tie;
  ``lookahead`` (hard) counts, as well, what the next blind draw is expected to bring.
* **Drop** (first drop, both levels): a hand with no joker, no pure sequence and at most
  one pair of same-suit cards within two ranks of each other is unlikely to be shown
  soon.  ``careful`` also middle-drops after :data:`MIDDLE_DROP_ROUNDS` rounds of turns
  when it still has no pure sequence and counts :data:`MIDDLE_DROP_POINTS` or more.
  A drop that would take a pool player to the elimination score is never made.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..cards import COPIES, JOKER, bits, copy_of, display_face, face_of, format_face
from ..moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, DROP, KNOCK, Move
from ..phase import Phase
from ..player_view import unseen_faces
from ..rules import Scoring
from ..variants.indian import HandSolver, declare_fields, is_wild, makes_wrong_show, wild_rank
from ..view import PlayerView

if TYPE_CHECKING:
    from ..state import GameState

TAKE_MARGIN = 2
"""How much lower (better) the hand value must get for the careful bot to take the
top discard rather than a blind stock card (the easy bot takes any gain)."""
MIDDLE_DROP_ROUNDS = 4
"""Rounds of turns after which the careful bot considers a middle drop."""
MIDDLE_DROP_POINTS = 60
"""...with a hand that counts at least this and no pure sequence."""
OUTS_WEIGHT = 1.5
"""How much the hard bot's discard weighs the expected gain of the next draw (as the
expert's in the other games; of 0.5, 1, 1.5 and 3 on the same 200 duplicate deals of
``indian`` against medium, 1.5 gained the most points and 3 lost)."""


def solver_of(view: PlayerView) -> HandSolver:
    solver = getattr(view.game.variant, "solver", None)
    if not isinstance(solver, HandSolver):
        raise ValueError("not an Indian Rummy game")
    return solver


def indian_move(
    view: PlayerView, rng: random.Random, careful: bool, lookahead: bool = False
) -> Move:
    """The move of the easy (``careful=False``), medium (``careful``) or hard
    (``lookahead`` too) bot."""
    legal = view.legal
    solver = solver_of(view)
    if Move(KNOCK) in legal and solver.declarable(view.hand, declare_fields(view).wild):
        return Move(KNOCK)
    if view.phase is Phase.KNOCK:
        return _cheapest_out(view, solver, legal)
    if view.phase is Phase.DRAW:
        if Move(DROP) in legal and should_drop(view, solver, careful):
            return Move(DROP)
        take = Move(DRAW_DISCARD)
        if take in legal and _take_gain(view, solver) > (TAKE_MARGIN if careful else 0):
            return take
        return Move(DRAW_STOCK) if Move(DRAW_STOCK) in legal else legal[0]
    discards = [m for m in legal if m.kind == DISCARD]
    if discards:
        if lookahead:
            return lookahead_discard(view, solver, discards)
        return best_discard(view, solver, discards)
    return legal[rng.randrange(len(legal))]  # pragma: no cover - every phase is above


SEARCH_TURNS = 4
"""Turns of each player a search playout of Indian Rummy plays before it scores the
hands as the round's scoring counts them (:func:`cutoff_deltas`): the finish search
that checks a declaration made a playout to the round's end cost about 30 ms, eight
times one to this depth."""


def search_candidates(view: PlayerView, rng: random.Random, top_k: int) -> list[Move]:
    """The moves the search bot compares in Indian Rummy, its own heuristic move
    (:func:`indian_move` with the lookahead) first.  A valid declaration and the card a
    declaration puts out are played as they are, alone; in the draw phase the other
    draws join it (never a drop the heuristic did not choose); in the play phase the
    ``top_k`` discards that leave the lowest soft count (:meth:`HandSolver.soft`).

    The heuristic's discard weighs the next draw by a fixed weight; the samples' four
    turns of play (:data:`SEARCH_TURNS`) see what the opponent takes and throws, and on
    150 duplicate deals at 40 samples a move they took 6.7 points a round more from
    ``medium`` than the heuristic alone (docs/bots.md, "Indian Rummy")."""
    first = indian_move(view, rng, careful=True, lookahead=True)
    if first.kind == KNOCK or view.phase is Phase.KNOCK:
        return [first]
    legal = view.legal
    if view.phase is Phase.DRAW:
        return list(dict.fromkeys([first, *(m for m in legal if m.kind != DROP)]))
    solver = solver_of(view)
    hand = view.hand
    wild = declare_fields(view).wild

    def left(m: Move) -> int:
        return solver.soft(hand & ~(1 << copy_of(hand, m.a)), wild)

    discards = sorted((m for m in legal if m.kind == DISCARD), key=left)
    return list(dict.fromkeys([first, *discards[:top_k]]))


def valid_outs(view: PlayerView, legal: tuple[Move, ...]) -> list[Move]:
    """Declaring: the cards whose putting out leaves a valid show (every legal card
    when none does, or when the rules refuse a wrong show)."""
    variant = view.game.variant
    wild = declare_fields(view).wild
    return [m for m in legal if not makes_wrong_show(variant, view.hand, wild, view.phase, m)]


def _cheapest_out(view: PlayerView, solver: HandSolver, legal: tuple[Move, ...]) -> Move:
    """Declaring: of the cards leaving a valid show, put out the one worth most."""
    return max(valid_outs(view, legal), key=lambda m: solver.values[m.a] if m.a < 52 else -1)


def best_discard(view: PlayerView, solver: HandSolver, discards: list[Move]) -> Move:
    """The discard leaving the lowest hand value; on a tie the costliest card (a joker
    or wild card last)."""
    hand = view.hand
    wild = declare_fields(view).wild

    def key(m: Move) -> tuple[int, int]:
        c = copy_of(hand, m.a)
        cost = 0 if is_wild(c, wild) else solver.values[m.a]
        return (solver.soft(hand & ~(1 << c), wild), -cost)

    return min(discards, key=key)


def lookahead_discard(view: PlayerView, solver: HandSolver, discards: list[Move]) -> Move:
    """The discard leaving the best hand once the next blind draw is counted: the hand
    value minus :data:`OUTS_WEIGHT` times the expected gain of one card drawn from the
    unseen ones.  An unseen face gains what the hand with it counts less than the hand
    plus that card loose (a card that fits nothing gains 0; a joker or wild card never
    counts loose).  Only faces near a held card (same rank, same suit within two), the
    jokers and the wild rank can gain, so only those are tried."""
    hand = view.hand
    wild = declare_fields(view).wild
    wr = wild_rank(wild)
    live = unseen_faces(view)
    total = sum(live.values()) or 1

    def gain(rest: int, base: int) -> float:
        near = {JOKER} | ({s * 13 + wr for s in range(4)} if wr >= 0 else set())
        for c in bits(rest):
            f = face_of(c)
            if f < 52:
                suit, rank = divmod(f, 13)
                near.update(s * 13 + rank for s in range(4))
                near.update(suit * 13 + (rank + d) % 13 for d in (-2, -1, 1, 2))
        out = 0.0
        for f in near:
            copies = live.get(f, 0)
            probe = next((c for c in COPIES[f] if not rest >> c & 1), -1)
            if not copies or probe < 0:
                continue
            loose = 0 if is_wild(probe, wild) else solver.values[f]
            better = base + loose - solver.soft(rest | 1 << probe, wild)
            if better > 0:
                out += better * copies
        return out / total

    def key(m: Move) -> tuple[float, int]:
        c = copy_of(hand, m.a)
        rest = hand & ~(1 << c)
        base = solver.soft(rest, wild)
        cost = 0 if is_wild(c, wild) else solver.values[m.a]
        return (base - OUTS_WEIGHT * gain(rest, base), -cost)

    return min(discards, key=key)


def _take_gain(view: PlayerView, solver: HandSolver) -> int:
    """How much the hand value drops by taking the top discard and discarding the best
    other card."""
    if not view.discard:
        return 0
    top = view.discard[-1]
    hand = view.hand | (1 << top)
    wild = declare_fields(view).wild
    now = solver.soft(view.hand, wild)
    after = min(solver.soft(hand & ~(1 << c), wild) for c in bits(hand) if c != top)
    return now - after


def poor_hand(view: PlayerView, solver: HandSolver) -> bool:
    """No joker or wild card, no pure sequence, and at most one pair of same-suit cards
    within two ranks."""
    hand = view.hand
    faces = sorted({face_of(c) for c in bits(hand)})
    wild = declare_fields(view).wild
    if any(is_wild(c, wild) for c in bits(hand)):
        return False
    if has_pure_sequence(hand):
        return False
    pairs = sum(
        1
        for i, a in enumerate(faces)
        for b in faces[i + 1 :]
        if a < 52 and b < 52 and a // 13 == b // 13 and b - a <= 2
    )
    return pairs <= 1


def has_pure_sequence(hand: int) -> bool:
    """Three cards of one suit in a row (ace low or high), no joker needed."""
    present = 0
    for c in bits(hand):
        f = face_of(c)
        if f < 52:
            present |= 1 << f
    for s in range(4):
        row = present >> (13 * s) & 0x1FFF
        row |= (row & 1) << 13  # the ace again above the king
        if row & (row >> 1) & (row >> 2):
            return True
    return False


def should_drop(view: PlayerView, solver: HandSolver, careful: bool) -> bool:
    """The drop decision (see the module's notes)."""
    r = view.rules
    in_deal = sum(1 for d in declare_fields(view).dropped if d >= 0)
    first = view.turn <= in_deal
    penalty = r.first_drop if first else r.middle_drop
    target = r.target_score
    if r.elimination and target is not None and view.scores[view.player] + penalty >= target:
        return False
    if first:
        return poor_hand(view, solver)
    if not careful or view.turn < MIDDLE_DROP_ROUNDS * in_deal:
        return False
    if has_pure_sequence(view.hand):
        return False
    return solver.points(view.hand, declare_fields(view).wild) >= max(
        MIDDLE_DROP_POINTS, penalty + 20
    )


def explain(view: PlayerView, move: Move, unicode: bool = True) -> str:
    """One line on why ``move`` suits this Indian Rummy hand (the hints)."""
    solver = solver_of(view)

    def fmt(face: int) -> str:
        return display_face(face) if unicode else format_face(face)

    hand = view.hand
    if move.kind == DROP:
        return (
            "drop: a weak hand (no joker, no pure sequence in sight); pay the drop now "
            "rather than up to 80 later"
        )
    if move.kind == KNOCK:
        return "declare: your cards form two sequences, one of them pure, and every card is grouped"
    if move.kind == DISCARD and view.phase is Phase.KNOCK:
        if not solver.declarable(hand, declare_fields(view).wild):
            return (
                f"put out {fmt(move.a)}: no card out leaves a valid declaration, so this "
                f"show is wrong and costs {view.rules.wrong_show}"
            )
        if makes_wrong_show(view.game.variant, hand, declare_fields(view).wild, view.phase, move):
            return (
                f"put out {fmt(move.a)}: the other 13 cards are not a valid declaration, a "
                f"wrong show that costs {view.rules.wrong_show}"
            )
        return f"put out {fmt(move.a)}: the other 13 cards are a valid declaration"
    if move.kind == DISCARD:
        c = copy_of(hand, move.a)
        left = solver.points(hand & ~(1 << c), declare_fields(view).wild)
        return f"discard {fmt(move.a)}: it helps your groups least; your hand would count {left}"
    if move.kind == DRAW_DISCARD and view.discard:
        return f"take {fmt(face_of(view.discard[-1]))}: it improves your groups"
    if move.kind == DRAW_STOCK:
        if not view.discard:
            return "draw from the stock: the discard pile is empty"
        return (
            f"draw from the stock: {fmt(face_of(view.discard[-1]))} on the discard pile "
            "does not improve your groups"
        )
    return "the strongest move found"  # pragma: no cover - every Indian move is above


# -- the review's playouts ---------------------------------------------------------------------


def links(face: int, present: int) -> int:
    """How many of the natural faces in ``present`` (a bit per face) could meld with
    ``face``: the same rank in another suit, or the same suit within two ranks (an ace
    next to the king as well as the two).

    >>> from rummykit.cards import parse_face
    >>> hand = sum(1 << parse_face(f) for f in ("7H", "7S", "8H", "KD", "AD"))
    >>> links(parse_face("7H"), hand), links(parse_face("KD"), hand), links(parse_face("2C"), hand)
    (2, 1, 0)
    """
    suit, rank = divmod(face, 13)
    near = sum(1 << (s * 13 + rank) for s in range(4) if s != suit)
    near |= sum(1 << (suit * 13 + (rank + d) % 13) for d in (-2, -1, 1, 2))
    return (present & near & ~(1 << face)).bit_count()


def playout_move(s: GameState, solver: HandSolver) -> Move:
    """The move of a review playout in Indian Rummy, read from a sampled state.

    The heuristic bots value a hand by a grouping search per candidate card, which
    made a playout cost tens of milliseconds; a playout only needs a plausible
    player, so this one counts links (:func:`links`) instead: it takes the top
    discard when it is wild or links with two cards, declares when the hand is a
    valid declaration (searched only when it holds a pure sequence and few
    unconnected cards), and discards the natural card with the fewest links, the
    costliest on a tie.  It never drops."""
    phase = s.phase
    p = s.current
    hand = s.hands[p]
    wild = declare_fields(s).wild
    if phase is Phase.DRAW:
        legal = s.legal_moves()
        take = Move(DRAW_DISCARD)
        if s.discard and take in legal:
            top = s.discard[-1]
            present = _natural_faces(hand, wild)
            if is_wild(top, wild) or links(face_of(top), present) >= 2:
                return take
        stock = Move(DRAW_STOCK)
        return stock if stock in legal else next(m for m in legal if m.kind != DROP)
    if phase is Phase.PLAY:
        present = _natural_faces(hand, wild)
        taken = -1 if s.rules.discard_taken_card else s.taken
        loose = [
            (links(face_of(c), present), -solver.values[face_of(c)], face_of(c))
            for c in bits(hand)
            if c != taken and not is_wild(c, wild)
        ]
        wilds = hand.bit_count() - len(loose) - (taken >= 0 and not is_wild(taken, wild))
        if (
            sum(max(0, 2 - k) for k, _v, _f in loose) <= 2 + 2 * wilds
            and has_pure_sequence(hand)
            and solver.declarable(hand, wild)
        ):
            return Move(KNOCK)
        if loose:
            return Move(DISCARD, min(loose)[2])
    if phase is Phase.KNOCK:  # the declaration's card out: the first that leaves a show
        present = _natural_faces(hand, wild)
        order = sorted(
            bits(hand),
            key=lambda c: (
                (1, 0, 0)
                if is_wild(c, wild)
                else (0, links(face_of(c), present), -solver.values[face_of(c)])
            ),
        )
        for c in order:
            if solver.valid(hand & ~(1 << c), wild):
                return Move(DISCARD, face_of(c))
    return s.legal_moves()[0]


def _natural_faces(hand: int, wild: int) -> int:
    """A bit per natural face of ``hand`` that is not wild this deal."""
    present = 0
    for c in bits(hand):
        if not is_wild(c, wild):
            present |= 1 << face_of(c)
    return present


def cutoff_deltas(s: GameState, solver: HandSolver) -> list[int]:
    """Indian Rummy's deltas of a playout cut off before its end: the player in the
    deal whose hand counts least declares now, and the others count their hands (a
    dropped player their drop), as the round's scoring counts them."""
    n = s.num_players
    counts = [0] * n
    live = []
    fields = declare_fields(s)
    for q in range(n):
        d = fields.dropped[q]
        if d > 0:
            counts[q] = d
        elif d == 0:
            counts[q] = solver.points(s.hands[q], fields.wild)
            live.append(q)
    if not live:  # pragma: no cover - a deal ends when one player is left in it
        return counts
    winner = min(live, key=counts.__getitem__)
    counts[winner] = 0
    if s.rules.scoring is Scoring.WINNER_COLLECTS:
        return [sum(counts) if q == winner else 0 for q in range(n)]
    return counts
