"""The site's reference pages are written from the code and kept up to date; what they are written from is complete:
every command and option has help, every API a description and an example, every public name of the Python API
pages a docstring, and the trace events the agent emits are the ones its registry declares."""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib
import inspect
import re
from types import ModuleType

import pytest

from autodw.agent.events import TRACE_EVENTS
from autodw.interfaces import reference_pages
from tests.conftest import ROOT


@pytest.mark.parametrize("name", sorted(reference_pages.PAGES))
def test_the_committed_page_is_what_the_code_writes(name):
    page = ROOT / name
    assert page.is_file() and page.read_text(encoding="utf-8") == reference_pages.PAGES[name](), \
        f"{name} is out of date: run {reference_pages.COMMAND}"


def test_check_names_a_stale_page_and_writing_mends_it(tmp_path, capsys):
    assert reference_pages.main(["--check", "--root", str(tmp_path)]) == 1
    assert "stale: docs/reference/cli.md" in capsys.readouterr().out
    assert reference_pages.main(["--root", str(tmp_path)]) == 0
    assert reference_pages.main(["--check", "--root", str(tmp_path)]) == 0
    (tmp_path / "docs" / "reference" / "apis.md").write_text("edited by hand\n", encoding="utf-8")
    assert reference_pages.stale(tmp_path) == ["docs/reference/apis.md"]


def test_every_command_and_option_has_help():
    from autodw.interfaces.cli import build_parser

    found = list(reference_pages.commands(build_parser()))
    assert len(found) > 30 and ("autodw", "bench", "run") in [words for words, _, _ in found]
    missing = [" ".join(words) for words, help_text, _ in found if not help_text.strip()]
    missing += [f"{' '.join(words)} {(a.option_strings or [a.dest])[-1]}" for words, _, sub in found
                for a in reference_pages.arguments(sub) if not (a.help or "").strip() or a.help == argparse.SUPPRESS]
    assert not missing, f"commands and options without help: {missing}"


def test_every_api_has_a_description_and_an_example():
    from autodw.apis import registry

    specs = list(registry())
    assert len(specs) > 90
    assert not [s.name for s in specs if len(s.description.split()) < 3], "APIs without a description"
    assert not [s.name for s in specs if not s.examples or not all(e.args is not None for e in s.examples)]
    assert not [f"{s.name}.{name}" for s in specs for name, schema in s.parameters["properties"].items()
                if not schema.get("description")], "API arguments without a description"


def _documented() -> list[str]:
    """What docs/reference/python.md documents: the targets of its ``::: name`` blocks."""
    page = (ROOT / "docs" / "reference" / "python.md").read_text(encoding="utf-8")
    return re.findall(r"^::: (\S+)$", page, flags=re.M)


def _object(path: str) -> object:
    module, _, name = path.rpartition(".")
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError:
        return getattr(importlib.import_module(module), name)


def _public(module: ModuleType) -> list[str]:
    """A module's public names: its ``__all__``, else the functions and classes it defines without a leading _."""
    if hasattr(module, "__all__"):
        return list(module.__all__)
    return [n for n, v in vars(module).items() if not n.startswith("_") and (inspect.isfunction(v) or inspect.isclass(v))
            and v.__module__ == module.__name__]


def _has_docstring(obj: object, name: str) -> bool:
    doc = obj.__doc__ if inspect.isclass(obj) else inspect.getdoc(obj)
    if inspect.isclass(obj) and dataclasses.is_dataclass(obj) and (doc or "").startswith(f"{obj.__name__}("):
        return False  # the signature dataclasses write when a class has no docstring
    return bool(doc and doc.strip())


def _undocumented(path: str, obj: object) -> list[str]:
    """The names under `obj` (called `path`) without a docstring: it, a module's public names, a class's methods."""
    names = [(path, obj)]
    if inspect.ismodule(obj):
        names += [(f"{path}.{n}", getattr(obj, n)) for n in _public(obj)]
    missing = []
    for name, value in names:
        if not _has_docstring(value, name):
            missing.append(name)
        if inspect.isclass(value):
            for attr, member in vars(value).items():
                func = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
                if not attr.startswith("_") and inspect.isfunction(func) and not (func.__doc__ or "").strip():
                    missing.append(f"{name}.{attr}")
    return missing


def test_every_public_name_of_the_python_api_has_a_docstring():
    documented = _documented()
    assert "autodw" in documented and "autodw.core.document" in documented and len(documented) > 10
    missing = [name for path in documented for name in _undocumented(path, _object(path))]
    assert not missing, f"public names without a docstring: {missing}"


def test_a_name_without_a_docstring_is_found():
    @dataclasses.dataclass
    class Bare:
        x: int

        def method(self) -> int:
            return self.x

    Bare.__module__ = "bare_module"
    module = ModuleType("bare_module", "A module.")
    module.Bare = Bare  # type: ignore[attr-defined]
    assert _undocumented("bare_module", module) == ["bare_module.Bare", "bare_module.Bare.method"]
    Bare.__doc__, Bare.method.__doc__ = "A bare class.", "Its x."
    assert _undocumented("bare_module", module) == []


# --- trace events ---------------------------------------------------------------------------------------------------


def _emitted() -> dict[str, set[str]]:
    """Each event name the code emits (``emit("name", {...})`` or ``events("name", {...})``) and the literal keys of
    its data."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "autodw").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "emit(" not in text and "events(" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                continue
            func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if func not in ("emit", "events"):
                continue
            keys = found.setdefault(node.args[0].value, set())
            if len(node.args) > 1 and isinstance(node.args[1], ast.Dict):
                keys |= {k.value for k in node.args[1].keys if isinstance(k, ast.Constant)}
    return found


def test_the_code_emits_exactly_the_declared_events_with_declared_fields():
    emitted = _emitted()
    assert set(emitted) == set(TRACE_EVENTS), "declare new events in autodw.agent.events.TRACE_EVENTS"
    undeclared = {name: keys - set(TRACE_EVENTS[name].fields) for name, keys in emitted.items()}
    assert not {k: v for k, v in undeclared.items() if v}, undeclared


def test_a_run_emits_declared_fields_only_and_every_field_that_is_not_optional(tmp_path):
    from autodw.agent.assembly import profile_assembly
    from autodw.core.document import WordDocument
    from tests.conftest import EXAMPLES
    from tests.test_agent import DONE, PASS, FixedClassifier, agent_for, fail, plan

    agent, _ = agent_for({
        "planner": [{"done": "maybe"}, plan("Insert a paragraph 'Closing remarks.' at the end."), DONE],
        "api_generator": [{"api": "insert_paragraph", "args": {"text": "Closing", "position": "end"}},
                          {"api": "insert_paragraph", "args": {"text": "Closing remarks.", "position": "end"}}],
        "validator": [fail("the text is cut short"), PASS],
    }, assembly=profile_assembly("hosted").override(rule_checks=False), classifier=FixedClassifier())
    events: list[tuple[str, dict]] = []
    agent.sinks.append(lambda name, data: events.append((name, data)))
    agent.run(WordDocument.open(EXAMPLES / "report.docx"), ["Add a closing paragraph that says 'Closing remarks.'"])
    names = [name for name, _ in events]
    assert {"run_start", "invalid_output", "plan", "attempt", "verdict", "rollback", "run_end"} <= set(names), names
    for name, data in events:
        declared = TRACE_EVENTS[name].fields
        required = {f for f, text in declared.items() if not text.startswith("(optional)")}
        assert set(data) <= set(declared) and required <= set(data), (name, set(data) ^ set(declared))
