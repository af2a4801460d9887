"""Saved-state loading speed: ``state_from_json`` and the position format, per preset.

The web server loads a table's saved state whenever the table is not in memory, so
the strict loader (issue #15: every field's type and range, card conservation, melds
against their shapes) must cost about what the old one did.  For each preset this
times, as the median of several passes:

* ``state_from_json`` of a fresh match, of a mid-round state (60 random moves in) and
  of a long match (every move of a finished match in its history);
* the mid-round state loaded and its legal moves listed, as a server does to play on
  (the loader lists them to check that the player to act has one, and keeps them);
* ``position_to_text`` and ``position_from_text`` of the mid-round state.

    python benchmarks/loader.py                 # prints a table, writes results/loader.json
    python benchmarks/loader.py --out NAME      # writes results/NAME.json instead

Figures are microseconds per call on this project's 2-core machine.
``results/loader-before.json`` is this benchmark run, on the same machine, with the
loader as it was before issue #15 (``src/rummykit/serialize.py`` as of commit 6f5de03,
put in its place for the run): fresh and mid-round states load as fast as before;
a whole match costs more because every history entry, result and event is checked.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit import GameState, new_game
from rummykit.serialize import state_from_json, state_to_json

try:  # the position format (issue #15); absent when timing an older tree
    from rummykit.position import position_from_text, position_to_text
except ImportError:  # pragma: no cover - only for before/after comparisons
    position_from_text = position_to_text = None  # type: ignore[assignment]

PRESETS = ("basic", "classic", "cg101", "rami51", "gin", "gin_match")


def played(preset: str, moves: int | None, seed: int = 3) -> GameState:
    """A match after ``moves`` random moves (None: to the end)."""
    g = new_game(preset, players=2, seed=seed)
    rng = random.Random(seed)
    done = 0
    while not g.is_over() and (moves is None or done < moves):
        g.apply(rng.choice(g.legal_moves()))
        done += 1
    return g


def micros(fn: Callable[[], Any], calls: int, passes: int = 5) -> float:
    """Median microseconds per call over ``passes`` passes of ``calls`` calls."""
    per_pass = []
    for _ in range(passes):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        per_pass.append((time.perf_counter() - t) / calls * 1e6)
    return statistics.median(per_pass)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--calls", type=int, default=300, help="calls per timing pass")
    ap.add_argument("--out", default="loader", help="results file name (no .json)")
    args = ap.parse_args(argv)
    rows: list[dict[str, Any]] = []
    for preset in PRESETS:
        fresh = state_to_json(played(preset, 0))
        mid_state = played(preset, 60)
        mid = state_to_json(mid_state)
        whole_state = played(preset, None)
        whole = state_to_json(whole_state)
        row: dict[str, Any] = {
            "preset": preset,
            "fresh_us": micros(lambda t=fresh: state_from_json(t), args.calls),
            "mid_us": micros(lambda t=mid: state_from_json(t), args.calls),
            "mid_moves_us": micros(lambda t=mid: state_from_json(t).legal_moves(), args.calls),
            "match_us": micros(lambda t=whole: state_from_json(t), args.calls),
            "match_history": len(whole_state.history),
            "match_bytes": len(whole),
        }
        if position_to_text is not None:
            text = position_to_text(mid_state)
            row["to_text_us"] = micros(lambda s=mid_state: position_to_text(s), args.calls)
            row["from_text_us"] = micros(lambda t=text: position_from_text(t), args.calls)
            row["text_chars"] = len(text)
        rows.append(row)
    table = Table(title="Loading saved states (µs per call, median of 5 passes)")
    columns = ("preset", "fresh", "mid-round", "+ moves", "match (moves)", "to text", "from text")
    for col in columns:
        table.add_column(col, justify="left" if col == "preset" else "right")
    for r in rows:
        table.add_row(
            r["preset"],
            f"{r['fresh_us']:.0f}",
            f"{r['mid_us']:.0f}",
            f"{r['mid_moves_us']:.0f}",
            f"{r['match_us']:.0f} ({r['match_history']})",
            f"{r['to_text_us']:.0f}" if "to_text_us" in r else "-",
            f"{r['from_text_us']:.0f}" if "from_text_us" in r else "-",
        )
    Console().print(table)
    write_results(args.out, {"calls": args.calls, "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
