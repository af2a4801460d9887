"""A game state as JSON and back, exactly: the same state, RNG included.

>>> from rummykit import new_game
>>> g = new_game("rami51", players=3, seed=9)
>>> g.apply(g.legal_moves()[0])
>>> h = state_from_json(state_to_json(g))
>>> h.hands == g.hands and h.stock == g.stock and h.legal_moves() == g.legal_moves()
True

A saved state is outside data (the web server keeps its tables as saved states), so
loading one trusts nothing: :func:`state_from_json` raises :class:`StateFormatError`
for every document that is not a state the engine could have reached, and never
hangs or fails with another exception.  The text is at most :data:`MAX_JSON_CHARS`
characters, the rules spec in it at most ``rules.MAX_SPEC_LENGTH``; JSON's own limits
(nesting, 4,300-digit numbers) and ``NaN``/``Infinity`` are refused; then every field
is checked by :func:`rummykit.invariants.check_state` (exact types, ranges, card
conservation, melds against their shapes, known cards within the hand).

>>> d = state_to_dict(g)
>>> d["hands"][1] = -1          # would never empty in cards.bits()
>>> state_from_dict(d)
Traceback (most recent call last):
...
rummykit.fields.StateFormatError: hands[1]: -1 is not a hand of this deck
"""

from __future__ import annotations

import base64
import json
import math
import random
import struct
from functools import lru_cache
from typing import Any

from .errors import RummyError
from .events import Event, event_from_wire
from .family import FamilyFields
from .invariants import StateFormatError, check_state
from .results import RoundEnd
from .rules import Rules
from .scoring import PlayerScore, RoundResult
from .state import Game, GameState, Phase, rng_in_state, round_start_of
from .table import TableMeld
from .variants import VARIANTS
from .variants.upcard import UPCARD_FIELDS

__all__ = [
    "FORMAT", "MAX_JSON_CHARS", "StateFormatError", "result_to_dict",
    "rules_from_text", "state_from_dict", "state_from_json", "state_to_dict", "state_to_json",
]  # fmt: skip

FORMAT = 3
"""The format written.  3 stores ``round_start``, where the current round begins in
the history: views, the bots and the review read the round's moves from there, and
the history alone does not always say (a Gin knock at the wall, or a match ended by
the turn or restock limit, begins a turn without a draw).  2 stores the RNG's Mersenne
Twister words as base64 (3.3 KB instead of 6.9 KB of decimal numbers, nearly all of a
saved state); format 1 has the words as a list of numbers.  Formats 1 and 2 are still
read, their round found by :func:`~rummykit.state.round_start_of`."""
_READABLE = (1, 2, 3)
_ROUND_START = frozenset(("round_start",))
"""Saved from format 3 on."""

MAX_JSON_CHARS = 1_000_000
"""Longest saved state read.  A whole Gin match to 100 (18,000 moves) is about 110 KB;
the cap bounds the time a hostile document can cost."""

_SCALARS = (
    "round_no", "dealer", "current", "taken", "pending", "pending_kind", "melds_this_turn",
    "open_points", "open_pure", "turn_start_laid", "turn", "restocks", "knocker",
    *UPCARD_FIELDS, "repeated",
)  # fmt: skip
_LISTS = ("names", "scores", "hands", "stock", "discard", "melded", "opened", "laid", "known")
_FIELDS = frozenset(
    ("format", "rules", "seed", "phase", "rng", "table", "results", "history", "events",
     *_SCALARS, *_LISTS)
)  # fmt: skip
_FAMILY_KEYS = frozenset().union(*(v.family_fields.json_keys() for v in VARIANTS))
"""Every family's own fields (:mod:`rummykit.family`), saved under their names by
the games that have them (Contract Rummy's buying fields only where the
rules buy), so every other game's saved states are as before."""
_RESULT_FIELDS = frozenset(
    ("round_no", "dealer", "winner", "went_out", "reason", "rummy", "players")
)
_SCORE_FIELDS = frozenset(("cards", "hand_points", "delta", "notes"))
_WILD = frozenset(("wild",))
"""A declaration game's wild cut (``RoundResult.wild``): saved only there."""
_BONUS = frozenset(("bonus",))
"""A match-end bonus (``PlayerScore.bonus``): saved only where there is one."""
_MT_WORDS = 625
"""A Mersenne Twister state: 624 words and the position in them."""


def state_to_dict(s: GameState) -> dict[str, Any]:
    version, internal, gauss = s.rng.getstate()
    words = base64.b64encode(struct.pack(f"<{len(internal)}I", *internal)).decode("ascii")
    d: dict[str, Any] = {
        "format": FORMAT,
        "rules": s.game.spec,
        "seed": getattr(s, "seed", None),
        "phase": s.phase.name,
        "rng": [version, words, gauss],
        "table": [[tm.owner, tm.shape, list(tm.cards)] for tm in s.table],
        "results": [result_to_dict(r) for r in s.results],
        "history": list(s.history),
        "round_start": s.round_start,
        "events": [[e.kind, e.player, list(e.values)] for e in s.events],
    }
    families = _family_json(s)
    for name in _SCALARS:
        d[name] = getattr(s, name)
        if name in families:
            d.update(families.pop(name))
    for name in _LISTS:
        d[name] = list(getattr(s, name))
    for fields in families.values():
        d.update(fields)
    return d


def _family_json(s: GameState) -> dict[str, dict[str, Any]]:
    """The family fields a save holds, by the key they follow ("": last): the game's
    own, and those every game saves (:attr:`~rummykit.family.FamilyFields.saved_by_all`)
    at their values of a new deal."""
    family = s.game.family_type
    out: dict[str, dict[str, Any]] = {}
    for variant in VARIANTS:
        other = variant.family_fields
        if other is not family and other.saved_by_all:
            out.setdefault(other.json_after, {}).update(other.fresh(len(s.names)).to_json())
    out.setdefault(family.json_after, {}).update(s.family.to_json())
    return out


def state_from_dict(d: Any) -> GameState:
    """The state saved as ``d`` (:func:`state_to_dict`), checked field by field."""
    if type(d) is not dict:
        raise StateFormatError("a saved state is a JSON object")
    fmt = d.get("format")
    if type(fmt) is not int or fmt not in _READABLE:
        raise StateFormatError(f"unsupported state format {fmt!r}"[:80], "format")
    plain = dict(d)
    fields = _FIELDS | _ROUND_START if fmt >= 3 else _FIELDS
    _exact_keys(plain, fields | (_FAMILY_KEYS & d.keys()), "")
    rules = rules_from_text(d["rules"], StateFormatError)
    names = _list(d["names"], "names")
    try:
        game = Game.shared(rules, len(names))
    except RummyError as exc:
        raise StateFormatError(str(exc), "names") from None
    family = game.family_type
    if family.json_optional:
        d = plain = {**family.fresh(len(names)).to_json(), **plain}
    fields |= family.json_keys()
    _drop_other_families(plain, family, len(names))
    if plain.keys() != fields:
        _exact_keys(plain, fields, "")
    s = GameState.__new__(GameState)
    s.game = game
    s.rules = rules
    s.seed = d["seed"]
    phase = d["phase"]
    if type(phase) is not str or phase not in Phase.__members__:
        raise StateFormatError(f"not a phase: {phase!r}"[:80], "phase")
    s.phase = Phase[phase]
    s.rng = _rng_from(d["rng"], fmt)
    s.table = [_table_meld(m, i) for i, m in enumerate(_list(d["table"], "table"))]
    s.results = [_result_from_dict(r, i) for i, r in enumerate(_list(d["results"], "results"))]
    s.history = _list(d["history"], "history")
    s.round_start = d["round_start"] if fmt >= 3 else 0
    s.events = [_event(e, i) for i, e in enumerate(_list(d["events"], "events"))]
    for name in _SCALARS:
        setattr(s, name, d[name])
    for name in _LISTS:
        setattr(s, name, _list(d[name], name))
    s.family = family.from_json(d)
    check_state(s)
    if fmt < 3:  # found from the history: a state whose history does not hold its
        # round (hand-built) shows its whole history to views
        s.round_start = round_start_of(s) or 0
    return s


def rules_from_text(text: Any, error: type[StateFormatError]) -> Rules:
    """The rules of a saved state or position (:meth:`Rules.parse`, which caps the
    spec's length); any failure is raised as ``error`` on the field ``rules``."""
    if type(text) is not str:
        raise error("expected a rules spec", "rules")
    try:
        return _parse_rules(text)
    except Exception as exc:  # any failure of an outside rules spec is a bad document
        why = str(exc) if isinstance(exc, RummyError) else type(exc).__name__
        raise error(why, "rules") from None


@lru_cache(maxsize=64)
def _parse_rules(text: str) -> Rules:
    """Rules.parse of a saved spec (options that change nothing accepted), memoised: a
        server loads the states of a few rule sets over and over,
    and parsing is a pure function of the text into a frozen object (half the cost of
    loading a fresh state)."""
    return Rules.parse(text, saved=True)


def _drop_other_families(d: dict[str, Any], family: type[FamilyFields], seats: int) -> None:
    """Drop from a save the fields of the other families that every game saves
    (:attr:`~rummykit.family.FamilyFields.saved_by_all`) or may hold
    (:attr:`~rummykit.family.FamilyFields.json_optional`), when they hold their values
    of a new deal; any other value is left for the key check to refuse."""
    for variant in VARIANTS:
        other = variant.family_fields
        if other is family or not (other.saved_by_all or other.json_optional):
            continue
        for key, value in other.fresh(seats).to_json().items():
            if key in d and d[key] == value and type(d[key]) is type(value):
                del d[key]


def _list(value: Any, field: str) -> list[Any]:
    """A JSON array as a new list (a string is not a list of characters here)."""
    if type(value) is not list:
        raise StateFormatError(f"expected a list, not {type(value).__name__}", field)
    return list(value)


def _exact_keys(d: dict[str, Any], keys: frozenset[str], field: str) -> None:
    missing = keys - d.keys()
    if missing:
        shown = ", ".join(sorted(missing)[:3]) + (", ..." if len(missing) > 3 else "")
        raise StateFormatError(f"missing fields: {shown}", field)
    unknown = d.keys() - keys
    if unknown:
        raise StateFormatError(f"unknown field {sorted(unknown)[0]!r}"[:80], field)


def _entries(value: Any, length: int, field: str) -> list[Any]:
    """A JSON array of exactly ``length`` entries (a table meld, an event, the RNG)."""
    items = _list(value, field)
    if len(items) != length:
        raise StateFormatError(f"expected a list of {length} entries", field)
    return items


def _table_meld(m: Any, i: int) -> TableMeld:
    owner, shape, cards = _entries(m, 3, f"table[{i}]")
    return TableMeld(owner, shape, tuple(_list(cards, f"table[{i}].cards")))


def _event(e: Any, i: int) -> Event:
    """A saved ``[kind, player, values]``; the numbers are checked with the state."""
    kind, who, values = _entries(e, 3, f"events[{i}]")
    if type(kind) is not str:
        raise StateFormatError("expected text", f"events[{i}].kind")
    try:
        return event_from_wire(kind, who, tuple(_list(values, f"events[{i}].values")))
    except ValueError as exc:
        raise StateFormatError(str(exc), f"events[{i}]") from None


def _rng_from(saved: Any, fmt: int) -> random.Random:
    """The RNG of a saved state: its words in base64 (format 2 on) or as numbers (1)."""
    version, internal, gauss = _entries(saved, 3, "rng")
    if type(version) is not int or version != 3:
        raise StateFormatError("unknown random generator version", "rng")
    if fmt >= 2:
        if type(internal) is not str or len(internal) > 4 * _MT_WORDS * 4 // 3 + 4:
            raise StateFormatError("the generator's words must be base64 text", "rng")
        try:
            raw = base64.b64decode(internal, validate=True)
        except ValueError:  # binascii.Error, or a character that is not ASCII
            raise StateFormatError("the generator's words are not base64", "rng") from None
        if len(raw) != 4 * _MT_WORDS:
            raise StateFormatError(f"the generator needs {_MT_WORDS} words", "rng")
        words = struct.unpack(f"<{_MT_WORDS}I", raw)
    else:
        words = tuple(_list(internal, "rng"))
        if len(words) != _MT_WORDS or any(type(w) is not int or not 0 <= w < 2**32 for w in words):
            raise StateFormatError(f"the generator needs {_MT_WORDS} 32-bit words", "rng")
    if words[-1] > _MT_WORDS - 1:
        raise StateFormatError("the generator's position is out of range", "rng")
    if gauss is not None and (type(gauss) is not float or not math.isfinite(gauss)):
        raise StateFormatError("the generator's spare value must be a finite number", "rng")
    try:
        return rng_in_state((version, words, gauss))
    except (ValueError, TypeError, OverflowError) as exc:  # pragma: no cover - checked above
        raise StateFormatError(f"bad generator state: {exc}", "rng") from None


def state_to_json(s: GameState) -> str:
    return json.dumps(state_to_dict(s), separators=(",", ":"))


def state_from_json(text: str | bytes) -> GameState:
    """The state saved as ``text`` (:func:`state_to_json`); :class:`StateFormatError`
    for anything else, within the limits in the module's docstring."""
    if not isinstance(text, str | bytes | bytearray):
        raise StateFormatError(f"a saved state is text, not {type(text).__name__}")
    if len(text) > MAX_JSON_CHARS:
        raise StateFormatError(f"a saved state is at most {MAX_JSON_CHARS:,} characters")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # bad JSON or bytes, nesting, huge numbers
        raise StateFormatError(f"bad JSON: {str(exc)[:200]}") from None
    return state_from_dict(data)


def _no_constant(name: str) -> Any:
    """JSON's ``NaN`` and ``Infinity`` are not numbers a state can hold."""
    raise ValueError(f"{name} is not allowed")


def result_to_dict(r: RoundResult) -> dict[str, Any]:
    """A round's result as JSON-ready data (saved states and the web protocol)."""
    return {
        "round_no": r.round_no,
        "dealer": r.dealer,
        "winner": r.winner,
        "went_out": r.went_out,
        "reason": r.reason,
        "rummy": r.rummy,
        "players": [
            {
                "cards": list(p.cards),
                "hand_points": p.hand_points,
                "delta": p.delta,
                "notes": list(p.notes),
                **({"bonus": p.bonus} if p.bonus else {}),  # only where a match bonus is
            }
            for p in r.players
        ],
        **({"wild": r.wild} if r.wild >= 0 else {}),  # only in declaration games
    }


def _result_from_dict(d: Any, i: int) -> RoundResult:
    field = f"results[{i}]"
    if type(d) is not dict:
        raise StateFormatError("expected an object", field)
    _exact_keys(d, _RESULT_FIELDS | (_WILD & d.keys()), field)
    players = []
    for p, ps in enumerate(_list(d["players"], f"{field}.players")):
        where = f"{field}.players[{p}]"
        if type(ps) is not dict:
            raise StateFormatError("expected an object", where)
        _exact_keys(ps, _SCORE_FIELDS | (_BONUS & ps.keys()), where)
        cards = tuple(_list(ps["cards"], f"{where}.cards"))
        notes = tuple(_list(ps["notes"], f"{where}.notes"))
        bonus = ps.get("bonus", 0)
        players.append(PlayerScore(cards, ps["hand_points"], ps["delta"], notes, bonus))
    return RoundResult(
        d["round_no"], d["dealer"], d["winner"], d["went_out"], _round_end(d["reason"], field),
        d["rummy"],
        tuple(players), d.get("wild", -1),
    )  # fmt: skip


def _round_end(reason: Any, field: str) -> RoundEnd:
    """A saved result's reason, one of the words :class:`RoundEnd` names."""
    if not isinstance(reason, str):  # text, or the RoundEnd of an unsaved state_to_dict
        raise StateFormatError(f"expected text, not {type(reason).__name__}", f"{field}.reason")
    try:
        return RoundEnd(reason)
    except ValueError:
        raise StateFormatError(
            f"{reason[:30]!r} is not a way a round ends", f"{field}.reason"
        ) from None
