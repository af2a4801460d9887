"""The terminal game (issue 4): whole rounds by key presses, illegal moves, save and
resume, replays, the choosers, and snapshots of the table at 80x24.

The person's seat is driven by pressing the keys a player would press: the move is
chosen by the ``easy`` bot from the seat's view, then turned into card keys plus an
action key (and a number in a chooser).  Bots play instantly in these tests.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import io
import random
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Label, Sparkline, Static

from helpers import build, meld_move
from rummykit.bots import GreedyBot, play_match
from rummykit.bots.review import match_start, review_round
from rummykit.moves import (
    BUY,
    DISCARD,
    DRAW_DEEP,
    DRAW_DISCARD,
    DRAW_STOCK,
    KNOCK,
    LAYOFF,
    MELD,
    PASS,
    SWAP,
    TAKE,
    Move,
)
from rummykit.notation import export_record
from rummykit.results import RoundEnd
from rummykit.rulebook import rules_summary
from rummykit.rules import Rules
from rummykit.scoring import PlayerScore, RoundResult
from rummykit.state import GameState, Phase
from rummykit.tui import (
    add_play_arguments,
    add_replay_arguments,
    play_main,
    replay_main,
    settings_from_options,
)
from rummykit.tui.app import CARD_KEYS, RummyApp, TableScreen
from rummykit.tui.hand import arrange_hand
from rummykit.tui.results import card_rows, round_details, running_totals, score_history
from rummykit.tui.review_screen import ReviewScreen
from rummykit.tui.screens import (
    ChoiceScreen,
    HelpScreen,
    MatchEndScreen,
    NewGameScreen,
    PileScreen,
    ReplayScreen,
    RoundSummaryScreen,
    state_text,
)
from rummykit.tui.session import (
    ENV_DATA_DIR,
    SAVE_NAME,
    GameSettings,
    Match,
    archive_match,
    card_text,
    cards_for_move,
    cells_text,
    choice_text,
    data_dir,
    layoff_attempt,
    load_saved,
    meld_attempt,
    own_text,
    rebuilt_log,
    replay_steps,
    save_match,
    save_path,
    saved_games,
    swap_attempt,
    table_cells,
    take_attempt,
)
from rummykit.tui.widgets import HandView, PilesBar, TableView

SIZE = (80, 24)
KEYS = {DRAW_STOCK: "s", DRAW_DISCARD: "p", MELD: "m", LAYOFF: "l", SWAP: "j", TAKE: "t",
        DISCARD: "d", KNOCK: "k", PASS: "n", DRAW_DEEP: "p"}  # fmt: skip


def sync(test: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an async test in its own event loop (no async pytest plugin needed)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))  # type: ignore[arg-type]

    return run


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saved games go to a temporary directory, never the user's."""
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "data"))
    return tmp_path / "data"


def start(spec: str, players: int = 2, seed: int = 2, bots: str = "easy") -> RummyApp:
    settings = settings_from_options(rules=spec, players=players, bots=bots, name="Ann", seed=seed)
    return RummyApp(settings=settings, instant=True)


def with_match(state: GameState, seats: list[str | None] | None = None) -> RummyApp:
    seats = seats or [None] + ["easy"] * (state.num_players - 1)
    return RummyApp(match=Match(state, seats), instant=True)


async def wait_until(pilot: Pilot[Any], cond: Callable[[], bool], timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        await pilot.pause(0.005)


def table(app: RummyApp) -> TableScreen:
    for screen in reversed(app.screen_stack):
        if isinstance(screen, TableScreen):
            return screen
    raise AssertionError("no table screen")


def my_turn(app: RummyApp) -> bool:
    screen = app.screen
    m = app.match
    return isinstance(screen, TableScreen) and m is not None and m.my_turn and not screen.blocked


async def play_move(pilot: Pilot[Any], app: RummyApp, move: Move) -> None:
    """Play ``move`` for the person by key presses: card keys, the action key, and the
    option's number if a chooser opens."""
    screen = table(app)
    assert app.match is not None
    s = app.match.state
    keys = ["c"] if screen.selected else []
    if move.kind in (MELD, LAYOFF, SWAP, DISCARD):
        for card in cards_for_move(s, s.hands[app.match.human], move):
            keys.append(CARD_KEYS[screen.order.index(card)])
    want = choice_text(s, move)
    before = len(s.history)
    if s.phase is Phase.BUY:  # Contract Rummy's buy window: b buys, n passes
        await pilot.press("b" if move.kind == BUY else "n")
        assert len(s.history) > before, (move, screen.message)
        return
    await pilot.press(*keys, KEYS[move.kind])
    if isinstance(app.screen, ChoiceScreen):
        await pilot.press(str(app.screen.options.index(want) + 1))
    assert len(s.history) > before, (move, screen.message)


async def play_round(pilot: Pilot[Any], app: RummyApp, lay_best: bool = False) -> list[int]:
    """Play the person's seat until the round ends; the kinds of moves played.

    With ``lay_best`` (Gin), the person's end of hand, after the knock's discard or
    as the defender, is ``b`` then ``n``."""
    policy = GreedyBot()
    rng = random.Random(0)
    kinds: list[int] = []
    while True:
        await wait_until(pilot, lambda: isinstance(app.screen, RoundSummaryScreen) or my_turn(app))
        if isinstance(app.screen, RoundSummaryScreen):
            return kinds
        assert app.match is not None and len(kinds) < 500
        s = app.match.state
        me = app.match.human
        laying = s.phase is Phase.LAYOFF or (s.phase is Phase.KNOCK and s.hand_size(me) == 10)
        if lay_best and laying:
            hand = s.hands[me]
            before = len(s.history)
            await pilot.press("b", "n")
            assert len(s.history) > before, table(app).message
            kinds.append(PASS)
            if s.phase is Phase.OVER:  # the knocker's melds leave the least deadwood
                assert s.results[-1].players[me].hand_points <= s.game.solver.deadwood(hand)
            continue
        move = policy.choose(s.view(me), rng)
        await play_move(pilot, app, move)
        kinds.append(move.kind)


@pytest.mark.parametrize(
    ("seed", "lay_best", "knocks"),
    [(0, False, True), (0, True, True), (1, False, False), (1, True, False)],
)
@sync
async def test_whole_gin_hand_by_keys(seed: int, lay_best: bool, knocks: bool) -> None:
    """OpenSpiel gin_rummy's phases by keys: the first upcard taken (p) or passed (n),
    draw, discard or knock (k), the knocker's melds and the defender's lay-offs (m, l,
    or b for the best), each ended with n; seed 0: the person knocks, seed 1: the bot."""
    app = start("gin(deals=1)", seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        assert "Knock" in _footer_text(app) and "Pass" in _footer_text(app)
        played = await play_round(pilot, app, lay_best)
        assert (KNOCK in played) is knocks and PASS in played
        assert app.match is not None
        s = app.match.state
        assert s.phase is Phase.OVER and s.results[0].reason in (RoundEnd.KNOCK, RoundEnd.GIN)
        title = str(app.screen.query_one("#dialog-title").render())
        assert "knocked" in title or "undercut" in title or "gin" in title, title
        await pilot.press("enter")
        assert isinstance(app.screen, MatchEndScreen)


def _footer_text(app: RummyApp) -> str:
    from textual.widgets import Footer

    return " ".join(str(k.render()) for k in app.screen.query_one(Footer).query("FooterKey"))


@sync
async def test_gin_status_and_illegal_knock() -> None:
    """A knock needs deadwood at most the knock card (OpenSpiel gin_rummy: knock_card 10),
    and a refused knock changes nothing."""
    g = build("gin", hands=["2C 3C 4C 7D 7H 7S 9H 9S KD QC", "5C 6C 7C 8D 8H 8S TH TS JD 4H"],
              discard="AS", stock="5D 6D", phase=Phase.DRAW)  # fmt: skip
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        assert "deadwood 38" in str(screen.query_one("#hand-box").border_title)
        await pilot.press("p")  # AS: deadwood 29 after the best discard, still above 10
        assert "deadwood 29 after a discard" in own_text(g, g.hands[0])
        assert "knock (k) once your deadwood is 10 or less" in str(
            screen.query_one("#status").render()
        )
        before = (list(g.history), list(g.hands), g.phase, list(g.discard))
        await pilot.press("k")
        assert "Not allowed" in screen.message
        assert (list(g.history), list(g.hands), g.phase, list(g.discard)) == before
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen) and app.screen.rules.knock_card == 10
        await pilot.press("escape", "h")
        await wait_until(pilot, lambda: screen.message.startswith("Hint:"), timeout=30)
        assert "(press d)" in screen.message  # a discard: knocking is not allowed yet


@sync
async def test_knock_keys_select_cards_in_rummy() -> None:
    """In rummy the knock game's keys are not bound: k and n select cards 16 and 17."""
    hand = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D 3D 4D"
    g = build("basic(hand_size=17, max_players=2)", hands=[hand, "3H 4H 5H 8S"])
    app = with_match(g)
    async with app.run_test(size=(120, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        assert "Knock" not in _footer_text(app)
        await pilot.press("k", "n")
        assert screen.selected == {screen.order[15], screen.order[16]}


@sync
async def test_new_game_screen_offers_gin_options() -> None:
    app = RummyApp(settings=None, instant=True)
    async with app.run_test(size=(80, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert not screen.query_one("#knock-rules").display
        from textual.widgets import Input, Select

        screen.query_one("#preset", Select).value = "gin_match"
        await pilot.pause()
        assert screen.query_one("#knock-rules").display
        assert not screen.query_one("#rummy-rules").display
        assert screen.query_one("#goal", Input).value == "100"
        screen.query_one("#knock_card", Input).value = "7"
        settings = screen.settings()
        assert settings.rules.name == "gin_match" and settings.rules.knock_card == 7
        assert settings.rules.target_score == 100 and settings.players == 2
        screen.query_one("#gin_bonus", Input).value = "x"
        with pytest.raises(ValueError, match="gin bonus"):
            screen.settings()


# -- whole rounds by key presses ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "seed", "kinds"),
    [
        ("basic(deals=1)", 3, {DRAW_STOCK, DRAW_DISCARD, MELD, LAYOFF, DISCARD}),
        ("rami51(deals=1)", 1, {DRAW_STOCK, DRAW_DISCARD, MELD, LAYOFF, DISCARD}),
        # 500 Rum (HowStuffWorks): p offers every card of the pile the hand can use
        ("rum500(deals=1)", 2, {DRAW_STOCK, DRAW_DEEP, MELD, DISCARD}),
    ],
)
@sync
async def test_whole_round_by_keys(spec: str, seed: int, kinds: set[int]) -> None:
    app = start(spec, seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        played = await play_round(pilot, app)
        assert kinds <= set(played)
        assert app.match is not None
        s = app.match.state
        assert s.phase is Phase.OVER and len(s.results) == 1
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        assert summary.result is s.results[0]
        lines = [text for _seat, text in app.match.log.lines()]
        assert any(t.startswith("Ann drew") for t in lines)
        assert any("melded" in t for t in lines)
        await pilot.press("enter")
        assert isinstance(app.screen, MatchEndScreen)
        await pilot.press("q")
    assert app.return_code == 0
    assert saved_games() == []  # a finished match leaves nothing to resume
    games = list((data_dir() / "games").glob("*.rummy"))
    assert len(games) == 1  # kept for `rummy replay`
    assert app.recorded_to == games[0]


@sync
async def test_play_again_and_new_settings() -> None:
    final, _ = play_match("basic(deals=1)", ["Ann", "Bob"], [GreedyBot(), GreedyBot()], seed=3)
    app = with_match(final)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        await pilot.press("a")  # play again with the same settings
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.match is not None and app.match.state is not final
        assert app.match.state.round_no == 1 and not app.match.state.is_over()
        assert app.match.state.names == ["Ann", "Bob"]
    app = with_match(final)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        await pilot.press("n")  # new settings
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.settings().name == "Ann"
        await pilot.press("escape")
    assert app.return_code == 0


# -- illegal moves --------------------------------------------------------------------------------
@sync
async def test_illegal_move_changes_nothing_and_names_the_rule() -> None:
    app = start("basic", seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        assert app.match is not None
        s = app.match.state
        assert s.phase.name == "DRAW"
        before = export_record(s)
        hands = list(s.hands)
        # seed 001: "To begin your turn, you must draw a card" -- so no discard first
        await pilot.press("1", "d")
        screen = table(app)
        assert screen.refused_rule == "draw_first"
        assert screen.message == "Not allowed: a turn starts by drawing a card"
        assert export_record(s) == before and s.hands == hands
        await pilot.press("c", "s")
        assert s.phase is Phase.PLAY
        # seed 001: "you must draw a card from either the stock pile or the discard pile"
        # -- one card, so a second draw is refused
        await pilot.press("p")
        assert screen.refused_rule == "one_draw_per_turn"
        # two cards are not a meld: the app explains without calling it a move
        await pilot.press("c", "1", "2", "m")
        assert "is not a meld" in screen.message
        hist = list(s.history)
        await pilot.press("c", "m")
        assert "select the cards" in screen.message
        await pilot.press("c", "1", "2", "d")
        assert "Select exactly one card" in screen.message
        assert s.history == hist


@sync
async def test_taken_discard_cannot_be_thrown_back() -> None:
    g = build("basic", hands=["2C 5D 9H KS", "3C 4C 5C"], discard="7S", phase=Phase.DRAW)
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        # seed 001: "if you chose to draw from the discard pile, you may not discard the
        # same card you drew"
        await pilot.press("p")
        screen = table(app)
        k = CARD_KEYS[screen.order.index(g.taken)]
        await pilot.press(k, "d")
        assert screen.refused_rule == "no_discard_of_taken_card"
        assert "seed" not in screen.message and "rule" not in screen.message
        assert g.phase is Phase.PLAY and g.hand_size(0) == 5


@sync
async def test_wait_for_your_turn() -> None:
    g = build("basic", hands=["2C 5D 9H KS", "3C 4C 5C 8D"], current=1, phase=Phase.DRAW)
    app = with_match(g)
    app.pace = 5.0  # the bot waits, so it is still its turn
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        assert "Wait: it is Player 2's turn" in table(app).message
        assert g.current == 1 and g.phase is Phase.DRAW


# -- choosers: jokers, lay-offs, swaps and takes ------------------------------------------------
@sync
async def test_meld_with_a_joker_asks_which_card_it_stands_for() -> None:
    g = build("basic(jokers=1)", hands=["5H 6H JK 9C KD", "3C 4C 5C 8D"])
    assert meld_attempt(g, []).error
    five, six, joker = _cards(g, 0, "5H 6H JK")
    attempt = meld_attempt(g, [five, six, joker])
    assert {choice_text(g, m) for m in attempt.moves} == {"🃏(4♥) 5♥ 6♥", "5♥ 6♥ 🃏(7♥)"}
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        keys = [CARD_KEYS[screen.order.index(c)] for c in (five, six, joker)]
        await pilot.press(*keys, "m")
        chooser = app.screen
        assert isinstance(chooser, ChoiceScreen)
        await pilot.press("escape")  # cancel: nothing happens
        assert g.table == [] and isinstance(app.screen, TableScreen)
        await pilot.press("m")
        assert isinstance(app.screen, ChoiceScreen)
        want = app.screen.options.index("5♥ 6♥ 🃏(7♥)")
        await pilot.press(str(want + 1))
        assert len(g.table) == 1
        assert g.game.melds.describe(g.table[0].shape) == "5H 6H JK=7H"
        assert "🃏(7♥)" in " ".join(t for _s, t in app.match.log.lines())  # type: ignore[union-attr]


def _cards(g: GameState, p: int, text: str) -> list[int]:
    from rummykit.cards import face_of, parse_face

    out: list[int] = []
    for tok in text.split():
        face = parse_face(tok)
        card = next(c for c in g.hand(p) if face_of(c) == face and c not in out)
        out.append(card)
    return out


@sync
async def test_layoff_by_key_and_by_click() -> None:
    g = build(
        "basic",
        hands=["4H 8H 2C KS QD", "3C 4C 5C 8D"],
        table=[(1, "5H 6H 7H"), (1, "9S 9D 9C")],
        melded=[True, True],
    )
    four, eight = _cards(g, 0, "4H 8H")
    assert {m.a for m in layoff_attempt(g, four).moves} == {0}
    assert "does not fit" in layoff_attempt(g, _cards(g, 0, "KS")[0]).error
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        await pilot.press(CARD_KEYS[screen.order.index(four)], "l")
        assert len(g.table[0].cards) == 4
        # click the card, then the meld
        index = screen.order.index(eight)
        await pilot.click(HandView, offset=(index * 4 + 1, 1))
        assert screen.selected == {eight}
        assert screen.query_one(TableView).highlight == {0}
        await pilot.click(TableView, offset=(screen.query_one(TableView).name_w + 3, 0))
        assert len(g.table[0].cards) == 5
        await pilot.click(TableView, offset=(screen.query_one(TableView).name_w + 3, 0))
        assert "Select one card" in screen.message


@sync
async def test_swap_and_take_in_rami51() -> None:
    g = build(
        "rami51",
        hands=["7H 2C 2D 5S QH QD 3C", "3C 4C 5C 8D"],
        table=[(1, "6H JK=7H 8H"), (1, "9S TS JS QS")],
        melded=[True, True],
        opened=[True, True],
    )
    seven = _cards(g, 0, "7H")[0]
    assert [m.kind for m in swap_attempt(g, seven).moves] == [SWAP]
    assert swap_attempt(g, _cards(g, 0, "2C")[0]).error.startswith("no joker")
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        await pilot.press(CARD_KEYS[screen.order.index(seven)], "j")
        assert g.table[0].cards[1] == seven
        # seed 003: "A player can retrieve a Joker if they are going to replace it with the
        # card it was representing"; rami51 then wants the freed joker in a new meld at
        # once (RULES-NOTES 4, swapped_joker=must_meld)
        assert g.pending >= 0
        assert "use 🃏 in a meld now" in str(screen.query_one("#status").render())
        await pilot.press("t")  # taking is not allowed while the joker is pending
        assert screen.refused_rule == "pending_card_must_be_used"
        assert screen.message.startswith("Not allowed: ")
        await play_move(pilot, app, meld_move(g, "2C 2D JK=2H"))
        assert g.pending < 0
        # seed 003: retrieve a card if "The card to be retrieved is immediately used to
        # form a new meld" and "The meld ... consists of more than three cards"
        takes = take_attempt(g).moves
        assert [choice_text(g, m) for m in takes] == [
            "take Q♠ from meld 2 (Player 2: 9♠ 10♠ J♠ Q♠)"
        ]
        await pilot.press("t")
        assert g.pending >= 0 and len(g.table[1].cards) == 3
        await play_move(pilot, app, meld_move(g, "QH QD QS"))
        assert len(g.table) == 4


# -- save, resume and replay ---------------------------------------------------------------------
@sync
async def test_save_then_resume_gives_the_same_state() -> None:
    app = start("rami51", players=3, seed=7, bots="easy,medium")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        assert app.match is not None
        await play_move(pilot, app, Move(DRAW_STOCK))
        saved = app.match.state
        log = app.match.log.lines()
        await pilot.press("q")
    assert app.return_code == 0
    assert save_path("rami51").exists()
    text = save_path("rami51").read_text(encoding="utf-8")
    assert '[Bots "-, easy, medium"]' in text
    resumed = RummyApp(resume=True, instant=True)
    async with resumed.run_test(size=SIZE) as pilot:
        await pilot.pause()
        m = resumed.match
        assert m is not None
        s = m.state
        assert (s.hands, s.stock, s.discard, s.table, s.scores, s.history) == (
            saved.hands, saved.stock, saved.discard, saved.table, saved.scores, saved.history,
        )  # fmt: skip
        assert (s.current, s.phase, s.turn) == (saved.current, saved.phase, saved.turn)
        assert m.seats == [None, "easy", "medium"]
        assert isinstance(resumed.screen, TableScreen)
        # issue #20, finding 6: the log was empty after --resume; it is rebuilt from
        # the saved history, word for word, the person's drawn card included
        assert len(log) > 2 and any(text.startswith("Ann drew ") for _p, text in log)
        assert m.log.lines()[:-1] == log
        assert m.log.lines()[-1][1].startswith("Resumed: round 1")
    # without --resume the new-game screen offers the saved game
    app = RummyApp()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, NewGameScreen)
        await pilot.click("#resume")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.match is not None and app.match.state.history == saved.history


@sync
async def test_each_game_keeps_its_own_save_and_resume_offers_a_choice() -> None:
    """Issue #28 (at the table, 11): a saved 500 Rum game was lost by quitting a later
    Kalooki game, since one slot held every save.  Each game keeps its own save,
    ``--resume`` asks which to continue, and the unfinished games have records too."""
    for spec in ("rum500", "kalooki"):
        app = start(spec, players=2, seed=5)
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda app=app: my_turn(app))  # type: ignore[misc]
            await play_move(pilot, app, Move(DRAW_STOCK))
            await pilot.press("q")
    games = saved_games()
    assert sorted(g.game for g in games) == ["kalooki", "rum500"]
    assert len(list((data_dir() / "games").glob("*.rummy"))) == 2  # unfinished, recorded
    resumed = RummyApp(resume=True, instant=True)
    async with resumed.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(resumed.screen, ChoiceScreen))
        assert isinstance(resumed.screen, ChoiceScreen)
        labels = resumed.screen.options
        # issue 28 (at the table, 10): each save is named by its game's title, not its id
        assert len(labels) == 2 and any(label.startswith("500 Rum: round 1") for label in labels)
        assert any(label.startswith("Kalooki 40: round 1") for label in labels)
        await pilot.press(str(next(i for i, s in enumerate(labels) if "500 Rum" in s) + 1))
        await wait_until(pilot, lambda: isinstance(resumed.screen, TableScreen))
        assert resumed.match is not None and resumed.match.state.rules.name == "rum500"
        assert resumed.match.state.history  # the draw before quitting


def test_a_resumed_match_keeps_its_record_file() -> None:
    """The record of a match is one file, rewritten as it goes on: resuming it and saving
    again writes the same file (its ``[Started]`` tag names it), not a second one."""
    m = Match.start(GameSettings(Rules.preset("basic"), name="Ann", bots=("easy",), seed=3))
    first = archive_match(m)
    again = Match.from_record(m.record())
    assert first is not None and archive_match(again) == first
    assert again.started == m.started


def test_the_old_single_save_slot_is_still_resumed() -> None:
    """A save from before each game had its own slot (``saved-game.rummy``) is offered,
    and once saved again it moves to its game's slot."""
    m = Match.start(GameSettings(Rules.preset("basic"), name="Ann", bots=("easy",), seed=3))
    legacy = data_dir() / SAVE_NAME
    legacy.parent.mkdir(parents=True, exist_ok=True)
    legacy.write_text(m.record(), encoding="utf-8")
    assert [g.path for g in saved_games()] == [legacy]
    loaded = load_saved()
    assert loaded is not None and loaded.state.hands == m.state.hands
    assert save_match(loaded) == save_path("basic")
    assert not legacy.exists() and [g.path for g in saved_games()] == [save_path("basic")]


def test_resumed_log_has_every_round() -> None:
    """The rebuilt log of a saved match spans its rounds: each deal, each turn and each
    round's result, as the game wrote them; a state with no seed has nothing to replay."""
    final, _ = play_match("basic(deals=2)", ["Ann", "Bob"], [GreedyBot(), GreedyBot()], seed=3)
    lines = [text for _p, text in Match.from_record(export_record(final)).log.lines()]
    assert lines[0] == f"Round 1: {final.names[match_start(final).dealer]} deals."
    assert sum(t.startswith("Round 1: ") for t in lines) == 2  # the deal and the result
    assert any(t.startswith("Round 2: ") and t.endswith(" deals.") for t in lines)
    assert any(t.startswith("Ann ") for t in lines) and any(t.startswith("Bob ") for t in lines)
    assert lines[-1].startswith("Resumed: ")
    g = build("basic", hands=["2C 5D 9H KS", "3C 4C 5C 8D"])
    assert rebuilt_log(g, 0).lines() == []


@sync
async def test_resume_without_a_save_opens_the_new_game_screen() -> None:
    app = RummyApp(resume=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert load_saved() is None


@sync
async def test_replay_steps_forward_and_back(tmp_path: Path) -> None:
    final, _ = play_match("basic(deals=1)", ["Ann", "Bob"], [GreedyBot(), GreedyBot()], seed=3)
    path = tmp_path / "game.rummy"
    path.write_text(export_record(final), encoding="utf-8")
    steps = replay_steps(final)
    assert len(steps) == len(final.history) + 1
    assert steps[-1].state.scores == final.scores
    app = RummyApp(replay=(steps, path.name))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("right", "right", "right", "left")
        assert screen.index == 2
        head = str(screen.query_one("#replay-head").render())
        assert "step 2/" in head and steps[2].text in head
        body = str(screen.query_one("#replay-state").render())
        assert "Ann" in body and "Bob" in body  # every hand is shown
        await pilot.press("end")
        assert screen.index == len(steps) - 1
        await pilot.press("home", "down")
        assert screen.index > 0 and screen.steps[screen.index].state.phase is not Phase.PLAY
        await pilot.press("up")
        assert screen.index == 0
        await pilot.press("q")
    with pytest.raises(ValueError, match="cannot read"):
        replay_main(tmp_path / "missing.rummy")


# -- the other screens -----------------------------------------------------------------------------
@sync
async def test_new_game_screen_starts_the_chosen_game() -> None:
    app = RummyApp(initial=GameSettings(Rules.preset("basic"), name="Ann", seed=4))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        from textual.widgets import Checkbox, Input, Select

        screen.query_one("#preset", Select).value = "rami51"
        await pilot.pause()
        assert screen.query_one("#opt-take_from_meld", Checkbox).value is True
        assert screen.query_one("#opt-discard_pickup", Checkbox).value is True
        assert screen.query_one("#opening", Input).value == "51"
        screen.query_one("#opening", Input).value = "40"
        screen.query_one("#players", Select).value = 3
        await pilot.pause()
        assert screen.query_one("#bot1", Select).display
        screen.query_one("#bot0", Select).value = "easy"
        screen.query_one("#bot1", Select).value = "easy"
        screen.query_one("#goal-kind", Select).value = "deals"
        screen.query_one("#goal", Input).value = "2"
        screen.query_one("#ace", Select).value = "low"
        screen.query_one("#instant", Checkbox).value = True
        settings = screen.settings()
        assert settings.rules.deals == 2 and settings.rules.ace.value == "low"
        assert settings.bots == ("easy", "easy") and settings.seed == 4
        assert settings.rules.opening_minimum == 40
        assert settings.rules.spec().startswith("rami51(")
        screen.query_one("#goal", Input).value = "0"
        await pilot.press("ctrl+s")
        assert "Cannot start" in str(screen.query_one("#error").render())
        screen.query_one("#goal", Input).value = "2"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.match is not None
        assert app.match.state.rules.name == "rami51" and app.match.state.num_players == 3
        assert app.pace == 0


@sync
async def test_help_pile_hint_sort_and_instant() -> None:
    app = start("basic", seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "v")
        assert isinstance(app.screen, PileScreen)
        await pilot.press("escape")
        order = list(screen.order)
        await pilot.press("r")
        assert sorted(screen.order) == sorted(order)
        await pilot.press("right", "right", "space")
        assert screen.selected == {screen.order[1]}
        await pilot.press("i")
        assert app.pace > 0
        await pilot.press("i", "h")
        await wait_until(pilot, lambda: screen.message.startswith("Hint:"), timeout=30)
        await pilot.click(PilesBar, offset=(2, 0))  # click the stock
        assert app.match is not None and app.match.state.phase is Phase.PLAY


def replay_to(final: GameState, moves: int) -> GameState:
    """The match of ``final`` after its first ``moves`` moves."""
    s = match_start(final)
    for action in final.history[:moves]:
        s.apply_action(action)
    return s


@sync
async def test_review_button_at_the_end_of_a_round() -> None:
    """Issue #16: at the end of every round a key (``r``) and a button open the review
    of the person's round: a progress bar while it runs, then the accuracy, the key
    moments, every decision's label and a sparkline of the expected score."""
    # Start at the person's last decision of round 1 of a match the easy bots played,
    # so the test plays a move or two, not a whole round.
    final, _ = play_match("basic(deals=2)", 2, [GreedyBot(), GreedyBot()], seed=3)
    steps = [replay_to(final, i) for i in range(len(final.history))]
    end = next(i for i, step in enumerate(steps) if step.results)  # round 1 is scored
    last = max(i for i in range(end) if steps[i].current == 0)
    app = with_match(steps[last])
    # Two worker processes, as the game uses: spawning them from inside the app once
    # failed on Textual's print capture ("bad value(s) in fds_to_keep").
    app.review_budget, app.review_workers = 4, 2
    async with app.run_test(size=SIZE) as pilot:
        await play_round(pilot, app)
        assert app.match is not None
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen) and summary.query_one("#review")
        await pilot.press("r")
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.round_no == 1
        assert review.player == app.match.human and review.total > 0
        await wait_until(pilot, lambda: review.review is not None or review.failed, timeout=60)
        assert review.failed is None
        rv = review.review
        assert rv is not None and len(rv.decisions) == review.total
        assert rv == review_round(app.match.state, 0, 1, budget=4)  # the same review
        chart = review.query_one(Sparkline)
        assert chart.display and list(chart.data or []) == [p for _i, p in rv.series]
        shown = Console(width=120, record=True, file=io.StringIO())
        shown.print(review.query_one("#review-body", Static).content)
        body = shown.export_text()
        assert f"Accuracy {rv.accuracy:.0f}%" in body and rv.decisions[0].played in body
        await pilot.press("escape")
        assert app.screen is summary  # back to the round's scores
        await pilot.click("#review")  # the button opens it too
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("escape", "enter")
        assert table(app).state.round_no == 2  # the next deal goes on


def test_command_line_options() -> None:
    """The options the CLI adds for ``rummy play`` and ``rummy replay``."""
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    add_play_arguments(sub.add_parser("play"))
    add_replay_arguments(sub.add_parser("replay"))
    ns = parser.parse_args(
        ["play", "--rules", "rami51", "--players", "4", "--bots", "hard,medium,easy",
         "--name", "Ann", "--instant", "--seed", "9"]
    )  # fmt: skip
    s = settings_from_options(ns)
    assert s is not None and s.rules.name == "rami51" and s.names()[0] == "Ann"
    assert s.bots == ("hard", "medium", "easy") and s.seed == 9
    assert settings_from_options(parser.parse_args(["play", "--resume"])) is None
    assert parser.parse_args(["replay", "game.rummy"]).file == "game.rummy"
    with pytest.raises(ValueError, match="bot"):
        play_main(parser.parse_args(["play", "--players", "3", "--bots", "easy,easy,easy"]))


def test_flags_and_rules_text() -> None:
    s = settings_from_options(rules="rami51", players=4, bots="hard,medium,easy", name="Ann")
    assert s is not None and s.bots == ("hard", "medium", "easy") and s.players == 4
    s = settings_from_options(rules="basic", bots="greedy", players=3, target=50)
    assert s is not None and s.bots == ("easy", "easy") and s.rules.target_score == 50
    s = settings_from_options(rules="cg101", deals=2)
    assert s is not None and s.rules.deals == 2 and s.players == 2
    for bad in (
        {"bots": "hard,easy", "players": 4},
        {"bots": "genius"},
        {"rules": "rami51", "players": 6},
        {"rules": "gin", "players": 3},
        {"rules": "basic", "target": 5, "deals": 2},
    ):
        with pytest.raises(ValueError):
            settings_from_options(**bad)
    with pytest.raises(TypeError):
        play_main(colour="red")
    for preset in ("basic", "classic", "cg101", "rami51"):
        text = " ".join(rules_summary(Rules.preset(preset)))
        assert "Scoring" in text and "Melds" in text
    assert "51 points" in " ".join(rules_summary(Rules.preset("rami51")))
    s = settings_from_options(rules="gin_match")
    assert s is not None and s.players == 2 and s.rules.knock_card == 10
    gin = " ".join(rules_summary(Rules.preset("gin_match")))
    # OpenSpiel gin_rummy defaults: knock card 10, gin bonus 25, undercut bonus 25;
    # gin_match: game bonus 100 and 25 per hand won (Pagat, Gin Rummy)
    for text in ("total 10 or less", "plus 25 for gin", "plus 25 (undercut)", "adds 100",
                 "25 per hand won", "2 cards in the stock"):  # fmt: skip
        assert text in gin, text
    assert "Oklahoma" not in gin and "first upcard's value" in " ".join(
        rules_summary(Rules.parse("gin(oklahoma=true)"))
    )


# -- snapshots ----------------------------------------------------------------------
def _snapshot_app() -> RummyApp:
    return start("rami51", players=3, seed=24, bots="easy,easy")


def test_snapshot_table(snap_compare: Any) -> None:
    async def ready(pilot: Pilot[Any]) -> None:
        await wait_until(pilot, lambda: my_turn(pilot.app))  # type: ignore[arg-type]

    assert snap_compare(_snapshot_app(), terminal_size=SIZE, run_before=ready)


def test_snapshot_selection(snap_compare: Any) -> None:
    async def ready(pilot: Pilot[Any]) -> None:
        await wait_until(pilot, lambda: my_turn(pilot.app))  # type: ignore[arg-type]
        await pilot.press("s", "1", "3")

    assert snap_compare(_snapshot_app(), terminal_size=SIZE, run_before=ready)


# -- 80x24: nothing is cut off (issue #20, finding 3) -------------------------------------
def region_text(app: RummyApp, r: Region) -> str:
    """The text drawn in region ``r`` of the terminal, rows joined by spaces and runs
    of spaces squeezed: what a person can read there."""
    rows = app.screen._compositor.render_strips()[r.y : r.bottom]
    return " ".join(" ".join(row.crop(r.x, r.right).text.split()) for row in rows).strip()


def check_shown_whole(app: RummyApp) -> None:
    """The message, the status line, every key of the footer and the box titles are on
    the screen in full."""
    screen = app.screen
    assert isinstance(screen, TableScreen)
    for selector in ("#message", "#status"):
        widget = screen.query_one(selector, Static)
        text = " ".join(str(widget.render()).split())
        assert region_text(app, widget.region) == text, (selector, text)
        assert widget.region.bottom <= SIZE[1]
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    footer = screen.query_one(Footer)
    shown = region_text(app, footer.region)
    for key in footer.query(FooterKey):
        assert f"{key.key_display} {key.description}" in shown, (key.description, shown)
    for selector in ("#hand-box", "#players-box", "#table-box"):
        box = screen.query_one(selector)
        title = str(box.border_title)
        assert title in region_text(app, box.region._replace(height=1)), title
        bottom = box.region._replace(y=box.region.bottom - 1, height=1)
        assert str(box.border_subtitle or "") in region_text(app, bottom), box.border_subtitle


def check_dialog_whole(app: RummyApp) -> None:
    """A round's or the match's result dialog at 80x24: its title and every button
    are on the screen in full (the body scrolls)."""
    from textual.widgets import Button

    dialog = app.screen.query_one("#dialog")
    assert dialog.region.bottom <= SIZE[1] and dialog.region.right <= SIZE[0]
    title = app.screen.query_one("#dialog-title")
    assert region_text(app, title.region) == " ".join(str(title.render()).split())
    for button in app.screen.query(Button):
        assert str(button.label) in region_text(app, button.region), button.label
        assert button.region.bottom <= dialog.region.bottom - 1  # inside the frame


@pytest.mark.parametrize(("spec", "seed"), [("gin(deals=1)", 0), ("rami51(deals=1)", 1)])
@sync
async def test_every_message_is_shown_whole_at_80x24(
    spec: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scripted round at 80x24, with a refused move and hints on the way: after each
    key press the message, status, key bar and titles are whole, and at the end every
    message the round showed is shown again and read back whole (they were cut at the
    width: refusals lost their reason's tail, hints their "(press ...)")."""
    app = start(spec, seed=seed)
    messages: list[str] = []
    real = TableScreen.set_message

    def spy(screen: TableScreen, text: str, kind: str = "") -> None:
        messages.append(text)
        real(screen, text, kind)

    policy = GreedyBot()
    rng = random.Random(0)
    monkeypatch.setattr(TableScreen, "set_message", spy)
    async with app.run_test(size=SIZE) as pilot:
        turns = 0
        while True:
            await wait_until(
                pilot, lambda: isinstance(app.screen, RoundSummaryScreen) or my_turn(app)
            )
            if isinstance(app.screen, RoundSummaryScreen):
                break
            assert app.match is not None and turns < 300
            s = app.match.state
            check_shown_whole(app)
            if turns == 0:  # a card is not a move before the draw
                await pilot.press(CARD_KEYS[0], "d", "c")
                check_shown_whole(app)
            if turns in (1, 4):
                await pilot.press("h")
                await wait_until(pilot, lambda: table(app).message.startswith("Hint:"), 30)
                await pilot.pause()  # the message box takes its new height
                check_shown_whole(app)
            await play_move(pilot, app, policy.choose(s.view(app.match.human), rng))
            await pilot.pause()
            if my_turn(app):
                check_shown_whole(app)
            turns += 1
        check_dialog_whole(app)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        await pilot.pause()
        check_dialog_whole(app)
        await pilot.press("escape")
    monkeypatch.undo()
    assert any("Not allowed: " in m for m in messages) and any("(press " in m for m in messages)
    assert any(len(m) > SIZE[0] - 2 for m in messages)  # some would not fit one line
    app = start(spec, seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        for text in dict.fromkeys(messages):
            table(app).set_message(text, "hint")
            await pilot.pause()
            check_shown_whole(app)


# -- wording (issue #20, findings 5 and 7) ---------------------------------------------------
@sync
async def test_counts_are_singular_and_the_level_is_named_once() -> None:
    """ "1 cards" and "1 meld(s)" read as "1 card" and "1 meld"; a bot playing is named
    with its level once."""
    g = build(
        "basic",
        hands=["5H", "3C 4C 5C 8D"],
        table=[(1, "9S 9D 9C")],
        melded=[False, True],
        stock="KD 2C",
        phase=Phase.DRAW,
    )
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        assert str(screen.query_one("#hand-box").border_title).startswith("Your hand · 1 card ·")
        assert screen.query_one("#table-box").border_title == "Table · 1 meld"
        assert "(1 card)" in str(state_text(g))
        app.pace = 5.0  # the bot waits, so its turn shows
        await pilot.press("s")
        await pilot.press(CARD_KEYS[screen.order.index(_cards(g, 0, "KD")[0])], "d")
        assert str(screen.query_one("#hand-box").border_title).startswith("Your hand · 1 card ·")
        status = str(screen.query_one("#status").render())
        assert "Player 2 (easy) is playing" in status and status.count("easy") == 1
    assert rules_summary(Rules.parse("basic(deals=1)"))[-1] == "The match lasts 1 deal."


def test_the_default_bot_is_easy_everywhere() -> None:
    """Issue #20, finding 7: the terminal's default difficulty is the web game's, easy."""
    s = settings_from_options(rules="basic")
    assert s is not None and s.bots == ("easy",) and GameSettings(Rules()).bots == ("easy",)
    s = settings_from_options(rules="rami51", players=4)
    assert s is not None and s.bots == ("easy", "easy", "easy")
    final, _ = play_match("basic(deals=1)", ["Ann", "Bob"], [GreedyBot(), GreedyBot()], seed=3)
    assert "[Bots " not in export_record(final)  # a record from elsewhere: easy bots
    assert Match.from_record(export_record(final)).seats == [None, "easy"]


# -- the hand's order and arrangement (issue #20) --------------------------------------------
@sync
async def test_hand_by_suit_then_rank_then_arranged_into_melds() -> None:
    """By suit first; r shows it by rank, then arranged into the solver's melds with
    the deadwood apart and, before the Rami opening, the points the melds count
    toward the 51; keys and clicks follow the cards as shown."""
    g = build(
        "rami51", hands=["9D QS 4C QH 6C 2S QD 5C", "3C 4C 5C 8D"], stock="2H 3H", phase=Phase.DRAW
    )
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        box = screen.query_one("#hand-box")
        faces = lambda: " ".join(card_text(c) for c in screen.order)  # noqa: E731
        assert faces() == "4♣ 5♣ 6♣ 9♦ Q♦ Q♥ 2♠ Q♠" and "by suit (r)" in str(box.border_title)
        await pilot.press("r")
        assert faces() == "2♠ 4♣ 5♣ 6♣ 9♦ Q♦ Q♥ Q♠"
        assert "by rank (r)" in str(box.border_title)
        await pilot.press("r")
        assert faces() == "4♣ 5♣ 6♣ Q♦ Q♥ Q♠ 9♦ 2♠"
        assert screen.order == arrange_hand(g, g.hands[0]).order
        assert "by melds (r)" in str(box.border_title)
        # Q♦ Q♥ Q♠ (30) and 4-5-6♣ (15) cannot be laid before the opening's 51
        assert box.border_subtitle == "2 melds (45 of 51 points to open), deadwood 11"
        check_shown_whole(app)
        hand = screen.query_one(HandView)
        await pilot.click(HandView, offset=(3 * 4 + 2 + 1, 1))  # Q♦, after the gap
        assert screen.selected == {screen.order[3]}
        await pilot.click(HandView, offset=(3 * 4 + 1, 1))  # the gap itself: nothing
        assert screen.selected == {screen.order[3]}
        await pilot.press("c", CARD_KEYS[6])
        assert screen.selected == {screen.order[6]} and card_text(screen.order[6]) == "9♦"
        assert hand.starts == {3, 6}
        await pilot.press("c", "s")  # the drawn 2♥ joins the deadwood, the melds stay
        assert faces() == "4♣ 5♣ 6♣ Q♦ Q♥ Q♠ 9♦ 2♥ 2♠"
        assert str(box.border_subtitle).endswith("deadwood 13")
        # the order is the app's: a new match (play again) keeps it
        final, _ = play_match("basic(deals=1)", ["Ann", "Bob"], [GreedyBot(), GreedyBot()], 3)
        app.begin(Match(match_start(final), [None, "easy"]))
        await pilot.pause()
        assert "by melds (r)" in str(table(app).query_one("#hand-box").border_title)
        await pilot.press("r")
        assert app.hand_order == "suit"


@sync
async def test_arranged_gin_hand_names_the_deadwood_once() -> None:
    g = build("gin", hands=["2C 3C 4C 7D 7H 7S 9H 9S KD QC", "5C 6C 7C 8D 8H 8S TH TS JD 4H"],
              discard="AS", stock="5D 6D", phase=Phase.DRAW)  # fmt: skip
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        await pilot.press("r", "r")
        screen = table(app)
        box = screen.query_one("#hand-box")
        assert str(box.border_title).endswith("by melds (r) · deadwood 38")
        assert box.border_subtitle == "2 melds"
        assert [len(group) for group in arrange_hand(g, g.hands[0]).groups] == [3, 3, 4]


# -- the end of a round and of the match (issue #20) ---------------------------------------
def rendered(renderable: Any, width: int = 76) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


ASCII_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")
"""A card written as a record writes it (7H): people read faces (7♥) instead."""


def test_cards_left_are_laid_out_with_their_points() -> None:
    """A hand at the end of a round: the melds it still holds, then its deadwood, a
    gap between, and under each card the points it counts."""
    g = build("basic", hands=["KS 8H 7H 9H 2C", "3C 4C 5C 8D"])
    text = card_rows(g, g.hand(0)).plain.splitlines()
    assert text == ["7♥  8♥  9♥    2♣  K♠", " 7   8   9     2  10"]
    result = RoundResult(1, 0, 1, True, RoundEnd.OUT, False, (
        PlayerScore(tuple(g.hand(0)), 36, 0), PlayerScore((), 0, 36),
    ))  # fmt: skip
    body = rendered(round_details(g, result, ["Ann", "Bob"], [0, 36])).splitlines()
    assert body[0] == "Ann  round +0 · total 0" and body[1] == "5 cards left, 36 points:"
    assert body[2:4] == text and "Bob ★  round +36 · total 36" in body
    assert "no cards left" in body


def test_score_history_shows_match_bonuses() -> None:
    """Gin match bonuses come after the last hand: the history shows them as a row of
    their own (the last result's typed ``bonus``), so its totals are the match's."""
    final, _ = play_match("gin_match(target_score=30)", 2, [GreedyBot(), GreedyBot()], seed=2)
    sums = [s[-1] for s in running_totals(final.results, 2)]
    assert sums == final.scores  # the rounds add up, the bonuses included
    bonuses = [ps.bonus for ps in final.results[-1].players]
    assert any(bonuses)  # the game and line bonuses
    for text in (
        rendered(score_history(final.results, final.names, final.scores)),
        rendered(score_history(final.results, final.names)),
    ):
        bonus = next(line for line in text.splitlines() if "bonus" in line)
        for p in range(2):
            assert f"{bonuses[p]:+d} → {final.scores[p]}" in bonus
    plain = rendered(score_history(final.results[:-1], final.names))
    assert "bonus" not in plain  # no bonus before the match's end


@sync
async def test_round_and_match_end_show_hands_history_and_chart() -> None:
    """Gin to two deals: the first hand's summary shows each player's melds laid (the
    next deal has cleared the table) and the cards left with their points, the score
    of the round and the running totals; the match's end shows every round, the chart,
    the winner and play again.  Cards are faces, in the log too."""
    app = start("gin(deals=2)", seed=0)
    async with app.run_test(size=SIZE) as pilot:
        await play_round(pilot, app, lay_best=True)
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen) and app.match is not None
        s = app.match.state
        assert s.round_no == 2 and not s.table  # the table of the hand is gone...
        assert summary.laid and summary.laid == app.match.laid[1]  # ...but was kept
        body = rendered(summary.query_one("#body").query(Static)[0].content)
        for tm in summary.laid:
            assert cells_text(table_cells(s, tm)) in body
        for ps in summary.result.players:
            assert f"{ps.hand_points} points" in body or not ps.cards
        history = rendered(summary.query_one("#body").query(Static)[2].content)
        assert "Score by round" in history and "Running totals" in history
        assert not ASCII_CARD.search(body + history)
        assert not ASCII_CARD.search(" ".join(t for _p, t in app.match.log.lines()))
        await pilot.press("down", "pagedown")  # the body scrolls at 80x24
        assert summary.query_one("#body").scroll_y > 0
        await pilot.press("enter")
        await play_round(pilot, app, lay_best=True)
        await pilot.press("enter")
        end = app.screen
        assert isinstance(end, MatchEndScreen)
        text = rendered(end.query_one("#body").query(Static)[3].content)
        totals = running_totals(s.results, 2)
        assert len(s.results) == 2 and len(totals[0]) == 3
        for p, name in enumerate(s.names):
            assert re.search(rf"^{name} +[▁-█]{{3}} +{totals[p][-1]}$", text, re.M), text
        for r in s.results:
            deltas = [f"{r.players[p].delta:+d} → " for p in range(2)]
            assert all(d in text for d in deltas)
        await pilot.press("a")  # the rematch
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.match.state is not s and app.match.state.round_no == 1


@sync
async def test_contract_deal_by_keys() -> None:
    """Contract Rummy (Bicycle Cards, Wikipedia): a whole first deal at three seats by
    keys, the person offered the discard out of turn buying (b) or passing (n), and
    going down with the contract (m) when the hand holds it."""
    app = start("contract(deals=1)", players=3, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        played = await play_round(pilot, app)
        assert {DRAW_STOCK, DISCARD} <= set(played)
        assert BUY in played or PASS in played, played
        assert app.match is not None
        assert len(app.match.state.results) == 1


@pytest.mark.parametrize(("spec", "players"), [("kalooki_big", 6), ("contract_big", 8)])
@sync
async def test_three_deck_games_by_keys(spec: str, players: int) -> None:
    """The three-deck presets (Wikipedia "Kalooki": three packs for five or six;
    Bicycle Cards: "five or more players use a triple pack"): a whole first deal by
    keys at the most seats, the third deck's cards in the hand as any others."""
    app = start(f"{spec}(deals=1)", players=players, seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await play_round(pilot, app)
        assert app.match is not None
        s = app.match.state
        assert s.num_players == players and len(s.results) == 1


@sync
async def test_rum500_big_with_eight_seats() -> None:
    """500 Rum for five to eight players (HowStuffWorks, "How to Play 500 Rum": "Two to
    eight"; two decks from five): a whole round at eight seats by keys."""
    app = start("rum500_big(deals=1)", players=8, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await play_round(pilot, app)
        assert app.match is not None
        s = app.match.state
        assert s.num_players == 8 and len(s.results) == 1
        assert len(set(s.names)) == 8


@sync
async def test_contract_in_view_and_the_next_one_at_the_deal_end() -> None:
    """Contract Rummy (Bicycle Cards: each deal has its own contract, in a fixed
    order): the status line names the deal and its contract all deal long, whoever
    is to play, and the deal's end says what the next deal asks for."""
    app = start("contract(deals=2)", players=3, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        status = str(table(app).query_one("#status").render())
        assert "Deal 1 of 2: two sets" in status, status
        await play_round(pilot, app)
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        coming = str(summary.query_one("#next-contract", Label).render())
        assert coming == "Next: deal 2 of 2, a set and a run"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        status = str(table(app).query_one("#status").render())
        assert "Deal 2 of 2: a set and a run" in status, status


async def reach_buy_window(pilot: Pilot[Any], app: RummyApp) -> GameState:
    """Play the person's seat (by keys, passing every discard offered) until the
    Contract Rummy buy window is the person's; the state then."""
    policy = GreedyBot()
    rng = random.Random(0)
    for _ in range(300):
        await wait_until(pilot, lambda: my_turn(app))
        assert app.match is not None
        s = app.match.state
        if s.phase is Phase.BUY:
            return s
        await play_move(pilot, app, policy.choose(s.view(app.match.human), rng))
    raise AssertionError("the person was never offered a discard")


@sync
async def test_buying_out_of_turn_has_its_own_keys() -> None:
    """Contract Rummy (Bicycle Cards: "any other player may claim" the discard the
    player in turn declines, "as well as a penalty card"): in the buy window the key
    bar shows b Buy and n Pass, not the draws; s draws nothing; the prompt names the
    card by its face; the hint's key is one that works; after the window the draws
    come back."""
    app = start("contract(deals=1)", players=3, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        s = await reach_buy_window(pilot, app)
        screen = table(app)
        await wait_until(pilot, lambda: "Buy" in _footer_text(app))
        footer = _footer_text(app)
        assert "Pass" in footer and "Stock" not in footer and "Pile" not in footer, footer
        status = str(screen.query_one("#status").render())
        top = card_text(s.discard[-1])
        assert f"buy {top} with 1 penalty card(s) (b) or pass (n)" in status, status
        before = len(s.history)
        await pilot.press("s", "p")
        assert len(s.history) == before and app.match is not None and app.match.state is s
        await pilot.press("h")
        await wait_until(pilot, lambda: screen.message.startswith("Hint:"), timeout=60)
        key = re.search(r"\(press (\w)\)", screen.message)
        assert key is not None and key.group(1) in "bn", screen.message
        await pilot.press(key.group(1))
        assert len(app.match.state.history) > before
        await wait_until(pilot, lambda: my_turn(app) and app.match.state.phase is not Phase.BUY)
        await wait_until(pilot, lambda: "Buy" not in _footer_text(app))
        assert "Stock" in _footer_text(app)


@pytest.mark.parametrize(
    ("spec", "keys"), [("indian", ("k", "x")), ("contract", ("b", "n")), ("gin", ("k", "n"))]
)
@sync
async def test_help_names_the_games_own_keys(spec: str, keys: tuple[str, ...]) -> None:
    """The help (?) lists every key of the game: Indian Rummy's declare and drop,
    Contract Rummy's buy and pass, Gin's knock and pass."""
    app = start(spec, players=3 if spec == "contract" else 2, seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        shown = "\n".join(rendered(w.content) for w in app.screen.query(Static))
        for key in keys:
            assert re.search(rf"^\s*{key}\s+\w", shown, re.M), (key, shown)


@sync
async def test_gin_is_a_game_to_100_and_one_hand_an_option() -> None:
    """Gin Rummy is played as a game to 100 (Pagat, "Gin Rummy": "the game continues
    until a player's score reaches 100"): ``rummy play --rules gin`` plays the match,
    with any options given; ``--deals 1`` or ``gin(deals=1)`` plays one hand; the
    new-game screen offers the game first and one hand as its own entry."""
    for spec in ("gin", "gin(knock_card=8)", " gin "):
        s = settings_from_options(rules=spec)
        assert s is not None and s.rules.name == "gin_match" and s.rules.target_score == 100
    s = settings_from_options(rules="gin(knock_card=8)")
    assert s is not None and s.rules.knock_card == 8
    one_hand = [settings_from_options(rules="gin", deals=1)]
    one_hand.append(settings_from_options(rules="gin(deals=1)"))
    for one in one_hand:
        assert one is not None and one.rules.name == "gin" and one.rules.deals == 1
    app = RummyApp(settings=None, instant=True)
    async with app.run_test(size=(80, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        from textual.widgets import Select

        options = app.screen.query_one("#preset", Select)._options
        labels = {value: str(label) for label, value in options}
        assert labels["gin_match"] == "Gin Rummy, a game to 100"
        assert labels["gin"] == "Gin Rummy, one hand"
        order = [value for _, value in options]
        assert order.index("gin_match") < order.index("gin")


@sync
async def test_new_game_checkboxes_show_on_and_off() -> None:
    """A house rule's checkbox reads on (✓) or off (blank) without colour; Textual's
    own draws X either way."""
    app = RummyApp(settings=None, instant=True)
    async with app.run_test(size=(80, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        from textual.widgets import Checkbox

        box = app.screen.query_one("#opt-multiple_melds", Checkbox)
        box.value = False
        await pilot.pause()
        off = str(box.render())
        box.value = True
        await pilot.pause()
        on = str(box.render())
        assert "✓" in on and "✓" not in off and "X" not in off, (on, off)
