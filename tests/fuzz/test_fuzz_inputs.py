"""Bounded runs of the harnesses for the model's answers, document pairs and arguments, and their oracles."""

from __future__ import annotations

import pytest

from tests.fuzz.arguments import ArgumentHarness
from tests.fuzz.conftest import bounded_run
from tests.fuzz.outcome import Crash
from tests.fuzz.pairs import PairHarness
from tests.fuzz.parsers import ParserHarness


def test_bounded_run_of_model_answers():
    results = bounded_run(ParserHarness().one, "parsers", cpu_seconds=6, most=80)
    outcomes = {r["outcome"] for r in results}
    assert "refused" in outcomes and "parsed" in outcomes


def test_an_untyped_error_inside_the_agent_is_caught(monkeypatch):
    h = ParserHarness()
    monkeypatch.setattr("autodw.analysis.state.cache.extract_state", lambda doc: {}["planted"])
    with pytest.raises(Crash, match="agent"):
        h.check({"agent": ['{"done": false, "sub_instruction": "Make the title blue"}'] * 3})


def test_bounded_run_of_document_pairs():
    h = PairHarness()
    try:
        results = bounded_run(h.one, "judge", cpu_seconds=2, most=15)
    finally:
        h.close()
    assert results


def test_a_judge_that_finds_a_document_unlike_itself_is_caught(monkeypatch):
    from tests.fuzz.mutate import ROOT

    h = PairHarness()
    monkeypatch.setattr("tests.fuzz.pairs.judge", lambda a, b, **kw: type("V", (), {
        "equivalent": False, "to_text": lambda self: "planted", "to_dict": lambda self: {}})())
    try:
        with pytest.raises(Crash, match="judge_self"):
            h.check({"first": str(ROOT / "examples" / "report.docx"), "how": "itself", "calls": [],
                     "instruction": None, "free_text": False})
    finally:
        h.close()


def test_bounded_run_of_wrong_arguments():
    results = bounded_run(ArgumentHarness().one, "arguments", cpu_seconds=1.5, most=80)
    assert any(r["outcome"] == "refused" for r in results)
