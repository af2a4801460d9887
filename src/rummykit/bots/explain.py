"""Why a kind of move is refused now: the reason a front end gives beside a greyed
button, in the engine's words (a rule code and an English sentence that
:func:`rummykit.i18n.illegal_text` puts in the player's language).

Both front ends ask it with the player's own state: the terminal with its match, the
web server with a state made from the seat's :class:`~rummykit.view.PlayerView`
(``determinize``), since the reason reads nothing but the player's own hand and what
is public.  The engine names the rule: each kind is probed with a move the player
could mean (the terminal's key presses are probed the same way), and the engine's
diagnosis of it is the reason.

>>> from rummykit.moves import DRAW_STOCK
>>> from rummykit.rules import Rules
>>> from rummykit.state import GameState
>>> g = GameState.new(Rules.preset("basic"), ["Ann", "Bob"], 1)
>>> refusal(g, DISCARD).rule
'draw_first'
>>> refusal(g, DRAW_STOCK) is None
True
"""

from __future__ import annotations

from ..cards import bits, display_face, face_of, is_joker
from ..errors import IllegalMoveError
from ..melds import RUN, HandCounts
from ..moves import DISCARD, LAYOFF, MELD, SWAP, TAKE, Move, cell_code
from ..phase import PENDING_MELD
from ..state import GameState
from ..table import joker_cells, layoff_cells


def refusal(state: GameState, kind: int) -> IllegalMoveError | None:
    """Why the player to act has no legal move of ``kind`` now (None if they have one),
    as the engine would name the rule for a move of that kind they could mean."""
    if any(m.kind == kind for m in state.legal_moves()):
        return None
    wrong_phase = state.phase_error(kind)
    if wrong_phase is not None:
        return wrong_phase
    if state.pending >= 0 and kind not in (MELD, LAYOFF):
        card = display_face(face_of(state.pending))
        if state.pending_kind == PENDING_MELD:  # a freed joker, a card taken from a meld
            return IllegalMoveError("pending_card_must_be_used", f"use {card} in a new meld first")
        return IllegalMoveError(
            "pending_card_must_be_used", f"use {card} in a meld or a lay-off first"
        )
    probe = _probe(state, kind)
    if isinstance(probe, IllegalMoveError):
        return probe
    try:
        state.apply(probe)  # illegal (no move of its kind is): raises, changes nothing
    except IllegalMoveError as exc:
        # Without its traceback: the traceback holds this frame, whose locals hold the
        # error, a cycle only the garbage collector could free (with the state).
        return exc.with_traceback(None)
    raise AssertionError(f"{probe} was legal")  # pragma: no cover - see legal_moves


def _probe(state: GameState, kind: int) -> Move | IllegalMoveError:
    hand = state.hands[state.current]
    if kind == DISCARD:
        faces = sorted({face_of(c) for c in bits(hand)})
        return Move(DISCARD, faces[0]) if faces else Move(DISCARD, 0)
    if kind == MELD:
        shapes = state.game.melds.shapes_in(HandCounts.of(hand))
        if not shapes:
            return IllegalMoveError("no_meld_in_hand", "your cards make no meld")
        return Move(MELD, shapes[0])
    if kind in (LAYOFF, SWAP, TAKE) and not state.table:
        return IllegalMoveError("no_table_meld", "there is no meld on the table yet")
    if kind == LAYOFF:
        for card in bits(hand):
            probe = layoff_probe(state, card)
            if probe is not None:
                return probe
        return IllegalMoveError("no_layoff_fits", "none of your cards fits a meld on the table")
    if kind == SWAP:
        spots = swap_spots(state)
        if not spots:
            return IllegalMoveError("no_table_joker", "there is no joker on the table to swap")
        held = {face_of(c) for c in bits(hand)}
        for slot, face in spots:
            if face in held:
                return Move(SWAP, slot, face)
        return IllegalMoveError(
            "no_swap_card", "you hold no card that a joker on the table stands for"
        )
    if kind == TAKE:
        return take_probe(state) or Move(TAKE, 0, 0)
    return Move(kind)


def layoff_probe(
    state: GameState, card: int, slots: range | list[int] | None = None
) -> Move | None:
    """A lay-off of ``card`` onto a table meld it fits (among ``slots``, default all),
    legal or not, for the engine to judge; None if it fits none."""
    joker = is_joker(card)
    face = face_of(card)
    t = state.game.melds
    for s in range(len(state.table)) if slots is None else slots:
        for code, f, _index in layoff_cells(t, state.table[s]):
            if joker or f == face:
                return Move(LAYOFF, s, code, int(joker))
    return None


def swap_spots(state: GameState, face: int | None = None) -> list[tuple[int, int]]:
    """``(meld, face)`` for each table joker (standing for ``face``, if given)."""
    t = state.game.melds
    return [
        (slot, f)
        for slot, tm in enumerate(state.table)
        for _i, f in joker_cells(t, tm)
        if face is None or f == face
    ]


def take_probe(state: GameState) -> Move | None:
    """A take of the first natural card of a table meld, legal or not, for the engine
    to judge; None when the table holds no natural card."""
    t = state.game.melds
    for slot, tm in enumerate(state.table):
        sh = t.shapes[tm.shape]
        for i, c in enumerate(tm.cards):
            if not is_joker(c):
                code = (
                    cell_code(sh.key, sh.positions[i])
                    if sh.kind == RUN
                    else cell_code(face_of(c) // 13, sh.key)
                )
                return Move(TAKE, slot, code)
    return None


__all__ = ["layoff_probe", "refusal", "swap_spots", "take_probe"]
