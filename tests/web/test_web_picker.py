"""The front page's game picker in Debian's Chromium: a tile per game with its name,
its picture and one plain line, in English and French; its three ways to play (the
computer, a friend by link, quick pairing) by mouse and by keyboard; the custom table
folded away; the public tables below; a phone's width."""

from __future__ import annotations

from typing import Any

import httpx

import test_web_browser
from rummykit.i18n.games import PICKER
from test_web_browser import create, new_page, state
from web_helpers import ServerThread

pytestmark = test_web_browser.pytestmark
# the same module-scoped fixtures: this module gets a server and a browser of its own
server = test_web_browser.server
browser = test_web_browser.browser

TILES = (
    "[...document.querySelectorAll('.game-tile')].map((e) => [e.dataset.game,"
    " e.querySelector('.game-name').textContent, e.querySelector('.game-line').textContent,"
    " e.querySelectorAll('svg.game-pic rect').length])"
)


def tiles_of(server: ServerThread, lang: str) -> list[list[str]]:
    """Each front-page game's name, title and plain line, from the server's table."""
    presets = {p["name"]: p for p in httpx.get(f"{server.base}/api/presets?lang={lang}").json()}
    return [[n, presets[n]["title"], presets[n]["description"]] for n in PICKER]


def test_a_tile_per_game_with_its_name_and_line_in_english_and_french(
    server: ServerThread, browser: Any
) -> None:
    """Each main game is a tile with its name, a picture drawn in the page and its
    plain line, in the page's language; the custom table starts folded; the public
    tables come below it."""
    waiting = create(server, {"rules": "rami51", "public": True, "seats": [{}, {"open": True}]})
    for locale, lang, title in (
        ("en-US", "en", "Choose a game"),
        ("fr-FR", "fr", "Choisissez un jeu"),
    ):
        page = new_page(browser, locale=locale)
        page.goto(server.base + "/")
        page.wait_for_selector(".game-tile")
        assert page.inner_text("#picker h2") == title
        shown = page.evaluate(TILES)
        assert [row[:3] for row in shown] == tiles_of(server, lang)
        assert all(pictured >= 3 for *_, pictured in shown), shown  # three cards or tiles
        assert not any("seed" in name + line for _, name, line, _ in shown)
        assert page.locator(".game-tile .game-ways button").count() == 3 * len(PICKER)
        assert page.get_attribute("#custom", "open") is None
        assert page.locator("#create-btn").is_hidden()
        page.wait_for_selector(f'#tables [data-table="{waiting["id"]}"] .join')
        order = page.evaluate(
            "['#picker', '#pairing', '#custom', '#tables']"
            ".map((s) => document.querySelector(s).getBoundingClientRect().top)"
        )
        assert order == sorted(order), order
        page.context.close()
    names = {n: title for n, title, _ in tiles_of(server, "fr")}
    assert names["basic"] == "Rami simple" and names["gin_match"].startswith("Gin Rummy")


def test_the_picker_by_keyboard_alone_and_at_a_phones_width(
    server: ServerThread, browser: Any
) -> None:
    """Tab reaches every way to play of every tile, in reading order, with a visible
    focus; Enter on "against the computer" opens a table against a medium bot.  On a
    phone the tiles stack in one column and the page does not scroll sideways."""
    page = new_page(browser, width=390, height=844)
    page.goto(server.base + "/")
    page.wait_for_selector(".game-tile")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    lefts = page.evaluate(
        "[...document.querySelectorAll('.game-tile')].map((e) => e.getBoundingClientRect().left)"
    )
    assert len(set(lefts)) == 1, lefts
    page.focus("#my-name")
    reached = []
    for _ in range(3 * len(PICKER)):
        page.keyboard.press("Tab")
        reached.append(
            page.evaluate(
                "(() => { const e = document.activeElement; const s = getComputedStyle(e);"
                " return [e.closest('.game-tile').dataset.game, e.dataset.way,"
                " e.matches(':focus-visible') && s.outlineStyle !== 'none'"
                " && parseFloat(s.outlineWidth) > 0]; })()"
            )
        )
    assert reached == [[g, w, True] for g in PICKER for w in ("bots", "friend", "pair")]
    page.fill("#my-name", "Zoe")
    page.focus('[data-game="rami51"] .way-bots')
    page.keyboard.press("Enter")
    page.wait_for_function("window.rummy && window.rummy.state !== null", timeout=15000)
    seats = state(page)["table"]["seats"]
    assert [(s["kind"], s.get("difficulty")) for s in seats] == [
        ("human", None),
        ("bot", "medium"),
    ], seats
    assert seats[0]["name"] == "Zoe" and state(page)["game"]["rules"].startswith("rami51")
    page.context.close()


def test_against_the_computer_seats_as_few_bots_as_the_game_allows(
    server: ServerThread, browser: Any
) -> None:
    """Contract Rummy seats three at least: its tile's "against the computer" opens a
    table of the player and two medium bots, playing."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.click('[data-game="contract"] .way-bots')
    page.wait_for_url("**/play/**")
    page.wait_for_function("window.rummy && window.rummy.state !== null", timeout=15000)
    seats = state(page)["table"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot"], seats
    assert {s["difficulty"] for s in seats[1:]} == {"medium"}
    assert state(page)["game"]["rules"].startswith("contract")
    page.context.close()


def test_with_a_friend_shows_a_link_a_second_page_joins(server: ServerThread, browser: Any) -> None:
    """ "With a friend" makes a table with a seat for the friend and shows its
    invitation link in the tile; a second browser page opens the link, gives a name
    and takes that seat while the first goes to its own."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.fill("#my-name", "Ann")
    page.click('[data-game="gin_match"] .way-friend')
    page.wait_for_selector('[data-game="gin_match"] #picked #created-title')
    assert page.inner_text("#created-title") == "Table created: Gin Rummy, a game to 100"
    assert page.inner_text("#picked").count("Send your friend this invitation link") == 1
    assert page.evaluate("document.activeElement.id") == "created-title"
    link = page.input_value('[data-game="gin_match"] #invite-1')
    assert "/play/" in link and page.locator(".invite").count() == 1
    friend = new_page(browser, width=390, height=844)
    friend.goto(link)
    friend.wait_for_selector("#invite-game")
    assert friend.inner_text("#invite-game") == (
        "You are invited to a game of Gin Rummy, a game to 100 with Ann."
    )
    friend.fill("#invite-name", "Bob")
    friend.keyboard.press("Enter")
    page.click("#go")
    for p, seat in ((page, 0), (friend, 1)):
        p.wait_for_function(
            "window.rummy && window.rummy.state && window.rummy.state.game.seat >= 0"
        )
        assert state(p)["game"]["seat"] == seat
    page.wait_for_function("window.rummy.state.table.seats[1].name === 'Bob'")
    seats = state(page)["table"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "human"] and seats[0]["name"] == "Ann"
    assert state(page)["game"]["rules"].startswith("gin_match")
    # a game of three or more: the friend's seat, and a bot for the third
    page.goto(server.base + "/")
    page.click('[data-game="contract"] .way-friend')
    page.wait_for_selector('[data-game="contract"] #invite-1')
    table = (page.get_attribute("#go", "href") or "").split("/")[2].split("#")[0]
    info = httpx.get(f"{server.base}/api/tables/{table}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot"], info["seats"]
    friend.context.close()
    page.context.close()


def test_quick_pairing_from_a_tile_says_what_a_guest_gets(
    server: ServerThread, browser: Any
) -> None:
    """A tile's quick pairing seeks that game in the pairing panel, at a player count
    it seats, shown in view with its Cancel; a guest is told the game will be casual,
    and that signing in gives rated games."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("#pair-guest")  # visible
    assert "casual" in page.inner_text("#pair-guest") and "sign in" in page.inner_text(
        "#pair-guest"
    )
    page.select_option("#seek-players", "4")
    page.click('[data-game="gin_match"] .way-pair')  # Gin seats two: the count follows
    page.wait_for_selector("#seek-waiting")
    assert "Gin Rummy, a game to 100" in page.inner_text("#seek-waiting")
    assert page.input_value("#seek-players") == "2"
    page.wait_for_function("document.activeElement.id === 'seek-cancel'")
    page.wait_for_timeout(1500)  # a poll or more later, Cancel still has the focus
    assert page.evaluate("document.activeElement.id") == "seek-cancel"
    box = page.locator("#seek-cancel").bounding_box()  # in view, not below the fold
    assert box is not None and 0 <= box["y"] <= 800 - box["height"], box
    page.click("#seek-cancel")
    page.wait_for_selector("#seek-waiting", state="detached")
    page.context.close()
