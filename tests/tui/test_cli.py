"""The ``rummy`` command line: rules listing and display, simulation, bad input."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from rummykit import cli
from rummykit.bots import play_match
from rummykit.cli import main, option_doc
from rummykit.rules import PRESET_SOURCES, PRESETS, Rules

PRESET_NAMES = sorted(PRESETS)


def seats(preset: str, wanted: int) -> int:
    """``wanted`` players, or the nearest count the preset allows (Gin is two-handed)."""
    rules = PRESETS[preset]
    return max(rules.min_players, min(wanted, rules.max_players))


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps tables to the terminal width; make it wide so text checks are simple."""
    monkeypatch.setenv("COLUMNS", "300")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def table_row(lines: list[str], first_cell: str) -> str:
    return next(line for line in lines if re.match(rf"\W*{first_cell}\s", line))


# -- rules ----------------------------------------------------------------------------------


def test_rules_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "--list")
    assert code == 0 and err == ""
    for name in PRESETS:
        assert name in out
        assert PRESET_SOURCES[name] in out
    assert run_json(capsys, "rules", "--list") == PRESET_SOURCES


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_rules_preset_shows_every_option(capsys: pytest.CaptureFixture[str], preset: str) -> None:
    code, out, _err = run(capsys, "rules", preset)
    assert code == 0
    rules = Rules.preset(preset)
    lines = out.splitlines()
    for name, value in rules.options().items():
        row = table_row(lines, name)
        rendered = "none" if value is None else str(value).lower()
        assert f" {rendered} " in row, (name, row)
        assert option_doc(rules, name) in row


def test_rules_show_the_seed_passages(capsys: pytest.CaptureFixture[str]) -> None:
    """The descriptions are the field docs of rules.py, which cite the seeds."""
    _code, out, _err = run(capsys, "rules", "rami51")
    assert "Points the opening melds must total, by meld values (seed 003: 51)." in out
    assert "(choices: turn_over, shuffle, shuffle_keep_top)" in out
    for preset in PRESET_NAMES:
        rules = Rules.preset(preset)
        undocumented = {name for name in rules.options() if not option_doc(rules, name)}
        assert not undocumented


def test_rules_spec_marks_changed_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "rules", "basic(multiple_melds=true, ace=high_or_low)")
    assert code == 0
    assert "Rules: basic(ace=high_or_low, multiple_melds=true, ace_points=15)" in out
    lines = out.splitlines()
    for name, changed in [("multiple_melds", True), ("ace_points", True), ("decks", False)]:
        row = table_row(lines, name)
        assert ("*" in row) is changed


@pytest.mark.parametrize(
    "spec", [*PRESET_NAMES, "basic(multiple_melds=true)", "rami51(opening_minimum=40, deals=3)"]
)
def test_rules_json_round_trips(capsys: pytest.CaptureFixture[str], spec: str) -> None:
    data = run_json(capsys, "rules", spec)
    rules = Rules.parse(spec)
    assert data == {"preset": rules.name, **rules.options()}
    assert Rules.from_mapping(data) == rules
    assert Rules.parse(json.dumps(data)) == rules


# -- simulate ---------------------------------------------------------------------------------


def check_counts(data: dict[str, Any], games: int, players: int) -> None:
    assert data["errors"] == 0 and data["first_error"] is None
    assert data["games"] == games == data["completed"] + data["errors"]
    assert len(data["mean_score"]) == len(data["wins"]) == len(data["bots"]) == players
    # Every match has at least one winner; shared wins count for each winner.
    assert data["completed"] <= sum(data["wins"]) <= data["completed"] * players
    assert data["mean_rounds"] >= 1
    assert data["mean_turns"] >= data["mean_rounds"]
    assert data["mean_actions"] >= data["mean_turns"]
    assert data["games_per_second"] > 0 and data["actions_per_second"] > 0


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_simulate_json_small_matches(capsys: pytest.CaptureFixture[str], preset: str) -> None:
    spec = f"{preset}(deals=1)"
    n = seats(preset, 3)
    data = run_json(capsys, "simulate", "--rules", spec, "--players", str(n), "--games", "3")
    check_counts(data, 3, n)
    assert data["mean_rounds"] == 1
    assert data["rules"] == Rules.parse(spec).spec() and data["bots"] == ["random"] * n


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_simulate_text_whole_matches(capsys: pytest.CaptureFixture[str], preset: str) -> None:
    n = seats(preset, 4)
    code, out, err = run(
        capsys, "simulate", "--rules", preset, "--players", str(n), "--games", "2", "--seed", "7"
    )
    assert code == 0 and err == ""
    assert f"{preset}, {n} players, 2 games, bots random, seed 7" in out
    for label in (
        "games completed",
        "errors",
        "mean turns per match",
        "games per second",
        "actions per second",
        "mean score",
        "wins",
    ):
        assert label in out
    assert "first error" not in out


def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = (
        "simulate",
        "--rules",
        "cg101",
        "--games",
        "2",
        "--seed",
        "3",
        "--bots",
        "random,random",
    )
    a, b = run_json(capsys, *argv), run_json(capsys, *argv)
    check_counts(a, 2, 2)
    for key in ("mean_turns", "mean_rounds", "mean_actions", "mean_score", "wins"):
        assert a[key] == b[key]


def test_simulate_counts_errors_and_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = play_match

    def flaky(rules: Any, players: Any, bots: Any, seed: int) -> Any:
        if seed == 1:
            raise RuntimeError("boom")
        return real(rules, players, bots, seed)

    monkeypatch.setattr(cli, "play_match", flaky)
    code, out, _err = run(capsys, "simulate", "--rules", "basic(deals=1)", "--games", "3", "--json")
    data = json.loads(out)
    assert code == 1
    assert data["errors"] == 1 and data["completed"] == 2
    assert data["first_error"] == "game 1 (seed 1): RuntimeError: boom"
    code, out, _err = run(capsys, "simulate", "--rules", "basic(deals=1)", "--games", "2")
    assert code == 1 and "first error: game 1 (seed 1): RuntimeError: boom" in out

    monkeypatch.setattr(cli, "play_match", lambda *a: (_ for _ in ()).throw(ValueError("x")))
    data = json.loads(run(capsys, "simulate", "--games", "2", "--json")[1])
    assert data["completed"] == 0 and data["mean_turns"] is None and data["wins"] == [0, 0]
    assert "-" in run(capsys, "simulate", "--games", "1")[1]


# -- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("deal",), "invalid choice: 'deal'"),
        (("rules",), "give a rules spec"),
        (("rules", "basic", "--list"), "not both"),
        (("rules", "poker"), "unknown preset 'poker'"),
        (("rules", "basic(players=9)"), "unknown option 'players'"),
        (("rules", "basic(ace=sideways)"), "bad value 'sideways' for ace"),
        (("rules", "basic(decks=2"), "malformed rules spec"),
        (("rules", "{not json"), "bad rules JSON"),
        (("simulate", "--rules", "nope"), "unknown preset 'nope'"),
        (("simulate", "--games", "ten"), "invalid int value: 'ten'"),
        (("simulate", "--games", "0"), "--games must be at least 1"),
        (("simulate", "--players", "9"), "basic is for 2 to 6 players, not 9"),
        (("simulate", "--rules", "rami51", "--players", "6"), "rami51 is for 2 to 5 players"),
        (("simulate", "--players", "x"), "invalid int value: 'x'"),
        (("simulate", "--seed", "1.5"), "invalid int value: '1.5'"),
        (("simulate", "--bots", "genius"), "unknown bot 'genius'"),
        (("simulate", "--bots", "random,random,random"), "3 bots for 2 players"),
        (("simulate", "--frobnicate"), "unrecognized arguments"),
        # issue #15, finding 1: rule sets that validated but could not be played
        (
            ("simulate", "--rules", "rami51(max_upcard_draws=1, never_melded_penalty=-1000)"),
            "never_melded_penalty must be an integer from 0 to 1000",
        ),
        (("simulate", "--rules", "basic(target_score=1000000000000)"), "target_score must be"),
        (("simulate", "--rules", "basic" + " " * 100_000 + "x"), "rules spec too long"),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 60 else None,
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("rummy: error: ") and err.endswith("\n")
    assert err.count("\n") == 1, err
    assert message in err
    assert "Traceback" not in err


def test_no_command_starts_the_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #20: ``rummy`` alone starts the terminal game, as ``make play`` does."""
    import rummykit.tui

    calls: list[Any] = []
    monkeypatch.setattr(rummykit.tui, "play_main", lambda args: calls.append(args) or 0)
    assert run(
        capsys,
    ) == (0, "", "")
    assert len(calls) == 1 and calls[0].command is None
    assert rummykit.tui.settings_from_options(calls[0]) is None  # the new-game screen
    assert run(capsys, "play", "--rules", "gin")[0] == 0
    assert calls[1].command == "play" and calls[1].rules == "gin"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    code, out, err = run(capsys, "--version")
    assert code == 0 and err == ""
    assert out == f"rummy {version('rummykit')}\n" and re.fullmatch(r"rummy \d+\.\d+\S*\n", out)


def test_help_gives_an_example_of_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue #20: ``rummy --help`` lists the commands with one example each, and every
    example is a command line the parser accepts."""
    import argparse
    import shlex

    code, out, _err = run(capsys, "--help")
    assert code == 0 and "[COMMAND]" in out
    parser = cli._parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert sorted(cmd for cmd, _e, _w in cli.EXAMPLES) == sorted(sub.choices)
    examples = out[out.index("examples:") :]
    for cmd, example, what in cli.EXAMPLES:
        assert re.search(rf"^  {re.escape(example)} +{re.escape(what)}$", examples, re.M)
        argv = shlex.split(example)
        assert argv[0] == "rummy" and parser.parse_args(argv[1:]).command == cmd
    assert re.search(r"^  rummy +start a game in the terminal", examples, re.M)


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "--help")
    assert code == 0 and "simulate" in out
    code, out, _err = run(capsys, "simulate", "--help")
    assert code == 0 and "--players" in out


@pytest.mark.parametrize(
    "rules_tag",
    [
        "rami51(max_upcard_draws=1, never_melded_penalty=-1000)",
        "basic(target_score=1000000000000)",
        "basic" + " " * 20_000 + "x",
    ],
    ids=["recursion", "endless-match", "spaces"],
)
def test_replay_of_a_record_with_bad_rules_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Any, rules_tag: str
) -> None:
    """Issue #15, findings 1 and 5: ``rummy replay`` printed a traceback (RecursionError)
    or took seconds on a record's Rules tag; now one line and exit 2."""
    path = tmp_path / "bad.rummy"
    path.write_text(f'[Rules "{rules_tag}"]\n[Players "A, B"]\n[Seed "1"]\n', encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert err.startswith("rummy: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err


def test_serve_takes_every_server_setting(capsys: pytest.CaptureFixture[str]) -> None:
    """``rummy serve`` has the same setting flags as ``python -m rummykit.web``
    (issue #15: every limit configurable), and a bad one is one line, exit 2."""
    code, out, _err = run(capsys, "serve", "--help")
    assert code == 0
    for flag in ("--tables-per-minute", "--max-spectators", "--bot-workers", "--max-tables"):
        assert flag in out
    code, _out, err = run(capsys, "serve", "--max-tables", "many")
    assert code == 2 and "invalid int value: 'many'" in err


def test_serve_refuses_a_bad_setting_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUMMYKIT_MAX_SPECTATORS", "lots")
    code, out, err = run(capsys, "serve", "--port", "1")
    assert code == 2 and out == ""
    assert err.startswith("rummy: error: RUMMYKIT_MAX_SPECTATORS") and err.count("\n") == 1


def test_the_command_line_does_not_import_the_server() -> None:
    """Building ``serve``'s flags reads the settings dataclass only: other commands do
    not pay for importing FastAPI, nor ``rummy db``'s SQLAlchemy and Alembic."""
    import subprocess
    import sys

    code = (
        "import sys, rummykit.cli; rummykit.cli._parser(); "
        "print(sorted(m for m in ('fastapi', 'sqlalchemy', 'alembic') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_db_has_upgrade_and_current(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "db", "--help")
    assert code == 0 and "upgrade" in out and "current" in out
    code, _out, err = run(capsys, "db")
    assert code == 2 and "ACTION" in err
    code, out, _err = run(capsys, "serve", "--help")
    assert "--no-migrate" in out and "--migrate " not in out
