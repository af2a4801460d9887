"""The web page shows a family's new status line with no change to the page: the toy
family of tests/tui/test_family_shows.py (a public line and one about the player's own
hand), served by a real server, in English and in French."""

from __future__ import annotations

from typing import Any

import pytest

import test_web_browser as wb
import toy_family
from rummykit.cards import face_of
from rummykit.i18n import card_text
from web_helpers import ServerThread

pytestmark = wb.pytestmark
server = wb.server
browser = wb.browser


def test_the_page_shows_a_new_status_line(
    server: ServerThread, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    toy_family.install(monkeypatch)
    t = wb.create(
        server,
        {"rules": "basic", "seats": [{"name": "Ann"}, {"kind": "bot", "difficulty": "easy"}]},
    )
    en = wb.new_page(browser)
    fr = wb.new_page(browser, locale="fr-FR")
    en.goto(server.base + t["seats"][0]["link"])
    fr.goto(server.base + t["watch"])  # a spectator: the public line, nothing of a hand
    for page in (en, fr):
        page.wait_for_function("window.rummy.state !== null")
    assert en.inner_text("#toy_tide") == "tide 7"
    assert fr.inner_text("#toy_tide") == "marée 7"
    en.wait_for_function("window.rummy.state.game.current === 0")
    low = min(wb.state(en)["game"]["hand"])
    assert f"lowest {card_text(face_of(low), 'en')}" in en.inner_text("#status")
    assert "lowest" not in en.inner_text("#shows")  # own lines go with the advice
    assert "plus basse" not in fr.inner_text("body")
    for page in (en, fr):
        page.close()
