"""Contract Rummy's play for the heuristic bots: aim at the deal's contract.

Deadwood, the measure the seeds' games are played by, misleads here.  A player must go
down with exactly the deal's contract ("two runs", "three sets", ...; Bicycle Cards,
"Contract Rummy"), so a set is worth nothing in a deal of runs, and once down a player
lays no new meld: only lay-offs on the table shed cards.  A bot steering by deadwood
keeps the wrong melds, holds pairs it can never lay, and its deals run to the turn
limit.  So, before going down, a hand is measured by its **shortfall**: how many cards
it still lacks for the contract (:func:`shortfall`), whose missing faces are its
*outs*; after going down, a card is worth keeping only while it may yet be laid off.

The shortfall is a small search: pick the contract's sets (three of a rank) and runs
(``min_run`` in a suit) from the hand's cards, each card used once, keeping at each
step the few candidates that already hold the most cards; jokers then fill gaps, at
most ``jokers_per_meld`` a meld and never a whole meld.  Exact enough for the choice
it serves, and a few hundred integer operations a hand, where the exact meld solver
costs a search per hand and per live card.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from ..cards import JOKER, bits, copy_of, face_of, is_joker
from ..melds import HandCounts
from ..moves import BUY, DISCARD, DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD, PASS, Move
from ..phase import Phase
from ..rules import Ace, Rules
from ..scoring import card_value
from ..table import layoff_cells
from ..variants.contract import contract_of
from ..view import unseen_faces

BRANCH = 3
"""Candidates kept per contract meld in the shortfall search (the most cards held).
Over 600 random hands of ten or twelve cards (every contract), drawing one of the
outs found lowered the shortfall in 99.0% of cases at 3 (96 µs a search), 99.3% at 4
(149 µs) and 99.4% at 5 (214 µs), never raising it; and over 20,000 random hands it
found no shortfall exactly when the engine's exact check could lay the contract."""

OUTS_WEIGHT = 2.0
"""How much the chance that the next draw shortens the contract is worth, in cards."""

POINTS_WEIGHT = 0.02
"""Per point held, in cards of shortfall: cheap cards break ties (they cost less if
another player goes out first).  Chosen with ``benchmarks/contract_play.py`` (expert
against greedy, 60 matches, seeds 9000-9023; the expert's points a deal less
greedy's): -6.2 at 0.004, -8.8 at 0.02, -6.0 at 0.05 (all with ``OUTS_WEIGHT`` 2;
-8.5 at 0.02 with 1, -4.2 at 0.05 with 4)."""

DANGER_WEIGHT = 0.02
"""Per point of help a discard gives an opponent, in cards of shortfall."""

TAKE_MARGIN = 0.25
"""How much better (in cards) the hand after taking the upcard must be than now."""


class Need(NamedTuple):
    """A hand's distance to the contract."""

    short: int
    """Cards the contract still lacks after the hand's jokers fill what they may."""
    outs: int
    """Faces (bit ``f`` for face ``f``, bit :data:`JOKER` for a joker) one of which
    drawn would lower ``short``."""
    spare: int
    """Faces of which the hand holds a copy that the first best plan does not use."""


def _take(one: int, two: int, three: int, faces: int) -> tuple[int, int, int]:
    """The planes after one copy of each face in ``faces`` (all held) is used."""
    return one & ~(faces & ~two), two & ~(faces & ~three), three & ~faces


RANK_MASKS = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
"""Per rank, its four faces."""

NEAR = tuple(
    sum(1 << (f // 13 * 13 + (f % 13 + d) % 13) for d in (-2, -1, 1, 2)) for f in range(JOKER)
)
"""Per face, the faces of its suit within two ranks (the ace next to the king too):
the cards a run might want it with."""


def _set_cards(
    one: int, two: int, three: int, m: int, held: int, runs: bool
) -> tuple[int, int, int]:
    """The planes after a set of ``held`` cards of the rank ``m`` is taken from them.

    Copies go first where a face is held twice (the other copy stays for a run);
    then, when runs are still to be chosen, the faces with the fewest run partners
    in the hand."""
    for _ in range(held):
        spare = m & two
        if spare:
            pick = spare & -spare
        elif runs:
            rest = m & one
            pick, fewest = 0, 99
            while rest:  # at most four faces
                bit = rest & -rest
                rest ^= bit
                partners = (one & NEAR[bit.bit_length() - 1]).bit_count()
                if partners < fewest:
                    pick, fewest = bit, partners
        else:
            pick = m & one & -(m & one)
        one, two, three = _take(one, two, three, pick)
    return one, two, three


@lru_cache(maxsize=64)
def _windows(length: int, high_ace: bool) -> tuple[int, ...]:
    """Every run window of ``length`` faces in every suit, as a face mask (position 13,
    past the king, is the ace again where it may be high)."""
    top = 13 if high_ace else 12
    return tuple(
        sum(1 << (suit * 13 + p % 13) for p in range(lo, lo + length))
        for suit in range(4)
        for lo in range(top - length + 2)
    )


@lru_cache(maxsize=1 << 14)
def _best_windows(pattern: int, min_run: int, high_ace: bool) -> tuple[tuple[int, int], ...]:
    """A suit's :data:`BRANCH` run windows holding the most of ``pattern`` (bit ``r``:
    rank ``r`` held), as (cards held, lowest position), best first: the run step of
    the search, looked up per suit rather than counted over every window."""
    ext = pattern | (pattern & 1) << 13 if high_ace else pattern
    top = 13 if high_ace else 12
    span = (1 << min_run) - 1
    found = sorted(
        (((ext >> lo & span).bit_count(), lo) for lo in range(top - min_run + 2)), reverse=True
    )
    return tuple(found[:BRANCH])


def shortfall(rules: Rules, hand: int, sets: int, runs: int) -> Need:
    """How far ``hand`` is from laying ``sets`` sets and ``runs`` runs (Contract
    Rummy's deal contract), and which faces would bring it closer.

    >>> from rummykit.cards import mask_of, parse_cards
    >>> from rummykit.rules import Rules
    >>> rules = Rules.preset("contract")
    >>> hand = mask_of(parse_cards("7H 7S 7C 9D 9S 4H 5H 6H KC 2D"))
    >>> shortfall(rules, hand, 2, 0).short      # two sets: a third 9 is missing
    1
    >>> shortfall(rules, hand, 0, 2).short      # two runs: 4H-7H is there, 7S 9S lack two
    2
    >>> need = shortfall(rules, hand, 1, 1)     # a set of 7s and 4H 5H 6H + 3H or 7H
    >>> need.short, need.outs >> parse_cards("3H")[0] & 1
    (1, 1)
    """
    one, two, three, jokers = HandCounts.of(hand)
    per_meld = rules.jokers_per_meld if rules.jokers else 0
    return _shortfall(one, two, three, jokers, sets, runs, rules.min_run,
                      rules.ace is Ace.HIGH_OR_LOW, per_meld)  # fmt: skip


@lru_cache(maxsize=1 << 16)
def _shortfall(
    one: int, two: int, three: int, jokers: int, sets: int, runs: int, min_run: int,
    high_ace: bool, per_meld: int,
) -> Need:  # fmt: skip
    windows = _windows(min_run, high_ace)
    per_suit = len(windows) // 4
    shape = (min_run, high_ace)
    set_jokers = min(per_meld, 2)  # a set of three keeps a natural
    run_jokers = min(per_meld, min_run - 1)
    # the least shortfall, the outs of every plan reaching it, the first one's spares
    best = [1 << 30, 0, 0]

    def plan(one: int, two: int, three: int, s_left: int, r_left: int, gaps: int, outs: int,
             fill: int, chosen: tuple[int, ...] = ()) -> None:  # fmt: skip
        """Choose the rest of the contract, sets first.  Each step tries the best few
        candidates of the whole hand left: an order on the candidates (to count each
        plan once) would drop the plans whose better meld comes later in it.  A run's
        window never continues one of the ``chosen`` runs' windows end to end (two such
        runs may not both be part of going down: the engine's ``joins``)."""
        if not s_left and not r_left:
            short = gaps - min(jokers, fill)
            if short < best[0]:
                best[0], best[1], best[2] = short, outs, one
            elif short == best[0]:
                best[1] |= outs
            return
        if gaps - jokers > best[0]:
            return  # no plan from here can reach the best
        if s_left:
            options = []
            for rank in range(13):
                m = RANK_MASKS[rank]
                held = (one & m).bit_count() + (two & m).bit_count() + (three & m).bit_count()
                options.append((min(held, 3), rank))
            options.sort(reverse=True)
            for held, rank in options[:BRANCH]:
                m = RANK_MASKS[rank]
                o, t, h = _set_cards(one, two, three, m, held, r_left > 0)
                gap = 3 - held
                plan(o, t, h, s_left - 1, r_left, gaps + gap, outs | (m if gap else 0),
                     fill + min(set_jokers, gap))  # fmt: skip
            return
        options = []
        for suit in range(4):
            pattern = one >> 13 * suit & 0x1FFF
            if pattern:
                base = suit * per_suit
                options += [(held, base + lo) for held, lo in _best_windows(pattern, *shape)]
        if chosen:
            options = [
                (held, i) for held, i in options if not _joined(i, chosen, per_suit, min_run)
            ]
        options.sort(reverse=True)
        if not options:
            options = [(0, 0)]  # no natural card: jokers alone cannot make a run
        for held, i in options[:BRANCH]:
            w = windows[i]
            o, t, h = _take(one, two, three, one & w)
            gap = min_run - held
            plan(o, t, h, 0, r_left - 1, gaps + gap, outs | (w & ~one),
                 fill + min(run_jokers, gap), (*chosen, i))  # fmt: skip

    plan(one, two, three, sets, runs, 0, 0, 0)
    short, outs, spare = best
    if short > 0 and per_meld:
        outs |= 1 << JOKER
    return Need(max(short, 0), outs, spare)


def _joined(i: int, chosen: tuple[int, ...], per_suit: int, min_run: int) -> bool:
    """Whether run window ``i`` (of :func:`_windows`: ``per_suit`` a suit, lowest
    position ``i % per_suit``) continues one of the ``chosen`` windows end to end."""
    return any(abs(i - j) == min_run and i // per_suit == j // per_suit for j in chosen)


# -- reading the view ------------------------------------------------------------------
# ``view`` below is a PlayerView or, inside a search's playouts, any object with the
# fields read here (rules, game, phase, legal, hand, discard, taken, table, round_no,
# down, deal_size; the expert's outs also read the public cards: a real view).


def contract_now(view: Any) -> tuple[int, int]:
    """The (sets, runs) of this deal's contract."""
    sets, runs = contract_of(view.game.contracts, view.round_no)
    return int(sets), int(runs)


def layable(view: Any) -> int:
    """Faces (bit per face) a natural card of could be laid off on the table now."""
    sets, low, high = _layoff_faces(view.game.melds, view.table)
    return sets | low | high


def _layoff_faces(melds: Any, table: Any) -> tuple[int, int, int]:
    """The faces a natural card could be laid off as on ``table`` (bit per face): a
    set's faces, the faces below the runs' low ends, those above their high ends."""
    sets = low = high = 0
    for tm in table:
        for _code, face, index in layoff_cells(melds, tm):
            if index < 0:
                sets |= 1 << face
            elif index == 0:
                low |= 1 << face
            else:
                high |= 1 << face
    return sets, low, high


def down_cost(rules: Rules, melds: Any, table: Any, hand: int) -> int:
    """The points a hand that is down would pay if the deal ended after its lay-offs
    (the search's estimate of a deal it cuts off): once down no new meld may be laid,
    so every card counts but a joker and the naturals that go on the table, a set's
    missing faces and a run's next faces, each laid card opening the one past it.
    Cards the hand could meld among themselves still count, as at the deal's end."""
    sets, low, high = _layoff_faces(melds, table)
    held = HandCounts.of(hand).have1
    laid = sets & held
    low &= held
    high &= held
    while low | high:  # a run's end moves out by each card laid
        laid |= low | high
        low = low >> 1 & ~_KINGS & held & ~laid  # down from an ace: nothing
        high = (high & ~_ENDS) << 1 & held & ~laid  # up from a king or a high ace: no
    return sum(
        card_value(rules, c) for c in bits(hand) if not is_joker(c) and not laid >> face_of(c) & 1
    )


_KINGS = sum(1 << (s * 13 + 12) for s in range(4))
_ENDS = _KINGS | sum(1 << (s * 13) for s in range(4))
"""Masks for stepping along a suit's ranks: no step leaves the suit, and a run that
took a high ace ends there (a king's ace above it is laid by the table's own cell)."""


def live_faces(view: Any) -> tuple[dict[int, int], int]:
    """Unseen faces with their copies, and how many unseen cards there are."""
    live = unseen_faces(view)
    return live, sum(live.values())


class Valuer:
    """A hand's worth before going down, in cards of shortfall (lower is better): the
    shortfall, less :data:`OUTS_WEIGHT` times the chance that one draw shortens it
    (``live`` None: that chance is not counted), plus :data:`POINTS_WEIGHT` a point."""

    def __init__(self, view: Any, live: tuple[dict[int, int], int] | None) -> None:
        self.rules: Rules = view.rules
        self.sets, self.runs = contract_now(view)
        self.live = live

    def __call__(self, hand: int) -> float:
        rules = self.rules
        need = shortfall(rules, hand, self.sets, self.runs)
        value = need.short + POINTS_WEIGHT * sum(card_value(rules, c) for c in bits(hand))
        if self.live is not None and need.short:
            live, total = self.live
            if total:
                hits = sum(live.get(f, 0) for f in bits(need.outs))
                value -= OUTS_WEIGHT * hits / total
        return value


def discard_keys(
    view: Any, discards: list[Move], careful: bool, danger: dict[int, float] | None = None
) -> list[tuple[float, Move]]:
    """Each legal discard with its cost (lower is better).  Before going down: the
    value of the hand left (:class:`Valuer`, outs counted when ``careful``) plus the
    help it gives an opponent.  After it: the points kept, less the card's points
    unless it may yet be laid off (its face next to a table meld's end, or the
    table's rank), so the costliest dead card goes; a joker is never the choice."""
    hand = view.hand
    out: list[tuple[float, Move]] = []
    if not view.down and not careful:
        spare = _spare_discards(view, discards)
        if spare:
            return spare
    if not view.down:
        value = Valuer(view, live_faces(view) if careful else None)
        for m in discards:
            c = copy_of(hand, m.a, view.taken)
            if c < 0:
                continue
            key = value(hand & ~(1 << c)) + DANGER_WEIGHT * (danger or {}).get(m.a, 0.0)
            if is_joker(c):
                key += 1.0
            out.append((key, m))
        return out or [(0.0, discards[0])]
    near = _near_table(view)
    for m in discards:
        c = copy_of(hand, m.a, view.taken)
        if c < 0:
            continue
        points = card_value(view.rules, c)
        key = -points * (0.25 if near >> m.a & 1 else 1.0)
        if is_joker(c):
            key += 100.0
        key += DANGER_WEIGHT * (danger or {}).get(m.a, 0.0)
        out.append((key, m))
    return out or [(0.0, discards[0])]


def _spare_discards(view: Any, discards: list[Move]) -> list[tuple[float, Move]]:
    """The greedy way, one search a turn (it also plays the search's playouts): the
    discards of cards the best plan for the contract leaves over, the costliest first;
    empty when the plan uses every card."""
    sets, runs = contract_now(view)
    spare = shortfall(view.rules, view.hand, sets, runs).spare
    out: list[tuple[float, Move]] = []
    for m in discards:
        if spare >> m.a & 1:
            c = copy_of(view.hand, m.a, view.taken)
            if c >= 0:
                out.append((-float(card_value(view.rules, c)), m))
    return out


def _near_table(view: Any) -> int:
    """Faces that are one card away from a lay-off: the cells next to the table's run
    ends' cells, and any face of a table set's rank."""
    faces = layable(view)
    near = faces
    for f in bits(faces):
        suit, rank = divmod(f, 13)
        for d in (-1, 1):
            near |= 1 << (suit * 13 + (rank + d) % 13)
    return near


def contract_move(view: Any, careful: bool, danger: dict[int, float] | None = None) -> Move | None:
    """Contract Rummy's choice for the heuristic bots, or None where the shared play
    applies (laying the contract's melds: any legal start can finish, the engine
    checks that).  ``careful`` (the expert) counts outs; ``danger`` (per face, points
    of help to an opponent) weighs its discards."""
    legal: tuple[Move, ...] = view.legal
    phase = view.phase
    if phase is Phase.BUY:
        return _buy(view, legal)
    if phase is Phase.DRAW:
        return _draw(view, legal, careful)
    if phase is not Phase.PLAY:
        return None
    if not view.down:
        if any(m.kind == MELD for m in legal):
            return None  # go down at once: the shared play picks the melds
    else:
        lay = [m for m in legal if m.kind == LAYOFF]
        if lay:  # down: a card leaves only by a lay-off or the discard
            return min(lay, key=lambda m: m.c)  # naturals before jokers
    discards = [m for m in legal if m.kind == DISCARD]
    if not discards:
        return None
    return min(discard_keys(view, discards, careful, danger), key=lambda km: km[0])[1]


def _buy(view: Any, legal: tuple[Move, ...]) -> Move:
    """Buy the offered discard if it shortens the contract and the hand is not long
    (a bought card brings a penalty card, and every card left counts at the end)."""
    if Move(BUY) in legal and not view.down and view.hand.bit_count() <= view.deal_size + 1:
        sets, runs = contract_now(view)
        card = view.discard[-1]
        now = shortfall(view.rules, view.hand, sets, runs).short
        if shortfall(view.rules, view.hand | 1 << card, sets, runs).short < now:
            return Move(BUY)
    return Move(PASS)


def _draw(view: Any, legal: tuple[Move, ...], careful: bool) -> Move:
    """Take the upcard when it shortens the contract (the expert: when the hand after
    it and the best discard is worth more than now, outs counted); once down, when it
    can be laid off at once."""
    take, stock = Move(DRAW_DISCARD), Move(DRAW_STOCK)
    if take not in legal:
        return stock if stock in legal else legal[0]
    if stock not in legal:
        return take
    card = view.discard[-1]
    if view.down:
        return take if layable(view) >> face_of(card) & 1 else stock
    if not careful:
        sets, runs = contract_now(view)
        now = shortfall(view.rules, view.hand, sets, runs).short
        grown = shortfall(view.rules, view.hand | 1 << card, sets, runs).short
        return take if grown < now else stock
    value = Valuer(view, live_faces(view))
    hand = view.hand | 1 << card
    after = min(value(hand & ~(1 << c)) for c in bits(hand) if c != card)
    return take if after < value(view.hand) - TAKE_MARGIN else stock
