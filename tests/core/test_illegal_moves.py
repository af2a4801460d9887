"""Every class of illegal move raises :class:`IllegalMoveError` naming the rule it breaks,
and leaves the state exactly as it was (STYLE.md practice 6: "Illegal moves. They raise
an error that names the rule, and the state stays unchanged").

Each case cites the seed passage or RULES-NOTES item behind the rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from helpers import (
    build,
    discard_move,
    layoff_move,
    meld_index,
    meld_move,
    snapshot,
    swap_move,
    take_move,
)
from rummykit import IllegalMoveError, Move, RummyError, new_game
from rummykit.moves import DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD, SWAP, TAKE
from rummykit.state import GameState, Phase

OPENED = {"opened": [True, True], "melded": [True, True], "laid": [True, True]}


@dataclass
class Case:
    rule: str
    setup: Callable[[], GameState]
    move: Callable[[GameState], object]
    source: str
    by_action: bool = False


def _basic(**kw: object) -> Callable[[], GameState]:
    def make() -> GameState:
        return build("basic", hands=["3H 4H 5H 9C 9D 9S KD", "KS KC 2D"], discard="7D",
                     table=[(1, "5S 6S 7S")], **kw)  # type: ignore[arg-type]  # fmt: skip

    return make


def _after_first_meld() -> GameState:
    g = _basic()()
    g.apply(meld_move(g, "3H 4H 5H"))
    return g


def _over() -> GameState:
    g = build("basic(deals=1)", hands=["3H 4H 5H", "KS"], discard="7D")
    g.apply(meld_move(g, "3H 4H 5H"))
    assert g.is_over()
    return g


def _rami(hand: str, table: list[tuple[int, str]], opened: bool = True) -> Callable[[], GameState]:
    def make() -> GameState:
        flags = [opened, True]
        return build("rami51", hands=[hand, "KS"], discard="7D", table=table,
                     opened=flags, melded=flags, laid=flags)  # fmt: skip

    return make


def _rami_mid_opening() -> GameState:
    g = _rami("10H JH QH KH 5S 5C 5D 2C 9S", [], opened=False)()
    g.apply(meld_move(g, "10H JH QH KH"))
    return g


def _rami_pending() -> GameState:
    g = _rami("8S 8D 2C 9S", [(1, "5H 6H 7H 8H")])()
    g.apply(take_move(g, 0, "8H"))
    return g


def _taken(spec: str, hand: str) -> Callable[[], GameState]:
    def make() -> GameState:
        g = build(spec, hands=[hand, "KS KC 2D"], discard="7D 9C", phase=Phase.DRAW)
        g.apply(Move(DRAW_DISCARD))
        return g

    return make


# fmt: off
CASES = {
    "draw_twice": Case(
        "one_draw_per_turn", _basic(), lambda g: Move(DRAW_STOCK),
        "001: \"To begin your turn, you must draw a card\" - one draw a turn",
    ),
    "draw_discard_twice": Case(
        "one_draw_per_turn", _basic(), lambda g: Move(DRAW_DISCARD),
        "000: \"Each player must start his or her turn by adding a card\"",
    ),
    "discard_before_drawing": Case(
        "draw_first", _basic(phase=Phase.DRAW), lambda g: discard_move("KD"),
        "000: \"Each player must start his or her turn by adding a card to his or her hand\"",
    ),
    "meld_before_drawing": Case(
        "draw_first", _basic(phase=Phase.DRAW), lambda g: meld_move(g, "3H 4H 5H"),
        "000: \"After beginning his or her turn by drawing a card, a player may lay ...\"",
    ),
    "layoff_before_drawing": Case(
        "draw_first", _basic(phase=Phase.DRAW), lambda g: layoff_move(g, 0, "8S"),
        "001: \"To begin your turn, you must draw a card\"",
    ),
    "discard_the_taken_card": Case(
        "no_discard_of_taken_card", _taken("basic", "3H 4H KD"), lambda g: discard_move("9C"),
        "001: \"if you chose to draw from the discard pile, you may not discard the same card\"",
    ),
    "second_meld": Case(
        "one_meld_per_turn", _after_first_meld, lambda g: meld_move(g, "9C 9D 9S"),
        "001: \"you are only allowed to lay down one meld per turn\"",
    ),
    "meld_not_in_hand": Case(
        "card_not_in_hand", _basic(), lambda g: meld_move(g, "3C 4C 5C"),
        "000: \"a player may lay a valid set or run down if he or she has one\"",
    ),
    "discard_not_in_hand": Case(
        "card_not_in_hand", _basic(), lambda g: discard_move("AS"),
        "000: \"a player must discard a card from his or her hand\"",
    ),
    "layoff_not_in_hand": Case(
        "card_not_in_hand", _basic(), lambda g: layoff_move(g, 0, "8S"),
        "001: \"Laying off is when you add more cards to previous melds\" (from your hand)",
    ),
    "layoff_does_not_fit": Case(
        "invalid_layoff", _basic(), lambda g: layoff_move(g, 0, "9C"),
        "000: \"To lay off, add cards in your hand to already-existing melds\" (validly)",
    ),
    "layoff_on_missing_meld": Case(
        "no_such_meld", _basic(), lambda g: Move(LAYOFF, 3, 0, 0),
        "000: lay-offs go on \"already-existing melds\"",
    ),
    "layoff_before_own_meld": Case(
        "layoff_after_own_meld",
        lambda: build("basic(layoff_after_own_meld=true)", hands=["8S KD", "KS"],
                      discard="7D", table=[(1, "5S 6S 7S")]),
        lambda g: layoff_move(g, 0, "8S"),
        "001: \"you would not allow a player to lay off ... until that player has laid down "
        "at least one meld of their own\"",
    ),
    "opening_below_minimum": Case(
        "opening_minimum", _rami("9D 10D JD QD KD 2S", [], opened=False),
        lambda g: meld_move(g, "9D 10D JD QD KD"),
        "003: \"The first player to place a meld must have a combination that's worth at "
        "least 51 points\"",
    ),
    "discard_mid_opening": Case(
        "opening_minimum", _rami_mid_opening, lambda g: discard_move("9S"),
        "RULES-NOTES 8: \"The first meld, or melds, laid down in one turn must total at "
        "least 51 points\"",
    ),
    "swap_wrong_card": Case(
        "invalid_swap", _rami("10D 9D 2C 3C", [(1, "9D JK=10D JD")]),
        lambda g: swap_move(0, "9D"),
        "003: \"retrieve a Joker if they are going to replace it with the card it was "
        "representing\"",
    ),
    "swap_card_not_in_hand": Case(
        "card_not_in_hand", _rami("2C 3C 9S", [(1, "9D JK=10D JD")]),
        lambda g: swap_move(0, "10D"),
        "003: \"replace it with the card it was representing\" (from the hand)",
    ),
    "swap_before_opening": Case(
        "swap_after_opening", _rami("10D 2C 3C", [(1, "9D JK=10D JD")], opened=False),
        lambda g: swap_move(0, "10D"),
        "docs/rules.md: swaps need an opened player (seed 003 silent)",
    ),
    "swap_freed_joker_unusable": Case(
        "swapped_joker_must_meld", _rami("10D 2C 9S", [(1, "9D JK=10D JD")]),
        lambda g: swap_move(0, "10D"),
        "RULES-NOTES 4: \"Some references require the freed joker to be used in a new meld\"",
    ),
    "swap_without_joker_rules": Case(
        "joker_swap",
        lambda: build("basic", hands=["8S KD", "KS"], discard="7D", table=[(1, "5S 6S 7S")]),
        lambda g: Move(SWAP, 0, 44),
        "001 has no jokers and no swaps",
    ),
    "take_from_three_card_meld": Case(
        "take_from_meld_size", _rami("8S 8D 2C", [(1, "6H 7H 8H")]),
        lambda g: take_move(g, 0, "8H"),
        "003: \"The meld they're retrieving the card from consists of more than three cards\"",
    ),
    "take_leaving_invalid_meld": Case(
        "take_leaves_invalid_meld", _rami("6S 6D 2C", [(1, "5H 6H 7H 8H")]),
        lambda g: take_move(g, 0, "6H"),
        "RULES-NOTES 9: \"what remains is still a valid meld\"",
    ),
    "take_card_not_meldable": Case(
        "taken_card_must_meld", _rami("8S 2C 9D", [(1, "5H 6H 7H 8H")]),
        lambda g: take_move(g, 0, "8H"),
        "003: \"The card to be retrieved is immediately used to form a new meld\"",
    ),
    "take_before_opening": Case(
        "take_after_opening", _rami("8S 8D 2C", [(1, "5H 6H 7H 8H")], opened=False),
        lambda g: take_move(g, 0, "8H"),
        "docs/rules.md: takes need an opened player (seed 003 silent)",
    ),
    "take_without_take_rules": Case(
        "take_from_meld",
        lambda: build("classic", hands=["7S KD 2C", "KS"], discard="7D",
                      table=[(1, "6C 6S 6D 6H"), (1, "3S 4S 5S")]),
        lambda g: take_move(g, 0, "6S"),
        "000: \"a player couldn't move the 6 of spades from the set to the run\"",
    ),
    "pending_card_not_used": Case(
        "pending_card_must_be_used", _rami_pending, lambda g: discard_move("2C"),
        "003: \"The card to be retrieved is immediately used to form a new meld\"",
    ),
    "joker_over_limit": Case(
        "jokers_per_meld", _rami("JK 9C 9D", [(1, "5C JK=6C 7C")]),
        lambda g: layoff_move(g, 0, "JK=8C"),
        "003: \"there must be only one Joker in a meld\"",
    ),
    "taken_discard_unusable": Case(
        "discard_pickup_must_use",
        lambda: build("rami51", hands=["10C JC QC 9D 2D", "KS"], discard="5H KC",
                      phase=Phase.DRAW),
        lambda g: Move(DRAW_DISCARD),
        "RULES-NOTES 7: \"In Rami and 500 Rum the taken card must be melded at once\"",
    ),
    "draw_from_empty_discard_pile": Case(
        "discard_empty",
        lambda: build("basic", hands=["3H 9C", "KS"], phase=Phase.DRAW),
        lambda g: Move(DRAW_DISCARD),
        "001: the discard pile is empty right after it was turned over as the new stock",
    ),
    "draw_from_empty_stock": Case(
        "stock_empty",
        lambda: build("classic", hands=["3H 9C", "KS"], discard="7D", rest="none",
                      phase=Phase.DRAW),  # partial deck: no stock
        lambda g: Move(DRAW_STOCK),
        "000: \"the discard pile is shuffled\" - a one-card pile cannot make a stock",
    ),
    "final_discard_meld_all": Case(
        "final_discard",
        lambda: build("basic(final_discard=true)", hands=["3H 4H 5H", "KS"], discard="7D"),
        lambda g: meld_move(g, "3H 4H 5H"),
        "001: \"in order for them to go out, they must ... discard their final card\"",
    ),
    "final_discard_lay_off_last": Case(
        "final_discard",
        lambda: build("basic(final_discard=true)", hands=["8S", "KS"], discard="7D",
                      table=[(1, "5S 6S 7S")]),
        lambda g: layoff_move(g, 0, "8S"),
        "001: \"in order for them to go out, they must ... discard their final card\"",
    ),
    "stranded_with_taken_card": Case(
        "must_end_with_discard", _taken("basic", "3H 4H 5H"),
        lambda g: meld_move(g, "3H 4H 5H"),
        "001: \"At the end of every turn, one card must be discarded\" and \"you may not "
        "discard the same card you drew\"",
    ),
    "move_after_match_over": Case(
        "match_over", _over, lambda g: Move(DRAW_STOCK),
        "001: \"once you reach that number of deals, the game is finished\"",
    ),
    "garbage_none": Case("unknown_move", _basic(), lambda g: None, "not a move"),
    "garbage_string": Case("unknown_move", _basic(), lambda g: "draw", "not a move"),
    "garbage_tuple": Case("unknown_move", _basic(), lambda g: (2, 51, 0, 0), "not a Move"),
    "garbage_kind": Case("unknown_move", _basic(), lambda g: Move(9), "no such kind"),
    "garbage_float_field": Case(
        "unknown_move", _basic(), lambda g: Move(2, 51.0), "fields must be ints"
    ),
    "garbage_draw_fields": Case(
        "unknown_move", _basic(phase=Phase.DRAW), lambda g: Move(DRAW_STOCK, 1), "not canonical"
    ),
    "garbage_out_of_range_field": Case(
        "unknown_move", _basic(), lambda g: Move(MELD, 10**6), "no such meld shape"
    ),
    "action_string": Case("unknown_action", _basic(), lambda g: "12", "", by_action=True),
    "action_none": Case("unknown_action", _basic(), lambda g: None, "", by_action=True),
    "action_float": Case("unknown_action", _basic(), lambda g: 12.0, "", by_action=True),
    "action_bool": Case("unknown_action", _basic(), lambda g: True, "", by_action=True),
    "action_negative": Case("unknown_action", _basic(), lambda g: -1, "", by_action=True),
    "action_too_big": Case(
        "unknown_action", _basic(), lambda g: g.game.actions.size, "", by_action=True
    ),
    "action_decodes_to_illegal_meld": Case(
        "card_not_in_hand", _basic(),
        lambda g: g.game.actions.encode(Move(MELD, meld_index(g, "3C 4C 5C"))),
        "000: a meld must be in your hand", by_action=True,
    ),
}
# fmt: on


@pytest.mark.parametrize("name", sorted(CASES))
def test_illegal_move_raises_and_changes_nothing(name: str) -> None:
    case = CASES[name]
    g = case.setup()
    attempt = case.move(g)
    before = snapshot(g)
    with pytest.raises(IllegalMoveError) as e:
        if case.by_action:
            g.apply_action(attempt)  # type: ignore[arg-type]
        else:
            g.apply(attempt)  # type: ignore[arg-type]
    assert e.value.rule == case.rule, (name, case.source, e.value)
    assert isinstance(e.value, ValueError) and isinstance(e.value, RummyError)
    assert f"[rule: {case.rule}]" in str(e.value)
    assert snapshot(g) == before
    if not g.is_over():  # the state is still playable
        g.apply(g.legal_moves()[0])


@pytest.mark.parametrize(
    "setup",
    [_basic(), _basic(phase=Phase.DRAW), _after_first_meld, _rami_mid_opening, _rami_pending,
     _rami("10D 8S 8D 2C 3C", [(1, "9D JK=10D JD"), (1, "5H 6H 7H 8H")]), _over],
    ids=["basic", "basic-draw", "basic-melded", "rami-opening", "rami-pending", "rami-table",
         "over"],
)  # fmt: skip
def test_every_illegal_action_number_is_rejected(setup: Callable[[], GameState]) -> None:
    """Exhaustive over the action space: ``apply_action`` accepts exactly
    ``legal_actions()`` and every other number leaves the state unchanged."""
    g = setup()
    legal = set(g.legal_actions())
    before = snapshot(g)
    for a in range(g.game.actions.size):
        if a in legal:
            continue
        with pytest.raises(IllegalMoveError):
            g.apply_action(a)
    assert snapshot(g) == before
    for a in legal:
        t = g.clone()
        t.apply_action(a)
        assert t.history == [*g.history, a]


def test_illegal_move_on_a_fresh_game_keeps_the_rng() -> None:
    """Chance lives in the state's own RNG: a rejected move must not consume it."""
    g = new_game("rami51", players=3, seed=5)
    state = g.rng.getstate()
    for m in (Move(MELD, 0), Move(TAKE, 0, 0), discard_move("AS"), None):
        with pytest.raises(IllegalMoveError):
            g.apply(m)  # type: ignore[arg-type]
    assert g.rng.getstate() == state and g.history == []
