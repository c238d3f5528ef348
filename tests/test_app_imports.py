"""The core's imports, read from the source: no cycle, and nothing of Qt or the views;
and which way the two processes' packages may import (app and widgets, kernel, protocol).

Every ``import`` in ``app/`` counts, those inside functions too; only ``if TYPE_CHECKING:``
blocks are left out, since they never run. ``from pkg import name`` is an import of
``pkg.name`` when that is a module, and of ``pkg`` otherwise, as import-linter reads it.
No QApplication here: this is a core test.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The window (app, widgets), the kernel process, and what the two share.
PACKAGES = ("app", "widgets", "kernel", "protocol")
QT = ("PySide6", "shiboken6", "pyqtgraph")


def modules(package: str = "app") -> dict[str, Path]:
    """Every module of ``package`` by its dotted name (a package by its own name)."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported_names(name: str, path: Path, known: set[str], *,
                   type_checking: bool = False) -> set[str]:
    """What module ``name`` (at ``path``) imports, resolved to modules where possible
    (``if TYPE_CHECKING:`` imports too when ``type_checking``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set() if type_checking else {
        id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
        and _is_type_checking(node) for n in ast.walk(node)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in known else base)
    return out


def import_graph(*packages: str, type_checking: bool = False) -> nx.DiGraph:
    mods = {}
    for package in packages or ("app",):
        mods.update(modules(package))
    graph = nx.DiGraph()
    graph.add_nodes_from(mods)
    for name, path in mods.items():
        for target in imported_names(name, path, set(mods), type_checking=type_checking):
            # an import of a.b.c also runs a and a.b, but those are its packages, not peers
            if target in mods and target != name:
                graph.add_edge(name, target)
    return graph


def test_the_graph_sees_imports_inside_functions_not_type_checking_ones(tmp_path):
    graph = import_graph()
    # app.cli imports the reader only inside _run_json, to start fast
    assert graph.has_edge("app.cli", "app.recipe.reader")
    path = tmp_path / "typed.py"
    path.write_text("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                    "    from app.training import setup\n")
    assert imported_names("app.typed", path, set(modules())) == {"typing"}


def test_the_core_has_no_import_cycle():
    cycles = list(nx.simple_cycles(import_graph()))
    assert cycles == [], "import cycles in app/: " + "; ".join(
        " -> ".join([*c, c[0]]) for c in cycles[:10])


def test_the_tree_has_no_import_circle_type_checking_imports_included():
    """A circle only annotations close (``main_window`` and a helper that names it as
    its type) still ties the two modules together: none, in any of the four packages."""
    cycles = list(nx.simple_cycles(import_graph(*PACKAGES, type_checking=True)))
    assert cycles == [], "import circles: " + "; ".join(
        " -> ".join([*c, c[0]]) for c in cycles[:10])


@pytest.mark.parametrize("forbidden", ["PySide6", "pyqtgraph", "widgets", "shiboken6"])
def test_the_core_never_imports_qt_or_the_views(forbidden):
    mods = modules()
    offenders = sorted(name for name, path in mods.items()
                       if any(t == forbidden or t.startswith(forbidden + ".")
                              for t in imported_names(name, path, set(mods))))
    assert offenders == []


@pytest.mark.parametrize(("packages", "forbidden"), [
    (("app", "widgets"), ("torch", "kernel")),
    (("kernel",), ("app", "widgets", *QT)),
    (("protocol",), ("app", "widgets", "kernel", "torch", *QT)),
])
def test_each_process_imports_only_its_own_side_and_the_protocol(packages, forbidden):
    """The window never imports torch or the kernel, the kernel never the window, the
    protocol neither: ``if TYPE_CHECKING:`` imports and imports inside functions count."""
    known = {name for package in PACKAGES for name in modules(package)}
    offenders = sorted(
        f"{name} -> {t}" for package in packages for name, path in modules(package).items()
        for t in imported_names(name, path, known, type_checking=True)
        if any(t == f or t.startswith(f + ".") for f in forbidden))
    assert offenders == []


def test_a_cycle_would_be_found(tmp_path, monkeypatch):
    """The check itself: two modules that import each other inside functions."""
    pkg = tmp_path / "fake"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from fake import b\n")
    (pkg / "b.py").write_text("def g():\n    from fake.a import f\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert [sorted(c) for c in nx.simple_cycles(import_graph("fake"))] == [["fake.a", "fake.b"]]
