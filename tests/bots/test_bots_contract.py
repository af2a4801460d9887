"""The heuristic bots' Contract Rummy play (bots/contract.py).

The rules as docs/rules.md cites them from Bicycle Cards, "Contract Rummy" (BC) and
Wikipedia, "Contract rummy" (WP): each deal has its contract (WP: two sets; one set and
one run; two runs; ...), a set is three or more cards of a rank and a run four or more
in a suit (WP), "Aces are high or low" (BC), jokers are wild (BC, WP), and a player
goes down only with the deal's contract: "Once a player has gone down ... he may not
create any new sets or runs" (WP), only add cards to melds on the table.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import build
from rummykit.bots import ExpertBot, GreedyBot, make_bot, play_match
from rummykit.bots.contract import contract_move, discard_keys, down_cost, shortfall
from rummykit.bots.ismcts import estimate
from rummykit.cards import bits, deck, mask_of, parse_cards
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, Move
from rummykit.results import RoundEnd
from rummykit.rules import Rules
from rummykit.scoring import card_value
from rummykit.state import GameState, Phase, new_game
from rummykit.variants.contract import _complete

C = "contract"
RULES = Rules.preset(C)


def hand(text: str) -> int:
    return mask_of(parse_cards(text))


def test_shortfall_counts_groups_of_three_and_sequences_of_four() -> None:
    """WP: a set is three of a rank, a run four in a suit; so "two sets" from
    7 7 7 9 9 lacks one card, and "two runs" from 4-5-6-7♥ and 7♠ 9♠ lacks two."""
    h = hand("7H 7S 7C 9D 9S 4H 5H 6H KC 2D")
    assert shortfall(RULES, h, 2, 0).short == 1
    assert shortfall(RULES, h, 0, 2).short == 2
    assert shortfall(RULES, h, 1, 1).short == 1  # 7s, and 4-5-6♥ wants 3♥ (7♥ is in the set)
    need = shortfall(RULES, h, 2, 0)
    assert need.outs >> parse_cards("9H")[0] & 1  # any third 9 completes it
    assert not need.outs >> parse_cards("KH")[0] & 1


def test_aces_are_high_or_low_but_never_wrap() -> None:
    """BC: "Aces are high or low"; a run does not go round the corner (K-A-2), as the
    engine's meld table has it."""
    assert shortfall(RULES, hand("JS QS KS AS"), 0, 1).short == 0
    assert shortfall(RULES, hand("AS 2S 3S 4S"), 0, 1).short == 0
    assert shortfall(RULES, hand("QS KS AS 2S"), 0, 1).short == 1


def test_jokers_fill_gaps_but_never_a_whole_meld() -> None:
    """Jokers are wild, at most ``jokers_per_meld`` (2) a meld, and a meld keeps a
    natural card (the engine's meld table)."""
    assert shortfall(RULES, hand("7H 7S JK"), 1, 0).short == 0
    assert shortfall(RULES, hand("7H JK JK"), 1, 0).short == 0
    assert shortfall(RULES, hand("5H JK JK"), 0, 1).short == 1  # two jokers at most
    assert shortfall(RULES, hand("JK JK"), 1, 0).short == 1
    need = shortfall(RULES, hand("7H 7S 9C"), 1, 0)
    assert need.short == 1 and need.outs >> 52 & 1  # a joker would do


def _exact(h: int, sets: int, runs: int) -> bool:
    game = new_game(C, 3).game
    return _complete(game.melds, (False, False, -1), h, sets, runs, (), {})


CONTRACTS = sorted(set(RULES.contract_list()))
CARDS = deck(RULES.decks, RULES.jokers)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(CARDS), min_size=6, max_size=14, unique=True),
    st.sampled_from(CONTRACTS),
)
def test_no_shortfall_exactly_when_the_engine_can_lay_the_contract(
    cards: list[int], contract: tuple[int, int]
) -> None:
    """The bots' search agrees with the engine's exact check (the one that decides
    whether a contract meld is legal) on whether a hand holds the whole contract."""
    sets, runs = contract
    h = mask_of(cards)
    assert (shortfall(RULES, h, sets, runs).short == 0) == _exact(h, sets, runs)


def test_drawing_an_out_shortens_the_contract() -> None:
    """An out is a face whose draw would lower the shortfall.  The search keeps only
    the few most promising melds at each step (``BRANCH``), so now and then a drawn
    out changes which plan it finds: over random hands of ten or twelve cards, the
    outs must do what they promise at least nine times in ten."""
    rng = random.Random(5)
    kept = tried = 0
    for _ in range(200):
        h = mask_of(rng.sample(CARDS, rng.choice((10, 12))))
        sets, runs = rng.choice(CONTRACTS)
        need = shortfall(RULES, h, sets, runs)
        for face in range(53):
            card = next((c for c in CARDS if c % 54 == face and not h >> c & 1), None)
            if need.outs >> face & 1 and card is not None:
                tried += 1
                kept += shortfall(RULES, h | 1 << card, sets, runs).short < need.short
    assert tried > 1000 and kept >= 0.9 * tried, (kept, tried)


def _runs_deal(down: bool = False) -> GameState:
    """Deal 3 (WP: "two runs"), the player to act holding a sequence's start
    and a pair of kings, after drawing; ``down``: as if already down."""
    g = build(
        C,
        hands=[
            "4H 5H 6H 9S TS JS KC KD 2C 8D 3S",
            "2H 3H 4S 5S 6S 7S 8S 9C TC JC",
            "2D 3D 4D 5D 6D 7D 8C 9D TD JD",
        ],
        stock="QH QS QD QC AH AD AC AS 3C 4C",
        discard="7C",
        round_no=3,
        phase=Phase.PLAY,
        opened=[down, False, False],
    )
    assert g.round_no == 3 and g.opened[0] is down
    return g


def test_a_deal_of_runs_throws_the_pair_not_the_sequence() -> None:
    """In a deal of two runs a pair is dead weight: both bots throw a king (or
    the loose low cards), never a card of 4-5-6♥ or 9-10-J♠."""
    g = _runs_deal()
    view = g.view(0)
    keep = {c % 54 for c in parse_cards("4H 5H 6H 9S TS JS")}
    for bot in (GreedyBot(), ExpertBot()):
        m = bot.choose(view, random.Random(1))
        assert m.kind == DISCARD and m.a not in keep, (bot.name, m)


def test_after_going_down_the_costliest_dead_card_goes() -> None:
    """Down, a card leaves only by a lay-off or the discard (WP: no new sets or runs
    once down), so the expert keeps cards next to the table's melds and throws the
    costliest other one."""
    view = _runs_deal(down=True).view(0)
    assert view.down
    discards = [m for m in view.legal if m.kind == DISCARD]
    best = min(discard_keys(view, discards, True), key=lambda km: km[0])[1]
    assert best.a in {parse_cards(t)[0] % 54 for t in ("KC", "KD")}


def test_the_upcard_is_taken_when_it_shortens_the_contract() -> None:
    """Greedy takes the discard only when it brings the contract closer."""
    g = build(
        C,
        hands=[
            "4H 5H 6H 9S TS JS KC KD 2C 8D",
            "2H 3H 4S 5S 6S 7S 8S 9C TC JC",
            "2D 3D 4D 5D 6D 7D 8C 9D TD JD",
        ],
        stock="QH QS QD QC AH AD AC AS 3C 4C",
        discard="7H",
        round_no=3,
        phase=Phase.DRAW,
    )
    view = g.view(0)
    assert contract_move(view, careful=False) == Move(DRAW_DISCARD)
    assert contract_move(view, careful=True) == Move(DRAW_DISCARD)
    g2 = build(
        C,
        hands=[
            "4H 5H 6H 9S TS JS KC KD 2C 8D",
            "2H 3H 4S 5S 6S 7S 8S 9C TC JC",
            "2D 3D 4D 5D 6D 7D 8C 9D TD JD",
        ],
        stock="QH QS QD QC AH AD AC AS 3C 4C",
        discard="KH",
        round_no=3,
        phase=Phase.DRAW,
    )
    assert contract_move(g2.view(0), careful=False) == Move(DRAW_STOCK)


def test_bots_finish_every_deal_of_a_match() -> None:
    """Deadwood play stalled: in seed 0's third deal (two runs) three greedy
    bots kept their pairs until the 1,000-turn limit.  Playing to the contract,
    every deal of these matches ends with a player out."""
    for name in ("greedy", "expert"):
        for seed in (0, 1):
            n = 3 + seed
            state, _ = play_match(C, n, [make_bot(name) for _ in range(n)], seed)
            assert [r.reason for r in state.results] == [RoundEnd.OUT] * 7, (name, seed)


def test_the_deadwood_expert_is_kept_for_comparison() -> None:
    """``ExpertBot(contract_aware=False)`` plays Contract Rummy by deadwood (the
    baseline of benchmarks/contract_play.py) and its moves are legal."""
    bots = [ExpertBot(contract_aware=False), ExpertBot(), GreedyBot()]
    state, stats = play_match(f"{C}(deals=2)", 3, bots, 3)
    assert state.is_over() and stats.rounds == 2


def test_a_down_hand_is_estimated_by_what_it_can_lay_off() -> None:
    """The search cuts a deal off and scores each hand as if it ended: a hand that is
    down pays for every card but those it can lay off (WP: once down, no new sets or
    runs, only cards added to the table's melds).  Here the table holds a set of 7s and
    4-5-6-7♦ (deal 2: a set and a run): 3♦ and 8♦ go on the run's ends and 9♦ after 8♦,
    7♥ on the set, the joker anywhere; the pair of kings would be a new meld and counts,
    as does the 2♣."""
    g = build(
        C,
        hands=["3D 8D 9D 7H KS KC 2C JK", "2H 3H 4S 5S 6S 7S 8S 9C TC JC", "5C 6C QD QH"],
        table=[(0, "7H 7S 7C"), (0, "4D 5D 6D 7D")],
        opened=[True, False, False],
        round_no=2,
    )
    assert g.opened[0]
    kings_and_two = 10 + 10 + 2  # BC: "each face card counts 10; each other card its pip value"
    assert down_cost(RULES, g.game.melds, g.table, g.hands[0]) == kings_and_two
    # the search's estimate: the down hand so, the others (not down) their whole hand
    dead = estimate(g, g.game.solver)
    assert dead[0] == kings_and_two
    assert dead[1] == sum(card_value(RULES, c) for c in bits(g.hands[1]))


def test_a_run_end_chain_stays_in_its_suit() -> None:
    """A table run grows a card at a time from its ends (WP: cards added to the table's
    melds), and aces are high or low (BC) but a run does not turn the corner: the ace
    laid above 10-J-Q-K♣ ends that run (2♣ still counts), and the ace laid below
    2-3-4-5♦ opens nothing below it (K♣, the suit before's king, still counts)."""
    g = build(
        C,
        hands=["AC 2C AD KC 9H", "2H 3H 4S 5S 6S 7S 8S 9C TH JH", "5C 6C QD QH"],
        table=[(0, "TC JC QC KC"), (0, "2D 3D 4D 5D")],
        opened=[True, False, False],
        round_no=3,
    )
    assert down_cost(RULES, g.game.melds, g.table, g.hands[0]) == 2 + 10 + 9
