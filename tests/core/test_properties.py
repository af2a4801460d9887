"""Invariants of random games, checked after every move (hypothesis).

For every preset at 2, 4 and the preset's maximum number of players, a
hypothesis-drawn seed starts a match and a seeded ``random.Random`` plays it by
choosing among the legal moves (biased towards melds and lay-offs so that rounds
end).  After every move the test checks, independently of the engine's own
bookkeeping:

* card conservation: every physical card of ``deck(decks, jokers)`` is in exactly
  one place (a hand, the stock, the discard pile, a table meld);
* every table meld is a catalogue shape whose cards match its cells, with at most
  ``jokers_per_meld`` jokers (seed 003: "there must be only one Joker in a meld");
* hand sizes move as the turn says (seed 001: "To begin your turn, you must draw a
  card"; seed 000: "a player must discard a card"), the turn passes to the next seat
  after a discard (seed 000: "Players take turns, rotating clockwise"), each deal
  gives ``cards_per_player`` cards (seed 002: "For 2 players: 10 cards/player");
* scores add up: match scores are the sum of the round deltas; under winner-collects
  the winner collects the others' hands (seed 001: "All of the scores from the other
  players are added on to the winner's score"), doubled for rummy under cg101
  (seed 002: "that player's score for the round is doubled"); under penalty scoring
  each loser adds their own hand (seed 000; seed 003, with its +100 and -200);
* the move interface: every legal move applies, leaves a state that is over or has
  legal moves (no dead ends), encodes and decodes, and matches ``legal_actions()``
  and ``action_mask()``; sampled illegal actions raise and change nothing;
* views leak nothing: ``view(p)`` holds p's hand, hand sizes and the cards others
  are publicly known to hold (tracked here at face level), never the stock order
  or another hand;
* ``determinize(p, rng)`` agrees with ``view(p)`` (its own view is equal) and
  conserves cards; ``clone()`` is equal at creation and independent afterwards;
* replaying the history into a fresh game with the same seed gives the same game.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from helpers import conserved
from rummykit import GameState, IllegalMoveError, Move, Phase, Rules, new_game
from rummykit.cards import JOKER, bits, face_of, is_joker
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD, SWAP, TAKE
from rummykit.results import RoundEnd
from rummykit.rules import Scoring
from rummykit.table import TableMeld
from rummykit.view import PlayerView

PRESETS = ("basic", "classic", "cg101", "rami51")
CASES = [(name, n) for name in PRESETS for n in sorted({2, 4, Rules.preset(name).max_players})]
MAX_MOVES = 150
"""Moves per example: enough for a round or two, small enough to keep the file fast."""
EXAMPLES = 5
SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    # A failing seed is already minimal: shrinking would replay whole games for minutes.
    phases=[Stage.explicit, Stage.reuse, Stage.generate],
)


# -- independent helpers ------------------------------------------------------------------
def card_points(rules: Rules, card: int) -> int:
    """Seed 001: "Kings, Queens, and Jacks are all worth ten points. Numbered cards are
    worth their number value"; aces and jokers as the rules say."""
    if is_joker(card):
        return rules.joker_points
    rank = card % 54 % 13
    if rank == 0:
        return rules.ace_points
    return 10 if rank >= 9 else rank + 1


def faces(mask: int) -> Counter[int]:
    return Counter(face_of(c) for c in bits(mask))


def snap(s: GameState) -> dict[str, Any]:
    """Everything a state holds, copied, for equality checks."""
    out: dict[str, Any] = {}
    for k, v in vars(s).items():
        if k in ("_legal", "game", "rng"):
            continue
        out[k] = tuple(v) if isinstance(v, list) else v
    out["rng"] = s.rng.getstate()
    return out


class Tracker:
    """What the public knows, kept by the test from the moves alone."""

    def __init__(self, s: GameState) -> None:
        self.new_round(s)

    def new_round(self, s: GameState) -> None:
        n = s.num_players
        self.round_no = s.round_no
        self.public: list[Counter[int]] = [Counter() for _ in range(n)]
        self.laid = [False] * n
        """Melded or laid off this round (seed 001's rummy condition)."""
        self.melded = [False] * n
        self.laid_before_turn = False


# -- state checks ------------------------------------------------------------------------
def check_conservation(s: GameState) -> None:
    assert conserved(s), "a card is lost or duplicated"


def check_table(s: GameState) -> None:
    t = s.game.melds
    assert len(s.table) <= s.game.max_table
    for tm in s.table:
        assert 0 <= tm.shape < len(t.shapes)
        sh = t.shapes[tm.shape]
        assert len(tm.cards) == len(sh.cells) >= 3
        for i, (card, cell) in enumerate(zip(tm.cards, sh.cells, strict=True)):
            if sh.joker_cells >> i & 1:
                assert is_joker(card)
            else:
                assert not is_joker(card) and face_of(card) == cell
        assert sum(map(is_joker, tm.cards)) <= s.rules.jokers_per_meld
        assert 0 <= tm.owner < s.num_players


def check_moves_interface(s: GameState, r: random.Random) -> None:
    legal = s.legal_moves()
    acts = s.game.actions
    if s.is_over():
        assert legal == [] and s.legal_actions() == []
        return
    assert legal, "a live state must have a legal move"
    assert len(set(legal)) == len(legal), "duplicate legal moves"
    encoded = [acts.encode(m) for m in legal]
    assert s.legal_actions() == encoded
    assert [acts.decode(a) for a in encoded] == legal
    mask = s.action_mask()
    assert len(mask) == acts.size
    assert mask.count(True) == len(encoded) and all(mask[a] for a in encoded)
    before = snap(s)
    for m in legal:
        c = s.clone()
        c.apply(m)
        assert c.is_over() or c.legal_moves(), f"{m} leads to a dead end"
    # a few illegal actions: they raise and leave the state alone
    legal_set = set(encoded)
    for _ in range(2):
        a = r.randrange(acts.size)
        if a in legal_set:
            continue
        with pytest.raises(IllegalMoveError):
            s.apply_action(a)
    assert snap(s) == before


def check_view(s: GameState, p: int, tr: Tracker) -> PlayerView:
    v = s.view(p)
    n = s.num_players
    assert v.player == p and v.hand == s.hands[p]
    assert v.hand_sizes == tuple(h.bit_count() for h in s.hands)
    assert v.stock_size == len(s.stock)
    assert v.discard == tuple(s.discard) and v.table == tuple(s.table)
    assert v.known == tuple(s.known)
    assert v.legal == (tuple(s.legal_moves()) if s.current == p else ())
    secrets: list[Any] = []
    if len(s.stock) >= 2:
        secrets += [list(s.stock), tuple(s.stock)]
    for q in range(n):
        if q == p:
            continue
        hidden = s.hands[q] & ~s.known[q]
        if hidden:
            secrets += [m for m in (s.hands[q], hidden) if m >= 1 << 16]
    for name in v.__dataclass_fields__:
        value = getattr(v, name)
        if name in ("game", "rules", "results", "hand_sizes", "scores"):
            continue  # counts, not cards: small ints can equal a short stock by chance
        items = list(value) if isinstance(value, tuple) else []
        for secret in secrets:
            assert value != secret, f"view.{name} leaks hidden information"
            assert secret not in items, f"view.{name} leaks hidden information"
    return v


def check_known(s: GameState, tr: Tracker) -> None:
    """``known`` is exactly what the public saw taken face up (seed 003 cards taken from
    melds, seed 000/001 discard pick-ups), counted by face: with two decks, copies of a
    face are indistinguishable to the other players."""
    for q in range(s.num_players):
        assert s.known[q] & ~s.hands[q] == 0, "a known card is not in the hand"
        assert faces(s.known[q]) == +tr.public[q], f"known cards of player {q}"


def check_determinize(s: GameState, p: int, v: PlayerView, seed: int) -> None:
    d = s.determinize(p, random.Random(seed))
    check_conservation(d)
    assert d.hands[p] == s.hands[p]
    assert [h.bit_count() for h in d.hands] == [h.bit_count() for h in s.hands]
    assert d.known == s.known and all(k & ~h == 0 for k, h in zip(d.known, d.hands, strict=True))
    assert len(d.stock) == len(s.stock) and d.discard == s.discard and d.table == s.table
    assert d.phase == s.phase and d.current == s.current and d.scores == s.scores
    assert d.view(p) == v
    if s.current == p:
        assert d.legal_moves() == s.legal_moves()


def check_clone(s: GameState) -> None:
    before = snap(s)
    c = s.clone()
    assert snap(c) == before
    if not c.is_over():
        c.apply(c.legal_moves()[-1])
        c.hands[0] ^= 1
        c.scores[0] += 1
        c.table.append(TableMeld(0, 0, ()))
        c.stock.append(-1)
        c.discard.append(-1)
        c.history.append(-1)
        c.rng.random()
    assert snap(s) == before, "mutating a clone changed the original"


def check_scores(s: GameState) -> None:
    n = s.num_players
    totals = [0] * n
    for res in s.results:
        for p in range(n):
            totals[p] += res.players[p].delta
    assert totals == s.scores


def check_round_result(s0: GameState, s1: GameState, mover: int, tr: Tracker) -> None:
    """The round that just ended, scored from the test's own values (seed 000, 001,
    002, 003 scoring paragraphs)."""
    rules = s1.rules
    res = s1.results[-1]
    n = s1.num_players
    assert res.round_no == s0.round_no and res.dealer == s0.dealer
    for p in range(n):
        ps = res.players[p]
        assert ps.hand_points == sum(card_points(rules, c) for c in ps.cards)
        if p != mover:
            assert ps.cards == tuple(bits(s0.hands[p]))
    values = [ps.hand_points for ps in res.players]
    deltas = list(res.deltas)
    if res.went_out:
        assert res.reason is RoundEnd.OUT and res.winner == mover
        assert res.players[mover].cards == ()
        rummy = not tr.laid_before_turn
        assert res.rummy == rummy
    else:
        rummy = False
        assert res.reason in (RoundEnd.RESTOCK_LIMIT, RoundEnd.NO_DRAW, RoundEnd.TURN_LIMIT)
    w = res.winner
    if rules.scoring is Scoring.WINNER_COLLECTS:
        if res.went_out:
            assert w is not None
            total = sum(values)
            if rummy and rules.rummy_bonus.value == "double":
                total *= 2
            elif rummy and rules.rummy_bonus.value == "plus_ten":
                total += 10
            assert deltas == [total if p == w else 0 for p in range(n)]
        else:
            low = min(values)
            if values.count(low) == 1:
                assert w == values.index(low)
                assert deltas == [sum(v - low for v in values) if p == w else 0 for p in range(n)]
            else:
                assert deltas == [0] * n
    else:
        for p in range(n):
            if p == w and res.went_out:
                bonus = 0
                if rummy and not any(tr.melded[q] for q in range(n) if q != p):
                    bonus = rules.one_turn_out_bonus
                assert deltas[p] == bonus
            else:
                d = values[p]
                if not tr.melded[p]:
                    d += rules.never_melded_penalty
                assert deltas[p] == d


def check_transition(s0: GameState, m: Move, s1: GameState, tr: Tracker) -> None:
    p = s0.current
    n = s0.num_players
    rules = s0.rules
    sizes0 = [h.bit_count() for h in s0.hands]
    sizes1 = [h.bit_count() for h in s1.hands]
    assert s1.history == [*s0.history, s0.game.actions.encode(m)]
    ended = len(s1.results) > len(s0.results)
    # the public and rummy bookkeeping of the test
    if m.kind == DRAW_STOCK or m.kind == DRAW_DISCARD:
        tr.laid_before_turn = tr.laid[p]
    if m.kind in (MELD, LAYOFF):
        tr.laid[p] = True
    if m.kind == MELD:
        tr.melded[p] = True
    if ended:
        assert len(s1.results) == len(s0.results) + 1
        check_round_result(s0, s1, p, tr)
        if s1.is_over():
            assert s1.current == -1 and s1.legal_moves() == []
            assert s1.round_no == s0.round_no
            for f in faces(s0.hands[p] & ~s1.hands[p]).elements():
                if tr.public[p][f] > 0:
                    tr.public[p][f] -= 1
        else:
            # seed 002: "The deal passes to the left after each hand"; the player left
            # of the dealer plays first, with a fresh deal of cards_per_player cards.
            assert s1.round_no == s0.round_no + 1
            assert s1.dealer == (s0.dealer + 1) % n
            assert s1.current == (s1.dealer + 1) % n and s1.phase is Phase.DRAW
            assert sizes1 == [rules.cards_per_player(n)] * n
            assert s1.table == [] and len(s1.discard) == 1 and s1.turn == 1
            assert s1.known == [0] * n
            tr.new_round(s1)
        return
    assert s1.round_no == s0.round_no and s1.dealer == s0.dealer
    for q in range(n):
        if q != p:
            assert sizes1[q] == sizes0[q], "another player's hand changed"
    came = s1.hands[p] & ~s0.hands[p]
    gone = s0.hands[p] & ~s1.hands[p]
    for f in faces(gone).elements():
        # A discard is never the card taken from the pile this turn (seed 000), so it
        # uses up a known copy only if another one was known besides the taken card.
        # (If the taken card was already melded, nothing is kept back.)
        still_held = s0.taken >= 0 and s0.hands[p] >> s0.taken & 1
        keep = 1 if m.kind == DISCARD and still_held and face_of(s0.taken) == f else 0
        if tr.public[p][f] > keep:
            tr.public[p][f] -= 1
    if m.kind in (DRAW_DISCARD, TAKE, SWAP):
        tr.public[p].update(faces(came))
    delta = sizes1[p] - sizes0[p]
    if m.kind in (DRAW_STOCK, DRAW_DISCARD):
        assert s0.phase is Phase.DRAW and s1.phase is Phase.PLAY and s1.current == p
        assert delta == 1
        if m.kind == DRAW_DISCARD:
            assert came == 1 << s0.discard[-1] and s1.discard == s0.discard[:-1]
            assert s1.taken == s0.discard[-1]
        elif s0.stock:
            assert came == 1 << s0.stock[-1] and s1.stock == s0.stock[:-1]
            assert s1.discard == s0.discard
        else:
            assert s1.restocks == s0.restocks + 1
        return
    assert s0.phase is Phase.PLAY
    if m.kind == DISCARD:
        assert delta == -1 and face_of(s1.discard[-1]) == m.a
        assert s1.discard[:-1] == s0.discard and s1.discard[-1] != s0.taken
        # seed 000: "Players take turns, rotating clockwise"
        assert s1.current == (p + 1) % n and s1.phase is Phase.DRAW
        assert s1.turn == s0.turn + 1
        return
    assert s1.current == p and s1.phase is Phase.PLAY
    assert s1.discard == s0.discard and s1.stock == s0.stock
    t = s0.game.melds
    if m.kind == MELD:
        sh = t.shapes[m.a]
        assert delta == -len(sh.cells)
        assert s1.table[:-1] == s0.table and s1.table[-1].shape == m.a
        assert s1.table[-1].owner == p
    elif m.kind == LAYOFF:
        assert delta == -1 and len(s1.table) == len(s0.table)
        assert len(s1.table[m.a].cards) == len(s0.table[m.a].cards) + 1
    elif m.kind == SWAP:
        assert delta == 0 and rules.joker_swap
        assert faces(gone) == Counter([m.b]) and faces(came) == Counter([JOKER])
    else:
        assert m.kind == TAKE and delta == 1 and rules.take_from_meld
        assert len(s0.table[m.a].cards) > 3  # seed 003: "more than three cards"
        assert len(s1.table[m.a].cards) == len(s0.table[m.a].cards) - 1


def choose(r: random.Random, legal: list[Move], hand: int) -> Move:
    """A random legal move, biased so that rounds end: melds and lay-offs first, and
    usually the discard of a card with the fewest partners in the hand."""
    active = [m for m in legal if m.kind >= MELD]
    if active and r.random() < 0.8:
        return r.choice(active)
    discards = [m for m in legal if m.kind == DISCARD]
    if discards and r.random() < 0.7:
        held = [face_of(c) for c in bits(hand)]

        def partners(f: int) -> int:
            if f == JOKER:
                return 99
            return sum(
                g == JOKER
                or (g != f and g % 13 == f % 13)
                or (g != f and g // 13 == f // 13 and abs(g - f) <= 2)
                for g in held
            )

        best = min(partners(m.a) for m in discards)
        return r.choice([m for m in discards if partners(m.a) == best])
    return r.choice(legal)


def check_all(s: GameState, tr: Tracker, r: random.Random) -> None:
    check_conservation(s)
    check_table(s)
    check_scores(s)
    check_known(s, tr)
    check_moves_interface(s, r)
    for p in range(s.num_players):
        v = check_view(s, p, tr)
        check_determinize(s, p, v, r.randrange(1 << 30))
    check_clone(s)
    if not s.is_over():
        assert 0 <= s.current < s.num_players
        assert s.hands[s.current] or s.phase is Phase.DRAW


def play_and_check(spec: str, players: int, seed: int, max_moves: int) -> GameState:
    s = new_game(spec, players=players, seed=seed)
    n = s.num_players
    assert [h.bit_count() for h in s.hands] == [s.rules.cards_per_player(n)] * n
    assert s.current == (s.dealer + 1) % n and s.phase is Phase.DRAW
    tr = Tracker(s)
    r = random.Random(seed)
    check_all(s, tr, r)
    for _ in range(max_moves):
        if s.is_over():
            break
        m = choose(r, s.legal_moves(), s.hands[s.current])
        before = s.clone()
        s.apply(m)
        check_transition(before, m, s, tr)
        check_all(s, tr, r)
    # same seed + same moves = same game
    again = new_game(spec, players=players, seed=seed)
    for a in s.history:
        again.apply_action(a)
    assert snap(again) == snap(s)
    return s


@pytest.mark.parametrize(("preset", "players"), CASES)
@settings(SETTINGS, max_examples=EXAMPLES)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_invariants(preset: str, players: int, seed: int) -> None:
    play_and_check(preset, players, seed, MAX_MOVES)


@pytest.mark.parametrize("preset", PRESETS)
@settings(SETTINGS, max_examples=2)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_short_matches_to_the_end(preset: str, seed: int) -> None:
    """Seed 001: "choose a fixed number of deals to play up to"; two deals of every
    preset played to the end with every invariant checked on the way."""
    s = play_and_check(f"{preset}(deals=2, max_turns=60)", 2, seed, 10_000)
    assert s.is_over() and len(s.results) == 2


VARIANTS = [
    # two decks with a free pick-up: a player can hold a known and an unknown copy of a face
    ("rami51(discard_pickup=free, swapped_joker=keep)", 3, MAX_MOVES),
    ("rami51(set_suits=any, opening_applies=first_meld, opening_pure_run=true)", 2, 80),
    # big hands, small stock: every restock policy and seed 001's restock limit
    ("basic(hand_size=20, max_players=2, max_restocks=2)", 2, MAX_MOVES),
    ("classic(hand_size=30, max_players=2, decks=2, jokers=2, set_suits=any)", 2, 80),
    ("cg101(hand_size=20, max_players=2, ace=high_or_low, final_discard=true)", 2, MAX_MOVES),
    ("basic(jokers=2, multiple_melds=true, rummy_bonus=plus_ten, joker_swap=true, "
     "take_from_meld=true, layoff_after_own_meld=true)", 3, MAX_MOVES),
]  # fmt: skip


@pytest.mark.parametrize(("spec", "players", "moves"), VARIANTS)
@settings(SETTINGS, max_examples=3)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_house_rule_variants_keep_invariants(
    spec: str, players: int, moves: int, seed: int
) -> None:
    """The same invariants under house rules (seed 001 "Variations"; RULES-NOTES 2, 4, 6,
    7, 8) that the presets leave off."""
    play_and_check(spec, players, seed, moves)
