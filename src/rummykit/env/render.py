"""Text rendering of the public table, the only thing the environments draw.

A render is seen by whoever watches, not by one player, so it shows only what every
player sees: scores, whose turn, hand sizes, the stock size, the discard pile and the
melds on the table.  No hand is ever printed, so rendering cannot leak hidden cards
into a learner's input or a log.
"""

from __future__ import annotations

from ..cards import format_cards
from ..state import GameState


def render_public(s: GameState, agents: list[str]) -> str:
    """The public table of ``s`` as a few lines of text.

    >>> from rummykit import new_game
    >>> print(render_public(new_game("gin", seed=1), ["player_0", "player_1"]))
    round 1, turn 1: player_0 to act (FIRST_UPCARD)
    scores: player_0 0, player_1 0
    cards held: player_0 10, player_1 10
    stock 31; discard pile (top last): QS
    table: empty
    """
    n = len(agents)
    who = "match over" if s.is_over() else f"{agents[s.current]} to act ({s.phase.name})"
    lines = [
        f"round {s.round_no}, turn {s.turn}: {who}",
        "scores: " + ", ".join(f"{agents[p]} {s.scores[p]}" for p in range(n)),
        "cards held: " + ", ".join(f"{agents[p]} {s.hands[p].bit_count()}" for p in range(n)),
        f"stock {len(s.stock)}; discard pile (top last): {format_cards(s.discard) or '-'}",
    ]
    if not s.table:
        lines.append("table: empty")
    else:
        lines.append("table:")
        for k, tm in enumerate(s.table):
            lines.append(f"  {k}: {agents[tm.owner]}: {format_cards(tm.cards)}")
    return "\n".join(lines)


def render(mode: str | None, s: GameState, agents: list[str]) -> str | None:
    """Both environments' ``render()``: the public table returned for ``"ansi"``,
    printed for ``"human"``, nothing without a render mode."""
    if mode is None:
        return None
    text = render_public(s, agents)
    if mode == "human":
        print(text)
        return None
    return text


__all__ = ["render", "render_public"]
