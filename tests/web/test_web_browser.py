"""Browser tests: Debian's Chromium driven by Playwright against a real server.

``make test`` installs Chromium first (the Makefile's ``browser`` target); these tests
are skipped only when it is missing.  They are marked ``web_slow``.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from rummykit.web import Settings
from web_helpers import ServerThread

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync",
]  # fmt: skip
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshot-web.png"

pytestmark = [
    pytest.mark.web_slow,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium is not installed"),
]


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    db = Path(tempfile.mkdtemp()) / "web.db"
    settings = Settings(database_url=f"sqlite:///{db}", bot_delay=0.05, hint_budget=20)
    with ServerThread(settings) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def new_page(browser: Any, width: int = 1100, height: int = 800, locale: str = "en-US") -> Any:
    # Playwright's wait_for_function evaluates strings, which the page's CSP forbids.
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, bypass_csp=True, locale=locale
    )
    return ctx.new_page()


def custom_table(page: Any) -> None:
    """Open the front page's Custom table, the form with every option of a table
    (folded away under the games' tiles)."""
    page.click("#custom > summary")
    page.wait_for_selector("#create-btn")


def create(server: ServerThread, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(server.base + "/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def state(page: Any) -> dict[str, Any]:
    s: dict[str, Any] = page.evaluate("window.rummy.state")
    return s


def wait_version(page: Any, above: int) -> None:
    try:
        page.wait_for_function(f"window.rummy.version > {above}", timeout=15000)
    except Exception as exc:
        errors = page.evaluate("window.rummy.errors")
        raise AssertionError(f"no new state after version {above}; errors: {errors}") from exc


def cards_for(hand: list[int], faces: list[int]) -> list[int]:
    """Hand card ids for the faces of a legal move (52: any joker)."""
    pool = list(hand)
    out = []
    for f in faces:
        for c in pool:
            cf = c % 54
            if (52 if cf >= 52 else cf) == f:
                out.append(c)
                pool.remove(c)
                break
    return out


def play_turn_by_clicks(page: Any) -> None:
    """Play one action of the seat's turn with clicks, as a person would."""
    msg = state(page)
    v = msg["version"]
    g = msg["game"]
    legal = g["legal"]
    kinds = {m["kind"] for m in legal}
    if g["phase"] == "buy":  # Contract Rummy: the discard offered out of turn
        page.click("#btn-pass")
    elif g["phase"] == "draw" or kinds == {"draw_stock"}:
        page.click("#stock")
    elif "knock" in kinds:  # Gin: knock whenever the rules allow
        page.click("#btn-knock")
    elif g["phase"] == "first_upcard":
        page.click("#btn-pass")
    elif "meld" in kinds:
        m = next(m for m in legal if m["kind"] == "meld")
        for c in cards_for(g["hand"], m["faces"]):
            page.click(f'#hand [data-card="{c}"]')
        page.click("#btn-meld")
    elif "layoff" in kinds:
        m = next(m for m in legal if m["kind"] == "layoff")
        (c,) = cards_for(g["hand"], m["faces"])
        page.click(f'#hand [data-card="{c}"]')
        page.click(f'#melds [data-meld="{m["meld"]}"] .meld-no')
        page.click("#btn-layoff")
    elif "discard" in kinds:
        m = next(m for m in legal if m["kind"] == "discard")
        (c,) = cards_for(g["hand"], m["faces"])
        page.click(f'#hand [data-card="{c}"]')
        page.click("#btn-discard")
    else:  # Gin: done laying melds or lay-offs
        page.click("#btn-pass")
    wait_version(page, v)


def stalled(server: ServerThread, table_id: str, page: Any) -> str:
    """What the server and the page each believe, for a game that did not finish."""
    live = server.server.config.app.state.manager.tables[table_id]  # type: ignore[attr-defined]
    msg = state(page)
    g = msg["game"]
    return (
        f"page: version {msg['version']} {g['phase']} current {g['current']}; "
        f"server: version {live.version} {live.state.phase.name} current {live.state.current}, "
        f"driver {live.driver}, log {list(live.log)[-3:]}; "
        f"page errors {page.evaluate('window.rummy.errors')}"
    )


def my_turn(page: Any) -> bool:
    return bool(
        page.evaluate(
            "(() => { const s = window.rummy.state; if (!s) return false;"
            " const g = s.game; return g.phase !== 'over' && g.current === g.seat"
            " && g.legal.length > 0; })()"
        )
    )


def test_one_player_plays_a_whole_round_against_bots(server: ServerThread, browser: Any) -> None:
    # The clicking player never takes the discard, so with the discard pile turned over
    # (not shuffled) a round can circle for the 1,000-turn guard; seed 001's house rule
    # ends the round once the pile has been reused.
    t = create(
        server,
        {
            "rules": "basic(max_restocks=1)",
            "deals": 1,
            "seats": [
                {"kind": "human", "name": "Ann"},
                {"kind": "bot", "difficulty": "easy"},
                {"kind": "bot", "difficulty": "medium"},
            ],
        },
    )
    page = new_page(browser, width=1280, height=860)
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_function("window.rummy.state !== null")
    shot_taken = False
    deadline = time.monotonic() + 240  # bots think on a machine that may be busy
    while time.monotonic() < deadline:
        if state(page)["game"]["phase"] == "over":
            break
        if my_turn(page):
            g = state(page)["game"]
            if not shot_taken and g["phase"] == "play" and g["melds"]:
                page.wait_for_timeout(500)  # let the animations finish
                page.screenshot(path=str(SCREENSHOT))
                shot_taken = True
            play_turn_by_clicks(page)
        else:
            page.wait_for_timeout(30)
    g = state(page)["game"]
    assert g["phase"] == "over" and len(g["results"]) == 1, stalled(server, t["id"], page)
    # the round summary, the standings, rematch and the record download
    page.wait_for_selector("#summary:not(.hidden)")
    assert page.locator("#summary table.summary:not(.history) tr").count() == 4
    assert page.locator("#btn-rematch").is_visible()
    href = page.get_attribute("#download", "href")
    record = httpx.get(server.base + href).text
    assert "[Players" in record and "Round 1" in record
    if not shot_taken:
        page.screenshot(path=str(SCREENSHOT))
    page.click("#btn-rematch")
    page.wait_for_function("window.rummy.state.game.phase !== 'over'")
    page.close()


def test_a_whole_gin_hand_by_clicks(server: ServerThread, browser: Any) -> None:
    """Gin's phases in the browser (OpenSpiel gin_rummy: first upcard taken or passed,
    knock at deadwood 10 or less, lay-offs after a knock), with the status line saying
    what to do and the player's own deadwood."""
    t = create(
        server,
        {
            "rules": "gin",
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "difficulty": "easy"}],
        },
    )
    page = new_page(browser)
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_function("window.rummy.state !== null")
    seen: set[str] = set()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        g = state(page)["game"]
        if g["phase"] == "over":
            break
        if my_turn(page):
            status = page.inner_text("#status")
            seen.add(g["phase"])
            if g["phase"] == "play":
                own = next(x for x in g["status"] if x["own"])  # the player's deadwood
                assert f"deadwood: {own['params']['n']}" in status, status
            if g["phase"] == "first_upcard" and "pass" in {m["kind"] for m in g["legal"]}:
                assert "take the upcard or pass" in status, status
            play_turn_by_clicks(page)
        else:
            page.wait_for_timeout(30)
    g = state(page)["game"]
    assert g["phase"] == "over" and g["results"][0]["reason"] in ("knock", "gin", "wall")
    text = g["results"][0]["text"]  # scoring.describe_round, e.g. "Bob knocked and won the hand"
    assert any(w in text for w in ("knocked", "gin", "undercut", "void", "equal")), text
    page.wait_for_selector("#summary:not(.hidden)")
    assert text[1:] in page.inner_text("#summary")
    if g["results"][0]["reason"] != "wall":  # each hand laid out: its melds, then deadwood
        assert page.locator("#summary .laid-meld").count() >= 1
        shown = page.locator("#summary .laid-meld .card, #summary .counted .card").count()
        assert shown == 20  # both hands of ten, lay-offs in the knocker's melds
    assert "play" in seen
    if g["results"][0]["reason"] != "wall":  # the table's seed is random: a void hand is rare
        assert seen & {"knock", "layoff"}
    page.close()


def test_lobby_creates_a_gin_table_with_house_rules(server: ServerThread, browser: Any) -> None:
    """The lobby offers only the seat counts a preset allows (OpenSpiel's gin_rummy is
    for two players), rejects a misspelt house rule with the engine's message, and
    creates the table with the rules typed."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector('#preset option[value="gin"]', state="attached")
    custom_table(page)
    page.select_option("#n-seats", "4")
    page.select_option("#preset", "gin")
    assert page.input_value("#n-seats") == "2"
    assert page.locator('#n-seats option[value="3"]').is_disabled()
    assert "knock_card" in (page.get_attribute("#house", "placeholder") or "")
    assert page.locator(".seat-kind").count() == 1
    page.fill("#my-name", "Ann")
    page.fill("#house", "knock_crd=7")
    page.click("#create-btn")
    page.wait_for_function("document.querySelector('#lobby-error').textContent.length > 0")
    assert "knock_crd" in page.inner_text("#lobby-error")
    page.fill("#house", "knock_card=7")
    page.click("#create-btn")  # the other seat is a bot: straight to my seat
    page.wait_for_function("window.rummy && window.rummy.state !== null", timeout=15000)
    g = state(page)["game"]
    assert g["knock"]["limit"] == 7 and "knock_card=7" in g["rules"]
    page.close()


def test_two_players_from_invitation_links_reload_and_illegal_move(
    server: ServerThread, browser: Any
) -> None:
    t = create(
        server,
        {"rules": "basic", "deals": 1, "seats": [{"kind": "human", "name": "<b>Ann</b>"}, {}]},
    )
    link_b = t["seats"][1]["link"]
    a = new_page(browser)
    b = new_page(browser, width=390, height=844)  # a phone-sized screen
    a.goto(server.base + t["seats"][0]["link"])
    b.goto(server.base + link_b)
    # the invited player is asked for a name before taking the seat (issue #20, finding 4)
    b.wait_for_selector("#invite-name")
    assert b.evaluate("window.rummy.state") is None  # not seated before answering
    b.fill("#invite-name", "Bob")
    b.keyboard.press("Enter")
    for p in (a, b):
        p.wait_for_function("window.rummy.state !== null && window.rummy.state.game.seat >= 0")
    a.wait_for_function("window.rummy.state.table.seats[1].name === 'Bob'")
    assert "Bob" in a.inner_text("#seats")
    assert a.evaluate("window.rummy.state.game.seat") == 0
    assert b.evaluate("window.rummy.state.game.seat") == 1
    # names are shown as text, never as HTML
    assert b.locator("#scores b").count() == 0
    assert "<b>Ann</b>" in b.inner_text("#scores")
    # the phone layout does not scroll sideways
    assert b.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    first = a if state(a)["game"]["current"] == 0 else b
    other = b if first is a else a
    # an illegal move shows the engine's reason and changes nothing
    g = state(first)["game"]
    v = state(first)["version"]
    first.click(f'#hand [data-card="{g["hand"][0]}"]')
    first.evaluate("document.getElementById('btn-discard').disabled = false")
    first.click("#btn-discard")
    first.wait_for_function("document.getElementById('error').textContent.length > 0")
    assert "draw" in first.inner_text("#error")
    assert state(first)["version"] == v and state(first)["game"]["hand"] == g["hand"]
    # a real turn: the other player sees it
    first.click("#stock")
    wait_version(first, v)
    play_turn_by_clicks(first)
    while state(first)["game"]["current"] == state(first)["game"]["seat"]:
        play_turn_by_clicks(first)
    wait_version(other, v + 1)
    assert state(other)["game"]["current"] == state(other)["game"]["seat"]
    hand_before = state(other)["game"]["hand"]
    # chat is shown as text
    other.fill("#chat-input", "<img src=x onerror=alert(1)>hi")
    other.click("#chat-send")
    first.wait_for_selector("#chat li")
    assert first.locator("#chat img").count() == 0
    assert "<img src=x" in first.inner_text("#chat")
    # a reload resumes the same seat and state (the link is remembered)
    other.goto(server.base + f"/play/{t['id']}")
    other.wait_for_function("window.rummy.state !== null")
    assert state(other)["game"]["seat"] == (1 if other is b else 0)
    assert state(other)["game"]["hand"] == hand_before
    play_turn_by_clicks(other)
    assert state(other)["game"]["phase"] == "play"
    # a spectator sees the table but no hand
    w = new_page(browser)
    w.goto(server.base + t["watch"])
    w.wait_for_function("window.rummy.state !== null")
    assert state(w)["game"]["hand"] == [] and state(w)["game"]["seat"] == -1
    for p in (a, b, w):
        p.context.close()


def test_review_button_at_the_end_of_a_round_draws_the_chart(
    server: ServerThread, browser: Any
) -> None:
    """Issue #16, part 2: at the end of a round the summary offers "Review"; it shows
    the progress, then the accuracy, the key moments and an SVG chart of the player's
    expected score with one point per decision and the round's result, and moves the
    keyboard focus to the review."""
    manager = server.server.config.app.state.manager  # type: ignore[attr-defined]
    manager.reviewer.budget = 4  # a few samples a decision: the page, not the engine
    t = create(
        server,
        {
            "rules": "basic(hand_size=4, max_restocks=1)",  # a short round
            "deals": 2,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "difficulty": "easy"}],
        },
    )
    page = new_page(browser)
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_function("window.rummy.state !== null")
    deadline = time.monotonic() + 120
    # one snapshot says both: read apart, a bot's move between the two could end the
    # round and open its screen over the pile about to be clicked
    where = (
        "(() => { const g = window.rummy.state.game; if (g.results.length) return 'done';"
        " return g.current === g.seat && g.legal.length ? 'mine' : 'wait'; })()"
    )
    while time.monotonic() < deadline and (now := page.evaluate(where)) != "done":
        if now == "mine":
            play_turn_by_clicks(page)
        else:
            page.wait_for_timeout(30)
    assert state(page)["game"]["results"], stalled(server, t["id"], page)
    page.wait_for_selector("#summary:not(.hidden)")
    page.keyboard.press("Tab")  # the keyboard reaches Review from the summary
    for _ in range(5):
        if page.evaluate("document.activeElement.id") == "btn-review":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "btn-review"
    manager.reviewer.max_running = 0  # a busy server: the panel says so, and Review retries
    page.keyboard.press("Enter")
    page.wait_for_selector("#review-error")
    assert "try again" in page.inner_text("#review-error")
    manager.reviewer.max_running = 4
    # the connection drops while the review is worked out (a closing socket delivers
    # nothing more, so the review cannot arrive first): the panel says so
    page.evaluate("document.getElementById('btn-review').click(); window.rummy.ws.close()")
    page.wait_for_selector("#review-error")
    assert "dropped" in page.inner_text("#review-error")
    page.wait_for_function("window.rummy.ws.readyState === 1")  # reconnected (hello sent first)
    page.click("#btn-review")
    page.wait_for_function("window.rummy.review && window.rummy.review.ready", timeout=60000)
    progress = page.evaluate("window.rummy.review")
    assert progress["done"] == progress["total"] > 0
    chart = page.locator("#review-chart")
    assert chart.is_visible()
    assert page.locator("#review-chart circle").count() == progress["total"] + 1
    points = page.get_attribute("#review-chart polyline", "points") or ""
    assert len(points.split()) == progress["total"] + 1
    assert "Accuracy" in page.inner_text("#review-accuracy")
    assert page.locator("#review-all li").count() == progress["total"]
    moments = page.locator("#review-moments li")
    assert moments.count() <= 3
    if moments.count():
        assert "better:" in moments.first.inner_text()
    assert page.evaluate("document.activeElement.id") == "review-title"
    page.keyboard.press("Escape")  # the keyboard closes the summary
    assert page.locator("#summary.hidden").count() == 1
    page.click('#rounds [data-round="1"]')  # and the side panel opens it again
    page.wait_for_selector("#summary:not(.hidden) #review-chart")
    page.close()


@pytest.mark.parametrize(("preset", "bots"), [("rum500", 1), ("rum500_big", 4)])
def test_a_rum500_hand_with_a_deep_draw(
    server: ServerThread, browser: Any, preset: str, bots: int
) -> None:
    """500 Rum in the browser (HowStuffWorks, "How to Play 500 Rum": any card of the
    discard pile may be taken with every card above it if it is used at once; two decks
    for five or more players): the pile is shown spread out, a deep draw is a click on a
    card in it, and the card taken must then be melded."""
    t = create(
        server,
        {
            "rules": preset,
            "deals": 1,
            "seats": [{"kind": "human", "name": "Ann"}]
            + [{"kind": "bot", "difficulty": "easy"}] * bots,
        },
    )
    page = new_page(browser)
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_function("window.rummy.state !== null")
    deep_draws = 0
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        g = state(page)["game"]
        if g["phase"] == "over":
            break
        if my_turn(page):
            assert g.get("deep_discard") is True
            page.wait_for_function(  # the pile is drawn spread out, every card of it
                "document.querySelectorAll('#pile .pile-card').length"
                " === window.rummy.state.game.discard.length"
            )
            g = state(page)["game"]
            deep = [m for m in g["legal"] if m["kind"] == "draw_deep"]
            if deep:
                v = state(page)["version"]
                before = len(g["hand"])
                page.click(f'#pile .pile-card.playable[data-count="{deep[0]["count"]}"]')
                wait_version(page, v)
                g = state(page)["game"]
                assert len(g["hand"]) == before + deep[0]["count"]
                assert g["pending"] >= 0 and {m["kind"] for m in g["legal"]} <= {"meld", "layoff"}
                deep_draws += 1
            else:
                play_turn_by_clicks(page)
        else:
            page.wait_for_timeout(30)
    g = state(page)["game"]
    assert g["phase"] == "over", stalled(server, t["id"], page)
    assert g["results"][0]["reason"] in ("out", "restock_limit")
    page.close()


@pytest.mark.parametrize(("preset", "bots"), [("kalooki", 1), ("kalooki_big", 4)])
def test_a_kalooki_hand_by_clicks(
    server: ServerThread, browser: Any, preset: str, bots: int
) -> None:
    """Kalooki 40 in the browser (Ludopoli, "Kalooki 40 Rules": two decks and four
    jokers, 13 cards, a first meld of at least 40 points, the last card discarded; three
    decks for five or six, Wikipedia "Kalooki"): a hand played by clicks to its end,
    every move taken from the page's legal list."""
    t = create(
        server,
        {
            "rules": preset,
            "deals": 1,
            "seats": [{"kind": "human", "name": "Ann"}]
            + [{"kind": "bot", "difficulty": "easy"}] * bots,
        },
    )
    page = new_page(browser)
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_function("window.rummy.state !== null")
    first = state(page)["game"]
    assert len(first["hand"]) == 13
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        g = state(page)["game"]
        if g["phase"] == "over":
            break
        if my_turn(page):
            play_turn_by_clicks(page)
        else:
            page.wait_for_timeout(30)
    g = state(page)["game"]
    assert g["phase"] == "over", stalled(server, t["id"], page)
    assert g["results"][0]["reason"] in ("out", "turn_limit", "no_draw")
    page.close()


@pytest.mark.parametrize(("preset", "bots"), [("contract", 2), ("contract_big", 4)])
def test_a_contract_deal_by_clicks_with_a_buy(
    server: ServerThread, browser: Any, preset: str, bots: int
) -> None:
    """Contract Rummy in the browser (Bicycle Cards and Wikipedia, "Contract rummy":
    ten cards in the first deal, whose contract is two sets; "any other player may
    claim" the discard the player in turn declines, "as well as a penalty card"; a
    triple pack for five or more): a first deal played by clicks, the person buying the
    first discard offered (a click on the pile, out of turn) and passing the later ones."""
    t = create(
        server,
        {
            "rules": preset,
            "deals": 1,
            "seats": [{"kind": "human", "name": "Ann"}]
            + [{"kind": "bot", "difficulty": "easy"}] * bots,
        },
    )
    page = new_page(browser)
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_function("window.rummy.state !== null")
    first = state(page)["game"]
    assert len(first["hand"]) == 10 and first["contract"]["text"] == "two sets"
    assert first["contract"]["text_fr"] == "deux brelans"
    bought = False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        msg = state(page)
        g = msg["game"]
        if g["phase"] == "over":
            break
        # one snapshot decides (read apart, the bots' moves between two reads could
        # close the buy window: five seats make that likely)
        mine = g["current"] == g["seat"] and bool(g["legal"])
        if mine and g["phase"] == "buy" and not bought:
            assert g["current"] == 0 and g["contract"]["in_turn"] != 0  # out of turn
            assert "buy" in page.inner_text("#status").lower()
            size = len(g["hand"])
            page.click("#discard")
            wait_version(page, msg["version"])
            after = state(page)["game"]
            assert len(after["hand"]) == size + 2 and after["contract"]["buys_left"][0] == 2
            bought = True
        elif my_turn(page):
            play_turn_by_clicks(page)
        else:
            page.wait_for_timeout(30)
    g = state(page)["game"]
    assert g["phase"] == "over", stalled(server, t["id"], page)
    assert bought, "the person was never offered a discard"
    page.close()


def test_contract_in_view_and_the_next_one_at_the_deal_end(
    server: ServerThread, browser: Any
) -> None:
    """Contract Rummy (Bicycle Cards: each deal has its own contract, in a fixed
    order): the page names the deal and its contract all deal long, in the page's
    language, and the deal's end says what the next deal asks for."""
    bot = {"kind": "bot", "difficulty": "easy"}
    t = create(server, {"rules": "contract", "deals": 2, "seats": [bot] * 3})
    en = new_page(browser)
    fr = new_page(browser, locale="fr-FR")
    for page in (en, fr):
        page.goto(server.base + t["watch"])
        page.wait_for_function("window.rummy.state !== null")
    assert en.inner_text("#contract") == "Deal 1 of 2: two sets"
    assert fr.inner_text("#contract") == "Donne 1 sur 2 : deux brelans"
    en.wait_for_selector("#next-contract", timeout=120_000)
    assert en.inner_text("#next-contract") == "Next: deal 2 of 2, a set and a run"
    fr.wait_for_selector("#next-contract", timeout=120_000)
    assert fr.inner_text("#next-contract") == "Ensuite : donne 2 sur 2, un brelan et une suite"
    for page in (en, fr):
        page.close()


def test_buying_out_of_turn_has_its_own_keys_and_names_the_card(
    server: ServerThread, browser: Any
) -> None:
    """Contract Rummy (Bicycle Cards: "any other player may claim" the discard the
    player in turn declines, "as well as a penalty card"), on a French page: the buy
    prompt names the card by its face (``D♠``, not ``QS``) and the keys b and n; s
    draws nothing then; b buys; the Keys list has the buy entry; the bots' default
    names are in French."""
    bot = {"kind": "bot", "difficulty": "easy"}
    t = create(
        server,
        {"rules": "contract", "deals": 1, "seats": [{"kind": "human", "name": "Ann"}, bot, bot]},
    )
    page = new_page(browser, locale="fr-FR")
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_function("window.rummy.state !== null")
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        msg = state(page)
        g = msg["game"]
        assert g["phase"] != "over", "the person was never offered a discard"
        if g["current"] == g["seat"] and g["phase"] == "buy":
            break
        if my_turn(page):
            play_turn_by_clicks(page)
        else:
            page.wait_for_timeout(30)
    assert g["current"] == g["seat"] and g["phase"] == "buy"
    top = g["discard"][-1] % 54
    suit = "♣♦♥♠"[top // 13] if top < 52 else ""
    rank = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R"][top % 13]
    status = page.inner_text("#status")
    face = f"{rank}{suit}" if top < 52 else "JK"
    assert f"achetez {face} avec 1 carte(s) de pénalité (b), ou passez (n)" in status, status
    assert re.search(r"achetez (10|[A2-9JQK])[CDHS]\b", status) is None, status
    # the server's default bot names, in the page's language
    assert "Robot 2 (facile)" in page.inner_text("#seats") and "(easy)" not in status, status
    page.keyboard.press("s")
    page.wait_for_function("window.rummy.errors.length > 0")
    assert "Personne ne pioche" in page.inner_text("#error")
    assert state(page)["version"] == msg["version"]
    size = len(g["hand"])
    page.keyboard.press("b")
    wait_version(page, msg["version"])
    assert len(state(page)["game"]["hand"]) == size + 2
    page.keyboard.press("?")
    keys = page.inner_text("#key-list")
    assert "acheter la défausse offerte hors tour" in keys, keys
    page.close()
