"""Legality soak: every bot plays thousands of deals of every preset, and no move it
returns may be illegal.

``play_match`` applies each bot's move with ``GameState.apply``, which raises
``IllegalMoveError`` for a move outside the legal list, so a deal that ends is a deal
in which every move was legal.  Each deal is played by one bot in every seat (so the
bot plays every seat's position), with 2 to the preset's most players in turn and
seeds 0, 1, 2, ...  The search bot plays fewer deals at a tiny budget: its moves are
chosen among the expert's legal candidates whatever the budget, and its thousands of
deals at full strength are the strength runs (``benchmarks/strength.py``).

    python benchmarks/legality.py                   # 2,000 deals per preset and bot
    python benchmarks/legality.py --deals 100       # a quick look
    python benchmarks/legality.py --matches --presets indian_pool101   # whole matches

Prints a table (deals, actions, illegal moves, errors) and writes
``benchmarks/results/legality.json``.  The exit status is 1 if any move was illegal.
"""

from __future__ import annotations

import argparse
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit.bots import make_bot, play_match
from rummykit.errors import IllegalMoveError
from rummykit.rules import Rules

PRESETS = (
    "basic", "classic", "cg101", "rami51", "gin", "rum500", "rum500_big", "kalooki",
    "kalooki_big", "indian", "indian_pool101", "indian_pool201", "indian_deals", "contract",
    "contract_big", "rummikub",
)  # fmt: skip
BOTS = ("random", "greedy", "expert", "ismcts:2i")
SEARCH_SHARE = 20
"""The search bot plays one deal in this many."""


def play_deals(preset: str, bot: str, seeds: list[int], matches: bool = False) -> dict[str, Any]:
    """Play single deals of ``preset`` (whole matches with ``matches``) with ``bot`` in
    every seat; count what happened."""
    rules = Rules.preset(preset)
    # A contract game's deals differ (deal k has contract k): play whole matches of
    # seven deals, each counted as a deal.
    spec = preset if matches or rules.contracts else f"{preset}(deals=1)"
    lo, hi = rules.min_players, rules.max_players
    out: dict[str, Any] = {"deals": 0, "actions": 0, "illegal": [], "errors": []}
    for seed in seeds:
        n = lo + seed % (hi - lo + 1)
        try:
            _state, stats = play_match(spec, n, [make_bot(bot) for _ in range(n)], seed)
        except IllegalMoveError as exc:
            out["illegal"].append({"seed": seed, "players": n, "error": str(exc)})
            continue
        except Exception:
            out["errors"].append({"seed": seed, "players": n, "error": traceback.format_exc()})
            continue
        out["deals"] += stats.rounds
        out["actions"] += stats.actions
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", type=int, default=2000, help="deals per preset and bot")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--bots", default=",".join(BOTS))
    ap.add_argument(
        "--matches",
        action="store_true",
        help="play whole matches, not single deals (pool eliminations, deals formats)",
    )
    ap.add_argument("--name", default="legality", help="results file: benchmarks/results/NAME.json")
    ap.add_argument(
        "--start",
        type=int,
        default=0,
        help="first seed (a later run extends a soak with new seeds)",
    )
    args = ap.parse_args(argv)
    started = time.perf_counter()
    console = Console()
    rows = []
    jobs = []
    with ProcessPoolExecutor(args.workers) as pool:
        for preset in args.presets.split(","):
            for bot in args.bots.split(","):
                deals = args.deals // SEARCH_SHARE if bot.startswith("ismcts") else args.deals
                step = 4 * args.workers
                chunks = [
                    list(range(args.start + i, args.start + deals, step)) for i in range(step)
                ]
                futures = [
                    pool.submit(play_deals, preset, bot, c, args.matches) for c in chunks if c
                ]
                jobs.append((preset, bot, deals, futures, time.perf_counter()))
        for preset, bot, deals, futures, _t in jobs:
            row: dict[str, Any] = {"preset": preset, "bot": bot, "asked": deals}
            row.update(deals=0, actions=0, illegal=[], errors=[])
            for f in futures:
                part = f.result()
                row["deals"] += part["deals"]
                row["actions"] += part["actions"]
                row["illegal"] += part["illegal"]
                row["errors"] += part["errors"]
            rows.append(row)
    what = "whole matches" if args.matches else "single deals"
    table = Table(title=f"Legality soak: {what}, one bot in every seat")
    for col in ("preset", "bot", "deals", "actions", "illegal moves", "errors"):
        table.add_column(col, justify="left" if col in ("preset", "bot") else "right")
    for r in rows:
        table.add_row(
            r["preset"],
            r["bot"],
            f"{r['deals']:,}",
            f"{r['actions']:,}",
            str(len(r["illegal"])),
            str(len(r["errors"])),
        )
    console.print(table)
    total_bad = sum(len(r["illegal"]) + len(r["errors"]) for r in rows)
    payload = {"args": vars(args), "rows": rows, "illegal_or_errors": total_bad}
    payload["seconds"] = round(time.perf_counter() - started, 1)
    write_results(args.name, payload)
    return 1 if total_bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
