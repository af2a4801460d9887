"""The Rummikub table screen: the table's sets, numbered, and a turn edited by keys.

A Rummikub turn is one move, the table's whole new arrangement; the person builds it
step by step here (:class:`~rummykit.tui.tiles.TurnEdit`: tiles moved between the
rack and the sets, sets split and joined, the turn reset) and submits it with Enter.
The engine judges the submitted arrangement; its refusal is shown and the edit kept.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widget import Widget

from ..bots.hints import suggest
from ..bots.review import decision_seed
from ..cards import JOKER, face_of
from ..errors import IllegalMoveError
from ..i18n import illegal_text, localize_cards
from ..moves import ARRANGE, DRAW_STOCK, PASS, Move
from .hand import HAND_ORDERS
from .lang import N_, _, _n, lang
from .screens import HelpScreen
from .session import JOKER_GLYPH, Match, arrange_clause, sort_cards
from .table_screen import TableScreen
from .tiles import TurnEdit, shape_of
from .widgets import CARD_CLASSES, CARD_STYLES, CardPainter

TILE_ACTIONS = frozenset(
    {
        "draw_stock", "hint", "sort", "help", "quit_game", "clear", "instant", "cursor",
        "toggle_cursor", "focus_set", "tile_cursor", "pick_tile", "move_tiles", "new_set",
        "split_set", "join_sets", "to_rack", "reset_turn", "submit",
    }
)  # fmt: skip
"""The table screen's actions a Rummikub turn uses (no pile, meld or discard)."""

TILE_KEYS_HELP: tuple[tuple[str, str], ...] = (
    ("1-9 0 a b e f …", N_("select or unselect a tile of your rack: the key shown above it")),
    (N_("← → space"), N_("move the rack cursor, select the tile under it")),
    (N_("↑ ↓"), N_("choose a set of the table (past the last: a new set)")),
    ("[ ]", N_("move the tile cursor in the chosen set")),
    ("t", N_("select or unselect the table tile under the cursor")),
    ("m", N_("move the selected tiles into the chosen set")),
    ("p", N_("put the selected tiles in a new set")),
    ("/", N_("split the chosen set before the tile cursor")),
    ("+", N_("join the chosen set and the next one")),
    ("d", N_("take the selected tiles placed this turn back to the rack")),
    (N_("Backspace"), N_("reset the turn: the table and rack as at its start")),
    (N_("Enter"), N_("submit the arrangement (the end of your turn)")),
    ("s", N_("draw a tile instead of playing")),
    (N_("c / Esc"), N_("clear the selection")),
    ("h", N_("hint: the play that takes the most points off your rack")),
    ("r", N_("show the rack by colour or by number")),
    ("i", N_("bots play instantly / at a readable pace")),
    ("? / F1", N_("this help")),
    ("q", N_("save the game and quit (rummy play --resume continues it)")),
)
"""The Rummikub screen's keys, for the help screen."""


class SetsView(Widget):
    """The table's sets as the person is arranging them: one per line, numbered, each
    marked valid (✓) or not (✗) by the engine's set check; the chosen set and the tile
    cursor in it are shown, selected tiles reversed."""

    COMPONENT_CLASSES: ClassVar[set[str]] = set(CARD_CLASSES)
    DEFAULT_CSS = "SetsView { height: auto; }\nSetsView {" + CARD_STYLES + "}"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.edit: TurnEdit | None = None
        self.focus_set = -1
        self.cursor = 0
        self.editing = False
        self.rows_shown = 0
        """The lines at the last :meth:`show` (the edit changes in place between shows)."""

    def show(self, edit: TurnEdit, focus_set: int, cursor: int, editing: bool) -> None:
        self.edit = edit
        self.focus_set = focus_set
        self.cursor = cursor
        self.editing = editing
        rows = self._rows()
        self.refresh(layout=rows != self.rows_shown)
        self.rows_shown = rows

    def _rows(self) -> int:
        """The lines drawn (one per set, or the empty table's, and the new set's): the
        widget's height, which alone asks for a layout of the screen."""
        e = self.edit
        if e is None:
            return 0
        return max(1, len(e.sets)) + (self.editing and self.focus_set >= len(e.sets))

    def render(self) -> Text:
        p = CardPainter(self)
        out = Text(no_wrap=True, overflow="crop")
        e = self.edit
        if e is None:
            return out
        if not e.sets:
            out.append(_("No sets on the table yet."), p.muted)
        for i, tiles in enumerate(e.sets):
            if i:
                out.append("\n")
            focused = self.editing and i == self.focus_set
            out.append("▶ " if focused else "  ", Style(bold=True))
            out.append(f"{i + 1:>2} ", p.muted)
            shape = shape_of(e.t, tiles)
            out.append("✓ " if shape is not None else "✗ ", p.hot if shape is not None else p.red)
            stands = []
            if shape is not None:
                sh = e.t.shapes[shape]
                stands = [f for k, f in enumerate(sh.cells) if sh.joker_cells >> k & 1]
            jokers = iter(stands)
            for k, c in enumerate(tiles):
                if k:
                    out.append(" ")
                face = face_of(c)
                text = Text()
                if face == JOKER:
                    said = next(jokers, -1)
                    if said >= 0:
                        p.cell(text, said, True)
                    else:
                        text.append(JOKER_GLYPH, p.joker)
                else:
                    p.cell(text, face, False)
                if c in e.selected:
                    text.stylize(p.selected)
                if focused and k == self.cursor:
                    text.stylize(Style(underline=True))
                out.append_text(text)
        if self.editing and self.focus_set >= len(e.sets):
            out.append("\n▶ " + _("(a new set)"), Style(bold=True))
        return out


class TilesScreen(TableScreen):
    """The table screen for Rummikub: the sets, the rack and the turn's editor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "draw_stock", N_("Draw")),
        Binding("enter", "submit", N_("Play tiles")),
        Binding("m", "move_tiles", N_("Move")),
        Binding("p", "new_set", N_("New set")),
        Binding("t", "pick_tile", N_("Table tile"), show=False),
        Binding("slash", "split_set", N_("Split")),
        Binding("plus", "join_sets", N_("Join")),
        Binding("d", "to_rack", N_("To rack"), show=False),
        Binding("backspace", "reset_turn", N_("Reset")),
        Binding("h", "hint", N_("Hint"), show=False),
        Binding("up", "focus_set(-1)", show=False, priority=True),
        Binding("down", "focus_set(1)", show=False, priority=True),
        Binding("left_square_bracket", "tile_cursor(-1)", show=False),
        Binding("right_square_bracket", "tile_cursor(1)", show=False),
    ]
    """The key bar shows the turn's steps; ``t`` (a table tile), ``d`` (back to the
    rack) and ``h`` (the hint) are in the help screen (``?``), to fit 80 columns."""

    def __init__(self, match: Match) -> None:
        super().__init__(match)
        self.edit = TurnEdit(match.state, match.human)
        self.edit_turn = (-1, -1)
        self.focus_set = 0
        self.tile_cursor = 0

    def table_widget(self) -> Widget:
        return SetsView(id="table")

    def on_mount(self) -> None:
        super().on_mount()
        if self.match.my_turn:
            self.set_message(
                _("Select rack tiles by their keys, a table set with ↑ ↓; ? for help.")
            )

    @property
    def editing(self) -> bool:
        return self.match.my_turn and not self.blocked

    def _sync_edit(self) -> None:
        """Start a fresh edit when a new turn of the person's begins (or the table
        changed under an edit that is not the person's turn)."""
        s = self.state
        key = (len(s.history), s.round_no)
        if key != self.edit_turn:
            self.edit_turn = key
            self.edit = TurnEdit(s, self.match.human)
            self.selected.clear()
            self.focus_set = len(self.edit.sets)
            self.tile_cursor = 0

    def shown_hand(self) -> int:
        self._sync_edit()
        return self.edit.rack

    def show_table(self) -> None:
        self._sync_edit()
        e = self.edit
        e.selected = {c for c in e.selected if not e.rack >> c & 1}
        self.focus_set = max(0, min(self.focus_set, len(e.sets)))
        size = len(e.sets[self.focus_set]) if self.focus_set < len(e.sets) else 0
        self.tile_cursor = max(0, min(self.tile_cursor, size - 1))
        self.query_one(SetsView).show(e, self.focus_set, self.tile_cursor, self.editing)
        sets = _n("{n} set", "{n} sets", len(e.sets))
        title = _("Table · {sets}", sets=sets)
        if e.changed:
            title += " · " + _("edited: Enter plays, Backspace resets")
        self.query_one("#table-box").border_title = title

    def refresh_all(self) -> None:
        super().refresh_all()
        box = self.query_one("#hand-box")
        tiles = _n("{n} tile", "{n} tiles", len(self.order))
        order = _("by number") if self.by_number else _("by colour")
        box.border_title = _("Your rack · {tiles} · {order} (r)", tiles=tiles, order=order)

    @property
    def by_number(self) -> bool:
        return self.app_.hand_order == HAND_ORDERS[1]

    def _ordered(self, hand: int, order: str) -> tuple[list[int], set[int], str]:
        """The rack by colour, or by number (no arranging into sets: the sets are built
        on the table)."""
        return sort_cards(hand, by_rank=self.by_number), set(), ""

    def action_sort(self) -> None:
        """The rack by colour, then by number, and round again (the app's hand order,
        its first two)."""
        self.app_.hand_order = HAND_ORDERS[0] if self.by_number else HAND_ORDERS[1]
        self.refresh_all()

    def _turn_advice(self) -> str:
        s = self.state
        if not s.opened[self.match.human]:
            return _(
                "your first play is new sets of your own tiles worth {n}+ points; "
                "arrange them and press Enter, or draw (s)",
                n=s.rules.opening_minimum,
            )
        if not s.stock:
            return _("arrange the table and press Enter, or pass (s): the pool is empty")
        return _("arrange the table and press Enter, or draw a tile (s)")

    def action_draw_stock(self) -> None:
        """Draw a tile; with the pool empty, pass (the rules' turn for a player who does
        not play then)."""
        if self._ready():
            self.try_move(Move(DRAW_STOCK) if self.state.stock else Move(PASS))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action in TILE_ACTIONS

    # -- the edit ------------------------------------------------------------------------
    def _editable(self) -> bool:
        if not self._ready():
            return False
        self._sync_edit()
        return True

    def _take_selection(self) -> None:
        """The rack's selected tiles join the edit's selected table tiles."""
        self.edit.selected |= set(self.selected)
        self.selected.clear()

    def action_focus_set(self, delta: int) -> None:
        self.focus_set = max(0, min(len(self.edit.sets), self.focus_set + delta))
        self.tile_cursor = 0
        self.refresh_all()

    def action_tile_cursor(self, delta: int) -> None:
        self.tile_cursor += delta
        self.refresh_all()

    def action_pick_tile(self) -> None:
        if not self._editable():
            return
        e = self.edit
        if self.focus_set >= len(e.sets):
            self.set_message(_("Choose a set of the table first (↑ ↓)."), "error")
            return
        card = e.sets[self.focus_set][self.tile_cursor]
        e.selected ^= {card}
        self.refresh_all()

    def action_move_tiles(self) -> None:
        self._move(self.focus_set)

    def action_new_set(self) -> None:
        self._move(None)

    def _move(self, target: int | None) -> None:
        if not self._editable():
            return
        self._take_selection()
        if not self.edit.selected:
            self.set_message(_("Select tiles first (rack keys, or t on the table)."), "error")
            return
        self.focus_set = self.edit.move_selected(target)
        self.set_message("")
        self.refresh_all()

    def action_split_set(self) -> None:
        if not self._editable():
            return
        if not self.edit.split(self.focus_set, self.tile_cursor):
            self.set_message(
                _("Put the tile cursor ([ ]) inside a set to split it before that tile."),
                "error",
            )
            return
        self.set_message("")
        self.refresh_all()

    def action_join_sets(self) -> None:
        if not self._editable():
            return
        if not self.edit.join(self.focus_set):
            self.set_message(_("Choose a set with another set after it to join them."), "error")
            return
        self.set_message("")
        self.refresh_all()

    def action_to_rack(self) -> None:
        if not self._editable():
            return
        self._take_selection()
        if not self.edit.to_rack():
            self.set_message(_("Only tiles placed this turn go back to the rack."), "error")
        self.refresh_all()

    def action_reset_turn(self) -> None:
        if not self._editable():
            return
        self.edit.reset()
        self.selected.clear()
        self.set_message(_("The turn is reset: the table and your rack as at its start."))
        self.refresh_all()

    def action_clear(self) -> None:
        self.edit.selected.clear()
        super().action_clear()

    def action_submit(self) -> None:
        """Play the arrangement: one move; a refusal keeps the edit and says why."""
        if not self._editable():
            return
        try:
            move = self.edit.move()
        except IllegalMoveError as exc:
            self.refused_rule = exc.rule
            reason = localize_cards(illegal_text(exc, lang()), lang())
            self.set_message(_("Not allowed: {reason}", reason=reason), "error")
            return
        self.try_move(move)

    def action_hint(self) -> None:
        """The hint the round's review grades best (:func:`~rummykit.bots.hints.suggest`,
        at the review's seed: the listed play that places the most points, the solver's
        as a rule), shown as the sets it leaves, or the draw when no play is legal.  It
        reads the view's legal list and runs no search, so it needs no worker."""
        if not self._editable():
            return
        s = self.state
        hint = suggest(s.view(self.match.human), seed=decision_seed(0, len(s.history)))
        if hint.move.kind == ARRANGE:
            text = arrange_clause(s, hint.move)
            self.set_message(_("Hint: {reason}", reason=text), "hint")
        else:
            self.set_message(_("Hint: no play fits; draw a tile (s)."), "hint")

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.state.rules, TILE_KEYS_HELP))
