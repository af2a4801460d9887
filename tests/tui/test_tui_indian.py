"""The terminal game plays Indian Rummy: draw (s, p), discard (d), declare (k) and put
out the extra card (select it, d), drop (x); the wild cut and drops on screen."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from helpers import build
from rummykit.bots import GreedyBot
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, DROP, KNOCK, Move
from rummykit.position import position_from_text, position_to_text
from rummykit.results import RoundEnd
from rummykit.rulebook import rules_summary
from rummykit.rules import Rules
from rummykit.state import Phase
from rummykit.tui.app import CARD_KEYS, RummyApp
from rummykit.tui.screens import ChoiceScreen, HelpScreen, RoundSummaryScreen
from rummykit.tui.session import ENV_DATA_DIR, TUI_PRESETS, cards_for_move
from rummykit.tui.widgets import HandView
from rummykit.variants.indian import declare_fields
from test_tui import SIZE, _footer_text, my_turn, start, sync, table, wait_until, with_match

KEYS = {DRAW_STOCK: "s", DRAW_DISCARD: "p", DISCARD: "d", KNOCK: "k", DROP: "x"}
PRESETS = ("indian", "indian_pool101", "indian_pool201", "indian_deals")


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "data"))
    return tmp_path / "data"


async def press_move(pilot: Pilot[Any], app: RummyApp, move: Move) -> None:
    screen = table(app)
    assert app.match is not None
    s = app.match.state
    keys = ["c"] if screen.selected else []
    if move.kind == DISCARD:
        for card in cards_for_move(s, s.hands[app.match.human], move):
            keys.append(CARD_KEYS[screen.order.index(card)])
    before = len(s.history)
    await pilot.press(*keys, KEYS[move.kind])
    if move.kind == DROP:  # asked first
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("1")
    assert len(s.history) > before, (move, screen.message)


async def play_deal(pilot: Pilot[Any], app: RummyApp) -> list[int]:
    """The person plays the easy bot's moves by keys until the deal ends."""
    policy = GreedyBot()
    rng = random.Random(0)
    kinds: list[int] = []
    while True:
        await wait_until(pilot, lambda: isinstance(app.screen, RoundSummaryScreen) or my_turn(app))
        if isinstance(app.screen, RoundSummaryScreen):
            return kinds
        assert app.match is not None and len(kinds) < 600
        s = app.match.state
        move = policy.choose(s.view(app.match.human), rng)
        await press_move(pilot, app, move)
        kinds.append(move.kind)


@pytest.mark.parametrize("spec", PRESETS)
@sync
async def test_a_whole_deal_by_keys(spec: str) -> None:
    app = start(spec, players=3, seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app) or isinstance(app.screen, RoundSummaryScreen))
        if my_turn(app):
            await wait_until(pilot, lambda: bool(_footer_text(app)))  # drawn a frame later
            footer = _footer_text(app)
            assert "Declare" in footer and "Drop" in footer
            assert "Knock" not in footer and "Pass" not in footer
            status = str(table(app).query_one("#status").render())
            assert "wild" in status and "drop (x)" in status
        kinds = await play_deal(pilot, app)
        assert app.match is not None
        s = app.match.state
        assert s.results[0].reason in (RoundEnd.DECLARE, RoundEnd.DROP)
        assert kinds or s.results[0].reason is RoundEnd.DROP
        title = str(app.screen.query_one("#dialog-title").render())
        assert "declared" in title or "dropped" in title, title


def declaring_position() -> Any:
    g = build(
        "indian",
        hands=["AH 2H 3H 5S 6S 7S 8S 9C 9D 9H KC KD JK", "2C 4C 6C 8C TC 2D 4D 6D 8D TD QS 3S 4S"],
        discard="4D",
        phase=Phase.DRAW,
    )
    return position_from_text(f"{position_to_text(g)} wild=JC")


@sync
async def test_declare_by_keys_then_put_out_the_extra_card() -> None:
    g = declaring_position()
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        assert "counts 0" in str(screen.query_one("#hand-box").border_title)
        await pilot.press("p")  # take 4D
        assert "declare (k)" in str(screen.query_one("#status").render())
        await pilot.press("k")
        assert g.phase is Phase.KNOCK
        assert "put out" in str(screen.query_one("#status").render())
        # 2H out would break A-2-3, a wrong show: the game warns, and Esc keeps playing.
        two = next(c for c in screen.order if c % 54 == 27)
        await pilot.press(CARD_KEYS[screen.order.index(two)], "d")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        assert "Wrong show" in str(app.screen.query_one("#dialog-title").render())
        await pilot.press("escape")
        await wait_until(pilot, lambda: my_turn(app))
        assert g.phase is Phase.KNOCK and g.hands[0] >> two & 1
        four = next(c for c in screen.order if c % 54 == 16)
        await pilot.press("c", CARD_KEYS[screen.order.index(four)], "d")
        await wait_until(pilot, lambda: isinstance(app.screen, RoundSummaryScreen))
        assert g.results[-1].reason is RoundEnd.DECLARE and g.results[-1].winner == 0


def wrong_show_position() -> Any:
    """Seat 1 to play, holding one sequence only (A-2-3 of hearts) and no way to a
    valid show this turn."""
    g = build(
        "indian",
        hands=["AH 2H 3H 5S 6S 8S 9C 9D 9H KC KD 4D 2S", "2C 4C 6C 8C TC 2D 4D 6D 8D TD QS 3S 4S"],
        discard="TH",
        phase=Phase.DRAW,
    )
    return position_from_text(f"{position_to_text(g)} wild=JC")


@sync
async def test_a_wrong_show_is_warned_before_it_is_made() -> None:
    """Declaring a hand that is not a valid show costs 80 (Rummyera, "Points Rummy":
    "Wrong Show | Loss of 80 Points"), so the game asks first, as the rummy apps do:
    Keep playing changes nothing; Declare anyway makes the wrong show."""
    g = wrong_show_position()
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        await pilot.press("s")
        assert "declare (k):" not in str(screen.query_one("#status").render())
        await pilot.press("k")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        dialog = app.screen
        title = str(dialog.query_one("#dialog-title").render())
        assert "Wrong show" in title and "80 points" in title
        await pilot.press("2")  # Keep playing
        await wait_until(pilot, lambda: my_turn(app))
        assert g.phase is Phase.PLAY and not g.results
        await pilot.press("k")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("1")  # Declare anyway
        await wait_until(pilot, lambda: g.phase is Phase.KNOCK and my_turn(app))
        await pilot.press(CARD_KEYS[0], "d")  # any card out: no second warning
        await wait_until(pilot, lambda: isinstance(app.screen, RoundSummaryScreen))
        res = g.results[-1]
        assert res.reason is RoundEnd.WRONG_SHOW and res.players[0].hand_points == 80


@sync
async def test_drop_by_key_is_asked_first() -> None:
    """A drop ends the player's deal for its points (Playship, "Pool Rummy": "a player
    can drop ... 20 points" in Pool 101): x asks first, Escape or "Keep playing"
    changes nothing, and choosing the drop drops."""
    app = start("indian_pool101", players=3, seed=8)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        assert app.match is not None
        s = app.match.state
        me = app.match.human
        before = len(s.history)
        await pilot.press("x")
        assert isinstance(app.screen, ChoiceScreen), table(app).message
        assert "20 points" in app.screen.title_text and app.screen.options[1] == "Keep playing"
        await pilot.press("escape", "x", "2")
        assert (
            len(s.history) == before
            and declare_fields(s).dropped[me] == 0
            and not isinstance(app.screen, ChoiceScreen)
        )
        await pilot.press("x", "1")
        assert declare_fields(s).dropped[me] in (20, 40) or s.round_no > 1
        seats = str(table(app).query_one("#players-box").render())
        assert s.round_no > 1 or "dropped" in seats or s.current != me


def test_new_game_screen_and_help_offer_indian_rummy() -> None:
    assert set(PRESETS) <= set(TUI_PRESETS)
    text = " ".join(rules_summary(Rules.preset("indian_pool201")))
    assert "declare (k)" in text and "Drop (x)" in text and "201" in text and "wild" in text.lower()


@sync
async def test_help_screen_describes_the_declaration() -> None:
    app = with_match(declaring_position())
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen) and app.screen.rules.declare


def wild_position() -> Any:
    """Sevens wild (the cut 7♣): seat 0 can declare after taking 4♦; seat 1 holds 7♥,
    which plays as 7♦ between 6♦ and 8♦."""
    g = build(
        "indian",
        hands=["AH 2H 3H 5S 6S 7S 8S 9C 9D 9H KC KD JK", "5D 6D 8D 9D 7H 2C 3C 4C KS KH QS 3S TC"],
        discard="4D",
        phase=Phase.DRAW,
    )
    return position_from_text(f"{position_to_text(g)} wild=7C")


def styles_of(text: Any, part: str) -> list[Any]:
    """The styles of the spans of a rendered Rich text that cover the first ``part``."""
    at = text.plain.index(part)
    return [sp.style for sp in text.spans if sp.start <= at < sp.end]


@sync
async def test_wild_cards_are_marked_in_the_hand() -> None:
    """Every card of the wild rank is a joker for the deal (Rummyculture, "Indian Rummy
    Rules": "a card is selected at random ... all cards of that rank become wild"), so
    the hand draws it as a joker, underlined: 7♠ with sevens wild, not 8♠."""
    app = with_match(wild_position())
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        view = table(app).query_one(HandView)
        seven = next(c for c in view.cards if c % 54 == 3 * 13 + 6)
        assert view.wild == {seven}
        rendered = view.render()
        assert any(getattr(s, "underline", False) for s in styles_of(rendered, "7♠"))
        assert not any(getattr(s, "underline", False) for s in styles_of(rendered, "8♠"))


@sync
async def test_arrange_counts_as_the_status_line() -> None:
    """Arrange (r, to melds) lays the hand out as Indian Rummy counts it, with the wild
    rank and the two-sequence rule (Rummyculture: "a pure sequence is mandatory"): its
    count is the hand title's, holding 14 cards too (after the best card out)."""
    g = wild_position()
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        box = screen.query_one("#hand-box")
        while app.hand_order != "melds":
            await pilot.press("r")
        assert "counts 0" in str(box.border_title)
        assert "4 melds, counts 0" in str(box.border_subtitle), box.border_subtitle
        assert "🃏 as K♥" in str(box.border_subtitle)  # KC KD and the joker
        await pilot.press("s")  # a fourteenth card: the count after the best card out
        await wait_until(pilot, lambda: g.phase is Phase.PLAY)
        title = str(box.border_title)
        count = title.split("counts ")[1].split(" ")[0]
        assert f"counts {count} after putting out" in str(box.border_subtitle)


@sync
async def test_round_end_lays_hands_out_with_what_wild_cards_stand_for() -> None:
    """At the round end each hand shows as melds and loose cards; a wild card counts 0
    and says what it stands for (7♥ as 7♦), and the loose cards' points add up to the
    hand's (Rummyculture: "the wild card joker ... value of zero")."""
    g = wild_position()
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        await pilot.press("p", "k")
        four = next(c for c in screen.order if c % 54 == 16)
        await pilot.press("c", CARD_KEYS[screen.order.index(four)], "d")
        await wait_until(pilot, lambda: isinstance(app.screen, RoundSummaryScreen))
        res = g.results[-1]
        assert res.reason is RoundEnd.DECLARE and res.wild % 54 == 6
        body = "\n".join(str(w.render()) for w in app.screen.query(Static))
        assert "7♥ as 7♦" in body, body
        bob = body.split(g.names[1])[1]
        rows = bob.split("\n")
        points = sum(int(x) for x in rows[3].split())
        assert points == res.players[1].hand_points == 43, bob
