"""The terminal game of Rummikub (preset ``rummikub``): the table's sets numbered and
marked valid or not, a turn edited by keys (tiles moved, sets split and joined, the
turn reset) and submitted as one move, the engine's refusal shown with the edit kept."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from helpers import build
from rummykit.bots.hints import suggest
from rummykit.cards import JOKER, bits, face_of, format_face
from rummykit.moves import PASS, Move
from rummykit.state import GameState, Phase
from rummykit.tui import settings_from_options
from rummykit.tui.app import CARD_KEYS, RummyApp
from rummykit.tui.screens import HelpScreen
from rummykit.tui.session import ENV_DATA_DIR, Match, arrange_clause
from rummykit.tui.tiles import TurnEdit, set_tokens
from rummykit.tui.tiles_screen import SetsView, TilesScreen
from rummykit.variants.rummikub import play_from_sets
from test_tui import region_text


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "data"))


def run(test: Callable[[], Awaitable[None]]) -> Callable[[], None]:
    def sync() -> None:
        asyncio.run(test())

    sync.__name__ = test.__name__
    sync.__doc__ = test.__doc__
    return sync


def split_position(rest: str = "stock") -> GameState:
    """Ann (seat 0) holds 8♣ 8♦ beside a run 5♥ 6♥ 7♥ 8♥: her only play splits the
    run before 8♥ and makes the group 8♣ 8♦ 8♥."""
    return build(
        "rummikub",
        hands=["8C 8D AS 2C", "3S 9D KC"],
        table=[(1, "5H 6H 7H 8H")],
        phase=Phase.TILES,
        opened=[True, True],
        melded=[True, True],
        laid=[True, True],
        rest=rest,
    )


def app_for(state: GameState, lang: str = "en") -> RummyApp:
    return RummyApp(match=Match(state, [None, "easy"]), instant=True, lang=lang)


async def until(pilot: Pilot[Any], cond: Callable[[], bool], timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        await pilot.pause(0.005)


def rack_key(screen: TilesScreen, face: str) -> str:
    """The key of the rack tile ``face`` (``8C``)."""
    from rummykit.cards import face_of, format_face

    index = next(i for i, c in enumerate(screen.order) if format_face(face_of(c)) == face)
    return CARD_KEYS[index]


def sets_text(app: RummyApp) -> str:
    return str(app.screen.query_one(SetsView).render())


def test_turn_edit_keeps_every_tile() -> None:
    """Splitting, joining, moving and resetting never lose or double a tile."""
    s = split_position()
    e = TurnEdit(s, 0)
    tiles = sorted(c for st in e.sets for c in st)
    assert e.split(0, 3) and len(e.sets) == 2
    e.selected = {c for c in e.start_sets[0]}
    e.move_selected(None)
    assert sorted(c for st in e.sets for c in st) == tiles and len(e.sets) == 1
    assert e.join(0) is False
    e.reset()
    assert e.sets == e.start_sets and e.rack == s.hands[0] and not e.changed


def test_joined_sets_read_as_one_set() -> None:
    """Two runs that meet join into one run, in order, valid by the engine's check;
    tiles placed this turn go back to the rack, the table's stay."""
    s = build(
        "rummikub",
        hands=["JK 2C", "3S"],
        table=[(1, "8H 9H TH"), (1, "5H 6H 7H")],
        phase=Phase.TILES,
        opened=[True, True],
    )
    e = TurnEdit(s, 0)
    first = [format_face(face_of(c)) for c in e.sets[0]]
    assert e.join(0) and len(e.sets) == 1 and e.valid(0)
    assert set_tokens(e.sets[0]) == ["5H", "6H", "7H", "8H", "9H", "TH"]
    joker = next(c for c in bits(e.rack) if face_of(c) == JOKER)
    e.selected = {joker, e.sets[0][0]}
    e.move_selected(0)
    assert set_tokens(e.sets[0])[-1] == "JK" and e.valid(0)
    e.selected = set(e.sets[0])
    assert e.to_rack() == 1 and e.rack == s.hands[0] and len(e.sets[0]) == 6
    assert first in (["5H", "6H", "7H"], ["8H", "9H", "TH"])


@run
async def test_a_turn_that_splits_a_table_set_is_played() -> None:
    """Split the run before 8♥ (↑, ] ] ], /), move 8♣ 8♦ onto 8♥ (↓, keys, m), see both
    sets marked valid, submit (Enter): the engine's table holds the new sets."""
    app = app_for(split_position())
    async with app.run_test(size=(110, 36)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TilesScreen))
        screen = app.screen
        assert isinstance(screen, TilesScreen)
        await pilot.press("up", "right_square_bracket", "right_square_bracket")
        await pilot.press("right_square_bracket", "slash")
        assert len(screen.edit.sets) == 2
        await pilot.press("down", rack_key(screen, "8C"), rack_key(screen, "8D"), "m")
        text = sets_text(app)
        assert text.count("✓") == 2 and "✗" not in text, text
        await pilot.press("enter")
        state = app.match.state
        t = state.game.melds
        want = play_from_sets(t, ["5H 6H 7H", "8C 8D 8H"])
        await until(pilot, lambda: len(state.history) >= 1)
        assert state.game.actions.decode(state.history[0]) == want
        described = sorted(t.describe(tm.shape) for tm in state.table)
        assert "5H 6H 7H" in described or len(state.history) > 1, described
        assert any("placed 2 tiles" in line for _seat, line in app.match.log.lines())


@run
async def test_an_invalid_submit_changes_nothing_and_says_why() -> None:
    """A♠ alone as a new set (p) is marked ✗; Enter shows the engine's reason, with no
    rule code, and the state and the edit stay as they were; Backspace resets."""
    state = split_position()
    app = app_for(state)
    async with app.run_test(size=(110, 36)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TilesScreen))
        screen = app.screen
        assert isinstance(screen, TilesScreen)
        await pilot.press(rack_key(screen, "AS"), "p")
        assert "✗" in sets_text(app)
        await pilot.press("enter")
        s = app.match.state
        assert s.history == [] and len(s.table) == 1
        assert screen.refused_rule == "invalid_set"
        assert "Not allowed: A♠ is not a set" in screen.message, screen.message
        assert "invalid_set" not in screen.message
        assert len(screen.edit.sets) == 2
        await pilot.press("backspace")
        assert screen.edit.sets == screen.edit.start_sets


@run
async def test_the_hint_shows_the_reviews_best_play_and_s_passes_on_an_empty_pool() -> None:
    """h shows the play the round's review grades best (``hints.suggest``, here the
    solver's) as the sets it leaves; with the pool empty, s passes (the turn of a
    player who does not play then)."""
    app = app_for(split_position(rest="none"))
    async with app.run_test(size=(110, 36)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TilesScreen))
        screen = app.screen
        assert isinstance(screen, TilesScreen)
        await pilot.press("h")
        s = app.match.state
        best = suggest(s.view(app.match.human)).move
        assert screen.message == "Hint: " + arrange_clause(s, best)
        assert screen.message.startswith("Hint: placed 2 tiles:"), screen.message
        assert "8♣ 8♦ 8♥" in screen.message and "5♥ 6♥ 7♥" in screen.message
        assert "pass (s)" in str(screen.query_one("#status").render())
        await pilot.press("s")
        state = app.match.state
        await until(pilot, lambda: len(state.history) >= 1)
        assert state.game.actions.decode(state.history[0]) == Move(PASS)


@run
async def test_french_key_names() -> None:
    """The key bar and the help screen name the Rummikub keys in French."""
    app = app_for(split_position(), lang="fr")
    async with app.run_test(size=(110, 36)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TilesScreen))
        names = {b.binding.description for b in app.screen.active_bindings.values()}
        assert {"Poser", "Piocher", "Scinder", "Réunir", "Annuler"} <= names, names
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = region_text(app, app.screen.query_one("#dialog").region)
        assert (
            "/ scinder la combinaison choisie" in shown and "Entrée jouer la disposition" in shown
        )
        assert "défausser" not in shown, shown


def test_rummy_play_rules_rummikub_starts_and_a_saved_game_resumes() -> None:
    """``rummy play --rules rummikub`` is accepted and the new-game screen offers it;
    a match saved after plays resumes with the same table and the plays in its log."""
    import random

    from rummykit.moves import ARRANGE
    from rummykit.tui.lang import set_lang
    from rummykit.tui.session import TUI_PRESETS

    set_lang("en")
    assert "rummikub" in TUI_PRESETS
    m = Match.start(settings_from_options(rules="rummikub", bots="easy", seed=3))
    rng = random.Random(0)
    s = m.state
    while not any(s.game.actions.decode(a).kind == ARRANGE for a in s.history):
        assert len(s.history) < 200
        bot = m.bots[s.current]
        m.apply(bot.choose(s.view(s.current), rng) if bot else s.legal_moves()[-1])
    resumed = Match.from_record(m.record())
    assert resumed.state.table == s.table and resumed.state.hands == s.hands
    assert any(" placed " in line for _seat, line in resumed.log.lines())
