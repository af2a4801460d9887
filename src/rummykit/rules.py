"""The rules: one frozen options object, named presets, and a small spec language.

Every rule of the four seed documents is a field of :class:`Rules`, and every
preset is just a value of it.  House rules are the same fields changed, so any
house rule works with any preset:

>>> r = Rules.parse("basic(multiple_melds=true, ace=high_or_low)")
>>> r.multiple_melds, r.ace.value, r.ace_points
(True, 'high_or_low', 15)
>>> Rules.parse("rami51").opening_minimum
51
>>> Rules.parse("basic(players=9)")
Traceback (most recent call last):
...
rummykit.errors.RulesError: unknown option 'players' (did you mean min_players or max_players?)

The field docs say which seed passage or reference each default follows;
``docs/rules.md`` collects every interpretation.
"""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from difflib import get_close_matches
from enum import StrEnum
from functools import lru_cache
from typing import Any

from .errors import RulesError


class Ace(StrEnum):
    LOW = "low"
    """Ace is low only: A-2-3 is a run, Q-K-A is not (seed 001, seed 002)."""
    HIGH_OR_LOW = "high_or_low"
    """A-2-3 and Q-K-A are runs, K-A-2 is not (seed 003; seed 001's house rule)."""
    HIGH = "high"
    """Ace is high only: Q-K-A is a run, A-2-3 is not (a reading of Kalooki; docs/rules.md)."""


class Scoring(StrEnum):
    WINNER_COLLECTS = "winner_collects"
    """The player who goes out scores the others' hands; highest total wins (seed 001, 002)."""
    PENALTY = "penalty"
    """Each loser adds their own hand to their score; lowest total wins (seed 000, 003)."""


class Restock(StrEnum):
    TURN_OVER = "turn_over"
    """The discard pile is turned over, not shuffled, to form the stock (seed 001)."""
    SHUFFLE = "shuffle"
    """The whole discard pile is shuffled into a new stock and a new upcard turned (seed 000;
    seed 003: "the discard pile will be shuffled to form a new draw pile")."""
    SHUFFLE_KEEP_TOP = "shuffle_keep_top"
    """All but the top discard are shuffled into a new stock (seed 002)."""


class RummyBonus(StrEnum):
    NONE = "none"
    DOUBLE = "double"
    """Going rummy doubles the round's score (seed 002; seed 001 house rule)."""
    PLUS_TEN = "plus_ten"
    """Going rummy adds ten points (seed 001 house rule)."""


class SetSuits(StrEnum):
    DISTINCT = "distinct"
    """A set's cards have distinct suits, so at most 4 cards (French Rami; RULES-NOTES 2)."""
    ANY = "any"
    """With two decks a set may repeat suits (Kalooki; RULES-NOTES 2)."""


class SwappedJoker(StrEnum):
    KEEP = "keep"
    """A joker freed by a swap goes to the hand with no obligation."""
    MUST_MELD = "must_meld"
    """A freed joker must be used in a new meld in the same turn (RULES-NOTES 4)."""


class DiscardPickup(StrEnum):
    FREE = "free"
    """The top discard may be taken and kept; it just cannot be discarded the same turn."""
    MUST_USE = "must_use"
    """The taken discard must be melded or laid off in the same turn (Rami; RULES-NOTES 7)."""


class OpeningScope(StrEnum):
    EACH_PLAYER = "each_player"
    """Each player's first meld(s) must reach the minimum (most references)."""
    FIRST_MELD = "first_meld"
    """Only the first meld of the round must reach it (seed 003's literal wording)."""


class Family(StrEnum):
    """The family of games a :class:`Rules` belongs to: which variant module plays it
    (:func:`rummykit.variants.variant_for`).  The value is the variant's name."""

    RUMMY = "rummy"
    """Draw, meld, lay off, discard, go out (the seeds, Kalooki)."""
    GIN = "gin"
    """Knock games: Gin Rummy (``knock_card``)."""
    INDIAN = "indian"
    """Declaration games: Indian Rummy (``declare``)."""
    RUM500 = "rum500"
    """Melds score as laid: 500 Rum (``meld_scoring``, ``deep_discard``)."""
    CONTRACT = "contract"
    """A contract per deal: Contract Rummy (``contracts``)."""
    RUMMIKUB = "rummikub"
    """Tiles played onto a table anyone may rearrange, or one drawn: Rummikub
    (``free_table``)."""


class ContractMeld(StrEnum):
    """One meld a contract asks for; the value is its letter in ``contracts``."""

    SET = "s"
    RUN = "r"


DealContract = tuple[ContractMeld, ...]
"""One deal's contract: the melds a player goes down with, ``(SET, SET, RUN)`` for
"two sets and a run" (written ``ssr``)."""

_MAX_CONTRACTS = 20
_MAX_CONTRACT_MELDS = 4


@lru_cache(maxsize=64)
def parse_contracts(text: str) -> tuple[DealContract, ...]:
    """The contracts written ``text`` (/-separated words of s and r), one per deal;
    :class:`RulesError` if malformed.  Parsed once per text (rules are read often).

    >>> parse_contracts("ss/sr")[1]
    (<ContractMeld.SET: 's'>, <ContractMeld.RUN: 'r'>)
    >>> contracts_text(parse_contracts("ss/sr/rrr")), parse_contracts("")
    ('ss/sr/rrr', ())
    """
    if not text:
        return ()
    words = text.split("/")
    if (
        any(not w or set(w) - {"s", "r"} or len(w) > _MAX_CONTRACT_MELDS for w in words)
        or len(words) > _MAX_CONTRACTS
    ):
        raise RulesError(
            f"contracts must be words of s (set) and r (run), one to four letters, "
            f"separated by /, at most 20: not {text!r}"
        )
    return tuple(tuple(ContractMeld(c) for c in w) for w in words)


def contracts_text(contracts: tuple[DealContract, ...]) -> str:
    """The ``contracts`` option's text for these contracts (:func:`parse_contracts`'s
    inverse)."""
    return "/".join("".join(m.value for m in c) for c in contracts)


_STANDARD_HAND_SIZES = ((2, 10), (4, 7), (6, 6))
"""Seed 002: 10 cards for two players, 7 for three or four, 6 for five or six."""

_MAX_MELD_CARD_VALUE = 11
"""The most a card counts inside a meld (an ace after a king or in a set: melds.py)."""

_FLAG_TYPES: dict[str, type] = {
    "bool": bool,
    "str": str,
    **{e.__name__: e for e in (Ace, Scoring, Restock, RummyBonus, SetSuits, SwappedJoker,
                               DiscardPickup, OpeningScope)},
}  # fmt: skip
"""The type of every option that is not a number, by its annotation: a Rules built
directly (not parsed) is checked too, so ``Rules(multiple_melds="no")`` is refused."""

_BOUNDS: dict[str, tuple[int, int]] = {
    "decks": (1, 3),
    "jokers": (0, 2),
    "jokers_per_meld": (0, 2),
    "min_players": (2, 8),
    "max_players": (2, 8),
    "hand_size": (1, 52),
    "opening_minimum": (0, 1000),
    "max_restocks": (0, 100),
    "max_turns": (4, 10_000),
    "max_deals": (1, 10_000),
    "ace_points": (0, 100),
    "joker_points": (0, 100),
    "never_melded_penalty": (0, 1000),
    "one_turn_out_bonus": (-1000, 1000),
    "target_score": (1, 10_000),
    "deals": (1, 1000),
    "knock_card": (0, 10),
    "gin_bonus": (0, 1000),
    "undercut_bonus": (0, 1000),
    "wall": (0, 50),
    "max_upcard_draws": (1, 1000),
    "max_meld_size": (3, 52),
    "game_bonus": (0, 1000),
    "line_bonus": (0, 1000),
    "first_drop": (0, 1000),
    "middle_drop": (0, 1000),
    "max_hand_points": (1, 1000),
    "wrong_show": (0, 1000),
    "min_run": (3, 13),
    "buys_per_round": (0, 20),
    "buy_penalty": (0, 5),
    "turn_seconds": (10, 600),
}
_OPTIONAL = frozenset(
    ("hand_size", "max_restocks", "target_score", "deals", "knock_card", "max_upcard_draws",
     "max_meld_size", "max_hand_points", "turn_seconds")
)  # fmt: skip
"""The numeric options that may be ``None`` (see each field)."""

"""The range of every numeric option.  Each bound keeps a game finite and sane: points
and penalties are never negative (a negative penalty could keep every score below the
target forever), a target is at most twenty times the longest preset's (500), and the
guards stay guards."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule of a rummy game.  Build one with :meth:`preset` or :meth:`parse`."""

    name: str = "basic"
    """The preset this was derived from (informational)."""

    # -- cards and deal -----------------------------------------------------------
    decks: int = 1
    """Number of 52-card decks (seed 003: two)."""
    jokers: int = 0
    """Jokers per deck (seed 003: two per 54-card deck)."""
    min_players: int = 2
    """Fewest players (every seed: two)."""
    max_players: int = 6
    """Seed 001/002: two to six players; seed 003: two to five."""
    hand_size: int | None = None
    """Cards dealt to each player; ``None`` means 10/7/6 by player count (seed 002)."""

    # -- melds --------------------------------------------------------------------
    ace: Ace = Ace.LOW
    set_suits: SetSuits = SetSuits.DISTINCT
    jokers_per_meld: int = 1
    """At most this many jokers in one meld (seed 003: one)."""

    # -- the turn -----------------------------------------------------------------
    multiple_melds: bool = False
    """False: one meld per turn (seed 000, seed 001 standard); True: any number (house rule)."""
    layoff_after_own_meld: bool = False
    """Lay off only after having melded yourself (seed 001 house rule; Rami opening)."""
    final_discard: bool = False
    """Going out requires discarding the last card (seed 001 house rule)."""
    discard_pickup: DiscardPickup = DiscardPickup.FREE
    joker_swap: bool = False
    """A player who has opened may take a table joker by giving the card it stands for."""
    swapped_joker: SwappedJoker = SwappedJoker.KEEP
    set_joker_both_suits: bool = False
    """A joker in a set of three is released only by both missing suits at once, and a
    set of four that holds a joker is closed (Kalooki: equal-chance.co.uk; False: the
    card it stands for releases it, as in Rami)."""
    take_from_meld: bool = False
    """Take a card from a table meld of more than three cards for a new meld (seed 003)."""
    opening_minimum: int = 0
    """Points the opening melds must total, by meld values (seed 003: 51)."""
    opening_applies: OpeningScope = OpeningScope.EACH_PLAYER
    opening_pure_run: bool = False
    """The opening must include a run without a joker (some French sources)."""
    deep_discard: bool = False
    """Any card of the discard pile may be drawn, with every card above it, if it is
    used in a meld or lay-off at once (500 Rum; HowStuffWorks, "How to Play 500 Rum")."""

    # -- the stock ----------------------------------------------------------------
    restock: Restock = Restock.TURN_OVER
    max_restocks: int | None = None
    """Stop the round once the discard pile was reused this often (seed 001 house rule)."""
    max_turns: int = 1000
    """Guard: a round still going after this many turns ends and is scored as blocked."""
    max_deals: int = 1000
    """Guard: a match still going after this many deals ends with the scores as they
    stand, so a match to a target ends even when rounds keep scoring nothing (blocked
    rounds with tied hands, void Gin hands)."""

    # -- scoring ------------------------------------------------------------------
    scoring: Scoring = Scoring.WINNER_COLLECTS
    ace_points: int = 1
    """Value of an ace left in hand (1; 15 under seed 001's high-or-low rule; 11 in Rami)."""
    joker_points: int = 20
    """Value of a joker left in hand (seed 003: 20)."""
    rummy_bonus: RummyBonus = RummyBonus.NONE
    meld_scoring: bool = False
    """Each meld and lay-off scores its cards' value for the player who lays it, when
    laid, and the cards left in hand count against their holder (500 Rum)."""
    never_melded_penalty: int = 0
    """Added to a player who never melded in the round (seed 003: 100)."""
    one_turn_out_bonus: int = 0
    """Added to a player who goes out in one turn before anyone else melded (seed 003: -200)."""
    target_score: int | None = 100
    """The match ends once a score reaches this; ``None`` to play a number of deals."""
    deals: int | None = None
    """The match ends after this many deals, when no target score is set."""

    # -- knock games (Gin Rummy; OpenSpiel gin_rummy and the GRA rules) -------------
    knock_card: int | None = None
    """A hand ends when a player knocks with deadwood at most this; ``None``: no knocking."""
    meld_in_play: bool = True
    """Melds are laid during play (rummy); Gin lays them only when the hand ends."""
    first_upcard_option: bool = False
    """Gin: the non-dealer, then the dealer, may take the first upcard or pass."""
    oklahoma: bool = False
    """Gin: the first upcard's value sets the knock limit (an ace: gin only)."""
    gin_bonus: int = 25
    """Gin: added to the knocker's score for knocking with no deadwood (OpenSpiel: 25)."""
    undercut_bonus: int = 25
    """Gin: added to the defender's score when its deadwood is lower than the knocker's
    (OpenSpiel: 25)."""
    wall: int = 0
    """The hand is void once a discard leaves this many stock cards (Gin: 2); 0 = never."""
    discard_taken_card: bool = False
    """May discard the card just taken from the discard pile (OpenSpiel's Gin allows it)."""
    repeat_void: bool = False
    """Gin (OpenSpiel): two upcards taken and thrown straight back in a row void the hand."""
    max_upcard_draws: int | None = None
    """Guard (OpenSpiel's Gin: 50): the hand is void at this many draws from the pile."""
    max_meld_size: int | None = None
    """Longest meld that may be laid at once (OpenSpiel's Gin lays runs of at most 5)."""
    game_bonus: int = 0
    """Added to the match winner's score (Gin match: 100)."""
    line_bonus: int = 0
    """Added at the end per hand won (Gin match 'box' or 'line' bonus: 25)."""
    shutout_double: bool = False
    """The winner's final score doubles if the loser won no hand (Gin match)."""

    # -- declaration games (Indian Rummy, 13 cards) ----------------------------------
    declare: bool = False
    """Melds are shown only at the end: after drawing, a player may declare, discarding
    the extra card and grouping every other card into melds, at least two of them
    sequences and one of those pure (Indian Rummy; see variants/indian.py)."""
    wild_cut: bool = False
    """After the deal the bottom card of the stock is turned face up: every card of its
    rank is a joker this deal, and aces are if it is a printed joker (Indian Rummy)."""
    first_drop: int = 0
    """Indian Rummy: the penalty for leaving the deal before one's first draw (20; pool
    201: 25); 0 with ``middle_drop`` 0 means no drops."""
    middle_drop: int = 0
    """Indian Rummy: the penalty for leaving the deal on a later turn, before drawing
    (40; pool 201: 50)."""
    max_hand_points: int | None = None
    """Indian Rummy: a hand left at the end counts at most this (80, the "full count")."""
    wrong_show: int = 0
    """Indian Rummy: what a wrong show (a declaration whose cards are not all in melds
    with two sequences, one pure) costs the declarer, who then leaves the deal as after
    a drop (80); 0: a declaration is checked first and refused unless it is valid."""
    elimination: bool = False
    """Pool rummy: a player whose total reaches ``target_score`` is out of the match,
    which goes on until one player is left (Indian pool 101 and 201).  A match of a
    number of ``deals`` has no target: then it ends after those deals, nobody out."""
    # -- contract games (Contract Rummy / Shanghai; docs/rules.md) --------------------
    # A player's first melds of a deal must be exactly its contract, laid in one turn
    # ("going down"); after that no new meld, only lay-offs (variants/contract.py).
    contracts: str = ""
    """Each deal's contract, /-separated words of s (set) and r (run): ss/sr/rr is two
    sets, a set and a run, two runs (Contract Rummy); empty: none."""
    deal_sizes: str = ""
    """Cards dealt in each deal, one per contract, /-separated (Contract Rummy:
    10/10/10/10/12/12/12); empty: hand_size."""
    min_run: int = 3
    """Fewest cards in a run (Contract Rummy: 4)."""
    buys_per_round: int = 0
    """Buys of a discard out of turn per player and deal, when the player in turn draws
    from the stock (Contract Rummy; 0: no buying)."""
    buy_penalty: int = 1
    """Stock cards a buyer takes with the bought discard (Wikipedia: one penalty card)."""
    layoff_wait: bool = False
    """A player who went down this turn lays off only from the next turn on."""
    last_deal_no_discard: bool = False
    """In the last contract's deal nobody goes out by discarding (house rule)."""
    joker_to_end: bool = False
    """A player who has gone down (opened) may put the natural card a joker inside a run
    stands for in its place, the joker moving to an end of the run (Parlett's Contract
    Rummy); the swap move names that card.  Needs jokers and no ``joker_swap``."""

    # -- tile games (Rummikub; docs/rules.md, "## Rummikub") --------------------------
    free_table: bool = False
    """Rummikub: a turn plays tiles, rearranging the whole table so long as every set is
    valid at its end, or draws one tile; no discard (variants/rummikub.py)."""
    first_meld_untouched: bool = True
    """Rummikub: the first meld is new sets of one's own tiles, the table's sets left as
    they are (rummikub.org); false, a house rule, lets that turn rearrange the table."""
    turn_seconds: int | None = None
    """Rummikub: seconds a turn may last (official: 60); past it the front end plays the
    timeout, which draws three penalty tiles (onlinerummikub.com); none: no timer."""

    # ------------------------------------------------------------------------------
    def __post_init__(self) -> None:
        self._check()

    def _check(self) -> None:
        for f in fields(self):
            kind = _FLAG_TYPES.get(str(f.type))
            if kind is not None and not isinstance(getattr(self, f.name), kind):
                raise RulesError(
                    f"{f.name} must be a {kind.__name__}, not {getattr(self, f.name)!r}"
                )
        for name, (lo, hi) in _BOUNDS.items():
            value = getattr(self, name)
            if value is None and name in _OPTIONAL:
                continue
            if type(value) is not int or not lo <= value <= hi:
                raise RulesError(f"{name} must be an integer from {lo} to {hi}, not {value!r}")
        if self.min_players < 2 or self.max_players < self.min_players:
            raise RulesError(f"player range {self.min_players}..{self.max_players} is impossible")
        if self.set_suits is SetSuits.ANY and self.decks == 1:
            raise RulesError("set_suits=any needs two decks: one deck has no repeated faces")
        if (self.target_score is None) == (self.deals is None):
            raise RulesError("set exactly one of target_score and deals")
        if self.joker_to_end and (not self.jokers or self.joker_swap or not self.meld_in_play):
            raise RulesError(
                "joker_to_end needs jokers, melds laid in play and joker_swap=false (a swap "
                "that moves the joker, not one that frees it)"
            )
        if self.ace is Ace.HIGH and (self.declare or self.knock_card is not None):
            raise RulesError("ace=high is for draw-meld-discard games (not knock or declare)")
        if self.set_joker_both_suits and not (
            self.joker_swap and self.jokers and self.set_suits is SetSuits.DISTINCT
        ):
            raise RulesError(
                "set_joker_both_suits needs joker_swap=true, jokers and set_suits=distinct "
                "(the missing suits of a set)"
            )
        if self.knock_card is not None:
            if self.max_players != 2 or self.decks != 1 or self.jokers:
                raise RulesError("knock games are for two players with one deck, no jokers")
            if self.meld_in_play:
                raise RulesError("knock games lay melds only at the end: set meld_in_play=false")
        elif not self.meld_in_play and not self.declare:
            raise RulesError(
                "meld_in_play=false needs a knock_card or declare: nobody could ever meld"
            )
        if self.declare:
            if self.knock_card is not None or self.meld_in_play:
                raise RulesError(
                    "declare games show melds only at the end: no knock_card, meld_in_play=false"
                )
            if self.meld_scoring or self.deep_discard or self.first_upcard_option:
                raise RulesError(
                    "meld_scoring, deep_discard and first_upcard_option are not for declare games"
                )
        elif (
            self.wild_cut or self.first_drop or self.middle_drop
            or self.max_hand_points is not None or self.wrong_show
        ):  # fmt: skip
            raise RulesError(
                "wild_cut, first_drop, middle_drop, max_hand_points and wrong_show are for "
                "declare games"
            )
        if self.wrong_show and self.wrong_show <= self.middle_drop:
            raise RulesError(
                "wrong_show must cost more than middle_drop: a wrong show would be a cheap "
                "way out of a deal"
            )
        if (self.first_drop == 0) != (self.middle_drop == 0) or self.first_drop > self.middle_drop:
            raise RulesError(
                "first_drop and middle_drop are both 0 (no drops) or both set, the first "
                "drop no dearer than the middle drop"
            )
        if self.elimination and self.scoring is not Scoring.PENALTY:
            raise RulesError("elimination needs scoring=penalty (totals are penalty points)")
        if self.knock_card is not None and (self.meld_scoring or self.deep_discard):
            raise RulesError("meld_scoring and deep_discard are for games that meld in play")
        if self.knock_card is not None and self.min_run != 3:
            raise RulesError("min_run is for games that meld in play: a knock counts runs of 3+")
        self._check_contracts()
        if self.free_table and (
            self.decks != 2
            or self.jokers > 1
            or self.ace is not Ace.LOW
            or self.set_suits is not SetSuits.DISTINCT
            or self.knock_card is not None
            or self.declare
            or self.meld_scoring
            or self.deep_discard
            or self.contracts
            or self.first_upcard_option
            or self.max_meld_size is not None
            or self.min_run != 3
            or self.jokers_per_meld != 2
        ):
            raise RulesError(
                "free_table is Rummikub's tiles and sets: two copies of 1-13 in four "
                "colours (decks=2, ace=low, set_suits=distinct), at most a joker per copy, "
                "runs of 3+ (min_run=3), both jokers allowed in a set (jokers_per_meld=2), "
                "and no knock, declaration, scored melds, deep discard, contracts, first "
                "upcard or longest meld"
            )
        if self.turn_seconds is not None and not self.free_table:
            raise RulesError("turn_seconds is Rummikub's turn timer: it needs free_table=true")
        if self.oklahoma and self.knock_card is None:
            raise RulesError("oklahoma sets the knock limit: it needs a knock_card")
        largest_hand = max(self.largest_deal(n) for n in (self.min_players, self.max_players))
        reachable = _MAX_MELD_CARD_VALUE * (largest_hand + 1)
        if self.opening_minimum > reachable:
            raise RulesError(
                f"opening_minimum {self.opening_minimum} is more than any hand of "
                f"{largest_hand + 1} cards can meld ({reachable}): nobody could ever open"
            )
        for n in range(self.min_players, self.max_players + 1):
            need = n * self.largest_deal(n) + 2
            if need > self.deck_size:
                raise RulesError(
                    f"{n} players need {need} cards ({self.largest_deal(n)} each, an "
                    f"upcard and a stock) but the deck has {self.deck_size}; "
                    f"lower max_players or hand_size"
                )

    def _check_contracts(self) -> None:
        """The contract options: well formed, and only with a game they fit."""
        if self.contracts:
            words = parse_contracts(self.contracts)
            if (
                self.knock_card is not None
                or self.declare
                or self.meld_scoring
                or self.deep_discard
            ):
                raise RulesError(
                    "contracts are for draw-meld-discard games (not knock, declare or 500 Rum)"
                )
            if self.discard_pickup is not DiscardPickup.FREE:
                raise RulesError("contracts keep a taken discard in hand: discard_pickup=free")
            if self.opening_minimum or self.take_from_meld:
                raise RulesError("contracts replace the opening minimum and taking from melds")
            if self.joker_swap and self.swapped_joker is SwappedJoker.MUST_MELD:
                raise RulesError("after going down no new meld is laid: a swapped joker is kept")
            if self.deals is None or self.deals > len(words):
                raise RulesError(
                    f"{len(words)} contracts make a match of at most deals={len(words)}"
                )
        elif self.buys_per_round or self.deal_sizes or self.last_deal_no_discard:
            raise RulesError(
                "buys_per_round, deal_sizes and last_deal_no_discard belong to contract games "
                "(contracts)"
            )
        if self.deal_sizes:
            sizes = self.deal_sizes.split("/")
            if len(sizes) != len(self.contract_plan) or not all(
                x.isdigit() and 1 <= int(x) <= 52 for x in sizes
            ):
                raise RulesError(
                    f"deal_sizes must give one size (1 to 52) per contract, separated by /: "
                    f"not {self.deal_sizes!r}"
                )

    # -- derived --------------------------------------------------------------------
    def inert_options(self) -> dict[str, str]:
        """The options that change nothing under these rules, each with the reason: the
        one table of which options apply to which family of games (declaration, knock,
        contract, the others) and when one option makes another moot.
        :meth:`with_options` refuses a change to any of them, so an accepted option
        always changes the game.

        >>> Rules.preset("indian").inert_options()["joker_points"]
        'jokers and wild cards count 0 in a declaration'
        """
        out: dict[str, str] = {}

        def moot(names: str, why: str) -> None:
            for name in names.split():
                out.setdefault(name, why)

        family = self.family
        if family is Family.RUMMIKUB:
            moot(
                "multiple_melds layoff_after_own_meld final_discard discard_pickup "
                "joker_swap swapped_joker set_joker_both_suits take_from_meld "
                "opening_applies opening_pure_run restock max_restocks wall "
                "discard_taken_card repeat_void max_upcard_draws rummy_bonus "
                "never_melded_penalty one_turn_out_bonus scoring ace_points joker_to_end",
                "Rummikub rearranges a table of tiles with no discard pile: a turn "
                "places tiles or draws one, and the rack is counted at the tiles' numbers",
            )
        else:
            moot(
                "first_meld_untouched turn_seconds",
                "only Rummikub (free_table) has a first meld of tiles and a turn timer",
            )
        if family is Family.INDIAN:
            moot("joker_points", "jokers and wild cards count 0 in a declaration")
            moot(
                "set_suits jokers_per_meld min_run",
                "a declaration's melds have their own rule (sets of distinct suits, "
                "sequences of three or more, any number of jokers)",
            )
            moot(
                "multiple_melds layoff_after_own_meld final_discard joker_swap swapped_joker "
                "take_from_meld opening_minimum opening_applies opening_pure_run max_meld_size",
                "melds are shown only in the declaration",
            )
            if self.deals is not None:
                moot("elimination", "a match of a number of deals has no score to be out at")
        else:
            moot("elimination", "only declaration games (Indian pool rummy) put players out")
        if family is Family.INDIAN or family is Family.GIN:
            moot(
                "rummy_bonus never_melded_penalty one_turn_out_bonus",
                "the hand is scored by its count at the end, with no going out in play",
            )
        if family is not Family.GIN:
            moot(
                "gin_bonus undercut_bonus game_bonus line_bonus shutout_double",
                "only knock games (Gin) score these",
            )
        if family is Family.CONTRACT:
            moot("layoff_after_own_meld", "lay-offs always wait for going down with the contract")
            moot("opening_applies opening_pure_run", "the contract is every player's opening")
        else:
            moot("layoff_wait", "only contract games wait to lay off after going down")
        if not self.jokers:
            moot("joker_points joker_swap jokers_per_meld", "the deck has no jokers (jokers=0)")
        if not self.joker_swap:
            moot("swapped_joker", "no joker is swapped (joker_swap=false)")
        if not self.opening_minimum:
            moot("opening_applies opening_pure_run", "there is no opening (opening_minimum=0)")
        if not self.buys_per_round:
            moot("buy_penalty", "nobody buys (buys_per_round=0)")
        if not self.discard_taken_card:
            moot("repeat_void", "a taken card is never thrown back (discard_taken_card=false)")
        if self.deal_sizes:
            moot("hand_size", "deal_sizes gives every deal's size")
        if self.max_restocks == 0:
            moot("restock", "the round ends when the stock runs out (max_restocks=0)")
        return out  # the guards (max_turns, max_deals) stay settable: they only cap

    def _check_effect(self) -> None:
        """Refuse an option changed from the preset that changes nothing (see
        :meth:`inert_options`), naming the option and the game."""
        if self.name not in PRESETS:
            return
        inert = self.inert_options()
        for name in self.changed_options():
            if name in inert:
                raise RulesError(f"{name} changes nothing in {self.name}: {inert[name]}")

    @property
    def contract_plan(self) -> tuple[DealContract, ...]:
        """Per deal, its contract (the ``contracts`` option parsed); empty without.

        >>> Rules.preset("contract").contract_plan[1]
        (<ContractMeld.SET: 's'>, <ContractMeld.RUN: 'r'>)
        """
        return parse_contracts(self.contracts)

    def contract_list(self) -> tuple[tuple[int, int], ...]:
        """Per deal, the contract counted as (sets, runs); empty without contracts."""
        return tuple(
            (c.count(ContractMeld.SET), c.count(ContractMeld.RUN)) for c in self.contract_plan
        )

    def deal_size(self, players: int, round_no: int) -> int:
        """Cards dealt in deal ``round_no`` (1-based; past the list, the last size)."""
        if self.deal_sizes:
            sizes = self.deal_sizes.split("/")
            return int(sizes[min(round_no, len(sizes)) - 1])
        return self.cards_per_player(players)

    def largest_deal(self, players: int) -> int:
        """The most cards any deal gives each of ``players``."""
        if self.deal_sizes:
            return max(int(x) for x in self.deal_sizes.split("/"))
        return self.cards_per_player(players)

    @property
    def family(self) -> Family:
        """The family these rules belong to, read off the options that make one (the
        one place that says which): a knock card makes Gin, a declaration Indian Rummy,
        scoring melds or a deep discard 500 Rum, contracts Contract Rummy.

        >>> Rules.preset("gin").family, Rules.parse("basic(meld_scoring=true)").family
        (<Family.GIN: 'gin'>, <Family.RUM500: 'rum500'>)
        """
        if self.free_table:
            return Family.RUMMIKUB
        if self.knock_card is not None:
            return Family.GIN
        if self.declare:
            return Family.INDIAN
        if self.meld_scoring or self.deep_discard:
            return Family.RUM500
        if self.contracts:
            return Family.CONTRACT
        return Family.RUMMY

    @property
    def deck_size(self) -> int:
        return self.decks * (52 + self.jokers)

    def cards_per_player(self, players: int) -> int:
        if self.hand_size is not None:
            return self.hand_size
        for limit, size in _STANDARD_HAND_SIZES:
            if players <= limit:
                return size
        return 6

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            lo, hi = self.min_players, self.max_players
            span = f"exactly {lo}" if lo == hi else f"{lo} to {hi}"
            raise RulesError(f"{self.name} is for {span} players, not {players}")

    # -- building ----------------------------------------------------------------------
    @staticmethod
    def preset(name: str) -> Rules:
        try:
            return PRESETS[name.strip().lower()]
        except KeyError:
            raise RulesError(
                f"unknown preset {name!r} (known: {', '.join(sorted(PRESETS))})"
            ) from None

    def with_options(self, **options: Any) -> Rules:
        """A copy with ``options`` changed; values may be strings as in the spec language.

        Setting ``ace=high_or_low`` on a game with ace worth 1 also makes the ace worth
        15, as seed 001's house rule says, unless ``ace_points`` is given too.  An
        option changed from the preset that would change nothing is refused (see
        :meth:`inert_options`).
        """
        if not options:
            return self  # frozen and checked: a new game of a bare preset copies nothing
        rules: Rules = self.replaced(options)
        rules._check_effect()
        return rules

    def one_round(self) -> Rules:
        """These rules for one round played alone (a learning environment's round
        episode, an OpenSpiel game): the match ends with its first round
        (``max_deals=1``, where the rules deal more than once) and without the
        match-end bonuses (Gin's game, line and shutout bonuses).

        >>> Rules.preset("gin_match").one_round().spec()
        'gin_match(max_deals=1, game_bonus=0, line_bonus=0, shutout_double=false)'
        """
        one: dict[str, object] = {"game_bonus": 0, "line_bonus": 0, "shutout_double": False}
        if self.deals != 1:  # a one-deal match needs no guard (it would change nothing)
            one["max_deals"] = 1
        return self.with_options(**one)

    def replaced(self, options: Mapping[str, Any]) -> Rules:
        """:meth:`with_options` without refusing options that change nothing: the rules
        as given, to ask :meth:`inert_options` about them."""
        known = {f.name: f for f in fields(self) if not f.name.startswith("_")}
        changes: dict[str, Any] = {}
        for key, raw in options.items():
            if key not in known or key == "name":
                near = get_close_matches(key.lower(), [k for k in known if k != "name"], 3, 0.7)
                raise RulesError(
                    f"unknown option {key!r}"
                    + (f" (did you mean {' or '.join(near)}?)" if near else "")
                )
            changes[key] = _coerce(key, known[key].type, raw)
        if (
            changes.get("ace") is Ace.HIGH_OR_LOW
            and "ace_points" not in changes
            and self.ace_points == 1
        ):
            changes["ace_points"] = 15
        if "deals" in changes and changes["deals"] is not None and "target_score" not in changes:
            changes["target_score"] = None
        if (
            "target_score" in changes
            and changes["target_score"] is not None
            and "deals" not in changes
        ):
            changes["deals"] = None
        if changes.get("contracts") and "deals" not in changes:
            # New contracts: one deal each, and the dealt sizes only if they still fit.
            words = len(changes["contracts"].split("/"))
            changes["deals"] = words
            changes.setdefault("target_score", None)
            sizes = changes.get("deal_sizes", self.deal_sizes)
            if sizes and len(sizes.split("/")) != words:
                changes.setdefault("deal_sizes", "")
        try:
            return dataclasses.replace(self, **changes)
        except TypeError as exc:  # pragma: no cover - guarded by the name check above
            raise RulesError(str(exc)) from exc

    @staticmethod
    def parse(spec: str, *, saved: bool = False) -> Rules:
        """Parse ``preset`` or ``preset(key=value, ...)``; JSON objects are accepted too.

        ``saved``: the spec comes from a saved game, record or position, where an
        option that changes nothing (:meth:`inert_options`) is accepted as it is, so
        a game saved before such options were refused still loads and plays the same.
        """
        _check_length(spec, "rules spec")
        text = spec.strip()
        if text.startswith("{"):
            return Rules.from_json(text, saved=saved)
        m = _SPEC_RE.fullmatch(text)
        if not m:
            raise RulesError(f"malformed rules spec {spec!r}: expected preset(key=value, ...)")
        rules = Rules.preset(m.group(1))
        body = (m.group(2) or "").strip()
        options: dict[str, str] = {}
        if body:
            for part in body.split(","):
                if "=" not in part:
                    raise RulesError(f"malformed option {part.strip()!r}: expected key=value")
                key, _, value = part.partition("=")
                key = key.strip()
                if key in options:
                    raise RulesError(f"option {key!r} given twice")
                options[key] = value.strip()
        return rules.replaced(options) if saved else rules.with_options(**options)

    @staticmethod
    def from_mapping(data: Mapping[str, Any], *, saved: bool = False) -> Rules:
        """Build from a mapping: an optional ``preset`` key plus options (``saved``: as
        in :meth:`parse`)."""
        opts = dict(data)
        name = opts.pop("preset", opts.pop("name", "basic"))
        if not isinstance(name, str):
            raise RulesError("preset must be a string")
        base = Rules.preset(name)
        return base.replaced(opts) if saved else base.with_options(**opts)

    @staticmethod
    def from_json(text: str, *, saved: bool = False) -> Rules:
        _check_length(text, "rules JSON")
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError) as exc:  # ValueError: a number past int's limit
            raise RulesError(f"bad rules JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise RulesError("rules JSON must be an object")
        return Rules.from_mapping(data, saved=saved)

    @staticmethod
    def from_toml(text: str) -> Rules:
        _check_length(text, "rules TOML")
        try:
            data = tomllib.loads(text)
        except (ValueError, RecursionError) as exc:  # TOMLDecodeError is a ValueError
            raise RulesError(f"bad rules TOML: {exc}") from exc
        table = data.get("rules", data)
        if not isinstance(table, dict):
            raise RulesError("[rules] must be a table")
        return Rules.from_mapping(table)

    def options(self) -> dict[str, Any]:
        """Every option as JSON-ready values (enum values as strings)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name.startswith("_") or f.name == "name":
                continue
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, StrEnum) else v
        return out

    def changed_options(self) -> dict[str, Any]:
        """The options that differ from this rules' preset."""
        base = Rules.preset(self.name).options() if self.name in PRESETS else {}
        return {k: v for k, v in self.options().items() if base.get(k, object()) != v}

    def spec(self) -> str:
        """The spec string that :meth:`parse` turns back into these rules.

        >>> Rules.parse("basic(multiple_melds=true)").spec()
        'basic(multiple_melds=true)'
        >>> Rules.parse("basic(deals=3)").spec()
        'basic(deals=3)'
        """
        changed = self.changed_options()
        # Setting one match length clears the other (see with_options): say it once.
        if changed.get("deals") is not None and changed.get("target_score", 0) is None:
            del changed["target_score"]
        if changed.get("target_score") is not None and changed.get("deals", 0) is None:
            del changed["deals"]
        if not changed:
            return self.name
        return f"{self.name}({', '.join(f'{k}={_render(v)}' for k, v in changed.items())})"

    def to_json(self) -> str:
        return json.dumps({"preset": self.name, **self.changed_options()}, sort_keys=True)


MAX_SPEC_LENGTH = 4096
"""The longest rules text read (spec, JSON or TOML): every option spelled out takes
under 1,500 characters, and a cap keeps a hostile string from costing time."""

_SPEC_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)[ \t\r\n]*(?:\((.*)\))?", re.S)
"""Matched against stripped text.  No two runs of whitespace may meet around an
optional group: a pattern like ``space* (group)? space*`` tries every split of a long
run of spaces, which takes quadratic time on a string that then fails to match."""


def _check_length(text: Any, what: str) -> None:
    if not isinstance(text, str):
        raise RulesError(f"a {what} is text, not {type(text).__name__}")
    if len(text) > MAX_SPEC_LENGTH:
        raise RulesError(f"{what} too long: {len(text)} characters (at most {MAX_SPEC_LENGTH})")


def _no_constant(name: str) -> Any:
    raise RulesError(f"bad rules JSON: {name} is not a number rules accept")


def _render(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _coerce(key: str, annotation: Any, raw: Any) -> Any:
    """Turn a spec/JSON/TOML value into the field's type, or raise RulesError."""
    ann = str(annotation)
    enum_types: dict[str, type[StrEnum]] = {
        e.__name__: e
        for e in (Ace, Scoring, Restock, RummyBonus, SetSuits, SwappedJoker, DiscardPickup,
                  OpeningScope)
    }  # fmt: skip
    text = raw.strip().strip("'\"").lower() if isinstance(raw, str) else None
    if ann in enum_types:
        enum = enum_types[ann]
        value = raw.value if isinstance(raw, StrEnum) else text
        try:
            return enum(str(value))
        except ValueError:
            raise RulesError(
                f"bad value {raw!r} for {key}: expected one of {', '.join(e.value for e in enum)}"
            ) from None
    if ann == "bool":
        if isinstance(raw, bool):
            return raw
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"bad value {raw!r} for {key}: expected true or false")
    if ann == "str":
        if not isinstance(raw, str):
            raise RulesError(f"bad value {raw!r} for {key}: expected text")
        return "".join(raw.split()).strip("'\"").lower()
    optional = "None" in ann
    if optional and (raw is None or text in ("none", "null", "")):
        return None
    if "int" in ann:
        if isinstance(raw, bool):
            raise RulesError(f"bad value {raw!r} for {key}: expected an integer")
        if isinstance(raw, int):
            return raw
        if isinstance(raw, float) and not raw.is_integer():
            raise RulesError(f"bad value {raw!r} for {key}: expected an integer")
        try:
            return int(text if text is not None else raw)
        except (TypeError, ValueError, OverflowError):
            raise RulesError(
                f"bad value {raw!r} for {key}: expected an integer"
                + (" or none" if optional else "")
            ) from None
    raise RulesError(f"option {key!r} cannot be set")  # pragma: no cover


BASIC = Rules()
"""Seed 001, standard rules: one deck, ace low and worth 1, one meld per turn, lay off
freely, going out without a discard, the discard pile turned over without shuffling,
the winner collects the others' hands."""

CLASSIC = Rules(
    name="classic",
    restock=Restock.SHUFFLE,
    scoring=Scoring.PENALTY,
)
"""Seed 000: one meld per turn, lay-offs, the discard pile shuffled when the stock runs
out, losers' hands added to their own totals, lowest total wins once someone reaches
the target."""

CG101 = Rules(
    name="cg101",
    multiple_melds=True,
    restock=Restock.SHUFFLE_KEEP_TOP,
    rummy_bonus=RummyBonus.DOUBLE,
    target_score=150,
)
"""Seed 002: played to 150, any number of melds, going rummy doubles the score, the
discard pile reshuffled except its top card."""

RAMI51 = Rules(
    name="rami51",
    decks=2,
    jokers=2,
    max_players=5,
    hand_size=13,
    ace=Ace.HIGH_OR_LOW,
    jokers_per_meld=1,
    multiple_melds=True,
    layoff_after_own_meld=True,
    final_discard=True,
    discard_pickup=DiscardPickup.MUST_USE,
    joker_swap=True,
    swapped_joker=SwappedJoker.MUST_MELD,
    take_from_meld=True,
    opening_minimum=51,
    restock=Restock.SHUFFLE,
    scoring=Scoring.PENALTY,
    ace_points=11,
    joker_points=20,
    never_melded_penalty=100,
    one_turn_out_bonus=-200,
    target_score=500,
)
"""Seed 003: two 54-card decks, 13 cards, 2-5 players, one joker per meld, a 51-point
opening, joker swaps, taking from melds of more than three cards, penalty scoring with
ace 11 and joker 20, +100 for never melding, -200 for going out in one turn first."""

GIN = Rules(
    name="gin",
    max_players=2,
    knock_card=10,
    meld_in_play=False,
    first_upcard_option=True,
    wall=2,
    discard_taken_card=True,
    repeat_void=True,
    max_upcard_draws=50,
    max_meld_size=5,
    deals=1,
    target_score=None,
)
"""Gin Rummy as OpenSpiel's ``gin_rummy`` plays it with its default parameters (after
the Gin Rummy Association's rules), but for three deliberate differences that
docs/rules.md lists (lay-offs chain along a run as standard Gin allows): 10 cards
each, the first-upcard option, knocking with deadwood of 10 or less, the defender lays
off after a knock but not after gin, gin bonus 25, undercut bonus 25, the hand void
when 2 stock cards remain.  One hand."""

GIN_MATCH = dataclasses.replace(
    GIN,
    name="gin_match",
    deals=None,
    target_score=100,
    game_bonus=100,
    line_bonus=25,
    shutout_double=True,
)
"""A Gin match to 100: 100 for winning the game, 25 per hand won (the box or line
bonus), and the winner's total doubled on a shutout (Pagat and Hoyle's American
rules)."""

RUM500 = Rules(
    name="rum500",
    max_players=4,
    ace=Ace.HIGH_OR_LOW,
    ace_points=15,
    multiple_melds=True,
    discard_pickup=DiscardPickup.MUST_USE,
    deep_discard=True,
    meld_scoring=True,
    max_restocks=0,
    target_score=500,
)
"""500 Rum after HowStuffWorks' "How to Play 500 Rum": one 52-card deck for two to
four players, ten cards each for two and seven for more, aces high (15) or low (1),
any number of melds, any card of the discard pile drawn with every card above it if
it is used at once, every meld and lay-off scored for the player who lays it, cards
left in hand counted against, the hand over when the stock runs out, play to 500."""

RUM500_BIG = dataclasses.replace(
    RUM500, name="rum500_big", decks=2, min_players=5, max_players=8, hand_size=7
)
"""500 Rum for five to eight players: two decks, seven cards each (same reference)."""

KALOOKI = Rules(
    name="kalooki",
    decks=2,
    jokers=2,
    max_players=4,
    hand_size=13,
    ace=Ace.HIGH_OR_LOW,
    jokers_per_meld=2,
    multiple_melds=True,
    layoff_after_own_meld=True,
    final_discard=True,
    discard_pickup=DiscardPickup.MUST_USE,
    joker_swap=True,
    swapped_joker=SwappedJoker.MUST_MELD,
    set_joker_both_suits=True,
    opening_minimum=40,
    restock=Restock.SHUFFLE_KEEP_TOP,
    scoring=Scoring.PENALTY,
    ace_points=11,
    joker_points=15,
    target_score=150,
)
"""Kalooki 40 after Ludopoli's "Kalooki 40 Rules": two decks and four jokers, 2-4
players, 13 cards, a first meld of at least 40 points (ace 11, pictures 10, a joker
the card it stands for), a taken discard used at once, a table joker exchanged for the
card it stands for and used again at once, the pile reshuffled but for its top card,
the last card discarded to go out, penalty points (ace 11, joker 15); lowest total
wins once someone reaches 150 (the match length is this project's choice)."""

KALOOKI_BIG = dataclasses.replace(
    KALOOKI, name="kalooki_big", decks=3, min_players=5, max_players=6
)
"""Kalooki 40 for five or six players: three decks with their jokers (Wikipedia,
"Kalooki": "5-6" players, "3" packs), every other rule as ``kalooki``."""

INDIAN = Rules(
    name="indian",
    decks=2,
    jokers=1,
    max_players=6,
    hand_size=13,
    ace=Ace.HIGH_OR_LOW,
    meld_in_play=False,
    restock=Restock.SHUFFLE_KEEP_TOP,
    scoring=Scoring.WINNER_COLLECTS,
    ace_points=10,
    joker_points=0,
    declare=True,
    wild_cut=True,
    first_drop=20,
    middle_drop=40,
    max_hand_points=80,
    wrong_show=80,
    deals=1,
    target_score=None,
)
"""Indian Rummy, 13 cards, points format (docs/rules.md, "## Indian Rummy"): two
53-card decks (one printed joker each), two to six players, 13 cards each, a wild rank
cut after the deal, a declaration of all 13 cards in melds with two sequences, one of
them pure, the first drop 20 and the middle drop 40, a hand counted at most 80 (ace
and pictures 10, jokers 0), a wrong show costing 80; one deal, the declarer collecting
the others' points."""

INDIAN_POOL101 = dataclasses.replace(
    INDIAN,
    name="indian_pool101",
    scoring=Scoring.PENALTY,
    deals=None,
    target_score=101,
    elimination=True,
)
"""Pool 101: penalty points add up deal after deal, a player reaching 101 is out, and
the last player left wins (drops 20 and 40)."""

INDIAN_POOL201 = dataclasses.replace(
    INDIAN_POOL101, name="indian_pool201", target_score=201, first_drop=25, middle_drop=50
)
"""Pool 201: out at 201, drops 25 and 50."""

INDIAN_DEALS = dataclasses.replace(INDIAN, name="indian_deals", scoring=Scoring.PENALTY, deals=2)
"""Deals rummy: a fixed number of deals (2 here; ``deals=3`` is the other usual
length), the lowest total winning."""
CONTRACT = Rules(
    name="contract",
    decks=2,
    jokers=1,
    min_players=3,
    max_players=4,
    hand_size=12,
    ace=Ace.HIGH_OR_LOW,
    set_suits=SetSuits.ANY,
    jokers_per_meld=2,
    multiple_melds=True,
    layoff_after_own_meld=True,
    restock=Restock.SHUFFLE,
    scoring=Scoring.PENALTY,
    ace_points=15,
    joker_points=15,
    target_score=None,
    deals=7,
    contracts="ss/sr/rr/sss/ssr/srr/rrr",
    deal_sizes="10/10/10/10/12/12/12",
    min_run=4,
    buys_per_round=3,
    buy_penalty=1,
)
"""Contract Rummy (Shanghai) after Bicycle Cards' "Contract Rummy" and Wikipedia's
"Contract rummy": three or four players, two decks with a joker each, seven deals of
10, 10, 10, 10, 12, 12 and 12 cards whose contracts are two sets; a set and a run;
two runs; three sets; two sets and a run; a set and two runs; three runs (sets of
three or more of a rank, runs of four or more in a suit, aces high or low), going down
only with the whole contract, lay-offs only after it, the top discard bought out of
turn with a penalty card from the stock (three buys per deal, this project's choice),
penalty scoring (ace and joker 15, pictures 10), lowest total after seven deals wins."""

CONTRACT_BIG = dataclasses.replace(
    CONTRACT, name="contract_big", decks=3, min_players=5, max_players=8
)
"""Contract Rummy for five to eight players: "five or more players use a triple pack"
(Bicycle Cards), a joker each; every other rule as ``contract``."""

RUMMIKUB = Rules(
    name="rummikub",
    decks=2,
    jokers=1,
    min_players=2,
    max_players=4,
    hand_size=14,
    jokers_per_meld=2,
    multiple_melds=True,
    opening_minimum=30,
    joker_points=30,
    target_score=None,
    deals=1,
    free_table=True,
)
"""Rummikub after the publisher's rules (rummikub.org, "Rummikub Game Play"; docs/rules.md,
"## Rummikub"): 106 tiles, two copies of 1 to 13 in four colours (the two decks' suits,
ace the 1, never after the 13) and two jokers; two to four players, 14 tiles each; a turn
plays tiles, the first time sets of one's own worth 30 or more, later rearranging the
whole table so long as every set is valid at the turn's end, or draws one tile; the
player who empties the rack wins the total of the others' racks (a joker 30)."""

PRESETS: dict[str, Rules] = {
    "basic": BASIC,
    "classic": CLASSIC,
    "cg101": CG101,
    "rami51": RAMI51,
    "gin": GIN,
    "gin_match": GIN_MATCH,
    "rum500": RUM500,
    "rum500_big": RUM500_BIG,
    "kalooki": KALOOKI,
    "kalooki_big": KALOOKI_BIG,
    "indian": INDIAN,
    "indian_pool101": INDIAN_POOL101,
    "indian_pool201": INDIAN_POOL201,
    "indian_deals": INDIAN_DEALS,
    "contract": CONTRACT,
    "contract_big": CONTRACT_BIG,
    "rummikub": RUMMIKUB,
}

PRESET_SOURCES: dict[str, str] = {
    "basic": "seed 001 'Rules For Rummy', standard rules; every 'Variation' is an option",
    "classic": "seed 000, the classic penalty-scored rules",
    "cg101": "seed 002 'Card Game 101 #4: Rummy', played to 150 with rummy doubling",
    "rami51": "seed 003, French Rami with two decks, jokers and a 51-point opening",
    "gin": "Gin Rummy as OpenSpiel's gin_rummy (GRA rules): knock at 10, gin 25, undercut 25",
    "gin_match": "Gin Rummy match to 100 with game, line (box) and shutout bonuses",
    "rum500": "500 Rum (HowStuffWorks 'How to Play 500 Rum'), two to four players, to 500",
    "rum500_big": "500 Rum for five to eight players with two decks (same reference)",
    "kalooki": "Kalooki 40 (Ludopoli 'Kalooki 40 Rules'): two decks, four jokers, 40 to open",
    "kalooki_big": "Kalooki 40 for five or six players with three decks (Wikipedia 'Kalooki')",
    "indian": "Indian Rummy, 13 cards, points (RummyCulture, Playship): wild cut, drops, cap 80",
    "indian_pool101": "Indian pool 101 (Playship 'Pool Rummy'): out at 101, drops 20 and 40",
    "indian_pool201": "Indian pool 201 (Playship 'Pool Rummy'): out at 201, drops 25 and 50",
    "indian_deals": "Indian deals rummy: two deals, lowest total wins (Playship 'Indian Rummy')",
    "contract": "Contract Rummy / Shanghai (Bicycle Cards, Wikipedia): 7 contracts, buying",
    "contract_big": "Contract Rummy for five to eight players with three decks (Bicycle Cards)",
    "rummikub": "Rummikub (rummikub.org 'Game Play'): 106 tiles, 14 each, first meld 30",
}
