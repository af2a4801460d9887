"""Rummikub's bots: three levels that play different moves.

A Rummikub play is the table's whole new arrangement (``variants/rummikub.py``), and
the engine accepts any legal one, listed or not, so each level builds its own play
from what its view shows (the table, its rack, who has opened, the racks' sizes and
the pool's) and checks it with the engine's own rule
(:func:`~rummykit.variants.rummikub.arrangement_error`) before playing it; a play that
fails the check (none should) gives way to the listed play placing the most tiles.

* ``random`` plays any listed move (its own module).
* ``greedy`` (easy) plays what fits without rearranging the table: the most tiles of
  new sets of its own rack (the solver on the rack alone), then each tile left that
  extends a set (a run's end, a group's missing colour), the table's sets otherwise
  as they were.  Before its first meld it plays new sets worth the opening minimum or
  draws (rummikub.org, Game Play: the initial meld is 30 points of the player's own
  tiles).  It draws when nothing fits.
* ``expert`` (medium) plays the solver's arrangement of table and rack
  (:mod:`~rummykit.variants.rummikub_solver`), which splits and rearranges table sets,
  and holds tiles back when that is worth it (:func:`expert_shapes`): it goes out
  whenever it can; it keeps its jokers unless they unlock :data:`JOKER_GAIN` more of
  its other tiles, and opens without them when the opening reaches the minimum
  without them; it keeps a lone tile that a near-set of its rack needs rather than
  play it alone; and it plays everything it can once an opponent is close to going
  out (:data:`DANGER` tiles or fewer) or the pool is empty.
* ``ismcts`` (hard) plays the expert's move: its search of Rummikub turns
  (``ISMCTSBot(tiles_search=True)``) compares a few plays (:func:`candidate_moves`: the
  expert's, the solver's most tiles, the same without the rack's jokers, the easy
  play, the draw) by paired playouts on determinizations of its view (:mod:`.ismcts`),
  each the expert's next turns on the sample (:mod:`.rummikub_playout`), the racks
  they leave scored; it keeps the expert's play unless another beats it with 95%
  confidence, and answers within its budget, the candidates' cost included.

How strong each level is, measured on duplicate deals (docs/bots.md, "Rummikub"):
``medium`` beats ``easy`` in 97.5% of games; the search is not stronger than
``medium`` (40% of games at one CPU-second a move with light playouts alone, near
parity with the expert's turns in its samples), so ``hard`` does not use it; ``easy``
loses to ``random``.

Every level sees only its :class:`~rummykit.view.PlayerView`; the search's samples
deal the unseen tiles at random.

The hint and the game review grade a Rummikub move for the same reason without
playouts (:func:`rummykit.bots.review.evaluate`): a move is worth the points it takes
off the rack (:func:`placed_points`), and :func:`explain` says so in words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..cards import JOKER, bits, display_face, format_face, is_joker
from ..melds import MeldTable
from ..moves import ARRANGE, DRAW_STOCK, PASS, Move
from ..rules import Rules
from ..table import layoff_options
from ..variants.rummikub import (
    DRAW_MOVE,
    LARGE_RACK,
    LARGE_RACK_BEAM,
    PASS_MOVE,
    SOLVER_BEAM,
    arrangement_code,
    arrangement_error,
    arrangement_shapes,
    canonical_shapes,
    rack_faces,
    set_points,
    shape_faces,
    tile_value,
)
from ..variants.rummikub_solver import POINTS, TILES, Solution, solve
from ..view import PlayerView

DANGER = 4
"""An opponent with this many tiles or fewer may go out within a turn or two: the
expert then holds nothing back, since every tile left on its rack is scored against
it (rummikub.org: the losers count their racks, a joker 30)."""
JOKER_GAIN = 2
"""Other tiles a joker must let the expert place to be played; otherwise it stays on
the rack, where it can complete any set later (a joker left at the end costs 30, so
the expert plays everything near the end: :data:`DANGER`)."""
FAR = 8
"""An opponent with at least this many tiles is far from going out: only then does the
expert keep a lone tile that one of its near-sets needs (:func:`needed_by_near_set`)."""


class Turn(NamedTuple):
    """What a Rummikub turn's choice reads, all of it in the player's own view."""

    t: MeldTable
    rules: Rules
    old: tuple[int, ...]
    """The table's arrangement before the turn (sorted shapes)."""
    rack: int
    opened: bool
    others: tuple[int, ...]
    """The other players' rack sizes."""
    pool: int
    """Tiles left in the pool."""
    solved: dict[tuple[bool, int, str], Solution]
    """The solver's answers so far this turn, by (whole table or rack alone, rack,
    objective): the levels ask the same questions (:meth:`solve`)."""

    def solve(self, rack: int, objective: str = TILES, table: bool = True) -> Solution:
        """The solver's best arrangement of the table (or none: ``table`` False) and
        ``rack`` for ``objective``, at the legal list's beam."""
        key = (table, rack, objective)
        sol = self.solved.get(key)
        if sol is None:
            old = self.old if table else ()
            sol = solve(self.t, old, rack, objective, self.rules.joker_points, self.beam)
            self.solved[key] = sol
        return sol

    @property
    def beam(self) -> int:
        """The solver's beam, as the legal list's (``variants/rummikub.py``)."""
        return SOLVER_BEAM if self.rack.bit_count() <= LARGE_RACK else LARGE_RACK_BEAM

    @property
    def draw(self) -> Move:
        """The move that plays nothing: the draw, or the pass once the pool is empty."""
        return DRAW_MOVE if self.pool else PASS_MOVE


def view_turn(view: PlayerView) -> Turn:
    p = view.player
    return Turn(
        view.game.melds,
        view.rules,
        tuple(sorted(tm.shape for tm in view.table)),
        view.hand,
        view.opened[p],
        tuple(n for q, n in enumerate(view.hand_sizes) if q != p),
        view.stock_size,
        {},
    )


# -- plays ---------------------------------------------------------------------------
def placed_faces(t: MeldTable, old: Iterable[int], shapes: Iterable[int]) -> Counter[int]:
    """The tiles (faces) an arrangement adds to the table ``old``."""
    new: Counter[int] = Counter()
    for s in shapes:
        new.update(shape_faces(t, s))
    for s in old:
        new.subtract(shape_faces(t, s))
    return +new


def placed(view: PlayerView, move: Move) -> Counter[int]:
    """The tiles (faces) ``move`` places from the rack: none for a draw or a pass."""
    if move.kind != ARRANGE:
        return Counter()
    t = view.game.melds
    return placed_faces(t, (tm.shape for tm in view.table), arrangement_shapes(move.a, t) or ())


def placed_points(view: PlayerView, move: Move) -> int:
    """The points of the tiles ``move`` places (a joker ``joker_points``): what it takes
    off the rack, which the round charges a player who has not gone out."""
    jp = view.rules.joker_points
    return sum(tile_value(f, jp) * n for f, n in placed(view, move).items())


def explain(view: PlayerView, move: Move, unicode: bool = True) -> str:
    """One line saying what ``move`` does for the rack (a hint's or a review's reason)."""
    fmt = display_face if unicode else format_face
    if move.kind == DRAW_STOCK:
        if any(m.kind == ARRANGE for m in view.legal):
            return "draw a tile: one more tile on your rack"
        return "draw a tile: no play places a tile from your rack"
    if move.kind == PASS:
        return "pass: the pool is empty and no play places a tile from your rack"
    tiles = placed(view, move)
    faces = " ".join(fmt(f) for f in sorted(tiles.elements()))
    if view.hand.bit_count() == tiles.total():
        return f"play {faces}: it goes out"
    return f"play {faces}: {placed_points(view, move)} points off your rack"


def jokers_of(rack: int) -> int:
    """The rack's jokers, as a mask."""
    return sum(1 << c for c in bits(rack) if is_joker(c))


def play_move(turn: Turn, shapes: Sequence[int] | None) -> Move | None:
    """The move that leaves the table as ``shapes`` (None: the draw or the pass), or
    None if that is not a legal play of ``turn``."""
    if shapes is None or sorted(shapes) == list(turn.old):
        return turn.draw
    code = arrangement_code(shapes, turn.t)
    canon = arrangement_shapes(code, turn.t)
    err = arrangement_error(turn.t, turn.rules, turn.old, turn.rack, turn.opened, canon)
    return Move(ARRANGE, code) if err is None else None


def opening_shapes(turn: Turn, rack: int) -> list[int] | None:
    """The first meld of ``rack``'s tiles worth the most (the solver's), or None if it
    is worth less than the opening minimum (rummikub.org: 30 points of the player's
    own tiles, the table's sets untouched unless ``first_meld_untouched`` is off)."""
    t, r = turn.t, turn.rules
    if r.first_meld_untouched:
        sol = turn.solve(rack, POINTS, table=False)
        new = list(sol.shapes)
        value = sum(set_points(t, s) for s in new)
        shapes = [*turn.old, *new]
    else:
        sol = turn.solve(rack, POINTS)
        shapes = list(sol.shapes)
        value = sum(set_points(t, s) for s in shapes) - sum(set_points(t, s) for s in turn.old)
    return shapes if sol.placed and value >= r.opening_minimum else None


def easy_shapes(turn: Turn) -> list[int] | None:
    """The easy play: the most tiles of new sets of the rack alone, then every tile
    left that extends a set, no table set split or rearranged; None: nothing fits."""
    t = turn.t
    if not turn.opened:
        return opening_shapes(turn, turn.rack)
    sol = turn.solve(turn.rack, table=False)
    shapes = [*turn.old, *sol.shapes]
    left = rack_faces(turn.rack)
    left.subtract(placed_faces(t, (), sol.shapes))
    extended = extend_sets(t, shapes, left)
    return shapes if sol.placed or extended else None


def extend_sets(t: MeldTable, shapes: list[int], left: Counter[int]) -> int:
    """Add each tile of ``left`` that extends one of ``shapes`` (naturals first, a
    joker only where no natural goes), in place; the number of tiles added."""
    canon = canonical_shapes(t)
    added = 0
    grown = True
    while grown:
        grown = False
        for joker in (False, True):
            for i, s in enumerate(shapes):
                for opt in layoff_options(t, s):
                    new = opt.joker_shape if joker else opt.natural_shape
                    face = JOKER if joker else opt.face
                    if new >= 0 and left[face] > 0 and canon[new]:
                        shapes[i] = new
                        left[face] -= 1
                        added += 1
                        grown = True
                        break
                if grown:
                    break
            if grown:
                break
    return added


def needed_by_near_set(t: MeldTable, face: int, rest: Counter[int]) -> bool:
    """Whether ``face`` and another tile of the rack ``rest`` make two thirds of a set:
    the same colour one or two numbers apart, or the same number in another colour."""
    if face == JOKER:
        return False
    n, c = face % 13, face // 13
    for other, k in rest.items():
        if not k or other == JOKER:
            continue
        on, oc = other % 13, other // 13
        if (oc == c and 0 < abs(on - n) <= 2) or (on == n and oc != c):
            return True
    return False


def expert_shapes(
    turn: Turn,
    danger: int = DANGER,
    far: int = FAR,
    joker_gain: int = JOKER_GAIN,
    objective: str = TILES,
) -> list[int] | None:
    """The expert's play: the solver's arrangement with hold-backs (module docstring);
    None: draw (or pass).  The keywords are the hold-backs' thresholds and the
    solver's objective once opened, so that other settings can be measured against
    ``medium``'s (``benchmarks/rummikub_variants.py``)."""
    t, rack = turn.t, turn.rack
    jokers = jokers_of(rack)
    if not turn.opened:
        opening = opening_shapes(turn, rack)
        if (
            jokers
            and opening is not None
            and placed_faces(t, turn.old, opening).total() < rack.bit_count()
        ):
            kept = opening_shapes(turn, rack & ~jokers)
            if kept is not None:
                return kept
        return opening
    full = turn.solve(rack, objective)
    if not full.placed:
        return None
    if full.placed == rack.bit_count() or min(turn.others) <= danger or not turn.pool:
        return list(full.shapes)  # going out, or the end is near: hold nothing back
    plays = placed_faces(t, turn.old, full.shapes)
    used = plays[JOKER]
    if used:
        without = turn.solve(rack & ~jokers, objective)
        if without.placed > full.placed - used - joker_gain * used:
            return list(without.shapes) if without.placed else None
    if full.placed == 1 and min(turn.others) >= far:
        face = next(iter(plays))
        rest = rack_faces(rack)
        rest[face] -= 1
        if needed_by_near_set(t, face, rest):
            return None
    return list(full.shapes)


def most_tiles_move(view: PlayerView) -> Move:
    """The listed play that places the most tiles, then the most points; else the first
    listed move (the draw, or the pass)."""
    jp = view.rules.joker_points

    def worth(m: Move) -> tuple[int, int]:
        tiles = placed(view, m)
        return sum(tiles.values()), sum(tile_value(f, jp) * n for f, n in tiles.items())

    return max(view.legal, key=worth)  # max keeps the first of equals: the draw


def easy_move(view: PlayerView) -> Move:
    """``greedy``'s move (module docstring)."""
    turn = view_turn(view)
    return play_move(turn, easy_shapes(turn)) or most_tiles_move(view)


def expert_move(view: PlayerView) -> Move:
    """``expert``'s move (module docstring)."""
    turn = view_turn(view)
    return play_move(turn, expert_shapes(turn)) or most_tiles_move(view)


def candidate_moves(view: PlayerView) -> list[Move]:
    """The plays the search compares, the expert's first: the solver's most tiles,
    the same without the rack's jokers, the easy play and the draw (or pass)."""
    turn = view_turn(view)
    out = [play_move(turn, expert_shapes(turn)) or most_tiles_move(view)]
    plays: list[list[int] | None] = []
    if turn.opened:
        full = turn.solve(turn.rack)
        plays.append(list(full.shapes))
        jokers = jokers_of(turn.rack)
        if jokers:
            plays.append(list(turn.solve(turn.rack & ~jokers).shapes))
    else:
        plays.append(opening_shapes(turn, turn.rack))
    plays.append(easy_shapes(turn))
    plays.append(None)
    for shapes in plays:
        m = play_move(turn, shapes)
        if m is not None:
            out.append(m)
    return list(dict.fromkeys(out))
