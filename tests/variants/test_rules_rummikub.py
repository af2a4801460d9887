"""Rummikub (preset ``rummikub``), rule by rule.

The reference is the publisher's rules page, "Rummikub Game Play"
(https://www.rummikub.org/gameplay), quoted as RK below; where it is silent, the
published rules as onlinerummikub.com gives them ("Rummikub Gameplay",
http://onlinerummikub.com/rummikub-gameplay/rummikub-gameplay.html), quoted as OR.
docs/rules.md, "## Rummikub", lists every option against them and each choice made.
"""

from __future__ import annotations

import random

import pytest

from helpers import build
from rummykit import IllegalMoveError, Rules, new_game
from rummykit.invariants import check_state
from rummykit.moves import ARRANGE, DRAW_STOCK, PASS, TIMEOUT, Move
from rummykit.notation import export_record, import_record, move_to_text, parse_move
from rummykit.position import position_from_text, position_to_text
from rummykit.results import RoundEnd
from rummykit.rulebook import rules_summary
from rummykit.serialize import state_from_json, state_to_json
from rummykit.state import GameState, Phase
from rummykit.variants import Rummikub, variant_for
from rummykit.variants.rummikub import play_from_sets, set_shape

RK = "rummikub"


def position(
    racks: list[str],
    table: tuple[str, ...] = (),
    *,
    opened: bool = True,
    spec: str = RK,
) -> GameState:
    """Seat 0 to play with these racks; the table's sets are seat 1's, who has opened;
    seat 0 has opened if ``opened``."""
    return build(
        spec,
        hands=racks,
        table=[(1, s) for s in table],
        phase=Phase.TILES,
        opened=[opened, True],
        melded=[opened, True],
        laid=[opened, True],
    )


def play(g: GameState, *sets: str) -> Move:
    return play_from_sets(g.game.melds, sets)


def table_sets(g: GameState) -> list[str]:
    t = g.game.melds
    return sorted(t.describe(tm.shape) for tm in g.table)


def refused(g: GameState, move: Move, rule: str) -> IllegalMoveError:
    """``move`` is refused naming ``rule``, and the state does not change."""
    before = position_to_text(g), state_to_json(g)
    with pytest.raises(IllegalMoveError) as e:
        g.apply(move)
    assert e.value.rule == rule, e.value
    assert (position_to_text(g), state_to_json(g)) == before
    assert not g.is_legal(move)
    return e.value


# -- the tiles and the deal ---------------------------------------------------------------
def test_tiles_players_and_deal() -> None:
    """RK: "Each player draws 14 tiles and arranges them on their rack. The remaining
    tiles form the pool."  OR: 106 tiles, two of each number 1-13 in four colours and
    two jokers; two to four players."""
    r = Rules.preset(RK)
    assert (r.min_players, r.max_players, r.deck_size) == (2, 4, 106)
    for n in (2, 3, 4):
        g = new_game(RK, n, seed=n)
        assert [g.hand_size(p) for p in range(n)] == [14] * n
        assert len(g.stock) == 106 - 14 * n and g.discard == []
        assert g.phase is Phase.TILES and g.table == []
    assert isinstance(new_game(RK, 2, seed=1).game.variant, Rummikub)
    assert isinstance(variant_for(Rules.parse("rummikub")), Rummikub)
    with pytest.raises(Exception, match="2 to 4 players"):
        new_game(RK, 5)


def test_sets_are_runs_and_groups_ace_low_no_wrap() -> None:
    """RK: sets and runs; OR: a run is "three or more consecutive numbers in the same
    colour", a group "three or four tiles of the same number in different colours";
    1 is the lowest number, so 12-13-1 is no run."""
    t = new_game(RK, 2, seed=1).game.melds
    assert t.describe(set_shape(t, ["AH", "2H", "3H"])) == "AH 2H 3H"
    assert t.describe(set_shape(t, ["5H", "5D", "5S", "5C"])) == "5C 5D 5H 5S"
    for bad in (["QH", "KH", "AH"], ["KH", "AH", "2H"], ["5H", "5H", "5D"], ["5H", "6D", "7H"]):
        with pytest.raises(IllegalMoveError) as e:
            set_shape(t, bad)
        assert e.value.rule == "invalid_set" and " ".join(bad) in e.value.reason


# -- a turn -----------------------------------------------------------------------------
def test_a_turn_draws_one_tile_and_ends() -> None:
    """RK: "If you cannot or choose not to play any tiles, you must draw one tile from
    the pool and add it to your rack. Your turn then ends." """
    g = new_game(RK, 3, seed=2)
    p, pool = g.current, len(g.stock)
    assert Move(DRAW_STOCK) in g.legal_moves() and Move(PASS) not in g.legal_moves()
    refused(g, Move(PASS), "draw_not_pass")
    g.apply(Move(DRAW_STOCK))
    assert g.hand_size(p) == 15 and len(g.stock) == pool - 1
    assert g.current == (p + 1) % 3 and g.phase is Phase.TILES


def test_there_is_no_discard() -> None:
    """RK: a turn plays tiles or draws one; there is no discard pile."""
    g = new_game(RK, 2, seed=2)
    for kind in range(12):
        if kind not in (DRAW_STOCK, PASS):
            err = g.phase_error(kind)
            assert err is not None and err.rule == "tiles_turn"


def test_the_first_meld_is_30_points_of_ones_own_tiles() -> None:
    """RK: "For your first play (initial meld), the sum of the numbers on the tiles you
    place must be at least 30 points."  A joker counts the number it stands for."""
    g = position(["TH JH QH 2C 2D 2S AS", "AC"], ("5S 6S 7S",), opened=False)
    err = refused(g, play(g, "5S 6S 7S", "2C 2D 2S"), "opening_minimum")
    assert "at least 30" in err.reason and "this one 6" in err.reason
    g.apply(play(g, "5S 6S 7S", "TH JH QH", "2C 2D 2S"))  # 33 + 6
    assert g.opened[0] and g.hand_size(0) == 1
    g = position(["TH JH JK 9D", "AC"], (), opened=False)
    g.apply(play(g, "TH JH JK"))  # the joker stands for the queen: 10 + 11 + 12
    assert table_sets(g) == ["TH JH JK=QH"]


def test_the_first_meld_leaves_the_table_alone() -> None:
    """OR: "during the initial meld sets on the table cannot be built upon or
    manipulated"; the house rule ``first_meld_untouched=false`` lets that turn rearrange."""
    racks = ["TH JH QH 8S 9D", "AC"]
    g = position(racks, ("5S 6S 7S",), opened=False)
    refused(g, play(g, "5S 6S 7S 8S", "TH JH QH"), "first_meld_untouched")
    house = f"{RK}(first_meld_untouched=false)"
    h = position(racks, ("5S 6S 7S",), opened=False, spec=house)
    h.apply(play(h, "5S 6S 7S 8S", "TH JH QH"))  # 33 + 8 of the player's own
    assert table_sets(h) == ["5S 6S 7S 8S", "TH JH QH"]
    assert Rules.parse(house).spec() == house


def test_after_the_first_meld_the_table_is_rearranged_freely() -> None:
    """RK: "You can split sets and runs, combine them, or rearrange them in any way, as
    long as no tiles are left orphaned (not part of a valid set or run) when your turn
    ends": here a run split in three, its middle tile in a new group."""
    g = position(["5S 5D 8H 2C", "AC"], ("2H 3H 4H 5H 6H 7H",))
    move = play(g, "2H 3H 4H", "5H 5S 5D", "6H 7H 8H")
    assert g.is_legal(move)
    g.apply(move)
    assert table_sets(g) == ["2H 3H 4H", "5D 5H 5S", "6H 7H 8H"]
    assert g.hand_size(0) == 1 and g.current == 1
    check_state(g)


def test_a_set_written_invalid_is_named() -> None:
    """RK: every set is valid at the turn's end; a set that is not one is named."""
    g = position(["5S 5D 8H 2C", "AC"], ("2H 3H 4H 5H 6H 7H",))
    with pytest.raises(IllegalMoveError) as e:
        play(g, "2H 3H 4H", "5H 5S 5D", "6H 7H", "8H")
    assert e.value.rule == "invalid_set" and "6H 7H is not a set" in e.value.reason


def test_every_table_tile_stays_on_the_table() -> None:
    """RK: no table tile is left orphaned, and none goes back to a rack."""
    g = position(["5S 5D 8H 2C", "AC"], ("2H 3H 4H 5H 6H 7H",))
    err = refused(g, play(g, "2H 3H 4H", "5H 5S 5D"), "table_tiles_stay")
    assert "6H" in err.reason


def test_only_the_players_own_tiles_are_added() -> None:
    g = position(["5S 5D 8H 2C", "AC"], ("2H 3H 4H 5H 6H 7H",))
    refused(g, play(g, "2H 3H 4H 5H 6H 7H", "AC AD AS"), "tile_not_in_rack")
    refused(g, play(g, "2H 3H 4H 5H 6H 7H"), "must_place_tile")


# -- jokers -------------------------------------------------------------------------------
def test_a_joker_is_freed_by_its_tile_and_played_again() -> None:
    """RK's example: Blue 7, Joker (for Blue 8), Blue 9 on the table; the rack's Blue 8
    replaces the joker, which then makes a run with Red 10, 11, 12 (for Red 9).  OR: the
    joker "can be taken from a set ... if he can replace it, during his turn, with a tile
    of the same value and color it should represent"; a freed joker is played the same
    turn (every table tile stays on the table)."""
    g = position(["8S TH JH QH 2C", "AC"], ("7S JK=8S 9S",))
    assert table_sets(g) == ["7S JK=8S 9S"]
    g.apply(play(g, "7S 8S 9S", "JK TH JH QH"))
    assert table_sets(g) == ["7S 8S 9S", "JK=9H TH JH QH"]


def test_a_joker_does_not_move_without_its_tile() -> None:
    """OR: a joker is taken only by a player who puts the tile it stands for in its
    place; moving it elsewhere, or making it stand for another tile, is refused."""
    g = position(["TH JH QH 2C", "AC"], ("5S 6S 7S JK=8S", "4D 5D 6D"))
    refused(g, play(g, "5S 6S 7S", "4D 5D 6D JK", "TH JH QH"), "joker_replacement")
    refused(g, play(g, "JK 5S 6S 7S", "4D 5D 6D", "TH JH QH"), "joker_replacement")
    g.apply(play(g, "5S 6S 7S JK", "4D 5D 6D", "TH JH QH"))  # it stays where it stood


def test_a_joker_in_a_group_of_three_goes_for_either_missing_colour() -> None:
    """OR: "In a group of three tiles, the joker can be replaced by either of the missing
    colored tile" (the group 9C 9D JK: by 9H or 9S)."""
    for tile in ("9H", "9S"):
        g = position([f"{tile} TC JC 2D", "AC"], ("9C 9D JK=9H",))
        g.apply(play(g, f"9C 9D {tile}", "TC JC JK"))
        assert table_sets(g) == sorted([" ".join(sorted(["9C", "9D", tile])), "TC JC JK=QC"])


def test_a_set_holding_a_joker_may_be_rearranged() -> None:
    """Issue #33 ("a set that holds a joker may be rearranged"): a run with its joker is
    split and grown, the joker standing for the same tile."""
    g = position(["8S 9S 2C", "AC"], ("3S 4S JK=5S 6S 7S",))
    g.apply(play(g, "3S 4S JK", "6S 7S 8S 9S"))
    assert table_sets(g) == ["3S 4S JK=5S", "6S 7S 8S 9S"]


# -- the end ------------------------------------------------------------------------------
def test_going_out_scores_the_racks() -> None:
    """RK: the first player to empty the rack wins; OR: the others count their racks
    against them, a joker left on the rack 30 ("A player gets 30 points punishment if
    the joker is left on his rack"), and the winner scores their total."""
    g = position(["TH JH QH", "AC JK 5D"], ("5S 6S 7S",))
    g.apply(play(g, "5S 6S 7S", "TH JH QH"))
    assert g.is_over()
    res = g.results[-1]
    assert res.reason is RoundEnd.OUT and res.winner == 0 and res.went_out
    assert res.deltas == (36, -36) and g.scores == [36, -36]


def test_the_empty_pool_ends_when_nobody_plays() -> None:
    """OR: "If the pool runs out of tiles, each player 'plays the table' in turn ...
    until a player finishes. In case no player can proceed, the game ends. At that
    point the player with the lowest count on his rack is the winner."  Here: a player
    who does not play passes, and a round of passes ends the game."""
    g = new_game(RK, 3, seed=4)
    while g.stock:
        g.apply(Move(DRAW_STOCK))
    assert g.legal_moves()[0] == Move(PASS)
    refused(g, Move(DRAW_STOCK), "pool_empty")
    racks = [sum(c % 54 % 13 + 1 if c % 54 < 52 else 30 for c in g.hand(p)) for p in range(3)]
    g.apply(Move(PASS))
    g.apply(Move(PASS))
    assert not g.is_over()
    g.apply(Move(PASS))
    res = g.results[-1]
    assert g.is_over() and res.reason is RoundEnd.NO_DRAW and not res.went_out
    low = min(racks)
    assert racks.count(low) == 1 and res.winner == racks.index(low)
    assert res.deltas == tuple(sum(r - low for r in racks) if r == low else low - r for r in racks)


# -- the move: the table's new arrangement ---------------------------------------------
def test_legal_moves_are_a_finite_selection_and_apply_takes_any_arrangement() -> None:
    """The list holds the draw and a bounded set of plays, each legal; ``apply`` takes
    any legal arrangement besides (module docstring of variants/rummikub.py)."""
    g = position(["5S 5D 8H 9H 2C", "AC"], ("2H 3H 4H 5H 6H 7H",))
    legal = g.legal_moves()
    assert legal[0] == Move(DRAW_STOCK)
    assert all(m.kind == ARRANGE for m in legal[1:]) and len(legal) < 100
    for m in legal:
        assert g.is_legal(m)
    best = play(g, "2H 3H 4H", "5H 5S 5D", "6H 7H 8H 9H")  # the solver's: four tiles
    assert best in legal
    other = play(g, "2H 3H 4H", "5H 5S 5D", "6H 7H 8H")
    assert other not in legal and g.is_legal(other)
    g.apply(other)
    assert g.hand_size(0) == 2


def test_notation_saves_and_positions_carry_the_arrangement() -> None:
    g = new_game(RK, 3, seed=5)
    rng = random.Random(5)
    while not g.is_over():
        legal = g.legal_moves()
        move = legal[-1] if rng.random() < 0.7 else legal[0]
        text = move_to_text(g, move)
        assert parse_move(g, text) == move
        g.apply(move)
        saved = state_to_json(g)
        assert state_to_json(state_from_json(saved)) == saved
        pos = position_to_text(g)
        assert position_to_text(position_from_text(pos)) == pos
    assert "table " in export_record(g)
    again = import_record(export_record(g))
    assert again.history == g.history and again.scores == g.scores


def test_the_turn_timer_is_an_option_and_a_timeout_draws_three() -> None:
    """OR: "Each player has one minute to make his turn. If after one minute has passed
    the player failed to manipulate tiles on the table, all tiles are returned to their
    first positions, and the player is penalized by taking 3 tiles from the tile pool."
    The engine sees only whole turns, so nothing is to be returned; the front end, which
    holds the clock, plays the timeout."""
    assert Rules.preset(RK).turn_seconds is None
    timed = Rules.parse(f"{RK}(turn_seconds=60)")
    assert timed.turn_seconds == 60 and Rules.parse(timed.spec()) == timed
    with pytest.raises(Exception, match="turn_seconds"):
        Rules.parse("basic(turn_seconds=60)")
    g = new_game(timed, 2, seed=3)
    p, pool = g.current, len(g.stock)
    timeout = Move(TIMEOUT)
    assert timeout not in g.legal_moves() and g.is_legal(timeout)
    assert move_to_text(g, timeout) == "timeout" and parse_move(g, "timeout") == timeout
    g.apply(timeout)
    assert g.hand_size(p) == 17 and len(g.stock) == pool - 3 and g.current != p
    plain = new_game(RK, 2, seed=3)
    assert not plain.is_legal(timeout)
    with pytest.raises(IllegalMoveError):
        plain.apply(timeout)
    assert any("60 seconds" in line for line in rules_summary(timed))
