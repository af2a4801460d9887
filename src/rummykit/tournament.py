"""Duplicate-deal tournaments between bots, with confidence intervals and Elo.

Luck in rummy is mostly the deal, so every deal is played once per *rotation* of the
bots around the table: with bots A and B at four seats, deal 7 is played as A B A B
and again as B A B A, and each bot holds every seat's cards once.  The match seed
fixes the cut, the shuffles and the deals, whoever plays.

>>> r = run_tournament("basic(deals=1)", players=2, bots=["greedy", "random"], games=3, seed=1)
>>> r.matches, sorted(r.bots)
(6, ['greedy', 'random'])
>>> r.bots["greedy"].match_wins > r.bots["random"].match_wins
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .bots import Bot, make_bot, play_match
from .rules import Rules, Scoring

Z95 = 1.959963984540054


def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class BotStats:
    name: str
    matches: int = 0
    match_wins: float = 0.0
    """Wins, a shared win counting 1/k for k winners."""
    hands: int = 0
    hand_wins: int = 0
    score_diff: float = 0.0
    """Sum over matches of (own score - mean of the others), signed so higher is better."""

    @property
    def match_rate(self) -> float:
        return self.match_wins / self.matches if self.matches else 0.0

    @property
    def hand_rate(self) -> float:
        return self.hand_wins / self.hands if self.hands else 0.0

    @property
    def match_ci(self) -> tuple[float, float]:
        return wilson_interval(self.match_wins, self.matches)

    @property
    def hand_ci(self) -> tuple[float, float]:
        return wilson_interval(self.hand_wins, self.hands)

    @property
    def mean_score_diff(self) -> float:
        return self.score_diff / self.matches if self.matches else 0.0


@dataclass(frozen=True)
class MatchRecord:
    seed: int
    lineup: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    round_winners: tuple[int | None, ...]


@dataclass
class TournamentResult:
    rules: str
    players: int
    games: int
    seed: int
    matches: int = 0
    bots: dict[str, BotStats] = field(default_factory=dict)
    records: list[MatchRecord] = field(default_factory=list)
    elo: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "players": self.players,
            "deals": self.games,
            "seed": self.seed,
            "matches": self.matches,
            "bots": {
                name: {
                    "matches": b.matches,
                    "match_wins": b.match_wins,
                    "match_win_rate": b.match_rate,
                    "match_win_ci95": list(b.match_ci),
                    "hands": b.hands,
                    "hand_wins": b.hand_wins,
                    "hand_win_rate": b.hand_rate,
                    "hand_win_ci95": list(b.hand_ci),
                    "mean_score_diff": b.mean_score_diff,
                    "elo": self.elo.get(name, 0.0),
                }
                for name, b in self.bots.items()
            },
        }


def lineups(players: int, bots: Sequence[str]) -> list[tuple[str, ...]]:
    """The distinct rotations of the seating ``bots[0], bots[1], ...`` (repeated round
    the table), so over a deal's rotations every bot holds every seat's cards.

    >>> lineups(4, ["a", "b"])
    [('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
    """
    out: list[tuple[str, ...]] = []
    base = [bots[i % len(bots)] for i in range(players)]
    for r in range(players):
        lineup = tuple(base[(i + r) % players] for i in range(players))
        if lineup not in out:
            out.append(lineup)
    return out


def play_one(rules: str, lineup: tuple[str, ...], seed: int) -> MatchRecord:
    """Play one match of the tournament (a top-level function so processes can run it)."""
    bots: list[Bot] = [make_bot(name) for name in lineup]
    state, _ = play_match(rules, list(lineup), bots, seed)
    for b in bots:
        close = getattr(b, "close", None)
        if close is not None:
            close()
    res = state.result()
    return MatchRecord(
        seed,
        lineup,
        res.scores,
        res.winners,
        tuple(r.winner if r.went_out else None for r in state.results),
    )


def run_tournament(
    rules: Rules | str,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    executor: Any = None,
) -> TournamentResult:
    """Play ``games`` duplicate deals; each is played once per lineup rotation.

    ``workers`` > 1 uses a process pool; ``executor`` may be any object with the
    ``concurrent.futures`` ``submit`` interface (the Ray bridge in the CLI uses it).
    ``progress(done, total)`` is called after every match.
    """
    spec = rules.spec() if isinstance(rules, Rules) else Rules.parse(rules).spec()
    Rules.parse(spec).check_players(players)
    for name in bots:
        make_bot(name)  # fail early on an unknown bot name
    master = random.Random(seed)
    seeds = [master.getrandbits(63) for _ in range(games)]
    jobs = [(spec, lineup, s) for s in seeds for lineup in lineups(players, bots)]
    result = TournamentResult(spec, players, games, seed)
    for name in bots:
        result.bots.setdefault(name, BotStats(name))
    records: Iterable[MatchRecord]
    if executor is None and workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            futures = [pool.submit(play_one, *job) for job in jobs]
            records = _collect(futures, progress)
    elif executor is not None:
        futures = [executor.submit(play_one, *job) for job in jobs]
        records = _collect(futures, progress)
    else:
        done: list[MatchRecord] = []
        for i, job in enumerate(jobs):
            done.append(play_one(*job))
            if progress:
                progress(i + 1, len(jobs))
        records = done
    scoring = Rules.parse(spec).scoring
    for rec in records:
        _add(result, rec, scoring)
    result.elo = elo_ratings(result.records, list(result.bots), scoring)
    return result


def _collect(futures: list[Any], progress: Callable[[int, int], None] | None) -> list[MatchRecord]:
    out = []
    for i, f in enumerate(futures):
        out.append(f.result())
        if progress:
            progress(i + 1, len(futures))
    return out


def _add(result: TournamentResult, rec: MatchRecord, scoring: Scoring) -> None:
    result.records.append(rec)
    result.matches += 1
    sign = 1.0 if scoring is Scoring.WINNER_COLLECTS else -1.0
    n = len(rec.lineup)
    # each distinct bot in the lineup counts once per match: as the best of its seats
    for name in set(rec.lineup):
        seats = [i for i, b in enumerate(rec.lineup) if b == name]
        st = result.bots[name]
        st.matches += 1
        st.match_wins += sum(1 for w in rec.winners if w in seats) / len(rec.winners)
        own = sum(rec.scores[i] for i in seats) / len(seats)
        others = [rec.scores[i] for i in range(n) if i not in seats]
        if others:
            st.score_diff += sign * (own - sum(others) / len(others))
        st.hands += len(rec.round_winners)
        st.hand_wins += sum(1 for w in rec.round_winners if w is not None and w in seats)


def elo_ratings(
    records: Sequence[MatchRecord], names: Sequence[str], scoring: Scoring
) -> dict[str, float]:
    """Elo ratings fitted to every pairwise result between different bots in a match
    (Bradley-Terry maximum likelihood by the MM algorithm), anchored at a mean of 1500.
    """
    wins = {(a, b): 0.0 for a in names for b in names if a != b}
    sign = 1 if scoring is Scoring.WINNER_COLLECTS else -1
    for rec in records:
        n = len(rec.lineup)
        for i in range(n):
            for j in range(i + 1, n):
                a, b = rec.lineup[i], rec.lineup[j]
                if a == b:
                    continue
                d = sign * (rec.scores[i] - rec.scores[j])
                if d > 0:
                    wins[(a, b)] += 1
                elif d < 0:
                    wins[(b, a)] += 1
                else:
                    wins[(a, b)] += 0.5
                    wins[(b, a)] += 0.5
    strength = {n: 1.0 for n in names}
    for _ in range(200):
        new = {}
        for a in names:
            w = sum(wins[(a, b)] for b in names if b != a) + 0.5  # light prior
            denom = sum(
                (wins[(a, b)] + wins[(b, a)] + 1.0) / (strength[a] + strength[b])
                for b in names
                if b != a
            )
            new[a] = w / denom if denom else strength[a]
        g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {k: v / g for k, v in new.items()}
    return {k: 1500 + 400 * math.log10(v) for k, v in strength.items()}
