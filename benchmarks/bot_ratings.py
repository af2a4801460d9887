"""The bots' fixed ratings: each level rated by openskill from bot-against-bot play.

A signed-in player sees "easy", "medium" and "hard" next to a rating that means
something on the scale their own rating is on: this measures it.  For each game
(a preset, two players), every pair of levels plays duplicate deals: each deal once
from each seat (``rummykit.tournament.play_one``, the same seed), the levels
interleaved so that a run stopped by ``--budget`` has played every pairing equally
often.  Each level plays as the server plays it (``web/thinking.server_bot``:
``hard`` searches ``--hard-cpu`` CPU seconds a move, the server's ``bot_cpu``).

The results are then rated as ``web/ratings.py`` rates people: the places come from
the final totals (:func:`rummykit.web.ratings.places`) and one openskill
Plackett-Luce update per match (:func:`rummykit.web.ratings.updated`), every level
starting at a newcomer's ``(25, 25/3)``.  The rating shown is ``mu - 3 sigma`` as for
people.  Its 95% interval comes from ``--bootstrap`` replays of the ratings over the
deals drawn again with replacement, in a random order (a sequential rating depends on
the order of the games; the interval says by how much).

A match here is ``--deals`` rounds (1, the default: one hand of Gin, one deal of
basic; 0: the preset's own length).  A rated ``gin`` table plays one hand, so there
the two are the same game; a rated ``basic`` match runs to 100 points over several
deals, which a single deal's luck decides more often than a whole match, so the gaps
measured between levels at basic are, if anything, narrower than at full length.

``python benchmarks/bot_ratings.py --games gin,basic --budget 2400 --workers 2``

prints a table and writes ``benchmarks/results/bot_ratings.json``; the figures shipped
in ``src/rummykit/web/bot_ratings.json`` are copied from it (``--ship`` writes them).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import combinations
from pathlib import Path
from typing import Any

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit.rules import Rules
from rummykit.tournament import MatchRecord, play_one
from rummykit.web import ratings
from rummykit.web.thinking import server_bot

LEVELS = ("easy", "medium", "hard")
SHIPPED = Path(__file__).parent.parent / "src" / "rummykit" / "web" / "bot_ratings.json"


def _play(spec: str, lineup: tuple[str, ...], seed: int, hard_cpu: float) -> MatchRecord:
    bots = tuple(server_bot(level, hard_cpu) for level in lineup)
    rec = play_one(spec, bots, seed)
    return MatchRecord(rec.seed, lineup, rec.scores, rec.winners, rec.round_winners)


def jobs(game: str, deals: int, levels: Sequence[str], count: int, seed: int) -> list[Any]:
    """``count`` deals per pairing of ``levels``, each from both seats, interleaved:
    deal k of every pairing before deal k + 1 of any."""
    spec = f"{game}(deals={deals})" if deals else game
    master = random.Random(f"{seed}:{game}")
    out = []
    for k in range(count):
        for a, b in combinations(levels, 2):
            s = master.getrandbits(63)
            out.append((spec, (a, b), s, k))
            out.append((spec, (b, a), s, k))
    return out


def rate(rules: Rules, records: Sequence[MatchRecord]) -> dict[str, tuple[float, float]]:
    """Each level's ``(mu, sigma)`` after rating ``records`` in order, as people are."""
    held: dict[str, tuple[float, float]] = {}
    for rec in records:
        before = [held.get(level, ratings.fresh()) for level in rec.lineup]
        after = ratings.updated(before, ratings.places(rules, rec.scores))
        held.update(zip(rec.lineup, after, strict=True))
    return held


def bootstrap(
    rules: Rules, records: Sequence[MatchRecord], times: int, seed: int
) -> dict[str, list[float]]:
    """The shown ratings of ``times`` replays over the deals drawn again, shuffled."""
    by_deal: dict[tuple[int, frozenset[str]], list[MatchRecord]] = {}
    for rec in records:
        by_deal.setdefault((rec.seed, frozenset(rec.lineup)), []).append(rec)
    deals = list(by_deal.values())
    rng = random.Random(seed)
    out: dict[str, list[float]] = {}
    for _ in range(times):
        drawn = [rec for _ in deals for rec in rng.choice(deals)]
        rng.shuffle(drawn)
        for level, (mu, sigma) in rate(rules, drawn).items():
            out.setdefault(level, []).append(ratings.shown(mu, sigma))
    return out


def play_all(todo: list[Any], workers: int, budget: float, hard_cpu: float) -> list[Any]:
    """Play ``todo`` in order until ``budget`` seconds have passed (0: no limit);
    only whole deals (both seats) are kept."""
    start = time.monotonic()
    done: dict[int, MatchRecord] = {}
    with ProcessPoolExecutor(workers) as pool:
        queue = list(enumerate(todo))
        running: dict[Future[MatchRecord], int] = {}
        while queue or running:
            over = budget > 0 and time.monotonic() - start > budget
            while queue and not over and len(running) < workers * 2:
                i, (spec, lineup, s, _k) = queue.pop(0)
                running[pool.submit(_play, spec, lineup, s, hard_cpu)] = i
            if not running:
                break
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for f in finished:
                done[running.pop(f)] = f.result()
    whole = []
    for i in range(0, len(todo), 2):
        if i in done and i + 1 in done:
            whole += [(todo[i], done[i]), (todo[i + 1], done[i + 1])]
    return whole


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", default="gin,basic", help="comma list of two-player presets")
    ap.add_argument("--levels", default=",".join(LEVELS))
    ap.add_argument("--deals", type=int, default=1, help="rounds a match (0: the preset's)")
    ap.add_argument("--pairs", type=int, default=400, help="deals per pairing, at most")
    ap.add_argument("--budget", type=float, default=0, help="seconds per game (0: no limit)")
    ap.add_argument("--hard-cpu", type=float, default=1.0, help="the server's bot_cpu")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--bootstrap", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default="bot_ratings", help="results/<OUT>.json")
    ap.add_argument("--ship", action="store_true", help="write the package's bot_ratings.json")
    ap.add_argument("--ship-from", type=Path, help="ship this results file; play nothing")
    args = ap.parse_args(argv)
    if args.ship_from:
        ship(json.loads(args.ship_from.read_text()))
        return 0
    levels = args.levels.split(",")
    console = Console()
    table = Table(title="bot ratings: openskill from bot-against-bot play")
    for col in ("game", "level", "shown", "95% interval", "mu", "sigma", "matches", "deals"):
        table.add_column(col, justify="left" if col in ("game", "level") else "right")
    games: dict[str, Any] = {}
    for game in args.games.split(","):
        rules = Rules.parse(game)
        rules.check_players(2)
        t0 = time.monotonic()
        played = play_all(
            jobs(game, args.deals, levels, args.pairs, args.seed),
            args.workers,
            args.budget,
            args.hard_cpu,
        )
        wall = time.monotonic() - t0
        records = [rec for job, rec in played]
        final = rate(rules, records)
        boot = bootstrap(rules, records, args.bootstrap, args.seed)
        per_pairing: dict[str, list[float]] = {}
        for rec in records:
            key = "-".join(sorted(rec.lineup, key=levels.index))
            first = min(rec.lineup, key=levels.index)
            won = [rec.lineup[w] for w in rec.winners]
            per_pairing.setdefault(key, []).append(won.count(first) / len(won))
        rows = {}
        for level in levels:
            mu, sigma = final.get(level, ratings.fresh())
            shown_all = sorted(boot.get(level, [0.0]))
            low = shown_all[int(0.025 * (len(shown_all) - 1))]
            high = shown_all[int(0.975 * (len(shown_all) - 1))]
            matches = sum(1 for rec in records if level in rec.lineup)
            rows[level] = {
                "rating": round(statistics.median(shown_all), 1),
                "low": round(low, 1),
                "high": round(high, 1),
                "in_order": ratings.shown(mu, sigma),
                "mu": round(mu, 2),
                "sigma": round(sigma, 2),
                "matches": matches,
            }
            table.add_row(
                game, level, f"{rows[level]['rating']:.1f}", f"{low:.1f} to {high:.1f}",
                f"{mu:.2f}", f"{sigma:.2f}", str(matches), str(matches // 2),
            )  # fmt: skip
        games[game] = {
            "spec": played[0][0][0] if played else game,
            "levels": rows,
            "first_wins": {k: round(sum(v) / len(v), 3) for k, v in per_pairing.items()},
            "matches": len(records),
            "seconds": round(wall, 1),
        }
        console.print(f"{game}: {len(records)} matches in {wall:.0f} s")
    console.print(table)
    given = sys.argv[1:] if argv is None else argv
    payload = {
        "command": "python benchmarks/bot_ratings.py " + " ".join(given),
        "args": vars(args),
        "games": games,
    }
    path = write_results(args.out, payload)
    console.print(f"wrote {path}")
    if args.ship:
        ship(payload)
        console.print(f"wrote {SHIPPED}")
    return 0


def ship(payload: dict[str, Any]) -> None:
    """Write the package's ``bot_ratings.json`` from a run's results: per game and
    level the shown rating (the bootstrap's median) and its 95% interval."""
    keep = ("rating", "low", "high", "matches")
    shipped = {
        "measured": payload["command"],
        "hard_cpu": payload["args"]["hard_cpu"],
        "games": {
            g: {lv: {k: r[k] for k in keep} for lv, r in v["levels"].items()}
            for g, v in payload["games"].items()
        },
    }
    SHIPPED.write_text(json.dumps(shipped, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
