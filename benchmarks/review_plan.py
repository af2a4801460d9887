"""A long round's review plan: what replaying it costs, whole or capped (issue 27,
finding 3).

``basic(decks=2, set_suits=any, max_turns=10000, max_restocks=100, deals=1)`` allows a
legal deal of 16,966 moves (both players only draw from the stock and discard, until
the restock limit ends the round).  A review first replays the round in a worker and
sends back each decision to grade (web/reviews.py, ``plan_review``).  Measured, each
in a process of its own (so that one's peak does not hide the other's):

* ``every decision, whole match``: every decision of the round, each carrying the
  whole match's history (the plan before the cap);
* ``capped``: the web's plan, at most ``review_max_decisions`` (60) decisions spread
  over the round, each carrying its own round only.

Reported: the decisions, the plan's JSON size, the peak of memory allocated while it
is made (``tracemalloc``, whose own overhead slows the replay) and its CPU seconds.

    python benchmarks/review_plan.py
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
import tracemalloc
from typing import Any

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit import new_game
from rummykit.bots.review import decision_points
from rummykit.moves import DISCARD, DRAW_STOCK
from rummykit.serialize import state_to_json
from rummykit.state import GameState, Phase
from rummykit.web.reviews import plan_review
from rummykit.web.settings import Settings

RULES = "basic(decks=2, set_suits=any, max_turns=10000, max_restocks=100, deals=1)"


def long_match(seed: int = 5) -> GameState:
    """Both players draw from the stock and discard (a random card) until the end."""
    g = new_game(RULES, 2, seed=seed)
    rng = random.Random(1)
    while g.phase is not Phase.OVER:
        legal = g.legal_moves()
        simple = [m for m in legal if m.kind in (DRAW_STOCK, DISCARD)]
        g.apply(rng.choice(simple or list(legal)))
    return g


def measure(case: str) -> dict[str, Any]:
    final = long_match()
    state_json = state_to_json(final)
    tracemalloc.start()
    cpu = time.process_time()
    if case == "capped":
        plan = plan_review(state_json, 0, 1, Settings.review_max_decisions)
        sizes = [len(p[1]) for p in plan.points]
    else:
        points, _last = decision_points(final, 0, 1)
        sizes = [len(state_to_json(p.state)) for p in points]
    cpu = time.process_time() - cpu
    _now, peak = tracemalloc.get_traced_memory()
    return {
        "case": case,
        "moves": len(final.history),
        "decisions": len(sizes),
        "plan_mb": round(sum(sizes) / 1e6, 1),
        "peak_mb": round(peak / 1e6, 1),
        "cpu_s": round(cpu, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--case", choices=("whole", "capped"), help=argparse.SUPPRESS)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    if args.case:
        print(json.dumps(measure(args.case)))
        return
    rows = []
    for case in ("whole", "capped"):
        out = subprocess.run(
            [sys.executable, __file__, "--case", case], check=True, capture_output=True, text=True
        ).stdout
        rows.append(json.loads(out))
    console = Console(width=120)
    table = Table(title=f"A review plan of one 16,966-move round ({RULES})")
    cols = ("case", "moves", "decisions", "plan JSON MB", "peak MB", "CPU s")
    for col in cols:
        table.add_column(col, justify="left" if col == "case" else "right")
    for r in rows:
        table.add_row(
            r["case"], str(r["moves"]), str(r["decisions"]), f"{r['plan_mb']:.1f}",
            f"{r['peak_mb']:.1f}", f"{r['cpu_s']:.1f}",
        )  # fmt: skip
    console.print(table)
    if not args.no_write:
        path = write_results(
            "review_plan", {"command": "python benchmarks/review_plan.py", "runs": rows}
        )
        console.print(f"wrote {path}")


if __name__ == "__main__":
    main()
