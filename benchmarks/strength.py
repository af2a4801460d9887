"""Bot strength: duplicate-deal tournaments for each pairing the goals name.

``python benchmarks/strength.py --deals 1000 --workers 2`` plays, for ``basic`` with
2 players and ``rami51`` with 4 players (and ``rummikub`` with 2 under ``--presets``):

* greedy vs random, expert vs greedy (``--deals`` duplicate deals each);
* ismcts vs expert (``--ismcts-deals`` deals, ``--ismcts`` budget per move, since a
  one-second search per move makes 1,000 deals a matter of days on two cores).

Prints a table of match win rates with 95% Wilson intervals and writes
``benchmarks/results/strength.json``.  Matches are full matches of the preset unless
``--deals-per-match`` shortens them.

A search run of 1,000 deals at one second per move takes many hours, so it keeps a
journal: ``--journal`` writes each finished match to
``benchmarks/results/journal/<OUT>-<preset>-<pairing>.jsonl`` and a rerun with the same
arguments plays only what is missing.  ``--report`` plays nothing and tabulates the
whole deals the journals hold so far.  ``--ismcts 1cpu`` counts the search's budget
in its own CPU seconds, so other work on the machine does not weaken it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from results_file import write_results
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from rummykit.rules import Rules
from rummykit.tournament import TournamentResult, run_tournament

JOURNALS = Path(__file__).parent / "results" / "journal"

GOALS = {("greedy", "random"): 0.95, ("expert", "greedy"): 0.60, ("ismcts", "expert"): 0.55}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--ismcts-deals", type=int, default=20)
    ap.add_argument("--ismcts", default="1.0", help="ismcts budget: seconds or NNNi iterations")
    ap.add_argument("--deals-per-match", type=int, default=0, help="0: the preset's own length")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", default="", help="comma list of pairings, e.g. expert-greedy")
    ap.add_argument(
        "--presets", default="basic,rami51", help="comma list of basic, rami51, rummikub"
    )
    ap.add_argument("--out", default="strength", help="results/<OUT>.json")
    ap.add_argument("--journal", action="store_true", help="keep and resume from journals")
    ap.add_argument("--report", action="store_true", help="tabulate the journals, play nothing")
    args = ap.parse_args(argv)
    console = Console()
    rows = []
    for preset, players in (("basic", 2), ("rami51", 4), ("rummikub", 2)):
        if preset not in args.presets.split(","):
            continue
        spec = preset if not args.deals_per_match else f"{preset}(deals={args.deals_per_match})"
        rules = Rules.parse(spec)
        for (a, b), goal in GOALS.items():
            if args.only and f"{a}-{b}" not in args.only.split(","):
                continue
            deals = args.ismcts_deals if a == "ismcts" else args.deals
            name_a = f"ismcts:{args.ismcts}" if a == "ismcts" else a
            journal = JOURNALS / f"{args.out}-{preset}-{a}-{b}.jsonl"
            t = time.perf_counter()
            if args.report:
                if not journal.exists():
                    continue
                res = TournamentResult.from_journal(journal)
                deals = res.games
                name_a, b = list(res.bots)
            else:
                with Progress(console=console, transient=True) as progress:
                    task = progress.add_task(f"{preset} {a} vs {b}", total=None)
                    res = run_tournament(
                        rules,
                        players,
                        [name_a, b],
                        deals,
                        args.seed,
                        workers=args.workers,
                        progress=lambda d, total, task=task: progress.update(
                            task, completed=d, total=total
                        ),
                        journal=journal if args.journal else None,
                    )
            st = res.bots[name_a]
            lo, hi = st.match_ci
            rows.append(
                {
                    "rules": spec,
                    "players": players,
                    "bot": name_a,
                    "opponent": b,
                    "deals": deals,
                    "matches": res.matches,
                    "match_win_rate": st.match_rate,
                    "ci95": [lo, hi],
                    "hand_win_rate": st.hand_rate,
                    "mean_score_diff": st.mean_score_diff,
                    "elo_gap": res.elo[name_a] - res.elo[b],
                    "goal": goal,
                    "seconds": time.perf_counter() - t,
                }
            )
    table = Table(title="Bot strength: duplicate deals, match win rate of the first bot")
    for col in ("rules", "players", "pairing", "deals", "win rate", "95% CI", "goal", "Elo gap"):
        table.add_column(col, justify="right" if col not in ("rules", "pairing") else "left")
    for r in rows:
        table.add_row(
            r["rules"],
            str(r["players"]),
            f"{r['bot']} vs {r['opponent']}",
            str(r["deals"]),
            f"{r['match_win_rate']:.1%}",
            f"{r['ci95'][0]:.1%}-{r['ci95'][1]:.1%}",
            f"≥ {r['goal']:.0%}",
            f"{r['elo_gap']:+.0f}",
        )
    console.print(table)
    write_results(args.out + ("-report" if args.report else ""), {"args": vars(args), "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
