"""A toy family for the tests that a family's status lines reach both front ends with
no change to them: the draw-meld-discard family with a public line (the deal's
"tide") and one about the player's own hand (its lowest card), worded in the
catalog (:mod:`rummykit.i18n.shows`)."""

from __future__ import annotations

import pytest

from rummykit.cards import bits
from rummykit.i18n.shows import SHOWS
from rummykit.state import GameState
from rummykit.variants import Rummy
from rummykit.variants.show import StatusLine
from rummykit.view import PlayerView


def toy_status(self: Rummy, g: GameState | PlayerView, hand: int) -> list[StatusLine]:
    """The toy family's lines: the deal's tide (public), and the player's lowest card."""
    out = [StatusLine("toy_tide", {"n": g.round_no + 6})]
    if hand:
        out.append(StatusLine("toy_low", {"card": min(bits(hand))}, own=True))
    return out


def install(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the draw-meld-discard family the toy one, its codes in both languages."""
    monkeypatch.setattr(Rummy, "status", toy_status)
    monkeypatch.setitem(SHOWS["en"], "toy_tide", "tide {n}")
    monkeypatch.setitem(SHOWS["fr"], "toy_tide", "marée {n}")
    monkeypatch.setitem(SHOWS["en"], "toy_low", "lowest {card}")
    monkeypatch.setitem(SHOWS["fr"], "toy_low", "la plus basse : {card}")
