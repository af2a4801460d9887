"""The table screen: the person's hand, the table, the piles, the players and the log,
and the keys that play a turn of the draw-meld-discard families."""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, ClassVar, cast

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState

from ..bots.hints import Hint, suggest
from ..bots.review import decision_seed
from ..cards import copy_of, face_of, is_joker
from ..errors import IllegalMoveError
from ..i18n import game_title, hint_text, illegal_text
from ..i18n.shows import show_text
from ..moves import (
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
)
from ..state import GameState, Phase
from ..variants.indian import declare_fields, is_wild, makes_wrong_show
from .hand import HAND_ORDERS, ordered_hand
from .lang import N_, LocalBindings, _, _n, lang
from .review_screen import ReviewScreen
from .screens import (
    ChoiceScreen,
    HelpScreen,
    MatchEndScreen,
    PileScreen,
    RoundSummaryScreen,
)
from .session import (
    Attempt,
    Match,
    card_text,
    cards_for_move,
    choice_text,
    drop_cost,
    drop_note,
    family_lines,
    join_words,
    laid_text,
    layoff_attempt,
    meld_attempt,
    move_clause,
    own_text,
    round_title,
    swap_attempt,
    table_cells,
    take_attempt,
    winner_text,
)
from .widgets import (
    HandView,
    LogView,
    MeldInfo,
    PilesBar,
    PlayersView,
    SeatInfo,
    TableView,
    update_in_place,
)

if TYPE_CHECKING:
    from .app import RummyApp

CARD_KEYS = "1234567890abefgknouwxyz"
"""Keys that select the cards of the hand, in order (the other letters are actions)."""
BOT_PACE = 0.6
"""Seconds between bot moves, so a person can follow them."""
HINT_BUDGET: int | None = None
"""Sampled deals for a hint: None, the review's budget for the game, so the hint and
the round's review (seed 0) are one evaluation and the hinted move is graded best."""


ACTION_KEYS = {DRAW_STOCK: "s", DRAW_DISCARD: "p", MELD: "m", LAYOFF: "l", SWAP: "j", TAKE: "t",
               DISCARD: "d", KNOCK: "k", PASS: "n", DROP: "x", BUY: "b"}  # fmt: skip
FAMILY_ACTIONS = frozenset({"knock", "pass_turn", "lay_best", "declare", "drop", "buy", "decline"})
"""The bindings bound only where the game's family lists them among its actions
(:meth:`~rummykit.variants.base.Variant.actions`): elsewhere they are neither shown nor
bound, and their keys select cards (Gin's k, n and b would select cards 16, 17 and 12
in rummy).  A family's keys never select a card in its own games: past the hand, the
key is the action (Gin hands never hold 12 cards, Indian hands at most 14)."""
BUY_ACTIONS = frozenset({"buy", "decline"})
"""Contract Rummy's buy window, out of turn: ``b`` buys the discard, ``n`` passes.
They are bound (and shown) only while the window is the person's; the draws (s, p)
are not, since nobody draws then."""
DRAW_ACTIONS = frozenset({"draw_stock", "draw_pile"})


class TableScreen(LocalBindings, Screen[None]):
    """The game: your hand, the table, the piles, the players and the log."""

    DEFAULT_CSS = """
    TableScreen #status { height: auto; background: $boost; padding: 0 1; }
    TableScreen #main { height: 1fr; }
    TableScreen #table-box {
        width: 1fr; border: round $primary 60%; padding: 0 1;
        border-title-color: $text-primary;
    }
    TableScreen #side { width: 32; }
    TableScreen #players-box {
        height: auto; border: round $secondary 60%; border-title-color: $text-secondary;
    }
    TableScreen #log {
        border: round $secondary 60%; border-title-color: $text-secondary; padding: 0 0 0 1;
    }
    TableScreen #hand-box {
        height: auto; border: round $accent 70%; padding: 0 1;
        border-title-color: $text-accent;
    }
    TableScreen #message { height: auto; min-height: 1; padding: 0 1; color: $text-muted; }
    TableScreen #message.error { color: $text-error; text-style: bold; }
    TableScreen #message.hint { color: $text-accent; }
    TableScreen #message.info { color: $text-success; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "draw_stock", N_("Stock")),
        Binding("p", "draw_pile", N_("Pile")),
        Binding("m", "meld", N_("Meld")),
        Binding("l", "layoff", N_("Lay off")),
        Binding("d", "discard", N_("Discard")),
        Binding("j", "swap", N_("Swap joker"), show=False),
        Binding("t", "take", N_("Take"), show=False),
        Binding("k", "knock", N_("Knock")),
        Binding("k", "declare", N_("Declare")),
        Binding("n", "pass_turn", N_("Pass")),
        Binding("x", "drop", N_("Drop")),
        Binding("b", "buy", N_("Buy")),
        Binding("n", "decline", N_("Pass")),
        Binding("b", "lay_best", N_("Best melds"), show=False),
        Binding("c,escape", "clear", N_("Clear"), show=False),
        Binding("h", "hint", N_("Hint")),
        Binding("r", "sort", N_("Order"), show=False),
        Binding("v", "view_pile", N_("Pile"), show=False),
        Binding("i", "instant", N_("Instant"), show=False),
        Binding("question_mark,f1", "help", N_("Help")),
        Binding("q", "quit_game", N_("Quit")),
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("space", "toggle_cursor", show=False),
    ]

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match
        self.selected: set[int] = set()
        self.cursor = -1
        self.new_card = -1
        self.refused_rule = ""
        """The rule code of the last move the engine refused (the message gives its reason)."""
        self.rounds_seen = len(match.state.results)
        self.blocked = False
        self.bot_job: str | None = None
        self.bot_started = 0.0
        self.hint_job: str | None = None
        self._hand_memo: (
            tuple[tuple[int, str, bool, int], tuple[list[int], set[int], str]] | None
        ) = None
        self.order: list[int] = []
        """The hand as shown, left to right (card ids); keys follow this order."""
        self._keys_shown: tuple[tuple[str, str, bool], ...] | None = None
        """The bindings the key bar was last refreshed for (key, action, enabled)."""

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with VerticalScroll(id="table-box") as box:
                box.border_title = _("Table")
                yield self.table_widget()
            with Vertical(id="side"):
                with Vertical(id="players-box") as players:
                    players.border_title = _("Players")
                    yield PlayersView(id="players")
                log = LogView(id="log")
                log.border_title = _("Log")
                yield log
        yield PilesBar(id="piles")
        with Vertical(id="hand-box") as hand:
            hand.border_title = _("Your hand")
            yield HandView(id="hand")
        yield Static(id="message")
        yield Footer(compact=True)

    def table_widget(self) -> Widget:
        """The widget that shows the table (its melds, numbered)."""
        return TableView(id="table")

    def shown_hand(self) -> int:
        """The cards shown in the hand box (the person's hand)."""
        return self.state.hands[self.match.human]

    def show_table(self) -> None:
        """Draw the table's melds and the table box's title."""
        s = self.state
        melds = [MeldInfo(slot, tm.owner, table_cells(s, tm)) for slot, tm in enumerate(s.table)]
        self.query_one(TableView).show(s.names, melds, self._layoff_slots())
        melds_n = _n("{n} meld", "{n} melds", len(s.table))
        self.query_one("#table-box").border_title = _("Table · {melds}", melds=melds_n)

    def on_mount(self) -> None:
        self.refresh_all()
        self.set_message(
            _("Select cards with the keys shown above them or by clicking; ? for help.")
        )
        self.advance()

    @property
    def state(self) -> GameState:
        return self.match.state

    @property
    def app_(self) -> RummyApp:
        """The app (a :class:`~rummykit.tui.app.RummyApp`: the only app that shows this
        screen)."""
        return cast("RummyApp", self.app)

    # -- drawing -----------------------------------------------------------------------------
    def refresh_all(self) -> None:
        s = self.state
        me = self.match.human
        hand = self.shown_hand()
        self.selected &= {c for c in self.selected if hand >> c & 1}
        if self.new_card >= 0 and not hand >> self.new_card & 1:
            self.new_card = -1
        order = self.app_.hand_order
        self.order, starts, note = self._ordered(hand, order)
        if self.cursor >= len(self.order):
            self.cursor = len(self.order) - 1
        labels = [CARD_KEYS[i] if i < len(CARD_KEYS) else " " for i in range(len(self.order))]
        wild = {c for c in self.order if not is_joker(c) and is_wild(c, declare_fields(s).wild)}
        self.query_one(HandView).show(
            self.order, labels, self.selected, self.new_card, self.cursor, starts=starts, wild=wild
        )
        box = self.query_one("#hand-box")
        cards = _n("{n} card", "{n} cards", len(self.order))
        box.border_title = _("Your hand · {cards} · by {order} (r)", cards=cards, order=_(order))
        own = own_text(s, hand)
        if own:
            box.border_title += f" · {own}"
        selected = [_("{n} selected", n=len(self.selected))] if self.selected else []
        box.border_subtitle = " · ".join([note, *selected] if note else selected)
        self.show_table()
        takeable = set()
        if self.match.my_turn:  # 500 Rum: the pile cards a deep draw can take
            takeable = {len(s.discard) - m.a for m in s.legal_moves() if m.kind == DRAW_DEEP}
        self.query_one(PilesBar).show(len(s.stock), s.discard, takeable)
        seats = [
            SeatInfo(
                name=s.names[p],
                label=self.match.seat_labels()[p] + drop_note(s, p),
                cards=s.hand_size(p),
                score=s.scores[p],
                current=p == s.current,
                dealer=p == s.dealer,
                opened=s.opened[p],
            )
            for p in range(s.num_players)
        ]
        self.query_one(PlayersView).show(seats, s.rules.opening_minimum > 0)
        players_box = self.query_one("#players-box")
        players_box.border_title = round_title(s.rules, s.round_no)
        players_box.border_subtitle = winner_text(s.rules)
        self.query_one(LogView).show(self.match.log.lines(), me)
        self.update_status()
        self._refresh_bindings_if_changed()

    def _refresh_bindings_if_changed(self) -> None:
        """Refresh the key bar when the keys bound or enabled differ from those it
        shows (the buy window's come and go: :meth:`check_action`): refreshing
        recomposes the footer, so it is not done for a move that changes no key."""
        shown = tuple(
            (key, binding.action, enabled)
            for key, (_node, binding, enabled, _tip) in self.active_bindings.items()
        )
        if shown != self._keys_shown:
            self._keys_shown = shown
            self.refresh_bindings()

    def _ordered(self, hand: int, order: str) -> tuple[list[int], set[int], str]:
        """:func:`ordered_hand` for the person, kept while the hand and the opening
        stay the same (arranging runs the solver, and the hand is redrawn on every
        key press)."""
        me = self.match.human
        key = (hand, order, self.state.needs_opening(me), declare_fields(self.state).wild)
        if self._hand_memo is None or self._hand_memo[0] != key:
            self._hand_memo = (key, ordered_hand(self.state, hand, order, me))
        return self._hand_memo[1]

    def _layoff_slots(self) -> set[int]:
        """Melds the one selected card can be laid off on now (highlighted)."""
        if len(self.selected) != 1 or not self.match.my_turn:
            return set()
        card = next(iter(self.selected))
        return {m.a for m in layoff_attempt(self.state, card).moves}

    def update_status(self) -> None:
        s = self.state
        out = Text()
        out.append(f"{game_title(s.rules.name, lang())} ", Style(bold=True))
        for line in family_lines(s, s.hands[self.match.human], own=False):
            out.append(f"· {line} ", Style(bold=True))
        if s.phase is Phase.OVER:
            out.append(_("· the match is over"))
        elif self.match.my_turn:
            out.append("· ")
            out.append(_("Your turn: "), Style(bold=True))
            out.append(self._turn_advice())
        else:
            who = s.names[s.current]
            label = self.match.seat_labels()[s.current]
            out.append(_("· {who} ({label}) is playing…", who=who, label=label))
        update_in_place(self.query_one("#status", Static), out)

    def _turn_advice(self) -> str:
        s = self.state
        me = self.match.human
        legal = s.legal_moves()
        own = s.game.variant.advice(s, s.hands[me], legal)
        if own is not None:  # the family's own turn (its phases, its buying, its contract)
            return show_text(own, lang(), s.names)
        if s.phase is Phase.DRAW:
            if not s.discard:
                return _("draw from the stock (s)")
            top = _face(s.discard[-1])
            deep = [m.a for m in legal if m.kind == DRAW_DEEP]
            if deep:  # 500 Rum: which pile cards can be taken, and what comes with them
                takes = [
                    _n(
                        "{card} (with the card above it)",
                        "{card} (with the {n} cards above it)",
                        n - 1,
                        card=_face(s.discard[-n]),
                    )
                    for n in deep
                ]
                if Move(DRAW_DISCARD) in legal:
                    takes.append(_("the top card, {card}", card=top))
                return _("draw from the stock (s), or take (p) {cards}", cards=join_words(takes))
            if Move(DRAW_DISCARD) not in legal:
                return _("draw from the stock (s); {card} on the pile cannot be used now", card=top)
            return _("draw from the stock (s) or take {card} (p)", card=top)
        if s.pending >= 0:
            return _("use {card} in a meld now", card=_face(s.pending))
        minimum = s.rules.opening_minimum
        if s.opening_in_progress():
            return _(
                "opening {points}/{minimum} points: meld more before you discard",
                points=s.open_points,
                minimum=minimum,
            )
        if s.needs_opening(me):
            return _("meld (m) or discard (d); opening melds need {minimum}+", minimum=minimum)
        return _("meld (m), lay off (l) or discard (d)")

    def set_message(self, text: str, kind: str = "") -> None:
        msg = self.query_one("#message", Static)
        msg.set_classes(kind)
        update_in_place(msg, Text(text))

    @property
    def message(self) -> str:
        """The text of the message line (tests read it)."""
        return str(self.query_one("#message", Static).render())

    # -- turn flow ---------------------------------------------------------------------------
    def advance(self) -> None:
        """Hand the turn to whoever is to act: wait for the person, or start a bot."""
        if self.blocked:
            return
        s = self.state
        self.update_status()
        if s.phase is Phase.OVER:
            self.match_over()
        elif not self.match.my_turn:
            self.schedule_bot()

    def schedule_bot(self) -> None:
        s = self.state
        seat = s.current
        bot = self.match.bots[seat]
        if bot is None:
            return
        name = f"bot:{len(s.history)}"
        if self.bot_job == name:
            return
        self.bot_job = name
        self.bot_started = time.monotonic()
        view = s.view(seat)
        self.run_worker(
            partial(bot.choose, view, self.match.rngs[seat]),
            name=name,
            group="bot",
            thread=True,
            exclusive=True,
            exit_on_error=False,
        )

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        w = event.worker
        if w.group == "bot" and w.name == self.bot_job:
            if event.state is WorkerState.SUCCESS:
                move = w.result
                assert isinstance(move, Move)
                pace = self.app_.pace
                delay = max(0.0, pace - (time.monotonic() - self.bot_started))
                if delay > 0:
                    self.set_timer(delay, partial(self.play_bot_move, w.name, move))
                else:
                    self.play_bot_move(w.name, move)
            elif event.state is WorkerState.ERROR:
                self.bot_job = None
                self.set_message(_("The bot failed: {error}", error=w.error), "error")
        elif w.group == "hint" and w.name == self.hint_job:
            if event.state is WorkerState.SUCCESS:
                self.hint_job = None
                hint = w.result
                assert isinstance(hint, Hint)
                self.show_hint(hint)
            elif event.state is WorkerState.ERROR:
                self.hint_job = None
                self.set_message(_("No hint: {error}", error=w.error), "error")

    def play_bot_move(self, name: str, move: Move) -> None:
        if name != self.bot_job or name != f"bot:{len(self.state.history)}":
            return
        self.bot_job = None
        try:
            self.match.apply(move)
        except IllegalMoveError as exc:  # pragma: no cover - bots play legal moves
            self.set_message(_("The bot tried an illegal move: {error}", error=exc), "error")
            return
        self.after_move()

    def after_move(self) -> None:
        s = self.state
        if len(s.results) > self.rounds_seen:
            self.rounds_seen = len(s.results)
            self.selected.clear()
            self.new_card = -1
            self.refresh_all()
            totals = [sum(r.deltas[p] for r in s.results) for p in range(s.num_players)]
            if s.phase is Phase.OVER:
                totals = list(s.scores)
            else:
                self.app_.autosave()
            self.blocked = True
            review = partial(self.review_screen, s.results[-1].round_no)
            self.app.push_screen(
                RoundSummaryScreen(
                    s,
                    s.results[-1],
                    totals,
                    s.phase is Phase.OVER,
                    review,
                    self.match.laid.get(s.results[-1].round_no, ()),
                ),
                self._summary_closed,
            )
            return
        self.refresh_all()
        self.advance()

    def review_screen(self, round_no: int) -> ReviewScreen:
        """The review of the person's round ``round_no`` (the round summary's Review)."""
        app = self.app_
        return ReviewScreen(
            self.state,
            self.match.human,
            round_no,
            budget=app.review_budget,
            workers=app.review_workers,
        )

    def _summary_closed(self, _result: None = None) -> None:
        self.blocked = False
        self.refresh_all()
        self.advance()

    def match_over(self) -> None:
        self.blocked = True
        self.app_.match_finished(self.match)
        self.app.push_screen(MatchEndScreen(self.state, self.match.human), self._end_chosen)

    def _end_chosen(self, choice: str | None) -> None:
        self.app_.after_match(choice or "quit")

    # -- the person's moves -----------------------------------------------------------------
    def _ready(self) -> bool:
        """Whether the person may act now (else say why)."""
        s = self.state
        if self.blocked:
            return False
        if s.phase is Phase.OVER:
            self.set_message(_("The match is over."), "error")
            return False
        if not self.match.my_turn:
            self.set_message(_("Wait: it is {who}'s turn.", who=s.names[s.current]), "error")
            return False
        return True

    def try_move(self, move: Move) -> bool:
        """Apply a move for the person; an illegal one shows the rule and changes nothing."""
        s = self.state
        me = self.match.human
        before = s.hands[me]
        clause = move_clause(s, move)
        try:
            self.match.apply(move)
        except IllegalMoveError as exc:
            # the rule's code is for logs and tests; the player reads the plain reason
            self.refused_rule = exc.rule
            self.set_message(_("Not allowed: {reason}", reason=illegal_text(exc, lang())), "error")
            self.refresh_all()
            return False
        if move.kind in (DRAW_STOCK, DRAW_DISCARD):
            new = s.hands[me] & ~before
            self.new_card = new.bit_length() - 1 if new else -1
            self.set_message("")
        elif s.current != me or s.phase is not Phase.PLAY:
            self.selected.clear()
            self.new_card = -1
            self.set_message("")
        else:
            if lang() == "fr" and clause.startswith("a "):  # "Ann a posé", "Vous avez posé"
                clause = "avez " + clause[2:]
            self.set_message(_("You {did}.", did=clause), "info")
        self.after_move()
        return True

    def run_attempt(self, attempt: Attempt, title: str) -> None:
        if attempt.moves:
            if len(attempt.moves) == 1:
                self.try_move(attempt.moves[0])
            else:
                self.choose(title, attempt.moves)
        elif attempt.probe is not None:
            self.try_move(attempt.probe)
        else:
            self.set_message(attempt.error, "error")

    def choose(self, title: str, moves: Sequence[Move]) -> None:
        options = [choice_text(self.state, m) for m in moves]
        history = len(self.state.history)

        def chosen(index: int | None) -> None:
            if index is not None and len(self.state.history) == history:
                self.try_move(moves[index])

        self.app.push_screen(ChoiceScreen(title, options), chosen)

    def _one_card(self, what: str) -> int | None:
        if len(self.selected) == 1:
            return next(iter(self.selected))
        if not self.selected and 0 <= self.cursor < len(self.order):
            return self.order[self.cursor]
        self.set_message(_("Select exactly one card to {what}.", what=_(what)), "error")
        return None

    def action_draw_stock(self) -> None:
        if self._ready():
            self.try_move(Move(DRAW_STOCK))

    def action_buy(self) -> None:
        """Contract Rummy: buy the discard offered out of turn."""
        if self._ready():
            self.try_move(Move(BUY))

    def action_decline(self) -> None:
        """Contract Rummy: leave the discard offered out of turn."""
        if self._ready():
            self.try_move(Move(PASS))

    def action_draw_pile(self) -> None:
        if not self._ready():
            return
        # 500 Rum: a card deep in the pile may be taken with every card above it
        draws = [m for m in self.state.legal_moves() if m.kind in (DRAW_DISCARD, DRAW_DEEP)]
        if any(m.kind == DRAW_DEEP for m in draws):
            self.choose(_("Take from the discard pile"), draws)
        else:
            self.try_move(Move(DRAW_DISCARD))

    def action_meld(self) -> None:
        if not self._ready():
            return
        attempt = meld_attempt(self.state, sorted(self.selected))
        self.run_attempt(attempt, _("Which meld do you mean? (each joker stands for one card)"))

    def action_layoff(self, slot: int | None = None) -> None:
        if not self._ready():
            return
        card = self._one_card(N_("lay off"))
        if card is None:
            return
        attempt = layoff_attempt(self.state, card, slot)
        self.run_attempt(attempt, _("Lay off {card} where?", card=_face(card)))

    def action_swap(self) -> None:
        if not self._ready():
            return
        card = next(iter(self.selected)) if len(self.selected) == 1 else None
        if len(self.selected) > 1:
            self.set_message(_("Select the one card to give for a joker."), "error")
            return
        self.run_attempt(swap_attempt(self.state, card), _("Swap which joker?"))

    def action_take(self) -> None:
        if self._ready():
            self.run_attempt(take_attempt(self.state), _("Take which card?"))

    def action_discard(self) -> None:
        if not self._ready():
            return
        card = self._one_card(N_("discard"))
        if card is not None:
            self.warn_or_move(Move(DISCARD, face_of(card)))

    def action_knock(self) -> None:
        if self._ready():
            self.warn_or_move(Move(KNOCK))

    def warn_or_move(self, move: Move) -> None:
        """Play ``move``, but ask first when it would make a wrong show (Indian Rummy),
        as the online tables do: the warning names the penalty, and the move is made
        only on "anyway"."""
        s = self.state
        me = self.match.human
        if not makes_wrong_show(s.game.variant, s.hands[me], declare_fields(s).wild, s.phase, move):
            self.try_move(move)
            return
        cost = s.rules.wrong_show
        if move.kind == KNOCK:
            title = _(
                "Wrong show! Your cards are not all in melds with two sequences, one of "
                "them pure: declaring now costs {n} points.",
                n=cost,
            )
            options = [_("Declare anyway ({n} points)", n=cost), _("Keep playing")]
        else:
            card = _face(copy_of(s.hands[me], move.a))
            title = _(
                "Wrong show! Without {card} the other 13 cards are not a valid "
                "declaration: it costs {n} points.",
                card=card,
                n=cost,
            )
            options = [_("Put out {card} anyway ({n} points)", card=card, n=cost),
                       _("Choose another card")]  # fmt: skip
        history = len(s.history)

        def chosen(index: int | None) -> None:
            if index == 0 and len(self.state.history) == history:
                self.try_move(move)

        self.app.push_screen(ChoiceScreen(title, options), chosen)

    def action_declare(self) -> None:
        """Indian Rummy's declaration: the same move as a knock, under its own name."""
        self.action_knock()

    def action_drop(self) -> None:
        """Indian Rummy's drop ends the person's deal at once, for its points: asked
        first (a legal drop only; an illegal one is refused with its rule)."""
        if not self._ready():
            return
        s = self.state
        if Move(DROP) not in s.legal_moves():
            self.try_move(Move(DROP))
            return
        history = len(s.history)
        cost = drop_cost(s)

        def chosen(index: int | None) -> None:
            if index == 0 and len(self.state.history) == history:
                self.try_move(Move(DROP))

        title = _("Drop out of this deal for {n} points?", n=cost)
        options = [_("Drop for {n} points", n=cost), _("Keep playing")]
        self.app.push_screen(ChoiceScreen(title, options), chosen)

    def action_pass_turn(self) -> None:
        if self._ready():
            self.try_move(Move(PASS))

    def action_lay_best(self) -> None:
        """Lay the melds (and, as the defender, the lay-offs) that leave the least
        deadwood, as the bots choose them; pass (n) stays the person's to press."""
        if not self._ready():
            return
        before = len(self.state.history)
        moves = self.match.lay_best()
        if not moves:
            self.set_message(_("Nothing to lay now: press n when you are done."), "error")
            return
        self.after_move()
        if len(self.state.history) == before + len(moves) and self.match.my_turn:
            self.set_message(_("You laid {what}; n when done.", what=laid_text(moves)), "info")

    def action_clear(self) -> None:
        self.selected.clear()
        self.refresh_all()

    def action_sort(self) -> None:
        """Show the hand by suit, by rank, then arranged into melds, and round again;
        the choice holds for the rest of the session."""
        app = self.app_
        app.hand_order = HAND_ORDERS[(HAND_ORDERS.index(app.hand_order) + 1) % len(HAND_ORDERS)]
        self.refresh_all()

    def action_cursor(self, delta: int) -> None:
        if not self.order:
            return
        if self.cursor < 0:
            self.cursor = 0 if delta > 0 else len(self.order) - 1
        else:
            self.cursor = max(0, min(len(self.order) - 1, self.cursor + delta))
        self.refresh_all()

    def action_toggle_cursor(self) -> None:
        if 0 <= self.cursor < len(self.order):
            self.toggle(self.cursor)

    def toggle(self, index: int) -> None:
        if not 0 <= index < len(self.order):
            return
        card = self.order[index]
        if card in self.selected:
            self.selected.discard(card)
        else:
            self.selected.add(card)
        self.refresh_all()

    def action_hint(self) -> None:
        if not self._ready():
            return
        s = self.state
        name = f"hint:{len(s.history)}"
        self.hint_job = name
        self.set_message(_("Thinking of a hint…"), "hint")
        self.run_worker(
            partial(
                suggest,
                s.view(self.match.human),
                budget=HINT_BUDGET,
                seed=decision_seed(0, len(s.history)),  # the round review's seed (0)
            ),
            name=name,
            group="hint",
            thread=True,
            exclusive=True,
            exit_on_error=False,
        )

    def show_hint(self, hint: Hint) -> None:
        s = self.state
        if not self.match.my_turn or hint.move not in s.legal_moves():
            return
        cards = cards_for_move(s, s.hands[self.match.human], hint.move)
        if cards:
            self.selected = set(cards)
        self.refresh_all()
        key = ACTION_KEYS.get(hint.move.kind, "")
        press = _(" (press {key})", key=key) if key else ""
        reason = hint_text(hint.reason, lang())
        self.set_message(_("Hint: {reason}{press}", reason=reason, press=press), "hint")

    def action_view_pile(self) -> None:
        self.app.push_screen(PileScreen(self.state.discard))

    def action_instant(self) -> None:
        app = self.app_
        app.pace = BOT_PACE if app.pace == 0 else 0.0
        self.set_message(
            _("Bots play instantly.") if app.pace == 0 else _("Bots play at a readable pace.")
        )

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.state.rules))

    async def action_quit_game(self) -> None:
        await self.app_.action_quit()

    # -- keys and clicks -----------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A family's own actions (knock, declare, drop, ...) exist only in its games:
        elsewhere they are neither shown nor bound, and their keys select cards."""
        s = self.state
        buying = s.phase is Phase.BUY and self.match.my_turn
        if action in BUY_ACTIONS or action in DRAW_ACTIONS:
            return buying == (action in BUY_ACTIONS)
        if action in FAMILY_ACTIONS:
            return any(a.name == action for a in s.game.variant.actions())
        return True

    def on_key(self, event: events.Key) -> None:
        ch = event.character
        if not ch or len(ch) != 1 or ch not in CARD_KEYS or self.blocked:
            return
        if self.state.phase is Phase.BUY and ch in "bn":  # buy or pass, not cards
            return
        family_keys = {a.key for a in self.state.game.variant.actions()}
        if CARD_KEYS.index(ch) < len(self.order) or ch not in family_keys:
            # A key past the hand that the family binds is its action (k, n, b, x).
            event.stop()
            event.prevent_default()
            self.toggle(CARD_KEYS.index(ch))

    @on(HandView.CardClicked)
    def _card_clicked(self, event: HandView.CardClicked) -> None:
        self.cursor = event.index
        self.toggle(event.index)

    @on(TableView.MeldClicked)
    def _meld_clicked(self, event: TableView.MeldClicked) -> None:
        if len(self.selected) == 1:
            self.action_layoff(event.slot)
        else:
            self.set_message(_("Select one card, then click a meld to lay it off."), "hint")

    @on(PilesBar.PileClicked)
    def _pile_clicked(self, event: PilesBar.PileClicked) -> None:
        if self.state.phase is Phase.BUY:  # Contract Rummy: the discard is bought, not drawn
            if event.pile == "stock":
                self.set_message(_("Nobody draws now: buy the discard (b) or pass (n)."), "error")
            else:
                self.action_buy()
        elif event.pile == "stock":
            self.action_draw_stock()
        elif self.state.phase is Phase.DRAW or not self.match.my_turn:
            self.action_draw_pile()
        else:
            self.action_view_pile()


def _face(card: int) -> str:
    return card_text(card)
