"""Quick pairing in a real browser (Chromium): two players sign up in two browsers
(one in French), one seeks a Gin game, waits (the indicator), cancels and seeks
again; the other seeks; both pages go to their seats at one rated table, each under
their own account, play the hand to its end by clicks, and see their ratings change
as openskill computes; one deletes the account from the page, and the other's page
names that seat anonymously.  A guest's seek, with a bot, is a casual game, rated
for nobody, and the panel says what the medium bot's rating is."""

from __future__ import annotations

import sqlite3
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

import test_web_browser
from rummykit.rules import Rules
from rummykit.web import Settings
from rummykit.web.ratings import bot_ratings, places, shown
from test_web_browser import browser, my_turn, new_page, play_turn_by_clicks, state
from web_helpers import ServerThread

__all__ = ["browser"]

pytestmark = test_web_browser.pytestmark


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    db = Path(tempfile.mkdtemp()) / "web.db"
    settings = Settings(
        database_url=f"sqlite:///{db}", bot_delay=0.05, password_time_cost=1,
        password_memory_kib=1024, password_parallelism=1, pair_every=0.2,
        pair_bot_after=1.0,
    )  # fmt: skip
    with ServerThread(settings) as s:
        yield s


def rated_rows(server: ServerThread, table: str) -> list[Any]:
    db = server.server.config.app.state.manager.settings.database_url.removeprefix("sqlite:///")  # type: ignore[attr-defined]
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT result FROM rated_matches WHERE table_id = ?", (table,)
        ).fetchall()


def play_by_clicks(pages: list[Any], timeout: float = 240) -> dict[str, Any]:
    """Each page plays its turns by clicks (test_web_browser's way) until the hand is
    over on all of them; the last page's final state."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(state(p)["game"]["phase"] == "over" for p in pages):
            return state(pages[-1])
        acted = False
        for p in pages:
            if my_turn(p):
                play_turn_by_clicks(p)
                acted = True
        if not acted:
            pages[0].wait_for_timeout(30)
    raise AssertionError(f"the hand did not end: {[state(p)['game']['phase'] for p in pages]}")


def account_of(page: Any) -> dict[str, Any]:
    got: dict[str, Any] = page.evaluate("fetch('/api/account').then((r) => r.json())")
    return got


def signed_up(browser: Any, server: ServerThread, name: str, locale: str) -> Any:
    page = new_page(browser, locale=locale)
    page.goto(server.base + "/")
    page.wait_for_selector("#account-form")
    page.fill("#account-username", name)
    page.fill("#account-password", "a long enough secret")
    page.click("#sign-up")
    page.wait_for_selector("#signed-in-as")
    return page


def test_two_browsers_quick_pair_at_gin_into_one_rated_table(
    server: ServerThread, browser: Any
) -> None:
    ann = signed_up(browser, server, "Ann", "fr-FR")
    assert ann.inner_text("#pairing h2") == "Partie rapide"
    assert ann.is_disabled('#pairing button[data-game="rami51"]') is False
    ann.select_option("#seek-players", "3")
    assert ann.is_disabled('#pairing button[data-game="gin"]')  # Gin seats two
    ann.select_option("#seek-players", "2")
    ann.click('#pairing button[data-game="gin"]')
    ann.wait_for_selector("#seek-waiting")
    assert ann.inner_text("#seek-waiting").strip().startswith("Recherche d'adversaires pour Gin")
    assert ann.is_disabled('#pairing button[data-game="gin"]')
    ann.click("#seek-cancel")
    ann.wait_for_selector("#seek-waiting", state="detached")
    ann.click('#pairing button[data-game="gin"]')
    ann.wait_for_selector("#seek-waiting")
    bob = signed_up(browser, server, "Bob", "en-US")
    assert bob.inner_text("#pairing h2") == "Quick pairing"
    bob.click('#pairing button[data-game="gin"]')
    tables = []
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        page.wait_for_url("**/play/**", timeout=15_000)
        page.wait_for_function("window.rummy && window.rummy.state")
        state = page.evaluate("window.rummy.state")
        seats = state["table"]["seats"]
        assert sorted(s["name"] for s in seats) == ["Ann", "Bob"]
        assert all(s["account"] is True for s in seats)
        assert state["table"]["rated"] is True
        assert seats[state["game"]["seat"]]["name"] == name
        tables.append(state["table"]["id"])
    assert tables[0] == tables[1]
    table = tables[0]
    # the hand, played to its end through both pages
    end = play_by_clicks([ann, bob])
    seat = {
        name: p.evaluate("window.rummy.state.game.seat") for p, name in ((ann, "Ann"), (bob, "Bob"))
    }
    ranks = places(Rules.preset("gin"), end["game"]["scores"])
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
    for _ in range(50):  # the result is applied as the last move is stored
        if rated_rows(server, table):
            break
        time.sleep(0.1)
    assert len(rated_rows(server, table)) == 1
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        after = expected[seat[name]][0]
        got = account_of(page)["account"]["ratings"]["gin"]
        assert got["games"] == 1
        assert got["mu"] == pytest.approx(after.mu) and got["sigma"] == pytest.approx(after.sigma)
        assert got["rating"] == shown(after.mu, after.sigma) != shown(25.0, 25.0 / 3)
        # and the player sees it: the lobby's account panel, then their own page
        page.goto(server.base + "/")
        page.wait_for_selector('#ratings li[data-game="gin"]')
        assert f"{got['rating']:.1f}" in page.inner_text('#ratings li[data-game="gin"]')
        page.goto(f"{server.base}/players/{name}")
        page.wait_for_selector('#player-ratings [data-game="gin"] .rating-now')
        assert page.inner_text('#player-ratings [data-game="gin"] .rating-now').startswith(
            f"{got['rating']:.1f}"
        )
    # Bob deletes his account from the lobby's panel; Ann's page names his seat anonymously
    bob.goto(server.base + "/")
    bob.wait_for_selector("#delete-form", state="attached")
    bob.click("#account details > summary")  # the account's settings, folded
    bob.fill("#delete-password", "a long enough secret")
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.click("#delete-form button[type=submit]")
    bob.wait_for_selector("#account-form")
    assert bob.inner_text("#account-note") == "The account was deleted."
    ann.goto(f"{server.base}/players/Ann")
    ann.wait_for_selector(f'#player-games tr[data-table="{table}"]')
    row = ann.inner_text(f'#player-games tr[data-table="{table}"]')
    assert "Bob" not in row and f"Anonyme {seat['Bob'] + 1}" in row  # Ann's page is French
    assert ann.locator("#no-opponents").count() == 1  # nobody to keep a score against


def test_a_guest_plays_a_casual_game_with_a_bot(server: ServerThread, browser: Any) -> None:
    """A guest's seek, with a bot after a wait: a casual table, which no result rates;
    the panel gives the medium bot's fixed rating at Gin."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("#account-form")
    assert page.locator("#pair-guest").is_visible()
    medium = next(b for b in bot_ratings("gin") if b["difficulty"] == "medium")
    page.wait_for_function("document.querySelector('#seek-bot-rating').textContent !== ''")
    gin = page.inner_text('#pairing button[data-game="gin"]')  # the game's title
    assert f"{gin} {medium['rating']:.1f}" in page.inner_text("#seek-bot-rating")
    page.check("#seek-bot")
    page.click('#pairing button[data-game="gin"]')
    page.wait_for_url("**/play/**", timeout=15_000)
    page.wait_for_function("window.rummy && window.rummy.state")
    table = state(page)["table"]
    assert table["rated"] is False
    assert [s["kind"] for s in table["seats"]].count("bot") == 1
    end = play_by_clicks([page])
    assert end["game"]["phase"] == "over"
    assert account_of(page)["account"] is None
    assert rated_rows(server, table["id"]) == []  # nobody's rating changed
