"""Issue #20, finding 1: an illegal move is told the rule it actually breaks.

The engine diagnoses an illegal move phase first: a move of a kind the current phase
never allows (a knock before the draw, a meld in Gin's play, taking an upcard everyone
passed) gets the rule naming the phase ("draw first", the knock limit, "draw from the
stock"); only a move of an allowed kind is judged on its details (which meld, which
card).  The reported cases are checked one by one, then every move kind in every
phase reached by random games of every preset.
"""

from __future__ import annotations

import random

import pytest

from helpers import build, discard_move, layoff_move, meld_index, meld_move, snapshot
from rummykit import IllegalMoveError, Move, new_game
from rummykit.cards import bits, face_of
from rummykit.knock import deadwood_shown
from rummykit.melds import HandCounts
from rummykit.moves import (
    ARRANGE,
    BUY,
    DISCARD,
    DRAW_DEEP,
    DRAW_DISCARD,
    DRAW_STOCK,
    DROP,
    KIND_NAMES,
    KNOCK,
    LAYOFF,
    MELD,
    PASS,
    SWAP,
    TAKE,
    TIMEOUT,
)
from rummykit.position import position_to_text
from rummykit.rules import PRESETS
from rummykit.state import GameState, Phase
from rummykit.variants.gin import knock_fields
from rummykit.variants.indian import declare_fields
from rummykit.variants.rummikub import arrangement_code

# A Gin hand of eleven cards with no meld: its best ten leave deadwood 49.
DEADWOOD_49 = "AC 2D 3H 4S 5C 6D 7H 8S 9C 10D 4H"


def _rejects(g: GameState, move: Move, rule: str, fragment: str) -> IllegalMoveError:
    """``move`` raises naming ``rule`` with ``fragment`` in its reason, and the state
    (its position text and everything :func:`snapshot` sees) is unchanged."""
    text, before = position_to_text(g), snapshot(g)
    with pytest.raises(IllegalMoveError) as e:
        g.apply(move)
    assert e.value.rule == rule, e.value
    assert fragment in e.value.reason, e.value
    assert position_to_text(g) == text and snapshot(g) == before
    return e.value


# -- the three reported cases ------------------------------------------------------------
def test_gin_knock_before_the_first_upcard_is_draw_first() -> None:
    """Issue #20: ``k`` before drawing said "there is no table meld number 0"."""
    g = new_game("gin", seed=3)
    assert g.phase is Phase.FIRST_UPCARD
    _rejects(g, Move(KNOCK), "draw_first", "take it or pass")


def test_gin_knock_before_drawing_is_draw_first() -> None:
    """Issue #20: a knock in a turn's draw phase names the draw."""
    g = build("gin", hands=[DEADWOOD_49[:-3], "KS KC JS"], discard="7D", phase=Phase.DRAW)
    _rejects(g, Move(KNOCK), "draw_first", "drawing")


def test_gin_knock_with_deadwood_49_names_the_knock_limit() -> None:
    """Issue #20: a knock with deadwood 49 said "there is no table meld number 0"."""
    g = build("gin", hands=[DEADWOOD_49, "KS KC JS"], discard="7D")
    assert deadwood_shown(g.game, g.hands[0]) == 49
    _rejects(
        g,
        Move(KNOCK),
        "knock_limit",
        "you cannot knock now: your deadwood is 49 and the knock limit is 10",
    )


def test_gin_upcard_after_both_passed_says_draw_from_the_stock() -> None:
    """Issue #20: taking the upcard after both players passed it said "you have already
    drawn this turn"; passing again is the same mistake."""
    g = new_game("gin", seed=3)
    g.apply(Move(PASS))
    g.apply(Move(PASS))
    assert g.phase is Phase.FIRST_UPCARD
    _rejects(g, Move(DRAW_DISCARD), "upcard_passed", "passed by both players: draw from the stock")
    _rejects(g, Move(PASS), "upcard_passed", "draw from the stock")
    _rejects(g, Move(DISCARD, face_in_hand(g)), "draw_first", "draw from the stock")


def test_basic_meld_before_drawing_is_draw_first() -> None:
    """Issue #20: in basic, a meld before the draw is told to draw first, whether or not
    the player holds the meld, and front ends can ask the same before judging cards."""
    g = build("basic", hands=["3H 4H 5H 10C KD", "KS KC JS"], discard="7D", phase=Phase.DRAW)
    _rejects(g, meld_move(g, "3H 4H 5H"), "draw_first", "drawing")
    _rejects(g, Move(MELD, meld_index(g, "10C JC QC")), "draw_first", "drawing")
    err = g.phase_error(MELD)
    assert err is not None and err.rule == "draw_first"
    assert g.phase_error(DRAW_STOCK) is None


# -- the Gin phases' own rules, one by one -----------------------------------------------
KNOCKER = "2C 3C 4C 7D 7H 7S 9H 9S 9D KD QC"  # deadwood after the KD discard: 12 - 10


def _knocked() -> GameState:
    g = build("gin", hands=[KNOCKER, "2H 3H 4H 5S 6S KC QD JD 10S 8C"], discard="AS")
    g.apply(Move(KNOCK))
    assert g.phase is Phase.KNOCK
    return g


def test_the_knocker_discards_first_within_the_limit() -> None:
    g = _knocked()
    _rejects(g, Move(PASS), "knocker_discards", "discard a card first")
    _rejects(g, discard_move("AH"), "card_not_in_hand", "do not hold")
    _rejects(g, discard_move("2C"), "knock_limit", "above the knock limit 10")


def test_the_knocker_lays_melds_then_passes() -> None:
    g = _knocked()
    g.apply(discard_move("KD"))
    _rejects(g, Move(DRAW_STOCK), "knocker_lays_melds", "lay your melds")
    _rejects(g, Move(PASS), "knock_limit", "lay your melds first")
    _rejects(g, meld_move(g, "2H 3H 4H"), "card_not_in_hand", "do not hold")
    for text in ("2C 3C 4C", "7D 7H 7S", "9D 9H 9S"):
        g.apply(meld_move(g, text))
    g.apply(Move(PASS))
    assert g.phase is Phase.LAYOFF and knock_fields(g).knock_stage == 0
    _rejects(g, meld_move(g, "2H 3H 4H"), "defender_lays_off", "lay off onto the knocker")
    _rejects(g, Move(LAYOFF, 5, 0, 0), "no_such_meld", "no table meld number 5")
    _rejects(g, layoff_move(g, 0, "5C"), "card_not_in_hand", "do not hold")
    _rejects(g, layoff_move(g, 0, "6C"), "invalid_layoff", "does not extend")
    g.apply(Move(PASS))
    assert knock_fields(g).knock_stage == 1
    _rejects(g, layoff_move(g, 0, "5C"), "defender_lays_melds", "lay your own melds")
    _rejects(g, meld_move(g, "7C 8C 9C"), "card_not_in_hand", "do not hold")


def test_knocker_meld_outside_every_arrangement_names_the_knock_limit() -> None:
    """A meld the knocker holds but that no arrangement within the limit uses."""
    g = build("gin", hands=["7H 8H 9H 10H 7S 7D 2C 3C 4C AS", "KS KC KD"], discard="2S",
              phase=Phase.KNOCK)  # fmt: skip
    assert meld_move(g, "7H 7S 7D") in g.legal_moves()
    _rejects(g, meld_move(g, "7H 8H 9H 10H"), "knock_limit", "no arrangement")


def test_wall_allows_only_knock_or_pass() -> None:
    g = build("gin", hands=[DEADWOOD_49[:-3], "KS KC JS"], discard="7D", stock="2S 3S",
              rest="discard", phase=Phase.WALL)  # fmt: skip
    _rejects(g, Move(DRAW_STOCK), "wall_knock_or_pass", "knock (k) with the upcard")
    _rejects(g, Move(KNOCK), "knock_limit", "your deadwood is")


def test_gin_play_allows_only_discard_or_knock() -> None:
    g = build("gin", hands=[DEADWOOD_49, "KS KC JS"], discard="7D")
    _rejects(g, Move(MELD, 0), "discard_or_knock", "discard a card or knock")
    _rejects(g, Move(PASS), "discard_or_knock", "discard a card or knock")
    _rejects(g, discard_move("KH"), "card_not_in_hand", "do not hold")


def test_gin_taken_card_under_discard_taken_card_false() -> None:
    g = build("gin(discard_taken_card=false)", hands=[DEADWOOD_49, "KS KC JS"], discard="7D",
              taken="4H")  # fmt: skip
    _rejects(g, discard_move("4H"), "no_discard_of_taken_card", "you took")


def test_gin_upcard_first_before_the_stock() -> None:
    """The first upcard is offered before the stock; the phase check alone (what a
    front end may ask before judging a selection) agrees with the legal moves."""
    g = new_game("gin", seed=3)
    _rejects(g, Move(DRAW_STOCK), "first_upcard", "take it or pass")
    assert g.phase_error(PASS) is None and g.phase_error(DRAW_DISCARD) is None
    g.apply(Move(PASS))
    g.apply(Move(PASS))
    assert g.phase_error(DRAW_STOCK) is None
    err = g.phase_error(DRAW_DISCARD)
    assert err is not None and err.rule == "upcard_passed"


def test_rummy_play_has_no_pass_or_knock() -> None:
    g = build("basic", hands=["3H 4H 5H 10C KD", "KS KC JS"], discard="7D")
    _rejects(g, Move(PASS), "knock_games_only", "no passing or knocking")
    _rejects(g, Move(KNOCK), "knock_games_only", "no passing or knocking")


def face_in_hand(g: GameState) -> int:
    return min(face_of(c) for c in bits(g.hands[g.current]))


# -- every kind in every phase of every preset ---------------------------------------------
DRAWS = frozenset({DRAW_STOCK, DRAW_DISCARD, DRAW_DEEP})
ALL_KINDS = frozenset(range(len(KIND_NAMES)))

# Rules naming a phase: the answer for a kind the phase never allows.
PHASE_RULES = frozenset({
    "draw_first", "one_draw_per_turn", "first_upcard", "upcard_passed", "knock_games_only",
    "discard_or_knock", "knocker_discards", "knocker_lays_melds", "defender_lays_off",
    "defender_lays_melds", "wall_knock_or_pass", "match_over", "drop_before_draw",
    "discard_or_declare", "declare_discard", "buy_when_offered", "buy_or_pass",
    "tiles_turn",
})  # fmt: skip

# Rules about a move's details, by kind: the answers for an allowed kind.
PENDING = {"pending_card_must_be_used"}
TURN_END = {"final_discard", "must_end_with_discard", "opening_minimum", "contract"}
DETAIL_RULES: dict[int, set[str]] = {
    DRAW_STOCK: {"stock_empty", "pool_empty"},
    DRAW_DISCARD: {"discard_empty", "discard_pickup_must_use"},
    DRAW_DEEP: {"deep_discard_must_use"},
    DISCARD: {"card_not_in_hand", "no_discard_of_taken_card", "opening_minimum", "knock_limit",
              "invalid_declaration", "contract"} | PENDING,
    MELD: {"card_not_in_hand", "one_meld_per_turn", "knock_limit", "contract_down",
           "contract_joined_runs"}
    | TURN_END | PENDING,
    LAYOFF: {"no_such_meld", "invalid_layoff", "card_not_in_hand", "layoff_after_own_meld",
             "jokers_per_meld", "contract_before_layoff", "layoff_wait"} | TURN_END | PENDING,
    SWAP: {"no_such_meld", "joker_swap", "swap_after_opening", "invalid_swap",
           "card_not_in_hand", "swapped_joker_must_meld", "closed_set", "set_joker_both_suits",
           "joker_to_end"} | PENDING,
    TAKE: {"no_such_meld", "take_from_meld", "take_after_opening", "take_from_meld_size",
           "take_leaves_invalid_meld", "one_meld_per_turn", "taken_card_must_meld"} | PENDING,
    PASS: {"knock_limit", "draw_not_pass"},
    KNOCK: {"knock_limit", "invalid_declaration"},
    DROP: set(),  # always legal before the draw where the rules have drops
    BUY: set(),
    TIMEOUT: set(),  # always legal where the rules have a turn timer
    ARRANGE: {"unknown_arrangement", "table_tiles_stay", "must_place_tile", "tile_not_in_rack",
              "joker_replacement", "first_meld_untouched", "opening_minimum"},
}  # fmt: skip


def phase_rules(g: GameState) -> dict[int, str]:
    """The kinds the current phase never allows, each with the rule it must get: the
    expectation, written out per phase independently of the engine."""
    phase = g.phase
    if phase is Phase.OVER:
        return dict.fromkeys(ALL_KINDS, "match_over")
    if phase is Phase.TILES:  # Rummikub: a play, a draw, or (pool empty) a pass
        return dict.fromkeys(ALL_KINDS - {DRAW_STOCK, PASS, ARRANGE}, "tiles_turn")
    if phase is Phase.BUY:  # Contract Rummy: the discard offered out of turn
        return dict.fromkeys(ALL_KINDS - {BUY, PASS}, "buy_or_pass")
    if g.rules.buys_per_round:
        return phase_rules_without_buy(g) | {BUY: "buy_when_offered"}
    return phase_rules_without_buy(g)


def phase_rules_without_buy(g: GameState) -> dict[int, str]:
    n = g.num_players
    phase = g.phase
    if phase is Phase.DRAW:
        return dict.fromkeys(ALL_KINDS - DRAWS - {DROP}, "draw_first")
    if phase is Phase.FIRST_UPCARD:
        if g.upcard_passes >= n:
            out = dict.fromkeys(ALL_KINDS - {DRAW_STOCK}, "draw_first")
            out[DRAW_DISCARD] = out[PASS] = "upcard_passed"
            return out
        out = dict.fromkeys(ALL_KINDS - {DRAW_DISCARD, PASS}, "draw_first")
        out[DRAW_STOCK] = "first_upcard"
        return out
    if phase is Phase.PLAY:
        out = dict.fromkeys(DRAWS, "one_draw_per_turn")
        if g.rules.declare:
            return (
                out
                | dict.fromkeys(ALL_KINDS - DRAWS - {DISCARD, KNOCK}, "discard_or_declare")
                | {DROP: "drop_before_draw"}
            )
        if g.rules.meld_in_play:
            return out | dict.fromkeys({PASS, KNOCK}, "knock_games_only")
        return out | dict.fromkeys(ALL_KINDS - DRAWS - {DISCARD, KNOCK}, "discard_or_knock")
    if phase is Phase.KNOCK:
        if g.rules.declare:
            return dict.fromkeys(ALL_KINDS - {DISCARD}, "declare_discard")
        if g.hands[g.current].bit_count() > g.game.dealt:
            return dict.fromkeys(ALL_KINDS - {DISCARD}, "knocker_discards")
        return dict.fromkeys(ALL_KINDS - {MELD, PASS}, "knocker_lays_melds")
    if phase is Phase.LAYOFF:
        if knock_fields(g).knock_stage == 0:
            return dict.fromkeys(ALL_KINDS - {LAYOFF, PASS}, "defender_lays_off")
        return dict.fromkeys(ALL_KINDS - {MELD, PASS}, "defender_lays_melds")
    assert phase is Phase.WALL
    return dict.fromkeys(ALL_KINDS - {PASS, KNOCK}, "wall_knock_or_pass")


def action_range(g: GameState, kind: int) -> range:
    a = g.game.actions
    if kind == TIMEOUT:  # Rummikub's turn timer only
        return range(a.timeout_action, a.timeout_action + 1) if a.timeout_action >= 0 else range(0)
    buy = a.buy_action if a.buy_action >= 0 else a.arrange_base - (a.timeout_action >= 0)
    drop = a.drop_action if a.drop_action >= 0 else buy
    bounds = [0, 1, 2, a.meld_base, a.layoff_base, a.swap_base, a.take_base, a.pass_action,
              a.knock_action, a.deep_base, drop, buy, a.arrange_base, a.size]  # fmt: skip
    return range(bounds[kind], bounds[kind + 1])


def probes(g: GameState, rng: random.Random) -> list[int]:
    """One illegal action number of each kind that has one, chosen at random, with
    table moves aimed at melds on the table when there are any."""
    legal = set(g.legal_actions())
    a = g.game.actions
    out = []
    for kind in sorted(ALL_KINDS):
        span = action_range(g, kind)
        if span.stop <= span.start:  # a kind these rules have no action for (deep draws
            continue  # outside 500 Rum)
        choice = None
        if kind == ARRANGE and rng.random() < 0.7:  # the table and one set of the pack
            shapes = [tm.shape for tm in g.table]
            shapes.append(rng.randrange(len(g.game.melds.shapes)))
            choice = span.start + arrangement_code(shapes, g.game.melds)
        if kind in (LAYOFF, SWAP, TAKE) and g.table:
            per_slot = len(span) // a.max_table
            slot = rng.randrange(len(g.table))
            choice = span.start + slot * per_slot + rng.randrange(per_slot)
        elif kind in (DISCARD, MELD) and g.current >= 0 and rng.random() < 0.5 and choice is None:
            hand = g.hands[g.current]
            if kind == DISCARD:
                held = [2 + face_of(c) for c in bits(hand)]
            else:
                held = [a.meld_base + i for i in g.game.melds.shapes_in(HandCounts.of(hand))]
            held = [x for x in held if x not in legal]
            choice = rng.choice(held) if held else None
        if choice is None or choice in legal:
            choice = span.start + rng.randrange(span.stop - span.start)
        if choice not in legal and not g.is_legal(a.decode(choice)):
            out.append(choice)
    return out


def _policy(g: GameState, rng: random.Random) -> Move:
    """Random, but knocking whenever it can, and passing the first upcard often, so
    random Gin hands reach every phase."""
    legal = g.legal_moves()
    if Move(KNOCK) in legal and g.phase is not Phase.WALL:
        return Move(KNOCK)
    if g.rules.declare and g.phase is Phase.PLAY and rng.random() < 0.8:
        # Indian Rummy: mostly the card whose loss hurts least, so declarations happen.
        solver = g.game.variant.solver  # type: ignore[attr-defined]
        hand = g.hands[g.current]
        return min(
            legal,
            key=lambda m: solver.soft(hand & ~(1 << g._pick(hand, m.a)), declare_fields(g).wild),
        )
    if g.rules.declare and g.phase is Phase.DRAW and rng.random() < 0.97:
        return Move(DRAW_STOCK)
    laying = [m for m in legal if m.kind in (MELD, LAYOFF)]
    if g.phase in (Phase.KNOCK, Phase.LAYOFF) and laying and rng.random() < 0.7:
        return rng.choice(laying)
    return rng.choice(legal)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_kind_in_every_phase_names_the_broken_rule(preset: str) -> None:
    """Issue #20: at every position of seeded random games, one illegal move of every
    kind raises :class:`IllegalMoveError` whose rule is the phase's when the phase never
    allows that kind, and a rule about that kind's details otherwise; the state is left
    unchanged, and the expected phase table agrees with the legal-move generator."""
    rng = random.Random(f"issue-20-{preset}")
    seen: dict[Phase, int] = {}
    expected_phases = {Phase.DRAW, Phase.PLAY, Phase.OVER}
    if PRESETS[preset].declare:
        expected_phases |= {Phase.KNOCK}
    elif not PRESETS[preset].meld_in_play:
        expected_phases |= {Phase.FIRST_UPCARD, Phase.KNOCK, Phase.LAYOFF, Phase.WALL}
    if PRESETS[preset].buys_per_round:
        expected_phases |= {Phase.BUY}
    if PRESETS[preset].free_table:
        expected_phases = {Phase.TILES, Phase.OVER}
    games = 0
    while games < 60 and (games < 12 or not expected_phases <= set(seen)):
        games += 1
        players = PRESETS[preset].min_players
        g = new_game(f"{preset}(max_deals=1)", players=players, seed=rng.randrange(10**6))
        moves = 0
        while True:
            seen[g.phase] = seen.get(g.phase, 0) + 1
            _check_position(g, rng)
            if g.is_over() or moves > 400:
                break
            g.apply(_policy(g, rng))
            moves += 1
    assert expected_phases <= set(seen), (preset, seen)


def _check_position(g: GameState, rng: random.Random) -> None:
    never = phase_rules(g)
    legal_kinds = {m.kind for m in g.legal_moves()}
    assert not legal_kinds & set(never), (g.phase, legal_kinds, never)
    before = snapshot(g)
    for action in probes(g, rng):
        move = g.game.actions.decode(action)
        with pytest.raises(IllegalMoveError) as e:
            g.apply_action(action)
        rule = e.value.rule
        where = (g.phase.name, KIND_NAMES[move.kind], move, str(e.value))
        if move.kind in never:
            assert rule == never[move.kind], where
        else:
            assert rule in DETAIL_RULES[move.kind], where
            assert rule not in PHASE_RULES, where
    assert snapshot(g) == before
