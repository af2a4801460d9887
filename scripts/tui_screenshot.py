"""Export an SVG screenshot of a real game in the terminal app for the README.

    .venv/bin/python scripts/tui_screenshot.py [docs/screenshot-tui.svg]

It starts a seeded French Rami game against three bots, plays your seat with the
``easy`` bot's choices by pressing the same keys a person would, and saves the
screen at a moment with melds on the table and cards selected in your hand.
Nothing is written to your saved games: the data directory is a temporary one.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
from pathlib import Path

from rummykit.bots import GreedyBot
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD, SWAP, TAKE
from rummykit.state import Phase
from rummykit.tui import settings_from_options
from rummykit.tui.app import CARD_KEYS, RummyApp, TableScreen
from rummykit.tui.screens import ChoiceScreen, RoundSummaryScreen
from rummykit.tui.session import cards_for_move, choice_text

KEYS = {DRAW_STOCK: "s", DRAW_DISCARD: "p", MELD: "m", LAYOFF: "l", SWAP: "j", TAKE: "t",
        DISCARD: "d"}  # fmt: skip
SIZE = (100, 30)


async def shoot(out: Path) -> None:
    settings = settings_from_options(
        rules="rami51", players=4, bots="hard,medium,easy", name="Ann", seed=11
    )
    app = RummyApp(settings=settings, instant=True)
    policy = GreedyBot()
    rng = random.Random(1)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(4000):
            await pilot.pause(0.01)
            screen = app.screen
            m = app.match
            if isinstance(screen, RoundSummaryScreen) or m is None:
                break
            if not isinstance(screen, TableScreen) or not m.my_turn or screen.blocked:
                continue
            s = m.state
            if len(s.table) >= 5 and s.phase is Phase.DRAW:
                # Draw, then select the two cards the hint would keep together.
                await pilot.press("s")
                hand = screen.order
                await pilot.press(CARD_KEYS[hand.index(hand[1])], CARD_KEYS[2])
                await pilot.pause(0.2)
                break
            move = policy.choose(s.view(m.human), rng)
            keys: list[str] = ["c"] if screen.selected else []
            if move.kind in (MELD, LAYOFF, SWAP, DISCARD):
                for card in cards_for_move(s, s.hands[m.human], move):
                    keys.append(CARD_KEYS[screen.order.index(card)])
            want = choice_text(s, move)
            await pilot.press(*keys, KEYS[move.kind])
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press(str(app.screen.options.index(want) + 1))
        app.save_screenshot(out.name, str(out.parent))


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshot-tui.svg").resolve()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RUMMYKIT_DATA_DIR"] = tmp
        asyncio.run(shoot(out))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
