"""Contract Rummy / Shanghai (preset ``contract``), rule by rule.

The references are Bicycle Cards, "Contract Rummy"
(https://bicyclecards.com/how-to-play/contract-rummy), quoted as BC below, and
Wikipedia, "Contract rummy" (https://en.wikipedia.org/wiki/Contract_rummy), quoted as
WP; docs/rules.md lists every option against them.
"""

from __future__ import annotations

import random

import pytest

from helpers import build, conserved, layoff_move, meld_move, swap_move
from rummykit import IllegalMoveError, Rules, RulesError, new_game
from rummykit.bots import make_bot, play_match
from rummykit.moves import BUY, DISCARD, DRAW_DISCARD, DRAW_STOCK, PASS, SWAP, Move
from rummykit.notation import export_record, import_record
from rummykit.position import position_from_text, position_to_text
from rummykit.rules import ContractMeld, contracts_text, parse_contracts
from rummykit.serialize import state_from_json, state_to_json
from rummykit.state import Phase
from rummykit.variants import Contract, variant_for
from rummykit.variants.contract import buying

C = "contract"


def test_players_pack_and_values() -> None:
    """BC: "For three or four players, a double pack with one joker is used"; "Ace,
    joker, and other wild cards, if any, count as 15 points; each face card counts 10".
    Our two decks carry one joker each (two jokers: BC's double pack has one); five or
    more players, for whom BC uses a triple pack, play ``contract_big``
    (tests/variants/test_rules_three_decks.py)."""
    r = Rules.preset(C)
    assert (r.decks, r.jokers, r.min_players, r.max_players) == (2, 1, 3, 4)
    assert (r.ace_points, r.joker_points, r.ace.value) == (15, 15, "high_or_low")
    assert r.scoring.value == "penalty"
    with pytest.raises(RulesError, match="3 to 4 players"):
        new_game(C, 5)
    assert isinstance(new_game(C, 3).game.variant, Contract)
    assert variant_for(Rules.preset("basic")).name == "rummy"


def test_seven_deals_with_their_sizes() -> None:
    """BC: "Each game consists of seven deals"; "In each of the first four deals, each
    player receives 10 cards. In each of the last three deals, each player receives 12
    cards"."""
    g = new_game(C, 4, seed=3)
    sizes = []
    while not g.is_over():
        sizes.append(g.hand_size((g.dealer + 1) % 4) if g.turn == 1 else None)
        round_no = g.round_no
        while g.round_no == round_no and not g.is_over():
            g.apply(random.Random(g.turn).choice(g.legal_moves()))
    assert [s for s in sizes if s is not None] == [10, 10, 10, 10, 12, 12, 12]
    assert len(g.results) == 7


def test_the_seven_contracts() -> None:
    """WP (deals 1 to 7): two sets; one set and one run; two runs; three sets; two sets
    and one run; one set and two runs; three runs.  A set is three or more cards of a
    rank, a run four or more of a suit."""
    r = Rules.preset(C)
    assert r.contract_list() == ((2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3))
    assert r.min_run == 4 and r.set_suits.value == "any"
    g = new_game(C, 3)
    t = g.game.melds
    assert min(len(sh.cells) for sh in t.shapes if sh.kind == 0) == 4  # runs
    assert min(len(sh.cells) for sh in t.shapes if sh.kind == 1) == 3  # sets


def test_going_down_needs_the_whole_contract_in_one_turn() -> None:
    """Deal 1, two sets.  A player may meld only toward the contract and, once begun,
    must finish it before discarding; a run is not part of "two sets"."""
    g = build(C, hands=["7C 7D 7H 9S 9H 9D 2C 3C 4C 5C KD", "2H 3H 4S", "5S 6S 8D"])
    legal = g.legal_moves()
    assert meld_move(g, "7C 7D 7H") in legal
    assert meld_move(g, "2C 3C 4C 5C") not in legal  # a run: not this deal's contract
    with pytest.raises(IllegalMoveError) as e:
        g.apply(meld_move(g, "2C 3C 4C 5C"))
    assert e.value.rule == "contract"
    g.apply(meld_move(g, "7C 7D 7H"))
    assert not g.opened[0]
    assert not any(m.kind == DISCARD for m in g.legal_moves())  # half a contract
    with pytest.raises(IllegalMoveError) as e:
        g.apply(Move(DISCARD, 52 - 52 + 51))  # KD
    assert e.value.rule == "contract"
    g.apply(meld_move(g, "9S 9H 9D"))
    assert g.opened[0]  # down
    assert not any(m.kind == 3 for m in g.legal_moves())  # no new melds after going down


def test_a_first_meld_that_cannot_complete_the_contract_is_illegal() -> None:
    """Going down is one turn's work: a set is legal only if the second set can follow."""
    g = build(C, hands=["7C 7D 7H 9S 2C 3C 4C 5C KD QH JS", "2H 3H 4S", "5S 6S 8D"])
    assert meld_move(g, "7C 7D 7H") not in g.legal_moves()
    with pytest.raises(IllegalMoveError) as e:
        g.apply(meld_move(g, "7C 7D 7H"))
    assert e.value.rule == "contract"


def test_runs_that_join_end_to_end_are_not_both_part_of_going_down() -> None:
    """WP (as mirrored on suzywong.biz, "May I" card game): "When putting down runs,
    consecutive runs in the same suit (such as 6-7-8-9 and 10-J-Q-K) cannot be put
    down by the same player in the initial meld."  Deal 3, two runs.  Legal-move
    generation, the finish check and move validation agree; runs of one suit that do
    not join, and the same run twice (two decks), stay allowed; J-Q-K-A and 2-3-4-5
    do not join (no run turns the corner)."""
    spec = f"{C}(contracts=ss/sr/rr)"
    others = ["2S 3S 4S", "5S 6S 8D"]
    # the eight hearts make two runs only as 6-9 and 10-K: no going down at all
    g = build(spec, round_no=3, hands=["6H 7H 8H 9H TH JH QH KH 2C 5D", *others])
    assert not any(m.kind == 3 for m in g.legal_moves())
    with pytest.raises(IllegalMoveError) as e:
        g.apply(meld_move(g, "6H 7H 8H 9H"))
    assert e.value.rule != "contract_joined_runs"  # the first run: it cannot be completed
    # with another run at hand, the joined one is refused by name
    g = build(spec, round_no=3, hands=["6H 7H 8H 9H TH JH QH KH 6S 7S 8S 9S 5D", *others])
    g.apply(meld_move(g, "6H 7H 8H 9H"))
    legal = g.legal_moves()
    assert meld_move(g, "TH JH QH KH") not in legal
    assert meld_move(g, "6S 7S 8S 9S") in legal
    with pytest.raises(IllegalMoveError) as e:
        g.apply(meld_move(g, "TH JH QH KH"))
    assert e.value.rule == "contract_joined_runs"
    assert len(g.table) == 1 and not g.opened[0]  # unchanged by the refusal
    # the same the other way round: a run below the first one
    g = build(spec, round_no=3, hands=["6H 7H 8H 9H TH JH QH KH 6S 7S 8S 9S 5D", *others])
    g.apply(meld_move(g, "TH JH QH KH"))
    assert meld_move(g, "6H 7H 8H 9H") not in g.legal_moves()
    # not joined: a gap, the same run twice, and an ace high then low
    for hand, first, second in (
        ("2H 3H 4H 5H 7H 8H 9H TH KC 5D", "2H 3H 4H 5H", "7H 8H 9H TH"),
        ("6H 7H 8H 9H 6H 7H 8H 9H KC 5D", "6H 7H 8H 9H", "6H 7H 8H 9H"),
        ("JH QH KH AH 2H 3H 4H 5H KC 5D", "JH QH KH AH", "2H 3H 4H 5H"),
    ):
        g = build(spec, round_no=3, hands=[hand, *others])
        g.apply(meld_move(g, first))
        assert meld_move(g, second) in g.legal_moves(), hand
        g.apply(meld_move(g, second))
        assert g.opened[0]
    # A-2-3-4 and 5-6-7-8 join (the ace low)
    g = build(spec, round_no=3, hands=["AH 2H 3H 4H 5H 6H 7H 8H KC 5D", *others])
    assert not any(m.kind == 3 for m in g.legal_moves())


def test_lay_offs_only_after_going_down() -> None:
    """WP mirror of the going-down rule: "Once a player has gone down ... he may not
    create any new sets or runs"; cards may be added to one's own and other players'
    melds "in the same turn that the initial meld is laid down or in later turns"."""
    table = [(1, "8S 8H 8D"), (1, "KC KH KS")]
    g = build(
        C, hands=["8C 4D 5D", "2H 3H 4S", "5S 6S 9D"], table=table, opened=[False, True, False]
    )
    assert not any(m.kind == 4 for m in g.legal_moves())
    with pytest.raises(IllegalMoveError) as e:
        g.apply(layoff_move(g, 0, "8C"))
    assert e.value.rule == "contract_before_layoff"
    h = build(
        C, hands=["8C 4D 5D", "2H 3H 4S", "5S 6S 9D"], table=table, opened=[True, True, False]
    )
    assert layoff_move(h, 0, "8C") in h.legal_moves()


def test_joker_to_end_option() -> None:
    """Parlett (*The Penguin Book of Card Games*, Contract Rummy): a player who has gone
    down may replace a joker inside a run with the natural card it stands for, the
    joker moving to an end of the run.  ``joker_to_end`` (off in ``contract``: BC and WP
    do not have it); the move is written as a swap naming the card.  The joker goes to
    the high end, or to the low end when the run reaches the top."""
    spec = f"{C}(jokers=2, joker_to_end=true)"  # three jokers on the table below
    table = [(1, "5H 6H JK=7H 8H"), (1, "JS QS JK=KS AS"), (1, "5D 6D 7D JK=8D")]
    down = {"opened": [True, True, False]}
    g = build(spec, hands=["7H KS 8D 2C", "2H 3H 4S", "5S 6S 9D"], table=table, **down)
    swaps = {m for m in g.legal_moves() if m.kind == SWAP}
    assert swaps == {swap_move(0, "7H"), swap_move(1, "KS")}  # 8D: that joker is at an end
    g.apply(swap_move(0, "7H"))
    assert g.game.melds.describe(g.table[0].shape) == "5H 6H 7H 8H JK=9H"
    assert conserved(g)
    g.apply(swap_move(1, "KS"))
    assert g.game.melds.describe(g.table[1].shape) == "JK=TS JS QS KS AS"
    with pytest.raises(IllegalMoveError) as e:
        g.apply(swap_move(2, "8D"))
    assert e.value.rule == "joker_to_end"
    # not down yet: no such move; and without the option (the preset) none at all
    up = build(spec, hands=["7H KS 8D 2C", "2H 3H 4S", "5S 6S 9D"], table=table,
               opened=[False, True, False])  # fmt: skip
    assert not any(m.kind == SWAP for m in up.legal_moves())
    plain = build(
        f"{C}(jokers=2)", hands=["7H KS 8D 2C", "2H 3H 4S", "5S 6S 9D"], table=table, **down
    )
    assert not any(m.kind == SWAP for m in plain.legal_moves())
    with pytest.raises(RulesError, match="joker_to_end"):
        Rules.parse("basic(joker_to_end=true)")  # no jokers: it would change nothing


def test_layoff_wait_house_rule() -> None:
    """``layoff_wait``: a player who went down this turn lays off from the next turn."""
    hands = ["7C 7D 7H 9S 9H 9D 7S 4D 5D", "2H 3H 4S", "5S 6S 8D"]
    g = build(C, hands=hands)
    g.apply(meld_move(g, "7C 7D 7H"))
    g.apply(meld_move(g, "9S 9H 9D"))
    assert any(m.kind == 4 for m in g.legal_moves())  # the 7S, the same turn
    w = build(f"{C}(layoff_wait=true)", hands=hands)
    w.apply(meld_move(w, "7C 7D 7H"))
    w.apply(meld_move(w, "9S 9H 9D"))
    assert not any(m.kind == 4 for m in w.legal_moves())


def _to_buy_window(seed: int = 1) -> tuple[object, int]:
    g = new_game(C, 4, seed=seed)
    p = g.current
    g.apply(Move(DRAW_STOCK))
    return g, p


def test_buying_out_of_turn() -> None:
    """WP: "If the next player chooses not to take the upcard, any other player may
    claim it ... The first player to call for the card takes it, as well as a penalty
    card from the deck."  The offer goes round in turn order as a phase of its own, in
    which the player offered the card is ``current``; then the player in turn goes on."""
    g = new_game(C, 4, seed=1)
    p = g.current
    top = g.discard[-1]
    before = [g.hand_size(i) for i in range(4)]
    g.apply(Move(DRAW_STOCK))
    assert g.phase is Phase.BUY and buying(g).buy_turn == p
    q = g.current
    assert q == (p + 1) % 4  # the first turn: the dealer did not discard the upcard
    assert g.legal_moves() == [Move(BUY), Move(PASS)]
    v = g.view(q)
    assert v.my_turn and v.legal == (Move(BUY), Move(PASS)) and buying(v).buy_turn == p
    assert g.view(p).legal == ()
    g.apply(Move(PASS))
    r = g.current
    assert r == (p + 2) % 4 and g.phase is Phase.BUY
    g.apply(Move(BUY))
    assert g.hand_size(r) == before[r] + 2  # the discard and one penalty card
    assert g.hands[r] >> top & 1 and g.known[r] >> top & 1
    assert (
        buying(g).buys[r] == 1
        and g.current == p
        and g.phase is Phase.PLAY
        and buying(g).buy_turn == -1
    )
    assert g.hand_size(p) == before[p] + 1


def test_the_discarder_is_not_offered_and_the_limit_holds() -> None:
    """The player who threw the card is not offered it back; each player buys at most
    ``buys_per_round`` times a deal (3: this project's choice, an option)."""
    g = new_game(f"{C}(buys_per_round=1)", 3, seed=2)
    while g.turn < 2 or g.phase is not Phase.DRAW:
        legal = g.legal_moves()
        g.apply(Move(DISCARD, legal[-1].a) if legal[-1].kind == DISCARD else legal[0])
    p = g.current
    g.apply(Move(DRAW_STOCK))
    assert g.phase is Phase.BUY and g.current == (p + 1) % 3  # not (p - 1), the discarder
    g.apply(Move(BUY))
    assert buying(g).buys[(p + 1) % 3] == 1
    # later offers skip the player who has used the one buy
    for _ in range(40):
        if g.phase is Phase.BUY:
            assert buying(g).buys[g.current] == 0
        legal = g.legal_moves()
        choice = next((m for m in legal if m.kind == DISCARD), legal[-1])
        if g.phase is Phase.DRAW:
            choice = Move(DRAW_STOCK)
        g.apply(choice)


def test_no_buying_when_off() -> None:
    """``buys_per_round=0``: a stock draw opens no window, and no buy action exists."""
    g = new_game(f"{C}(buys_per_round=0)", 3, seed=1)
    g.apply(Move(DRAW_STOCK))
    assert g.phase is Phase.PLAY
    assert g.game.actions.buy_action == -1
    a = new_game(C, 3).game.actions
    assert a.buy_action == a.size - 1 == a.deep_base  # after every other action
    assert g.game.actions.size == a.size - 1


def test_buy_out_of_its_window_names_the_rule() -> None:
    g = new_game(C, 3, seed=1)
    with pytest.raises(IllegalMoveError) as e:
        g.apply(Move(BUY))
    assert e.value.rule == "buy_when_offered"
    g.apply(Move(DRAW_STOCK))
    with pytest.raises(IllegalMoveError) as e:
        g.apply(Move(DRAW_DISCARD))
    assert e.value.rule == "buy_or_pass"


def test_saves_positions_and_records_round_trip() -> None:
    """A save, a position and a game record keep the buy window and the buys."""
    g, _p = _to_buy_window()
    for text in (state_to_json(g),):
        h = state_from_json(text)
        assert (h.phase, h.current, h.family) == (g.phase, g.current, g.family)
        assert buying(h).buy_turn >= 0
        assert h.legal_moves() == g.legal_moves()
    pos = position_to_text(g)
    assert " inturn=" in pos
    assert position_to_text(position_from_text(pos)) == pos
    g.apply(Move(BUY))
    assert position_to_text(position_from_text(position_to_text(g))) == position_to_text(g)
    state, _stats = play_match(f"{C}(deals=2)", 3, [make_bot("random") for _ in range(3)], 4)
    record = export_record(state)
    again = import_record(record)
    assert again.history == state.history and again.scores == state.scores


@pytest.mark.parametrize("bot", ["random", "greedy", "expert"])
def test_bots_play_legal_deals(bot: str) -> None:
    """Every bot plays the first two deals of a match to the end (play_match applies
    each move through ``apply``, which refuses an illegal one)."""
    state, stats = play_match(f"{C}(deals=2)", 3, [make_bot(bot) for _ in range(3)], 7)
    assert state.is_over() and stats.rounds == 2


def test_penalty_scoring_lowest_wins() -> None:
    """BC/WP: the player who goes out scores nothing, the others the cards they hold;
    the lowest total after the seven deals wins."""
    state, _stats = play_match(C, 3, [make_bot("random") for _ in range(3)], 11)
    res = state.result()
    assert res.rounds == 7
    assert min(res.scores) == res.scores[res.winners[0]]
    for r in state.results:
        if r.winner is not None and r.went_out:
            assert r.players[r.winner].delta == 0


def test_last_deal_no_discard_house_rule() -> None:
    """``last_deal_no_discard`` (the house rule "three runs, no discard", e.g.
    best-family-games.com's round 7): in the last deal nobody goes out by discarding,
    so a lay-off that would leave one card to throw is refused; laying off every card
    still goes out."""
    spec = f"{C}(contracts=ss, last_deal_no_discard=true)"
    table = [(1, "7H 7D 7S"), (1, "KC KH KS")]
    g = build(
        spec, hands=["7C 4D", "2H 3H 4S", "5S 6S 8D"], table=table, opened=[True, True, False]
    )
    legal = g.legal_moves()
    assert layoff_move(g, 0, "7C") not in legal  # 4D would be left to discard: out
    assert {m.kind for m in legal} == {DISCARD}
    h = build(
        spec, hands=["7C KD", "2H 3H 4S", "5S 6S 8D"], table=table, opened=[True, True, False]
    )
    h.apply(layoff_move(h, 0, "7C"))
    h.apply(layoff_move(h, 1, "KD"))
    assert h.results and h.results[-1].winner == 0  # out by lay-offs
    k = build(
        f"{C}(contracts=ss)",
        hands=["7C 4D", "2H 3H 4S", "5S 6S 8D"],
        table=table,
        opened=[True, True, False],
    )
    assert layoff_move(k, 0, "7C") in k.legal_moves()  # without the rule


def test_the_rules_summary_tells_the_contracts_and_buying() -> None:
    """The rules panel (terminal and web) states what BC and WP say a player must know:
    the deal sizes, runs of four, each deal's contract, going down with all of it, and
    buying with a penalty card; in French too."""
    from rummykit.i18n import rules_summary as summary_in
    from rummykit.rulebook import rules_summary

    en = " ".join(rules_summary(Rules.preset(C)))
    for text in (
        "10, 10, 10, 10, 12, 12 and 12 cards each in deals 1 to 7",
        "runs of 4+ cards",
        "deal 1, two sets",
        "deal 2, a set and a run",
        "deal 7, three runs",
        "only with the whole contract, in one turn",
        "buy the top discard, taking 1 penalty card",
        "3 buys a deal each",
    ):
        assert text in en, text
    fr = " ".join(summary_in(Rules.preset(C), "fr"))
    assert "donne 7, trois suites" in fr and "acheter la carte du dessus" in fr
    house = " ".join(rules_summary(Rules.parse(f"{C}(last_deal_no_discard=true)")))
    assert "In the last deal nobody goes out by discarding." in house


def test_the_contracts_are_parsed_once_into_sets_and_runs() -> None:
    """``contracts`` stays text in a spec (``ss/sr/rr``); the rules read it as a tuple
    of contracts, each a tuple of SET and RUN, and count from that."""
    r = Rules.preset("contract")
    S, R = ContractMeld.SET, ContractMeld.RUN
    assert r.contract_plan == ((S, S), (S, R), (R, R), (S, S, S), (S, S, R), (S, R, R), (R, R, R))
    assert r.contract_plan is parse_contracts(r.contracts)  # parsed once per text
    assert contracts_text(r.contract_plan) == r.contracts == "ss/sr/rr/sss/ssr/srr/rrr"
    assert r.contract_list() == tuple((c.count(S), c.count(R)) for c in r.contract_plan)
    assert Rules.preset("basic").contract_plan == ()


@pytest.mark.parametrize("spec", ["contract(contracts=rs/sr)", "contract(contracts=ssss/r/rrrr)"])
def test_a_contract_spec_reads_and_writes_the_same_text(spec: str) -> None:
    rules = Rules.parse(spec)
    assert f"contracts={rules.contracts}" in rules.spec() and rules.contracts in spec
    assert Rules.parse(rules.spec(), saved=True) == rules
    assert contracts_text(rules.contract_plan) == rules.contracts


@pytest.mark.parametrize("text", ["ssx", "sssss", "s//r", "/".join(["s"] * 21)])
def test_a_malformed_contract_is_refused(text: str) -> None:
    with pytest.raises(RulesError, match="contracts must be words of s"):
        parse_contracts(text)
    with pytest.raises(RulesError, match="contracts must be words of s"):
        Rules.parse(f"contract(contracts={text})")
