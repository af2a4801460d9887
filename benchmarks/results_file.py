"""Writing a benchmark's JSON result with the facts needed to compare runs."""

from __future__ import annotations

import json
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS_DIR = Path(__file__).parent / "results"


def write_results(name: str, payload: dict[str, Any], path: Path | None = None) -> Path:
    """Write ``benchmarks/results/<name>.json``: the payload plus date, Python, platform."""
    target = path or RESULTS_DIR / f"{name}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "benchmark": name,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        **payload,
    }
    target.write_text(json.dumps(document, indent=2) + "\n")
    return target
