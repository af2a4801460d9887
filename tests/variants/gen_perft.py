"""Write ``tests/variants/fixtures/perft.json`` from the current engine.

Run ``python tests/variants/gen_perft.py`` after a deliberate change to move generation, and
review the diff of the JSON: every changed count is a changed rule.  Not a test
module (pytest collects only ``test_*.py``); ``tests/variants/test_perft.py`` imports
:func:`perft_line` from here so both play the lines the same way.

A *line* starts a match from ``(rules, players, seed)`` and plays ``steps`` moves,
choosing at step ``i`` the legal move at index ``(i * 7919 + i // 3) % len(legal)``
(the ``i // 3`` term varies the choice at two-move draw steps); it
records the number of legal moves before every step, and at the end the number of
move sequences of length ``PERFT_DEPTH`` from the final position (a perft count).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rummykit import GameState, new_game

FIXTURE = Path(__file__).parent / "fixtures" / "perft.json"
PERFT_DEPTH = 3
STEPS = 120
CASES: list[tuple[str, int, int]] = [
    (spec, players, seed)
    for spec, counts in (
        ("basic", (2, 4, 6)),
        ("classic", (2, 4, 6)),
        ("cg101", (2, 4, 6)),
        ("rami51", (2, 4, 5)),
    )
    for players, seed in zip(counts, (1, 2, 3), strict=True)
] + [
    ("basic(multiple_melds=true, final_discard=true, ace=high_or_low)", 3, 4),
    ("rami51(discard_pickup=free, swapped_joker=keep, opening_minimum=30)", 3, 5),
    ("classic(decks=2, jokers=2, set_suits=any, jokers_per_meld=1, max_players=4)", 2, 6),
    ("rum500", 2, 7),
    ("rum500", 4, 8),
    ("rum500_big", 6, 9),
    ("kalooki", 2, 10),
    ("kalooki", 4, 11),
    ("indian", 2, 12),
    ("indian", 6, 13),
    ("indian(first_drop=0, middle_drop=0)", 3, 14),
    ("indian_pool101", 4, 15),
    ("indian_pool201", 3, 16),
    ("indian_deals", 2, 17),
    ("contract", 3, 12),
    ("contract", 4, 13),
    ("contract(buys_per_round=1, buy_penalty=2, layoff_wait=true)", 3, 14),
    ("kalooki_big", 6, 18),
    ("contract_big", 5, 19),
    ("contract_big", 8, 20),
]


def choice(step: int, n: int) -> int:
    """The index of the move played at ``step`` among ``n`` legal moves."""
    return (step * 7919 + step // 3) % n


def perft(s: GameState, depth: int) -> int:
    """The number of move sequences of length ``depth`` (fewer where the match ends)."""
    legal = s.legal_moves()
    if depth == 0 or not legal:
        return 1
    if depth == 1:
        return len(legal)
    total = 0
    for m in legal:
        c = s.clone()
        c.apply(m)
        total += perft(c, depth - 1)
    return total


def perft_line(spec: str, players: int, seed: int, steps: int = STEPS) -> dict[str, Any]:
    s = new_game(spec, players=players, seed=seed)
    counts: list[int] = []
    for step in range(steps):
        legal = s.legal_moves()
        counts.append(len(legal))
        if not legal:
            break
        s.apply(legal[choice(step, len(legal))])
    return {
        "rules": spec,
        "players": players,
        "seed": seed,
        "steps": steps,
        "counts": counts,
        "actions": list(s.history),
        "final": {
            "round_no": s.round_no,
            "phase": s.phase.name,
            "current": s.current,
            "hand_sizes": [s.hand_size(p) for p in range(players)],
            "stock": len(s.stock),
            "discard": len(s.discard),
            "table": len(s.table),
            "scores": list(s.scores),
        },
        f"perft{PERFT_DEPTH}": perft(s, PERFT_DEPTH),
    }


def main() -> int:
    data = {
        "about": (
            "Legal-move counts along fixed lines of play; regenerate with "
            "`python tests/variants/gen_perft.py` and review the diff."
        ),
        "choice": "(step * 7919 + step // 3) % len(legal)",
        "lines": [perft_line(spec, n, seed) for spec, n, seed in CASES],
    }
    FIXTURE.parent.mkdir(exist_ok=True)
    # one line of play per text line, so a diff shows which lines changed
    lines = ",\n  ".join(json.dumps(line) for line in data["lines"])
    head = json.dumps({k: v for k, v in data.items() if k != "lines"})[:-1]
    FIXTURE.write_text(f'{head},\n "lines": [\n  {lines}\n ]\n}}\n', encoding="utf-8")
    print(f"wrote {FIXTURE} ({len(data['lines'])} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
