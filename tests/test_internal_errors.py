"""A bug of ours (an untyped exception inside an API or the state readers) is an internal error: never shown to the
LLM, never a rollback, the document left as it was, and `autodw run` says so, saves the finished instructions and
exits with status 4."""

from __future__ import annotations

import dataclasses
import json

import pytest

from autodw.agent import loop as loop_module
from autodw.agent.events import TraceWriter
from autodw.agent.loop import Agent
from autodw.apis import registry
from autodw.interfaces.cli import EXIT_INTERNAL_ERROR, main
from autodw.core.document import WordDocument
from autodw.core.errors import ApiError, InternalError
from autodw.llm.scripted import ScriptedBackend
from autodw.analysis.state import extract_state
from tests.conftest import EXAMPLES
from tests.test_agent import DONE, PASS, FixedClassifier, plan
from tests.test_cli_run import INSTRUCTIONS, cassette  # noqa: F401 - the fixture

BUGGY_TEXT = "Second addition."


@pytest.fixture
def buggy_insert(monkeypatch):
    """insert_paragraph with a bug of ours: a KeyError once it has half-edited the document, for one text only."""
    spec = registry().get("insert_paragraph")

    def insert_paragraph(doc, **args):
        out = spec.func(doc, **args)  # the edit is made, then the bug strikes
        if args["text"] == BUGGY_TEXT:
            raise KeyError("marker-of-our-bug")
        return out

    monkeypatch.setitem(registry()._specs, "insert_paragraph", dataclasses.replace(spec, func=insert_paragraph))


def texts(doc):
    return [p["text"] for p in extract_state(doc)["paragraphs"]]


def test_a_bug_inside_an_api_is_an_internal_error_not_the_models_mistake(buggy_insert, tmp_path):
    call = {"api": "insert_paragraph", "args": {"text": BUGGY_TEXT, "position": "end"}}
    llm = ScriptedBackend({"planner": [plan(f"Insert '{BUGGY_TEXT}' at the end."), DONE],
                           "api_generator": [call, call], "validator": [PASS]})
    trace = tmp_path / "trace.jsonl"
    agent = Agent(llm, FixedClassifier(), sinks=[TraceWriter(trace)])
    doc = WordDocument.open(EXAMPLES / "report.docx")
    before = doc.members(keep_ids=True)
    with pytest.raises(InternalError, match="KeyError in API insert_paragraph: 'marker-of-our-bug'") as caught:
        agent.run(doc, ["Add the second addition"])
    agent.close()
    assert not isinstance(caught.value, ApiError) and isinstance(caught.value.__cause__, KeyError)
    assert "raise KeyError" in caught.value.traceback
    assert doc.members(keep_ids=True) == before  # the half-edit was undone
    assert [r["role"] for r in llm.requests] == ["planner", "api_generator"]  # no validator, no retry
    assert not any("marker-of-our-bug" in m["content"] for r in llm.requests for m in r["messages"])
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    end = next(e for e in events if e["event"] == "instruction_end")
    assert end["status"] == "internal_error" and "KeyError" in end["error"]
    assert "raise KeyError" in next(e for e in events if e["event"] == "internal_error")["traceback"]
    assert events[-1]["event"] == "run_end"


def test_a_bug_in_the_state_readers_is_not_a_failed_step(monkeypatch):
    from autodw.analysis.state import cache as state_cache

    real, calls = state_cache.extract_state, {"n": 0}

    def buggy(doc):
        calls["n"] += 1
        if calls["n"] == 2:  # the read right after the first call
            raise AttributeError("'NoneType' object has no attribute 'find'")
        return real(doc)

    monkeypatch.setattr(state_cache, "extract_state", buggy)  # the agent's StateCache reads states with it
    llm = ScriptedBackend({"planner": [plan("Insert 'A'."), DONE],
                           "api_generator": [{"api": "insert_paragraph", "args": {"text": "A", "position": "end"}}] * 2})
    doc = WordDocument.open(EXAMPLES / "report.docx")
    result = loop_module.RunResult()
    with pytest.raises(InternalError, match="AttributeError in the agent"):
        Agent(llm, FixedClassifier()).run(doc, ["Add A"], result)
    record = result.instructions[0]
    assert record.status == "internal_error" and len(record.steps[0].attempts) == 0  # no rollback, no second attempt
    assert [r["role"] for r in llm.requests] == ["planner", "api_generator"]


def test_run_reports_an_internal_error_keeps_the_input_and_saves_finished_instructions(cassette, buggy_insert,  # noqa: F811
                                                                                    tmp_path, capsys):
    # the cassette is recorded first, without the bug
    src, out = tmp_path / "in.docx", tmp_path / "out.docx"
    src.write_bytes((EXAMPLES / "report.docx").read_bytes())
    code = main(["run", str(src), "-i", INSTRUCTIONS[0], "-i", INSTRUCTIONS[1], "-o", str(out),
                 "--llm", f"replay:{cassette}", "--trace", str(tmp_path / "trace.jsonl")])
    err = capsys.readouterr().err
    assert code == EXIT_INTERNAL_ERROR == 4
    assert "error: internal error (a bug in autodw, not a mistake of the model): KeyError in API insert_paragraph" in err
    saved = tmp_path / "out.internal-error.txt"
    assert f"traceback in {saved} and the trace {tmp_path / 'trace.jsonl'}" in err and "raise KeyError" in saved.read_text()
    assert src.read_bytes() == (EXAMPLES / "report.docx").read_bytes() and not out.exists()
    partial = tmp_path / "out.partial.docx"
    assert "saved the result of the first 1 instruction(s)" in err
    assert texts(WordDocument.open(partial))[-1] == "First addition."


def test_other_commands_report_a_bug_as_an_internal_error(buggy_insert, tmp_path, capsys):
    out = tmp_path / "out.docx"
    code = main(["call", str(EXAMPLES / "report.docx"), "insert_paragraph", "-o", str(out),
                 "--args", json.dumps({"text": BUGGY_TEXT, "position": "end"})])
    err = capsys.readouterr().err
    assert code == 4 and "error: internal error (a bug in autodw): KeyError in API insert_paragraph" in err
    assert "Traceback" in err and not out.exists()
