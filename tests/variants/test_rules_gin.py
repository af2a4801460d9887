"""Gin Rummy rules, each checked against its source.

Sources: OpenSpiel ``open_spiel/games/gin_rummy/gin_rummy.cc`` and ``gin_rummy.h``
(the ``gin`` preset follows its default parameters), which follow the Gin Rummy
Association's rules; Pagat's Gin Rummy page and Hoyle for the match bonuses of
``gin_match``.
"""

from __future__ import annotations

import random

import pytest

from helpers import build, meld_move, snapshot
from rummykit import RulesError, new_game
from rummykit.cards import mask_of, parse_cards
from rummykit.errors import IllegalMoveError
from rummykit.events import Bonus
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, KNOCK, LAYOFF, MELD, PASS, Move
from rummykit.notation import export_record, import_record
from rummykit.results import RoundEnd
from rummykit.rules import Rules
from rummykit.state import GameState, Phase
from rummykit.variants.gin import knock_fields


def f(text: str) -> int:
    return parse_cards(text)[0]


def test_defaults_match_openspiel_parameters() -> None:
    """gin_rummy.h: knock_card 10, gin_bonus 25, undercut_bonus 25, hand_size 10,
    kWallStockSize 2, kMaxNumDrawUpcardActions 50; 2 players, 52 cards."""
    r = Rules.preset("gin")
    assert (r.knock_card, r.gin_bonus, r.undercut_bonus, r.wall, r.max_upcard_draws) == (
        10, 25, 25, 2, 50,
    )  # fmt: skip
    assert r.cards_per_player(2) == 10 and r.deck_size == 52 and r.max_players == 2
    assert r.ace.value == "low" and r.ace_points == 1  # "Ace = 1 ... face cards = 10"
    with pytest.raises(RulesError, match="gin is for exactly 2 players, not 3"):
        new_game("gin", players=3)
    with pytest.raises(RulesError):
        Rules.parse("gin(meld_in_play=true)")
    with pytest.raises(RulesError):
        Rules.parse("basic(meld_in_play=false)")


def test_first_upcard_phase() -> None:
    """ApplyFirstUpcardAction: the first player may draw the upcard or pass, then the
    other; if both pass, the first player must draw from the stock."""
    g = new_game("gin", seed=3)
    first = g.current
    assert g.phase is Phase.FIRST_UPCARD
    assert set(g.legal_moves()) == {Move(DRAW_DISCARD), Move(PASS)}
    g.apply(Move(PASS))
    assert g.current == 1 - first and g.phase is Phase.FIRST_UPCARD
    g.apply(Move(PASS))
    assert g.current == first and g.legal_moves() == [Move(DRAW_STOCK)]
    upcard = g.discard[-1]
    g.apply(Move(DRAW_STOCK))
    assert g.phase is Phase.PLAY and g.hand_size(first) == 11
    assert g.discard[-1] == upcard  # the passed upcard is now buried


KNOCKER = "2H 3H 4H 7S 7D 7C 9C 9D 9S 2C KD"
"""Melds 2-3-4H, 7s and 9s; deadwood 2C and KD, so the best ten leave 2."""


def _knock_position(defender: str = "AS 2S 3S 4S 5S 6S 8S 5H TS JS") -> GameState:
    return build("gin", hands=[KNOCKER, defender], current=0)


def test_no_melding_during_play_and_knock_when_within_limit() -> None:
    """DiscardLegalActions: every card is a legal discard, plus knock when the best ten
    of eleven cards leave deadwood <= knock_card; nobody melds during play."""
    legal = _knock_position().legal_moves()
    assert Move(KNOCK) in legal
    assert not any(m.kind == MELD for m in legal)
    assert sum(m.kind == DISCARD for m in legal) == 11


def test_no_knock_above_the_limit() -> None:
    g = build(
        "gin",
        hands=["2H 3H 4H 7S 7D 7C 9C 9D KD QS 5C", "AS 2S 3S 4S 5S 6S 8S 9S TS JS"],
        current=0,
    )
    # melds 2-3-4H and the 7s; the best ten drop KD and leave 9+9+10+5 = 33 > 10
    assert Move(KNOCK) not in g.legal_moves()
    with pytest.raises(IllegalMoveError):
        g.apply(Move(KNOCK))


def _gin_turns(spec: str, seed: int, turns: int) -> list[GameState]:
    """States along a random line of play, each with no legal list cached."""
    import random

    g = new_game(spec, seed=seed)
    rng = random.Random(seed)
    out: list[GameState] = []
    while not g.is_over() and len(out) < turns:
        out.append(g.clone())
        legal = g.legal_actions()
        g.apply_action(legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize(
    "spec", ["gin", "gin(discard_taken_card=false)", "gin(discard_pickup=must_use)", "knock"]
)
def test_action_numbers_without_a_move_list(spec: str) -> None:
    """The play phase and the draw answer ``legal_actions``/``apply_action`` without
    listing the moves: the same numbers, in the same order, as the move list, and
    each action number does to a fresh state what it does with the list built."""
    states = [_knock_position()] if spec == "knock" else _gin_turns(spec, seed=4, turns=30)
    for s in states:
        acts = s.game.actions
        actions = s.clone().legal_actions()
        assert actions == [acts.encode(m) for m in s.clone().legal_moves()]
        assert (acts.knock_action in actions) == (spec == "knock")
        probes = [-1, *range(56), acts.meld_base, acts.pass_action, acts.knock_action, acts.size]
        for a in probes:
            lazy, listed = s.clone(), s.clone()
            listed.legal_moves()
            results = []
            for t in (lazy, listed):
                try:
                    t.apply_action(a)
                    results.append(("ok", snapshot(t)))
                except IllegalMoveError as exc:
                    results.append((exc.rule, snapshot(t)))
            assert results[0] == results[1], a
            assert (results[0][0] == "ok") == (a in actions), a


def test_knock_check_matches_the_best_ten() -> None:
    """``can_knock``, asked every turn, stops early; ``best_ten_deadwood`` is the
    reference, on 10- and 11-card hands around the knock limit."""
    import random

    from rummykit import knock

    g = new_game("gin", seed=2)
    rng = random.Random(2)
    knocks = 0
    for i in range(3000):
        cards = rng.sample(range(52), 10 + i % 2)
        if i % 3 == 0:  # dense hands (four ranks and a few more) reach the limit often
            ranks = rng.sample(range(13), 4)
            pool = [s * 13 + r for s in range(4) for r in ranks]
            cards = rng.sample(pool, 8 + i % 2) + rng.sample(
                [c for c in range(52) if c not in pool], 2
            )
        hand = mask_of(cards)
        want = knock.best_ten_deadwood(g, hand) <= knock_fields(g).knock_limit
        assert knock.can_knock(g, hand) == want
        knocks += want
    assert knocks > 20


def test_knock_discard_then_melds_then_pass() -> None:
    """ApplyKnockAction/KnockLegalActions: the knocker first discards a card that keeps
    the deadwood within the limit, lays melds, and may pass once the cards left count
    no more than the knock card."""
    g = _knock_position()
    g.apply(Move(KNOCK))
    assert g.phase is Phase.KNOCK
    discards = {m.a for m in g.legal_moves() if m.kind == DISCARD}
    assert f("KD") in discards and f("2C") in discards and f("7S") not in discards
    g.apply(Move(DISCARD, f("KD")))
    assert Move(PASS) not in g.legal_moves()
    for text in ("2H 3H 4H", "7C 7D 7S", "9C 9D 9S"):
        g.apply(meld_move(g, text))
    assert Move(PASS) in g.legal_moves()  # 2C left: 2 <= 10
    g.apply(Move(PASS))
    assert g.phase is Phase.LAYOFF and g.current == 1


def _knocked(g: GameState, melds: tuple[str, ...] = ("2H 3H 4H", "7C 7D 7S", "9C 9D 9S")) -> None:
    g.apply(Move(KNOCK))
    g.apply(Move(DISCARD, f("KD")))
    for text in melds:
        g.apply(meld_move(g, text))
    g.apply(Move(PASS))


def test_defender_lays_off_then_melds_and_scoring() -> None:
    """ApplyLayoffAction: the defender lays cards off on the knocker's melds, passes,
    lays melds, passes; Returns: the knocker scores the deadwood difference."""
    g = _knock_position()
    _knocked(g)
    layoffs = [m for m in g.legal_moves() if m.kind == LAYOFF]
    assert len(layoffs) == 1 and g.table[layoffs[0].a].owner == 0  # 5H on 2-3-4H
    g.apply(layoffs[0])
    g.apply(Move(PASS))
    assert all(m.kind in (MELD, PASS) for m in g.legal_moves())
    g.apply(meld_move(g, "AS 2S 3S 4S 5S"))
    g.apply(Move(PASS))
    assert g.is_over()
    k, d = g.results[-1].players
    assert (k.hand_points, d.hand_points) == (2, 6 + 8 + 10 + 10)
    assert g.results[-1].winner == 0 and k.delta == 34 - 2 and d.delta == 0


def test_gin_bonus_and_no_layoff_after_gin() -> None:
    """Returns: gin adds gin_bonus; ApplyKnockAction: 'The opponent is not allowed to
    lay off on gin'."""
    g = build(
        "gin",
        hands=["2H 3H 4H 7S 7D 7C 9C 9D 9S 5H KD", "AS 2S 3S 4S 5S 6S 8S 6H TS JS"],
        current=0,
    )
    _knocked(g, ("2H 3H 4H 5H", "7C 7D 7S", "9C 9D 9S"))
    assert g.phase is Phase.LAYOFF
    assert not any(m.kind == LAYOFF for m in g.legal_moves()), "6H may not go on gin"
    g.apply(Move(PASS))
    assert g.is_over() and g.results[-1].reason is RoundEnd.GIN
    k, d = g.results[-1].players
    assert k.hand_points == 0 and d.hand_points == 55 and k.delta == 55 + 25


def test_undercut() -> None:
    """Returns: 'if (returns[0] < 0) returns[0] -= undercut_bonus_' - the defender
    scores the difference plus 25."""
    g = build(
        "gin",
        hands=["2H 3H 4H 7S 7D 7C 9C 9D 9S 8C KD", "AS 2S 3S QH QD QC KS KC KH 4D"],
        current=0,
    )
    _knocked(g)  # the knocker keeps 8C
    g.apply(Move(PASS))  # nothing to lay off
    for text in ("AS 2S 3S", "QC QD QH", "KC KH KS"):
        g.apply(meld_move(g, text))
    g.apply(Move(PASS))
    k, d = g.results[-1].players
    assert (k.hand_points, d.hand_points) == (8, 4)
    assert g.results[-1].winner == 1 and d.delta == 4 + 25 and k.delta == 0


def test_wall_voids_the_hand() -> None:
    """ApplyDiscardAction: with kWallStockSize (2) cards left the next player may only
    knock (taking the upcard) or pass, and a pass ends the hand with no score."""
    g = build(
        "gin",
        hands=["2H 3H 5H 7S 8D 7C 9C JD 9S 2C KD", "AS 2S 4S 6S 8S 3D TS JS QH KH"],
        stock="4C 5C",
        rest="discard",
        current=0,
    )
    g.apply(Move(DISCARD, f("KD")))
    assert g.phase is Phase.WALL and g.current == 1 and len(g.stock) == 2
    assert g.legal_moves() == [Move(PASS)]  # KD does not bring player 2 within 10
    g.apply(Move(PASS))
    assert g.is_over() and g.results[-1].reason is RoundEnd.WALL and g.scores == [0, 0]


def test_repeated_upcard_voids_the_hand() -> None:
    """ApplyDiscardAction: two players in a row who take the upcard and throw it back
    end the game as a draw (repeated_move_)."""
    g = new_game("gin", seed=4)
    g.apply(Move(PASS))
    g.apply(Move(PASS))
    g.apply(Move(DRAW_STOCK))
    g.apply(g.legal_moves()[0])  # some discard
    for _ in range(2):
        up = g.discard[-1]
        g.apply(Move(DRAW_DISCARD))
        g.apply(Move(DISCARD, up))  # OpenSpiel lets the upcard go straight back
    assert g.is_over() and g.results[-1].reason is RoundEnd.REPEATED and g.scores == [0, 0]


def test_upcard_draw_guard() -> None:
    """kMaxNumDrawUpcardActions: the 50th draw of the upcard ends the game (a draw)."""
    r = Rules.parse("gin(repeat_void=false, max_upcard_draws=3)")
    g = new_game(r, seed=4)
    g.apply(Move(PASS))
    g.apply(Move(PASS))
    g.apply(Move(DRAW_STOCK))
    g.apply(g.legal_moves()[0])
    draws = 0
    while not g.is_over():
        g.apply(Move(DRAW_DISCARD))
        draws += 1
        if g.is_over():
            break
        g.apply(next(m for m in g.legal_moves() if m.kind == DISCARD))
    assert draws == 3 and g.results[-1].reason is RoundEnd.UPCARD_LIMIT


def test_oklahoma_sets_the_knock_limit() -> None:
    """gin_rummy.cc: under Oklahoma 'knock_card_ = utils_.CardValue(action)' for the
    first upcard, and an ace means gin only."""
    for seed in range(40):
        g = new_game("gin(oklahoma=true)", seed=seed)
        rank = g.discard[-1] % 13
        expected = 0 if rank == 0 else min(10, rank + 1)
        assert knock_fields(g).knock_limit == expected


def test_melds_laid_at_most_five_long_but_grow_by_layoffs() -> None:
    """GinRummyUtils::AllMelds: 'melds of length 5 or less' are laid; a 5-card run
    still takes lay-offs (AllLayoffs extends suit melds)."""
    g = build(
        "gin",
        hands=["2D 3D 4D 5D 6D 7D 9C 9H 9S 2C", "8D 5S 6S 7S AS KS QS JC TC 3C"],
        current=0,
        phase=Phase.KNOCK,
    )
    g.knocker = 0
    six = [m for m in g.legal_moves() if m.kind == MELD]
    assert all(len(g.game.melds.shapes[m.a].cells) <= 5 for m in six)


def test_gin_match_bonuses() -> None:
    """gin_match: game bonus 100, line bonus 25 per hand won, shutout doubles
    (Pagat, Gin Rummy: 'Game bonus', 'Line bonus', 'Shutout').  The bonuses are the
    last result's typed part (``bonus``), so the rows add up to the scores."""
    from rummykit.bots import make_bot, play_match

    state, _ = play_match("gin_match", 2, [make_bot("greedy"), make_bot("random")], seed=1)
    res = state.result()
    won = [0, 0]
    raw = [0, 0]
    for r in state.results:
        for p in range(2):
            raw[p] += r.players[p].delta - r.players[p].bonus
        if r.winner is not None and r.players[r.winner].delta - r.players[r.winner].bonus > 0:
            won[r.winner] += 1
    w = res.winners[0]
    expected = [raw[p] + 25 * won[p] for p in range(2)]
    expected[w] += 100
    if won[1 - w] == 0:
        expected[w] *= 2
    assert list(res.scores) == expected
    assert max(raw) >= 100
    last = state.results[-1].players
    assert [sum(r.players[p].delta for r in state.results) for p in range(2)] == expected
    assert [ps.bonus for ps in last] == [expected[p] - raw[p] for p in range(2)]
    assert any(n.startswith("game bonus: +100") for n in last[w].notes)


def test_gin_records_round_trip() -> None:
    from rummykit.bots import make_bot, play_match

    state, _ = play_match("gin_match", 2, [make_bot("greedy"), make_bot("expert")], seed=3)
    again = import_record(export_record(state))
    assert again.scores == state.scores and again.history == state.history


def test_hand_masks_are_one_deck() -> None:
    g = new_game("gin", seed=1)
    assert mask_of(g.stock) & g.hands[0] == 0


def test_tied_match_has_no_game_winner() -> None:
    """Issue #15, finding 7: in ``gin_match(deals=2)``, seed 1, random play voids both
    hands ('repeated', then 'wall').  The match is a 0-0 tie: nobody gets the game bonus
    (Pagat: it goes to the player who wins the game) and there is no shutout to double;
    both seats share first place."""
    import random

    g = new_game("gin_match(deals=2)", seed=1)
    rng = random.Random(1)
    while not g.is_over():
        g.apply(rng.choice(g.legal_moves()))
    assert [r.reason for r in g.results] == [RoundEnd.REPEATED, RoundEnd.WALL]
    assert g.scores == [0, 0]
    assert g.result().winners == (0, 1)
    assert g.events[-1] == Bonus(-1, (0, 0))


def test_layoffs_chain_along_a_run_past_openspiel() -> None:
    """Issue #15: after the knocker lays 9D TD JD, the defender lays off 8D, then 7D,
    and may then lay off 6D too.  Standard Gin lets a lay-off extend a run that earlier
    lay-offs extended (Pagat, Gin Rummy: the opponent "can lay off cards which extend
    the knocker's runs"); OpenSpiel's ``gin_rummy`` extends only from the run's original
    two ends and would refuse 6D (docs/rules.md, "Differences from OpenSpiel")."""
    g = build(
        "gin",
        hands=["9D TD JD 7S 7H 7C 2C 3C 4C AH KS", "8D 7D 6D 5S 8S JS QS KH 3H 5H"],
        current=0,
    )
    g.apply(Move(KNOCK))
    g.apply(Move(DISCARD, f("KS")))
    for text in ("9D TD JD", "7C 7H 7S", "2C 3C 4C"):
        g.apply(meld_move(g, text))
    g.apply(Move(PASS))
    assert g.phase is Phase.LAYOFF and g.current == 1
    run = next(i for i, tm in enumerate(g.table) if f("9D") in tm.cards)
    for face in ("8D", "7D", "6D"):
        layoffs = [m for m in g.legal_moves() if m.kind == LAYOFF and m.a == run]
        assert len(layoffs) == 1, f"{face} should extend the run"
        before = set(g.table[run].cards)
        g.apply(layoffs[0])
        assert set(g.table[run].cards) - before == {f(face)}
    assert sorted(g.table[run].cards) == sorted(parse_cards("6D 7D 8D 9D TD JD"))


def test_the_turn_limit_at_the_wall_ends_the_round_not_in_the_wall_phase() -> None:
    """A discard that reaches the wall on the last turn ``max_turns`` allows ends the
    round by the turn limit (here the match, after its second deal): never a wall
    phase with nobody to act.  (Found by the loaders' property test, seed 5170365.)"""
    r = random.Random(5170365)
    r.randint(2, 2)  # the property test's draw of the player count
    g = new_game("gin_match(deals=2, max_turns=40)", seed=5170365)
    while not g.is_over():
        legal = g.legal_moves()
        r.random()
        active = [m for m in legal if m.kind >= MELD]
        if active and r.random() < 0.7:
            g.apply(r.choice(active))
            continue
        discards = [m for m in legal if m.kind == DISCARD]
        g.apply(r.choice(discards if discards and r.random() < 0.5 else legal))
    assert g.phase is Phase.OVER and g.current == -1
    assert g.results[-1].reason == "turn_limit" and len(g.stock) <= g.rules.wall
