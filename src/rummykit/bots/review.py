"""Game review: grade one player's decisions in a round against the ``hard`` engine.

Chess players get a review after every game; this is the rummy one.  For each decision
the player made in a round (every point where they were to act with more than one
legal move), the candidates are the hard bot's own candidates plus the move played.
Each candidate's *expected round points* is estimated by the hard bot's search
(:class:`~rummykit.bots.ismcts.ISMCTSBot`) on determinized samples of the player's
view, every candidate on the same samples with the same playout seed, so the
comparison is paired and the luck of the deal cancels out.  The points are the
player's margin over the mean of the others at the end of the round, signed so that
more is better (what the scoring counts: a winner-collects round scores the others'
hands, a penalty round charges one's own).  A candidate already shown not to be worth
searching on (the search's early-stopping test, after :data:`RACE_FROM` samples) is
dropped so the budget goes to the others; the move played never is
(:meth:`PointsSearch.racing`).

* **Points lost** = best candidate's estimate - the played move's estimate (never
  below 0: the played move is a candidate, so the best is at least as good).
* **Label** and the loss shown, both from the loss and its error (:func:`grade`,
  :data:`LABELS`): best (no loss shown), good, inaccuracy, mistake, blunder.
* **Accuracy** of the round = the mean over decisions of ``100 * exp(-shown /
  ACCURACY_SCALE)``: 100 for a round of best moves, about 37 for a round that loses
  :data:`ACCURACY_SCALE` points at every decision.
* **Hints** are the same evaluation (:func:`evaluate`): the move
  :func:`rummykit.bots.hints.suggest` gives at a review's budget and
  :func:`decision_seed` is the one the review grades best.
* **Key moments**: the three decisions that lost the most among those not labelled
  best, each with the better move and the reason for it in words
  (:func:`rummykit.bots.reasons.explain`).
* **Series**: the expected points after each decision (the played move's estimate),
  ending with the round's real result, for a chart of how the round went.

Every result is a function of the record, the player, the round, the seed and the
budget: each decision's search is seeded from the seed and the decision's move
index, so the same arguments give the same review, in one process or several.

This module sits at the bots layer: it uses the hard bot's search and the hints, and
reads records through :mod:`rummykit.notation`.  It does no I/O.

>>> from rummykit import new_game
>>> from rummykit.bots import play_match, make_bot
>>> g, _ = play_match("basic(deals=1)", 2, [make_bot("easy"), make_bot("easy")], seed=3)
>>> rv = review_round(g, player=0, round_no=1, budget=8)
>>> rv.round_no, len(rv.decisions) > 0, 0 <= rv.accuracy <= 100
(1, True, True)
>>> rv.decisions[0].label in LABEL_NAMES
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from ..events import Cut, Deal
from ..moves import Move
from ..notation import import_record, move_to_text
from ..rules import Family, Rules, Scoring
from ..serialize import state_from_json, state_to_json
from ..solver import Solver
from ..state import GameState, Phase
from ..view import CardWeights, PlayerView, determinize
from .inference import card_weights
from .ismcts import CHECK_EVERY, MIN_ITERATIONS, REWARD_SCALE, ISMCTSBot, settled
from .reasons import why
from .rummikub import placed_points

DEFAULT_BUDGET = 256
"""Paired samples per decision at most, for two players of a one-deck game of melds
laid in play (basic, Gin), and of a game whose family :data:`FAMILY_BUDGETS` does not
name when it has one deck and no joker.  The search stops early once the choice is
clear (:data:`INDIFFERENCE`)."""

HEAVY_BUDGET = 48
"""...and for two players of a game with two decks or jokers whose family is not
named."""

FAMILY_BUDGETS: dict[str, int] = {
    "basic": 256,
    "classic": 256,
    "cg101": 256,
    "gin": 256,
    "rum500": 64,
    "rami51": 48,
    "kalooki": 64,
    "contract": 96,
    "indian": 40,
}
"""Each preset family's budget for two players, from its measured cost
(``python benchmarks/review.py``, docs/bots.md "Game review"): a 40-decision round
reviewed within 15 CPU-seconds in every family.  A 500 Rum sample plays long hands
with deep draws and a Rami 51 one fourteen cards a hand with jokers, several times a
basic sample; Indian Rummy's playouts are cut after
:data:`~rummykit.bots.indian.SEARCH_TURNS` turns."""


def family(rules: Rules) -> str:
    """The preset family of ``rules`` (``indian_pool101`` is ``indian``, ``gin_match``
    is ``gin``), or its name for rules of no known family.

    >>> from rummykit.rules import Rules
    >>> family(Rules.parse("indian_pool101")), family(Rules.parse("rum500(deals=1)"))
    ('indian', 'rum500')
    """
    return rules.name.split("_")[0]


def default_budget(rules: Rules, players: int) -> int:
    """The sample budget that reviews a 40-decision round within 15 CPU-seconds
    (``benchmarks/review.py`` measures it): the family's two-player budget
    (:data:`FAMILY_BUDGETS`; otherwise :data:`HEAVY_BUDGET` with two decks or jokers,
    :data:`DEFAULT_BUDGET` without), inversely proportional to the players, never
    under 16: a sample plays every hand.

    >>> from rummykit.rules import Rules
    >>> default_budget(Rules.preset("gin"), 2), default_budget(Rules.preset("rami51"), 4)
    (256, 24)
    >>> default_budget(Rules.preset("basic"), 4), default_budget(Rules.preset("indian_pool101"), 6)
    (128, 16)
    """
    heavy = rules.decks > 1 or rules.jokers > 0
    two = FAMILY_BUDGETS.get(family(rules), HEAVY_BUDGET if heavy else DEFAULT_BUDGET)
    return max(16, two * 2 // max(2, players))


INDIFFERENCE = 0.5
"""Points by which another candidate may still beat the leader when the search stops
early (the hard bot's test, :func:`rummykit.bots.ismcts.settled`, in points)."""

LABELS: tuple[tuple[str, float], ...] = (
    ("best", 0.5),
    ("good", 2.0),
    ("inaccuracy", 5.0),
    ("mistake", 10.0),
    ("blunder", math.inf),
)
"""Each label with the points lost it allows (strictly below): a decision that loses
under half a point is as good as the best (the estimates' own noise at the default
budget); ten points or more, about a face card's worth of deadwood, is a blunder."""

LABEL_NAMES: tuple[str, ...] = tuple(name for name, _ in LABELS)
"""The labels, from best to worst."""

ACCURACY_SCALE = 10.0
"""Points lost at which a decision's accuracy falls to ``100 / e`` (about 37%)."""

CONFIDENCE_Z = 1.645
"""A decision is labelled by the loss the samples show at one-sided 95% confidence,
``lost - CONFIDENCE_Z * error``: the best of several noisy estimates is biased upwards,
so an unadjusted loss would call a move a mistake when the samples cannot tell it
from the best."""

KEY_MOMENTS = 3
"""How many key moments a review names: the decisions that lost the most points among
those not labelled best, so a big but uncertain loss (a move the samples cannot tell
from the best, see :func:`shown_loss`) is not called a key moment."""

Progress = Callable[[int, int], None]
"""``progress(done, total)``, called after each decision is graded."""


def label_for(lost: float) -> str:
    """The label of a decision that lost ``lost`` points against the best.

    >>> [label_for(x) for x in (0.0, 1.0, 3.0, 7.0, 25.0)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    for name, limit in LABELS:
        if lost < limit:
            return name
    return LABELS[-1][0]  # pragma: no cover - the last limit is infinite


def decision_accuracy(lost: float) -> float:
    """A decision's accuracy in percent: ``100 * exp(-lost / ACCURACY_SCALE)``.

    >>> decision_accuracy(0.0), round(decision_accuracy(ACCURACY_SCALE), 1)
    (100.0, 36.8)
    """
    return 100.0 * math.exp(-max(0.0, lost) / ACCURACY_SCALE)


def margin(rules: Rules, deltas: Sequence[int], player: int) -> float:
    """The player's round points as the scoring counts them: their delta minus the
    mean of the others', negated under penalty scoring (where points are bad).

    >>> from rummykit.rules import Rules
    >>> margin(Rules.preset("basic"), (30, 0, 0), 0), margin(Rules.preset("basic"), (30, 0, 0), 1)
    (30.0, -15.0)
    >>> margin(Rules.preset("classic"), (0, 12), 0)
    12.0
    """
    n = len(deltas)
    others = sum(deltas[q] for q in range(n) if q != player) / max(1, n - 1)
    sign = 1.0 if rules.scoring is Scoring.WINNER_COLLECTS else -1.0
    return sign * (deltas[player] - others)


class PointsSearch(ISMCTSBot):
    """The hard bot's search, its rewards in points of margin (:func:`margin`), and
    every sample's outcome kept so that the paired differences have a standard error.

    The search, the determinizations (by the opponent model), the common random
    numbers, the playouts and their cut-off scoring are the hard bot's own: the review
    grades by the engine the hard bot plays with.
    """

    def __init__(self, budget: int) -> None:
        super().__init__(seconds=None, iterations=budget, indifference=INDIFFERENCE)
        self._outcomes: list[list[float]] = []

    def paired(self, view: PlayerView, cands: list[Move], seed: int) -> list[list[float]]:
        """One row per sample, one column per candidate: the view's player's points
        after playing that candidate on that sample (common random numbers)."""
        self._outcomes = []
        sums = self.search(view, cands, seed)
        k = len(cands)
        flat = [o[view.player] for o in self._outcomes]
        rows = [flat[i : i + k] for i in range(0, len(flat), k)]
        if len(flat) != k * self.last_iterations or any(
            not math.isclose(sum(r[c] for r in rows), sums[m], abs_tol=1e-6)
            for c, m in enumerate(cands)
        ):  # pragma: no cover - only if the search stops playing candidates in order
            raise RuntimeError("the hard bot's search no longer plays the candidates in order")
        return rows

    def _playout(
        self, s: GameState, solver: Solver, rng: random.Random, round_no: int
    ) -> list[float]:
        # The search's reward is the margin in points over REWARD_SCALE, unsquashed;
        # tests/bots/test_review.py checks that it agrees with :func:`margin`.
        out = [r * REWARD_SCALE for r in super()._playout(s, solver, rng, round_no)]
        self._outcomes.append(out)
        return out

    def racing(
        self, view: PlayerView, cands: list[Move], keep: int | None, seed: int
    ) -> list[list[float]]:
        """Per candidate, the view's player's points on each sample it was played on.

        The samples are the search's own (:meth:`search`: the same determinizations,
        dealt by the opponent model, and the same playout seed for every candidate of
        a sample, drawn from ``seed`` in the same order), but a candidate that is
        already shown not to be worth searching on is dropped: from
        :data:`RACE_FROM` samples on, at every check of the search's early stop, a
        candidate other than the leader and column ``keep`` (the move played, whose
        loss is what the review measures) whose paired difference to the leader
        passes the early stop's test (:func:`~rummykit.bots.ismcts.settled`: with
        confidence, it beats the leader by less than the indifference) plays no more
        samples.  The search stops when every remaining one passes it, as the hard
        bot's does.  A dropped candidate's list is therefore shorter; the leader's and
        ``keep``'s have one point per sample (``last_iterations``).
        """
        rng = random.Random(seed)
        solver = view.game.solver
        self._steps = self.playout_horizon(view.rules, len(view.hand_sizes))
        weights: CardWeights | None = card_weights(view) if self.inference else None
        cols: list[list[float]] = [[] for _ in cands]
        alive = list(range(len(cands)))
        limit = self.iterations or 0
        done = 0
        while done < limit:
            if done >= RACE_FROM and done % CHECK_EVERY == 0:
                alive = _race(cols, alive, keep, self.indifference)
                if done >= MIN_ITERATIONS and len(alive) <= 2:
                    rows = [[cols[c][i] for c in alive] for i in range(done)]
                    if settled(rows, self.indifference):
                        break
            sample = determinize(view, rng, weights)
            playout_seed = rng.getrandbits(64)
            for c in alive:
                s = sample.clone()
                s.apply(cands[c])
                # the search's own playout, past this class's recording of outcomes
                r = super()._playout(s, solver, random.Random(playout_seed), sample.round_no)
                cols[c].append(r[view.player] * REWARD_SCALE)
            done += 1
        self.last_iterations = done
        return cols


RACE_FROM = 16
"""Paired samples a review takes of every candidate before it may drop one (see
:meth:`PointsSearch.racing`).  A decision has four or five candidates; dropping the
settled ones from 16 samples on saved 23% of a basic review's CPU time, 14% of a Gin
one's and 3% of a Rami 51 one's, whose noisy four-handed samples rarely settle
within its budget of 48 (docs/bots.md, "Game review")."""


def _race(
    cols: list[list[float]], alive: list[int], keep: int | None, indifference: float
) -> list[int]:
    """The candidates of ``alive`` still raced: the leader, ``keep``, and every other
    whose paired difference to the leader does not pass the early-stopping test.

    >>> _race([[1.0, 2.0] * 8, [0.0, 0.1] * 8, [5.0, -5.0] * 8, [0.0] * 16], [0, 1, 2, 3], 3, 0.5)
    [0, 2, 3]
    """
    n = len(cols[alive[0]])
    means = {c: sum(cols[c]) / n for c in alive}
    lead = max(alive, key=means.__getitem__)
    out = []
    for c in alive:
        if c not in (lead, keep):
            rows = [[cols[lead][i], cols[c][i]] for i in range(n)]
            if settled(rows, indifference):
                continue
        out.append(c)
    return out


@dataclass(frozen=True)
class Decision:
    """One graded decision."""

    index: int
    """The move's index in the match history (0 is the match's first move)."""
    turn: int
    """The turn number within the round."""
    phase: str
    """The phase the decision was made in (``draw``, ``play``, ...)."""
    move: Move
    """The move played."""
    best_move: Move
    """The candidate with the highest expected points (the played move if it ties)."""
    played: str
    """The move played, in record notation."""
    best: str
    """The best move, in record notation."""
    played_points: float
    """Expected round points (margin) after the played move."""
    best_points: float
    """Expected round points after the best move."""
    lost: float
    """``best_points - played_points``, at least 0."""
    error: float
    """The standard error of ``lost`` (from the paired per-sample differences)."""
    label: str
    """One of :data:`LABEL_NAMES`, given with :attr:`shown` by :func:`grade`."""
    reason: str
    """Why the best move is good, in words (:func:`rummykit.bots.reasons.explain`)."""
    samples: int
    """Paired samples the estimates rest on."""
    candidates: tuple[tuple[str, float], ...] = ()
    """Every candidate compared, in notation, with its expected points, best first."""
    shown: float = 0.0
    """The points lost that the samples show with confidence (:func:`grade`): 0 for a
    decision labelled best, else at least the label's lower limit.  The accuracy, the
    key moments and the front ends count this figure, so a label, its number and the
    accuracy never disagree."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "turn": self.turn,
            "phase": self.phase,
            "played": self.played,
            "best": self.best,
            "played_points": round(self.played_points, 2),
            "best_points": round(self.best_points, 2),
            "lost": round(self.lost, 2),
            "error": round(self.error, 2),
            "label": self.label,
            "shown": round(self.shown, 2),
            "reason": self.reason,
            "samples": self.samples,
            "candidates": [{"move": m, "points": round(p, 2)} for m, p in self.candidates],
        }


@dataclass(frozen=True)
class KeyMoment:
    """One of the decisions that lost the most, with the better move and why."""

    index: int
    turn: int
    played: str
    better: str
    lost: float
    """The points lost that the samples show with confidence (:attr:`Decision.shown`)."""
    label: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "turn": self.turn,
            "played": self.played,
            "better": self.better,
            "lost": round(self.lost, 2),
            "label": self.label,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class RoundReview:
    """The review of one player's round."""

    rules: str
    """The rules spec."""
    player: int
    name: str
    round_no: int
    seed: int
    budget: int
    decisions: tuple[Decision, ...]
    accuracy: float
    """Mean decision accuracy in percent (:func:`decision_accuracy` of each loss
    shown); 100 with no decision, or with every decision best."""
    key_moments: tuple[KeyMoment, ...]
    series: tuple[tuple[int, float], ...]
    """``(move index, expected points)``: the played move's estimate after each
    decision, then the round's real result at the index of its last move (if the
    round is over), for a chart of the player's expected score."""
    result: float | None
    """The player's real round points (:func:`margin`), or None if the round is not over."""
    counts: dict[str, int] = field(default_factory=dict)
    """Decisions per label, every label present."""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (moves as notation text, points rounded to 0.01)."""
        return {
            "rules": self.rules,
            "player": self.player,
            "name": self.name,
            "round": self.round_no,
            "seed": self.seed,
            "budget": self.budget,
            "accuracy": round(self.accuracy, 1),
            "counts": dict(self.counts),
            "result": None if self.result is None else round(self.result, 2),
            "decisions": [d.to_dict() for d in self.decisions],
            "key_moments": [k.to_dict() for k in self.key_moments],
            "series": [[i, round(p, 2)] for i, p in self.series],
        }


SPARKS = "▁▂▃▄▅▆▇█"
"""The eight heights of a text sparkline."""


def sparkline(values: Sequence[float]) -> str:
    """The values as a line of block characters, lowest ``▁`` to highest ``█`` (a flat
    series sits in the middle), for a chart of the expected score in a terminal.

    >>> sparkline([0, 5, 10, 5, -10])
    '▅▆█▆▁'
    >>> sparkline([3, 3]), sparkline([])
    ('▄▄', '')
    """
    if not values:
        return ""
    lo, hi = min(values), max(values)
    if hi == lo:
        return SPARKS[len(SPARKS) // 2 - 1] * len(values)
    top = len(SPARKS) - 1
    return "".join(SPARKS[round((v - lo) / (hi - lo) * top)] for v in values)


def grade(lost: float, error: float) -> tuple[str, float]:
    """A decision's label and the loss it shows, from its points lost and their
    standard error: the one place both are derived.

    The loss shown is the one the samples show with one-sided 95% confidence,
    ``lost - CONFIDENCE_Z * error``, and 0 when that is under the best label's half a
    point (the interval reaches within half a point of no loss): the decision is then
    *best* and shows no loss.  Otherwise the label is the one of the loss shown
    (:func:`label_for`), so the number never contradicts the label.

    >>> grade(10.2, 6.1)          # a large loss the samples cannot tell from none
    ('best', 0.0)
    >>> grade(12.0, 1.0)[0], round(grade(12.0, 1.0)[1], 2)
    ('blunder', 10.36)
    >>> grade(0.0, 0.0), grade(1.5, 0.5)[0], grade(3.0, 0.5)[0]
    (('best', 0.0), 'good', 'inaccuracy')
    """
    low = lost - CONFIDENCE_Z * error
    shown = low if low >= LABELS[0][1] else 0.0
    return label_for(shown), shown


def shown_loss(d: Decision) -> float:
    """The points a decision lost as its samples show them with confidence
    (:func:`grade`): what its label, the accuracy and the key moments go by."""
    return d.shown


def _standard_error(diffs: Sequence[float]) -> float:
    """The standard error of the mean of paired differences (0 for fewer than two).

    >>> _standard_error([1.0, 3.0]), _standard_error([2.0])
    (1.0, 0.0)
    """
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1) / n)


# -- replaying a record ------------------------------------------------------------------------


def match_start(final: GameState) -> GameState:
    """A new state at the start of the match ``final`` belongs to (same rules, names,
    seed and first dealer), from which its history replays.

    Raises ``ValueError`` for a state without an integer seed (a determinized or
    hand-built position has no history to replay).
    """
    seed = final.seed
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("this state has no seed, so its history cannot be replayed")
    events = final.events
    dealer: int | None = None
    if not (events and type(events[0]) is Cut):
        dealer = next((e.player for e in events if type(e) is Deal), 0)
    return GameState.new(final.rules, list(final.names), seed, dealer=dealer)


def _load(source: GameState | str | bytes) -> GameState:
    if isinstance(source, GameState):
        return source
    return import_record(source)


def rounds_played(final: GameState) -> int:
    """The rounds a match has reached (the last one may be in progress)."""
    return final.round_no if final.phase is not Phase.OVER else len(final.results)


@dataclass(frozen=True)
class DecisionPoint:
    """A point of the match where the player chose among several moves."""

    index: int
    """The move's index in the match history."""
    state: GameState
    """The state before the move (a copy)."""
    move: Move
    """The move played."""


def decision_points(
    final: GameState, player: int, round_no: int, limit: int | None = None
) -> tuple[list[DecisionPoint], int]:
    """Every point of round ``round_no`` where ``player`` chose among several moves,
    and the history index of the round's last move (for a front end that grades the
    points itself, with :func:`review_decision`, then calls :func:`summarise`).

    With ``limit``, at most that many points, spread evenly over the round
    (:func:`spread`): the round is replayed twice, once to count its decisions and
    once to copy the states of those kept, so a long round costs time in proportion
    to its length but memory only in proportion to ``limit``."""
    if limit is not None:
        indices = decision_indices(final, player, round_no)
        keep = {indices[i] for i in spread(len(indices), limit)}
    s = match_start(final)
    actions = s.game.actions
    points: list[DecisionPoint] = []
    last = len(final.history) - 1
    for index, action in enumerate(final.history):
        move = actions.decode(action)
        if (
            s.round_no == round_no
            and s.current == player
            and (index in keep if limit is not None else len(s.legal_moves()) > 1)
        ):
            points.append(DecisionPoint(index, s.clone(), move))
        s.apply(move)
        if s.round_no > round_no or s.phase is Phase.OVER:
            last = index
            break
    return points, last


def decision_indices(final: GameState, player: int, round_no: int) -> list[int]:
    """The history indices of :func:`decision_points` (a replay that copies nothing)."""
    s = match_start(final)
    out: list[int] = []
    for index, action in enumerate(final.history):
        if s.round_no == round_no and s.current == player and len(s.legal_moves()) > 1:
            out.append(index)
        s.apply_action(action)
        if s.round_no > round_no or s.phase is Phase.OVER:
            break
    return out


def spread(total: int, limit: int) -> list[int]:
    """``min(total, limit)`` positions of ``range(total)`` spread evenly, first and
    last included: the decisions a capped review grades.

    >>> spread(5, 10), spread(10, 4), spread(7, 1), spread(3, 0)
    ([0, 1, 2, 3, 4], [0, 3, 6, 9], [0], [])
    """
    if limit >= total:
        return list(range(total))
    if limit <= 1:
        return [0][:limit]
    return [round(i * (total - 1) / (limit - 1)) for i in range(limit)]


def round_only(state: GameState) -> GameState:
    """A copy of ``state`` whose history holds its current round only: what a view of
    it carries (:attr:`~rummykit.state.GameState.round_start`), so a decision sent
    to be graded is the size of its round, not of the whole match."""
    s = state.clone()
    if s.round_start:
        s.history = s.history[s.round_start :]
        s.round_start = 0
    return s


def count_decisions(source: GameState | str | bytes, player: int, round_no: int) -> int:
    """How many decisions :func:`review_round` would grade (no search: a replay)."""
    final = _load(source)
    _check(final, player, round_no)
    return len(decision_points(final, player, round_no)[0])


def _check(final: GameState, player: int, round_no: int) -> None:
    n = final.num_players
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        raise ValueError(f"player must be a seat 0..{n - 1}, not {player!r}")
    last = rounds_played(final)
    if isinstance(round_no, bool) or not isinstance(round_no, int) or not 1 <= round_no <= last:
        raise ValueError(
            f"round must be 1..{last} (the rounds this record reached), not {round_no!r}"
        )


# -- grading -----------------------------------------------------------------------------------


def review_decision(
    state: GameState,
    move: Move,
    *,
    seed: int = 0,
    budget: int | None = None,
    index: int = 0,
    unicode: bool = True,
) -> Decision:
    """Grade ``move`` for the player to act in ``state`` (who must have a choice).

    The state itself is not changed; only the acting player's view is searched.
    ``index`` only labels the decision (and, with ``seed``, seeds its search).
    Raises ``ValueError`` if ``move`` is not legal in ``state``.
    """
    legal = state.legal_moves()
    if move not in legal:
        raise ValueError(f"{move!r} is not a legal move here")
    if budget is None:
        budget = default_budget(state.rules, state.num_players)
    view = state.view(state.current)
    return _grade(view, move, state, seed, budget, index, unicode)


def decision_seed(seed: int, index: int) -> int:
    """The seed of the evaluation that grades the decision at history ``index`` in a
    review seeded ``seed``: a hint asked at that position with this seed and the
    review's budget (:func:`~rummykit.bots.hints.suggest`) is the same evaluation, so
    the review grades the hinted move best.

    >>> decision_seed(0, 17), decision_seed(1, 0)
    (17, 1000003)
    """
    return seed * 1_000_003 + index


@dataclass(frozen=True)
class Evaluation:
    """Every candidate of one position in expected points, on paired samples: the one
    evaluation behind both a hint (its :attr:`best`) and the review's grade of a
    decision (the loss of the move played against :attr:`best`)."""

    moves: tuple[Move, ...]
    """The candidates, in the order the search plays them."""
    cols: tuple[tuple[float, ...], ...]
    """Per candidate, its points on each sample it played (a raced-out one's is
    shorter, :meth:`PointsSearch.racing`)."""
    samples: int
    """Samples the candidates raced to the end played."""
    points: dict[Move, float]
    """Each candidate's expected points (a raced-out one's: the best's plus their
    paired difference on the samples it played)."""
    best: Move
    """The raced-to-the-end candidate with the most points; on a tie the move played
    (if one is given), then the first candidate (the expert's choice)."""

    def raced(self, move: Move) -> bool:
        """Whether ``move`` played every sample (it was not dropped)."""
        return len(self.cols[self.moves.index(move)]) == self.samples

    def loss(self, move: Move) -> tuple[float, float]:
        """``(lost, error)``: the best's points minus ``move``'s (never below 0) and the
        standard error of their paired per-sample differences."""
        b = self.cols[self.moves.index(self.best)]
        p = self.cols[self.moves.index(move)]
        k = min(len(b), len(p))
        lost = max(0.0, self.points[self.best] - self.points[move])
        return lost, _standard_error([x - y for x, y in zip(b[:k], p[:k], strict=True)])


def evaluate(view: PlayerView, budget: int, seed: int, played: Move | None = None) -> Evaluation:
    """The expected points of the hard bot's candidates for ``view`` (and ``played``,
    which is added if it is not one), on at most ``budget`` paired samples seeded by
    ``seed``.

    ``played`` is never raced out; every other candidate is, once it is settled
    against the leader.  The result does not depend on ``played`` when it is the
    best of the evaluation without it (the best is never raced out, so keeping it
    changes nothing): a hint's move reviewed at the same seed and budget is best.
    """
    if view.rules.family is Family.RUMMIKUB:
        return placed_evaluation(view, played)
    rng = random.Random(seed)
    search = PointsSearch(budget)
    cands = search.candidates(view, rng)
    if played is not None and played not in cands:
        cands.append(played)
    keep = None if played is None else cands.index(played)
    cols = search.racing(view, cands, keep, rng.getrandbits(64))
    n = search.last_iterations
    points = {m: sum(cols[c]) / max(1, len(cols[c])) for c, m in enumerate(cands)}
    raced = [m for c, m in enumerate(cands) if len(cols[c]) == n]
    # max() keeps the first of equals: the played move wins a tie, then the expert's.
    # The best is one of the candidates raced to the end (a dropped one was worse).
    order = sorted(raced, key=lambda m: m != played)
    best = max(order, key=points.__getitem__)
    # A dropped candidate: the best's estimate plus their paired difference on the
    # samples it played (its own mean over those few would not compare with the rest).
    top = cols[cands.index(best)]
    for c, m in enumerate(cands):
        if len(cols[c]) != n:
            k = len(cols[c])
            points[m] = points[best] + (sum(cols[c]) - sum(top[:k])) / max(1, k)
    return Evaluation(tuple(cands), tuple(tuple(c) for c in cols), n, points, best)


def placed_evaluation(view: PlayerView, played: Move | None = None) -> Evaluation:
    """Rummikub's evaluation: each listed move (and ``played``) worth the points of the
    tiles it places (:func:`rummykit.bots.rummikub.placed_points`), on one "sample"
    with no error; the best is the first of the most points, the played move first.

    No playouts: every turn of one would list the moves, a solver search of up to a
    few hundred milliseconds, so a sample of a round's remaining turns would cost
    seconds and a hint would exceed its second (the ``hard`` bot does not search
    Rummikub either, :mod:`rummykit.bots.rummikub`).  The points a move takes off the
    rack are what the round charges if it ended now, and going out takes them all."""
    cands = list(view.legal)
    if played is not None and played not in cands:
        cands.append(played)
    points = {m: float(placed_points(view, m)) for m in cands}
    best = max(sorted(cands, key=lambda m: m != played), key=points.__getitem__)
    return Evaluation(tuple(cands), tuple((points[m],) for m in cands), 1, points, best)


def _grade(
    view: PlayerView,
    move: Move,
    state: GameState,
    seed: int,
    budget: int,
    index: int,
    unicode: bool,
) -> Decision:
    ev = evaluate(view, budget, decision_seed(seed, index), move)
    best = ev.best
    lost, error = ev.loss(move)

    def text(m: Move) -> str:
        return move_to_text(state, m, unicode=unicode)

    order = [move, *(m for m in ev.moves if m != move)]
    ranked = sorted(order, key=lambda m: (not ev.raced(m), -ev.points[m]))
    label, shown = grade(lost, error)
    return Decision(
        index=index,
        turn=state.turn,
        phase=view.phase.name.lower(),
        move=move,
        best_move=best,
        played=text(move),
        best=text(best),
        played_points=ev.points[move],
        best_points=ev.points[best],
        lost=lost,
        error=error,
        label=label,
        reason=why(view, best, unicode),
        samples=ev.samples,
        candidates=tuple((text(m), ev.points[m]) for m in ranked),
        shown=shown,
    )


def _grade_point(args: tuple[DecisionPoint, int, int, bool]) -> Decision:
    point, seed, budget, unicode = args
    s = point.state
    return _grade(s.view(s.current), point.move, s, seed, budget, point.index, unicode)


_worker_points: list[DecisionPoint] = []
"""A review worker process's decision points (:func:`_start_worker`)."""


def _start_worker(state_json: str, player: int, round_no: int, limit: int | None) -> None:
    """Replay the match once in a review worker: its decisions then share one game
    (rules, meld tables and the solver's memo, warm from one decision to the next),
    and a task is an index rather than a pickled state of a couple of megabytes."""
    final = state_from_json(state_json)
    _worker_points[:] = decision_points(final, player, round_no, limit)[0]


def _grade_nth(args: tuple[int, int, int, bool]) -> Decision:
    n, seed, budget, unicode = args
    return _grade_point((_worker_points[n], seed, budget, unicode))


def review_round(
    source: GameState | str | bytes,
    player: int,
    round_no: int,
    *,
    seed: int = 0,
    budget: int | None = None,
    progress: Progress | None = None,
    workers: int = 1,
    unicode: bool = True,
    limit: int | None = None,
) -> RoundReview:
    """Review ``player``'s decisions (seat from 0) in round ``round_no`` (from 1).

    ``source`` is a match state (e.g. the one a game holds, or
    :func:`~rummykit.notation.import_record`'s result) or the text of a game record.
    ``budget`` caps the paired samples per decision (None: :func:`default_budget`,
    at most 15 CPU-seconds for 40 decisions); ``workers > 1`` grades decisions
    in that many processes, with the same result.  ``progress(done, total)`` is
    called as decisions are graded; an exception it raises stops the review (and
    propagates), which is how a front end cancels one.  With ``limit``, at most that
    many decisions are graded, spread evenly over the round (:func:`decision_points`):
    the web server's cap, so its review of a long round can be reproduced.

    Raises :class:`~rummykit.notation.NotationError` for a malformed record and
    ``ValueError`` for a seat or round the record does not have.
    """
    final = _load(source)
    _check(final, player, round_no)
    if budget is None:
        budget = default_budget(final.rules, final.num_players)
    if budget < 1:
        raise ValueError(f"budget must be at least 1, not {budget}")
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    points, last = decision_points(final, player, round_no, limit)
    tasks = [(p, seed, budget, unicode) for p in points]
    total = len(tasks)
    if progress is not None:
        progress(0, total)
    decisions: list[Decision] = []
    if workers > 1 and total > 1:
        # Spawned, not forked: the review runs inside threaded programs (the terminal
        # game's worker thread, the web server), where forking can deadlock.
        pool = ProcessPoolExecutor(
            min(workers, total),
            mp_context=get_context("spawn"),
            initializer=_start_worker,
            initargs=(state_to_json(final), player, round_no, limit),
        )
        try:
            jobs = [(n, seed, budget, unicode) for n in range(total)]
            for future in [pool.submit(_grade_nth, job) for job in jobs]:
                decisions.append(future.result())
                if progress is not None:
                    progress(len(decisions), total)
        finally:  # a progress callback may raise to stop the review: drop the rest
            pool.shutdown(cancel_futures=True)
    else:
        for t in tasks:
            decisions.append(_grade_point(t))
            if progress is not None:
                progress(len(decisions), total)
    return summarise(final, player, round_no, seed, budget, decisions, last)


def summarise(
    final: GameState,
    player: int,
    round_no: int,
    seed: int,
    budget: int,
    decisions: list[Decision],
    last: int,
) -> RoundReview:
    """The review of graded ``decisions`` (in order): accuracy, key moments, series;
    ``last`` is the history index of the round's last move (:func:`decision_points`)."""
    rules = final.rules
    result: float | None = None
    done = [r for r in final.results if r.round_no == round_no]
    series = [(d.index, d.played_points) for d in decisions]
    if done:
        result = margin(rules, done[0].deltas, player)
        series.append((last, result))
    # The accuracy counts the loss the labels show: a round of best moves is 100%,
    # and a review with no key moment ("nothing cost you anything") is one.
    accuracy = (
        sum(decision_accuracy(d.shown) for d in decisions) / len(decisions) if decisions else 100.0
    )
    worst = sorted(
        (d for d in decisions if d.label != LABEL_NAMES[0]),
        key=lambda d: (-d.shown, d.index),
    )
    key = tuple(
        KeyMoment(d.index, d.turn, d.played, d.best, d.shown, d.label, d.reason)
        for d in worst[:KEY_MOMENTS]
    )
    counts = dict.fromkeys(LABEL_NAMES, 0)
    for d in decisions:
        counts[d.label] += 1
    return RoundReview(
        rules=rules.spec(),
        player=player,
        name=final.names[player],
        round_no=round_no,
        seed=seed,
        budget=budget,
        decisions=tuple(decisions),
        accuracy=accuracy,
        key_moments=key,
        series=tuple(series),
        result=result,
        counts=counts,
    )


# The names the web review first imported, kept for it.
_replay_round = decision_points
_summarise = summarise
_Point = DecisionPoint
