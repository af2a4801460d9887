"""The redesign's replay guard: seeded matches of every preset, played the same way on
two trees, must make the same moves.

Each match is dealt with a seed and played by a seeded random player that picks among
``legal_moves()`` in the order the engine lists them, so the move log depends on the
deal, the legal moves and their order, and every rule that moves the game on.  The
log (each move's ``kind, a, b, c``, then the final scores) is hashed; two trees whose
hashes agree on every match play these matches identically.

    PYTHONPATH=<tree>/src python benchmarks/replay_guard.py --out /tmp/before.json
    PYTHONPATH=<other>/src python benchmarks/replay_guard.py --compare /tmp/before.json

Only the engine's oldest public calls are used (``new_game``, ``legal_moves``,
``apply``, ``is_over``, ``scores``), so the script runs on trees from before a change
of the engine's insides.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from rummykit import PRESETS, new_game

MAX_ACTIONS = 3000
"""Actions per match at most (a long match is cut there, the same on both trees)."""


def play(preset: str, players: int, seed: int) -> tuple[str, int]:
    """The hash of one seeded match's move log, and its number of actions."""
    g = new_game(preset, players=players, seed=seed)
    rng = random.Random(seed)
    h = hashlib.sha256()
    n = 0
    while not g.is_over() and n < MAX_ACTIONS:
        m = rng.choice(g.legal_moves())
        h.update(f"{m.kind},{m.a},{m.b},{m.c};".encode())
        g.apply(m)
        n += 1
    h.update(repr(list(g.scores)).encode())
    return h.hexdigest()[:16], n


def run(seeds: int) -> list[dict[str, Any]]:
    rows = []
    for preset, rules in PRESETS.items():
        for players in sorted({rules.min_players, rules.max_players}):
            for seed in range(seeds):
                digest, actions = play(preset, players, seed)
                rows.append(
                    {"preset": preset, "players": players, "seed": seed, "hash": digest,
                     "actions": actions}
                )  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seeds", type=int, default=2, help="matches per preset and table size")
    ap.add_argument("--out", type=Path, help="write the hashes here (JSON)")
    ap.add_argument("--compare", type=Path, help="compare with hashes written before")
    args = ap.parse_args(argv)
    rows = run(args.seeds)
    if args.out:
        args.out.write_text(json.dumps({"matches": rows}, indent=1) + "\n")
    table = Table(title=f"replay guard: {len(rows)} seeded matches")
    for col in ("preset", "players", "matches", "actions", "same as before"):
        table.add_column(col, justify="left" if col == "preset" else "right")
    before: dict[tuple[str, int, int], str] = {}
    if args.compare:
        for r in json.loads(args.compare.read_text())["matches"]:
            before[(r["preset"], r["players"], r["seed"])] = r["hash"]
    differ = 0
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["preset"], r["players"]), []).append(r)
    for (preset, players), rs in groups.items():
        same = "-"
        if before:
            ok = sum(before.get((preset, players, r["seed"])) == r["hash"] for r in rs)
            differ += len(rs) - ok
            same = f"{ok}/{len(rs)}"
        table.add_row(preset, str(players), str(len(rs)), str(sum(r["actions"] for r in rs)), same)
    Console().print(table)
    if before:
        print(f"{len(rows) - differ} of {len(rows)} matches replay to the same move-log hash")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
