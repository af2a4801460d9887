"""Why a move is good, in words a person can read: the reasons of the hints and of
the game review's better moves (:func:`why`, :func:`explain`).

The review grades by these reasons and the hints (:mod:`rummykit.bots.hints`) grade
by the review, so the reasons live apart from both: each imports this module, and
neither the other's.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import JOKER, bits, copy_of, display_face, face_of, format_face, is_joker
from ..moves import (
    BUY,
    DISCARD,
    DRAW_DEEP,
    DRAW_DISCARD,
    DRAW_STOCK,
    KNOCK,
    LAYOFF,
    MELD,
    PASS,
    SWAP,
    TAKE,
    Move,
)
from ..rules import Ace, Family
from ..scoring import card_value, hand_value
from ..solver import Solver
from ..state import Phase
from ..table import layoff_options
from ..variants.gin import laying_off
from ..view import PlayerView, unseen_cards
from . import indian, rummikub
from .tactics import PARTNERS, hand_after_meld, layoff_face


def why(view: PlayerView, move: Move, unicode: bool = True) -> str:
    """The reason in words for ``move`` in this view, for a hint or a review's better
    move: Indian Rummy's (:func:`rummykit.bots.indian.explain`, which knows its wild
    cards and declaration), Rummikub's (:func:`rummykit.bots.rummikub.explain`: the
    tiles a play places) or, for the games of melds in play, :func:`explain`'s."""
    if view.rules.family is Family.INDIAN:
        return indian.explain(view, move, unicode)
    if view.rules.family is Family.RUMMIKUB:
        return rummikub.explain(view, move, unicode)
    return explain(view, move, Solver(view.rules, view.game.melds), unicode)


def explain(view: PlayerView, move: Move, solver: Solver, unicode: bool = True) -> str:
    """One line saying why ``move`` is good in this view.

    Every reason is measured on the position (a reason must be true of the position):
    a meld is named only if the solver's best arrangement after the move
    holds it, deadwood figures are the solver's, a draw with a card is named only when
    that card is in hand, connected (:data:`~rummykit.bots.tactics.PARTNERS`) and the
    outs (:func:`outs`) go up; where nothing of that holds, a neutral fact is given.
    """

    def fmt(face: int) -> str:
        return display_face(face) if unicode else format_face(face)

    hand = view.hand
    before = solver.deadwood(hand)
    if move.kind == DRAW_DISCARD:
        return f"take {fmt(face_of(view.discard[-1]))}: " + _take_reason(view, solver, fmt)
    if move.kind == DRAW_DEEP:
        return _deep_reason(view, solver, move, fmt)
    if move.kind == DRAW_STOCK:
        if not view.discard:
            return "draw from the stock: the discard pile is empty"
        top = fmt(face_of(view.discard[-1]))
        if not _upcard_helps(view, solver):
            return f"draw from the stock: {top} on the discard pile does not help your hand"
        return "draw from the stock: " + _unseen_outs(view, solver)
    if move.kind == MELD:
        shape = view.game.melds.shapes[move.a]
        cards = view.game.melds.describe(move.a)
        after = solver.deadwood(hand_after_meld(view, hand, move.a))
        if unicode:
            cards = " ".join(
                ("🃏=" + fmt(f)) if shape.joker_cells >> i & 1 else fmt(f)
                for i, f in enumerate(shape.cells)
            )
        rest = hand_after_meld(view, hand, move.a)
        if rest == 0:
            return f"meld {cards}: it goes out"
        points = hand_value(view.rules, bits(hand & ~rest))
        return f"meld {cards}: {points} points off your hand, {after} left in deadwood"
    if move.kind == LAYOFF:
        face = layoff_face(view, move)
        head = f"lay off {fmt(face)} on meld {move.a + 1}: "
        c = copy_of(hand, face)
        after = solver.deadwood(hand & ~(1 << c)) if c >= 0 else before
        if after < before:
            return head + _change(before, after)
        return head + "one card fewer in your hand"
    if move.kind == SWAP:
        return f"swap {fmt(move.b)} for the joker in meld {move.a + 1}: a joker fits anywhere"
    if move.kind == TAKE:
        return f"take from meld {move.a + 1} to build a new meld"
    if move.kind == DISCARD:
        return f"discard {fmt(move.a)}: " + _discard_reason(view, solver, move, before)
    if move.kind == KNOCK:
        return "knock: your deadwood is within the limit, end the hand now"
    if move.kind == PASS:
        return _pass_reason(view, solver, fmt)
    if move.kind == BUY:
        top = fmt(face_of(view.discard[-1]))
        after = solver.deadwood(hand | (1 << view.discard[-1]))
        penalty = view.rules.buy_penalty
        return f"buy {top} (+{penalty} unseen): deadwood {before} -> {after} with it"
    return "the strongest move found"  # pragma: no cover - every kind is named above


def _deep_reason(view: PlayerView, solver: Solver, move: Move, fmt: Callable[[int], str]) -> str:
    """500 Rum's deep draw: the card dug out, how many come with it, and the points of
    hand plus pile that then go into melds (the solver's figures)."""
    pile = view.discard[len(view.discard) - move.a :]
    taken = 0
    for c in pile:
        taken |= 1 << c
    hand = view.hand | taken
    melded = hand_value(view.rules, bits(hand)) - solver.deadwood(hand)
    head = f"take {fmt(face_of(pile[0]))} and the {move.a - 1} card(s) above it: "
    return head + f"{melded} points of your hand would then be in melds"


def _change(before: int, after: int) -> str:
    """The deadwood change in words, with the solver's figures."""
    if after < before:
        return f"lowers your deadwood from {before} to {after}"
    if after > before:
        return f"raises your deadwood from {before} to {after}"
    return f"keeps your deadwood at {before}"


def outs(view: PlayerView, solver: Solver, hand: int) -> int:
    """How many unseen cards would go into a meld of ``hand`` (lower its deadwood by
    less than their own value): the hand's outs, counted on physical cards."""
    base = solver.deadwood(hand)
    by_face: dict[int, bool] = {}
    count = 0
    for u in unseen_cards(view):
        if hand >> u & 1:  # pragma: no cover - unseen cards are not in the hand
            continue
        f = face_of(u)
        if f not in by_face:
            by_face[f] = solver.deadwood(hand | 1 << u) < base + card_value(view.rules, u)
        count += by_face[f]
    return count


def _completers(view: PlayerView, solver: Solver, a: int, b: int) -> int:
    """Unseen cards that make a meld of three with ``a`` and ``b``."""
    return sum(solver.deadwood(1 << a | 1 << b | 1 << u) == 0 for u in unseen_cards(view))


def _meld_with(view: PlayerView, solver: Solver, hand: int, card: int) -> int:
    """A shape of the solver's best arrangement of ``hand`` that uses ``card``, or -1."""
    shapes = view.game.melds.shapes
    face = face_of(card)
    for idx in solver.arrange(hand).shapes:
        sh = shapes[idx]
        if is_joker(card):
            if sh.joker_cells:
                return idx
        elif any(f == face and not sh.joker_cells >> i & 1 for i, f in enumerate(sh.cells)):
            return idx
    return -1  # pragma: no cover - callers ask only when the card lowers the deadwood


def _shape_text(view: PlayerView, idx: int, fmt: Callable[[int], str]) -> str:
    sh = view.game.melds.shapes[idx]
    return " ".join(
        fmt(JOKER) + "=" + fmt(f) if sh.joker_cells >> i & 1 else fmt(f)
        for i, f in enumerate(sh.cells)
    )


def _take_reason(view: PlayerView, solver: Solver, fmt: Callable[[int], str]) -> str:
    """Why to take the upcard: the meld it completes, the draw it makes with a card in
    hand, or the deadwood and outs it leaves after the best discard."""
    hand = view.hand
    card = view.discard[-1]
    full = hand | 1 << card
    before = solver.deadwood(hand)
    if solver.deadwood(full) < before + card_value(view.rules, card):
        return (
            f"it completes a meld ({_shape_text(view, _meld_with(view, solver, full, card), fmt)})"
        )
    after = solver.without(full)
    cost = {c: after(c) for c in bits(hand)}
    best = min(cost.values())
    kept = max(
        (full & ~(1 << c) for c, d in cost.items() if d == best),
        key=lambda h: outs(view, solver, h),
    )
    now, then = outs(view, solver, hand), outs(view, solver, kept)
    if then > now:
        partners = kept & ~(1 << card) & PARTNERS[view.rules.ace is Ace.HIGH_OR_LOW][face_of(card)]
        draws = [(_completers(view, solver, card, p), p) for p in bits(partners)]
        n, p = max(draws, default=(0, -1))
        if n > 0:
            kind = "pair" if face_of(p) % 13 == face_of(card) % 13 else "run draw"
            return f"it makes a {kind} with {fmt(face_of(p))} ({n} cards can complete it)"
    if best < before:
        return _change(before, best)
    if then > now:
        return f"it raises your outs from {now} to {then}"
    if then == now:
        return f"it keeps {now} outs"
    return _change(before, best)


def _upcard_helps(view: PlayerView, solver: Solver) -> bool:
    """Whether taking the upcard melds it, lowers the deadwood or adds outs."""
    hand = view.hand
    card = view.discard[-1]
    full = hand | 1 << card
    before = solver.deadwood(hand)
    if solver.deadwood(full) < before + card_value(view.rules, card):
        return True
    after = solver.without(full)
    cost = {c: after(c) for c in bits(hand)}
    best = min(cost.values())
    if best < before:
        return True
    now = outs(view, solver, hand)
    return any(outs(view, solver, full & ~(1 << c)) > now for c, d in cost.items() if d == best)


def _unseen_outs(view: PlayerView, solver: Solver) -> str:
    return (
        f"{outs(view, solver, view.hand)} of the {len(unseen_cards(view))} unseen cards"
        " would meld with your hand"
    )


def _discarded(view: PlayerView, face: int) -> int:
    """The physical card a discard of ``face`` lets go (as the engine picks it)."""
    c = copy_of(view.hand, face, view.taken)
    if c < 0:  # the taken upcard itself, which Gin lets go straight back
        c = copy_of(view.hand, face)
    return c


def _discard_reason(view: PlayerView, solver: Solver, move: Move, before: int) -> str:
    hand = view.hand
    c = _discarded(view, move.a)
    after = solver.deadwood(hand & ~(1 << c))
    if after + card_value(view.rules, c) == before:
        why = "it completes nothing"
    elif after > before and after == min(
        solver.deadwood(hand & ~(1 << _discarded(view, m.a)))
        for m in view.legal
        if m.kind == DISCARD
    ):
        why = f"it raises your deadwood least, from {before} to {after}"
    else:
        why = _change(before, after)
    passed = _passed_on_rank(view, move.a)
    if passed:
        more = f"and nobody took the {passed} thrown before"
    elif view.rules.meld_in_play and not _fits_table(view, move.a):
        more = "and it fits no meld on the table"
    else:
        return why
    return f"{why} {more}" if len(why) + len(more) < 60 else why


def _pass_reason(view: PlayerView, solver: Solver, fmt: Callable[[int], str]) -> str:
    """Why to pass, by phase: only Gin's first upcard, wall and end of hand have one."""
    if view.phase is Phase.FIRST_UPCARD:
        if not _upcard_helps(view, solver):
            return f"pass: {fmt(face_of(view.discard[-1]))} does not meld with your cards"
        return "pass: " + _unseen_outs(view, solver)
    if view.phase is Phase.WALL:
        if Move(KNOCK) not in view.legal:
            return "pass: you cannot knock, so the hand is void"
        return "pass: the hand ends void, with no knock"
    if laying_off(view):
        if not any(m.kind == LAYOFF for m in view.legal):
            return "pass: none of your loose cards fits the knocker's melds"
        return "pass: end your lay-offs here"
    if view.phase is Phase.BUY:  # Contract Rummy: the discard offered out of turn
        top = fmt(face_of(view.discard[-1]))
        if view.down:
            return f"pass on {top}: you are down, so it could only be laid off"
        return f"pass on {top}: not worth a penalty card to your hand"
    return "pass: nothing more to lay down"


def _passed_on_rank(view: PlayerView, face: int) -> str:
    """'9s' if a card of this rank lies in the discard pile (someone let it go by)."""
    if face >= JOKER:  # a joker has no rank (52 % 13 would read as aces)
        return ""
    rank = face % 13
    for c in view.discard[:-1]:
        f = face_of(c)
        if f < 52 and f % 13 == rank:
            name = format_face(f)[0]
            return {"T": "10", "A": "aces", "K": "kings", "Q": "queens", "J": "jacks"}.get(
                name, name
            ) + ("s" if name.isdigit() or name == "T" else "")
    return ""


def _fits_table(view: PlayerView, face: int) -> bool:
    t = view.game.melds
    return any(
        o.face == face and o.natural_shape >= 0
        for tm in view.table
        for o in layoff_options(t, tm.shape)
    )
