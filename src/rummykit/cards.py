"""Cards as small ints, hands as bitmasks.

Every physical card is an int ``card = copy * 54 + face``:

* ``face`` 0..51 is ``suit * 13 + rank`` with suits in the order clubs,
  diamonds, hearts, spades and ranks ace (0) to king (12);
* faces 52 and 53 are the two jokers of a deck (both print as ``JK``);
* ``copy`` is 0 for the first deck, 1 for the second, 2 for the third
  (:data:`MAX_DECKS`).

So a one-deck game without jokers uses exactly the ids 0..51, and two
physical copies of the same face (``7H`` from deck one and deck two) stay
distinct ints, which is what conservation checks need.  A hand is an int
bitmask with bit ``card`` set for each card held; the engine's hot paths only
ever see these ints.  Parsing and formatting live here, at the edge.

>>> parse_card("QD"), parse_card("10H"), parse_card("th")
(24, 35, 35)
>>> format_cards(parse_cards("AS 10H JK"))
'AS TH JK'
>>> format_cards(parse_cards("AS 10H JK"), unicode=True)
'A♠ T♥ 🃏'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SUITS = "CDHS"
RANKS = "A23456789TJQK"
UNICODE_SUITS = "♣♦♥♠"
UNICODE_JOKER = "🃏"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip

FACES_PER_DECK = 54
JOKER = 52
"""The face shared by every joker."""
NUM_FACES = 53
"""Distinct faces: 52 suited faces plus the joker."""
MAX_DECKS = 3
"""The most decks a game can use (Contract Rummy and Kalooki for five or more)."""
MAX_CARDS = MAX_DECKS * FACES_PER_DECK

ALL_FACES_MASK = (1 << 52) - 1


def face_of(card: int) -> int:
    """The face of a physical card: 0..51, or :data:`JOKER`."""
    f = card % FACES_PER_DECK
    return JOKER if f >= JOKER else f


def suit_of(face: int) -> int:
    return face // 13


def rank_of(face: int) -> int:
    return face % 13


def make_face(suit: int, rank: int) -> int:
    return suit * 13 + rank


def is_joker(card: int) -> bool:
    return card % FACES_PER_DECK >= JOKER


COPIES: tuple[tuple[int, ...], ...] = tuple(
    tuple(c * FACES_PER_DECK + f for c in range(MAX_DECKS) for f in (52, 53))
    if face == JOKER
    else tuple(c * FACES_PER_DECK + face for c in range(MAX_DECKS))
    for face in range(NUM_FACES)
)
"""Every physical card of each face, first deck first (a joker: every joker)."""

FACE_MASKS: tuple[int, ...] = tuple(sum(1 << c for c in copies) for copies in COPIES)
"""``FACE_MASKS[face]``: the bitmask of every physical copy of ``face``."""


def holds_face(mask: int, face: int) -> bool:
    """Whether the cards of ``mask`` include a copy of ``face`` (any joker for JK)."""
    return bool(mask & FACE_MASKS[face])


def copy_of(mask: int, face: int, avoid: int = -1) -> int:
    """A physical card of ``face`` in ``mask`` other than ``avoid`` (first deck
    first), or -1."""
    for c in COPIES[face]:
        if mask >> c & 1 and c != avoid:
            return c
    return -1


def deck(decks: int = 1, jokers: int = 0) -> list[int]:
    """The physical cards of ``decks`` decks with ``jokers`` jokers each.

    >>> len(deck()), len(deck(2, 2))
    (52, 108)
    """
    return [c * FACES_PER_DECK + f for c in range(decks) for f in range(52 + jokers)]


def bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class CardParseError(ValueError):
    """A card or list of cards that is not in the notation."""


def parse_face(text: str) -> int:
    """Parse one face such as ``AS``, ``10H``, ``Th``, ``7♥`` or ``JK``."""
    t = text.strip().upper()
    if t in ("JK", "JOKER", "*", UNICODE_JOKER):
        return JOKER
    if len(t) < 2:
        raise CardParseError(f"not a card: {text!r}")
    rank_text, suit_text = t[:-1], t[-1]
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise CardParseError(f"bad rank in {text!r}: expected one of A 2-9 T/10 J Q K")
    suit = SUITS.find(suit_text)
    if suit < 0:
        suit = UNICODE_SUITS.find(suit_text)
    if suit < 0:
        raise CardParseError(f"bad suit in {text!r}: expected one of C D H S or ♣ ♦ ♥ ♠")
    return make_face(suit, RANKS.index(rank_text))


def parse_card(text: str) -> int:
    """Parse one card as the first physical copy of its face."""
    return parse_face(text)


def parse_cards(text: str) -> list[int]:
    """Parse a space- or comma-separated list of cards into distinct physical cards.

    Repeated faces take the next physical copy, so ``"7H 7H JK JK JK"`` gives two
    different sevens and three different jokers.

    >>> parse_cards("7H 7H JK JK")
    [32, 86, 52, 53]
    """
    taken: set[int] = set()
    out: list[int] = []
    for tok in text.replace(",", " ").split():
        for card in COPIES[parse_face(tok)]:
            if card not in taken:
                taken.add(card)
                out.append(card)
                break
        else:
            raise CardParseError(f"too many copies of {tok!r}")
    return out


def format_face(face: int, unicode: bool = False) -> str:
    if face >= JOKER:
        return UNICODE_JOKER if unicode else "JK"
    suits = UNICODE_SUITS if unicode else SUITS
    return RANKS[face % 13] + suits[face // 13]


def display_face(face: int) -> str:
    """A face for people rather than records: ``10♥`` (not ``T♥``), ``A♠``, ``🃏``.

    >>> display_face(9 + 13 * 2), display_face(0), display_face(JOKER)
    ('10♥', 'A♣', '🃏')
    """
    if face >= JOKER:
        return UNICODE_JOKER
    rank = face % 13
    return ("10" if rank == 9 else RANKS[rank]) + UNICODE_SUITS[face // 13]


def format_card(card: int, unicode: bool = False) -> str:
    return format_face(face_of(card), unicode)


def format_cards(cards: Iterable[int], unicode: bool = False) -> str:
    return " ".join(format_card(c, unicode) for c in cards)


def format_mask(mask: int, unicode: bool = False) -> str:
    """Format a hand bitmask, sorted by suit then rank."""
    return format_cards(sorted(bits(mask), key=lambda c: (face_of(c), c)), unicode)
