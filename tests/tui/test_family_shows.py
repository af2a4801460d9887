"""A family says once what it shows (rummykit/variants/show.py): a toy family that adds
a status line is shown by the terminal game and the web page alike, through their
generic paths, with no change to either front end (only the catalog words its code)."""

from __future__ import annotations

import pytest

import toy_family
from rummykit.cards import bits, face_of
from rummykit.i18n import card_text
from rummykit.i18n.shows import SHOWS
from rummykit.state import new_game
from rummykit.web.protocol import view_payload
from test_tui import SIZE, my_turn, start, sync, table, wait_until


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The draw-meld-discard family, with two more status lines and their words."""
    toy_family.install(monkeypatch)


@pytest.mark.usefixtures("toy")
@sync
async def test_the_terminal_shows_a_new_status_line() -> None:
    app = start("basic", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        screen = table(app)
        assert app.match is not None
        low = min(bits(app.match.state.hands[0]))
        assert "· tide 7" in str(screen.query_one("#status").render())
        title = str(screen.query_one("#hand-box").border_title)
        assert title.endswith(f" · lowest {card_text(face_of(low), 'en')}"), title


@pytest.mark.usefixtures("toy")
def test_the_web_payload_carries_a_new_status_line() -> None:
    g = new_game("basic", 2, seed=5)
    low = min(bits(g.hands[0]))
    status = view_payload(g.view(0))["status"]
    assert status == [
        {"code": "toy_tide", "params": {"n": 7}, "own": False, "text": "tide 7",
         "text_fr": "marée 7"},
        {"code": "toy_low", "params": {"card": low}, "own": True,
         "text": f"lowest {card_text(face_of(low), 'en')}",
         "text_fr": f"la plus basse : {card_text(face_of(low), 'fr')}"},
    ]  # fmt: skip
    spectator = view_payload(g.view(0), spectator=True)["status"]
    assert [line["code"] for line in spectator] == ["toy_tide"]  # nothing of a hand


def test_every_family_line_and_key_has_english_and_french() -> None:
    """Each status line and key help the real families show is in both catalogs."""
    from rummykit.i18n.rulebook_fr import RULES_FR
    from rummykit.rulebook import RULES_EN
    from rummykit.variants import VARIANTS

    assert set(SHOWS["en"]) == set(SHOWS["fr"])
    assert set(RULES_EN) == set(RULES_FR)
    seen: set[str] = set()
    for spec in ("gin", "indian", "contract", "rum500", "rami51"):
        g = new_game(spec, 3 if spec == "contract" else 2, seed=1)
        variant = g.game.variant
        assert type(variant) in VARIANTS
        seen |= {line.code for line in variant.status(g, g.hands[0])}
        seen |= {a.help for a in variant.actions()}
    assert {"contract", "wild", "count", "deadwood", "key.knock", "key.drop"} <= seen
    assert seen <= set(SHOWS["en"])
