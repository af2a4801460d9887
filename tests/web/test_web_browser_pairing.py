"""Quick pairing in a real browser (Chromium): two players sign up in two browsers
(one in French), one seeks a Gin game, waits (the indicator), cancels and seeks
again; the other seeks; both pages go to their seats at one rated table, each under
their own account."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import test_web_browser
from rummykit.web import Settings
from test_web_browser import browser, new_page
from web_helpers import ServerThread

__all__ = ["browser"]

pytestmark = test_web_browser.pytestmark


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    db = Path(tempfile.mkdtemp()) / "web.db"
    settings = Settings(
        database_url=f"sqlite:///{db}", bot_delay=0.05, password_time_cost=1,
        password_memory_kib=1024, password_parallelism=1, pair_every=0.2,
    )  # fmt: skip
    with ServerThread(settings) as s:
        yield s


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
