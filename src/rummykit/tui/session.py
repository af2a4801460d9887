"""The game logic behind the terminal app, with no Textual in it.

Everything the screens need that is not drawing lives here, so it can be tested on
its own: the match settings, the seats (one person, the rest bots), the move log in
words, turning a selection of cards into a legal move, saving and resuming, and the
states of a replay.

>>> from rummykit.rules import Rules
>>> m = Match.start(GameSettings(Rules.preset("basic"), name="Ann", bots=("easy",), seed=3))
>>> m.state.names, m.seat_labels()
(['Ann', 'Bob'], ['you', 'easy'])
>>> Match.from_record(m.record()).state.hands == m.state.hands
True
"""

from __future__ import annotations

import contextlib
import os
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..bots import Bot, make_bot
from ..bots.explain import layoff_probe, swap_spots, take_probe
from ..bots.review import match_start
from ..bots.tactics import best_layoff, best_meld
from ..cards import JOKER, UNICODE_JOKER, bits, face_of, is_joker, mask_of
from ..errors import NotationError
from ..i18n import card_text as _lang_card_text
from ..i18n import deep_draw_text, game_title, round_text
from ..i18n.shows import SHOWS, code_text, show_text
from ..melds import HandCounts
from ..moves import (
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
    Move,
    code_suit_pos,
)
from ..notation import export_record, import_record
from ..rulebook import join_clauses
from ..rules import (
    DiscardPickup,
    Rules,
    Scoring,
    SwappedJoker,
)
from ..scoring import RoundResult
from ..state import GameState, Phase
from ..table import TableMeld
from ..variants.indian import declare_fields, drop_penalty
from ..variants.rummikub import arrangement_shapes, table_shapes
from .lang import N_, _, _n, lang

JOKER_GLYPH = UNICODE_JOKER
KNOCKED = {"knock": N_("knocked"), "declare": N_("declared")}
"""A knock in the log, by what the family calls it (:meth:`Variant.action_name`)."""
DIFFICULTIES = ("easy", "medium", "hard")
N_("easy"), N_("medium"), N_("hard")  # their names on the screen
DEFAULT_BOT = "easy"
"""The computer players' difficulty unless chosen, as in the web game.

A first game should be winnable but not trivial.  ``easy`` (the greedy bot) is a real
opponent: it takes the upcard when it melds, melds and lays off at once, throws the
card that costs least and knocks as soon as Gin allows.  ``medium`` (the expert) adds
card counting and defence and wins 66% of Basic Rummy matches against ``easy``
(docs/bots.md), so a newcomer who plays about as well as ``easy`` would lose two first
games in three.  The level is shown by each bot's name and is one choice away.
"""
TUI_PRESETS = (
    "basic", "classic", "cg101", "rami51", "gin_match", "gin", "rum500", "kalooki", "indian",
    "indian_pool101", "indian_pool201", "indian_deals", "contract", "rummikub",
)  # fmt: skip
"""The presets the new-game screen offers."""
BOT_NAMES = ("Bob", "Cleo", "Dana", "Eli", "Fay", "Gus", "Hal", "Ivy")
"""Enough for the largest table (rum500_big: eight seats, seven bots, one name spare)."""
ENV_DATA_DIR = "RUMMYKIT_DATA_DIR"
"""Environment variable that overrides where games are saved (tests use it)."""
SAVE_NAME = "saved-game.rummy"

HOUSE_RULE_TOGGLES: tuple[tuple[str, str], ...] = (
    ("multiple_melds", N_("any number of melds per turn")),
    ("layoff_after_own_meld", N_("lay off only after your own first meld")),
    ("final_discard", N_("you must discard to go out")),
    ("discard_taken_card", N_("the card taken from the discard pile may be thrown back")),
    ("discard_pickup", N_("a card taken from the discard pile must be used at once")),
    ("joker_swap", N_("swap a table joker for the card it stands for")),
    ("swapped_joker", N_("a joker freed by a swap must go into a new meld at once")),
    ("take_from_meld", N_("take a card from a table meld of 4+ cards")),
    ("opening_pure_run", N_("the opening must include a run without a joker")),
)
"""The yes/no options of :class:`Rules` (and two-valued choices) offered as switches."""

_ENUM_TOGGLES: dict[str, tuple[object, object]] = {
    "discard_pickup": (DiscardPickup.MUST_USE, DiscardPickup.FREE),
    "swapped_joker": (SwappedJoker.MUST_MELD, SwappedJoker.KEEP),
}


def toggle_value(rules: Rules, key: str) -> bool:
    """Whether the switch for option ``key`` is on for these rules."""
    value = getattr(rules, key)
    if key in _ENUM_TOGGLES:
        return bool(value is _ENUM_TOGGLES[key][0])
    return bool(value)


def toggle_option(key: str, on: bool) -> object:
    """The option value a switch position means."""
    if key in _ENUM_TOGGLES:
        return _ENUM_TOGGLES[key][0 if on else 1]
    return on


# -- cards in words --------------------------------------------------------------------------
def face_text(face: int) -> str:
    """A face for people: ``7♥``, ``10♥``, ``A♠`` (in French, ``V♥ D♥ R♥`` for the
    court cards), or the joker glyph."""
    return _lang_card_text(face, lang())


def card_text(card: int) -> str:
    return face_text(face_of(card))


def is_red(face: int) -> bool:
    return face < JOKER and face // 13 in (1, 2)


def sort_cards(cards: Sequence[int] | int, by_rank: bool = False) -> list[int]:
    """Cards (a list or a hand mask) sorted by suit then rank, or rank then suit;
    jokers last."""
    items = list(bits(cards)) if isinstance(cards, int) else list(cards)

    def key(c: int) -> tuple[int, int, int]:
        f = face_of(c)
        if f == JOKER:
            return (99, 99, c)
        return (f % 13, f // 13, c) if by_rank else (f // 13, f % 13, c)

    return sorted(items, key=key)


def shape_cells(state: GameState, shape: int) -> list[tuple[int, bool]]:
    """``(represented face, is a joker)`` for each cell of a meld shape."""
    sh = state.game.melds.shapes[shape]
    return [(f, bool(sh.joker_cells >> i & 1)) for i, f in enumerate(sh.cells)]


def cells_text(cells: Sequence[tuple[int, bool]]) -> str:
    return " ".join(f"{JOKER_GLYPH}({face_text(f)})" if j else face_text(f) for f, j in cells)


def shape_text(state: GameState, shape: int) -> str:
    """A meld shape with each joker shown as the card it stands for: ``5♥ 🃏(6♥) 7♥``."""
    return cells_text(shape_cells(state, shape))


def table_cells(state: GameState, tm: TableMeld) -> list[tuple[int, bool]]:
    sh = state.game.melds.shapes[tm.shape]
    return [(sh.cells[i], is_joker(c)) for i, c in enumerate(tm.cards)]


def meld_text(state: GameState, slot: int) -> str:
    return cells_text(table_cells(state, state.table[slot]))


def code_face(code: int) -> int:
    suit, pos = code_suit_pos(code)
    return suit * 13 + (0 if pos == 13 else pos)


# -- moves in words ----------------------------------------------------------------------------
def move_clause(state: GameState, move: Move) -> str:
    """What ``move`` does, in words, as played in ``state`` (call it before applying)."""
    kind = move.kind
    if kind == DRAW_STOCK:
        if state.rules.free_table:
            return _("drew a tile")
        return _("drew from the stock")
    if kind == ARRANGE:
        return arrange_clause(state, move)
    if kind == DRAW_DISCARD:
        top = state.discard[-1] if state.discard else -1
        if top < 0:
            return _("took the upcard")
        return _("took {card} from the discard pile", card=card_text(top))
    if kind == DRAW_DEEP and 0 < move.a <= len(state.discard):
        return deep_draw_text(card_text(state.discard[-move.a]), move.a - 1, lang())
    if kind == DISCARD:
        return _("discarded {card}", card=face_text(move.a))
    if kind == MELD:
        return _("melded {cards}", cards=shape_text(state, move.a))
    on = _("meld {n}", n=move.a + 1)
    if 0 <= move.a < len(state.table):
        on = meld_text(state, move.a)
    if kind == LAYOFF:
        face = code_face(move.b)
        if move.c:
            what = _("{joker} as {card}", joker=JOKER_GLYPH, card=face_text(face))
        else:
            what = face_text(face)
        return _("laid off {what} on {meld}", what=what, meld=on)
    if kind == SWAP:
        return _("swapped {card} for the joker in {meld}", card=face_text(move.b), meld=on)
    if kind == TAKE:
        return _("took {card} from {meld}", card=face_text(code_face(move.b)), meld=on)
    if kind == PASS:
        return _("passed")
    if kind == KNOCK:
        return _(KNOCKED[state.game.variant.action_name(KNOCK, "knock")])
    if kind == DROP:
        return _("dropped")
    if kind == BUY:
        top = state.discard[-1] if state.discard else -1
        penalty = state.rules.buy_penalty
        if penalty:
            return _n(
                "bought {card} and {n} penalty card out of turn",
                "bought {card} and {n} penalty cards out of turn",
                penalty,
                card=card_text(top),
            )
        return _("bought {card} out of turn", card=card_text(top))
    return _("move|played")  # pragma: no cover - every kind is named above


def arrange_clause(state: GameState, move: Move) -> str:
    """A Rummikub play in words: how many tiles it places and the sets it leaves on
    the table that were not there before (the rest of the table is as it was), each
    joker with the tile it stands for: ``placed 2 tiles: 5♥ 6♥ 7♥ / 8♣ 8♦ 8♥``."""
    t = state.game.melds
    shapes = arrangement_shapes(move.a, t) or ()
    new = Counter(shapes) - Counter(table_shapes(state))
    placed = sum(len(t.shapes[s].cells) for s in shapes)
    placed -= sum(len(t.shapes[tm.shape].cells) for tm in state.table)
    sets = " / ".join(shape_text(state, s) for s in sorted(new.elements()))
    return _n("placed {n} tile: {sets}", "placed {n} tiles: {sets}", placed, sets=sets)


def laid_text(moves: Sequence[Move]) -> str:
    """How many melds and lay-offs ``moves`` are, in words.

    >>> laid_text([Move(MELD, 3), Move(MELD, 5), Move(LAYOFF, 0, 1)])
    '2 melds and 1 lay-off'
    >>> laid_text([Move(MELD, 3)])
    '1 meld'
    """
    melds = sum(m.kind == MELD for m in moves)
    layoffs = len(moves) - melds
    parts = []
    if melds:
        parts.append(_n("{n} meld", "{n} melds", melds))
    if layoffs:
        parts.append(_n("{n} lay-off", "{n} lay-offs", layoffs))
    return join_words(parts)


def join_words(clauses: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` in the app's language."""
    if lang() == "en":
        return join_clauses(clauses)
    if len(clauses) <= 1:
        return "".join(clauses)
    return ", ".join(clauses[:-1]) + _(" and ") + clauses[-1]


@dataclass
class LogEntry:
    player: int
    """The seat, or -1 for a line about the game."""
    clauses: list[str] = field(default_factory=list)
    turn: tuple[int, int] = (0, 0)
    text: str = ""
    """For a game line: its text."""


class MoveLog:
    """Every turn as one sentence: "Ann took 7♥ from the discard pile and melded ..."."""

    def __init__(self, names: Sequence[str], limit: int = 300) -> None:
        self.names = list(names)
        self.entries: list[LogEntry] = []
        self.limit = limit

    def note(self, text: str) -> None:
        self.entries.append(LogEntry(-1, text=text))
        self._trim()

    def record(self, player: int, turn: tuple[int, int], clause: str) -> None:
        """Add ``clause`` (from :func:`move_clause`) to ``player``'s sentence for the turn
        ``turn`` = (round, turn number)."""
        last = self.entries[-1] if self.entries else None
        if last is None or last.player != player or last.turn != turn:
            last = LogEntry(player, turn=turn)
            self.entries.append(last)
            self._trim()
        last.clauses.append(clause)

    def _trim(self) -> None:
        if len(self.entries) > self.limit:
            del self.entries[: len(self.entries) - self.limit]

    def lines(self) -> list[tuple[int, str]]:
        """``(seat or -1, sentence)`` for every entry, oldest first."""
        out: list[tuple[int, str]] = []
        for e in self.entries:
            if e.player < 0:
                out.append((-1, e.text))
            else:
                out.append((e.player, f"{self.names[e.player]} {join_words(e.clauses)}."))
        return out


# -- settings and seats ------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSettings:
    """What the new-game screen (or the command line) chooses."""

    rules: Rules
    name: str = "You"
    bots: tuple[str, ...] = (DEFAULT_BOT,)
    """One difficulty per computer player (seats 1, 2, ...)."""
    seed: int | None = None

    @property
    def players(self) -> int:
        return 1 + len(self.bots)

    def names(self) -> list[str]:
        me = self.name.strip()
        if not me or me == "You":
            me = _("You")
        others = [n for n in BOT_NAMES if n.lower() != me.lower()]
        return [me, *others[: len(self.bots)]]

    def check(self) -> None:
        """Raise ValueError when these settings cannot start a game."""
        self.rules.check_players(self.players)
        for b in self.bots:
            if b not in DIFFICULTIES:
                known = ", ".join(DIFFICULTIES)
                raise ValueError(
                    _("unknown bot difficulty {name} (known: {known})", name=repr(b), known=known)
                )


class Match:
    """A match in progress: the state, the person's seat and a bot for every other seat."""

    def __init__(self, state: GameState, seats: Sequence[str | None], human: int = 0) -> None:
        self.state = state
        self.seats = list(seats)
        """Per seat, the bot difficulty, or None for the person."""
        self.human = human
        base = state.seed if isinstance(state.seed, int) else 0
        master = random.Random(base * 7919 + len(state.history))
        self.bots: list[Bot | None] = [make_bot(d) if d else None for d in self.seats]
        self.rngs = [random.Random(master.getrandbits(64)) for _ in self.seats]
        self.log = MoveLog(state.names)
        self.laid: dict[int, list[TableMeld]] = {}
        """A knock game's melds at the end of each hand, by round number."""
        self.started = datetime.now().replace(microsecond=0)
        """When the match began (its record's ``[Started]`` tag keeps it across saves)."""
        self.loaded_from: Path | None = None
        """The save file this match was resumed from, if any."""

    @classmethod
    def start(cls, settings: GameSettings) -> Match:
        settings.check()
        seed = settings.seed if settings.seed is not None else random.randrange(1 << 31)
        state = GameState.new(settings.rules, settings.names(), seed)
        m = cls(state, [None, *settings.bots])
        m.log.note(deal_note(state))
        return m

    def settings(self) -> GameSettings:
        """Settings that start a match like this one (a new deal)."""
        bots = tuple(d for d in self.seats if d)
        return GameSettings(self.state.rules, self.state.names[self.human], bots)

    def seat_labels(self) -> list[str]:
        return [_("you") if d is None else _(d) for d in self.seats]

    @property
    def my_turn(self) -> bool:
        s = self.state
        return s.current == self.human and s.phase is not Phase.OVER

    def apply(self, move: Move) -> None:
        """Apply a move for the player to act, logging it; IllegalMoveError changes nothing."""
        s = self.state
        table = list(s.table)
        rounds = len(s.results)
        apply_logged(s, move, self.log, self.human)
        if len(s.results) > rounds and move.kind == PASS:
            # A hand that ends with a pass (a knock game's, once the melds are laid)
            # ends with the table before that move (the next deal clears it).
            self.laid[s.results[-1].round_no] = table

    def lay_best(self) -> list[Move]:
        """In a knock game's end of hand, lay the person's melds (and lay-offs, as the
        defender) that leave the least deadwood, as the bots would; return the moves.

        Laying is mechanical once the discard is made, and one key for it spares the
        person ten card selections; passing (done) stays theirs to press.
        """
        s = self.state
        played: list[Move] = []
        while self.my_turn and s.phase in (Phase.KNOCK, Phase.LAYOFF):
            view = s.view(self.human)
            if view.hand.bit_count() > s.game.dealt:
                break  # the knocker's discard comes first, and it is a real choice
            move = best_meld(view, s.game.solver) or best_layoff(view, s.game.solver)
            if move is None:
                break
            self.apply(move)
            played.append(move)
        return played

    # -- records ---------------------------------------------------------------------------
    def record(self) -> str:
        """The game record, with a ``[Bots ...]`` tag saying who played each seat."""
        text = export_record(self.state, unicode=False)
        tag = '[Bots "' + ", ".join(d or "-" for d in self.seats) + '"]\n'
        tag += f'[Started "{self.started.isoformat(sep=" ")}"]\n'
        at = text.find("[Result ")
        return text[:at] + tag + text[at:] if at >= 0 else tag + text

    @classmethod
    def from_record(cls, text: str) -> Match:
        """Continue the match of a record (NotationError if it is not one)."""
        state = import_record(text)
        n = state.num_players
        seats: list[str | None] = [None] + [DEFAULT_BOT] * (n - 1)
        parts = record_seats(text, n)
        if parts is not None:
            seats = [None if p == "-" else (p if p in DIFFICULTIES else DEFAULT_BOT) for p in parts]
        human = seats.index(None)
        m = cls(state, seats, human)
        started = re.search(r'^\[Started "([^"\]]{1,40})"\]', text, re.MULTILINE)
        if started:
            with contextlib.suppress(ValueError):
                m.started = datetime.fromisoformat(started.group(1))
        m.log = rebuilt_log(state, human)
        m.log.note(_("Resumed: round {round}, turn {turn}.", round=state.round_no, turn=state.turn))
        return m


def deal_note(state: GameState) -> str:
    """The log's line for a new deal: ``Round 2: Bob deals.``"""
    return _("Round {n}: {who} deals.", n=state.round_no, who=state.names[state.dealer])


def apply_logged(state: GameState, move: Move, log: MoveLog, human: int) -> None:
    """Apply ``move`` for the player to act and write it to ``log`` (the card a stock
    draw gave only for ``human``, who saw it); IllegalMoveError changes nothing.  The
    game and a resumed game's rebuilt log go through here, so they read the same."""
    p = state.current
    clause = move_clause(state, move)
    before = state.hands[p] if p >= 0 else 0
    rounds = len(state.results)
    turn = (state.round_no, state.turn)
    state.apply(move)  # raises IllegalMoveError and changes nothing if illegal
    if move.kind == DRAW_STOCK and p == human:
        new = state.hands[p] & ~before
        if new and state.rules.free_table:
            clause = _("drew {tile}", tile=card_text(new.bit_length() - 1))
        elif new:
            clause = _("drew {card} from the stock", card=card_text(new.bit_length() - 1))
    log.record(p, turn, clause)
    for r in state.results[rounds:]:
        log.note(round_line(r, state.names))
    if len(state.results) > rounds and state.phase is not Phase.OVER:
        log.note(deal_note(state))


def round_line(r: RoundResult, names: Sequence[str]) -> str:
    """The log's line for the end of a round: ``Round 2: Bob went out.``"""
    return _("Round {n}: {what}.", n=r.round_no, what=round_text(r, names, lang()))


def rebuilt_log(final: GameState, human: int) -> MoveLog:
    """The move log of a saved match, replayed from its seed and history, so that
    ``rummy play --resume`` shows what happened before the save (it showed nothing).
    A state without a seed to replay from gets an empty log."""
    log = MoveLog(final.names)
    try:
        s = match_start(final)
    except ValueError:
        return log
    log.note(deal_note(s))
    actions = s.game.actions
    for action in final.history:
        apply_logged(s, actions.decode(action), log, human)
    return log


def record_seats(text: str, players: int) -> list[str] | None:
    """The seats of a terminal game's record, from its ``[Bots "-, hard"]`` tag: per
    seat the bot's name in lower case or ``-`` for the person; None when the record has
    no such tag or it does not name one person among ``players`` seats.

    >>> record_seats('[Bots "-, Hard"]', 2), record_seats('[Rules "basic"]', 2)
    (['-', 'hard'], None)
    """
    found = re.search(r'^\s*\[\s*Bots\s+"([^"]*)"\s*\]', text, re.M | re.I)
    if not found:
        return None
    parts = [p.strip().lower() for p in found.group(1).split(",")]
    if len(parts) != players or parts.count("-") != 1:
        return None
    return parts


# -- from a selection to a move ----------------------------------------------------------------
class Attempt:
    """What an action key means now: legal moves to choose from, or an error to show."""

    def __init__(self, moves: Sequence[Move] = (), error: str = "", probe: Move | None = None):
        self.moves = list(moves)
        self.error = error
        self.probe = probe
        """An illegal move to hand to the engine so it names the rule broken."""


def meld_attempt(state: GameState, selected: Sequence[int]) -> Attempt:
    """The legal MELD moves whose cards are exactly ``selected`` (several when jokers
    could stand for different cards), else why not."""
    if not selected:
        return Attempt(error=_("select the cards of the meld first"))
    t = state.game.melds
    mask = mask_of(selected)
    faces = sorted(face_of(c) for c in selected if not is_joker(c))
    jokers = sum(1 for c in selected if is_joker(c))
    shapes = [
        i
        for i in t.shapes_in(HandCounts.of(mask))
        if t.shapes[i].njokers == jokers and list(t.shapes[i].naturals) == faces
    ]
    legal = set(state.legal_moves())
    moves = [Move(MELD, i) for i in shapes if Move(MELD, i) in legal]
    if moves:
        return Attempt(moves)
    if shapes:
        return Attempt(probe=Move(MELD, shapes[0]))
    shown = " ".join(card_text(c) for c in sort_cards(selected))
    if len(selected) < 3:
        return Attempt(
            error=_("{cards} is not a meld: a meld has at least three cards", cards=shown)
        )
    if jokers > t.k:
        return Attempt(
            error=_(
                "{cards} is not a meld: at most {jokers} per meld",
                cards=shown,
                jokers=_n("{n} joker", "{n} jokers", t.k),
            )
        )
    return Attempt(
        error=_(
            "{cards} is not a meld: a set is one rank in different suits, a run "
            "is consecutive cards of one suit",
            cards=shown,
        )
    )


def layoff_attempt(state: GameState, card: int, slot: int | None = None) -> Attempt:
    """Legal lay-offs of ``card`` (onto meld ``slot`` only, if given), else why not."""
    joker = is_joker(card)
    face = face_of(card)
    slots = range(len(state.table)) if slot is None else [slot]
    moves = [
        m
        for m in state.legal_moves()
        if m.kind == LAYOFF
        and m.a in slots
        and bool(m.c) == joker
        and (joker or code_face(m.b) == face)
    ]
    if moves:
        return Attempt(moves)
    if not state.table:
        return Attempt(error=_("there is no meld on the table to lay off on"))
    probe = layoff_probe(state, card, list(slots))
    if probe is not None:
        return Attempt(probe=probe)
    if slot is None:
        return Attempt(error=_("{card} does not fit any meld on the table", card=card_text(card)))
    return Attempt(error=_("{card} does not fit meld {n}", card=card_text(card), n=slot + 1))


def swap_attempt(state: GameState, card: int | None) -> Attempt:
    """Legal joker swaps giving ``card`` (any card if None), else why not."""
    face = None if card is None else face_of(card)
    moves = [m for m in state.legal_moves() if m.kind == SWAP and (face is None or m.b == face)]
    if moves:
        return Attempt(moves)
    spots = swap_spots(state, face)
    if spots:
        return Attempt(probe=Move(SWAP, spots[0][0], spots[0][1]))
    if face is None:
        return Attempt(error=_("there is no joker on the table to swap"))
    if face == JOKER:
        return Attempt(error=_("select the natural card that a table joker stands for"))
    return Attempt(error=_("no joker on the table stands for {card}", card=face_text(face)))


def take_attempt(state: GameState) -> Attempt:
    """Legal takes from table melds, else why not."""
    moves = [m for m in state.legal_moves() if m.kind == TAKE]
    if moves:
        return Attempt(moves)
    probe = take_probe(state)
    if probe is not None:
        return Attempt(probe=probe)
    return Attempt(error=_("there is no meld on the table to take from"))


def shape_faces(state: GameState, shape: int) -> list[int]:
    """The faces a meld shape takes from a hand, cell by cell (``JOKER`` for a joker)."""
    sh = state.game.melds.shapes[shape]
    return [JOKER if sh.joker_cells >> i & 1 else f for i, f in enumerate(sh.cells)]


def cards_of_faces(hand: int, faces: Sequence[int], avoid: int = -1) -> list[int]:
    """A card of ``hand`` for each face, no card twice; a face the hand lacks is
    skipped.  ``avoid`` is taken only when its face has no other copy."""
    out: list[int] = []
    used = 0
    for f in faces:
        options = [c for c in bits(hand & ~used) if face_of(c) == f]
        if len(options) > 1 and avoid in options:
            options.remove(avoid)
        if options:
            out.append(options[0])
            used |= 1 << options[0]
    return out


def cards_for_move(state: GameState, hand: int, move: Move) -> list[int]:
    """The cards of ``hand`` a move would play (to pre-select them for a hint)."""
    faces: list[int] = []
    if move.kind == MELD:
        faces = shape_faces(state, move.a)
    elif move.kind == LAYOFF:
        faces = [JOKER if move.c else code_face(move.b)]
    elif move.kind == SWAP:
        faces = [move.b]
    elif move.kind == DISCARD:
        faces = [move.a]
    # the card just taken from the pile may not be thrown back: hint its twin
    return cards_of_faces(hand, faces, state.taken if move.kind == DISCARD else -1)


def choice_text(state: GameState, move: Move) -> str:
    """A move as an option in a chooser (a draw from the pile lists the cards it
    picks up, the deepest first)."""
    if move.kind == MELD:
        return shape_text(state, move.a)
    if move.kind == DRAW_DISCARD and state.discard:
        return _("take {card}, the top card", card=card_text(state.discard[-1]))
    if move.kind == DRAW_DEEP and 0 < move.a <= len(state.discard):
        taken = state.discard[-move.a :]
        return _(
            "take {card}, with {cards} above it",
            card=card_text(taken[0]),
            cards=" ".join(card_text(c) for c in taken[1:]),
        )
    if move.kind not in (LAYOFF, SWAP, TAKE) or not 0 <= move.a < len(state.table):
        return move_clause(state, move)
    owner = state.names[state.table[move.a].owner]
    where = _(
        "meld {n} ({owner}: {cards})", n=move.a + 1, owner=owner, cards=meld_text(state, move.a)
    )
    if move.kind == LAYOFF:
        face = face_text(code_face(move.b))
        if move.c:
            return _("{joker} as {card} on {meld}", joker=JOKER_GLYPH, card=face, meld=where)
        return _("{card} on {meld}", card=face, meld=where)
    if move.kind == SWAP:
        return _("give {card} for the joker in {meld}", card=face_text(move.b), meld=where)
    return _("take {card} from {meld}", card=face_text(code_face(move.b)), meld=where)


# -- rules in words ------------------------------------------------------------------------------
def family_lines(state: GameState, hand: int, *, own: bool) -> list[str]:
    """The family's status lines (:meth:`~rummykit.variants.base.Variant.status`) in
    the app's language: those about ``hand``, the player's own (``own``), or the public
    ones."""
    lines = state.game.variant.status(state, hand)
    return [show_text(line, lang(), state.names) for line in lines if line.own == own]


def own_text(state: GameState, hand: int) -> str:
    """What the family shows of the player's own hand, for the hand's title: a knock
    game's deadwood, an Indian hand's count (after the best discard when holding the
    extra card); empty when the family shows nothing of it."""
    return " · ".join(family_lines(state, hand, own=True))


def drop_cost(state: GameState) -> int:
    """What a drop costs the player to act now (first or middle drop)."""
    return drop_penalty(state)


def drop_note(state: GameState, seat: int) -> str:
    """`` · dropped`` or `` · out`` after a seat's label in a declaration game."""
    d = declare_fields(state).dropped[seat]
    if d > 0:
        return _(" · dropped ({n})", n=d)
    return _(" · out") if d < 0 else ""


def goal_text(rules: Rules) -> str:
    """How the match ends and who wins, briefly: ``to 100, high wins``."""
    high = rules.scoring is Scoring.WINNER_COLLECTS
    if rules.deals is not None:
        deals = _n("{n} deal", "{n} deals", rules.deals)
        return _("{deals}, high wins", deals=deals) if high else _("{deals}, low wins", deals=deals)
    if high:
        return _("to {n}, high wins", n=rules.target_score)
    return _("to {n}, low wins", n=rules.target_score)


def round_title(rules: Rules, round_no: int) -> str:
    """The round and how far the match goes, short enough for the players' box title
    at 80 columns: ``Round 2 of 3`` or ``Round 2 · to 100``.

    >>> round_title(Rules.preset("gin"), 1), round_title(Rules.preset("basic"), 4)
    ('Round 1 of 1', 'Round 4 · to 100')
    """
    if rules.deals is not None:
        return _("Round {n} of {deals}", n=round_no, deals=rules.deals)
    return _("Round {n} · to {target}", n=round_no, target=rules.target_score)


def coming_lines(state: GameState) -> list[tuple[str, str]]:
    """What the family shows of the deal now starting that the catalog says ahead
    (``next.<code>``), at a deal's end (``state`` is already at the new deal): each
    line's code and words, ``Next: deal 3 of 7, two runs`` in Contract Rummy; none
    elsewhere."""
    if state.phase is Phase.OVER:
        return []
    return [
        (line.code, code_text(f"next.{line.code}", line.params, lang(), state.names))
        for line in state.game.variant.status(state, 0)
        if not line.own and f"next.{line.code}" in SHOWS["en"]
    ]


def winner_text(rules: Rules) -> str:
    """Which total wins the match: ``highest score wins`` or ``lowest score wins``."""
    if rules.scoring is Scoring.WINNER_COLLECTS:
        return _("highest score wins")
    return _("lowest score wins")


# -- saving ----------------------------------------------------------------------------------------
def data_dir() -> Path:
    """Where games are saved: ``$RUMMYKIT_DATA_DIR`` or the user's data directory."""
    override = os.environ.get(ENV_DATA_DIR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("rummykit"))


SAVES = "saves"
"""The folder under :func:`data_dir` that holds one save per game (per rules name)."""
GAMES = "games"
"""The folder under :func:`data_dir` that holds every match's record, for replays."""


@dataclass(frozen=True)
class SavedGame:
    """A match saved to be continued: where it is, which game, how far, and when."""

    path: Path
    game: str
    """The rules' name (``rum500``, ``kalooki`` ...): one save is kept per game."""
    round_no: int
    turn: int
    saved: datetime

    def label(self) -> str:
        """How the resume chooser names the save."""
        return _(
            "{game}: round {round}, turn {turn} (saved {when})",
            game=game_title(self.game, lang()),
            round=self.round_no,
            turn=self.turn,
            when=self.saved.strftime("%Y-%m-%d %H:%M"),
        )


def save_path(game: str) -> Path:
    """Where the match of one game is saved (each game has its own slot, so quitting
    a Kalooki game never overwrites a saved 500 Rum game)."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", game) or "game"
    return data_dir() / SAVES / f"{safe}.rummy"


def _save_files() -> list[Path]:
    """Every save file: one per game, and the single slot older versions kept."""
    files = sorted((data_dir() / SAVES).glob("*.rummy")) if (data_dir() / SAVES).is_dir() else []
    legacy = data_dir() / SAVE_NAME
    return [*files, legacy] if legacy.is_file() else files


def saved_games() -> list[SavedGame]:
    """The matches that can be resumed, the most recently saved first (unreadable
    files are left out, and left alone)."""
    found: list[SavedGame] = []
    for path in _save_files():
        try:
            state = import_record(path.read_text(encoding="utf-8"))
            when = datetime.fromtimestamp(path.stat().st_mtime)
        except (OSError, NotationError, ValueError):
            continue
        if state.phase is not Phase.OVER:
            found.append(SavedGame(path, state.rules.name, state.round_no, state.turn, when))
    return sorted(found, key=lambda s: s.saved, reverse=True)


def save_match(match: Match) -> Path:
    """Write the match's record to its game's save file; return its path."""
    path = save_path(match.state.rules.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(match.record(), encoding="utf-8")
    tmp.replace(path)
    if match.loaded_from is not None and match.loaded_from != path:
        with contextlib.suppress(OSError):  # one copy: the record is in its game's slot
            match.loaded_from.unlink()
        match.loaded_from = path
    return path


def load_saved(path: Path | None = None) -> Match | None:
    """The match saved at ``path`` (default: the most recently saved one), or None if
    there is none or it cannot be read."""
    if path is None:
        games = saved_games()
        if not games:
            return None
        path = games[0].path
    try:
        match = Match.from_record(path.read_text(encoding="utf-8"))
    except (OSError, NotationError, ValueError):
        return None
    match.loaded_from = path
    return match


def discard_save(match: Match) -> None:
    """Remove the save of a finished match (its record is kept under ``games/``)."""
    for path in (save_path(match.state.rules.name), match.loaded_from):
        if path is not None:
            with contextlib.suppress(OSError):
                path.unlink()


def record_path(match: Match) -> Path:
    """Where the match's record is kept: one file per match, named by when it began,
    rewritten as the match goes on, so an unfinished match has its record too."""
    stamp = match.started.strftime("%Y%m%d-%H%M%S")
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", match.state.rules.name)
    return data_dir() / GAMES / f"{stamp}-{safe}.rummy"


def archive_match(match: Match) -> Path | None:
    """Keep the match's record, finished or not, under ``games/`` for ``rummy replay``
    and ``rummy review``; None if it cannot be written."""
    path = record_path(match)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(match.record(), encoding="utf-8")
    except (OSError, NotationError):
        return None
    return path


# -- replays --------------------------------------------------------------------------------
@dataclass
class ReplayStep:
    state: GameState
    """The state after this step (step 0: the first deal)."""
    text: str
    """What happened, in words."""


def replay_steps(final: GameState) -> list[ReplayStep]:
    """Every state of a match, rebuilt from its seed and history."""
    s = match_start(final)
    first = deal_note(s)
    steps = [ReplayStep(_frozen_copy(s), first)]
    actions = s.game.actions
    for action in final.history:
        move = actions.decode(action)
        who = s.names[s.current]
        text = f"{who} {move_clause(s, move)}."
        rounds = len(s.results)
        s.apply(move)
        for r in s.results[rounds:]:
            text += " " + round_line(r, s.names)
        steps.append(ReplayStep(_frozen_copy(s), text))
    return steps


def _frozen_copy(s: GameState) -> GameState:
    c = s.clone()
    c.history = []
    c.events = []
    return c
