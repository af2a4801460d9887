"""The expert's Gin strategy (issue #16, Part 1; ``rummykit.bots.gin``).

Each rule on a constructed position: knock timing (gin, waiting for gin or an
undercut early, knocking late and at the wall), the defender's lay-offs, the first
upcard, the draw margin, discards that do not feed the opponent, and that none of it
reaches games without a knock card.
"""

from __future__ import annotations

import random

import pytest

from helpers import build
from rummykit.bots import ExpertBot, ISMCTSBot, gin
from rummykit.cards import parse_face
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, KNOCK, LAYOFF, MELD, PASS, Move
from rummykit.state import GameState, Phase
from rummykit.variants.gin import knock_fields
from rummykit.view import unseen_faces

# 2H 3H 4H, 7S 7D 7C, 9C 9D 9S melded; 2C and KD loose: 2 points once KD goes.
LOW = "2H 3H 4H 7S 7D 7C 9C 9D 9S 2C KD"
OTHER = "AS 2S 3S 4S 5S 6S 8S 5H TS JS"


def expert_move(g: GameState) -> Move:
    return ExpertBot().choose(g.view(g.current), random.Random(0))


def late(hand: str, stock: str) -> GameState:
    """``hand`` to play with only ``stock`` left to draw (the rest in the pile)."""
    return build("gin", hands=[hand, OTHER], stock=stock, rest="discard")


def test_gin_always_knocks() -> None:
    """Issue #16: going gin scores the bonus and cannot be undercut, so never wait."""
    g = build("gin", hands=["2H 3H 4H 7S 7D 7C 9C TC JC QC KC", OTHER])
    assert len(g.stock) >= gin.GIN_WAIT_STOCK
    assert expert_move(g) == Move(KNOCK)


def test_low_deadwood_early_waits_for_gin_or_an_undercut() -> None:
    """Issue #16 (knock timing): 2 points with a full stock is not knocked; the expert
    discards the loose king instead and keeps the 2."""
    g = build("gin", hands=[LOW, OTHER])
    assert Move(KNOCK) in g.legal_moves() and len(g.stock) >= gin.GIN_WAIT_STOCK
    assert expert_move(g) == Move(DISCARD, parse_face("KD"))


def test_low_deadwood_late_knocks() -> None:
    """Near the end of the stock the opponent only gets closer: knock."""
    g = late(LOW, "5C 6C 8C")
    assert len(g.stock) < gin.GIN_WAIT_STOCK
    assert expert_move(g) == Move(KNOCK)


def test_higher_deadwood_knocks_at_once() -> None:
    """Above GIN_WAIT_DEADWOOD the knock is taken at once, even early: 8 points."""
    g = build("gin", hands=["2H 3H 4H 7S 7D 7C 9C 9D 9S 8C KD", OTHER])
    assert gin.GIN_WAIT_DEADWOOD < 8
    assert expert_move(g) == Move(KNOCK)


def test_wall_knocks_when_it_can_else_passes() -> None:
    """At the wall a pass voids the hand: knock if the upcard allows it, even with
    deadwood it would wait with earlier; otherwise pass."""
    hand = "2H 3H 4H 7S 7D 7C 9C 9D 9S 2C"
    g = build("gin", hands=[hand, OTHER], discard="AC", stock="5C 6C", rest="discard")
    g.phase = Phase.WALL
    g._legal = None
    assert Move(KNOCK) in g.legal_moves()
    assert expert_move(g) == Move(KNOCK)
    g = build(
        "gin",
        hands=["2H 3H 4H 7S 7D 7C 9C 9D JH QD", OTHER],
        discard="KC",
        stock="5C 6C",
        rest="discard",
    )
    g.phase = Phase.WALL
    g._legal = None
    assert Move(KNOCK) not in g.legal_moves()
    assert expert_move(g) == Move(PASS)


def test_defender_lays_off_whatever_lowers_deadwood_then_passes() -> None:
    """Issue #16 (the defender's lay-offs): 5H and 6H go onto the knocker's 2H-4H run
    (the 6 only after the 5), then the defender passes to its own melds."""
    g = build(
        "gin",
        hands=["AS 2S 3S 8D 8H KH JC QC QH 5C", "5H 6H 9S 9C 9D KS KC QS JD TD"],
        table=[(0, "2H 3H 4H"), (0, "7S 7D 7C")],
        phase=Phase.LAYOFF,
        current=1,
    )
    laid = []
    while g.phase is Phase.LAYOFF and knock_fields(g).knock_stage == 0:
        m = expert_move(g)
        if m.kind != LAYOFF:
            assert m == Move(PASS)
            break
        laid.append(m)
        g.apply(m)
    assert len(laid) == 2
    assert g.hands[1] & (1 << parse_face("5H")) == 0
    assert g.hands[1] & (1 << parse_face("6H")) == 0


def test_defender_melds_after_laying_off() -> None:
    """After the lay-offs the defender lays its melds (what is not melded counts)."""
    g = build(
        "gin",
        hands=["AS 2S 3S 8D 8H KH JC QC QH 5C", "9S 9C 9D KS KC QS JD TD 4C 5D"],
        table=[(0, "2H 3H 4H"), (0, "7S 7D 7C")],
        phase=Phase.LAYOFF,
        current=1,
    )
    g.apply(Move(PASS))
    assert expert_move(g).kind == MELD


@pytest.mark.parametrize(("upcard", "take"), [("4H", True), ("KC", False)])
def test_first_upcard_taken_only_if_it_melds(upcard: str, take: bool) -> None:
    """The first upcard: 4H joins 2H 3H (taken), KC joins nothing (passed).  Taking the
    upcard by outs instead lost points: 64.0% against 65.6% (4,000 hands)."""
    g = build("gin", hands=[LOW.replace(" 4H", " 8D"), OTHER], discard=upcard)
    g.phase = Phase.FIRST_UPCARD
    g._legal = None
    assert expert_move(g) == (Move(DRAW_DISCARD) if take else Move(PASS))


def test_gin_draws_by_the_gin_margin_only_in_knock_games() -> None:
    """The style's draw margin decides a Gin draw that only improves the outs; basic
    keeps 1.0."""
    hands = ["2H 3H 7S 7D 9C 9D JH QD KH 5C", OTHER]
    g = build("gin", hands=hands, discard="8C", phase=Phase.DRAW)
    b = build("basic", hands=hands, discard="8C", phase=Phase.DRAW)

    def move(state: GameState, margin: float) -> Move:
        bot = ExpertBot(gin_style=gin.GinStyle(draw_margin=margin))
        return bot.choose(state.view(state.current), random.Random(0))

    assert move(g, -1000.0) == Move(DRAW_DISCARD)
    assert move(g, 1000.0) == Move(DRAW_STOCK)
    assert move(b, -1000.0) == move(b, 1000.0) == expert_move(b)


def test_hard_waits_longer_than_medium_for_gin() -> None:
    """``gin.HARD`` (the moves ``hard``'s search starts from; docs/bots.md, "The search
    against medium at Gin") plays on with 8 points early, where ``medium`` knocks; late
    in the stock both knock."""
    hand = "2H 3H 4H 7S 7D 7C 9C 9D 9S 8C KD"
    hard = ExpertBot(gin_style=gin.HARD)
    g = build("gin", hands=[hand, OTHER])
    assert expert_move(g) == Move(KNOCK)
    assert hard.choose(g.view(0), random.Random(0)) == Move(DISCARD, parse_face("KD"))
    g = late(hand, "5C 6C 8D")
    assert hard.choose(g.view(0), random.Random(0)) == Move(KNOCK)


def test_hard_s_outs_weight_reaches_gin_only() -> None:
    """``gin.HARD`` weighs the outs 2.0 in Gin; in basic the expert's own 1.5 holds."""
    hard = ExpertBot(gin_style=gin.HARD)
    hands = ["2H 3H 7S 7D 9C 9D JH QD KH 5C", OTHER]
    for preset, weight, other in (("gin", 2.0, 1.5), ("basic", 1.5, 2.0)):
        g = build(preset, hands=hands, discard="8C", phase=Phase.DRAW)
        v = g.view(0)
        args = (v, v.game.solver, v.hand, unseen_faces(v))
        # the hand has outs, so the weight shows: the other weight values it otherwise
        assert hard._value(*args) == ExpertBot(outs_weight=weight)._value(*args)
        assert hard._value(*args) != ExpertBot(outs_weight=other)._value(*args)
    assert gin.HARD.outs_weight == 2.0 and gin.MEDIUM.outs_weight is None


def test_the_search_starts_from_hard_s_gin() -> None:
    """``hard`` keeps ``gin.HARD``'s move unless another measures better."""
    assert ISMCTSBot().expert.gin_style == gin.HARD
    assert ExpertBot().gin_style == gin.MEDIUM


@pytest.mark.parametrize(("queen_taken", "thrown"), [(False, "QC"), (True, "JD")])
def test_discard_does_not_feed_a_card_the_opponent_took(queen_taken: bool, thrown: str) -> None:
    """Issue #16 (discards that do not feed the opponent): with QC and JD loose the
    expert throws the QC, unless the opponent took the QS from the pile: then a queen
    may complete their set, and the JD goes instead."""
    g = build(
        "gin",
        hands=["2H 3H 4H 7S 7D 7C 9C 5D 8S QC JD", "QS QD 2S 3S 5S 6S 9S 5H TS AS"],
    )
    if queen_taken:
        g.known[1] |= 1 << parse_face("QS")
        g._legal = None
    assert expert_move(g) == Move(DISCARD, parse_face(thrown))


def test_only_knock_games_use_the_gin_rules() -> None:
    """basic and rami51 have no knock card: the expert's play there is unchanged."""
    assert gin.is_knock_game(build("gin", hands=[LOW, OTHER]).view(0))
    assert not gin.is_knock_game(build("basic", hands=[LOW[:-3], OTHER]).view(0))
