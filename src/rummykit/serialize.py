"""A game state as JSON and back, exactly: the same state, RNG included.

>>> from rummykit import new_game
>>> g = new_game("rami51", players=3, seed=9)
>>> g.apply(g.legal_moves()[0])
>>> h = state_from_json(state_to_json(g))
>>> h.hands == g.hands and h.stock == g.stock and h.legal_moves() == g.legal_moves()
True
"""

from __future__ import annotations

import base64
import json
import random
import struct
from typing import Any

from .cards import bits, deck
from .errors import RummyError
from .rules import Rules
from .scoring import PlayerScore, RoundResult
from .state import Game, GameState, Phase, rng_in_state
from .table import TableMeld

FORMAT = 2
"""The format written.  2 stores the RNG's Mersenne Twister words as base64 (3.3 KB
instead of 6.9 KB of decimal numbers, nearly all of a saved state); format 1, with the
words as a list of numbers, is still read."""
_READABLE = (1, 2)

_SCALARS = (
    "round_no", "dealer", "current", "taken", "pending", "pending_kind", "melds_this_turn",
    "open_points", "open_pure", "turn_start_laid", "turn", "restocks", "knocker",
    "knock_stage", "knock_limit", "upcard_passes", "upcard_draws", "repeated",
)  # fmt: skip
_LISTS = ("names", "scores", "hands", "stock", "discard", "melded", "opened", "laid", "known")


class StateFormatError(RummyError):
    """A JSON document that is not a saved rummykit state."""


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
        "events": [[k, p, list(c)] for k, p, c in s.events],
    }
    for name in _SCALARS:
        d[name] = getattr(s, name)
    for name in _LISTS:
        d[name] = list(getattr(s, name))
    return d


def state_from_dict(d: dict[str, Any]) -> GameState:
    try:
        if d.get("format") not in _READABLE:
            raise StateFormatError(f"unsupported state format {d.get('format')!r}")
        rules = Rules.parse(d["rules"])
        s = GameState.__new__(GameState)
        s.game = Game.shared(rules, len(d["names"]))
        s.rules = rules
        s.seed = d.get("seed")
        s.phase = Phase[d["phase"]]
        s.rng = _rng_from(d["rng"])
        s.table = [
            TableMeld(int(o), int(sh), tuple(int(c) for c in cs)) for o, sh, cs in d["table"]
        ]
        s.results = [_result_from_dict(r) for r in d["results"]]
        s.history = [int(a) for a in d["history"]]
        s.events = [(str(k), int(p), tuple(int(c) for c in cs)) for k, p, cs in d["events"]]
        for name in _SCALARS:
            setattr(s, name, d[name])
        for name in _LISTS:
            setattr(s, name, list(d[name]))
        s._legal = None
    except StateFormatError:
        raise
    except (RummyError, KeyError, TypeError, ValueError, IndexError, struct.error) as exc:
        raise StateFormatError(f"not a saved rummykit state: {exc!r}") from exc
    _check_cards(s)
    return s


def _rng_from(saved: Any) -> random.Random:
    """The RNG of a saved state: its words in base64 (format 2) or as numbers (1)."""
    version, internal, gauss = saved
    if isinstance(internal, str):
        raw = base64.b64decode(internal, validate=True)
        internal = struct.unpack(f"<{len(raw) // 4}I", raw)
    return rng_in_state((version, tuple(internal), gauss))


def _check_cards(s: GameState) -> None:
    """Every card of the deck in exactly one place, so a damaged save cannot load."""
    seen: list[int] = []
    for h in s.hands:
        seen.extend(bits(h))
    seen.extend(s.stock)
    seen.extend(s.discard)
    for tm in s.table:
        seen.extend(tm.cards)
    if sorted(seen) != deck(s.rules.decks, s.rules.jokers):
        raise StateFormatError("not a saved rummykit state: the cards do not add up to the deck")
    seats = len(s.names)
    if len(s.hands) != seats or not (s.phase is Phase.OVER or 0 <= s.current < seats):
        raise StateFormatError("not a saved rummykit state: players and turn disagree")


def state_to_json(s: GameState) -> str:
    return json.dumps(state_to_dict(s), separators=(",", ":"))


def state_from_json(text: str) -> GameState:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateFormatError(f"bad JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise StateFormatError("a saved state is a JSON object")
    return state_from_dict(data)


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
            }
            for p in r.players
        ],
    }


def _result_from_dict(d: dict[str, Any]) -> RoundResult:
    return RoundResult(
        d["round_no"],
        d["dealer"],
        d["winner"],
        d["went_out"],
        d["reason"],
        d["rummy"],
        tuple(
            PlayerScore(tuple(p["cards"]), p["hand_points"], p["delta"], tuple(p["notes"]))
            for p in d["players"]
        ),
    )
