"""Helpers shared by the judge's tests (tests/test_judge.py, tests/test_judge_formatting.py): the report, an edited
or python-docx-built copy of it, it with Heading 1's run properties set, and a verdict's single difference."""

from __future__ import annotations

from autodw.apis import execute
from autodw.core.document import WordDocument
from autodw.core.xml import qn

from tests.conftest import EXAMPLES

REPORT = EXAMPLES / "report.docx"


def edited(source, *calls) -> WordDocument:
    """A new, independently opened document: `source` with the API calls applied, saved and re-opened."""
    doc = WordDocument.from_bytes(source.to_bytes()) if isinstance(source, WordDocument) else WordDocument.open(source)
    for name, args in calls:
        execute(doc, name, args)
    return WordDocument.from_bytes(doc.to_bytes(), name="edited.docx")


def only(verdict):
    """The verdict's single difference."""
    assert not verdict.equivalent
    assert len(verdict.differences) == 1, verdict.to_text()
    return verdict.differences[0]


def built(*steps) -> WordDocument:
    """The report with each of `steps` applied to its python-docx document in turn, saved and re-opened."""
    doc = WordDocument.open(REPORT)
    for step in steps:
        step(doc.docx)
    return WordDocument.from_bytes(doc.to_bytes(), name="built.docx")


def heading_1(*children) -> WordDocument:
    """The sample report with Heading 1's run properties ``w:color`` and ``w:u`` (`children`: tag, attributes) set."""
    doc = WordDocument.open(REPORT)
    style = next(s for s in doc.part._styles_part.element.iter(qn("w:style")) if s.get(qn("w:styleId")) == "Heading1")
    rpr = style.find(qn("w:rPr"))
    for tag, attrs in children:
        old = rpr.find(qn(tag))
        if old is not None:
            rpr.remove(old)
        rpr.insert(2, rpr.makeelement(qn(tag), {qn(k): v for k, v in attrs.items()}))
    return WordDocument.from_bytes(doc.to_bytes(), name="heading.docx")
