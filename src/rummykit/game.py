"""What every state of one match shares: the rules, the meld catalogue, the action
space and the variant's hooks, built once per rules and player count.

It sits below :mod:`rummykit.state` and :mod:`rummykit.view` (both read it) and binds
the variant (see :mod:`rummykit.variants`) at construction, so a state looks a phase's
move generator up in a tuple instead of asking which game it is playing.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

from .cards import deck, is_joker
from .melds import meld_table
from .moves import ActionSpace, Move
from .phase import Phase
from .rules import DiscardPickup, Family, Rules
from .solver import Solver, solver_for
from .variants import MoveGenerator, variant_for
from .variants.base import AgentActions


class Game:
    """What every state of one match shares.  Immutable after construction."""

    def __init__(self, rules: Rules, num_players: int) -> None:
        rules.check_players(num_players)
        self.rules = rules
        self.num_players = num_players
        self.melds = meld_table(rules)
        self.max_table = rules.deck_size // 3
        self.actions = ActionSpace(
            len(self.melds.shapes),
            self.max_table,
            rules.deck_size if rules.deep_discard else 0,
            rules.first_drop > 0,
            rules.buys_per_round > 0,
            len(self.melds.shapes) if rules.free_table else 0,
            rules.turn_seconds is not None,
        )
        self._spec: str | None = None
        self.dealt = rules.cards_per_player(num_players)
        """Cards dealt to each player."""
        self.one_copy = rules.decks == 1 and rules.jokers == 0
        """Every face is one physical card (card id == face)."""
        self.free_pickup = rules.discard_pickup is DiscardPickup.FREE
        self.must_use = rules.discard_pickup is DiscardPickup.MUST_USE
        """Flags read on every draw, kept here: an Enum attribute lookup is slow."""
        self.pack = tuple(deck(rules.decks, rules.jokers))
        """Every physical card, in order: each round shuffles a copy."""
        self.cut_pack = tuple(c for c in self.pack if not is_joker(c))
        """The cards cut for the deal (jokers cannot be cut)."""
        self.action_codes: dict[Move, int] = {}
        """A memo of :meth:`ActionSpace.encode` (moves are values, so it never goes stale)."""
        self.variant = variant = variant_for(rules)
        """The hooks of the family these rules belong to."""
        phases = variant.phase_moves()
        self.movegen: tuple[MoveGenerator | None, ...] = tuple(phases.get(phase) for phase in Phase)
        """The move generator of each phase, by phase number: None for the draw, the
        end of the match and the standard play phase, which the state generates
        itself."""
        self.variant_phase = tuple(phase in variant.own_phases for phase in Phase)
        """By phase number: whether the variant carries out the phase's moves (its
        ``do_phase``), for the phases its family names."""
        self.both_draws = self.free_pickup and self.movegen[Phase.DRAW] is None
        """A turn with both piles open starts with just the two draws (a shared list)."""
        self.standard_play = self.movegen[Phase.PLAY] is None
        """The play phase is the melding turn of the seeds (the state's own)."""
        self.quick_discard = variant.quick_discard
        """See :attr:`Variant.quick_discard`."""
        self.play_actions = variant.play_actions
        self.play_action = variant.play_action
        """The variant's quick play-phase hooks, bound once (Gin asks them every turn)."""
        self.skip_seats = rules.family is Family.INDIAN
        """Turns skip seats out of the deal (declaration games' drops and eliminations)."""
        self.meld_scoring = rules.meld_scoring
        """Melds and lay-offs score when laid (the variant's ``meld_points``)."""
        self.contracts = rules.contract_list()
        """Contract Rummy: per deal, the contract as (sets, runs); empty otherwise."""
        self.contract = bool(self.contracts)
        """A player's first melds of a deal must be the deal's contract."""
        self.opening = rules.opening_minimum > 0 or self.contract
        """Some melds are an opening, with a requirement (points or a contract)."""
        self.no_discard_out = len(self.contracts) if rules.last_deal_no_discard else 0
        """Contract Rummy's house rule: in this deal (the last) nobody goes out by
        discarding; 0: none."""
        self.buying = rules.buys_per_round > 0
        """A stock draw opens Contract Rummy's buy window (the variant's ``open_buys``)."""
        self.family_type = variant.family_type()
        """The record of the family's own fields (:mod:`rummykit.family`)."""
        self.turn_phase = variant.turn_phase
        """The phase every turn begins in (see :attr:`Variant.turn_phase`)."""
        self.upcard = variant.upcard
        """The deal turns the first card of the stock face up (see :attr:`Variant.upcard`)."""
        self.open_moves = variant.open_moves
        """Legal moves may lie beyond the listed ones (see :attr:`Variant.open_moves`)."""

    @staticmethod
    @lru_cache(maxsize=16)
    def shared(rules: Rules, num_players: int) -> Game:
        """The one :class:`Game` for these rules and players.  Sharing it lets every
        match reuse its tables and caches (building one costs more than dealing a hand
        of Gin), which is safe because a Game never changes what it answers."""
        return Game(rules, num_players)

    @property
    def spec(self) -> str:
        """The rules as a spec string, computed once (saving a state writes it often)."""
        if self._spec is None:
            self._spec = self.rules.spec()
        return self._spec

    @cached_property
    def agent_actions(self) -> AgentActions | None:
        """The fixed action space learning agents use when the engine's own numbers
        cannot all be listed (Rummikub's arrangements: :meth:`Variant.agent_actions
        <rummykit.variants.base.Variant.agent_actions>`), or None: the engine's
        :attr:`actions` serve.  Read by the environments and OpenSpiel only."""
        if self.actions.listable:
            return None
        return self.variant.agent_actions(self)

    @cached_property
    def solver(self) -> Solver:
        """The exact meld solver for these rules (shared, built on first use; then a
        plain attribute, which Gin's knock check reads on every turn)."""
        return solver_for(self.rules)
