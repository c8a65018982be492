"""update_toc writes what Word's own update writes, on corpus files: the headings' numbers in their level's numFmt
(full-width), Word's message for a TOC or table of figures that lists nothing, and the paragraph holding the field's
end kept where Word keeps it."""

from __future__ import annotations

import pytest

from autodw.analysis.state import extract_state
from autodw.apis import execute
from autodw.apis.ooxml.text import paragraph_text
from autodw.core.document import WordDocument
from autodw.core.xml import qn, wval
from tests.conftest import CORPUS, assert_word_opens, open_corpus


def _style(p) -> str | None:
    return wval(p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}"))


def _rename(doc: WordDocument, old: str, new: str) -> None:
    """Rename the heading whose text is `old` (not a TOC entry)."""
    pid = next(p["id"] for p in extract_state(doc)["paragraphs"] if p["text"] == old and p["style"].startswith("Heading"))
    execute(doc, "set_paragraph_text", {"paragraph": pid, "text": new})


def test_full_width_heading_numbers_stay_full_width():
    """docx-rs' toc1.docx numbers its headings 第%1章 / 第%2節 in decimalFullWidth: Word's TOC shows "第１章"; the
    rebuilt entries showed "第1章"."""
    before, doc = open_corpus("docxrs__toc1.docx")
    _rename(doc, "Hello", "Greetings")
    execute(doc, "update_toc", {})
    entries = extract_state(doc)["page_layout"]["table_of_contents"]["entries"]
    assert entries == ["第１章\tGreetings\t2", "第１節\tWorld\t2", "第２章\tこんにちは\t3", "第１節\t世界\t3"]
    assert [p["list"]["label"] for p in extract_state(doc)["paragraphs"] if p.get("list")][:2] == ["第１章", "第１節"]
    assert_word_opens(before, doc)


def _field_results(doc: WordDocument, instruction: str) -> list[str]:
    """The text of the paragraphs whose field begins with `instruction` (one-paragraph fields)."""
    return [paragraph_text(t.getparent().getparent()) for t in doc.body.iter(qn("w:instrText"))
            if (t.text or "").strip() == instruction]


def test_tables_of_figures_without_captions_show_words_message():
    """pandoc's 0_level_headers.docx has two tables of figures with no captions, whose result Word wrote as
    "No table of figures entries found.": update_toc turned them into empty "Table of Figures" paragraphs."""
    before, doc = open_corpus("pandoc__0_level_headers.docx")
    execute(doc, "update_toc", {})
    for instruction in ('TOC \\c "Figure"', 'TOC \\c "Table"'):
        texts = _field_results(doc, instruction)
        assert texts == ["No table of figures entries found."]
    message = [p for p in doc.body.iter(qn("w:p")) if paragraph_text(p) == "No table of figures entries found."]
    assert len(message) == 2 and all(_style(p) is None for p in message)
    run = next(r for r in message[0].iter(qn("w:r")) if r.find(qn("w:t")) is not None)
    assert run.find(f"{qn('w:rPr')}/{qn('w:b')}") is not None  # bold, as Word writes it
    assert [t["entries"] for t in extract_state(doc)["page_layout"]["tables_of_figures"]] == [[], []]
    assert "Figure: 0, Table: 0 entries" in execute(doc, "update_toc", {}).message
    assert_word_opens(before, doc)


def test_a_toc_without_headings_shows_words_message():
    before, doc = open_corpus("oxpt__TableOfContents.docx")
    for p in doc.body.iter(qn("w:p")):
        style = p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}")
        if style is not None and style.get(qn("w:val")).startswith("Heading"):
            style.getparent().remove(style)
    result = execute(doc, "update_toc", {})
    assert "with 0 entries" in result.message
    start = next(t for t in doc.body.iter(qn("w:instrText")) if t.text.strip().startswith("TOC"))
    assert paragraph_text(start.getparent().getparent()) == "No table of contents entries found."
    assert extract_state(doc)["page_layout"]["table_of_contents"]["entries"] == []
    assert_word_opens(before, doc)


def test_the_paragraph_holding_the_field_end_is_kept():
    """Open-XML-PowerTools' TableOfContents.docx ends its TOC field in an empty paragraph after the last entry (p6),
    as Word writes it; update_toc dropped that paragraph and moved the end into the last entry."""
    before, doc = open_corpus("oxpt__TableOfContents.docx")
    paragraphs = list(doc.body.iter(qn("w:p")))
    end_p = next(p for p in paragraphs if p.find(f"{qn('w:r')}/{qn('w:fldChar')}") is not None
                 and p.find(f"{qn('w:r')}/{qn('w:fldChar')}").get(qn("w:fldCharType")) == "end"
                 and _style(p) is None)
    ids = [p["id"] for p in extract_state(doc)["paragraphs"]]
    execute(doc, "update_toc", {})
    after = list(doc.body.iter(qn("w:p")))
    assert len(after) == len(paragraphs)
    assert [p["id"] for p in extract_state(doc)["paragraphs"]][after.index(end_p)] == ids[paragraphs.index(end_p)] == "p6"
    assert end_p in after and paragraph_text(end_p) == "" and _style(end_p) is None
    last_entry = end_p.getprevious()
    assert _style(last_entry) == "TOC2" and paragraph_text(last_entry).startswith("Heading 2 again")
    ends = [c for c in last_entry.iter(qn("w:fldChar")) if c.get(qn("w:fldCharType")) == "end"]
    assert len(ends) == 1  # the PAGEREF's only: the TOC's end stayed in its own paragraph
    assert_word_opens(before, doc)


def test_a_heading_whose_toc_bookmark_starts_in_the_paragraph_before_keeps_it_and_its_page():
    """docx4j's Docx4j_GettingStarted.docx starts the _Toc bookmark of "other dependencies " in the empty paragraph
    before the heading (it ends in the heading): update_toc added a second bookmark and lost the page number."""
    before, doc = open_corpus("docx4j__Docx4j_GettingStarted.docx")
    names = {b.get(qn("w:name")) for b in doc.body.iter(qn("w:bookmarkStart"))}
    execute(doc, "update_toc", {})
    assert {b.get(qn("w:name")) for b in doc.body.iter(qn("w:bookmarkStart"))} == names
    entries = extract_state(doc)["page_layout"]["table_of_contents"]["entries"]
    assert "other dependencies\t10" in entries
    assert any("PAGEREF _Toc96591814" in (t.text or "") for t in doc.body.iter(qn("w:instrText")))
    assert_word_opens(before, doc)


def test_the_bookmarks_are_read_once_per_update(monkeypatch):
    """A TOC of many headings read the document's bookmarks once per heading (each a whole-document scan): they are
    read once, the headings' new ``_Toc`` bookmarks still distinct, their ids too."""
    from autodw.apis.ooxml import fields, toc
    from tests.conftest import make_doc

    doc = make_doc(lambda d: [d.add_heading(f"Part {n}", 1) for n in range(1, 9)])
    calls = []
    counted = fields.bookmark_starts
    monkeypatch.setattr(toc, "bookmark_starts", lambda d: calls.append(1) or counted(d))
    monkeypatch.setattr(fields, "bookmark_starts", lambda d: calls.append(1) or counted(d))
    execute(doc, "insert_toc", {"position": "start"})
    starts = list(doc.body.iter(qn("w:bookmarkStart")))
    assert len(calls) <= 2 and len(starts) == 8
    assert len({b.get(qn("w:name")) for b in starts}) == len({b.get(qn("w:id")) for b in starts}) == 8


def test_an_entry_whose_pageref_names_no_bookmark_keeps_its_page_and_a_new_heading_gets_a_pageref():
    """The CriticalIssueReport template's entries refer to _Toc bookmarks its headings no longer carry: update_toc
    gave each heading a new bookmark and the rewritten entries lost their page numbers ("Summary\\t"); they are now
    found by the entry's text. A heading added since gets the tab and a PAGEREF field to its new bookmark, with no
    number shown (Word is asked to update fields on opening)."""
    path = CORPUS / "other" / "oxsdk__CriticalIssueReport_TP10187011.dotx"
    if not path.exists():
        pytest.skip("corpus file not available")
    before = path.read_bytes()
    doc = WordDocument.from_bytes(before, path.name)
    execute(doc, "update_toc", {})
    entries = extract_state(doc)["page_layout"]["table_of_contents"]["entries"]
    assert entries[:2] == ["Issue Overview\t3", "Summary\t3"] and "Timeline\t4" in entries
    execute(doc, "insert_paragraph", {"position": "end", "text": "Appendix", "style": "Heading 1"})
    execute(doc, "update_toc", {})
    entries = extract_state(doc)["page_layout"]["table_of_contents"]["entries"]
    assert entries[:2] == ["Issue Overview\t3", "Summary\t3"] and entries[-1] == "Appendix\t"
    assert sum("PAGEREF _Toc" in (t.text or "") for t in doc.body.iter(qn("w:instrText"))) == len(entries)
    assert_word_opens(before, doc)
