"""A player's page and a leaderboard in a real browser (Chromium), in French: the
rating chart, a game abandoned by an opponent whose account was then deleted (shown
under the anonymous name, with its replay and record links), the player's own Review
link, and the table page saying who abandoned."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.web.account_routes import CSRF_HEADER, SESSION_COOKIE
from test_web_accounts import PASSWORD
from test_web_browser import CHROMIUM, browser, new_page
from test_web_players import rated_pair, server_settings
from web_helpers import ServerThread

__all__ = ["browser"]

pytestmark = [
    pytest.mark.web_slow,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium is not installed"),
]


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    db = Path(tempfile.mkdtemp()) / "web.db"
    with ServerThread(server_settings(db, abandon_grace=0.3)) as s:
        yield s


def test_a_player_s_page_in_french(server: ServerThread, browser: Any) -> None:
    webs, socks, table = rated_pair(server.base, timer=None)
    state = socks[0].state
    assert state is not None
    gone = state["game"]["current"]
    socks[gone].close()  # the leaver loses, past the grace
    socks[1 - gone].until(lambda m: m["type"] == "state" and m["table"]["abandoned"] is not None)
    socks[1 - gone].close()
    stays, leaver = ["Ann", "Bob"][1 - gone], ["Ann", "Bob"][gone]
    web = webs[gone]
    csrf = web.get("/api/account").json()["csrf"]
    r = web.post("/api/account/delete", json={"password": PASSWORD}, headers={CSRF_HEADER: csrf})
    assert r.status_code == 200, r.text

    page = new_page(browser, locale="fr-FR")
    page.goto(f"{server.base}/players/{stays}")
    page.wait_for_selector("#player-games")
    assert page.inner_text("#player-name") == stays
    assert page.locator("#chart-gin circle").count() == 1  # one rated result so far
    row = page.locator(f'#player-games tr[data-table="{table}"]')
    text = row.inner_text()
    assert f"Anonyme {gone + 1}" in text and leaver not in text
    assert "Gagnée" in text and "un joueur a abandonné" in text
    assert row.locator("a.replay").get_attribute("href") == f"/play/{table}"
    assert row.locator("a.record").get_attribute("href") == f"/api/tables/{table}/record"
    assert row.locator("a.review-link").count() == 0  # not the reader's own page
    assert page.inner_text("#no-opponents").startswith("Aucun adversaire")
    # signed in as the player: their own page links the review of their own seat
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": webs[1 - gone].cookies[SESSION_COOKIE],
          "url": server.base}]
    )  # fmt: skip
    page.goto(f"{server.base}/players/{stays}")
    page.wait_for_selector("#player-games")
    review = row.locator("a.review-link")
    assert review.get_attribute("href") == f"/play/{table}#seat={1 - gone}&review=1"
    assert page.locator("#my-page").count() == 0  # the lobby's panel is not on this page
    # the replay: the table page says who abandoned the match
    row.locator("a.replay").click()
    page.wait_for_url(f"**/play/{table}")
    page.wait_for_function("window.rummy && window.rummy.state")
    page.wait_for_selector("#status")
    assert page.inner_text("#status") == f"Anonyme {gone + 1} a abandonné : la partie est finie."
    # the leaderboard, chosen from the selector
    page.goto(f"{server.base}/leaderboard/rami51")
    page.wait_for_selector("#board-empty")
    page.select_option("#board-game", "gin")
    page.wait_for_url("**/leaderboard/gin")
    page.wait_for_selector("#leaderboard")
    assert page.locator("#leaderboard tbody tr").count() == 1
    assert stays in page.inner_text("#leaderboard")
    page.locator(f'#leaderboard a[href="/players/{stays}"]').click()
    page.wait_for_selector("#player-name")
    assert page.inner_text("#player-name") == stays
