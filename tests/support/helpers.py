"""Test helpers: build exact positions, snapshot states, play random games.

:func:`build` writes a position in the public position format (docs/notation.md,
"Positions") and reads it with :func:`rummykit.position.position_from_text`, so a test
states its position in card notation and gets a state the loader's checks accept::

    g = build("basic", hands=["3H 4H 5H 9C", "KS KD 2C"], discard="7D", stock="8S")

Card strings name faces; the reader hands out physical cards (the lowest unused copy
of each face), so with two decks ``"7H 7H"`` gives both sevens of hearts.  By default
every card of the deck not named anywhere goes to the *bottom* of the stock, so the
position conserves the deck; ``rest="discard"`` puts them at the bottom of the discard
pile instead (an empty stock that still conserves the deck), and ``rest="none"`` builds
a partial deck, which no position may be: see :func:`_partial_deck`.
"""

from __future__ import annotations

import random
import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rummykit.cards import JOKER, deck, face_of, format_face, parse_face
from rummykit.melds import ACE_HIGH, MeldTable, meld_table
from rummykit.moves import (
    DISCARD,
    DRAW_DISCARD,
    DRAW_STOCK,
    LAYOFF,
    MELD,
    SWAP,
    TAKE,
    Move,
    cell_code,
)
from rummykit.position import _PHASE_LETTERS, position_from_text
from rummykit.rules import DiscardPickup, Rules
from rummykit.state import GameState, Phase
from rummykit.table import layoff_cells
from rummykit.variants.indian import declare_fields

__all__ = [
    "build",
    "conserved",
    "discard",
    "discard_move",
    "draw",
    "faces",
    "hand_faces",
    "hang_guard",
    "layoff_move",
    "meld_index",
    "meld_move",
    "pile_faces",
    "play_random",
    "snapshot",
    "swap_move",
    "take_move",
]


class _Pool:
    """The physical cards still free while a position is written (the same order of
    assignment as the position reader: table, hands, discard pile, stock)."""

    def __init__(self, rules: Rules) -> None:
        self.free = deck(rules.decks, rules.jokers)

    def take(self, face: int) -> int:
        for card in self.free:
            if face_of(card) == face:
                self.free.remove(card)
                return card
        raise ValueError(f"no copy of {format_face(face)} left for this position")

    def take_all(self, text: str) -> list[int]:
        return [self.take(parse_face(tok)) for tok in text.replace(",", " ").split()]


def _shape_key(tokens: Sequence[str]) -> tuple[str, ...]:
    norm = []
    for tok in tokens:
        if "=" in tok:
            left, right = tok.split("=", 1)
            if parse_face(left) != JOKER:
                raise ValueError(f"only a joker can stand for another card: {tok!r}")
            norm.append("JK=" + format_face(parse_face(right)))
        else:
            norm.append(format_face(parse_face(tok)))
    return tuple(sorted(norm))


_INDEX_CACHE: dict[Rules, dict[tuple[str, ...], int]] = {}


def _meld_shape(t: MeldTable, text: str) -> int:
    """The shape index of a meld written like ``"3H JK=4H 5H"`` (any order)."""
    index = _INDEX_CACHE.get(t.rules)
    if index is None:
        index = {_shape_key(t.describe(i).split()): i for i in range(len(t.shapes))}
        _INDEX_CACHE[t.rules] = index
    key = _shape_key(text.split())
    if key not in index:
        raise ValueError(f"{text!r} is not a meld under {t.rules.spec()}")
    return index[key]


def meld_index(g: GameState, text: str) -> int:
    """The shape index of a meld written like ``"3H JK=4H 5H"`` (any order)."""
    return _meld_shape(g.game.melds, text)


def meld_move(g: GameState, text: str) -> Move:
    return Move(MELD, meld_index(g, text))


def build(
    rules: Rules | str,
    *,
    hands: Sequence[str],
    table: Sequence[tuple[int, str]] = (),
    discard: str = "",
    stock: str = "",
    rest: str = "stock",
    current: int = 0,
    phase: Phase = Phase.PLAY,
    dealer: int | None = None,
    taken: str | None = None,
    melded: Sequence[bool] | None = None,
    opened: Sequence[bool] | None = None,
    laid: Sequence[bool] | None = None,
    scores: Sequence[int] | None = None,
    restocks: int = 0,
    turn: int = 5,
    seed: int = 0,
    round_no: int = 1,
) -> GameState:
    """A match positioned mid-round: the position these arguments describe, written in
    the position format and read by :func:`~rummykit.position.position_from_text`.

    * ``hands``: one card string per player;
    * ``table``: ``(owner, "3H JK=4H 5H")`` melds in table order; their owners count
      as having melded, opened and laid cards unless ``melded``/``opened``/``laid`` say
      otherwise;
    * ``discard``: bottom first, so the last card named is the top (upcard);
    * ``stock``: the next card drawn first;
    * ``rest``: where the unnamed cards go: ``"stock"`` (below the named stock cards),
      ``"discard"`` (below the named discards) or ``"none"`` (left out: a partial deck);
    * ``phase``: ``Phase.PLAY`` means ``current`` has already drawn this turn; in Gin's
      ``Phase.KNOCK`` the knocker is ``current``, in ``Phase.LAYOFF`` the other player;
    * ``taken``: a face in the current hand that was drawn from the discard pile this
      turn (under ``discard_pickup=must_use`` it is also the pending card);
    * ``seed``: seeds the state's random generator (later restocks and deals);
    * ``round_no``: the deal's number (Contract Rummy's deal ``k`` has contract ``k``).
    """
    if rest not in ("stock", "discard", "none"):
        raise ValueError(f"rest must be stock, discard or none, not {rest!r}")
    if isinstance(rules, str):
        rules = Rules.parse(rules)
    n = len(hands)
    pool = _Pool(rules)
    table_text = _table_text(rules, table, pool)
    hand_text = [
        _hand_text(pool, cards, taken if p == current else None) for p, cards in enumerate(hands)
    ]
    named_discard = pool.take_all(discard)
    top_first = pool.take_all(stock)
    unnamed = list(pool.free)
    piles = {
        "discard": (unnamed if rest == "discard" else []) + named_discard,
        "stock": (unnamed if rest in ("stock", "none") else []) + top_first[::-1],
    }
    owners = [any(o == p for o, _m in table) for p in range(n)]
    melded = list(melded) if melded is not None else owners
    opened = list(opened) if opened is not None else list(melded)
    laid = list(laid) if laid is not None else list(melded)
    fields = [
        "".join(rules.spec().split()),
        "/".join(hand_text),
        table_text,
        _faces_text(piles["discard"]),
        _faces_text(piles["stock"]),
        f"{current + 1}{_PHASE_LETTERS[phase]}",
        "/".join("m" * melded[p] + "o" * opened[p] + "l" * laid[p] or "-" for p in range(n)),
        ",".join(str(v) for v in (scores if scores is not None else [0] * n)),
        f"dealer={(current - 1) % n + 1 if dealer is None else dealer + 1}",
        f"round={round_no}",
        f"turn={turn}",
        f"restocks={restocks}",
        f"seed={seed}",
    ]
    if taken is not None:
        face = format_face(parse_face(taken))
        fields.append(f"taken={face}")
        if rules.discard_pickup is DiscardPickup.MUST_USE:
            fields.append(f"pending={face}:use")
    if phase in (Phase.KNOCK, Phase.LAYOFF):
        knocker = current if phase is Phase.KNOCK else (current + 1) % n
        fields.append(f"knocker={knocker + 1}")
    g = position_from_text(" ".join(fields))
    if rest == "none":
        _partial_deck(g, len(unnamed))
    return g


def _table_text(rules: Rules, table: Sequence[tuple[int, str]], pool: _Pool) -> str:
    """The position's table field: ``owner:cells`` melds in the catalogue's order."""
    melds = meld_table(rules)
    out = []
    for owner, text in table:
        i = _meld_shape(melds, text)
        sh = melds.shapes[i]
        for k, face in enumerate(sh.cells):
            pool.take(JOKER if sh.joker_cells >> k & 1 else face)
        out.append(f"{owner + 1}:{melds.describe(i).replace(' ', '')}")
    return "/".join(out) or "-"


def _hand_text(pool: _Pool, cards: str, taken: str | None) -> str:
    """A hand field; a card drawn from the pile this turn is known to all (``+``)."""
    held = [format_face(face_of(c)) for c in pool.take_all(cards)]
    if taken is None:
        return "".join(held) or "-"
    face = format_face(parse_face(taken))
    held.remove(face)
    return "".join(held) + "+" + face


def _faces_text(cards: list[int]) -> str:
    return "".join(format_face(face_of(c)) for c in cards) or "-"


def _partial_deck(g: GameState, unnamed: int) -> None:
    """Leave the ``unnamed`` cards at the bottom of the stock out of the game.

    The one place the tests write a state's field directly: a position must hold the
    whole deck, and a few tests want a partial one on purpose (``rest="none"``: a stock
    that cannot be refilled).  Used by test_illegal_moves.py ("draw_from_empty_stock")
    and test_rules_rami51.py (test_round_blocked_when_no_draw_is_possible)."""
    del g.stock[:unnamed]
    g._legal = None


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def conserved(g: GameState) -> bool:
    """Every physical card of the deck is in exactly one place."""
    places: list[int] = []
    for h in g.hands:
        places.extend(_bits(h))
    places.extend(g.stock)
    places.extend(g.discard)
    for tm in g.table:
        places.extend(tm.cards)
    return sorted(places) == deck(g.rules.decks, g.rules.jokers)


def snapshot(g: GameState) -> dict[str, Any]:
    """Everything a move could change, deep-copied, for "state unchanged" checks."""
    return {
        "phase": g.phase,
        "current": g.current,
        "dealer": g.dealer,
        "round_no": g.round_no,
        "scores": list(g.scores),
        "hands": list(g.hands),
        "stock": list(g.stock),
        "discard": list(g.discard),
        "table": list(g.table),
        "melded": list(g.melded),
        "opened": list(g.opened),
        "laid": list(g.laid),
        "known": list(g.known),
        "taken": g.taken,
        "pending": g.pending,
        "pending_kind": g.pending_kind,
        "melds_this_turn": g.melds_this_turn,
        "open_points": g.open_points,
        "open_pure": g.open_pure,
        "turn_start_laid": g.turn_start_laid,
        "turn": g.turn,
        "restocks": g.restocks,
        "wild": declare_fields(g).wild,
        "dropped": list(declare_fields(g).dropped),
        "results": list(g.results),
        "history": list(g.history),
        "events": list(g.events),
        "rng": g.rng.getstate(),
        "legal": g.legal_moves(),
    }


def play_random(g: GameState, rng: random.Random, max_moves: int = 200_000) -> int:
    """Play random legal moves until the match is over; returns the number of moves.

    Discards are preferred less than other moves so rounds end by going out often.
    """
    moves = 0
    while not g.is_over():
        legal = g.legal_moves()
        assert legal, "a live state must have a legal move"
        non_discard = [m for m in legal if m.kind != DISCARD]
        if g.phase is Phase.PLAY and non_discard and rng.random() < 0.7:
            m = rng.choice(non_discard)
        else:
            m = rng.choice(legal)
        g.apply(m)
        moves += 1
        assert moves < max_moves, "random game did not finish"
    return moves


def faces(text: str) -> list[str]:
    """A card string normalised for comparisons: ``faces("10H 2c")`` is ``["2C", "TH"]``."""
    return sorted(format_face(parse_face(t)) for t in text.replace(",", " ").split())


def hand_faces(g: GameState, player: int) -> list[str]:
    return sorted(format_face(face_of(c)) for c in _bits(g.hands[player]))


def pile_faces(cards: Sequence[int]) -> list[str]:
    """Faces of a pile in pile order (not sorted)."""
    return [format_face(face_of(c)) for c in cards]


def layoff_move(g: GameState, slot: int, text: str, *, high_ace: bool = False) -> Move:
    """Lay off ``text`` (``"4S"``, or ``"JK=4S"`` for a joker standing for 4S) on a table
    meld.  An ace goes to the low end of a run unless ``high_ace``.  A card that fits no
    cell still gives a move (for illegal-move tests)."""
    joker = "=" in text
    face = parse_face(text.split("=")[-1])
    if slot < len(g.table):
        for code, f, _index in layoff_cells(g.game.melds, g.table[slot]):
            if f == face and (code % 14 == ACE_HIGH) == (high_ace and face % 13 == 0):
                return Move(LAYOFF, slot, code, int(joker))
    return Move(LAYOFF, slot, cell_code(face // 13, face % 13), int(joker))


def take_move(g: GameState, slot: int, text: str) -> Move:
    """Take the natural card ``text`` from table meld ``slot``."""
    face = parse_face(text)
    if slot < len(g.table):
        sh = g.game.melds.shapes[g.table[slot].shape]
        for i, f in enumerate(sh.cells):
            if f == face:
                pos = sh.positions[i]
                return Move(TAKE, slot, cell_code(face // 13, pos))
    return Move(TAKE, slot, cell_code(face // 13, face % 13))


def swap_move(slot: int, text: str) -> Move:
    """Swap the joker of table meld ``slot`` that stands for ``text`` by giving that card."""
    return Move(SWAP, slot, parse_face(text))


def discard_move(text: str) -> Move:
    return Move(DISCARD, parse_face(text))


def draw(g: GameState, from_discard: bool = False) -> None:
    g.apply(Move(DRAW_DISCARD if from_discard else DRAW_STOCK))


def discard(g: GameState, face: str) -> None:
    g.apply(Move(DISCARD, parse_face(face)))


@contextmanager
def hang_guard(seconds: float = 10.0) -> Iterator[None]:
    """Fail with :class:`TimeoutError` if the block runs for ``seconds``: a guard
    against hangs (issue #15: a negative hand mask looped for ever in ``bits()``), not
    a speed test, so the limit is hundreds of times what the block needs."""

    def expire(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
