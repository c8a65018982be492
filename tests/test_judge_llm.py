"""The LLM judge, with a scripted model: what it is shown, and how its untrusted answers are checked."""

from __future__ import annotations

import json

import pytest

from autodw.apis import execute
from autodw.interfaces.cli import main
from autodw.core.document import WordDocument
from autodw.core.errors import LLMOutputError
from autodw.eval.llm_judge import JUDGE_SCHEMA, OUTPUT_RETRIES, ROLE, check_answer, llm_judge
from autodw.llm.replay import RecordingBackend
from autodw.llm.scripted import ScriptedBackend

from conftest import EXAMPLES

REPORT = EXAMPLES / "report.docx"
NOT_EQUAL = {"equivalent": False, "differences": [{"where": 'paragraph "Quarterly Sales Report"',
                                                   "what": "color: expected blue, actual 17365D"}]}


@pytest.fixture(scope="module")
def blue_title() -> WordDocument:
    doc = WordDocument.open(REPORT)
    execute(doc, "set_text_format", {"paragraphs": "p1", "color": "0070C0"})
    return WordDocument.from_bytes(doc.to_bytes(), name="blue.docx")


def test_the_model_sees_the_instruction_both_states_and_the_changes(blue_title):
    llm = ScriptedBackend({ROLE: [NOT_EQUAL]})
    verdict = llm_judge(blue_title, REPORT, llm=llm, instruction="Make the title blue")
    assert not verdict.equivalent and verdict.judge == "llm"
    assert verdict.differences[0].where == 'paragraph "Quarterly Sales Report"'
    assert verdict.usage["calls"] == 1 and verdict.usage["prompt_tokens"] > 0
    request = llm.requests[0]
    assert request["role"] == ROLE and request["schema"] == JUDGE_SCHEMA
    user = request["messages"][1]["content"]
    assert "Instruction: Make the title blue" in user
    assert "<expected_state>" in user and "<actual_state>" in user and "Quarterly Sales Report" in user
    assert "0070C0" in user  # the change analysis (or the state) shows the colour that differs
    assert "free text" not in request["messages"][0]["content"]
    llm = ScriptedBackend({ROLE: [{"equivalent": True, "differences": []}]})
    assert llm_judge(REPORT, REPORT, llm=llm, free_text=True).equivalent
    assert "free text" in llm.requests[0]["messages"][0]["content"]


@pytest.mark.parametrize("bad, error", [
    ("I think they are the same.", "no JSON object"),
    ({"equivalent": "yes", "differences": []}, "is not of type 'boolean'"),
    ({"equivalent": False, "differences": []}, "name at least one difference"),
    ({"equivalent": True, "differences": NOT_EQUAL["differences"]}, "leave it empty"),
    ({"equivalent": False, "differences": [{"where": "p1"}]}, "'what' is a required property"),
    ({"equivalent": False, "differences": [{"where": " ", "what": " "}]}, "non-blank"),
    ({"equivalent": True, "differences": [], "verdict": "__import__('os')"}, "Additional properties"),
])
def test_invalid_answers_are_shown_their_error_and_asked_again(blue_title, bad, error):
    llm = ScriptedBackend({ROLE: [bad, NOT_EQUAL]})
    verdict = llm_judge(blue_title, REPORT, llm=llm, instruction="Make the title blue")
    assert not verdict.equivalent and verdict.usage["calls"] == 2
    retry = llm.requests[1]["messages"]
    assert retry[-2]["role"] == "assistant" and retry[-1]["content"].startswith("That answer is invalid")
    assert error in retry[-1]["content"]


def test_no_valid_answer_after_the_retries_is_an_error(blue_title):
    llm = ScriptedBackend({ROLE: ["no"] * (OUTPUT_RETRIES + 1)})
    with pytest.raises(LLMOutputError, match="no valid answer"):
        llm_judge(blue_title, REPORT, llm=llm)
    assert llm.remaining() == {}


def test_check_answer_accepts_a_valid_answer():
    assert check_answer(json.loads(json.dumps(NOT_EQUAL))) == NOT_EQUAL


def test_cli_llm_judge_from_a_replay_cassette(tmp_path, capsys, blue_title):
    """The CLI path: --judge llm --llm replay:CASSETTE, recorded from a scripted model."""
    blue = tmp_path / "blue.docx"
    blue_title.save(blue)
    cassette = tmp_path / "judge.jsonl"
    recorder = RecordingBackend(ScriptedBackend({ROLE: [NOT_EQUAL]}), cassette)
    llm_judge(str(blue), str(REPORT), llm=recorder, instruction="Make the title blue")
    recorder.close()
    assert main(["judge", str(blue), str(REPORT), "--judge", "llm", "--llm", f"replay:{cassette}",
                 "--instruction", "Make the title blue", "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["judge"] == "llm" and out["differences"] == NOT_EQUAL["differences"]
    assert main(["judge", str(blue), str(REPORT), "--judge", "llm", "--llm", f"replay:{cassette}"]) == 2  # not recorded
    assert "error:" in capsys.readouterr().err
