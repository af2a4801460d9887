"""The ``rummy`` command line: play, replay and serve the game, inspect rules, simulate
matches between bots, run tournaments and review rounds.

::

    rummy                      # the terminal game, as `rummy play`
    rummy --version
    rummy rules --list
    rummy rules "basic(multiple_melds=true)" [--json]
    rummy simulate --rules rami51 --players 4 --games 10 --bots random --seed 1 [--json]
    rummy tournament --bots expert,greedy --games 20 [--records DIR] [--json]
    rummy review RECORD [--player NAME] [--round N] [--seed S] [--limit K] [--json]
    rummy db upgrade|current [--database URL]

This module is outside the pure core: it prints, reads the clock and reads the
source of :mod:`rummykit.rules` for the option docs.  Nothing in the core imports it.
Exit codes: 0 success, 1 some simulated games raised an error (or, for ``rummy db
current``, the database is not up to date), 2 bad command line or unusable database.
"""

from __future__ import annotations

import argparse
import ast
import functools
import inspect
import itertools
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any, NoReturn

from rich.console import Console
from rich.table import Table
from rich.text import Text

from . import rules as rules_module
from .bots import BOTS, Bot, make_bot, play_match
from .errors import RummyError
from .rules import PRESET_SOURCES, PRESETS, Rules
from .tui import add_play_arguments, add_replay_arguments
from .web.config import add_serve_arguments

PROG = "rummy"

EXAMPLES: tuple[tuple[str, str, str], ...] = (
    ("play", "rummy play --rules gin --bots medium", "Gin Rummy against the medium bot"),
    ("replay", "rummy replay game.rummy", "step through a game record"),
    ("serve", "rummy serve --port 8000", "the game in the browser at localhost:8000"),
    ("db", "rummy db current", "the web server's database schema revision"),
    ("review", "rummy review game.rummy --round 2", "grade your decisions in round 2"),
    ("rules", "rummy rules rami51", "every option of Rami 51"),
    ("simulate", "rummy simulate --rules rami51 --games 100", "100 random-bot matches"),
    ("tournament", "rummy tournament --bots expert,greedy", "bots against each other"),
)
"""One example per command for ``rummy --help``: (command, example, what it does); a
test checks every command has one and that each parses."""


def _epilog() -> str:
    rows = [("rummy", "start a game in the terminal (as rummy play)")]
    rows += [(example, what) for _cmd, example, what in EXAMPLES]
    width = max(len(example) for example, _what in rows)
    lines = [f"  {example:<{width}}  {what}" for example, what in rows]
    return "examples:\n" + "\n".join(lines) + "\n\nrummy COMMAND --help lists a command's options."


def _version() -> str:
    """The installed distribution's version (as pip shows it)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rummykit")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree not installed
        return "unknown"


class UsageError(Exception):
    """A bad command line: reported on one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


# -- option documentation ------------------------------------------------------------------


@cache
def _attribute_docs() -> dict[str, dict[str, str]]:
    """Attribute docstrings of :class:`Rules` and the option enums, read from the source:
    ``{"Rules": {field: doc}, "Ace": {member: doc}, ...}``."""
    try:
        tree = ast.parse(inspect.getsource(rules_module))
    except (OSError, TypeError, SyntaxError):  # pragma: no cover - source not shipped
        return {}
    out: dict[str, dict[str, str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        docs: dict[str, str] = {}
        body = node.body
        for stmt, nxt in itertools.pairwise(body):
            if not (
                isinstance(nxt, ast.Expr)
                and isinstance(nxt.value, ast.Constant)
                and isinstance(nxt.value.value, str)
            ):
                continue
            target: ast.expr | None = None
            if isinstance(stmt, ast.AnnAssign):
                target = stmt.target
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
            if isinstance(target, ast.Name):
                text = inspect.cleandoc(nxt.value.value).replace("``", "")
                docs[target.id] = " ".join(text.split())
        out[node.name] = docs
    return out


def option_doc(rules: Rules, option: str) -> str:
    """What ``option`` means and which seed passage its value follows.

    >>> option_doc(Rules.preset("rami51"), "decks")
    'Number of 52-card decks (seed 003: two).'
    >>> option_doc(Rules.preset("basic"), "ace")
    'Ace is low only: A-2-3 is a run, Q-K-A is not (seed 001, seed 002). (choices: ...)'
    """
    docs = _attribute_docs()
    parts: list[str] = []
    own = docs.get("Rules", {}).get(option)
    if own:
        parts.append(own)
    value = getattr(rules, option)
    if isinstance(value, StrEnum):
        enum = type(value)
        member = docs.get(enum.__name__, {}).get(value.name)
        if member:
            parts.append(member)
        parts.append(f"(choices: {', '.join(e.value for e in enum)})")
    return " ".join(parts)


def _render(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# -- simulation -----------------------------------------------------------------------------


@dataclass
class Simulation:
    """The totals of ``rummy simulate``."""

    rules: Rules
    players: int
    bots: list[str]
    seed: int
    games: int
    completed: int = 0
    errors: int = 0
    first_error: str | None = None
    actions: int = 0
    turns: int = 0
    rounds: int = 0
    seconds: float = 0.0
    score_totals: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)

    def _mean(self, total: float) -> float | None:
        return total / self.completed if self.completed else None

    def as_dict(self) -> dict[str, Any]:
        secs = self.seconds
        return {
            "rules": self.rules.spec(),
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "games": self.games,
            "completed": self.completed,
            "errors": self.errors,
            "first_error": self.first_error,
            "mean_turns": self._mean(self.turns),
            "mean_rounds": self._mean(self.rounds),
            "mean_actions": self._mean(self.actions),
            "mean_score": [self._mean(t) for t in self.score_totals],
            "wins": list(self.wins),
            "seconds": secs,
            "games_per_second": self.completed / secs if secs > 0 else None,
            "actions_per_second": self.actions / secs if secs > 0 else None,
        }


def simulate(rules: Rules, players: int, bot_names: list[str], games: int, seed: int) -> Simulation:
    """Play ``games`` matches with seeds ``seed, seed + 1, ...``; an exception in a match
    counts as an error and the run goes on."""
    sim = Simulation(rules, players, bot_names, seed, games)
    sim.score_totals = [0] * players
    sim.wins = [0] * players
    start = time.perf_counter()
    for g in range(games):
        try:
            bots: list[Bot] = [make_bot(name) for name in bot_names]  # fresh memory per match
            state, stats = play_match(rules, players, bots, seed + g)
            result = state.result()
        except Exception as exc:
            sim.errors += 1
            if sim.first_error is None:
                sim.first_error = f"game {g} (seed {seed + g}): {type(exc).__name__}: {exc}"
            continue
        sim.completed += 1
        sim.actions += stats.actions
        sim.turns += stats.turns
        sim.rounds += stats.rounds
        for p in range(players):
            sim.score_totals[p] += result.scores[p]
        for p in result.winners:
            sim.wins[p] += 1
    sim.seconds = time.perf_counter() - start
    return sim


# -- commands -------------------------------------------------------------------------------


def _parse_rules(spec: str) -> Rules:
    try:
        return Rules.parse(spec)
    except RummyError as exc:
        raise UsageError(str(exc)) from None


def _cmd_rules(args: argparse.Namespace, out: Console) -> int:
    if args.list:
        if args.spec is not None:
            raise UsageError("give either a rules spec or --list, not both")
        if args.json:
            print(json.dumps(dict(PRESET_SOURCES), indent=2))
            return 0
        table = Table(title="Presets")
        table.add_column("preset", style="bold")
        table.add_column("description")
        for name in PRESETS:
            table.add_row(name, Text(PRESET_SOURCES.get(name, "")))
        out.print(table)
        return 0
    if args.spec is None:
        raise UsageError(
            "give a rules spec (a preset name or e.g. 'basic(ace=high_or_low)') or --list"
        )
    rules = _parse_rules(args.spec)
    options = rules.options()
    if args.json:
        print(json.dumps({"preset": rules.name, **options}, indent=2))
        return 0
    changed = rules.changed_options()
    table = Table(title=f"Rules: {rules.spec()}", caption="* differs from the preset")
    table.add_column("option", style="bold", no_wrap=True)
    table.add_column("value", no_wrap=True)
    table.add_column("", no_wrap=True)
    table.add_column("rule followed")
    for name, value in options.items():
        table.add_row(
            name,
            Text(_render(value)),
            "*" if name in changed else "",
            Text(option_doc(rules, name)),
        )
    out.print(Text(f"{rules.name}: {PRESET_SOURCES.get(rules.name, '')}"))
    out.print(table)
    return 0


def _cmd_simulate(args: argparse.Namespace, out: Console) -> int:
    rules = _parse_rules(args.rules)
    players: int = args.players if args.players is not None else max(2, rules.min_players)
    try:
        rules.check_players(players)
    except RummyError as exc:
        raise UsageError(str(exc)) from None
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    names = [b.strip().lower() for b in args.bots.split(",")]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise UsageError(f"--bots gives {len(names)} bots for {players} players")
    for name in names:
        if name not in BOTS:
            raise UsageError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})")
    sim = simulate(rules, players, names, args.games, args.seed)
    data = sim.as_dict()
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        _print_simulation(out, data)
    return 1 if sim.errors else 0


def _fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def _bots_label(names: list[str]) -> str:
    return names[0] if len(set(names)) == 1 else ",".join(names)


def _print_simulation(out: Console, d: dict[str, Any]) -> None:
    out.print(
        Text(
            f"{d['rules']}, {d['players']} players, {d['games']} games, "
            f"bots {_bots_label(d['bots'])}, seed {d['seed']}"
        )
    )
    summary = Table(show_header=False)
    summary.add_column("", style="bold")
    summary.add_column("", justify="right")
    summary.add_row("games completed", str(d["completed"]))
    summary.add_row("errors", str(d["errors"]))
    summary.add_row("mean turns per match", _fmt(d["mean_turns"]))
    summary.add_row("mean rounds per match", _fmt(d["mean_rounds"]))
    summary.add_row("mean actions per match", _fmt(d["mean_actions"]))
    summary.add_row("games per second", _fmt(d["games_per_second"], 2))
    summary.add_row("actions per second", _fmt(d["actions_per_second"], 0))
    out.print(summary)
    seats = Table()
    seats.add_column("seat", justify="right")
    seats.add_column("bot")
    seats.add_column("mean score", justify="right")
    seats.add_column("wins", justify="right")
    for p in range(d["players"]):
        seats.add_row(str(p), d["bots"][p], _fmt(d["mean_score"][p]), str(d["wins"][p]))
    out.print(seats)
    if d["first_error"] is not None:
        out.print(Text(f"first error: {d['first_error']}", style="bold red"))


def _parser() -> _Parser:
    parser = _Parser(
        prog=PROG,
        usage="%(prog)s [-h] [--version] [COMMAND] [options]",
        description="rummykit: rummy in the terminal and the browser, its rules engine and\n"
        "bots.  With no command, rummy starts a game in the terminal.",
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p_rules = sub.add_parser("rules", help="list presets or show every option of a rule set")
    p_rules.add_argument(
        "spec", nargs="?", help="a preset name or a spec such as 'basic(multiple_melds=true)'"
    )
    p_rules.add_argument("--list", action="store_true", help="list the presets")
    p_rules.add_argument("--json", action="store_true", help="print JSON")
    p_sim = sub.add_parser("simulate", help="play matches between bots and report statistics")
    p_sim.add_argument("--rules", default="basic", help="rules spec (default: basic)")
    p_sim.add_argument(
        "--players", type=int, default=None,
        help="number of players (default: 2, or the fewest the rules seat)",
    )  # fmt: skip
    p_sim.add_argument("--games", type=int, default=10, help="matches to play (default: 10)")
    p_sim.add_argument(
        "--bots",
        default="random",
        help=f"a bot for every seat, or one per seat comma-separated ({', '.join(sorted(BOTS))})",
    )
    p_sim.add_argument("--seed", type=int, default=0, help="seed of the first match (default: 0)")
    p_sim.add_argument("--json", action="store_true", help="print one JSON object")
    add_play_arguments(sub.add_parser("play", help="play rummy against the computer"))
    add_replay_arguments(sub.add_parser("replay", help="step through a game record"))
    add_serve_arguments(
        sub.add_parser("serve", help="serve the game in the browser (lobby, bots, friends)")
    )
    p_db = sub.add_parser(
        "db", help="the web server's database: upgrade its schema or show its revision"
    )
    db_sub = p_db.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    for name, text in (
        ("upgrade", "bring the schema to this release's (what `rummy serve` does at start)"),
        ("current", "print the schema's revision and whether it is up to date (exit 1 if not)"),
    ):
        db_sub.add_parser(name, help=text, description=text).add_argument(
            "--database",
            default=None,
            help="SQLAlchemy URL (default: as `rummy serve`, $RUMMYKIT_DATABASE_URL or "
            "SQLite in the user data directory)",
        )
    p_tour = sub.add_parser(
        "tournament", help="duplicate-deal tournament between bots, with CIs and Elo"
    )
    p_tour.add_argument("--rules", default="basic", help="rules spec (default: basic)")
    p_tour.add_argument("--players", type=int, default=2, help="seats at the table")
    p_tour.add_argument(
        "--bots",
        default="expert,greedy",
        help="bots seated in turn round the table, e.g. ismcts:0.5,expert (default: expert,greedy)",
    )
    p_tour.add_argument("--games", type=int, default=20, help="duplicate deals (default: 20)")
    p_tour.add_argument("--seed", type=int, default=0)
    p_tour.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    p_tour.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run the matches on the Ray cluster whose head is at ADDRESS (HOST:PORT)",
    )
    p_tour.add_argument(
        "--journal",
        metavar="FILE",
        help="write each finished match to FILE and, if it exists, resume from it",
    )
    p_tour.add_argument(
        "--records",
        metavar="DIR",
        help="write every match's game record to DIR, one file per deal and rotation "
        "(deal-NN-rotation-R-BOTS.rummy), for rummy review and rummy replay",
    )
    p_tour.add_argument("--json", action="store_true", help="print one JSON object")
    p_rev = sub.add_parser(
        "review", help="grade one player's decisions in a round against the hard engine"
    )
    p_rev.add_argument("record", help="a game record (rummy play, the web game, docs/notation.md)")
    p_rev.add_argument(
        "--player",
        help="a name or seat number from 1 (default: the person of a terminal game, else 1)",
    )
    p_rev.add_argument(
        "--round", type=int, dest="round_no", help="round number (default: the last one)"
    )
    p_rev.add_argument("--seed", type=int, default=0, help="seed of the samples (default: 0)")
    p_rev.add_argument(
        "--budget",
        type=int,
        default=None,
        help="paired samples per decision at most (default: at most 15 CPU-s for 40 decisions)",
    )
    p_rev.add_argument(
        "--limit",
        type=int,
        default=None,
        help="grade at most this many decisions, spread over the round (as the web server)",
    )
    p_rev.add_argument("--workers", type=int, default=2, help="worker processes (default: 2)")
    p_rev.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _cmd_db(args: argparse.Namespace) -> int:
    """``rummy db upgrade|current``: the schema of the database ``rummy serve`` would
    use.  SQLAlchemy and Alembic load only here, not for every ``rummy`` command."""
    from .web.schema import LEGACY, SchemaError, shown_url, status, upgrade
    from .web.store import default_database_url, make_engine

    url = args.database or default_database_url()
    try:
        engine = make_engine(url)
        try:
            if args.db_command == "current":
                rev = status(engine)
                print(f"{shown_url(url)}: {rev.describe()}")
                return 0 if rev.up_to_date else 1
            before, after = upgrade(engine)
        finally:
            engine.dispose()
    except SchemaError as exc:
        raise UsageError(str(exc)) from None
    if before.up_to_date:
        print(f"{shown_url(url)}: already at revision {after.current} (up to date)")
    else:
        start = {None: "an empty database", LEGACY: "a database made before migrations"}.get(
            before.current, f"revision {before.current}"
        )
        print(f"{shown_url(url)}: upgraded from {start} to revision {after.current}")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from .web.server import serve

    try:
        serve(args, os.environ)
    except ValueError as exc:  # a bad flag or variable: nothing has started
        raise UsageError(str(exc)) from None
    return 0  # pragma: no cover - after the server stops


def _cmd_tournament(args: argparse.Namespace, out: Console) -> int:
    from rich.progress import Progress

    from .tournament import JournalError, ray_executor, run_tournament

    rules = _parse_rules(args.rules)
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not names:
        raise UsageError("--bots needs at least one bot")
    if args.games < 1 or args.workers < 1:
        raise UsageError("--games and --workers must be at least 1")
    try:
        rules.check_players(args.players)
        for name in names:
            make_bot(name)
    except (RummyError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    executor = None
    if args.ray:
        try:
            executor = ray_executor(args.ray)
        except (ImportError, ValueError, ConnectionError) as exc:
            raise UsageError(str(exc)) from None
    run = functools.partial(
        run_tournament, rules, args.players, names, args.games, args.seed,
        workers=args.workers, executor=executor, journal=args.journal, records=args.records,
    )  # fmt: skip
    try:
        if args.json:
            print(json.dumps(run().to_json(), indent=2))
            return 0
        with Progress(console=out, transient=True) as progress:
            task = progress.add_task("matches", total=None)
            result = run(
                progress=lambda done, total: progress.update(task, completed=done, total=total)
            )
    except (JournalError, OSError) as exc:
        raise UsageError(str(exc)) from None
    table = Table(
        title=f"{result.matches} matches on {args.games} duplicate deals of {rules.spec()}, "
        f"{args.players} players"
    )
    for col in ("bot", "match wins", "95% CI", "hand wins", "95% CI ", "score diff", "Elo"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for name, b in sorted(result.bots.items(), key=lambda kv: -result.elo.get(kv[0], 0)):
        lo, hi = b.match_ci
        hlo, hhi = b.hand_ci
        table.add_row(
            name,
            f"{b.match_rate:.1%}",
            f"{lo:.1%}-{hi:.1%}",
            f"{b.hand_rate:.1%}",
            f"{hlo:.1%}-{hhi:.1%}",
            f"{b.mean_score_diff:+.1f}",
            f"{result.elo.get(name, 0):.0f}",
        )
    out.print(table)
    return 0


def _review_player(text: str, names: list[str], given: str | None) -> int:
    """The seat ``--player`` names (a name or a number from 1); by default the person
    of a terminal game's record (its ``[Bots]`` tag), else the first seat."""
    from .tui.session import record_seats

    n = len(names)
    if given is None:
        seats = record_seats(text, n)
        return seats.index("-") if seats else 0
    wanted = given.strip()
    lowered = [name.lower() for name in names]
    if wanted.lower() in lowered:
        return lowered.index(wanted.lower())
    if wanted.isdigit() and 1 <= int(wanted) <= n:
        return int(wanted) - 1
    raise UsageError(
        f"--player must be a seat 1..{n} or a name ({', '.join(names)}), not {given!r}"
    )


def _cmd_review(args: argparse.Namespace, out: Console) -> int:
    from rich.progress import Progress

    from .bots import review
    from .notation import import_record

    try:
        with open(args.record, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {args.record}: {exc}") from None
    try:
        final = import_record(text)
    except RummyError as exc:
        raise UsageError(f"{args.record}: {exc}") from None
    player = _review_player(text, list(final.names), args.player)
    round_no = args.round_no if args.round_no is not None else review.rounds_played(final)
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    if args.budget is not None and args.budget < 1:
        raise UsageError(f"--budget must be at least 1, not {args.budget}")
    if args.limit is not None and args.limit < 1:
        raise UsageError(f"--limit must be at least 1, not {args.limit}")
    try:
        total = review.count_decisions(final, player, round_no)  # checks the round
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.limit is not None:
        total = min(total, args.limit)
    run = functools.partial(
        review.review_round, final, player, round_no,
        seed=args.seed, budget=args.budget, workers=args.workers, limit=args.limit,
    )  # fmt: skip
    if args.json:
        print(json.dumps(run(unicode=False).to_dict(), indent=2))
        return 0
    with Progress(console=out, transient=True) as progress:
        task = progress.add_task("reviewing decisions", total=total)
        rv = run(progress=lambda done, _total: progress.update(task, completed=done))
    _print_review(out, rv)
    return 0


_LABEL_STYLE = {
    "best": "bold green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
}


def _print_review(out: Console, rv: Any) -> None:
    from .bots.review import sparkline

    counts = ", ".join(f"{n} {label}" for label, n in rv.counts.items() if n)
    result = "" if rv.result is None else f", round result {rv.result:+.1f} points"
    out.print(
        Text(
            f"Review of {rv.name}, round {rv.round_no} of {rv.rules} "
            f"(seed {rv.seed}, up to {rv.budget} samples a decision)"
        )
    )
    out.print(Text(f"accuracy {rv.accuracy:.1f}% over {len(rv.decisions)} decisions{result}"))
    if counts:
        out.print(Text(counts))
    table = Table()
    for col in ("move", "turn", "played", "best", "points lost ± s.e.", "label"):
        table.add_column(col, justify="left" if col in ("played", "best", "label") else "right")
    for d in rv.decisions:
        table.add_row(
            str(d.index + 1),
            str(d.turn),
            Text(d.played),
            Text("" if d.best == d.played else d.best),
            f"{d.lost:.1f} ± {d.error:.1f}",
            Text(d.label, style=_LABEL_STYLE.get(d.label, "")),
        )
    out.print(table)
    if rv.key_moments:
        out.print(Text("Key moments", style="bold"))
        for k in rv.key_moments:
            out.print(
                Text(
                    f"  move {k.index + 1} (turn {k.turn}): {k.played} lost {k.lost:.1f} "
                    f"points ({k.label}); better: {k.reason}"
                )
            )
    points = [p for _i, p in rv.series]
    if points:
        out.print(
            Text(f"expected points {sparkline(points)}  ({min(points):+.1f} to {max(points):+.1f})")
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = _parser()
    out = Console()
    try:
        args = parser.parse_args(argv)
        if args.command == "rules":
            return _cmd_rules(args, out)
        if args.command == "tournament":
            return _cmd_tournament(args, out)
        if args.command == "serve":
            return _cmd_serve(args)
        if args.command == "db":
            return _cmd_db(args)
        if args.command == "review":
            return _cmd_review(args, out)
        if args.command in ("play", None):  # no command: play, as `make play` does
            from .tui import play_main

            try:
                return play_main(args)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
        if args.command == "replay":
            from .tui import replay_main

            try:
                return replay_main(args.file, args.lang)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
        return _cmd_simulate(args, out)
    except UsageError as exc:
        message = " ".join(str(exc).split())
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    except BrokenPipeError:  # pragma: no cover - e.g. `rummy rules basic --json | head`
        sys.stderr.close()
        return 1
    except KeyboardInterrupt:  # pragma: no cover - Ctrl-C during a long simulation
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
