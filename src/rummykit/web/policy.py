"""The server's rules policy: which rule sets strangers may create tables with.

The library accepts every playable rule set (:class:`~rummykit.rules.Rules` checks
that a game is finite and sane), but a public server pays for each table's hands,
match length and meld tables.  A 52-card hand, three decks shared by two players or
ten thousand turns a deal are all playable, and each makes a single table cost
minutes of CPU or gigabytes of memory.  The bounds below, each a setting
(docs/protocol.md, "Limits"), admit every preset with its own options and the usual
house rules, and refuse the extremes with a 400 that names the option.
"""

from __future__ import annotations

from ..melds import meld_table_built, shape_key
from ..rules import PRESETS, Rules
from .limits import AddressLimiter
from .settings import Settings


class PolicyError(Exception):
    """Rules this server does not host; the message names the option and the bound."""


def check_rules(rules: Rules, seats: int, s: Settings) -> None:
    """Refuse ``rules`` at a table of ``seats`` players past the settings' bounds
    (each bound 0: no limit)."""
    largest = rules.largest_deal(seats)
    if s.policy_max_hand and largest > s.policy_max_hand:
        option = "deal_sizes" if rules.deal_sizes else "hand_size"
        raise PolicyError(
            f"{option}: this server deals at most {s.policy_max_hand} cards a hand, not {largest}"
        )
    if s.policy_cards_per_seat and rules.deck_size > s.policy_cards_per_seat * seats:
        raise PolicyError(
            f"decks: this server allows at most {s.policy_cards_per_seat} cards per seat; "
            f"{rules.decks} decks of {rules.deck_size // rules.decks} cards for {seats} "
            f"seats are {rules.deck_size / seats:.0f} each"
        )
    bounds = (
        ("max_turns", rules.max_turns, s.policy_max_turns),
        ("max_restocks", rules.max_restocks, s.policy_max_restocks),
        ("buys_per_round", rules.buys_per_round, s.policy_max_buys),
        ("max_deals", rules.max_deals, s.policy_max_deals),
    )
    for name, value, bound in bounds:
        if bound and value is not None and value > bound:
            raise PolicyError(f"{name}: this server allows at most {bound}, not {value}")


_PRESET_SHAPES = frozenset(shape_key(r) for r in PRESETS.values())
"""The catalogues the presets use: never counted as new."""


class NewRuleSets:
    """The server-wide budget of new meld catalogues
    (``Settings.new_rule_sets_per_minute``): a rule set whose catalogue no preset
    shares and none is built yet takes one."""

    def __init__(self, per_minute: float) -> None:
        self.limiter = AddressLimiter(per_minute, max_addresses=1)

    def allow(self, rules: Rules) -> bool:
        """False when ``rules`` need a new catalogue and the budget is spent."""
        if not self.limiter.enabled or shape_key(rules) in _PRESET_SHAPES:
            return True
        return meld_table_built(rules) or self.limiter.take("server")
