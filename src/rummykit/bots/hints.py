"""Hints: the move the ``hard`` bot would make, with a reason a person can read.

>>> import random
>>> from rummykit import new_game
>>> g = new_game("basic", players=2, seed=4)
>>> hint = suggest(g.view(g.current), budget=20)
>>> hint.move in g.legal_moves(), isinstance(hint.reason, str)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..cards import bits, display_face, face_of, format_face
from ..moves import (
    DISCARD,
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
from ..scoring import card_value, hand_value
from ..solver import Solver
from ..state import Phase
from ..table import layoff_options
from ..view import PlayerView
from .ismcts import ISMCTSBot
from .tactics import copy_of, hand_after_meld, layoff_face


@dataclass(frozen=True)
class Hint:
    move: Move
    reason: str


def suggest(
    view: PlayerView,
    *,
    seconds: float | None = None,
    budget: int | None = 60,
    seed: int = 0,
    unicode: bool = True,
) -> Hint:
    """The ``hard`` bot's move for this view and why.  ``budget`` is in search
    iterations (deterministic for a seed); give ``seconds`` to search by time instead."""
    if not view.legal:
        raise ValueError("it is not this player's turn")
    bot = ISMCTSBot(seconds=seconds, iterations=None if seconds else budget)
    move = bot.choose(view, random.Random(seed))
    return Hint(move, explain(view, move, Solver(view.rules, view.game.melds), unicode))


def explain(view: PlayerView, move: Move, solver: Solver, unicode: bool = True) -> str:
    """One line saying why ``move`` is good in this view."""

    def fmt(face: int) -> str:
        return display_face(face) if unicode else format_face(face)

    hand = view.hand
    before = solver.deadwood(hand)
    if move.kind == DRAW_DISCARD:
        card = view.discard[-1]
        after = solver.deadwood(hand | 1 << card)
        if after < before + card_value(view.rules, card):
            return f"take {fmt(face_of(card))}: it goes straight into a meld"
        return f"take {fmt(face_of(card))}: it connects with cards you hold"
    if move.kind == DRAW_STOCK:
        if view.discard:
            top = fmt(face_of(view.discard[-1]))
            return f"draw from the stock: {top} on the discard pile does not help your hand"
        return "draw from the stock: the discard pile is empty"
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
        return f"lay off {fmt(face)} on meld {move.a + 1}: one card fewer to count against you"
    if move.kind == SWAP:
        return f"swap {fmt(move.b)} for the joker in meld {move.a + 1}: a joker fits anywhere"
    if move.kind == TAKE:
        return f"take from meld {move.a + 1} to build a new meld"
    if move.kind == DISCARD:
        c = copy_of(hand, move.a, view.taken)
        if c < 0:  # the taken upcard itself, which Gin lets go straight back
            c = copy_of(hand, move.a)
        rest = hand & ~(1 << c)
        after = solver.deadwood(rest)
        parts = [f"discard {fmt(move.a)}"]
        if after + card_value(view.rules, c) == before:
            parts.append("it completes nothing")
        else:
            parts.append("it is the card your hand misses least")
        passed = _passed_on_rank(view, move.a)
        if passed:
            parts.append(f"and nobody took the {passed} thrown before")
        elif view.rules.meld_in_play and not _fits_table(view, move.a):
            parts.append("and it fits no meld on the table")
        return parts[0] + ": " + " ".join(parts[1:])
    if move.kind == KNOCK:
        return "knock: your deadwood is within the limit, end the hand now"
    if move.kind == PASS:
        return _pass_reason(view, fmt)
    return "the strongest move found"  # pragma: no cover - every kind is named above


def _pass_reason(view: PlayerView, fmt: Callable[[int], str]) -> str:
    """Why to pass, by phase: only Gin's first upcard, wall and end of hand have one."""
    if view.phase is Phase.FIRST_UPCARD:
        return f"pass: {fmt(face_of(view.discard[-1]))} does not meld with your cards"
    if view.phase is Phase.WALL:
        return "pass: you cannot knock, so the hand is void"
    if view.phase is Phase.LAYOFF and view.knock_stage == 0:
        return "pass: none of your loose cards fits the knocker's melds"
    return "pass: nothing more to lay down"


def _passed_on_rank(view: PlayerView, face: int) -> str:
    """'9s' if a card of this rank lies in the discard pile (someone let it go by)."""
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
