"""The bots' fixed ratings: each level rated by openskill from bot-against-bot play.

A signed-in player sees "easy", "medium" and "hard" next to a rating that means
something on the scale their own rating is on: this measures it.  For each game
(a preset, two players), every pair of levels plays duplicate deals: each deal once
from each seat (``rummykit.tournament.play_one``, the same seed).  Each level plays as
the server plays it (``web/thinking.server_bot``: ``hard`` searches ``--hard-cpu``
CPU seconds a move, the server's ``bot_cpu``).

The results are then rated as ``web/ratings.py`` rates people: the places come from
the final totals (:func:`rummykit.web.ratings.places`) and one openskill
Plackett-Luce update per match (:func:`rummykit.web.ratings.updated`), every level
starting at a newcomer's ``(25, 25/3)``.  The rating shown is ``mu - 3 sigma`` as for
people.  Its 95% interval comes from ``--bootstrap`` replays of the ratings over the
deals drawn again with replacement, in a random order (a sequential rating depends on
the order of the games; the interval says by how much).

A match here is the game a rated table plays: the preset at its own length (``--deals
0``, the default), so a ``basic`` or ``gin_match`` match runs to 100 points over
several deals and a ``gin`` match is one hand.  The rating is of whole matches
because people's are (one update per rated match), and because the levels differ in
what a match adds up: over single deals of basic medium wins about half, as easy
does, yet it wins about two matches in three to 100 points; at ``gin`` the same
levels win one hand each equally often while medium takes more points a hand, which
only a match to 100 (``gin_match``) turns into wins.  ``--deals N`` plays N rounds a
match instead, to look at one deal's luck.

The pairings are not played equally often.  ``hard`` costs up to ``--hard-cpu`` a move
where ``easy`` and ``medium`` cost milliseconds, so a pairing without ``hard`` may play
up to ``--cheap-pairs`` deals where the pairings with it play up to ``--pairs``: the
same run measures the cheap levels far more closely at little cost.  The two classes
are interleaved in that proportion (deal k of every ``hard`` pairing, then the cheap
deals that fall before deal k + 1 at ``--cheap-pairs / --pairs`` a deal), so a run
stopped by ``--budget`` has played the pairings of each class equally often and has
spent most of its time on the ``hard`` pairings, shared equally between them.  The
cost is in what ``mu - 3 sigma`` shows: a level that played fewer matches keeps a
larger ``sigma``, so ``hard``'s shown rating is the more cautious, as a person's is
after fewer games.

``python benchmarks/bot_ratings.py --games basic,gin_match,gin --budget 1500 --workers 2``

prints a table and writes ``benchmarks/results/<--out>.json`` with, per pairing, the
share of matches the first level won and its mean lead in points, each with a 95%
interval over the deals.  The figures shipped in ``src/rummykit/web/bot_ratings.json``
are copied from it (``--ship`` writes them; ``--ship-from`` ships one or more results
files, their games together, and plays nothing).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import combinations
from pathlib import Path
from typing import Any

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit.rules import Rules, Scoring
from rummykit.tournament import MatchRecord, play_one
from rummykit.web import ratings
from rummykit.web.thinking import server_bot

LEVELS = ("easy", "medium", "hard")
SHIPPED = Path(__file__).parent.parent / "src" / "rummykit" / "web" / "bot_ratings.json"


def _play(spec: str, lineup: tuple[str, ...], seed: int, hard_cpu: float) -> MatchRecord:
    bots = tuple(server_bot(level, hard_cpu) for level in lineup)
    rec = play_one(spec, bots, seed)
    return MatchRecord(rec.seed, lineup, rec.scores, rec.winners, rec.round_winners)


COSTLY = frozenset({"hard"})
"""The levels whose pairings are capped by ``--pairs`` (the others by ``--cheap-pairs``)."""


def jobs(
    game: str, deals: int, levels: Sequence[str], count: int, seed: int, cheap: int | None = None
) -> list[Any]:
    """Up to ``count`` deals per pairing of ``levels`` with a :data:`COSTLY` level and
    ``cheap`` (default ``count``) per other pairing, each deal from both seats,
    interleaved: deal k of every costly pairing, then the cheap pairings' deals up to
    ``ceil((k + 1) * cheap / count)`` each, deal j of every cheap pairing before deal
    j + 1 of any; a class that has played all its deals leaves the rest to the other.

    >>> [(a, b, k) for _, (a, b), _, k in jobs("gin", 0, LEVELS, 2, 1, 4)][::2]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('easy', 'hard', 0), ('medium', 'hard', 0), ('easy', 'medium', 0),
     ('easy', 'medium', 1), ('easy', 'hard', 1), ('medium', 'hard', 1),
     ('easy', 'medium', 2), ('easy', 'medium', 3)]
    """
    cheap = count if cheap is None else cheap
    spec = f"{game}(deals={deals})" if deals else game
    pairings = list(combinations(levels, 2))
    costly = [p for p in pairings if COSTLY & set(p)]
    others = [p for p in pairings if not COSTLY & set(p)]
    streams = {p: random.Random(f"{seed}:{game}:{p[0]}:{p[1]}") for p in pairings}
    out: list[Any] = []

    def deal(pairing: tuple[str, str], k: int) -> None:
        a, b = pairing
        s = streams[pairing].getrandbits(63)
        out.append((spec, (a, b), s, k))
        out.append((spec, (b, a), s, k))

    made = 0
    rounds = count if costly else 0
    for k in range(rounds):
        for p in costly:
            deal(p, k)
        upto = min(cheap, -(-(k + 1) * cheap // count))
        for j in range(made, upto):
            for p in others:
                deal(p, j)
        made = max(made, upto)
    for j in range(made, cheap):
        for p in others:
            deal(p, j)
    return out


def rate(rules: Rules, records: Sequence[MatchRecord]) -> dict[str, tuple[float, float]]:
    """Each level's ``(mu, sigma)`` after rating ``records`` in order, as people are."""
    held: dict[str, tuple[float, float]] = {}
    for rec in records:
        before = [held.get(level, ratings.fresh()) for level in rec.lineup]
        after = ratings.updated(before, ratings.places(rules, rec.scores))
        held.update(zip(rec.lineup, after, strict=True))
    return held


def bootstrap(
    rules: Rules, records: Sequence[MatchRecord], times: int, seed: int
) -> dict[str, list[float]]:
    """The shown ratings of ``times`` replays over the deals drawn again, shuffled."""
    by_deal: dict[tuple[int, frozenset[str]], list[MatchRecord]] = {}
    for rec in records:
        by_deal.setdefault((rec.seed, frozenset(rec.lineup)), []).append(rec)
    deals = list(by_deal.values())
    rng = random.Random(seed)
    out: dict[str, list[float]] = {}
    for _ in range(times):
        drawn = [rec for _ in deals for rec in rng.choice(deals)]
        rng.shuffle(drawn)
        for level, (mu, sigma) in rate(rules, drawn).items():
            out.setdefault(level, []).append(ratings.shown(mu, sigma))
    return out


def play_all(todo: list[Any], workers: int, budget: float, hard_cpu: float) -> list[Any]:
    """Play ``todo`` in order until ``budget`` seconds have passed (0: no limit);
    only whole deals (both seats) are kept."""
    start = time.monotonic()
    done: dict[int, MatchRecord] = {}
    with ProcessPoolExecutor(workers) as pool:
        queue = list(enumerate(todo))
        running: dict[Future[MatchRecord], int] = {}
        while queue or running:
            over = budget > 0 and time.monotonic() - start > budget
            while queue and not over and len(running) < workers * 2:
                i, (spec, lineup, s, _k) = queue.pop(0)
                running[pool.submit(_play, spec, lineup, s, hard_cpu)] = i
            if not running:
                break
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for f in finished:
                done[running.pop(f)] = f.result()
    whole = []
    for i in range(0, len(todo), 2):
        if i in done and i + 1 in done:
            whole += [(todo[i], done[i]), (todo[i + 1], done[i + 1])]
    return whole


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", default="gin,basic", help="comma list of two-player presets")
    ap.add_argument("--levels", default=",".join(LEVELS))
    ap.add_argument("--deals", type=int, default=0, help="rounds a match (0: the preset's)")
    ap.add_argument("--pairs", type=int, default=400, help="deals per hard pairing, at most")
    ap.add_argument(
        "--cheap-pairs", type=int, default=8000, help="deals per pairing without hard, at most"
    )
    ap.add_argument("--budget", type=float, default=0, help="seconds per game (0: no limit)")
    ap.add_argument("--hard-cpu", type=float, default=1.0, help="the server's bot_cpu")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--bootstrap", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default="bot_ratings", help="results/<OUT>.json")
    ap.add_argument("--ship", action="store_true", help="write the package's bot_ratings.json")
    ap.add_argument(
        "--ship-from", type=Path, nargs="+", help="ship these results files; play nothing"
    )
    args = ap.parse_args(argv)
    if args.ship_from:
        ship(*(json.loads(path.read_text()) for path in args.ship_from))
        return 0
    levels = args.levels.split(",")
    console = Console()
    table = Table(title="bot ratings: openskill from bot-against-bot play")
    for col in ("game", "level", "shown", "95% interval", "mu", "sigma", "matches", "deals"):
        table.add_column(col, justify="left" if col in ("game", "level") else "right")
    games: dict[str, Any] = {}
    for game in args.games.split(","):
        rules = Rules.parse(game)
        rules.check_players(2)
        t0 = time.monotonic()
        played = play_all(
            jobs(game, args.deals, levels, args.pairs, args.seed, args.cheap_pairs),
            args.workers,
            args.budget,
            args.hard_cpu,
        )
        wall = time.monotonic() - t0
        records = [rec for job, rec in played]
        final = rate(rules, records)
        boot = bootstrap(rules, records, args.bootstrap, args.seed)
        pairings = {
            "-".join(sorted(pair, key=levels.index)): pairing(rules, levels, pair, records, args)
            for pair in combinations(levels, 2)
        }
        rows = {}
        for level in levels:
            mu, sigma = final.get(level, ratings.fresh())
            shown_all = sorted(boot.get(level, [0.0]))
            low = shown_all[int(0.025 * (len(shown_all) - 1))]
            high = shown_all[int(0.975 * (len(shown_all) - 1))]
            matches = sum(1 for rec in records if level in rec.lineup)
            rows[level] = {
                "rating": round(statistics.median(shown_all), 1),
                "low": round(low, 1),
                "high": round(high, 1),
                "in_order": ratings.shown(mu, sigma),
                "mu": round(mu, 2),
                "sigma": round(sigma, 2),
                "matches": matches,
            }
            table.add_row(
                game, level, f"{rows[level]['rating']:.1f}", f"{low:.1f} to {high:.1f}",
                f"{mu:.2f}", f"{sigma:.2f}", str(matches), str(matches // 2),
            )  # fmt: skip
        games[game] = {
            "spec": played[0][0][0] if played else game,
            "levels": rows,
            "pairings": {k: v for k, v in pairings.items() if v["matches"]},
            "matches": len(records),
            "seconds": round(wall, 1),
        }
        console.print(f"{game}: {len(records)} matches in {wall:.0f} s")
    console.print(table)
    wins = Table(title="each pairing: the first level's wins and lead, 95% over the deals")
    for col in ("game", "pairing", "matches", "first wins", "95%", "lead", "95% "):
        wins.add_column(col, justify="left" if col in ("game", "pairing") else "right")
    for game, result in games.items():
        for key, p in result["pairings"].items():
            wins.add_row(
                game, key, str(p["matches"]), f"{p['first_wins']:.1%}",
                f"{p['wins_low']:.1%} to {p['wins_high']:.1%}", f"{p['lead']:+.1f}",
                f"{p['lead_low']:+.1f} to {p['lead_high']:+.1f}",
            )  # fmt: skip
    console.print(wins)
    given = sys.argv[1:] if argv is None else argv
    payload = {
        "command": "python benchmarks/bot_ratings.py " + " ".join(given),
        "args": vars(args),
        "games": games,
    }
    path = write_results(args.out, payload)
    console.print(f"wrote {path}")
    if args.ship:
        ship(payload)
        console.print(f"wrote {SHIPPED}")
    return 0


def pairing(
    rules: Rules,
    levels: Sequence[str],
    pair: tuple[str, str],
    records: Sequence[MatchRecord],
    args: argparse.Namespace,
) -> dict[str, Any]:
    """What the first of ``pair`` (in ``levels``' order) won against the second: the
    share of matches (a tie shared) and the mean lead in final points (positive: the
    first is ahead, whichever way the game scores), each with a 95% interval from
    ``args.bootstrap`` draws of the deals with replacement."""
    first = min(pair, key=levels.index)
    better = 1 if rules.scoring is Scoring.WINNER_COLLECTS else -1
    by_deal: dict[int, list[tuple[float, float]]] = {}
    for rec in records:
        if set(rec.lineup) != set(pair):
            continue
        me = rec.lineup.index(first)
        won = [rec.lineup[w] for w in rec.winners]
        lead = better * (2 * rec.scores[me] - sum(rec.scores))
        by_deal.setdefault(rec.seed, []).append((won.count(first) / len(won), lead))
    deals = list(by_deal.values())
    out: dict[str, Any] = {"matches": sum(len(d) for d in deals)}
    if not deals:
        return out
    rng = random.Random(f"{args.seed}:{pair}")
    boots: list[tuple[float, float]] = []
    for _ in range(args.bootstrap):
        drawn = [m for _ in deals for m in rng.choice(deals)]
        boots.append(_means(drawn))
    out["first_wins"], out["lead"] = (round(x, 3) for x in _means([m for d in deals for m in d]))
    for i, name in enumerate(("wins", "lead")):
        values = sorted(b[i] for b in boots)
        out[f"{name}_low"] = round(values[int(0.025 * (len(values) - 1))], 3)
        out[f"{name}_high"] = round(values[int(0.975 * (len(values) - 1))], 3)
    return out


def _means(matches: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return statistics.fmean(m[0] for m in matches), statistics.fmean(m[1] for m in matches)


SHIP_MATCHES = 100
"""Matches a level needs before its rating is shipped.  A level rated over a few
matches keeps a wide ``sigma``, and the shown ``mu - 3 sigma`` would put it below a
weaker level measured longer (``hard`` over 16 whole matches of basic showed 15.2
with the highest ``mu``): a player would read that as the weaker bot.  Such a level
is left out of the game's figures, shown as not measured."""


def ship(*payloads: dict[str, Any]) -> None:
    """Write the package's ``bot_ratings.json`` from one or more runs' results: per
    game and level the shown rating (the bootstrap's median) and its 95% interval, for
    the levels with :data:`SHIP_MATCHES` matches or more.  A game in several runs is
    taken from the last."""
    keep = ("rating", "low", "high", "matches")
    cpus = {p["args"]["hard_cpu"] for p in payloads}
    if len(cpus) != 1:
        raise SystemExit(f"the runs' --hard-cpu differ: {sorted(cpus)}")
    shipped = {
        "measured": "; ".join(p["command"] for p in payloads),
        "hard_cpu": cpus.pop(),
        "games": {
            g: {
                lv: {k: r[k] for k in keep}
                for lv, r in v["levels"].items()
                if r["matches"] >= SHIP_MATCHES
            }
            for p in payloads
            for g, v in p["games"].items()
        },
    }
    SHIPPED.write_text(json.dumps(shipped, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
