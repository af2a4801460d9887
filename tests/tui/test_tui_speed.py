"""What a move costs the terminal game: a move that changes no line's height does not
lay the screen out again, and one that changes no key does not recompose the key bar
(each reflows the whole screen: most of a move's cost at a big table)."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from rummykit.tui.app import TableScreen
from rummykit.tui.screens import RoundSummaryScreen
from rummykit.tui.widgets import update_in_place
from test_tui import SIZE, _footer_text, play_round, start, sync, wait_until


class OneLine(App[None]):
    CSS = "Static { width: 20; height: auto; }"

    def compose(self) -> ComposeResult:
        yield Static("first", id="line")


@sync
async def test_a_line_of_the_same_height_is_updated_without_a_layout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layouts: list[str | None] = []
    real = Widget.refresh

    def spy(widget: Widget, *regions: Any, layout: bool = False, **kw: Any) -> Widget:
        if layout:
            layouts.append(widget.id)
        return real(widget, *regions, layout=layout, **kw)

    app = OneLine()
    async with app.run_test(size=(40, 10)) as pilot:
        line = app.query_one("#line", Static)
        await pilot.pause()
        monkeypatch.setattr(Widget, "refresh", spy)
        update_in_place(line, Text("second"))
        await pilot.pause()
        assert "line" not in layouts and str(line.render()) == "second"
        assert line.size.height == 1
        update_in_place(line, Text("a line too long for twenty cells"))  # wraps: two lines
        await pilot.pause()
        assert "line" in layouts
        assert line.size.height == 2


@sync
async def test_a_deal_recomposes_the_key_bar_only_when_its_keys_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A whole deal at four seats: the game asks for a layout at most once a move for
    the log's new line and seldom for anything else, not once per line, title and key
    bar; the key bar is refreshed when its keys change, a few times a deal, and shows
    them in the next deal.  The layouts the game asks for are counted, not the passes
    Textual makes of them: how many requests one pass serves depends on the timing."""
    asked: list[str | None] = []
    layouts = 0
    bindings = 0
    real_refresh = Widget.refresh
    real_layout = Screen._refresh_layout
    real_bindings = Screen.refresh_bindings

    def spy(widget: Widget, *regions: Any, layout: bool = False, **kw: Any) -> Widget:
        if layout and "rummykit" in sys._getframe(1).f_code.co_filename:
            asked.append(widget.id)
        return real_refresh(widget, *regions, layout=layout, **kw)

    def count_layout(screen: Screen[Any], *args: Any, **kw: Any) -> None:
        nonlocal layouts
        layouts += isinstance(screen, TableScreen)
        real_layout(screen, *args, **kw)

    def count_bindings(screen: Screen[Any]) -> None:
        nonlocal bindings
        bindings += isinstance(screen, TableScreen)
        real_bindings(screen)

    monkeypatch.setattr(Widget, "refresh", spy)
    monkeypatch.setattr(Screen, "_refresh_layout", count_layout)
    monkeypatch.setattr(Screen, "refresh_bindings", count_bindings)
    app = start("basic(deals=2)", players=4, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert "Stock" in _footer_text(app) and "Help" in _footer_text(app)
        asked.clear()
        await play_round(pilot, app)
        assert isinstance(app.screen, RoundSummaryScreen)
        assert app.match is not None
        moves = len(app.match.state.history)
        assert moves > 40
        log_lines = asked.count("log-text")
        assert log_lines <= moves, (log_lines, moves)
        assert len(asked) - log_lines < moves // 4, (asked, moves)
        assert layouts < 2 * moves, (layouts, moves)
        assert bindings < 10, (bindings, moves)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert "Stock" in _footer_text(app) and "Quit" in _footer_text(app)
