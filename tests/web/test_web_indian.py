"""Indian Rummy in the browser (Debian's Chromium, Playwright, a real server): a deal
of every Indian preset played by clicks, the wild cut by the piles, the status line's
advice and count, declaring (the Declare button, then the card put out) and dropping
(the Drop button, the seat marked as dropped)."""

from __future__ import annotations

import time
from typing import Any

import pytest

import test_web_browser as wb
from helpers import build
from rummykit import Rules
from rummykit.cards import bits, mask_of
from rummykit.position import position_from_text, position_to_text
from rummykit.state import GameState, Phase
from rummykit.variants.indian import HandSolver
from web_helpers import ServerThread

SOLVER = HandSolver(Rules.preset("indian"))
pytestmark = wb.pytestmark
server = wb.server
browser = wb.browser
"""The browser tests' module fixtures (a server with an SQLite store, Chromium)."""
create, my_turn, new_page, stalled = wb.create, wb.my_turn, wb.new_page, wb.stalled
state, wait_version = wb.state, wb.wait_version


def best_discard(g: dict[str, Any]) -> int:
    """The card of the page's hand whose loss leaves the lowest hand value, among the
    page's legal discards (the easy bot's choice, computed here from the page)."""
    hand = mask_of(g["hand"])
    wild = g["declare"]["wild"]
    faces = {m["faces"][0] for m in g["legal"] if m["kind"] == "discard"}
    options = [c for c in g["hand"] if (52 if c % 54 >= 52 else c % 54) in faces]
    return min(options, key=lambda c: SOLVER.soft(hand & ~(1 << c), wild))


def play_turn(page: Any, drop: bool = False) -> str:
    """One action of the seat's turn by clicks; the kind played."""
    msg = state(page)
    v = msg["version"]
    g = msg["game"]
    kinds = {m["kind"] for m in g["legal"]}
    if g["phase"] == "draw":
        if drop and "drop" in kinds:
            # asked first: "Keep playing" changes nothing, the drop drops
            page.click("#btn-drop")
            cost = g["declare"]["drop_cost"]
            assert page.inner_text("#sheet-title") == f"Drop out of this deal for {cost} points?"
            page.click("#btn-drop-no")
            assert state(page)["version"] == v and page.is_hidden("#sheet")
            page.click("#btn-drop")
            page.click("#btn-drop-yes")
            wait_version(page, v)
            return "drop"
        page.click("#stock")
        played = "draw_stock"
    elif any(m["kind"] == "knock" and "wrong_show" not in m for m in g["legal"]):
        assert page.inner_text("#btn-knock") == "Declare"
        page.click("#btn-knock")
        played = "knock"
    else:
        card = best_discard(g) if g["phase"] == "play" else _any_out(g)
        page.click(f'#hand [data-card="{card}"]')
        page.click("#btn-discard")
        played = "discard"
    wait_version(page, v)
    return played


def _any_out(g: dict[str, Any]) -> int:
    """A card whose putting out leaves a valid show."""
    faces = {m["faces"][0] for m in g["legal"] if m["kind"] == "discard" and "wrong_show" not in m}
    return next(c for c in g["hand"] if (52 if c % 54 >= 52 else c % 54) in faces)


def play_deal(server: ServerThread, page: Any, table_id: str, drop: bool = False) -> set[str]:
    played: set[str] = set()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        g = state(page)["game"]
        if g["phase"] == "over":
            break
        if my_turn(page):
            if g["phase"] == "draw":
                status = page.inner_text("#status")
                assert "drop for" in status.lower(), status
                assert "(your hand counts" in status, status
                assert "wild: every" in page.inner_text("#wild")
            if g["phase"] == "knock":
                assert "put out" in page.inner_text("#status")
            played.add(play_turn(page, drop))
        else:
            page.wait_for_timeout(30)
    g = state(page)["game"]
    assert g["phase"] == "over", stalled(server, table_id, page)
    return played


@pytest.mark.parametrize(
    ("preset", "bots"),
    [("indian", 1), ("indian_pool101", 2), ("indian_pool201", 3), ("indian_deals", 5)],
)
def test_an_indian_deal_by_clicks(
    server: ServerThread, browser: Any, preset: str, bots: int
) -> None:
    """A deal of each Indian preset: 13 cards each from two 53-card decks, the wild cut
    face up by the stock, draws and discards by clicks, a declaration ending the deal
    (the person's when their cards allow it, else a bot's or a drop)."""
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
    assert len(first["hand"]) == 13 and first["declare"]["wild"] >= 0
    played = play_deal(server, page, t["id"])
    g = state(page)["game"]
    reason = g["results"][0]["reason"]
    assert reason in ("declare", "drop"), reason
    text = g["results"][0]["text"]
    assert "declared" in text or "dropped" in text, text
    if "knock" in played:
        assert g["results"][0]["winner"] == 0 and "discard" in played
    page.wait_for_selector("#summary:not(.hidden)")
    page.close()


def test_drop_by_click_marks_the_seat(server: ServerThread, browser: Any) -> None:
    """The first drop (RummyCulture: "First Drop, will get 20 points"): the Drop button
    before drawing, asked first, the seat marked as dropped for the others, the bots
    playing on.  Both bots may drop before Ann's first turn, which ends the deal
    without her (the one player left wins it), so the test takes a table where her
    turn comes."""
    body = {
        "rules": "indian",
        "seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "difficulty": "easy"}] * 2,
    }
    t = table_where_ann_draws(server, body)
    page = new_page(browser)
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_function("window.rummy.state !== null")
    played = play_deal(server, page, t["id"], drop=True)
    g = state(page)["game"]
    assert "drop" in played
    assert g["declare"]["dropped"][0] in (20, 40)
    assert g["results"][0]["players"][0]["hand_points"] in (20, 40)
    page.close()


def test_a_wrong_show_is_confirmed_first(server: ServerThread, browser: Any) -> None:
    """A wrong show costs 80 (Rummyera, "Points Rummy": "Wrong Show | Loss of 80
    Points"), so the page asks before one, as the rummy apps do: the server marks the
    legal declaration with its cost (from the player's own hand), Cancel sends nothing,
    OK makes the wrong show, and with one bot the bot wins the deal."""
    # Set cards, so that neither hand can become a valid show in the test's two turns
    # (from a random deal the bot once declared on its first turn).
    position = position_from_text(
        position_to_text(
            build(
                "indian(first_drop=0, middle_drop=0)",
                hands=[
                    "AH 3C 5D 7S 9H JC KD 2S 4H 6C 8D TS QH",
                    "2C 4S 6H 8C TD QS AD 3H 5S 7D 9C JS KH",
                ],
                discard="4D",
                phase=Phase.DRAW,
            )
        )
        + " wild=7C"
    )
    page, _ = seat_at(server, browser, position)
    page.wait_for_function(
        "window.rummy.state.game.current === window.rummy.state.game.seat"
        " && window.rummy.state.game.phase === 'draw'"
    )
    v = state(page)["version"]
    page.click("#stock")
    wait_version(page, v)
    g = state(page)["game"]
    declare = next(m for m in g["legal"] if m["kind"] == "knock")
    assert declare["wrong_show"] == 80  # 14 random cards are no valid show
    assert all("wrong_show" not in m for m in g["legal"] if m["kind"] == "discard")
    assert "declare:" not in page.inner_text("#status")
    seen: list[str] = []

    def answer(accept: bool) -> Any:
        def on_dialog(d: Any) -> None:
            seen.append(d.message)
            d.accept() if accept else d.dismiss()

        return on_dialog

    page.once("dialog", answer(False))
    page.click("#btn-knock")
    assert seen and "Wrong show" in seen[0] and "80 points" in seen[0]
    # Nothing was sent: the next move made is the discard, in the play phase.
    v = state(page)["version"]
    page.click(f'#hand [data-card="{best_discard(g)}"]')
    page.click("#btn-discard")
    wait_version(page, v)
    assert state(page)["game"]["results"] == []
    page.wait_for_function(
        "window.rummy.state.game.current === window.rummy.state.game.seat"
        " && window.rummy.state.game.phase === 'draw'"
    )
    v = state(page)["version"]
    page.click("#stock")
    wait_version(page, v)
    assert any("wrong_show" in m for m in state(page)["game"]["legal"])
    page.once("dialog", answer(True))
    v = state(page)["version"]
    page.click("#btn-knock")
    wait_version(page, v)
    assert len(seen) == 2 and state(page)["game"]["phase"] == "knock"
    g = state(page)["game"]
    v = state(page)["version"]
    page.click(f'#hand [data-card="{g["hand"][0]}"]')
    page.click("#btn-discard")  # no valid card out exists: no second warning
    page.wait_for_function("window.rummy.state.game.phase === 'over'")
    res = state(page)["game"]["results"][0]
    assert len(seen) == 2 and res["reason"] == "wrong_show" and res["winner"] == 1
    assert res["players"][0]["hand_points"] == 80
    page.close()


def ann_draws(server: ServerThread, table: dict[str, Any]) -> bool:
    """Wait until Ann (seat 0) is to draw in the table's first deal, or the deal is
    over without her; whether her turn came.  The bots wait on her turn, so it holds
    until she moves."""
    live = server.server.config.app.state.manager.tables[table["id"]]  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while not (live.state.current == 0 and live.state.phase is Phase.DRAW):
        if live.state.results:
            return False
        assert time.monotonic() < deadline, "the bots never passed the turn to Ann"
        time.sleep(0.01)
    return True


def table_where_ann_draws(server: ServerThread, body: dict[str, Any]) -> dict[str, Any]:
    """A table made from ``body`` where Ann's first turn to draw came (:func:`ann_draws`):
    up to 10 tables, since the bots before her may end the deal without her."""
    for _ in range(10):
        table = create(server, body)
        if ann_draws(server, table):
            return table
    raise AssertionError("in 10 tables the deal ended before Ann's turn")


def seat_at(server: ServerThread, browser: Any, position: GameState) -> tuple[Any, GameState]:
    """A page for Ann at a two-seat Indian table that plays from ``position`` (Ann to
    draw): the table is created as any other, and once it is Ann's turn to draw, the
    server's state is this position (the page is not open yet, and the bot waits).  The
    table is made without drops, so that the bot cannot end the deal by dropping before
    Ann's turn comes.  A bot that plays first may still declare on its first turn (a
    valid show from the deal: 8 of 3,000 deals tried), so up to 10 tables are made."""
    body = {
        "rules": "indian(first_drop=0, middle_drop=0)",
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "difficulty": "easy"}],
    }
    t = table_where_ann_draws(server, body)
    live = server.server.config.app.state.manager.tables[t["id"]]  # type: ignore[attr-defined]
    position.names = list(live.state.names)
    live.state = position
    live.cache.clear()
    page = new_page(browser)
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_function("window.rummy.state !== null")
    return page, position


def sevens_wild(ann: str, bot: str) -> GameState:
    g = build("indian", hands=[ann, bot], discard="4D", phase=Phase.DRAW)
    return position_from_text(f"{position_to_text(g)} wild=7C")


def test_wild_cards_are_marked_and_arranged_as_the_count(
    server: ServerThread, browser: Any
) -> None:
    """Every card of the wild rank is a joker for the deal (Rummyculture, "Indian Rummy
    Rules": "all cards of that rank become wild"): the hand marks 7♠ with sevens wild,
    in sight and in words; Arrange lays the hand out as the status line counts it,
    7♠ playing as 5♠ in 4♠ 5♠ 6♠ (one count everywhere: 25, KC 2D 8C 5D loose)."""
    page, g = seat_at(
        server,
        browser,
        sevens_wild(
            "AH 2H 3H 4S 6S 7S 9C 9D 9H KC 2D 8C 5D", "2C 4C 6C 8C TC 2D 4D 6D 8D TD QS 3S 4S"
        ),
    )
    seven = next(c for c in bits(g.hands[0]) if c % 54 == 3 * 13 + 6)
    card = page.locator(f'#hand [data-card="{seven}"]')
    assert "wild" in (card.get_attribute("class") or "")
    assert card.get_attribute("aria-label") == "seven of spades (wild)"
    assert card.locator(".wild-mark").is_visible()
    plain = next(c for c in bits(g.hands[0]) if c % 54 == 3 * 13 + 5)  # 6♠
    assert "wild" not in (page.locator(f'#hand [data-card="{plain}"]').get_attribute("class") or "")
    assert "(your hand counts 25)" in page.inner_text("#status")
    page.click("#btn-arrange")
    page.wait_for_selector("#hand .meld-group")
    assert page.inner_text("#arrange-info").startswith("Counts 25.")
    card = page.locator(f'#hand [data-card="{seven}"]')
    assert card.get_attribute("aria-label") == "seven of spades (wild) as the five of spades"
    assert card.locator(".stands").inner_text() == "=5♠"
    group = page.locator("#hand .meld-group", has=page.locator(f'[data-card="{seven}"]'))
    faces = group.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.face)")
    assert faces == ["42", "45", "44"], faces  # 4♠, 7♠ as 5♠, 6♠
    dead = page.locator('#hand [data-group="deadwood"] [data-card]')
    assert sorted(dead.evaluate_all("els => els.map(e => +e.dataset.face)")) == [7, 12, 14, 17]
    page.close()


def test_round_end_lays_hands_out_as_they_count(server: ServerThread, browser: Any) -> None:
    """At the round end every hand shows as melds and loose cards, each card over what
    it counts: the bot's 7♥ (sevens wild) plays as 7♦ in 5♦-9♦ and counts 0, the loose
    cards add up to the hand's points (Rummyculture: "the wild card joker ... value of
    zero"; the count is the declarer's gain in Points Rummy)."""
    page, _g = seat_at(
        server,
        browser,
        sevens_wild(
            "AH 2H 3H 5S 6S 7S 8S 9C 9D 9H KC KD JK", "5D 6D 8D 9D 7H 2C 3C 4C KS KH QS 3S TC"
        ),
    )
    v = state(page)["version"]
    page.click("#discard")  # take 4♦
    wait_version(page, v)
    v = state(page)["version"]
    page.click("#btn-knock")
    wait_version(page, v)
    four = next(c for c in state(page)["game"]["hand"] if c % 54 == 16)
    page.click(f'#hand [data-card="{four}"]')
    page.click("#btn-discard")
    page.wait_for_selector("#summary:not(.hidden)")
    row = page.locator('#summary tr[data-seat="1"]')
    assert row.locator(".hand-layout .laid-meld").count() == 2
    seven = row.locator('.card[data-face="32"]')  # 7♥
    assert seven.get_attribute("aria-label") == "seven of hearts (wild) as the seven of diamonds"
    points = row.locator(".card-points").evaluate_all("els => els.map(e => +e.textContent)")
    assert sum(points) == int(row.locator(".hand-points").inner_text()) == 43, points
    page.close()
