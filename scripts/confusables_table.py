"""Write src/rummykit/web/confusables.txt, the table web/usernames.py keys names by.

Reads Unicode's ``confusables.txt`` (UTS #39's data: https://www.unicode.org/Public/
security/latest/confusables.txt) and keeps the mappings a username's characters can
meet: one source code point that is a letter (L*), a nonspacing mark (Mn, met after
NFD) or a decimal digit, or ``_`` or ``-``.  Each kept line is ``SOURCE;TARGET`` in
hexadecimal code points, the target a sequence separated by spaces, as in the source
file; the source file's header (its version, date and Unicode's terms of use) comes
first, as comments.

    python scripts/confusables_table.py path/to/confusables.txt
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "rummykit" / "web" / "confusables.txt"
KEPT = {"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Nd"}


def main(source: str) -> None:
    header: list[str] = []
    rows: list[str] = []
    for line in Path(source).read_text(encoding="utf-8-sig").splitlines():
        if line.startswith("#") and not rows:
            if any(w in line for w in ("Date", "Version", "©", "terms of use", "confusables")):
                header.append(line)
            continue
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        src, tgt, _kind = (part.strip() for part in data.split(";"))
        points = src.split()
        if len(points) != 1:
            continue
        ch = chr(int(points[0], 16))
        if unicodedata.category(ch) in KEPT or ch in "_-":
            rows.append(f"{points[0]};{tgt}")
    note = [
        "# The confusables a username can meet (web/usernames.py), kept by",
        "# scripts/confusables_table.py from Unicode's confusables.txt, whose header follows.",
    ]
    OUT.write_text("\n".join([*note, *header, *rows]) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(rows)} mappings")


if __name__ == "__main__":
    main(sys.argv[1])
