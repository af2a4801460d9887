"""A state saved as JSON loads back exactly, and a damaged save never loads."""

from __future__ import annotations

import base64
import dataclasses
import json
import random
import struct
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from helpers import hang_guard
from rummykit import Game, GameState, Phase, Rules, new_game
from rummykit.invariants import check_state
from rummykit.moves import KNOCK, MELD
from rummykit.serialize import (
    StateFormatError,
    state_from_dict,
    state_from_json,
    state_to_dict,
    state_to_json,
)

PRESETS = ["basic", "classic", "cg101", "rami51", "gin", "gin_match"]


@pytest.mark.parametrize("preset", PRESETS)
def test_round_trip_mid_game_continues_identically(preset: str) -> None:
    g = new_game(preset, players=2, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        if g.is_over():
            break
        g.apply(rng.choice(g.legal_moves()))
    h = state_from_json(state_to_json(g))
    assert state_to_dict(h) == state_to_dict(g)
    assert h.legal_moves() == g.legal_moves()
    # both continue the same way, chance included
    r1, r2 = random.Random(9), random.Random(9)
    for _ in range(80):
        if g.is_over():
            break
        m = r1.choice(g.legal_moves())
        assert m == r2.choice(h.legal_moves())
        g.apply(m)
        h.apply(m)
    assert state_to_dict(h) == state_to_dict(g)


def _saved() -> dict[str, object]:
    g = new_game("basic", players=2, seed=1)
    g.apply(g.legal_moves()[0])
    return state_to_dict(g)


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(format=99),
        lambda d: d.pop("hands"),
        lambda d: d.update(rules="nonsense(("),
        lambda d: d.update(phase="DANCING"),
        lambda d: d.update(rng="x"),
        lambda d: d["rng"].__setitem__(1, "not base64!"),
        lambda d: d["rng"].__setitem__(1, d["rng"][1][:-8]),  # words missing
        lambda d: d.update(table=[[0, 1]]),
        lambda d: d.update(results=[{"round_no": 1}]),
        lambda d: d.update(stock=d["stock"][:-1]),  # a card lost
        lambda d: d.update(discard=d["discard"] + d["discard"]),  # a card twice
        lambda d: d.update(current=7),
        lambda d: d.update(history=["a"]),
    ],
)
def test_damaged_saves_are_refused(damage: object) -> None:
    d = _saved()
    damage(d)  # type: ignore[operator]
    with pytest.raises(StateFormatError):
        state_from_dict(d)


@pytest.mark.parametrize("text", ["", "[]", "{", "null", '{"format": 1}'])
def test_bad_json_is_refused(text: str) -> None:
    with pytest.raises(StateFormatError):
        state_from_json(text)


def test_saved_state_is_plain_json() -> None:
    d = json.loads(state_to_json(new_game("rami51", players=3, seed=2)))
    assert d["rules"] == "rami51" and len(d["hands"]) == 3


def test_format_1_saves_still_load() -> None:
    """Format 1 wrote the RNG's words as numbers; saves of that kind load unchanged."""
    g = new_game("cg101", players=3, seed=4)
    g.apply(g.legal_moves()[0])
    old = state_to_dict(g)
    del old["round_start"]  # stored from format 3 on
    version, internal, gauss = g.rng.getstate()
    old.update(format=1, rng=[version, list(internal), gauss])
    h = state_from_dict(json.loads(json.dumps(old)))
    assert state_to_dict(h) == state_to_dict(g)
    assert h.rng.random() == g.rng.random()


def test_saved_state_is_small() -> None:
    """The RNG's 625 words are stored as base64, not as decimal numbers."""
    assert len(state_to_json(new_game("basic", players=2, seed=3))) < 4_500  # format 1: 7,423


# -- issue #15, finding 4: the loader refuses every malformed document ----------------
def _mid_round() -> dict[str, Any]:
    """A three-player state at a draw with a meld on the table and known cards."""
    g = new_game("basic", players=3, seed=11)
    rng = random.Random(11)
    while not g.table or not any(g.known) or g.phase is not Phase.DRAW:
        g.apply(rng.choice(g.legal_moves()))
    return state_to_dict(g)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A damage that sets ``d[key][index]...`` (path ``"table.0.2.1"``) to ``value``."""
    *parents, last = path.split(".")

    def damage(d: dict[str, Any]) -> None:
        target: Any = d
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return damage


def _swap_meld_card(d: dict[str, Any]) -> None:
    """A table meld whose first card is swapped for a stock card of another face."""
    cards = d["table"][0][2]
    other = next(c for c in d["stock"] if c % 54 != cards[0] % 54 and c % 54 < 52)
    d["stock"][d["stock"].index(other)] = cards[0]
    cards[0] = other


def _claim_unheld(d: dict[str, Any]) -> None:
    """``known`` claims a card of another hand."""
    d["known"][0] |= d["hands"][1] & -d["hands"][1]


FINDING_4 = {
    # Each of these hung, raised another exception or loaded with the loader before
    # issue #15 (checked against that loader when the test was written).
    # "A negative hand mask hangs in bits()."
    "negative hand mask": _set("hands.0", -1),
    # "... a hand given as a string raise ... TypeError"
    "hand as a string": _set("hands.0", "3H 4H"),
    "hands as a string": _set("hands", "123"),
    # "... infinity ... OverflowError": int(inf) on a meld's shape
    "infinite meld shape": _set("table.0.1", float("inf")),
    "NaN card drawn from the pile": _set("taken", float("nan")),
    # "Float card ids (1.0) pass the conservation check."
    "float card in the stock": lambda d: d["stock"].__setitem__(0, float(d["stock"][0])),
    "float card in a meld": lambda d: d["table"][0][2].__setitem__(0, float(d["table"][0][2][0])),
    # "A short opened list, a float current or current = -1 load and break later."
    "short opened list": lambda d: d["opened"].pop(),
    "short known list": lambda d: d["known"].pop(),
    "long scores list": lambda d: d["scores"].append(0),
    "float current": lambda d: d.update(current=float(d["current"])),
    "bool current": lambda d: d.update(current=True),
    "dealer out of range": _set("dealer", 3),
    "round 0": _set("round_no", 0),
    "taken card in another hand": lambda d: d.update(taken=_lowest(d["hands"][1])),
    "pending card not held": lambda d: d.update(pending=d["stock"][0], pending_kind=1),
    "pending kind without a card": _set("pending_kind", 2),
    "knocker in a rummy game": _set("knocker", 1),
    # "A meld whose cards do not match its shape loads"
    "meld cards of other faces": _swap_meld_card,
    "meld shape out of range": _set("table.0.1", 10**6),
    "meld owner out of range": _set("table.0.0", 5),
    "meld missing a card": lambda d: d["stock"].append(d["table"][0][2].pop()),
    # "... and so does a known mask that claims cards the player does not hold."
    "known card not held": _claim_unheld,
    # history, events, the format and the RNG ("a bad RNG tuple must not raise a raw
    # error": OverflowError from random.setstate)
    "history action out of range": lambda d: d["history"].append(10**9),
    "float history action": lambda d: d["history"].append(1.5),
    "event from a seat past the table": lambda d: d["events"].append(["deal", 9, []]),
    "format true": _set("format", True),
    "unknown field": lambda d: d.update(extra=1),
    "RNG word negative": lambda d: d.update(format=1, rng=[3, [-1] * 625, None]),
    "RNG position huge": lambda d: d.update(format=1, rng=[3, [0] * 624 + [10**30], None]),
    "RNG spare value as text": _set("rng.2", "x"),
    "RNG spare value infinite": _set("rng.2", float("inf")),
    # found by tests/core/test_fuzz.py (test_fuzz_state_loader_text, seed 1): base64 raised
    # ValueError, not binascii.Error, for a character that is not ASCII
    "RNG words with a non-ASCII character": lambda d: d["rng"].__setitem__(
        1, "é" + d["rng"][1][1:]
    ),
}

STILL_REFUSED = {
    # Refused before issue #15 too; the strict loader must keep refusing them.
    "hand mask with a bit past the deck": lambda d: d["hands"].__setitem__(
        0, d["hands"][0] | 1 << 200
    ),
    "bool card in the discard pile": lambda d: d["discard"].append(True),
    "current -1 mid-round": _set("current", -1),
    "stock card id past the deck": lambda d: d["stock"].append(10**30),
    "result of another shape": lambda d: d.update(results=[{"round_no": 1}]),
    "event of another shape": lambda d: d["events"].append(["deal", 0]),
    "event of an unknown kind": lambda d: d["events"].append(["party", 0, []]),
    "cut event without its card": lambda d: d["events"].append(["cut", 0, []]),
    "event kind not text": lambda d: d["events"].append([7, 0, []]),
    "event value not a number": lambda d: d["events"].append(["cut", 0, ["AS"]]),
    "RNG word too large": lambda d: d.update(format=1, rng=[3, [2**40] * 625, None]),
    "RNG of two entries": lambda d: d.update(rng=d["rng"][:2]),
    "RNG version as text": _set("rng.0", "3"),
    "rules of 100,000 spaces": lambda d: d.update(rules="rami51(" + " " * 100_000 + ")"),
    "rules with a 5,000-digit number": lambda d: d.update(
        rules="rami51(target_score=" + "9" * 5000 + ")"
    ),
    "rules not text": _set("rules", 51),
}


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


@pytest.mark.parametrize(
    "damage", [*FINDING_4.values(), *STILL_REFUSED.values()], ids=[*FINDING_4, *STILL_REFUSED]
)
def test_finding_4_damaged_states_raise_state_format_error(
    damage: Callable[[dict[str, Any]], None],
) -> None:
    """Issue #15, finding 4: each damaged save raised another exception, hung, or
    loaded and broke later; every one must raise StateFormatError, at once, through
    both the dict and the JSON entry points (where JSON can say it)."""
    d = _mid_round()
    damage(d)
    with hang_guard(), pytest.raises(StateFormatError):
        state_from_dict(d)
    try:
        text = json.dumps(d)
    except (TypeError, ValueError):  # pragma: no cover - every damage here is JSON
        return
    with hang_guard(), pytest.raises(StateFormatError):
        state_from_json(text)


def _mid_round_json(old: str, new: str) -> str:
    text = json.dumps(_mid_round())
    assert old in text
    return text.replace(old, new, 1)


MALFORMED_JSON = {
    # issue #15, finding 4: RecursionError, ValueError, or loaded
    "deep nesting": lambda: "[" * 5000,
    "5000 digits": lambda: '{"format": 2, "current": ' + "9" * 5000 + "}",
    "NaN drawn card": lambda: _mid_round_json('"taken": -1', '"taken": NaN'),
    "Infinity drawn card": lambda: _mid_round_json('"taken": -1', '"taken": Infinity'),
    "1e400 drawn card": lambda: _mid_round_json('"taken": -1', '"taken": 1e400'),
    # refused before too
    "NaN format": lambda: '{"format": NaN}',
    "bad bytes": lambda: b"\xff\xfe{}",
    "too long": lambda: "x" * 1_000_001,
    "a string": lambda: '"a string"',
}


@pytest.mark.parametrize("make", MALFORMED_JSON.values(), ids=MALFORMED_JSON.keys())
def test_finding_4_malformed_json_raises_state_format_error(
    make: Callable[[], str | bytes],
) -> None:
    """Issue #15, finding 4: deep nesting and a 5,000-digit number raised RecursionError
    and ValueError, and NaN or infinity loaded as a card."""
    text = make()
    with hang_guard(), pytest.raises(StateFormatError):
        state_from_json(text)


def test_state_from_json_refuses_what_is_not_text() -> None:
    with pytest.raises(StateFormatError, match="text"):
        state_from_json(12)  # type: ignore[arg-type]
    with pytest.raises(StateFormatError, match="object"):
        state_from_dict([])


def test_errors_name_the_field() -> None:
    """A StateFormatError says which field is wrong, for people and for code."""
    d = _mid_round()
    d["opened"].pop()
    with pytest.raises(StateFormatError) as err:
        state_from_dict(d)
    assert err.value.field == "opened" and "expected 3 entries" in str(err.value)


def _phases_of(preset: str, seeds: range) -> Iterator[GameState]:
    """Every state of one random deal of ``preset`` per seed."""
    for seed in seeds:
        g = new_game(f"{preset}(deals=1)", players=2, seed=seed)
        rng = random.Random(seed)
        while True:
            yield g
            if g.is_over():
                break
            g.apply(rng.choice(g.legal_moves()))


@pytest.mark.parametrize("preset", PRESETS)
def test_every_reached_state_loads_exactly(preset: str) -> None:
    """The strict loader refuses nothing the engine reaches: every state of random
    matches (every phase Gin has: first upcard, knock, lay-off, wall, over) loads
    back equal, in format 3 and in formats 2 and 1 (which find the round's start in
    the history: ``test_loaders.py`` checks that)."""
    phases = set()
    for g in _phases_of(preset, range(3)):
        d = state_to_dict(g)
        assert state_to_dict(state_from_dict(d)) == d
        phases.add(g.phase)
        if g.is_over() or len(g.history) % 50 == 0:
            version, internal, gauss = g.rng.getstate()
            old = dict(d, format=1, rng=[version, list(internal), gauss])
            del old["round_start"]
            assert state_to_dict(state_from_dict(old)) | {"round_start": 0} == d | {
                "round_start": 0
            }
    expected = {Phase.DRAW, Phase.PLAY, Phase.OVER}
    if preset.startswith("gin"):
        expected |= {Phase.FIRST_UPCARD, Phase.KNOCK, Phase.LAYOFF}
    assert expected <= phases


# -- the one validator, on states built in code ------------------------------------------
def _gin_at(phase: Phase) -> GameState:
    """A Gin state in ``phase``, reached by play that prefers knocking (seeded)."""
    for seed in range(50):
        g = new_game("gin", seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            if g.phase is phase:
                return g
            legal = g.legal_moves()
            knock = [m for m in legal if m.kind in (KNOCK, MELD)]
            g.apply(knock[0] if knock and rng.random() < 0.5 else rng.choice(legal))
    raise AssertionError(f"no Gin deal reached {phase.name}")  # pragma: no cover


def _first_result(g: GameState) -> GameState:
    """``g`` played on (seeded) until it holds a round result."""
    rng = random.Random(1)
    while not g.results:
        g.apply(rng.choice(g.legal_moves()))
    return g


def _saved_state() -> GameState:
    return state_from_dict(_saved())


def _mid_state() -> GameState:
    return state_from_dict(_mid_round())


def _playing(spec: str) -> GameState:
    g = new_game(spec, players=2, seed=2)
    g.apply(g.legal_moves()[0])
    assert g.phase is Phase.PLAY
    return g


def _with_rules(g: GameState, spec: str) -> None:
    g.rules = Rules.parse(spec)
    g.game = Game.shared(g.rules, len(g.names))


def _pend(g: GameState, kind: int) -> None:
    g.pending = (g.hands[g.current] & -g.hands[g.current]).bit_length() - 1
    g.pending_kind = kind


def _move_pile(g: GameState, pile: str) -> None:
    """Empty ``pile`` into the other pile, so the cards still add up."""
    other = "stock" if pile == "discard" else "discard"
    getattr(g, other).extend(getattr(g, pile))
    setattr(g, pile, [])


def _score(g: GameState, value: Any) -> None:
    r = g.results[0]
    g.results[0] = dataclasses.replace(r, players=(value, *r.players[1:]))


def _score_card(g: GameState, card: int) -> None:
    r = g.results[0]
    first = dataclasses.replace(r.players[0], cards=(card, *r.players[0].cards))
    g.results[0] = dataclasses.replace(r, players=(first, *r.players[1:]))


CHECKS: dict[str, tuple[Callable[[], GameState], Callable[[GameState], None], str]] = {
    # name: (a valid state, what breaks it, the field the error names)
    "a flag that is 1": (_saved_state, lambda g: g.melded.__setitem__(0, 1), "melded[0]"),
    "a name that is a number": (_saved_state, lambda g: g.names.__setitem__(0, 5), "names[0]"),
    "a name too long": (_saved_state, lambda g: g.names.__setitem__(0, "x" * 10_001), "names[0]"),
    "the table as a tuple": (_saved_state, lambda g: setattr(g, "table", ()), "table"),
    "a card in two hands": (
        _saved_state, lambda g: g.hands.__setitem__(1, g.hands[1] | g.hands[0]), "hands[1]",
    ),
    "a card twice in the stock": (_saved_state, lambda g: g.stock.append(g.stock[0]), "stock[30]"),
    "other rules": (_saved_state, lambda g: setattr(g, "rules", Rules.preset("classic")), "rules"),
    "a float seed": (_saved_state, lambda g: setattr(g, "seed", 1.0), "seed"),
    "a phase that is an int": (_saved_state, lambda g: setattr(g, "phase", 1), "phase"),
    "no generator": (_saved_state, lambda g: setattr(g, "rng", None), "rng"),
    "a meld as a tuple": (
        _mid_state, lambda g: g.table.__setitem__(0, tuple(g.table[0])), "table[0]",
    ),
    "a pending card of kind 0": (
        lambda: _playing("rami51"), lambda g: _pend(g, 0), "pending_kind",
    ),
    "a wall without a wall rule": (
        lambda: _gin_at(Phase.WALL), lambda g: _with_rules(g, "gin(wall=0)"),
        "phase",
    ),
    "first upcard without an upcard": (
        lambda: _gin_at(Phase.FIRST_UPCARD), lambda g: _move_pile(g, "discard"), "discard",
    ),
    "first upcard without a stock": (
        lambda: _gin_at(Phase.FIRST_UPCARD), lambda g: _move_pile(g, "stock"), "stock",
    ),
    "the knocker lays off": (
        lambda: _gin_at(Phase.LAYOFF), lambda g: setattr(g, "knocker", g.current), "knocker",
    ),
    "a result too many": (
        lambda: _first_result(_saved_state()), lambda g: g.results.append(g.results[0]), "results",
    ),
    "a result that is a dict": (
        lambda: _first_result(_saved_state()), lambda g: g.results.__setitem__(0, {}), "results[0]",
    ),
    "a player's score that is a tuple": (
        lambda: _first_result(_saved_state()), lambda g: _score(g, ()), "results[0].players[0]",
    ),
    "a result card past the deck": (
        lambda: _first_result(_saved_state()), lambda g: _score_card(g, 60),
        "results[0].players[0].cards[0]",
    ),
}  # fmt: skip


@pytest.mark.parametrize(("make", "damage", "field"), CHECKS.values(), ids=CHECKS.keys())
def test_check_state_names_each_broken_field(
    make: Callable[[], GameState], damage: Callable[[GameState], None], field: str
) -> None:
    """check_state, the validator both readers share, refuses a state built in code
    with a wrong field, naming it (the readers' own tests cannot reach these: they
    build tuples, phases and generators themselves)."""
    g = make()
    check_state(g)
    damage(g)
    with pytest.raises(StateFormatError) as err:
        check_state(g)
    assert err.value.field == field, str(err.value)


@pytest.mark.parametrize(
    ("damage", "field"),
    [
        (lambda d: d.update(names=["A"] * 7, scores=[0] * 7), "names"),
        (lambda d: d["rng"].__setitem__(1, 12345), "rng"),
        (lambda d: d["rng"].__setitem__(1, _words([0] * 624 + [700])), "rng"),
        (lambda d: d["rng"].__setitem__(1, "QUJD"), "rng"),
        (lambda d: d.update(results=[[]]), "results[0]"),
        (lambda d: d.update(results=[dict(_RESULT, players=[[]])]), "results[0].players[0]"),
        (lambda d: d.update(results=[dict(_RESULT, reason="won")]), "results[0].reason"),
        (lambda d: d.update(results=[dict(_RESULT, reason=["out"])]), "results[0].reason"),
    ],
    ids=["seven players", "words not text", "position 700", "three words", "result a list",
         "player a list", "an unknown round end", "a round end not text"],
)  # fmt: skip
def test_loader_names_the_field(damage: Callable[[dict[str, Any]], None], field: str) -> None:
    d = _saved()
    damage(d)
    with pytest.raises(StateFormatError) as err:
        state_from_dict(d)
    assert err.value.field == field, str(err.value)


def _words(words: list[int]) -> str:
    return base64.b64encode(struct.pack(f"<{len(words)}I", *words)).decode("ascii")


_RESULT = {"round_no": 1, "dealer": 0, "winner": None, "went_out": False, "reason": "wall",
           "rummy": False, "players": []}  # fmt: skip
