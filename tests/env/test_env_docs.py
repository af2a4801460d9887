"""docs/env.md's examples run, and its layout table is the encoder's own."""

from __future__ import annotations

import doctest
from pathlib import Path

from rummykit.env import layout

DOC = Path(__file__).resolve().parents[2] / "docs" / "env.md"


def own_part() -> str:
    """The page up to the sections other parts of the project add at its end."""
    text = DOC.read_text()
    return text.split("\n## OpenSpiel", 1)[0].split("\n## Training example", 1)[0]


def test_examples_run() -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(own_part(), {}, "docs/env.md", str(DOC), 0)
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    runner.run(test)
    assert test.examples and runner.summarize(verbose=False).failed == 0


def test_layout_table_is_current() -> None:
    assert layout("gin", 2).table() in own_part()
