"""Train a small Gin Rummy policy with numpy alone, then measure it against rummykit's bots.

The learner plays the Gymnasium environment ``rummykit/Gin-v0`` against the ``random``
bot, in a random seat each hand.  Its policy is a one-hidden-layer network on the
environment's observation vector: a shared hidden layer feeds a score per action
(softmax over the legal actions only, from the observation's action mask) and a
value estimate.  It learns by advantage actor-critic (policy gradient with the value
as baseline, an entropy bonus, Adam), with the gradients written out in numpy: no
deep-learning framework is needed, only the ``rl`` extra (numpy, gymnasium,
pettingzoo).

*Reward.*  The environment's reward is the hand's margin (the learner's points minus
the opponent's, over 100) at the end of the hand.  Training adds potential-based
shaping (Ng, Harada and Russell 1999): the potential is minus the deadwood of the
learner's own hand, read from the observation's ``hand`` section, so a move that
lowers the deadwood is rewarded at once.  Shaping of this form does not change which
policy is best.  Evaluation uses the environment's reward only.

*Measuring.*  Every ``--check-minutes`` the greedy policy (the most probable legal
action) plays a fixed set of deals against ``random``; the learning curve is those
checks.  At the end it plays ``--eval-hands`` new deals against ``random`` and against
``easy``, each deal twice with the seats swapped.  A hand is won when the learner's
margin is positive and lost when negative; a void hand (the wall reached, nobody
knocked) or a knock with equal deadwood scores nothing and is *not decided*.  The win
rate is wins over decided hands, with a 95% Wilson interval; the share of all hands
won (void hands counting as not won), the share of void hands and the mean margin per
hand are reported too.  Training stops early once two checks in a row have won 90% of
*all* their hands against ``random`` (the Wilson interval's lower bound), the stricter
of the two rates.

    python examples/train_gin.py --minutes 30 --seed 1 --out curve.json --svg curve.svg
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummykit.cards import FACES_PER_DECK
from rummykit.knock import deadwood_shown
from rummykit.state import Game
from rummykit.tournament import wilson_interval

# One core: numpy's matrix products here are small, and a second BLAS thread would only
# compete with the game engine (the CPU-time budget counts every thread).
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

try:
    import gymnasium
    import numpy as np

    import rummykit.env  # noqa: F401  (registers the rummykit/... environment ids)
except ImportError as exc:  # pragma: no cover - the message is the point
    sys.exit(f"train_gin.py needs the rl extra ({exc.name} is missing): pip install 'rummykit[rl]'")

ENV_ID = "rummykit/Gin-v0"
GOAL = 0.90
"""The target: win at least this share of the decided hands against ``random``."""

Array = Any  # numpy arrays (numpy's own types add nothing to a script this size)


# -- the policy ----------------------------------------------------------------------
class Policy:
    """Observation -> hidden layer (ReLU) -> a score per action and a value."""

    def __init__(self, inputs: int, actions: int, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        f32 = np.float32
        self.p: dict[str, Array] = {
            "w1": (rng.standard_normal((hidden, inputs)) / math.sqrt(inputs)).astype(f32),
            "b1": np.zeros(hidden, f32),
            "u": (rng.standard_normal((actions, hidden)) * 0.01).astype(f32),
            "c": np.zeros(actions, f32),
            "wv": np.zeros(hidden, f32),
            "bv": np.zeros(1, f32),
        }

    def probs(self, x: Array, legal: Array) -> Array:
        p = self.p
        h = np.maximum(p["w1"] @ x + p["b1"], 0.0)
        z = p["u"][legal] @ h + p["c"][legal]
        z = z - z.max()
        e = np.exp(z)
        return e / e.sum()

    def act(self, x: Array, legal: Array, rng: np.random.Generator, greedy: bool) -> int:
        pr = self.probs(x, legal)
        k = int(pr.argmax()) if greedy else int(rng.choice(len(legal), p=pr))
        return int(legal[k])

    def gradients(
        self,
        xs: Array,
        legal: Array,
        pad: Array,
        chosen: Array,
        returns: Array,
        value_coef: float,
        entropy_coef: float,
    ) -> tuple[dict[str, Array], dict[str, float]]:
        """Gradients of the actor-critic loss over one batch of steps.

        ``legal`` is (steps, L) action numbers padded with ``pad`` (True where
        padding), ``chosen`` the column of the action taken, ``returns`` the
        discounted shaped returns.
        """
        p = self.p
        n = xs.shape[0]
        pre = xs @ p["w1"].T + p["b1"]
        h = np.maximum(pre, 0.0)
        v = h @ p["wv"] + p["bv"][0]
        ug = p["u"][legal]  # (n, L, hidden)
        z = np.einsum("nlh,nh->nl", ug, h) + p["c"][legal]
        z = np.where(pad, -1e9, z)
        z = z - z.max(axis=1, keepdims=True)
        e = np.where(pad, 0.0, np.exp(z))
        pi = e / e.sum(axis=1, keepdims=True)
        logpi = np.where(pad, 0.0, np.log(np.maximum(pi, 1e-12)))
        entropy = -(pi * logpi).sum(axis=1)
        adv = returns - v
        norm = (adv - adv.mean()) / (adv.std() + 1e-6)
        onehot = np.zeros_like(pi)
        onehot[np.arange(n), chosen] = 1.0
        # d(-A log pi_a)/dz = A (pi - onehot); d(-beta H)/dz = beta pi (log pi + H)
        dz = norm[:, None] * (pi - onehot) + entropy_coef * pi * (logpi + entropy[:, None])
        dz = np.where(pad, 0.0, dz) / n
        dv = value_coef * (v - returns) / n
        g = {k: np.zeros_like(a) for k, a in p.items()}
        np.add.at(g["u"], legal, dz[:, :, None] * h[:, None, :])
        np.add.at(g["c"], legal, dz)
        dh = np.einsum("nl,nlh->nh", dz, ug) + dv[:, None] * p["wv"][None, :]
        g["wv"] = h.T @ dv
        g["bv"] = np.array([dv.sum()], np.float32)
        dpre = dh * (pre > 0)
        g["w1"] = dpre.T @ xs
        g["b1"] = dpre.sum(axis=0)
        stats = {
            "entropy": float(entropy.mean()),
            "value_error": float(np.sqrt(((v - returns) ** 2).mean())),
        }
        return g, stats


class Adam:
    def __init__(self, params: dict[str, Array], lr: float) -> None:
        self.lr = lr
        self.m = {k: np.zeros_like(a) for k, a in params.items()}
        self.v = {k: np.zeros_like(a) for k, a in params.items()}
        self.t = 0

    def step(self, params: dict[str, Array], grads: dict[str, Array]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        scale = self.lr * math.sqrt(1 - b2**self.t) / (1 - b1**self.t)
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            params[k] -= (scale * self.m[k] / (np.sqrt(self.v[k]) + 1e-8)).astype(np.float32)


# -- playing hands -------------------------------------------------------------------
class Deadwood:
    """The deadwood of the learner's own hand, read from its observation vector."""

    def __init__(self, env: Any) -> None:
        from rummykit.env.observation import layout

        rules = env.unwrapped.rules
        self.game = Game.shared(rules, 2)
        self.hand = layout(rules, 2)["hand"].slice
        self.cache: dict[bytes, int] = {}

    def __call__(self, x: Array) -> int:
        counts = x[self.hand]
        key = counts.tobytes()
        d = self.cache.get(key)
        if d is None:
            mask = 0
            for face in np.flatnonzero(counts[: FACES_PER_DECK - 2]):
                mask |= 1 << int(face)
            d = self.cache[key] = deadwood_shown(self.game, mask)
            if len(self.cache) > 200_000:
                self.cache.clear()
        return d


@dataclass
class Hand:
    xs: list[Array] = field(default_factory=list)
    legal: list[Array] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    margin: float = 0.0


def play_hand(
    env: Any,
    policy: Policy,
    seed: int,
    rng: np.random.Generator,
    greedy: bool,
    deadwood: Deadwood | None = None,
    shaping: float = 1.0,
    gamma: float = 1.0,
) -> Hand:
    """One hand; with ``deadwood``, record the steps and shaped rewards for training."""
    obs, _info = env.reset(seed=seed)
    hand = Hand()
    x = obs["observation"]
    phi = -deadwood(x) / 100 if deadwood else 0.0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        a = policy.act(x, legal, rng, greedy)
        obs, reward, terminated, truncated, _ = env.step(a)
        hand.margin += float(reward)
        if deadwood is not None:
            hand.xs.append(x)
            hand.legal.append(legal)
            hand.chosen.append(int(np.flatnonzero(legal == a)[0]))
            x = obs["observation"]
            nphi = 0.0 if terminated or truncated else -deadwood(x) / 100
            hand.rewards.append(float(reward) + shaping * (gamma * nphi - phi))
            phi = nphi
        else:
            x = obs["observation"]
        if terminated or truncated:
            return hand


@dataclass
class Score:
    hands: int = 0
    wins: int = 0
    losses: int = 0
    margin: float = 0.0

    def add(self, margin: float) -> None:
        self.hands += 1
        self.wins += margin > 0
        self.losses += margin < 0
        self.margin += margin

    def summary(self) -> dict[str, Any]:
        decided = self.wins + self.losses
        lo, hi = wilson_interval(self.wins, decided)
        alo, ahi = wilson_interval(self.wins, self.hands)
        return {
            "hands": self.hands,
            "decided": decided,
            "wins": self.wins,
            "win_rate": self.wins / decided if decided else None,
            "win_rate_95": [round(lo, 4), round(hi, 4)],
            "won_share": self.wins / self.hands if self.hands else None,
            "won_share_95": [round(alo, 4), round(ahi, 4)],
            "void_share": 1 - decided / self.hands if self.hands else None,
            "mean_margin_points": 100 * self.margin / self.hands if self.hands else None,
        }


def evaluate(policy: Policy, opponent: str, deals: list[int]) -> dict[str, Any]:
    """The greedy policy on ``deals``, each played from both seats (same deal, same
    bot choices: only the learner's seat changes)."""
    score = Score()
    per_deal = []
    envs = [
        gymnasium.make(ENV_ID, opponents=opponent, seat=seat, illegal="raise") for seat in (0, 1)
    ]
    rng = np.random.default_rng(0)
    for d in deals:
        pair = 0.0
        for env in envs:
            m = play_hand(env, policy, d, rng, greedy=True).margin
            score.add(m)
            pair += m
        per_deal.append(100 * pair / 2)
    out = score.summary()
    out["opponent"] = opponent
    out["deals"] = len(deals)
    if len(per_deal) > 1:
        mean = sum(per_deal) / len(per_deal)
        sd = math.sqrt(sum((m - mean) ** 2 for m in per_deal) / (len(per_deal) - 1))
        half = 1.96 * sd / math.sqrt(len(per_deal))
        out["mean_margin_points_95"] = [round(mean - half, 2), round(mean + half, 2)]
    return out


# -- training ------------------------------------------------------------------------
def train(args: argparse.Namespace) -> dict[str, Any]:
    seeds = random.Random(args.seed)
    env: Any = gymnasium.make(ENV_ID, opponents="random", seat="random", illegal="raise")
    size = env.observation_space["observation"].shape[0]
    policy = Policy(size, int(env.action_space.n), args.hidden, args.seed)
    opt = Adam(policy.p, args.lr)
    deadwood = Deadwood(env)
    rng = np.random.default_rng(args.seed)
    check_deals = [seeds.getrandbits(62) for _ in range(args.check_hands // 2)]
    curve: list[dict[str, Any]] = []
    start = time.process_time()
    budget = args.minutes * 60
    next_check = 0.0
    hands = steps = 0
    stats: dict[str, float] = {}
    above = 0

    def check() -> dict[str, Any]:
        r = evaluate(policy, "random", check_deals)
        point = {
            "cpu_minutes": round((time.process_time() - start) / 60, 3),
            "training_hands": hands,
            "training_steps": steps,
            **{
                k: r[k]
                for k in (
                    "win_rate",
                    "win_rate_95",
                    "won_share",
                    "won_share_95",
                    "void_share",
                    "mean_margin_points",
                )
            },
            **{k: round(v, 4) for k, v in stats.items()},
        }
        curve.append(point)
        print(json.dumps(point), flush=True)
        return point

    while True:
        used = time.process_time() - start
        if used >= next_check:
            point = check()
            next_check = (time.process_time() - start) + args.check_minutes * 60
            above = above + 1 if point["won_share_95"][0] >= GOAL else 0
            if above >= 2:
                print("the goal is reached at two checks in a row: stopping", flush=True)
                break
        if used >= budget:
            break
        batch = [
            play_hand(env, policy, seeds.getrandbits(62), rng, False, deadwood, args.shaping,
                      args.gamma)
            for _ in range(args.batch)
        ]  # fmt: skip
        hands += len(batch)
        xs, legal, chosen, returns = [], [], [], []
        for h in batch:
            g = 0.0
            rets = []
            for r in reversed(h.rewards):
                g = r + args.gamma * g
                rets.append(g)
            returns.extend(reversed(rets))
            xs.extend(h.xs)
            legal.extend(h.legal)
            chosen.extend(h.chosen)
        steps += len(xs)
        width = max(len(a) for a in legal)
        padded = np.zeros((len(legal), width), np.int64)
        pad = np.ones((len(legal), width), bool)
        for i, a in enumerate(legal):
            padded[i, : len(a)] = a
            pad[i, : len(a)] = False
        grads, stats = policy.gradients(
            np.asarray(xs, np.float32),
            padded,
            pad,
            np.asarray(chosen),
            np.asarray(returns, np.float32),
            args.value_coef,
            args.entropy,
        )
        opt.step(policy.p, grads)
    if not curve or curve[-1]["training_hands"] != hands:
        check()
    eval_deals = [seeds.getrandbits(62) for _ in range(args.eval_hands)]
    final = [evaluate(policy, opp, eval_deals) for opp in ("random", "easy")]
    for summary in final:
        print(json.dumps(summary), flush=True)
    return {
        "env": ENV_ID,
        "options": {k: v for k, v in vars(args).items() if k not in ("out", "svg")},
        "cpu_minutes": round((time.process_time() - start) / 60, 3),
        "training_hands": hands,
        "curve": curve,
        "final": final,
        "goal": f"win >= {GOAL:.0%} of decided hands against random",
    }


# -- the plot ------------------------------------------------------------------------
def svg_curve(result: dict[str, Any]) -> str:
    """The learning curve as a small standalone SVG: win rate of decided hands against
    ``random`` (with its 95% interval) and the share of void hands, by CPU minutes."""
    curve = result["curve"]
    w, h, left, right, top, bottom = 640, 420, 56, 20, 40, 108
    pw, ph = w - left - right, h - top - bottom
    tmax = max(max(p["cpu_minutes"] for p in curve), 1e-9)

    def xy(t: float, y: float) -> tuple[float, float]:
        return left + pw * t / tmax, top + ph * (1 - y)

    def path(points: list[tuple[float, float]]) -> str:
        return " ".join(
            f"{'M' if i == 0 else 'L'}{x:.1f},{y:.1f}" for i, (x, y) in enumerate(points)
        )

    rated = [p for p in curve if p["win_rate"] is not None]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{left}" y="22" font-size="14">Gin: a numpy actor-critic against the random '
        f"bot ({curve[-1]['training_hands']:,} training hands)</text>",
    ]
    for k in range(6):
        y = k / 5
        _, py = xy(0, y)
        parts.append(
            f'<line x1="{left}" y1="{py:.1f}" x2="{w - right}" y2="{py:.1f}" stroke="#ddd"/>'
        )
        parts.append(f'<text x="{left - 6}" y="{py + 4:.1f}" text-anchor="end">{y:.0%}</text>')
    step = max(1, math.ceil(tmax / 6))
    t = 0
    while t <= tmax + 1e-9:
        px, _ = xy(t, 0)
        parts.append(f'<text x="{px:.1f}" y="{top + ph + 18}" text-anchor="middle">{t:g}</text>')
        t += step
    parts.append(
        f'<text x="{left + pw / 2}" y="{top + ph + 36}" text-anchor="middle">'
        "CPU minutes of training (each point: greedy play on the same fixed deals)</text>"
    )
    _, gy = xy(0, GOAL)
    parts.append(
        f'<line x1="{left}" y1="{gy:.1f}" x2="{w - right}" y2="{gy:.1f}" stroke="#999" '
        'stroke-dasharray="6 4"/>'
    )
    parts.append(
        f'<text x="{w - right - 4}" y="{gy - 5:.1f}" text-anchor="end" fill="#777">90%</text>'
    )
    series = [
        (rated, "win_rate", "#36c", "won / decided hands"),
        (curve, "won_share", "#2a7", "won / all hands (void hands count as not won)"),
    ]
    for k, (points, key, colour, label) in enumerate(series):
        if points:
            band = [xy(p["cpu_minutes"], p[key + "_95"][1]) for p in points] + [
                xy(p["cpu_minutes"], p[key + "_95"][0]) for p in reversed(points)
            ]
            line = [xy(p["cpu_minutes"], p[key]) for p in points]
            parts.append(f'<path d="{path(band)} Z" fill="{colour}" fill-opacity="0.15"/>')
            parts.append(f'<path d="{path(line)}" fill="none" stroke="{colour}" stroke-width="2"/>')
        ly = top + ph + 56 + 18 * k
        parts.append(
            f'<line x1="{left + 10}" y1="{ly}" x2="{left + 34}" y2="{ly}" stroke="{colour}" '
            'stroke-width="2"/>'
        )
        parts.append(f'<text x="{left + 40}" y="{ly + 4}">{label}, 95% band</text>')
    void = [xy(p["cpu_minutes"], p["void_share"]) for p in curve]
    parts.append(
        f'<path d="{path(void)}" fill="none" stroke="#c63" stroke-width="1.5" '
        'stroke-dasharray="3 3"/>'
    )
    ly = top + ph + 56 + 36
    parts.append(
        f'<line x1="{left + 10}" y1="{ly}" x2="{left + 34}" y2="{ly}" stroke="#c63" '
        'stroke-width="1.5" stroke-dasharray="3 3"/>'
    )
    parts.append(f'<text x="{left + 40}" y="{ly + 4}">void hands / all hands</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="CPU minutes of training at most")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--eval-hands",
        type=int,
        default=500,
        help="deals per opponent at the end (each played from both seats)",
    )
    ap.add_argument("--check-hands", type=int, default=200, help="hands per learning-curve check")
    ap.add_argument("--check-minutes", type=float, default=1.0, help="CPU minutes between checks")
    ap.add_argument("--out", type=Path, help="write the curve and results here as JSON")
    ap.add_argument("--svg", type=Path, help="draw the learning curve here")
    ap.add_argument(
        "--replot", type=Path, help="do not train: draw --svg from this earlier --out JSON"
    )
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=16, help="hands per update")
    ap.add_argument("--gamma", type=float, default=0.95)
    ap.add_argument("--shaping", type=float, default=1.0, help="weight of the deadwood shaping")
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--value-coef", type=float, default=0.5)
    args = ap.parse_args(argv)
    if args.replot:
        if not args.svg:
            ap.error("--replot needs --svg")
        args.svg.write_text(svg_curve(json.loads(args.replot.read_text())))
        return 0
    result = train(args)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    if args.svg:
        args.svg.write_text(svg_curve(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
