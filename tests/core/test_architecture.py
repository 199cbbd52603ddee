"""The core's shape, checked from its source: no Qt, no import cycles, one-way layers, no private imports.

Every ``import`` counts, including those inside functions: an import hidden in
a function is still a dependency, and hiding one is how cycles creep in.
"""

from __future__ import annotations

import ast
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import tsume_studio.core as core

CORE_DIR = Path(core.__file__).parent
PACKAGE = "tsume_studio.core"

# What each subpackage may import from the rest of the core (besides itself).
LAYERS: dict[str, set[str]] = {
    "kernel": set(),  # the C++ kernel's façade: nothing of the rest
    "shogi": {"errors"},
    "records": {"shogi", "errors"},
    "search": {"shogi", "errors", "kernel"},
    "answer": {"shogi", "records", "search", "errors"},
    "check": {"shogi", "search", "errors"},
    "cli": {"shogi", "records", "search", "answer", "check", "editing", "errors", "usi_client", "kernel"},
    "errors": set(),
    "usi_client": {"shogi", "search", "errors"},
    "editing": {"shogi", "records", "errors"},
    "study": {"shogi", "records", "errors"},
}


def _module_name(path: Path) -> str:
    rel = path.relative_to(CORE_DIR).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join([PACKAGE, *parts])


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(CORE_DIR.rglob("*.py"))}


def _imports(name: str, path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """(imported module, names imported from it) for every import in the file, at any depth."""
    is_pkg = path.name == "__init__.py"
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    out: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.extend((a.name, ()) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parent = base[: len(base) - (node.level - 1)]
                target = ".".join(parent + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = tuple(a.name for a in node.names)
            out.append((target, names))
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        deps: set[str] = set()
        for target, names in _imports(name, path):
            if not target.startswith(PACKAGE):
                continue
            # ``from .pkg import module`` imports a module, not a name.
            subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in mods]
            deps.update(subs or [target])
        deps.discard(name)
        graph[name] = {d for d in deps if d in mods}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _package_of(module: str) -> str:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 else ""


def test_every_core_module_is_found() -> None:
    names = _modules()
    for expected in ("shogi.position", "shogi.moves", "search.dfpn", "search.contract", "records.kif",
                     "cli.main", "cli.usi"):
        assert f"{PACKAGE}.{expected}" in names


def test_no_import_cycles() -> None:
    assert _cycles(_graph()) == []
    # The checker does find a cycle when there is one.
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_layers_import_only_downwards() -> None:
    wrong = []
    for module, deps in _graph().items():
        pkg = _package_of(module)
        if pkg not in LAYERS:
            continue  # the package's own __init__ and top-level modules
        for dep in deps:
            dep_pkg = _package_of(dep)
            if dep_pkg and dep_pkg != pkg and dep_pkg not in LAYERS[pkg]:
                wrong.append(f"{module} imports {dep}")
    assert wrong == []


def test_no_module_imports_private_names_of_another() -> None:
    mods = _modules()
    wrong = []
    for name, path in mods.items():
        for target, names in _imports(name, path):
            if target.startswith(PACKAGE) and target != name:
                wrong += [f"{name}: {target}.{n}" for n in names if n.startswith("_") and n != "__version__"]
    assert wrong == []


def test_importing_core_loads_no_qt() -> None:
    modules = [PACKAGE] + [m.name for m in pkgutil.walk_packages([str(CORE_DIR)], prefix=PACKAGE + ".")]
    assert len(modules) > 25
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "qt = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt5', 'PyQt6'))\n"
        "print(len(sys.modules), qt)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={"PYTHONDONTWRITEBYTECODE": "1", "PATH": ""})
    assert out.returncode == 0, out.stderr
    count, qt = out.stdout.split(" ", 1)
    assert int(count) > 20  # the imports really ran
    assert qt.strip() == "[]", f"core modules loaded Qt: {qt}"


_QT_IMPORT = re.compile(r"^\s*(from|import)\s+(PySide6|shiboken6|PyQt5|PyQt6|qtpy)\b", re.MULTILINE)


def test_no_qt_import_in_core_source() -> None:
    offenders = [str(p.relative_to(CORE_DIR)) for p in sorted(CORE_DIR.rglob("*.py"))
                 if _QT_IMPORT.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
    # The pattern does find a Qt import when there is one.
    assert _QT_IMPORT.search("import os\nfrom PySide6.QtCore import QObject\n")
