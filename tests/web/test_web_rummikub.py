"""Rummikub in the browser: a turn that rearranges the table, played on the board of
sets by dragging and by clicks, and sent as the table's new arrangement in notation;
an invalid set is marked on the page and refused by the server, which changes
nothing.  Debian's Chromium driven by Playwright (``web_slow``)."""

from __future__ import annotations

import time
from typing import Any

import test_web_browser as wb
from helpers import build
from rummykit.cards import bits
from rummykit.state import GameState, Phase
from web_helpers import ServerThread

pytestmark = wb.pytestmark
server = wb.server
browser = wb.browser
"""The browser tests' module fixtures (a server with an SQLite store, Chromium)."""
create, new_page, state, wait_version = wb.create, wb.new_page, wb.state, wb.wait_version


def ann_to_play() -> GameState:
    """Ann (seat 0, opened) holds 5H 9H TH 2S 3C KD; the table is 6H 7H 8H and
    7C 7D 7S."""
    return build(
        "rummikub",
        hands=["5H 9H TH 2S 3C KD", "AC 2C 3C 4C 5C 6C"],
        table=[(1, "6H 7H 8H"), (1, "7C 7D 7S")],
        phase=Phase.TILES,
        opened=[True, True],
        melded=[True, True],
        laid=[True, True],
    )


def rummikub_table(server: ServerThread, position: GameState, second: str = "") -> dict[str, Any]:
    """A two-person Rummikub table whose server state is ``position``, as the lobby's
    answer describes it (its seats' links): Ann's, and the seat of ``second`` (open
    when no name is given)."""
    bob = {"kind": "human", "name": second} if second else {"kind": "human"}
    t = create(server, {"rules": "rummikub", "seats": [{"kind": "human", "name": "Ann"}, bob]})
    live = server.server.config.app.state.manager.tables[t["id"]]  # type: ignore[attr-defined]
    position.names = list(live.state.names)
    live.state = position
    live.cache.clear()
    return t


def open_board(
    server: ServerThread, browser: Any, t: dict[str, Any], seat: int = 0, locale: str = "en-US"
) -> Any:
    """The page of ``seat`` at the Rummikub table ``t``, once it has drawn the board."""
    page = new_page(browser, locale=locale)
    page.goto(server.base + t["seats"][seat]["link"])
    page.wait_for_function("window.rummy.state !== null")
    # the board's module loads on demand: the page is Rummikub's once it has drawn it
    page.locator("#rk-board").wait_for(state="visible")
    page.locator("#hand").wait_for(state="hidden")
    return page


def seat_ann(server: ServerThread, browser: Any, position: GameState, locale: str = "en-US") -> Any:
    """Ann's page at a two-person Rummikub table whose server state is ``position``
    (set before the page opens; nobody else plays)."""
    return open_board(server, browser, rummikub_table(server, position), locale=locale)


def sets_on_board(page: Any) -> list[tuple[str, str]]:
    """Each set of the board: its tiles' faces in order and its validity mark."""
    out: list[tuple[str, str]] = page.locator("#rk-sets .rk-set").evaluate_all(
        "els => els.map(e => [[...e.querySelectorAll('.tile')].map(x => x.title).join(' '),"
        " e.dataset.valid])"
    )
    return [(tiles, valid) for tiles, valid in out]


def tile(page: Any, face: str) -> Any:
    """The board's or the rack's tile of ``face`` ("5H")."""
    from rummykit.cards import parse_face

    f = parse_face(face)
    return page.locator(f'#rk-board .tile[data-face="{f}"], #rk-rack .tile[data-face="{f}"]')


def drag(page: Any, source: Any, target: Any) -> None:
    """A pointer drag, as a finger or a mouse makes it: press, move in steps, release."""
    a = source.bounding_box()
    b = target.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_timeout(50)  # the drop lands after the release's click


def test_a_rummikub_turn_rearranges_the_table(server: ServerThread, browser: Any) -> None:
    page = seat_ann(server, browser, ann_to_play())
    g = state(page)["game"]
    v = state(page)["version"]
    assert g["options"]["free_table"]
    assert page.locator("#hand").is_hidden() and page.locator("#rk-board").is_visible()
    assert len(sets_on_board(page)) == 2
    assert all(valid == "true" for _t, valid in sets_on_board(page))
    assert page.locator("#rk-rack .tile").count() == 6
    assert page.locator("#btn-play").is_disabled() and page.locator("#btn-draw").is_enabled()
    assert "arrange the table's sets and play, or draw a tile" in page.inner_text("#status")

    # an invalid set: marked by the page, refused by the server, nothing changes
    tile(page, "5H").click()
    page.click("#rk-new")
    assert sets_on_board(page)[-1][1] == "false"
    assert page.locator("#btn-draw").is_disabled()  # a tile is placed: play or reset
    page.click("#btn-play")
    page.wait_for_function("document.querySelector('#error').textContent.includes('not a set')")
    assert "5H" in page.inner_text("#error") or "5♥" in page.inner_text("#error")
    assert state(page)["version"] == v
    live_melds = state(page)["game"]["melds"]
    assert [m["text"] for m in live_melds] == ["6H 7H 8H", "7C 7D 7S"]
    # a table tile does not go back to the rack
    tile(page, "7S").click()
    page.click("#rk-rack", position={"x": 4, "y": 4})
    assert "stays on the table" in page.inner_text("#error")
    page.click("#btn-reset")
    assert page.inner_text("#error") == ""
    assert len(sets_on_board(page)) == 2 and page.locator("#rk-rack .tile").count() == 6

    # the turn: 5H dragged onto 6H 7H 8H, 9H clicked onto it, the run split before 8H,
    # TH put onto 8H 9H by the keyboard (Enter selects, 2 names the second set)
    drag(page, tile(page, "5H"), page.locator('#rk-sets [data-set="0"] .rk-mark'))
    tile(page, "9H").click()
    page.click('#rk-sets [data-set="0"] .rk-mark')
    assert sets_on_board(page)[0] == (
        "five of hearts six of hearts seven of hearts eight of hearts nine of hearts",
        "true",
    )
    tile(page, "8H").click()
    page.click("#btn-split")
    tile(page, "TH").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("2")
    assert [valid for _t, valid in sets_on_board(page)] == ["true", "true", "true"]
    page.click("#btn-play")
    wait_version(page, v)
    g = state(page)["game"]
    assert sorted(m["text"] for m in g["melds"]) == ["5H 6H 7H", "7C 7D 7S", "8H 9H TH"]
    assert len(g["hand"]) == 3 and g["current"] == 1
    assert state(page)["log"][-1]["text"] == "table 5H 6H 7H / 8H 9H TH / 7C 7D 7S"
    deadline = time.monotonic() + 10
    while len(sets_on_board(page)) != 3:
        assert time.monotonic() < deadline, sets_on_board(page)
        page.wait_for_timeout(20)
    assert page.locator("#rk-rack .tile").count() == 3
    assert page.inner_text("#error") == ""
    assert not set(bits(ann_to_play().hands[1])) & {
        int(c)
        for c in page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    }
    page.close()

    # the server's refusal in the page's language
    page = seat_ann(server, browser, ann_to_play(), locale="fr-FR")
    v = state(page)["version"]
    tile(page, "5H").click()
    page.click("#rk-new")
    page.click("#btn-play")
    page.wait_for_function("document.querySelector('#error').textContent.length > 0")
    assert "n'est pas une combinaison" in page.inner_text("#error")
    assert state(page)["version"] == v and page.inner_text("#btn-play") == "Jouer"
    page.close()


def bob_to_play() -> GameState:
    """Bob (seat 1, opened) holds 5H 9H TH 2D 3D KC, Ann 2S 3C KD QS JD 4D; the table
    is 6H 7H 8H and 7C 7D 7S."""
    return build(
        "rummikub",
        hands=["2S 3C KD QS JD 4D", "5H 9H TH 2D 3D KC"],
        table=[(1, "6H 7H 8H"), (1, "7C 7D 7S")],
        phase=Phase.TILES,
        current=1,
        opened=[True, True],
        melded=[True, True],
        laid=[True, True],
    )


BOBS_TURN = "table 5H 6H 7H / 8H 9H TH / 7C 7D 7S"
"""Bob places 5H, 9H and TH and moves 8H from the first set to a set of its own."""


def play_as(page: Any, move: dict[str, Any]) -> None:
    """``move`` sent by the page's player over its connection, as its buttons send it,
    and its new state awaited."""
    v = state(page)["version"]
    page.evaluate(
        "(move) => window.rummy.ws.send(JSON.stringify("
        "{type: 'move', version: window.rummy.version, move}))",
        move,
    )
    wait_version(page, v)


def marked(page: Any, cls: str) -> list[str]:
    """The faces (in words) of the board's tiles marked with ``cls``."""
    out: list[str] = page.locator(f"#rk-sets .tile.{cls}").evaluate_all(
        "els => els.map(e => e.title)"
    )
    return sorted(out)


def test_another_player_s_rearrangement_is_animated_and_marked(
    server: ServerThread, browser: Any
) -> None:
    t = rummikub_table(server, bob_to_play(), "Bob")
    ann = open_board(server, browser, t)
    bob = open_board(server, browser, t, seat=1)
    v = state(ann)["version"]
    play_as(bob, {"kind": "text", "text": BOBS_TURN})
    wait_version(ann, v)
    ann.wait_for_function("window.rummy.animations === 1")
    assert state(ann)["log"][-1]["text"] == BOBS_TURN
    # the tiles from Bob's rack flew from his seat; 8H slid to its new set
    assert marked(ann, "rk-placed") == ["five of hearts", "nine of hearts", "ten of hearts"]
    assert marked(ann, "rk-moved") == ["eight of hearts"]
    changed = ann.locator("#rk-sets .rk-set.rk-changed").evaluate_all(
        "els => els.map(e => [...e.querySelectorAll('.tile')].map(x => x.title).join(' '))"
    )
    assert sorted(changed) == [
        "eight of hearts nine of hearts ten of hearts",
        "five of hearts six of hearts seven of hearts",
    ]
    said = ann.inner_text("#announce")  # for screen readers: the move and what it did
    assert said.startswith("Bob: ")
    assert said.endswith("(3 tiles placed from the rack, 1 tile moved to another set)")
    assert "five of hearts" in said or "5♥" in said

    # the marks stay while Ann arranges, until the next move: her draw clears them
    ann.locator('#rk-rack .tile[title="two of spades"]').click()
    assert len(marked(ann, "rk-placed")) == 3
    ann.click("#btn-reset")
    v = state(ann)["version"]
    ann.click("#btn-draw")
    wait_version(ann, v)
    assert marked(ann, "rk-placed") == marked(ann, "rk-moved") == []
    assert ann.locator("#rk-sets .rk-changed").count() == 0
    assert ann.evaluate("window.rummy.animations") == 1  # her own move is not animated
    # Bob draws: a tile back flies from the pool to his seat, marked there
    v = state(ann)["version"]
    play_as(bob, {"kind": "draw_stock"})
    wait_version(ann, v)
    ann.wait_for_function("window.rummy.animations === 2")
    last = ann.evaluate("window.rummy.lastMove")
    assert (last["seat"], last["from"], last["to"]) == (1, "stock", "seat")
    assert ann.locator('#seats [data-seat="1"] .backs.last-move').count() == 1
    # the reading of a change: two sets joined continue the first; a set split in two
    # continues as its bigger part; a set left as it was is not marked
    seen = ann.evaluate(
        "import('/static/tiles.js').then(({tableChange}) => ["
        " [[[1, 2, 3], [4, 5, 6]], [[1, 2, 3, 4, 5, 6]]],"
        " [[[1, 2, 3, 4, 5], [7, 8, 9]], [[1, 2], [3, 4, 5, 6], [9, 8, 7]]],"
        " [[[1, 2, 3]], [[3, 2, 1]]],"
        "].map(([a, b]) => Object.values(tableChange(a, b)).map((s) => [...s])))"
    )
    assert seen == [
        [[], [4, 5, 6], ["1,2,3,4,5,6"]],
        [[6], [1, 2], ["1,2", "3,4,5,6"]],
        [[], [], []],
    ]
    ann.close()
    bob.close()

    # with reduced motion, in French: the same marks, nothing moves
    t = rummikub_table(server, bob_to_play(), "Bob")
    ann = open_board(server, browser, t, locale="fr-FR")
    ann.emulate_media(reduced_motion="reduce")
    bob = open_board(server, browser, t, seat=1)
    v = state(ann)["version"]
    play_as(bob, {"kind": "text", "text": BOBS_TURN})
    wait_version(ann, v)
    ann.wait_for_function("document.querySelectorAll('#rk-sets .rk-placed').length === 3")
    assert len(marked(ann, "rk-moved")) == 1
    assert ann.locator("#rk-sets .rk-changed").count() == 2
    assert ann.locator(".card.flying").count() == 0
    assert ann.evaluate("document.getAnimations().length") == 0
    assert ann.evaluate("window.rummy.animations") == 0
    assert ann.inner_text("#announce").endswith(
        "(3 tuiles posées depuis le chevalet, 1 tuile déplacée dans une autre combinaison)"
    )
    ann.close()
    bob.close()
