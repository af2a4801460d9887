"""What each of the README's two commands installs (issue #15: "Today ``make play``
installs the whole dev set (Ray, Playwright, psycopg and the linters). It should
install the runtime dependencies only; ``make test`` installs the dev set.")."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEV_ONLY = ("ray", "playwright", "psycopg", "pytest", "mypy", "ruff", "hypothesis", "open_spiel")


def _dry_run(target: str) -> list[str]:
    """The pip commands ``make TARGET`` would run on a fresh clone (``-B``: as if
    nothing were installed yet; ``-n``: print, do not run)."""
    if shutil.which("make") is None:  # pragma: no cover - make runs this very suite
        pytest.skip("make is not installed")
    out = subprocess.run(
        ["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return [
        line for line in out.splitlines() if "pip install" in line and "--upgrade pip" not in line
    ]


def test_make_play_installs_the_runtime_only() -> None:
    installs = _dry_run("play")
    assert installs, "make play must install the package"
    for line in installs:
        assert "-e ." in line and "[" not in line, line


def test_make_test_installs_the_dev_set() -> None:
    assert any("'.[dev]'" in line for line in _dry_run("test"))


def test_runtime_dependencies_hold_no_dev_tool() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = [re.split(r"[<>=\[; ]", d, maxsplit=1)[0].lower() for d in project["dependencies"]]
    assert not set(names) & set(DEV_ONLY), names
