"""Before-and-after engine rates in CPU time, for one source tree per process.

    python benchmarks/engine_ab.py /work/main/src     # prints one JSON line of rates
    python benchmarks/engine_ab.py src

Run it alternately on the two trees (main's and a branch's), a few rounds each, and
compare the best of each: CPU time, not wall time, because the machine is shared, and
alternating processes, because the load drifts.  Rates are actions per second of
random playouts of ``benchmarks/engine.py``'s matches through views and on the state
alone, and Gin through ``legal_actions``/``apply_action`` as ``benchmarks/peers.py``
plays it (docs/benchmarks.md, "The variant hooks (Speed)").
"""

from __future__ import annotations

import json
import random
import sys
import time

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else "src")

from rummykit import new_game  # after the path: the tree to measure comes first
from rummykit.bots import RandomBot, play_match

CASES = (("basic", 2, 10), ("basic", 4, 24), ("classic", 2, 12), ("rami51", 2, 6),
         ("kalooki", 2, 6))  # fmt: skip
GIN_HANDS = 200


def views(preset: str, players: int, games: int) -> float:
    actions = 0
    start = time.process_time()
    for seed in range(games):
        _s, stats = play_match(preset, players, [RandomBot() for _ in range(players)], seed)
        actions += stats.actions
    return actions / (time.process_time() - start)


def engine(preset: str, players: int, games: int) -> float:
    actions = 0
    start = time.process_time()
    for seed in range(games):
        s = new_game(preset, players, seed)
        master = random.Random(seed)
        rngs = [random.Random(master.getrandbits(64)) for _ in range(players)]
        while not s.is_over():
            s.apply(rngs[s.current].choice(s.legal_moves()))
            actions += 1
    return actions / (time.process_time() - start)


def gin(hands: int) -> float:
    actions = 0
    start = time.process_time()
    for seed in range(hands):
        s = new_game("gin", 2, seed)
        rng = random.Random(seed)
        while not s.is_over():
            s.apply_action(rng.choice(s.legal_actions()))
            actions += 1
    return actions / (time.process_time() - start)


def main() -> None:
    out: dict[str, float] = {}
    for preset, players, games in CASES:
        out[f"{preset} {players}p views"] = max(views(preset, players, games) for _ in range(2))
        out[f"{preset} {players}p engine"] = max(engine(preset, players, games) for _ in range(2))
    out["gin 2p actions"] = max(gin(GIN_HANDS) for _ in range(2))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
