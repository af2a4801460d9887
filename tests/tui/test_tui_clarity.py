"""What a player reads in the terminal (issue 28, at the table, findings 6, 9 and 10):
500 Rum's deep draw said in words, and the games by their names, never a preset's id,
a seed citation or a rule code."""

from __future__ import annotations

import pytest
from textual.widgets import Select

from helpers import build
from rummykit.bots.explain import refusal
from rummykit.cards import parse_face
from rummykit.i18n import DEEP_DRAW, error_text, game_description, game_title
from rummykit.i18n.games import GAMES
from rummykit.moves import DISCARD, DRAW_DEEP, MELD, Move
from rummykit.rules import PRESET_SOURCES, PRESETS, Rules
from rummykit.state import Phase
from rummykit.tui.app import RummyApp
from rummykit.tui.screens import ChoiceScreen, NewGameScreen
from rummykit.tui.session import (
    ENV_DATA_DIR,
    GameSettings,
    Match,
    choice_text,
    move_clause,
    save_match,
    saved_games,
)
from rummykit.tui.widgets import PilesBar
from test_tui import SIZE, sync, table, wait_until, with_match


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "data"))


def deep_position():  # type: ignore[no-untyped-def]
    """500 Rum, Ann to draw: the pile is 9C 4D 7S (7S on top); 9C melds with her 9H 9S,
    so she may take 9C with the two cards above it, and 7S with her 7H 7D
    (HowStuffWorks, "How to Play 500 Rum": "a player may take any card of the discard
    pile ... all the cards above it must be taken too ... the card must be used
    immediately")."""
    return build(
        "rum500",
        hands=["9H 9S 7H 7D 5C 8H KD", "3C 4C 6H 8D JD JS 2S"],
        discard="9C 4D 7S",
        phase=Phase.DRAW,
    )


def test_the_deep_draw_in_words_shared_by_both_front_ends() -> None:
    """The chooser lists the cards a draw picks up; the log says "took 9♣ and the 2
    cards above it" (one wording, i18n.DEEP_DRAW, which the web page's catalog repeats)."""
    g = deep_position()
    deep = Move(DRAW_DEEP, 3)
    assert deep in g.legal_moves()
    assert choice_text(g, deep) == "take 9♣, with 4♦ 7♠ above it"
    assert move_clause(g, deep) == "took 9♣ and the 2 cards above it"
    assert DEEP_DRAW["en"][1].format(card="9♣", n=2) == "took 9♣ and the 2 cards above it"


def test_a_refusal_names_the_card_to_use_after_a_deep_draw() -> None:
    """After the deep draw, a discard is refused until 9C is used: the reason says so
    with the card's face, in English and French, and no seed citation."""
    g = deep_position()
    g.apply(Move(DRAW_DEEP, 3))
    exc = refusal(g, DISCARD)
    assert exc is not None and exc.rule == "pending_card_must_be_used"
    assert error_text(exc.rule, exc.reason, "en") == "use 9♣ in a meld or a lay-off first"
    assert error_text(exc.rule, exc.reason, "fr") == (
        "posez d'abord le 9♣ dans une combinaison, ou ajoutez-le à l'une d'elles"
    )
    assert refusal(g, MELD) is None  # 9C 9H 9S melds
    g2 = deep_position()
    first = refusal(g2, DISCARD)
    assert first is not None and first.rule == "draw_first"
    assert error_text(first.rule, str(first), "en") == "a turn starts by drawing a card"


@sync
async def test_terminal_status_marks_and_log_of_a_deep_draw() -> None:
    g = deep_position()
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: table(app).match.my_turn)
        screen = table(app)
        status = str(screen.query_one("#status").render())
        assert "500 Rum" in status and "rum500" not in status
        assert "take (p) 9♣ (with the 2 cards above it) and the top card, 7♠" in status
        piles = screen.query_one(PilesBar)
        assert piles.takeable == {0}  # 9C, the bottom card, is marked as takeable
        assert "▸9♣" in str(piles.render())
        await pilot.press("p")
        assert isinstance(app.screen, ChoiceScreen)
        options = app.screen.options
        assert options == ["take 7♠, the top card", "take 9♣, with 4♦ 7♠ above it"]
        await pilot.press("2")
        await wait_until(pilot, lambda: g.pending >= 0)
        lines = [text for _seat, text in screen.match.log.lines()]
        assert lines[-1].endswith(" took 9♣ and the 2 cards above it.")
        assert screen.query_one(PilesBar).takeable == set()


def test_one_table_of_game_names_for_every_preset() -> None:
    """Every preset has a title and a plain description in both languages, and none of
    them cites a seed; the citation stays in PRESET_SOURCES for `rummy rules`."""
    assert set(GAMES) == set(PRESETS) == set(PRESET_SOURCES)
    for name in PRESETS:
        for lang in ("en", "fr"):
            title, about = game_title(name, lang), game_description(name, lang)
            assert title and about and title != name
            assert "seed" not in title + about and "_" not in title
    assert game_title("indian_pool101", "en") == "Indian Rummy, Pool 101"
    assert game_title("gin_match", "en") == "Gin Rummy, a game to 100"


@sync
async def test_new_game_screen_and_saves_name_the_games() -> None:
    """The new-game screen lists every game by its title with a plain line about it,
    and the saved-game chooser names each save by its game."""
    app = RummyApp(settings=None, instant=True)
    async with app.run_test(size=(80, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        options = app.screen.query_one("#preset", Select)._options
        labels = {value: str(label) for label, value in options}
        assert labels["indian_pool101"] == "Indian Rummy, Pool 101"
        assert all(label != value and "_" not in label for value, label in labels.items())
        about = str(app.screen.query_one("#preset-about").render())
        assert about and "seed" not in about
    m = Match.start(GameSettings(Rules.preset("indian_pool101"), name="Ann", seed=3))
    save_match(m)
    (saved,) = saved_games()
    assert saved.label().startswith("Indian Rummy, Pool 101: round 1, turn 1")


@sync
async def test_a_refused_move_shows_no_rule_code_or_seed() -> None:
    g = deep_position()
    app = with_match(g)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: table(app).match.my_turn)
        screen = table(app)
        screen.try_move(Move(DISCARD, parse_face("5C")))
        assert screen.refused_rule == "draw_first"
        assert screen.message == "Not allowed: a turn starts by drawing a card"


def test_cards_in_a_reviews_moves_read_10_not_t() -> None:
    """The review lists moves in the notation's Unicode form (``discard T♣``); the
    terminal's review screen shows each through ``localize_cards``, which writes the
    ten as players read it, 10♣ (and the French court letters)."""
    from rummykit.i18n import localize_cards

    assert localize_cards("discard T♣", "en") == "discard 10♣"
    assert localize_cards("meld T♦ J♦ Q♦", "fr") == "meld 10♦ V♦ D♦"
    assert localize_cards("layoff 10♥ to 2", "en") == "layoff 10♥ to 2"
