"""The journal of the OpenSpiel strength run (benchmarks/gin_strength.py), which lets a
run of hours resume where it stopped.  Playing needs OpenSpiel (``make peers``); what
the journal holds is read and tabulated without it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import gin_strength
from gin_strength import HandResult, PairJournal, play_pairs, summarise

from rummykit.journal import Journal, JournalError
from rummykit.results import RoundEnd

HEAD = {"bench": "gin_strength", "bot": "medium", "seed": 16}


def pair(i: int) -> tuple[HandResult, HandResult]:
    return (
        HandResult(float(i), RoundEnd.KNOCK, True, 7, 0.5),
        HandResult(-25.0, RoundEnd.GIN, False, 9, 0.25),
    )


def test_a_journal_gives_back_the_hands_it_was_given(tmp_path: Path) -> None:
    """Each deal is written as it ends and read back equal, its ending still a
    :class:`RoundEnd` (the summary tells gin from a knock by identity)."""
    path = tmp_path / "run.jsonl"
    book = PairJournal(path, HEAD)
    for i in (2, 0, 1):
        book.append((i, pair(i)))
    again = PairJournal(path, HEAD)
    assert again.records == [(2, pair(2)), (0, pair(0)), (1, pair(1))]
    assert again.records[0][1][1].reason is RoundEnd.GIN
    assert summarise([p for _i, p in again.records]).endings["they gin"] == 3


def test_held_deals_are_not_played_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run given its journal plays only what is missing: here nothing, so OpenSpiel
    is never asked for a hand, and the deals come back in deal order."""
    book = PairJournal(tmp_path / "run.jsonl", HEAD)
    for i in (1, 0, 2):
        book.append((i, pair(i)))

    def refuse(_job: object) -> None:
        raise AssertionError("a held deal was played again")

    monkeypatch.setattr(gin_strength, "play_pair", refuse)
    assert play_pairs("medium", 16, 2, 1, book) == [pair(0), pair(1)]
    assert play_pairs("medium", 16, 3, 2, book) == [pair(0), pair(1), pair(2)]
    assert len(book.records) == 3  # nothing written twice


def test_the_report_tabulates_the_journal_without_playing(tmp_path: Path) -> None:
    """``--report`` reads the journal's first ``--hands`` and writes the results
    file; an empty journal is an error, not a table of nothing."""
    book = PairJournal(tmp_path / "run.jsonl", HEAD)  # an absolute --out puts both here
    for i in range(3):
        book.append((i, pair(i)))
    argv = ["--bot", "medium", "--seed", "16", "--hands", "4", "--report", "--out"]
    assert gin_strength.main([*argv, str(tmp_path / "run")]) == 0
    written = json.loads((tmp_path / "run.json").read_text())
    assert written["hands"] == 4 and written["points_ours"] == 0 + 1
    assert written["points_theirs"] == 2 * 25
    PairJournal(tmp_path / "empty.jsonl", HEAD)
    assert gin_strength.main([*argv, str(tmp_path / "empty")]) == 1
    assert gin_strength.main([*argv, str(tmp_path / "missing")]) == 1
    assert not (tmp_path / "empty.json").exists()
    assert not (tmp_path / "missing.jsonl").exists()  # a report creates no journal


def test_a_journal_of_another_run_or_a_torn_line(tmp_path: Path) -> None:
    """Another bot's or seed's journal is refused, not mixed in; a last line cut short
    by a crash is dropped and that deal is simply played again."""
    path = tmp_path / "run.jsonl"
    book = PairJournal(path, HEAD)
    book.append((0, pair(0)))
    with pytest.raises(JournalError, match="another gin strength run: bot 'medium', not 'hard'"):
        PairJournal(path, dict(HEAD, bot="hard"))
    path.write_text(path.read_text() + '{"index": 1, "hands": [{"ours"')
    assert PairJournal(path, HEAD).records == [(0, pair(0))]
    assert path.read_text().endswith("}\n")
    path.write_text(path.read_text() + '{"index": 1, "hands": []}\n')
    with pytest.raises(JournalError, match="line 3 is not a deal"):
        PairJournal(path, HEAD)


def test_a_header_that_is_not_an_object_is_no_journal(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text("[1, 2]\n")
    with pytest.raises(JournalError, match="line 1 is not a gin strength run header"):
        PairJournal(path, HEAD)
    with pytest.raises(JournalError, match="not a run journal"):
        Journal.read_header(path)
    with pytest.raises(JournalError, match="not a run journal"):
        Journal.read_header(tmp_path / "missing.jsonl")
