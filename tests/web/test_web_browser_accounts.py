"""The account panel in a real browser (Chromium), in French: sign up, play under the
username (the page's POSTs carry the session's CSRF token), a wrong password worded
in the page's language, and a guest's hostile seat name shown as text, never run."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from rummykit.web import Settings
from test_web_browser import CHROMIUM, browser, custom_table, new_page
from web_helpers import ServerThread

__all__ = ["browser"]

pytestmark = [
    pytest.mark.web_slow,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium is not installed"),
]
HOSTILE = "<svg onload=pwned=1>"
"""A guest's seat name (24 characters at most) that would run if parsed as HTML."""


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    db = Path(tempfile.mkdtemp()) / "web.db"
    settings = Settings(
        database_url=f"sqlite:///{db}", bot_delay=0.05, password_time_cost=1,
        password_memory_kib=1024, password_parallelism=1,
    )  # fmt: skip
    with ServerThread(settings) as s:
        yield s


def test_sign_up_play_under_the_username_and_names_stay_text(
    server: ServerThread, browser: Any
) -> None:
    r = httpx.post(
        server.base + "/api/tables",
        json={"rules": "basic", "public": True, "seats": [{"name": HOSTILE}, {"open": True}]},
    )
    assert r.status_code == 200, r.text
    page = new_page(browser, locale="fr-FR")
    page.goto(server.base + "/")
    page.wait_for_selector("#account-form")
    assert page.inner_text("#account h2") == "Compte"
    # the guest's name is in the public list as the text it is
    page.wait_for_selector(".table-entry")
    assert HOSTILE in page.inner_text("#public-tables")
    assert page.evaluate("window.pwned") is None and page.locator("#public-tables svg").count() == 0
    page.fill("#account-username", "Amélie")
    page.fill("#account-password", "mot de passe secret")
    page.click("#sign-up")
    page.wait_for_selector("#signed-in-as")
    assert page.inner_text("#signed-in-as") == "Connecté en tant que Amélie"
    assert page.input_value("#my-name") == "Amélie" and page.is_disabled("#my-name")
    assert page.locator("#pair-guest").is_hidden()  # a guest's note on quick pairing
    custom_table(page)
    page.click("#play-now")  # a POST with the session's token
    page.wait_for_url("**/play/**")
    page.wait_for_function("window.rummy && window.rummy.state")
    seats = page.evaluate("window.rummy.state.table.seats")
    assert seats[0]["name"] == "Amélie" and seats[0]["account"] is True
    # another browser, a wrong password: the refusal in French
    other = new_page(browser, locale="fr-FR")
    other.goto(server.base + "/")
    other.wait_for_selector("#account-form")
    other.fill("#account-username", "amélie")
    other.fill("#account-password", "pas le bon")
    other.click("#sign-in")
    other.wait_for_function("document.querySelector('#account-error').textContent !== ''")
    assert other.inner_text("#account-error") == "Nom d'utilisateur ou mot de passe incorrect."
