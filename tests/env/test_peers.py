"""Cross-engine checks against OpenSpiel and RLCard (marker ``peers``).

Not part of ``make test``: the peers are installed only in the benchmark environment,
so ``make peers`` runs these there.  Without them the tests skip.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("rlcard")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import gin_crosscheck  # noqa: E402

from rummykit.results import RoundEnd  # noqa: E402
from rummykit.rules import Rules  # noqa: E402

pytestmark = pytest.mark.peers


def test_same_legal_moves_and_returns_as_openspiel() -> None:
    game = pyspiel.load_game("gin_rummy")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    mirror = gin_crosscheck.Mirror(pyspiel, utils, Rules.preset("gin"))
    rng = random.Random(11)
    notes = []
    knocked = chained = 0
    for _ in range(300):
        _compared, bad, note, ch = gin_crosscheck.play_hand(pyspiel, game, mirror, rng)
        chained += ch
        knocked += mirror.last_reason in (RoundEnd.KNOCK, RoundEnd.GIN)
        if bad:
            notes.append(note)
    assert notes == []
    # The policy reaches the knock and lay-off phases in most hands, chained lay-offs
    # (the one deliberate difference, docs/rules.md) included.
    assert knocked > 250 and chained > 0


def test_the_chained_layoff_difference_is_recognised_and_nothing_else() -> None:
    """Issue #15: 9D TD JD laid, 8D and 7D laid off; rummykit allows 6D, OpenSpiel not.
    The cross-check excuses exactly that: an extra lay-off on a run, not next to the
    run's original cards."""
    from helpers import build, meld_move
    from rummykit.moves import DISCARD, KNOCK, LAYOFF, PASS, Move

    g = build(
        "gin",
        hands=["9D TD JD 7S 7H 7C 2C 3C 4C AH KS", "8D 7D 6D 5S 8S JS QS KH 3H 5H"],
        current=0,
    )
    g.apply(Move(KNOCK))
    g.apply(Move(DISCARD, 12 + 39))  # KS
    for text in ("9D TD JD", "7C 7H 7S", "2C 3C 4C"):
        g.apply(meld_move(g, text))
    g.apply(Move(PASS))
    laid = {i: frozenset(tm.cards) for i, tm in enumerate(g.table)}
    for _ in range(2):  # 8D, then 7D: OpenSpiel allows these too
        g.apply(next(m for m in g.legal_moves() if m.kind == LAYOFF))
    six = gin_crosscheck.face_to_os(13 + 5)  # 6D
    assert gin_crosscheck.chained_layoffs(g, laid, {six})
    assert not gin_crosscheck.chained_layoffs(g, laid, {gin_crosscheck.face_to_os(13 + 11)})


def test_same_least_deadwood_as_openspiel_and_rlcard() -> None:
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    report = gin_crosscheck.deadwood_check(pyspiel, utils, 2000, seed=5)
    assert report["mismatches"] == 0, report["examples"]


def test_medium_outscores_simple_gin_rummy_bot_on_paired_deals() -> None:
    """Issue #16, Part 1: the referee harness (benchmarks/gin_strength.py) plays each
    deal twice with the seats swapped, every hand ends in OpenSpiel's gin_rummy with a
    result, and ``medium`` takes more than half the points against OpenSpiel's
    SimpleGinRummyBot (62.2% over 2,000 hands; a floor, not the goal, at 120 hands)."""
    import gin_strength

    assert gin_strength.deal_deck(5, 3) == gin_strength.deal_deck(5, 3)
    pairs = [gin_strength.play_pair(("medium", 5, i)) for i in range(60)]
    summary = gin_strength.summarise(pairs)
    assert summary.hands == 120 and summary.pairs == 60
    assert all(
        h.reason in (RoundEnd.KNOCK, RoundEnd.GIN, RoundEnd.WALL) for pair in pairs for h in pair
    )
    total = sum(abs(h.ours) for pair in pairs for h in pair)
    assert summary.points_ours + summary.points_theirs == total
    assert summary.share_low < summary.share < summary.share_high
    assert summary.share > 0.5
