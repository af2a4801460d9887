"""The two loaders of outside states: a saved state (JSON) and a position (text).

A reloaded state is the state that was saved, as every seat sees it; and both loaders
refuse what no play could reach, with the same typed errors, whatever the damage.
"""

from __future__ import annotations

import json
import os
import random
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from rummykit import GameState, Phase, new_game
from rummykit.cards import mask_of, parse_cards
from rummykit.invariants import MAX_SCORE, check_state
from rummykit.moves import DISCARD, DROP, MELD
from rummykit.position import PositionError, position_from_text, position_to_text
from rummykit.rules import PRESETS
from rummykit.serialize import (
    StateFormatError,
    state_from_dict,
    state_from_json,
    state_to_dict,
    state_to_json,
)
from rummykit.state import NO_CARD
from rummykit.variants.contract import BuyFields, buying
from rummykit.variants.gin import KnockFields
from rummykit.variants.indian import IndianFields, declare_fields

SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    # A failing seed is already minimal: shrinking would replay whole games.
    phases=[Stage.explicit, Stage.reuse, Stage.generate],
)


def _move(g: GameState, r: random.Random) -> None:
    """A random legal move, biased to melds and discards so that rounds end, and
    seldom a drop (which ends a two-player Indian deal at once)."""
    legal = g.legal_moves()
    if r.random() < 0.97:
        legal = [m for m in legal if m.kind != DROP] or legal
    active = [m for m in legal if m.kind >= MELD]
    if active and r.random() < 0.7:
        g.apply(r.choice(active))
        return
    discards = [m for m in legal if m.kind == DISCARD]
    g.apply(r.choice(discards if discards and r.random() < 0.5 else legal))


def _same_for_every_seat(g: GameState, h: GameState) -> None:
    for p in range(g.num_players):
        assert h.view(p) == g.view(p), f"seat {p} sees another state after a reload"
    assert h.legal_moves() == g.legal_moves()


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(SETTINGS, max_examples=2)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_reloaded_state_shows_every_seat_the_same(preset: str, seed: int) -> None:
    """At every move of a short random match (two deals, each cut at 40 turns, so the
    match's end and the second deal's window are reached), every seat's view and the
    legal moves of the state saved and loaded back are those of the state itself."""
    r = random.Random(seed)
    rules = PRESETS[preset]
    players = r.randint(rules.min_players, min(rules.max_players, rules.min_players + 1))
    g = new_game(f"{preset}(deals=2, max_turns=40)", players=players, seed=seed)
    for _ in range(400):
        _same_for_every_seat(g, state_from_dict(state_to_dict(g)))
        if g.is_over():
            break
        _move(g, r)


def test_gin_knock_at_the_wall_reloads_with_its_round() -> None:
    """Seed 000 (Gin): at the wall the player to act may knock with the upcard instead
    of drawing, so that turn has no draw and the round's moves cannot be counted back
    from the turn number: the saved state says where the round begins."""
    g = new_game("gin_match", seed=56)
    r = random.Random(56)
    while True:
        at_wall = g.phase is Phase.WALL
        g.apply(r.choice(g.legal_moves()))
        if at_wall and g.phase is Phase.KNOCK:
            break
    h = state_from_json(state_to_json(g))
    assert (len(g.history), g.round_start) == (1862, 1749)
    assert h.round_start == g.round_start
    _same_for_every_seat(g, h)


def test_saves_before_format_3_find_their_round_in_the_history() -> None:
    """A save written before ``round_start`` was stored (the web server's database
    holds such states) loads, its round found by walking back over the turns."""
    g = new_game("rami51", players=3, seed=4)
    r = random.Random(4)
    while g.round_no == 1 or g.phase is not Phase.PLAY:
        _move(g, r)
    d = state_to_dict(g)
    del d["round_start"]
    d["format"] = 2
    h = state_from_dict(d)
    assert h.round_start == g.round_start > 0
    _same_for_every_seat(g, h)
    d["format"] = 3
    with pytest.raises(StateFormatError, match="missing fields: round_start"):
        state_from_dict(d)


# -- one invariant check for both loaders ------------------------------------------------
DEAD_END = "rum500 2D7S3S4SKD+9D/5S9C9H2C - 4C 41 1p -/- 0,0 dealer=2 taken=9D pending=9D:use"
"""Seed 500 ("500 Rum", the deep draw): the deepest card taken must be used at once;
here nothing in the hand can meld with the 9D, so the player to act has no move."""


def test_a_dead_end_is_refused_by_both_loaders() -> None:
    """The same 500 Rum position, written as text and saved as JSON, is refused by both
    loaders for the same reason: the player to act has no legal move (the JSON is the
    saved state of a playable position with two of the hand's cards swapped away)."""
    with pytest.raises(PositionError) as by_text:
        position_from_text(DEAD_END)
    playable = position_from_text(DEAD_END.replace("2D7S", "9C9H").replace("9C9H2C", "2D7S2C"))
    d = state_to_dict(playable)
    nines, others = mask_of(parse_cards("9C 9H")), mask_of(parse_cards("2D 7S"))
    d["hands"] = [d["hands"][0] ^ nines ^ others, d["hands"][1] ^ nines ^ others]
    with pytest.raises(StateFormatError) as by_json:
        state_from_dict(d)
    assert {by_json.value.reason, by_text.value.reason} == {"the player to act has no legal move"}
    assert (by_json.value.field, by_text.value.field) == ("current", "active")


def test_a_position_can_hold_every_score_a_saved_state_can() -> None:
    """Scores reach :data:`~rummykit.invariants.MAX_SCORE` in both formats."""
    g = new_game("indian_pool101", players=3, seed=2)
    g.scores = [MAX_SCORE, -MAX_SCORE, 0]
    text = position_to_text(g)
    assert position_from_text(text).scores == state_from_json(state_to_json(g)).scores
    assert position_to_text(position_from_text(text)) == text


@pytest.mark.parametrize("field", ["buys", "buy_turn"])
def test_a_contract_save_without_its_buying_fields_is_refused(field: str) -> None:
    """A Contract Rummy save must hold both buying fields (``buys_per_round``)."""
    d = state_to_dict(new_game("contract", players=3, seed=1))
    del d[field]
    with pytest.raises(StateFormatError, match=f"missing fields: {field}"):
        state_from_dict(d)


# -- mutation fuzzers: every preset, both loaders ----------------------------------------
FUZZ = settings(SETTINGS, max_examples=120 * int(os.environ.get("RUMMYKIT_FUZZ_SCALE", "1")))
"""Examples per fuzzer: a few seconds each in the suite; ``RUMMYKIT_FUZZ_SCALE=50``
(and plain ``pytest``, which draws new examples each run) for a longer hunt."""
ODD_VALUES: tuple[Any, ...] = (
    None, True, False, 0.5, 1.0, "x", "", [], {}, [0], -1, -2, 0, 1, 2, 7, 52, 53, 54, 107,
    108, 161, 2**31, 2**64, -(2**70),
)  # fmt: skip
"""What a field of a saved state may become: wrong types and ints out of every range."""


@cache
def _reached(preset: str, seed: int) -> tuple[GameState, ...]:
    """States of one random match of ``preset``: its start, then every fourth move's
    (and every Gin knock phase's), to its end or 200 moves."""
    r = random.Random(seed)
    rules = PRESETS[preset]
    players = r.randint(rules.min_players, min(rules.max_players, rules.min_players + 2))
    g = new_game(f"{preset}(deals=2, max_turns=30)", players=players, seed=seed)
    out = [g.clone()]
    for step in range(200):
        if g.is_over():
            break
        _move(g, r)
        if step % 4 == 0 or g.phase in (Phase.KNOCK, Phase.LAYOFF, Phase.WALL, Phase.BUY):
            out.append(g.clone())
    out.append(g.clone())
    return tuple(out)


def _state(data: st.DataObject) -> GameState:
    preset = data.draw(st.sampled_from(sorted(PRESETS)), label="preset")
    states = _reached(preset, data.draw(st.integers(0, 2), label="seed"))
    return data.draw(st.sampled_from(states), label="state").clone()


def _zones(d: dict[str, Any]) -> list[tuple[str, int]]:
    """The places of a saved state that hold cards: (field, index) pairs."""
    zones = [("hands", p) for p in range(len(d["hands"]))] + [("stock", 0), ("discard", 0)]
    return zones + [("table", i) for i in range(len(d["table"]))]


def _cards_in(d: dict[str, Any], zone: tuple[str, int]) -> list[int]:
    name, i = zone
    if name == "hands":
        return [c for c in range(2 * 108) if d["hands"][i] >> c & 1]
    return list(d["table"][i][2] if name == "table" else d[name])


def _put(d: dict[str, Any], zone: tuple[str, int], cards: list[int]) -> None:
    name, i = zone
    if name == "hands":
        d["hands"][i] = mask_of(cards)
    elif name == "table":
        d["table"][i][2] = cards
    else:
        d[name] = cards


_CARD_DAMAGE = ("swap", "move", "copy", "remove")
_FIELD_DAMAGE = ("drop", "value", "entry")


def _damage(d: dict[str, Any], op: str, data: st.DataObject) -> None:
    """One damage to a saved state: a field dropped or given an odd value (a list's
    entry too), or a card swapped, moved, copied or removed between zones."""
    if op in ("drop", "value"):
        key = data.draw(st.sampled_from(sorted(d)))
        if op == "drop":
            del d[key]
        else:
            d[key] = data.draw(st.sampled_from(ODD_VALUES))
        return
    if op == "entry":  # a seat's flag, score or hand, a table meld, a history entry...
        lists = [k for k in sorted(d) if type(d[k]) is list and d[k]]
        key = data.draw(st.sampled_from(lists))
        i = data.draw(st.integers(0, len(d[key]) - 1))
        near = d[key][i] + 1 if type(d[key][i]) is int else 0
        d[key][i] = data.draw(st.sampled_from((*ODD_VALUES, near)))
        return
    zones = [z for z in _zones(d) if _cards_in(d, z)]
    src = data.draw(st.sampled_from(zones))
    dst = data.draw(st.sampled_from(_zones(d)))
    cards = _cards_in(d, src)
    k = data.draw(st.integers(0, len(cards) - 1))
    card = cards.pop(k)
    if op in ("remove", "move"):
        _put(d, src, cards)
    target = _cards_in(d, dst)
    if op == "swap" and target and dst != src:
        j = data.draw(st.integers(0, len(target) - 1))
        cards.insert(k, target[j])
        target[j] = card
        _put(d, src, cards)
        _put(d, dst, target)
    elif op != "remove":
        _put(d, dst, [*target, card])


def _damaged(d: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """``d`` with one to three damages (cards first, while every zone is there)."""
    ops = data.draw(st.lists(st.sampled_from(_CARD_DAMAGE + _FIELD_DAMAGE), min_size=1, max_size=3))
    for op in sorted(ops, key=_FIELD_DAMAGE.__contains__):
        _damage(d, op, data)
    return d


def _loads_a_valid_state(load: Any, data: Any, error: type[Exception]) -> GameState | None:
    """``load(data)``: a state that passes the checker and plays, or None when refused
    with ``error``; any other exception fails."""
    try:
        s = load(data)
    except error as exc:
        event(f"refused: {exc.reason[:30]}")
        return None
    event("loaded")
    check_state(s)
    legal = s.legal_moves()
    assert legal or s.is_over()
    if legal:
        s.clone().apply(legal[0])
    return s


@given(data=st.data())
@FUZZ
def test_fuzz_saved_states_of_every_preset(data: st.DataObject) -> None:
    """state_from_dict and state_from_json, on saved states of every preset with one to
    three fields damaged: a valid state, or StateFormatError."""
    d = _damaged(state_to_dict(_state(data)), data)
    _loads_a_valid_state(state_from_dict, d, StateFormatError)
    _loads_a_valid_state(state_from_json, json.dumps(d), StateFormatError)


_CARD_TEXT = re.compile(r"(?:JK=)?(?:[2-9TJQKA][CDHS]|JK)")
_KEY_VALUES = {
    "dealer": ("0", "1", "2", "9"), "round": ("0", "1", "2", "8"), "turn": ("1", "2", "99999"),
    "restocks": ("0", "1", "5"), "taken": ("-", "7H", "7H:out", "JK", "KS:out"),
    "pending": ("-", "7H:use", "7H:meld", "2C:use"), "melds": ("0", "1", "3"),
    "opening": ("0", "30", "51"), "pure": ("0", "1"), "laid_at_start": ("0", "1"),
    "knocker": ("-", "1", "2"), "stage": ("0", "1"), "limit": ("0", "3", "10"),
    "passes": ("0", "1", "2"), "draws": ("0", "1"), "repeated": ("0", "1"),
    "seed": ("0", "5"), "wild": ("-", "5D", "JK"), "dropped": ("-", "0,20", "20,40,0", "-1,0"),
    "buys": ("0,0,0", "1,0,0", "0,3,0,0"), "inturn": ("-", "1", "2", "3"),
}  # fmt: skip
"""Values each ``key=`` field may take: legal somewhere, and often wrong here."""


def _damage_text(text: str, data: st.DataObject) -> str:
    """One damage to a position: cards swapped, moved, copied or dropped between its
    fields, a field's value changed (who acts, flags, scores, a ``key=`` field), or
    a field dropped."""
    words = text.split(" ")
    op = data.draw(st.sampled_from(("swap", "move", "copy", "remove", "key", "active", "drop")))
    if op == "key":
        key = data.draw(st.sampled_from(sorted(_KEY_VALUES)))
        words = [w for w in words if not w.startswith(key + "=")]
        words.append(f"{key}={data.draw(st.sampled_from(_KEY_VALUES[key]))}")
    elif op == "active":
        i = data.draw(st.sampled_from((5, 6, 7)))  # active, flags, scores
        words[i] = data.draw(
            st.sampled_from(
                ("x", "1d", "2p", "1k", "2l", "1w", "1u", "3b", "m/-", "mol/ol", "0,0", "500,-3")
            )
        )
    elif op == "drop":
        del words[data.draw(st.integers(0, len(words) - 1))]
    else:
        fields = [i for i in (1, 2, 3, 4) if _CARD_TEXT.search(words[i])]
        if not fields:
            return text
        src = data.draw(st.sampled_from(fields))
        found = list(_CARD_TEXT.finditer(words[src]))
        m = data.draw(st.sampled_from(found))
        card = m.group().removeprefix("JK=")
        if op in ("move", "remove", "swap"):
            words[src] = words[src][: m.start()] + words[src][m.end() :] or "-"
        if op != "remove":
            dst = data.draw(st.sampled_from((1, 3, 4)))  # hands, discard, stock
            if op == "swap" and _CARD_TEXT.search(words[dst]):
                other = data.draw(st.sampled_from(list(_CARD_TEXT.finditer(words[dst]))))
                words[dst] = words[dst][: other.start()] + card + words[dst][other.end() :]
                words[src] = words[src] + other.group().removeprefix("JK=")
            else:
                words[dst] = ("" if words[dst] == "-" else words[dst]) + card
    return " ".join(words)


@given(data=st.data())
@FUZZ
def test_fuzz_positions_of_every_preset(data: st.DataObject) -> None:
    """position_from_text, on positions of every preset with one to three damages: a
    valid state, or PositionError."""
    g = _state(data)
    text = position_to_text(g, stock_order=data.draw(st.booleans(), label="stock order"))
    for _ in range(data.draw(st.integers(1, 3), label="damages")):
        text = _damage_text(text, data)
    _loads_a_valid_state(position_from_text, text, PositionError)


def _card_places(g: GameState) -> list[tuple[str, int]]:
    """The zones of a state that hold cards (hands, piles, table melds)."""
    n = g.num_players
    return (
        [("hands", p) for p in range(n)]
        + [("stock", 0), ("discard", 0)]
        + [("table", i) for i in range(len(g.table))]
    )


def _held(g: GameState, zone: tuple[str, int]) -> list[int]:
    name, i = zone
    if name == "hands":
        return [c for c in range(2 * 108) if g.hands[i] >> c & 1]
    return list(g.table[i].cards if name == "table" else getattr(g, name))


def _place(g: GameState, zone: tuple[str, int], cards: list[int]) -> None:
    name, i = zone
    if name == "hands":
        g.hands[i] = mask_of(cards)
    elif name == "table":
        g.table[i] = g.table[i]._replace(cards=tuple(cards))
    else:
        setattr(g, name, cards)


def _change(g: GameState, data: st.DataObject) -> None:
    """One change to a state that a position and a saved state both express: two cards
    trade places, or a field of the position (who acts, the phase, the flags, the turn's
    state, Gin's knock, Indian drops, Contract buys) takes another value of its kind."""
    n = g.num_players
    rules = g.rules
    over = g.phase is Phase.OVER
    choices = ["swap", "flag", "scores", "dealer", "turn", "known", "counters", "knock"]
    if not over:  # a position does not hold the rounds' results, which OVER counts
        choices += ["current", "phase"]
    if rules.declare:  # saved only for the games that have them
        choices.append("drops")
    if g.game.buying:
        choices.append("buys")
    if rules.decks == 1:  # a position names faces; with one deck, each face one card
        choices += ["taken", "pending"] if not over else ["taken"]
    else:  # with two, a position's taken or pending card may name the other copy
        g.taken = g.pending = NO_CARD
        g.pending_kind = 0
    op = data.draw(st.sampled_from(choices), label="change")
    seat = st.integers(0, n - 1)
    if op == "swap":  # not with a table meld, which a position writes as its shape
        zones = [z for z in _card_places(g) if _held(g, z) and z[0] != "table"]
        a, b = data.draw(st.lists(st.sampled_from(zones), min_size=2, max_size=2, unique=True))
        ca, cb = _held(g, a), _held(g, b)
        i, j = data.draw(st.integers(0, len(ca) - 1)), data.draw(st.integers(0, len(cb) - 1))
        ca[i], cb[j] = cb[j], ca[i]
        _place(g, a, ca)
        _place(g, b, cb)
        g.known = [k & h for k, h in zip(g.known, g.hands, strict=True)]  # a position
        # writes known cards within their hand
    elif op == "flag":
        flags = getattr(g, data.draw(st.sampled_from(("melded", "opened", "laid"))))
        p = data.draw(seat)
        flags[p] = not flags[p]
    elif op == "scores":
        g.scores[data.draw(seat)] = data.draw(st.sampled_from((-50, 0, 99, 101, 500, 10**12)))
    elif op == "dealer":
        g.dealer = data.draw(seat)
    elif op == "turn":
        g.turn = data.draw(
            st.sampled_from((1, 2, g.turn + 1, rules.max_turns + 1, rules.max_turns + 2))
        )
        g.restocks = data.draw(st.sampled_from((0, 1, g.restocks, 7)))
    elif op == "known":
        p = data.draw(seat)
        g.known[p] = data.draw(st.sampled_from((0, g.hands[p], g.hands[p] & -g.hands[p])))
    elif op == "counters":
        g.melds_this_turn = data.draw(st.integers(0, 3))
        g.open_points = data.draw(st.sampled_from((0, 30, 40, 51)))
        g.open_pure = data.draw(st.booleans())
        g.turn_start_laid = data.draw(st.booleans())
    elif op == "knock":
        g.knocker = data.draw(st.integers(-1, n - 1))
        stage = data.draw(st.integers(0, 1))
        limit = data.draw(st.sampled_from((0, 3, 10)))
        if type(g.family) is KnockFields:  # the knock games' own fields
            g.family = KnockFields(knock_stage=stage, knock_limit=limit)
        g.upcard_passes = data.draw(st.integers(0, 2))
        g.upcard_draws = data.draw(st.integers(0, 2))
        g.repeated = data.draw(st.booleans())
    elif op == "current":
        g.current = data.draw(seat)
    elif op == "phase":
        g.phase = data.draw(st.sampled_from([p for p in Phase if p is not Phase.OVER]))
    elif op == "pending":
        hand = _held(g, ("hands", g.current))
        g.pending = data.draw(st.sampled_from([*hand, *g.stock[:1]]))
        g.pending_kind = data.draw(st.sampled_from((1, 2)))
    elif op == "drops":
        values = (0, -1, rules.first_drop, rules.middle_drop)
        dropped = list(declare_fields(g).dropped)
        dropped[data.draw(seat)] = data.draw(st.sampled_from(values))
        wild = data.draw(st.sampled_from((-1, 4, 52)))  # a position names a face
        g.family = IndianFields(wild, tuple(dropped))
    elif op == "buys":
        buys = list(buying(g).buys)
        buys[data.draw(seat)] = data.draw(st.integers(0, 3))
        g.family = BuyFields(tuple(buys), data.draw(st.integers(-1, n - 1)))
    else:  # taken: a card of any zone
        zone = data.draw(st.sampled_from([z for z in _card_places(g) if _held(g, z)]))
        g.taken = data.draw(st.sampled_from(_held(g, zone)))


def _verdict(load: Any, data: Any, error: type[Exception]) -> str:
    """ "ok", or the reason ``load`` refused ``data`` with ``error``."""
    try:
        load(data)
    except error as exc:
        return str(getattr(exc, "reason", exc))
    return "ok"


@given(data=st.data())
@FUZZ
def test_both_loaders_agree_on_the_same_position(data: st.DataObject) -> None:
    """A state of every preset, changed as both formats can say, then saved as JSON
    and written as a position: both loaders accept it, or both refuse it for the same
    reason (the one check, :func:`~rummykit.invariants.check_state`)."""
    g = _state(data)
    for _ in range(data.draw(st.integers(1, 2), label="changes")):
        _change(g, data)
    g._legal = None
    by_json = _verdict(state_from_dict, state_to_dict(g), StateFormatError)
    by_text = _verdict(position_from_text, position_to_text(g), PositionError)
    event(f"{by_json[:30]} | {by_text[:30]}")
    assert by_json == by_text, position_to_text(g)


def test_every_game_s_save_holds_gin_s_knock_fields_at_a_new_deal_s_values() -> None:
    """Every game's saves have always held Gin's knock fields, and still do (so they
    save back byte for byte); another game's save with other values is refused."""
    g = new_game("basic", players=2, seed=4)
    d = state_to_dict(g)
    assert (d["knock_stage"], d["knock_limit"]) == (0, 0)
    assert state_to_dict(state_from_dict(d)) == d
    del d["knock_stage"], d["knock_limit"]
    assert state_to_dict(state_from_dict(d)) == state_to_dict(g)
    d["knock_limit"] = 5
    with pytest.raises(StateFormatError, match="knock_limit"):
        state_from_dict(d)
