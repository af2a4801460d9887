"""Append-only files of finished work (JSON lines), so that a long run can resume.

A run of days, a tournament or a benchmark's thousands of hands, is cut off by a
crash, a reboot or the end of a sitting.  Each finished piece is written down at
once, one line of JSON, and the run given the same file again does only what the
file does not hold yet.  The first line is a header naming the run; opening the
file for a different run raises :class:`JournalError` rather than mixing results.
A last line cut short by a crash is dropped (that piece is simply done again); any
other unreadable line is an error naming its line number.

A journal kind says how its records are written and read (:meth:`Journal.encode`,
:meth:`Journal.decode`) and what it holds, for the errors:

>>> import os, tempfile
>>> class Squares(Journal[tuple[int, int]]):
...     kind, item = "squares run", "square"
...     def encode(self, rec): return {"n": rec[0], "sq": rec[1]}
...     def decode(self, d): return (int(d["n"]), int(d["sq"]))
>>> path = os.path.join(tempfile.mkdtemp(), "sq.jsonl")
>>> book = Squares(path, {"upto": 3})
>>> book.append((2, 4))
>>> Squares(path, {"upto": 3}).records
[(2, 4)]
>>> Squares(path, {"upto": 9})
Traceback (most recent call last):
...
rummykit.journal.JournalError: ... was written for another squares run: upto 3, not 9
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Generic, TypeVar

R = TypeVar("R")


class JournalError(ValueError):
    """A journal that belongs to another run, or is not a journal at all."""


class Journal(Generic[R]):
    """An append-only JSON-lines file: a header, then one record a line."""

    kind = "run"
    """What the header names, for the errors ("tournament")."""
    item = "record"
    """What a line holds, for the errors ("match record")."""

    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.header = header
        self.records: list[R] = []
        if self.path.exists() and self.path.stat().st_size > 0:
            self._load()
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(header) + "\n", encoding="utf-8")

    def encode(self, rec: R) -> dict[str, Any]:
        """``rec`` as a JSON object."""
        raise NotImplementedError

    def decode(self, d: Any) -> R:
        """A record from a parsed line; a missing key or wrong type raises
        ``KeyError``, ``TypeError`` or ``ValueError``."""
        raise NotImplementedError

    @classmethod
    def read_header(cls, path: str | os.PathLike[str]) -> dict[str, Any]:
        """The header of the journal at ``path``, to reopen it without knowing it."""
        try:
            head = json.loads(Path(path).read_text(encoding="utf-8").split("\n")[0])
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            head = None
        if not isinstance(head, dict):
            raise JournalError(f"{path}: not a {cls.kind} journal")
        return head

    def _load(self) -> None:
        lines = self.path.read_text(encoding="utf-8").split("\n")
        try:
            head = json.loads(lines[0])
        except json.JSONDecodeError:
            head = None
        if not isinstance(head, dict):
            raise JournalError(f"{self.path}: line 1 is not a {self.kind} header")
        for key, want in self.header.items():
            if head.get(key) != want:
                raise JournalError(
                    f"{self.path} was written for another {self.kind}: "
                    f"{key} {head.get(key)!r}, not {want!r}"
                )
        complete = len(lines) - 1  # the text after the last newline, if any, was cut short
        for no, line in enumerate(lines[1:complete], start=2):
            if not line.strip():
                continue
            try:
                rec = self.decode(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                raise JournalError(f"{self.path}: line {no} is not a {self.item}") from None
            self.records.append(rec)
        if lines[-1]:
            # drop a torn last line so the next append starts on a fresh line
            with self.path.open("w", encoding="utf-8") as f:
                f.write("\n".join(lines[:complete]) + "\n")

    def append(self, rec: R) -> None:
        """Add one finished record, flushed to disk before returning."""
        self.records.append(rec)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(self.encode(rec)) + "\n")
            f.flush()
            os.fsync(f.fileno())
