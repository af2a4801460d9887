"""What each of the README's two commands installs (issue #15: "Today ``make play``
installs the whole dev set (Ray, Playwright, psycopg and the linters). It should
install the runtime dependencies only; ``make test`` installs the dev set.")."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
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


def test_the_wheel_carries_the_migrations_and_runs_them(tmp_path: Path) -> None:
    """The server migrates its database at start from revisions inside the package
    (web/migrations, with Alembic's template): a wheel without them could not start.
    Built as a user's pip builds it (with the dev set's setuptools, so the test needs
    no package index), then imported from the unpacked wheel."""
    # From a clean copy: a build in the tree leaves build/ and an egg-info behind,
    # whose file list would bring in files the package data no longer names.
    source = tmp_path / "source"
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "src", source / "src", ignore=skip)
    for name in ("pyproject.toml", "README.md", *(p.name for p in ROOT.glob("LICEN[CS]E*"))):
        shutil.copy(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", "-w", str(tmp_path), str(source)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("rummykit-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        z.extractall(tmp_path / "unpacked")
    for name in ("env.py", "script.py.mako", "versions/v0001_baseline.py"):
        assert f"rummykit/web/migrations/{name}" in names, name
    code = (
        "import sys, rummykit; from rummykit.web.store import Store; "
        "assert rummykit.__file__.startswith(sys.argv[1]), rummykit.__file__; "
        "Store('sqlite:///' + sys.argv[1] + '/x.db').close()"
    )
    versions = ROOT / "src" / "rummykit" / "web" / "migrations" / "versions"
    head = max(p.name[1:5] for p in versions.glob("v[0-9]*.py"))  # the newest revision
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "unpacked")}
    unpacked = str(tmp_path / "unpacked")
    out = subprocess.run(
        [sys.executable, "-c", code, unpacked], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert subprocess.run(
        [sys.executable, "-m", "rummykit.cli", "db", "current", "--database",
         f"sqlite:///{unpacked}/x.db"],
        env=env, capture_output=True, text=True,
    ).stdout.endswith(f"revision {head} (up to date)\n")  # fmt: skip


def test_the_postgres_extra_is_the_driver() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(d.startswith("alembic") for d in project["dependencies"])
    assert [d.split(">")[0] for d in project["optional-dependencies"]["postgres"]] == [
        "psycopg[binary]"
    ]
