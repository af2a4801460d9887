"""Positions as one line of text, like FEN for chess: puzzles, bug reports, tests.

A position holds one moment of a round: the rules, every hand, the melds on the table
with their owners, the discard pile, the stock, who acts in which phase, who has
melded, opened and laid cards, the scores, the dealer, and the turn's own state (the
card drawn from the pile, a card still to be used, the opening so far, Gin's knock).
It does not hold the players' names, the moves that led to it or the random
generator's state.  ``docs/notation.md`` ("Positions") specifies the format.

>>> from rummykit import new_game
>>> g = new_game("basic", players=2, seed=7)
>>> text = position_to_text(g)
>>> text                                                   # doctest: +ELLIPSIS
'basic 6CKCAD2D3DKD3H6H4STS/3C5C5D8DQDAH7H8HJHKH - JC 2C6DQC...THJD 1d -/- 0,0 dealer=2'
>>> h = position_from_text(text)
>>> h.hands == g.hands and h.stock == g.stock and h.legal_moves() == g.legal_moves()
True

A person writes the stock as a count, and the cards named nowhere else form it:

>>> from rummykit.moves import KNOCK, Move
>>> p = position_from_text(
...     "gin 2H3H4H7S7D7C9C9D9S2CKD/AS2S3S4S5S6S8S5HTSJS - 8H 30 1p -/- 0,0 dealer=2")
>>> p.phase.name, len(p.stock), Move(KNOCK) in p.legal_moves()
('PLAY', 30, True)

Every invariant of a saved state is checked (:func:`rummykit.invariants.check_state`),
and every problem raises :class:`PositionError` naming the field:

>>> position_from_text("basic 3H4H5H/KS - 7D 10 1p -/- 0,0 dealer=2")
Traceback (most recent call last):
...
rummykit.position.PositionError: stock: 10 cards, but 47 are named nowhere else
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Any

from .cards import JOKER, bits, deck, face_of, format_face, parse_face
from .errors import RummyError
from .family import FamilyFields
from .invariants import MAX_SCORE, StateFormatError, check_state
from .rules import Rules
from .serialize import rules_from_text
from .state import NO_CARD, PENDING_MELD, PENDING_USE, Game, GameState, Phase
from .table import TableMeld
from .variants import VARIANTS
from .variants.upcard import UPCARD_FIELDS, read_upcard_position, upcard_position

__all__ = ["MAX_POSITION_CHARS", "PositionError", "position_from_text", "position_to_text"]

MAX_POSITION_CHARS = 8_000
"""Longest position read.  A Rami 51 position with every card named is under 1,000
characters, plus its rules spec (``Rules.parse`` reads at most 4,096)."""
_MAX_DIGITS = len(str(MAX_SCORE))
"""Numbers in a position have at most this many digits: every score a saved state
may hold (:data:`~rummykit.invariants.MAX_SCORE`) can be written."""

_PHASE_LETTERS = {
    Phase.DRAW: "d",
    Phase.PLAY: "p",
    Phase.FIRST_UPCARD: "u",
    Phase.KNOCK: "k",
    Phase.LAYOFF: "l",
    Phase.WALL: "w",
    Phase.BUY: "b",
    Phase.TILES: "t",
}
_LETTER_PHASES = {v: k for k, v in _PHASE_LETTERS.items()}
_PENDING_KINDS = {PENDING_MELD: "meld", PENDING_USE: "use"}
_KINDS_PENDING = {v: k for k, v in _PENDING_KINDS.items()}

_CARD = r"(?:10|[2-9TJQKA])[CDHS♣♦♥♠]|JK"
_CARD_RE = re.compile(_CARD, re.I)
_CARDS_RE = re.compile(f"(?:{_CARD})+", re.I)
_CELL_RE = re.compile(f"(JK=)?({_CARD})", re.I)
_CELLS_RE = re.compile(f"(?:(?:JK=)?(?:{_CARD}))+", re.I)
_SEAT_PHASE_RE = re.compile(r"([1-9])([dpuklwbt])")
_FLAGS_RE = re.compile(r"m?o?l?")
_INT_RE = re.compile(rf"-?[0-9]{{1,{_MAX_DIGITS}}}")

_FIELDS = ("rules", "hands", "table", "discard", "stock", "active", "flags", "scores")
_KEYS = (
    "dealer", "round", "turn", "restocks", "taken", "pending", "melds", "opening", "pure",
    "laid_at_start", "knocker", "passes", "draws", "repeated", "seed",
)  # fmt: skip
"""The shared ``key=value`` fields, in the order they are written; the family's own
follow (:attr:`~rummykit.family.FamilyFields.position_keys`)."""
_ANY_KEYS = (*_KEYS, *dict.fromkeys(k for v in VARIANTS for k in v.family_fields.position_keys))
"""The keys of every family: a position's keys are first checked against these."""

_STATE_FIELDS = {
    "known": "hands", "cards": "stock", "current": "active", "phase": "active",
    "melded": "flags", "opened": "flags", "laid": "flags", "round_no": "round",
    "pending_kind": "pending", "melds_this_turn": "melds", "open_points": "opening",
    "open_pure": "pure", "turn_start_laid": "laid_at_start",
    **UPCARD_FIELDS,
}  # fmt: skip
"""The position field that holds each state field, where the names differ."""


class PositionError(StateFormatError):
    """A position that is malformed or not a state rummykit can play from.

    ``field`` names the position's field (``"hands"``, ``"active"``, ``"taken"``...).
    """


# -- writing ---------------------------------------------------------------------------
def position_to_text(s: GameState, *, stock_order: bool = True) -> str:
    """The position of ``s`` as one line; ``stock_order=False`` writes the stock as a
    count (as for a puzzle: the stock's order is hidden from the players)."""
    n = len(s.names)
    melds = s.game.melds
    hands = "/".join(_hand_text(s.hands[p], s.known[p]) for p in range(n))
    table = "/".join(
        f"{tm.owner + 1}:{melds.describe(tm.shape).replace(' ', '')}" for tm in s.table
    )
    stock = _cards_text(s.stock) if stock_order else str(len(s.stock))
    over = s.phase is Phase.OVER
    active = "x" if over else f"{s.current + 1}{_PHASE_LETTERS[s.phase]}"
    flags = "/".join(
        "m" * s.melded[p] + "o" * s.opened[p] + "l" * s.laid[p] or "-" for p in range(n)
    )
    fields = [
        "".join(s.game.spec.split()),
        hands,
        table or "-",
        _cards_text(s.discard),
        stock,
        active,
        flags,
        ",".join(str(v) for v in s.scores),
    ]
    defaults = _defaults(s.rules, False if over else s.laid[s.current])
    family = s.game.family_type
    defaults.update(family.position_defaults(s.rules, n))
    for key, value in _in_order(_extras(s), family, s.family.to_position()):
        if key == "dealer" or value != defaults.get(key):
            fields.append(f"{key}={value}")
    return " ".join(fields)


def _in_order(
    shared: dict[str, str], family: type[FamilyFields], own: dict[str, str]
) -> list[tuple[str, str]]:
    """The ``key=value`` fields in the order they are written: the family's own after
    its :attr:`~rummykit.family.FamilyFields.position_after` key, or last."""
    out: list[tuple[str, str]] = []
    for key, value in shared.items():
        out.append((key, value))
        if key == family.position_after:
            out.extend(own.items())
    if not family.position_after:
        out.extend(own.items())
    return out


def _hand_text(hand: int, known: int) -> str:
    hidden = _cards_text(_sorted(hand & ~known))
    if not known:
        return hidden
    return ("" if hidden == "-" else hidden) + "+" + _cards_text(_sorted(known))


def _sorted(mask: int) -> list[int]:
    return sorted(bits(mask), key=lambda c: (face_of(c), c))


def _cards_text(cards: list[int]) -> str:
    return "".join(format_face(face_of(c)) for c in cards) or "-"


def _defaults(rules: Rules, laid_now: bool) -> dict[str, str]:
    """The ``key=value`` fields' values when not written."""
    return {
        "round": "1", "turn": "1", "restocks": "0", "taken": "-", "pending": "-",
        "melds": "0", "opening": "0", "pure": "0", "laid_at_start": str(int(laid_now)),
        "knocker": "-", "passes": "0",
        "draws": "0", "repeated": "0", "seed": "0",
    }  # fmt: skip


def _extras(s: GameState) -> dict[str, str]:
    """The state's ``key=value`` fields, as written."""
    pending = "-"
    if s.pending != NO_CARD:
        pending = f"{format_face(face_of(s.pending))}:{_PENDING_KINDS[s.pending_kind]}"
    return {
        "dealer": str(s.dealer + 1),
        "round": str(s.round_no),
        "turn": str(s.turn),
        "restocks": str(s.restocks),
        "taken": _taken_text(s),
        "pending": pending,
        "melds": str(s.melds_this_turn),
        "opening": str(s.open_points),
        "pure": str(int(s.open_pure)),
        "laid_at_start": str(int(s.turn_start_laid)),
        "knocker": "-" if s.knocker < 0 else str(s.knocker + 1),
        **upcard_position(s),
        "repeated": str(int(s.repeated)),
    }


def _taken_text(s: GameState) -> str:
    """The card drawn from the pile this turn; ``:out`` once it has left the hand of
    the player to act (with two decks the face alone would name the other copy)."""
    if s.taken == NO_CARD:
        return "-"
    held = s.current >= 0 and s.hands[s.current] >> s.taken & 1
    return format_face(face_of(s.taken)) + ("" if held else ":out")


# -- reading ---------------------------------------------------------------------------
def position_from_text(text: str) -> GameState:
    """The state a position describes, checked like a saved state.

    Raises :class:`PositionError` (a :class:`~rummykit.errors.RummyError`) naming the
    field for anything malformed, inconsistent or longer than
    :data:`MAX_POSITION_CHARS`; never another exception.
    """
    if not isinstance(text, str):
        raise PositionError(f"a position is text, not {type(text).__name__}")
    if len(text) > MAX_POSITION_CHARS:
        raise PositionError(f"a position is at most {MAX_POSITION_CHARS:,} characters")
    parts = text.split()
    if len(parts) < len(_FIELDS):
        raise PositionError(
            f"expected the fields {' '.join(_FIELDS)}, then key=value fields; "
            f"got {len(parts)} field(s)"
        )
    return _Reader(parts).state()


class _Reader:
    """One position being read: its fields, then the state they build."""

    def __init__(self, parts: list[str]) -> None:
        self.fields = dict(zip(_FIELDS, parts, strict=False))
        self.extras: dict[str, str] = {}
        for item in parts[len(_FIELDS) :]:
            key, eq, value = item.partition("=")
            if not eq or key not in _ANY_KEYS:
                raise PositionError(
                    f"expected key=value with a key among {', '.join(_ANY_KEYS)}; "
                    f"got {_shown(item)}",
                    key[:20],
                )
            if key in self.extras:
                raise PositionError("given twice", key)
            self.extras[key] = value
        rules = rules_from_text(self.fields["rules"], PositionError)
        hands = self.fields["hands"].split("/")
        try:
            self.game = Game.shared(rules, len(hands))
        except RummyError as exc:
            raise PositionError(str(exc), "hands") from None
        family = self.game.family_type
        for key in self.extras:
            if key not in _KEYS and key not in family.position_keys:
                raise PositionError(f"these rules have no {key}= field", key)
        self.n = len(hands)
        self.copies: dict[int, list[int]] = {}
        """Every physical card of each face, lowest id first."""
        for card in deck(rules.decks, rules.jokers):
            self.copies.setdefault(face_of(card), []).append(card)
        self.free = {face: list(cards) for face, cards in self.copies.items()}
        """The cards not yet placed by the fields read so far."""

    # -- small values ---------------------------------------------------------------
    def number(self, key: str, default: int, lo: int = 0) -> int:
        text = self.extras.get(key)
        if text is None:
            return default
        if not _INT_RE.fullmatch(text) or int(text) < lo:
            raise PositionError(f"expected a whole number from {lo}, not {_shown(text)}", key)
        return int(text)

    def seat(self, key: str, text: str | None, default: int = -1) -> int:
        """A seat written from 1, as a 0-based index."""
        if text is None:
            return default
        if not (text.isascii() and text.isdigit() and len(text) <= 2 and 1 <= int(text) <= self.n):
            raise PositionError(f"expected a seat from 1 to {self.n}, not {_shown(text)}", key)
        return int(text) - 1

    @property
    def rules(self) -> Rules:
        return self.game.rules

    def error(self, message: str, key: str) -> PositionError:
        """The error for the malformed field ``key`` (a family's fields raise it)."""
        return PositionError(message, key)

    def flag(self, key: str, default: bool) -> bool:
        text = self.extras.get(key)
        if text is None:
            return default
        if text not in ("0", "1"):
            raise PositionError(f"expected 0 or 1, not {_shown(text)}", key)
        return text == "1"

    # -- cards ------------------------------------------------------------------------
    def take(self, face: int, field: str) -> int:
        """The lowest free physical copy of ``face``."""
        copies = self.free.get(face)
        if not copies:
            raise PositionError(f"no {format_face(face)} left in the deck for this", field)
        return copies.pop(0)

    def cards(self, text: str, field: str) -> list[int]:
        """``-`` or cards written one after another (``7H8HJK``), as physical cards."""
        if text == "-":
            return []
        if not _CARDS_RE.fullmatch(text):
            raise PositionError(f"not a list of cards: {_shown(text)}", field)
        return [self.take(parse_face(m.group()), field) for m in _CARD_RE.finditer(text)]

    def meld(self, text: str, i: int) -> TableMeld:
        field = "table"
        owner_text, colon, cells_text = text.partition(":")
        if not colon or not _CELLS_RE.fullmatch(cells_text):
            raise PositionError(f"expected seat:cards for meld {i + 1}, not {_shown(text)}", field)
        owner = self.seat(field, owner_text)
        cells: list[tuple[int, bool]] = []
        for m in _CELL_RE.finditer(cells_text):
            face = parse_face(m.group(2))
            if face == JOKER:
                raise PositionError(
                    f"meld {i + 1}: a joker in a meld is written JK= and the card it "
                    "stands for, as in JK=7H",
                    field,
                )
            cells.append((face, m.group(1) is not None))
        shape = _shape_index(self.game.rules, cells)
        if shape < 0:
            raise PositionError(
                f"meld {i + 1} ({_shown(cells_text)}) is no meld these rules allow; "
                "write runs from low to high",
                field,
            )
        sh = self.game.melds.shapes[shape]
        cards = tuple(
            self.take(JOKER if sh.joker_cells >> k & 1 else face, field)
            for k, face in enumerate(sh.cells)
        )
        return TableMeld(owner, shape, cards)

    def hand(self, text: str, p: int) -> tuple[int, int]:
        """A hand and its known part, from ``cards``, ``cards+cards`` or ``-``."""
        hidden, plus, shown = text.partition("+")
        if plus and (not shown or shown == "-" or hidden == "-"):
            raise PositionError(f"seat {p + 1}: write known cards after '+'", "hands")
        hand = known = 0
        for c in self.cards(hidden or "-", "hands"):
            hand |= 1 << c
        for c in self.cards(shown, "hands") if plus else ():
            hand |= 1 << c
            known |= 1 << c
        return hand, known

    def find(self, face_text: str, key: str, places: list[int], avoid: int = 0) -> int:
        """The physical card of a face named by a ``key=`` field: the first place (a
        bitmask) that holds one, known copies of a hand first; else the lowest copy
        outside ``avoid``, for :func:`~rummykit.invariants.check_state` to refuse in the
        words it uses for a saved state with that card."""
        if not _CARD_RE.fullmatch(face_text):
            raise PositionError(f"expected a card, not {_shown(face_text)}", key)
        face = parse_face(face_text)
        copies = self.copies.get(face, [face])  # a face not in this deck: its first id
        for where in places:
            held = [c for c in copies if where >> c & 1]
            if held:
                return held[0]
        free = [c for c in copies if not avoid >> c & 1]
        if not free:
            raise PositionError(f"{format_face(face)} is held, not out", key)
        return free[0]

    def rest(self) -> list[int]:
        """The cards no field has named, in deck order."""
        return sorted(c for copies in self.free.values() for c in copies)

    # -- the state ---------------------------------------------------------------------
    def state(self) -> GameState:
        game = self.game
        rules = game.rules
        n = self.n
        f = self.fields
        table = [] if f["table"] == "-" else f["table"].split("/")
        s = GameState.__new__(GameState)
        s.game = game
        s.rules = rules
        s.names = [f"Player {p + 1}" for p in range(n)]
        s.seed = None  # no seed replays a position: it was not dealt by this engine
        s.table = [self.meld(t, i) for i, t in enumerate(table)]
        hands = [self.hand(t, p) for p, t in enumerate(f["hands"].split("/"))]
        s.hands = [h for h, _k in hands]
        s.known = [k for _h, k in hands]
        s.discard = self.cards(f["discard"], "discard")
        rng = random.Random(self.number("seed", 0))
        stock = f["stock"]
        if stock.isascii() and stock.isdigit():
            rest = self.rest()
            if len(stock) > _MAX_DIGITS or int(stock) != len(rest):
                raise PositionError(
                    f"{stock[:_MAX_DIGITS]} cards, but {len(rest)} are named nowhere else", "stock"
                )
            rng.shuffle(rest)  # documented: the unnamed cards in deck order, shuffled
            s.stock = rest
        else:
            s.stock = self.cards(stock, "stock")
            rest = self.rest()
            if rest:
                raise PositionError(
                    f"{len(rest)} card(s) named nowhere, such as "
                    f"{format_face(face_of(rest[0]))}: name every card, or give the stock "
                    "as a count",
                    "stock",
                )
        s.rng = rng
        self.turn(s)
        s.results = []
        s.history = []
        s.round_start = 0
        s.events = []
        try:
            check_state(s)
        except StateFormatError as exc:
            field = exc.field.split("[")[0].split(".")[0]
            names = {**_STATE_FIELDS, **self.game.family_type.position_names}
            raise PositionError(exc.reason, names.get(field, field)) from None
        return s

    def turn(self, s: GameState) -> None:
        """Who acts, the flags, the scores and the ``key=value`` fields."""
        n = self.n
        f = self.fields
        active = f["active"]
        m = _SEAT_PHASE_RE.fullmatch(active)
        if active == "x":
            s.phase, s.current = Phase.OVER, -1
        elif m and int(m.group(1)) <= n:
            s.phase, s.current = _LETTER_PHASES[m.group(2)], int(m.group(1)) - 1
        else:
            raise PositionError(
                f"expected a seat from 1 to {n} and a phase letter (d, p, u, k, l, w, b, t), "
                f"or x; not {_shown(active)}",
                "active",
            )
        flags = f["flags"].split("/")
        if len(flags) != n or not all(t == "-" or (t and _FLAGS_RE.fullmatch(t)) for t in flags):
            raise PositionError(
                f"expected {n} of m, o, l (melded, opened, laid) or -, split by /", "flags"
            )
        s.melded = ["m" in t for t in flags]
        s.opened = ["o" in t for t in flags]
        s.laid = ["l" in t for t in flags]
        scores = f["scores"].split(",")
        if len(scores) != n or not all(_INT_RE.fullmatch(v) for v in scores):
            raise PositionError(f"expected {n} whole numbers split by commas", "scores")
        s.scores = [int(v) for v in scores]
        if "dealer" not in self.extras:
            raise PositionError("every position names its dealer, as in dealer=2", "dealer")
        s.dealer = self.seat("dealer", self.extras["dealer"])
        s.round_no = self.number("round", 1, 1)
        s.turn = self.number("turn", 1, 1)
        s.restocks = self.number("restocks", 0)
        s.melds_this_turn = self.number("melds", 0)
        s.open_points = self.number("opening", 0)
        s.open_pure = self.flag("pure", False)
        s.turn_start_laid = self.flag("laid_at_start", s.current >= 0 and s.laid[s.current])
        s.knocker = self.seat("knocker", self.extras.get("knocker"))
        read_upcard_position(s, self)
        s.repeated = self.flag("repeated", False)
        s.family = self.game.family_type.from_position(self)
        self.turn_cards(s)

    def turn_cards(self, s: GameState) -> None:
        """The card drawn from the pile this turn, and the card still to be used."""
        hand = s.hands[s.current] if s.current >= 0 else 0
        known = s.known[s.current] if s.current >= 0 else 0
        on_table = sum(1 << c for tm in s.table for c in tm.cards)
        everywhere = (1 << (2 * 54)) - 1
        s.taken = s.pending = NO_CARD
        s.pending_kind = 0
        taken = self.extras.get("taken", "-")
        if taken != "-":
            face_text, _colon, where = taken.partition(":")
            if where not in ("", "out"):
                raise PositionError("expected a card, or a card and :out, as in 7H:out", "taken")
            if where:  # not in hand: melded or laid off, or the knocker's card
                knocker = s.hands[s.knocker] if s.knocker >= 0 else 0
                top = 1 << s.discard[-1] if s.discard else 0
                places, avoid = [on_table, knocker, top, everywhere & ~hand], hand
            else:
                places, avoid = [hand & known, hand], 0
            s.taken = self.find(face_text, "taken", places, avoid)
        pending = self.extras.get("pending", "-")
        if pending != "-":
            face_text, _colon, kind = pending.partition(":")
            if kind not in _KINDS_PENDING:
                raise PositionError("expected a card, ':' and meld or use, as in 7H:use", "pending")
            s.pending = self.find(face_text, "pending", [hand & known, hand])
            s.pending_kind = _KINDS_PENDING[kind]


@lru_cache(maxsize=16)
def _shapes_by_text(rules: Rules) -> dict[str, int]:
    """Every meld shape of the rules by its text (``3H JK=4H 5H``), built once per rules
    (a pure function of them, like :func:`rummykit.melds.meld_table`)."""
    t = Game.shared(rules, rules.min_players).melds
    return {t.describe(i): i for i in range(len(t.shapes))}


def _shape_index(rules: Rules, cells: list[tuple[int, bool]]) -> int:
    """The shape of cells written in the catalogue's order (runs low to high, sets by
    suit); a set may list its suits in any order.  -1 if no shape matches."""
    index = _shapes_by_text(rules)

    def text(cs: list[tuple[int, bool]]) -> str:
        return " ".join(("JK=" if j else "") + format_face(face) for face, j in cs)

    found = index.get(text(cells), -1)
    if found < 0 and len({face % 13 for face, _j in cells}) == 1:
        found = index.get(text(sorted(cells)), -1)
    return found


def _shown(value: Any) -> str:
    """A bit of the offending text for a message (a position may be 8,000 characters)."""
    text = repr(value)
    return text if len(text) <= 32 else f"{text[:28]}...'"
