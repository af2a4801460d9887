"""Game records (docs/notation.md): move text, export/import round trips, error
positions, and fuzzing of the record parser."""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit import (
    DISCARD,
    DRAW_STOCK,
    LAYOFF,
    MELD,
    SWAP,
    TAKE,
    IllegalMoveError,
    Move,
    NotationError,
    Rules,
    new_game,
)
from rummykit.cards import parse_card, parse_face
from rummykit.melds import RUN
from rummykit.notation import _fingerprint, export_record, import_record, move_to_text, parse_move
from rummykit.state import GameState, Phase
from rummykit.table import TableMeld

DOC = Path(__file__).resolve().parents[2] / "docs" / "notation.md"

PRESETS = ["basic", "classic", "cg101", "rami51"]
VARIANTS = [
    *PRESETS,
    "basic(ace=high_or_low, multiple_melds=true)",
    "rami51(set_suits=any, jokers_per_meld=2)",
]


def play(spec: str, players: int | list[str], seed: int, cap: int | None = None) -> GameState:
    """A match played by uniformly random legal moves (seeded), stopped after ``cap``."""
    g = new_game(spec, players=players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over() and (cap is None or len(g.history) < cap):
        g.apply(rng.choice(g.legal_moves()))
    return g


@cache
def sample_record(spec: str = "basic", cap: int = 80) -> str:
    return export_record(play(spec, 3, 11, cap))


def assert_same_cards(a: GameState, b: GameState) -> None:
    assert _fingerprint(a) == _fingerprint(b)
    assert a.names == b.names and a.seed == b.seed


def assert_same(a: GameState, b: GameState) -> None:
    assert_same_cards(a, b)
    assert a.rules == b.rules


def error_at(text: str | bytes) -> NotationError:
    with pytest.raises(NotationError) as info:
        import_record(text)
    return info.value


# -- the documented example -------------------------------------------------------------
def doc_example() -> str:
    m = re.search(r"```text\n(\[Rules.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert m
    return m.group(1)


def test_doc_example_replays_and_is_canonical() -> None:
    text = doc_example()
    g = import_record(text)
    assert g.is_over() and g.scores == [7, 0] and g.names == ["Ann", "Bob"]
    assert export_record(g, deals=True) == text


# -- whole matches ----------------------------------------------------------------------
@pytest.mark.parametrize("spec", PRESETS)
def test_full_match_round_trip(spec: str) -> None:
    g = play(spec, 3, 1)
    assert g.is_over()
    text = export_record(g)
    h = import_record(text)
    assert_same(g, h)
    assert export_record(h) == text
    scores = ", ".join(str(s) for s in g.scores)
    assert f'[Result "{scores}"]' in text
    assert text.count("{round ") == len(g.results)


@pytest.mark.parametrize("spec", VARIANTS)
@pytest.mark.parametrize("seed", [2, 3])
def test_partial_match_round_trip_in_every_style(spec: str, seed: int) -> None:
    # stop anywhere, often in the middle of a turn
    g = play(spec, 2 + seed % 3, seed, cap=random.Random(seed).randrange(50, 250))
    for style in ({}, {"short": True}, {"unicode": True}, {"deals": True}):
        text = export_record(g, **style)
        h = import_record(text)
        assert_same(g, h)
        assert export_record(h, **style) == text
    assert '[Result "*"]' in export_record(g) or g.is_over()


def test_clone_and_continued_play_export() -> None:
    g = play("cg101", 2, 4, cap=120)
    c = g.clone()
    c.apply(random.Random(0).choice(c.legal_moves()))
    assert_same(import_record(export_record(c)), c)
    assert_same(import_record(export_record(g)), g)


def test_fresh_game_record_has_round_header() -> None:
    g = new_game("rami51", players=["Ann", "Bob"], seed=9)
    text = export_record(g)
    assert "Round 1" in text
    assert_same(import_record(text), g)


def test_explicit_dealer_is_a_tag() -> None:
    g = new_game("basic", players=["Ann", "Bob", "Cy"], seed=5, dealer=2)
    rng = random.Random(1)
    for _ in range(30):
        g.apply(rng.choice(g.legal_moves()))
    text = export_record(g)
    assert '[Dealer "Cy"]' in text and "cut for the deal" not in text
    assert_same(import_record(text), g)
    # the same record read as a cut replays a different deal (or fails), never silently
    other = text.replace('[Dealer "Cy"]\n', "")
    try:
        h = import_record(other)
    except NotationError:
        pass
    else:  # pragma: no cover - only if the cut happens to match every move
        assert _fingerprint(h) != _fingerprint(g)


@pytest.mark.parametrize("seed", [-7, 0, 2**70, 10**150, -(10**120) - 3])
def test_any_integer_seed(seed: int) -> None:
    g = new_game("classic", players=2, seed=seed)
    g.apply(Move(DRAW_STOCK))
    text = export_record(g)
    if abs(seed) >= 10**100:
        assert "0x" in text
    h = import_record(text)
    assert h.seed == seed
    assert_same(h, g)


def test_odd_player_names_round_trip() -> None:
    names = ["A, B", " lead", "#1", 'q"uo\\te', "new\nline\u00a0", "Ann"]
    g = play("basic", names, 6, cap=150)
    text = export_record(g)
    assert "\n#" not in text  # a turn line is never mistaken for a tag or comment
    h = import_record(text)
    assert h.names == names
    assert_same(h, g)
    assert "Ann:" in text and "#1:" in text  # odd names are written as seats


def test_duplicate_names_use_seats() -> None:
    g = play("basic", ["Ann", "Ann"], 3, cap=10)
    text = export_record(g)
    assert "#1:" in text and "#2:" in text
    assert_same(import_record(text), g)


def test_rules_without_a_preset_name_are_written_as_a_spec() -> None:
    g = new_game(Rules(name="house", multiple_melds=True), players=2, seed=1)
    text = export_record(g)
    assert '[Rules "basic(multiple_melds=true)"]' in text
    assert_same_cards(import_record(text), g)


def test_unexportable_states() -> None:
    g = new_game("basic", seed=None)
    with pytest.raises(NotationError, match="seed"):
        export_record(g)
    h = play("basic", 2, 3, cap=40)
    d = h.determinize(h.current, random.Random(1))
    with pytest.raises(NotationError):
        export_record(d)
    edited = h.clone()
    edited.scores[0] += 1
    with pytest.raises(NotationError, match="does not follow"):
        export_record(edited)


# -- single moves ---------------------------------------------------------------------------
@pytest.mark.parametrize("spec", VARIANTS)
def test_every_legal_move_text_round_trips(spec: str) -> None:
    g = new_game(spec, players=3, seed=21)
    rng = random.Random(21)
    kinds: set[int] = set()
    for _ in range(300):
        if g.is_over():
            break
        for m in g.legal_moves():
            kinds.add(m.kind)
            for style in ({}, {"short": True}, {"unicode": True}):
                text = move_to_text(g, m, **style)
                assert parse_move(g, text) == m, text
        g.apply(rng.choice(g.legal_moves()))
    assert {DRAW_STOCK, DISCARD, MELD, LAYOFF} <= kinds


def test_move_forms() -> None:
    g = new_game("rami51", players=2, seed=1)
    assert parse_move(g, "draw stock") == parse_move(g, " DS ") == Move(DRAW_STOCK)
    assert parse_move(g, "Draw Discard") == parse_move(g, "dd")
    nine = parse_face("9C")
    assert parse_move(g, "discard 9C") == parse_move(g, "d 9♣") == Move(DISCARD, nine)
    assert parse_move(g, "d ♧9".replace("♧9", "9♧")) == Move(DISCARD, nine)
    assert parse_move(g, "discard JK") == parse_move(g, "d 🃏") == Move(DISCARD, 52)
    ten = parse_move(g, "m 10H JK=JH QH")
    assert ten == parse_move(g, "meld qh, th, 🃏=j♥") == parse_move(g, "MELD TH *=JH QH")
    assert move_to_text(g, ten) == "meld TH JK=JH QH"
    assert move_to_text(g, ten, unicode=True, short=True) == "m T♥ 🃏=J♥ Q♥"
    sets = parse_move(g, "meld 7S JK=7D 7H")
    assert move_to_text(g, sets) == "meld JK=7D 7H 7S"
    assert parse_move(g, "layoff 7H to 2") == parse_move(g, "l 7H 2") == Move(LAYOFF, 1, 2 * 14 + 6)
    assert parse_move(g, "layoff JK=8H on 2") == Move(LAYOFF, 1, 2 * 14 + 7, 1)
    assert parse_move(g, "swap 6H in 2") == parse_move(g, "s 6h 2") == Move(SWAP, 1, 31)
    assert parse_move(g, "take 9S from 3") == parse_move(g, "t 9S 3") == Move(TAKE, 2, 3 * 14 + 8)
    assert move_to_text(g, Move(SWAP, 1, 31)) == "swap 6H in 2"
    assert move_to_text(g, Move(TAKE, 2, 3 * 14 + 8), short=True) == "t 9S 3"


@pytest.mark.parametrize(
    ("text", "column", "fragment"),
    [
        ("", 1, "expected a move"),
        ("hop 9C", 1, "unknown move"),
        ("draw", 5, "'stock' or 'discard'"),
        ("draw pile", 6, "expected 'stock'"),
        ("ds now", 4, "unexpected 'now'"),
        ("discard 9X", 9, "bad card '9X'"),
        ("discard", 8, "the card to discard"),
        ("discard 9C 8C", 12, "unexpected"),
        ("meld 3H 4H 6H", 6, "not a meld"),
        ("meld 3H JK 5H", 9, "JK=7H"),
        ("meld 3H 4H=5H 6H", 9, "only a joker"),
        ("meld 3H JK=4X 5H", 12, "bad card '4X'"),
        ("meld 3H JK=4H JK=5H 6H", 6, "jokers_per_meld"),
        ("layoff 7H to", 13, "table meld number"),
        ("layoff 7H to x", 14, "expected a table meld number"),
        ("layoff 7H to 0", 14, "numbered from 1"),
        ("layoff 7H to 1234567", 14, "too large"),
        ("layoff 7H to 1 high", 8, "only an ace"),
        ("layoff 7H to 1 2", 16, "unexpected '2'"),
        ("swap JK in 1", 6, "the card you give"),
        ("take JK from 1", 6, "swap it instead"),
        ("take 9S from 1 top", 16, "unexpected 'top'"),
    ],
)
def test_move_errors_have_columns(text: str, column: int, fragment: str) -> None:
    g = new_game("rami51", players=2, seed=1)
    with pytest.raises(NotationError) as info:
        parse_move(g, text)
    assert (info.value.line, info.value.column) == (1, column)
    assert fragment in info.value.reason


def _with_table(spec: str, cards: str, hand: str) -> GameState:
    """A state in its play phase with one run on the table and a chosen hand."""
    g = new_game(spec, players=2, seed=3)
    g.apply(Move(DRAW_STOCK))
    t = g.game.melds
    faces = [parse_face(c) for c in cards.split()]
    index = next(
        i
        for i, sh in enumerate(t.shapes)
        if sh.kind == RUN and list(sh.cells) == faces and sh.joker_cells == 0
    )
    g.table = [TableMeld(1 - g.current, index, tuple(faces))]
    g.hands[g.current] = sum(1 << parse_card(c) for c in hand.split())
    g.opened = [True, True]
    g.melded = [True, True]
    g._legal = None
    return g


def test_ace_at_either_end_of_a_run_is_named() -> None:
    # seed 001 house rule: an ace "can be used in a run of ace, two, and three as well as
    # queen, king, and ace"; seed 003: "an Ace cannot be placed before the 2 and after the
    # King at the same time", so on a 2..K run the ace has two places.
    g = _with_table(
        "basic(ace=high_or_low, multiple_melds=true)",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "AH 5C 9D",
    )
    aces = [m for m in g.legal_moves() if m.kind == LAYOFF]
    texts = sorted(move_to_text(g, m) for m in aces)
    assert texts == ["layoff AH to 1 high", "layoff AH to 1 low"]
    for m in aces:
        assert parse_move(g, move_to_text(g, m)) == m
    with pytest.raises(NotationError, match="both ends") as info:
        parse_move(g, "layoff AH to 1")
    assert info.value.column == 8
    high = parse_move(g, "layoff AH to 1 HIGH")
    g.apply(high)
    assert g.game.melds.shapes[g.table[0].shape].positions[-1] == 13


def test_ace_inferred_when_only_one_end_fits() -> None:
    # seed 003: "Queen of Hearts, King of Hearts, Ace of Hearts" is a legal meld
    g = _with_table("rami51", "JH QH KH", "AH AS AD 9D")
    m = parse_move(g, "layoff AH to 1")
    assert move_to_text(g, m) == "layoff AH to 1 high"
    assert m in g.legal_moves()
    g.apply(m)
    take = parse_move(g, "take AH from 1")
    assert take == parse_move(g, "take AH from 1 high")
    assert move_to_text(g, take) == "take AH from 1 high"
    assert take in g.legal_moves()
    low = _with_table("rami51", "2H 3H 4H", "AH 5C 9D 9D")
    m = parse_move(low, "layoff AH to 1")
    assert move_to_text(low, m) == "layoff AH to 1 low"
    assert m in low.legal_moves()
    meld = parse_move(low, "meld KS AS QS")
    assert low.game.melds.describe(meld.a) == "QS KS AS"
    with pytest.raises(NotationError):
        parse_move(low, "meld KS AS 2S")  # seed 003: never high and low at once


def test_move_to_text_rejects_non_moves() -> None:
    g = new_game("basic", seed=1)
    for bad in (Move(9), Move(MELD, 10**6), Move(DISCARD, 60), Move(SWAP, 0, 52)):
        with pytest.raises(NotationError):
            move_to_text(g, bad)


# -- record errors ---------------------------------------------------------------------------
HEAD = '[Rules "basic"]\n[Players "Ann, Bob"]\n[Seed "3"]\n'


@pytest.mark.parametrize(
    ("text", "line", "column", "fragment"),
    [
        ('[Rules "bsic"]\n[Players "A, B"]\n[Seed "1"]\n', 1, 9, "unknown preset"),
        ('[Rules "basic(foo=1)"]\n[Players "A, B"]\n[Seed "1"]\n', 1, 9, "unknown option"),
        (
            '[Rules "{\\"a\\": ' + "[" * 5000 + '"]\n[Players "A, B"]\n[Seed "1"]\n',
            1,
            9,
            "bad rules",
        ),
        ('[Rules "basic"]\n[Players "Solo"]\n[Seed "1"]\n', 2, 11, "players"),
        ('[Rules "basic"]\n[Players "A, B"]\n[Seed "1.5"]\n', 3, 8, "integer"),
        ('[Rules "basic"]\n[Players "A, B"]\n[Seed "' + "9" * 5000 + '"]\n', 3, 8, "hex"),
        ('[Rules "basic"]\n[Players "A, B"]\n', 3, 1, "Seed"),
        ('[Players "A, B"]\n[Seed "1"]\n\nRound 1\n', 3, 1, "Rules"),
        ("[Rules basic]\n", 1, 8, "quoted value"),
        ('[Rules "basic"\n', 1, 15, "']'"),
        ('[Rules "basic]\n', 1, 8, "closing quote"),
        ("[ 9 ]\n", 1, 3, "tag name"),
        ('[Rules "basic"] x\n', 1, 17, "after the tag"),
        ('[Rules "ba\\u{110000}sic"]\n', 1, 11, "no character"),
        ('[Rules "basic\\', 1, 14, "unfinished escape"),
        (HEAD + '[Seed "4"]\n', 4, 1, "twice"),
        (HEAD + '[Dealer "Cyd"]\n', 4, 10, "unknown player"),
        (HEAD + '[Dealer "#3"]\n', 4, 10, "no player"),
        (HEAD + '\nRound 1\n[Event "x"]\n', 6, 1, "before the moves"),
        (HEAD + "\n1. Ann: ds\n", 5, 1, "expected 'Round 1'"),
        (HEAD + "\nRound 2\n", 5, 7, "expected 'Round 1'"),
        (HEAD + "\nRound 1\nRound 2\n", 6, 7, "not over"),
        (HEAD + "\nRound 1\nhello\n", 6, 1, "expected 'Round N' or a turn"),
        (HEAD + "\nRound 1\n1 Ann: ds\n", 6, 1, "expected 'Round N' or a turn"),
        (HEAD + "\nRound 1\n1. Ann ds\n", 6, 3, "':'"),
        (HEAD + "\nRound 1\n1. : ds\n", 6, 4, "name"),
        (HEAD + "\nRound 1\n2. Ann: ds\n", 6, 1, "turn 1 of round 1, not 2"),
        (HEAD + "\nRound 1\n1. Zed: ds\n", 6, 4, "unknown player 'Zed'"),
        (HEAD + "\nRound 1\n1. #9: ds\n", 6, 4, "no player"),
        (HEAD + "\nRound 1\n1. Ann:\n", 6, 8, "expected a move"),
        (HEAD + "\nRound 1\n1. Ann: ds;; d 2C\n", 6, 12, "expected a move"),
        (HEAD + "\nRound 1 {open\n", 5, 9, "not closed"),
        (HEAD + "\nRound 1 }\n", 5, 9, "without an opening"),
        (HEAD + '[Result "3, x"]\n', 4, 10, "final scores"),
        (HEAD + '[Result "0, 0"]\n', 4, 10, "before the match is over"),
    ],
)
def test_record_errors_have_positions(text: str, line: int, column: int, fragment: str) -> None:
    err = error_at(text)
    assert (err.line, err.column) == (line, column), err
    assert fragment in err.reason, err


def _sample_lines() -> list[str]:
    return sample_record().split("\n")


def test_illegal_move_names_the_rule() -> None:
    lines = _sample_lines()
    k = next(i for i, ln in enumerate(lines) if re.match(r"\d+\. ", ln))
    number = lines[k].split(": ", 1)[0]
    lines[k] = f"{number}: discard 2C; draw stock"
    err = error_at("\n".join(lines))
    assert (err.line, err.column) == (k + 1, len(number) + 3)
    assert "[rule: draw_first]" in err.reason
    assert isinstance(err.__cause__, IllegalMoveError)
    assert err.__cause__.rule == "draw_first"


def test_unfinished_turn_and_moves_after_the_turn() -> None:
    lines = _sample_lines()
    k = next(i for i, ln in enumerate(lines) if re.match(r"\d+\. ", ln))
    head = lines[k].rsplit("; ", 1)[0]
    broken = [*lines[:k], head, *lines[k + 1 :]]
    err = error_at("\n".join(broken))
    assert err.line == k + 2 and "not finished" in err.reason
    extra = [*lines[:k], lines[k] + "; draw stock", *lines[k + 1 :]]
    err = error_at("\n".join(extra))
    assert err.line == k + 1 and err.column == len(lines[k]) + 3
    assert "turn is over" in err.reason


def test_result_tag_is_checked() -> None:
    g = play("basic", 2, 3)
    text = export_record(g)
    good = ", ".join(str(s) for s in g.scores)
    wrong = ", ".join(str(s + 1) for s in g.scores)
    err = error_at(text.replace(f'[Result "{good}"]', f'[Result "{wrong}"]'))
    assert (err.line, err.column) == (4, 10) and "moves give" in err.reason
    truncated = text[: text.rindex("\n1. ")] + "\n"
    err = error_at(truncated)
    assert err.line == 4 and "before the match is over" in err.reason
    assert import_record(truncated.replace(f'[Result "{good}"]', '[Result "*"]'))
    err = error_at(text + "\nRound 99\n")
    assert "match is over" in err.reason


def test_comments_unknown_tags_and_spacing_are_ignored() -> None:
    g = play("cg101", ["Ann", "Bob"], 8, cap=60)
    text = export_record(g, short=True, unicode=True)
    lines = text.split("\n")
    noisy = ['\ufeff[Event "club night"]  {a tag comment}', *lines[:3], '[Deal "ignored"]']
    noisy += [*lines[3:]]
    noisy = [ln.replace("; ", " ;\t{why not}  ") if re.match(r"\d+\. ", ln) else ln for ln in noisy]
    body = "\r\n".join(noisy).replace("Round ", "round  ")
    body = body.replace("{cut", "{multi\nline\ncomment} {cut")
    assert_same(import_record(body), g)
    assert_same(import_record(body.encode("utf-8")), g)


def test_bytes_that_are_not_utf8() -> None:
    data = HEAD.encode() + b"\nRound 1\n1. Ann: d\xff\xfe 9C\n"
    err = error_at(data)
    assert (err.line, err.column) == (6, 10) and "UTF-8" in err.reason
    err = error_at(b"\xc3")
    assert (err.line, err.column) == (1, 1)


def test_non_text_input() -> None:
    err = error_at(12345)  # type: ignore[arg-type]
    assert err.line == 1
    with pytest.raises(NotationError):
        parse_move(new_game("basic", seed=1), None)  # type: ignore[arg-type]


# -- fuzzing ---------------------------------------------------------------------------------
FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def must_import_or_raise(text: str | bytes) -> None:
    try:
        state = import_record(text)
    except NotationError as err:
        assert err.line >= 1 and err.column >= 1
        return
    assert isinstance(state, GameState)
    assert state.phase in (Phase.DRAW, Phase.PLAY, Phase.OVER)


@FUZZ
@given(st.text())
def test_fuzz_random_text(text: str) -> None:
    must_import_or_raise(text)


@FUZZ
@given(st.binary())
def test_fuzz_random_bytes(data: bytes) -> None:
    must_import_or_raise(data)


@FUZZ
@given(st.text())
def test_fuzz_random_move_text(text: str) -> None:
    g = sample_state()
    try:
        move = parse_move(g, text)
    except NotationError as err:
        assert err.line == 1 and err.column >= 1
        return
    assert isinstance(move, Move)


@cache
def sample_state() -> GameState:
    return play("rami51", 2, 5, cap=120)


TOKENS = [
    "\n", " ", ";", ":", ".", ",", "{", "}", "[", "]", '"', "\\", "=", "#1", "#2", "#9",
    "Round", "1", "2", "3", "999999999999", "Ann", "Bob", "ds", "dd", "draw", "stock",
    "discard", "d", "meld", "m", "layoff", "swap", "take", "to", "from", "in", "high",
    "low", "JK", "JK=5H", "🃏", "AH", "KH", "QH", "10♥", "9C", "2S", "XX", "\t", "\r\n",
    '[Seed "', '[Result "', "*", "\x00", "é",
]  # fmt: skip


@FUZZ
@given(st.lists(st.sampled_from(TOKENS), max_size=60))
def test_fuzz_token_soup_after_a_valid_header(tokens: list[str]) -> None:
    must_import_or_raise(HEAD + "\nRound 1\n1. Ann: " + "".join(tokens))


MUTATION = st.tuples(
    st.sampled_from(["delete", "insert", "replace", "swap_lines", "dup_line", "cut"]),
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=0, max_value=10**6),
    st.sampled_from([*TOKENS, "x", "0", "7", "-", "0x1f"]),
)


def mutate(text: str, ops: list[tuple[str, int, int, str]]) -> str:
    for op, i, j, tok in ops:
        if op in ("swap_lines", "dup_line"):
            lines = text.split("\n")
            a, b = i % len(lines), j % len(lines)
            if op == "swap_lines":
                lines[a], lines[b] = lines[b], lines[a]
            else:
                lines.insert(b, lines[a])
            text = "\n".join(lines)
            continue
        pos = i % (len(text) + 1)
        if op == "delete":
            text = text[:pos] + text[pos + 1 + j % 3 :]
        elif op == "insert":
            text = text[:pos] + tok + text[pos:]
        elif op == "replace":
            text = text[:pos] + tok + text[pos + 1 :]
        else:
            text = text[:pos]
    return text


@cache
def mutation_bases() -> tuple[str, ...]:
    return (
        sample_record("basic", 60),
        export_record(play("rami51", 2, 5, cap=120), short=True),
        export_record(play("cg101", 2, 8, cap=40), unicode=True),
    )


@FUZZ
@given(st.integers(min_value=0, max_value=2), st.lists(MUTATION, min_size=1, max_size=4))
def test_fuzz_mutated_records(base: int, ops: list[tuple[str, int, int, str]]) -> None:
    must_import_or_raise(mutate(mutation_bases()[base], ops))
