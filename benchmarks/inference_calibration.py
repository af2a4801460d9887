"""How much each public signal says about an opponent's hand: the factors of the
opponent model (``rummykit.bots.inference``), measured on the expert's own play.

At every decision of seat 0 in ``expert`` self-play, each card unseen by seat 0 is
put in one class by the signals seat 1 gave about it (a partner of a card seat 1
threw, left on the pile, or took and holds; or none), and the run counts how often a
card of each class was really in seat 1's hand.  A class's *likelihood ratio* is its
rate over the rate of the cards without any signal: the factor by which the model
should multiply the card's weight.  Cards with signals of two kinds are left out, so
each factor is measured alone.

    python benchmarks/inference_calibration.py --deals 200

prints a table per preset and writes ``benchmarks/results/inference_calibration.json``.
"""

from __future__ import annotations

import argparse
import math
import random

from results_file import write_results

from rummykit import new_game
from rummykit.bots import make_bot
from rummykit.bots.inference import signals
from rummykit.bots.tactics import PARTNERS
from rummykit.rules import Ace
from rummykit.state import Phase
from rummykit.view import unseen_cards

CLASSES = ("none", "threw", "declined", "took")


def measure(preset: str, deals: int, seed: int) -> dict[str, list[int]]:
    """Per class, [cards seen, cards that were in seat 1's hand]."""
    counts = {c: [0, 0] for c in CLASSES}
    bots = [make_bot("expert"), make_bot("expert")]
    for deal in range(deals):
        g = new_game(f"{preset}(deals=1)" if preset != "gin" else preset, players=2,
                     seed=seed + deal)  # fmt: skip
        rngs = [random.Random(deal), random.Random(deal + 10**6)]
        while g.phase is not Phase.OVER:
            p = g.current
            v = g.view(p)
            if p == 0 and g.phase in (Phase.DRAW, Phase.PLAY):
                s = signals(v)[1]
                table = PARTNERS[v.rules.ace is not Ace.LOW]
                masks = {}
                for name, faces in (("threw", s.threw), ("declined", s.declined),
                                    ("took", s.took)):  # fmt: skip
                    m = 0
                    for f in faces:
                        m |= table[f]
                    masks[name] = m
                hand = g.hands[1]
                for c in unseen_cards(v):
                    hit = [k for k, m in masks.items() if m >> c & 1]
                    if len(hit) > 1:
                        continue
                    cls = hit[0] if hit else "none"
                    counts[cls][0] += 1
                    counts[cls][1] += hand >> c & 1
            g.apply(bots[p].choose(v, rngs[p]))
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--presets", default="gin,basic,rami51")
    args = ap.parse_args()
    out: dict[str, object] = {"deals": args.deals, "seed": args.seed, "presets": {}}
    for preset in args.presets.split(","):
        counts = measure(preset, args.deals, args.seed)
        n0, k0 = counts["none"]
        base = k0 / n0
        print(f"{preset}: {args.deals} deals, base rate {base:.3f} ({n0} cards)")
        print(f"  {'signal':10} {'cards':>8} {'rate':>7} {'ratio':>6}  95% interval")
        rows = {}
        for cls in CLASSES:
            n, k = counts[cls]
            rate = k / n if n else float("nan")
            ratio = rate / base if n else float("nan")
            # delta method on log(ratio) for the interval
            se = math.sqrt((1 - rate) / max(k, 1) + (1 - base) / k0) if n else float("nan")
            lo, hi = ratio * math.exp(-1.96 * se), ratio * math.exp(1.96 * se)
            rows[cls] = {"cards": n, "in_hand": k, "rate": rate, "ratio": ratio,
                         "ratio_low": lo, "ratio_high": hi}  # fmt: skip
            print(f"  {cls:10} {n:8d} {rate:7.3f} {ratio:6.2f}  {lo:.2f}-{hi:.2f}")
        out["presets"][preset] = rows  # type: ignore[index]
    write_results("inference_calibration", out)


if __name__ == "__main__":
    main()
