"""Usernames: what a name may be, and the key under which look-alikes collide.

A username is shown at the table to other players, so it must not be able to pass
for somebody else's.  :func:`clean_username` turns what a player typed into the
name kept, or refuses it:

* NFKC normalisation first: fullwidth ``Ａｌｉｃｅ``, ligatures and other
  compatibility forms become the plain letters they stand for;
* then a safe character set: letters (Unicode categories Lu, Ll, Lo), the ASCII
  digits, ``_`` and ``-``, 3 to :data:`MAX_USERNAME` characters, beginning with a
  letter or digit: no spaces, no marks to stack, no invisible or bidirectional
  controls, no punctuation that could read as part of the page;
* one script only (Latin, Cyrillic, Greek...; digits, ``_`` and ``-`` go with any):
  a Latin name with one Cyrillic ``а`` in it is refused, the most common squat.

:func:`username_keys` gives the name's *skeletons*, which the database holds unique
(``account_keys``), so that a name is refused when a taken one looks like it even
though no character is the same.  A skeleton is Unicode's (UTS #39, section 4):
decompose (NFD), replace each character by the prototype it can be mistaken for,
decompose again.  The prototypes come from Unicode's ``confusables.txt``, of which
``web/confusables.txt`` keeps the lines a username can meet
(scripts/confusables_table.py writes it; its header names the Unicode version).  The
skeletons are of the name as typed, of its case-folded form and of its case-folded
skeleton (:func:`username_keys`).  No library on the package index computes
skeletons: ``confusables`` and ``confusable-homoglyphs`` (which we use for the
one-script rule) keep look-alike pairs without their prototypes.
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

from confusable_homoglyphs import confusables as _homoglyphs

MIN_USERNAME = 3
MAX_USERNAME = 24
"""Characters a username may hold, after NFKC."""
_LETTERS = frozenset({"Lu", "Ll", "Lo"})
_ASCII_DIGITS = frozenset("0123456789")
_JOINERS = frozenset("_-")


class UsernameError(ValueError):
    """A username refused; ``code`` is stable (docs/accounts.md), ``str()`` says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def clean_username(raw: str) -> str:
    """The username kept for what a player typed (NFKC), or :class:`UsernameError`
    (``username_length``, ``username_chars``, ``username_scripts``)."""
    name = unicodedata.normalize("NFKC", raw).strip()
    if not MIN_USERNAME <= len(name) <= MAX_USERNAME:
        raise UsernameError(
            "username_length",
            f"a username has {MIN_USERNAME} to {MAX_USERNAME} characters",
        )
    for ch in name:
        if ch in _ASCII_DIGITS or ch in _JOINERS:
            continue
        if unicodedata.category(ch) not in _LETTERS:
            raise UsernameError(
                "username_chars",
                "a username has letters, digits, '_' and '-' only",
            )
    if name[0] in _JOINERS:
        raise UsernameError("username_chars", "a username begins with a letter or a digit")
    if _homoglyphs.is_mixed_script(name):
        raise UsernameError("username_scripts", "a username's letters are all of one alphabet")
    return name


TABLE = Path(__file__).with_name("confusables.txt")


@functools.cache
def prototypes() -> dict[str, str]:
    """Each character of the table and the prototype it can be mistaken for."""
    out: dict[str, str] = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        source, target = line.split(";")
        out[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return out


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character to its prototype, NFD."""
    table = prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def username_keys(name: str) -> frozenset[str]:
    """The keys of a username; two names that look alike, in any case, share one.

    Its skeleton as typed (``aIice``, capital i, is ``alice``), that of its
    case-folded form (``ALICE`` is ``alice``), and that of the case-folded skeleton
    (``AIice`` is ``Alice``, so ``alice``): folding first loses the capital I that
    passes for an l, mapping first loses the case."""
    name = unicodedata.normalize("NFKC", name)
    return frozenset(
        {
            skeleton(name),
            skeleton(name.casefold()),
            skeleton(skeleton(name).casefold()),
        }
    )
