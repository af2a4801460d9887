"""``ismcts`` (difficulty ``hard``): information-set Monte Carlo search.

Every iteration samples a *determinization*, a full state consistent with the bot's
view (:func:`rummykit.view.determinize`, the hidden hands dealt by the opponent model
of :mod:`.inference`, computed once per decision), and plays each candidate move in it
followed by a playout to the end of the round.  All candidates share the
determinization and the playout's random seed (common random numbers), so they are
compared on the same deals and the noise of the deal cancels out of the comparison.
The move with the best mean reward is played; the expert's own move wins ties.

The candidates are the moves the expert would consider: its choice, the best meld
and lay-off, the ``top_k`` discards it rates highest, and knock or pass where legal.
Playouts use a greedy policy that keeps connected cards and jokers
(:func:`playout_policy`) on the sampled state (inside a determinization every hand is
"known", so no real hidden information is used) and are cut off after
:attr:`ISMCTSBot.horizon` actions, where the round is scored as if it ended with each
hand at its least deadwood (:func:`estimate`).  The reward is the margin in points as
the rules score it (:func:`rewards`), so Rami's never-melded penalty and Gin's gin and
undercut bonuses count in full.

Why this shape and not a deeper tree: with about a second per move there are a few
hundred determinizations, and a tree over every legal move (tried first, with UCB1
and greedy playouts) gave each node a handful of visits and lost every one of 16
matches to ``expert``; ranking only the expert's candidates with paired playouts wins
57-61% of single rounds against it at 1 s per move (``benchmarks/strength.py``,
docs/bots.md).

**Stopping early.**  A time budget is an upper bound: the search stops as soon as the
paired samples show, with confidence, that no other candidate beats the leader by more
than :attr:`ISMCTSBot.indifference` (see :func:`settled`).  Clear decisions (a draw
that obviously helps, two discards that lose the same) then take a fraction of the
budget, and close ones get all of it, as a strong human player would spend time.

**Clocks.**  ``clock="wall"`` (the default) counts seconds on the wall clock, which is
what a person waiting for the move feels; ``clock="cpu"`` counts the search process's
own CPU time, so a tournament on a busy machine measures the same bot it would on an
idle one (``make_bot("ismcts:1cpu")``).

With ``workers > 1`` the iterations run in worker processes and their sums are added.

Indian Rummy, whose hands are never laid, compares its own candidates too
(:func:`~rummykit.bots.indian.search_candidates`: the lookahead policy's move, the
other draws or the discards that leave the lowest count), with playouts of a few turns
by its cheap player (:meth:`ISMCTSBot.playout_horizon`).

Rummikub compares its own candidates (:func:`~rummykit.bots.rummikub.candidate_moves`)
and plays its samples out on a light copy (:mod:`.rummikub_playout`): a state lists
its legal moves at each turn, which for Rummikub asks the solver, too slow for
playouts.  Each sample plays the expert's own next turns after each candidate and
scores the racks they leave (:data:`EXPERT_TURNS`), since light players, who never
rearrange the table, make holding back look cheap.  The search is off unless asked
for (:attr:`ISMCTSBot.tiles_search`): it has not measured stronger than the expert.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..cards import bits
from ..knock import deadwood_shown
from ..moves import DISCARD, DRAW_STOCK_MOVE, KNOCK, PASS, Move
from ..rules import Family, Rules, Scoring
from ..scoring import hand_value, margins
from ..solver import LARGE_HAND, Solver
from ..state import GameState, Phase
from ..variants.gin import knock_fields
from ..variants.indian import HandSolver
from ..view import CardWeights, PlayerView, determinize
from . import gin
from .base import Bot
from .contract import down_cost
from .expert import ExpertBot
from .indian import SEARCH_TURNS as INDIAN_TURNS
from .indian import cutoff_deltas
from .indian import playout_move as indian_playout_move
from .indian import search_candidates as indian_candidates
from .inference import card_weights
from .rummikub import candidate_moves
from .rummikub_playout import Playout
from .tactics import best_layoff, best_meld, discard_choice, draw_gain, greedy_move

Sums = dict[Move, float]
"""Per candidate move, the total reward over the iterations run."""

LeafValue = Callable[[GameState, int], list[float] | None]
"""An evaluation of a playout's state, given the actions the playout has played so far
(:attr:`ISMCTSBot.leaf_value`): each player's reward in the units of
:func:`rewards`, or None to play on."""


class _StateView:
    """The few view fields the greedy tactics read, taken from a sampled state.

    Used only inside playouts on a determinization, where every hand is sampled.
    ``legal`` may be the pseudo-legal list (see :func:`playout_policy`).
    """

    __slots__ = (
        "deal_size", "discard", "down", "game", "hand", "legal", "phase", "round_no", "rules",
        "table", "taken",
    )  # fmt: skip

    def __init__(self, s: GameState, legal: list[Move] | None = None) -> None:
        self.phase = s.phase
        self.hand = s.hands[s.current]
        self.legal = tuple(s.legal_moves() if legal is None else legal)
        self.discard = s.discard
        self.taken = s.taken
        self.rules = s.rules
        self.game = s.game
        if s.rules.family is Family.CONTRACT:  # bots/contract.py's play reads these
            self.down = s.opened[s.current]
            self.deal_size = s.rules.deal_size(len(s.names), s.round_no)
            self.round_no = s.round_no
            self.table = s.table


PLAYOUT_LINK_WEIGHT = 10.0
"""Points per connected card (:func:`~rummykit.bots.tactics.links`) that a playout's
discard weighs, with jokers kept.  Plain greedy throws its costliest loose card even
when it is one of a pair; with this weight the playout keeps pairs and near-runs, as
the expert (whose outs are too slow for playouts) does.  Chosen by single-round
duplicate deals of the policy against ``expert`` (match win rate; mean score gap):

========  =====================  ==================
weight    basic 2p, 1,000 deals  rami51 4p, 300 deals
========  =====================  ==================
0         46.5%                  46.2%, -11.1 points
3         51.4%                  46.3%, -5.0
6         55.1%                  49.7%, -4.7
10        57.7%                  51.7%, -4.3
========  =====================  ==================

Above 10 the links decide first and deadwood only breaks ties (15 and 25 played the
same basic deals identically to 10)."""


def playout_policy(s: GameState, solver: Solver, rng: random.Random) -> Move:
    """The playouts' move, read straight from a (sampled) state: greedy, with the
    link-aware discard (:data:`PLAYOUT_LINK_WEIGHT`).

    In the play phase it ranks the pseudo-legal moves and checks only the chosen meld
    or lay-off: the greedy order (best meld, else best lay-off, else the cheapest
    discard) takes the first best move of a list, so when that move is legal it is
    also the first best of the legal list, which keeps the same order.  When it is not
    legal, or no discard is possible (an obligation), the full legal list decides.
    The choice is therefore always the one :func:`greedy_move` makes on the legal
    list, at a fraction of the cost in Rami (``tests/bots/test_ai.py`` checks this).
    """
    if s.rules.family is Family.INDIAN:  # Indian Rummy: no melds in play; its own cheap player
        return indian_playout_move(s, indian_solver(s))
    if s.phase is Phase.KNOCK and s.hands[s.current].bit_count() > s.game.dealt:
        # The knocker's discard: nothing more is drawn, so links are worth nothing and
        # the least deadwood is what scores (gin, or no undercut), as the expert plays.
        return discard_choice(_StateView(s), solver)  # type: ignore[arg-type]
    if s.phase is Phase.PLAY and s.rules.meld_in_play and s.rules.family is not Family.CONTRACT:
        pseudo = s.pseudo_legal_moves()
        v: Any = _StateView(s, pseudo)
        m = best_meld(v, solver) or best_layoff(v, solver)
        if m is None:
            if any(x.kind == DISCARD for x in pseudo):
                return discard_choice(v, solver, link_weight=PLAYOUT_LINK_WEIGHT)
        elif s.is_legal_pseudo(m):
            return m
    elif (
        s.phase is Phase.DRAW
        and s.game.movegen[Phase.DRAW] is None
        and not s.rules.deep_discard
        and s.rules.family is not Family.CONTRACT
        and s.may_draw_stock()
        and draw_gain(_StateView(s, ()), solver) <= 0  # type: ignore[arg-type]
    ):
        return DRAW_STOCK_MOVE  # greedy's draw, without vetting the upcard it leaves
    full: Any = _StateView(s)
    return greedy_move(full, solver, rng, PLAYOUT_LINK_WEIGHT)


EXPERT_TURNS = 6
"""Turns of the expert's own play that a Rummikub sample plays after each candidate,
the racks they leave then scored as a blocked round (:attr:`ISMCTSBot.expert_turns`,
:attr:`ISMCTSBot.tiles_horizon`): about the next three turns of each player, at a
few milliseconds a turn on a crowded table, with no light players (who lengthen the
round) after them.  At half a CPU-second a move against ``medium`` it measured the
higher of the two settings tried (two expert turns then light players to the round's
end was the other), both within the noise of parity (docs/benchmarks.md,
"Rummikub's levels")."""


class ISMCTSBot(Bot):
    name = "ismcts"

    def __init__(
        self,
        seconds: float | None = 1.0,
        iterations: int | None = None,
        workers: int = 1,
        horizon: int = 60,
        top_k: int = 4,
        clock: str = "wall",
        early_stop: bool = True,
        indifference: float = 0.02,
        inference: bool = True,
        deviate_z: float | None = None,
        tiles_search: bool = False,
        expert_turns: int = EXPERT_TURNS,
        tiles_horizon: int = EXPERT_TURNS,
        leaf_value: LeafValue | None = None,
    ) -> None:
        if seconds is None and iterations is None:
            raise ValueError("give a time (seconds) or an iteration budget")
        if clock not in CLOCKS:
            raise ValueError(f"clock must be one of {sorted(CLOCKS)}, not {clock!r}")
        self.seconds = seconds
        self.clock = clock
        self.early_stop = early_stop
        self.iterations = iterations
        self.workers = max(1, workers)
        self.horizon = horizon
        self.top_k = top_k
        self.indifference = indifference
        """Reward (in the units of :func:`rewards`: 0.02 is two points of margin) by
        which a candidate may beat the leader and still not be worth searching on
        for.  Rewards in points spread wide (:func:`rewards` is not squashed), so at one
        point (0.01) almost no basic decision settles within 96 samples; at two, clear
        ones do (``tests/bots/test_ai.py``)."""
        self.deviate_z = DEVIATE_Z if deviate_z is None else deviate_z
        """How sure the paired samples must be that another candidate beats the
        expert's choice before the search plays it (:func:`confident_choice`)."""
        self._rows: list[list[float]] = []
        self.inference = inference
        """Deal the samples by the opponent model (:mod:`.inference`); False deals
        them uniformly (for measuring what the model adds)."""
        self.last_iterations = 0
        """Samples the latest search took (for tests and benchmarks)."""
        self.tiles_search = tiles_search
        """Search Rummikub turns (:func:`~rummykit.bots.rummikub.candidate_moves` compared
        on samples).  Off, the bot plays the expert's Rummikub move, since no setting
        of the search has measured stronger than the expert on duplicate deals
        (docs/benchmarks.md, "Rummikub's levels"): with light playouts alone it won
        40.4% (31.5-50.0%) of 52 deals at one CPU-second a move, its playouts'
        players never rearranging the table; with the expert's next turns played on
        each sample (:data:`EXPERT_TURNS`) it came near parity at half a CPU-second,
        short of the goal of 55%."""
        self.expert_turns = expert_turns
        """Turns after each candidate that a Rummikub playout plays by the expert's
        rule before its light players take over
        (:meth:`~rummykit.bots.rummikub_playout.Playout.play_expert`)."""
        self.tiles_horizon = tiles_horizon
        """Turns a Rummikub playout plays after the candidate at most; one cut short is
        scored as a blocked round (the lowest rack takes the differences), so with
        ``tiles_horizon == expert_turns`` a sample is the expert's next turns and the
        racks they leave."""
        self.leaf_value = leaf_value
        """Asked before each step of a playout; where it gives rewards the playout
        stops and scores them.  The way in for a learned evaluation of the positions
        the playouts reach, as OpenSpiel's MCTS takes an evaluator; with ``workers >
        1`` it goes to the worker processes, so it must pickle (a module-level
        function or object).  None (the default) plays every playout out: a network
        trained on ``medium``'s Gin hands measured weaker than the playouts
        (``benchmarks/gin_value.py``, docs/bots.md, "A learned evaluation at Gin")."""
        self.expert = ExpertBot(gin_style=gin.HARD)
        """The moves the search starts from and keeps unless another measures better:
        ``medium``'s, with Gin's knock and draw tuned against ``medium``
        (``gin.HARD``)."""
        self._steps = horizon
        """The running search's playout horizon (:meth:`playout_horizon`)."""
        self._pool: ProcessPoolExecutor | None = None
        self._deadline: float | None = None
        """When the running search stops (None: no time budget)."""

    def playout_horizon(self, rules: Rules, players: int) -> int:
        """Actions a playout plays before it scores the round as it stands:
        :attr:`horizon`, or in Indian Rummy at most
        :data:`~rummykit.bots.indian.SEARCH_TURNS` turns of each player (a draw and a
        discard each), as its own cheap player is a rough one and a declaration's
        check is costly."""
        if rules.family is Family.INDIAN:
            return min(self.horizon, INDIAN_TURNS * 2 * players)
        return self.horizon

    def sample_limit(self, rules: Rules) -> int | None:
        """Samples a search may take: :attr:`iterations` when given, else at most
        :data:`GIN_SAMPLES` in Gin, else as many as the time allows (None)."""
        if self.iterations is None and rules.family is Family.GIN:
            return GIN_SAMPLES
        return self.iterations

    def candidates(self, view: PlayerView, rng: random.Random) -> list[Move]:
        """The expert's choice first, then the other moves worth comparing."""
        legal = view.legal
        if view.rules.family is Family.INDIAN:  # no melds in play: its own (bots/indian.py)
            return indian_candidates(view, rng, self.top_k)
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
        started = CLOCKS[self.clock]()
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.rules.family is Family.RUMMIKUB:  # its own candidates (bots/rummikub.py)
            if not self.tiles_search:
                return self.expert.choose(view, rng)
            cands = candidate_moves(view)
        elif view.hand.bit_count() > LARGE_HAND:
            # Every step of a playout from such a hand (deep draws) costs the solver
            # hundreds of bounded searches: the expert's move keeps to the budget.
            return self.expert.choose(view, rng)
        else:
            cands = self.candidates(view, rng)
        if len(cands) == 1:
            return cands[0]
        if self.workers == 1:
            self.search(view, cands, rng.getrandbits(64), started)
            return cands[confident_choice(self._rows, self.deviate_z)]
        sums = self._parallel(view, cands, rng)
        # max() keeps the first of equals, and the expert's choice comes first.
        return max(cands, key=lambda m: sums[m])

    def _parallel(self, view: PlayerView, cands: list[Move], rng: random.Random) -> Sums:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers)
        seeds = [rng.getrandbits(64) for _ in range(self.workers)]
        limit = self.sample_limit(view.rules)
        share = limit and -(-limit // self.workers)
        worker = ISMCTSBot(
            self.seconds,
            share,
            1,
            self.horizon,
            self.top_k,
            self.clock,
            self.early_stop,
            self.indifference,
            self.inference,
            self.deviate_z,
            self.tiles_search,
            self.expert_turns,
            self.tiles_horizon,
            self.leaf_value,
        )
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
    def search(
        self, view: PlayerView, cands: list[Move], seed: int, started: float | None = None
    ) -> Sums:
        """Total reward of each candidate over one budget of paired iterations; the
        time budget counts from ``started`` (on the bot's clock) when given, so that
        the time spent choosing the candidates is in it."""
        rng = random.Random(seed)
        solver = view.game.solver
        self._steps = self.playout_horizon(view.rules, len(view.hand_sizes))
        tiles = view.rules.family is Family.RUMMIKUB
        # Rummikub has no discards or takes for the opponent model to read: its
        # samples deal the unseen tiles uniformly.
        weights: CardWeights | None = card_weights(view) if self.inference and not tiles else None
        sums = dict.fromkeys(cands, 0.0)
        now = CLOCKS[self.clock]
        if started is None:
            started = now()
        deadline = started + self.seconds if self.seconds is not None else None
        self._deadline = deadline
        limit = self.sample_limit(view.rules)
        rows: list[list[float]] = []
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done and now() >= deadline:
                break
            if (
                self.early_stop
                and done >= MIN_ITERATIONS
                and done % CHECK_EVERY == 0
                and settled(rows, self.indifference)
            ):
                break
            sample = determinize(view, rng, weights)
            playout_seed = rng.getrandbits(64)
            row = []
            if tiles:  # light playouts (bots/rummikub_playout.py)
                light = Playout.of_state(sample)
                late = deadline is not None and done
                stop = (lambda: now() >= deadline) if late else None  # type: ignore[operator]
                for m in cands:
                    deltas = light.play_move(m, self.tiles_horizon, self.expert_turns, stop)
                    row.append(rewards(sample, deltas)[view.player])
                    if stop is not None and stop():
                        break
                if stop is not None and stop():
                    break  # the expert's turns cost milliseconds: a sample cut short is dropped
                for m, x in zip(cands, row, strict=True):
                    sums[m] += x
            for m in cands if not tiles else ():
                s = sample.clone()
                s.apply(m)
                r = self._playout(s, solver, random.Random(playout_seed), sample.round_no)
                sums[m] += r[view.player]
                row.append(r[view.player])
            rows.append(row)
            done += 1
        self.last_iterations = done
        self._rows = rows
        self._deadline = None
        return sums

    def _playout(
        self, s: GameState, solver: Solver, rng: random.Random, round_no: int
    ) -> list[float]:
        """One playout's rewards; past the search's deadline it stops where it is and
        scores the round as if it ended there, so that a time budget holds when each
        step is slow (hands of fifty cards, which 500 Rum's deep draws can make)."""
        steps = 0
        deadline, now = self._deadline, CLOCKS[self.clock]
        leaf = self.leaf_value
        while s.phase is not Phase.OVER and s.round_no == round_no and steps < self._steps:
            if leaf is not None and (value := leaf(s, steps)) is not None:
                return value
            s.apply_unchecked(playout_policy(s, solver, rng))
            steps += 1
            if deadline is not None and now() >= deadline:
                break
        n = s.num_players
        if s.round_no != round_no or s.phase is Phase.OVER:
            deltas = list(s.results[-1].deltas) if s.results else [0] * n
        else:
            deltas = estimate(s, solver)
        return rewards(s, deltas)


def indian_solver(s: GameState) -> HandSolver:
    """The hand solver of an Indian Rummy game (its variant's, with its memos)."""
    solver = s.game.variant.solver  # type: ignore[attr-defined]
    assert isinstance(solver, HandSolver)
    return solver


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
"""The clocks a time budget can be counted on."""

GIN_SAMPLES = 100
"""At most this many samples a Gin move when the budget is time (an iteration budget
is the caller's).  More samples make Gin's search weaker, not stronger: what a few
hundred playouts of the simple playout policy show with confidence is partly that
policy's bias, and the search leaves the expert's move for it.  On the same 200
duplicate deals against ``medium`` (docs/bots.md, "The search against medium at Gin")
100 samples a move took 59.5% of the points and one CPU-second a move (up to about a
thousand samples) 55.7%, paired −1.54 points a hand (−3.07 to −0.01); before
``gin.HARD``, 100 samples 56.9% and one CPU-second 55.2%."""

MIN_ITERATIONS = 32
"""Paired samples taken before the search may stop early."""
CHECK_EVERY = 8
"""How often (in samples) the early-stopping test runs."""
STOP_Z = 2.58
"""One-sided z of the early-stopping test: about 99.5% per look, conservative because
the test is repeated as samples come in."""


DEVIATE_Z = 1.64
"""One-sided z (95%) by which another candidate must beat the expert's choice."""


def confident_choice(rows: Sequence[Sequence[float]], z: float) -> int:
    """The column of ``rows`` (one row per paired sample, column 0 the expert's
    choice) to play: the best mean among the candidates whose paired gain over column
    0 is positive with confidence ``z``, else column 0.

    With a few hundred samples a second, a discard that won a point more in the
    playouts than the expert's is as often noise as skill, and in Gin the hard bot
    left the expert's choice on a third of its decisions for such gains; ``z = 0``
    plays the best mean, as the search did before.

    >>> confident_choice([[0.0, 0.1], [0.0, 0.1], [0.0, 0.12]], 1.64)   # steady gain
    1
    >>> confident_choice([[0.0, 0.5], [0.0, -0.4], [0.0, 0.2]], 1.64)   # noise
    0
    >>> confident_choice([[0.0, 0.5], [0.0, -0.4], [0.0, 0.2]], 0.0)
    1

    One sample has no spread to be confident with: a search cut to one sample by a
    slow machine keeps the expert's choice (``z = 0`` still plays the best mean).

    >>> confident_choice([[0.0, 0.5]], 1.64), confident_choice([[0.0, 0.5]], 0.0)
    (0, 1)
    """
    n = len(rows)
    best, best_mean = 0, 0.0
    if n == 0 or (n == 1 and z > 0):
        return 0
    for c in range(1, len(rows[0])):
        d = [r[c] - r[0] for r in rows]
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
        if mean - z * math.sqrt(var / n) > 0 and mean > best_mean:
            best, best_mean = c, mean
    return best


def settled(rows: Sequence[Sequence[float]], indifference: float, z: float = STOP_Z) -> bool:
    """True when the paired rewards ``rows`` (one row per sample, one column per
    candidate) show the leading column is, with confidence, no more than
    ``indifference`` worse than any other.

    For each other candidate the per-sample differences (other - leader) are paired on
    the same deal, so their spread is small; the test asks that the upper confidence
    bound of the mean difference stay under ``indifference``.

    >>> settled([[1.0, 0.0]] * 40, 0.02)       # always better: settled
    True
    >>> settled([[1.0, 0.0], [0.0, 1.0]] * 20, 0.02)   # a coin flip: not settled
    False
    >>> settled([[0.3, 0.3]] * 40, 0.02)       # identical outcomes: either will do
    True
    """
    n = len(rows)
    if n < 2:
        return False
    k = len(rows[0])
    means = [sum(r[c] for r in rows) / n for c in range(k)]
    lead = max(range(k), key=means.__getitem__)
    for c in range(k):
        if c == lead:
            continue
        d = [r[c] - r[lead] for r in rows]
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1)
        if mean + z * math.sqrt(var / n) >= indifference:
            return False
    return True


def estimate(s: GameState, solver: Solver) -> list[int]:
    """Round score deltas as if the round ended now, each hand at its least deadwood.

    A player who has not opened could lay nothing, so their whole hand counts, plus
    the rules' penalty for never melding (Rami's 100); one who is down in Contract
    Rummy may only lay off (:func:`~rummykit.bots.contract.down_cost`).  In a knock
    game the round ends only by a knock: see :func:`knock_estimate`."""
    r = s.rules
    if r.family is Family.GIN:
        return knock_estimate(s)
    if r.family is Family.INDIAN:  # Indian Rummy: the hands as its scoring counts them
        return cutoff_deltas(s, indian_solver(s))
    dead = []
    for p, h in enumerate(s.hands):
        if s.needs_opening(p) or (r.never_melded_penalty and not s.melded[p]):
            value = hand_value(r, bits(h)) + r.never_melded_penalty
        elif r.family is Family.CONTRACT:  # down in Contract Rummy: lay-offs only, no new melds
            value = down_cost(r, s.game.melds, s.table, h)
        else:
            value = solver.deadwood(h)
        dead.append(value)
    n = len(dead)
    if r.scoring is Scoring.WINNER_COLLECTS:
        low = min(dead)
        w = dead.index(low)
        return [sum(d - low for d in dead) if p == w else 0 for p in range(n)]
    return dead


def knock_estimate(s: GameState) -> list[int]:
    """Gin cut off before its end: the hand with the least deadwood knocks now if the
    knock limit allows, scored as the rules score a knock (:func:`score_knock`: the
    gin bonus at no deadwood, the undercut bonus when the other hand is lower, which
    it cannot be here); otherwise nobody can knock and the hand is void, as at the
    wall.  The defender's lay-offs are not counted (a cut-off is an estimate).

    >>> from rummykit.position import position_from_text
    >>> g = position_from_text(
    ...     "gin 2H3H4H7S7D7C9C9D9S2C/AS2S3S4S5S6S8S5HTSJS - 8H 31 1d -/- 0,0 dealer=2")
    >>> knock_estimate(g)      # 2 points against 33: the first player knocks for 31
    [31, 0]
    """
    game = s.game
    dead = [deadwood_shown(game, h) for h in s.hands]
    low = min(dead)
    if low > knock_fields(s).knock_limit:
        return [0] * len(dead)
    k = dead.index(low)
    other = 1 - k
    margin = dead[other] - low + (s.rules.gin_bonus if low == 0 else 0)
    out = [0, 0]
    out[k] = margin
    return out


REWARD_SCALE = 100.0
"""Points of margin per unit of reward (:func:`rewards`)."""


def rewards(s: GameState, deltas: list[int]) -> list[float]:
    """Per player reward from round score deltas: the margin over the others' mean,
    in points as the scoring counts them, divided by :data:`REWARD_SCALE`.

    Not squashed: the search's mean reward is then the expected margin, the number the
    scoring adds up and the Gin goals measure.  A squashed reward such as
    ``tanh(margin / 40)`` counts a 100-point margin hardly more than a 50-point one, so
    a Rami search could not see the 100 points of never melding, nor a Gin search the
    gin and undercut bonuses on top of a knock (docs/bots.md).

    >>> from rummykit import new_game
    >>> rewards(new_game("rami51", players=4, seed=1), [0, 40, 140, 60])  # penalty: bad
    [0.8, 0.2...]
    """
    return [m / REWARD_SCALE for m in margins(s.rules, deltas)]
