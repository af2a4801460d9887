"""What every state the engine can reach satisfies, checked once for states from outside.

The engine keeps its states valid by construction, so its hot paths trust every field.
A state that comes from outside (a saved game, :mod:`rummykit.serialize`; a position
written by a person, :mod:`rummykit.position`) has no such guarantee, and one bad
field can make a later move hang (a negative hand mask never empties in
:func:`~rummykit.cards.bits`) or fail far from its cause.  :func:`check_state` is the
one gate both readers use: it raises :class:`StateFormatError`, naming the field,
unless the state is one the engine could have reached, as far as its fields can say.

* **Types are exact**: an int is never a bool or a float (``type(x) is int``), so
  ``1.0`` is no card and ``true`` no seat.
* **Every scalar has its range**, some depending on the phase: the player to act is a
  seat unless the match is over; a card drawn from the pile (``taken``) or still to be
  used (``pending``) is where the turn can have put it; Gin's knocker, stage, limit
  and upcard counts fit their phase and rules.
* **Per-player lists** have one entry per seat.
* **Cards are conserved**: every card of the deck is in exactly one place (a hand, the
  stock, the discard pile or a table meld), and hands hold no bit outside the deck.
* **Table melds match their shapes**: the shape is in the rules' catalogue, each card
  shows its cell's face, and jokers fill exactly the joker cells.
* **Known cards are held**: ``known[p]`` is within ``hands[p]``.
* **The player to act has a legal move** (checked last, on a state whose every field
  has passed, so the move generator meets only values it can play from).
* **History, results and events** are well formed, and the round's moves
  (``round_start``) are a part of the history.

Checks that only the relation between fields can express, and that states built
by hand for puzzles and tests legitimately break, are left out: whether a table
meld's owner is flagged as having melded, or whether scores add up to the results
(a position states scores without the rounds that led to them).

>>> from rummykit import new_game
>>> g = new_game("basic", seed=1)
>>> check_state(g)
>>> g.hands[0] = -1
>>> check_state(g)
Traceback (most recent call last):
...
rummykit.fields.StateFormatError: hands[0]: -1 is not a hand of this deck
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .cards import MAX_CARDS, face_of, format_mask, is_joker
from .events import EVENT_KINDS
from .fields import StateFormatError, deck_mask, expect_int, expect_seq, shown_value
from .results import RoundEnd
from .rules import Family, Rules
from .scoring import PlayerScore, RoundResult
from .state import NO_CARD, PENDING_MELD, PENDING_USE, GameState, Phase
from .table import TableMeld
from .variants.upcard import check_upcard

__all__ = ["MAX_SCORE", "StateFormatError", "check_state", "expect_int", "expect_seq"]

MAX_SCORE = 10**12
"""Largest score (or round delta, or hand value) a state may hold, either sign."""
_MAX_EVENT_VALUE = 2**31
"""Event values are cards, seats or counts of hands won: small non-negative ints."""

_EVENT_TYPES = frozenset(EVENT_KINDS.values())

_BEFORE_DRAW = (Phase.DRAW, Phase.FIRST_UPCARD, Phase.WALL)
"""Phases at the start of a turn: nothing drawn, melded or taken yet."""
_HANDS_FULL = (Phase.DRAW, Phase.PLAY, Phase.FIRST_UPCARD, Phase.WALL, Phase.BUY)
"""Phases in which nobody has gone out, so every hand holds a card."""


def _bool(value: Any, field: str) -> bool:
    if type(value) is not bool:
        raise StateFormatError(f"expected true or false, not {shown_value(value)}", field)
    return value


def _str(value: Any, field: str, longest: int) -> str:
    if type(value) is not str:
        raise StateFormatError(f"expected text, not {shown_value(value)}", field)
    if len(value) > longest:
        raise StateFormatError(f"longer than {longest} characters", field)
    return value


def _ints(values: Sequence[Any], field: str, lo: int, hi: int) -> None:
    """Every entry a plain int in ``lo..hi``.  A match's history (thousands of actions)
    is checked at every load, so the usual case runs in C (the set of types, ``min``,
    ``max``); only a failure looks for the bad entry and names it."""
    if not values or (set(map(type, values)) == {int} and lo <= min(values) and max(values) <= hi):
        return
    bad = next(i for i, v in enumerate(values) if type(v) is not int or not lo <= v <= hi)
    expect_int(values[bad], f"{field}[{bad}]", lo, hi)


def _not_a_card(value: Any, field: str) -> StateFormatError:
    return StateFormatError(f"{shown_value(value)} is not a card of this deck", field)


class _Cards:
    """The cards seen so far while a state is checked, to prove conservation."""

    def __init__(self, rules: Rules) -> None:
        self.deck = deck_mask(rules.decks, rules.jokers)
        self.seen = 0

    def add_cards(self, values: Sequence[Any], field: str) -> None:
        """Count every card of a pile or meld; only a failure builds the entry's name."""
        deck = self.deck
        seen = self.seen
        for i, c in enumerate(values):
            if type(c) is not int or not 0 <= c < MAX_CARDS or not deck >> c & 1:
                raise _not_a_card(c, f"{field}[{i}]")
            if seen >> c & 1:
                raise StateFormatError(f"{format_mask(1 << c)} is in two places", f"{field}[{i}]")
            seen |= 1 << c
        self.seen = seen

    def add_mask(self, mask: int, field: str) -> None:
        twice = self.seen & mask
        if twice:
            raise StateFormatError(f"{format_mask(twice)} in two places", field)
        self.seen |= mask

    def check_complete(self) -> None:
        missing = self.deck & ~self.seen
        if missing:
            raise StateFormatError(
                f"the cards do not add up to the deck: {format_mask(missing)} missing", "cards"
            )


def check_state(s: GameState) -> None:
    """Raise :class:`StateFormatError` unless ``s`` is a state the engine can play from.

    ``s.game`` must be ``Game.shared(s.rules, len(s.names))`` (both readers build it so);
    every other field is checked, cheap checks of types and ranges first, so nothing
    here can hang or fail on a value it has not yet checked.  The legal moves it finds
    are kept in the state, as playing to it would have.
    """
    rules = s.rules
    game = s.game
    if (game.rules is not rules and game.rules != rules) or game.num_players != len(s.names):
        raise StateFormatError("the rules and the players disagree", "rules")
    n = game.num_players
    for p, name in enumerate(s.names):
        _str(name, f"names[{p}]", 10_000)
    if s.seed is not None and type(s.seed) is not int:
        raise StateFormatError(f"expected an integer or null, not {shown_value(s.seed)}", "seed")
    if type(s.phase) is not Phase:
        raise StateFormatError(f"not a phase: {shown_value(s.phase)}", "phase")
    if not isinstance(s.rng, random.Random):
        raise StateFormatError("not a random number generator", "rng")
    _check_seats(s, n)
    _check_cards(s, n)
    _check_turn(s, n)
    _check_knock(s)
    _check_family(s)
    _check_record(s, n)
    if s.phase is not Phase.OVER and not s.legal_moves():
        # Play never reaches a dead end (a move is legal only if the turn can still be
        # finished), but an outside state can: say so now, not at the first move.
        raise StateFormatError("the player to act has no legal move", "current")


def _check_seats(s: GameState, n: int) -> None:
    """Per-player lists, the seats and the round's counters."""
    scores = expect_seq(s.scores, list, "scores", n)
    for p, v in enumerate(scores):
        expect_int(v, f"scores[{p}]", -MAX_SCORE, MAX_SCORE)
    for name in ("melded", "opened", "laid"):
        for p, flag in enumerate(expect_seq(getattr(s, name), list, name, n)):
            _bool(flag, f"{name}[{p}]")
    rules = s.rules
    over = s.phase is Phase.OVER
    expect_int(s.round_no, "round_no", 1, min(rules.deals or rules.max_deals, rules.max_deals))
    expect_int(s.dealer, "dealer", 0, n - 1)
    if over:
        expect_int(s.current, "current", -1, -1)
    else:
        expect_int(s.current, "current", 0, n - 1)
    expect_int(s.turn, "turn", 1, rules.max_turns + 1)
    restock_cap = s.turn if rules.max_restocks is None else min(s.turn, rules.max_restocks)
    expect_int(s.restocks, "restocks", 0, restock_cap)
    expect_int(s.knocker, "knocker", -1, n - 1)
    _bool(s.open_pure, "open_pure")
    _bool(s.turn_start_laid, "turn_start_laid")
    _bool(s.repeated, "repeated")


def _check_cards(s: GameState, n: int) -> None:
    """Hands, piles and table melds: each card of the deck in exactly one place."""
    rules = s.rules
    cards = _Cards(rules)
    hands = expect_seq(s.hands, list, "hands", n)
    known = expect_seq(s.known, list, "known", n)
    for p in range(n):
        h = hands[p]
        if type(h) is not int or h < 0 or h & ~cards.deck:
            raise StateFormatError(f"{shown_value(h)} is not a hand of this deck", f"hands[{p}]")
        cards.add_mask(h, f"hands[{p}]")
        k = known[p]
        if type(k) is not int or k < 0 or k & ~h:
            raise StateFormatError("known cards must be cards of the hand", f"known[{p}]")
        if h == 0 and s.phase in _HANDS_FULL and not _out_of_match(s, p):
            raise StateFormatError("empty, but nobody has gone out", f"hands[{p}]")
    for name in ("stock", "discard"):
        cards.add_cards(expect_seq(getattr(s, name), list, name), name)
    shapes = s.game.melds.shapes
    for i, tm in enumerate(expect_seq(s.table, list, "table")):
        field = f"table[{i}]"
        if type(tm) is not TableMeld:
            raise StateFormatError("not a table meld", field)
        expect_int(tm.owner, f"{field}.owner", 0, n - 1)
        shape = shapes[expect_int(tm.shape, f"{field}.shape", 0, len(shapes) - 1)]
        placed = expect_seq(tm.cards, tuple, f"{field}.cards", len(shape.cells))
        cards.add_cards(placed, f"{field}.cards")
        for k, (card, face) in enumerate(zip(placed, shape.cells, strict=True)):
            joker_cell = bool(shape.joker_cells >> k & 1)
            if is_joker(card) != joker_cell or (not joker_cell and face_of(card) != face):
                raise StateFormatError(
                    f"the cards do not match the meld {s.game.melds.describe(tm.shape)}", field
                )
    cards.check_complete()
    if rules.family is Family.GIN and s.table and s.phase in _HANDS_FULL:
        raise StateFormatError("a knock game lays melds only after a knock", "table")


def _check_turn(s: GameState, n: int) -> None:
    """What the player to act has done this turn: the card drawn from the pile, the
    card still to be used, melds laid and the opening so far."""
    phase = s.phase
    p = s.current
    hand = s.hands[p] if p >= 0 else 0
    on_table = 0
    for tm in s.table:
        for c in tm.cards:
            on_table |= 1 << c
    deck_cards = deck_mask(s.rules.decks, s.rules.jokers)
    taken = expect_int(s.taken, "taken", NO_CARD, MAX_CARDS - 1)
    if taken != NO_CARD:
        if phase is Phase.PLAY:
            where = hand | on_table  # drawn this turn: still held, or melded since
        elif phase in (Phase.KNOCK, Phase.LAYOFF) and 0 <= s.knocker < n:
            top = 1 << s.discard[-1] if s.discard else 0
            where = s.hands[s.knocker] | on_table | top  # the knocker's card
        elif phase is Phase.OVER:
            where = deck_cards
        else:
            where = 0  # nothing is drawn before the draw
        if not where >> taken & 1:
            raise StateFormatError(
                f"{format_mask(1 << taken)} cannot have been drawn from the pile this turn", "taken"
            )
    pending = expect_int(s.pending, "pending", NO_CARD, MAX_CARDS - 1)
    kind = expect_int(s.pending_kind, "pending_kind", 0, PENDING_USE)
    if pending == NO_CARD:
        if kind != 0:
            raise StateFormatError("a kind without a pending card", "pending_kind")
    else:
        if phase is not Phase.PLAY or not hand >> pending & 1:
            raise StateFormatError("the card to use must be in the player's hand", "pending")
        if kind not in (PENDING_MELD, PENDING_USE):
            raise StateFormatError("a pending card must be of kind 1 or 2", "pending_kind")
    melds = expect_int(s.melds_this_turn, "melds_this_turn", 0, len(s.table))
    points = expect_int(s.open_points, "open_points", 0, 11 * s.rules.deck_size)
    if phase in _BEFORE_DRAW and (taken != NO_CARD or melds or s.turn_start_laid != s.laid[p]):
        raise StateFormatError("the turn has not begun: nothing drawn or laid yet", "phase")
    if melds == 0 and (points or s.open_pure):
        raise StateFormatError("no melds this turn, so no opening points", "open_points")
    if phase is Phase.PLAY and s.turn_start_laid and not s.laid[p]:
        raise StateFormatError("laid at the start of the turn but not now", "turn_start_laid")


def _check_knock(s: GameState) -> None:
    """The knock and upcard phases fit the rules, and their counters too."""
    rules = s.rules
    phase = s.phase
    knock = rules.family is Family.GIN
    if phase is Phase.FIRST_UPCARD and not rules.first_upcard_option:
        raise StateFormatError("these rules have no first-upcard option", "phase")
    if phase is Phase.KNOCK and rules.family is Family.INDIAN:
        pass  # a declaration: the declarer puts out the extra card
    elif phase in (Phase.KNOCK, Phase.LAYOFF, Phase.WALL) and not knock:
        raise StateFormatError("these rules have no knocking", "phase")
    if phase is Phase.WALL and not rules.wall:
        raise StateFormatError("these rules have no wall", "phase")
    if phase in (Phase.FIRST_UPCARD, Phase.WALL) and not s.discard:
        raise StateFormatError("an upcard phase needs an upcard", "discard")
    if phase is Phase.FIRST_UPCARD and not s.stock:
        raise StateFormatError("the first upcard phase needs a stock", "stock")
    knocker = s.knocker
    if phase is Phase.KNOCK and knocker != s.current:
        raise StateFormatError("in the knock phase the knocker is to act", "knocker")
    if phase is Phase.LAYOFF and knocker in (-1, s.current):
        raise StateFormatError("in the lay-off phase the other player acts", "knocker")
    if phase in _HANDS_FULL and knocker != -1:
        raise StateFormatError("nobody has knocked in this phase", "knocker")
    check_upcard(s)
    if s.repeated and not rules.repeat_void:
        raise StateFormatError("these rules do not void repeated upcards", "repeated")


def _out_of_match(s: GameState, p: int) -> bool:
    """Seat ``p`` is out of a pool match (read before the family's fields are
    checked: malformed drops just say no)."""
    dropped = getattr(s.family, "dropped", None)
    return type(dropped) is tuple and len(dropped) == len(s.names) and dropped[p] == -1


def _check_family(s: GameState) -> None:
    """The family's own fields, as its record declares them."""
    if type(s.family) is not s.game.family_type:
        raise StateFormatError("not this family's fields", "family")
    if s.phase is Phase.BUY and not s.game.buying:
        raise StateFormatError("these rules have no buying", "phase")
    s.family.check(s)


def _check_record(s: GameState, n: int) -> None:
    """The moves played, the rounds scored and the chance events of the match."""
    _ints(expect_seq(s.history, list, "history"), "history", 0, s.game.actions.size - 1)
    expect_int(s.round_start, "round_start", 0, len(s.history))
    results = expect_seq(s.results, list, "results")
    finished = s.round_no - (0 if s.phase is Phase.OVER else 1)
    if len(results) not in (0, finished):
        raise StateFormatError(
            f"{len(results)} results for {finished} finished round(s)", "results"
        )
    deck_cards = deck_mask(s.rules.decks, s.rules.jokers)
    for i, r in enumerate(results):
        with _Within("results", i):
            _check_result(r, i, n, deck_cards)
    for i, e in enumerate(expect_seq(s.events, list, "events")):
        with _Within("events", i):
            _check_event(e, n)


class _Within:
    """Names errors raised inside as entries of ``field``: the checks of one entry use
    fixed names (``.delta``) and only a failure builds ``results[7].players[1].delta``;
    a long match has hundreds of results and events, checked at every load."""

    def __init__(self, field: str, index: int) -> None:
        self.field = field
        self.index = index

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if isinstance(exc, StateFormatError):
            raise StateFormatError(exc.reason, f"{self.field}[{self.index}]{exc.field}") from None


def _check_result(r: Any, i: int, n: int, deck_cards: int) -> None:
    if type(r) is not RoundResult:
        raise StateFormatError("not a round result", "")
    expect_int(r.round_no, ".round_no", i + 1, i + 1)
    expect_int(r.dealer, ".dealer", 0, n - 1)
    if r.winner is not None:
        expect_int(r.winner, ".winner", 0, n - 1)
    _bool(r.went_out, ".went_out")
    if type(r.reason) is not RoundEnd:
        raise StateFormatError(f"not a way a round ends: {shown_value(r.reason)}", ".reason")
    _bool(r.rummy, ".rummy")
    wild = expect_int(r.wild, ".wild", -1, MAX_CARDS - 1)
    if wild >= 0 and not deck_cards >> wild & 1:
        raise _not_a_card(wild, ".wild")
    for p, ps in enumerate(expect_seq(r.players, tuple, ".players", n)):
        with _Within(".players", p):
            _check_score(ps, deck_cards)


def _check_score(ps: Any, deck_cards: int) -> None:
    if type(ps) is not PlayerScore:
        raise StateFormatError("not a player's score", "")
    held = expect_seq(ps.cards, tuple, ".cards")
    for c in held:  # inline: a long match has thousands of these cards
        if type(c) is not int or not 0 <= c < MAX_CARDS or not deck_cards >> c & 1:
            raise _not_a_card(c, f".cards[{held.index(c)}]")
    expect_int(ps.hand_points, ".hand_points", -MAX_SCORE, MAX_SCORE)
    expect_int(ps.delta, ".delta", -MAX_SCORE, MAX_SCORE)
    expect_int(ps.bonus, ".bonus", -MAX_SCORE, MAX_SCORE)
    for k, note in enumerate(expect_seq(ps.notes, tuple, ".notes")):
        _str(note, f".notes[{k}]", 1_000)


def _check_event(e: Any, n: int) -> None:
    if type(e) not in _EVENT_TYPES:
        raise StateFormatError(f"not an event: {shown_value(e)}", "")
    expect_int(e.player, ".player", -1, n - 1)
    _ints(e.values, ".values", 0, _MAX_EVENT_VALUE)
