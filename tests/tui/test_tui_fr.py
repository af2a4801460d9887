"""The terminal game in French (issue #20: "the terminal game can follow with --lang
fr"): ``--lang`` and its defaults, every text of a scripted round at 80x24 shown whole
in French (the same check as the English one in test_tui.py), and the screens around
the table in French.  The keys stay the same in both languages."""

from __future__ import annotations

import argparse
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import build
from rummykit.bots import GreedyBot, play_match
from rummykit.cards import face_of
from rummykit.i18n import card_text, tr
from rummykit.moves import DISCARD, DRAW_DISCARD, Move
from rummykit.rules import Rules
from rummykit.state import Phase
from rummykit.tui import (
    add_play_arguments,
    add_replay_arguments,
    game_lang,
    replay_main,
    settings_from_options,
)
from rummykit.tui.app import CARD_KEYS, RummyApp, TableScreen
from rummykit.tui.lang import lang, set_lang
from rummykit.tui.screens import (
    HelpScreen,
    MatchEndScreen,
    NewGameScreen,
    RoundSummaryScreen,
    state_text,
)
from rummykit.tui.session import GameSettings, Match, move_clause, replay_steps
from test_tui import (
    SIZE,
    _footer_text,
    check_dialog_whole,
    check_shown_whole,
    my_turn,
    play_move,
    region_text,
    sync,
    table,
    wait_until,
)

ENGLISH = re.compile(
    r"\b(the|your|you|draw|meld|discard|stock|pile|hint|not allowed|press|round|"
    r"deadwood|knock|take|wait)\b",
    re.I,
)
"""English words that must not be left in a French message (card names, rule codes
and proper names aside)."""


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """The app's language is the process's (one game runs at a time): back to English
    after each test, for the other tests."""
    yield
    set_lang("en")


def start_fr(spec: str, seed: int = 2, players: int = 2) -> RummyApp:
    set_lang("fr")
    settings = settings_from_options(
        rules=spec, players=players, bots="easy", name="Ann", seed=seed
    )
    return RummyApp(settings=settings, instant=True, lang="fr")


def _french(text: str) -> bool:
    """No English word is left, and no rule code or seed citation either."""
    return ENGLISH.search(text) is None and "règle :" not in text and "seed" not in text


def test_lang_option_and_its_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    add_play_arguments(sub.add_parser("play"))
    add_replay_arguments(sub.add_parser("replay"))
    assert parser.parse_args(["play", "--lang", "fr"]).lang == "fr"
    assert parser.parse_args(["replay", "g.rummy", "--lang", "en"]).lang == "en"
    assert parser.parse_args(["play"]).lang is None
    with pytest.raises(SystemExit):
        parser.parse_args(["play", "--lang", "de"])
    assert game_lang("fr", {}) == "fr"
    assert game_lang("en", {"RUMMYKIT_LANG": "fr"}) == "en"  # the option first
    assert game_lang(None, {"RUMMYKIT_LANG": "fr", "LANG": "en_US.UTF-8"}) == "fr"
    assert game_lang(None, {"LANG": "fr_FR.UTF-8"}) == "fr"
    assert game_lang(None, {"LC_ALL": "fr_CA.UTF-8", "LANG": "en_GB.UTF-8"}) == "fr"
    assert game_lang(None, {"LANG": "C.UTF-8"}) == "en"
    assert game_lang(None, {}) == "en"
    for var in ("RUMMYKIT_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "fr_BE.UTF-8")
    assert game_lang(None) == "fr"


def test_flags_errors_and_names_in_french() -> None:
    set_lang("fr")
    s = settings_from_options(rules="basic", players=2)
    assert s is not None and s.names()[0] == "Vous"
    with pytest.raises(ValueError, match="--bots donne 3 robots pour 3 joueurs"):
        settings_from_options(players=3, bots="easy,easy,easy")
    # `--rules gin` plays the game to 100, gin_match, and its error names it
    with pytest.raises(ValueError, match=r"^gin_match se joue à 2 joueurs exactement, pas 3$"):
        settings_from_options(rules="gin", players=3)
    with pytest.raises(ValueError, match="pas les deux"):
        settings_from_options(rules="basic", target=50, deals=2)
    m = Match.start(GameSettings(Rules.preset("basic"), name="Ann", bots=("easy",), seed=3))
    assert m.seat_labels() == ["vous", "facile"]
    assert m.log.lines()[0] == (-1, f"Manche 1 : {m.state.names[m.state.dealer]} donne.")
    g = build("basic", hands=["QH KH 2C", "3C 4C 5C 8D"], discard="JS", phase=Phase.DRAW)

    assert move_clause(g, Move(DRAW_DISCARD)) == "a pris le V♠ de la défausse"
    g.apply(Move(DRAW_DISCARD))
    assert move_clause(g, Move(DISCARD, 11 + 26)) == "a défaussé le D♥"


@pytest.mark.parametrize(("spec", "seed"), [("gin(deals=1)", 0), ("rami51(deals=1)", 1)])
@sync
async def test_every_message_is_shown_whole_at_80x24_in_french(
    spec: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The English test's scripted round, in French: a refused move and hints on the
    way; after each key press the message, status, key bar and titles are whole; at
    the end every message is shown again and read back whole; none is left in English."""
    app = start_fr(spec, seed=seed)
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
            if turns == 0:
                screen = table(app)
                assert str(screen.query_one("#hand-box").border_title).startswith("Votre main")
                assert "s Pioche" in _footer_text(app) and "Aide" in _footer_text(app)
                await pilot.press(CARD_KEYS[0], "d", "c")
                check_shown_whole(app)
            if turns in (1, 4):
                await pilot.press("h")
                await wait_until(pilot, lambda: table(app).message.startswith("Conseil :"), 30)
                await pilot.pause()  # the message box takes its new height
                check_shown_whole(app)
            await play_move(pilot, app, policy.choose(s.view(app.match.human), rng))
            await pilot.pause()
            if my_turn(app):
                check_shown_whole(app)
            turns += 1
        check_dialog_whole(app)
        title = str(app.screen.query_one("#dialog-title").render())
        assert title.startswith("Manche 1 : "), title
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        await pilot.pause()
        check_dialog_whole(app)
        assert "Partie finie après 1 manche." in str(app.screen.query_one("#dialog-title").render())
        await pilot.press("escape")
    monkeypatch.undo()
    assert any("Interdit : " in m for m in messages) and any("(touche " in m for m in messages)
    assert any(len(m) > SIZE[0] - 2 for m in messages)
    left_in_english = [m for m in messages if m and not _french(m)]
    assert left_in_english == []
    app = start_fr(spec, seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        for text in dict.fromkeys(messages):
            table(app).set_message(text, "hint")
            await pilot.pause()
            check_shown_whole(app)
        status = str(table(app).query_one("#status").render())
        assert "À vous" in status and _french(status), status
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        shown = region_text(app, app.screen.query_one("#dialog").region)
        assert (
            "Aide · " in shown
            and "p / clic Défausse prendre" in shown
            and "défausser la carte choisie" in shown
        ), shown
        rules = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "Combinaisons :" in rules and "À l'écran" in rules
        await pilot.press("escape")
    assert lang() == "fr"


@sync
async def test_new_game_screen_in_french() -> None:
    set_lang("fr")
    app = RummyApp(initial=GameSettings(Rules.preset("rami51"), seed=4), lang="fr")
    async with app.run_test(size=(80, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        shown = " ".join(str(w.render()) for w in screen.query("Label"))
        for words in ("nouvelle partie", "Votre nom", "Joueurs", "Robots", "Règles maison"):
            assert words in shown, words
        about = str(screen.query_one("#preset-about").render())
        assert "Rami français" in about and "ouverture de 51 points" in about
        from textual.widgets import Input

        screen.query_one("#goal", Input).value = "0"
        await pilot.press("ctrl+s")
        error = str(screen.query_one("#error").render())
        assert error.startswith("Impossible de commencer : la durée"), error
        screen.query_one("#goal", Input).value = "1"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.match is not None and app.match.state.names[0] == "Vous"


def test_catalog_lookups_used_here() -> None:
    assert tr("fr", "pile|Discard") == "Défausse" and tr("en", "pile|Discard") == "Discard"
    assert tr("fr", "Discard") == "Jette"  # the key bar's short word
    assert tr("en", "replay|Start") == "Start"


@sync
async def test_replay_in_french(tmp_path: Any) -> None:
    final, _ = play_match("basic(deals=1)", ["Ann", "Bob"], [GreedyBot(), GreedyBot()], seed=3)
    set_lang("fr")
    steps = replay_steps(final)
    assert steps[0].text.startswith("Manche 1 : ") and steps[0].text.endswith(" donne.")
    assert steps[-1].text.count("Manche 1 : ") == 1  # how the round ended
    body = state_text(steps[-1].state).plain
    assert "Pioche" in body and "Défausse" in body and "La partie est finie." in body
    app = RummyApp(replay=(steps, "partie.rummy"), lang="fr")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right", "right")
        head = str(app.screen.query_one("#replay-head").render())
        assert head.startswith("Relecture partie.rummy étape 2/")
        footer = _footer_text(app)
        assert "Suivant" in footer and "Retour" in footer and "Fin" in footer, footer
        await pilot.press("q")
    path = tmp_path / "absent.rummy"
    with pytest.raises(ValueError, match=r"^impossible de lire"):
        replay_main(path, "fr")


@sync
async def test_contract_and_buy_prompt_in_french() -> None:
    """Contract Rummy in French: the deal and its contract in the status line, and the
    buy prompt with its keys (b, n) and the card's face (Bicycle Cards: the discard
    declined by the player in turn may be bought, "as well as a penalty card")."""
    from test_tui import reach_buy_window

    app = start_fr("contract(deals=1)", seed=5, players=3)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        status = str(table(app).query_one("#status").render())
        assert "Donne 1 sur 1 : deux brelans" in status, status
        s = await reach_buy_window(pilot, app)
        status = str(table(app).query_one("#status").render())
        top = card_text(face_of(s.discard[-1]), "fr")
        assert f"achetez {top} avec 1 carte(s) de pénalité (b) ou passez (n)" in status, status
        await wait_until(pilot, lambda: "Acheter" in _footer_text(app))
