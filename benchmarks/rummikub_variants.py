"""Rummikub's play settings against ``medium``: single rounds for two, duplicate deals.

``make_bot`` names only the levels and the search's budget; this script also builds
the settings the levels are made of, to measure one against another before a level
changes (docs/benchmarks.md, "Rummikub's levels"):

* ``expert:KEY=VALUE,...``: ``medium``'s play with other hold-back thresholds or
  solver objective (the keywords of :func:`rummykit.bots.rummikub.expert_shapes`:
  ``danger``, ``far``, ``joker_gain``, ``objective=points``);
* ``search:KEY=VALUE,...``: the Rummikub search (``ISMCTSBot(tiles_search=True)``)
  on its own CPU clock, ``ms`` its budget a move in milliseconds (1000),
  ``k`` the expert turns each playout plays first (``expert_turns``, 0), ``h`` the
  turns it plays at most (``tiles_horizon``, a whole round), ``z`` the confidence it
  needs to leave the expert's play (``deviate_z``, 1.64);
* any name :func:`~rummykit.bots.make_bot` knows (``medium``, ``ismcts:1cpu``).

Each deal (``seed + i``) is played twice, the seats swapped; reported: the first bot's
game win rate (a draw half) with its 95% Wilson interval, and its mean margin a game
with a 95% interval over the deals.

    python benchmarks/rummikub_variants.py "expert:joker_gain=4" medium --deals 100
    python benchmarks/rummikub_variants.py "search:ms=500,k=2" medium --deals 40
    python benchmarks/rummikub_variants.py "search:ms=500,k=6,h=6" medium --deals 40
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from paired import Z95
from results_file import write_results

from rummykit.bots import ISMCTSBot, make_bot, play_match
from rummykit.bots.base import Bot
from rummykit.bots.rummikub import expert_shapes, most_tiles_move, play_move, view_turn
from rummykit.bots.rummikub_playout import TURNS
from rummykit.moves import Move
from rummykit.tournament import wilson_interval
from rummykit.view import PlayerView

RULES = "rummikub(deals=1)"


class ExpertSettings(Bot):
    """``medium``'s Rummikub play with other keywords for :func:`expert_shapes`."""

    name = "expert-settings"

    def __init__(self, **settings: int | str) -> None:
        self.settings = settings

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        turn = view_turn(view)
        shapes = expert_shapes(turn, **self.settings)  # type: ignore[arg-type]
        return play_move(turn, shapes) or most_tiles_move(view)


def settings(text: str) -> dict[str, str]:
    """``"a=1,b=x"`` as a dict of strings."""
    return dict(part.split("=", 1) for part in text.split(",") if part)


def build(spec: str) -> Bot:
    """The bot a command-line spec names (module docstring)."""
    kind, _, rest = spec.partition(":")
    if kind == "expert" and rest:
        kw = settings(rest)
        return ExpertSettings(**{k: v if k == "objective" else int(v) for k, v in kw.items()})
    if kind == "search":
        kw = settings(rest)
        return ISMCTSBot(
            seconds=int(kw.get("ms", "1000")) / 1000,
            clock="cpu",
            tiles_search=True,
            expert_turns=int(kw.get("k", "0")),
            tiles_horizon=int(kw.get("h", str(TURNS))),
            deviate_z=float(kw.get("z", "1.64")),
        )
    return make_bot(spec)


def play_deal(a: str, b: str, seed: int) -> tuple[float, int]:
    """Deal ``seed`` from both seats: ``a``'s wins (a draw half) and its total margin."""
    wins, margin = 0.0, 0
    for seat in (0, 1):
        bots = [build(a if p == seat else b) for p in (0, 1)]
        g, _ = play_match(RULES, 2, bots, seed=seed)
        mine, theirs = g.scores[seat], g.scores[1 - seat]
        wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        margin += mine - theirs
        for bot in bots:
            if isinstance(bot, ISMCTSBot):
                bot.close()
    return wins, margin


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("bot", help="the bot measured (module docstring)")
    ap.add_argument("against", nargs="?", default="medium")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default="rummikub_variants")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    wins, margins = 0.0, []
    for i in range(args.deals):
        w, m = play_deal(args.bot, args.against, args.seed + i)
        wins += w
        margins.append(m / 2)
        games = 2 * (i + 1)
        lo, hi = wilson_interval(wins, games)
        print(
            f"deal {i + 1}: {wins:g}/{games} = {wins / games:.1%} ({lo:.1%}-{hi:.1%}), "
            f"margin {statistics.fmean(margins):+.1f} a game, {time.perf_counter() - start:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    games = 2 * args.deals
    lo, hi = wilson_interval(wins, games)
    mean = statistics.fmean(margins)
    half = Z95 * statistics.stdev(margins) / len(margins) ** 0.5 if len(margins) > 1 else 0.0
    print(
        f"{args.bot} vs {args.against}: {args.deals} deals, {wins / games:.1%} of games "
        f"({lo:.1%}-{hi:.1%}), margin {mean:+.1f} a game ({mean - half:+.1f} to {mean + half:+.1f})"
    )
    given = sys.argv[1:] if argv is None else argv
    write_results(
        args.out,
        {
            "command": "python benchmarks/rummikub_variants.py " + " ".join(given),
            "bot": args.bot, "against": args.against, "deals": args.deals, "seed": args.seed,
            "win_rate": wins / games, "ci95": [lo, hi], "margin": mean,
            "margin_ci95": [mean - half, mean + half], "per_deal_margin": margins,
            "seconds": time.perf_counter() - start,
        },
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
