"""Tournaments on a real Ray cluster (issue: "across machines through Ray").

The test starts a one-node Ray head on 127.0.0.1 with ``ray start --block`` in its own
process group, runs ``rummy tournament --ray`` against it in a subprocess, and stops
the head again.  No Ray process outlives the test.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rummykit.tournament import ray_executor, run_tournament
from web_helpers import free_port

pytest.importorskip("ray")

RAY_BIN = Path(sys.executable).with_name("ray")
# Keep every Ray process on the loopback address and away from the usage-stats server.
RAY_ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
SPEC = "basic(deals=1)"


def _reachable(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), 0.5).close()
    except OSError:
        return False
    return True


@pytest.fixture(scope="module")
def ray_head() -> Iterator[str]:
    port = free_port()
    # Ray's socket paths must stay short, so not pytest's deep tmp_path.
    temp = tempfile.mkdtemp(prefix="rk-ray-", dir="/tmp")
    cmd = [
        str(RAY_BIN), "start", "--head", "--block", "--node-ip-address=127.0.0.1",
        f"--port={port}", "--num-cpus=2", "--include-dashboard=false",
        f"--dashboard-agent-listen-port={free_port()}", "--disable-usage-stats",
        f"--temp-dir={temp}",
    ]  # fmt: skip
    proc = subprocess.Popen(
        cmd, env=RAY_ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 90
        while not _reachable(port):
            if proc.poll() is not None:
                pytest.fail(f"ray start exited: {proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            if time.monotonic() > deadline:
                pytest.fail("the Ray head did not come up in 90 s")
            time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        # The head, its raylet and workers share the session: end them all at once.
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        shutil.rmtree(temp, ignore_errors=True)


def _rummy(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rummykit.cli", *args],
        env=RAY_ENV, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def test_tournament_on_a_ray_cluster_equals_the_local_one(ray_head: str, tmp_path: Path) -> None:
    """Every match runs as a Ray task; the seeds fix the matches, so the figures, the
    journal and the game records (the tasks return their text, this side writes the
    files) are those of the same tournament played in one process."""
    journal = tmp_path / "t.jsonl"
    args = ["tournament", "--rules", SPEC, "--players", "2", "--bots", "greedy,random"]
    args += ["--games", "5", "--seed", "11", "--json"]
    done = _rummy(
        *args, "--ray", ray_head, "--journal", str(journal), "--records", str(tmp_path / "ray")
    )
    assert done.returncode == 0, done.stderr[-2000:]
    local = run_tournament(SPEC, 2, ["greedy", "random"], 5, seed=11, records=tmp_path / "local")
    assert json.loads(done.stdout) == json.loads(json.dumps(local.to_json()))
    assert len(journal.read_text().splitlines()) == 1 + 10  # header and 10 matches
    ray_files = {p.name: p.read_text() for p in (tmp_path / "ray").iterdir()}
    assert len(ray_files) == 10
    assert ray_files == {p.name: p.read_text() for p in (tmp_path / "local").iterdir()}


def test_unreachable_ray_address_is_refused_at_once() -> None:
    """Ray would retry for minutes; the command says at once that nobody answers."""
    port = free_port()  # closed again: nothing listens there
    start = time.monotonic()
    done = _rummy(
        "tournament", "--rules", SPEC, "--bots", "greedy,random", "--ray", f"127.0.0.1:{port}"
    )
    assert done.returncode == 2
    assert f"no Ray cluster answers at 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr
    assert time.monotonic() - start < 60
    with pytest.raises(ValueError, match="not a Ray address"):
        ray_executor("no-port-here")
