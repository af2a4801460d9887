"""The layers of docs/architecture.md, checked on the source: each module imports only
from its own layer and the layers below it, so the pure core never depends on bots,
front ends or servers (the guide's "a pure core"; ../STYLE.md, "Layers")."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "rummykit"

CORE = frozenset({
    "__init__", "cards", "rules", "melds", "table", "moves", "state", "knock", "variants",
    "game", "phase", "player_view", "scoring", "view", "notation", "serialize", "solver",
    "errors", "events", "position", "invariants", "rulebook", "results", "family", "fields",
    "py",
})  # fmt: skip
"""The pure core: no I/O, no global RNG (``py`` is the ``py.typed`` marker's stem)."""

MAY_IMPORT: dict[str, frozenset[str]] = {
    "core": frozenset({"core"}),
    "i18n": frozenset({"core", "i18n"}),
    "bots": frozenset({"core", "bots"}),
    "journal": frozenset({"journal"}),
    "tournament": frozenset({"core", "bots", "journal", "tournament"}),
    "openspiel": frozenset({"core", "env", "openspiel"}),
    "env": frozenset({"core", "bots", "env"}),
    "tui": frozenset({"core", "bots", "i18n", "tui"}),
    "web": frozenset({"core", "bots", "i18n", "web"}),
    "cli": frozenset({"core", "bots", "i18n", "tournament", "tui", "web", "cli", "env"}),
}
"""What each layer may import (docs/architecture.md draws the same table)."""


def layer_of(parts: tuple[str, ...]) -> str:
    """The layer of a module given by its path parts under ``rummykit``."""
    top = parts[0]
    return "core" if top in CORE else top


def imports_of(path: Path, root: Path) -> set[tuple[str, ...]]:
    """The rummykit modules ``path`` imports, as path parts under the package ``root``."""
    package = path.relative_to(root).with_suffix("").parts[:-1]
    found: set[tuple[str, ...]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = (*base, *(node.module.split(".") if node.module else ()))
                if target:
                    found.add(target)
                else:  # ``from . import x`` at the package's root: x is the module
                    found.update((alias.name,) for alias in node.names)
            elif node.module and node.module.startswith("rummykit."):
                found.add(tuple(node.module.split(".")[1:]))
        elif isinstance(node, ast.Import):
            found.update(
                tuple(a.name.split(".")[1:]) for a in node.names if a.name.startswith("rummykit.")
            )
    return found


def violations(root: Path) -> list[str]:
    """Every import in the package at ``root`` that goes up or sideways a layer."""
    wrong = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        mine = layer_of(parts)
        for target in sorted(imports_of(path, root)):
            if layer_of(target) not in MAY_IMPORT.get(mine, frozenset()):
                wrong.append(f"{'/'.join(parts)} ({mine}) imports {'.'.join(target)}")
    return wrong


def test_every_module_imports_only_its_layer_and_those_below() -> None:
    assert violations(PACKAGE) == []


def test_the_checker_catches_imports_up_the_layers(tmp_path: Path) -> None:
    """The check can fail: a core module importing a bot, relatively or absolutely, and
    a bot importing the web server are caught; the core importing itself is not."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "bots").mkdir()
    (tmp_path / "state.py").write_text("from .cards import bits\n", encoding="utf-8")
    (tmp_path / "variants" / "gin.py").write_text(
        "from ..bots import make_bot\nimport rummykit.tui.app\n", encoding="utf-8"
    )
    (tmp_path / "bots" / "x.py").write_text("from ..web.server import Manager\n", encoding="utf-8")
    assert violations(tmp_path) == [
        "bots/x (bots) imports web.server",
        "variants/gin (core) imports bots",
        "variants/gin (core) imports tui.app",
    ]


WEB = PACKAGE / "web"
MAX_WEB_MODULE_LINES = 700
"""The web server is split by job (docs/architecture.md): no module of it grows into
one that does everything."""


def test_no_web_module_is_over_700_lines() -> None:
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in WEB.glob("*.py")}
    assert sizes and {n: k for n, k in sizes.items() if k > MAX_WEB_MODULE_LINES} == {}


def web_imports_from(start: tuple[str, ...]) -> set[tuple[str, ...]]:
    """Every web module ``start`` imports, at module level or inside a function, and
    what those import in turn (the package's ``__init__`` counts as the package)."""
    seen: set[tuple[str, ...]] = set()
    todo = [start]
    while todo:
        parts = todo.pop()
        path = PACKAGE.joinpath(*parts).with_suffix(".py")
        if parts in seen or not path.exists():
            continue
        seen.add(parts)
        todo.extend(t for t in imports_of(path, PACKAGE) if t[:1] == ("web",) and len(t) == 2)
    return seen - {start}


def test_the_server_settings_do_not_import_the_server() -> None:
    """``rummy`` builds ``serve``'s flags from web.config: neither it nor anything it
    imports, even inside a function, may import the server (FastAPI and every part of
    it), which the server itself imports: no import circle."""
    reached = web_imports_from(("web", "config"))
    assert ("web", "settings") in reached
    assert ("web", "server") not in reached
    assert ("web", "manager") not in reached


def module_imports(root: Path) -> dict[str, set[str]]:
    """Each module of the package at ``root`` (dotted, a package by its own name) and
    the modules it imports when it runs: at the top or inside a function, but not
    under ``if TYPE_CHECKING``; ``from x import y`` counts as importing ``x.y`` when
    that is a module, else ``x``."""
    names: dict[Path, str] = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        names[path] = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    known = set(names.values())
    graph: dict[str, set[str]] = {}
    for path, name in names.items():
        package = name.split(".") if path.stem == "__init__" else name.split(".")[:-1]
        found: set[str] = set()

        def visit(node: ast.AST, package: list[str] = package, found: set[str] = found) -> None:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                for child in node.orelse:
                    visit(child)
                return
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join([*base, *(node.module.split(".") if node.module else [])])
                for alias in node.names:
                    sub = f"{target}.{alias.name}" if target else alias.name
                    found.add(sub if sub in known else target)
            for child in ast.iter_child_nodes(node):
                visit(child)

        visit(ast.parse(path.read_text(encoding="utf-8")))
        graph[name] = {t for t in found if t in known and t != name}
    return graph


def circles(root: Path) -> list[list[str]]:
    """The import circles among the package's modules (strongly connected groups of
    two or more), packages' ``__init__`` left out: Python runs a package's own module
    first, so importing one of its modules through it is no circle."""
    graph = module_imports(root)
    packages = {
        p.parent.relative_to(root).as_posix().replace("/", ".") for p in root.rglob("__init__.py")
    }
    nodes = [n for n in graph if n not in packages]
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w in packages:
                continue
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in nodes:
        if v not in index:
            strong(v)
    return found


def test_no_module_imports_itself_round_a_circle() -> None:
    """No runtime import circle (issue #29): a module that needs another's names imports
    them at its top, and no function imports a module to get round a circle (the hints
    and the review share their reasons in ``bots/reasons.py``; the field checks are in
    ``fields.py``, below the state)."""
    assert circles(PACKAGE) == []


def test_the_circle_check_finds_a_circle_through_a_function(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from . import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from .a import x\n    return x\n")
    (tmp_path / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n"
    )
    assert circles(tmp_path) == [["a", "b"]]
