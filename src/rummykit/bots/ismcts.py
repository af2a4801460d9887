"""``ismcts`` (difficulty ``hard``): information-set Monte Carlo tree search.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, IEEE TCIAIG 2012).  Every
iteration samples a *determinization* (a full state consistent with the bot's view,
from :func:`rummykit.view.determinize`), walks one shared tree of move sequences
restricted to the moves legal in that sample, adds one node, and finishes with a
playout.  Selection uses UCB1 with availability counts, so moves that are legal in
few samples are not starved.  The move played is the most visited root child.

Playouts use the greedy policy on the sampled state (inside a determinization every
hand is "known", so no real hidden information is used) and are cut off after
:attr:`ISMCTSBot.horizon` actions; the position is then scored by the difference in
deadwood, and a finished round by its real score.

With ``workers > 1`` the search runs root-parallel in worker processes and the visit
counts of the root moves are summed.
"""

from __future__ import annotations

import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..moves import Move
from ..rules import Scoring
from ..solver import Solver
from ..state import GameState, Phase
from ..view import PlayerView, determinize
from .base import Bot
from .tactics import greedy_move


@dataclass
class _Node:
    move: Move | None
    player: int
    parent: _Node | None
    children: dict[Move, _Node] = field(default_factory=dict)
    visits: int = 0
    available: int = 0
    reward: float = 0.0


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
        exploration: float = 0.7,
    ) -> None:
        if seconds is None and iterations is None:
            raise ValueError("give a time (seconds) or an iteration budget")
        self.seconds = seconds
        self.iterations = iterations
        self.workers = max(1, workers)
        self.horizon = horizon
        self.exploration = exploration
        self._pool: ProcessPoolExecutor | None = None

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if self.workers == 1:
            counts = self.search(view, rng.getrandbits(64))
        else:
            counts = self._parallel(view, rng)
        return max(legal, key=lambda m: (counts.get(m, 0), -legal.index(m)))

    def _parallel(self, view: PlayerView, rng: random.Random) -> dict[Move, int]:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers)
        seeds = [rng.getrandbits(64) for _ in range(self.workers)]
        worker = ISMCTSBot(self.seconds, self.iterations and -(-self.iterations // self.workers),
                           1, self.horizon, self.exploration)  # fmt: skip
        futures = [self._pool.submit(worker.search, view, s) for s in seeds]
        total: dict[Move, int] = {}
        for f in futures:
            for m, c in f.result().items():
                total[m] = total.get(m, 0) + c
        return total

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    # -- the search --------------------------------------------------------------------
    def search(self, view: PlayerView, seed: int) -> dict[Move, int]:
        """Visit counts of the root moves after one budget of search."""
        rng = random.Random(seed)
        solver = view.game.solver
        root = _Node(None, view.player, None)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        limit = self.iterations
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, view, solver, rng)
            done += 1
        return {m: n.visits for m, n in root.children.items()}

    def _iterate(self, root: _Node, view: PlayerView, solver: Solver, rng: random.Random) -> None:
        s = determinize(view, rng)
        round_no = s.round_no
        node = root
        # selection and expansion
        while s.phase is not Phase.OVER and s.round_no == round_no:
            legal = s.legal_moves()
            untried = [m for m in legal if m not in node.children]
            for m in legal:
                child = node.children.get(m)
                if child is not None:
                    child.available += 1
            if untried:
                m = untried[rng.randrange(len(untried))]
                child = _Node(m, s.current, node)
                child.available = 1
                node.children[m] = child
                s.apply(m)
                node = child
                break
            c = self.exploration
            log_parent: dict[int, float] = {}
            best: _Node | None = None
            best_score = -math.inf
            for m in legal:
                ch = node.children[m]
                lp = log_parent.get(ch.available)
                if lp is None:
                    lp = math.log(ch.available)
                    log_parent[ch.available] = lp
                score = ch.reward / ch.visits + c * math.sqrt(lp / ch.visits)
                if score > best_score:
                    best_score = score
                    best = ch
            assert best is not None and best.move is not None
            s.apply(best.move)
            node = best
        rewards = self._playout(s, solver, rng, round_no)
        # backpropagation: each node is scored for the player who chose its move
        while node is not None and node.parent is not None:
            node.visits += 1
            node.reward += rewards[node.player]
            node = node.parent
        root.visits += 1

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
            deltas = self._estimate(s, solver)
        return _rewards(s, deltas)

    def _estimate(self, s: GameState, solver: Solver) -> list[int]:
        """Round score deltas as if it ended now with each hand at its least deadwood."""
        dead = [solver.deadwood(h) for h in s.hands]
        n = len(dead)
        if s.rules.scoring is Scoring.WINNER_COLLECTS:
            low = min(dead)
            w = dead.index(low)
            return [sum(d - low for d in dead) if p == w else 0 for p in range(n)]
        return dead


def _rewards(s: GameState, deltas: list[int]) -> list[float]:
    """Per player reward in [-1, 1] from round score deltas."""
    n = len(deltas)
    sign = 1.0 if s.rules.scoring is Scoring.WINNER_COLLECTS else -1.0
    out = []
    for p in range(n):
        others = [deltas[q] for q in range(n) if q != p]
        margin = sign * (deltas[p] - sum(others) / len(others))
        out.append(math.tanh(margin / 40.0))
    return out
