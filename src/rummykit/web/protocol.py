"""The WebSocket protocol: pydantic models for what clients send, and the payloads
the server sends, each built from one seat's :class:`~rummykit.view.PlayerView`.

``docs/protocol.md`` documents every message.  Two rules matter for security:

* :func:`view_payload` is the only function that puts cards into a message, and it
  reads nothing but a :class:`PlayerView` (which never holds another hand or the
  stock order).  A spectator gets the same payload with the hand and legal moves
  left out.
* Intents (:class:`MoveIntent`) name physical cards of the sender's own hand and
  table melds by number; :func:`resolve` turns them into an engine :class:`Move`,
  and the engine (``GameState.apply``) decides whether it is legal.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from functools import lru_cache
from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import from_json

from ..bots.explain import refusal
from ..cards import JOKER, MAX_CARDS, bits, face_of, format_card, make_face, mask_of
from ..errors import IllegalMoveError, NotationError
from ..i18n import illegal_text, note_text, round_text
from ..i18n.shows import line_payload, param_text
from ..melds import RUN, HandCounts, meld_table, pos_rank
from ..moves import (
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
    Move,
    cell_code,
    code_suit_pos,
)
from ..notation import move_to_text, parse_move
from ..rules import Rules
from ..scoring import card_value, describe_round, match_winners, standings
from ..serialize import result_to_dict
from ..solver import Solver
from ..state import GameState, Phase, determinize
from ..table import layoff_cells
from ..variants.indian import declare_fields, makes_wrong_show
from ..variants.show import Grouping
from ..view import PlayerView

MAX_MESSAGE_BYTES = 8192
"""Client messages longer than this are refused (the WebSocket itself allows 64 KiB)."""
MAX_CHAT = 300
MAX_NAME = 24
PROTOCOL = 1

_Card = Annotated[int, Field(ge=0, lt=MAX_CARDS)]
_Small = Annotated[int, Field(ge=0, le=1000)]


class _Msg(BaseModel):
    """Strict: ``"version": true`` or ``1.0`` is not the integer 1, ``"seat": "0"`` is
    not a seat; unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", str_max_length=400, strict=True)


class MoveIntent(_Msg):
    """What the player wants to do; cards are physical card ids of their own hand."""

    kind: Literal[
        "draw_stock", "draw_discard", "discard", "meld", "layoff", "swap", "take",
        "pass", "knock", "text", "draw_deep", "drop", "buy",
    ]  # fmt: skip
    card: _Card | None = None
    cards: Annotated[list[_Card], Field(max_length=30)] | None = None
    meld: _Small | None = None
    """A table meld, numbered from 0 (as in the state payload)."""
    index: _Small | None = None
    """For ``take``: the position of the card in the meld's ``cards``."""
    end: Literal["low", "high"] | None = None
    count: _Small | None = None
    """For ``draw_deep`` (500 Rum): how many cards to take from the top of the pile."""
    """For a lay-off that fits both ends of a run: which end."""
    text: Annotated[str, Field(max_length=200)] | None = None
    """For ``kind="text"``: a move in the notation of docs/notation.md."""


class Hello(_Msg):
    type: Literal["hello"]
    seat: Annotated[int, Field(ge=0, le=10)] | None = None
    secret: Annotated[str, Field(max_length=100)] | None = None
    name: Annotated[str, Field(max_length=MAX_NAME)] | None = None
    lang: Annotated[str, Field(max_length=35)] | None = None
    """The page's language (``en``, ``fr``, or a tag such as ``fr-FR``): the server's
    texts to this connection (errors, hints) come in it; English if unsupported."""


class MoveMsg(_Msg):
    type: Literal["move"]
    version: Annotated[int, Field(ge=0)]
    move: MoveIntent
    id: Annotated[str, Field(max_length=40)] | None = None


class ChatMsg(_Msg):
    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT)]


class HintMsg(_Msg):
    type: Literal["hint"]
    version: Annotated[int, Field(ge=0)]


class RematchMsg(_Msg):
    type: Literal["rematch"]
    version: Annotated[int, Field(ge=0)]


class PingMsg(_Msg):
    type: Literal["ping"]


class ReviewMsg(_Msg):
    """Ask for the review of a finished round of one's own seat.

    ``seat`` may be left out (the connection's seat); naming another seat is refused
    with ``not_your_seat`` rather than ignored, so a forged request gets a clear answer.
    """

    type: Literal["review"]
    round: Annotated[int, Field(ge=1, le=1000)]
    seat: Annotated[int, Field(ge=0, le=10)] | None = None


ClientMsg = Hello | MoveMsg | ChatMsg | HintMsg | RematchMsg | PingMsg | ReviewMsg
ClientMessage = Annotated[ClientMsg, Field(discriminator="type")]
MESSAGE_TYPES = ("hello", "move", "chat", "hint", "rematch", "ping", "review")
_ADAPTER: TypeAdapter[ClientMsg] = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A message the server refuses; ``code`` is stable, ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_client_message(raw: str | bytes) -> ClientMsg:
    """Validate one client message; :class:`ProtocolError` says what is wrong.

    Any frame at all gets a ProtocolError, never another exception: the JSON is read
    by pydantic's parser, which refuses ``NaN`` and ``Infinity`` (they are not JSON),
    nesting deeper than 200 levels and numbers too long to convert, all as
    ``bad_json``, where :func:`json.loads` would raise RecursionError or ValueError out
    of the server's handler.
    """
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        data = from_json(raw, allow_inf_nan=False)
    except (ValueError, TypeError) as exc:  # TypeError: a str with a lone surrogate
        raise ProtocolError("bad_json", f"not valid JSON: {str(exc)[:200]}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    if kind not in MESSAGE_TYPES:
        raise ProtocolError(
            "unknown_type",
            f"unknown message type {str(kind)[:40]!r} (known: {', '.join(MESSAGE_TYPES)})",
        )
    try:
        msg: ClientMsg = _ADAPTER.validate_python(data)
        return msg
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise ProtocolError("invalid_message", f"{where}: {first.get('msg')}") from None


def clean_text(text: str, limit: int) -> str:
    """Chat and names: printable characters only, trimmed, at most ``limit`` long.
    (HTML is *not* stripped: the client shows text as text.)"""
    out = "".join(ch for ch in text if ch.isprintable() or ch == " ")
    return " ".join(out.split())[:limit]


# -- payloads ------------------------------------------------------------------------------
@lru_cache(maxsize=256)
def rules_spec(rules: Rules) -> str:
    """``rules.spec()``, remembered: it is asked for on every message."""
    return rules.spec()


def _as_state(v: PlayerView) -> GameState:
    """The notation functions read only ``rules``, ``table`` and ``game`` of the state
    they are given, which a view has too."""
    return cast(GameState, v)


def move_text(v: PlayerView | GameState, m: Move) -> str:
    if m.kind == PASS:
        return "pass"
    if m.kind == BUY:
        return "buy"
    if m.kind == KNOCK:
        return v.game.variant.action_name(KNOCK, "knock")  # Indian Rummy: "declare"
    try:
        return move_to_text(cast(GameState, v), m)
    except NotationError:  # pragma: no cover - every legal move has a text
        return KIND_NAMES[m.kind]


def log_text(state: GameState, m: Move) -> str:
    """A move as the move log keeps it (call it before applying): its text, and for
    a deep draw the card taken, ``draw discard 3 JC``, which the page writes as
    "took J♣ and the 2 cards above it" (the terminal's words, i18n.DEEP_DRAW)."""
    text = move_text(state, m)
    if m.kind == DRAW_DEEP and 0 < m.a <= len(state.discard):
        text += " " + format_card(state.discard[-m.a])
    return text


def _layoff_face(m: Move) -> int:
    suit, pos = code_suit_pos(m.b)
    return JOKER if m.c else make_face(suit, pos_rank(pos))


def legal_entry(v: PlayerView, m: Move) -> dict[str, Any]:
    """One legal move for the client: its kind, text, and the faces of the hand it uses
    (52 is a joker), so a client can highlight what is playable."""
    e: dict[str, Any] = {"kind": KIND_NAMES[m.kind], "text": move_text(v, m)}
    if m.kind == DISCARD:
        e["faces"] = [m.a]
    elif m.kind == MELD:
        sh = v.game.melds.shapes[m.a]
        e["faces"] = [*sh.naturals, *([JOKER] * sh.njokers)]
    elif m.kind == LAYOFF:
        e["faces"] = [_layoff_face(m)]
        e["meld"] = m.a
    elif m.kind == SWAP:
        e["faces"] = [m.b]
        e["meld"] = m.a
    elif m.kind == TAKE:
        e["meld"] = m.a
    elif m.kind == DRAW_DEEP:
        e["count"] = m.a
    if m.kind in (KNOCK, DISCARD) and makes_wrong_show(
        v.game.variant, v.hand, declare_fields(v).wild, v.phase, m
    ):
        e["wrong_show"] = v.rules.wrong_show  # Indian Rummy: the page warns before it
    return e


def view_payload(
    v: PlayerView, *, spectator: bool = False, state: GameState | None = None
) -> dict[str, Any]:
    """The game part of a ``state`` message, from ``v`` alone.

    ``spectator=True`` leaves out the hand and the legal moves (spectators get seat
    0's view without them: everything else in a view is public).
    """
    t = v.game.melds
    variant = v.game.variant
    melds = []
    for tm in v.table:
        sh = t.shapes[tm.shape]
        melds.append(
            {
                "owner": tm.owner,
                "cards": list(tm.cards),
                "faces": list(sh.cells),
                "jokers": [bool(sh.joker_cells >> i & 1) for i in range(len(sh.cells))],
                "run": sh.kind == RUN,
                "text": t.describe(tm.shape),
            }
        )
    over = v.phase is Phase.OVER
    scores = list(v.scores)
    return {
        "seat": -1 if spectator else v.player,
        "rules": v.game.spec,
        "low_wins": v.rules.scoring.value != "winner_collects",
        "options": {
            "joker_swap": v.rules.joker_swap,
            "take_from_meld": v.rules.take_from_meld,
            "knock": any(a.name == "knock" for a in variant.actions()),
            # Rummikub: a play is the table's whole new arrangement, sent as its text
            # (its action number fits no JSON number); the page shows a board of sets
            "free_table": v.rules.free_table,
        },
        "phase": v.phase.name.lower(),
        "current": v.current,
        "dealer": v.dealer,
        "round": v.round_no,
        "turn": v.turn,
        "scores": scores,
        "standings": list(standings(v.rules, scores)),
        "winners": list(match_winners(v.rules, scores)) if over else [],
        "hand": [] if spectator else list(bits(v.hand)),
        "hand_sizes": list(v.hand_sizes),
        "known": [list(bits(k)) for k in v.known],
        "stock_size": v.stock_size,
        "discard": list(v.discard),
        "melds": melds,
        "opened": list(v.opened),
        "taken": v.taken,
        "pending": v.pending,
        "knock": None,  # a knock game's block (its family's payload), else None
        "results": [_result_payload(v, r) for r in v.results],
        "legal": [] if spectator else [legal_entry(v, m) for m in v.legal],
        "arrangement": None if spectator else arrangement_payload(v),
        # What the game's family shows (its contract, its wild cut, the player's own
        # deadwood or count), as codes with their texts: the page renders them all alike.
        "status": status_payload(v, spectator),
        # What the family advises the player to act now, as a code (None: the page's
        # advice for the draw-meld-discard turn).
        "advice": None if spectator else advice_payload(v),
        # The family's own data blocks (a knock game's "knock", Indian Rummy's
        # "declare", Contract Rummy's "contract", 500 Rum's "deep_discard"), only in
        # its games: the page reads what it finds.
        **family_payload(v),
        "refused": {} if spectator else refusals_payload(v, state),
    }


def advice_payload(v: PlayerView) -> dict[str, object] | None:
    """The family's advice to the seat of ``v`` on its turn
    (:meth:`~rummykit.variants.base.Variant.advice`), or None."""
    if v.current != v.player or v.phase is Phase.OVER:
        return None
    line = v.game.variant.advice(v, v.hand, v.legal)
    return None if line is None else line_payload(line)


def family_payload(v: PlayerView) -> dict[str, object]:
    """The family's data blocks (:meth:`~rummykit.variants.base.Variant.payload`), a
    block's ``text`` also in French (``text_fr``: the block's name says how to write
    it, as a status line's parameter of that name)."""
    blocks = v.game.variant.payload(v)
    for name, block in blocks.items():
        if isinstance(block, dict) and isinstance(block.get("text"), str):
            blocks[name] = {**block, "text_fr": param_text(name, block["text"], "fr")}
    return blocks


def status_payload(v: PlayerView, spectator: bool = False) -> list[dict[str, Any]]:
    """The family's status lines (:meth:`~rummykit.variants.base.Variant.status`) for
    the seat of ``v``: the public ones, and those about its own hand unless
    ``spectator``."""
    return [line_payload(x) for x in v.game.variant.status(v, 0 if spectator else v.hand)]


_BUTTONS = {"meld": MELD, "layoff": LAYOFF, "swap": SWAP, "take": TAKE, "discard": DISCARD}
"""The page's action buttons that need cards, by the kind of move each makes."""


def refusals_payload(v: PlayerView, state: GameState | None = None) -> dict[str, dict[str, str]]:
    """Why each action button the player cannot use on their turn is greyed: its rule
    code and the reason in English and French (the page shows the one in its
    language, as the terminal does); empty when it is not the player's turn.

    The reasons are the engine's for the state the view was taken from: ``state``
    when the caller holds it (the server does), else one made from ``v`` with the
    hidden cards dealt at random.  The two agree, because no reason reads a hidden
    card (``tests/web/test_web_loop.py`` checks every preset against several deals of
    the hidden cards).  The server builds this payload once a move, inside its event
    loop, so it reads its own state rather than making one, and before the draw every
    card move has one reason, the phase's (``draw_first``), read off the phase.
    """
    if v.phase is Phase.OVER or v.current != v.player or v.phase is Phase.BUY:
        return {}
    legal = {m.kind for m in v.legal}
    out = {}
    for name, kind in _BUTTONS.items():
        if kind in legal:
            continue
        if v.phase is Phase.DRAW:
            exc: IllegalMoveError | None = _DRAW_FIRST
        else:
            if state is None:
                state = determinize(v, random.Random(v.turn))
            exc = refusal(state, kind)
        if exc is not None:
            en, fr = _reason_texts(exc.rule, exc.reason)
            out[name] = {"rule": exc.rule, "text": en, "fr": fr}
    return out


_DRAW_FIRST = IllegalMoveError("draw_first", "a turn starts by drawing a card (seed 000, 001)")
"""What :meth:`GameState.phase_error` says of every card move before the draw."""


@lru_cache(maxsize=1024)
def _reason_texts(rule: str, reason: str) -> tuple[str, str]:
    """A refusal's reason in English and French (the same few reasons come back on
    every move, so they are translated once)."""
    exc = IllegalMoveError(rule, reason)
    return illegal_text(exc, "en"), illegal_text(exc, "fr")


_results: OrderedDict[tuple[str, tuple[str, ...], Any], dict[str, Any]] = OrderedDict()


def _result_payload(v: PlayerView, r: Any) -> dict[str, Any]:
    """A round's scoring as :func:`result_to_dict` gives it, with how it ended in words
    and what each card left in a hand counted (the round-end screen shows it).

    Remembered by rules, names and result (results are frozen, and every payload of a
    match repeats each of its rounds'), :data:`ARRANGEMENTS_KEPT` at most."""
    key = (v.game.spec, tuple(v.names), r)
    known = _results.get(key)
    if known is None:
        known = _results[key] = _make_result_payload(v, r)
        if len(_results) > ARRANGEMENTS_KEPT:
            _results.popitem(last=False)
    return known


def _make_result_payload(v: PlayerView, r: Any) -> dict[str, Any]:
    d = result_to_dict(r)  # "fr": the same words in French (the page picks its language)
    for p in d["players"]:
        p["points"] = [card_value(v.rules, c) for c in p["cards"]]
        p["layout"] = hand_layout(v, mask_of(p["cards"]), r.wild) if p["cards"] else None
    fr = {
        "text": round_text(r, v.names, "fr"),
        "notes": [[note_text(n, "fr") for n in p.notes] for p in r.players],
    }
    return {**d, "text": describe_round(r, v.names), "fr": fr}


ARRANGE_BUDGET = 100_000
"""Units of the solver's work (:data:`rummykit.solver.BUDGET`) the page's arrangement
may spend: tens of milliseconds of the event loop at most, and every hand of a
preset's deal size is arranged exactly (the largest measured needed about 60,000)."""


@lru_cache(maxsize=16)
def arrange_solver(rules: Rules) -> Solver:
    """One solver per rules object, with :data:`ARRANGE_BUDGET`: its memo is a pure
    cache, and its tables are :func:`~rummykit.melds.meld_table`'s."""
    return Solver(rules, meld_table(rules), budget=ARRANGE_BUDGET)


ARRANGEMENTS_KEPT = 4096
"""Arrangements remembered by rules and hand (:func:`arrangement_payload`)."""

_arranged: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()


def arrangement_payload(v: PlayerView) -> dict[str, Any] | None:
    """The seat's own hand as the solver would meld it (least deadwood), for the page's
    Arrange button: the melds (faces in order, which cells are jokers), the deadwood
    faces and their value, and the melds' points toward an opening minimum.  It reads
    the player's own hand only, so it tells them nothing they could not work out.

    The search is bounded (:data:`ARRANGE_BUDGET`): past it the arrangement is
    completed greedily and ``partial`` is true, which the page says."""
    if not v.hand:
        return None
    # A move changes one hand: every other seat's arrangement is remembered (the
    # payload is only ever serialized, never changed).
    key = (v.game.spec, v.hand, declare_fields(v).wild)
    known = _arranged.get(key)
    if known is not None:
        _arranged.move_to_end(key)
        return known
    counted = v.game.variant.play_layout(v.hand, declare_fields(v).wild, v.game.dealt)
    if counted is not None:  # the family counts a hand its own way (Indian Rummy)
        payload = grouping_payload(counted)
    else:
        solver = arrange_solver(v.rules)
        shapes = solver.melds.shapes
        best = solver.arrange(v.hand)
        melds = [shapes[i] for i in best.shapes]
        payload = {
            "melds": [
                {
                    "faces": list(sh.cells),
                    "jokers": [bool(sh.joker_cells >> i & 1) for i in range(len(sh.cells))],
                }
                for sh in melds
            ],
            "deadwood": list(best.deadwood_faces),
            "deadwood_points": best.deadwood,
            "meld_points": sum(sh.points for sh in melds),
            "opening": v.rules.opening_minimum or 0,
            "partial": not best.exact,
        }
    _arranged[key] = payload
    if len(_arranged) > ARRANGEMENTS_KEPT:
        _arranged.popitem(last=False)
    return payload


def hand_layout(v: PlayerView, hand: int, wild: int) -> dict[str, Any]:
    """A hand at the round end laid out as its family lays it
    (:meth:`~rummykit.variants.base.Variant.layout`: in Indian Rummy as its count
    counts it, with the deal's cut ``wild``; else the solver's least-deadwood melds
    with every card counting its value), in :func:`grouping_payload`'s fields."""
    rules = v.rules
    return grouping_payload(v.game.variant.layout(hand, wild, lambda: arrange_solver(rules)))


def grouping_payload(g: Grouping) -> dict[str, Any]:
    """A hand's :class:`~rummykit.variants.indian.Grouping` in the arrangement's
    fields: each meld's cards with the faces they play as (``jokers``: the card plays
    as another, a joker or a card of the wild rank), the loose cards (``loose``) and
    their faces, ``deadwood_points`` the hand's count, ``card_points`` what each card
    counts (melds in order, then the loose cards), ``out`` the card to put out (-1:
    none) and ``valid`` whether the melds hold two sequences, one pure."""
    return {
        "melds": [
            {
                "cards": [c for c, _f in meld],
                "faces": [f for _c, f in meld],
                "jokers": [face_of(c) != f for c, f in meld],
            }
            for meld in g.melds
        ],
        "deadwood": [face_of(c) for c in g.loose],
        "loose": list(g.loose),
        "deadwood_points": g.points,
        "card_points": list(g.card_points),
        "meld_points": 0,
        "opening": 0,
        "partial": False,
        "out": g.out,
        "valid": g.valid,
    }


# -- intents -------------------------------------------------------------------------------
def _own(v: PlayerView, card: int | None) -> int:
    if card is None:
        raise ProtocolError("invalid_message", "this move needs a card")
    if not v.hand >> card & 1:
        raise IllegalMoveError("card_not_in_hand", "you do not hold that card")
    return card


def resolve(intent: MoveIntent, v: PlayerView) -> Move:
    """The engine move an intent names, for the engine to judge.

    When the intent matches a legal move, that move; otherwise the closest engine move
    (so ``GameState.apply`` gives its own reason), or an :class:`IllegalMoveError` when
    the cards cannot form such a move at all.
    """
    k = intent.kind
    t = v.game.melds
    if k == "text":
        if not intent.text:
            raise ProtocolError("invalid_message", "a text move needs 'text'")
        return parse_move(_as_state(v), intent.text)
    if k == "draw_stock":
        return Move(DRAW_STOCK)
    if k == "draw_discard":
        return Move(DRAW_DISCARD)
    if k == "draw_deep":
        if intent.count is None or intent.count < 2:
            raise ProtocolError("invalid_message", "a deep draw takes 'count' cards, 2 or more")
        return Move(DRAW_DEEP, intent.count)
    if k == "pass":
        return Move(PASS)
    if k == "buy":  # Contract Rummy: the top discard, out of turn
        return Move(BUY)
    if k == "knock":  # Indian Rummy's declaration too
        return Move(KNOCK)
    if k == "drop":
        return Move(DROP)
    if k == "discard":
        return Move(DISCARD, face_of(_own(v, intent.card)))
    if k == "meld":
        cards = intent.cards or []
        if len(set(cards)) != len(cards) or not cards:
            raise ProtocolError("invalid_message", "a meld needs distinct cards")
        for c in cards:
            _own(v, c)
        faces = [face_of(c) for c in cards]
        naturals = tuple(sorted(f for f in faces if f != JOKER))
        njokers = len(faces) - len(naturals)
        for m in v.legal:
            if m.kind == MELD:
                sh = t.shapes[m.a]
                if sh.naturals == naturals and sh.njokers == njokers:
                    return m
        for i in t.shapes_in(HandCounts.of(mask_of(cards))):
            if len(t.shapes[i].cells) == len(cards):
                return Move(MELD, i)
        raise IllegalMoveError("not_a_meld", "those cards do not form a meld these rules allow")
    slot = intent.meld
    if slot is None:
        raise ProtocolError("invalid_message", "this move needs a table meld ('meld')")
    if k == "take":
        if not 0 <= slot < len(v.table):
            return Move(TAKE, slot, 0)
        tm = v.table[slot]
        sh = t.shapes[tm.shape]
        at = intent.index
        if at is None or not 0 <= at < len(tm.cards):
            raise IllegalMoveError("no_such_card", "that meld has no such card")
        if sh.joker_cells >> at & 1:
            raise IllegalMoveError(
                "take_joker", "a joker cannot be taken from a meld; swap it instead"
            )
        return Move(TAKE, slot, cell_code(sh.cells[at] // 13, sh.positions[at]))
    face = face_of(_own(v, intent.card))
    if k == "swap":
        if face == JOKER:
            raise IllegalMoveError("invalid_swap", "give a natural card for the joker")
        return Move(SWAP, slot, face)
    # lay-off
    joker = face == JOKER
    options = [
        m
        for m in v.legal
        if m.kind == LAYOFF and m.a == slot and (m.c == 1 if joker else _layoff_face(m) == face)
    ]
    if options:
        options.sort(key=lambda m: code_suit_pos(m.b)[1])
        return options[-1] if intent.end == "high" else options[0]
    code = 0 if joker else cell_code(face // 13, face % 13)
    if 0 <= slot < len(v.table):
        for c, f, _at in layoff_cells(t, v.table[slot]):
            if joker or f == face:
                code = c
                break
    return Move(LAYOFF, slot, code, int(joker))
