"""The expert's outs value: its bitmask probe is the card the plain definition names,
and the expert's play on fixed seeds is pinned (its speed work must not move a card)."""

from __future__ import annotations

import hashlib
import random

import pytest

from rummykit import new_game
from rummykit.bots import make_bot, play_match
from rummykit.bots.expert import ExpertBot
from rummykit.cards import COPIES, bits
from rummykit.scoring import card_value
from rummykit.solver import Solver
from rummykit.view import PlayerView, unseen_faces


def reference_value(bot: ExpertBot, view: PlayerView, solver: Solver, hand: int) -> float:
    """The outs value by its definition: for each live face near the hand, add the
    first copy of that face (first deck first) not in the hand, and weigh the deadwood
    it saves by the face's live copies."""
    live = unseen_faces(view)
    base = solver.deadwood(hand)
    if not live:
        return float(base)
    gain = 0.0
    for f, copies in bot._neighbours(hand, live):
        probe = next((c for c in COPIES[f] if not hand >> c & 1), -1)
        if probe < 0:
            continue
        improvement = base + card_value(view.rules, probe) - solver.deadwood(hand | 1 << probe)
        if improvement > 0:
            gain += improvement * copies
    return base - bot.outs_weight * gain / sum(live.values())


@pytest.mark.parametrize(
    ("preset", "players"),
    [("basic", 2), ("gin", 2), ("rami51", 4), ("kalooki_big", 5), ("contract_big", 6)],
)
def test_the_outs_value_is_its_definition(preset: str, players: int) -> None:
    bot = ExpertBot()
    checked = 0
    for seed in range(6):
        g = new_game(preset, players, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 40)):
            if g.is_over():
                break
            g.apply(rng.choice(g.legal_moves()))
        view = g.view(g.current)
        hand = view.hand
        for c in [None, *list(bits(hand))[:4]]:
            h = hand if c is None else hand & ~(1 << c)
            solver = view.game.solver
            got = bot._value(view, solver, h, unseen_faces(view))
            assert got == pytest.approx(reference_value(bot, view, solver, h), abs=1e-9)
            checked += 1
    assert checked >= 6


def _digest(history: list[int]) -> str:
    return hashlib.sha256(",".join(map(str, history)).encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    ("rules", "players", "seed", "digest"),
    [
        ("basic(deals=2)", 2, 3, "6937dfa308274a50"),
        ("rami51(deals=1)", 3, 1, "707a87e74f41ba05"),
        ("kalooki_big(deals=1)", 5, 2, "9882bdc129d318bf"),
        ("rum500(deals=1)", 2, 4, "e23a13ff00e275e3"),
    ],
)
def test_the_experts_play_on_fixed_seeds_is_pinned(
    rules: str, players: int, seed: int, digest: str
) -> None:
    """The move histories of ``expert`` against ``greedy`` on fixed seeds.  A change
    meant only to make the expert faster keeps them; a change of its play updates
    them deliberately, with its measured strength (docs/bots.md)."""
    bots = [make_bot("expert" if seat % 2 == 0 else "greedy") for seat in range(players)]
    g, _ = play_match(rules, players, bots, seed)
    assert _digest(g.history) == digest
