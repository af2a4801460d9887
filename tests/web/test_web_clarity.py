"""What a player reads on the web page (issue 28, at the table, findings 6, 9 and 10),
in Debian's Chromium: why a greyed button is greyed, in the page's language; 500 Rum's
deep draw said and marked; and the games by their names, never a preset's id, a seed
citation or a rule code."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx

import test_web_browser
from rummykit.i18n import DEEP_DRAW
from test_web_browser import (
    create,
    custom_table,
    my_turn,
    new_page,
    play_turn_by_clicks,
    stalled,
    state,
    wait_version,
)
from web_helpers import ServerThread

pytestmark = test_web_browser.pytestmark
server = test_web_browser.server
browser = test_web_browser.browser

MESSAGES = Path(__file__).resolve().parents[2] / "src/rummykit/web/static/messages.js"
BOT = {"kind": "bot", "difficulty": "easy"}
JARGON = re.compile(r"seed \d|\[rule|rule:|_pool|rum500|indian_")


def wait_my_turn(page: Any, phase: str = "draw", seconds: float = 60) -> None:
    page.wait_for_function(
        "(() => { const s = window.rummy.state; if (!s) return false; const g = s.game;"
        f" return g.current === g.seat && g.phase === '{phase}' && g.legal.length > 0; }})()",
        timeout=seconds * 1000,
    )


def test_greyed_buttons_say_why_in_the_pages_language(server: ServerThread, browser: Any) -> None:
    """Before the draw, Meld, Lay off and Discard are greyed and say why, as the
    terminal does (seed 001: "To begin your turn, you must draw a card"): the reason is
    each button's tooltip and a line under the buttons, in English or French, with no
    rule code or seed citation.  A refused move's error has none either."""
    for locale, reason, line in (
        (
            "en-US",
            "a turn starts by drawing a card",
            "Meld, Lay off, Discard: a turn starts by drawing a card",
        ),
        (
            "fr-FR",
            "un tour commence par piocher une carte",
            "Poser, Ajouter, Défausser : un tour commence par piocher une carte",
        ),
    ):
        t = create(server, {"rules": "basic", "seats": [{"kind": "human", "name": "Ann"}, BOT]})
        page = new_page(browser, locale=locale)
        page.goto(server.base + t["seats"][0]["link"])
        wait_my_turn(page)
        for button in ("#btn-meld", "#btn-layoff", "#btn-discard"):
            assert page.locator(button).is_disabled()
            assert page.get_attribute(button, "title") == reason, button
            assert page.get_attribute(button, "data-rule") == "draw_first"
        assert page.inner_text("#why-not") == line
        # a move the page would not offer, sent anyway: the error is as plain
        v = state(page)["version"]
        page.evaluate(
            "v => window.rummy.ws.send(JSON.stringify({type: 'move', version: v, move:"
            " {kind: 'discard', card: window.rummy.state.game.hand[0]}}))",
            v,
        )
        page.wait_for_function("document.querySelector('#error').textContent !== ''")
        assert page.inner_text("#error") == reason
        page.click("#stock")
        wait_version(page, v)
        # after the draw, Discard is free and says nothing; the line names only what is greyed
        assert page.locator("#btn-discard").is_enabled()
        assert page.get_attribute("#btn-discard", "title") != reason
        assert "Discard" not in page.inner_text("#why-not").replace("Défausser", "")
        assert not JARGON.search(page.inner_text("#why-not"))
        page.close()


def test_a_rum500_deep_draw_said_marked_logged_and_explained(
    server: ServerThread, browser: Any
) -> None:
    """500 Rum (HowStuffWorks, "How to Play 500 Rum": a card deep in the pile is taken
    with every card above it, and must be melded or laid off at once).  The status line
    says which pile cards can be taken, each takeable card stands out (ringed, raised
    and badged with the cards that come with it, the others dimmed), the log reads
    "took J♣ and the 2 cards above it" as the terminal does, and Discard, greyed until
    the card is used, says to use it first."""
    t = create(server, {"rules": "rum500", "seats": [{"kind": "human", "name": "Ann"}, BOT]})
    page = new_page(browser)
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_function("window.rummy.state !== null")
    deadline = time.monotonic() + 180
    deep: list[dict[str, Any]] = []
    while time.monotonic() < deadline and state(page)["game"]["phase"] != "over":
        if not page.locator("#summary").get_attribute("class").count("hidden"):
            page.keyboard.press("Escape")
        elif my_turn(page):
            g = state(page)["game"]
            deep = [m for m in g["legal"] if m["kind"] == "draw_deep"]
            if deep and g["phase"] == "draw":
                break
            play_turn_by_clicks(page)
        else:
            page.wait_for_timeout(30)
    assert deep, stalled(server, t["id"], page)
    g = state(page)["game"]
    count = min(m["count"] for m in deep)
    pile = g["discard"]
    face = page.evaluate(
        "n => { const c = window.rummy.state.game.discard; const f = c[c.length - n] % 54;"
        " return ['A','2','3','4','5','6','7','8','9','10','J','Q','K'][f % 13]"
        " + '♣♦♥♠'[Math.floor(f / 13)]; }",
        count,
    )
    above = count - 1
    with_above = "(with the card above it)" if above == 1 else f"(with the {above} cards above it)"
    status = page.inner_text("#status")
    assert status.startswith("Your turn: draw from the stock, or take ")
    assert f"{face} {with_above}" in status, status
    card = page.locator(f'#pile .pile-card.playable[data-count="{count}"]')
    assert card.get_attribute("data-above") == f"+{above}"
    look = card.evaluate(
        "el => { const s = getComputedStyle(el); return [s.outlineWidth, s.outlineStyle]; }"
    )
    assert look == ["3px", "solid"]
    dim = page.locator("#pile .pile-card:not(.playable)")
    if dim.count():
        assert dim.first.evaluate("el => getComputedStyle(el).opacity") == "0.5"
    assert card.get_attribute("title").startswith(f"take {face}, with ")
    v = state(page)["version"]
    card.click()
    wait_version(page, v)
    g = state(page)["game"]
    assert len(g["discard"]) == len(pile) - count and g["pending"] >= 0
    # Discard is greyed until the card is used, and says so
    assert page.locator("#btn-discard").is_disabled()
    use = f"use {face} in a meld or a lay-off first"
    assert page.get_attribute("#btn-discard", "title") == use
    assert f"Discard: {use}" in page.inner_text("#why-not")
    # the log, in the terminal's words
    logged = page.locator("#log li").last.inner_text()
    words = (DEEP_DRAW["en"][0] if above == 1 else DEEP_DRAW["en"][1]).format(card=face, n=above)
    assert logged.endswith(words), logged
    assert "draw discard" not in logged
    page.close()


def test_the_pages_deep_draw_words_are_the_terminals() -> None:
    """One wording: the page's ``mv.deep`` messages are i18n.DEEP_DRAW's, in both
    languages (the page's catalog is JavaScript, so a test holds them together)."""
    text = MESSAGES.read_text(encoding="utf-8")
    en, fr = text.split("\n  fr: {")
    for lang, part in (("en", en), ("fr", fr)):
        one = re.search(r'"mv\.deep\.one": "([^"]*)"', part)
        other = re.search(r'"mv\.deep\.other": "([^"]*)"', part)
        assert one and other
        assert (one[1], other[1]) == DEEP_DRAW[lang]


def test_lobby_lists_games_by_title_with_a_plain_line(server: ServerThread, browser: Any) -> None:
    """The lobby shows each game by its title and a plain one-line description; the
    seed citation stays in ``source``, for the docs and ``rummy rules``.  The public
    tables and the invitation name the game by its title too."""
    presets = httpx.get(server.base + "/api/presets").json()
    basic = next(p for p in presets if p["name"] == "basic")
    assert basic["title"] == "Basic Rummy" and "seed 001" in basic["source"]
    assert not JARGON.search(basic["description"])
    fr = httpx.get(server.base + "/api/presets?lang=fr").json()
    assert next(p for p in fr if p["name"] == "indian_pool101")["title"] == "Rami indien, pool 101"
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector('#preset option[value="indian_pool101"]', state="attached")
    custom_table(page)
    labels = dict(
        page.eval_on_selector_all(
            "#preset option", "els => els.map((e) => [e.value, e.textContent])"
        )
    )
    assert labels["indian_pool101"] == "Indian Rummy, Pool 101"
    assert labels["basic"] == "Basic Rummy"
    assert all(value != label and "_" not in label for value, label in labels.items())
    about = page.inner_text("#preset-description")
    assert about == basic["description"] and not JARGON.search(page.inner_text("#preset-summary"))
    page.select_option("#preset", "rum500")
    assert page.inner_text("#preset-description").startswith("Melds score as you lay them")
    page.fill("#my-name", "Ann")
    page.select_option(".seat-kind", "human")
    page.check("#public")
    page.click("#create-btn")
    page.wait_for_selector("#created-title")
    assert page.inner_text("#created-title") == "Table created: 500 Rum"
    link = page.input_value("#invite-1")
    page.click("text=Refresh")
    page.wait_for_selector(".table-entry b")
    assert "500 Rum" in page.eval_on_selector_all(
        ".table-entry b", "els => els.map((e) => e.textContent)"
    )
    friend = new_page(browser)
    friend.goto(link)
    friend.wait_for_selector("#invite-game")
    assert friend.inner_text("#invite-game") == "You are invited to a game of 500 Rum with Ann."
    friend.close()
    page.close()


def test_a_reviews_unicode_ten_reads_10(server: ServerThread, browser: Any) -> None:
    """The review sends moves in the notation's Unicode form (``discard T♣``); the
    page writes every move and reason through ``moveNodes``, which shows the ten as
    players read it, 10♣."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("#preset option", state="attached")
    shown = page.evaluate(
        "import('/static/cards.js').then((m) => ["
        " m.moveNodes('discard T♣').map((n) => n.textContent).join(''),"
        " m.moveNodes('discard TC').map((n) => n.textContent).join('')])"
    )
    assert shown == ["discard 10♣", "discard 10♣"]
    page.close()
