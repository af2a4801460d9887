"""A player's page and a leaderboard in a real browser (Chromium), in French: the
rating chart, a game abandoned by an opponent whose account was then deleted (shown
under the anonymous name, with its replay and record links), the player's own Review
link, and the table page saying who abandoned; then a finished rated hand's Review
link, which opens the player's own seat with no link and works out the review."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import test_web_browser
from rummykit.web.account_routes import CSRF_HEADER, SESSION_COOKIE
from rummykit.web.ratings import bot_ratings
from test_web_accounts import PASSWORD
from test_web_browser import browser, new_page
from test_web_players import rated_pair, server_settings
from web_helpers import Client, ServerThread

__all__ = ["browser"]

pytestmark = test_web_browser.pytestmark


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    db = Path(tempfile.mkdtemp()) / "web.db"
    settings = server_settings(db, abandon_grace=0.3, review_budget=4, review_max_decisions=8)
    with ServerThread(settings) as s:
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
    # below the players, what each bot level's fixed rating is at the game
    for bot in bot_ratings("gin"):
        row = page.locator(f'#board-bots tr[data-bot="{bot["difficulty"]}"]')
        assert row.locator(".bot-rating").inner_text() == f"{bot['rating']:.1f}"
    assert page.inner_text('#board-bots tr[data-bot="medium"]').startswith("Le robot moyen")
    assert "parties entre robots" in page.inner_text("#board-bots")
    page.locator(f'#leaderboard a[href="/players/{stays}"]').click()
    page.wait_for_selector("#player-name")
    assert page.inner_text("#player-name") == stays


def play_out(socks: list[Client]) -> dict[str, Any]:
    """Both seats play their first legal move in turn until the match is over; the
    last state."""
    for _ in range(2000):
        state = socks[0].state
        assert state is not None
        if state["game"]["phase"] == "over":
            return state
        version = state["version"]
        mine = socks[state["game"]["current"]]
        assert mine.state is not None and mine.state["version"] == version
        move = {"kind": "text", "text": mine.state["game"]["legal"][0]["text"]}
        mine.send({"type": "move", "version": version, "move": move})
        for sock in socks:
            sock.until(lambda m, v=version: m["type"] == "state" and m["version"] > v)
    raise AssertionError("the match did not end")


def test_the_review_link_opens_the_own_seat_and_its_review(
    server: ServerThread, browser: Any
) -> None:
    webs, socks, table = rated_pair(server.base, timer=None, names=("Cleo", "Dan"))
    end = play_out(socks)
    for sock in socks:
        sock.close()
    page_json = webs[1].get("/api/players/Dan").json()
    (g,) = page_json["games"]
    assert g["table"] == table and g["rating_change"] is not None
    assert [p["score"] for p in g["players"]] == end["game"]["scores"]
    page = new_page(browser)
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": webs[1].cookies[SESSION_COOKIE], "url": server.base}]
    )
    page.goto(f"{server.base}/players/Dan")
    page.wait_for_selector("#player-games")
    assert page.locator("#chart-gin circle").count() == 1
    assert page.inner_text("#player-opponents").count("Cleo") == 1
    page.locator(f'#player-games tr[data-table="{table}"] a.review-link').click()
    page.wait_for_url(f"**/play/{table}#seat=1&review=1")
    page.wait_for_function("window.rummy && window.rummy.state")
    assert page.evaluate("window.rummy.state.game.seat") == 1  # the account's own seat
    page.wait_for_selector("#review-title", timeout=60_000)
    assert page.inner_text("#review-title") == "Your review of round 1"
