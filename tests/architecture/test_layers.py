"""The folders are the pipeline: a module imports only from its own layer or the layers below.

    cli  ->  commands  ->  game (model, loader, cache)  ->  backends (python, native)
         ->  lowering  ->  frontend  ->  errors, cache, grammar

The solvers stand beside this stack: they know only the game protocol (and ``plies.errors``),
and any layer may use them. ``plies/__init__.py`` is the public facade, above everything, and
``from plies import __version__`` is allowed anywhere. Imports inside functions count as much as
those at the top: a lazy import is still a dependency. No two modules import each other, even
within one layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import plies

PACKAGE = Path(plies.__file__).parent

LAYERS = [  # lowest first
    ("plies.errors", "plies.cache", "plies.grammar"),
    ("plies.frontend",),
    ("plies.lowering",),
    ("plies.backends",),
    ("plies.game",),
    ("plies.commands",),
    ("plies.cli",),
]
SOLVERS = "plies.solvers"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, as (line, absolute dotted name), lazy imports included."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            # `from plies.frontend import ast` depends on the module plies.frontend.ast, and on
            # the package itself only for names that are not modules
            modules = [f"{target}.{alias.name}" for alias in node.names
                       if (PACKAGE.parent / (f"{target}.{alias.name}".replace(".", "/") + ".py")).exists()]
            found += [(node.lineno, module) for module in modules]
            if len(modules) < len(node.names):
                found.append((node.lineno, target))
    return [(line, target) for line, target in found if target.split(".")[0] == "plies"]


def _layer(module: str) -> int | None:
    for rank, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return None


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def test_every_module_is_in_a_layer():
    loose = [name for name in _modules()
             if name != "plies" and _layer(name) is None and not name.startswith(SOLVERS)]
    assert loose == [], "modules outside every layer (add them to a folder): " + ", ".join(loose)


def test_no_module_imports_a_higher_layer():
    wrong = []
    for name, path in _modules().items():
        if name == "plies":
            continue  # the facade
        for line, target in _imports(path):
            if target == "plies":
                continue  # __version__
            if name.startswith(SOLVERS):
                if not (target.startswith(SOLVERS) or target == "plies.errors"):
                    wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: the solvers import {target}")
                continue
            if target.startswith(SOLVERS):
                continue
            if _layer(target) > _layer(name):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {name} imports {target}, "
                             f"a higher layer")
    assert wrong == [], "\n".join(wrong)


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iteratively: the cycles of the import graph."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = counter[0]
                counter[0] += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_no_two_modules_import_each_other():
    modules = _modules()
    graph = {name: {target for _, target in _imports(path)
                    if target in modules and target != name and target != "plies"}
             for name, path in modules.items() if name != "plies"}
    for name in graph:
        graph[name] &= graph.keys()
    assert _strongly_connected(graph) == []


def test_the_check_sees_a_wrong_import(tmp_path, monkeypatch):
    """The test itself can fail: a front-end module that imports a command is caught."""
    assert _layer("plies.frontend.checker") < _layer("plies.commands.analysis")
    assert _layer("plies.backends.native.engine") > _layer("plies.lowering.ir")
    cycle = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _strongly_connected(cycle) == [["a", "b", "c"]]
