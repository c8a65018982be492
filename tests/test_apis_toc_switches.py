"""update_toc on corpus TOCs whose instruction carries \\b, \\f with \\l, \\p: the entries each switch selects, written as
Word writes them (TOC N styles, \\h hyperlinks in the Hyperlink style), and the Word check on the result."""

from __future__ import annotations

import pytest

from autodw.analysis.state import extract_state
from autodw.apis import execute
from autodw.apis.ooxml.fields import field_runs
from autodw.core.document import WordDocument
from autodw.core.errors import UnsupportedOperationError
from autodw.core.xml import qn, wval
from autodw.apis.ooxml.elements import make
from tests.conftest import assert_word_opens, corpus_file

#: Open-XML-PowerTools' TableOfContents.docx: TOC \o "1-3" \h \z \u over Heading 1, 2, 1 again, 2 again
TOC_DOC = "oxpt__TableOfContents.docx"


def _open() -> tuple[bytes, WordDocument]:
    data = corpus_file(TOC_DOC).read_bytes()
    return data, WordDocument.from_bytes(data, TOC_DOC)


def _set_instruction(doc: WordDocument, instruction: str) -> None:
    instr = next(t for t in doc.body.iter(qn("w:instrText")) if t.text.strip().startswith("TOC"))
    instr.text = f" {instruction} "


def _heading(doc: WordDocument, text: str):
    return next(p for p in doc.body.iter(qn("w:p"))
                if "".join(t.text or "" for t in p.iter(qn("w:t"))) == text
                and not wval(p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}")).startswith("TOC"))


def _entries(doc: WordDocument) -> list[str]:
    return extract_state(doc)["page_layout"]["table_of_contents"]["entries"]


def _toc_paragraphs(doc: WordDocument) -> list:
    return [p for p in doc.body.iter(qn("w:p"))
            if (wval(p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}")) or "").startswith("TOC") and
            wval(p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}")) != "TOCHeading"]


def test_regenerated_entries_are_written_as_word_writes_them():
    """Same entries, same number of paragraphs, each in its TOC N style with the old entry's tab stops, a hyperlink
    whose text is in the Hyperlink style and whose separator and page number are hidden on the web."""
    before, doc = _open()
    old = _entries(doc)
    n_old = len(_toc_paragraphs(doc))
    execute(doc, "update_toc", {})
    assert _entries(doc) == old
    paragraphs = _toc_paragraphs(doc)
    assert len(paragraphs) == n_old == 4
    for p in paragraphs:
        assert p.find(f"{qn('w:pPr')}/{qn('w:tabs')}/{qn('w:tab')}").get(qn("w:leader")) == "dot"
        link = p.find(qn("w:hyperlink"))
        assert link is not None and link.get(qn("w:anchor")).startswith("_Toc")
        runs = link.findall(qn("w:r"))
        assert wval(runs[0].find(f"{qn('w:rPr')}/{qn('w:rStyle')}")) == "Hyperlink"
        assert all(r.find(f"{qn('w:rPr')}/{qn('w:webHidden')}") is not None for r in runs[1:])
    assert_word_opens(before, doc)


def test_b_lists_only_the_headings_inside_the_bookmark():
    before, doc = _open()
    _set_instruction(doc, 'TOC \\o "1-3" \\h \\z \\u \\b Second')
    first, last = _heading(doc, "Heading 1 again"), _heading(doc, "Heading 2 again")
    first.insert(1, make("w:bookmarkStart", w_id="900", w_name="Second"))
    last.append(make("w:bookmarkEnd", w_id="900"))
    execute(doc, "update_toc", {})
    assert [e.split("\t")[0] for e in _entries(doc)] == ["Heading 1 again", "Heading 2 again"]
    assert_word_opens(before, doc)


def test_b_naming_a_missing_bookmark_is_an_error():
    _, doc = _open()
    _set_instruction(doc, 'TOC \\o "1-3" \\h \\b Nowhere')
    with pytest.raises(UnsupportedOperationError, match="Nowhere"):
        execute(doc, "update_toc", {})


def test_f_and_l_list_the_tc_fields_of_the_identifier_and_levels():
    """\\f x \\l "1-2": TC fields marked x at levels 1-2, in document order; \\n on a TC drops its page number;
    headings are not listed (no \\o)."""
    before, doc = _open()
    _set_instruction(doc, 'TOC \\f x \\l "1-2" \\h \\z')
    marks = [("Heading 2", 'TC "Alpha" \\f x \\l 1'), ("Heading 2", 'TC "Beta" \\f x \\l 3'),
             ("Heading 1 again", 'TC "Gamma" \\f y'), ("Heading 2 again", 'TC "Delta" \\f x \\l 2 \\n'),
             ("Heading 2 again", 'TC "Epsilon"')]
    for text, instruction in marks:
        p = _heading(doc, text)
        for r in field_runs(instruction):
            p.append(r)
    execute(doc, "update_toc", {})
    assert _entries(doc) == ["Alpha\t1", "Delta"]
    styles = [wval(p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}")) for p in _toc_paragraphs(doc)]
    assert styles == ["TOC1", "TOC2"]
    assert_word_opens(before, doc)


def test_bare_f_lists_tc_fields_without_identifier_beside_headings():
    _, doc = _open()
    _set_instruction(doc, 'TOC \\o "1-1" \\f \\h')
    for r in field_runs('TC "Extra" \\l 2'):
        _heading(doc, "Heading 2").append(r)
    execute(doc, "update_toc", {})
    assert [e.split("\t")[0] for e in _entries(doc)] == ["Heading 1", "Extra", "Heading 1 again"]


def test_a_tc_entry_keeps_the_spaces_inside_its_text():
    """A TC field's text is listed as written, as a heading's is ("第一章  总则" keeps both spaces)."""
    _, doc = _open()
    _set_instruction(doc, 'TOC \\f x \\h')
    for r in field_runs('TC "第一章  总则" \\f x \\l 1'):
        _heading(doc, "Heading 2").append(r)
    execute(doc, "update_toc", {})
    assert [e.split("\t")[0] for e in _entries(doc)] == ["第一章  总则"]


def test_p_separates_entry_and_page_number():
    before, doc = _open()
    _set_instruction(doc, 'TOC \\o "1-3" \\h \\z \\u \\p " - "')
    execute(doc, "update_toc", {})
    assert _entries(doc) == ["Heading 1 - 1", "Heading 2 - 1", "Heading 1 again - 1", "Heading 2 again - 1"]
    assert_word_opens(before, doc)
