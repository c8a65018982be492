"""The ``ceiling`` system: the real agent, assembled as its profile is, with the ceiling backend as its model.

Each instruction gets a backend that knows its gold calls (:class:`~autodw.eval.ceiling.backend.CeilingBackend`) and
an agent built from the profile's assembly with the intent classifier, exactly as ``autodw`` with a real model; its
trace ends with the instruction's diagnosis (a ``ceiling_turn`` event, :mod:`autodw.eval.ceiling.diagnosis`). The
trace leaves out the prompts' text (the ceiling's prompts are made again by rerunning it): the obstacles say what a
prompt did not show.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from autodw.agent import grounding
from autodw.agent.assembly import Assembly
from autodw.agent.events import TraceWriter
from autodw.agent.intent_filter import IntentClassifier
from autodw.agent.loop import Agent
from autodw.analysis.state import extract_state
from autodw.analysis.state.render import body_blocks, render_state
from autodw.apis.registry import Registry
from autodw.core.document import WordDocument
from autodw.dwbench.records import Instruction
from autodw.eval.ceiling.backend import CeilingBackend
from autodw.eval.ceiling.diagnosis import TurnLog
from autodw.eval.systems import TurnResult, run_agent_turn


def own_classifier(classifier: IntentClassifier, loaded_in: int) -> IntentClassifier:
    """`classifier`, or in a worker process forked from the process it was loaded in (`loaded_in`), the same model
    loaded again: an ONNX Runtime session does not survive a fork (its thread pool stays behind)."""
    path = getattr(classifier, "path", None)
    if os.getpid() == loaded_in or path is None:
        return classifier
    return type(classifier).load(path, threads=1)  # type: ignore[attr-defined]


class LeanTrace(TraceWriter):
    """A trace without the prompts' text (each LLM call keeps its role, answer and usage)."""

    def __call__(self, event: str, data: dict[str, Any]) -> None:
        if event == "llm_call":
            data = {k: v for k, v in data.items() if k != "messages"}
        super().__call__(event, data)


class CeilingSystem:
    """The agent of `assembly` (a profile's) with a perfect model that sees only its prompts (module docstring)."""

    name = "ceiling"
    llm_name = "ceiling"

    def __init__(self, classifier: IntentClassifier, assembly: Assembly, registry: Registry | None = None,
                 prompts: bool = False):
        if registry is None:
            from autodw.apis import registry as load_registry

            registry = load_registry()
        self.classifier, self.assembly, self.registry = classifier, assembly, registry
        self.writer = TraceWriter if prompts else LeanTrace  # prompts: the traces keep each prompt's text

    def run_turn(self, doc: WordDocument, instruction: Instruction, earlier: list[tuple[str, str]],
                 trace: Path | None = None) -> TurnResult:
        state = extract_state(doc)
        elements = elements_in_order(state)
        backend = CeilingBackend(instruction, self.assembly, self.registry, render_state(state), elements=elements,
                                 row_cells=row_cells(state))
        agent = Agent(backend, self.classifier, registry=self.registry, assembly=self.assembly)
        backend.emit = agent.runner.events
        log = TurnLog(backend.executed, agent.runner.events)
        return run_agent_turn(agent, doc, instruction.text, earlier, trace, sinks=[log], writer=self.writer)


def elements_in_order(state: dict[str, Any]) -> dict[str, str]:
    """Each paragraph's text (id -> text) in document order, a table's cell paragraphs where the table is (a search's
    matches are near its targets in this order: :mod:`autodw.eval.ceiling.searches`); those of nested tables last.
    A table's id comes just before its cells and a picture's or chart's just after its paragraph, with no text (no
    search matches them), so that a step whose target is a table or picture has a place in this order."""
    cells = {t["id"]: [p for row in _row_paragraphs(t) for p in row] for t in state.get("tables", [])}
    pictures: dict[str, list[str]] = {}
    for image in state.get("images", []):
        pictures.setdefault(image.get("paragraph"), []).append(image["id"])
    out: dict[str, str] = {}
    for block, is_table in body_blocks(state):
        if is_table:
            out[block["id"]] = ""
        for p in cells.get(block["id"], []) if is_table else [block]:
            out[p["id"]] = p.get("text", "")
            out.update(dict.fromkeys(pictures.get(p["id"], []), ""))
    for p, _ in grounding.paragraphs(state):
        out.setdefault(p["id"], p.get("text", ""))
    return out


def row_cells(state: dict[str, Any]) -> dict[tuple[str, int], list[str]]:
    """(table id, row) -> the paragraph ids of the row's cells: what a search must come near to show the row."""
    return {(t["id"], n): [p["id"] for p in row]
            for t in state.get("tables", []) for n, row in enumerate(_row_paragraphs(t))}


def _row_paragraphs(table: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Each row of a state's `table`: the paragraphs of its cells, in order."""
    return [[p for cell in row if cell for p in cell.get("paragraphs", [])] for row in table.get("cell_details", [])]
