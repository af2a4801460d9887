"""A learned evaluation for the Gin search: train it, then measure the search with it.

Issue #31 asks whether a small network scoring the positions the playouts reach makes
``hard`` stronger at Gin.  Three steps, each reproducible from its seed:

1. **Positions.**  ``medium`` plays itself on single Gin hands (``gin(deals=1)``,
   deals ``--seed`` on); every state where a player is about to draw is recorded with
   both hands, the upcard, the cards under it, the stock and each hand's deadwood,
   and labelled with the margin the player to draw ends the hand with.
2. **Fit.**  The last tenth of the hands is held out.  A ridge regression and a
   multilayer perceptron (ReLU, Adam, trained in numpy) are fitted to the margin; the
   table reports each one's mean squared error on the held-out hands against the
   variance of the margin (what predicting the mean scores).
3. **Search.**  ``ismcts`` with the network as its leaf evaluation
   (:attr:`rummykit.bots.ismcts.ISMCTSBot.leaf_value`): each playout stops at the first
   draw after ``--turns`` turns and scores the network's margin, against ``medium`` on
   duplicate single hands, as ``search_gain.py`` measures the shipped search (so the
   deals are the same: ``--deals 200 --seed 1000`` pairs with its Gin rows).

    python benchmarks/gin_value.py --hands 60000 --deals 200 --turns 0,1

Writes ``benchmarks/results/gin_value.json``; the weights go to ``--weights`` (by
default in the temporary directory, not the package: the network did not measure
stronger, so none is shipped).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from results_file import write_results
from rich.console import Console
from rich.table import Table
from search_gain import play_deal, summary

from rummykit import new_game
from rummykit.bots import make_bot
from rummykit.bots.ismcts import REWARD_SCALE, ISMCTSBot, LeafValue
from rummykit.state import GameState, Phase
from rummykit.variants.gin import deadwood_shown, knock_fields

RULES = "gin(deals=1)"
SCALE = 25.0
"""Points of margin per unit of the network's output (the margin's spread is about 24)."""
SCALARS = 8
FEATURES = 4 * 52 + SCALARS
"""Both hands, the upcard and the cards under it (52 bits each), then the scalars of
:func:`scalars`."""


def scalars(stock: int, limit: int, mine: int, theirs: int) -> list[float]:
    """The stock, the knock limit and both deadwoods, scaled, and whether each hand
    may knock or is gin."""
    return [
        stock / 31, limit / 10, mine / 50, theirs / 50,
        float(mine <= limit), float(theirs <= limit), float(mine == 0), float(theirs == 0),
    ]  # fmt: skip


def position(s: GameState) -> tuple[int, int, int, int, list[float]]:
    """The player to draw's hand, the other hand, the upcard (-1: none), the cards
    under it as a mask, and the scalars."""
    c = s.current
    mine, theirs = s.hands[c], s.hands[1 - c]
    up = s.discard[-1] if s.discard else -1
    under = sum(1 << x for x in s.discard[:-1])
    dm, dt = deadwood_shown(s.game, mine), deadwood_shown(s.game, theirs)
    return mine, theirs, up, under, scalars(len(s.stock), knock_fields(s).knock_limit, dm, dt)


def encode(rows: list[tuple[int, int, int, int, list[float]]]) -> np.ndarray:
    """The network's input, one row per position."""
    n = len(rows)
    shifts = np.arange(52, dtype=np.uint64)
    out = np.zeros((n, FEATURES), np.float32)
    for k in range(2):
        masks = np.array([r[k] for r in rows], dtype=np.uint64)
        out[:, k * 52 : (k + 1) * 52] = (masks[:, None] >> shifts) & np.uint64(1)
    ups = np.array([r[2] for r in rows])
    has = np.nonzero(ups >= 0)[0]
    out[has, 104 + ups[has]] = 1
    under = np.array([r[3] for r in rows], dtype=np.uint64)
    out[:, 156:208] = (under[:, None] >> shifts) & np.uint64(1)
    out[:, 208:] = np.array([r[4] for r in rows], np.float32)
    return out


def generate(hands: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions of ``medium`` against itself: inputs, margins (points) and hand seeds."""
    rows: list[tuple[int, int, int, int, list[float]]] = []
    margins: list[float] = []
    groups: list[int] = []
    for deal in range(seed, seed + hands):
        s = new_game(RULES, 2, deal)
        bots = [make_bot("medium"), make_bot("medium")]
        master = random.Random(deal)
        rngs = [random.Random(master.getrandbits(64)) for _ in range(2)]
        seen: list[tuple[int, tuple[int, int, int, int, list[float]]]] = []
        while not s.is_over():
            if s.phase is Phase.DRAW:
                seen.append((s.current, position(s)))
            p = s.current
            s.apply(bots[p].choose(s.view(p), rngs[p]))
        d = s.results[-1].deltas
        for p, row in seen:
            rows.append(row)
            margins.append(float(d[p] - d[1 - p]))
            groups.append(deal)
    return encode(rows), np.array(margins, np.float32), np.array(groups)


Weights = dict[str, np.ndarray]


def forward(w: Weights, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The network's margins (in units of :data:`SCALE`) and its hidden layers."""
    hidden = []
    h = x
    for k in range(1, len(w) // 2):
        h = np.maximum(h @ w[f"W{k}"] + w[f"b{k}"], 0)
        hidden.append(h)
    last = len(w) // 2
    return (h @ w[f"W{last}"] + w[f"b{last}"])[:, 0], hidden


def fit(
    x: np.ndarray, y: np.ndarray, val: tuple[np.ndarray, np.ndarray], layers: list[int],
    epochs: int, seed: int,
) -> tuple[Weights, list[float]]:  # fmt: skip
    """An MLP fitted by Adam on mean squared error; the weights of the epoch with the
    least held-out error, and that error at every epoch."""
    rng = np.random.default_rng(seed)
    sizes = [x.shape[1], *layers, 1]
    w: Weights = {}
    for k, (a, b) in enumerate(itertools.pairwise(sizes), start=1):
        w[f"W{k}"] = rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32)
        w[f"b{k}"] = np.zeros(b, np.float32)
    m = {k: np.zeros_like(v) for k, v in w.items()}
    v2 = {k: np.zeros_like(v) for k, v in w.items()}
    lr, beta1, beta2, t = 1e-3, 0.9, 0.999, 0
    best: tuple[float, Weights] = (float("inf"), w)
    errors = []
    last = len(sizes) - 1
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        for i in range(0, len(order), 512):
            j = order[i : i + 512]
            out, hidden = forward(w, x[j])
            g = (2 * (out - y[j]) / len(j))[:, None].astype(np.float32)
            grads: Weights = {}
            for k in range(last, 0, -1):
                below = hidden[k - 2] if k > 1 else x[j]
                grads[f"W{k}"] = below.T @ g + 1e-5 * w[f"W{k}"]
                grads[f"b{k}"] = g.sum(0)
                if k > 1:
                    g = (g @ w[f"W{k}"].T) * (hidden[k - 2] > 0)
            t += 1
            for k, grad in grads.items():
                m[k] = beta1 * m[k] + (1 - beta1) * grad
                v2[k] = beta2 * v2[k] + (1 - beta2) * grad**2
                step = (m[k] / (1 - beta1**t)) / (np.sqrt(v2[k] / (1 - beta2**t)) + 1e-8)
                w[k] = w[k] - lr * step
        error = float(((forward(w, val[0])[0] - val[1]) ** 2).mean())
        errors.append(error)
        if error < best[0]:
            best = (error, {k: a.copy() for k, a in w.items()})
        if epoch >= 3:
            lr *= 0.7
    return best[1], errors


def ridge_error(x: np.ndarray, y: np.ndarray, val: tuple[np.ndarray, np.ndarray]) -> float:
    """Held-out mean squared error of a ridge regression (the linear baseline)."""
    a = np.c_[x, np.ones(len(x))]
    coef = np.linalg.solve(a.T @ a + np.eye(a.shape[1]), a.T @ y)
    return float(((np.c_[val[0], np.ones(len(val[0]))] @ coef - val[1]) ** 2).mean())


def leaf_value(w: Weights, turns: int) -> LeafValue:
    """The search's leaf evaluation: at the first draw once the playout has played
    ``turns`` turns (two actions each), each player's margin as the network reads it."""

    def value(s: GameState, steps: int) -> list[float] | None:
        if s.phase is not Phase.DRAW or steps < 2 * turns:
            return None
        margin = float(forward(w, encode([position(s)]))[0][0]) * SCALE / REWARD_SCALE
        out = [0.0, 0.0]
        out[s.current], out[1 - s.current] = margin, -margin
        return out

    return value


def measure(w: Weights, turns: int, deals: int, seed: int, iterations: int) -> dict[str, object]:
    """The search with the network against ``medium``, each deal from both seats."""

    def searcher() -> ISMCTSBot:
        return ISMCTSBot(seconds=None, iterations=iterations, leaf_value=leaf_value(w, turns))

    start = time.process_time()
    per_deal = [
        play_deal(RULES, 2, searcher, "medium", deal)[:2] for deal in range(seed, seed + deals)
    ]
    row = summary(per_deal, 2)
    row.update(
        turns=turns, deals=deals, seed=seed, iterations=iterations,
        cpu_seconds=time.process_time() - start, per_deal=[list(p) for p in per_deal],
    )  # fmt: skip
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=60000, help="hands of medium against itself")
    ap.add_argument("--data-seed", type=int, default=1_000_000, help="the first hand's deal")
    ap.add_argument("--layers", default="64,32", help="hidden layer sizes")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--fit-seed", type=int, default=0)
    ap.add_argument("--turns", default="0,1", help="playout turns before the network scores")
    ap.add_argument("--deals", type=int, default=200, help="duplicate deals of the search")
    ap.add_argument("--seed", type=int, default=1000, help="the first deal of the search")
    ap.add_argument("--iterations", type=int, default=100, help="samples a move")
    ap.add_argument(
        "--weights", type=Path, default=Path(tempfile.gettempdir()) / "gin_value_weights.npz"
    )
    ap.add_argument("--out", default="gin_value")
    args = ap.parse_args(argv)
    console = Console(width=120)

    t0 = time.process_time()
    x, y, groups = generate(args.hands, args.data_seed)
    y = y / SCALE
    cut = args.data_seed + args.hands * 9 // 10
    train, held = groups < cut, groups >= cut
    val = (x[held], y[held])
    print(f"{len(y)} positions in {time.process_time() - t0:.0f} s", file=sys.stderr)
    layers = [int(n) for n in args.layers.split(",")]
    w, errors = fit(x[train], y[train], val, layers, args.epochs, args.fit_seed)
    np.savez(args.weights, **w)
    fits = {
        "positions": len(y), "held_out": int(held.sum()),
        "variance": float(val[1].var()), "ridge": ridge_error(x[train], y[train], val),
        "mlp": min(errors), "mlp_by_epoch": errors,
    }  # fmt: skip
    table = Table(title=f"Held-out squared error of the margin ({SCALE:g}-point units)")
    for col in ("model", "error", "explained"):
        table.add_column(col, justify="right")
    for name in ("variance", "ridge", "mlp"):
        error = float(fits[name])  # type: ignore[arg-type]
        table.add_row(name, f"{error:.3f}", f"{1 - error / fits['variance']:.1%}")  # type: ignore[operator]
    console.print(table)

    runs = [
        measure(w, int(t), args.deals, args.seed, args.iterations) for t in args.turns.split(",")
    ]
    table = Table(title=f"ismcts:{args.iterations}i with the network vs medium, {args.deals} deals")
    for col in ("turns", "points share", "95% CI", "margin a hand", "CPU s"):
        table.add_column(col, justify="right")
    for r in runs:
        low, high = r["share_ci95"]  # type: ignore[misc]
        mlow, mhigh = r["margin_ci95"]  # type: ignore[misc]
        table.add_row(
            str(r["turns"]), f"{r['share']:.1%}", f"{low:.1%}-{high:.1%}",
            f"{r['margin']:+.1f} ({mlow:+.1f} to {mhigh:+.1f})", f"{r['cpu_seconds']:.0f}",
        )  # fmt: skip
    console.print(table)
    given = sys.argv[1:] if argv is None else argv
    write_results(
        args.out,
        {
            "command": "python benchmarks/gin_value.py " + " ".join(given),
            "fit": fits,
            "search": runs,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
