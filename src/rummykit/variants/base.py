"""The hooks a variant may override, with the defaults of the draw-meld-discard game.

A variant is its :class:`~rummykit.rules.Rules` options (data) plus one small module
that subclasses :class:`Variant` and overrides only the hooks where it differs from the
seeds' turn: draw, then melds, lay-offs and the like, then a discard.  The state
machine (:mod:`rummykit.state`) keeps the primitives every variant shares (the deal,
the draw, laying a meld, laying off, restocking, the check that a turn can still end)
and asks the game's variant at the few points where families differ:

========================  ==============================================================
hook                       when the state asks it
========================  ==============================================================
``after_deal``             once per round, after the cards are dealt: set the round's own
                           fields and the first phase (dealing)
``phase_moves``            once per game: the move generator of every phase the variant
                           adds, and of the play phase if it replaces the standard one
``play_actions``           a play phase with no cached list asks for its action numbers
``play_action``            an action number the quick discard path does not cover
``do_phase``               a move in one of the variant's own phases
``do_move``                a move of a kind the shared primitives do not carry out
``at_wall``                a discard left ``rules.wall`` stock cards or fewer
``score``                  the round ended: its :class:`~rummykit.scoring.RoundResult`
``end_match``              the match ended: match bonuses
``phase_error``            an illegal move: does the phase allow its kind at all?
``diagnose``               an illegal move in a phase of the variant's own
``candidates``             (contract games) the play phase's moves before the finish check
``finishable``             (contract games) can a player not yet down still end the turn
``contract_done``          (contract games) do this turn's melds complete the contract
``contract_error``         (contract games) the contract rule a play-phase move breaks
``open_buys``              (buying games) a stock draw: open the out-of-turn buy window
``family_type``            once per game: the record of the family's own fields
``turn_phase``, ``upcard``  once per game: the phase a turn begins in; whether the deal
                           turns an upcard
``open_legal``             a move not in the legal list, when ``open_moves``: is it legal?
========================  ==============================================================

The hooks reach the state through its public fields and these primitives (its other
methods are private to it):

========================  ==============================================================
primitive                  what it does
========================  ==============================================================
``begin_turn``             a player's turn begins in the draw phase
``finish_round``           the round ends (winner, reason): scored, then the next deal
``set_phase``              enter a phase (and seat to act); clears the cached moves
``discard_face``           put a held copy of a face on the discard pile
``lay_meld``, ``lay_off``  lay a meld from the hand, lay a card off onto a table meld
``draw_moves``             the draw phase's moves
``layoff_moves``           lay-offs of given cards; ``joker_moves``: joker-to-end swaps
``may_take_upcard``        whether the top discard may be taken now
``turn_copy``              a cheap copy for searching the current turn
``finishable``             whether the player to act can still end the turn legally
``shuffled``               cards in random order from the state's own generator
``draw_error``             why a draw the phase allows is refused
========================  ==============================================================

What a family shows a player is data too (:mod:`rummykit.variants.show`), asked by the
front ends, never by the state: ``actions`` (its extra keys), ``status`` (its status
lines, as message codes with parameters), ``advice`` (what the seat to act should do
now, where the family's turn is its own), ``payload`` (the web page's data blocks of
the family), ``play_layout`` (a hand arranged during play, where the family counts it
its own way) and ``layout`` (a hand laid out at the round end: melds, loose cards, what
each joker or wild card stands for).

Dispatch costs nothing on the hot paths: the state reads the phase's generator from a
tuple the :class:`~rummykit.game.Game` builds once, and the standard play phase keeps
its generator inline (a ``None`` entry), so a seed game makes no call it did not make
before.  Meld validation and the opening requirement are rules options read by the meld
catalogue (:mod:`rummykit.melds`) and :meth:`GameState.needs_opening`.  Out-of-turn
actions (Contract Rummy's buying) are a phase of the variant in which ``current`` is
the player offered the choice (``open_buys``, ``do_phase``).

The hooks take the state as an argument and import :mod:`rummykit.state` only for type
checking, so the runtime imports run one way: state -> variants -> phase, game pieces.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..cards import JOKER, bits, copy_of
from ..errors import IllegalMoveError
from ..family import FamilyFields
from ..moves import PASS, Move
from ..phase import Phase
from ..results import RoundEnd
from ..rules import Family, Rules
from ..scoring import RoundResult, card_value, score_round
from . import upcard
from .show import Action, Grouping, StatusLine

if TYPE_CHECKING:
    from ..game import Game
    from ..solver import Solver
    from ..state import GameState
    from ..view import PlayerView

MoveGenerator = Callable[["GameState"], list[Move]]
"""The legal moves of one phase, given the state (each list is the state's to cache)."""


class AgentActions(Protocol):
    """An action space of fixed size for learning agents (:meth:`Variant.agent_actions`):
    numbers ``0 <= a < size``, each with one meaning in every position."""

    size: int

    def legal(self, state: GameState) -> dict[int, Move]:
        """The legal numbers of the player to act, each with the move it names."""
        ...

    def move(self, state: GameState, action: int, legal: dict[int, Move] | None = None) -> Move:
        """The legal move numbered ``action`` (``legal``: :meth:`legal` of ``state``,
        when the caller has it), or :class:`IllegalMoveError`."""
        ...

    def describe(self, action: int) -> str:
        """What the number does, in words."""
        ...


class Variant:
    """The draw-meld-discard family (seeds 000 to 003); subclasses override hooks.

    One instance per :class:`~rummykit.game.Game` (so per rules and player count),
    bound at construction; it holds no per-match state.
    """

    name: ClassVar[Family] = Family.RUMMY
    """The family this variant plays (:attr:`Rules.family <rummykit.rules.Rules.family>`)."""

    aliases: ClassVar[tuple[str, ...]] = ()
    """Other names :func:`~rummykit.variants.find_variant` knows the family by."""

    own_phases: ClassVar[frozenset[Phase]] = frozenset({Phase.FIRST_UPCARD})
    """The phases whose moves :meth:`do_phase` carries out: the family's own (the first
    upcard is every family's).  The draw, the play phase and the end of the match are
    the state's, even where :meth:`phase_moves` replaces their generators."""

    family_fields: ClassVar[type[FamilyFields]] = FamilyFields
    """The record of the fields this family adds to the state (:mod:`rummykit.family`),
    whatever its options: a saved state's loader accepts its keys."""

    quick_discard: ClassVar[bool] = False
    """The play phase's discards are every held card but the one just taken, so the
    state may accept a discard by action number without listing the moves (Gin)."""

    house_rules: ClassVar[str] = "rummy"
    """Which house rules a new game of this family may set, by their group: ``rummy``
    (the opening, the ace, the rummy bonus and the toggles) or ``knock`` (the knock
    card, the gin and undercut bonuses, Oklahoma).  The settings forms show that
    group's fields and read only those."""

    turn_phase: ClassVar[Phase] = Phase.DRAW
    """The phase every turn begins in: the draw, or a phase of the family's own whose
    moves are whole turns (Rummikub's :attr:`~rummykit.phase.Phase.TILES`)."""

    upcard: ClassVar[bool] = True
    """The deal turns the stock's top card face up to start the discard pile; a game
    without a discard pile (Rummikub) deals none."""

    open_moves: ClassVar[bool] = False
    """The legal list is a bounded selection and :meth:`open_legal` accepts the rest
    (Rummikub: any valid arrangement of the table is a legal play, and no list could
    hold them all).  False: the list is every legal move."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def family_type(self) -> type[FamilyFields]:
        """The record of this game's own fields (``state.family``): by default
        :attr:`family_fields`; a family may keep none under some options."""
        return self.family_fields

    # -- dealing ---------------------------------------------------------------------
    def after_deal(self, state: GameState) -> None:
        """The round's own fields, once the cards are dealt and the first turn began:
        by default, the first upcard offered first if the rules say so."""
        if self.rules.first_upcard_option and state.phase is Phase.DRAW:
            state.set_phase(Phase.FIRST_UPCARD)

    # -- the turn's phases -----------------------------------------------------------
    def phase_moves(self) -> Mapping[Phase, MoveGenerator]:
        """Generators of the variant's phases.  The draw, the standard play phase
        (melding in play) and the end of the match are the state's own; the first
        upcard is every family's (see :mod:`rummykit.variants.upcard`)."""
        return {Phase.FIRST_UPCARD: upcard.first_upcard_moves}

    @staticmethod
    def play_actions(state: GameState) -> list[int] | None:
        """The play phase's legal action numbers without building moves, or None to
        let the state list the moves (the default).  A static method, so a variant can
        bind a plain function and the state calls it without a wrapper frame."""
        return None

    @staticmethod
    def play_action(state: GameState, action: int) -> Move | None:
        """The legal move numbered ``action`` in a quick-discard play phase that is not
        a discard, or None (static, like :meth:`play_actions`)."""
        return None

    def do_phase(self, state: GameState, move: Move) -> bool:
        """Carry out a legal ``move`` in one of the variant's phases; False leaves it to
        the shared primitives (a draw)."""
        if move.kind == PASS:  # the only move of the first-upcard phase that is not a draw
            upcard.pass_upcard(state)
            return True
        return False

    def open_legal(self, state: GameState, move: Move) -> bool:
        """Whether ``move``, a move of plain ints not in the legal list, is legal all the
        same (asked only when :attr:`open_moves`; the state's ``apply`` asks it only
        after the list refused the move, so listed moves pay nothing)."""
        return False  # pragma: no cover - asked only when open_moves

    def agent_actions(self, game: Game) -> AgentActions | None:
        """A fixed action space for learning agents when the engine's own action
        numbers cannot all be listed (:attr:`ActionSpace.listable
        <rummykit.moves.ActionSpace.listable>` false), or None: the engine's numbers
        serve.  Asked by the environments and OpenSpiel, never by the state."""
        return None

    def do_move(self, state: GameState, move: Move) -> None:
        """Carry out a legal move of a kind the shared primitives do not know."""
        raise AssertionError(f"{self.name} has no move of kind {move.kind}")  # pragma: no cover

    # -- melds ---------------------------------------------------------------------------
    def meld_points(self, shape: int) -> int:
        """What laying the meld ``shape`` scores at once, under ``meld_scoring``."""
        return 0  # pragma: no cover - asked only of a family with meld_scoring

    def cell_points(self, shape: int, index: int) -> int:
        """What laying off the card at ``index`` of the grown ``shape`` scores at once."""
        return 0  # pragma: no cover - asked only of a family with meld_scoring

    def draw_error(self, state: GameState, kind: int) -> IllegalMoveError:
        """Why a draw of a kind only this variant has is refused.  (A deep draw in rules
        without ``deep_discard`` is not in their action space: refused before this.)"""
        return IllegalMoveError(  # pragma: no cover - see above
            "deep_discard", "these rules draw only the top discard"
        )

    # -- contracts and buying (asked only when the Game's flags say so) --------------------
    @staticmethod
    def candidates(state: GameState) -> Iterable[Move]:
        """The play phase's moves before the finish check, when ``Game.contract``."""
        raise AssertionError("asked only of a contract game")  # pragma: no cover

    @staticmethod
    def finishable(state: GameState, memo: dict[Any, bool]) -> bool:
        """Whether a player not yet down can still end the turn (``Game.contract``)."""
        raise AssertionError("asked only of a contract game")  # pragma: no cover

    @staticmethod
    def contract_done(state: GameState) -> bool:
        """Whether this turn's melds complete the contract (``Game.contract``)."""
        raise AssertionError("asked only of a contract game")  # pragma: no cover

    @staticmethod
    def contract_error(state: GameState, move: Move) -> IllegalMoveError | None:
        """The contract rule a play-phase move breaks, or None (``Game.contract``)."""
        raise AssertionError("asked only of a contract game")  # pragma: no cover

    def open_buys(self, state: GameState) -> None:
        """A stock draw was made: open the buy window if anyone may buy (``Game.buying``)."""
        raise AssertionError("asked only of a buying game")  # pragma: no cover

    # -- round end and scoring ---------------------------------------------------------
    def at_wall(self, state: GameState, player: int) -> bool:
        """``player``'s discard left the stock at the wall: True if the round ended.
        Without a knock there is nothing to play at the wall: the hand is void."""
        state.finish_round(None, RoundEnd.WALL)
        return True

    def score(self, state: GameState, winner: int | None, reason: RoundEnd) -> RoundResult:
        """The round's scores (seed scoring: winner collects or penalty)."""
        return score_round(
            state.rules,
            state.round_no,
            state.dealer,
            [state.hand(p) for p in range(state.num_players)],
            winner,
            reason,
            winner is not None and not state.turn_start_laid,
            list(state.melded),
        )

    def add_round(self, state: GameState, result: RoundResult) -> None:
        """Add the round just scored to the match scores: every player's delta."""
        for p, ps in enumerate(result.players):
            state.scores[p] += ps.delta

    def match_over(self, state: GameState) -> bool:
        """Whether the round just scored ended the match: after ``deals`` deals, or once
        a score reaches ``target_score`` (the deal guard is the state's own)."""
        r = self.rules
        if r.deals is not None:
            return state.round_no >= r.deals
        target = r.target_score or 0
        return any(s >= target for s in state.scores)

    def next_seat(self, state: GameState, player: int) -> int:
        """The seat whose turn follows ``player``'s, when ``Game.skip_seats``."""
        return (player + 1) % state.num_players  # pragma: no cover - Indian overrides it

    def end_match(self, state: GameState) -> None:
        """Adjust the final scores once the match is over (no change by default)."""

    # -- diagnosing illegal moves ---------------------------------------------------------
    def phase_error(self, state: GameState, kind: int) -> IllegalMoveError | None:
        """The error for a move of ``kind`` in one of the variant's phases, or in its play
        phase when it replaces the standard one; None if the phase allows the kind."""
        return upcard.phase_error(state, kind)  # the only phase of the base family

    def diagnose(self, state: GameState, move: Move) -> IllegalMoveError:
        """Why ``move``, of a kind the phase allows, is illegal in a variant phase: in
        the first-upcard phase, a take the must-use rule refuses."""
        return state.draw_error(move.kind)

    # -- what the family shows (data for the front ends; the state never asks) -----------
    def actions(self) -> tuple[Action, ...]:
        """The actions only this family has (their keys and help codes), beyond the
        draw-meld-discard turn's: the front ends bind and describe exactly these."""
        return ()

    def action_name(self, kind: int, default: str) -> str:
        """What this family calls its move of ``kind`` (its action's name), else
        ``default``: Indian Rummy's knock is ``declare``."""
        return next((a.name for a in self.actions() if a.kind == kind), default)

    def status(self, g: GameState | PlayerView, hand: int) -> list[StatusLine]:
        """What a player must see of this family now, public lines first: the
        state ``g`` (a state or one seat's view) and ``hand``, the viewer's own hand
        (0 for a spectator, who gets no line marked ``own``).  The draw-meld-discard
        game shows nothing beyond its table."""
        return []

    def advice(
        self, g: GameState | PlayerView, hand: int, legal: Sequence[Move]
    ) -> StatusLine | None:
        """What the seat to act should do now, in this family's own terms: a message
        code with its parameters (a ``who`` parameter is a seat, which the front ends
        write as its name).  ``hand`` is that seat's hand and ``legal`` its legal
        moves.  None: the front end's advice for the draw-meld-discard turn (draw,
        meld, lay off, discard) applies, as it does to this family throughout."""
        return None

    def payload(self, v: PlayerView) -> dict[str, object]:
        """The blocks of public data the web page needs of this family beyond the
        table, by name (pure data: numbers, flags, codes, never words for people).
        Rules that open the whole discard pile (``deep_discard``) say so, so the page
        spreads it."""
        return {"deep_discard": True} if self.rules.deep_discard else {}

    def play_layout(self, hand: int, wild: int, dealt: int) -> Grouping | None:
        """``hand`` arranged during play as this family counts it, with the deal's cut
        ``wild`` (a hand over the deal's ``dealt`` cards shows its card to put out);
        None: the front end's solver arranges it (least deadwood, meld points)."""
        return None

    def layout(self, hand: int, wild: int, solver: Callable[[], Solver]) -> Grouping:
        """``hand`` laid out at the round end: the solver's least-deadwood melds, each
        card with the face it plays as, the loose cards, and what every card counts (a
        hand's cards all count, melds held in hand included).  ``wild`` is the deal's
        cut, for the families that have one; ``solver`` gives the front end's solver,
        asked only by a family that arranges with one."""
        arranging = solver()
        best = arranging.arrange(hand)
        melds = []
        left = hand
        for i in best.shapes:
            sh = arranging.melds.shapes[i]
            meld = []
            for j, f in enumerate(sh.cells):
                c = copy_of(left, JOKER if sh.joker_cells >> j & 1 else f)
                left &= ~(1 << c)
                meld.append((c, f))
            melds.append(tuple(meld))
        loose = tuple(bits(left))
        cards = [c for meld in melds for c, _f in meld] + list(loose)
        values = tuple(card_value(self.rules, c) for c in cards)
        return Grouping(tuple(melds), loose, values, best.deadwood, True)
