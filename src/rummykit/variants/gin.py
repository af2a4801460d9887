"""The knock games (Gin Rummy): first upcard, knock, lay-off and the wall.

These are phases of the same state machine as every other preset, added by the
:class:`Gin` variant whenever the rules have a ``knock_card`` (the other options,
``first_upcard_option``, ``wall``..., shape them), and they follow
OpenSpiel's ``gin_rummy`` (open_spiel/games/gin_rummy/gin_rummy.cc), itself after
the Gin Rummy Association's rules:

* **First upcard.**  The non-dealer may take the upcard or pass, then the dealer; if
  both pass, the non-dealer must draw from the stock.
* **Play.**  Draw, then discard any card (OpenSpiel lets the taken upcard go straight
  back), or knock when the best ten of the eleven cards leave deadwood within the
  knock limit.
* **Knock.**  The knocker discards a card that keeps the deadwood within the limit,
  lays melds one at a time (only melds of some arrangement within the limit), and
  passes once the cards left count no more than the limit.
* **Lay-off.**  Unless the knocker went gin, the defender lays cards off onto the
  knocker's melds, passes, then lays melds of their own and passes; the hand ends.
* **Wall.**  When a discard leaves two cards in the stock, the next player may knock
  with the upcard or pass, and a pass voids the hand.

Scoring (OpenSpiel ``Returns``): the knocker scores the difference in deadwood, plus
the gin bonus for zero; if the defender's deadwood is lower, the defender scores the
difference plus the undercut bonus.  Equal deadwood scores nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, Self, cast

from ..cards import bits, display_face, face_of
from ..errors import IllegalMoveError
from ..events import Bonus
from ..family import FamilyFields, PositionReader
from ..fields import StateFormatError, expect_int
from ..moves import (
    DISCARD,
    DISCARD_MOVES,
    KNOCK,
    LAYOFF,
    MELD,
    PASS,
    LegalMoves,
    Move,
)
from ..phase import Phase
from ..results import RoundEnd
from ..rules import Family, Rules
from ..scoring import RoundResult, card_value, hand_value, score_knock
from ..table import layoff_cells
from .base import MoveGenerator, Variant
from .show import Action, Param, StatusLine

if TYPE_CHECKING:
    from ..game import Game
    from ..state import GameState
    from ..view import PlayerView

_PLAY_PHASE = Phase.PLAY
_UPCARD_PHASE = Phase.FIRST_UPCARD
_KNOCK_PHASE = Phase.KNOCK
_LAYOFF_PHASE = Phase.LAYOFF
_WALL_PHASE = Phase.WALL


@dataclass(frozen=True, slots=True)
class KnockFields(FamilyFields):
    """The knock games' own fields, the state's ``family``."""

    knock_stage: int = 0
    """In the lay-off phase: 0 while the defender lays off onto the knocker's melds,
    1 once they lay their own melds (or the knocker went gin)."""
    knock_limit: int = 0
    """The most deadwood a knock may leave this hand (Oklahoma reads it off the first
    upcard)."""

    position_keys: ClassVar[tuple[str, ...]] = ("stage", "limit")
    position_names: ClassVar[Mapping[str, str]] = {"knock_stage": "stage", "knock_limit": "limit"}
    position_after: ClassVar[str] = "knocker"
    json_after: ClassVar[str] = "knocker"
    saved_by_all: ClassVar[bool] = True

    def to_position(self) -> dict[str, str]:
        return {"stage": str(self.knock_stage), "limit": str(self.knock_limit)}

    @classmethod
    def position_defaults(cls, rules: Rules, seats: int) -> dict[str, str]:
        return {"stage": "0", "limit": str(rules.knock_card or 0)}

    @classmethod
    def from_position(cls, reader: PositionReader) -> Self:
        return cls(reader.number("stage", 0), reader.number("limit", reader.rules.knock_card or 0))

    def check(self, state: GameState) -> None:

        rules = state.rules
        stage = expect_int(self.knock_stage, "knock_stage", 0, 1)
        if stage and state.phase not in (Phase.LAYOFF, Phase.OVER):
            raise StateFormatError("only the lay-off phase has stages", "knock_stage")
        if rules.oklahoma:
            expect_int(self.knock_limit, "knock_limit", 0, 10)
        else:
            card = rules.knock_card or 0
            expect_int(self.knock_limit, "knock_limit", card, card)


def knock_fields(state: GameState | PlayerView) -> KnockFields:
    """The knock fields of a knock game's state or view."""
    return cast(KnockFields, state.family)


def laying_off(view: GameState | PlayerView) -> bool:
    """Whether the defender is laying off onto the knocker's melds (the lay-off
    phase's first stage; their own melds come after)."""
    return view.phase is Phase.LAYOFF and knock_fields(view).knock_stage == 0


def knock_limit_for(state: GameState, upcard: int) -> int:
    """The knock limit of a new hand: the rules' knock card, or under Oklahoma the
    first upcard's value, an ace meaning gin only."""
    limit = state.rules.knock_card or 0
    if state.rules.oklahoma:
        v = card_value(state.rules, upcard)
        limit = 0 if v == 1 else v
    return limit


def best_ten_deadwood(state: GameState, hand: int) -> int:
    """Least deadwood of the hand, discarding one card first when it has eleven.

    Exact whenever the result is within the knock limit, which is all that callers
    ask of it; above the limit it may return a lower bound.
    """
    game = state.game
    deadwood = game.solver.deadwood
    whole = deadwood(hand)
    if hand.bit_count() <= game.dealt:
        return whole
    if whole - 10 > knock_fields(state).knock_limit:
        # Dropping a card c lowers the least deadwood by at most its value (10), so
        # this hand cannot knock: report a bound that says so without ten more calls.
        return whole - 10
    return min(deadwood(hand & ~(1 << c)) for c in bits(hand))


def deadwood_shown(game: Game, hand: int) -> int:
    """The deadwood a Gin player watches: the hand's least deadwood, or with a card
    still to discard, the least after the best discard (exact, unlike
    :func:`best_ten_deadwood`, which may stop at a bound above the knock limit).

    >>> from rummykit import new_game
    >>> from rummykit.cards import mask_of, parse_cards
    >>> g = new_game("gin", seed=1).game
    >>> deadwood_shown(g, mask_of(parse_cards("2C 3C 4C 7D 7H 7S 9H 9S KD QC")))
    38
    >>> deadwood_shown(g, mask_of(parse_cards("2C 3C 4C 7D 7H 7S 9H 9S KD QC AS")))
    29
    """
    if hand.bit_count() <= game.dealt:
        return game.solver.deadwood(hand)
    after = game.solver.without(hand)
    return min(after(c) for c in bits(hand))


def can_knock(state: GameState, hand: int) -> bool:
    """``best_ten_deadwood(state, hand) <=`` the knock limit, asked on every turn of
    play: it stops at the first card whose discard is low enough."""
    limit = knock_fields(state).knock_limit
    game = state.game
    deadwood = game.solver.deadwood
    whole = deadwood(hand)
    if hand.bit_count() <= game.dealt:
        return whole <= limit
    if whole - 10 > limit:
        return False  # no discard lowers the deadwood by more than 10
    return any(deadwood(hand & ~(1 << c)) <= limit for c in bits(hand))


def hand_points(state: GameState, hand: int) -> int:
    return hand_value(state.rules, bits(hand))


# -- legal moves per phase ---------------------------------------------------------------
def play_moves(state: GameState) -> list[Move]:
    """After the draw: discard any card, or knock."""
    hand = state.hands[state.current]
    taken = -1 if state.rules.discard_taken_card else state.taken
    out = _discards(hand, taken)
    if best_ten_deadwood(state, hand) <= knock_fields(state).knock_limit:
        out.append(KNOCK_MOVE)
        out.numbered[state.game.actions.knock_action] = KNOCK_MOVE
    return out


KNOCK_MOVE = Move(KNOCK)


def play_actions(state: GameState) -> list[int]:
    """:func:`play_moves` as action numbers, in the same order, without building the
    moves: the discards' numbers come from per-suit tables (a discard is 2 + face)."""
    hand = state.hands[state.current]
    discards = hand
    if not state.rules.discard_taken_card and state.taken >= 0:
        discards &= ~(1 << state.taken)
    s0, s1, s2, s3 = _ACTIONS_BY_SUIT
    out = [
        *s0[discards & 0x1FFF],
        *s1[(discards >> 13) & 0x1FFF],
        *s2[(discards >> 26) & 0x1FFF],
        *s3[discards >> 39],
    ]
    if can_knock(state, hand):
        out.append(state.game.actions.knock_action)
    return out


def play_knock(state: GameState, action: int) -> Move | None:
    """The knock if ``action`` is its number and it is legal, else None: what
    :func:`play_moves` answers for a number that is not a legal discard (the state
    checks discards against the hand itself)."""
    if action == state.game.actions.knock_action and can_knock(state, state.hands[state.current]):
        return KNOCK_MOVE
    return None


def knock_moves(state: GameState) -> list[Move]:
    hand = state.hands[state.current]
    limit = knock_fields(state).knock_limit
    solver = state.game.solver
    if hand.bit_count() > state.game.dealt:
        return [
            Move(DISCARD, face_of(c))
            for c in bits(hand)
            if solver.deadwood(hand & ~(1 << c)) <= limit
        ]
    out = [
        Move(MELD, i)
        for i in state.game.melds.shapes_in_mask(hand)
        if solver.deadwood(_without_shape(state, hand, i)) <= limit
    ]
    if hand_points(state, hand) <= limit:
        out.append(Move(PASS))
    return out


def layoff_moves(state: GameState) -> list[Move]:
    hand = state.hands[state.current]
    out = [Move(PASS)]
    if knock_fields(state).knock_stage == 0:
        out.extend(m for m in state.layoff_moves(hand) if state.table[m.a].owner == state.knocker)
    else:
        out.extend(Move(MELD, i) for i in state.game.melds.shapes_in_mask(hand))
    return out


def wall_moves(state: GameState) -> list[Move]:
    out = [Move(PASS)]
    upcard = state.discard[-1]
    limit = knock_fields(state).knock_limit
    if best_ten_deadwood(state, state.hands[state.current] | 1 << upcard) <= limit:
        out.append(Move(KNOCK))
    return out


# -- diagnosing illegal moves -----------------------------------------------------------
# Only called on the error path, after :meth:`GameState._diagnose` ruled out a bad move
# object and the match being over; the draw phases are the state's own.
def phase_error(state: GameState, kind: int) -> IllegalMoveError | None:
    """The error for a move of ``kind`` that the current knock-game phase (play after
    the draw, knock, lay-off or wall) never allows, else None."""
    phase = state.phase
    if phase is _PLAY_PHASE:
        if kind in (DISCARD, KNOCK):
            return None
        return IllegalMoveError(
            "discard_or_knock",
            "after the draw, discard a card or knock (k); melds are laid only when the hand ends",
        )
    if phase is _KNOCK_PHASE:
        if state.hands[state.current].bit_count() > state.game.dealt:
            if kind == DISCARD:
                return None
            return IllegalMoveError(
                "knocker_discards", "you knocked: discard a card first, then lay your melds"
            )
        if kind in (MELD, PASS):
            return None
        return IllegalMoveError(
            "knocker_lays_melds", "you knocked: lay your melds (m), then pass (n)"
        )
    if phase is _LAYOFF_PHASE:
        if kind == PASS:
            return None
        if knock_fields(state).knock_stage == 0:
            if kind == LAYOFF:
                return None
            return IllegalMoveError(
                "defender_lays_off",
                "your opponent knocked: lay off onto the knocker's melds, then pass (n); "
                "your own melds come after that",
            )
        if kind == MELD:
            return None
        return IllegalMoveError(
            "defender_lays_melds", "your lay-offs are done: lay your own melds, then pass (n)"
        )
    if kind in (PASS, KNOCK):  # the wall
        return None
    return IllegalMoveError(
        "wall_knock_or_pass",
        f"only {state.rules.wall} cards are left in the stock: knock (k) with the upcard, "
        "or pass (n), which ends the hand with no score",
    )


def diagnose(state: GameState, move: Move) -> IllegalMoveError:
    """Why ``move``, of a kind the current knock-game phase allows (see
    :func:`phase_error`), is not legal: which card, meld or deadwood is wrong."""
    kind = move.kind
    hand = state.hands[state.current]
    limit = knock_fields(state).knock_limit
    deadwood = state.game.solver.deadwood
    if state.phase is _WALL_PHASE:  # a knock at the wall, which takes the upcard
        return _knock_limit(deadwood_shown(state.game, hand | 1 << state.discard[-1]), limit)
    if kind == KNOCK:
        return _knock_limit(deadwood_shown(state.game, hand), limit)
    if kind == DISCARD:
        face = move.a
        if face >= 52 or not hand >> face & 1:
            return IllegalMoveError("card_not_in_hand", "you do not hold that card")
        if state.phase is _PLAY_PHASE:
            return IllegalMoveError(
                "no_discard_of_taken_card",
                "you may not discard the card you took from the discard pile this turn "
                "(seed 000, 001, 002)",
            )
        left = deadwood(hand & ~(1 << face))
        return IllegalMoveError(
            "knock_limit",
            f"discarding {display_face(face)} leaves deadwood {left}, above the knock "
            f"limit {limit}",
        )
    if kind == LAYOFF:
        return _layoff_error(state, move, hand)
    if kind == PASS:  # the knocker's, with too much left (a defender may always pass)
        return IllegalMoveError(
            "knock_limit",
            f"the cards left count {hand_points(state, hand)}, above the knock limit "
            f"{limit}: lay your melds first",
        )
    if move.a not in state.game.melds.shapes_in_mask(hand):
        return IllegalMoveError("card_not_in_hand", "you do not hold the cards of that meld")
    # The knocker's meld (a defender may lay any meld it holds).
    return IllegalMoveError(
        "knock_limit",
        f"that meld is in no arrangement of your cards within the knock limit {limit}",
    )


def _knock_limit(deadwood: int, limit: int) -> IllegalMoveError:
    gin_only = " (gin only)" if limit == 0 else ""
    return IllegalMoveError(
        "knock_limit",
        f"you cannot knock now: your deadwood is {deadwood} and the knock limit is "
        f"{limit}{gin_only}",
    )


def _layoff_error(state: GameState, move: Move, hand: int) -> IllegalMoveError:
    """A defender's lay-off that is not legal (one deck, no jokers in knock games)."""
    if move.a >= len(state.table):
        return IllegalMoveError(
            "no_such_meld",
            f"there is no table meld number {move.a} (the table has {len(state.table)})",
        )
    cells = {code: face for code, face, _idx in layoff_cells(state.game.melds, state.table[move.a])}
    face = cells.get(move.b, -1)
    if face >= 0 and (move.c or not hand >> face & 1):
        return IllegalMoveError("card_not_in_hand", "you do not hold that card")
    # A held card on a cell the meld has makes a legal lay-off: one deck, no jokers,
    # and lay-offs may grow a run past ``max_meld_size``.
    return IllegalMoveError("invalid_layoff", "that card does not extend this meld")


class _SuitDiscards(dict[int, dict[int, Move]]):
    """For one suit, 13-bit mask -> {action number: discard} of those cards, built on
    first use, so a hand's discards are four lookups merged into one dict.  A discard's
    action number is 2 + face (see :class:`~rummykit.moves.ActionSpace`)."""

    def __init__(self, suit: int) -> None:
        super().__init__()
        self.suit = suit

    def __missing__(self, mask: int) -> dict[int, Move]:
        base = self.suit * 13
        found = self[mask] = {
            2 + base + r: DISCARD_MOVES[base + r] for r in range(13) if mask >> r & 1
        }
        return found


_BY_SUIT = tuple(_SuitDiscards(s) for s in range(4))


class _SuitActions(dict[int, tuple[int, ...]]):
    """For one suit, 13-bit mask -> the discard action numbers of those cards, lowest
    first, built on first use."""

    def __init__(self, suit: int) -> None:
        super().__init__()
        self.suit = suit

    def __missing__(self, mask: int) -> tuple[int, ...]:
        base = 2 + self.suit * 13
        found = self[mask] = tuple(base + r for r in range(13) if mask >> r & 1)
        return found


_ACTIONS_BY_SUIT = tuple(_SuitActions(s) for s in range(4))


def _discards(hand: int, taken: int) -> LegalMoves:
    """One discard per card (knock games use one deck, so card id == face), with the
    action numbers filled in."""
    if taken >= 0:
        hand &= ~(1 << taken)
    s0, s1, s2, s3 = _BY_SUIT
    numbered = {
        **s0[hand & 0x1FFF],
        **s1[(hand >> 13) & 0x1FFF],
        **s2[(hand >> 26) & 0x1FFF],
        **s3[hand >> 39],
    }
    out = LegalMoves(numbered.values())
    out.numbered = numbered
    return out


def _without_shape(state: GameState, hand: int, shape: int) -> int:
    for face in state.game.melds.shapes[shape].cells:
        hand &= ~(1 << face)
    return hand


# -- the variant ----------------------------------------------------------------------------
GIN_ACTIONS = (
    Action("knock", "k", "key.knock", KNOCK),
    Action("pass_turn", "n", "key.pass", PASS),
    Action("lay_best", "b", "key.lay_best"),
)
"""Knocking, passing (the first upcard, the wall, done laying) and the best melds after
a knock."""


class Gin(Variant):
    """Knock games: melds only at the end, the first upcard, knocking, the wall."""

    name = Family.GIN
    aliases = ("Gin Rummy", "Gin", "gin_rummy", "Oklahoma Gin")
    own_phases = frozenset({_UPCARD_PHASE, _KNOCK_PHASE, _LAYOFF_PHASE, _WALL_PHASE})
    quick_discard = True
    house_rules = "knock"
    family_fields = KnockFields

    def actions(self) -> tuple[Action, ...]:
        return GIN_ACTIONS

    def status(self, g: GameState | PlayerView, hand: int) -> list[StatusLine]:
        """Under Oklahoma the hand's knock limit (the first upcard's; elsewhere the
        rules' knock card, in the turn's advice), then the player's own deadwood
        (:func:`deadwood_shown`: after the best discard when holding a card over the
        deal)."""
        out = []
        if self.rules.oklahoma and g.phase is not Phase.OVER:  # each hand's own limit
            out.append(StatusLine("knock_limit", {"n": knock_fields(g).knock_limit}))
        if hand:
            after = hand.bit_count() > g.game.dealt
            n = deadwood_shown(g.game, hand)
            out.append(StatusLine("deadwood_after" if after else "deadwood", {"n": n}, own=True))
        return out

    def advice(
        self, g: GameState | PlayerView, hand: int, legal: Sequence[Move]
    ) -> StatusLine | None:
        """What to do in the knock game's own phases: the first upcard, the play phase
        (discard, or knock within the limit), the knock and lay-offs, the wall.  The
        draw is the draw-meld-discard game's."""
        phase = g.phase
        top: dict[str, Param] = {"card": g.discard[-1]} if g.discard else {}
        limit: dict[str, Param] = {"limit": knock_fields(g).knock_limit}
        if phase is Phase.DRAW:
            return None
        if phase is _UPCARD_PHASE:
            if Move(PASS) in legal:
                return StatusLine("gin.upcard", top)
            return StatusLine("gin.both_passed")
        if phase is _WALL_PHASE:
            if Move(KNOCK) in legal:
                return StatusLine("gin.wall_knock", top)
            return StatusLine("gin.wall_pass")
        if phase is _KNOCK_PHASE:
            if hand.bit_count() > g.game.dealt:
                return StatusLine("gin.knock_discard", limit)
            return StatusLine("gin.lay_melds")
        if phase is _LAYOFF_PHASE:
            if laying_off(g):
                return StatusLine("gin.lay_off", {"who": g.knocker})
            return StatusLine("gin.lay_melds_score")
        return StatusLine("gin.discard_or_knock" if Move(KNOCK) in legal else "gin.discard", limit)

    def payload(self, v: PlayerView) -> dict[str, object]:
        """The hand's knock limit, its knocker and the lay-off stage (0: the defender
        lays off, then the knocker's melds are scored)."""
        fields = knock_fields(v)
        knock = {"limit": fields.knock_limit, "knocker": v.knocker, "stage": fields.knock_stage}
        return {**super().payload(v), "knock": knock}

    def after_deal(self, state: GameState) -> None:
        """The hand's knock limit (Oklahoma reads it off the upcard), then the first
        upcard offered before the first draw."""
        state.family = KnockFields(knock_limit=knock_limit_for(state, state.discard[-1]))
        super().after_deal(state)

    def phase_moves(self) -> Mapping[Phase, MoveGenerator]:
        return {
            **super().phase_moves(),
            Phase.PLAY: play_moves,
            Phase.KNOCK: knock_moves,
            Phase.LAYOFF: layoff_moves,
            Phase.WALL: wall_moves,
        }

    play_actions = staticmethod(play_actions)
    play_action = staticmethod(play_knock)

    def do_phase(self, state: GameState, move: Move) -> bool:
        """Moves of the Gin phases; False for a draw, which the shared code handles."""
        p = state.current
        phase = state.phase
        kind = move.kind
        if phase is _UPCARD_PHASE:
            return super().do_phase(state, move)
        if phase is _WALL_PHASE:
            if kind == PASS:
                state.finish_round(None, RoundEnd.WALL)
            else:  # a knock at the wall takes the upcard with it
                card = state.discard.pop()
                state.hands[p] |= 1 << card
                state.known[p] |= 1 << card
                state.knocker = p
                state.set_phase(_KNOCK_PHASE)
            return True
        if kind == DISCARD:  # the knocker's discard
            state.discard_face(p, move.a)
        elif kind == MELD:
            state.lay_meld(p, move.a)
        elif kind == LAYOFF:
            state.lay_off(p, move)
        elif phase is _KNOCK_PHASE:  # the knocker passes: over to the defender
            stage = 1 if hand_points(state, state.hands[p]) == 0 else 0
            state.family = replace(knock_fields(state), knock_stage=stage)
            state.set_phase(_LAYOFF_PHASE, 1 - p)
        elif knock_fields(state).knock_stage == 0:
            state.family = replace(knock_fields(state), knock_stage=1)
        else:
            state.finish_round(state.knocker, RoundEnd.KNOCK)
        return True

    def do_move(self, state: GameState, move: Move) -> None:
        """The knock after the draw: the knocker's discard and melds follow."""
        state.knocker = state.current
        state.set_phase(_KNOCK_PHASE)

    def at_wall(self, state: GameState, player: int) -> bool:
        """At the wall the next player may still knock with the upcard (or pass),
        unless that turn is past ``max_turns``, which ends the round instead."""
        rounds = len(state.results)
        state.begin_turn((player + 1) % state.num_players)
        if len(state.results) == rounds:
            state.set_phase(_WALL_PHASE)
        return True

    def score(self, state: GameState, winner: int | None, reason: RoundEnd) -> RoundResult:
        if reason is RoundEnd.KNOCK:
            return score_knock(
                state.rules, state.round_no, state.dealer, state.hands, state.knocker
            )
        return super().score(state, winner, reason)

    def end_match(self, state: GameState) -> None:
        """Gin match bonuses: a line (box) bonus per hand won, the game bonus to the
        winner, and the winner's total doubled on a shutout."""
        r = self.rules
        if not (r.game_bonus or r.line_bonus or r.shutout_double):
            return
        n = state.num_players
        won = [0] * n
        for res in state.results:
            if res.winner is not None and res.players[res.winner].delta > 0:
                won[res.winner] += 1
        best = max(state.scores)
        leaders = [p for p in range(n) if state.scores[p] == best]
        # A tie (possible when the match is a number of deals, or the deal guard ends
        # it) has no game winner: nobody gets the game bonus or a shutout.
        winner = leaders[0] if len(leaders) == 1 else -1
        before = list(state.scores)
        notes: list[list[str]] = [[] for _ in range(n)]
        for p in range(n):
            state.scores[p] += r.line_bonus * won[p]
            if r.line_bonus and won[p]:
                notes[p].append(f"line bonus: {won[p]} x {r.line_bonus}")
        if winner >= 0:
            state.scores[winner] += r.game_bonus
            if r.game_bonus:
                notes[winner].append(f"game bonus: +{r.game_bonus}")
            if r.shutout_double and all(won[p] == 0 for p in range(n) if p != winner):
                notes[winner].append(f"shutout: doubled, +{state.scores[winner]}")
                state.scores[winner] *= 2
        state.events.append(Bonus(winner, tuple(won)))
        # The bonuses are the last result's own part (PlayerScore.bonus), so the rows
        # of the results add up to the scores.
        last = state.results[-1]
        players = tuple(
            replace(
                ps,
                delta=ps.delta + state.scores[p] - before[p],
                notes=ps.notes + tuple(notes[p]),
                bonus=state.scores[p] - before[p],
            )
            for p, ps in enumerate(last.players)
        )
        state.results[-1] = replace(last, players=players)

    def phase_error(self, state: GameState, kind: int) -> IllegalMoveError | None:
        if state.phase is _UPCARD_PHASE:
            return super().phase_error(state, kind)
        return phase_error(state, kind)

    def diagnose(self, state: GameState, move: Move) -> IllegalMoveError:
        if state.phase is _UPCARD_PHASE:
            return super().diagnose(state, move)
        return diagnose(state, move)
