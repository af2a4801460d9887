"""Mutation fuzzers for every reader of outside input (issue #15: "A mutation fuzzer for
the loader, notation and rules parsers runs in the suite within a bounded time").

Each fuzzer starts from valid inputs (saved states, positions, game records, moves,
rules specs in text, JSON and TOML), damages them with a small seeded mutator (byte and
character flips, truncation, duplication, splicing of two inputs, numbers replaced by
huge, negative, float, bool or text values, deep nesting; for JSON also whole values
replaced, dropped or added in the parsed tree) and feeds each result to the reader.
The property, for every input: it loads, or it raises the project's own error (a
``RummyError``), never another exception and never a hang.  What loads must also be
usable: a loaded state lists its legal moves and plays one.

The seeds are fixed, so a run is reproducible and a failure names its seed and input.
For a longer hunt by hand, ``RUMMYKIT_FUZZ_SCALE=20`` runs twenty times as many inputs
and ``RUMMYKIT_FUZZ_SEED=100`` other seeds; the suite runs scale 1 from seed 0, a
second or two per reader.
"""

from __future__ import annotations

import json
import os
import random
import string
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from helpers import hang_guard
from rummykit import GameState, RummyError, new_game
from rummykit.notation import export_record, import_record, move_to_text, parse_move
from rummykit.position import position_from_text, position_to_text
from rummykit.rules import Rules
from rummykit.serialize import state_from_dict, state_from_json, state_to_dict, state_to_json

SCALE = int(os.environ.get("RUMMYKIT_FUZZ_SCALE", "1"))
_FIRST_SEED = int(os.environ.get("RUMMYKIT_FUZZ_SEED", "0"))
SEEDS = range(_FIRST_SEED, _FIRST_SEED + 4)
"""Each fuzzer runs once per seed; the inputs per seed are fixed by the seed."""
HANG = 20.0
"""Seconds one input may take before it counts as a hang: hundreds of times what any
input here needs (a guard, not a speed test)."""


# -- the mutator --------------------------------------------------------------------------
NUMBERS = [
    "0", "-1", "1", "2", "53", "54", "107", "108", "255", "4294967296", "-0", "1.0", "0.5",
    "1e400", "-1e400", "NaN", "Infinity", "-Infinity", "true", "false", "null", '"7"',
    "9" * 50, "-" + "9" * 50, "9" * 5000, "0x10", "1_000",
]  # fmt: skip
"""What a run of digits may become."""
ODD_TEXT = [
    "", " ", "\t", "\n", "\r\n", "\x00", "\ufeff", "{", "}", "[", "]", "(", ")", ",", ";",
    ":", "=", "/", "+", "-", "*", '"', "\\", "JK", "JK=", "10", "T", "🃏", "♥", "é", "\u2028",
    "[" * 5000, "{" * 200, "(" * 3000, " " * 20000, "x" * 3000,
]  # fmt: skip
"""Text spliced in at random places."""
VALUES: list[Any] = [
    0, -1, 1, 2, 52, 53, 54, 107, 108, 2**31, 2**63, 10**30, -(10**30), 1.0, 0.5, -0.0,
    1e308, float("inf"), float("nan"), True, False, None, "", "x", "3H", "DRAW", [], {},
    [0], [[0, 0, [0, 1, 2]]], {"format": 2}, "9" * 300,
]  # fmt: skip
"""What a value of a parsed JSON tree may become."""


class Mutator:
    """Damages valid inputs; every choice comes from the seeded ``rng``."""

    def __init__(self, rng: random.Random, corpus: list[str]) -> None:
        self.rng = rng
        self.corpus = corpus

    def text(self, s: str) -> str:
        """One to three text mutations of ``s``."""
        for _ in range(self.rng.randint(1, 3)):
            s = self.rng.choice(self._TEXT_OPS)(self, s)
        return s

    def _flip(self, s: str) -> str:
        if not s:
            return self.rng.choice(string.printable)
        i = self.rng.randrange(len(s))
        pool = string.printable + "♣♦♥♠🃏é\x00\u2028"
        return s[:i] + self.rng.choice(pool) + s[i + 1 :]

    def _delete(self, s: str) -> str:
        i, j = self._span(s)
        return s[:i] + s[j:]

    def _truncate(self, s: str) -> str:
        return s[: self.rng.randint(0, len(s))]

    def _duplicate(self, s: str) -> str:
        i, j = self._span(s)
        return s[:j] + s[i:j] * self.rng.choice((1, 2, 50)) + s[j:]

    def _splice(self, s: str) -> str:
        other = self.rng.choice(self.corpus)
        return s[: self.rng.randint(0, len(s))] + other[self.rng.randint(0, len(other)) :]

    def _insert(self, s: str) -> str:
        i = self.rng.randint(0, len(s))
        return s[:i] + self.rng.choice(ODD_TEXT) + s[i:]

    def _number(self, s: str) -> str:
        """Replace a run of digits (with its sign) by an odd number or a non-number."""
        runs = [i for i in range(len(s)) if s[i].isdigit() and (i == 0 or not s[i - 1].isdigit())]
        if not runs:
            return self._insert(s)
        i = self.rng.choice(runs)
        if i > 0 and s[i - 1] == "-":
            i -= 1
        j = i + 1
        while j < len(s) and s[j].isdigit():
            j += 1
        return s[:i] + self.rng.choice(NUMBERS) + s[j:]

    def _swap_tokens(self, s: str) -> str:
        words = s.split(" ")
        if len(words) > 1:
            a, b = self.rng.sample(range(len(words)), 2)
            words[a], words[b] = words[b], words[a]
        return " ".join(words)

    def _span(self, s: str) -> tuple[int, int]:
        i = self.rng.randint(0, len(s))
        return i, min(len(s), i + self.rng.choice((1, 2, 5, 20, 200)))

    _TEXT_OPS: tuple[Callable[[Mutator, str], str], ...] = (
        _flip, _delete, _truncate, _duplicate, _splice, _insert, _number, _number, _swap_tokens,
    )  # fmt: skip

    def tree(self, value: Any) -> Any:
        """A copy of a parsed JSON value with one node replaced, dropped or added."""
        value = json.loads(json.dumps(value))
        parent, key = self._node(value)
        if parent is None:
            return self.rng.choice(VALUES)
        op = self.rng.random()
        if op < 0.6:
            parent[key] = self.rng.choice([*VALUES, self._any_node(value)])
        elif op < 0.75 and isinstance(parent, dict):
            del parent[key]
        elif op < 0.85 and isinstance(parent, list):
            parent.insert(key, self.rng.choice(VALUES))
        elif isinstance(parent, list):
            del parent[key]
        else:
            parent["extra" if self.rng.random() < 0.5 else key + "_"] = 1
        return value

    def _node(self, value: Any) -> tuple[Any, Any]:
        """A random (container, key) in the tree, or (None, None) for the root."""
        parent, key = None, None
        node = value
        while (
            isinstance(node, dict | list) and node and (parent is None or self.rng.random() < 0.6)
        ):
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            parent, key = node, self.rng.choice(keys)
            node = node[key]
        return parent, key

    def _any_node(self, value: Any) -> Any:
        parent, key = self._node(value)
        return value if parent is None else parent[key]


# -- the property -------------------------------------------------------------------------
def loads_or_refuses(read: Callable[[Any], Any], data: Any, seed: int) -> Any:
    """``read(data)``, or None if it raised a RummyError; any other exception or a hang
    fails the test, naming the seed and the input."""
    try:
        with hang_guard(HANG):
            return read(data)
    except RummyError:
        return None
    except Exception as exc:
        shown = repr(data)
        raise AssertionError(
            f"seed {seed}: {type(exc).__name__}: {exc} for input "
            f"{shown[:600]}{'...' if len(shown) > 600 else ''}"
        ) from exc


def usable(g: GameState) -> None:
    """A loaded state must play: list its moves, apply one, list again."""
    legal = g.legal_moves()
    if legal:
        g.apply(legal[0])
        g.legal_moves()


def fuzz(
    seed: int,
    corpus: list[str],
    read: Callable[[str], Any],
    rounds: int,
    then: Callable[[Any], None] | None = None,
) -> tuple[int, int]:
    """Feed ``rounds`` text mutations of the corpus to ``read``; (loaded, refused)."""
    rng = random.Random(seed)
    mutator = Mutator(rng, corpus)
    loaded = refused = 0
    for _ in range(rounds * SCALE):
        data = mutator.text(rng.choice(corpus))
        result = loads_or_refuses(read, data, seed)
        if result is None:
            refused += 1
            continue
        loaded += 1
        if then is not None:
            loads_or_refuses(then, result, seed)
    return loaded, refused


# -- the corpus ---------------------------------------------------------------------------
PRESETS = ("basic", "classic", "cg101", "rami51", "gin", "gin_match")


@cache
def states() -> tuple[GameState, ...]:
    """States of every preset at several points of random play (every Gin phase too)."""
    out = []
    for i, preset in enumerate(PRESETS):
        rules = Rules.preset(preset)
        for players in sorted({rules.min_players, rules.max_players}):
            g = new_game(f"{preset}(deals=2)", players=players, seed=i)
            rng = random.Random(i)
            for step in range(400):
                if step in (0, 3, 30, 120) or g.phase.name in ("KNOCK", "LAYOFF", "WALL"):
                    out.append(g.clone())
                if g.is_over():
                    break
                g.apply(rng.choice(g.legal_moves()))
            out.append(g.clone())
    return tuple(out)


@cache
def state_texts() -> list[str]:
    return [state_to_json(g) for g in states()[::3]]


@cache
def position_texts() -> list[str]:
    out = [position_to_text(g) for g in states()]
    return out + [position_to_text(g, stock_order=False) for g in states()[::2]]


@cache
def records() -> list[str]:
    """Records of short matches (a full record replays every move: keep them short)."""
    out = []
    for i, spec in enumerate(("basic(deals=1)", "rami51(deals=1)", "gin", "cg101(deals=1)")):
        g = new_game(spec, players=2 + i % 2, seed=40 + i)
        rng = random.Random(i)
        for _ in range(60):
            if g.is_over():
                break
            g.apply(rng.choice(g.legal_moves()))
        out.append(export_record(g, deals=i % 2 == 0))
    return out


@cache
def move_texts() -> list[str]:
    out = []
    for g in states()[::4]:
        out += [move_to_text(g, m) for m in g.legal_moves()[:6]]
        out += [move_to_text(g, m, short=True, unicode=True) for m in g.legal_moves()[-3:]]
    return out


RULE_SPECS = [
    *PRESETS,
    "basic(multiple_melds=true, ace=high_or_low)",
    "rami51(opening_minimum=40, set_suits=any, jokers_per_meld=2)",
    "gin(oklahoma=true, knock_card=7)",
    "classic(max_restocks=2, deals=3, rummy_bonus=plus_ten)",
    "cg101(first_upcard_option=true, discard_pickup=must_use)",
]


@cache
def rules_json() -> list[str]:
    return [Rules.parse(spec).to_json() for spec in RULE_SPECS]


@cache
def rules_toml() -> list[str]:
    out = []
    for spec in RULE_SPECS:
        opts = json.loads(Rules.parse(spec).to_json())
        lines = ["[rules]"] + [f"{k} = {json.dumps(v)}" for k, v in opts.items() if v is not None]
        out.append("\n".join(lines) + "\n")
    return out


# -- the fuzzers --------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_fuzz_state_loader_text(seed: int) -> None:
    """state_from_json: mutated saved states (text)."""
    _loaded, refused = fuzz(seed, state_texts(), state_from_json, 1000, usable)
    assert refused > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzz_state_loader_tree(seed: int) -> None:
    """state_from_dict and state_from_json: saved states with one value of their tree
    replaced (by a huge, negative, float, bool, text, list or other node), dropped or
    added; the JSON form refuses NaN and infinity, the dict form must too."""
    rng = random.Random(seed)
    mutator = Mutator(rng, [])
    trees = [state_to_dict(g) for g in states()]
    for _ in range(800 * SCALE):
        d = mutator.tree(rng.choice(trees))
        g = loads_or_refuses(state_from_dict, d, seed)
        if g is not None:
            loads_or_refuses(usable, g, seed)
        try:
            text = json.dumps(d)
        except (TypeError, ValueError):  # pragma: no cover - every tree here is JSON
            continue
        loads_or_refuses(state_from_json, text, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzz_position_parser(seed: int) -> None:
    """position_from_text: mutated positions of every preset and phase; what loads
    plays a move and writes a position that reads back."""

    def check(g: GameState) -> None:
        position_from_text(position_to_text(g))
        usable(g)

    loaded, refused = fuzz(seed, position_texts(), position_from_text, 1500, check)
    assert loaded > 0 and refused > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzz_record_parser(seed: int) -> None:
    """import_record: mutated game records (text and bytes)."""
    _loaded, refused = fuzz(seed, records(), import_record, 120)
    assert refused > 0
    rng = random.Random(seed)
    mutator = Mutator(rng, records())
    for _ in range(60 * SCALE):
        data = mutator.text(rng.choice(records())).encode("utf-8", "surrogatepass")
        cut = rng.randrange(len(data) + 1)
        loads_or_refuses(import_record, data[:cut] + bytes([rng.randrange(256)]) + data[cut:], seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzz_move_parser(seed: int) -> None:
    """parse_move: mutated move texts, read in states of every preset."""
    rng = random.Random(seed)
    mutator = Mutator(rng, move_texts())
    pool = states()
    for _ in range(2500 * SCALE):
        g = rng.choice(pool)
        loads_or_refuses(
            lambda t, g=g: parse_move(g, t), mutator.text(rng.choice(move_texts())), seed
        )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("name", "corpus", "read"),
    [
        ("spec", lambda: RULE_SPECS, Rules.parse),
        ("json", rules_json, Rules.from_json),
        ("toml", rules_toml, Rules.from_toml),
    ],
)
def test_fuzz_rules_parser(
    seed: int, name: str, corpus: Callable[[], list[str]], read: Callable[[str], Rules]
) -> None:
    """Rules.parse, Rules.from_json and Rules.from_toml: mutated rules; a rule set that
    is accepted starts a match."""

    def plays(rules: Rules) -> None:
        new_game(rules, players=rules.min_players, seed=seed).legal_moves()

    loaded, refused = fuzz(seed, list(corpus()), read, 1500, plays)
    assert loaded > 0 and refused > 0


def test_mutator_makes_every_kind_of_damage() -> None:
    """The fuzzers are only as good as their mutations: each kind happens."""
    rng = random.Random(0)
    mutator = Mutator(rng, ["abc 123"])
    out = {mutator.text("basic 3H4H5H/KS - 7D 47 1p -/- 0,0 dealer=2") for _ in range(400)}
    assert any("9" * 50 in t for t in out) and any("1e400" in t for t in out)
    assert any("[" * 5000 in t for t in out) and any(len(t) < 20 for t in out)
    assert any("abc" in t for t in out)  # spliced
    trees = [mutator.tree({"a": [1, 2, {"b": 3}], "c": "x"}) for _ in range(300)]
    assert any(not isinstance(t, dict) or "a" not in t or "c" not in t for t in trees)
    assert any(isinstance(t, dict) and "extra" in t for t in trees)
