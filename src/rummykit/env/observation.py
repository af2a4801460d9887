"""One player's view as a fixed-shape float32 vector, for learning agents.

The vector is built from a :class:`~rummykit.view.PlayerView` and nothing else, so it
holds exactly what that player may know: two states that differ only in cards the
player cannot see (other hands, the stock order) encode to the same vector.  Its
length depends only on the rules and the number of players (:func:`observation_size`),
never on the position, so it fits a ``Box`` space and a network's input layer.

Seats are *relative*: section entries indexed by seat start with the viewer (0), then
the player to their left (1), and so on.  A policy trained in one seat then plays any
seat, and the vector does not change when the same hand is dealt to another seat.

Cards are counted by face (53 faces, the joker last, as in :mod:`rummykit.cards`):
with two decks a face can be held twice and the joker up to four times, so card
channels hold counts, not flags.  :func:`layout` lists every section with its slice
and meaning; ``docs/env.md`` prints that table.

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

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..cards import FACES_PER_DECK, JOKER, NUM_FACES
from ..rules import Rules
from ..state import Game, Phase
from ..view import PlayerView

Vector = npt.NDArray[np.float32]

_FACE = tuple(min(c % FACES_PER_DECK, JOKER) for c in range(2 * FACES_PER_DECK))
"""The face of each physical card id (both jokers of a deck are face 52)."""

NUM_PHASES = len(Phase)


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
        add("phase", NUM_PHASES, "phase one-hot: " + ", ".join(p.name for p in Phase))
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
    """What :func:`encode` needs per game, looked up by the :class:`Game` object.

    A game is hashed by identity, which is much cheaper than hashing its
    :class:`Rules` (a dataclass of some fifty fields) on every call."""

    __slots__ = ("layout", "offsets", "seats", "single")

    def __init__(self, game: Game) -> None:
        n = game.num_players
        self.layout = _layout(game.rules, n)
        self.offsets = {s.name: s.start for s in self.layout}
        self.seats = tuple(tuple((v + r) % n for r in range(n)) for v in range(n))
        """``seats[viewer][r]``: the absolute seat at relative seat ``r``."""
        self.single = game.one_copy
        """One deck, no jokers: no position is counted twice, so setting ones is enough."""


_PLANS: dict[Game, _Plan] = {}


def _plan(game: Game) -> _Plan:
    plan = _PLANS.get(game)
    if plan is None:
        plan = _PLANS[game] = _Plan(game)
    return plan


def encode(view: PlayerView, out: Vector | None = None) -> Vector:
    """``view`` as a float32 vector laid out as :func:`layout` says.

    Card channels and flags are gathered as a list of positions and counted in one
    ``np.bincount`` (a hand is a bitmask, walked lowest bit first; with one deck and
    no jokers no position repeats, and setting them is cheaper still), then the scalar
    block at the end is written in one assignment; that keeps the cost to a few
    microseconds with no per-card numpy call.  Pass ``out`` (a float32 vector of the
    right length) to fill it in place instead of allocating.
    """
    game = view.game
    plan = _PLANS.get(game) or _plan(game)
    o = plan.offsets
    n = game.num_players
    me = view.player
    seats = plan.seats[me]
    face = _FACE
    idx: list[int] = []
    push = idx.append

    base = o["hand"]
    mask = view.hand
    while mask:
        low = mask & -mask
        push(base + face[low.bit_length() - 1])
        mask ^= low
    pile = view.discard
    if pile:
        push(o["discard_top"] + face[pile[-1]])
        base = o["discard_pile"]
        idx += [base + face[c] for c in pile]
    table = view.table
    if table:
        shapes = game.melds.shapes
        owner_base = o["table_by_owner"]
        melds_base = o["table_melds"]
        for k, tm in enumerate(table):
            base = owner_base + (tm.owner - me) % n * NUM_FACES
            idx += [base + face[c] for c in tm.cards]
            shape = shapes[tm.shape]
            base = melds_base + k * NUM_FACES
            idx += [base + fc for fc in shape.cells]
            if shape.njokers:
                idx += [base + JOKER] * shape.njokers
    known = view.known
    base = o["known"] - NUM_FACES
    for r in range(1, n):
        mask = known[seats[r]]
        at = base + r * NUM_FACES
        while mask:
            low = mask & -mask
            push(at + face[low.bit_length() - 1])
            mask ^= low
    if view.taken >= 0:
        push(o["taken"] + face[view.taken])
    if view.pending >= 0:
        push(o["pending"] + face[view.pending])
        if view.pending_kind:
            push(o["pending_kind"] + view.pending_kind - 1)
    push(o["phase"] + view.phase)
    if view.current >= 0:
        push(o["current"] + (view.current - me) % n)
    push(o["dealer"] + (view.dealer - me) % n)
    opened, melded, laid = view.opened, view.melded, view.laid
    for r in range(n):
        p = seats[r]
        if opened[p]:
            push(o["opened"] + r)
        if melded[p]:
            push(o["melded"] + r)
        if laid[p]:
            push(o["laid"] + r)
    if view.knocker >= 0:
        push(o["knocker"] + (view.knocker - me) % n)

    lay = plan.layout
    if plan.single:
        if out is None:
            out = np.zeros(lay.size, dtype=np.float32)
        else:
            out.fill(0.0)
        out[idx] = 1.0
    else:
        counts = np.bincount(idx, minlength=lay.size)
        if out is None:
            out = counts.astype(np.float32)
        else:
            np.copyto(out, counts, casting="unsafe")

    rules = game.rules
    dealt = lay.dealt
    scale = lay.score_scale
    sizes = view.hand_sizes
    scores = view.scores
    minimum = rules.opening_minimum
    limit = rules.max_upcard_draws
    out[o["hand_sizes"] :] = [
        *[sizes[p] / dealt for p in seats],
        *[scores[p] / scale for p in seats],
        view.stock_size / lay.deck_size,
        view.melds_this_turn,
        view.open_points / minimum if minimum else 0.0,
        view.open_pure,
        view.turn_start_laid,
        view.knock_stage,
        view.knock_limit / 10,
        view.upcard_passes / n,
        view.upcard_draws / limit if limit else 0.0,
        view.repeated,
        view.round_no / 100,
        view.turn / rules.max_turns,
        view.restocks / 10,
    ]
    return out


__all__ = ["Layout", "Section", "Vector", "encode", "layout", "observation_size"]
