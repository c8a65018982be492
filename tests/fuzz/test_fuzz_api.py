"""The API harness: a bounded run over the registry, and its oracle shown to catch a bug of ours, a refusal that
changed the document, an edit that does not reopen and an error added for openxml-audit."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from tests.fuzz import mutate
from tests.fuzz.api import ApiHarness
from tests.fuzz.conftest import bounded_run
from tests.fuzz.outcome import Crash
from tests.fuzz.seams import ArgumentError, registry

REPORT = str(mutate.ROOT / "examples" / "report.docx")


@pytest.fixture
def harness(tmp_path):
    h = ApiHarness(tmp_path / "sandbox")
    yield h
    h.close()


def test_bounded_run_of_api_calls(harness):
    results = bounded_run(harness.one, "api", cpu_seconds=4, most=20)
    counts = {}
    for r in results:
        for key, n in r["counts"].items():
            counts[key] = counts.get(key, 0) + n
    assert sum(n for k, n in counts.items() if k.endswith(":edited")) >= 3, counts  # calls that really edit


def _planted(monkeypatch, api, func):
    spec = registry().get(api)
    monkeypatch.setitem(registry()._specs, api, dataclasses.replace(spec, func=func))


def test_the_oracle_catches_a_bug_and_a_refusal_that_changed_the_document(harness, monkeypatch):
    call = {"api": "insert_paragraph", "args": {"text": "x", "position": "end"}}
    assert harness.check({"document": REPORT, "calls": [call]})["counts"]["api:insert_paragraph:edited"] == 1
    real = registry().get("insert_paragraph").func

    def buggy(doc, **args):
        real(doc, **args)
        raise KeyError("planted")

    _planted(monkeypatch, "insert_paragraph", buggy)
    with pytest.raises(Crash, match="internal in insert_paragraph: KeyError"):
        harness.check({"document": REPORT, "calls": [call]})
    monkeypatch.undo()

    def refuses_after_editing(doc, name, args):  # what execute promises never to do
        doc.body.insert(0, copy.deepcopy(doc.body[0]))
        raise ArgumentError("refused")

    monkeypatch.setattr("tests.fuzz.api.execute", refuses_after_editing)
    with pytest.raises(Crash, match="refusal_changed"):
        harness.check({"document": REPORT, "calls": [call]})


def test_an_added_validation_error_is_a_crash(tmp_path, monkeypatch):
    h = ApiHarness(tmp_path / "sandbox", validate_percent=100)
    try:
        def breaks_the_schema(doc, **args):
            from lxml import etree

            doc.body.insert(0, etree.Element("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}bogus"))
            return "done"

        _planted(monkeypatch, "insert_paragraph", breaks_the_schema)
        with pytest.raises(Crash, match="validation"):
            h.check({"document": REPORT, "calls": [{"api": "insert_paragraph", "args": {"text": "x", "position": "end"}}]})
    finally:
        h.close()
