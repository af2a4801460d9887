"""Game records: a human-readable text notation for single moves and whole matches.

A record is PGN-like: tag lines (the rules, the players, the seed, the result), then
one line per turn, grouped by round, with comments in braces.  The seed is the source
of truth for every chance event, so a record is just the seed plus the moves; replaying
it reproduces the match to the card.  ``docs/notation.md`` specifies the format.

>>> from rummykit import new_game
>>> g = new_game("basic", players=["Ann", "Bob"], seed=92)
>>> for text in ["draw stock", "meld JD QD KD", "d 4C", "dd"]:
...     g.apply(parse_move(g, text))
>>> [move_to_text(g, m) for m in g.legal_moves()][:3]
['meld 7C 7H 7S', 'layoff TD to 1', 'discard 6C']
>>> record = export_record(g)
>>> print(record)
[Rules "basic"]
[Players "Ann, Bob"]
[Seed "92"]
[Result "*"]
<BLANKLINE>
{cut for the deal: Ann AH, Bob 9H; Bob deals}
Round 1
1. Ann: draw stock; meld JD QD KD; discard 4C
2. Bob: draw discard
<BLANKLINE>
>>> import_record(record).hands == g.hands
True
>>> import_record('[Rules "basic"]\\n[Players "Ann, Bob"]\\n[Seed "x"]\\n')
Traceback (most recent call last):
...
rummykit.errors.NotationError: line 3, column 8: the seed must be an integer, not 'x'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from .cards import (
    JOKER,
    UNICODE_JOKER,
    CardParseError,
    format_card,
    format_face,
    format_mask,
    make_face,
    parse_face,
)
from .errors import IllegalMoveError, NotationError, RummyError
from .events import Cut, Deal, Event
from .melds import ACE_HIGH, RUN, SET, MeldTable, pos_rank
from .moves import (
    ARRANGE,
    BUY,
    DISCARD,
    DRAW_DEEP,
    DRAW_DISCARD,
    DRAW_STOCK,
    DROP,
    KNOCK,
    LAYOFF,
    MELD,
    PASS,
    SWAP,
    TAKE,
    TIMEOUT,
    Move,
    cell_code,
    code_suit_pos,
)
from .results import RoundEnd
from .rules import PRESETS, Ace, Family, Rules
from .state import GameState, Phase
from .table import layoff_cells
from .variants.rummikub import arrangement_code, arrangement_shapes, canonical_shapes, set_shape

__all__ = ["export_record", "import_record", "move_to_text", "parse_move"]

_MAX_NUMBER_DIGITS = 6
"""Table meld, round and turn numbers longer than this are rejected outright."""
_MAX_SEED_DIGITS = 4000
"""Decimal seeds up to this many digits (Python refuses longer int strings); longer
seeds are written in hexadecimal."""

_WORDS = {
    "ds": DRAW_STOCK,
    "dd": DRAW_DISCARD,
    "draw": -1,
    "discard": DISCARD,
    "d": DISCARD,
    "meld": MELD,
    "m": MELD,
    "layoff": LAYOFF,
    "lay-off": LAYOFF,
    "l": LAYOFF,
    "swap": SWAP,
    "s": SWAP,
    "take": TAKE,
    "t": TAKE,
    "pass": PASS,
    "p": PASS,
    "knock": KNOCK,
    "k": KNOCK,
    "declare": KNOCK,
    "drop": DROP,
    "dr": DROP,
    "buy": BUY,
    "b": BUY,
    "table": ARRANGE,
    "tb": ARRANGE,
    "timeout": TIMEOUT,
}
_PREPOSITIONS = {LAYOFF: ("to", "on"), SWAP: ("in", "on"), TAKE: ("from",)}
_LONG = {LAYOFF: "layoff", SWAP: "swap", TAKE: "take"}
_SHORT = {LAYOFF: "l", SWAP: "s", TAKE: "t"}
_WHITE_SUITS = str.maketrans("♧♢♡♤", "♣♦♥♠")
_TOKEN = re.compile(r"[^\s,]+")


# -- single moves ----------------------------------------------------------------------
def _face_text(face: int, unicode: bool) -> str:
    return format_face(face, unicode)


def _joker_text(face: int, unicode: bool) -> str:
    return (UNICODE_JOKER if unicode else "JK") + "=" + format_face(face, unicode)


def _ace_qualifier(state: GameState, slot: int, pos: int) -> str:
    """``" high"``/``" low"`` after an ace laid off on or taken from a run, when the
    rules let an ace be high (so the reader never has to work out which end)."""
    if pos == ACE_HIGH:
        return " high"
    if pos != 0 or state.rules.ace is not Ace.HIGH_OR_LOW or not 0 <= slot < len(state.table):
        return ""
    shape = state.game.melds.shapes[state.table[slot].shape]
    return " low" if shape.kind == RUN else ""


def move_to_text(
    state: GameState, move: Move, *, short: bool = False, unicode: bool = False
) -> str:
    """The text of ``move`` as played in ``state``, e.g. ``"layoff JK=8H to 2"``.

    Table melds are numbered from 1 in the text.  ``short`` gives the one- or
    two-letter forms (``ds``, ``d 9C``, ``l 7H 2``); ``unicode`` prints suit symbols.
    Raises :class:`NotationError` for a value that is not a move at all.
    """
    try:
        kind, a, b, c = (int(x) for x in move)
    except (TypeError, ValueError):
        raise NotationError(f"not a move: {move!r}") from None
    t = state.game.melds
    if kind == DRAW_STOCK:
        return "ds" if short else "draw stock"
    if kind == DRAW_DISCARD:
        return "dd" if short else "draw discard"
    if kind == DRAW_DEEP and a >= 2:  # 500 Rum: the top ``a`` cards of the pile
        return f"dd {a}" if short else f"draw discard {a}"
    if kind == PASS:
        return "p" if short else "pass"
    if kind == KNOCK:  # Indian Rummy's declaration is the same move
        return "k" if short else ("declare" if state.rules.family is Family.INDIAN else "knock")
    if kind == DROP:
        return "dr" if short else "drop"
    if kind == BUY:  # Contract Rummy: the top discard, bought out of turn
        return "b" if short else "buy"
    if kind == TIMEOUT:  # Rummikub: the turn timer ran out
        return "timeout"
    if kind == ARRANGE:  # Rummikub: the table's whole new arrangement, sets split by /
        shapes = arrangement_shapes(a, t) if state.rules.free_table else None
        if shapes is None:
            raise NotationError(f"not a move: {move!r}")
        return ("tb " if short else "table ") + " / ".join(
            _shape_text(t, s, unicode) for s in shapes
        )
    if kind == DISCARD and 0 <= a <= JOKER:
        return ("d " if short else "discard ") + _face_text(a, unicode)
    if kind == MELD and 0 <= a < len(t.shapes):
        return ("m " if short else "meld ") + _shape_text(t, a, unicode)
    words = _SHORT if short else _LONG
    if kind in (LAYOFF, TAKE) and a >= 0 and 0 <= b < 4 * 14 and c in (0, 1):
        suit, pos = code_suit_pos(b)
        face = make_face(suit, pos_rank(pos))
        if kind == TAKE and c:
            raise NotationError(f"not a move: {move!r}")
        card = _joker_text(face, unicode) if c else _face_text(face, unicode)
        prep = "" if short else (" to" if kind == LAYOFF else " from")
        return f"{words[kind]} {card}{prep} {a + 1}{_ace_qualifier(state, a, pos)}"
    if kind == SWAP and a >= 0 and 0 <= b < JOKER:
        prep = "" if short else " in"
        return f"{words[kind]} {_face_text(b, unicode)}{prep} {a + 1}"
    raise NotationError(f"not a move: {move!r}")


def _shape_text(t: MeldTable, shape: int, unicode: bool) -> str:
    """A meld's cells in order, a joker as ``JK=`` the card it stands for."""
    sh = t.shapes[shape]
    return " ".join(
        _joker_text(f, unicode) if sh.joker_cells >> i & 1 else _face_text(f, unicode)
        for i, f in enumerate(sh.cells)
    )


class _Tok(NamedTuple):
    text: str
    col: int


def parse_move(state: GameState, text: str) -> Move:
    """The move that ``text`` names in ``state`` (the inverse of :func:`move_to_text`).

    Only the notation is checked here; whether the move is legal is the engine's
    business (:meth:`GameState.apply`).  Errors are :class:`NotationError` with line 1
    and the column in ``text``.

    >>> from rummykit import new_game
    >>> g = new_game("basic", seed=1)
    >>> parse_move(g, "Discard 10♥") == parse_move(g, "d TH") == Move(DISCARD, 35)
    True
    """
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, not {type(text).__name__}", 1, 1)
    return _parse_move(state, text, 1, 1)


def _number(tok: _Tok, line: int, what: str) -> int:
    t = tok.text
    if not (t.isascii() and t.isdigit()):
        raise NotationError(f"expected {what}, not {t!r}", line, tok.col)
    if len(t) > _MAX_NUMBER_DIGITS:
        raise NotationError(f"{what} {t[:12]}... is too large", line, tok.col)
    return int(t)


def _card(tok: _Tok, line: int, joker_ok: bool) -> int:
    try:
        face = parse_face(tok.text.translate(_WHITE_SUITS))
    except CardParseError as exc:
        raise NotationError(f"bad card {tok.text!r}: {exc}", line, tok.col) from None
    if face == JOKER and not joker_ok:
        raise NotationError("name the card the joker stands for, as in JK=7H", line, tok.col)
    return face


def _cell(tok: _Tok, line: int) -> tuple[int, bool]:
    """A card, or ``JK=face`` for a joker standing for ``face``."""
    left, eq, right = tok.text.partition("=")
    if not eq:
        return _card(tok, line, joker_ok=False), False
    if _card(_Tok(left, tok.col), line, joker_ok=True) != JOKER:
        raise NotationError(f"only a joker can stand for another card, not {left!r}", line, tok.col)
    return _card(_Tok(right, tok.col + len(left) + 1), line, joker_ok=False), True


def _meld_shape(t: MeldTable, cells: list[tuple[int, bool]]) -> int:
    """The shape index of a meld given as ``(face, is_joker)`` cells in any order."""
    faces = [f for f, _j in cells]
    ranks = {f % 13 for f in faces}
    suits = {f // 13 for f in faces}
    if len(ranks) == 1:
        # sets: suit order, naturals before jokers of the same suit (as the catalogue)
        ordered = sorted(cells, key=lambda c: (c[0], c[1]))
        jm = sum(1 << i for i, (_f, j) in enumerate(ordered) if j)
        return t.find(SET, ranks.pop(), tuple(f for f, _j in ordered), jm)
    if len(suits) == 1:
        suit = suits.pop()
        for high in (False, True):
            pos = [ACE_HIGH if high and f % 13 == 0 else f % 13 for f in faces]
            order = sorted(range(len(cells)), key=lambda i: pos[i])
            jm = sum(1 << k for k, i in enumerate(order) if cells[i][1])
            found = t.find(RUN, suit, tuple(faces[i] for i in order), jm)
            if found >= 0:
                return found
    return -1


def _arrangement(state: GameState, args: list[_Tok], line: int) -> Move:
    """``table <set> / <set> ...``: Rummikub's play, the table's whole new arrangement
    (each set's cards in any order, a joker as ``JK=`` the card it stands for; a group's
    jokers stand for its lowest missing colours whatever they say)."""
    t = state.game.melds
    shapes: list[int] = []
    groups: list[list[_Tok]] = [[]]
    for tok in args:
        if tok.text == "/":
            groups.append([])
        else:
            groups[-1].append(tok)
    if not state.rules.free_table or not args:
        raise NotationError("a table arrangement is a Rummikub play of one set or more", line, 1)
    canon = canonical_shapes(t)
    for toks in groups:
        if not toks:
            raise NotationError("expected a set between the slashes", line, args[0].col)
        index = _meld_shape(t, [_cell(tok, line) for tok in toks])
        if index >= 0 and not canon[index]:
            sh = t.shapes[index]
            index = set_shape(t, [_face_text(f, False) for f in sh.naturals] + ["JK"] * sh.njokers)
        if index < 0:
            shown = " ".join(tok.text for tok in toks)
            raise NotationError(f"{shown!r} is not a set [rule: invalid_set]", line, toks[0].col)
        shapes.append(index)
    return Move(ARRANGE, arrangement_code(shapes, t))


def _deep_draw(tok: _Tok, line: int) -> Move:
    """``draw discard N`` / ``dd N``: the top N cards of the discard pile (500 Rum's deep
    draw); N = 1 is the ordinary draw of the top discard."""
    text = tok.text
    if not text.isdigit() or len(text) > _MAX_NUMBER_DIGITS or int(text) < 1:
        raise NotationError(f"expected a number of cards, not {text!r}", line, tok.col)
    n = int(text)
    return Move(DRAW_DISCARD) if n == 1 else Move(DRAW_DEEP, n)


def _parse_move(state: GameState, text: str, line: int, col0: int) -> Move:
    toks = [_Tok(m.group(), col0 + m.start()) for m in _TOKEN.finditer(text)]
    if not toks:
        raise NotationError("expected a move", line, col0)
    word = toks[0].text.lower()
    kind = _WORDS.get(word)
    if kind is None:
        raise NotationError(
            f"unknown move {toks[0].text!r} "
            "(expected draw, discard, meld, layoff, swap, take, pass, knock, declare or drop)",
            line,
            toks[0].col,
        )
    args = toks[1:]
    end_col = col0 + len(text.rstrip())

    def need(n: int, what: str) -> None:
        if len(args) < n:
            raise NotationError(f"expected {what}", line, end_col)

    def no_more(used: int) -> None:
        if len(args) > used:
            raise NotationError(f"unexpected {args[used].text!r}", line, args[used].col)

    if kind in (PASS, KNOCK, DROP, BUY, TIMEOUT):
        no_more(0)
        return Move(kind)
    if kind == ARRANGE:
        return _arrangement(state, args, line)
    if kind == -1:  # draw stock / draw discard [N]
        need(1, "'stock' or 'discard' after 'draw'")
        pile = args[0].text.lower()
        if pile not in ("stock", "discard"):
            raise NotationError(
                f"expected 'stock' or 'discard', not {args[0].text!r}", line, args[0].col
            )
        if pile == "discard" and len(args) > 1:
            no_more(2)
            return _deep_draw(args[1], line)
        no_more(1)
        return Move(DRAW_STOCK if pile == "stock" else DRAW_DISCARD)
    if kind == DRAW_DISCARD and args:
        no_more(1)
        return _deep_draw(args[0], line)
    if kind in (DRAW_STOCK, DRAW_DISCARD):
        no_more(0)
        return Move(kind)
    if kind == DISCARD:
        need(1, "the card to discard")
        no_more(1)
        return Move(DISCARD, _card(args[0], line, joker_ok=True))
    if kind == MELD:
        need(1, "the cards of the meld")
        cells = [_cell(tok, line) for tok in args]
        t = state.game.melds
        index = _meld_shape(t, cells)
        if index < 0:
            shown = " ".join(tok.text for tok in args)
            hint = ""
            njok = sum(j for _f, j in cells)
            if njok > t.k:
                hint = f" (at most {t.k} joker(s) per meld) [rule: jokers_per_meld]"
            raise NotationError(
                f"{shown!r} is not a meld these rules allow{hint}", line, args[0].col
            )
        return Move(MELD, index)
    # layoff / swap / take: card, optional preposition, table meld number, qualifier
    need(1, "a card")
    card_tok = args[0]
    rest = args[1:]
    if rest and rest[0].text.lower() in _PREPOSITIONS[kind]:
        rest = rest[1:]
    if not rest:
        raise NotationError("expected the table meld number", line, end_col)
    slot = _number(rest[0], line, "a table meld number") - 1
    if slot < 0:
        raise NotationError("table melds are numbered from 1", line, rest[0].col)
    qualifier = ""
    if kind != SWAP and len(rest) > 1 and rest[1].text.lower() in ("high", "low"):
        qualifier = rest[1].text.lower()
        rest = rest[1:]
    if len(rest) > 1:
        raise NotationError(f"unexpected {rest[1].text!r}", line, rest[1].col)
    if kind == SWAP:
        face = _card(card_tok, line, joker_ok=True)
        if face == JOKER:
            raise NotationError(
                "name the card you give for the joker, as in 'swap 6H in 2'", line, card_tok.col
            )
        return Move(SWAP, slot, face)
    if kind == TAKE:
        face, joker = _card(card_tok, line, joker_ok=True), False
        if face == JOKER:
            raise NotationError(
                "a joker cannot be taken from a meld; swap it instead", line, card_tok.col
            )
    else:
        face, joker = _cell(card_tok, line)
    pos = _position(state, kind, slot, face, qualifier, line, card_tok.col)
    return Move(kind, slot, cell_code(face // 13, pos), int(joker))


def _position(
    state: GameState, kind: int, slot: int, face: int, qualifier: str, line: int, col: int
) -> int:
    """The cell position of ``face`` in a lay-off or take: its rank, except that an ace
    may be low (0) or high (13) in a run."""
    rank = face % 13
    if qualifier:
        if rank != 0:
            raise NotationError(f"only an ace can be played {qualifier}", line, col)
        return ACE_HIGH if qualifier == "high" else 0
    if rank != 0 or not 0 <= slot < len(state.table):
        return rank
    t = state.game.melds
    tm = state.table[slot]
    sh = t.shapes[tm.shape]
    if sh.kind != RUN:
        return rank
    if kind == TAKE:
        spots = [p for f, p in zip(sh.cells, sh.positions, strict=True) if f == face]
    else:
        spots = [code_suit_pos(code)[1] for code, f, _i in layoff_cells(t, tm) if f == face]
    if len(spots) > 1:
        raise NotationError(
            f"the ace fits at both ends of meld {slot + 1}: add 'low' or 'high'", line, col
        )
    return spots[0] if spots else rank


# -- tag values -----------------------------------------------------------------------
def _escape(value: str, *, list_item: bool = False) -> str:
    """A tag value with ``\\``, ``"`` and unprintable characters escaped; in a list item
    (a player name) also commas and spaces at either end."""
    out: list[str] = []
    last = len(value) - 1
    for i, ch in enumerate(value):
        if ch in '"\\' or (list_item and ch == ","):
            out.append("\\" + ch)
        elif not ch.isprintable():
            out.append(f"\\u{{{ord(ch):x}}}")
        elif list_item and ch == " " and (i == 0 or i == last):
            out.append("\\ ")
        else:
            out.append(ch)
    return "".join(out)


class _Tag(NamedTuple):
    name: str
    chars: tuple[tuple[str, bool], ...]
    """The value's characters, each with whether it was escaped."""
    line: int
    col: int
    """Column of the value's first character (after the opening quote)."""

    @property
    def value(self) -> str:
        return "".join(c for c, _e in self.chars)

    def items(self) -> list[str]:
        """The value split at unescaped commas, unescaped spaces trimmed."""
        out: list[str] = []
        cur: list[tuple[str, bool]] = []
        for ch, esc in (*self.chars, (",", False)):
            if ch == "," and not esc:
                while cur and cur[0][0].isspace() and not cur[0][1]:
                    cur.pop(0)
                while cur and cur[-1][0].isspace() and not cur[-1][1]:
                    cur.pop()
                out.append("".join(c for c, _e in cur))
                cur = []
            else:
                cur.append((ch, esc))
        return out


_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_HEX = re.compile(r"u\{([0-9A-Fa-f]{1,6})\}")


def _read_tag(text: str, line: int) -> tuple[_Tag, int]:
    """Parse ``[Name "value"]`` starting at the first non-space character; return the
    tag and the index just after the closing bracket."""
    i = len(text) - len(text.lstrip())
    i += 1  # the '['
    while i < len(text) and text[i] in " \t":
        i += 1
    m = _TAG_NAME.match(text, i)
    if not m:
        raise NotationError("expected a tag name after '['", line, i + 1)
    name = m.group()
    i = m.end()
    while i < len(text) and text[i] in " \t":
        i += 1
    if i >= len(text) or text[i] != '"':
        raise NotationError(
            f'expected a quoted value after {name}, as in [{name} "..."]', line, i + 1
        )
    quote = i
    i += 1
    chars: list[tuple[str, bool]] = []
    while True:
        if i >= len(text):
            raise NotationError("the tag value's closing quote is missing", line, quote + 1)
        ch = text[i]
        if ch == '"':
            break
        if ch == "\\":
            if i + 1 >= len(text):
                raise NotationError("unfinished escape at the end of the line", line, i + 1)
            hx = _HEX.match(text, i + 1)
            if hx:
                code = int(hx.group(1), 16)
                if code > 0x10FFFF:
                    raise NotationError(f"no character \\u{{{hx.group(1)}}}", line, i + 1)
                chars.append((chr(code), True))
                i = hx.end()
                continue
            chars.append((text[i + 1], True))
            i += 2
            continue
        chars.append((ch, False))
        i += 1
    i += 1
    while i < len(text) and text[i] in " \t":
        i += 1
    if i >= len(text) or text[i] != "]":
        raise NotationError("expected ']' to close the tag", line, i + 1)
    return _Tag(name, tuple(chars), line, quote + 2), i + 1


def _player_token(names: list[str], p: int) -> str:
    """How a record names seat ``p``: the name itself when it is plain and unique,
    otherwise ``#n`` (seats numbered from 1)."""
    name = names[p]
    plain = (
        name
        and name == name.strip()
        and name.isprintable()
        and not name.startswith("#")
        and name.lower() != "cut"
        and not any(ch in name for ch in ':;{}[]"\\,=')
        and names.count(name) == 1
    )
    return name if plain else f"#{p + 1}"


def _resolve_player(names: list[str], text: str, line: int, col: int) -> int:
    t = text.strip()
    if t.startswith("#"):
        digits = t[1:]
        if digits.isascii() and digits.isdigit() and len(digits) <= 3:
            seat = int(digits) - 1
            if 0 <= seat < len(names):
                return seat
        raise NotationError(f"no player {t!r} (seats are #1 to #{len(names)})", line, col)
    exact = [p for p, n in enumerate(names) if n == t]
    if len(exact) == 1:
        return exact[0]
    folded = [p for p, n in enumerate(names) if n.casefold() == t.casefold()]
    if len(folded) == 1 and not exact:
        return folded[0]
    listing = ", ".join(_player_token(names, p) for p in range(len(names)))
    if exact or folded:
        raise NotationError(f"{t!r} is ambiguous: write #n (players: {listing})", line, col)
    raise NotationError(f"unknown player {t!r} (players: {listing})", line, col)


def _parse_seed(tag: _Tag) -> int:
    raw = tag.value.strip()
    body = raw[1:] if raw[:1] in "+-" else raw
    sign = -1 if raw.startswith("-") else 1
    if body[:2].lower() == "0x" and len(body) > 2:
        digits = body[2:]
        if digits.isascii() and all(ch in "0123456789abcdefABCDEF" for ch in digits):
            return sign * int(digits, 16)
    elif body.isascii() and body.isdigit():
        if len(body) > _MAX_SEED_DIGITS:
            raise NotationError(
                f"a decimal seed has at most {_MAX_SEED_DIGITS} digits; write it in hex (0x...)",
                tag.line,
                tag.col,
            )
        return sign * int(body)
    raise NotationError(f"the seed must be an integer, not {raw[:40]!r}", tag.line, tag.col)


def _seed_text(seed: int) -> str:
    if abs(seed) < 10**100:
        return str(seed)
    return ("-" if seed < 0 else "") + hex(abs(seed))


def _rules_text(rules: Rules) -> str:
    """A spec that parses back to rules that play the same (the informational
    ``name`` aside, when it is not a preset)."""
    spec = rules.spec()
    try:
        if Rules.parse(spec, saved=True) == rules:
            return spec
    except RummyError:
        pass
    base = rules.name if rules.name in PRESETS else "basic"
    try:
        alt = Rules.preset(base).replaced(rules.options())
    except RummyError as exc:  # pragma: no cover - options() always re-parse
        raise NotationError(f"these rules cannot be written as a spec: {exc}") from None
    if dataclasses.replace(alt, name=rules.name) != rules:  # pragma: no cover
        raise NotationError("these rules cannot be written as a spec")
    return alt.spec()


# -- export ---------------------------------------------------------------------------
def _how_dealt(state: GameState) -> tuple[bool, int]:
    """(whether the first dealer was found by cutting, the first dealer)."""
    events: list[Event] = getattr(state, "events", None) or []
    if events and type(events[0]) is Cut:
        return True, -1
    for ev in events:
        if type(ev) is Deal:
            return False, ev.player
    raise NotationError("cannot write a record: the state does not say how the match began")


def _fingerprint(s: GameState) -> tuple[Any, ...]:
    return (
        s.hands, s.stock, s.discard, s.table, s.scores, s.phase, s.current, s.dealer,
        s.round_no, s.turn, s.history, s.melded, s.opened, s.laid, s.known, s.taken,
        s.pending, s.results,
    )  # fmt: skip


def _comment(text: str) -> str:
    return "{" + text.replace("{", "(").replace("}", ")") + "}"


def export_record(
    state: GameState, *, short: bool = False, unicode: bool = False, deals: bool = False
) -> str:
    """The record of the match ``state`` belongs to, from the cut for the deal to now.

    The state must come from :func:`~rummykit.state.new_game` (or a clone of one) with an
    integer seed: the record replays its moves from that seed.  ``short`` and
    ``unicode`` choose the move forms; ``deals`` adds each round's deal as a comment.
    Raises :class:`NotationError` for a state that does not follow from a seed and
    its history (a determinized or hand-edited state).
    """
    seed = getattr(state, "seed", None)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise NotationError(
            "cannot write a record of a match without an integer seed: the seed "
            "determines every shuffle"
        )
    cut, first_dealer = _how_dealt(state)
    names = list(state.names)
    try:
        g = GameState.new(state.rules, names, seed, dealer=None if cut else first_dealer)
    except RummyError as exc:  # pragma: no cover - the state was built the same way
        raise NotationError(f"cannot rebuild the match: {exc}") from None
    tok = [_player_token(names, p) for p in range(len(names))]

    def scores_of(values: list[int] | tuple[int, ...]) -> str:
        return ", ".join(f"{tok[p]} {v}" for p, v in enumerate(values))

    body: list[str] = []
    if cut:
        cuts = [e for e in g.events if type(e) is Cut]
        shown = ", ".join(f"{tok[e.player]} {format_card(e.card, unicode)}" for e in cuts)
        body.append(_comment(f"cut for the deal: {shown}; {tok[g.dealer]} deals"))
    done_results = 0
    headed = 0
    turn_line: list[str] = []

    def head(round_no: int, dealer: int, deal_known: bool) -> None:
        if round_no > 1:
            body.append("")
        text = f"Round {round_no}"
        if not cut or round_no > 1:
            text += " " + _comment(f"{tok[dealer]} deals")
        body.append(text)
        if deals and deal_known:
            hands = "; ".join(
                f"{tok[p]}: {format_mask(g.hands[p], unicode)}" for p in range(len(names))
            )
            up = format_card(g.discard[-1], unicode) if g.discard else "none"
            body.append(_comment(f"deal: {hands}; upcard {up}"))

    def sync() -> None:
        nonlocal done_results, headed
        while done_results < len(g.results):
            r = g.results[done_results]
            if headed < r.round_no:
                head(r.round_no, r.dealer, False)
                headed = r.round_no
            w = r.winner
            match r.reason:
                case RoundEnd.DECLARE if w is not None:
                    how = f"{tok[w]} declares"
                case RoundEnd.DROP if w is not None:
                    how = f"the others dropped: {tok[w]} wins the deal"
                case RoundEnd.WRONG_SHOW if w is not None:
                    how = f"a wrong show: {tok[w]} wins the deal"
                case RoundEnd.KNOCK | RoundEnd.GIN:
                    how = (
                        f"{r.reason}: {tok[w]} wins the hand"
                        if w is not None
                        else f"{r.reason}: no score"
                    )
                case _ if r.went_out and w is not None:
                    how = f"{tok[w]} goes out" + (" (rummy)" if r.rummy else "")
                case _:
                    how = f"blocked ({r.reason})"
            deltas = ", ".join(f"{tok[p]} {d:+d}" for p, d in enumerate(r.deltas))
            running = [
                sum(x.deltas[p] for x in g.results[: done_results + 1]) for p in range(len(names))
            ]
            body.append(
                _comment(f"round {r.round_no}: {how}; points {deltas}; scores {scores_of(running)}")
            )
            done_results += 1
        if g.phase is not Phase.OVER and headed < g.round_no:
            head(g.round_no, g.dealer, True)
            headed = g.round_no

    def flush() -> None:
        if turn_line:
            body.append(turn_line[0] + "; ".join(turn_line[1:]))
            turn_line.clear()

    sync()
    actions = g.game.actions
    line_seat = -1
    for number, action in enumerate(state.history, 1):
        try:
            move = actions.decode(action)
            if not turn_line or _line_ended(g, line_seat):
                flush()
                line_seat = g.current
                turn_line.append(f"{g.turn}. {tok[g.current]}: ")
            turn_line.append(move_to_text(g, move, short=short, unicode=unicode))
            g.apply(move)
        except (RummyError, ValueError) as exc:
            raise NotationError(
                f"cannot write a record: move {number} of the history does not replay "
                f"from seed {seed} ({exc})"
            ) from None
        if _line_ended(g, line_seat):
            flush()
            sync()
    flush()
    if _fingerprint(g) != _fingerprint(state):
        raise NotationError(
            "cannot write a record: the state does not follow from its seed and history "
            "(was it determinized or edited?)"
        )
    if g.phase is Phase.OVER:
        res = g.result()
        won = " and ".join(tok[p] for p in res.winners)
        final = scores_of(g.scores)
        body.append("")
        body.append(
            _comment(f"match over after {res.rounds} round(s): {won} won; final scores {final}")
        )
    header = [
        f'[Rules "{_escape(_rules_text(state.rules))}"]',
        f'[Players "{", ".join(_escape(n, list_item=True) for n in names)}"]',
        f'[Seed "{_seed_text(int(seed))}"]',
    ]
    if not cut:
        header.append(f'[Dealer "{_escape(tok[first_dealer])}"]')
    result = ", ".join(str(v) for v in g.scores) if g.phase is Phase.OVER else "*"
    header.append(f'[Result "{result}"]')
    return "\n".join([*header, "", *body]) + "\n"


# -- import ---------------------------------------------------------------------------
_ROUND_LINE = re.compile(r"\s*round\s+(\S+)\s*", re.IGNORECASE)
_TURN_START = re.compile(r"\s*([0-9]+)\s*\.")


def _lines(text: str) -> Iterator[tuple[int, str]]:
    for number, raw in enumerate(text.split("\n"), 1):
        yield number, raw[:-1] if raw.endswith("\r") else raw


_LINE_STARTS = (Phase.DRAW, Phase.FIRST_UPCARD, Phase.WALL)
"""Phases that begin a new line: a turn's draw, and Gin's first upcard and wall."""


def _line_ended(state: GameState, seat: int) -> bool:
    """Whether the line of moves by ``seat`` is over: a new turn began, or another
    player acts (Gin's defender after a knock, the dealer after a pass)."""
    return state.phase in _LINE_STARTS or state.phase is Phase.OVER or state.current != seat


class _Importer:
    def __init__(self) -> None:
        self.tags: dict[str, _Tag] = {}
        self.state: GameState | None = None
        self.headed = 0
        self.line_seat = -1
        self.comment_at: tuple[int, int] | None = None

    # comments -------------------------------------------------------------------
    def blank_comments(self, text: str, start: int, line: int) -> str:
        """``text`` with ``text[:start]`` and every comment replaced by spaces."""
        out = [" "] * start
        for i in range(start, len(text)):
            ch = text[i]
            if self.comment_at is not None:
                if ch == "}":
                    self.comment_at = None
                out.append(" ")
            elif ch == "{":
                self.comment_at = (line, i + 1)
                out.append(" ")
            elif ch == "}":
                raise NotationError("'}' without an opening '{'", line, i + 1)
            else:
                out.append(ch)
        return "".join(out)

    # the whole record -------------------------------------------------------------
    def run(self, text: str) -> GameState:
        if text.startswith("\ufeff"):
            text = text[1:]
        header_end = 1
        for line, raw in _lines(text):
            if self.comment_at is None and self.state is None and raw.lstrip().startswith("["):
                tag, after = _read_tag(raw, line)
                key = tag.name.lower()
                if key in self.tags:
                    raise NotationError(f"the {tag.name} tag is given twice", line, 1)
                self.tags[key] = tag
                rest = self.blank_comments(raw, after, line)
                if rest.strip():
                    col = len(rest) - len(rest.lstrip()) + 1
                    raise NotationError("unexpected text after the tag", line, col)
                header_end = line + 1
                continue
            body = self.blank_comments(raw, 0, line)
            stripped = body.strip()
            if not stripped:
                continue
            col = len(body) - len(body.lstrip()) + 1
            if self.state is None:
                if stripped.startswith("["):  # pragma: no cover - handled above
                    raise NotationError("tags must come before the moves", line, col)
                self.state = self.start(header_end)
            elif stripped.startswith("["):
                raise NotationError("tags must come before the moves", line, col)
            self.movetext(self.state, body, line, col)
        if self.comment_at is not None:
            raise NotationError("comment not closed: '}' is missing", *self.comment_at)
        if self.state is None:
            self.state = self.start(header_end)
        self.check_result(self.state)
        return self.state

    def tag(self, key: str, where: int) -> _Tag:
        tag = self.tags.get(key)
        if tag is None:
            raise NotationError(f'missing [{key.capitalize()} "..."] tag', where, 1)
        return tag

    def start(self, where: int) -> GameState:
        rules_tag = self.tag("rules", where)
        players_tag = self.tag("players", where)
        seed_tag = self.tag("seed", where)
        try:
            rules = Rules.parse(rules_tag.value, saved=True)
        except Exception as exc:  # any failure of a rules spec is a bad record
            msg = str(exc) if isinstance(exc, RummyError) else type(exc).__name__
            raise NotationError(f"bad rules: {msg}", rules_tag.line, rules_tag.col) from None
        names = players_tag.items()
        try:
            rules.check_players(len(names))
        except RummyError as exc:
            raise NotationError(str(exc), players_tag.line, players_tag.col) from None
        seed = _parse_seed(seed_tag)
        dealer: int | None = None
        dealer_tag = self.tags.get("dealer")
        if dealer_tag is not None and dealer_tag.value.strip().lower() != "cut":
            dealer = _resolve_player(names, dealer_tag.value, dealer_tag.line, dealer_tag.col)
        try:
            return GameState.new(rules, names, seed, dealer=dealer)
        except RummyError as exc:  # pragma: no cover - everything is checked above
            raise NotationError(str(exc), seed_tag.line, seed_tag.col) from None

    def check_result(self, state: GameState) -> None:
        tag = self.tags.get("result")
        if tag is None or tag.value.strip() == "*":
            return
        parts = [p.strip() for p in tag.value.split(",")]
        values: list[int] = []
        for p in parts:
            digits = p[1:] if p[:1] in "+-" else p
            if not (digits.isascii() and digits.isdigit()) or len(digits) > 12:
                raise NotationError(
                    "Result is '*' or the final scores in seat order, as in \"112, 34\"",
                    tag.line,
                    tag.col,
                )
            values.append(int(p))
        if state.phase is not Phase.OVER:
            raise NotationError(
                "the Result tag gives final scores but the moves end before the match is over",
                tag.line,
                tag.col,
            )
        if values != state.scores:
            got = ", ".join(str(v) for v in state.scores)
            raise NotationError(
                f"the Result tag says {tag.value.strip()!r} but the moves give {got!r}",
                tag.line,
                tag.col,
            )

    # movetext -----------------------------------------------------------------------
    def movetext(self, state: GameState, body: str, line: int, col: int) -> None:
        m = _ROUND_LINE.fullmatch(body)
        if m:
            self.round_header(state, m.group(1), line, m.start(1) + 1)
            return
        m = _TURN_START.match(body)
        if not m:
            raise NotationError(
                "expected 'Round N' or a turn such as '1. Ann: draw stock; discard 9C'",
                line,
                col,
            )
        if state.phase is Phase.OVER:
            raise NotationError("the match is over: no more turns", line, col)
        if self.headed != state.round_no:
            if self.headed == 0:
                msg = f"expected 'Round {state.round_no}' before the first turn"
            else:
                msg = f"round {self.headed} is over: expected 'Round {state.round_no}'"
            raise NotationError(msg, line, col)
        if not _line_ended(state, self.line_seat):
            raise NotationError(
                f"turn {state.turn} is not finished: it must end with a discard "
                "(or by going out) on its own line",
                line,
                col,
            )
        number = _number(_Tok(m.group(1), m.start(1) + 1), line, "a turn number")
        if number != state.turn:
            raise NotationError(
                f"this is turn {state.turn} of round {state.round_no}, not {number}",
                line,
                m.start(1) + 1,
            )
        colon = body.find(":", m.end())
        if colon < 0:
            raise NotationError(
                "expected the player and ':' after the turn number", line, m.end() + 1
            )
        who = body[m.end() : colon]
        who_col = m.end() + len(who) - len(who.lstrip()) + 1
        if not who.strip():
            raise NotationError("expected the player's name before ':'", line, who_col)
        seat = _resolve_player(state.names, who, line, who_col)
        if seat != state.current:
            raise NotationError(
                f"it is {_player_token(state.names, state.current)}'s turn, not "
                f"{_player_token(state.names, seat)}'s",
                line,
                who_col,
            )
        self.line_seat = seat
        start = colon + 1
        pieces = body[start:].split(";")
        for k, piece in enumerate(pieces):
            piece_col = start + 1
            start += len(piece) + 1
            lead = len(piece) - len(piece.lstrip())
            if not piece.strip():
                if k == len(pieces) - 1 and k > 0:
                    continue  # a trailing ';'
                raise NotationError("expected a move", line, piece_col + lead)
            if k > 0 and _line_ended(state, seat):
                raise NotationError(
                    "the turn is over after the previous move: start the next turn on a new line",
                    line,
                    piece_col + lead,
                )
            move = _parse_move(state, piece, line, piece_col)
            try:
                state.apply(move)
            except IllegalMoveError as exc:
                why = str(exc)
                if exc.rule == "no_such_meld":  # the engine counts from 0, records from 1
                    why = (
                        f"there is no table meld {move.a + 1} (the table has "
                        f"{len(state.table)}) [rule: no_such_meld]"
                    )
                raise NotationError(
                    f"illegal move {piece.strip()!r}: {why}", line, piece_col + lead
                ) from exc

    def round_header(self, state: GameState, number_text: str, line: int, col: int) -> None:
        number = _number(_Tok(number_text, col), line, "a round number")
        if state.phase is Phase.OVER:
            raise NotationError("the match is over: no more rounds", line, col)
        if not self.headed < number <= state.round_no:
            if number == state.round_no + 1 and self.headed == state.round_no:
                msg = f"round {state.round_no} is not over yet"
            else:
                msg = f"expected 'Round {state.round_no}', not 'Round {number}'"
            raise NotationError(msg, line, col)
        self.headed = number


def import_record(text: str | bytes) -> GameState:
    """Replay a record written by :func:`export_record` (or by hand, see
    ``docs/notation.md``) and return the resulting state.

    Every move is checked by the engine.  Anything wrong (a malformed line, an unknown
    preset, a bad card, an illegal move, bytes that are not UTF-8) raises
    :class:`NotationError` with the line and column; an illegal move's
    :class:`IllegalMoveError` is chained as ``__cause__`` and its rule is named in the
    message.
    """
    if isinstance(text, bytes | bytearray):
        data = bytes(text)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            before = data[: exc.start]
            line = before.count(b"\n") + 1
            col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
            raise NotationError("the record is not valid UTF-8", line, col) from None
    if not isinstance(text, str):
        raise NotationError(f"a record must be text, not {type(text).__name__}", 1, 1)
    return _Importer().run(text)
