"""CPU times measured in every preset, tabled and written alike (``hint_speed.py``,
``hard_budget.py``): each preset at its fewest and most players, capped."""

from __future__ import annotations

import random
import statistics
import sys
from collections.abc import Callable, Iterator
from typing import Any

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit import new_game
from rummykit.rules import PRESETS
from rummykit.state import GameState
from rummykit.view import PlayerView

Measure = Callable[[str, int], list[float]]
"""The CPU seconds of each timed call in ``preset`` with ``players``."""


def decisions(
    preset: str, players: int, matches: int, seed: int
) -> Iterator[tuple[GameState, PlayerView, random.Random]]:
    """Each decision of ``matches`` single rounds of ``preset`` (seeds ``seed``,
    ``seed + 1``...): the state, the view of the player to act and the round's RNG.
    The caller applies a move before asking for the next."""
    for k in range(matches):
        g = new_game(f"{preset}(deals=1)", players, seed + k)
        rng = random.Random(seed + k)
        actions = 0
        while not g.is_over() and actions < 3000:
            yield g, g.view(g.current), rng
            actions += 1


def run(
    *, title: str, what: str, presets: str, max_players: int, limit: float, measure: Measure,
    name: str, argv: list[str] | None,
) -> list[dict[str, Any]]:  # fmt: skip
    """Measure every preset of the comma list ``presets`` (all when empty), print a table
    (count, mean, median, 95th percentile, largest, and how many took over ``limit``)
    and write ``benchmarks/results/<name>.json``; the rows."""
    chosen = presets.split(",") if presets else sorted(PRESETS)
    table = Table(title=title)
    for col in ("preset", "players", what, "mean", "median", "p95", "max", f"> {limit:g} s"):
        table.add_column(col, justify="right")
    rows = []
    for preset in chosen:
        rules = PRESETS[preset]
        counts = sorted(
            {rules.min_players, max(rules.min_players, min(rules.max_players, max_players))}
        )
        for players in counts:
            times = sorted(measure(preset, players))
            if not times:
                continue
            row = {
                "preset": preset, "players": players, "count": len(times),
                "mean": statistics.fmean(times), "median": statistics.median(times),
                "p95": times[min(len(times) - 1, int(0.95 * len(times)))], "max": times[-1],
                "over": sum(1 for t in times if t > limit),
            }  # fmt: skip
            rows.append(row)
            table.add_row(
                preset, str(players), str(len(times)),
                *(f"{row[k]:.3f}" for k in ("mean", "median", "p95", "max")), str(row["over"]),
            )  # fmt: skip
            print(
                f"{preset} {players}p: max {times[-1]:.2f} s, {row['over']} over", file=sys.stderr
            )
    Console(width=120).print(table)
    given = sys.argv[1:] if argv is None else argv
    script = sys.argv[0].rsplit("/", 1)[-1]
    write_results(name, {"command": f"python benchmarks/{script} " + " ".join(given), "rows": rows})
    return rows
