"""The load benchmark's many-process mode (benchmarks/load.py --processes, issue #18):
its command line refuses what it cannot run, and the cost of forwarding and fan-out
is taken against the one-process PostgreSQL row of the same case."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from load import costs, main, setup


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--processes", "0"], "--processes must be 1, or 2 or more"),
        (["--failover"], "with --failover: 2 or more"),
        (["--processes", "3", "--database", "sqlite:///x.db"], "--database is for one process"),
    ],
)
def test_impossible_runs_are_refused(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--no-write"])
    assert stop.value.code == 2
    assert says in capsys.readouterr().err


def row(database: str, processes: int, tables: int, p50: float, cpu: float) -> dict[str, Any]:
    return {
        "database": database, "processes": processes, "tables": tables, "think_s": 0.0,
        "p50_ms": p50, "p99_ms": 2 * p50, "p50_ms_by_seat": [p50 / 2, 3 * p50 / 2],
        "server_cpu_ms_per_move": cpu,
    }  # fmt: skip


def test_the_cost_is_taken_against_one_postgresql_process_of_the_same_case() -> None:
    rows = [
        row("sqlite", 1, 10, 1.0, 0.5),
        row("postgresql", 1, 10, 4.0, 1.5),
        row("postgresql", 3, 10, 12.0, 5.0),
        row("postgresql", 1, 100, 40.0, 1.0),  # another case: not the reference
    ]
    (cost,) = costs(rows)
    assert cost["tables"] == 10 and cost["processes"] == 3
    assert cost["extra_p50_ms"] == 8.0 and cost["extra_p99_ms"] == 16.0
    assert cost["extra_server_cpu_ms_per_move"] == 3.5
    assert (cost["owner_side_p50_ms"], cost["forwarded_p50_ms"]) == (6.0, 18.0)
    assert costs(rows[:1] + rows[2:]) == []  # no one-process PostgreSQL row to compare
    assert [setup(r) for r in rows[:3]] == [
        "1 process, sqlite", "1 process, postgresql", "3 processes, postgresql",
    ]  # fmt: skip
