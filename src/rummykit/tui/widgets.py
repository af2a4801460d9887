"""The widgets of the table: the hand, the melds, the piles, the players and the log.

Each widget draws itself from plain data handed to it (no game logic here) with
styles taken from Textual theme variables, so it reads on dark and light themes.
Clicks are mapped to cards, melds and piles from the positions recorded while drawing.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.visual import VisualType
from textual.widget import Widget
from textual.widgets import Static

from ..cards import JOKER, face_of
from .lang import _
from .session import JOKER_GLYPH, face_text, is_red

CARD_WIDTH = 4
"""Cells per card in the hand: ``10♥`` plus a space."""

CARD_CLASSES = (
    "card--red",
    "card--black",
    "card--joker",
    "card--muted",
    "card--selected",
    "card--hot",
)
CARD_STYLES = """
    & > .card--red { color: $text-error; }
    & > .card--black { color: $foreground; }
    & > .card--joker { color: $text-accent; text-style: bold; }
    & > .card--muted { color: $text-muted; }
    & > .card--selected { text-style: bold reverse; }
    & > .card--hot { color: $text-success; text-style: bold; }
"""
"""Component classes shared by the widgets that draw cards."""


class CardPainter:
    """Rich styles for cards, read from a widget's component classes."""

    def __init__(self, widget: Widget) -> None:
        self.red = widget.get_component_rich_style("card--red")
        self.black = widget.get_component_rich_style("card--black")
        self.joker = widget.get_component_rich_style("card--joker")
        self.muted = widget.get_component_rich_style("card--muted")
        self.selected = widget.get_component_rich_style("card--selected", partial=True)
        self.hot = widget.get_component_rich_style("card--hot")

    def face_style(self, face: int) -> Style:
        if face >= JOKER:
            return self.joker
        return self.red if is_red(face) else self.black

    def cell(self, text: Text, face: int, joker: bool) -> None:
        """Append a meld cell: the card, or a joker with the card it stands for."""
        if joker:
            text.append(JOKER_GLYPH, self.joker)
            text.append("(", self.muted)
            text.append(face_text(face), self.face_style(face))
            text.append(")", self.muted)
        else:
            text.append(face_text(face), self.face_style(face))


def cells_width(cells: Sequence[tuple[int, bool]]) -> int:
    width = 0
    for face, joker in cells:
        width += cell_len(face_text(face)) + (cell_len(JOKER_GLYPH) + 2 if joker else 0) + 1
    return max(0, width - 1)


def update_in_place(widget: Static, content: VisualType) -> None:
    """Show ``content`` in ``widget`` (as wide as its container, not its content), and
    lay the screen out again only when the content's height at the widget's width
    changes: a layout reflows the whole screen and recomposes nothing smaller, so
    it is most of what a move costs when it is done for a line whose size stays."""
    width = widget.content_size.width
    if not width:  # not laid out yet
        widget.update(content)
        return
    size = widget.size
    before = widget.get_content_height(size, size, width)
    widget.update(content, layout=False)
    if widget.get_content_height(size, size, width) != before:
        widget.refresh(layout=True)


GROUP_GAP = 2
"""Blank cells between the groups of an arranged hand (melds, then deadwood)."""


def hand_positions(n: int, starts: set[int], width: int) -> list[tuple[int, int]]:
    """``(row, x)`` of each of ``n`` cards laid left to right in rows of ``width``
    cells, with a gap before each position in ``starts`` (a group of an arranged
    hand); a row never begins with a gap.

    >>> hand_positions(5, {3}, 16)
    [(0, 0), (0, 4), (0, 8), (1, 0), (1, 4)]
    >>> hand_positions(4, {2}, 40)
    [(0, 0), (0, 4), (0, 10), (0, 14)]
    """
    out: list[tuple[int, int]] = []
    row = x = 0
    for i in range(n):
        if i in starts and x:
            x += GROUP_GAP
        if x and x + CARD_WIDTH > width:
            row += 1
            x = 0
        out.append((row, x))
        x += CARD_WIDTH
    return out


class HandView(Widget):
    """The player's hand: a key label over each card; click a card to select it.  An
    arranged hand shows its groups (melds, then deadwood) apart."""

    COMPONENT_CLASSES: ClassVar[set[str]] = set(CARD_CLASSES)
    DEFAULT_CSS = "HandView { height: auto; min-height: 2; }\nHandView {" + CARD_STYLES + "}"

    class CardClicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[int] = []
        self.labels: list[str] = []
        self.selected: set[int] = set()
        self.new_card = -1
        self.cursor = -1
        self.note = ""
        self.starts: set[int] = set()
        self.wild: set[int] = set()
        """Cards of the deal's wild rank (Indian Rummy): drawn as jokers, underlined."""

    def show(
        self,
        cards: Sequence[int],
        labels: Sequence[str],
        selected: set[int],
        new_card: int = -1,
        cursor: int = -1,
        note: str = "",
        starts: set[int] | None = None,
        wild: set[int] | None = None,
    ) -> None:
        shown = (self.cards, self.labels, self.selected, self.new_card, self.cursor, self.note,
                 self.starts, self.wild)  # fmt: skip
        asked = (list(cards), list(labels), set(selected), new_card, cursor, note,
                 set(starts or ()), set(wild or ()))  # fmt: skip
        if asked == shown:  # a move of another player: nothing to draw again
            return
        rows = self._rows()
        (self.cards, self.labels, self.selected, self.new_card, self.cursor, self.note,
         self.starts, self.wild) = asked  # fmt: skip
        self.refresh(layout=rows != self._rows())

    def _positions(self) -> list[tuple[int, int]]:
        width = self.content_size.width or 20 * CARD_WIDTH
        return hand_positions(len(self.cards), self.starts, max(CARD_WIDTH, width))

    def _rows(self) -> int:
        positions = self._positions()
        return positions[-1][0] + 1 if positions else 0

    def render(self) -> Text:
        p = CardPainter(self)
        if not self.cards:
            return Text(self.note or _("(no cards)"), p.muted)
        positions = self._positions()
        out = Text(no_wrap=True, overflow="crop")
        for row in range(positions[-1][0] + 1):
            if row:
                out.append("\n")
            chunk = [i for i, (r, _x) in enumerate(positions) if r == row]
            x = 0
            for i in chunk:
                out.append(" " * (positions[i][1] - x))
                x = positions[i][1] + CARD_WIDTH
                label = self.labels[i] if i < len(self.labels) else " "
                card = self.cards[i]
                style = p.hot if card in self.selected else p.muted
                mark = "*" if card == self.new_card else " "
                if i == self.cursor:
                    out.append("[", p.muted)
                    out.append(label, style)
                    out.append("]" + mark, p.muted)
                else:
                    out.append(f" {label}{mark} ", style)
            out.append("\n")
            x = 0
            for i in chunk:
                out.append(" " * (positions[i][1] - x))
                x = positions[i][1] + CARD_WIDTH
                card = self.cards[i]
                face = face_of(card)
                text = face_text(face)
                style = p.face_style(face)
                if card in self.wild:
                    style = p.joker + Style(underline=True)
                if card in self.selected:
                    style = style + p.selected
                out.append(text, style)
                out.append(" " * (CARD_WIDTH - cell_len(text)))
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for index, (row, x) in enumerate(self._positions()):
            if row == offset.y // 2 and x <= offset.x < x + CARD_WIDTH:
                self.post_message(self.CardClicked(index))
                return


@dataclass
class MeldInfo:
    slot: int
    owner: int
    cells: list[tuple[int, bool]]


class TableView(Widget):
    """The melds on the table, grouped by owner and numbered as in the records."""

    COMPONENT_CLASSES: ClassVar[set[str]] = set(CARD_CLASSES)
    DEFAULT_CSS = "TableView { height: auto; }\nTableView {" + CARD_STYLES + "}"

    class MeldClicked(Message):
        def __init__(self, slot: int) -> None:
            super().__init__()
            self.slot = slot

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.names: list[str] = []
        self.melds: list[MeldInfo] = []
        self.highlight: set[int] = set()
        self.empty_text = _("No melds on the table yet.")
        self._regions: list[tuple[int, int, int, int]] = []
        self.name_w = 0
        """Width of the owner column (where the first meld of a row starts)."""

    def show(self, names: Sequence[str], melds: Sequence[MeldInfo], highlight: set[int]) -> None:
        changed = list(melds) != self.melds or list(names) != self.names
        if not changed and highlight == self.highlight:
            return
        self.names = list(names)
        self.melds = list(melds)
        self.highlight = set(highlight)
        self.refresh(layout=changed)

    def render(self) -> Text:
        p = CardPainter(self)
        regions: list[tuple[int, int, int, int]] = []
        self._regions = regions
        if not self.melds:
            return Text(self.empty_text, p.muted)
        width = max(20, self.content_size.width or 60)
        name_w = self.name_w = min(8, max(cell_len(n) for n in self.names) + 1)
        out = Text(no_wrap=True, overflow="crop")
        y = 0
        first = True
        for owner, name in enumerate(self.names):
            mine = [m for m in self.melds if m.owner == owner]
            if not mine:
                continue
            if not first:
                out.append("\n")
                y += 1
            first = False
            label = name[: name_w - 1].ljust(name_w)
            out.append(label, Style(bold=True))
            x = name_w
            for m in mine:
                tag = f"{m.slot + 1}:"
                w = cell_len(tag) + cells_width(m.cells)
                if x > name_w and x + 2 + w > width:
                    out.append("\n" + " " * name_w)
                    y += 1
                    x = name_w
                elif x > name_w:
                    out.append("  ")
                    x += 2
                start = x
                tag_style = p.hot + p.selected if m.slot in self.highlight else p.muted
                out.append(tag, tag_style)
                for face, joker in m.cells:
                    out.append(" ")
                    p.cell(out, face, joker)
                x += w + 1
                regions.append((y, start, x, m.slot))
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for y, x0, x1, slot in self._regions:
            if offset.y == y and x0 <= offset.x < x1:
                self.post_message(self.MeldClicked(slot))
                return


class PilesBar(Widget):
    """The stock count and the discard pile, top card first; click either to draw."""

    COMPONENT_CLASSES: ClassVar[set[str]] = set(CARD_CLASSES)
    DEFAULT_CSS = "PilesBar { height: 1; }\nPilesBar {" + CARD_STYLES + "}"

    class PileClicked(Message):
        def __init__(self, pile: str) -> None:
            super().__init__()
            self.pile = pile

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.stock = 0
        self.discard: list[int] = []
        self.takeable: set[int] = set()
        self._split = 0

    def show(self, stock: int, discard: Sequence[int], takeable: Set[int] = frozenset()) -> None:
        """The piles; ``takeable``: the indices (0 = bottom) of the cards below the top
        that can be taken now (500 Rum's deep draw), marked as the top card is."""
        self.stock = stock
        self.discard = list(discard)
        self.takeable = set(takeable)
        self.refresh()

    def render(self) -> Text:
        p = CardPainter(self)
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(" " + _("pile|Stock") + " ", p.muted)
        out.append(f"{self.stock:>3}", Style(bold=True))
        out.append(" │ ", p.muted)
        self._split = cell_len(out.plain)
        out.append(_("pile|Discard") + " ", p.muted)
        if not self.discard:
            out.append(_("empty"), p.muted)
            return out
        top = face_of(self.discard[-1])
        out.append(f" {face_text(top)} ", p.face_style(top) + p.selected)
        rest = self.discard[:-1]
        if rest:
            out.append("  " + _("below ({n}):", n=len(rest)) + " ", p.muted)
            for k, card in enumerate(reversed(rest)):
                if k:
                    out.append(" ")
                f = face_of(card)
                if len(rest) - 1 - k in self.takeable:  # shown as the top card is: takeable
                    out.append(f"▸{face_text(f)}", p.face_style(f) + p.selected)
                else:
                    out.append(face_text(f), p.face_style(f))
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        self.post_message(self.PileClicked("stock" if offset.x < self._split else "discard"))


@dataclass
class SeatInfo:
    name: str
    label: str
    cards: int
    score: int
    current: bool
    dealer: bool
    opened: bool


class PlayersView(Widget):
    """Each player's card count and score; the player to act is marked."""

    COMPONENT_CLASSES: ClassVar[set[str]] = set(CARD_CLASSES)
    DEFAULT_CSS = "PlayersView { height: auto; }\nPlayersView {" + CARD_STYLES + "}"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.seats: list[SeatInfo] = []
        self.show_opened = False

    def show(self, seats: Sequence[SeatInfo], show_opened: bool) -> None:
        layout = len(seats) != len(self.seats)
        self.seats = list(seats)
        self.show_opened = show_opened
        self.refresh(layout=layout)

    def render(self) -> Text:
        p = CardPainter(self)
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(_("  player          cards  score"), p.muted)
        for s in self.seats:
            out.append("\n")
            style = p.hot if s.current else Style()
            out.append("▶ " if s.current else "  ", style)
            out.append(f"{s.name[:7]:<7}", style + Style(bold=True))
            tag = s.label[:6]
            out.append(f" {tag:<6} ", p.muted)
            flags = ("D" if s.dealer else " ") + ("✓" if self.show_opened and s.opened else " ")
            out.append(flags, p.muted)
            out.append(f"{s.cards:>3} {s.score:>6}")
        return out


class LogView(VerticalScroll):
    """The move log, newest at the bottom."""

    DEFAULT_CSS = """
    LogView { height: 1fr; }
    LogView > Static { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="log-text")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[int, tuple[int, str] | None] = (0, None)

    def show(self, lines: Sequence[tuple[int, str]], me: int) -> None:
        key = (len(lines), lines[-1] if lines else None)
        if key == self._shown:
            return
        self._shown = key
        text = Text()
        for k, (seat, line) in enumerate(lines):
            if k:
                text.append("\n")
            if seat < 0:
                text.append(line, Style(italic=True, dim=True))
            elif seat == me:
                text.append(line, Style(bold=True))
            else:
                text.append(line)
        self.query_one("#log-text", Static).update(text)
        self.scroll_end(animate=False)
