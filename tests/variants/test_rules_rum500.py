"""500 Rum (presets ``rum500`` and ``rum500_big``), rule by rule.

The reference is HowStuffWorks, "How to Play 500 Rum"
(https://entertainment.howstuffworks.com/how-to-play-500-rum.htm), quoted as HSW below;
docs/rules.md lists every option against it.
"""

from __future__ import annotations

import random

import pytest

from helpers import build, faces, hand_faces, layoff_move, meld_move
from rummykit import IllegalMoveError, Rules, new_game
from rummykit.bots import make_bot, play_match
from rummykit.moves import DISCARD, DRAW_DEEP, DRAW_DISCARD, DRAW_STOCK, Move
from rummykit.notation import export_record, import_record, move_to_text, parse_move
from rummykit.results import RoundEnd
from rummykit.serialize import state_from_json, state_to_json
from rummykit.state import Phase, round_start_of
from rummykit.variants import Rum500, variant_for

RUM = "rum500"


def test_players_decks_and_deal() -> None:
    """HSW: "Number of players: Two to eight"; "For two to four players, a standard
    52-card deck. For five or more players, use two standard 52-card decks"; "For two
    players, deal ten cards each; for more players, deal seven cards each"."""
    r, big = Rules.preset("rum500"), Rules.preset("rum500_big")
    assert (r.min_players, r.max_players, r.decks, r.jokers) == (2, 4, 1, 0)
    assert (big.min_players, big.max_players, big.decks, big.jokers) == (5, 8, 2, 0)
    assert [new_game(RUM, n, seed=1).hand_size(0) for n in (2, 3, 4)] == [10, 7, 7]
    assert [new_game("rum500_big", n, seed=1).hand_size(0) for n in (5, 8)] == [7, 7]
    with pytest.raises(Exception, match="2 to 4 players"):
        new_game(RUM, 5)


def test_the_family_is_rum500() -> None:
    """The preset's hooks are the 500 Rum module's; either option alone selects them."""
    assert isinstance(new_game(RUM, 2).game.variant, Rum500)
    assert isinstance(variant_for(Rules.parse("basic(meld_scoring=true)")), Rum500)
    assert variant_for(Rules.preset("basic")).name == "rummy"
    with pytest.raises(Exception, match="meld in play"):
        Rules.parse("gin(deep_discard=true)")


def test_deep_draw_takes_every_card_above() -> None:
    """HSW: "Players may take ... any card in the discard pile, not just the top discard
    ... as long as that card is immediately used in a meld or lay off. When you take a
    card from the discard pile, you must take all cards above the one you take"."""
    g = build(
        RUM,
        hands=["7C 7D 2S 9H KD JC QH", "3C 4D 5H 6S 8C 10D 2H"],
        discard="4C 7H 10S 3D",
        phase=Phase.DRAW,
    )
    legal = g.legal_moves()
    assert Move(DRAW_DEEP, 3) in legal  # 7H with 10S and 3D above it
    assert Move(DRAW_DEEP, 2) not in legal  # 10S cannot be used
    assert Move(DRAW_DEEP, 4) not in legal  # 4C cannot be used
    g.apply(Move(DRAW_DEEP, 3))
    assert sorted(hand_faces(g, 0)) == sorted(faces("7C 7D 2S 9H KD JC QH 7H 10S 3D"))
    assert len(g.discard) == 1
    # The deepest card must be used at once: the only legal moves meld the 7H.
    assert g.legal_moves() == [meld_move(g, "7C 7D 7H")]
    with pytest.raises(IllegalMoveError) as exc:
        g.apply(Move(DISCARD, g.hands[0].bit_length() - 1))
    assert exc.value.rule == "pending_card_must_be_used"


def test_top_discard_must_be_used_too() -> None:
    """HSW: the condition "as long as that card is immediately used" covers any card of
    the pile, the top one included (``discard_pickup=must_use``)."""
    g = build(RUM, hands=["7C 7D 2S 9H KD JC QH", "3C 4D 5H 6S 8C 10D 2H"], discard="10S",
              phase=Phase.DRAW)  # fmt: skip
    assert g.legal_moves() == [Move(DRAW_STOCK)]
    with pytest.raises(IllegalMoveError) as exc:
        g.apply(Move(DRAW_DISCARD))
    assert exc.value.rule == "discard_pickup_must_use"


def test_deep_draw_that_cannot_be_used_names_its_rule() -> None:
    g = build(RUM, hands=["7C 7D 2S 9H KD JC QH", "3C 4D 5H 6S 8C 10D 2H"],
              discard="4C 10S 3D", phase=Phase.DRAW)  # fmt: skip
    with pytest.raises(IllegalMoveError) as exc:
        g.apply(Move(DRAW_DEEP, 3))
    assert exc.value.rule == "deep_discard_must_use"


@pytest.mark.parametrize(
    ("meld", "points"),
    [
        ("7C 7D 7H", 21),
        ("AS 2S 3S", 6),  # HSW: "low aces 1"
        ("QS KS AS", 35),  # HSW: "High aces count 15 ... face cards 10"
        ("AC AD AH", 45),
        ("8D 9D 10D JD", 37),
    ],
)
def test_melds_score_when_laid(meld: str, points: int) -> None:
    """HSW: "Object: To score points for melds"; "Count a meld by the value of the
    individual cards: High aces count 15, low aces 1, face cards 10, all other cards
    their face value"."""
    g = build(RUM, hands=[f"{meld} 5C 9S", "3C 4D 5H 6S 8C 10H 2H"], scores=[40, 0])
    g.apply(meld_move(g, meld))
    assert g.scores == [40 + points, 0]


def test_layoff_scores_for_the_player_laying_off() -> None:
    """HSW: "players may also lay off cards to their own or other player's melds. Since
    these lay offs count to your score, also keep the lay-off cards in front of you"."""
    g = build(RUM, hands=["KH 5C 9S 2D", "3C 4D 5H 6S 8C 10D 2H"], table=[(1, "9H 10H JH QH")])
    g.apply(layoff_move(g, 0, "KH"))
    assert g.scores == [10, 0]
    assert g.table[0].owner == 1  # the meld stays where it is; the points are the layer's


def test_hand_counts_against_and_round_result() -> None:
    """HSW: melds and lay-offs score for their player and the cards left in hand count
    against ("Object: To score points for melds and to meld and lay off all your
    cards"); a player may go out by melding every card.  The round's result counts the
    melds too (scored when laid, noted "melds +21"), so the rounds add up to the scores."""
    g = build(RUM, hands=["7C 7D 7H", "AC KD 2H 3S"], scores=[100, 50], turn=9)
    g.apply(meld_move(g, "7C 7D 7H"))
    res = g.results[-1]
    assert res.reason is RoundEnd.OUT and res.winner == 0
    assert res.deltas == (21, -(15 + 10 + 2 + 3))
    assert res.players[0].notes == ("melds +21", "cards in hand -0")
    assert g.scores == [121, 20]


def test_hand_ends_when_the_stock_runs_out() -> None:
    """The stock is not rebuilt (``max_restocks=0``): Hoyle's 500 Rum ends the hand when
    the stock is gone and scores the hands as they stand."""
    g = build(RUM, hands=["7C 8D 2S", "3C 4D 5H"], discard="9C", stock="KD", rest="discard",
              phase=Phase.PLAY, current=1)  # fmt: skip
    g.apply(Move(DISCARD, 2))  # player 2 discards; player 1 draws the last card
    g.apply(Move(DRAW_STOCK))
    g.apply(Move(DISCARD, 1 * 13 + 12))  # KD back: the next turn finds no stock
    assert g.results and g.results[-1].reason is RoundEnd.RESTOCK_LIMIT


def test_match_to_500_highest_wins() -> None:
    """HSW: the game is played to 500 points; the highest score wins."""
    r = Rules.preset(RUM)
    assert r.target_score == 500 and r.scoring.value == "winner_collects"
    g = build(RUM, hands=["7C 7D 7H", "AC KD 2H 3S"], scores=[490, 300])
    g.apply(meld_move(g, "7C 7D 7H"))
    assert g.is_over() and g.result().winners == (0,)


def test_deep_draw_action_numbers_and_notation() -> None:
    g = build(RUM, hands=["7C 7D 2S 9H KD JC QH", "3C 4D 5H 6S 8C 10D 2H"],
              discard="4C 7H 10S 3D", phase=Phase.DRAW)  # fmt: skip
    deep = Move(DRAW_DEEP, 3)
    a = g.game.actions.encode(deep)
    assert a == g.game.actions.deep_base + 1 and g.game.actions.decode(a) == deep
    assert a in g.legal_actions()
    assert move_to_text(g, deep) == "draw discard 3" and parse_move(g, "dd 3") == deep
    # Other games keep their action space (no deep draws added).
    assert new_game("basic", 2).game.actions.size == new_game("basic", 2).game.actions.deep_base


def test_save_record_and_round_start_round_trip() -> None:
    """A game with deep draws saves, loads, exports and imports exactly."""
    found = 0
    for seed in range(12):
        g = new_game(RUM, 3, seed=seed)
        rng = random.Random(seed)
        for _ in range(150):
            if g.is_over():
                break
            g.apply(rng.choice(g.legal_moves()))
            if g.history[-1] >= g.game.actions.deep_base:
                found += 1
        h = state_from_json(state_to_json(g))
        assert h.hands == g.hands and h.scores == g.scores and h.legal_moves() == g.legal_moves()
        assert h.round_start == g.round_start
        assert round_start_of(g) == g.round_start
        back = import_record(export_record(g))
        assert back.history == g.history and back.scores == g.scores
    assert found > 0


@pytest.mark.parametrize("bot", ["random", "greedy", "expert"])
def test_bots_play_rum500_legally(bot: str) -> None:
    """A legality soak in the suite (benchmarks/legality.py plays thousands): every move
    a bot returns is applied with ``apply``, which raises on an illegal one."""
    for seed in range(100 if bot == "random" else 34):
        n = 2 + seed % 3
        play_match(f"{RUM}(deals=1)", n, [make_bot(bot) for _ in range(n)], seed)


def test_rum500_big_plays() -> None:
    for seed in range(3):
        n = 5 + seed
        state, _stats = play_match("rum500_big(deals=1)", n, [make_bot("random")] * n, seed)
        assert state.is_over()


def test_hints_explain_a_deep_draw() -> None:
    """Hints name the card a deep draw digs out and what it melds."""
    from rummykit.bots.hints import explain, suggest
    from rummykit.solver import Solver

    g = build(RUM, hands=["7C 7D 2S 9H KD JC QH", "3C 4D 5H 6S 8C 10D 2H"],
              discard="4C 7H 10S 3D", phase=Phase.DRAW)  # fmt: skip
    v = g.view(0)
    text = explain(v, Move(DRAW_DEEP, 3), Solver(v.rules, v.game.melds), unicode=False)
    assert (
        text == "take 7H and the 2 card(s) above it: 21 points of your hand would then be in melds"
    )
    hint = suggest(v, budget=8)
    assert hint.move in v.legal and hint.reason


@pytest.mark.parametrize("option", ["deep_discard", "meld_scoring"])
def test_each_option_works_alone_with_another_preset(option: str) -> None:
    """Each 500 Rum rule is an option of its own, so a house rule may add either to
    another game: random matches of basic with it end, every move legal."""
    for seed in range(5):
        g = new_game(f"basic({option}=true, deals=1)", 3, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            g.apply(rng.choice(g.legal_moves()))
        assert any(a >= g.game.actions.deep_base for a in g.history) == (option == "deep_discard")


def test_the_rules_summary_tells_the_deep_draw_and_meld_scoring() -> None:
    """The rules panel says how 500 Rum differs, in English and French: HSW's "any card
    in the discard pile ... as long as that card is immediately used in a meld", with
    "all cards above the one you take"; "Object: To score points for melds"; and the
    hand that ends with the stock (see test_hand_ends_when_the_stock_runs_out)."""
    from rummykit.i18n import rules_summary as summary_in
    from rummykit.rulebook import rules_summary

    en = " ".join(rules_summary(Rules.preset("rum500")))
    assert "any card of the discard pile, with every card above it" in en
    assert "every meld and lay-off scores its cards for whoever lays it" in en
    assert "The round ends when the stock runs out." in en and "restock" not in en
    fr = " ".join(summary_in(Rules.preset("rum500"), "fr"))
    assert "n'importe quelle carte de la défausse" in fr and "marquent pour celui" in fr
