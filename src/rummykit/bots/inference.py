"""The opponent model: what the public history says about the cards each opponent holds.

Everyone at the table sees every move.  A player who throws a
card away, who draws from the stock rather than take the card on the pile, or who
passes the first upcard shows that the card did not fit their hand, so they are less
likely than an unknown hand to hold its *partners* (the cards it could share a set or
run with: the same rank, the same suit within two ranks, ``tactics.PARTNERS``).  A
player who took a card from the pile and still holds it shows the opposite.

:func:`card_weights` turns those signals into a weight per unseen card and per
opponent, the factor by which the card is likelier (above 1) or less likely (below 1)
than another unseen card to be in that opponent's hand; :func:`rummykit.view.determinize`
deals the hidden hands by those weights.  Each signal multiplies the weight of each
partner it has by its factor (:data:`THREW`, :data:`DECLINED`, :func:`took_factor`), and the
product is kept within :data:`FLOOR` and :data:`CEILING` so that no card becomes
impossible: the model is evidence, not certainty, and a sample must always exist.

The factors are likelihood ratios measured on the expert's own play
(``benchmarks/inference_calibration.py``): how much more or less often a partner of a
signalled card was in the opponent's hand than an unseen card without any signal.

Everything is read from the :class:`~rummykit.view.PlayerView`: its public history
(:attr:`~rummykit.view.PlayerView.history`), the discard pile and the known cards.
It is computed once per decision (a few hundred bit operations), not per sample.

>>> from rummykit import new_game
>>> from rummykit.moves import Move, DRAW_STOCK, PASS
>>> g = new_game("gin", seed=3)
>>> g.apply(Move(PASS)); g.apply(Move(PASS)); g.apply(Move(DRAW_STOCK))  # both pass
>>> upcard = face_of(g.discard[-1])
>>> s = signals(g.view(g.dealer))
>>> s[g.dealer].declined == [upcard], s[1 - g.dealer].declined == [upcard, upcard]
(True, True)
>>> w = card_weights(g.view(g.dealer))[1 - g.dealer]
>>> sorted(w.values())[0] == DECLINED * DECLINED   # a partner of the upcard, passed twice
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import bits, face_of
from ..moves import DRAW_DISCARD, DRAW_STOCK, KNOCK, MELD, PASS, Move
from ..rules import Ace, Restock, Rules
from ..state import Phase, round_start_of
from ..view import PlayerView, unseen_cards
from .tactics import PARTNERS

THREW = 0.5
"""Weight factor for a partner of a card the opponent threw away (measured: 0.50 in
Gin, 0.56 in basic)."""
DECLINED = 0.75
"""Weight factor for a partner of a card the opponent left on the pile (drew from the
stock instead, or passed the first upcard) (measured: 0.72 in Gin, 0.77 in basic)."""
TOOK_KNOCK = 1.5
"""Weight factor for a partner of a card the opponent took face up and still holds,
in a knock game (measured: 1.54 in Gin, where melds stay in the hand to the end)."""
TOOK_MELDING = 1.1
"""The same where melds go on the table as soon as they are made (measured: 1.07 in
basic): a taken card still in the hand has mostly not found its partners yet."""
FLOOR = 0.05
"""The least weight a card can have: improbable, never impossible."""
CEILING = 20.0
"""The greatest weight a card can have."""

_UNKNOWN = -1
"""A face in the replayed pile that the view cannot name (a card under a shuffle)."""


@dataclass
class Signals:
    """What one player showed this round, as faces (copies are the same to others)."""

    threw: list[int] = field(default_factory=list)
    declined: list[int] = field(default_factory=list)
    took: list[int] = field(default_factory=list)


def signals(v: PlayerView) -> list[Signals]:
    """Per player, the faces they threw, declined and took this round, read from the
    public history; all empty when the history cannot be replayed.

    The replay follows only public facts: whose turn it is, the pile's faces, the
    stock's size (for restocks).  It checks itself against the view (the player to
    act, the pile, the stock) and gives up on any disagreement rather than guess.
    """
    n = len(v.names)
    out = [Signals() for _ in range(n)]
    start = round_start_of(v)
    if start is None or v.phase is Phase.OVER:
        return out
    actions = v.game.actions
    pass_code = actions.encode(Move(PASS))
    knock_code = actions.encode(Move(KNOCK))
    meld_base = actions.encode(Move(MELD, 0))
    first = face_of(v.discard[0]) if v.discard else _UNKNOWN
    pile: list[int] = [_UNKNOWN]
    stock = len(v.game.pack) - n * v.game.dealt - 1
    restock = v.rules.restock
    current = (v.dealer + 1) % n
    knocked = False
    events: list[tuple[int, int, int]] = []  # (kind, player, index in pile or face)
    for code in v.history[start:]:
        if code == knock_code:
            knocked = True
            break
        if code == pass_code:
            if pile:
                events.append((PASS, current, pile[-1]))
            current = (current + 1) % n
        elif code == DRAW_STOCK:
            if pile:  # the card the player saw on the pile and left there
                events.append((DRAW_STOCK, current, pile[-1]))
            if stock == 0:
                if restock is Restock.TURN_OVER:
                    stock, pile = len(pile), []
                else:
                    stock = len(pile) - 1
                    pile = [_UNKNOWN if restock is Restock.SHUFFLE else pile[-1]]
            stock -= 1
        elif code == DRAW_DISCARD:
            if not pile:
                return out
            events.append((DRAW_DISCARD, current, pile.pop()))
        elif 2 <= code < meld_base:
            pile.append(code - 2)
            events.append((2, current, code - 2))
            current = (current + 1) % n
    if not knocked and (
        current != v.current
        or stock != v.stock_size
        or len(pile) != len(v.discard)
        or any(f not in (_UNKNOWN, face_of(c)) for f, c in zip(pile, v.discard, strict=True))
    ):
        return out
    for kind, p, face in events:
        if face == _UNKNOWN:
            # The first upcard, while still at the bottom of the pile, is its first card.
            # A restock put other cards at the bottom: give up on naming it.
            if first == _UNKNOWN or v.restocks or (pile and pile[0] != _UNKNOWN):
                continue
            face = first
        if kind == 2:
            out[p].threw.append(face)
        elif kind != DRAW_DISCARD:
            out[p].declined.append(face)
    for p in range(n):
        out[p].took = [face_of(c) for c in bits(v.known[p])]
    return out


def took_factor(rules: Rules) -> float:
    """:data:`TOOK_KNOCK` or :data:`TOOK_MELDING`, by whether melds are laid in play."""
    return TOOK_MELDING if rules.meld_in_play else TOOK_KNOCK


def card_weights(v: PlayerView) -> list[dict[int, float]]:
    """Per player, the weight of each unseen card that the history says anything
    about (absent: 1.0); the viewer's own entry is empty.  See the module docstring.

    >>> from rummykit import new_game
    >>> g = new_game("basic", players=2, seed=1)
    >>> card_weights(g.view(0))        # nothing has happened yet
    [{}, {}]
    """
    n = len(v.names)
    out: list[dict[int, float]] = [{} for _ in range(n)]
    sig = signals(v)
    unseen = 0
    for c in unseen_cards(v):
        unseen |= 1 << c
    partners = PARTNERS[v.rules.ace is not Ace.LOW]
    for p in range(n):
        if p == v.player:
            continue
        w = out[p]
        s = sig[p]
        took = took_factor(v.rules)
        for faces, factor in ((s.threw, THREW), (s.declined, DECLINED), (s.took, took)):
            for f in faces:
                for c in bits(partners[f] & unseen):
                    w[c] = w.get(c, 1.0) * factor
        for c, x in w.items():
            w[c] = min(CEILING, max(FLOOR, x))
    return out
