"""The opponent model (issue #16, Part 1): signals read from the public history, card
weights, and determinizations dealt by them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummykit import new_game
from rummykit.bots import make_bot
from rummykit.bots.inference import (
    CEILING,
    DECLINED,
    FLOOR,
    THREW,
    Signals,
    card_weights,
    signals,
    took_factor,
)
from rummykit.bots.tactics import PARTNERS
from rummykit.cards import bits, face_of
from rummykit.moves import DISCARD, DRAW_STOCK, KNOCK, PASS, Move
from rummykit.state import GameState, Phase
from rummykit.view import determinize, make_view, unseen_cards

PRESETS = {"basic": 3, "classic": 2, "cg101": 4, "rami51": 4, "gin": 2, "gin_match": 2}


class _Truth:
    """What each player showed this round, recorded by watching the real game."""

    def __init__(self, g: GameState) -> None:
        self.round = g.round_no
        self.by = [Signals() for _ in g.names]
        self.knocked = False
        self.first = face_of(g.discard[-1])

    def see(self, g: GameState, m: Move) -> None:
        if g.round_no != self.round:
            self.__init__(g)  # type: ignore[misc]
        if self.knocked:
            return
        p = g.current
        top = face_of(g.discard[-1]) if g.discard else None
        if m.kind == KNOCK:
            self.knocked = True
        elif m.kind == DISCARD:
            self.by[p].threw.append(m.a)
        elif top is not None and (
            m.kind == DRAW_STOCK or (m.kind == PASS and g.phase is Phase.FIRST_UPCARD)
        ):
            self.by[p].declined.append(top)


def _games(preset: str, deals: int) -> list[tuple[GameState, _Truth]]:
    """Positions from greedy/random play of ``preset``, with the truth at each."""
    out = []
    n = PRESETS[preset]
    for seed in range(deals):
        g = new_game(preset, players=n, seed=seed)
        truth = _Truth(g)
        rng = random.Random(seed)
        bots = [make_bot("greedy" if (seed + p) % 2 else "random") for p in range(n)]
        for _ in range(400):
            if g.is_over():
                break
            if g.round_no != truth.round:
                truth = _Truth(g)
            out.append((g.clone(), _copy(truth)))
            m = bots[g.current].choose(g.view(g.current), rng)
            truth.see(g, m)
            g.apply(m)
    return out


def _copy(t: _Truth) -> _Truth:
    c = object.__new__(_Truth)
    c.round, c.knocked, c.first = t.round, t.knocked, t.first
    c.by = [Signals(list(s.threw), list(s.declined), []) for s in t.by]
    return c


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_signals_are_what_each_player_did_this_round(preset: str) -> None:
    """The replay of the public history names every card each player threw, and every
    card they left on the pile, except where a restock or a taken first upcard hides
    which card that was; it never names a wrong one."""
    named = total = 0
    for g, truth in _games(preset, 6):
        if g.phase is Phase.OVER:
            continue
        p = g.current
        got = signals(g.view(p))
        for q in range(g.num_players):
            want = truth.by[q]
            assert got[q].took == [face_of(c) for c in bits(g.known[q])]
            if not truth.knocked:
                assert got[q].threw == want.threw, (q, g.turn)
            it = iter(want.declined)  # got's declines: a subsequence of the truth
            assert all(any(f == x for x in it) for f in got[q].declined), (q, g.turn)
            named += len(got[q].declined)
            total += len(want.declined)
    assert named >= 0.8 * total


def test_a_history_that_does_not_replay_gives_no_signal() -> None:
    """A hand-built position (no history) or a history that disagrees with the view
    says nothing rather than something wrong."""
    g = new_game("gin", seed=2)
    for _ in range(9):
        g.apply(g.legal_moves()[0])
    v = g.view(0)
    assert any(s.threw or s.declined for s in signals(v))
    bad = make_view(g, 0)
    vars(bad)["history"] = v.history[1:]
    assert all(not (s.threw or s.declined) for s in signals(bad))
    vars(bad)["history"] = ()
    assert all(not (s.threw or s.declined) for s in signals(bad))


def test_the_history_in_a_view_names_no_hidden_card() -> None:
    """The view's history is the action numbers everyone saw: a stock draw is 0
    whatever card it drew, so two deals that differ in the stock give the same history
    after the same public moves."""
    a = new_game("basic", players=2, seed=7)
    b = determinize(a.view(0), random.Random(1))
    b.current, b.phase = a.current, a.phase
    assert b.stock != a.stock
    for _ in range(2):  # both players draw from the stock and throw a card both hold
        for g in (a, b):
            g.apply(Move(DRAW_STOCK))
        common = [m for m in a.legal_moves() if m.kind == DISCARD and m in b.legal_moves()]
        for g in (a, b):
            g.apply(common[0])
    assert a.view(0).history == b.view(0).history == tuple(a.history)
    assert a.history.count(0) == 2


def test_weights_follow_the_signals() -> None:
    """A partner of a thrown card weighs THREW, of a declined one DECLINED, of a card
    taken and held the TOOK factor; nothing else is weighted and every weight stays
    within FLOOR and CEILING."""
    for g, _ in _games("gin", 4)[::7]:
        if g.phase is Phase.OVER:
            continue
        v = g.view(g.current)
        w = card_weights(v)
        assert w[v.player] == {}
        sig = signals(v)
        unseen = set(unseen_cards(v))
        table = PARTNERS[False]
        for p, wp in enumerate(w):
            if p == v.player:
                continue
            assert set(wp) <= unseen
            for c in unseen:
                f = face_of(c)
                expect = 1.0
                for faces, factor in (
                    (sig[p].threw, THREW),
                    (sig[p].declined, DECLINED),
                    (sig[p].took, took_factor(v.rules)),
                ):
                    expect *= factor ** sum(1 for x in faces if table[x] >> f & 1)
                expect = min(CEILING, max(FLOOR, expect))
                assert wp.get(c, 1.0) == pytest.approx(expect)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_weighted_samples_agree_with_the_view(preset: str) -> None:
    """Every weighted determinization keeps the view: its own view equals the original
    (hand sizes, known cards, pile, table, history), and every card of the pack is in
    exactly one place."""
    pack = sorted(new_game(preset, players=PRESETS[preset], seed=0).game.pack)
    for i, (g, _) in enumerate(_games(preset, 3)[::5]):
        p = i % g.num_players
        v = g.view(p)
        w = card_weights(v)
        d = determinize(v, random.Random(i), w)
        assert d.view(p) == v
        cards = [c for h in d.hands for c in bits(h)] + d.stock + d.discard
        cards += [c for tm in d.table for c in tm.cards]
        assert sorted(cards) == pack


def test_a_partner_of_a_thrown_card_is_dealt_to_the_thrower_less_often() -> None:
    """The model does what it claims: after the opponent throws a card, its partners
    land in the opponent's hand about THREW times as often as in uniform samples, and
    a partner of a card the opponent took lands there more often.  With 3,000 samples
    each the rates' standard errors are about 0.008, and the margins asked for are more
    than six of them."""
    g = new_game("gin", seed=5)
    # seat 0 takes nothing; seat 1 passes, then plays: find a discard by seat 1
    rng = random.Random(1)
    greedy = make_bot("greedy")
    while not any(signals(g.view(0))[1].threw) or g.current != 0 or g.phase is not Phase.DRAW:
        g.apply(greedy.choose(g.view(g.current), rng))
    v = g.view(0)
    thrown = signals(v)[1].threw[0]
    watch = [c for c in unseen_cards(v) if PARTNERS[False][thrown] >> c & 1]
    assert len(watch) >= 3
    w = card_weights(v)
    n = 3000
    rates = {}
    for name, weights in (("uniform", None), ("model", w)):
        hits = Counter[int]()
        sample_rng = random.Random(9)
        for _ in range(n):
            d = determinize(v, sample_rng, weights)
            hits.update(c for c in watch if d.hands[1] >> c & 1)
        rates[name] = sum(hits.values()) / (n * len(watch))
    assert rates["model"] < rates["uniform"] - 0.05
    assert rates["model"] / rates["uniform"] < 0.85
