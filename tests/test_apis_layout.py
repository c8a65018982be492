"""The API library's three kinds of module import one way: catalogue -> ooxml mechanisms -> framework.

Every import inside a function counts too (a lazy import hides a cycle; it does not remove it).
"""

from __future__ import annotations

import ast
from pathlib import Path

import autodw.apis

ROOT = Path(autodw.apis.__file__).parent


def _module_name(path: Path) -> str:
    parts = ["autodw", "apis", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """module -> the autodw.apis modules it imports (anywhere in its code)."""
    modules = {_module_name(p): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    targets.add(full if full in modules else node.module)
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def test_the_catalogue_only_holds_the_eight_intent_modules():
    from autodw.apis.registry import INTENTS

    names = {p.stem for p in (ROOT / "catalogue").glob("*.py")} - {"__init__"}
    assert names == set(INTENTS)


def test_mechanisms_and_framework_never_import_the_catalogue():
    wrong = {m: sorted(t for t in ts if t.startswith("autodw.apis.catalogue"))
             for m, ts in _imports().items() if not m.startswith("autodw.apis.catalogue") and m != "autodw.apis"}
    assert not {m: ts for m, ts in wrong.items() if ts}


def test_catalogue_modules_do_not_import_each_other():
    graph = _imports()
    cross = {m: sorted(t for t in ts if t.startswith("autodw.apis.catalogue.")) for m, ts in graph.items()
             if m.startswith("autodw.apis.catalogue.")}
    assert not {m: ts for m, ts in cross.items() if ts}


def test_framework_does_not_import_mechanisms():
    graph = _imports()
    framework = ("autodw.apis.registry", "autodw.apis.schema", "autodw.apis.calls")
    assert not {m: sorted(t for t in graph[m] if t.startswith("autodw.apis.ooxml")) for m in framework
                if any(t.startswith("autodw.apis.ooxml") for t in graph[m])}


def test_no_import_cycles_inside_the_api_library():
    graph = _imports()
    graph["autodw.apis"] = set()  # the package's registry() imports the catalogue by name, by design
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph.get(node, set())):
            if state.get(target) == 1:
                cycles.append(stack[stack.index(target):] + [target])
            elif target not in state:
                visit(target, stack + [target])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not cycles
