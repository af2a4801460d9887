"""Tournament game records (issue #16: ``rummy review`` reads the records of ``rummy
tournament``): one file per match played, the terminal game's format, the same
files whether the matches ran in this process or in workers."""

from __future__ import annotations

from pathlib import Path

from rummykit.bots import make_bot, play_match
from rummykit.notation import import_record
from rummykit.tournament import lineups, match_record_text, record_file_name, run_tournament

SPEC = "basic(deals=1)"


def _files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}


def test_every_match_writes_its_record(tmp_path: Path) -> None:
    r = run_tournament(SPEC, 2, ["greedy", "random"], games=2, seed=4, records=tmp_path / "recs")
    files = _files(tmp_path / "recs")
    assert sorted(files) == [
        "deal-1-rotation-1-greedy-random.rummy",
        "deal-1-rotation-2-random-greedy.rummy",
        "deal-2-rotation-1-greedy-random.rummy",
        "deal-2-rotation-2-random-greedy.rummy",
    ]
    by_name = {
        record_file_name(1 + i // 2, 2, 1 + i % 2, rec.lineup): rec
        for i, rec in enumerate(r.records)
    }
    for name, text in files.items():
        rec = by_name[name]
        state = import_record(text)
        assert list(state.names) == list(rec.lineup) and state.seed == rec.seed
        assert state.is_over() and state.result().scores == rec.scores
        bots = [make_bot(b) for b in rec.lineup]
        played, _ = play_match(SPEC, list(rec.lineup), bots, rec.seed)
        deal, rotation = name.split("-")[1], name.split("-")[3]
        event = f"rummy tournament, seed 4: deal {deal} of 2, rotation {rotation} of 2"
        assert text == f'[Event "{event}"]\n' + match_record_text(played, rec.lineup)
        assert '[Bots "' + ", ".join(rec.lineup) + '"]' in text


def test_records_from_workers_equal_serial_ones(tmp_path: Path) -> None:
    """Workers return the text and this process writes it: the same files either way."""
    args = ("cg101(deals=1)", 3, ["greedy", "random"])
    run_tournament(*args, games=1, seed=9, records=tmp_path / "a")
    run_tournament(*args, games=1, seed=9, records=tmp_path / "b", workers=2)
    a = _files(tmp_path / "a")
    assert len(a) == len(lineups(3, ["greedy", "random"])) == 3
    assert a == _files(tmp_path / "b")


def test_no_records_without_the_option_and_none_for_journalled_matches(tmp_path: Path) -> None:
    journal = tmp_path / "t.jsonl"
    args = (SPEC, 2, ["greedy", "random"])
    run_tournament(*args, games=2, seed=2, journal=journal)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.jsonl"]
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    journal.write_text("".join(lines[:3]), encoding="utf-8")  # as if stopped after 2 matches
    run_tournament(*args, games=2, seed=2, journal=journal, records=tmp_path / "r")
    # the journal's two matches are not played again; the other two write their records
    assert len(list((tmp_path / "r").iterdir())) == 2
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 1 + 4


def test_record_file_names_sort_and_are_safe() -> None:
    assert record_file_name(3, 120, 1, ["ismcts:0.5i", "a/b"]) == (
        "deal-003-rotation-1-ismcts_0.5i-a_b.rummy"
    )
