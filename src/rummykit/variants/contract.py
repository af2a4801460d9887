"""Contract Rummy (Shanghai): a contract per deal, going down with it, buying out of turn.

After Bicycle Cards' "Contract Rummy" and Wikipedia's "Contract rummy"; docs/rules.md
lists every option against them.  Three things differ from the seeds' turn:

* **the contract** (``contracts``): deal ``k`` has its own required melds, say "two
  sets".  A player's first melds of a deal must be exactly that contract, laid in one
  turn: while a contract is begun but not complete the player may lay only melds the
  rest of the contract needs and may not discard, and each of those melds is legal
  only if the rest can still be laid (the state's finish check, answered here by
  :func:`finishable`).  Laying the last one "goes down" (``opened``).  After that the
  player lays no new meld, only lay-offs on any meld on the table (from the next turn
  on under ``layoff_wait``); before it, no lay-off at all.
* **the deal** (``deal_sizes``): each deal deals its own number of cards.
* **buying** (``buys_per_round``): when the player in turn draws from the stock, the
  top discard is offered to each other player in turn order who has buys left (not to
  the player who just discarded it).  The offer is a phase of its own,
  :attr:`Phase.BUY`, in which ``current`` is the player offered the card: their legal
  moves are ``BUY`` and ``PASS``, so views, bots and front ends see an ordinary
  decision of the player to act.  The first to buy takes the card, which everyone
  saw, and ``buy_penalty`` cards from the stock, unseen; then (or once everyone has
  passed) the player in turn, kept in :attr:`BuyFields.buy_turn`, plays on.  A window
  opens only if someone can buy and the stock holds the penalty cards, so a deal where
  nobody can buy costs one check per stock draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

from ..cards import COPIES, JOKER, bits, face_of, holds_face
from ..errors import IllegalMoveError
from ..events import Bought
from ..family import FamilyFields, PositionReader
from ..fields import StateFormatError, expect_int, expect_seq
from ..melds import ACE_HIGH, RUN, SET, HandCounts, MeldTable, Shape
from ..moves import BUY, DISCARD, DISCARD_MOVES, LAYOFF, MELD, PASS, SWAP, Move
from ..phase import NO_CARD, Phase
from ..rules import Family, Rules
from ..table import joker_swaps
from .base import MoveGenerator, Variant
from .show import Action, Param, StatusLine

if TYPE_CHECKING:
    from ..state import GameState
    from ..view import PlayerView

_BUY_MOVES = (Move(BUY), Move(PASS))


@dataclass(frozen=True, slots=True)
class BuyFields(FamilyFields):
    """Contract Rummy's buying (``buys_per_round``), the state's ``family``."""

    buys: tuple[int, ...]
    """The buys each player made this deal (``buys_per_round`` minus these is what
    each has left)."""
    buy_turn: int = -1
    """While the discard is offered out of turn (:attr:`Phase.BUY`, ``current``
    decides), the player whose turn it is, who drew from the stock and plays on once
    the window closes; -1 otherwise."""

    position_keys: ClassVar[tuple[str, ...]] = ("buys", "inturn")
    position_names: ClassVar[Mapping[str, str]] = {"buy_turn": "inturn"}

    @classmethod
    def fresh(cls, seats: int) -> Self:
        return cls((0,) * seats)

    def to_position(self) -> dict[str, str]:
        return {
            "buys": ",".join(str(b) for b in self.buys),
            "inturn": "-" if self.buy_turn < 0 else str(self.buy_turn + 1),
        }

    @classmethod
    def position_defaults(cls, rules: Rules, seats: int) -> dict[str, str]:
        return {"buys": ",".join("0" * seats), "inturn": "-"}

    @classmethod
    def from_position(cls, reader: PositionReader) -> Self:
        n = reader.n
        buys = reader.extras.get("buys", ",".join("0" * n)).split(",")
        if len(buys) != n or not all(b.isascii() and b.isdigit() and len(b) <= 3 for b in buys):
            raise reader.error(f"expected {n} counts of buys split by commas", "buys")
        return cls(tuple(int(b) for b in buys), reader.seat("inturn", reader.extras.get("inturn")))

    def check(self, state: GameState) -> None:
        """The buys made, and the buy window's players."""

        s = state
        n = s.num_players
        limit = s.rules.buys_per_round
        for p, b in enumerate(expect_seq(self.buys, tuple, "buys", n)):
            expect_int(b, f"buys[{p}]", 0, limit)
        if s.phase is not Phase.BUY:
            expect_int(self.buy_turn, "buy_turn", -1, -1)
            return
        turn = expect_int(self.buy_turn, "buy_turn", 0, n - 1)
        if turn == s.current:
            raise StateFormatError("the discard is offered to a player out of turn", "buy_turn")
        if self.buys[s.current] >= limit:
            raise StateFormatError("the player offered the discard has no buys left", "buys")
        if not s.discard or len(s.stock) < s.rules.buy_penalty:
            raise StateFormatError("a buy needs the discard and the penalty cards", "discard")
        if s.melds_this_turn or s.taken != NO_CARD:
            raise StateFormatError("the buy window follows the stock draw at once", "phase")


def buying(state: GameState | PlayerView) -> BuyFields:
    """The buying fields of a Contract Rummy state or view with ``buys_per_round``."""
    return cast(BuyFields, state.family)


BUY_ACTIONS = (Action("buy", "b", "key.buy", BUY), Action("decline", "n", "key.decline", PASS))
"""The buy window's: buy the discard offered out of turn, or leave it."""


class Contract(Variant):
    """Contracts per deal, going down, lay-offs after it, and buying out of turn."""

    name = Family.CONTRACT
    aliases = ("Contract Rummy", "Shanghai", "Shanghai Rummy")
    own_phases = Variant.own_phases | {Phase.BUY}
    family_fields = BuyFields

    def family_type(self) -> type[FamilyFields]:
        """Buying is Contract Rummy's own field, when the rules buy."""
        return BuyFields if self.rules.buys_per_round else FamilyFields

    def actions(self) -> tuple[Action, ...]:
        return BUY_ACTIONS if self.rules.buys_per_round else ()

    def status(self, g: GameState | PlayerView, hand: int) -> list[StatusLine]:
        """The deal and the contract it asks for, all deal long."""
        contracts = g.game.contracts
        if g.phase is Phase.OVER or not contracts:
            return []
        params: dict[str, Param] = {
            "n": g.round_no,
            "deals": self.rules.deals or len(contracts),
            "contract": describe(contracts, g.round_no),
        }
        return [StatusLine("contract", params)]

    def advice(
        self, g: GameState | PlayerView, hand: int, legal: Sequence[Move]
    ) -> StatusLine | None:
        """The buy window (the seat offered the discard out of turn: buy it with its
        penalty cards, or pass), and going down with the deal's contract; the rest of
        the turn is the draw-meld-discard game's."""
        if g.phase is Phase.BUY:
            fields = buying(g)
            params: dict[str, Param] = {
                "who": fields.buy_turn,
                "card": g.discard[-1],
                "n": self.rules.buy_penalty,
                "left": self.rules.buys_per_round - fields.buys[g.current],
            }
            return StatusLine("contract.buy", params)
        if g.phase is not Phase.PLAY or g.opened[g.current] or g.pending >= 0:
            return None
        wanted: dict[str, Param] = {"contract": describe(g.game.contracts, g.round_no)}
        return StatusLine(
            "contract.going_down" if g.melds_this_turn else "contract.go_down", wanted
        )

    def payload(self, v: PlayerView) -> dict[str, object]:
        """The deal's contract (its words' code, :func:`describe`), the deals, each
        seat's buys left, the buy penalty, and the player in turn (during the buy
        window the seat to act is the one offered the discard)."""
        limit = self.rules.buys_per_round
        contract = {
            "text": describe(v.game.contracts, v.round_no),
            "deals": self.rules.deals or len(v.game.contracts),
            "buys_left": [limit - b for b in buying(v).buys] if limit else [0] * len(v.names),
            "in_turn": buying(v).buy_turn if v.phase is Phase.BUY else v.current,
            "penalty": self.rules.buy_penalty,
        }
        return {**super().payload(v), "contract": contract}

    def phase_moves(self) -> Mapping[Phase, MoveGenerator]:
        moves = dict(super().phase_moves())
        if self.rules.buys_per_round:
            # Its own draw list, so the state's shared two-draw list (whose stock draw
            # skips _do) is never used: a stock draw must open the buy window.
            moves[Phase.DRAW] = draw_moves
            moves[Phase.BUY] = buy_moves
        return moves

    # -- the contract --------------------------------------------------------------------
    @staticmethod
    def candidates(state: GameState) -> Iterable[Move]:
        """The play phase's moves before the finish check: contract melds until the
        player is down, then lay-offs (and joker swaps if the rules allow); a discard
        unless a contract is half laid."""
        p = state.current
        hand = state.hands[p]
        if not state.opened[p]:
            sets, runs = remaining(state)
            t = state.game.melds
            laid = laid_runs(state) if runs and state.melds_this_turn else ()
            for i in t.shapes_in(HandCounts.of(hand)):
                sh = t.shapes[i]
                if sets if sh.kind == SET else (runs and not (laid and joins(sh, laid))):
                    yield Move(MELD, i)
            if state.melds_this_turn:
                return  # going down is one turn's work: finish it before discarding
        else:
            rules = state.rules
            if not (rules.layoff_wait and state.melds_this_turn):
                yield from state.layoff_moves(hand)
            if rules.joker_to_end:
                yield from state.joker_moves(hand)
            if rules.joker_swap:
                t = state.game.melds
                both = rules.set_joker_both_suits
                for slot, tm in enumerate(state.table):
                    for _idx, face, second in joker_swaps(t, tm, both):
                        if holds_face(hand, face) and (second < 0 or holds_face(hand, second)):
                            yield Move(SWAP, slot, face)
        taken = state.taken
        if state.round_no == state.game.no_discard_out and hand.bit_count() < 2:
            return  # the last deal: no going out by a discard
        seen = 0
        for c in bits(hand):
            f = face_of(c)
            if c != taken and not seen >> f & 1:
                seen |= 1 << f
                yield DISCARD_MOVES[f]

    @staticmethod
    def contract_done(state: GameState) -> bool:
        """Whether the melds laid this turn (the last on the table) are the contract."""
        sets, runs = remaining(state)
        return not sets and not runs

    @staticmethod
    def finishable(state: GameState, memo: dict[Any, bool]) -> bool:
        """Whether a player not yet down can still end this turn legally: either nothing
        of the contract is laid yet (and a card is left to discard), or the rest of it
        can be laid from the hand, leaving a card to discard or none at all."""
        p = state.current
        hand = state.hands[p]
        if not state.melds_this_turn:
            return hand & ~(1 << state.taken if state.taken >= 0 else 0) != 0
        sets, runs, laid = _laid_this_turn(state)
        two = state.round_no == state.game.no_discard_out  # must keep two to discard one
        end = (state.rules.final_discard, two, state.taken)
        return _complete(state.game.melds, end, hand, sets, runs, laid, memo)

    @staticmethod
    def contract_error(state: GameState, move: Move) -> IllegalMoveError | None:
        """Why a play-phase move breaks a contract rule, or None to let the shared
        diagnosis name the rule."""
        p = state.current
        kind = move.kind
        opened = state.opened[p]
        if kind == MELD:
            t = state.game.melds
            if not 0 <= move.a < len(t.shapes):
                return None
            if opened:
                return IllegalMoveError(
                    "contract_down",
                    "after going down with the contract you lay no new melds, only "
                    "lay-offs (Contract Rummy)",
                )
            sets, runs = remaining(state)
            sh = t.shapes[move.a]
            if not (sets if sh.kind == SET else runs):
                return IllegalMoveError(
                    "contract",
                    f"this deal's contract is {describe(state.game.contracts, state.round_no)}: "
                    f"you may go down only with exactly those melds (Contract Rummy)",
                )
            if joins(sh, laid_runs(state)):
                return IllegalMoveError(
                    "contract_joined_runs",
                    "two runs of one suit that join end to end, such as 6-7-8-9 and "
                    "10-J-Q-K, may not both be part of going down (Contract Rummy)",
                )
            return None
        if kind == LAYOFF:
            if not opened:
                return IllegalMoveError(
                    "contract_before_layoff",
                    "you may lay off only after going down with this deal's contract "
                    "(Contract Rummy)",
                )
            if state.rules.layoff_wait and state.melds_this_turn:
                return IllegalMoveError(
                    "layoff_wait",
                    "you went down this turn: lay off from your next turn on (house rule)",
                )
            return None
        if (
            kind == DISCARD
            and state.round_no == state.game.no_discard_out
            and state.hands[p].bit_count() == 1
        ):
            return IllegalMoveError(
                "last_deal_no_discard",
                "in the last deal you may not go out by discarding: meld or lay off your "
                "last cards (house rule)",
            )
        if kind == DISCARD and not opened and state.melds_this_turn:
            return IllegalMoveError(
                "contract",
                "lay the whole contract before you discard: going down is done in one "
                "turn (Contract Rummy)",
            )
        return None

    # -- buying ----------------------------------------------------------------------------
    def open_buys(self, state: GameState) -> None:
        """The player in turn drew from the stock: offer the top discard, if anyone
        may buy it and the stock holds the penalty cards."""
        if not state.discard or len(state.stock) < self.rules.buy_penalty:
            return
        p = state.current
        q = next_buyer(state, p, p)
        if q >= 0:
            state.family = replace(buying(state), buy_turn=p)
            state.set_phase(Phase.BUY, q)

    def do_phase(self, state: GameState, move: Move) -> bool:
        if state.phase is not Phase.BUY:
            return super().do_phase(state, move)
        q = state.current
        fields = buying(state)
        p = fields.buy_turn
        if move.kind == BUY:
            card = state.discard.pop()
            state.hands[q] |= 1 << card
            state.known[q] |= 1 << card
            for _ in range(self.rules.buy_penalty):
                state.hands[q] |= 1 << state.stock.pop()
            buys = fields.buys
            fields = replace(fields, buys=(*buys[:q], buys[q] + 1, *buys[q + 1 :]))
            state.family = fields
            state.events.append(Bought(q, card))
            nxt = -1
        else:
            nxt = next_buyer(state, p, q)
        if nxt >= 0:
            state.set_phase(Phase.BUY, nxt)
        else:  # the window closes: the player in turn plays on
            state.family = replace(fields, buy_turn=-1)
            state.set_phase(Phase.PLAY, p)
        return True

    def phase_error(self, state: GameState, kind: int) -> IllegalMoveError | None:
        if state.phase is Phase.BUY:
            if kind in (BUY, PASS):
                return None
            return IllegalMoveError(
                "buy_or_pass",
                f"{state.names[state.current]} is offered the discard out of turn: buy it "
                "or pass, then the player in turn plays on (Contract Rummy)",
            )
        return IllegalMoveError(
            "buy_when_offered",
            "a discard is bought only when it is offered: after the player in turn draws "
            "from the stock, to each other player with buys left (Contract Rummy)",
        )

    def diagnose(self, state: GameState, move: Move) -> IllegalMoveError:
        return IllegalMoveError(  # pragma: no cover - BUY and PASS are always legal there
            "buy_or_pass", "buy the discard or pass"
        )


def contract_of(contracts: tuple[tuple[int, int], ...], round_no: int) -> tuple[int, int]:
    """Deal ``round_no``'s contract as (sets, runs); past the list, the last one."""
    return contracts[min(round_no, len(contracts)) - 1]


def remaining(state: GameState) -> tuple[int, int]:
    """The sets and runs of this deal's contract not yet laid this turn by the player
    to act (who is not down yet: this turn's melds are the table's last)."""
    sets, runs = contract_of(state.game.contracts, state.round_no)
    laid = state.melds_this_turn
    if laid:
        shapes = state.game.melds.shapes
        for tm in state.table[len(state.table) - laid :]:
            if shapes[tm.shape].kind == SET:
                sets -= 1
            else:
                runs -= 1
    return sets, runs


def _laid_this_turn(state: GameState) -> tuple[int, int, tuple[tuple[int, int, int], ...]]:
    """:func:`remaining` and :func:`laid_runs` in one pass over this turn's melds (the
    finish check asks both for every candidate meld)."""
    sets, runs = contract_of(state.game.contracts, state.round_no)
    laid = state.melds_this_turn
    out = []
    if laid:
        shapes = state.game.melds.shapes
        for tm in state.table[len(state.table) - laid :]:
            sh = shapes[tm.shape]
            if sh.kind == SET:
                sets -= 1
            else:
                runs -= 1
                out.append((sh.key, sh.positions[0], sh.positions[-1]))
    return sets, runs, tuple(sorted(out)) if runs and out else ()


def laid_runs(state: GameState) -> tuple[tuple[int, int, int], ...]:
    """The runs the player to act laid this turn, as (suit, lowest position, highest
    position), sorted (a memo key: the order they were laid in does not matter): this
    turn's melds are the table's last while a contract is laid."""
    laid = state.melds_this_turn
    if not laid:
        return ()
    shapes = state.game.melds.shapes
    out = []
    for tm in state.table[len(state.table) - laid :]:
        sh = shapes[tm.shape]
        if sh.kind == RUN:
            out.append((sh.key, sh.positions[0], sh.positions[-1]))
    return tuple(sorted(out))


def joins(sh: Shape, runs: tuple[tuple[int, int, int], ...]) -> bool:
    """Whether ``sh`` is a run that continues one of ``runs`` (as :func:`laid_runs`
    gives them) end to end in the same suit, so that the two together are one longer
    run: such runs may not both be part of going down (Wikipedia, "Contract rummy":
    "consecutive runs in the same suit (such as 6-7-8-9 and 10-J-Q-K) cannot be put
    down by the same player in the initial meld").  Positions are run positions, the
    high ace 13, so J-Q-K-A and 2-3-4-5 do not join (no run turns the corner)."""
    if sh.kind != RUN:
        return False
    lo, hi = sh.positions[0], sh.positions[-1]
    return any(suit == sh.key and (b + 1 == lo or hi + 1 == a) for suit, a, b in runs)


def describe(contracts: tuple[tuple[int, int], ...], round_no: int) -> str:
    """A deal's contract in words: ``two sets and a run``."""
    sets, runs = contract_of(contracts, round_no)
    words = ("no", "a", "two", "three", "four")
    parts = []
    if sets:
        parts.append(f"{words[sets]} set{'s' if sets > 1 else ''}")
    if runs:
        parts.append(f"{words[runs]} run{'s' if runs > 1 else ''}")
    return " and ".join(parts) or "nothing"


def next_buyer(state: GameState, turn: int, after: int) -> int:
    """The next player after ``after`` (in turn order, stopping before ``turn``, the
    player in turn) who may buy the top discard: buys left, and not the player who
    discarded it (the one before ``turn``, once a turn has been played)."""
    n = len(state.names)
    limit = state.rules.buys_per_round
    discarder = (turn - 1) % n if state.turn > 1 else -1
    q = (after + 1) % n
    buys = buying(state).buys
    while q != turn:
        if q != discarder and buys[q] < limit:
            return q
        q = (q + 1) % n
    return -1


def draw_moves(state: GameState) -> list[Move]:
    """The seeds' draws, as a list of its own (see :meth:`Contract.phase_moves`)."""
    return list(state.draw_moves())


def buy_moves(state: GameState) -> list[Move]:
    """The buy window: buy the top discard, or pass."""
    return list(_BUY_MOVES)


def _without(t: MeldTable, hand: int, shape: int, taken: int) -> int:
    """The hand after laying ``shape``, copies chosen as the state chooses them where it
    matters here (the card taken from the pile first)."""
    sh = t.shapes[shape]
    for i, face in enumerate(sh.cells):
        face = JOKER if sh.joker_cells >> i & 1 else face
        options = [c for c in COPIES[face] if hand >> c & 1]
        card = taken if taken in options else options[0]
        hand &= ~(1 << card)
    return hand


def _joinable(
    t: MeldTable, laid: tuple[tuple[int, int, int], ...], counts: HandCounts
) -> tuple[tuple[int, int, int], ...]:
    """The runs of ``laid`` a run from a hand of ``counts`` could still join (a memo key
    holds only these, so searches that differ in runs nobody can join share answers).

    A run joining one at its high end fills the ``min_run`` cells above it, at most
    ``j`` of them with jokers (the hand's, within the meld limit ``t.k``): so the hand
    holds at least ``min_run - j`` naturals of that suit there; the same below."""
    span = t.rules.min_run
    need = span - min(t.k, counts.jokers)
    if need <= 0:
        return laid
    have = counts.have1
    window = (1 << span) - 1
    out = []
    for r in laid:
        suit, lo, hi = r
        m = have >> 13 * suit & 0x1FFF
        if m & 1 and t.high_ace:
            m |= 1 << ACE_HIGH
        if (m & window << hi + 1).bit_count() >= need or (
            m & (window << lo >> span)
        ).bit_count() >= need:
            out.append(r)
    return tuple(out)


def _complete(
    t: MeldTable,
    end: tuple[bool, bool, int],
    hand: int,
    sets: int,
    runs: int,
    laid: tuple[tuple[int, int, int], ...],
    memo: dict[Any, bool],
) -> bool:
    """Whether ``sets`` sets and ``runs`` runs can still be laid from ``hand`` with the
    turn then able to end: a card left that is not the one taken from the pile, or no
    card at all (going out with the contract).  No run joins one of ``laid`` (the runs
    laid this turn, see :func:`joins`) or another run of the search.  A hand left
    holding only the taken card counts as stuck (it could only be laid off, which this
    search does not try).
    ``end`` is (``final_discard``, whether a discard may not go out this deal, the card
    taken from the pile)."""
    final_discard, two, taken = end
    if not sets and not runs:
        if hand == 0:
            return not final_discard
        if two and hand.bit_count() < 2:
            return False  # a discard would go out, which this deal forbids
        return hand & ~(1 << taken if taken >= 0 else 0) != 0
    key = ("contract", hand, sets, runs, laid)
    hit = memo.get(key)
    if hit is not None:
        return hit
    counts = HandCounts.of(hand)
    raw = key
    if laid:  # only the runs the rest could join are part of the key
        laid = _joinable(t, laid, counts) if runs else ()
        key = ("contract", hand, sets, runs, laid)
        hit = memo.get(key)
        if hit is not None:
            memo[raw] = hit
            return hit
    ok = False
    for i in t.shapes_in(counts):
        sh = t.shapes[i]
        if sh.kind == SET:
            if sets:
                ok = _complete(t, end, _without(t, hand, i, taken), sets - 1, runs, laid, memo)
        elif runs and not (laid and joins(sh, laid)):
            more = (
                tuple(sorted((*laid, (sh.key, sh.positions[0], sh.positions[-1]))))
                if runs > 1
                else ()  # no run left to join it
            )
            ok = _complete(t, end, _without(t, hand, i, taken), sets, runs - 1, more, memo)
        if ok:
            break
    memo[key] = memo[raw] = ok
    return ok


__all__ = [
    "Contract", "contract_of", "describe", "joins", "laid_runs", "next_buyer", "remaining",
]  # fmt: skip
