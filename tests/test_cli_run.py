"""`autodw run` end to end, in-process: replayed LLM, a fixed intent classifier, trace and output files,
exit statuses, and what is saved when the LLM fails mid-session."""

from __future__ import annotations

import json

import pytest

from autodw.intents import classifier as intents_classifier
from autodw.agent.loop import Agent
from autodw.interfaces.cli import main
from autodw.core.document import WordDocument
from autodw.llm.replay import RecordingBackend
from autodw.llm.scripted import ScriptedBackend
from autodw.analysis.state import extract_state
from tests.conftest import EXAMPLES
from tests.test_agent import DONE, PASS, FixedClassifier, plan

INSTRUCTIONS = ["Add a paragraph 'First addition.' at the end", "Add a paragraph 'Second addition.' at the end"]


@pytest.fixture
def cassette(tmp_path, monkeypatch):
    """A cassette recorded from a scripted run of the two instructions on the sample report."""
    monkeypatch.setattr(intents_classifier, "load_or_train", lambda progress=True: FixedClassifier())
    script = {"planner": [plan("Insert 'First addition.' at the end."), DONE, plan("Insert 'Second addition.' at the end."), DONE],
              "api_generator": [{"api": "insert_paragraph", "args": {"text": t, "position": "end"}}
                                for t in ("First addition.", "Second addition.")],
              "validator": [PASS, PASS]}
    path = tmp_path / "run.cassette.jsonl"
    recorder = RecordingBackend(ScriptedBackend(script), path)
    Agent(recorder, FixedClassifier()).run(WordDocument.open(EXAMPLES / "report.docx"), INSTRUCTIONS)
    recorder.close()
    return path


def _texts(path):
    return [p["text"] for p in extract_state(WordDocument.open(path))["paragraphs"]]


def test_run_replays_a_session_and_writes_output_trace_and_result(cassette, tmp_path, capsys):
    src = tmp_path / "in.docx"
    src.write_bytes((EXAMPLES / "report.docx").read_bytes())
    session = tmp_path / "session.txt"
    session.write_text("# two edits\n" + "\n".join(INSTRUCTIONS) + "\n", encoding="utf-8")
    out, trace, result = tmp_path / "out.docx", tmp_path / "trace.jsonl", tmp_path / "result.json"
    code = main(["run", str(src), "--session", str(session), "-o", str(out), "--llm", f"replay:{cassette}",
                 "--trace", str(trace), "--json", str(result)])
    printed = capsys.readouterr().out
    assert code == 0
    assert src.read_bytes() == (EXAMPLES / "report.docx").read_bytes()  # input untouched
    assert _texts(out)[-2:] == ["First addition.", "Second addition."]
    assert "step 1: Insert 'First addition.' at the end." in printed and "validator: pass" in printed
    assert "Totals: 2 instruction(s), 2 step(s), 2 API call(s), 8 LLM call(s)" in printed
    events = [json.loads(line)["event"] for line in trace.read_text().splitlines()]
    assert events[0] == "run_start" and events[-1] == "run_end" and events.count("llm_call") == 8
    summary = json.loads(result.read_text())
    assert summary["completed"] and summary["usage"]["planner"]["calls"] == 4


def test_llm_failure_keeps_input_and_saves_completed_instructions(cassette, tmp_path, capsys):
    out = tmp_path / "out.docx"
    code = main(["run", str(EXAMPLES / "report.docx"), "-i", INSTRUCTIONS[0], "-i", "Something never recorded",
                 "-o", str(out), "--llm", f"replay:{cassette}"])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    partial = tmp_path / "out.partial.docx"
    assert "saved the result of the first 1 instruction(s)" in err and partial.exists()
    assert _texts(partial)[-1] == "First addition."


def test_run_refuses_to_overwrite_its_input(tmp_path, capsys):
    src = tmp_path / "in.docx"
    src.write_bytes((EXAMPLES / "report.docx").read_bytes())
    assert main(["run", str(src), "-i", "x", "-o", str(src), "--llm", "replay:/nonexistent"]) == 2
    assert "overwrite the input" in capsys.readouterr().err


def test_a_session_file_or_cassette_that_cannot_be_read_is_bad_input(tmp_path, capsys):
    src = tmp_path / "in.docx"
    src.write_bytes((EXAMPLES / "report.docx").read_bytes())
    (tmp_path / "folder").mkdir()
    (tmp_path / "latin1.txt").write_bytes("Make the title bold, s\xe9ance\n".encode("latin-1"))
    out = str(tmp_path / "out.docx")
    for session, message in (("folder", "is a folder, not a session file"), ("latin1.txt", "is not UTF-8 text")):
        assert main(["run", str(src), "--session", str(tmp_path / session), "-o", out, "--llm", "replay:x"]) == 2
        assert message in capsys.readouterr().err
    assert main(["run", str(src), "-i", "x", "-o", out, "--llm", f"replay:{src}"]) == 2  # a .docx as cassette
    assert "is not UTF-8 text" in capsys.readouterr().err
    assert not (tmp_path / "out.docx").exists()


@pytest.mark.parametrize("option", ["--trace", "--json", "--record"])
def test_a_side_file_that_is_a_folder_is_bad_input_before_the_run(cassette, tmp_path, capsys, option):
    src = tmp_path / "in.docx"
    src.write_bytes((EXAMPLES / "report.docx").read_bytes())
    (tmp_path / "folder").mkdir()
    code = main(["run", str(src), "-i", INSTRUCTIONS[0], "-o", str(tmp_path / "out.docx"), "--llm", f"replay:{cassette}",
                 option, str(tmp_path / "folder")])
    err = capsys.readouterr().err
    assert code == 2 and "is a folder" in err, err
    assert not (tmp_path / "out.docx").exists()
