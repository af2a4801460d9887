"""What the end of a round and of a match show: each player's hand laid
out as the melds it holds and its deadwood with the points every card counts, the
melds laid in a knock game, the score of every round so far and a chart of the
running totals.

Plain Rich renderables built from the state, so the screens only place them.

>>> from rummykit.bots import GreedyBot, play_match
>>> final, _ = play_match("basic(deals=2)", ["Ann", "Bob"], [GreedyBot(), GreedyBot()], seed=3)
>>> running_totals(final.results, 2)
[[0, 0, 4], [0, 2, 2]]
>>> print(totals_chart(final.results, final.names).plain)
Ann ▁▁█      4
Bob ▁▅▅      2
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from ..bots.review import sparkline
from ..cards import face_of, is_joker, mask_of
from ..i18n import note_text
from ..scoring import RoundResult
from ..state import GameState
from ..table import TableMeld
from ..variants.indian import is_wild
from .hand import round_layout, stand_ins
from .lang import _, _n, lang
from .session import cells_text, face_text, is_red, table_cells
from .widgets import CARD_WIDTH, hand_positions

HAND_WIDTH = 60
"""Cells for a laid-out hand in a round's summary (the dialog fits 80 columns)."""
RED = Style(color="red")
WILD = Style(bold=True, underline=True)


def card_rows(
    state: GameState, cards: Sequence[int], width: int = HAND_WIDTH, wild: int = -1
) -> Text:
    """``cards`` arranged into the melds they hold, then the deadwood, each card over
    the points it counts; rows of at most ``width`` cells, a gap between groups, as
    the family lays the hand out (:func:`round_layout`).  Jokers and wild cards
    (``wild``: the deal's cut, if any) are underlined, and a last line says what each
    one in a meld plays as."""
    lay = round_layout(state, mask_of(cards), wild)
    order = lay.order
    positions = hand_positions(len(order), lay.starts, width)
    out = Text()
    for row in range(positions[-1][0] + 1 if positions else 0):
        faces, points = Text(), Text()
        x = 0
        for card, value, (r, at) in zip(order, lay.values, positions, strict=True):
            if r != row:
                continue
            gap = " " * (at - x)
            face = face_of(card)
            shown = face_text(face)
            wide = cell_len(shown)
            faces.append(gap)
            style = RED if is_red(face) else Style()
            if is_joker(card) or is_wild(card, wild):
                style += WILD
            faces.append(shown, style)
            faces.append(" " * (CARD_WIDTH - wide))
            points.append(gap + str(value).rjust(wide))
            points.append(" " * (CARD_WIDTH - wide))
            x = at + CARD_WIDTH
        if row:
            out.append("\n")
        faces.rstrip()
        out.append_text(faces)
        out.append("\n")
        out.append(points.plain.rstrip(), Style(dim=True))
    notes = [stand_ins(lay)]
    if not lay.valid:
        notes.append(_("(no two sequences with a pure one: every card counts)"))
    if any(notes):
        out.append("\n" + " ".join(n for n in notes if n), Style(italic=True))
    return out


def round_details(
    state: GameState,
    result: RoundResult,
    names: Sequence[str],
    totals: Sequence[int],
    laid: Sequence[TableMeld] = (),
) -> Text:
    """Per player: the round's points, the total, the notes, the melds laid (a knock
    game's hand ends with them on the table) and the cards left laid out, each with
    the points it counts (they all count, melds held in hand included)."""
    out = Text()
    for p, ps in enumerate(result.players):
        if p:
            out.append("\n\n")
        star = " ★" if result.winner == p else ""
        out.append(f"{names[p]}{star}", Style(bold=True))
        played = ps.delta - ps.bonus  # the match-end bonus is shown apart
        out.append(_("  round {delta} · total {total}", delta=f"{played:+d}", total=totals[p]))
        if ps.bonus:
            out.append(f" · {_('bonus')} {ps.bonus:+d}")
        if ps.notes:
            notes = "; ".join(note_text(n, lang()) for n in ps.notes)
            out.append(" · " + notes, Style(italic=True))
        mine = [tm for tm in laid if tm.owner == p]
        if mine:
            melds = "  ".join(cells_text(table_cells(state, tm)) for tm in mine)
            out.append("\n" + _("laid: {melds}", melds=melds))
        if not ps.cards:
            out.append("\n" + _("no cards left"), Style(dim=True))
            continue
        left = _n("{n} card left", "{n} cards left", len(ps.cards))
        out.append("\n" + _("{left}, {points} points:", left=left, points=ps.hand_points) + "\n")
        out.append_text(card_rows(state, ps.cards, wild=result.wild))
    return out


def running_totals(results: Sequence[RoundResult], players: int) -> list[list[int]]:
    """Per player, the total before the first round and after each round."""
    series = [[0] for _ in range(players)]
    for r in results:
        for p in range(players):
            series[p].append(series[p][-1] + r.players[p].delta)
    return series


def score_history(
    results: Sequence[RoundResult], names: Sequence[str], final: Sequence[int] | None = None
) -> Table:
    """Every round's points per player, the running total under each, and the match
    bonuses (``PlayerScore.bonus``, and anything else by which ``final``, the match
    scores, differs from the rounds) as a row of their own: the rows add up."""
    t = Table(padding=(0, 1), title=_("Score by round"), title_justify="left")
    t.add_column(_("round"), justify="right")
    for name in names:
        t.add_column(name, justify="right", no_wrap=True)
    n = len(names)
    totals = [0] * n
    bonus = [0] * n
    for r in results:
        cells = []
        for p in range(n):
            ps = r.players[p]
            totals[p] += ps.delta - ps.bonus
            bonus[p] += ps.bonus
            cells.append(f"{ps.delta - ps.bonus:+d} → {totals[p]}")
        t.add_row(str(r.round_no), *cells)
    end = [totals[p] + bonus[p] for p in range(n)] if final is None else list(final)
    if end != totals:
        t.add_row(_("bonus"), *(f"{end[p] - totals[p]:+d} → {end[p]}" for p in range(n)))
    return t


def totals_chart(results: Sequence[RoundResult], names: Sequence[str]) -> Text:
    """A sparkline of each player's running total, all on one scale (so the lines
    compare), with the total at the end."""
    series = running_totals(results, len(names))
    line = sparkline([v for s in series for v in s])
    n = len(series[0])
    width = max(len(name) for name in names)
    out = Text()
    for p, name in enumerate(names):
        if p:
            out.append("\n")
        out.append(f"{name:<{width}} ", Style(bold=True))
        out.append(line[p * n : (p + 1) * n])
        out.append(f" {series[p][-1]:>6}")
    return out


def history_block(
    results: Sequence[RoundResult], names: Sequence[str], final: Sequence[int] | None = None
) -> RenderableType:
    """The score history and the chart of running totals, one under the other."""
    chart = Text(_("Running totals") + "\n", style=Style(bold=True))
    chart.append_text(totals_chart(results, names))
    return Group(score_history(results, names, final), Text(""), chart)
