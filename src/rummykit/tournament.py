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

A long tournament can keep a *journal*: every finished match is appended to a file as
one line of JSON, and a run given the same journal again plays only the matches it
does not hold yet, so a tournament of days survives interruptions and can be spread
over several sittings (``rummy tournament ... --journal FILE``).

The matches can also run on a Ray cluster (``pip install 'rummykit[ray]'``):
``run_tournament(..., executor=ray_executor("HOST:6379"))`` or ``rummy tournament
... --ray HOST:6379``.  Every node needs rummykit installed; the results are the same
as on one machine, since each match's seed fixes it.

With ``records=FOLDER`` (``rummy tournament ... --records FOLDER``) every match also
writes its game record, the format the terminal game saves, so ``rummy review`` and
``rummy replay`` open any game of the tournament; without it no record is made.
"""

from __future__ import annotations

import math
import os
import random
import re
import socket
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bots import Bot, make_bot, play_match
from .journal import Journal as JsonLines
from .journal import JournalError as JournalError
from .notation import export_record
from .rules import Rules, Scoring
from .state import GameState

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


class Journal(JsonLines[MatchRecord]):
    """A tournament's journal: finished matches, for resuming (:mod:`rummykit.journal`).

    The header names the tournament (rules, players, bots, deals, seed); each further
    line is one :class:`MatchRecord`.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "t.jsonl")
    >>> head = {"rules": "basic", "players": 2, "bots": ["a", "b"], "deals": 1, "seed": 0}
    >>> j = Journal(path, head)
    >>> j.append(MatchRecord(5, ("a", "b"), (10, 0), (0,), (0,)))
    >>> Journal(path, head).records[0].scores
    (10, 0)
    >>> Journal(path, dict(head, seed=1))
    Traceback (most recent call last):
    ...
    rummykit.journal.JournalError: ... was written for another tournament: seed 0, not 1
    """

    kind, item = "tournament", "match record"

    def encode(self, rec: MatchRecord) -> dict[str, Any]:
        return {
            "seed": rec.seed,
            "lineup": rec.lineup,
            "scores": rec.scores,
            "winners": rec.winners,
            "round_winners": rec.round_winners,
        }

    def decode(self, d: Any) -> MatchRecord:
        return MatchRecord(
            int(d["seed"]),
            tuple(d["lineup"]),
            tuple(d["scores"]),
            tuple(d["winners"]),
            tuple(d["round_winners"]),
        )


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

    @classmethod
    def from_journal(cls, path: str | os.PathLike[str]) -> TournamentResult:
        """The results so far of the tournament whose journal is ``path`` (whole
        deals only; see :func:`tally`)."""
        head = Journal.read_header(path)
        try:
            keys = (head["rules"], head["players"], head["bots"], head["deals"], head["seed"])
        except KeyError:
            raise JournalError(f"{path}: not a tournament journal") from None
        rules, players, bots, _deals, seed = keys
        return tally(rules, players, bots, seed, Journal(path, head).records)

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


def _match(rules: str, lineup: tuple[str, ...], seed: int) -> tuple[MatchRecord, GameState]:
    bots: list[Bot] = [make_bot(name) for name in lineup]
    state, _ = play_match(rules, list(lineup), bots, seed)
    for b in bots:
        close = getattr(b, "close", None)
        if close is not None:
            close()
    res = state.result()
    rec = MatchRecord(
        seed,
        lineup,
        res.scores,
        res.winners,
        tuple(r.winner if r.went_out else None for r in state.results),
    )
    return rec, state


def play_one(rules: str, lineup: tuple[str, ...], seed: int) -> MatchRecord:
    """Play one match of the tournament (a top-level function so processes can run it)."""
    return _match(rules, lineup, seed)[0]


def play_recorded(rules: str, lineup: tuple[str, ...], seed: int) -> tuple[MatchRecord, str]:
    """:func:`play_one` and the match's game record (:func:`match_record_text`): the
    text travels back from a worker process or a Ray node, and the caller writes it."""
    rec, state = _match(rules, lineup, seed)
    return rec, match_record_text(state, lineup)


def match_record_text(state: GameState, lineup: Sequence[str]) -> str:
    """The game record of a tournament match, in the format the terminal game saves
    (:func:`~rummykit.notation.export_record`, plain-text moves) with a ``[Bots]`` tag
    naming the bot of every seat; ``rummy review`` and ``rummy replay`` read it.

    >>> from rummykit.notation import import_record
    >>> bots = [make_bot("greedy"), make_bot("random")]
    >>> s, _ = play_match("basic(deals=1)", ["greedy", "random"], bots, 5)
    >>> text = match_record_text(s, ["greedy", "random"])
    >>> '[Bots "greedy, random"]' in text, import_record(text).history == s.history
    (True, True)
    """
    text = export_record(state, unicode=False)
    tag = '[Bots "' + ", ".join(lineup) + '"]\n'
    at = text.find("[Result ")
    return text[:at] + tag + text[at:] if at >= 0 else tag + text


def record_file_name(deal: int, deals: int, rotation: int, lineup: Sequence[str]) -> str:
    """The file name of a match's record in a tournament's records folder: the deal
    (from 1, padded so the files sort), the rotation of the bots (from 1) and the
    lineup, seat by seat.

    >>> record_file_name(7, 20, 1, ["ismcts:0.5", "expert"])
    'deal-07-rotation-1-ismcts_0.5-expert.rummy'
    """
    width = len(str(deals))
    seats = "-".join(re.sub(r"[^A-Za-z0-9.]+", "_", name) for name in lineup)
    return f"deal-{deal:0{width}d}-rotation-{rotation}-{seats}.rummy"


def ray_executor(address: str, timeout: float = 5.0) -> Any:
    """An executor that runs matches as tasks on the Ray cluster at ``address``.

    ``address`` is ``HOST:PORT`` (the head node's GCS port), ``ray://HOST:PORT`` or
    ``auto``.  Ray itself waits minutes for a head node that is not there, so a
    ``HOST:PORT`` that takes no connection within ``timeout`` seconds is refused at
    once with :class:`ConnectionError`; without the optional ``ray`` package this
    raises :class:`ImportError` naming the extra to install.
    """
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ImportError("Ray is not installed: pip install 'rummykit[ray]'") from None
    if address != "auto":
        host, sep, port = address.removeprefix("ray://").rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ValueError(f"not a Ray address: {address!r} (HOST:PORT, ray://HOST:PORT, auto)")
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout).close()
        except OSError as exc:
            reason = exc.strerror or exc.__class__.__name__
            raise ConnectionError(f"no Ray cluster answers at {address}: {reason}") from None
    ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    remotes: dict[Callable[..., Any], Any] = {}

    class _RayExecutor:
        def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
            if fn not in remotes:
                remotes[fn] = ray.remote(fn)
            return remotes[fn].remote(*args).future()  # a concurrent.futures.Future

    return _RayExecutor()


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
    journal: str | os.PathLike[str] | None = None,
    records: str | os.PathLike[str] | None = None,
) -> TournamentResult:
    """Play ``games`` duplicate deals; each is played once per lineup rotation.

    ``workers`` > 1 uses a process pool; ``executor`` may be any object with the
    ``concurrent.futures`` ``submit`` interface (:func:`ray_executor` is one).
    ``progress(done, total)`` is called after every match.  With ``journal`` (a file
    path, see :class:`Journal`) every finished match is written down at once, and the
    matches already in the journal are not played again.  With ``records`` (a folder,
    created if need be) every match played writes its game record there, one file per
    deal and rotation (:func:`record_file_name`, :func:`match_record_text`): the
    match returns the text from wherever it ran and this process writes the file (a
    match taken from the journal is not played again, so it writes none).
    The result is the same whichever way the matches were run.
    """
    spec = rules.spec() if isinstance(rules, Rules) else Rules.parse(rules).spec()
    Rules.parse(spec).check_players(players)
    for name in bots:
        make_bot(name)  # fail early on an unknown bot name
    master = random.Random(seed)
    seeds = [master.getrandbits(63) for _ in range(games)]
    jobs = [(spec, lineup, s) for s in seeds for lineup in lineups(players, bots)]
    book = None
    if journal is not None:
        header = {"rules": spec, "players": players, "bots": list(bots), "deals": games}
        book = Journal(journal, {**header, "seed": seed})
    done = {(r.seed, r.lineup): r for r in book.records} if book else {}
    todo = [job for job in jobs if (job[2], job[1]) not in done]
    total = len(jobs)
    count = total - len(todo)
    folder: Path | None = None
    names: dict[tuple[int, tuple[str, ...]], tuple[str, str]] = {}
    if records is not None:
        folder = Path(records)
        folder.mkdir(parents=True, exist_ok=True)
        rotations = lineups(players, bots)
        for d, s in enumerate(seeds, start=1):
            for r, lineup in enumerate(rotations, start=1):
                event = (
                    f"rummy tournament, seed {seed}: deal {d} of {games}, "
                    f"rotation {r} of {len(rotations)}"
                )
                names[(s, lineup)] = (record_file_name(d, games, r, lineup), event)
    if progress and count:
        progress(count, total)
    for rec, text in _play(todo, workers, executor, recorded=folder is not None):
        done[(rec.seed, rec.lineup)] = rec
        if folder is not None and text is not None:
            name, event = names[(rec.seed, rec.lineup)]
            _write_text(folder / name, f'[Event "{event}"]\n{text}')
        if book:
            book.append(rec)
        count += 1
        if progress:
            progress(count, total)
    return tally(spec, players, bots, seed, [done[(s, lineup)] for _spec, lineup, s in jobs])


def tally(
    rules: str, players: int, bots: Sequence[str], seed: int, records: Sequence[MatchRecord]
) -> TournamentResult:
    """Win rates, intervals and Elo of the finished matches ``records``.

    Only whole deals count: a deal whose rotations are not all in ``records`` (a
    journal of a tournament still under way) is left out, so every bot has held every
    seat's cards equally often.
    """
    rotations = len(lineups(players, bots))
    per_deal: dict[int, list[MatchRecord]] = {}
    for rec in records:
        per_deal.setdefault(rec.seed, []).append(rec)
    whole = [recs for recs in per_deal.values() if len(recs) == rotations]
    result = TournamentResult(rules, players, len(whole), seed)
    for name in bots:
        result.bots.setdefault(name, BotStats(name))
    scoring = Rules.parse(rules).scoring
    for recs in whole:
        for rec in recs:
            _add(result, rec, scoring)
    result.elo = elo_ratings(result.records, list(result.bots), scoring)
    return result


Job = tuple[str, tuple[str, ...], int]


def _write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a run stopped midway leaves no
    half-written record)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _outcome(result: MatchRecord | tuple[MatchRecord, str]) -> tuple[MatchRecord, str | None]:
    return (result, None) if isinstance(result, MatchRecord) else result


def _play(
    jobs: list[Job], workers: int, executor: Any, *, recorded: bool = False
) -> Iterator[tuple[MatchRecord, str | None]]:
    """The records of ``jobs``, each as soon as its match ends (in any order), with
    the match's game record text if ``recorded`` (else None: no record is made)."""
    play: Callable[..., Any] = play_recorded if recorded else play_one
    if executor is None and workers <= 1:
        for job in jobs:
            yield _outcome(play(*job))
        return
    pool: Any = executor if executor is not None else ProcessPoolExecutor(workers)
    try:
        futures = [pool.submit(play, *job) for job in jobs]
        if not all(isinstance(f, Future) for f in futures):  # a foreign executor's futures
            for f in futures:
                yield _outcome(f.result())
            return
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                yield _outcome(f.result())
    finally:
        if executor is None:
            pool.shutdown(cancel_futures=True)


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
