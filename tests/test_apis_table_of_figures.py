"""update_toc on tables of figures (TOC fields with \\c "Figure" or \\a "Figure"): the captions numbered by that SEQ
label in document order, in the "table of figures" style, each linked to and paging its caption as a heading TOC's
entries do; and what the state reports for such a field."""

from __future__ import annotations

from autodw.analysis.state import extract_state
from autodw.analysis.state.render import render_state
from autodw.apis import execute
from autodw.apis.ooxml import toc as toc_lib
from autodw.apis.ooxml.elements import make
from autodw.apis.ooxml.fields import field_runs
from autodw.apis.ooxml.lifecycle import iter_fields
from autodw.apis.ooxml.text import new_run
from autodw.core.document import WordDocument
from autodw.core.xml import qn, wval
from tests.conftest import EXAMPLES, assert_word_opens, open_corpus
from tests.state_shape import shape_errors

#: Apache Tika's testWORD_2006ml.docx: a TOC, then TOC \h \z \c "Table" listing "Table 1: Table1 Caption" (page 2)
TIKA = "tika__testWORD_2006ml.docx"
#: the Open XML SDK's complex2005_12rtm.docx: a TOC, then TOC \h \z \c "Figure" over 18 chapter-numbered captions
FLAGPOLE = "oxsdk__complex2005_12rtm.docx"


def _figures(doc: WordDocument) -> dict[str, list[str]]:
    return {t["label"]: t["entries"] for t in extract_state(doc)["page_layout"].get("tables_of_figures", [])}


def _style_of(p) -> str | None:
    return wval(p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}"))


def _region(doc: WordDocument, label: str) -> list:
    field = next(f for f in toc_lib.find_tocs(doc) if f.figures == label)
    return toc_lib.region(field)


def test_a_table_of_figures_lists_the_captions_not_the_headings():
    """A new table caption above the first table (after the captioned one): the table of figures lists both captions
    in document order, in the document's TableofFigures style, each a hyperlink to a bookmark in its caption with a
    PAGEREF to it (the old page number kept for the old caption); the heading TOC lists no caption. update_toc listed
    the headings here."""
    before, doc = open_corpus(TIKA)
    assert _figures(doc) == {"Table": ["Table 1: Table1 Caption\t2"]}
    first = next(t["id"] for t in extract_state(doc)["tables"] if "nested_in" not in t)
    execute(doc, "insert_caption", {"target": first, "text": "Added first", "label": "Table"})
    result = execute(doc, "update_toc", {})
    assert "1 table(s) of figures (Table: 2 entries)" in result.message
    assert _figures(doc) == {"Table": ["Table 1: Table1 Caption\t2", "Table 2: Added first\t"]}
    assert not any(e.startswith("Table") for e in extract_state(doc)["page_layout"]["table_of_contents"]["entries"])
    *entries, end = _region(doc, "Table")  # the field's end stays in its own empty paragraph, as Word keeps it
    assert [_style_of(p) for p in entries] == ["TableofFigures"] * 2
    assert _style_of(end) is None and not "".join(t.text for t in end.iter(qn("w:t")))
    marks = {b.get(qn("w:name")): b for b in doc.body.iter(qn("w:bookmarkStart"))}
    for p, caption in zip(entries, ("Table 1: Table1 Caption", "Table 2: Added first")):
        link = p.find(qn("w:hyperlink"))
        anchor = link.get(qn("w:anchor"))
        assert "".join(t.text for t in next(marks[anchor].iterancestors(qn("w:p"))).iter(qn("w:t"))) == caption
        assert any(f.instruction == f"PAGEREF {anchor} \\h" for f in iter_fields(p))
    assert_word_opens(before, doc)


def test_an_up_to_date_table_of_figures_stays_as_it_was():
    """The 18 chapter-numbered figure captions ("Figure 3-1: ...") come back as they were, page numbers included."""
    before, doc = open_corpus(FLAGPOLE)
    old = _figures(doc)["Figure"]
    assert len(old) == 18
    execute(doc, "update_toc", {})
    assert _figures(doc)["Figure"] == old
    assert_word_opens(before, doc)


def test_a_switch_lists_the_captions_without_label_and_number():
    _, doc = open_corpus(FLAGPOLE)
    instr = next(t for t in doc.body.iter(qn("w:instrText")) if '\\c "Figure"' in (t.text or ""))
    instr.text = instr.text.replace('\\c "Figure"', '\\a "Figure"')
    execute(doc, "update_toc", {})
    entries = _figures(doc)["Figure"]
    assert entries[0] == "The Flagpole Project parts for a decision-support system\t11"
    assert entries[1] == "The Mohr's Circle applet and its results\t36" and len(entries) == 18


def _captioned_report() -> tuple[bytes, WordDocument]:
    """The sample report with a table of figures and a table of tables (empty results, no style for them yet) after
    its first paragraph, then captions under its picture and chart and above its table."""
    doc = WordDocument.open(EXAMPLES / "report.docx")
    before = doc.to_bytes()
    assert toc_lib.find_tocs(doc) == [] and not any(s.get(qn("w:styleId")) == "TableofFigures"
                                                    for s in doc.docx.styles.element.iter(qn("w:style")))
    anchor = doc.find("p2", "p")
    for label in ("Table", "Figure"):
        begin, instr, separate, _, end = field_runs(f'TOC \\h \\z \\c "{label}"', "")
        p = make("w:p")
        for r in (begin, instr, separate, new_run("No table of figures entries found."), end):
            p.append(r)
        anchor.addnext(p)
    doc.refresh_ids()
    state = extract_state(doc)
    ids = {i["type"]: i["id"] for i in state["images"]}
    execute(doc, "insert_caption", {"target": ids["chart"], "text": "Sales trend", "label": "Figure"})
    execute(doc, "insert_caption", {"target": ids["picture"], "text": "Company logo", "label": "Figure"})
    execute(doc, "insert_caption", {"target": state["tables"][0]["id"], "text": "Sales by region", "label": "Table"})
    return before, doc


def test_captions_inserted_with_insert_caption_are_listed_in_the_table_of_figures_style():
    before, doc = _captioned_report()
    state = extract_state(doc)
    assert state["page_layout"]["table_of_contents"] is None  # a table of figures is not a table of contents
    figures = state["page_layout"]["tables_of_figures"]
    assert [t["label"] for t in figures] == ["Figure", "Table"]
    assert f"TABLE OF FIGURES at {figures[0]['paragraph']} (Figure captions), 0 entries" in render_state(state)
    assert shape_errors(state) == []
    result = execute(doc, "update_toc", {})
    assert result.message == "regenerated 2 table(s) of figures (Figure: 2, Table: 1 entries)"
    assert _figures(doc) == {"Figure": ["Figure 1: Company logo", "Figure 2: Sales trend"],
                             "Table": ["Table 1: Sales by region"]}
    style = next(s for s in doc.docx.styles.element.iter(qn("w:style")) if s.get(qn("w:styleId")) == "TableofFigures")
    assert wval(style.find(qn("w:name"))) == "table of figures" and wval(style.find(qn("w:basedOn"))) == "Normal"
    for p in _region(doc, "Figure") + _region(doc, "Table"):
        assert _style_of(p) == "TableofFigures"
        assert p.find(qn("w:hyperlink")).get(qn("w:anchor")).startswith("_Toc")
    assert_word_opens(before, doc)


def test_insert_toc_is_not_refused_for_a_table_of_figures():
    _, doc = _captioned_report()
    execute(doc, "insert_toc", {"position": "start"})
    assert extract_state(doc)["page_layout"]["table_of_contents"]["entries"][0] == "Highlights"


def test_update_fields_numbers_the_captions_before_listing_them():
    """A caption whose number reads 7: update_fields renumbers it, then lists it with its number."""
    _, doc = _captioned_report()
    seq = next(f for f in iter_fields(doc.body) if f.instruction.startswith("SEQ Table"))
    seq.result_runs[0].find(qn("w:t")).text = "7"
    execute(doc, "update_fields", {"count_pages": False})
    assert _figures(doc)["Table"] == ["Table 1: Sales by region"]
