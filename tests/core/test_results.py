"""How a round ends is a :class:`RoundEnd`: its values are the words saves, positions
and the web protocol have always written, and the engine hands out the enum itself."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rummykit import new_game
from rummykit.bots import make_bot, play_match
from rummykit.i18n import round_text
from rummykit.results import RoundEnd
from rummykit.scoring import PlayerScore, RoundResult, describe_round
from rummykit.serialize import result_to_dict, state_from_json, state_to_json

WORDS = (
    "out", "knock", "gin", "declare", "drop", "wrong_show", "wall", "restock_limit",
    "no_draw", "turn_limit", "repeated", "upcard_limit",
)  # fmt: skip
"""Every round end as saved games write it."""


def test_the_round_ends_are_the_words_saves_write() -> None:
    assert [e.value for e in RoundEnd] == list(WORDS)
    for word in WORDS:
        assert RoundEnd(word) is RoundEnd[word.upper()]
        assert json.dumps(RoundEnd(word)) == json.dumps(word)
        assert f"{RoundEnd(word)}" == word


@pytest.mark.parametrize(
    ("spec", "players"),
    [("basic(deals=2)", 2), ("gin(deals=2)", 2), ("indian(deals=2)", 3), ("rum500(deals=1)", 2)],
)
def test_a_played_match_holds_round_ends_that_survive_a_save(spec: str, players: int) -> None:
    state, _ = play_match(spec, players, [make_bot("greedy") for _ in range(players)], seed=4)
    assert state.results and all(type(r.reason) is RoundEnd for r in state.results)
    again = state_from_json(state_to_json(state))
    assert again.results == state.results
    assert all(type(r.reason) is RoundEnd for r in again.results)
    assert [result_to_dict(r)["reason"] for r in again.results] == [
        r.reason.value for r in state.results
    ]


def test_every_round_end_has_words_in_both_languages() -> None:
    """describe_round and its French read the enum: no reason falls through to a
    crash, and each line names the round end's player where it has one."""
    for end in RoundEnd:
        scores = (PlayerScore((), 0, 0), PlayerScore((), 0, 10))
        result = RoundResult(1, 0, 1, True, end, False, scores)
        for text in (
            describe_round(result, ["Ann", "Bob"]),
            round_text(result, ["Ann", "Bob"], "fr"),
        ):
            assert text and "RoundEnd" not in text, (end, text)


def test_a_turn_limit_ends_the_round_with_its_enum() -> None:
    g = new_game("basic(max_turns=4)", 2, seed=1)
    while g.round_no == 1 and not g.is_over():
        g.apply(g.legal_moves()[0])
    assert g.results[0].reason is RoundEnd.TURN_LIMIT
    assert dataclasses.replace(g.results[0]).reason is RoundEnd.TURN_LIMIT
