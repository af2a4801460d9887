"""The person's hand in order: by suit, by rank, or arranged into the melds the solver
finds with the deadwood apart.

Arranging answers the question a new player keeps asking, "what do I have?": the
melds that leave the least deadwood, and, in a game with an opening minimum (Rami 51)
before the person has opened, how many points those melds count toward it, since
they cannot be laid until they reach it.

>>> from rummykit.cards import mask_of, parse_cards
>>> from rummykit.state import GameState
>>> from rummykit.tui.session import card_text
>>> g = GameState.new("rami51", ["Ann", "Bob"], 1)
>>> hand = mask_of(parse_cards("QH QD QS 4C 5C 6C 9D"))
>>> lay = arrange_hand(g, hand)
>>> [[card_text(c) for c in group] for group in lay.groups]
[['4♣', '5♣', '6♣'], ['Q♦', 'Q♥', 'Q♠'], ['9♦']]
>>> lay.melds, lay.deadwood, lay.meld_points
(2, 9, 45)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ..cards import face_of
from ..scoring import card_value
from ..state import GameState
from ..variants.indian import declare_fields
from ..variants.show import Grouping
from .lang import N_, _, _n
from .session import card_text, cards_of_faces, shape_faces, sort_cards

HAND_ORDERS = (N_("suit"), N_("rank"), N_("melds"))
"""The orders key ``r`` cycles through; the first is the default."""


@dataclass(frozen=True)
class HandLayout:
    """A hand arranged: its melds, then its deadwood (card ids, as shown)."""

    groups: tuple[tuple[int, ...], ...]
    """The melds in the solver's order, each card where it sits in the meld, then the
    deadwood sorted by suit (when there is any)."""
    melds: int
    """How many of ``groups`` are melds."""
    deadwood: int
    """The value of the cards left out of the melds."""
    meld_points: int
    """The melds' points toward an opening minimum (ace 1 low or 11, faces 10)."""
    values: tuple[int, ...] = ()
    """What each card of :attr:`order` counts at the round end."""
    stands: Mapping[int, int] = field(default_factory=dict)
    """Jokers and wild cards in the melds: the face each plays as."""
    out: int = -1
    """Indian Rummy, a hand over the deal: the card to put out (the last group)."""
    valid: bool = True
    """Indian Rummy: the melds hold two sequences, one pure (else every card counts)."""

    @property
    def order(self) -> list[int]:
        return [c for group in self.groups for c in group]

    @property
    def starts(self) -> set[int]:
        """Positions in :attr:`order` where a group after the first begins."""
        out: set[int] = set()
        at = 0
        for group in self.groups[:-1]:
            at += len(group)
            out.add(at)
        return out


def arrange_hand(state: GameState, hand: int, wild: int | None = None) -> HandLayout:
    """The solver's least-deadwood melds of ``hand`` (a card mask), as card ids; in a
    family that counts a hand its own way (Indian Rummy), the grouping that its count
    counts (:meth:`~rummykit.variants.base.Variant.play_layout`), with the wild cut
    ``wild`` (by default the deal's)."""
    cut = declare_fields(state).wild if wild is None else wild
    counted = state.game.variant.play_layout(hand, cut, hand.bit_count())
    if counted is not None:
        return grouping_layout(counted)
    solver = state.game.solver
    best = solver.arrange(hand)
    groups: list[tuple[int, ...]] = []
    left = hand
    points = 0
    for shape in best.shapes:
        cards = cards_of_faces(left, shape_faces(state, shape))
        for c in cards:
            left &= ~(1 << c)
        groups.append(tuple(cards))
        points += solver.melds.shapes[shape].points
    melds = len(groups)
    if left:
        groups.append(tuple(sort_cards(left)))
    values = tuple(card_value(state.rules, c) for group in groups for c in group)
    return HandLayout(tuple(groups), melds, best.deadwood, points, values)


def round_layout(state: GameState, hand: int, wild: int) -> HandLayout:
    """``hand`` as its family lays it out at the round end
    (:meth:`~rummykit.variants.base.Variant.layout`, with the deal's cut ``wild``): the
    melds, then the loose cards by suit, each card with what it counts, and what each
    joker or wild card in a meld stands for."""
    g = state.game.variant.layout(hand, wild, lambda: state.game.solver)
    counts = dict(zip(g.cards, g.card_points, strict=True))
    loose = tuple(sort_cards(list(g.loose)))
    in_melds = len(g.card_points) - len(g.loose)
    values = (*g.card_points[:in_melds], *(counts[c] for c in loose))
    return grouping_layout(replace(g, loose=loose, card_points=values))


def grouping_layout(g: Grouping) -> HandLayout:
    """A hand's grouping as a layout: the melds, the loose cards, then the card to put
    out (if any); its deadwood is the grouping's count."""
    groups = [tuple(c for c, _f in meld) for meld in g.melds]
    if g.loose:
        groups.append(g.loose)
    values = g.card_points
    if g.out >= 0:
        groups.append((g.out,))
        values += (0,)
    stands = {c: f for meld in g.melds for c, f in meld if face_of(c) != f}
    return HandLayout(tuple(groups), len(g.melds), g.points, 0, values, stands, g.out, g.valid)


def ordered_hand(
    state: GameState, hand: int, order: str, player: int
) -> tuple[list[int], set[int], str]:
    """``player``'s hand as shown in ``order`` (one of :data:`HAND_ORDERS`): the cards
    left to right, the positions where a new group starts, and a note for the hand's
    title on what the melds come to (knock games show their deadwood anyway)."""
    if order != "melds":
        return sort_cards(hand, by_rank=order == "rank"), set(), ""
    variant = state.game.variant
    counted = variant.play_layout(hand, declare_fields(state).wild, state.game.dealt)
    if counted is not None:
        lay = grouping_layout(counted)
        return lay.order, lay.starts, indian_note(lay)
    lay = arrange_hand(state, hand)
    note = _n("{n} meld", "{n} melds", lay.melds)
    if any(line.own for line in variant.status(state, hand)):
        return lay.order, lay.starts, note  # the family's own line says what it counts
    if lay.melds and state.needs_opening(player):
        note += " " + _(
            "({points} of {minimum} points to open)",
            points=lay.meld_points,
            minimum=state.rules.opening_minimum,
        )
    return lay.order, lay.starts, _("{note}, deadwood {n}", note=note, n=lay.deadwood)


def indian_note(lay: HandLayout) -> str:
    """An arranged Indian hand's title: its melds, what it counts (the status line's
    count), the card to put out, whether the melds make a valid show, and what each
    joker and wild card in them plays as."""
    note = _n("{n} meld", "{n} melds", lay.melds) + ", " + _("counts {n}", n=lay.deadwood)
    if lay.out >= 0:
        note += " " + _("after putting out {card}", card=card_text(lay.out))
    if not lay.valid:
        note += " " + _("(no two sequences with a pure one: every card counts)")
    stands = stand_ins(lay)
    return f"{note} · {stands}" if stands else note


def stand_ins(lay: HandLayout) -> str:
    """What each joker and wild card of the melds plays as: ``7♠ as 5♠, ★ as 9♥``."""
    return ", ".join(
        _("{joker} as {card}", joker=card_text(c), card=card_text(f))
        for c in lay.order
        if (f := lay.stands.get(c)) is not None
    )
