"""Rummikub: tiles played onto a table anyone may rearrange, or one tile drawn.

After the publisher's rules (rummikub.org, "Rummikub Game Play"); docs/rules.md,
"## Rummikub", lists every option against them and every choice where sources differ.

**Tiles are cards.**  The 106 tiles are the cards of two decks with a joker each
(:func:`rummykit.cards.deck`): the four colours are the four suits, 1 to 13 are ace to
king, the ace only low and a run never wrapping (``ace=low``), and two tiles of one
face are the two decks' copies.  Sets are the meld catalogue's shapes
(:class:`~rummykit.melds.MeldTable`): runs of three or more in a colour, groups of three
or four distinct colours of one number, with up to both jokers.

**A play is the table's new arrangement.**  Tiles of one face are interchangeable, so
an arrangement is the multiset of its sets' shapes, and a shape says each cell's face
and which cells are jokers (what each joker stands for).  ``Move(ARRANGE, code)``
carries it exactly: the shapes sorted, written as the digits of ``code`` in base
``len(shapes) + 1`` (:func:`arrangement_code`).  The tiles placed are the multiset
difference between the new arrangement and the table before the turn; the engine
picks their physical copies (a table tile stays on the table).  One arrangement has
one code: a joker in a group stands for the group's lowest missing colours (a joker in
a group of three may stand for either missing colour, so that choice says nothing),
and a joker at a run's end stands where the run puts it, which the shape states.

A play is legal when (rule codes of :class:`~rummykit.errors.IllegalMoveError`):

* every tile on the table before the turn is still on it (``table_tiles_stay``), and
  every tile added comes from the player's rack (``tile_not_in_rack``), at least one
  (``must_place_tile``);
* the first meld is new sets of the player's own tiles worth ``opening_minimum`` at
  the tiles' numbers, a joker counting the number it stands for
  (``opening_minimum``), the table's sets left as they were
  (``first_meld_untouched``, unless that option is off);
* a joker that stood for a tile stands for another only when a tile it stood for took
  its place: the tile it represented in a run, a tile of the group's number in a
  group (``joker_replacement``).  A freed joker is necessarily played the same turn,
  since every table tile stays on the table.

Every set of an arrangement is valid by construction (a shape of the catalogue);
:func:`play_from_sets` builds a move from sets of tiles written by hand and names the
set that is not valid (``invalid_set``).

**The legal list is a selection.**  No list could hold every arrangement, so
``legal_moves()`` lists the draw (or, once the pool is empty, the pass) and a bounded
set of plays: each new set of the player's own tiles alone, each single tile added to
one table set (after the first meld), and the solver's arrangement that places the
most tiles (:func:`solver_play`, :mod:`rummykit.variants.rummikub_solver`).  ``apply``
and ``is_legal`` accept any legal arrangement (:attr:`Variant.open_moves`).  Each
listed move has a number of fixed meaning (:func:`candidate_plays`), which learning
agents choose by (:mod:`rummykit.variants.rummikub_actions`).

**The empty pool.**  With the pool empty a player who does not play passes; when every
player has passed in turn, the round ends blocked (``RoundEnd.NO_DRAW``) and the lowest
rack wins.  **Scoring**: each loser scores minus their rack (tiles at their numbers, a
joker ``joker_points``, 30), the winner the total of those; in a blocked round the
amounts are counted above the lowest rack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from ..cards import COPIES, JOKER, bits, format_face, parse_face
from ..errors import IllegalMoveError
from ..melds import RUN, SET, MeldTable
from ..moves import ARRANGE, DRAW_STOCK, PASS, TIMEOUT, Move
from ..phase import Phase
from ..results import RoundEnd
from ..rules import Family, Rules
from ..scoring import PlayerScore, RoundResult
from ..table import TableMeld, layoff_options
from .base import AgentActions, MoveGenerator, Variant
from .rummikub_actions import NEW_SET_BASE, SOLVER_NUMBER, ListedActions, add_tile_base
from .rummikub_solver import POINTS, solve

if TYPE_CHECKING:
    from ..game import Game
    from ..state import GameState

SOLVER_BEAM = 2000
"""The solver's beam when it proposes a play for the legal list (it places what the
exact programme places on tables of 40 tiles and 14-tile racks, and 0.3% fewer at 60:
docs/benchmarks.md; see :func:`~rummykit.variants.rummikub_solver.solve`)."""
LARGE_RACK = 20
LARGE_RACK_BEAM = 500
"""The beam for a rack of more than ``LARGE_RACK`` tiles (a long game's, the pool
drawn down): such racks with a crowded table cost 200 to 300 ms a list at 2000 states
a step, 50 to 100 ms at 500."""

TIMEOUT_PENALTY = 3
"""Tiles a player whose turn timer ran out draws (onlinerummikub.com: "the player is
penalized by taking 3 tiles from the tile pool")."""

DRAW_MOVE = Move(DRAW_STOCK)
PASS_MOVE = Move(PASS)


# -- the arrangement code --------------------------------------------------------------
def arrangement_code(shapes: Iterable[int], t: MeldTable) -> int:
    """The code of the arrangement made of ``shapes`` (in any order): its shapes
    sorted, each plus one a digit in base ``len(t.shapes) + 1``, lowest first.

    >>> from rummykit.rules import Rules
    >>> from rummykit.melds import meld_table
    >>> t = meld_table(Rules.preset("rummikub"))
    >>> arrangement_shapes(arrangement_code([5, 3, 5], t), t)
    (3, 5, 5)
    """
    base = len(t.shapes) + 1
    code = 0
    for s in sorted(shapes, reverse=True):
        code = code * base + s + 1
    return code


def arrangement_shapes(code: int, t: MeldTable) -> tuple[int, ...] | None:
    """The sorted shapes of the arrangement ``code``, or None if ``code`` is not the
    code of a Rummikub arrangement (a digit 0, shapes out of order, a group whose
    jokers do not stand for its lowest missing colours)."""
    base = len(t.shapes) + 1
    canon = canonical_shapes(t)
    out: list[int] = []
    while code:
        code, digit = divmod(code, base)
        s = digit - 1
        if s < 0 or (out and s < out[-1]) or not canon[s]:
            return None
        out.append(s)
    return tuple(out)


def canonical_shapes(t: MeldTable) -> tuple[bool, ...]:
    """Per shape: whether an arrangement may hold it (a group's jokers stand for its
    lowest missing colours; every run is), computed once per catalogue."""
    memo = _CANONICAL.get(id(t))
    if memo is not None and memo[0] is t:
        return memo[1]
    out = []
    for sh in t.shapes:
        if sh.kind == RUN or not sh.njokers:
            out.append(True)
            continue
        natural_suits = {f // 13 for f in sh.naturals}
        missing = [s for s in range(4) if s not in natural_suits]
        joker_suits = sorted(
            sh.cells[i] // 13 for i in range(len(sh.cells)) if sh.joker_cells >> i & 1
        )
        out.append(joker_suits == missing[: len(joker_suits)])
    flags = tuple(out)
    _CANONICAL[id(t)] = (t, flags)
    return flags


_CANONICAL: dict[int, tuple[MeldTable, tuple[bool, ...]]] = {}


# -- tiles and values -------------------------------------------------------------------
def tile_value(face: int, joker_points: int) -> int:
    """What a tile left on a rack counts: its number, a joker ``joker_points``."""
    return joker_points if face == JOKER else face % 13 + 1


def set_points(t: MeldTable, shape: int) -> int:
    """A set's value for the first meld: its tiles' numbers, a joker the number it
    stands for."""
    return sum(f % 13 + 1 for f in t.shapes[shape].cells)


def shape_faces(t: MeldTable, shape: int) -> Iterable[int]:
    """The faces of a set's tiles (:data:`JOKER` for a joker)."""
    sh = t.shapes[shape]
    for i, f in enumerate(sh.cells):
        yield JOKER if sh.joker_cells >> i & 1 else f


def joker_tokens(t: MeldTable, shape: int) -> Iterable[tuple[int, int]]:
    """What each joker of a set stands for: ``(RUN, face)`` in a run, ``(SET, number)``
    in a group (either missing colour)."""
    sh = t.shapes[shape]
    for i, f in enumerate(sh.cells):
        if sh.joker_cells >> i & 1:
            yield (RUN, f) if sh.kind == RUN else (SET, f % 13)


def rack_faces(hand: int) -> Counter[int]:
    """The faces of a rack's tiles, counted."""
    out: Counter[int] = Counter()
    for c in bits(hand):
        f = c % 54
        out[JOKER if f >= JOKER else f] += 1
    return out


def table_shapes(state: GameState) -> tuple[int, ...]:
    """The table's arrangement: its sets' shapes, sorted."""
    return tuple(sorted(tm.shape for tm in state.table))


# -- legality -------------------------------------------------------------------------
def play_error(state: GameState, shapes: Sequence[int] | None) -> IllegalMoveError | None:
    """Why the current player may not end the turn with the table arranged as
    ``shapes`` (sorted, canonical; None: not an arrangement), or None if they may."""
    p = state.current
    return arrangement_error(
        state.game.melds, state.rules, table_shapes(state), state.hands[p], state.opened[p], shapes
    )


def arrangement_error(
    t: MeldTable,
    r: Rules,
    old: Sequence[int],
    rack: int,
    opened: bool,
    shapes: Sequence[int] | None,
) -> IllegalMoveError | None:
    """:func:`play_error` from what it reads: the table's arrangement before the turn
    (``old``), the player's ``rack`` and whether they have ``opened``.  All of it is in
    the player's own view, so a bot checks its plays with it."""
    if shapes is None:
        return IllegalMoveError(
            "unknown_arrangement",
            "not the code of an arrangement of the table (sets in order, a group's "
            "jokers standing for its lowest missing colours)",
        )
    new_faces: Counter[int] = Counter()
    for s in shapes:
        new_faces.update(shape_faces(t, s))
    old_faces: Counter[int] = Counter()
    for s in old:
        old_faces.update(shape_faces(t, s))
    missing = old_faces - new_faces
    if missing:
        face = min(missing)
        return IllegalMoveError(
            "table_tiles_stay",
            f"the table's {format_face(face)} is not in the new arrangement: every tile on "
            "the table stays on the table (rummikub.org, Game Play)",
        )
    placed = new_faces - old_faces
    if not placed:
        return IllegalMoveError(
            "must_place_tile",
            "a play places at least one tile from the rack; otherwise draw a tile "
            "(rummikub.org, Game Play)",
        )
    short = placed - rack_faces(rack)
    if short:
        return IllegalMoveError(
            "tile_not_in_rack",
            f"you have no {format_face(min(short))} on your rack to place",
        )
    freed = Counter(tok for s in old for tok in joker_tokens(t, s))
    freed -= Counter(tok for s in shapes for tok in joker_tokens(t, s))
    for (kind, key), n in freed.items():
        if kind == RUN:
            gained = new_faces[key] - old_faces[key]
        else:
            gained = sum(new_faces[s * 13 + key] - old_faces[s * 13 + key] for s in range(4))
        if gained < n:
            what = format_face(key) if kind == RUN else f"a {key + 1} of a missing colour"
            return IllegalMoveError(
                "joker_replacement",
                f"a joker standing for {what} moves only when that tile takes its place "
                "(rummikub.org, Game Play: using a joker)",
            )
    if not opened:
        if r.first_meld_untouched and Counter(old) - Counter(shapes):
            return IllegalMoveError(
                "first_meld_untouched",
                "the first meld is new sets of your own tiles: the table's sets stay as "
                "they are until your first meld is down (rummikub.org, Game Play)",
            )
        value = sum(set_points(t, s) for s in shapes) - sum(set_points(t, s) for s in old)
        if value < r.opening_minimum:
            return IllegalMoveError(
                "opening_minimum",
                f"a first meld is worth at least {r.opening_minimum} points (this one "
                f"{value}) (rummikub.org, Game Play)",
            )
    return None


# -- building a play by hand ------------------------------------------------------------
def set_shape(t: MeldTable, tiles: Sequence[str]) -> int:
    """The shape of one set written as tiles in order (``"5H 6H JK 8H"``; a joker as
    ``JK``, or ``JK=7H`` to say what it stands for); :class:`IllegalMoveError`
    ``invalid_set`` naming the set if it is not one.  A joker in a run stands where it
    is written; a joker in a group stands for the lowest missing colour."""
    written = " ".join(tiles)
    cells: list[tuple[int, int]] = []  # (face, represented face or -1) per tile
    try:
        for tok in tiles:
            head, _, said = tok.partition("=")
            face = parse_face(head)
            if said and face != JOKER:
                raise ValueError(tok)
            cells.append((face, parse_face(said) if said else -1))
    except ValueError:
        raise IllegalMoveError("invalid_set", f"{written!r} is not a set of tiles") from None
    naturals = [f for f, _ in cells if f != JOKER]
    said_faces = [r for f, r in cells if f == JOKER and r >= 0]
    numbers = {f % 13 for f in naturals + said_faces}
    suits = [f // 13 for f in naturals + said_faces]
    bad = IllegalMoveError(
        "invalid_set",
        f"{written} is not a set: a run of three or more numbers in a row of one "
        "colour, or a group of three or four colours of one number (rummikub.org)",
    )
    if not naturals:
        raise bad
    if len(numbers) == 1 and len(set(suits)) == len(suits) and len(cells) <= 4:
        rank = numbers.pop()
        held = set(suits)
        free = [s for s in range(4) if s not in held]
        jokers = [s for _f, r in cells if _f == JOKER and r >= 0 for s in [r // 13]]
        jokers += free[: sum(1 for f, r in cells if f == JOKER and r < 0)]
        pairs = sorted([(f // 13, False) for f in naturals] + [(s, True) for s in jokers])
        shape = t.find(
            SET,
            rank,
            tuple(s * 13 + rank for s, _j in pairs),
            sum(1 << i for i, (_s, j) in enumerate(pairs) if j),
        )
        canon = canonical_shapes(t)
        if shape >= 0 and not canon[shape]:  # said colours: the same group, canonical
            pairs = sorted(
                [(f // 13, False) for f in naturals] + [(s, True) for s in free[: len(jokers)]]
            )
            shape = t.find(
                SET,
                rank,
                tuple(s * 13 + rank for s, _j in pairs),
                sum(1 << i for i, (_s, j) in enumerate(pairs) if j),
            )
        if shape >= 0:
            return shape
    if len(set(suits)) == 1:
        suit = suits[0]
        first = next(i for i, (f, _r) in enumerate(cells) if f != JOKER)
        lo = cells[first][0] % 13 - first
        faces = tuple(suit * 13 + lo + i for i in range(len(cells)))
        ok = (
            lo >= 0
            and lo + len(cells) <= 13
            and all(
                (f == JOKER and (r < 0 or r == faces[i])) or f == faces[i]
                for i, (f, r) in enumerate(cells)
            )
        )
        if ok:
            jm = sum(1 << i for i, (f, _r) in enumerate(cells) if f == JOKER)
            shape = t.find(RUN, suit, faces, jm)
            if shape >= 0:
                return shape
    raise bad


def play_from_sets(t: MeldTable, sets: Iterable[Sequence[str] | str]) -> Move:
    """The play that leaves the table as ``sets`` (each a set of tiles in order, as
    :func:`set_shape` reads it, or one string of them): ``Move(ARRANGE, code)``."""
    shapes = [set_shape(t, s.split() if isinstance(s, str) else s) for s in sets]
    return Move(ARRANGE, arrangement_code(shapes, t))


def describe_arrangement(t: MeldTable, shapes: Iterable[int]) -> list[str]:
    """Each set of an arrangement in tile notation (``JK=7H`` for a joker)."""
    return [t.describe(s) for s in shapes]


# -- the turn ---------------------------------------------------------------------------
def tiles_moves(state: GameState) -> list[Move]:
    """The TILES phase's listed moves: the draw (the pass once the pool is empty), then
    the plays the module docstring lists, each checked, without repeats."""
    out = [DRAW_MOVE if state.stock else PASS_MOVE]
    t = state.game.melds
    seen: set[int] = set()
    for _number, shapes in candidate_plays(state):
        code = arrangement_code(shapes, t)
        if code in seen:
            continue
        seen.add(code)
        if play_error(state, tuple(sorted(shapes))) is None:
            out.append(Move(ARRANGE, code))
    return out


def candidate_plays(state: GameState) -> Iterable[tuple[int, list[int]]]:
    """Arrangements worth listing (:func:`tiles_moves` checks each), each with its
    number (a fixed meaning whatever the position, as the module's numbers say): every
    new set of the rack's tiles alone, every single tile added to a table set, and the
    solver's play that places the most tiles."""
    t = state.game.melds
    p = state.current
    hand = state.hands[p]
    table = state.table
    order = sorted(range(len(table)), key=lambda k: table[k].shape)
    old = tuple(table[k].shape for k in order)
    canon = canonical_shapes(t)
    for s in t.shapes_in_mask(hand):
        if canon[s]:
            yield NEW_SET_BASE + s, [*old, s]
    if state.opened[p]:
        faces = rack_faces(hand)
        base = add_tile_base(t)
        for i, s in enumerate(old):
            at = base + order[i] * 104
            for opt in layoff_options(t, s):
                if opt.natural_shape >= 0 and faces[opt.face]:
                    yield at + opt.face * 2, [*old[:i], opt.natural_shape, *old[i + 1 :]]
                if opt.joker_shape >= 0 and faces[JOKER]:
                    yield at + opt.face * 2 + 1, [*old[:i], opt.joker_shape, *old[i + 1 :]]
    yield SOLVER_NUMBER, solver_play(state, old)


def numbered_plays(state: GameState) -> Iterator[tuple[int, Move]]:
    """:func:`candidate_plays` as moves, each with its number (unchecked, repeats kept)."""
    t = state.game.melds
    for number, shapes in candidate_plays(state):
        yield number, Move(ARRANGE, arrangement_code(shapes, t))


def solver_play(state: GameState, old: tuple[int, ...]) -> list[int]:
    """The solver's play: the most tiles placed, table rearranged; before the first
    meld, the most points of new sets of the rack alone (or, without
    ``first_meld_untouched``, of the whole table rearranged).

    Kept for the last ``SOLVED_MEMO`` positions: the legal list and an agent's action
    mask ask it of the same position in turn, and a search costs up to a few hundred
    milliseconds."""
    t = state.game.melds
    p = state.current
    hand = state.hands[p]
    r = state.rules
    jp = r.joker_points
    opened = state.opened[p]
    key = (old, hand, opened, r.first_meld_untouched, jp)
    memo = _SOLVED.get(t)
    if memo is None:
        memo = _SOLVED[t] = {}
    found = memo.get(key)
    if found is not None:
        return list(found)
    beam = SOLVER_BEAM if hand.bit_count() <= LARGE_RACK else LARGE_RACK_BEAM
    if opened:
        shapes = solve(t, old, hand, joker_points=jp, beam=beam).shapes
    elif r.first_meld_untouched:
        shapes = (*old, *solve(t, (), hand, POINTS, jp, beam).shapes)
    else:
        shapes = solve(t, old, hand, POINTS, jp, beam).shapes
    if len(memo) >= SOLVED_MEMO:
        memo.pop(next(iter(memo)))
    memo[key] = tuple(shapes)
    return list(shapes)


SOLVED_MEMO = 64
_SOLVED: WeakKeyDictionary[MeldTable, dict[tuple[object, ...], tuple[int, ...]]] = (
    WeakKeyDictionary()
)
"""Per catalogue (held weakly: a rule set's catalogue is large), the solver's last plays."""


def place(state: GameState, p: int, shapes: Sequence[int]) -> None:
    """Lay the table out as ``shapes`` (a legal play of ``p``): sets the table already
    holds keep their tiles and owner, new sets take the table's freed tiles first and
    then the rack's (lowest copy first), and belong to ``p``."""
    t = state.game.melds
    kept: dict[int, list[TableMeld]] = {}
    for tm in state.table:
        kept.setdefault(tm.shape, []).append(tm)
    table: list[TableMeld] = []
    fresh: list[int] = []
    for s in shapes:
        same = kept.get(s)
        if same:
            table.append(same.pop())
        else:
            fresh.append(s)
    loose: dict[int, list[int]] = {}
    for tms in kept.values():
        for tm in tms:
            for c in tm.cards:
                f = c % 54
                loose.setdefault(JOKER if f >= JOKER else f, []).append(c)
    rack = state.hands[p]
    for s in fresh:
        cards = []
        for face in shape_faces(t, s):
            pile = loose.get(face)
            if pile:
                cards.append(pile.pop())
                continue
            card = next(c for c in COPIES[face] if rack >> c & 1)
            rack &= ~(1 << card)
            cards.append(card)
        table.append(TableMeld(p, s, tuple(cards)))
    assert not any(loose.values()), "a play left table tiles off the table"
    table.sort()
    state.table = table
    state.hands[p] = rack
    state.known[p] &= rack


def blocked(state: GameState) -> bool:
    """Every player has passed in turn since the pool ran out: nobody will play."""
    n = state.num_players
    history = state.history
    if len(history) - state.round_start < n:
        return False
    actions = state.game.actions
    passes = (actions.pass_action, actions.timeout_action)  # a timeout places nothing
    return all(a in passes for a in history[-n:])


class Rummikub(Variant):
    """A turn plays tiles (any new arrangement of the table) or draws one tile."""

    name = Family.RUMMIKUB
    aliases = ("Rummy-O", "Rummycube", "Rummikub tiles")
    own_phases = frozenset({Phase.TILES})
    turn_phase = Phase.TILES
    upcard = False
    open_moves = True

    def agent_actions(self, game: Game) -> AgentActions:
        """The listed moves, numbered (:mod:`rummykit.variants.rummikub_actions`)."""
        return ListedActions(game, numbered_plays)

    def after_deal(self, state: GameState) -> None:
        """No first upcard: the first turn is the first player's TILES phase."""

    def phase_moves(self) -> Mapping[Phase, MoveGenerator]:
        return {Phase.TILES: tiles_moves}

    def open_legal(self, state: GameState, move: Move) -> bool:
        """Any legal arrangement, and the timeout under a turn timer (never listed: the
        front end plays it when the clock runs out, not a player)."""
        if state.phase is not Phase.TILES:
            return False
        if move.kind == TIMEOUT:
            return self.rules.turn_seconds is not None
        if move.kind != ARRANGE:
            return False
        t = state.game.melds
        return play_error(state, arrangement_shapes(move.a, t)) is None

    def do_phase(self, state: GameState, move: Move) -> bool:
        p = state.current
        kind = move.kind
        if kind == DRAW_STOCK:
            state.hands[p] |= 1 << state.stock.pop()
        elif kind == TIMEOUT:  # the time ran out: the penalty tiles (as many as are left)
            pool_was_empty = not state.stock
            for _ in range(min(TIMEOUT_PENALTY, len(state.stock))):
                state.hands[p] |= 1 << state.stock.pop()
            if pool_was_empty and blocked(state):  # then it placed nothing: a pass
                state.finish_round(None, RoundEnd.NO_DRAW)
                return True
        elif kind == ARRANGE:
            shapes = arrangement_shapes(move.a, state.game.melds)
            assert shapes is not None
            place(state, p, shapes)
            state.opened[p] = state.melded[p] = state.laid[p] = True
            if not state.hands[p]:
                state.finish_round(p, RoundEnd.OUT)
                return True
        elif blocked(state):  # a pass, the last of a round of passes
            state.finish_round(None, RoundEnd.NO_DRAW)
            return True
        state.begin_turn((p + 1) % state.num_players)
        return True

    def phase_error(self, state: GameState, kind: int) -> IllegalMoveError | None:
        if kind in (DRAW_STOCK, PASS, ARRANGE, TIMEOUT):
            return None
        return IllegalMoveError(
            "tiles_turn",
            "a Rummikub turn plays tiles onto the table or draws one tile: there is no "
            "discard pile (rummikub.org, Game Play)",
        )

    def diagnose(self, state: GameState, move: Move) -> IllegalMoveError:
        if move.kind == DRAW_STOCK:
            return IllegalMoveError(
                "pool_empty", "the pool is empty: play tiles or pass (rummikub.org)"
            )
        if move.kind == TIMEOUT:  # pragma: no cover - no timer: not in the action space
            return IllegalMoveError("turn_timer", "these rules have no turn timer")
        if move.kind == PASS:
            return IllegalMoveError(
                "draw_not_pass",
                "a player who does not play draws a tile while the pool has tiles "
                "(rummikub.org, Game Play)",
            )
        found = play_error(state, arrangement_shapes(move.a, state.game.melds))
        assert found is not None  # a legal play was accepted before diagnosis
        return found

    def score(self, state: GameState, winner: int | None, reason: RoundEnd) -> RoundResult:
        """Each loser scores minus their rack (a joker ``joker_points``), the winner the
        total; a blocked round is won by the lowest rack alone, the amounts counted above
        it (nobody wins a tie)."""
        n = state.num_players
        jp = self.rules.joker_points
        racks = [state.hand(q) for q in range(n)]
        values = [sum(tile_value(_face(c), jp) for c in rack) for rack in racks]
        went_out = winner is not None
        winner, deltas = round_deltas(values, winner)
        players = tuple(PlayerScore(tuple(racks[q]), values[q], deltas[q]) for q in range(n))
        return RoundResult(state.round_no, state.dealer, winner, went_out, reason, False, players)


def round_deltas(values: Sequence[int], winner: int | None) -> tuple[int | None, list[int]]:
    """The round's winner and score deltas from the racks' ``values``: each loser
    minus their rack, the winner (``winner``, who went out) the total; with no winner
    the round ended blocked, the lowest rack alone wins it and the amounts are counted
    above it (nobody wins a tie) (rummikub.org; onlinerummikub.com for the blocked
    game).

    >>> round_deltas([0, 12, 30], 0)
    (0, [42, -12, -30])
    >>> round_deltas([5, 12, 30], None)
    (0, [32, -7, -25])
    """
    low = 0
    if winner is None:
        low = min(values)
        if values.count(low) == 1:
            winner = values.index(low)
    deltas = [0 if q == winner else -(v - low) for q, v in enumerate(values)]
    if winner is not None:
        deltas[winner] = -sum(deltas)
    return winner, deltas


def _face(card: int) -> int:
    f = card % 54
    return JOKER if f >= JOKER else f
