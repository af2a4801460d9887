"""Gin strength against OpenSpiel's ``SimpleGinRummyBot``, with OpenSpiel as referee.

Runs in ``.venv-bench`` (open-spiel is installed only there), issue #16, Part 1.
Each hand is played in OpenSpiel's ``gin_rummy``, whose returns score it; a rummykit
``gin`` state is kept in lockstep with :class:`gin_crosscheck.Mirror` (the same
mirroring the cross-engine check uses).  One seat is a rummykit bot, which is handed
only its rummykit :class:`~rummykit.view.PlayerView`; the other is OpenSpiel's C++
``SimpleGinRummyBot`` (``pyspiel.make_simple_gin_rummy_bot``), which reads OpenSpiel's
own observation.

**Paired deals.**  A deal is a shuffled deck: the first 21 cards are dealt (ten each,
then the upcard) and every stock draw takes the next card, so each deal is played
twice with the seats swapped and the same chance outcomes, and the luck of the cards
cancels out of the comparison.  The bot's legal moves are those both engines allow
(rummykit also lets a lay-off extend a run past a card laid off before; OpenSpiel
does not, docs/rules.md), so the bot never picks a move the referee refuses.

The table and ``benchmarks/results/<OUT>.json`` give the points share (our points
over all points scored, with a 95% interval from the paired deals by the delta
method), the hand win, loss and void rates, and how our hands ended (gin, knock,
undercut).

**Resuming.**  ``--journal`` appends every finished deal to
``benchmarks/results/journal/<OUT>.jsonl`` at once, and the same command run again
plays only the deals the journal does not hold yet, so a run of hours can be spread
over several sittings; a larger ``--hands`` extends it.  ``--report`` tabulates the
journal's first ``--hands`` without playing.  A journal pins the bot and the seed, not
the code: a bot that changes starts a new ``--out``.

``python benchmarks/gin_strength.py --bot medium --hands 2000 --workers 2``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from gin_crosscheck import (
    DRAW_STOCK_A,
    DRAW_UPCARD,
    KNOCK_A,
    PASS_A,
    Mirror,
    _start,
    draw_like,
    face_to_os,
)
from paired import share_interval
from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit.bots import make_bot
from rummykit.bots.base import Bot
from rummykit.journal import Journal
from rummykit.melds import RUN
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, KNOCK, LAYOFF, MELD, PASS, Move
from rummykit.results import RoundEnd
from rummykit.rules import Rules
from rummykit.state import GameState
from rummykit.view import make_view

MAX_ACTIONS = 2_000
"""Guard: a hand still going after this many actions is an error."""


@dataclass
class HandResult:
    """One hand from our bot's side: the referee's return and how the hand ended."""

    ours: float
    """OpenSpiel's return for our seat (positive: we scored)."""
    reason: str
    """How rummykit's mirror ended the hand: knock, gin, undercut, void..."""
    we_knocked: bool
    decisions: int = 0
    seconds: float = 0.0


def move_to_action(s: GameState, move: Move) -> int:
    """A rummykit move as OpenSpiel's action id (the inverse of ``Mirror.to_move``)."""
    if move.kind == DRAW_DISCARD:
        return DRAW_UPCARD
    if move.kind == DRAW_STOCK:
        return DRAW_STOCK_A
    if move.kind == PASS:
        return PASS_A
    if move.kind == KNOCK:
        return KNOCK_A
    if move.kind == DISCARD:
        return face_to_os(move.a)
    if move.kind == MELD:
        return _mirror_for(s.rules)._shape_os_id(s, move.a)
    if move.kind == LAYOFF:
        sh = s.game.melds.shapes[s.table[move.a].shape]
        suit, pos = divmod(move.b, 14)
        return face_to_os(suit * 13 + pos if sh.kind == RUN else suit * 13 + sh.key)
    raise ValueError(f"no OpenSpiel action for {move}")


_MIRRORS: dict[Rules, Mirror] = {}


def _mirror_for(rules: Rules) -> Mirror:
    """The process's mirror for ``rules``, built once (its meld-id table is a dict of
    every OpenSpiel meld)."""
    if rules not in _MIRRORS:
        import pyspiel

        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        _MIRRORS[rules] = Mirror(pyspiel, utils, rules)
    return _MIRRORS[rules]


def play_hand(bot_name: str, deck: list[int], our_seat: int, bot_seed: int) -> HandResult:
    """Play one hand of ``deck`` (OpenSpiel card order), our bot in ``our_seat``."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rules = Rules.preset("gin")
    mirror = _mirror_for(rules)
    theirs = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - our_seat)
    bot: Bot = make_bot(bot_name)
    rng = random.Random(bot_seed)
    os_state = game.new_initial_state()
    dealt: list[int] = []
    draws = iter(deck[21:])
    ours: GameState | None = None
    knocker = -1
    decisions = 0
    think = 0.0
    for _ in range(MAX_ACTIONS):
        if os_state.is_terminal():
            break
        if os_state.is_chance_node():
            if ours is None:
                card = deck[len(dealt)]
                dealt.append(card)
                if len(dealt) == 21:
                    ours = _start(rules, dealt, random.Random(bot_seed))
            else:
                card = next(draws)
                draw_like(ours, card)
            os_state.apply_action(card)
            continue
        assert ours is not None
        player = os_state.current_player()
        if player == our_seat:
            allowed = set(os_state.legal_actions())
            view = make_view(ours, our_seat)
            legal = tuple(m for m in view.legal if move_to_action(ours, m) in allowed)
            if len(legal) != len(view.legal):
                view = replace(view, legal=legal)
            t = time.process_time()
            move = bot.choose(view, rng)
            think += time.process_time() - t
            decisions += 1
            action = move_to_action(ours, move)
        else:
            action = theirs.step(os_state)
            move = mirror.to_move(ours, action)
        if action == KNOCK_A and knocker < 0:
            knocker = player
        if action == DRAW_STOCK_A:
            os_state.apply_action(action)  # the draw itself comes with the chance node
            continue
        ours.apply(move)
        os_state.apply_action(action)
    else:
        raise RuntimeError("the hand did not end")
    assert ours is not None
    reason = ours.results[-1].reason if ours.results else ""
    return HandResult(
        ours=os_state.returns()[our_seat],
        reason=reason,
        we_knocked=knocker == our_seat,
        decisions=decisions,
        seconds=think,
    )


def deal_deck(seed: int, index: int) -> list[int]:
    """Deal ``index`` of a run: a shuffled OpenSpiel deck (21 dealt, then the stock)."""
    deck = list(range(52))
    random.Random(seed * 1_000_003 + index).shuffle(deck)
    return deck


def play_pair(args: tuple[str, int, int]) -> tuple[HandResult, HandResult]:
    """Deal ``index`` played twice, our bot first in seat 0, then in seat 1."""
    bot_name, seed, index = args
    deck = deal_deck(seed, index)
    return (
        play_hand(bot_name, deck, 0, seed * 7919 + 2 * index),
        play_hand(bot_name, deck, 1, seed * 7919 + 2 * index + 1),
    )


Pair = tuple[HandResult, HandResult]


class PairJournal(Journal[tuple[int, Pair]]):
    """Finished deals of one run, by index (:mod:`rummykit.journal`): the header pins
    the bot and the seed, so a journal is never resumed by another run."""

    kind, item = "gin strength run", "deal"

    def encode(self, rec: tuple[int, Pair]) -> dict[str, Any]:
        index, pair = rec
        return {"index": index, "hands": [asdict(h) for h in pair]}

    def decode(self, d: Any) -> tuple[int, Pair]:
        first, second = (self._hand(h) for h in d["hands"])
        return int(d["index"]), (first, second)

    @staticmethod
    def _hand(d: dict[str, Any]) -> HandResult:
        h = HandResult(**d)
        if h.reason in RoundEnd.__members__.values():
            h.reason = RoundEnd(h.reason)  # :func:`ending` tells them apart by identity
        return h


JOURNALS = Path(__file__).parent / "results" / "journal"


def play_pairs(
    bot: str, seed: int, pairs: int, workers: int, journal: PairJournal | None = None
) -> list[Pair]:
    """Deals ``0 .. pairs - 1`` of the run, each played twice (:func:`play_pair`).
    With a journal, the deals it holds are taken from it and every deal played is
    written to it as soon as it ends."""
    held = dict(journal.records) if journal else {}
    todo = [(bot, seed, i) for i in range(pairs) if i not in held]
    done: dict[int, Pair] = {i: held[i] for i in range(pairs) if i in held}

    def record(index: int, pair: Pair) -> None:
        done[index] = pair
        if journal is not None:
            journal.append((index, pair))

    if workers > 1 and todo:
        with ProcessPoolExecutor(workers) as ex:
            running: dict[Future[Pair], int] = {}
            queue = iter(todo)
            for job in queue:
                running[ex.submit(play_pair, job)] = job[2]
                if len(running) >= 2 * workers:
                    break
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in finished:
                    record(running.pop(fut), fut.result())
                    following = next(queue, None)
                    if following is not None:
                        running[ex.submit(play_pair, following)] = following[2]
    else:
        for job in todo:
            record(job[2], play_pair(job))
    return [done[i] for i in range(pairs)]


@dataclass
class Summary:
    hands: int = 0
    pairs: int = 0
    points_ours: float = 0.0
    points_theirs: float = 0.0
    wins: int = 0
    losses: int = 0
    voids: int = 0
    share_low: float = 0.0
    share_high: float = 0.0
    endings: Counter[str] = field(default_factory=Counter)
    think_seconds: float = 0.0
    decisions: int = 0

    @property
    def share(self) -> float:
        total = self.points_ours + self.points_theirs
        return self.points_ours / total if total else 0.5


def ending(h: HandResult) -> str:
    """How a hand ended, from our side: who knocked, and whether it was gin, a knock
    that scored, an undercut (the knocker lost) or a void hand."""
    if h.reason not in (RoundEnd.KNOCK, RoundEnd.GIN):
        return "void" if h.ours == 0 else h.reason
    side = "we" if h.we_knocked else "they"
    if h.reason is RoundEnd.GIN:
        return f"{side} gin"
    knocker_won = (h.ours > 0) == h.we_knocked
    if h.ours == 0:
        return f"{side} knock, tie"
    return f"{side} knock" if knocker_won else f"{side} undercut"


def summarise(pairs: list[Pair]) -> Summary:
    """Totals, and the points share's 95% interval over paired deals
    (:func:`paired.share_interval`)."""
    s = Summary()
    xs: list[float] = []
    ts: list[float] = []
    for pair in pairs:
        x = t = 0.0
        for h in pair:
            s.hands += 1
            x += max(h.ours, 0.0)
            t += abs(h.ours)
            s.wins += h.ours > 0
            s.losses += h.ours < 0
            s.voids += h.ours == 0
            s.endings[ending(h)] += 1
            s.think_seconds += h.seconds
            s.decisions += h.decisions
        xs.append(x)
        ts.append(t)
    n = len(pairs)
    s.pairs = n
    s.points_ours = sum(xs)
    s.points_theirs = sum(ts) - s.points_ours
    if n > 1 and sum(ts) > 0:
        _share, s.share_low, s.share_high = share_interval(xs, ts)
    return s


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bot", default="medium", help="a rummykit bot: medium, hard, ismcts:0.5cpu")
    ap.add_argument("--hands", type=int, default=2000, help="hands (two per paired deal)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="gin_strength", help="results/<OUT>.json")
    ap.add_argument("--journal", action="store_true", help="keep and resume from a journal")
    ap.add_argument("--report", action="store_true", help="tabulate the journal, play nothing")
    args = ap.parse_args(argv)
    console = Console()
    n_pairs = max(1, args.hands // 2)
    journal = None
    if args.journal or args.report:
        head = {"bench": "gin_strength", "bot": args.bot, "seed": args.seed}
        path = JOURNALS / f"{args.out}.jsonl"
        if args.report and not path.exists():
            console.print(f"no journal at {path}")
            return 1
        journal = PairJournal(path, head)
    t0 = time.perf_counter()
    if args.report:
        assert journal is not None
        held = dict(journal.records)
        pairs = [held[i] for i in range(n_pairs) if i in held]
        if len(pairs) < n_pairs:
            console.print(f"the journal holds {len(pairs)} of the first {n_pairs} deals")
        if not pairs:
            return 1
    else:
        pairs = play_pairs(args.bot, args.seed, n_pairs, args.workers, journal)
    wall = time.perf_counter() - t0
    s = summarise(pairs)
    table = Table(title=f"{args.bot} vs OpenSpiel SimpleGinRummyBot (gin_rummy referee)")
    for col in ("hands", "points share", "95% CI", "hands won", "lost", "void", "CPU s/move"):
        table.add_column(col, justify="right")
    per_move = s.think_seconds / s.decisions if s.decisions else 0.0
    table.add_row(
        str(s.hands),
        f"{s.share:.1%}",
        f"{s.share_low:.1%}-{s.share_high:.1%}",
        f"{s.wins / s.hands:.1%}",
        f"{s.losses / s.hands:.1%}",
        f"{s.voids / s.hands:.1%}",
        f"{per_move:.4f}",
    )
    console.print(table)
    console.print(
        "endings: " + ", ".join(f"{k} {v}" for k, v in sorted(s.endings.items())),
        "| from the journal" if args.report else f"| {wall:.0f} s wall",
    )
    payload: dict[str, Any] = {
        "command": "python benchmarks/gin_strength.py " + " ".join(argv or sys.argv[1:]),
        "bot": args.bot,
        "opponent": "open_spiel SimpleGinRummyBot",
        "seed": args.seed,
        "pairs": s.pairs,
        "hands": s.hands,
        "points_ours": s.points_ours,
        "points_theirs": s.points_theirs,
        "points_share": s.share,
        "points_share_ci95": [s.share_low, s.share_high],
        "hand_win_rate": s.wins / s.hands,
        "hand_loss_rate": s.losses / s.hands,
        "void_rate": s.voids / s.hands,
        "endings": dict(s.endings),
        "cpu_seconds_per_move": per_move,
        "wall_seconds": wall,
    }
    path = write_results(args.out, payload)
    console.print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
