"""The web page's issue #20 items in Debian's Chromium: the lobby's findings, the hand's
order and arrangement, card faces in the move list, seeing other players' moves, the
round-end screen and its chart, the keyboard alone, accessibility (axe-core), French,
and the page's weight and speed.

axe-core (4.14.1, MPL-2.0, from npm) is vendored gzipped in tests/web/fixtures and injected
into the page by the test: the page never loads it, and nothing comes from the network.
"""

from __future__ import annotations

import gzip
import re
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx

import test_web_browser
from test_web_browser import (
    cards_for,
    create,
    custom_table,
    my_turn,
    new_page,
    play_turn_by_clicks,
    stalled,
    state,
    wait_version,
)
from web_helpers import ServerThread, wait_for

pytestmark = test_web_browser.pytestmark
# the same module-scoped fixtures: this module gets a server and a browser of its own
server = test_web_browser.server
browser = test_web_browser.browser

AXE = Path(__file__).resolve().parent / "fixtures" / "axe.min.js.gz"
NOTATION_CARD = re.compile(r"\b(10|[2-9TJQKA])[CDHS]\b")


def listed_under_way(server: ServerThread, table: str) -> bool:
    """Whether the public list shows a move played at ``table`` (its version above 0),
    so that a refresh of the lobby shows the game as under way: a bots' table plays its
    first move on the server's own time, which a busy machine delays."""
    listed = {t["id"]: t for t in httpx.get(server.base + "/api/tables").json()}
    return bool(listed.get(table, {}).get("version", 0) > 0)


def open_seat(browser: Any, server: ServerThread, t: dict[str, Any], **kw: Any) -> Any:
    page = new_page(browser, **kw)
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_function("window.rummy && window.rummy.state !== null")
    return page


def play_until(
    page: Any, server: ServerThread, t: dict[str, Any], done: str, seconds: float = 120
) -> None:
    """Play by clicks until the JavaScript condition ``done`` holds, closing round-end
    screens.  One snapshot decides: read apart, a bot's move between two reads could
    end the round and open its screen over the pile about to be clicked."""
    where = (
        f"(() => {{ if ({done}) return 'done';"
        " if (!document.getElementById('summary').classList.contains('hidden')) return 'summary';"
        " const g = window.rummy.state.game; const mine = g.current === g.seat;"
        " return g.phase !== 'over' && mine && g.legal.length ? 'mine' : 'wait'; })()"
    )
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (now := page.evaluate(where)) != "done":
        if now == "summary":
            page.keyboard.press("Escape")
        elif now == "mine":
            play_turn_by_clicks(page)
        else:
            page.wait_for_timeout(30)
    assert page.evaluate(done), stalled(server, t["id"], page)


def hand_order(page: Any) -> list[int]:
    order: list[int] = page.evaluate(
        "[...document.querySelectorAll('#hand [data-card]')].map((e) => Number(e.dataset.card))"
    )
    return order


def touch_drag(page: Any, card: int, onto: int) -> None:
    """Drag a hand card past the right half of another with a finger (Chromium's own
    touch events, which the page receives as pointer events of type touch)."""
    a = page.locator(f'#hand [data-card="{card}"]').bounding_box()
    b = page.locator(f'#hand [data-card="{onto}"]').bounding_box()
    cdp = page.context.new_cdp_session(page)
    x, y = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    bx = b["x"] + b["width"] - 3
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for i in range(1, 9):
        point = {"x": x + (bx - x) * i / 8, "y": y}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def by_suit(cards: list[int]) -> list[int]:
    return sorted(cards, key=lambda c: (min(c % 54, 52), c))


def test_lobby_target_seats_tables_and_play_now(server: ServerThread, browser: Any) -> None:
    """Findings 3 and 7: the end box shows the preset's target, a person's seat has no
    difficulty list, bots default to easy (as in the terminal game), public tables say
    whether a game is under way, each preset has a rules summary, and one click starts
    a game against a medium bot (the custom table's Play now)."""
    waiting = create(
        server, {"rules": "basic", "public": True, "seats": [{"name": "Ann"}, {"open": True}]}
    )
    playing = create(
        server, {"rules": "gin", "public": True, "seats": [{"kind": "bot"}, {"kind": "bot"}]}
    )
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector('#preset option[value="rami51"]', state="attached")
    custom_table(page)
    assert page.input_value("#end-value") == "100" and page.locator("#end-value").is_disabled()
    page.select_option("#preset", "rami51")
    assert page.input_value("#end-value") == "500"
    assert "51" in page.inner_text("#preset-summary")
    page.select_option("#preset", "gin")
    assert page.input_value("#end-value") == "1"  # Gin plays one deal
    page.select_option("#preset", "basic")
    assert page.input_value(".seat-diff") == "easy"
    page.select_option(".seat-kind", "human")
    assert page.locator(".seat-diff").is_hidden()
    page.select_option(".seat-kind", "bot")
    assert page.locator(".seat-diff").is_visible()
    # a game under way and one not started look different
    page.wait_for_function("document.querySelectorAll('.table-entry').length >= 1")
    wait_for(lambda: listed_under_way(server, playing["id"]), "a move at the bots' table")
    page.click("text=Refresh")
    page.wait_for_selector(f'[data-table="{playing["id"]}"] .badge.playing')
    entry = page.inner_text(f'[data-table="{waiting["id"]}"]')
    assert "not started" in entry and "1 seat open" in entry
    page.fill("#my-name", "Zoe")
    page.click("#play-now")
    page.wait_for_function("window.rummy && window.rummy.state !== null", timeout=15000)
    seats = state(page)["table"]["seats"]
    assert seats[0]["name"] == "Zoe" and seats[1] == {
        **seats[1],
        "kind": "bot",
        "difficulty": "medium",
    }
    page.close()


def test_play_now_seats_the_fewest_players_the_rules_allow(
    server: ServerThread, browser: Any
) -> None:
    """Play now with a preset for three or more (Contract Rummy: "3 to 4 players",
    Bicycle Cards) seats the person and two medium bots, a tile's level; on a
    phone its error shows beside the button, in view."""
    page = new_page(browser, width=390, height=700)
    page.goto(server.base + "/")
    page.wait_for_selector('#preset option[value="contract"]', state="attached")
    custom_table(page)
    page.select_option("#preset", "contract")
    page.fill("#house", "no_such_option=1")
    page.click("#play-now")
    page.wait_for_function("document.querySelector('#play-now-error').textContent !== ''")
    box = page.locator("#play-now-error").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 700, box
    page.fill("#house", "")
    page.click("#play-now")
    page.wait_for_function("window.rummy && window.rummy.state !== null", timeout=15000)
    seats = state(page)["table"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot"], seats
    assert {s["difficulty"] for s in seats[1:]} == {"medium"}
    assert state(page)["game"]["rules"].startswith("contract")
    page.close()


def test_hand_order_arrangement_faces_and_opponents(server: ServerThread, browser: Any) -> None:
    """Finding 1: a Rami 51 hand arrives sorted by suit, the chosen order is kept across
    a reload, cards can be dragged; Arrange groups the solver's melds with the deadwood
    apart and the points toward the opening (here 40, a house rule).  Findings 2 and
    5: the move list writes
    faces; the opponent's backs fan out with the count, its level named once."""
    t = create(
        server,
        {
            "rules": "rami51(opening_minimum=40)",
            "seats": [{"name": "Ann"}, {"kind": "bot", "difficulty": "easy"}],
        },
    )
    page = open_seat(browser, server, t)
    g = state(page)["game"]
    # part 4: the rules in the page, the house rules as set at this table
    page.click("#btn-rules")
    assert page.inner_text("#house-rules") == "opening_minimum=40"
    assert "40 points" in page.inner_text("#rules-text")
    page.keyboard.press("Escape")
    assert hand_order(page) == by_suit(g["hand"])
    # the opponent: one back per card, fanned (each back further right), the count in words
    n, backs = page.evaluate(
        "[window.rummy.state.game.hand_sizes[1],"
        " document.querySelectorAll('#seats [data-seat=\"1\"] .backs .card').length]"
    )  # read together: the bot may move meanwhile
    assert backs == min(n, 14)
    lefts = page.evaluate(
        "[...document.querySelectorAll('#seats .backs .card')]"
        ".map((e) => e.getBoundingClientRect().left)"
    )
    assert all(b - a > 3 for a, b in pairwise(lefts)), lefts
    who = page.inner_text('#seats [data-seat="1"] .who')
    count = re.search(r"\b(\d+) cards?\b", who)
    assert count and (count[0] == "1 card") == (count[1] == "1"), who  # never "1 cards"
    assert who.count("easy") == 1, who
    # rank order, kept after a reload
    page.click("#btn-sort-rank")
    ranks = [min(c % 54, 52) % 13 if c % 54 < 52 else 99 for c in hand_order(page)]
    assert ranks == sorted(ranks)
    page.reload()
    page.wait_for_function("window.rummy.state !== null")
    assert page.get_attribute("#btn-sort-rank", "aria-pressed") == "true"
    # the arrangement: the server's melds (from this hand only), deadwood apart
    page.click("#btn-arrange")
    arr = state(page)["game"]["arrangement"]
    assert page.locator("#hand .meld-group").count() == len(arr["melds"])
    assert page.locator("#hand .deadwood [data-card]").count() == len(arr["deadwood"])
    info = page.inner_text("#arrange-info")
    assert f"deadwood {arr['deadwood_points']}" in info and f"{arr['meld_points']} of 40" in info, (
        info
    )
    if arr["melds"]:  # a group's label selects its cards at once
        page.click("#hand .meld-group .group-label")
        assert page.locator("#hand .meld-group:first-child .selected").count() == len(
            arr["melds"][0]["faces"]
        )
    # drag the last card to the front, by mouse (pointer events: a finger does the same)
    page.click("#btn-sort-suit")
    before = hand_order(page)
    last = page.locator(f'#hand [data-card="{before[-1]}"]').bounding_box()
    first = page.locator(f'#hand [data-card="{before[0]}"]').bounding_box()
    page.mouse.move(last["x"] + 5, last["y"] + 5)
    page.mouse.down()
    page.mouse.move(first["x"] + 20, first["y"] + 20, steps=8)
    page.mouse.move(first["x"] + 2, first["y"] + 20, steps=2)
    page.mouse.up()
    assert hand_order(page) == [before[-1], *before[:-1]]
    # and by finger: the first card (the one just moved) back to the end
    touch_drag(page, before[-1], before[-2])
    assert hand_order(page) == before
    touch_drag(page, before[0], before[1])  # an order of the player's own, kept over a reload
    mine = hand_order(page)
    assert mine == [before[1], before[0], *before[2:]]
    page.reload()
    page.wait_for_function("window.rummy.state !== null")
    assert hand_order(page) == mine
    # a few moves later the move list writes faces, never the notation's KD
    play_until(
        page,
        server,
        t,
        "window.rummy.state.log.filter((e) => e.text.startsWith('discard')).length >= 2",
    )
    log = page.inner_text("#log")
    assert "discard" in log and not NOTATION_CARD.search(log), log
    assert page.locator("#log .cf").count() >= 2
    page.close()


def test_other_players_moves_are_animated_and_marked(server: ServerThread, browser: Any) -> None:
    """Part 2: another player's moves fly from where the card came from to where it
    went, the last one stays marked; the turn timer shows; the tab title and a sound
    mark the player's turn once chosen (off by default); a whole hand is played with
    the hand arranged.  Finding 5: in Gin's upcard phase the Meld, Lay off and Discard
    buttons are disabled."""
    t = create(
        server,
        {
            "rules": "gin",
            # a Gin table is one hand, and a bot may knock before it has made three
            # moves: five hands leave the test no deal too short to see them
            "deals": 5,
            "timer": 300,
            "seats": [{"name": "Ann"}, {"kind": "bot", "difficulty": "easy"}],
        },
    )
    page = open_seat(browser, server, t)
    # the timer runs on people's turns only (bots are not timed): when the deal lets
    # the bot act first, wait for the player's turn
    page.wait_for_function(
        "window.rummy.state && window.rummy.state.game.current === window.rummy.state.game.seat"
    )
    assert page.locator("#turn-timer").is_visible()
    assert "s left" in page.inner_text("#turn-timer")
    assert "Your turn" not in page.title()
    page.click("#settings summary")
    page.check("#pref-title")
    page.check("#pref-sound")
    page.click("#btn-arrange")  # the hand is played arranged into the solver's melds
    play_until(
        page,
        server,
        t,
        "window.rummy.animations >= 3"
        " && window.rummy.state.game.current === window.rummy.state.game.seat"
        # (a new deal may give the player the first move: then there is no last move)
        " && window.rummy.lastMove !== null && window.rummy.lastMove.seat === 1",
    )
    assert page.locator("#hand .deadwood").count() == 1
    assert page.title().startswith("● Your turn")
    assert page.evaluate("window.rummy.beeps") >= 1
    last = page.evaluate("window.rummy.lastMove")
    assert last["seat"] == 1  # the bot's move, just made
    assert page.locator("#log li.last-move").count() == 1
    assert page.locator(".last-move").count() == 2  # the move in the list, and where it went
    said = page.inner_text("#announce")  # for screen readers, cards in words
    assert said.startswith(
        state(page)["table"]["seats"][1]["name"] + ": "
    ) and not NOTATION_CARD.search(said)
    # and the hand to its end, arranged all along
    ended = len(state(page)["game"]["results"])
    play_until(page, server, t, f"window.rummy.state.game.results.length > {ended}")
    assert page.evaluate("window.rummy.animations") >= 3
    # a fresh Gin table: the non-dealer's first decision is on the upcard
    t2 = create(server, {"rules": "gin", "seats": [{"name": "Ann"}, {"name": "Bob"}]})
    p2 = open_seat(browser, server, t2)
    g2 = state(p2)["game"]
    assert g2["phase"] == "first_upcard"
    if g2["current"] == 0:
        assert {m["kind"] for m in g2["legal"]} >= {"draw_discard", "pass"}
        for b in ("#btn-meld", "#btn-layoff", "#btn-discard"):
            assert p2.locator(b).is_disabled()
        assert p2.locator("#btn-pass").is_enabled()
    p2.close()
    page.close()


def test_round_end_screen_with_card_points_and_score_chart(
    server: ServerThread, browser: Any
) -> None:
    """Part 3: the round-end screen shows each hand's cards with what each counts, the
    score of every round and a chart of the running totals; at the match's end the
    winner, and rematch."""
    t = create(
        server,
        {
            # short rounds: one that nobody goes out of ends at its tenth turn, blocked
            "rules": "basic(hand_size=4, max_restocks=1, max_turns=10)",
            "deals": 2,
            "seats": [{"name": "Ann"}, {"kind": "bot", "difficulty": "easy"}],
        },
    )
    page = open_seat(browser, server, t)
    play_until(page, server, t, "window.rummy.state.game.phase === 'over'", seconds=180)
    g = state(page)["game"]
    if page.locator("#summary.hidden").count():  # closed by play_until: the side opens it
        page.click(f'#rounds [data-round="{len(g["results"])}"]')
    page.wait_for_selector("#summary:not(.hidden) #match-winner")
    names = [s["name"] for s in state(page)["table"]["seats"]]
    assert names[g["winners"][0]] in page.inner_text("#match-winner")
    r = g["results"][-1]
    for i, p in enumerate(r["players"]):
        row = f'#summary table.summary:not(.history) tr[data-seat="{i}"]'
        pts = page.evaluate(
            f"[...document.querySelectorAll('{row} .card-points')]"
            ".map((e) => Number(e.textContent))"
        )
        assert pts == p["points"] and sum(pts) == p["hand_points"]
    assert page.locator("#score-history tr").count() == 1 + len(g["results"])
    assert page.locator("#score-chart polyline").count() == 2
    pts = page.get_attribute('#score-chart polyline[data-seat="0"]', "points") or ""
    assert len(pts.split()) == len(g["results"]) + 1  # from 0, one point a round
    title = page.evaluate("document.querySelector('#score-chart title').textContent")
    assert f"{names[0]} {g['scores'][0]}" in title, title
    page.click("#btn-rematch")
    page.wait_for_function("window.rummy.state.game.phase !== 'over'")
    page.close()


def keyboard_turn(page: Any) -> None:
    """One action of the turn with keys only: the terminal game's letters, the arrows
    and the space bar to pick cards, digits to choose a table meld."""
    msg = state(page)
    g, v = msg["game"], msg["version"]
    kinds = {m["kind"] for m in g["legal"]}

    def pick(cards: list[int]) -> None:
        page.keyboard.press("c")  # clear
        for c in cards:
            order = hand_order(page)
            page.evaluate("document.activeElement && document.activeElement.blur()")
            for _ in range(order.index(c) + 1):
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Space")

    if g["phase"] == "draw":
        page.keyboard.press("s")
    elif "meld" in kinds and g["turn"] % 2:  # the terminal's "best melds" key
        page.keyboard.press("b")
    elif "meld" in kinds:
        m = next(m for m in g["legal"] if m["kind"] == "meld")
        pick(cards_for(g["hand"], m["faces"]))
        page.keyboard.press("m")
    elif "layoff" in kinds:
        m = next(m for m in g["legal"] if m["kind"] == "layoff")
        pick(cards_for(g["hand"], m["faces"]))
        page.keyboard.press(str(m["meld"] + 1))
        page.keyboard.press("l")
    else:
        m = next(m for m in g["legal"] if m["kind"] == "discard")
        pick(cards_for(g["hand"], m["faces"]))
        page.keyboard.press("d")
    wait_version(page, v)


def test_a_round_by_keyboard_alone(server: ServerThread, browser: Any) -> None:
    """Part 5: the terminal game's keys play a whole round; ? lists them; Escape closes
    the round-end screen; the hand's cards are buttons named for screen readers."""
    t = create(
        server,
        {
            "rules": "basic(hand_size=4, max_restocks=1)",
            "deals": 1,
            "seats": [{"name": "Ann"}, {"kind": "bot", "difficulty": "easy"}],
        },
    )
    page = open_seat(browser, server, t)
    label = page.get_attribute("#hand [data-card]", "aria-label") or ""
    assert re.fullmatch(
        r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king)"
        r" of (clubs|diamonds|hearts|spades)|joker",
        label,
    ), label
    # Tab alone reaches every control of the table (those in view: a closed
    # <details> shows its summary, the controls inside once opened)
    page.wait_for_function(  # on the player's turn nothing is drawn anew meanwhile
        "window.rummy.state.game.current === window.rummy.state.game.seat"
    )
    shown = (
        "[...document.querySelectorAll('.game button, .game input, .game select, .game a,"
        ' .game summary, .game [tabindex="0"]\')].filter((e) => !e.disabled'
        " && e.checkVisibility())"
    )
    page.evaluate(
        "window.visited = new Set();"
        " document.addEventListener('focusin', (e) => window.visited.add(e.target))"
    )
    for _ in range(page.evaluate(f"{shown}.length") + 3):
        page.keyboard.press("Tab")
    missed = page.evaluate(
        f"{shown}.filter((e) => !window.visited.has(e)).map((e) => e.outerHTML.slice(0, 80))"
    )
    assert missed == []
    page.keyboard.press("?")
    assert "draw from the stock" in page.inner_text("#key-list")
    page.keyboard.press("Escape")
    assert page.locator("#sheet.hidden").count() == 1
    page.keyboard.press("v")  # the discard pile, every card of it
    pile = state(page)["game"]["discard"]
    assert page.locator("#sheet .pile-list .card").count() == len(pile)
    page.keyboard.press("Escape")
    page.keyboard.press("r")  # suit to rank, and back
    assert page.get_attribute("#btn-sort-rank", "aria-pressed") == "true"
    page.keyboard.press("r")
    assert page.get_attribute("#btn-sort-suit", "aria-pressed") == "true"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and state(page)["game"]["phase"] != "over":
        if my_turn(page):
            keyboard_turn(page)
        else:
            page.wait_for_timeout(30)
    assert state(page)["game"]["phase"] == "over", stalled(server, t["id"], page)
    page.wait_for_selector("#summary:not(.hidden)")
    page.keyboard.press("Escape")
    assert page.locator("#summary.hidden").count() == 1
    page.close()


def axe_violations(page: Any) -> list[dict[str, Any]]:
    page.add_script_tag(content=gzip.decompress(AXE.read_bytes()).decode())
    found: list[dict[str, Any]] = page.evaluate(
        "axe.run(document, {runOnly: ['wcag2a', 'wcag2aa']}).then((r) => r.violations"
        ".filter((v) => v.impact === 'serious' || v.impact === 'critical')"
        ".map((v) => ({id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))})))"
    )
    return found


def test_axe_finds_no_serious_violations(server: ServerThread, browser: Any) -> None:
    """Part 5: the lobby, the table (four-colour deck too) and the round-end screen pass
    axe-core's WCAG 2 A and AA rules (contrast included) with no serious violation."""
    page = new_page(browser)
    page.goto(server.base + "/")
    custom_table(page)  # the games' tiles and the whole form
    page.wait_for_selector("#preset-summary li")
    assert axe_violations(page) == []
    t = create(
        server,
        {
            "rules": "basic(hand_size=4, max_restocks=1)",
            "deals": 1,
            "seats": [{"name": "Ann"}, {"kind": "bot", "difficulty": "easy"}],
        },
    )
    page = open_seat(browser, server, t)
    if my_turn(page):  # a card drawn: the hand has one more, the actions change
        page.click("#stock")
    page.wait_for_timeout(300)
    assert axe_violations(page) == []
    page.click("#settings summary")
    page.check("#pref-four")
    assert page.evaluate("document.body.classList.contains('four-colour')")
    assert axe_violations(page) == []
    play_until(page, server, t, "window.rummy.state.game.phase === 'over'")
    if page.locator("#summary.hidden").count():
        page.click(f'#rounds [data-round="{len(state(page)["game"]["results"])}"]')
    page.wait_for_selector("#summary:not(.hidden) #score-chart")
    assert axe_violations(page) == []
    page.close()


def test_french_from_the_browser_switchable_and_kept(server: ServerThread, browser: Any) -> None:
    """Part 7: French for a French browser, card names and moves included; English once
    chosen, and kept; every catalog key in both languages."""
    ctx = browser.new_context(
        locale="fr-FR", bypass_csp=True, viewport={"width": 1100, "height": 800}
    )
    page = ctx.new_page()
    page.goto(server.base + "/")
    custom_table(page)
    assert page.inner_text("#create-btn") == "Créer la table"
    # the rules summary is the server's, in the page's language
    page.wait_for_function("document.getElementById('preset-summary').textContent.length > 0")
    assert "Combinaisons :" in page.inner_text("#preset-summary")
    missing = page.evaluate(
        "import('/static/messages.js').then(({MESSAGES}) => {"
        " const [en, fr] = [MESSAGES.en, MESSAGES.fr];"
        " return [Object.keys(en).filter((k) => !(k in fr)),"
        " Object.keys(fr).filter((k) => !(k in en))]; })"
    )
    assert missing == [[], []]
    t = create(
        server,
        {"rules": "basic", "seats": [{"name": "Ann"}, {"kind": "bot", "difficulty": "easy"}]},
    )
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_function("window.rummy && window.rummy.state !== null")
    label = page.get_attribute("#hand [data-card]", "aria-label") or ""
    assert re.fullmatch(r"\w+ de (trèfle|carreau|cœur|pique)|joker", label), label
    # the court cards as French faces show them, V D R (as in the terminal game)
    ranks = page.evaluate("[...document.querySelectorAll('.card .rank')].map((e) => e.textContent)")
    assert ranks and not set(ranks) & {"J", "Q", "K"}, ranks
    # the server's own texts follow the page: an illegal move's rule and a hint
    page.wait_for_function(
        "(() => { const g = window.rummy.state.game;"
        " return g.current === g.seat && g.phase === 'draw'; })()"
    )
    g = state(page)["game"]
    page.click(f'#hand [data-card="{g["hand"][0]}"]')
    page.evaluate("document.getElementById('btn-discard').disabled = false")
    page.click("#btn-discard")
    page.wait_for_function("document.getElementById('error').textContent.length > 0")
    assert page.inner_text("#error") == "un tour commence par piocher une carte"
    page.click("#btn-hint")
    page.wait_for_function("document.getElementById('hint-text').textContent.includes(' — ')")
    hint = page.inner_text("#hint-text")
    assert hint.startswith("Conseil :") and re.search(r" — (piochez|prenez) ", hint), hint
    info = httpx.get(f"{server.base}/api/tables/{t['id']}?lang=fr").json()
    assert info["summary"][1].startswith("Cartes : un jeu de 52 cartes")
    play_until(page, server, t, "window.rummy.state.log.length >= 3")
    assert "pioche" in page.inner_text("#log") or "prend la défausse" in page.inner_text("#log")
    # Contract Rummy's contract, a text of the server's, in French too
    c = create(
        server,
        {
            "rules": "contract",
            "seats": [{"name": "Ann"}, *[{"kind": "bot", "difficulty": "easy"}] * 2],
        },
    )
    page.goto(server.base + c["seats"][0]["link"])
    page.wait_for_function("window.rummy && window.rummy.state !== null")
    # the bots' discards before Ann's turn may be offered to her to buy: she passes them
    play_until(
        page,
        server,
        c,
        "(() => { const g = window.rummy.state.game;"
        " return g.current === g.seat && g.phase === 'draw'; })()",
    )
    page.click("#stock")
    page.wait_for_function("document.getElementById('status').textContent.includes('brelans')")
    assert "descendez avec le contrat (deux brelans)" in page.inner_text("#status")
    with page.expect_navigation():  # the choice reloads the page
        page.select_option("#lang", "en")
    page.wait_for_function(
        "document.documentElement && document.documentElement.lang === 'en'"
        " && window.rummy && window.rummy.state !== null"
    )
    assert "Moves" in page.inner_text(".side")
    page.goto(server.base + "/")
    custom_table(page)
    assert page.inner_text("#create-btn") == "Create table"  # the choice is kept
    ctx.close()


def test_table_page_weight_and_time_to_interactive(server: ServerThread, browser: Any) -> None:
    """Part 8: the first load of a table page, measured and reported: bytes transferred
    (under 150 KB) and the time until the first state is drawn (reported, not gated).
    The page runs under the server's own Content-Security-Policy here (the other tests
    bypass it for Playwright's waits): it must break none of its rules."""
    t = create(server, {"rules": "rami51", "seats": [{"name": "Ann"}, {"kind": "bot"}]})
    ctx = browser.new_context()  # a fresh cache, and the CSP enforced
    page = ctx.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    page.goto(server.base + t["seats"][0]["link"])
    deadline = time.monotonic() + 15
    while not page.evaluate("!!(window.rummy && window.rummy.readyAt)"):
        assert time.monotonic() < deadline, "the table page never drew a state"
        page.wait_for_timeout(20)
    figures = page.evaluate(
        "(() => { const nav = performance.getEntriesByType('navigation')[0];"
        " const res = performance.getEntriesByType('resource');"
        " return {bytes: nav.transferSize + res.reduce((s, r) => s + r.transferSize, 0),"
        " files: res.length + 1, ready_ms: window.rummy.readyAt}; })()"
    )
    kb, files, ms = figures["bytes"] / 1024, figures["files"], figures["ready_ms"]
    print(f"\ntable page first load: {kb:.1f} KB in {files} files, interactive after {ms:.0f} ms")
    assert figures["bytes"] < 150 * 1024, figures
    page.click("#btn-arrange")  # the fanned backs, the arranged hand: styles from the sheet
    page.wait_for_timeout(300)
    assert refused == []
    ctx.close()


def test_lobby_gin_is_a_game_to_100_and_one_hand_an_option(
    server: ServerThread, browser: Any
) -> None:
    """Gin Rummy is played as a game to 100 (Pagat, "Gin Rummy": "the game continues
    until a player's score reaches 100"): the lobby lists the game first, by name, and
    one hand as its own entry."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector('#preset option[value="gin_match"]', state="attached")
    custom_table(page)
    options = page.eval_on_selector_all(
        "#preset option", "els => els.map((e) => [e.value, e.textContent])"
    )
    values = [v for v, _ in options]
    assert values.index("gin_match") + 1 == values.index("gin"), values
    labels = dict(options)
    assert labels["gin_match"] == "Gin Rummy, a game to 100"
    assert labels["gin"] == "Gin Rummy, one hand"
    page.select_option("#preset", "gin_match")
    assert page.input_value("#end-value") == "100"
    page.close()


def test_invitation_copy_button_names_the_game_and_favicon(
    server: ServerThread, browser: Any
) -> None:
    """The invitation link has a Copy button, the lobby and the invited player's first
    screen name the game, and the page has a favicon drawn inline (no request)."""
    ctx = browser.new_context(
        viewport={"width": 1100, "height": 800},
        bypass_csp=True,
        permissions=["clipboard-read", "clipboard-write"],
    )
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector('#preset option[value="gin_match"]', state="attached")
    icon = page.eval_on_selector('link[rel="icon"]', "el => el.href")
    assert icon.startswith("data:image/svg+xml,"), icon
    assert page.evaluate(
        "href => new Promise((ok) => { const i = new Image(); i.onload = () => ok(i.naturalWidth);"
        " i.onerror = () => ok(0); i.src = href; })",
        icon,
    )
    page.fill("#my-name", "Ann")
    custom_table(page)
    page.select_option("#preset", "gin_match")
    page.select_option(".seat-kind", "human")
    page.click("#create-btn")
    page.wait_for_selector("#created-title")
    assert page.inner_text("#created-title") == "Table created: Gin Rummy, a game to 100"
    link = page.input_value("#invite-1")
    page.click("#copy-1")
    page.wait_for_function("document.querySelector('#copy-1').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == link
    friend = new_page(browser)
    friend.goto(link)
    friend.wait_for_selector("#invite-game")
    assert friend.inner_text("#invite-game") == (
        "You are invited to a game of Gin Rummy, a game to 100 with Ann."
    )
    friend.close()
    ctx.close()


def test_spectator_sees_no_action_buttons_and_a_drawn_trophy(
    server: ServerThread, browser: Any
) -> None:
    """A spectator has no moves: the action buttons are hidden, not greyed.  The match
    winner's trophy is drawn (an image that loads), not an emoji needing a font."""
    bot = {"kind": "bot", "difficulty": "easy"}
    t = create(server, {"rules": "gin_match", "seats": [bot, bot]})
    page = new_page(browser)
    page.goto(server.base + t["watch"])
    page.wait_for_function("window.rummy.state !== null")
    assert page.locator("#actions").is_hidden() and page.locator("#btn-meld").is_hidden()
    page.wait_for_selector("#summary:not(.hidden) .standings img.trophy", timeout=120_000)
    trophy = page.locator(".standings img.trophy").first
    assert trophy.get_attribute("alt") == "winner"
    assert page.evaluate("document.querySelector('.standings img.trophy').naturalWidth") > 0
    assert "🏆" not in page.inner_text("#summary")
    page.close()
