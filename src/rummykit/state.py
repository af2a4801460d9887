"""The game state machine: a whole match, from the cut for dealer to the final standings.

>>> from rummykit import new_game
>>> g = new_game("basic", players=2, seed=7)
>>> g.phase.name, len(g.hands), g.hand_size(0), g.hand_size(1), len(g.stock)
('DRAW', 2, 10, 10, 31)
>>> g.apply(Move(DRAW_STOCK))
>>> g.phase.name, g.hand_size(g.current)
('PLAY', 11)

Chance (the cut, the shuffle and the deal, restocking) is resolved by the state's
own seeded :class:`random.Random`, so the same seed and the same moves always give
the same game.  Players act through :meth:`GameState.apply` or
:meth:`GameState.apply_action`; :meth:`GameState.legal_moves` lists exactly the moves
that ``apply`` accepts.

Turn structure (seed 000, 001, 002, 003): draw from the stock or the discard pile,
then any melds, lay-offs, joker swaps and takes the rules allow, then a discard that
ends the turn.  Emptying the hand ends the round at once.

*Obligations.*  Some moves oblige the player to do something later in the same turn:
a card taken from the discard pile under ``discard_pickup=must_use``, a card taken
from a table meld, a joker freed under ``swapped_joker=must_meld``, or an opening
begun but still under the minimum.  A move is legal only if the turn can still be
finished legally afterwards (the engine searches the player's own options to check
this), so no sequence of legal moves can leave a player stuck.  While a card is
pending, the player's next move must use it (RULES-NOTES 9: "immediately").
"""

from __future__ import annotations

import heapq
import operator
import random
from collections.abc import Iterable
from dataclasses import dataclass
from math import log
from typing import Any, SupportsIndex

from .cards import COPIES, FACE_MASKS, JOKER, bits, face_of, holds_face, is_joker
from .errors import IllegalMoveError, RulesError
from .events import Cut, Deal, Event, Laid, Restocked, RoundOver
from .family import FamilyFields
from .game import Game
from .melds import RUN, HandCounts, MeldTable
from .moves import (
    BUY,
    DISCARD,
    DISCARD_MOVES,
    DRAW_DEEP,
    DRAW_DISCARD,
    DRAW_DISCARD_MOVE,
    DRAW_STOCK,
    DRAW_STOCK_MOVE,
    DROP,
    KNOCK,
    LAYOFF,
    MELD,
    PASS,
    SWAP,
    TAKE,
    TIMEOUT,
    ActionSpace,
    LegalMoves,
    Move,
)
from .phase import NO_CARD, PENDING_MELD, PENDING_USE, Phase
from .player_view import CardWeights, PlayerView, make_view, unseen_cards
from .results import RoundEnd
from .rules import OpeningScope, Restock, Rules, SwappedJoker
from .scoring import RoundResult, match_winners, standings
from .table import (
    TableMeld,
    cell_index,
    grown_shape,
    joker_cells,
    joker_swaps,
    joker_to_end,
    layoff_cells,
    layoff_options,
    shrunk_shape,
)

__all__ = [
    "NO_CARD",
    "PENDING_MELD",
    "PENDING_USE",
    "Game",
    "GameState",
    "MatchResult",
    "Phase",
    "determinize",
    "new_game",
    "rng_in_state",
    "round_start_of",
]
"""The phase vocabulary and :class:`Game` live in :mod:`rummykit.phase` and
:mod:`rummykit.game` (below this module, so variants and views need not import it);
they are named here too, where every caller has always found them."""

# The members under plain module names: reading an Enum class attribute costs a slow
# lookup, and these comparisons run several times per move.
_DRAW_PHASE = Phase.DRAW
_PLAY_PHASE = Phase.PLAY
_OVER_PHASE = Phase.OVER


@dataclass(frozen=True)
class MatchResult:
    scores: tuple[int, ...]
    standings: tuple[int, ...]
    """Seats from first to last."""
    winners: tuple[int, ...]
    """Every seat sharing the best total."""
    rounds: int


class GameState:
    """A match in progress.  Mutable; :meth:`clone` is cheap."""

    game: Game
    rules: Rules
    names: list[str]
    seed: int | None
    """The seed the match was created with (game records replay from it)."""
    rng: random.Random
    scores: list[int]
    round_no: int
    dealer: int
    phase: Phase
    current: int
    hands: list[int]
    stock: list[int]
    discard: list[int]
    table: list[TableMeld]
    melded: list[bool]
    opened: list[bool]
    laid: list[bool]
    known: list[int]
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
    upcard_passes: int
    upcard_draws: int
    repeated: bool
    family: FamilyFields
    """The fields of the game's family (:mod:`rummykit.family`): frozen, replaced when
    one changes, so clones and views share it."""
    results: list[RoundResult]
    history: list[int]
    round_start: int
    """The index in :attr:`history` of the current round's first move: the round's
    moves are ``history[round_start:]`` (views carry those, not the whole match)."""
    events: list[Event]
    _legal: list[Move] | None = None
    """The cached legal moves, or None until asked (a state built field by field
    starts with none).  Every move clears it; outside a move, :meth:`set_phase`,
    :meth:`begin_turn` and :meth:`finish_round` keep it right."""

    # -- construction -----------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: Rules | str,
        players: int | list[str] = 2,
        seed: int | None = 0,
        *,
        dealer: int | None = None,
    ) -> GameState:
        """A new match.  ``dealer=None`` cuts for the deal (seed 002): high card deals,
        ace 1 and king 13, ties cut again; the cuts are recorded in :attr:`events`."""
        if isinstance(rules, str):
            rules = Rules.parse(rules)
        names = (
            [f"Player {i + 1}" for i in range(players)]
            if isinstance(players, int)
            else [str(p) for p in players]
        )
        game = Game.shared(rules, len(names))
        s: GameState = cls.__new__(cls)
        s.game = game
        s.rules = rules
        s.names = names
        s.seed = seed
        s.rng = random.Random(seed)
        n = len(names)
        s.scores = [0] * n
        s.round_no = 0
        s.results = []
        s.history = []
        s.events = []
        if dealer is None:
            dealer = s._cut_for_deal()
        elif not 0 <= dealer < n:
            raise RulesError(f"dealer must be a seat 0..{n - 1}")
        s.dealer = dealer
        s._start_round()
        return s

    def _cut_for_deal(self) -> int:
        n = len(self.names)
        contenders = list(range(n))
        pack = list(self.game.cut_pack)
        randrange = self.rng.randrange
        while True:
            cuts: dict[int, int] = {}
            for p in contenders:
                if not pack:  # pragma: no cover - needs an absurd run of ties
                    pack = list(self.game.cut_pack)
                card = pack.pop(randrange(len(pack)))  # any card of the rest, at random
                cuts[p] = face_of(card) % 13 + 1
                self.events.append(Cut(p, card))
            best = max(cuts.values())
            contenders = [p for p in contenders if cuts[p] == best]
            if len(contenders) == 1:
                return contenders[0]

    def shuffled(self, cards: Iterable[int]) -> list[int]:
        """``cards`` in a uniformly random order from the state's RNG.

        Sorting on random float keys is uniform (a tie among 2**53 keys is negligible)
        and in CPython about twice as fast as ``random.shuffle``, which simulations that
        deal thousands of hands a second notice."""
        key = self.rng.random
        return sorted(cards, key=lambda _: key())

    def _start_round(self) -> None:
        n = len(self.names)
        self.round_no += 1
        self.round_start = len(self.history)
        cards = self.shuffled(self.game.pack)
        # Deal one card at a time from the top (the end of the list), starting left of
        # the dealer: the k-th card from the top goes to seat dealer + 1 + k (mod n).
        game = self.game
        size = self.rules.deal_size(n, self.round_no) if game.contract else game.dealt
        top = len(cards) - n * size
        dealt = cards[top:]
        del cards[top:]
        dealt.reverse()
        hands = [0] * n
        for k in range(n):
            mask = 0
            for c in dealt[k::n]:
                mask |= 1 << c
            hands[(self.dealer + 1 + k) % n] = mask
        self.hands = hands
        self.discard = [cards.pop()] if game.upcard else []
        self.stock = cards
        self.table = []
        self.melded = [False] * n
        self.opened = [False] * n
        self.laid = [False] * n
        self.known = [0] * n
        self.restocks = 0
        self.turn = 0
        self.knocker = -1
        self.upcard_passes = 0
        self.upcard_draws = 0
        self.repeated = False
        self.family = self.game.family_type.fresh(n)
        self.events.append(Deal(self.dealer))
        self.begin_turn((self.dealer + 1) % n)
        self.game.variant.after_deal(self)

    def begin_turn(self, player: int) -> None:
        """``player``'s turn begins in the draw phase with no obligation pending, and
        its legal moves are listed; a turn past ``max_turns``, or with nothing left to
        draw, ends the round instead (:meth:`finish_round`)."""
        self.current = player
        game = self.game
        self.phase = game.turn_phase
        self.taken = NO_CARD
        self.pending = NO_CARD
        self.pending_kind = 0
        self.melds_this_turn = 0
        self.open_points = 0
        self.open_pure = False
        self.turn_start_laid = self.laid[player]
        self.turn += 1
        rules = self.rules
        # Every branch sets the legal list, or leaves it to be listed when asked for
        # (finish_round clears it).
        if self.turn > rules.max_turns:
            self.finish_round(None, RoundEnd.TURN_LIMIT)
        elif self.stock and self.discard and game.both_draws:
            self._legal = _BOTH_DRAWS  # the usual case (see draw_moves), without the call
        elif (
            not self.stock
            and rules.max_restocks is not None
            and self.restocks >= rules.max_restocks
        ):
            self.finish_round(None, RoundEnd.RESTOCK_LIMIT)
        elif (
            self.phase is _DRAW_PHASE
            and game.movegen[_DRAW_PHASE] is None
            and self.may_draw_stock()
        ):
            # The stock is a legal draw: the list (whose upcard check searches the turn
            # ahead under ``must_use``) waits until it is asked for.
            self._legal = None
        else:
            legal = self._legal = self._generate()
            if not legal:
                self.finish_round(None, RoundEnd.NO_DRAW)

    def set_phase(self, phase: Phase, player: int | None = None) -> None:
        """Enter ``phase``, with ``player`` to act if given.  The cached legal moves
        belong to the phase and seat they were listed for, so this clears them: a
        variant moves the game on through this, :meth:`begin_turn` or
        :meth:`finish_round`, never by writing the fields."""
        self.phase = phase
        if player is not None:
            self.current = player
        self._legal = None

    # -- copying ----------------------------------------------------------------------
    def clone(self) -> GameState:
        s: GameState = GameState.__new__(GameState)
        d = s.__dict__
        d.update(self.__dict__)
        for name in (
            "names", "scores", "hands", "stock", "discard", "table", "melded", "opened",
            "laid", "known", "results", "history", "events",
        ):  # fmt: skip
            d[name] = list(d[name])
        s.rng = rng_in_state(self.rng.getstate())
        s._legal = None
        return s

    def turn_copy(self) -> GameState:
        """A copy for searching the current turn: it shares the stock, RNG and history,
        which no move inside a turn touches (the draw is searched only from the pile).
        A variant searches its own turn options on one (Rum500's deep draw)."""
        s: GameState = GameState.__new__(GameState)
        d = s.__dict__
        d.update(self.__dict__)
        d["hands"] = list(self.hands)
        d["discard"] = list(self.discard)
        d["table"] = list(self.table)
        d["melded"] = list(self.melded)
        d["opened"] = list(self.opened)
        d["laid"] = list(self.laid)
        d["known"] = list(self.known)
        if self.game.meld_scoring:  # melds score as they are laid, with an event
            d["scores"] = list(self.scores)
            d["events"] = []  # a search's; a turn copy never ends a round
        s._legal = None
        return s

    # -- basic queries ----------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.names)

    def hand(self, player: int) -> list[int]:
        return list(bits(self.hands[player]))

    def hand_size(self, player: int) -> int:
        return self.hands[player].bit_count()

    def is_over(self) -> bool:
        return self.phase is _OVER_PHASE

    def result(self) -> MatchResult:
        if self.phase is not _OVER_PHASE:
            raise RulesError("the match is not over")
        return MatchResult(
            tuple(self.scores),
            standings(self.rules, self.scores),
            match_winners(self.rules, self.scores),
            len(self.results),
        )

    def needs_opening(self, player: int) -> bool:
        """Whether ``player``'s next melds are still subject to the opening minimum."""
        game = self.game
        if not game.opening or self.opened[player]:
            return False
        return (
            game.contract
            or self.rules.opening_applies is OpeningScope.EACH_PLAYER
            or not any(self.opened)
        )

    def opening_in_progress(self) -> bool:
        return self.melds_this_turn > 0 and self.needs_opening(self.current)

    # -- legal moves ------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move for the player to act, and nothing else."""
        legal = self._legal
        if legal is None:
            legal = self._generate()
            self._legal = legal
        return list(legal)

    def legal_actions(self) -> list[int]:
        """The legal moves as action numbers (see :class:`~rummykit.moves.ActionSpace`)."""
        legal = self._legal
        if type(legal) is LegalMoves:
            return list(legal.numbered)
        if legal is None and self.phase is _PLAY_PHASE and not self.game.standard_play:
            quick = self.game.play_actions(self)  # Gin's turn: no list of moves
            if quick is not None:
                return quick
        return list(self._actions())

    def _actions(self) -> dict[int, Move]:
        """The legal moves by action number, kept with the cached legal list."""
        legal = self._legal
        if type(legal) is LegalMoves:
            return legal.numbered
        if legal is None:
            legal = self._legal = self._generate()
            if type(legal) is LegalMoves:  # the generator numbered them already
                return legal.numbered
        actions = self.game.actions
        # A game whose moves are too many to list (Rummikub) keeps no memo of them.
        codes = self.game.action_codes if actions.listable else {}
        enc = actions.encode
        numbered = {}
        for m in legal:
            a = codes.get(m)
            if a is None:
                a = codes[m] = enc(m)
            numbered[a] = m
        cached = LegalMoves(legal)
        cached.numbered = numbered
        self._legal = cached
        return numbered

    def action_mask(self) -> list[bool]:
        mask = [False] * self.game.actions.size
        for a in self.legal_actions():
            mask[a] = True
        return mask

    def _generate(self) -> list[Move]:
        """The legal moves: the draw, the standard play phase and the end of the match
        are the state's own; every other phase is the variant's (see
        :attr:`Game.movegen`)."""
        phase = self.phase
        gen = self.game.movegen[phase]
        if gen is not None:
            return gen(self)
        if phase is _DRAW_PHASE:
            return self.draw_moves()
        if phase is _PLAY_PHASE:
            out: list[Move] = []
            memo: dict[Any, bool] = {}
            no_opening: bool | None = None  # asked at the first meld
            for m in self._candidates():
                if m.kind == MELD:
                    if no_opening is None:
                        no_opening = self._opening_out_of_reach()
                    if no_opening:
                        continue
                if m.kind == DISCARD or self._keeps_turn_finishable(m, memo):
                    out.append(m)
            return out
        return []  # the match is over

    def pseudo_legal_moves(self) -> list[Move]:
        """The moves the rules allow now, before the check that the turn can still be
        finished: a superset of :meth:`legal_moves`, in the same order.

        The finish check is most of the cost of a Rami legal list (each meld and lay-off
        is tried ahead), so a playout policy that wants one move ranks these and checks
        only its choice with :meth:`is_legal_pseudo`.  Outside the play phase of a game
        with melding in play there is no separate check and this is the legal list.
        """
        if self.phase is _PLAY_PHASE and self.game.standard_play:
            return list(self._candidates())
        return self.legal_moves()

    def is_legal_pseudo(self, move: Move) -> bool:
        """Whether ``move``, taken from :meth:`pseudo_legal_moves`, is legal."""
        if self.phase is _PLAY_PHASE and self.game.standard_play:
            return move.kind == DISCARD or self._keeps_turn_finishable(move, {})
        return True

    def draw_moves(self) -> list[Move]:
        """The draw phase's moves: the stock (restocked if need be) and the top
        discard, when each may be drawn.  The list may be shared: never mutate it."""
        if self.stock and self.discard and self.game.free_pickup:
            return _BOTH_DRAWS  # the usual case, shared: cached legal lists are never mutated
        out: list[Move] = []
        if self.may_draw_stock():
            out.append(DRAW_STOCK_MOVE)
        if self.may_take_upcard():
            out.append(DRAW_DISCARD_MOVE)
        return out

    def may_draw_stock(self) -> bool:
        """Whether the stock may be drawn now: it holds a card, or the discard pile
        would restock it."""
        return bool(self.stock) or self._restock_size() > 0

    def may_take_upcard(self) -> bool:
        """Whether taking the top discard is legal now: under ``must_use`` only if the
        player can then use it, unless the take reaches ``max_upcard_draws`` and voids
        the hand (no obligation is left, and trying it on a turn copy would end the
        round on the lists the copy shares with this state)."""
        if not self.discard:
            return False
        if self.game.free_pickup:
            return True
        limit = self.rules.max_upcard_draws
        if limit is not None and self.phase is _DRAW_PHASE and self.upcard_draws + 1 >= limit:
            return True
        t: GameState = self.turn_copy()
        t._take_upcard(self.current)
        return t.finishable({})

    def _restock_size(self) -> int:
        r = self.rules
        if r.max_restocks is not None and self.restocks >= r.max_restocks:
            return 0
        if r.restock is Restock.TURN_OVER:
            return len(self.discard)
        # SHUFFLE turns a new upcard from the shuffled pile; SHUFFLE_KEEP_TOP keeps the
        # top discard: either way one card of the pile stays out of the new stock.
        return max(0, len(self.discard) - 1)

    def _candidates(self) -> Iterable[Move]:
        """Moves the rules allow now, before checking the turn can still be finished."""
        if self.game.contract:  # going down with the contract, then only lay-offs
            return self.game.variant.candidates(self)
        return self._seed_candidates()

    def _seed_candidates(self) -> Iterable[Move]:
        p = self.current
        rules = self.rules
        t = self.game.melds
        hand = self.hands[p]
        pending = self.pending
        may_meld = rules.multiple_melds or self.melds_this_turn == 0
        opened = self.opened[p]
        may_layoff = not rules.layoff_after_own_meld or opened
        if pending != NO_CARD:
            pface = face_of(pending)
            if may_meld:
                for i in t.shapes_in(HandCounts.of(hand)):
                    sh = t.shapes[i]
                    if sh.njokers if pface == JOKER else pface in sh.naturals:
                        yield Move(MELD, i)
            if self.pending_kind == PENDING_USE and may_layoff:
                yield from self.layoff_moves(1 << pending)
            return
        if may_meld:
            for i in t.shapes_in(HandCounts.of(hand)):
                yield Move(MELD, i)
        if may_layoff:
            yield from self.layoff_moves(hand)
        if opened and rules.joker_to_end:
            yield from self.joker_moves(hand)
        if opened and rules.joker_swap:
            both = rules.set_joker_both_suits
            for slot, tm in enumerate(self.table):
                for _idx, face, second in joker_swaps(t, tm, both):
                    if holds_face(hand, face) and (second < 0 or holds_face(hand, second)):
                        yield Move(SWAP, slot, face)
        if opened and may_meld and rules.take_from_meld:
            for slot, tm in enumerate(self.table):
                if len(tm.cards) <= 3:
                    continue
                sh = t.shapes[tm.shape]
                seen: set[int] = set()
                for idx, card in enumerate(tm.cards):
                    if is_joker(card):
                        continue
                    code = (
                        sh.key * 14 + sh.positions[idx]
                        if sh.kind == RUN
                        else ((face_of(card) // 13) * 14 + sh.key)
                    )
                    if code in seen or shrunk_shape(t, tm, idx) < 0:
                        continue
                    seen.add(code)
                    yield Move(TAKE, slot, code)
        if not self.opening_in_progress():
            taken = self.taken
            seen_faces = 0
            for c in bits(hand):
                f = face_of(c)
                if c != taken and not seen_faces >> f & 1:
                    seen_faces |= 1 << f
                    yield DISCARD_MOVES[f]

    def joker_moves(self, hand: int) -> Iterable[Move]:
        """``joker_to_end``: a held natural card for a joker inside a run (a SWAP move)."""
        t = self.game.melds
        for slot, tm in enumerate(self.table):
            for _idx, face, _shape, _at in joker_to_end(t, tm):
                if holds_face(hand, face):
                    yield Move(SWAP, slot, face)

    def layoff_moves(self, cards: int) -> Iterable[Move]:
        """Lay-offs of any card in the mask ``cards`` onto any table meld."""
        t = self.game.melds
        jokers = holds_face(cards, JOKER) if self.rules.jokers else False
        for slot, tm in enumerate(self.table):
            for code, face, natural, joker, _index in layoff_options(t, tm.shape):
                if natural >= 0 and cards & FACE_MASKS[face]:
                    yield Move(LAYOFF, slot, code, 0)
                if jokers and joker >= 0:
                    yield Move(LAYOFF, slot, code, 1)

    # -- the "can this turn still end legally" check ------------------------------------
    def _turn_can_end(self) -> bool:
        if self.pending != NO_CARD or self.opening_in_progress():
            return False
        hand = self.hands[self.current]
        if hand == 0:
            return not self.rules.final_discard
        if self.round_no == self.game.no_discard_out:  # a discard may not go out
            return (
                hand.bit_count() >= 2 and hand & ~(1 << self.taken if self.taken >= 0 else 0) != 0
            )
        return hand & ~(1 << self.taken if self.taken >= 0 else 0) != 0

    def _keeps_turn_finishable(self, m: Move, memo: dict[Any, bool]) -> bool:
        """Whether after ``m`` the player can still end the turn legally."""
        if self.pending == NO_CARD and not self.needs_opening(self.current):
            # Fast path for the common case: no obligation before or after the move.
            kind = m.kind
            if (
                kind == SWAP
                and self.rules.swapped_joker is SwappedJoker.KEEP
                and not self.rules.joker_to_end  # (that swap leaves a card on the table)
            ):
                return True
            if kind in (MELD, LAYOFF):
                used = len(self.game.melds.shapes[m.a].cells) if kind == MELD else 1
                left = self.hands[self.current].bit_count() - used
                if left >= 2:
                    return True
                if left == 0:
                    return not self.rules.final_discard
        t: GameState = self.turn_copy()
        t._do(m)
        return t.finishable(memo)

    def _opening_out_of_reach(self) -> bool:
        """Whether the player to act owes the opening minimum and the melds of their
        hand cannot reach it (:meth:`MeldTable.opening_reaches`): then every meld,
        which opens or continues the opening, leaves a turn that cannot end."""
        p = self.current
        return (
            not self.game.contract
            and self.needs_opening(p)
            and not self.game.melds.opening_reaches(
                HandCounts.of(self.hands[p]), self.rules.opening_minimum - self.open_points
            )
        )

    def finishable(self, memo: dict[Any, bool]) -> bool:
        """Whether the player to act can still end this turn legally from here,
        searching their own options on turn copies; ``memo`` caches positions within
        one search (pass ``{}``)."""
        if self._turn_can_end():
            return True
        p = self.current
        if self.game.contract and not self.opened[p]:  # the rest of the contract
            return self.game.variant.finishable(self, memo)
        if self.hands[p] == 0:
            return False
        may_lay_off = not self.rules.layoff_after_own_meld or self.opened[p]
        if (
            self.melds_this_turn
            or (self.pending != NO_CARD and (self.pending_kind != PENDING_USE or not may_lay_off))
        ) and self._opening_out_of_reach():
            # Only melds can end this turn (an opening begun, or a taken card to meld
            # before any lay-off), and they cannot reach the opening minimum.
            return False
        key = (
            self.hands[p], self.pending, self.pending_kind, self.melds_this_turn,
            self.open_points, self.open_pure, self.opened[p], tuple(sorted(self.table)),
        )  # fmt: skip
        hit = memo.get(key)
        if hit is not None:
            return hit
        memo[key] = False
        ok = False
        for m in self._candidates():
            if m.kind == DISCARD:
                continue
            t: GameState = self.turn_copy()
            t._do(m)
            if t.finishable(memo):
                ok = True
                break
        memo[key] = ok
        return ok

    # -- applying moves -----------------------------------------------------------------
    def apply(self, move: Move) -> None:
        """Apply a legal move; raise :class:`IllegalMoveError` and change nothing if not."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        # Equality alone would accept Move(DISCARD, 5.0); a legal move has int fields.
        if (move not in legal or not _int_fields(move)) and not self._open_legal(move):
            raise self._diagnose(move)
        self.history.append(self.game.actions.encode(move))
        self._do(move)
        self._settle()

    def is_legal(self, move: Move) -> bool:
        """Whether :meth:`apply` accepts ``move`` now (a listed move, or in a game whose
        list is a selection, any move its family accepts: :attr:`Game.open_moves`)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return (move in legal and _int_fields(move)) or self._open_legal(move)

    def _open_legal(self, move: Any) -> bool:
        """A move beyond the legal list that the family accepts (Rummikub's plays)."""
        return (
            self.game.open_moves
            and _int_fields(move)
            and _is_move(move, self.game.actions)
            and self.game.variant.open_legal(self, move)
        )

    def apply_unchecked(self, move: Move) -> None:
        """Apply ``move`` without checking it: only for a move the caller knows is
        legal, such as a search playout's choice vetted by :meth:`is_legal_pseudo`.

        An illegal move here corrupts the state; use :meth:`apply` everywhere else.
        """
        self.history.append(self.game.actions.encode(move))
        self._do(move)
        self._settle()

    def apply_action(self, action: int) -> None:
        """Apply the move numbered ``action``; like :meth:`apply` for bad input."""
        if type(action) is int:
            legal = self._legal
            if legal is _BOTH_DRAWS:
                # A turn's draw with both piles open (see draw_moves): what _do does for
                # it without the dispatch, and nothing for _settle to do after it.
                if action == 0:
                    self.history.append(0)
                    self.hands[self.current] |= 1 << self.stock.pop()
                    self.phase = _PLAY_PHASE
                    self._legal = None
                    return
                limit = self.rules.max_upcard_draws
                if action == 1 and (limit is None or self.upcard_draws + 1 < limit):
                    self.history.append(1)
                    if limit is not None:
                        self.upcard_draws += 1
                    self._take_upcard(self.current)
                    self._legal = None
                    return
            if type(legal) is LegalMoves:
                move = legal.numbered.get(action)
            elif legal is None and self.phase is _PLAY_PHASE and self.game.quick_discard:
                # A knock game after the draw: checked without listing the moves.
                card = action - 2
                if (
                    0 <= card < 52
                    and self.hands[self.current] >> card & 1
                    and (card != self.taken or self.rules.discard_taken_card)
                ):
                    self.history.append(action)
                    self._play_discard(card)
                    return
                move = self.game.play_action(self, action)
            else:
                move = self._actions().get(action)
            if move is not None:
                self.history.append(action)
                self._do(move)
                self._settle()
                return
        if isinstance(action, bool) or not isinstance(action, SupportsIndex):
            raise IllegalMoveError("unknown_action", f"not an action number: {action!r}")
        try:
            move = self.game.actions.decode(operator.index(action))
        except ValueError as exc:
            raise IllegalMoveError("unknown_action", str(exc)) from None
        self.apply(move)

    def _play_discard(self, card: int) -> None:
        """A knock game's discard after the draw, which ends the turn: :meth:`_do` then
        :meth:`_settle` for that move, without the dispatch (one deck: card == face)."""
        p = self.current
        hands = self.hands
        hand = hands[p] & ~(1 << card)  # discard_face's one-copy case, without the call
        hands[p] = hand
        self.known[p] &= hand
        self.discard.append(card)
        pending = self.pending
        if pending != NO_CARD and not hand >> pending & 1:
            self.pending = NO_CARD
            self.pending_kind = 0
        if hand:
            self.phase = _DRAW_PHASE
            self._pass_turn(p)
        else:  # pragma: no cover - a knock game's hand keeps the cards dealt
            self.finish_round(p, RoundEnd.OUT)

    def _settle(self) -> None:
        """After a move: end the round if a hand is empty, or pass the turn after a discard."""
        p = self.current
        phase = self.phase
        if phase is _PLAY_PHASE and self.hands[p] == 0:
            self.finish_round(p, RoundEnd.OUT)
        elif phase is _DRAW_PHASE and self.round_start != len(self.history):
            self._pass_turn(p)  # a discard ended the turn (not a move that ended the round)
        else:
            self._legal = None

    def _pass_turn(self, p: int) -> None:
        """``p``'s discard ended the turn: the hand may be void (an upcard thrown back
        twice, the wall); else the next player's turn begins."""
        r = self.rules
        if r.repeat_void:
            thrown_back = self.discard[-1] == self.taken
            if thrown_back and self.repeated:
                self.finish_round(None, RoundEnd.REPEATED)
                return
            self.repeated = thrown_back
        if r.wall and len(self.stock) <= r.wall and self.game.variant.at_wall(self, p):
            return
        if self.game.skip_seats:  # seats out of the deal (drops, eliminations)
            self.begin_turn(self.game.variant.next_seat(self, p))
            return
        self.begin_turn((p + 1) % len(self.names))

    def _pick(self, hand: int, face: int, avoid: int = 0) -> int:
        """The physical copy of ``face`` to use: the pending card, then the card taken
        from the discard pile, then a copy the others know is held, then the lowest id;
        never a card in ``avoid``.  Using known copies first keeps :attr:`known` equal to
        what the table can tell at face level: after a player shows one 7H and later
        plays a 7H, nobody can say whether they still hold one."""
        free = hand & ~avoid
        options = [c for c in COPIES[face] if free >> c & 1]
        for preferred in (self.pending, self.taken):
            if preferred in options:
                return preferred
        known = self.known[self.current]
        for c in options:
            if known >> c & 1:
                return c
        return options[0]

    def _do(self, m: Move) -> None:
        """Carry out a move already known to be legal (no round-end handling)."""
        p = self.current
        kind = m.kind
        self._legal = None
        if self.game.variant_phase[self.phase] and self.game.variant.do_phase(self, m):
            return
        if kind == DISCARD:  # the commonest kinds first
            if self.discard_face(p, m.a, True):
                self.phase = _DRAW_PHASE
        elif kind == DRAW_STOCK:
            if not self.stock:
                self._restock()
            self.hands[p] |= 1 << self.stock.pop()
            self.phase = _PLAY_PHASE
            if self.game.buying:  # Contract Rummy: the others may buy the discard
                self.game.variant.open_buys(self)
        elif kind == DRAW_DISCARD:
            limit = self.rules.max_upcard_draws
            if limit is not None and self.phase is _DRAW_PHASE:  # OpenSpiel does not
                self.upcard_draws += 1  # count the first upcard
                if self.upcard_draws >= limit:
                    self.finish_round(None, RoundEnd.UPCARD_LIMIT)
                    return
            self._take_upcard(p)
        elif kind == MELD:
            self.lay_meld(p, m.a)
        elif kind == LAYOFF:
            self.lay_off(p, m)
        elif kind == SWAP:
            self._swap(p, m)
        elif kind == TAKE:
            self._take(p, m)
        else:  # a kind of the variant's own (Gin's knock)
            self.game.variant.do_move(self, m)
            return
        if self.pending != NO_CARD and not self.hands[p] >> self.pending & 1:
            self.pending = NO_CARD
            self.pending_kind = 0

    def discard_face(self, p: int, face: int, turn_end: bool = False) -> int:
        """``p`` puts a held copy of ``face`` on the discard pile and the hand left is
        returned; :meth:`_pick` says which copy, and a ``turn_end`` discard is never
        the card taken this turn unless the rules let it go back.  What follows (the
        turn passing, the round ending) is the caller's."""
        hands = self.hands
        hand = hands[p]
        if self.game.one_copy:
            card = face  # one deck without jokers: the face is the card
        else:
            taken = self.taken
            keep = turn_end and taken >= 0 and not self.rules.discard_taken_card
            card = self._pick(hand, face, 1 << taken if keep else 0)
        hand &= ~(1 << card)
        hands[p] = hand
        self.known[p] &= hand
        self.discard.append(card)
        return hand

    def _take_upcard(self, p: int) -> None:
        """``p`` takes the top of the discard pile (as a draw)."""
        card = self.discard.pop()
        self.hands[p] |= 1 << card
        self.known[p] |= 1 << card
        self.taken = card
        if self.game.must_use:
            self.pending = card
            self.pending_kind = PENDING_USE
        self.phase = _PLAY_PHASE

    def lay_meld(self, p: int, index: int) -> None:
        """``p`` lays the meld of shape ``index`` from the hand (held: the caller
        checked), with the opening and meld-scoring bookkeeping."""
        t = self.game.melds
        sh = t.shapes[index]
        hand = self.hands[p]
        used = 0
        cards: list[int] = []
        for i, face in enumerate(sh.cells):
            card = self._pick(hand, JOKER if sh.joker_cells >> i & 1 else face, used)
            used |= 1 << card
            cards.append(card)
        self.hands[p] = hand & ~used
        self.known[p] &= self.hands[p]
        self.table.append(TableMeld(p, index, tuple(cards)))
        self.melded[p] = True
        self.laid[p] = True
        if self.game.meld_scoring:
            self._score_laid(p, self.game.variant.meld_points(index))
        if self.needs_opening(p):
            if self.game.contract:
                self.melds_this_turn += 1
                self.opened[p] = self.game.variant.contract_done(self)
                return
            self.open_points += sh.points
            self.open_pure = self.open_pure or (sh.kind == RUN and sh.njokers == 0)
            if self.open_points >= self.rules.opening_minimum and (
                self.open_pure or not self.rules.opening_pure_run
            ):
                self.opened[p] = True
        else:
            self.opened[p] = True
        self.melds_this_turn += 1

    def lay_off(self, p: int, m: Move) -> None:
        """``p`` carries out the legal lay-off ``m`` (a :data:`LAYOFF` move)."""
        t = self.game.melds
        tm = self.table[m.a]
        for code, face, index in layoff_cells(t, tm):
            if code == m.b:
                shape, at = grown_shape(t, tm, face, index, bool(m.c))
                card = self._pick(self.hands[p], JOKER if m.c else face)
                cards = (*tm.cards[:at], card, *tm.cards[at:])
                self.table[m.a] = TableMeld(tm.owner, shape, cards)
                self.hands[p] &= ~(1 << card)
                self.known[p] &= self.hands[p]
                self.laid[p] = True
                if self.game.meld_scoring:
                    self._score_laid(p, self.game.variant.cell_points(shape, at))
                return
        raise AssertionError("layoff cell vanished")  # pragma: no cover

    def _score_laid(self, p: int, points: int) -> None:
        """``meld_scoring``: what ``p`` laid scores at once, and a :class:`Laid` event
        that the round's result sums (its delta counts the melds)."""
        self.scores[p] += points
        self.events.append(Laid(p, points))

    def _swap(self, p: int, m: Move) -> None:
        t = self.game.melds
        tm = self.table[m.a]
        if self.rules.joker_to_end:  # the card goes in, the joker to an end of the run
            for idx, face, shape, at in joker_to_end(t, tm):
                if face == m.b:
                    card = self._pick(self.hands[p], face)
                    placed = [*tm.cards[:idx], card, *tm.cards[idx + 1 :]]
                    placed.insert(at, tm.cards[idx])
                    self.table[m.a] = TableMeld(tm.owner, shape, tuple(placed))
                    self.hands[p] &= ~(1 << card)
                    self.known[p] &= self.hands[p]
                    self.laid[p] = True
                    return
        for idx, face, second in joker_swaps(t, tm, self.rules.set_joker_both_suits):
            if face == m.b:
                card = self._pick(self.hands[p], face)
                joker = tm.cards[idx]
                cards = (*tm.cards[:idx], card, *tm.cards[idx + 1 :])
                s = t.shapes[tm.shape]
                given = 1 << card
                if second < 0:
                    shape = t.find(s.kind, s.key, s.cells, s.joker_cells & ~(1 << idx))
                else:  # the set's other missing suit too: a full set, no joker
                    other = self._pick(self.hands[p], second, given)
                    given |= 1 << other
                    pairs = sorted((*zip(s.cells, cards, strict=True), (second, other)))
                    cards = tuple(c for _f, c in pairs)
                    shape = t.find(s.kind, s.key, tuple(f for f, _c in pairs), 0)
                self.table[m.a] = TableMeld(tm.owner, shape, cards)
                self.hands[p] = (self.hands[p] & ~given) | (1 << joker)
                self.known[p] = (self.known[p] & self.hands[p]) | (1 << joker)
                if self.rules.swapped_joker is SwappedJoker.MUST_MELD:
                    self.pending = joker
                    self.pending_kind = PENDING_MELD
                return
        raise AssertionError("swap cell vanished")  # pragma: no cover

    def _take(self, p: int, m: Move) -> None:
        t = self.game.melds
        tm = self.table[m.a]
        idx = _natural_cell(t, tm, m.b)
        card = tm.cards[idx]
        shape = shrunk_shape(t, tm, idx)
        self.table[m.a] = TableMeld(tm.owner, shape, tm.cards[:idx] + tm.cards[idx + 1 :])
        self.hands[p] |= 1 << card
        self.known[p] |= 1 << card
        self.pending = card
        self.pending_kind = PENDING_MELD

    def _restock(self) -> None:
        r = self.rules
        pile = self.discard
        if r.restock is Restock.TURN_OVER:
            self.stock = pile[::-1]
            self.discard = []
        elif r.restock is Restock.SHUFFLE:
            pile = self.shuffled(pile)
            self.stock = pile
            self.discard = [self.stock.pop()]
        else:
            top = pile.pop()
            self.stock = self.shuffled(pile)
            self.discard = [top]
        self.restocks += 1
        self.events.append(Restocked(self.current))

    def finish_round(self, winner: int | None, reason: RoundEnd) -> None:
        """End the round, won by ``winner`` (None: nobody went out) for ``reason``, the
        round end the variant's :meth:`~rummykit.variants.Variant.score` reads: score
        it, then deal the next round or end the match."""
        n = len(self.names)
        result = self.game.variant.score(self, winner, reason)
        self.game.variant.add_round(self, result)
        self.results.append(result)
        self.events.append(RoundOver(-1 if winner is None else winner))
        over = self.round_no >= self.rules.max_deals or self.game.variant.match_over(self)
        self._legal = None
        if over:
            self.phase = _OVER_PHASE
            self.current = -1
            self.game.variant.end_match(self)
        else:
            self.dealer = (self.dealer + 1) % n
            self._start_round()

    # -- diagnosing illegal moves -------------------------------------------------------
    def phase_error(self, kind: int) -> IllegalMoveError | None:
        """The error for a move of ``kind`` when the current phase never allows that kind
        (whatever its cards), else None: the first thing :meth:`_diagnose` asks, so a
        knock before the draw is told "draw first", not which meld or card is wrong.
        A front end may ask it before checking a selection of cards."""
        phase = self.phase
        if phase is _OVER_PHASE:
            return IllegalMoveError("match_over", "the match is over")
        if self.game.buying and (kind == BUY or phase is Phase.BUY):
            return self.game.variant.phase_error(self, kind)
        draw = kind in (DRAW_STOCK, DRAW_DISCARD, DRAW_DEEP)
        if phase is _DRAW_PHASE:
            if draw or kind == DROP:  # a drop is always legal where the rules have one
                return None
            return IllegalMoveError("draw_first", "a turn starts by drawing a card (seed 000, 001)")
        if phase is _PLAY_PHASE:
            if draw:
                return IllegalMoveError("one_draw_per_turn", "you have already drawn this turn")
            if not self.game.standard_play:
                return self.game.variant.phase_error(self, kind)
            if kind in (PASS, KNOCK):
                return IllegalMoveError(
                    "knock_games_only",
                    "these rules have no passing or knocking: a turn ends with a discard, "
                    "and a hand ends when someone goes out",
                )
            return None
        return self.game.variant.phase_error(self, kind)

    def _diagnose(self, move: Any) -> IllegalMoveError:
        """Name the rule an illegal move breaks (only called on failure)."""

        def err(rule: str, msg: str) -> IllegalMoveError:
            return IllegalMoveError(rule, msg)

        if not _is_move(move, self.game.actions):
            return err("unknown_move", f"not a move: {move!r}")
        wrong_phase = self.phase_error(move.kind)
        if wrong_phase is not None:
            return wrong_phase
        kind = move.kind
        p = self.current
        hand = self.hands[p]
        r = self.rules
        t = self.game.melds
        phase = self.phase
        if phase is _DRAW_PHASE:
            return self.draw_error(kind)
        if phase is not _PLAY_PHASE or not self.game.standard_play:
            return self.game.variant.diagnose(self, move)
        if self.game.contract:
            refused = self.game.variant.contract_error(self, move)
            if refused is not None:
                return refused
        if self.pending != NO_CARD:
            return err(
                "pending_card_must_be_used",
                "the card you just took must be used in a meld first (seed 003)",
            )
        if kind == DISCARD:
            if not 0 <= move.a < 53 or not holds_face(hand, move.a):
                return err("card_not_in_hand", "you do not hold that card")
            if self.opening_in_progress():
                return err(
                    "opening_minimum",
                    f"your opening melds must total {r.opening_minimum} points first (seed 003)",
                )
            return err(
                "no_discard_of_taken_card",
                "you may not discard the card you took from the discard pile this turn "
                "(seed 000, 001, 002)",
            )
        if kind == MELD:
            if not 0 <= move.a < len(t.shapes):
                return err("unknown_meld", "no such meld shape")
            if not r.multiple_melds and self.melds_this_turn:
                return err("one_meld_per_turn", "only one meld per turn (seed 000, 001)")
            if move.a not in t.shapes_in(HandCounts.of(hand)):
                return err("card_not_in_hand", "you do not hold the cards of that meld")
            sh = t.shapes[move.a]
            if self.needs_opening(p) and self.open_points + sh.points < r.opening_minimum:
                return err(
                    "opening_minimum",
                    f"an opening must total at least {r.opening_minimum} points (seed 003)",
                )
            return self._dead_end_error(sh.naturals.__len__() + sh.njokers)
        if not 0 <= move.a < len(self.table):
            return err("no_such_meld", f"there is no table meld number {move.a}")
        tm = self.table[move.a]
        if kind == LAYOFF:
            if r.layoff_after_own_meld and not self.opened[p]:
                return err(
                    "layoff_after_own_meld",
                    "you may lay off only after laying down a meld of your own (seed 001)",
                )
            cells = {code: (face, idx) for code, face, idx in layoff_cells(t, tm)}
            if move.b not in cells:
                return err("invalid_layoff", "that card does not extend this meld")
            face, idx = cells[move.b]
            if move.c and not any(is_joker(c) for c in bits(hand)):
                return err("card_not_in_hand", "you hold no joker")
            if not move.c and not holds_face(hand, face):
                return err("card_not_in_hand", "you do not hold that card")
            if grown_shape(t, tm, face, idx, bool(move.c))[0] < 0:
                if move.c:
                    return err(
                        "jokers_per_meld",
                        f"a meld may hold at most {r.jokers_per_meld} joker(s) (seed 003)",
                    )
                return err("invalid_layoff", "the meld would not be valid")
            return self._dead_end_error(1)
        if kind == SWAP and r.joker_to_end:
            if not self.opened[p]:
                return err("swap_after_opening", "move a joker only after you have opened")
            if not any(f == move.b for _i, f, _s, _a in joker_to_end(t, tm)):
                return err(
                    "joker_to_end",
                    "only a joker inside a run moves to an end, for the card it stands for "
                    "(Parlett)",
                )
            if not holds_face(hand, move.b):
                return err("card_not_in_hand", "you do not hold that card")
            return self._dead_end_error(1)
        if kind == SWAP:
            if not r.joker_swap:
                return err("joker_swap", "these rules do not allow swapping jokers")
            if not self.opened[p]:
                return err("swap_after_opening", "swap a joker only after you have opened")
            swaps = joker_swaps(t, tm, r.set_joker_both_suits)
            if joker_cells(t, tm) and not swaps:
                return err(
                    "closed_set",
                    "a set of four that holds a joker is closed: its joker is never released "
                    "(Kalooki)",
                )
            if not any(f == move.b for _i, f, _s in swaps):
                return err("invalid_swap", "no joker in that meld stands for that card")
            if not holds_face(hand, move.b):
                return err("card_not_in_hand", "you do not hold that card")
            second = next(s for _i, f, s in swaps if f == move.b)
            if second >= 0 and not holds_face(hand, second):
                return err(
                    "set_joker_both_suits",
                    "a joker in a set of three is released only by both missing suits at "
                    "once: give the cards of both (Kalooki)",
                )
            return err(
                "swapped_joker_must_meld",
                "the freed joker must go into a new meld this turn, and it cannot",
            )
        if not r.take_from_meld:
            return err("take_from_meld", "these rules do not allow taking from table melds")
        if not self.opened[p]:
            return err("take_after_opening", "take from a meld only after you have opened")
        if len(tm.cards) <= 3:
            return err(
                "take_from_meld_size",
                "you may take only from a meld of more than three cards (seed 003)",
            )
        idx = _natural_cell(t, tm, move.b)
        if idx < 0 or shrunk_shape(t, tm, idx) < 0:
            return err(
                "take_leaves_invalid_meld",
                "what remains of the meld must still be a valid meld (seed 003)",
            )
        if not r.multiple_melds and self.melds_this_turn:
            return err("one_meld_per_turn", "only one meld per turn (seed 000, 001)")
        return err(
            "taken_card_must_meld",
            "a card taken from a meld must be used in a new meld at once, and this one "
            "cannot be (seed 003)",
        )

    def draw_error(self, kind: int) -> IllegalMoveError:
        """Why a draw the phase allows is refused (only called on failure)."""
        if kind == DRAW_STOCK:
            return IllegalMoveError("stock_empty", "the stock is empty and cannot be restocked")
        if kind == DRAW_DEEP:
            return self.game.variant.draw_error(self, kind)
        if not self.discard:
            return IllegalMoveError("discard_empty", "the discard pile is empty")
        return IllegalMoveError(
            "discard_pickup_must_use",
            "a card taken from the discard pile must be melded or laid off at once, "
            "and this one cannot be (RULES-NOTES 7)",
        )

    def _dead_end_error(self, used: int) -> IllegalMoveError:
        hand_left = self.hand_size(self.current) - used
        if hand_left <= 0 and self.rules.final_discard:
            return IllegalMoveError(
                "final_discard",
                "you must keep a card to discard to go out (seed 001 house rule)",
            )
        if self.needs_opening(self.current) and self.game.contract:
            return IllegalMoveError(
                "contract",
                "after this you could not lay the rest of this deal's contract "
                "and still end the turn (Contract Rummy)",
            )
        if self.needs_opening(self.current):
            return IllegalMoveError(
                "opening_minimum",
                f"the opening could not reach {self.rules.opening_minimum} points after this",
            )
        return IllegalMoveError(
            "must_end_with_discard",
            "after this you could not finish the turn with a legal discard",
        )

    # -- views ----------------------------------------------------------------------------
    def view(self, player: int) -> PlayerView:
        """What ``player`` may know: their own hand, public cards and counts."""
        return make_view(self, player)

    def determinize(self, player: int, rng: random.Random) -> GameState:
        """A full state consistent with ``player``'s view, hidden cards resampled."""
        return determinize(self.view(player), rng)


def determinize(v: PlayerView, rng: random.Random, weights: CardWeights | None = None) -> GameState:
    """A full state that agrees with everything in ``v``; hidden cards dealt at random.

    Without ``weights`` every deal of the unseen cards is equally likely.  With them,
    each hidden hand in turn draws its cards from the unseen ones without replacement,
    a card's chance proportional to its weight for that player (Efraimidis-Spirakis
    keys: the ``need`` largest of ``log(u) / w``), and the stock gets the rest in
    random order.  Either way the sample keeps every invariant of the view: hand
    sizes, known cards, every card in exactly one place, and its own view equal to
    ``v``.

    The returned state has its own RNG seeded from ``rng``, so future chance events
    (restocks, later deals) are also sampled rather than copied from the real game.

    >>> from rummykit import new_game
    >>> from rummykit.cards import bits
    >>> g = new_game("gin", seed=3)
    >>> v = g.view(0)
    >>> hidden = unseen_cards(v)
    >>> w = [{}, {c: 1e9 for c in hidden[:10]}]   # player 1 all but surely holds these
    >>> d = determinize(v, random.Random(2), w)
    >>> sorted(bits(d.hands[1])) == sorted(hidden[:10]), d.view(0) == v
    (True, True)
    """
    pool = unseen_cards(v)
    rng.shuffle(pool)
    n = len(v.names)
    hands = list(v.known)
    hands[v.player] = v.hand
    for p in range(n):
        if p == v.player:
            continue
        need = v.hand_sizes[p] - v.known[p].bit_count()
        if not need:
            continue
        wp = weights[p] if weights is not None else None
        if wp:
            rand = rng.random
            get = wp.get
            chosen = heapq.nlargest(need, pool, key=lambda c: log(1.0 - rand()) / get(c, 1.0))
            for c in chosen:
                hands[p] |= 1 << c
            taken = set(chosen)
            pool = [c for c in pool if c not in taken]
        else:
            for c in pool[len(pool) - need :]:
                hands[p] |= 1 << c
            del pool[len(pool) - need :]
    s = GameState.__new__(GameState)
    s.game = v.game
    s.rules = v.rules
    s.names = list(v.names)
    s.seed = None  # resampled hidden cards: no seed replays this state
    s.rng = random.Random(rng.getrandbits(64))
    s.scores = list(v.scores)
    s.round_no = v.round_no
    s.dealer = v.dealer
    s.phase = v.phase
    s.current = v.current
    s.hands = hands
    s.stock = pool
    s.discard = list(v.discard)
    s.table = list(v.table)
    s.melded = list(v.melded)
    s.opened = list(v.opened)
    s.laid = list(v.laid)
    s.known = list(v.known)
    s.taken = v.taken
    s.pending = v.pending
    s.pending_kind = v.pending_kind
    s.melds_this_turn = v.melds_this_turn
    s.open_points = v.open_points
    s.open_pure = v.open_pure
    s.turn_start_laid = v.turn_start_laid
    s.turn = v.turn
    s.restocks = v.restocks
    s.knocker = v.knocker
    s.upcard_passes = v.upcard_passes
    s.upcard_draws = v.upcard_draws
    s.repeated = v.repeated
    s.family = v.family
    s.results = list(v.results)
    s.history = list(v.history)
    s.round_start = 0
    s.events = []
    return s


def rng_in_state(state: tuple[Any, ...]) -> random.Random:
    """A new :class:`random.Random` in ``state`` (from ``getstate()``).

    ``random.Random()`` would first seed itself from the OS, which costs five times
    the copy; a clone per search step or per web move makes that worth avoiding.

    >>> a = random.Random(7)
    >>> b = rng_in_state(a.getstate())
    >>> a.random() == b.random()
    True
    """
    rng = random.Random.__new__(random.Random)
    rng.setstate(state)
    return rng


def round_start_of(v: GameState | PlayerView) -> int | None:
    """Where the current round begins in the history of ``v`` (a state or a view),
    found from the history alone (a loaded state, or a view's moves), or None if the
    history does not hold the whole round (a hand-built position has none).

    Every turn begins with exactly one draw (action numbers 0 and 1, which name
    nothing else), and only the first upcard's passes come before the first one: so
    walking back over as many draws as the round has had, then its passes, finds the
    round's first move.  A turn may also open with a deep draw (500 Rum) or a drop
    (Indian Rummy): the action space's
    :attr:`~rummykit.moves.ActionSpace.turn_openers` hold those action numbers (none
    when the rules have none).  A buy (Contract Rummy) opens no turn.

    >>> g = new_game("basic", players=2, seed=1)
    >>> g.apply(g.legal_moves()[0])
    >>> round_start_of(g) == g.round_start == 0
    True
    """
    history, turn, phase = v.history, v.turn, v.phase
    openers = v.game.actions.turn_openers
    waiting = phase in (Phase.DRAW, Phase.FIRST_UPCARD, Phase.WALL) or phase is v.game.turn_phase
    need = turn - 1 if waiting else turn
    i = len(history)
    while need > 0:
        i -= 1
        if i < 0:
            return None
        a = history[i]
        if a <= 1 or a in openers:
            need -= 1
    start = i - v.upcard_passes
    return start if start >= 0 else None


def _is_move(move: Any, actions: ActionSpace) -> bool:
    """A :class:`Move` of plain ints that is one of the action space's moves (so
    ``Move(DISCARD, 5.0)``, a bare tuple or out-of-range fields are not)."""
    if not _int_fields(move):
        return False
    if not DRAW_STOCK <= move.kind <= TIMEOUT or min(move) < 0:
        return False
    code = actions.encode(move)
    return 0 <= code < actions.size and actions.decode(code) == move


_BOTH_DRAWS = LegalMoves((DRAW_STOCK_MOVE, DRAW_DISCARD_MOVE))
_BOTH_DRAWS.numbered = {0: DRAW_STOCK_MOVE, 1: DRAW_DISCARD_MOVE}


def _int_fields(move: Any) -> bool:
    """A :class:`Move` whose fields are plain ints (equality alone would let
    ``Move(DISCARD, 5.0)`` pass for a legal move)."""
    if type(move) is not Move:
        return False
    kind, a, b, c = move
    return type(kind) is int and type(a) is int and type(b) is int and type(c) is int


def _natural_cell(t: MeldTable, tm: TableMeld, code: int) -> int:
    idx = cell_index(t, tm, code)
    if idx < 0:
        return -1
    s = t.shapes[tm.shape]
    for i in range(len(tm.cards)):
        same_cell = s.cells[i] == s.cells[idx] and s.positions[i] == s.positions[idx]
        if same_cell and not is_joker(tm.cards[i]):
            return i
    return -1


def new_game(
    rules: Rules | str,
    players: int | list[str] = 2,
    seed: int | None = 0,
    *,
    dealer: int | None = None,
) -> GameState:
    """Start a match: ``new_game("rami51(opening_minimum=40)", players=4, seed=1)``."""
    return GameState.new(rules, players, seed, dealer=dealer)
