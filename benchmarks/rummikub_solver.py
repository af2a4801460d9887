"""Rummikub solver latency: the play that places the most rack tiles, table rearranged.

    python benchmarks/rummikub_solver.py            # 200 positions per table size
    python benchmarks/rummikub_solver.py --count 50 # a quick look

Each position is a random valid table of exactly 20, 40 or 60 tiles (random runs of
three to five tiles and groups of three or four, a table joker in one set of ten) and
a rack of 14 tiles drawn from the rest of the 106 (so a rack holds a joker about a
quarter of the time).  Prints p50, p99 and max per table size and writes
``benchmarks/results/rummikub_solver.json`` (``--beam N``: the beam search the legal
list uses, 2000, into ``rummikub_solver_beam2000.json``).  The goal: p99 under 50 ms
at 40 tiles, exact.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit.cards import JOKER, deck, mask_of
from rummykit.melds import RUN, SET, MeldTable, meld_table
from rummykit.rules import Rules
from rummykit.variants.rummikub_solver import solve

SIZES = (20, 40, 60)


def random_table(t: MeldTable, size: int, rng: random.Random) -> tuple[list[int], int]:
    """A random valid table of exactly ``size`` tiles: its shapes, and the mask of the
    tiles it uses (the copies of each face counted first deck first)."""
    while True:
        left = [2] * 52 + [2]  # per face, copies left; the last is the jokers
        shapes: list[int] = []
        total = 0
        tries = 0
        while total < size and tries < 500:
            tries += 1
            room = size - total
            joker = left[52] > 0 and rng.random() < 0.1
            if rng.random() < 0.5:
                length = rng.randint(3, min(5, room))
                colour, lo = rng.randrange(4), rng.randrange(0, 14 - length)
                faces = [colour * 13 + lo + i for i in range(length)]
                jat = rng.randrange(length) if joker else -1
                need = [f for i, f in enumerate(faces) if i != jat]
                kind, key, cells = RUN, colour, tuple(faces)
                jm = 1 << jat if jat >= 0 else 0
            else:
                count = rng.randint(3, min(4, room)) if room >= 3 else 3
                number = rng.randrange(13)
                colours = sorted(rng.sample(range(4), count))
                cells = tuple(c * 13 + number for c in colours)
                jat = len(colours) - 1 if joker else -1  # the last: the lowest missing colour
                if joker:
                    present = colours[:-1]
                    missing = next(c for c in range(4) if c not in present)
                    pairs = sorted([(c, False) for c in present] + [(missing, True)])
                    cells = tuple(c * 13 + number for c, _j in pairs)
                    jm = sum(1 << i for i, (_c, j) in enumerate(pairs) if j)
                    need = [c * 13 + number for c in present]
                else:
                    jm = 0
                    need = list(cells)
                kind, key = SET, number
            if len(cells) > room or room - len(cells) in (1, 2):
                continue
            if any(left[f] < need.count(f) for f in set(need)):
                continue
            shape = t.find(kind, key, cells, jm)
            if shape < 0:
                continue
            for f in need:
                left[f] -= 1
            if jm:
                left[52] -= 1
            shapes.append(shape)
            total += len(cells)
        if total == size:
            used = 0
            for f in range(52):
                for copy in range(2 - left[f]):
                    used |= 1 << (copy * 54 + f)
            for copy in range(2 - left[52]):
                used |= 1 << (copy * 54 + JOKER)
            return shapes, used


def positions(size: int, count: int, seed: int) -> list[tuple[list[int], int]]:
    t = meld_table(Rules.preset("rummikub"))
    rng = random.Random(seed)
    pack = deck(2, 1)
    out = []
    for _ in range(count):
        shapes, used = random_table(t, size, rng)
        rest = [c for c in pack if not used >> c & 1]
        out.append((shapes, mask_of(rng.sample(rest, 14))))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=200, help="positions per table size")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--beam", type=int, default=None, help="the solver's beam (default: exact; play uses 2000)"
    )
    args = ap.parse_args()
    t = meld_table(Rules.preset("rummikub"))
    rows = []
    for size in SIZES:
        times = []
        placed = []
        for shapes, rack in positions(size, args.count, args.seed + size):
            start = time.perf_counter()
            sol = solve(t, shapes, rack, beam=args.beam)
            times.append((time.perf_counter() - start) * 1000)
            placed.append(sol.placed)
        times.sort()
        rows.append(
            {
                "table_tiles": size,
                "rack_tiles": 14,
                "positions": len(times),
                "p50_ms": round(times[len(times) // 2], 2),
                "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2),
                "max_ms": round(times[-1], 2),
                "mean_placed": round(statistics.mean(placed), 2),
            }
        )
    how = "exact" if args.beam is None else f"beam {args.beam}"
    table = Table(title=f"Rummikub solver ({how}): most rack tiles placed, table rearranged")
    for col in ("table tiles", "rack", "positions", "p50 ms", "p99 ms", "max ms", "placed"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(*(str(v) for v in r.values()))
    Console().print(table)
    name = "rummikub_solver" if args.beam is None else f"rummikub_solver_beam{args.beam}"
    path = write_results(name, {"seed": args.seed, "beam": args.beam, "rows": rows})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
