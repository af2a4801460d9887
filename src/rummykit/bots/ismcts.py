"""``ismcts`` (difficulty ``hard``): information-set Monte Carlo search.

Every iteration samples a *determinization*, a full state consistent with the bot's
view (:func:`rummykit.view.determinize`), and plays each candidate move in it followed
by a playout to the end of the round.  All candidates share the determinization and
the playout's random seed (common random numbers), so they are compared on the same
deals and the noise of the deal cancels out of the comparison.  The move with the
best mean reward is played; the expert's own move wins ties.

The candidates are the moves the expert would consider: its choice, the best meld
and lay-off, the ``top_k`` discards it rates highest, and knock or pass where legal.
Playouts use the greedy policy on the sampled state (inside a determinization every
hand is "known", so no real hidden information is used) and are cut off after
:attr:`ISMCTSBot.horizon` actions, where the round is scored as if it ended with each
hand at its least deadwood.

Why this shape and not a deeper tree: with about a second per move there are a few
hundred determinizations, and a tree over every legal move (tried first, with UCB1
and greedy playouts) gave each node a handful of visits and lost every one of 16
matches to ``expert``; ranking only the expert's candidates with paired playouts wins
57-61% of single rounds against it at 1 s per move (``benchmarks/strength.py``,
docs/bots.md).

With ``workers > 1`` the iterations run in worker processes and their sums are added.
"""

from __future__ import annotations

import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..cards import bits
from ..moves import DISCARD, KNOCK, PASS, Move
from ..rules import Scoring
from ..scoring import hand_value
from ..solver import Solver
from ..state import GameState, Phase
from ..view import PlayerView, determinize
from .base import Bot
from .expert import ExpertBot
from .tactics import best_layoff, best_meld, greedy_move

Sums = dict[Move, float]
"""Per candidate move, the total reward over the iterations run."""


class _StateView:
    """The few view fields the greedy tactics read, taken from a sampled state.

    Used only inside playouts on a determinization, where every hand is sampled.
    """

    __slots__ = ("discard", "game", "hand", "legal", "phase", "rules", "taken")

    def __init__(self, s: GameState) -> None:
        self.phase = s.phase
        self.hand = s.hands[s.current]
        self.legal = tuple(s.legal_moves())
        self.discard = s.discard
        self.taken = s.taken
        self.rules = s.rules
        self.game = s.game


def greedy_policy(s: GameState, solver: Solver, rng: random.Random) -> Move:
    """The greedy bot's choice, read straight from a (sampled) state."""
    v: Any = _StateView(s)
    return greedy_move(v, solver, rng)


class ISMCTSBot(Bot):
    name = "ismcts"

    def __init__(
        self,
        seconds: float | None = 1.0,
        iterations: int | None = None,
        workers: int = 1,
        horizon: int = 60,
        top_k: int = 4,
    ) -> None:
        if seconds is None and iterations is None:
            raise ValueError("give a time (seconds) or an iteration budget")
        self.seconds = seconds
        self.iterations = iterations
        self.workers = max(1, workers)
        self.horizon = horizon
        self.top_k = top_k
        self.expert = ExpertBot()
        self._pool: ProcessPoolExecutor | None = None

    def candidates(self, view: PlayerView, rng: random.Random) -> list[Move]:
        """The expert's choice first, then the other moves worth comparing."""
        legal = view.legal
        first = self.expert.choose(view, rng)
        if view.phase is not Phase.PLAY:
            return [first, *(m for m in legal if m != first)]
        solver = view.game.solver
        out = [first]
        discards = [m for m in legal if m.kind == DISCARD]
        if discards:
            ranked = sorted(self.expert.discard_keys(view, solver, discards), key=lambda km: km[0])
            out.extend(m for _key, m in ranked[: self.top_k])
        out.extend(m for m in (best_meld(view, solver), best_layoff(view, solver)) if m)
        out.extend(m for m in legal if m.kind in (KNOCK, PASS))
        return list(dict.fromkeys(m for m in out if m in legal))

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        cands = self.candidates(view, rng)
        if len(cands) == 1:
            return cands[0]
        if self.workers == 1:
            sums = self.search(view, cands, rng.getrandbits(64))
        else:
            sums = self._parallel(view, cands, rng)
        # max() keeps the first of equals, and the expert's choice comes first.
        return max(cands, key=lambda m: sums[m])

    def _parallel(self, view: PlayerView, cands: list[Move], rng: random.Random) -> Sums:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers)
        seeds = [rng.getrandbits(64) for _ in range(self.workers)]
        share = self.iterations and -(-self.iterations // self.workers)
        worker = ISMCTSBot(self.seconds, share, 1, self.horizon, self.top_k)
        futures = [self._pool.submit(worker.search, view, cands, s) for s in seeds]
        total = dict.fromkeys(cands, 0.0)
        for f in futures:
            for m, v in f.result().items():
                total[m] += v
        return total

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    # -- the search --------------------------------------------------------------------
    def search(self, view: PlayerView, cands: list[Move], seed: int) -> Sums:
        """Total reward of each candidate over one budget of paired iterations."""
        rng = random.Random(seed)
        solver = view.game.solver
        sums = dict.fromkeys(cands, 0.0)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        limit = self.iterations
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            sample = determinize(view, rng)
            playout_seed = rng.getrandbits(64)
            for m in cands:
                s = sample.clone()
                s.apply(m)
                sums[m] += self._playout(s, solver, random.Random(playout_seed), sample.round_no)[
                    view.player
                ]
            done += 1
        return sums

    def _playout(
        self, s: GameState, solver: Solver, rng: random.Random, round_no: int
    ) -> list[float]:
        steps = 0
        while s.phase is not Phase.OVER and s.round_no == round_no and steps < self.horizon:
            s.apply(greedy_policy(s, solver, rng))
            steps += 1
        n = s.num_players
        if s.round_no != round_no or s.phase is Phase.OVER:
            deltas = list(s.results[-1].deltas) if s.results else [0] * n
        else:
            deltas = estimate(s, solver)
        return rewards(s, deltas)


def estimate(s: GameState, solver: Solver) -> list[int]:
    """Round score deltas as if the round ended now, each hand at its least deadwood.

    A player who has not opened could lay nothing, so their whole hand counts, plus
    the rules' penalty for never melding (Rami's 100)."""
    r = s.rules
    dead = []
    for p, h in enumerate(s.hands):
        if s.needs_opening(p) or (r.never_melded_penalty and not s.melded[p]):
            value = hand_value(r, bits(h)) + r.never_melded_penalty
        else:
            value = solver.deadwood(h)
        dead.append(value)
    n = len(dead)
    if r.scoring is Scoring.WINNER_COLLECTS:
        low = min(dead)
        w = dead.index(low)
        return [sum(d - low for d in dead) if p == w else 0 for p in range(n)]
    return dead


def rewards(s: GameState, deltas: list[int]) -> list[float]:
    """Per player reward in [-1, 1] from round score deltas: the margin over the
    others' mean, squashed so that one freak deal cannot outweigh many ordinary ones."""
    n = len(deltas)
    sign = 1.0 if s.rules.scoring is Scoring.WINNER_COLLECTS else -1.0
    out = []
    for p in range(n):
        others = sum(deltas[q] for q in range(n) if q != p) / (n - 1)
        out.append(math.tanh(sign * (deltas[p] - others) / 40.0))
    return out
