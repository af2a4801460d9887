"""Indian Rummy in records, saves, positions and views: the drop and the declaration
written and read back, the wild cut and the drops carried by every format, and no
hidden card in a view."""

from __future__ import annotations

import random

import pytest

from rummykit import Move, new_game
from rummykit.bots import make_bot
from rummykit.invariants import check_state
from rummykit.moves import DISCARD, DROP, KNOCK
from rummykit.notation import export_record, import_record, move_to_text, parse_move
from rummykit.position import position_from_text, position_to_text
from rummykit.results import RoundEnd
from rummykit.serialize import state_from_json, state_to_dict, state_to_json
from rummykit.state import GameState, Phase
from rummykit.variants.indian import declare_fields
from rummykit.view import make_view

PRESETS = ["indian", "indian_pool101", "indian_pool201", "indian_deals"]


def play(spec: str, players: int, seed: int, cap: int | None = None) -> GameState:
    """A match played by the easy bot (it declares), with a few random drops."""
    g = new_game(spec, players=players, seed=seed)
    bot = make_bot("easy")
    rng = random.Random(seed)
    while not g.is_over() and (cap is None or len(g.history) < cap):
        legal = g.legal_moves()
        if Move(DROP) in legal and rng.random() < 0.03:
            g.apply(Move(DROP))
        else:
            g.apply(bot.choose(make_view(g, g.current), rng))
        check_state(g)
    return g


@pytest.mark.parametrize("spec", PRESETS)
def test_full_match_record_round_trips(spec: str) -> None:
    g = play(spec, 3, 1)
    assert g.is_over()
    for style in ({}, {"short": True}, {"deals": True}):
        text = export_record(g, **style)
        h = import_record(text)
        assert h.history == g.history and h.scores == g.scores
        assert export_record(h, **style) == text
    text = export_record(g)
    assert text.count("{round ") == len(g.results)
    assert ("declares" in text) or ("dropped" in text)


@pytest.mark.parametrize("spec", PRESETS)
@pytest.mark.parametrize("seed", [2, 3])
def test_partial_record_round_trips(spec: str, seed: int) -> None:
    g = play(spec, 2 + seed % 3, seed, cap=random.Random(seed).randrange(20, 120))
    text = export_record(g, short=True)
    h = import_record(text)
    assert state_to_dict(h) == state_to_dict(g)


def test_declare_and_drop_texts_round_trip() -> None:
    g = new_game("indian", players=3, seed=4)
    assert move_to_text(g, Move(DROP)) == "drop" and move_to_text(g, Move(DROP), short=True) == "dr"
    assert parse_move(g, "drop") == parse_move(g, "dr") == Move(DROP)
    assert move_to_text(g, Move(KNOCK)) == "declare"
    assert parse_move(g, "declare") == parse_move(g, "k") == Move(KNOCK)
    rng = random.Random(4)
    seen: set[int] = set()
    for _ in range(200):
        if g.is_over():
            break
        for m in g.legal_moves():
            seen.add(m.kind)
            for style in ({}, {"short": True}, {"unicode": True}):
                assert parse_move(g, move_to_text(g, m, **style)) == m
        legal = [m for m in g.legal_moves() if m.kind != DROP]
        g.apply(rng.choice(legal))
    assert {DROP, DISCARD} <= seen


@pytest.mark.parametrize("spec", PRESETS)
def test_save_and_load_continue_identically(spec: str) -> None:
    g = play(spec, 4, 5, cap=60)
    h = state_from_json(state_to_json(g))
    assert state_to_dict(h) == state_to_dict(g)
    assert (
        declare_fields(h).wild == declare_fields(g).wild
        and declare_fields(h).dropped == declare_fields(g).dropped
    )
    assert h.legal_moves() == g.legal_moves()
    r1, r2 = random.Random(9), random.Random(9)
    for _ in range(150):
        if g.is_over():
            break
        m = r1.choice(g.legal_moves())
        assert m == r2.choice(h.legal_moves())
        g.apply(m)
        h.apply(m)
    assert state_to_dict(h) == state_to_dict(g)


def test_older_saves_without_the_new_fields_still_load() -> None:
    g = new_game("basic", players=2, seed=1)
    d = state_to_dict(g)
    assert "wild" not in d and "dropped" not in d
    h = state_from_json(state_to_json(g))
    assert declare_fields(h).wild == -1 and declare_fields(h).dropped == (0, 0)


@pytest.mark.parametrize("spec", PRESETS)
@pytest.mark.parametrize("seed", range(3))
def test_positions_round_trip(spec: str, seed: int) -> None:
    g = play(spec, 3 + seed, seed, cap=30 + 37 * seed)
    for s in (g, *_declaring(g)):
        text = position_to_text(s)
        h = position_from_text(text)
        assert position_to_text(h) == text
        assert sorted(h.legal_moves()) == sorted(s.legal_moves())
        assert (
            declare_fields(h).dropped == declare_fields(s).dropped
            and declare_fields(h).wild % 54 == declare_fields(s).wild % 54
        )


def _declaring(g: GameState) -> list[GameState]:
    """``g`` in the knock phase, if its player can declare now."""
    if g.is_over() or Move(KNOCK) not in g.legal_moves():
        return []
    c = g.clone()
    c.apply(Move(KNOCK))
    return [c]


def test_views_show_the_wild_cut_and_drops_but_no_hidden_hand() -> None:
    g = new_game("indian", players=4, seed=6)
    g.apply(Move(DROP))
    for p in range(4):
        v = g.view(p)
        assert declare_fields(v).wild == declare_fields(g).wild and declare_fields(
            v
        ).dropped == tuple(declare_fields(g).dropped)
        assert v.hand == g.hands[p]
        assert all(v.known[q] == g.known[q] for q in range(4))
        assert v.stock_size == len(g.stock)
        assert not hasattr(v, "hands") and not hasattr(v, "stock")


def test_a_declaration_position_reads_back() -> None:
    text = (
        "indian AH2H3H5S6S7S8S9C9D9HKCKDJK4D/2C4C6C8CTC2D4D6D8DTDQS3S4S - 7D 78 1k -/- "
        "0,0 dealer=2 knocker=1 wild=JC"
    )
    g = position_from_text(text)
    again = position_to_text(g)
    assert g.phase is Phase.KNOCK and position_to_text(position_from_text(again)) == again
    assert "wild=JC" in again and "knocker=1" in again
    assert Move(DISCARD, 13 + 3) in g.legal_moves()  # 4D out
    g.apply(Move(DISCARD, 13 + 3))
    assert g.results[-1].reason is RoundEnd.DECLARE


def test_hints_explain_indian_moves() -> None:
    """The hint names the move and says why in Indian Rummy's own terms."""
    from rummykit.bots.hints import suggest

    g = new_game("indian", players=3, seed=12)
    seen = set()
    rng = random.Random(3)
    for _ in range(60):
        if g.is_over():
            break
        v = g.view(g.current)
        hint = suggest(v, budget=5, seed=1)
        assert hint.move in v.legal and hint.reason
        seen.add(hint.reason.split(":")[0].split(" ")[0])
        legal = [m for m in g.legal_moves() if m.kind != DROP]
        g.apply(rng.choice(legal) if rng.random() < 0.3 else hint.move)
    assert {"draw", "discard"} <= seen


def test_a_round_ended_inside_a_turn_starts_with_the_dealers_left() -> None:
    """A move that ends the round inside a turn (a declaration, a drop, Gin's last pass)
    must not pass the new round's first turn on: the player left of the new dealer
    starts it, on turn 1 (before, without the first-upcard phase, the dealer did)."""
    for spec in ("gin_match(first_upcard_option=false)", "indian_pool101"):
        g = new_game(spec, players=2, seed=3)
        rng = random.Random(1)
        rounds = 1
        while not g.is_over() and rounds < 5:
            g.apply(rng.choice(g.legal_moves()))
            if g.round_no != rounds and not g.is_over():
                rounds = g.round_no
                assert g.turn == 1 and g.current == (g.dealer + 1) % 2, (spec, rounds)
