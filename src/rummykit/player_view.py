"""What one player may know: :class:`PlayerView` and how a state builds one.

A :class:`PlayerView` holds the player's own hand, everything public (the table, the
whole discard pile, which every player saw being built, hand sizes, scores) and the
cards others are *known* to hold because they took them face up (from the discard
pile, a table meld, or a joker swap).  It never holds another hand or the stock order.
When the view's player is to act, it carries their legal moves, so a bot needs
nothing else.

This module sits below :mod:`rummykit.state`, which builds views with
:func:`make_view`; :func:`rummykit.view.determinize`, which builds states from views,
sits above it, so the two import each other nowhere.

>>> from rummykit import new_game
>>> g = new_game("basic", players=3, seed=5)
>>> v = g.view(1)
>>> v.hand == g.hands[1], v.hand_sizes, v.stock_size
(True, (7, 7, 7), 30)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from .cards import deck, face_of
from .family import FamilyFields
from .game import Game
from .moves import Move
from .phase import Phase
from .rules import Rules
from .scoring import RoundResult
from .table import TableMeld

if TYPE_CHECKING:
    from .state import GameState


class RoundMoves(Sequence[int]):
    """The moves ``history[start:stop]`` of a state, copied only when first read.

    A view is built for every action, and most readers (every bot but the search)
    never look at the moves: copying them each time cost the engine a sixth of its
    speed through views, and copying the whole match's a third.  A state's history
    only ever grows (moves are appended, never changed or removed), so the part
    before ``stop`` stays as it was when the view was made: the view is still a
    snapshot.  Equal to, and hashed as, the tuple of those moves.

    >>> RoundMoves([5, 0, 7, 9], 1, 3) == (0, 7), list(RoundMoves([5, 0, 7], 1, 3))
    (True, [0, 7])
    """

    __slots__ = ("_history", "_moves", "_start", "_stop")

    def __init__(self, history: Sequence[int], start: int, stop: int) -> None:
        self._history = history
        self._start = start
        self._stop = stop
        self._moves: tuple[int, ...] | None = None

    def _tuple(self) -> tuple[int, ...]:
        moves = self._moves
        if moves is None:
            moves = self._moves = tuple(self._history[self._start : self._stop])
        return moves

    def __len__(self) -> int:
        return self._stop - self._start

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...
    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        return self._tuple()[index]

    def __iter__(self) -> Iterator[int]:
        return iter(self._tuple())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RoundMoves):
            other = other._tuple()
        return self._tuple() == other

    def __hash__(self) -> int:
        return hash(self._tuple())

    def __repr__(self) -> str:
        return f"RoundMoves({self._tuple()!r})"

    def __reduce__(self) -> tuple[type[RoundMoves], tuple[tuple[int, ...], int, int]]:
        """Pickled as its own moves, not the whole history it reads from."""
        moves = self._tuple()
        return (RoundMoves, (moves, 0, len(moves)))


@dataclass(frozen=True)
class PlayerView:
    player: int
    rules: Rules
    names: tuple[str, ...]
    phase: Phase
    current: int
    dealer: int
    round_no: int
    scores: tuple[int, ...]
    hand: int
    """This player's hand as a bitmask of physical cards."""
    hand_sizes: tuple[int, ...]
    known: tuple[int, ...]
    """Per player, the cards everyone knows are in that hand (taken face up)."""
    stock_size: int
    discard: tuple[int, ...]
    """The discard pile, bottom first."""
    table: tuple[TableMeld, ...]
    melded: tuple[bool, ...]
    opened: tuple[bool, ...]
    laid: tuple[bool, ...]
    taken: int
    pending: int
    pending_kind: int
    melds_this_turn: int
    open_points: int
    open_pure: bool
    turn_start_laid: bool
    turn: int
    restocks: int
    knocker: int
    """Gin: the player who knocked this hand, or -1."""
    upcard_passes: int
    upcard_draws: int
    repeated: bool
    family: FamilyFields
    """The fields of the game's family (:mod:`rummykit.family`), all public: the
    state's own record, which is frozen."""
    results: tuple[RoundResult, ...]
    legal: tuple[Move, ...]
    """The viewer's legal moves when it is their turn, else empty."""
    history: RoundMoves
    """The current round's moves so far as action numbers (:mod:`rummykit.moves`).  All
    of it is public: everyone at the table sees each move, and a move names no hidden
    card (a stock draw is just "draw from the stock", a discard shows its face).  The
    opponent model (:mod:`rummykit.bots.inference`) reads who passed, took or threw
    what.  A :class:`RoundMoves`: it compares and hashes as the tuple of those moves,
    which it copies only when read (see there)."""
    game: Game

    @property
    def down(self) -> bool:
        """Contract Rummy: whether this player has gone down (laid the contract)."""
        return self.opened[self.player]

    @property
    def deal_size(self) -> int:
        """Cards dealt to each player in this deal."""
        return self.rules.deal_size(len(self.names), self.round_no)

    @property
    def my_turn(self) -> bool:
        return self.current == self.player and self.phase is not Phase.OVER


def make_view(s: GameState, player: int) -> PlayerView:
    """``player``'s view of ``s``: a snapshot that later moves do not change.

    Built once per action by every bot driver, so it skips the frozen dataclass
    ``__init__`` (one ``object.__setattr__`` per field, about 3x slower) and fills the
    instance dict directly; the fields are exactly those of :class:`PlayerView`.
    """
    if not 0 <= player < len(s.names):
        raise ValueError(f"no player {player}")
    v = object.__new__(PlayerView)
    vars(v).update(
        player=player,
        rules=s.rules,
        names=tuple(s.names),
        phase=s.phase,
        current=s.current,
        dealer=s.dealer,
        round_no=s.round_no,
        scores=tuple(s.scores),
        hand=s.hands[player],
        hand_sizes=tuple(h.bit_count() for h in s.hands),
        known=tuple(s.known),
        stock_size=len(s.stock),
        discard=tuple(s.discard),
        table=tuple(s.table),
        melded=tuple(s.melded),
        opened=tuple(s.opened),
        laid=tuple(s.laid),
        taken=s.taken,
        pending=s.pending,
        pending_kind=s.pending_kind,
        melds_this_turn=s.melds_this_turn,
        open_points=s.open_points,
        open_pure=s.open_pure,
        turn_start_laid=s.turn_start_laid,
        turn=s.turn,
        restocks=s.restocks,
        knocker=s.knocker,
        upcard_passes=s.upcard_passes,
        upcard_draws=s.upcard_draws,
        repeated=s.repeated,
        family=s.family,
        results=tuple(s.results),
        legal=tuple(s.legal_moves()) if s.current == player else (),
        history=RoundMoves(s.history, s.round_start, len(s.history)),
        game=s.game,
    )
    return v


def unseen_cards(v: PlayerView) -> list[int]:
    """Cards whose place the viewer does not know: other hands' unknown part and the stock."""
    seen = v.hand
    for k in v.known:
        seen |= k
    for c in v.discard:
        seen |= 1 << c
    for tm in v.table:
        for c in tm.cards:
            seen |= 1 << c
    return [c for c in deck(v.rules.decks, v.rules.jokers) if not seen >> c & 1]


def unseen_faces(v: PlayerView) -> dict[int, int]:
    """:func:`unseen_cards` by face: each face the viewer might still draw, with its
    number of unseen copies (the bots' *live* cards)."""
    live: dict[int, int] = {}
    for c in unseen_cards(v):
        f = face_of(c)
        live[f] = live.get(f, 0) + 1
    return live


CardWeights = Sequence[Mapping[int, float]]
"""Per player, a weight for unseen cards (absent: 1.0), as
:func:`rummykit.bots.inference.card_weights` makes them: how much likelier than
another unseen card a card is to be in that player's hand."""
