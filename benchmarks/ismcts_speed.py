"""Samples per CPU-second of the hard bot's search, on the same positions every run.

The positions are the decisions of seat 0 in ``expert`` self-play (seeded single
rounds of each preset), so two runs, or two versions of the code, search the same
positions.  Each search runs a fixed CPU budget without stopping early, and the run
reports the samples (determinizations, each played out once per candidate) per CPU
second, with the opponent model (``rummykit.bots.inference``) on and off when the
code has it, alternating the two on each position so a busy machine slows both alike.

    python benchmarks/ismcts_speed.py --positions 30 --budget 0.2
    PYTHONPATH=/tmp/other-checkout/src python benchmarks/ismcts_speed.py --out old

prints a table and writes ``benchmarks/results/<out>.json``.
"""

from __future__ import annotations

import argparse
import inspect
import random
import statistics

from results_file import write_results

from rummykit import new_game
from rummykit.bots import make_bot
from rummykit.bots.ismcts import ISMCTSBot
from rummykit.state import Phase
from rummykit.view import PlayerView

SEATS = {"gin": 2, "basic": 2, "rami51": 4}


def positions(preset: str, count: int, seed: int) -> list[PlayerView]:
    """Seat 0's decisions with more than one legal move, a few per deal."""
    out: list[PlayerView] = []
    deal = 0
    expert = make_bot("expert")
    while len(out) < count:
        spec = preset if preset == "gin" else f"{preset}(deals=1)"
        g = new_game(spec, players=SEATS[preset], seed=seed + deal)
        rng = random.Random(deal)
        step = 0
        while g.phase is not Phase.OVER and len(out) < count:
            v = g.view(g.current)
            if g.current == 0 and len(v.legal) > 1 and step % 5 == 0:
                out.append(v)
            step += 1
            g.apply(expert.choose(v, rng))
        deal += 1
    return out


def rate(bot: ISMCTSBot, views: list[PlayerView]) -> list[float]:
    """Samples per CPU-second on each position."""
    out = []
    for i, v in enumerate(views):
        cands = bot.candidates(v, random.Random(i))
        if len(cands) < 2:
            continue
        bot.search(v, cands, i)
        out.append(bot.last_iterations / bot.seconds)  # type: ignore[operator]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--budget", type=float, default=0.2, help="CPU seconds per search")
    ap.add_argument("--presets", default="gin,basic,rami51")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--out", default="ismcts_speed")
    args = ap.parse_args()
    has_model = "inference" in inspect.signature(ISMCTSBot.__init__).parameters
    variants = {"model": {"inference": True}, "uniform": {"inference": False}}
    if not has_model:
        variants = {"uniform": {}}
    table: dict[str, dict[str, float]] = {}
    print(f"samples per CPU-second, {args.positions} positions, {args.budget} s each")
    print(f"{'preset':8} " + " ".join(f"{k:>10}" for k in variants))
    for preset in args.presets.split(","):
        views = positions(preset, args.positions, args.seed)
        rates: dict[str, list[float]] = {k: [] for k in variants}
        for j in range(len(views)):  # alternate the variants position by position
            for name, kw in variants.items():
                bot = ISMCTSBot(seconds=args.budget, clock="cpu", early_stop=False, **kw)
                rates[name] += rate(bot, views[j : j + 1])
        table[preset] = {k: statistics.mean(r) for k, r in rates.items()}
        print(f"{preset:8} " + " ".join(f"{table[preset][k]:10.1f}" for k in variants))
    write_results(args.out, {"positions": args.positions, "budget": args.budget,
                             "seed": args.seed, "samples_per_cpu_second": table})  # fmt: skip
    return


if __name__ == "__main__":
    main()
