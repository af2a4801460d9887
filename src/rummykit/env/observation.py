"""One player's view as a fixed-shape float32 vector, for learning agents.

The vector is built from a :class:`~rummykit.view.PlayerView` and nothing else, so it
holds exactly what that player may know: two states that differ only in cards the
player cannot see (other hands, the stock order) encode to the same vector.  Its
length depends only on the rules and the number of players (:func:`observation_size`),
never on the position, so it fits a ``Box`` space and a network's input layer.
:func:`encode_state` gives the same vector from a state and a seat without building
the view (the environments use it); it runs the same code and reads only what the
view would hold.

Seats are *relative*: section entries indexed by seat start with the viewer (0), then
the player to their left (1), and so on.  A policy trained in one seat then plays any
seat, and the vector does not change when the same hand is dealt to another seat.

Cards are counted by face (53 faces, the joker last, as in :mod:`rummykit.cards`):
with two decks a face can be held twice and the joker up to four times (three decks:
three and six), so card channels hold counts, not flags.  :func:`layout` lists every
section with its slice and meaning; ``docs/env.md`` prints that table.

>>> from rummykit import new_game
>>> g = new_game("gin", seed=4)
>>> x = encode(g.view(0))
>>> x.shape == (observation_size("gin", 2),), x.dtype.name
(True, 'float32')
>>> lay = layout("gin", 2)
>>> int(x[lay["hand"].slice].sum()), int(x[lay["stock"].slice][0] * 52)
(10, 31)
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np
import numpy.typing as npt

from ..cards import FACES_PER_DECK, JOKER, MAX_CARDS, NUM_FACES
from ..family import FamilyFields
from ..rules import Rules
from ..state import Game, GameState, Phase
from ..table import TableMeld
from ..variants.gin import KnockFields
from ..view import PlayerView

_NO_KNOCK = KnockFields()
"""The knock fields' slots of a game without knocking."""

Vector = npt.NDArray[np.float32]

_FACE = tuple(min(c % FACES_PER_DECK, JOKER) for c in range(MAX_CARDS))
"""The face of each physical card id (both jokers of a deck are face 52)."""


@dataclass(frozen=True)
class Section:
    """One named run of the vector: ``x[start:stop]``."""

    name: str
    start: int
    stop: int
    meaning: str
    low: float = 0.0
    high: float = 1.0
    """Bounds every entry of the section keeps (the spaces' ``Box`` uses them)."""

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)

    @property
    def width(self) -> int:
        return self.stop - self.start


class Layout:
    """Where each section of the observation vector sits, for one rules and player count.

    Iterating gives the sections in order; ``layout["hand"]`` finds one by name.
    """

    def __init__(self, rules: Rules, players: int) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        game = Game.shared(rules, players)
        self.max_table = game.max_table
        self.dealt = game.dealt
        self.deck_size = rules.deck_size
        self.score_scale = float(rules.target_score or 100)
        self._sections: list[Section] = []
        n = players
        f = NUM_FACES
        add = self._add
        inf = float("inf")
        copies = float(max(rules.decks, rules.decks * rules.jokers))
        """The most copies of one face (two decks of two jokers: four jokers)."""
        # Card channels first, then 0/1 flags, then the scalars in one block at the end:
        # the encoder counts the first two kinds in one pass and writes the block at once.
        add("hand", f, "own hand: count of each face (0..2 per face with two decks; joker last)",
            high=copies)  # fmt: skip
        add("discard_top", f, "top card of the discard pile: one-hot face (zeros if empty)")
        add("discard_pile", f, "whole discard pile: count of each face (everyone saw it built)",
            high=copies)  # fmt: skip
        add(
            "table_by_owner",
            n * f,
            "cards on the table per meld owner (relative seat), count of each face; "
            "a joker counts in the joker channel",
            high=copies,
        )
        add(
            "table_melds",
            self.max_table * f,
            f"per table meld number 0..{self.max_table - 1} (the numbers lay-off, swap "
            "and take actions name): the faces its cells stand for, and in channel 52 "
            "how many of them are jokers",
            high=copies,
        )
        add(
            "known",
            (n - 1) * f,
            "per opponent (relative seats 1..n-1): faces known to be in their hand "
            "(taken face up from the pile or a meld)",
            high=copies,
        )
        add("taken", f, "face taken from the discard pile this turn, one-hot (zeros if none)")
        add("pending", f, "face that must still be used this turn, one-hot (zeros if none)")
        # BUY is reached only by games with buying, TILES only by Rummikub: the others
        # keep the width they had before Contract Rummy, so trained models still load.
        # A phase's entry is at its number, so Rummikub's TILES (the last phase) keeps
        # BUY's entry before it, always zero.
        phases = [
            p
            for p in Phase
            if (p is not Phase.BUY or rules.buys_per_round or rules.free_table)
            and (p is not Phase.TILES or rules.free_table)
        ]
        add("phase", len(phases), "phase one-hot: " + ", ".join(p.name for p in phases))
        add("current", n, "relative seat to act, one-hot (zeros when the match is over)")
        add("dealer", n, "relative seat of the dealer, one-hot")
        add("opened", n, "per relative seat: has met the opening minimum (Rami)")
        add("melded", n, "per relative seat: has melded this round")
        add("laid", n, "per relative seat: has laid cards on the table this round")
        add("pending_kind", 2, "what the pending card needs: a new meld / a meld or lay-off")
        add("knocker", n, "Gin: relative seat that knocked, one-hot (zeros if nobody)")
        add("hand_sizes", n, "cards held per relative seat, divided by the cards dealt",
            high=self.deck_size / self.dealt)  # fmt: skip
        add("scores", n, f"match scores per relative seat divided by {self.score_scale:g}",
            low=-inf, high=inf)  # fmt: skip
        add("stock", 1, f"stock size divided by the deck size ({self.deck_size})")
        add(
            "turn",
            4,
            "melds laid this turn; opening points so far this turn divided by the "
            "opening minimum; the opening has a pure run; had laid cards when the turn began",
            high=inf,
        )
        add(
            "knock",
            5,
            "Gin: lay-off stage; knock limit / 10; first-upcard passes / players; "
            "upcard draws / the limit; the hand repeats after a void deal",
            high=inf,
        )
        add("progress", 3, "round number / 100; turn number / max turns; restocks / 10",
            high=inf)  # fmt: skip
        self.size = self._sections[-1].stop
        self._by_name = {s.name: s for s in self._sections}

    def _add(
        self, name: str, width: int, meaning: str, low: float = 0.0, high: float = 1.0
    ) -> None:
        start = self._sections[-1].stop if self._sections else 0
        self._sections.append(Section(name, start, start + width, meaning, low, high))

    def bounds(self) -> tuple[Vector, Vector]:
        """Per entry, the lowest and highest value it can take (infinite where the
        rules set no limit, as for scores)."""
        low = np.empty(self.size, dtype=np.float32)
        high = np.empty(self.size, dtype=np.float32)
        for s in self._sections:
            low[s.slice] = s.low
            high[s.slice] = s.high
        return low, high

    def __iter__(self) -> Iterator[Section]:
        return iter(self._sections)

    def __getitem__(self, name: str) -> Section:
        return self._by_name[name]

    def __len__(self) -> int:
        return len(self._sections)

    def table(self) -> str:
        """The layout as a Markdown table (for docs/env.md)."""
        rows = ["| section | slice | width | range | meaning |", "|---|---|---|---|---|"]
        for s in self._sections:
            span = f"{s.low:g}..{s.high:g}".replace("inf", "∞")
            rows.append(f"| `{s.name}` | {s.start}:{s.stop} | {s.width} | {span} | {s.meaning} |")
        return "\n".join(rows)


RulesLike = Rules | str | Game


def _rules_players(rules: RulesLike, players: int | None) -> tuple[Rules, int]:
    if isinstance(rules, Game):
        return rules.rules, rules.num_players if players is None else players
    if isinstance(rules, str):
        rules = Rules.parse(rules)
    if players is None:
        raise ValueError("players is needed unless a Game is given")
    return rules, players


@lru_cache(maxsize=64)
def _layout(rules: Rules, players: int) -> Layout:
    return Layout(rules, players)


def layout(rules: RulesLike, players: int | None = None) -> Layout:
    """The sections of the observation vector for these rules and players."""
    r, n = _rules_players(rules, players)
    return _layout(r, n)


def observation_size(rules: RulesLike, players: int | None = None) -> int:
    """The observation vector's length for these rules and players.

    >>> observation_size("gin", 2), observation_size("rami51", 4)
    (1363, 2598)
    """
    return layout(rules, players).size


class _Plan:
    """What the encoder needs per game, looked up by the :class:`Game` object.

    A game is hashed by identity, which is much cheaper than hashing its
    :class:`Rules` (a dataclass of some fifty fields) on every call.  Offsets are kept
    as attributes, not a dict, since every encoding reads a dozen of them."""

    __slots__ = (
        "current",
        "dealer",
        "discard_pile",
        "discard_top",
        "flags_at",
        "game",
        "hand",
        "knocker",
        "known",
        "laid",
        "layout",
        "melded",
        "melds",
        "nbytes",
        "opened",
        "pack_scalars",
        "pending",
        "pending_kind",
        "phase",
        "scalars",
        "seats",
        "single",
        "table_by_owner",
        "table_melds",
        "taken",
    )  # fmt: skip

    # Where each section the encoder writes starts (set from the layout by name; those
    # of FLAG_SECTIONS counted from ``flags_at``).
    hand: int
    discard_top: int
    discard_pile: int
    table_by_owner: int
    table_melds: int
    known: int
    taken: int
    pending: int
    phase: int
    current: int
    dealer: int
    opened: int
    melded: int
    laid: int
    pending_kind: int
    knocker: int
    pack_scalars: Callable[..., None]

    def __init__(self, game: Game) -> None:
        n = game.num_players
        lay = self.layout = _layout(game.rules, n)
        for sec in lay:
            if sec.name in self.__slots__:
                setattr(self, sec.name, sec.start)
        self.flags_at = lay["taken"].start
        for name in FLAG_SECTIONS:
            start = getattr(self, name)
            assert self.flags_at <= start < lay["hand_sizes"].start, name
            setattr(self, name, start - self.flags_at)
        self.scalars = lay["hand_sizes"].start
        """Everything before this offset is a count of cards or a 0/1 flag, built as
        bits of one integer; the scalars follow it."""
        self.nbytes = (self.scalars + 7) // 8
        self.pack_scalars = struct.Struct(f"={lay.size - self.scalars}f").pack_into
        """Writes the scalar block into the vector's buffer: cheaper than numpy
        converting a list."""
        self.seats = tuple(tuple((v + r) % n for r in range(n)) for v in range(n))
        """``seats[viewer][r]``: the absolute seat at relative seat ``r``."""
        self.single = game.one_copy
        """One deck, no jokers: a card's id is its face and no face is counted twice,
        so the card channels are plain bits."""
        self.game = game
        self.melds: dict[TableMeld, tuple[int, int]] = {}
        """What :meth:`meld` returns, by meld."""

    def meld(self, tm: TableMeld) -> tuple[int, int]:
        """With one deck and no jokers: a table meld's cards and the faces its cells
        stand for, each as a mask (no face repeats, so a mask is exact).

        Kept per meld (a table changes by one meld or one card at a time, so the
        same melds are encoded again and again), up to ``MELD_CACHE`` of them."""
        found = self.melds.get(tm)
        if found is None:
            cells = self.game.melds.shapes[tm.shape].cells
            found = (sum(1 << c for c in tm.cards), sum(1 << f for f in cells))
            if len(self.melds) >= MELD_CACHE:
                self.melds.clear()
            self.melds[tm] = found
        return found


MELD_CACHE = 50_000

FLAG_SECTIONS = (
    "taken", "pending", "phase", "current", "dealer", "opened", "melded", "laid",
    "pending_kind", "knocker",
)  # fmt: skip
"""The one-hot and 0/1 sections after the card channels, from ``taken`` on."""


_PLANS: dict[Game, _Plan] = {}


def _plan(game: Game) -> _Plan:
    plan = _PLANS.get(game)
    if plan is None:
        plan = _PLANS[game] = _Plan(game)
    return plan


_BIT = tuple(1 << c for c in range(MAX_CARDS))
"""``_BIT[c] == 1 << c``: summing these over distinct cards gives their mask in C."""


class _Source(Protocol):
    """The fields the encoder reads, named as both :class:`PlayerView` and
    :class:`GameState` name them, each public in both (the viewer's own hand, hand
    sizes and stock size are passed separately: only there do the two differ)."""

    @property
    def game(self) -> Game: ...
    @property
    def known(self) -> Sequence[int]: ...
    @property
    def discard(self) -> Sequence[int]: ...
    @property
    def table(self) -> Sequence[TableMeld]: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def melded(self) -> Sequence[bool]: ...
    @property
    def opened(self) -> Sequence[bool]: ...
    @property
    def laid(self) -> Sequence[bool]: ...

    @property
    def phase(self) -> Phase: ...
    @property
    def current(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def round_no(self) -> int: ...
    @property
    def taken(self) -> int: ...
    @property
    def pending(self) -> int: ...
    @property
    def pending_kind(self) -> int: ...
    @property
    def melds_this_turn(self) -> int: ...
    @property
    def open_points(self) -> int: ...
    @property
    def open_pure(self) -> bool: ...
    @property
    def turn_start_laid(self) -> bool: ...
    @property
    def turn(self) -> int: ...
    @property
    def restocks(self) -> int: ...
    @property
    def knocker(self) -> int: ...
    @property
    def family(self) -> FamilyFields: ...
    @property
    def upcard_passes(self) -> int: ...
    @property
    def upcard_draws(self) -> int: ...
    @property
    def repeated(self) -> bool: ...


def encode(view: PlayerView, out: Vector | None = None) -> Vector:
    """``view`` as a float32 vector laid out as :func:`layout` says.

    Pass ``out`` (a float32 vector of the right length) to fill it in place instead of
    allocating.  :func:`encode_state` gives the same vector straight from a state.
    """
    return _encode(view, view.player, view.hand, view.hand_sizes, view.stock_size, out)


def encode_state(state: GameState, player: int, out: Vector | None = None) -> Vector:
    """``encode(make_view(state, player))`` without building the view.

    An environment encodes once per step, and a view costs more than the encoding
    itself (it copies every list of the state and lists the legal moves).  This reads
    the state through the same code as :func:`encode`, and only fields a view of
    ``player`` holds: the other hands only by their size, never the stock's order.
    """
    hands = state.hands
    if not 0 <= player < len(hands):  # as make_view: a negative seat would index from the end
        raise ValueError(f"no player {player}")
    sizes = [h.bit_count() for h in hands]
    return _encode(state, player, hands[player], sizes, len(state.stock), out)


def _encode(
    src: _Source, me: int, hand: int, sizes: Sequence[int], stock_size: int, out: Vector | None
) -> Vector:
    """The encoding both entry points share.

    Every 0/1 entry before the scalar block becomes a bit of one Python integer (a
    hand is already a bitmask: shifting it puts it in place), turned into floats by
    numpy in one call; the flags after the card channels are built apart, as a small
    integer, and shifted in at the end.  With two decks or jokers a face can be
    counted more than once, so the card channels and the flags' bits are listed as
    positions and counted with ``np.bincount`` instead.  Then the scalars are packed
    into place in one call.  That is a few numpy calls per observation and no
    per-card numpy work.
    """
    game = src.game
    plan = _PLANS.get(game) or _plan(game)
    n = game.num_players
    seats = plan.seats[me]
    single = plan.single
    bit = _BIT
    face = _FACE
    cards: list[tuple[int, int]] = []
    """Without ``single``: card masks and where their faces go, to be counted."""
    idx: list[int] = []
    """Without ``single``: positions to count, one entry per card."""

    if single:
        bits = hand << plan.hand
    else:
        bits = 0
        cards.append((hand, plan.hand))
    pile = src.discard
    if pile:
        if single:
            bits |= 1 << plan.discard_top + pile[-1]
            bits |= sum(map(bit.__getitem__, pile)) << plan.discard_pile
        else:
            idx.append(plan.discard_top + face[pile[-1]])
            at = plan.discard_pile
            idx += [at + face[c] for c in pile]
    table = src.table
    if table:
        owner_base = plan.table_by_owner
        melds_base = plan.table_melds
        if single:
            melds = plan.melds
            for k, tm in enumerate(table):
                held, cells = melds.get(tm) or plan.meld(tm)
                bits |= held << owner_base + (tm.owner - me) % n * NUM_FACES
                bits |= cells << melds_base + k * NUM_FACES
        else:
            shapes = game.melds.shapes
            for k, tm in enumerate(table):
                at = owner_base + (tm.owner - me) % n * NUM_FACES
                idx += [at + face[c] for c in tm.cards]
                shape = shapes[tm.shape]
                at = melds_base + k * NUM_FACES
                idx += [at + f for f in shape.cells]
                if shape.njokers:
                    idx += [at + JOKER] * shape.njokers
    known = src.known
    at = plan.known
    for r in range(1, n):
        mask = known[seats[r]]
        if mask:
            if single:
                bits |= mask << at
            else:
                cards.append((mask, at))
        at += NUM_FACES
    # The flags from ``taken`` on, as bits counted from there: a small integer is
    # cheaper to build (and, with two decks, to list) than a long one.
    flags = 0
    if src.taken >= 0:
        flags |= 1 << plan.taken + _FACE[src.taken]
    if src.pending >= 0:
        flags |= 1 << plan.pending + _FACE[src.pending]
        if src.pending_kind:
            flags |= 1 << plan.pending_kind + src.pending_kind - 1
    flags |= 1 << plan.phase + src.phase
    if src.current >= 0:
        flags |= 1 << plan.current + (src.current - me) % n
    flags |= 1 << plan.dealer + (src.dealer - me) % n
    for flag, at in (src.opened, plan.opened), (src.melded, plan.melded), (src.laid, plan.laid):
        if any(flag):  # (never, in knock games)
            for r in range(n):
                if flag[seats[r]]:
                    flags |= 1 << at + r
    if src.knocker >= 0:
        flags |= 1 << plan.knocker + (src.knocker - me) % n

    lay = plan.layout
    split = plan.scalars
    if out is None:
        out = np.empty(lay.size, dtype=np.float32)
    elif not out.flags.c_contiguous or out.dtype != np.float32 or out.shape != (lay.size,):
        # The fast writes below need one contiguous float32 buffer.
        np.copyto(out, _encode(src, me, hand, sizes, stock_size, None))
        return out
    nbytes = plan.nbytes
    if single:
        # Whole bytes: the last one spills into the scalars, written just after.
        _BYTE_FLOATS.take(
            np.frombuffer((bits | flags << plan.flags_at).to_bytes(nbytes, "little"), np.uint8),
            axis=0,
            out=out[: nbytes * 8].reshape(nbytes, 8),
        )
    else:
        push = idx.append
        for mask, at in cards:
            while mask:
                low = mask & -mask
                push(at + face[low.bit_length() - 1])
                mask ^= low
        at = plan.flags_at
        while flags:
            low = flags & -flags
            push(at + low.bit_length() - 1)
            flags ^= low
        out[:split] = np.bincount(idx, minlength=split)

    rules = game.rules
    dealt = lay.dealt
    scale = lay.score_scale
    scores = src.scores
    minimum = rules.opening_minimum
    limit = rules.max_upcard_draws
    knock = src.family if type(src.family) is KnockFields else _NO_KNOCK
    plan.pack_scalars(
        out,
        split * 4,
        *[sizes[p] / dealt for p in seats],
        *[scores[p] / scale for p in seats],
        stock_size / lay.deck_size,
        src.melds_this_turn,
        src.open_points / minimum if minimum else 0.0,
        src.open_pure,
        src.turn_start_laid,
        knock.knock_stage,
        knock.knock_limit / 10,
        src.upcard_passes / n,
        src.upcard_draws / limit if limit else 0.0,
        src.repeated,
        src.round_no / 100,
        src.turn / rules.max_turns,
        src.restocks / 10,
    )
    return out


_BYTE_FLOATS = np.unpackbits(
    np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little"
).astype(np.float32)
"""Row ``b``: the bits of byte ``b``, lowest first, as floats; one ``take`` of these
rows turns a mask's bytes into the vector, cheaper than unpacking and then converting."""


_BYTE_FLOATS = np.unpackbits(
    np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little"
).astype(np.float32)
"""Row ``b``: the bits of byte ``b``, lowest first, as floats; one ``take`` of these
rows turns a mask's bytes into the vector, cheaper than unpacking and then converting."""


__all__ = [
    "Layout", "Section", "Vector", "encode", "encode_state", "layout", "observation_size",
]  # fmt: skip
