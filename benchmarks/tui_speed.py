"""What a move costs in the terminal game: one whole deal per case, headless
(``App.run_test`` at 80x24, as the TUI tests run), bots instant.

The person's seat is played by key presses, as a player would: the ``easy`` bot's
choice turned into card keys and an action key (and an option's number when a
chooser opens; b or n in Contract Rummy's buy window); in Rummikub the person draws
(s).  Reported per case: the moves of the deal (every seat's), the wall seconds from
the table shown to the round's summary and milliseconds per move, and the same in
CPU seconds of the process (its threads' too: the bots think in workers), the
steadier figure on a loaded machine.  Run it on two
trees alternately (``PYTHONPATH=<tree>/src``) to compare them.

    python benchmarks/tui_speed.py --repeat 2
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from typing import Any

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit.bots import GreedyBot
from rummykit.moves import BUY, DISCARD, LAYOFF, MELD, SWAP, Move
from rummykit.state import Phase
from rummykit.tui import settings_from_options
from rummykit.tui.app import CARD_KEYS, RummyApp, TableScreen
from rummykit.tui.screens import ChoiceScreen, RoundSummaryScreen
from rummykit.tui.session import cards_for_move, choice_text
from rummykit.tui.table_screen import ACTION_KEYS

CASES = ("basic:2:2", "contract_big:8:4", "rum500_big:8:3", "rummikub:4:1")
"""``preset:players:seed``: the default cases (the 8-seat ones are the TUI tests')."""
SIZE = (80, 24)
MAX_MOVES = 2000


def keys_for(screen: TableScreen, move: Move) -> list[str]:
    """The keys that play ``move`` for the person on ``screen``."""
    s = screen.state
    if s.rules.free_table:
        return ["s"]
    if s.phase is Phase.BUY:
        return ["b" if move.kind == BUY else "n"]
    keys = ["c"] if screen.selected else []
    if move.kind in (MELD, LAYOFF, SWAP, DISCARD):
        hand = s.hands[screen.match.human]
        keys += [CARD_KEYS[screen.order.index(c)] for c in cards_for_move(s, hand, move)]
    keys.append(ACTION_KEYS.get(move.kind, "p"))  # a deep draw (500 Rum) is p
    return keys


async def play_deal(preset: str, players: int, seed: int) -> tuple[int, float, float]:
    """Moves, wall seconds and CPU seconds of one deal of ``preset`` in the app, headless."""
    settings = settings_from_options(
        rules=f"{preset}(deals=1)", players=players, bots="easy", name="Ann", seed=seed
    )
    app = RummyApp(settings=settings, instant=True)
    policy = GreedyBot()
    rng = random.Random(0)
    async with app.run_test(size=SIZE) as pilot:

        async def until_ready() -> Any:
            while True:
                screen = app.screen
                m = app.match
                if isinstance(screen, RoundSummaryScreen):
                    return screen
                if isinstance(screen, TableScreen) and m and m.my_turn and not screen.blocked:
                    return screen
                await pilot.pause(0.001)

        await until_ready()
        start = time.perf_counter()
        cpu = time.process_time()
        while True:
            screen = await until_ready()
            if isinstance(screen, RoundSummaryScreen):
                break
            assert app.match is not None
            s = app.match.state
            if len(s.history) > MAX_MOVES:
                raise RuntimeError(f"{preset} at {players}: no end after {MAX_MOVES} moves")
            before = len(s.history)
            move = policy.choose(s.view(app.match.human), rng)
            await pilot.press(*keys_for(screen, move))
            if isinstance(app.screen, ChoiceScreen):
                options = app.screen.options
                await pilot.press(str(options.index(choice_text(s, move)) + 1))
            if len(s.history) == before:
                raise RuntimeError(f"{preset}: {move} was not played: {screen.message}")
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu
        assert app.match is not None
        return len(app.match.state.history), seconds, cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--cases", default=",".join(CASES), help="comma list of preset:players:seed")
    ap.add_argument("--repeat", type=int, default=1, help="deals per case (the best is kept)")
    ap.add_argument("--out", default="tui_speed")
    args = ap.parse_args(argv)
    table = Table(title="a deal in the terminal game, headless at 80x24, bots instant")
    for col in ("preset", "players", "moves", "seconds", "ms/move", "CPU s", "CPU ms/move"):
        table.add_column(col, justify="right")
    rows = []
    for case in args.cases.split(","):
        preset, players, seed = case.split(":")
        runs = [asyncio.run(play_deal(preset, int(players), int(seed))) for _ in range(args.repeat)]
        moves = runs[0][0]
        best = min(t for _, t, _c in runs)
        cpu = min(c for _, _t, c in runs)
        row = {
            "preset": preset, "players": int(players), "seed": int(seed), "moves": moves,
            "seconds": best, "ms_per_move": 1000 * best / max(1, moves),
            "cpu_seconds": cpu, "cpu_ms_per_move": 1000 * cpu / max(1, moves),
            "all_seconds": [t for _, t, _c in runs],
            "median_seconds": statistics.median(t for _, t, _c in runs),
        }  # fmt: skip
        rows.append(row)
        table.add_row(
            preset, players, str(moves), f"{best:.2f}", f"{row['ms_per_move']:.1f}",
            f"{cpu:.2f}", f"{row['cpu_ms_per_move']:.1f}",
        )  # fmt: skip
        print(f"{preset} {players}p: {moves} moves in {best:.2f} s", file=sys.stderr, flush=True)
    Console(width=100).print(table)
    given = sys.argv[1:] if argv is None else argv
    write_results(
        args.out, {"command": "python benchmarks/tui_speed.py " + " ".join(given), "rows": rows}
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
