"""Quick pairing's rules: who may be paired with whom, now.

Pure computation on the waiting seeks (the rows are web/seek_store.py's, the queue's
life web/seeks.py's).  Seeks are paired only with seeks of the same pool: the same
game, player count, turn timer and kind (rated or casual).  In a rated pool the
players' ratings (their ``mu`` at the game, web/ratings.py) must lie within a window
that starts at ``pair_window`` and widens by ``pair_window_step`` every
``pair_window_every`` seconds a seek waits, up to ``pair_window_max``
(web/settings.py); a group's spread must fit the narrowest window of its members, so
nobody is paired wider than their own wait allows.  Casual pools pair in the order
the seeks came.  A seek that opted in to a bot and has waited ``pair_bot_after``
seconds without a group is given the bot's seats instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .settings import Settings


@dataclass(frozen=True, slots=True)
class Waiting:
    """A seek that can be paired now."""

    id: str
    game: str
    players: int
    timer: float
    rated: bool
    rating: float
    created: float
    bot: bool

    @property
    def pool(self) -> tuple[str, int, float, bool]:
        return (self.game, self.players, self.timer, self.rated)


@dataclass(frozen=True, slots=True)
class Group:
    """Seeks to seat at one table, in seat order; ``bots`` seats more for medium bots."""

    seeks: tuple[str, ...]
    bots: int = 0


def window(settings: Settings, waited: float) -> float:
    """How far apart (in ``mu``) a seek that has waited ``waited`` seconds accepts
    opponents' ratings."""
    steps = math.floor(max(0.0, waited) / settings.pair_window_every)
    wide = settings.pair_window + settings.pair_window_step * steps
    return min(settings.pair_window_max, wide)


def match(settings: Settings, waiting: Sequence[Waiting], now: float) -> list[Group]:
    """The groups to seat now; each seek in one group at most.

    The longest-waiting seek of a pool goes first, with the others of its pool
    nearest its rating (then longest waiting) that keep the group within every
    member's window."""
    groups: list[Group] = []
    used: set[str] = set()
    ordered = sorted(waiting, key=lambda w: (w.created, w.id))
    for seek in ordered:
        if seek.id in used:
            continue
        mates = [w for w in ordered if w.id not in used and w.id != seek.id and w.pool == seek.pool]
        if seek.rated:
            mates.sort(key=lambda w: (abs(w.rating - seek.rating), w.created, w.id))
        group = [seek]
        for w in mates:
            if len(group) == seek.players:
                break
            if not seek.rated or _fits([*group, w], settings, now):
                group.append(w)
        if len(group) == seek.players:
            used.update(w.id for w in group)
            groups.append(Group(tuple(w.id for w in group)))
        elif seek.bot and now - seek.created >= settings.pair_bot_after:
            used.add(seek.id)
            groups.append(Group((seek.id,), bots=seek.players - 1))
    return groups


def _fits(group: Sequence[Waiting], settings: Settings, now: float) -> bool:
    spread = max(w.rating for w in group) - min(w.rating for w in group)
    return spread <= min(window(settings, now - w.created) for w in group)
