"""Indian Rummy (13 cards): a wild rank, a declaration, drops, pool and deals formats.

The references are listed in docs/rules.md ("## Indian Rummy"); every rule below is an
option of :class:`~rummykit.rules.Rules` (``declare``, ``wild_cut``, ``first_drop``,
``middle_drop``, ``max_hand_points``, ``elimination``) and a test in
tests/variants/test_rules_indian.py quotes its passage.

* **The wild rank.**  After the deal the bottom card of the stock is turned face up
  (it stays there, drawn last): every card of its rank, in both decks and all suits,
  is a joker this deal, and if it is a printed joker the aces are.  The card is public
  (:attr:`IndianFields.wild`, in every view).  Card ids do not change: only this module's
  hand solver knows which faces are wild, so the seed games' meld catalogue is untouched.
* **The turn.**  Draw from the stock or take the top discard, then discard (not the card
  just taken) or *declare* (``Move(KNOCK)``): the declarer then puts out the 14th card
  (a ``DISCARD`` in the knock phase) and the other 13 must all be in melds, at least two
  of them sequences and one of those pure (no joker; a wild card in its own place
  keeps a sequence pure).  Sets are three or four cards of one rank and distinct
  suits.  Under ``wrong_show`` (the presets: 80) any declaration is legal, as at an
  online table: a *wrong show* costs the declarer that penalty and takes them out of
  the deal as a drop does; with ``wrong_show=0`` only valid declarations are listed.
* **Drops.**  Before drawing, a player may drop (``Move(DROP)``): before their first
  draw of the deal for ``first_drop`` points, later for ``middle_drop``.  With one
  player left in the deal, that player wins it.
* **Scores.**  The declarer counts 0; every other player in the deal counts the cards
  not in melds of their best grouping (aces and pictures 10, numbers their pip value,
  jokers and wild cards 0), or every card if no grouping has two sequences with a pure
  one, at most ``max_hand_points``.  Points format (``winner_collects``): the declarer
  collects everyone's count, drops included.  Pool and deals (``penalty``): each adds
  their own count; under ``elimination`` a total reaching ``target_score`` puts the
  player out of the match, which ends when one player is left.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, Self

from ..cards import (
    JOKER,
    MAX_CARDS,
    bits,
    copy_of,
    display_face,
    face_of,
    format_face,
    is_joker,
    parse_face,
)
from ..errors import IllegalMoveError
from ..family import FamilyFields, PositionReader
from ..fields import StateFormatError, deck_mask, expect_int, expect_seq
from ..moves import DISCARD, DISCARD_MOVES, DRAW_DISCARD, DROP, KNOCK, Move
from ..phase import Phase
from ..results import RoundEnd
from ..rules import Family, Rules, Scoring
from ..scoring import PlayerScore, RoundResult
from .base import MoveGenerator, Variant
from .show import Action, Grouping, Param, StatusLine

if TYPE_CHECKING:
    from ..solver import Solver
    from ..state import GameState
    from ..view import PlayerView

_PLAY_PHASE = Phase.PLAY
_KNOCK_PHASE = Phase.KNOCK
_INF = 1 << 20
KNOCK_MOVE = Move(KNOCK)
DROP_MOVE = Move(DROP)
SOFT_RUN = 15
"""The soft search's charge for each missing sequence (the bots' hand value)."""
SOFT_PURE = 20
"""...and for a missing pure sequence."""
MEMO_LIMIT = 400_000
"""A solver's memo is cleared when it grows past this many entries."""


@dataclass(frozen=True, slots=True)
class IndianFields(FamilyFields):
    """The declaration games' own fields, the state's ``family``: a save may leave
    them out (:attr:`~rummykit.family.FamilyFields.json_optional`)."""

    wild: int = -1
    """The card cut for the deal's wild rank (public), or -1."""
    dropped: tuple[int, ...] = ()
    """Per seat, 0 while in the deal, the drop penalty after a drop (or a wrong
    show's), -1 for a seat out of the match (pool elimination)."""

    position_keys: ClassVar[tuple[str, ...]] = ("wild", "dropped")
    json_optional: ClassVar[bool] = True

    @classmethod
    def fresh(cls, seats: int) -> Self:
        return cls(-1, (0,) * seats)

    def to_position(self) -> dict[str, str]:
        return {
            "wild": "-" if self.wild < 0 else format_face(face_of(self.wild)),
            "dropped": ",".join(str(d) for d in self.dropped) if any(self.dropped) else "-",
        }

    @classmethod
    def position_defaults(cls, rules: Rules, seats: int) -> dict[str, str]:
        return {"wild": "-", "dropped": "-"}

    @classmethod
    def from_position(cls, reader: PositionReader) -> Self:
        """The wild cut as a face (its first copy), the drops as numbers per seat."""
        n = reader.n
        wild = reader.extras.get("wild", "-")
        card = -1
        if wild != "-":
            try:
                card = parse_face(wild)
            except ValueError:
                raise reader.error(f"not a card: {wild[:28]!r}", "wild") from None
        text = reader.extras.get("dropped", "-")
        if text == "-":
            return cls(card, (0,) * n)
        values = text.split(",")
        if len(values) != n or not all(_is_number(v) for v in values):
            raise reader.error(f"expected {n} whole numbers split by commas", "dropped")
        return cls(card, tuple(int(v) for v in values))

    def check(self, state: GameState) -> None:
        """The wild cut is of the deck and the rules cut one; each drop is a penalty
        of the rules, -1 only at the target with no cards; the player to act is in."""

        s = state
        rules = s.rules
        n = s.num_players
        wild = expect_int(self.wild, "wild", -1, MAX_CARDS - 1)
        if wild >= 0 and (
            not rules.wild_cut or not deck_mask(rules.decks, rules.jokers) >> wild & 1
        ):
            raise StateFormatError("these rules cut no wild card from this deck", "wild")
        dropped = expect_seq(self.dropped, tuple, "dropped", n)
        allowed = {0, rules.first_drop, rules.middle_drop, rules.wrong_show}
        if rules.elimination and rules.target_score is not None:
            allowed.add(-1)
        for p, d in enumerate(dropped):
            expect_int(d, f"dropped[{p}]", -1, 1000)
            if d not in allowed:
                raise StateFormatError(
                    f"{d} is neither 0, a drop or wrong show's penalty of these rules nor -1 (out)",
                    f"dropped[{p}]",
                )
            if d == -1 and (s.scores[p] < (rules.target_score or 0) or s.hands[p]):
                raise StateFormatError(
                    "out of the match only at the target, with no cards", f"dropped[{p}]"
                )
        if s.phase is not Phase.OVER and dropped[s.current] != 0:
            raise StateFormatError("the player to act has dropped or is out", "current")


def _is_number(text: str) -> bool:
    """A whole number as a position writes one (a sign allowed, a few digits)."""
    digits = text[1:] if text.startswith("-") else text
    return digits.isascii() and digits.isdigit() and len(digits) <= 6


def declare_fields(v: GameState | PlayerView) -> IndianFields:
    """The declaration fields of a state or view; in a game of another family, no
    wild cut and every seat in the deal."""
    f = v.family
    return f if type(f) is IndianFields else IndianFields.fresh(len(v.names))


def set_dropped(state: GameState, p: int, value: int) -> None:
    """Seat ``p``'s entry of :attr:`IndianFields.dropped` becomes ``value``."""
    f = declare_fields(state)
    dropped = list(f.dropped)
    dropped[p] = value
    state.family = replace(f, dropped=tuple(dropped))


def wild_rank(card: int) -> int:
    """The rank made wild by the cut ``card``: its own, or the ace's for a joker (-1:
    no cut)."""
    if card < 0:
        return -1
    face = face_of(card)
    return 0 if face == JOKER else face % 13


class HandSolver:
    """Best groupings of Indian Rummy hands.  Pure, with memos of its own.

    A hand is split into natural faces (2 bits of count per face in one int), printed
    jokers, and the cards of the wild rank, each of which may stand as itself or as a
    joker.  The search takes the lowest face left and leaves it loose, puts it in a set
    (one card each of distinct suits) or in a sequence of its suit (gaps and missing
    ends filled with jokers), keeping count of the sequences and pure ones.

    >>> from rummykit.cards import mask_of, parse_cards
    >>> from rummykit.rules import Rules
    >>> hs = HandSolver(Rules.preset("indian"))
    >>> hand = mask_of(parse_cards("AH 2H 3H 5S 6S 7S 8S 9C 9D 9H KC KD JK"))
    >>> hs.valid(hand, -1), hs.points(hand, -1)
    (True, 0)
    >>> hs.points(mask_of(parse_cards("AH 2H 3H 5S 6S 7S 8S 9C 9D 9H KC KD 4D")), -1)
    24
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        ace = rules.ace_points
        self.values = tuple(
            ace if r == 0 else (10 if r >= 9 else r + 1) for _s in range(4) for r in range(13)
        )
        self.high_ace = rules.ace.value == "high_or_low"
        self._exact: dict[tuple[int, int, int, int, int], int] = {}
        self._score: dict[tuple[int, int, int, int, int], int] = {}
        self._soft: dict[tuple[int, int, int, int, int], int] = {}
        self._declarable: dict[tuple[int, int], bool] = {}
        self._last_declarable: tuple[int, int, bool] = (-1, -1, False)

    # -- public questions ------------------------------------------------------------
    def valid(self, hand: int, wild: int) -> bool:
        """Whether ``hand`` is a valid declaration: every card in a meld, two sequences,
        one of them pure."""
        return self._best(hand, wild, self._exact, False, _INF, _INF) == 0

    def declarable(self, hand: int, wild: int) -> bool:
        """Whether some card of ``hand`` (one over the deal) can go out so that the
        rest is a valid declaration: one search in which one card may stay out of the
        melds (a natural card as the search reaches it, or a joker left over at the
        end), the same as trying :meth:`valid` without each card in turn.

        The last hand asked is answered first, without its key: a move's payload asks
        about the same hand for its legal moves and for its advice."""
        last = self._last_declarable
        if last[0] == hand and last[1] == wild:
            return last[2]
        key = (self._faces_key(hand), wild_rank(wild))
        hit = self._declarable.get(key)
        if hit is None:
            hit = self._best(hand, wild, self._exact, False, _INF, _INF, spare=1) == 0
            if len(self._declarable) > MEMO_LIMIT:
                self._declarable.clear()
            self._declarable[key] = hit
        self._last_declarable = (hand, wild, hit)
        return hit

    def points(self, hand: int, wild: int) -> int:
        """What ``hand`` counts at the end: its loose cards in the best grouping with two
        sequences and a pure one, else every card; at most ``max_hand_points``."""
        loose = self._best(hand, wild, self._score, True, _INF, _INF)
        if loose >= _INF:
            loose = self.full_count(hand, wild)
        cap = self.rules.max_hand_points
        return loose if cap is None else min(cap, loose)

    def soft(self, hand: int, wild: int) -> int:
        """A bot's value of ``hand`` (lower is better): loose cards in the best grouping,
        plus :data:`SOFT_RUN` per missing sequence and :data:`SOFT_PURE` without a pure
        one."""
        return self._best(hand, wild, self._soft, True, SOFT_RUN, SOFT_PURE)

    def full_count(self, hand: int, wild: int) -> int:
        """Every card's value, jokers and wild cards 0."""
        wr = wild_rank(wild)
        total = 0
        for c in bits(hand):
            f = face_of(c)
            if f != JOKER and f % 13 != wr:
                total += self.values[f]
        return total

    def count(self, hand: int, wild: int, dealt: int) -> tuple[int, int]:
        """What ``hand`` counts as its player sees it, and the card it puts out: with
        one card over ``dealt`` (between draw and discard), the least :meth:`points`
        after putting out one card, and that card; else ``(points, -1)``.  The one
        count of the status line, the arrangement and (for a dealt hand) the round
        end."""
        if hand.bit_count() > dealt:
            return min((self.points(hand & ~(1 << c), wild), c) for c in self.distinct(hand))
        return self.points(hand, wild), -1

    def shown(self, hand: int, wild: int, dealt: int) -> Grouping:
        """:meth:`arrange` of what :meth:`count` counts: the hand without its card out,
        that card as ``out``."""
        points, out = self.count(hand, wild, dealt)
        if out < 0:
            return self.arrange(hand, wild)
        g = self.arrange(hand & ~(1 << out), wild)
        assert g.points == points
        return Grouping(g.melds, g.loose, g.card_points, g.points, g.valid, out)

    def arrange(self, hand: int, wild: int) -> Grouping:
        """``hand`` laid out as :meth:`points` counts it: the melds of its best grouping
        with two sequences and a pure one (every other card loose); without such a
        grouping, the melds a bot would aim for (:meth:`soft`), every card counting.

        The grouping is read back from the search's memo: at each step, the first
        option whose value is the step's value (the options :meth:`_searcher` tries, in
        its order)."""
        points = self.points(hand, wild)
        valid = self._best(hand, wild, self._score, True, _INF, _INF) < _INF
        memo, pen_run, pen_pure = (
            (self._score, _INF, _INF) if valid else (self._soft, SOFT_RUN, SOFT_PURE)
        )
        search, release = self._searcher(memo, True, pen_run, pen_pure)
        try:
            splits = self._splits(hand, wild)
            k, j = min(splits, key=lambda s: search(s[0], s[1], 0, 0, 0))
            wilds = splits[0][0] - k  # the wild-rank faces that play as jokers (counts)
            shapes, loose_faces = self._trace(search, k, j)
        finally:
            release()
        # Physical cards: naturals by face; jokers the printed ones, then the wild
        # cards playing as jokers.
        naturals: dict[int, list[int]] = {}
        printed: list[int] = []
        played: list[int] = []
        for c in bits(hand):
            f = face_of(c)
            if f == JOKER:
                printed.append(c)
            elif wilds >> (2 * f) & 3:
                wilds -= 1 << (2 * f)
                played.append(c)
            else:
                naturals.setdefault(f, []).append(c)
        jokers = printed + played
        melds = tuple(
            tuple((naturals[f].pop(0) if n else jokers.pop(0), f) for f, n in cells)
            for cells in shapes
        )
        loose = tuple(naturals[f].pop(0) for f in loose_faces) + tuple(jokers)
        wr = wild_rank(wild)

        def value(c: int) -> int:
            f = face_of(c)
            return 0 if f == JOKER or f % 13 == wr else self.values[f]

        cards = [c for meld in melds for c, _f in meld]
        card_points = tuple(value(c) if not valid else 0 for c in cards) + tuple(
            value(c) for c in loose
        )
        return Grouping(melds, loose, card_points, points, valid)

    def _trace(
        self, search: Callable[[int, int, int, int, int], int], key: int, j: int
    ) -> tuple[list[list[tuple[int, int]]], list[int]]:
        """The melds (cells of ``(face, natural?)``) and loose faces of the best
        grouping of natural faces ``key`` with ``j`` jokers, as ``search`` (loose cards
        allowed, its memo filled) values it."""
        values = self.values
        shapes: list[list[tuple[int, int]]] = []
        loose: list[int] = []
        runs = pure = 0
        while key:
            target = search(key, j, runs, pure, 0)
            bit = (key & -key).bit_length() - 1
            f = bit >> 1
            rank = f % 13
            suit = f // 13
            rest = key - (1 << (2 * f))
            if values[f] + search(rest, j, runs, pure, 0) == target:
                loose.append(f)
                key = rest
                continue
            options: list[tuple[int, int, int, int, list[tuple[int, int]]]] = []
            others = [s2 for s2 in range(suit + 1, 4) if rest >> (2 * (s2 * 13 + rank)) & 3]
            for pick in range(1 << len(others)):
                suits = [suit] + [s2 for i, s2 in enumerate(others) if pick >> i & 1]
                k = rest - sum(1 << (2 * (s2 * 13 + rank)) for s2 in suits[1:])
                need = 3 - len(suits) if len(suits) < 3 else 0
                missing = [s2 for s2 in range(4) if s2 not in suits][:need]
                cells = [(s2 * 13 + rank, 1) for s2 in suits] + [
                    (s2 * 13 + rank, 0) for s2 in missing
                ]
                options.append((k, need, runs, pure, sorted(cells)))
            more = runs + 1 if runs < 2 else 2
            base = suit * 13
            ends = [(0, 12, False, r) for r in _runs(rest, base, rank, j, 12)]
            if rank == 0 and self.high_ace:
                ends += [(1, 13, True, r) for r in _runs_down(rest, base, j)]
            for low, high, ace_high, (k, used) in ends:
                taken = [f] + [
                    g for g in range(base, base + 13) for _i in range(_face_count(rest - k, g))
                ]
                places = {13 if ace_high and g == base else g - base for g in taken}
                length = len(taken) + used
                start = max(low, min(min(places), high - length + 1))
                cells = [
                    (base + p % 13, 1 if p in places else 0) for p in range(start, start + length)
                ]
                options.append((k, used, more, 1 if used == 0 else pure, cells))
            for k, used, r2, p2, cells in options:
                if used <= j and search(k, j - used, r2, p2, 0) == target:
                    shapes.append(cells)
                    key, j, runs, pure = k, j - used, r2, p2
                    break
            else:  # pragma: no cover - the options are the search's own
                raise AssertionError("no option gives the search's value")
        return shapes, loose

    @staticmethod
    def distinct(hand: int) -> list[int]:
        """One physical card per face held (the lowest id)."""
        seen = 0
        out = []
        for c in bits(hand):
            f = face_of(c)
            if not seen >> f & 1:
                seen |= 1 << f
                out.append(c)
        return out

    # -- the search ------------------------------------------------------------------
    @staticmethod
    def _faces_key(hand: int) -> int:
        key = 0
        for c in bits(hand):
            key += 1 << (2 * face_of(c))  # JOKER (52) lands above the 52 faces
        return key

    def _best(
        self,
        hand: int,
        wild: int,
        memo: dict[tuple[int, int, int, int, int], int],
        loose: bool,
        pen_run: int,
        pen_pure: int,
        spare: int = 0,
    ) -> int:
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        search, release = self._searcher(memo, loose, pen_run, pen_pure)
        try:
            return min(search(k, j, 0, 0, spare) for k, j in self._splits(hand, wild))
        finally:
            release()

    def _splits(self, hand: int, wild: int) -> list[tuple[int, int]]:
        """``(natural faces, jokers)`` of each way to play ``hand``: each card of the
        wild rank stands as itself or as a joker."""
        key = self._faces_key(hand)
        jokers = key >> 104
        key &= (1 << 104) - 1
        wr = wild_rank(wild)
        splits = [(key, jokers)]
        if wr >= 0:
            for s in range(4):
                shift = 2 * (s * 13 + wr)
                n = key >> shift & 3
                splits = [(k - i * (1 << shift), j + i) for k, j in splits for i in range(n + 1)]
        return splits

    def _searcher(
        self,
        memo: dict[tuple[int, int, int, int, int], int],
        loose: bool,
        pen_run: int,
        pen_pure: int,
    ) -> tuple[Callable[[int, int, int, int, int], int], Callable[[], None]]:
        """The memoised search, and what to call once done with it.

        The search calls itself through its own closure cell, a reference cycle that
        only the garbage collector could free (its young collections then pause the
        server longer): the second function empties the cell, so reference counting
        frees the search as soon as the caller drops it."""
        values = self.values
        high_ace = self.high_ace

        def search(key: int, j: int, runs: int, pure: int, spare: int) -> int:
            """Least cost of grouping ``key`` with ``j`` jokers; ``spare``: one card may
            still stay out for free (the declaration's card out)."""
            if key == 0:
                if spare and j == 0:
                    return _INF  # the card out must be a joker no meld needs
                return (pen_run * (2 - runs) if runs < 2 else 0) + (0 if pure else pen_pure)
            mk = (key, j, runs, pure, spare)
            hit = memo.get(mk)
            if hit is not None:
                return hit
            bit = (key & -key).bit_length() - 1
            f = bit >> 1
            rank = f % 13
            suit = f // 13
            rest = key - (1 << (2 * f))  # one copy (a count of 2 is 0b10)
            best = values[f] + search(rest, j, runs, pure, spare) if loose else _INF
            if spare:
                v = search(rest, j, runs, pure, 0)
                if v < best:
                    best = v
            # Sets: this card and one card of each chosen higher suit, jokers to three.
            others = [
                2 * (s2 * 13 + rank)
                for s2 in range(suit + 1, 4)
                if rest >> (2 * (s2 * 13 + rank)) & 3
            ]
            for pick in range(1 << len(others)):
                k = rest
                size = 1
                for i, sh in enumerate(others):
                    if pick >> i & 1:
                        k -= 1 << sh
                        size += 1
                need = 3 - size if size < 3 else 0
                if need <= j:
                    v = search(k, j - need, runs, pure, spare)
                    if v < best:
                        best = v
            # Sequences in this suit from this card upwards (or, for an ace, downwards
            # from the high end).
            more = runs + 1 if runs < 2 else 2
            base = suit * 13
            for k, used in _runs(rest, base, rank, j, 12):
                v = search(k, j - used, more, 1 if used == 0 else pure, spare)
                if v < best:
                    best = v
            if rank == 0 and high_ace:
                for k, used in _runs_down(rest, base, j):
                    v = search(k, j - used, more, 1 if used == 0 else pure, spare)
                    if v < best:
                        best = v
            memo[mk] = best
            return best

        def release() -> None:
            nonlocal search
            del search

        return search, release


def _face_count(key: int, face: int) -> int:
    return key >> (2 * face) & 3


def _runs(key: int, base: int, start: int, j: int, top: int) -> list[tuple[int, int]]:
    """Sequences of suit ``base // 13`` holding the card at position ``start`` (already
    taken out of ``key``) and naturals above it up to position ``top``, each as (key
    left, jokers used).  Jokers completing a sequence to three cards may stand below or
    above it (a high ace is lower in face order, so it is never a natural here)."""
    out: list[tuple[int, int]] = []
    _runs_up(out, base, j, top, start + 1, key, 0, 1)
    return out


def _runs_up(
    out: list[tuple[int, int]], base: int, j: int, top: int, p: int, k: int, used: int, length: int
) -> None:
    """:func:`_runs`'s recursion (a module function, not a closure calling itself: that
    would be a reference cycle left to the garbage collector on every call)."""
    need = 3 - length if length < 3 else 0
    if used + need <= j:
        out.append((k, used + need))
    if p > top:
        return
    f = base + (p % 13)
    if k >> (2 * f) & 3:
        _runs_up(out, base, j, top, p + 1, k - (1 << (2 * f)), used, length + 1)
    # A joker here only as a gap before a natural card still in reach.
    if used < j:
        for q in range(p + 1, min(top, p + j - used) + 1):
            if _face_count(k, base + (q % 13)):
                _runs_up(out, base, j, top, p + 1, k, used + 1, length + 1)
                break


def _runs_down(key: int, base: int, j: int) -> list[tuple[int, int]]:
    """Sequences ending with a high ace (taken out of ``key``): Q-K-A and longer."""
    out: list[tuple[int, int]] = []
    _runs_below(out, base, j, 12, key, 0, 1)
    return out


def _runs_below(
    out: list[tuple[int, int]], base: int, j: int, p: int, k: int, used: int, length: int
) -> None:
    """:func:`_runs_down`'s recursion (a module function, as :func:`_runs_up`)."""
    need = 3 - length if length < 3 else 0
    if length > 1 and used + need <= j:  # the lone ace is the low search's
        out.append((k, used + need))
    if p < 1:
        return
    f = base + p
    if k >> (2 * f) & 3:
        _runs_below(out, base, j, p - 1, k - (1 << (2 * f)), used, length + 1)
    if used < j:
        for q in range(p - 1, max(1, p - (j - used)) - 1, -1):
            if _face_count(k, base + q):
                _runs_below(out, base, j, p - 1, k, used + 1, length + 1)
                break


# -- legal moves per phase ------------------------------------------------------------
def draw_moves(state: GameState) -> list[Move]:
    """The draws, and the drop when the rules have drops."""
    out = list(state.draw_moves())
    if state.rules.first_drop:
        out.append(DROP_MOVE)
    return out


def play_moves(state: GameState) -> list[Move]:
    """After the draw: discard any card but the one just taken, or declare."""
    p = state.current
    hand = state.hands[p]
    taken = -1 if state.rules.discard_taken_card else state.taken
    out: list[Move] = []
    seen = 0
    for c in bits(hand):
        f = face_of(c)
        if c != taken and not seen >> f & 1:
            seen |= 1 << f
            out.append(DISCARD_MOVES[f])
    if state.rules.wrong_show:
        out.append(KNOCK_MOVE)  # a wrong show is a legal act, paid for
        return out
    variant = state.game.variant
    assert isinstance(variant, Indian)
    if variant.solver.declarable(hand, declare_fields(state).wild):
        out.append(KNOCK_MOVE)
    return out


def declare_moves(state: GameState) -> list[Move]:
    """Declaring: put out any card (under ``wrong_show``), else any card whose absence
    leaves a valid declaration."""
    hand = state.hands[state.current]
    cards = HandSolver.distinct(hand)
    if state.rules.wrong_show:
        return [DISCARD_MOVES[face_of(c)] for c in cards]
    variant = state.game.variant
    assert isinstance(variant, Indian)
    valid = variant.solver.valid
    wild = declare_fields(state).wild
    return [DISCARD_MOVES[face_of(c)] for c in cards if valid(hand & ~(1 << c), wild)]


def makes_wrong_show(variant: Variant, hand: int, wild: int, phase: Phase, move: Move) -> bool:
    """Whether ``move`` by the holder of ``hand`` is a wrong show the rules let happen:
    a declaration no card out can make valid, or, once declared, a card out that
    leaves an invalid show while another would not.  Read from the mover's own hand and
    the public wild cut only, so a front end may warn its player before the move."""
    if not isinstance(variant, Indian) or not variant.rules.wrong_show:
        return False
    solver = variant.solver
    if move.kind == KNOCK and phase is _PLAY_PHASE:
        return not solver.declarable(hand, wild)
    if move.kind == DISCARD and phase is _KNOCK_PHASE and solver.declarable(hand, wild):
        card = copy_of(hand, move.a)
        return card >= 0 and not solver.valid(hand & ~(1 << card), wild)
    return False


def showed_wrong(rules: Rules, dropped: int) -> bool:
    """Whether a seat's ``dropped`` entry is a wrong show's penalty rather than a drop's
    (the rules make a wrong show dearer than any drop)."""
    return rules.wrong_show > 0 and dropped == rules.wrong_show


def players_in_deal(state: GameState | PlayerView) -> int:
    """Seats dealt in this deal (not out of the match)."""
    return sum(1 for d in declare_fields(state).dropped if d >= 0)


def drop_penalty(state: GameState | PlayerView) -> int:
    """What dropping now costs: the first drop before one's first draw of the deal (the
    first round of turns), the middle drop after."""
    r = state.rules
    return r.first_drop if state.turn <= players_in_deal(state) else r.middle_drop


# -- the variant ----------------------------------------------------------------------
INDIAN_ACTIONS = (
    Action("declare", "k", "key.declare", KNOCK),
    Action("drop", "x", "key.drop", DROP),
)
"""Declaring (then putting out the extra card) and dropping out of the deal."""


class Indian(Variant):
    """Indian Rummy: a wild rank, melds shown only in a declaration, drops, pools."""

    name = Family.INDIAN
    aliases = ("Indian Rummy", "13 Card Rummy", "Pool Rummy")
    own_phases = frozenset({Phase.KNOCK})
    """The declaration's card out (no first upcard: refused with ``declare``)."""
    family_fields = IndianFields

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.solver = HandSolver(rules)

    def actions(self) -> tuple[Action, ...]:
        return INDIAN_ACTIONS

    def status(self, g: GameState | PlayerView, hand: int) -> list[StatusLine]:
        """The wild cut, then what the player's own hand counts now (with a card still
        to put out, its best count after putting it out)."""
        out: list[StatusLine] = []
        wild = declare_fields(g).wild
        if wild >= 0:
            out.append(StatusLine("wild", {"card": wild, "ranks": wild_rank(wild)}))
        if hand:
            points, extra = self.solver.count(hand, wild, g.game.dealt)
            code = "count_after" if extra >= 0 else "count"
            out.append(StatusLine(code, {"n": points}, own=True))
        return out

    def advice(
        self, g: GameState | PlayerView, hand: int, legal: Sequence[Move]
    ) -> StatusLine | None:
        """Before the draw, when the seat may drop: draw, or drop for what it costs now.
        After declaring: put the extra card out.  In play: discard, or declare when the
        hand makes a valid show (never a wrong show by this advice)."""
        if g.phase is Phase.KNOCK:
            return StatusLine("indian.put_out")
        if g.phase is Phase.DRAW:
            if DROP_MOVE not in legal:
                return None
            cost: dict[str, Param] = {"n": drop_penalty(g)}
            if g.discard and any(m.kind == DRAW_DISCARD for m in legal):
                return StatusLine("indian.take_or_drop", {"card": g.discard[-1], **cost})
            return StatusLine("indian.draw_or_drop", cost)
        if g.phase is not Phase.PLAY:
            return None
        knock = Move(KNOCK)
        if knock in legal and not makes_wrong_show(
            self, hand, declare_fields(g).wild, g.phase, knock
        ):
            return StatusLine("indian.discard_or_declare")
        return StatusLine("indian.discard")

    def payload(self, v: PlayerView) -> dict[str, object]:
        """The wild cut (and its rank), each seat's drop (0 in the deal, its penalty,
        or -1 out of the match) and what a drop costs now."""
        fields = declare_fields(v)
        declare = {
            "wild": fields.wild,
            "wild_rank": wild_rank(fields.wild),
            "dropped": list(fields.dropped),
            "drop_cost": drop_penalty(v),
        }
        return {**super().payload(v), "declare": declare}

    def play_layout(self, hand: int, wild: int, dealt: int) -> Grouping | None:
        """The hand as its count counts it (:meth:`HandSolver.shown`)."""
        return self.solver.shown(hand, wild, dealt)

    def layout(self, hand: int, wild: int, solver: Callable[[], Solver]) -> Grouping:
        """The hand as its count counts it, with the deal's cut ``wild``."""
        return self.solver.arrange(hand, wild)

    def after_deal(self, state: GameState) -> None:
        """Seats out of the match give their cards back under the stock, shuffled; the
        bottom card of the stock is the wild cut; the deal passes to a seat still in,
        and the first turn is the next seat still in."""
        r = self.rules
        if r.elimination and r.target_score is not None:
            target = r.target_score
            for p in range(state.num_players):
                if state.scores[p] >= target:
                    set_dropped(state, p, -1)
                    # Shuffled (the game's generator) so the cut below stays random.
                    state.stock[:0] = state.shuffled(bits(state.hands[p]))
                    state.hands[p] = 0
        if r.wild_cut and state.stock:
            state.family = replace(declare_fields(state), wild=state.stock[0])
        dropped = declare_fields(state).dropped
        if dropped[state.dealer]:  # the deal passes on to a seat still in
            state.dealer = self.next_seat(state, state.dealer)
            state.set_phase(state.phase, self.next_seat(state, state.dealer))
        elif dropped[state.current]:
            state.set_phase(state.phase, self.next_seat(state, state.current))
        super().after_deal(state)

    def phase_moves(self) -> Mapping[Phase, MoveGenerator]:
        return {
            **super().phase_moves(),
            Phase.DRAW: draw_moves,
            Phase.PLAY: play_moves,
            Phase.KNOCK: declare_moves,
        }

    def next_seat(self, state: GameState, player: int) -> int:
        n = state.num_players
        q = (player + 1) % n
        dropped = declare_fields(state).dropped
        while dropped[q] and q != player:
            q = (q + 1) % n
        return q

    def do_phase(self, state: GameState, move: Move) -> bool:
        """The declarer's card out: a valid show ends the deal; a wrong show costs
        ``wrong_show`` and leaves the deal as a drop does (the card out stays on the
        pile), the deal ending when one player is left."""
        p = state.current
        hand = state.discard_face(p, move.a)
        if not self.rules.wrong_show or self.solver.valid(hand, declare_fields(state).wild):
            state.finish_round(p, RoundEnd.DECLARE)
            return True
        set_dropped(state, p, self.rules.wrong_show)
        state.knocker = -1
        state.set_phase(Phase.DRAW)
        self._last_left(state, RoundEnd.WRONG_SHOW)
        return True

    def do_move(self, state: GameState, move: Move) -> None:
        p = state.current
        if move.kind == KNOCK:
            state.knocker = p
            state.set_phase(_KNOCK_PHASE)
            return
        set_dropped(state, p, drop_penalty(state))  # a drop (before drawing)
        self._last_left(state, RoundEnd.DROP)

    @staticmethod
    def _last_left(state: GameState, reason: RoundEnd) -> None:
        """End the deal if one player is left in it; else the state passes the turn on
        (next_seat skips seats out of the deal)."""
        dropped = declare_fields(state).dropped
        left = [q for q in range(state.num_players) if dropped[q] == 0]
        if len(left) == 1:
            state.finish_round(left[0], reason)

    def score(self, state: GameState, winner: int | None, reason: RoundEnd) -> RoundResult:
        rules = self.rules
        solver = self.solver
        n = state.num_players
        counts = [0] * n
        notes: list[tuple[str, ...]] = [()] * n
        fields = declare_fields(state)
        for p in range(n):
            d = fields.dropped[p]
            if d < 0:
                notes[p] = ("out of the match",)
            elif d > 0:
                counts[p] = d
                notes[p] = (f"wrong show: {d}" if showed_wrong(rules, d) else f"dropped: {d}",)
            elif p == winner:
                notes[p] = ("declared" if reason is RoundEnd.DECLARE else "last in the deal",)
            else:
                counts[p] = solver.points(state.hands[p], fields.wild)
        deltas = [0] * n
        if rules.scoring is Scoring.WINNER_COLLECTS:
            if winner is not None:
                deltas[winner] = sum(counts)
        else:
            deltas = list(counts)
        players = tuple(
            PlayerScore(tuple(bits(state.hands[p])), counts[p], deltas[p], notes[p])
            for p in range(n)
        )
        return RoundResult(
            state.round_no, state.dealer, winner, winner is not None, reason, False, players,
            fields.wild,
        )  # fmt: skip

    def match_over(self, state: GameState) -> bool:
        r = self.rules
        if r.elimination and r.target_score is not None:
            target = r.target_score
            return sum(1 for s in state.scores if s < target) <= 1
        return super().match_over(state)

    def phase_error(self, state: GameState, kind: int) -> IllegalMoveError | None:
        if state.phase is _PLAY_PHASE:
            if kind in (DISCARD, KNOCK):
                return None
            if kind == DROP:
                return IllegalMoveError(
                    "drop_before_draw", "you may drop only before drawing, at the start of a turn"
                )
            return IllegalMoveError(
                "discard_or_declare",
                "after the draw, discard a card or declare (k); melds are shown only in a "
                "declaration",
            )
        if kind == DISCARD:
            return None
        return IllegalMoveError(
            "declare_discard",
            "you declared: put out your extra card (discard it); the other 13 are your declaration",
        )

    def diagnose(self, state: GameState, move: Move) -> IllegalMoveError:
        hand = state.hands[state.current]
        if move.kind == KNOCK:
            return IllegalMoveError(
                "invalid_declaration",
                "you cannot declare: no card out leaves 13 cards all in melds with two "
                "sequences, one of them pure",
            )
        face = move.a
        held = any(face_of(c) == face for c in bits(hand)) and 0 <= face <= JOKER
        if not held:
            return IllegalMoveError("card_not_in_hand", "you do not hold that card")
        if state.phase is _PLAY_PHASE:
            return IllegalMoveError(
                "no_discard_of_taken_card",
                "you may not discard the card you took from the discard pile this turn",
            )
        return IllegalMoveError(
            "invalid_declaration",
            f"without {display_face(face)} the other 13 cards are not all in melds with two "
            "sequences, one of them pure",
        )


def is_wild(card: int, wild: int) -> bool:
    """Whether ``card`` is a joker this deal: printed, or of the wild rank."""
    if is_joker(card):
        return True
    wr = wild_rank(wild)
    return wr >= 0 and face_of(card) % 13 == wr
