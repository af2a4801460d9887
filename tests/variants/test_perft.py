"""Exact legal-move counts: recorded lines of play, and positions counted by hand.

``fixtures/perft.json`` holds, for each preset and a few seeds and player counts,
the number of legal moves before every step of a fixed line of play and a depth-3
perft count at its end (see ``gen_perft.py``, which wrote it).  Any change to move
generation shows up here as a changed count at a known step.

The hand-built positions below are counted by hand, move kind by move kind, from
the rules each count depends on; the comments give the arithmetic.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gen_perft import FIXTURE, PERFT_DEPTH, perft, perft_line
from rummykit import (
    DISCARD,
    DRAW_DISCARD,
    DRAW_STOCK,
    LAYOFF,
    MELD,
    SWAP,
    TAKE,
    GameState,
    Move,
    Phase,
    new_game,
)
from rummykit.cards import face_of, mask_of, parse_cards, parse_face
from rummykit.melds import RUN, SET
from rummykit.moves import cell_code
from rummykit.table import TableMeld

DATA: dict[str, Any] = json.loads(Path(FIXTURE).read_text(encoding="utf-8"))
LINES: list[dict[str, Any]] = DATA["lines"]


def test_fixture_covers_every_preset() -> None:
    specs = {line["rules"] for line in LINES}
    assert {
        "basic",
        "classic",
        "cg101",
        "rami51",
        "rum500",
        "rum500_big",
        "kalooki",
        "kalooki_big",
        "contract",
        "contract_big",
    } <= specs


@pytest.mark.parametrize(
    "line", LINES, ids=[f"{x['rules']}-{x['players']}p-seed{x['seed']}" for x in LINES]
)
def test_recorded_lines(line: dict[str, Any]) -> None:
    got = perft_line(line["rules"], line["players"], line["seed"], line["steps"])
    for step, (want, have) in enumerate(zip(line["counts"], got["counts"], strict=False)):
        assert have == want, f"step {step}: {have} legal moves, fixture says {want}"
    assert got["counts"] == line["counts"]
    assert got["actions"] == line["actions"]
    assert got["final"] == line["final"]
    key = f"perft{PERFT_DEPTH}"
    assert got[key] == line[key]


# -- hand-built positions ------------------------------------------------------------------
def position(
    spec: str,
    hand: str,
    table: list[tuple[int, str]],
    *,
    opened: bool = False,
    taken: str | None = None,
) -> GameState:
    """Player 0 to play after drawing, holding ``hand``, with ``table`` melds given as
    ``(owner, "5H 6H JK=7H 8H")``.  Other cards stay in the other hand and the stock
    (only the move counts matter here)."""
    s = new_game(spec, players=2, seed=0)
    t = s.game.melds
    hand_cards = parse_cards(hand)
    used = set(hand_cards)
    metas: list[TableMeld] = []
    for owner, text in table:
        cells: list[int] = []
        jm = 0
        cards: list[int] = []
        for i, tok in enumerate(text.split()):
            joker = tok.startswith("JK=")
            face = parse_face(tok[3:] if joker else tok)
            cells.append(face)
            jm |= joker << i
            options = (52, 53, 106, 107) if joker else (face, face + 54)
            card = next(c for c in options if c not in used)
            used.add(card)
            cards.append(card)
        kind = SET if len({c % 13 for c in cells}) == 1 else RUN
        key = cells[0] % 13 if kind == SET else cells[0] // 13
        index = t.find(kind, key, tuple(cells), jm)
        assert index >= 0, f"not a meld: {text}"
        metas.append(TableMeld(owner, index, tuple(cards)))
    s.phase = Phase.PLAY
    s.current = 0
    s.hands = [mask_of(hand_cards), 0]
    s.known = [0, 0]
    s.table = metas
    s.melded = [opened, bool(table)]
    s.opened = [opened, bool(table)]
    s.laid = [opened, bool(table)]
    s.taken = -1
    if taken is not None:
        s.taken = next(c for c in hand_cards if face_of(c) == parse_face(taken))
        s.known[0] = 1 << s.taken
    s.pending = -1
    s.pending_kind = 0
    s.melds_this_turn = 0
    s.open_points = 0
    s.open_pure = False
    s._legal = None
    return s


def kinds(s: GameState) -> dict[str, int]:
    names = {MELD: "meld", LAYOFF: "layoff", SWAP: "swap", TAKE: "take", DISCARD: "discard"}
    names |= {DRAW_STOCK: "draw", DRAW_DISCARD: "draw"}
    return dict(Counter(names[m.kind] for m in s.legal_moves()))


def describe_melds(s: GameState) -> set[str]:
    t = s.game.melds
    return {t.describe(m.a) for m in s.legal_moves() if m.kind == MELD}


def code(card: str, ace_high: bool = False) -> int:
    f = parse_face(card)
    return cell_code(f // 13, 13 if ace_high else f % 13)


BASIC_TABLE = [(1, "5S 6S 7S"), (1, "KD KH KS")]


def test_basic_hand_counted_by_hand() -> None:
    """Seed 001 standard rules after a draw from the stock.

    Hand 3H 4H 5H 6H 9S 9C 9D KC 2D:
    * melds (seed 000: "3+ consecutive cards of a matching suit", "3 or 4 same-ranking
      cards"): 3H-4H-5H, 4H-5H-6H, 3H-4H-5H-6H, 9C-9D-9S = 4;
    * lay-offs (seed 000: "To a set of a 10 of spades, 10 of diamonds and 10 of hearts,
      a player could add a 10 of clubs"): KC on the kings; nothing holds 4S or 8S = 1;
    * discards: 9 different cards = 9.  Total 14.
    """
    s = position("basic", "3H 4H 5H 6H 9S 9C 9D KC 2D", BASIC_TABLE)
    assert kinds(s) == {"meld": 4, "layoff": 1, "discard": 9}
    assert describe_melds(s) == {"3H 4H 5H", "4H 5H 6H", "3H 4H 5H 6H", "9C 9D 9S"}
    assert Move(LAYOFF, 1, code("KC"), 0) in s.legal_moves()
    assert len(s.legal_moves()) == 14

    # seed 000: "Players can only put down one meld per turn": after the long run, only
    # the lay-off and the 5 discards remain.
    run = next(m for m in s.legal_moves() if s.game.melds.describe(m.a) == "3H 4H 5H 6H")
    s.apply(run)
    assert kinds(s) == {"layoff": 1, "discard": 5}


def test_basic_hand_after_taking_the_discard() -> None:
    """Seed 001: "if you chose to draw from the discard pile, you may not discard the same
    card you drew": the same hand with KC taken from the pile has 8 discards, and the
    KC may still be laid off.  4 + 1 + 8 = 13."""
    s = position("basic", "3H 4H 5H 6H 9S 9C 9D KC 2D", BASIC_TABLE, taken="KC")
    assert kinds(s) == {"meld": 4, "layoff": 1, "discard": 8}
    assert Move(DISCARD, parse_face("KC")) not in s.legal_moves()


def test_basic_ace_rules_counted_by_hand() -> None:
    """Ace low (seed 001: "may only ever be used in a run of ace, two, and three") against
    the house rule ace high or low ("queen, kind, and ace").

    Hand QH KH AH 2H 3H JC, table 8C 9C TC.
    * ace low: melds AH-2H-3H = 1; lay-off JC on 8C-9C-TC = 1; discards 6.  Total 8.
    * high or low: also QH-KH-AH = 2 melds (K-A-2 and Q-K-A-2 never); total 9.
    """
    hand = "QH KH AH 2H 3H JC"
    low = position("basic", hand, [(1, "8C 9C TC")])
    assert kinds(low) == {"meld": 1, "layoff": 1, "discard": 6}
    high = position("basic(ace=high_or_low)", hand, [(1, "8C 9C TC")])
    assert kinds(high) == {"meld": 2, "layoff": 1, "discard": 6}
    assert describe_melds(high) == {"AH 2H 3H", "QH KH AH"}


def test_basic_layoff_of_high_ace() -> None:
    """House rule ace high or low: an ace extends J-Q-K upwards (cell 13) and 2-3-4
    downwards (cell 0).  Hand AH AS 5D: lay-offs 2, discards 3."""
    s = position("basic(ace=high_or_low)", "AH AS 5D", [(1, "JH QH KH"), (1, "2S 3S 4S")])
    assert kinds(s) == {"layoff": 2, "discard": 3}
    legal = s.legal_moves()
    assert Move(LAYOFF, 0, code("AH", ace_high=True), 0) in legal
    assert Move(LAYOFF, 1, code("AS"), 0) in legal


def test_rami_opening_counted_by_hand() -> None:
    """Seed 003: "The first player to place a meld must have a combination that's worth at
    least 51 points" (each player's first melds, RULES-NOTES 8), lay-offs only after
    opening (``layoff_after_own_meld``).

    Hand JH QH KH 7C 7D 7S 2D 5S, not opened, empty table: JH-QH-KH is worth 30 and
    7C-7D-7S 21, together 51, so either may start the opening = 2 melds; 8 discards (no
    opening begun yet).  Total 10.  After the run only the set can follow (no discard
    while the opening is short); after both, the 2 leftover cards may be discarded.
    """
    s = position("rami51", "JH QH KH 7C 7D 7S 2D 5S", [])
    assert kinds(s) == {"meld": 2, "discard": 8}
    assert describe_melds(s) == {"JH QH KH", "7C 7D 7S"}
    run = next(m for m in s.legal_moves() if s.game.melds.describe(m.a) == "JH QH KH")
    s.apply(run)
    assert kinds(s) == {"meld": 1}
    s.apply(s.legal_moves()[0])
    assert s.opened[0]
    assert kinds(s) == {"discard": 2}


def test_rami_opening_out_of_reach() -> None:
    """The same hand without the 7S: 30 points of run can never reach 51, so no meld is
    legal at all (RULES-NOTES 8), only the 7 discards."""
    s = position("rami51", "JH QH KH 7C 7D 2D 5S", [])
    assert kinds(s) == {"discard": 7}


RAMI_TABLE = [(1, "5H 6H JK=7H 8H"), (1, "9C 9D 9S"), (0, "2S 3S 4S 5S")]


def test_rami_opened_hand_counted_by_hand() -> None:
    """Opened player, hand 7H 9H 6S KD, no joker.

    * melds: none (no three cards of a run or a set) = 0;
    * lay-offs: 9H on 5H-8H, 9H on the nines, 6S on 2S-5S = 3;
    * swap (seed 003: "retrieve a Joker if they are going to replace it with the card it
      was representing"): 7H for the joker, but the freed joker must go into a new meld
      this turn (RULES-NOTES 4) and 9H 6S KD + joker make none = 0;
    * take (seed 003: "more than three cards", "immediately used to form a new meld";
      RULES-NOTES 9: what remains must be a meld): from 5H 6H JK 8H the 8H (7H-8H-9H)
      = 1; the 5H fits no meld; 2S or 5S from the spades fit none; the nines have only
      three cards = 1;
    * discards: 4.  Total 8.
    """
    s = position("rami51", "7H 9H 6S KD", RAMI_TABLE, opened=True)
    assert kinds(s) == {"layoff": 3, "take": 1, "discard": 4}
    assert Move(TAKE, 0, code("8H")) in s.legal_moves()


def test_rami_opened_hand_with_joker_counted_by_hand() -> None:
    """The same with a joker in hand: 7H 9H 6S KD JK.

    * melds: 7H JK=8H 9H = 1;
    * lay-offs: the 3 natural ones, plus the joker as 9H on the nines, as AS or 6S on
      2S-5S (not on 5H-8H, which already holds its one joker: seed 003 "only one Joker
      in a meld") = 6;
    * swap: the freed joker still finds no meld = 0;
    * takes: 8H (7H-8H-9H), 5H (5H JK 7H), 5S (5S 6S + joker) = 3;
    * discards: 5.  Total 15.
    """
    s = position("rami51", "7H 9H 6S KD JK", RAMI_TABLE, opened=True)
    assert kinds(s) == {"meld": 1, "layoff": 6, "take": 3, "discard": 5}
    assert len(s.legal_moves()) == 15
    legal = s.legal_moves()
    for m in (
        Move(LAYOFF, 1, code("9H"), 1),
        Move(LAYOFF, 2, code("AS"), 1),
        Move(LAYOFF, 2, code("6S"), 1),
        Move(TAKE, 0, code("5H")),
        Move(TAKE, 2, code("5S")),
    ):
        assert m in legal


def test_rami_swap_counted_by_hand() -> None:
    """Hand 7H 7S 7C KD against 5H 6H JK=7H 8H.

    * melds: 7C 7H 7S = 1; lay-offs: none (4H, 9H not held) = 0;
    * swap 7H for the joker = 1, legal because 7C 7S + the freed joker make a set;
    * takes: the 5H or the 8H fit no meld = 0; discards 4.  Total 6.
    After the swap the freed joker must be melded at once: 7C 7S with the joker as 7D
    or as 7H = exactly 2 moves.
    """
    s = position("rami51", "7H 7S 7C KD", [(1, "5H 6H JK=7H 8H")], opened=True)
    assert kinds(s) == {"meld": 1, "swap": 1, "discard": 4}
    s.apply(Move(SWAP, 0, parse_face("7H")))
    assert kinds(s) == {"meld": 2}
    assert describe_melds(s) == {"7C JK=7D 7S", "7C JK=7H 7S"}


def test_rami_final_discard_counted_by_hand() -> None:
    """RULES-NOTES 5 (Rami: going out needs the final discard): with 8C 9C TC JC and an
    opened player and an empty table, melding all four cards is illegal and the
    three-card runs are legal.  Melds 8-9-T, 9-T-J = 2; discards 4."""
    s = position("rami51", "8C 9C TC JC", [], opened=True)
    assert kinds(s) == {"meld": 2, "discard": 4}
    assert describe_melds(s) == {"8C 9C TC", "9C TC JC"}


def test_perft_from_start_counted_by_hand() -> None:
    """Depth 1 at the deal: draw from the stock or take the upcard = 2 (seed 000: "Players
    can choose to take the first card from the discard pile or the stock pile")."""
    for spec in ("basic", "classic", "cg101"):
        s = new_game(spec, players=2, seed=11)
        assert perft(s, 1) == 2
        # depth 2: after the stock draw, 11 distinct discards plus melds/lay-offs; after
        # the upcard, one discard fewer (not the taken card): the difference is exactly 1
        # whenever the upcard adds no meld.
        a = s.clone()
        a.apply(Move(DRAW_STOCK))
        b = s.clone()
        b.apply(Move(DRAW_DISCARD))
        assert kinds(a)["discard"] == 11 and kinds(b)["discard"] == 10
