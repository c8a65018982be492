"""structure_update APIs: each effect checked through the document state, plus edge cases and one
LibreOffice render (TOC entries, watermark, per-page numbers, landscape section)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from autodw.apis import execute
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError
from autodw.analysis.state import extract_state
from autodw.analysis.state.render import render_state
from autodw.apis.ooxml.text import paragraph_text
from autodw.core.xml import W, parse, qn
from tests.conftest import EXAMPLES, corpus_file, make_doc


def run(doc: WordDocument, api_name: str, **args):
    return execute(doc, api_name, args)


def sections(doc: WordDocument) -> list[dict]:
    return extract_state(doc)["page_layout"]["sections"]


def para(doc: WordDocument, pid: str) -> dict:
    return next(p for p in extract_state(doc)["paragraphs"] if p["id"] == pid)


@pytest.fixture
def zh() -> WordDocument:
    return WordDocument.open(EXAMPLES / "contract_zh.docx")


def blank(*texts: str) -> WordDocument:
    return make_doc(lambda d: [d.add_paragraph(t) for t in texts])


# --- sections ------------------------------------------------------------------------------


def test_insert_section_break_makes_a_landscape_section_linked_to_the_previous(report):
    before = sections(report)
    run(report, "insert_section_break", after="p8", start="new_page", orientation="landscape")
    after = sections(report)
    assert len(after) == len(before) + 1
    assert para(report, "p8").get("ends_section") is True
    assert after[0]["orientation"] == "portrait" and after[1]["orientation"] == "landscape"
    assert after[1]["page_width_cm"] == before[0]["page_height_cm"]
    assert after[1]["headers"]["default"]["linked_to_previous"] is True
    assert after[1]["headers"]["default"]["text"] == before[0]["headers"]["default"]["text"]
    assert para(report, "p29")["section"] == 1 and para(report, "p3")["section"] == 0


def test_insert_section_break_continuous_keeps_orientation(report):
    run(report, "insert_section_break", after="p2", start="continuous")
    s = sections(report)
    assert [x["start"] for x in s[:2]] == ["nextPage", "continuous"] and s[1]["orientation"] == "portrait"


@pytest.mark.parametrize("after, message", [("p10", "not a paragraph directly in the document body"),
                                            ("p37", "already ends section 0"),
                                            ("p9999", "no paragraph")])
def test_insert_section_break_refusals(report, after, message):
    with pytest.raises(ArgumentError, match=message):
        run(report, "insert_section_break", after=after)


def test_insert_section_break_after_the_last_paragraph_is_refused():
    doc = blank("only")
    with pytest.raises(ArgumentError, match="last paragraph"):
        run(doc, "insert_section_break", after="p1")


def test_set_page_setup_size_orientation_and_margins(report):
    run(report, "set_page_setup", section=0, size="A4", orientation="landscape", margins={"left": "2cm", "top": "1in"})
    s = sections(report)[0]
    assert (s["page_width_cm"], s["page_height_cm"], s["orientation"]) == (29.7, 21.0, "landscape")
    assert s["margins_cm"]["left"] == 2.0 and s["margins_cm"]["top"] == 2.54
    run(report, "set_page_setup", section="all", orientation="portrait")
    assert all(x["orientation"] == "portrait" and x["page_width_cm"] < x["page_height_cm"] for x in sections(report))


def test_set_page_setup_size_keeps_landscape(report):
    run(report, "set_page_setup", section=1, size="A5")
    s = sections(report)[1]
    assert (s["page_width_cm"], s["page_height_cm"], s["orientation"]) == (21.0, 14.8, "landscape")


def test_set_page_setup_refuses_impossible_margins_and_bad_sections(report):
    with pytest.raises(ArgumentError, match="no room"):
        run(report, "set_page_setup", section=0, margins={"left": "12cm", "right": "12cm"})
    with pytest.raises(ArgumentError, match="2 section"):
        run(report, "set_page_setup", section=5, orientation="landscape")
    with pytest.raises(ArgumentError, match="at least one"):
        run(report, "set_page_setup", section=0)


def test_set_columns_and_back(report):
    run(report, "set_columns", section=1, count=3, spacing="0.5cm", separator=True)
    assert sections(report)[1]["columns"] == {"count": 3, "space_cm": 0.5, "separator": True}
    run(report, "set_columns", section=1, count=1)
    assert sections(report)[1]["columns"] == {"count": 1}  # one column: no spacing nor line between columns shows
    cols = report.docx.sections[1]._sectPr.find(qn("w:cols"))
    assert cols.get(qn("w:sep")) in ("1", "true")  # kept for when the columns come back
    run(report, "set_columns", section=1, count=1, separator=False)
    assert cols.get(qn("w:sep")) in (None, "0", "false")


def test_remove_section_break_merges_sections(report):
    run(report, "remove_section_break", section=0)
    s = sections(report)
    assert len(s) == 1 and s[0]["orientation"] == "landscape"
    assert s[0]["headers"]["default"]["linked_to_previous"] is False  # keeps the header it showed
    with pytest.raises(ArgumentError, match="single section"):
        run(report, "remove_section_break", section=0)


# --- headers and footers ---------------------------------------------------------------------


def test_editing_a_linked_footer_unlinks_it_first(report):
    result = run(report, "set_header_footer", section=1, where="footer", text="Appendix {PAGE}", alignment="right")
    assert "unlinked section 1" in result.message
    s = sections(report)
    assert s[0]["footers"]["default"]["text"] == "Page 1 of 1"
    assert s[1]["footers"]["default"]["linked_to_previous"] is False
    assert s[1]["footers"]["default"]["part"] != s[0]["footers"]["default"]["part"]
    assert s[1]["footers"]["default"]["text"] == "Appendix 1" and s[1]["footers"]["default"]["fields"] == ["PAGE"]


def test_set_header_all_edits_the_shared_header_once(report):
    result = run(report, "set_header_footer", section="all", where="header", text="New head", alignment="center")
    s = sections(report)
    assert [x["headers"]["default"]["text"] for x in s] == ["New head", "New head"]
    assert s[1]["headers"]["default"]["linked_to_previous"] is True and "all 2 sections" in result.message


def test_set_header_footer_chinese_and_multiline(zh):
    run(zh, "set_header_footer", section=0, where="footer", text="第 {PAGE} 页\n保密", alignment="center")
    footer = sections(zh)[0]["footers"]["default"]
    assert footer["text"] == "第 1 页\n保密" and len(footer["paragraphs"]) == 2 and footer["page_number"]


def test_a_new_footer_gets_words_footer_style_when_the_document_has_none():
    """A footer made in a document without a Footer style was styled as the default paragraph (its template's
    "Footer" reference dropped); Word adds its built-in footer style then, and so do we, on the document's own default
    paragraph style (a German one here, "Standard"...)."""
    from autodw.apis.ooxml.builtin_styles import default_style_id, find_style_id
    from tests.conftest import assert_word_opens
    data = corpus_file("pandoc__german-reference.docx").read_bytes()
    doc = WordDocument.from_bytes(data, "german.docx")
    assert find_style_id(doc, "footer", "paragraph") is None
    run(doc, "set_header_footer", section=0, where="footer", text="Seite {PAGE}", alignment="center")
    sid = find_style_id(doc, "footer", "paragraph")
    assert sid == "Footer"
    footer = sections(doc)[0]["footers"]["default"]
    assert footer["text"] == "Seite 1" and [p["style"] for p in footer["paragraph_details"]] == ["Footer"]
    style = next(s for s in doc.docx.styles.element.iterchildren(qn("w:style")) if s.get(qn("w:styleId")) == sid)
    assert style.find(qn("w:basedOn")).get(qn("w:val")) == default_style_id(doc)
    assert_word_opens(data, doc)


def test_first_page_header_turns_on_different_first_page():
    doc = blank("body")
    result = run(doc, "set_header_footer", section=0, where="header", kind="first", text="Cover")
    s = sections(doc)[0]
    assert s["different_first_page"] is True and s["headers"]["first"]["text"] == "Cover"
    assert "created a first header" in result.message


def test_even_header_turns_on_odd_even_for_the_document(report):
    result = run(report, "set_header_footer", section=0, where="header", kind="even", text="Even pages")
    assert "whole document" in result.message
    s = sections(report)
    assert s[0]["different_odd_even"] and s[0]["headers"]["even"]["text"] == "Even pages"


def test_header_text_keeps_the_watermark(report):
    run(report, "add_watermark", text="DRAFT")
    run(report, "set_header_footer", section=0, where="header", text="Replaced")
    s = sections(report)[0]
    assert s["watermark"] == "DRAFT" and s["headers"]["default"]["text"] == "Replaced"


def test_header_text_keeps_a_separator_line_drawn_as_a_shape():
    """poi stress004.docx: header3's text has a double line under it, a "Straight Connector" shape in the text's
    paragraph; replacing the text dropped it."""
    from tests.conftest import assert_word_opens, open_corpus

    before, doc = open_corpus("poi__stress004.docx")
    header = sections(doc)[2]["headers"]["default"]
    assert header["part"] == "header3.xml" and any("image" in r for r in header["paragraph_details"][0]["runs"])
    run(doc, "set_header_footer", section=2, where="header", text="New title")
    header = sections(doc)[2]["headers"]["default"]
    assert header["text"] == "New title"
    lines = [g for g in doc.find(header["paragraphs"][0], "p").iter(qn("a:prstGeom")) if g.get("prst") == "line"]
    assert len(lines) == 1
    assert_word_opens(before, doc)


def _bordered(doc: WordDocument, pid: str) -> str | None:
    side = doc.find(pid, "p").find(f"{qn('w:pPr')}/{qn('w:pBdr')}/{qn('w:bottom')}")
    return None if side is None else side.get(qn("w:val"))


def test_header_text_keeps_a_separator_line_drawn_as_a_paragraph_border():
    """A header whose line under the text is a bottom border of an empty paragraph after it (or of the text's
    second paragraph): replacing the text dropped the line. The empty bordered paragraph stays after the new
    text; a border of an old text paragraph goes onto the new ones; a header that is only an empty bordered
    paragraph gets the text in that paragraph's format, border included."""
    from tests.conftest import assert_word_opens, docx_bytes

    def build(d, kind):
        header = d.sections[0].header
        line = header.paragraphs[0]
        if kind != "alone":
            header.paragraphs[0].text = "Acme Corporation"
            line = header.add_paragraph("" if kind == "empty" else "Annual report")
        line._p.get_or_add_pPr().append(parse(f'<w:pBdr xmlns:w="{W}"><w:bottom w:val="single" w:sz="6" w:space="1" '
                                              'w:color="auto"/></w:pBdr>'))
        d.add_paragraph("body")

    expected = {"empty": ("Globex\nConfidential\n", [None, None, "single"]),
                "text": ("Globex\nConfidential", ["single"] * 2), "alone": ("Globex\nConfidential", ["single"] * 2)}
    for kind, (text, borders) in expected.items():
        data = docx_bytes(lambda d: build(d, kind))
        doc = WordDocument.from_bytes(data, "test.docx")
        run(doc, "set_header_footer", section=0, where="header", text="Globex\nConfidential")
        header = sections(doc)[0]["headers"]["default"]
        assert (header["text"], [_bordered(doc, i) for i in header["paragraphs"]]) == (text, borders), kind
        assert_word_opens(data, doc)
    # clearing the text clears the line: no bordered empty paragraph put back, no border carried over
    for kind in ("empty", "text"):
        doc = WordDocument.from_bytes(docx_bytes(lambda d: build(d, kind)), "test.docx")
        run(doc, "set_header_footer", section=0, where="header", text="")
        header = sections(doc)[0]["headers"]["default"]
        assert [_bordered(doc, i) for i in header["paragraphs"]] == [None], kind


def test_footer_text_is_not_written_into_a_framed_document_id_paragraph():
    """docx4j NumberingIndents-OUT: the footer starts with a document-ID paragraph, style zDocID (a frame in its
    definition) with a w:framePr of its own; the new text took that paragraph's style and frame. New text takes the
    first paragraph outside a frame (here the Footer-style page-number paragraph), else the plain Footer style."""
    from tests.conftest import assert_word_opens, docx_bytes, open_corpus

    def new_paragraph(doc):
        footer = sections(doc)[0]["footers"]["default"]
        assert footer["text"] == "1" and len(footer["paragraphs"]) == 1
        return doc.find(footer["paragraphs"][0], "p")

    before, doc = open_corpus("docx4j__NumberingIndents-OUT.docx")
    run(doc, "set_header_footer", section=0, where="footer", text="{PAGE}", alignment="center")
    p = new_paragraph(doc)
    assert p.find(f".//{qn('w:framePr')}") is None
    assert [(e.tag, e.get(qn("w:val"))) for e in p.find(qn("w:pPr")) if e.tag in (qn("w:pStyle"), qn("w:jc"))] == [
        (qn("w:pStyle"), "Footer"), (qn("w:jc"), "center")]
    assert_word_opens(before, doc)

    def framed_only(d):
        d.add_paragraph("body")
        d.sections[0].footer.paragraphs[0].text = "DOC-42"
        d.sections[0].footer.paragraphs[0]._p.get_or_add_pPr().append(
            parse(f'<w:framePr xmlns:w="{W}" w:wrap="around" w:hAnchor="page" w:x="721"/>'))

    data = docx_bytes(framed_only)
    doc = WordDocument.from_bytes(data, "test.docx")
    run(doc, "set_header_footer", section=0, where="footer", text="{PAGE}")
    p = new_paragraph(doc)
    assert [e.tag for e in p.find(qn("w:pPr"))] == [qn("w:pStyle")]
    assert p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}").get(qn("w:val")) == "Footer"
    assert_word_opens(data, doc)


def test_clearing_a_header_drops_a_separator_line_drawn_as_a_shape():
    """Empty text clears a header: its drawn line goes with the text (only a watermark is kept)."""
    from tests.conftest import open_corpus

    _, doc = open_corpus("poi__stress004.docx")
    run(doc, "set_header_footer", section=2, where="header", text="")
    header = sections(doc)[2]["headers"]["default"]
    assert header["text"] == ""
    assert not [g for pid in header["paragraphs"] for g in doc.find(pid, "p").iter(qn("a:prstGeom"))]


def test_header_paragraphs_are_addressable_by_id(report):
    pid = sections(report)[0]["headers"]["default"]["paragraphs"][0]
    run(report, "set_header_footer", section=0, where="header", text="X")
    new_pid = sections(report)[0]["headers"]["default"]["paragraphs"][0]
    assert new_pid != pid and report.find(new_pid, "p") is not None


def test_header_footer_options_unlink_and_relink(report):
    run(report, "set_header_footer_options", section=1, link_to_previous=False)
    s = sections(report)
    assert not s[1]["headers"]["default"]["linked_to_previous"] and not s[1]["footers"]["default"]["linked_to_previous"]
    assert s[1]["headers"]["default"]["text"] == s[0]["headers"]["default"]["text"]  # a copy
    parts_before = len(report.header_footer_parts())
    run(report, "set_header_footer_options", section=1, link_to_previous=True, where="header")
    s = sections(report)
    assert s[1]["headers"]["default"]["linked_to_previous"] and not s[1]["footers"]["default"]["linked_to_previous"]
    assert len(report.header_footer_parts()) == parts_before - 1  # the unreferenced copy is dropped


def test_header_footer_options_first_page_and_errors(report):
    run(report, "set_header_footer_options", section="all", different_first_page=True, different_odd_even=True)
    assert all(s["different_first_page"] and s["different_odd_even"] for s in sections(report))
    with pytest.raises(ArgumentError, match="no previous section"):
        run(report, "set_header_footer_options", section=0, link_to_previous=True)
    with pytest.raises(ArgumentError, match="at least one"):
        run(report, "set_header_footer_options", section=0)


def test_link_to_previous_for_every_section_of_a_one_section_document_is_a_note_not_an_error():
    doc = make_doc(lambda d: d.add_paragraph("one section"))
    result = run(doc, "set_header_footer_options", section="all", different_first_page=True, link_to_previous=False)
    assert sections(doc)[0]["different_first_page"] and "one section, which has no previous one" in result.message


def test_insert_page_numbers_replaces_the_old_ones_and_sets_numbering(report):
    result = run(report, "insert_page_numbers", section=0, template="- {PAGE} -", alignment="right",
                 start=4, format="upperRoman")
    footer = sections(report)[0]["footers"]["default"]
    assert footer["text"] == "- IV -" and footer["fields"] == ["PAGE"]
    assert sections(report)[0]["page_numbering"] == {"start": "4", "format": "upperRoman"}
    assert "replaced 1 existing" in result.message
    with pytest.raises(ArgumentError, match="no page field"):
        run(report, "insert_page_numbers", section=0, template="Page")


def test_insert_page_numbers_creates_a_header_when_missing():
    doc = blank("a", "b")
    run(doc, "insert_page_numbers", section="all", where="header", template="Page {PAGE} of {NUMPAGES}")
    header = sections(doc)[0]["headers"]["default"]
    assert header["text"] == "Page 1 of 1" and len(header["paragraphs"]) == 1  # the blank line was dropped


def test_insert_page_numbers_replaces_a_page_number_content_control_even_an_emptied_one():
    """Word keeps a footer's page number in a "Page Numbers" building block (a w:sdt with a docPartObj): the new
    paragraph went beside it, two numbers on each page, and beside an emptied one (its number deleted) an empty
    control stayed. Both are replaced now, as a page-number paragraph is."""
    from autodw.apis.ooxml import headers as hf
    from tests.conftest import assert_word_opens
    path = corpus_file("docx4j__Docx4j_GettingStarted.docx")

    def footer(doc):
        return hf.effective_part(doc, 0, "footer", "default")[0].element

    for empty in (False, True):
        doc = WordDocument.open(path)
        if empty:
            for r in list(footer(doc).find(qn("w:sdt")).iter(qn("w:r"))):
                r.getparent().remove(r)
        assert len(footer(doc).findall(qn("w:sdt"))) == 1
        result = run(doc, "insert_page_numbers", section="all", template="Page {PAGE}")
        state = sections(doc)[0]["footers"]["default"]
        assert state["text"] == "Page 1" and state["fields"] == ["PAGE"] and "replaced 1 existing" in result.message
        assert footer(doc).find(qn("w:sdt")) is None
    assert_word_opens(path.read_bytes(), doc)


# --- table of contents -------------------------------------------------------------------------


def test_insert_toc_lists_the_headings(report):
    heads = [p["text"] for p in extract_state(report)["paragraphs"] if p["style"] == "Heading 1"]
    run(report, "insert_toc", position={"after": "p1"}, levels="1-2", title="Contents")
    state = extract_state(report)
    toc = state["page_layout"]["table_of_contents"]
    assert toc["levels"] == "1-2" and "\\h" in toc["instruction"]
    entries = [p["text"] for p in state["paragraphs"] if p["style"].lower().startswith("toc ") and p["style"] != "TOC Heading"]
    assert entries == heads
    assert state["paragraphs"][1]["text"] == "Contents" and state["paragraphs"][1]["style"] == "TOC Heading"
    assert report.docx.settings.element.find(qn("w:updateFields")) is not None
    with pytest.raises(ArgumentError, match="already has a table of contents"):
        run(report, "insert_toc", position="start")


def test_insert_toc_chinese(zh):
    run(zh, "insert_toc", position={"after": "p1"}, title="目录")
    entries = extract_state(zh)["page_layout"]["table_of_contents"]["entries"]
    assert "第一条 服务内容" in entries and "第四条 其他" in entries


def test_insert_toc_keeps_the_spaces_of_a_heading():
    """docx2python's libreoffice_conversion.docx: the outline-level heading "第一章  竞争性谈判采购公告" (two spaces)
    got the entry "第一章 竞争性谈判采购公告": the entry text had its spaces collapsed. It keeps them, preserved."""
    from tests.conftest import assert_word_opens, open_corpus

    before, doc = open_corpus("docx2python__libreoffice_conversion.docx")
    heading = "第一章  竞争性谈判采购公告"
    assert heading in [p["text"] for p in extract_state(doc)["paragraphs"]]
    run(doc, "insert_toc", position="start")
    entries = [p for p in extract_state(doc)["paragraphs"] if p["style"].startswith("TOC ")]
    assert entries[0]["text"] == heading
    texts = [t for t in doc.find(entries[0]["id"], "p").iter(qn("w:t")) if "  " in (t.text or "")]
    assert [t.get("{http://www.w3.org/XML/1998/namespace}space") for t in texts] == ["preserve"]
    assert_word_opens(before, doc)


def test_insert_toc_without_headings_leaves_an_empty_field():
    doc = blank("plain", "text")
    result = run(doc, "insert_toc", position="start")
    assert "0 entries" in result.message and extract_state(doc)["page_layout"]["table_of_contents"]["present"]


def test_update_toc_follows_heading_changes(report):
    run(report, "insert_toc", position={"after": "p1"})
    run(report, "insert_heading", text="Outlook", level=2, position={"before": "p38"})
    run(report, "change_heading_level", paragraphs=["p29"], level=3)
    run(report, "update_toc")
    toc_paras = [p for p in extract_state(report)["paragraphs"] if p["style"].lower().startswith("toc ")]
    texts = [p["text"] for p in toc_paras]
    assert "Outlook" in texts
    assert next(p for p in toc_paras if p["text"] == "Outlook")["style"].lower() == "toc 2"
    assert next(p for p in toc_paras if p["text"] == "Company Logo")["style"].lower() == "toc 3"
    assert len(texts) == len(set(texts))  # the old entries are gone


def test_update_toc_keeps_a_section_break_on_the_last_toc_paragraph(report):
    run(report, "insert_toc", position={"after": "p1"})
    last = [p for p in extract_state(report)["paragraphs"] if p["style"].lower().startswith("toc ")][-1]["id"]
    run(report, "insert_section_break", after=last)
    n = len(sections(report))
    run(report, "update_toc")
    assert len(sections(report)) == n


def test_update_toc_on_a_styles_toc_keeps_the_heading_after_it():
    """The corpus business plan's TOC is ``TOC \\h \\z \\t "Heading 3,1"`` and its field ends at the start of the
    "Executive Summary" heading: update_toc merged that heading into the last entry and listed every heading
    level without numbers or page numbers. Now only Heading 3 paragraphs are listed, with their roman numerals
    and the old page numbers, and the heading after the field keeps its text, style and id."""
    pytest.importorskip("openxml_audit")
    from autodw.analysis.validation import added_errors

    path = corpus_file("oxsdk__Business_Plan_for_a_Startup_Business_July.docx")
    doc = WordDocument.open(path)
    before = extract_state(doc)
    heads = [p for p in before["paragraphs"] if p["style"] == "Heading 3"]
    after_toc = next(p for p in before["paragraphs"] if p["text"] == "Executive Summary" and p["style"] == "Heading 3")
    old_entries = before["page_layout"]["table_of_contents"]["entries"]
    run(doc, "set_paragraph_text", paragraph=heads[3]["id"], text="Goods and Services")
    run(doc, "update_toc")
    state = extract_state(doc)
    assert _para_by_id(state, after_toc["id"])["text"] == "Executive Summary"
    assert _para_by_id(state, after_toc["id"])["style"] == "Heading 3"
    entries = state["page_layout"]["table_of_contents"]["entries"]
    assert len(entries) == len(heads) == len(old_entries)
    assert entries == [e.replace("Products and Services", "Goods and Services") for e in old_entries]
    assert entries[1] == "II.\tExecutive Summary\t4"
    toc_paras = [p for p in state["paragraphs"] if p["style"].lower().startswith("toc ")]
    assert {p["style"] for p in toc_paras} == {"TOC 1"} and len(toc_paras) == len(heads)
    assert [str(f) for f in added_errors(path.read_bytes(), doc.to_bytes())] == []


def test_toc_switches_choose_the_listed_paragraphs(report):
    """\\o lists heading levels, \\t only the named styles (by UI name) at their levels, both together the union."""
    from autodw.apis.ooxml import toc as toc_lib

    ids = {p["text"]: p["id"] for p in extract_state(report)["paragraphs"]}
    run(report, "change_heading_level", paragraphs=[ids["Company Logo"], ids["Sales Chart"]], level=2)
    levels = {p["text"]: p for p in extract_state(report)["paragraphs"]}

    def listed(instruction):
        paragraphs = toc_lib.toc_paragraphs(report, instruction)
        return [(paragraph_text(p), p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}").get(qn("w:val"))) for p in paragraphs]
    h1 = [t for t, p in levels.items() if p["style"] == "Heading 1"]
    h2 = [t for t, p in levels.items() if p["style"] == "Heading 2"]
    assert h1 and h2
    only_h2 = listed('TOC \\h \\z \\t "Heading 2,1"')
    assert [t for t, _ in only_h2] == h2 and {s for _, s in only_h2} == {"TOC1"}
    both = listed('TOC \\o "1-1" \\t "heading 2;3"')
    assert [t for t, _ in both] == [t for t, p in levels.items() if p["style"] in ("Heading 1", "Heading 2")]
    assert {s for t, s in both if t in h2} == {"TOC3"}
    assert [t for t, _ in listed('TOC \\o "1-1"')] == h1


def _para_by_id(state: dict, pid: str) -> dict:
    return next(p for p in state["paragraphs"] if p["id"] == pid)


def test_update_toc_without_toc(report):
    with pytest.raises(ArgumentError, match="no table of contents"):
        run(report, "update_toc")


# --- watermark -------------------------------------------------------------------------------


def test_add_watermark_everywhere_then_replace_and_remove(report):
    run(report, "add_watermark", text="DRAFT")
    assert [s["watermark"] for s in sections(report)] == ["DRAFT", "DRAFT"]
    run(report, "add_watermark", text="FINAL", layout="horizontal", color="red", font="Arial")
    assert [s["watermark"] for s in sections(report)] == ["FINAL", "FINAL"]
    header = report.header_footer_parts()[-1].element
    assert len(list(header.iter("{urn:schemas-microsoft-com:vml}textpath"))) == 2  # shape + its shape type
    run(report, "remove_watermark")
    assert [s["watermark"] for s in sections(report)] == [None, None]
    with pytest.raises(ArgumentError, match="no watermark"):
        run(report, "remove_watermark")


def test_watermark_on_one_linked_section_unlinks_its_header(report):
    result = run(report, "add_watermark", text="APPENDIX", section=1)
    s = sections(report)
    assert s[0]["watermark"] is None and s[1]["watermark"] == "APPENDIX" and "unlinked" in result.message
    assert s[1]["headers"]["default"]["text"] == s[0]["headers"]["default"]["text"]


def test_remove_watermark_from_one_section_keeps_the_others(report):
    run(report, "add_watermark", text="DRAFT")
    run(report, "remove_watermark", section=1)
    assert [s["watermark"] for s in sections(report)] == ["DRAFT", None]


def test_watermark_with_first_page_header_and_chinese(zh):
    run(zh, "set_header_footer_options", section=0, different_first_page=True)
    result = run(zh, "add_watermark", text="机密")
    s = sections(zh)[0]
    assert s["watermark"] == "机密" and s["headers"]["first"]["watermark"]["text"] == "机密"
    assert "2 header(s)" in result.message


def test_copied_header_gets_fresh_shape_ids(report):
    run(report, "add_watermark", text="DRAFT")
    run(report, "set_header_footer_options", section=1, link_to_previous=False)
    spids = [s.get("{urn:schemas-microsoft-com:office:office}spid") for part in report.header_footer_parts()
             for s in part.element.iter("{urn:schemas-microsoft-com:vml}shape")]
    assert len(spids) == 2 and len(set(spids)) == 2


# --- bookmarks, hyperlinks, comments, notes ------------------------------------------------------


def test_add_bookmark_on_a_span_across_runs(report):
    run(report, "add_bookmark", name="growth", paragraph="p2", span={"match": "year. Revenue"})
    marks = extract_state(report)["interactive"]["bookmarks"]
    offset = para(report, "p2")["text"].index("year. Revenue")
    assert {"name": "growth", "paragraph": "p2", "offset": offset} in marks
    start = report.body.find(f".//{qn('w:bookmarkStart')}[@{qn('w:name')}='growth']")
    assert start.getnext().find(qn("w:t")).text == "year. "  # the run was split at the span start
    assert para(report, "p2")["text"].startswith("This report")  # text untouched
    runs = para(report, "p2")["runs"]
    assert runs[-1] == {"text": "Revenue grew in every region.", "bold": True}


@pytest.mark.parametrize("name, message", [("methodology", "already exists"), ("1abc", "invalid"),
                                           ("has space", "invalid"), ("x" * 41, "invalid")])
def test_add_bookmark_refusals(report, name, message):
    with pytest.raises(ArgumentError, match=message):
        run(report, "add_bookmark", name=name, paragraph="p3")


def test_bookmark_in_an_empty_paragraph_and_delete(report):
    run(report, "add_bookmark", name="blank_spot", paragraph="p37")
    assert {"name": "blank_spot", "paragraph": "p37", "offset": 0} in extract_state(report)["interactive"]["bookmarks"]
    run(report, "insert_hyperlink", paragraph="p2", text=" (see)", bookmark="blank_spot")
    result = run(report, "delete_bookmark", bookmark="blank_spot")
    assert "1 link" in result.message
    assert all(b["name"] != "blank_spot" for b in extract_state(report)["interactive"]["bookmarks"])
    assert report.body.find(f".//{qn('w:bookmarkEnd')}[@{qn('w:id')}='1']") is None
    with pytest.raises(ArgumentError, match="bookmarks: methodology"):
        run(report, "delete_bookmark", bookmark="blank_spot")


def test_edit_hyperlink_url_text_target_and_remove(report):
    run(report, "insert_hyperlink", paragraph="p31", text=" (guide)", url="https://example.com/a")
    run(report, "insert_hyperlink", paragraph="p31", text=" [method]", bookmark="methodology")
    run(report, "edit_hyperlink", paragraph="p31", url="https://example.org/b")
    run(report, "edit_hyperlink", paragraph="p31", index=1, new_text=" [methods]")
    links = extract_state(report)["interactive"]["hyperlinks"]
    assert [(h["text"], h.get("url"), h.get("anchor")) for h in links] == [
        (" (guide)", "https://example.org/b", None), (" [methods]", None, "methodology")]
    assert not any(r.target_ref == "https://example.com/a" for r in report.part.rels.values() if r.is_external)
    run(report, "edit_hyperlink", paragraph="p31", text="guide", remove=True)
    state = extract_state(report)
    assert [h["text"] for h in state["interactive"]["hyperlinks"]] == [" [methods]"]
    assert para(report, "p31")["text"].endswith("material. (guide) [methods]")
    assert not any(r.is_external for r in report.part.rels.values())
    with pytest.raises(ArgumentError, match="0: ' \\[methods\\]'"):
        run(report, "edit_hyperlink", paragraph="p31", index=3, url="https://x.y")


def test_a_link_retargeted_to_the_address_it_has_keeps_its_relationship(report):
    """Found by the API fuzz campaign (issue 49): relate_to gives back the link's own relationship for the same URL,
    and python-docx's drop_rel then dropped it (it counts the caller's reference as one still to go): a link to a
    relationship that no longer exists, an SDK-class error."""
    run(report, "insert_hyperlink", paragraph="p31", text=" (guide)", url="https://example.com/a")
    run(report, "edit_hyperlink", paragraph="p31", url="https://example.com/a")
    saved = WordDocument.from_bytes(report.to_bytes(), "saved.docx")
    link = saved.find("p31", "p").find(qn("w:hyperlink"))
    assert saved.part.rels[link.get(qn("r:id"))].target_ref == "https://example.com/a"
    assert extract_state(saved)["interactive"]["hyperlinks"][0]["url"] == "https://example.com/a"


def test_new_text_of_an_empty_link_is_in_the_hyperlink_style():
    """poi stress008's p983 holds a link without runs: the text edit_hyperlink gave it had no formatting at all
    (insert_hyperlink gives the Hyperlink character style)."""
    doc = WordDocument.open(corpus_file("poi__stress008.docx"))
    run(doc, "edit_hyperlink", paragraph="p983", index=0, new_text="abstracts@example.org",
        url="mailto:abstracts@example.org")
    link = doc.find("p983", "p").find(qn("w:hyperlink"))
    assert [r.find(f"{qn('w:rPr')}/{qn('w:rStyle')}").get(qn("w:val")) for r in link.iter(qn("w:r"))] == ["Hyperlink"]
    assert extract_state(doc)["interactive"]["hyperlinks"][-1]["text"] == "abstracts@example.org"
    # and in the font and size of the text around it (Times New Roman 14 pt), as insert_hyperlink's text is
    assert {(r.get("font"), r.get("size_pt")) for r in para(doc, "p983")["runs"]} == {("Times New Roman", 14.0)}


def test_new_text_of_an_empty_link_takes_the_formatting_of_the_text_around_it():
    """An empty link's new text went in at the document default while the text before and after it was 14 pt
    Georgia: it takes that text's formatting (bold too), under the Hyperlink character style."""
    def build(d):
        p = d.add_paragraph()
        for text in ("Write to ", "."):
            r = p.add_run(text)
            r.font.name, r.font.size, r.bold = "Georgia", 177800, True
        p.runs[0]._r.addnext(parse(f'<w:hyperlink xmlns:w="{W}" w:anchor="x"/>'))
    doc = make_doc(build)
    run(doc, "edit_hyperlink", paragraph="p1", new_text="the office")
    runs = para(doc, "p1")["runs"]
    assert [r["text"] for r in runs] == ["Write to ", "the office", "."]
    assert {(r.get("font"), r.get("size_pt"), r.get("bold")) for r in runs} == {("Georgia", 14.0, True)}
    assert runs[1].get("style") == "Hyperlink" and runs[0].get("style") is None


def test_removing_a_link_drops_the_hyperlink_style_the_document_names_otherwise():
    """poi stress003 is Russian Word: its Hyperlink character style has the id "a7", so remove=true left the text in
    it (blue and underlined, style=Hyperlink in the state). Word's Remove Hyperlink drops that style, and only it:
    the text keeps its direct formatting (12 pt)."""
    pytest.importorskip("openxml_audit")
    from autodw.analysis.validation import added_errors

    path = corpus_file("poi__stress003.docx")
    doc = WordDocument.open(path)
    run(doc, "edit_hyperlink", paragraph="p274", index=0, remove=True)
    assert [(r.get("style"), r.get("size_pt")) for r in para(doc, "p274")["runs"]] == [(None, 12.0)]
    assert list(doc.find("p274", "p").iter(qn("w:rStyle"), qn("w:hyperlink"))) == []
    assert [str(f) for f in added_errors(path.read_bytes(), doc.to_bytes())] == []


def test_edit_hyperlink_in_a_paragraph_without_links(report):
    with pytest.raises(ArgumentError, match="no hyperlinks"):
        run(report, "edit_hyperlink", paragraph="p2", url="https://example.com")


def test_delete_comment_removes_marks_and_reference(report):
    run(report, "delete_comment", comment=0)
    state = extract_state(report)
    assert state["interactive"]["comments"] == [] and state["document_info"]["comment_count"] == 0
    assert not list(report.body.iter(qn("w:commentRangeStart"), qn("w:commentReference")))
    assert para(report, "p33")["text"] == "The team will review pricing before the next quarter."
    with pytest.raises(ArgumentError, match="no comment 0; the document has no comments"):
        run(report, "delete_comment", comment=0)


def test_comment_apis_take_the_id_the_state_shows_and_name_the_ids_there_are():
    """The state prints comments as '#1'; delete_comment wanted the bare integer and refused "#1" by schema. Now
    "#1", "1" and 1 name the same comment (one parser, autodw.apis.ooxml.comments.find_comment), insert_comment
    reports the new one the same way, and a wrong id gets an error listing the comments there are."""
    path = corpus_file("docxrs__extended_comments.docx")
    doc = WordDocument.open(path)
    assert "COMMENTS: #1 by" in render_state(extract_state(doc))
    with pytest.raises(ArgumentError, match=r"no comment 'c1'; the comments are #1, #2 \(give one as the state shows it"):
        run(doc, "delete_comment", comment="c1")
    with pytest.raises(ArgumentError, match="the comments are #1, #2"):
        run(doc, "delete_comment", comment="#7")
    assert run(doc, "delete_comment", comment="#2").message == "deleted comment #2 ('yo')"
    for same in ("#1", "1", 1):
        message = run(WordDocument.open(path), "delete_comment", comment=same).message
        assert message.startswith("deleted comment #1 and 1 reply")
    added = run(doc, "insert_comment", paragraph="p1", text="Check this.").message
    assert added.startswith("added comment #") and f"#{extract_state(doc)['interactive']['comments'][-1]['id']}" in added


def test_delete_comment_with_reply_on_a_real_file():
    doc = WordDocument.open(corpus_file("docxrs__extended_comments.docx"))
    assert len(extract_state(doc)["interactive"]["comments"]) == 2
    result = run(doc, "delete_comment", comment=1)
    assert "1 reply" in result.message and extract_state(doc)["interactive"]["comments"] == []
    ext = next(r.target_part for r in doc.part.rels.values() if r.reltype.endswith("/commentsExtended"))
    assert b"commentEx " not in ext.blob and b"<w15:commentEx" not in ext.blob


def test_delete_footnote_and_endnote(report):
    run(report, "insert_footnote", paragraph="p39", text="Source: ledger.", kind="endnote")
    run(report, "delete_footnote", note=1)
    state = extract_state(report)
    assert state["interactive"]["footnotes"] == [] and len(state["interactive"]["endnotes"]) == 1
    assert not list(report.body.iter(qn("w:footnoteReference")))
    run(report, "delete_footnote", note="#1", kind="endnote")  # the id as the state shows it
    assert extract_state(report)["interactive"]["endnotes"] == []
    with pytest.raises(ArgumentError, match="no footnote 1; the footnotes are none"):
        run(report, "delete_footnote", note=1)


def test_a_wrong_note_id_is_refused_naming_the_notes_there_are(report):
    run(report, "insert_footnote", paragraph="p39", text="Source: ledger.")
    shown = extract_state(report)["interactive"]["footnotes"][0]["id"]
    with pytest.raises(ArgumentError, match=rf"no footnote 'n1'; the footnotes are #{shown}(, #\d+)* \(give one as the state shows it\)"):
        run(report, "delete_footnote", note="n1")
    assert run(report, "delete_footnote", note=f" #{shown}").message.startswith(f"deleted footnote #{shown} ")


def test_change_heading_level_by_level_and_delta(report):
    run(report, "change_heading_level", paragraphs=["p3", "p7"], delta=1)
    assert para(report, "p3")["style"] == "Heading 2" and para(report, "p7")["style"] == "Heading 2"
    run(report, "change_heading_level", paragraphs=["p3"], delta=-1)
    assert para(report, "p3")["style"] == "Heading 1"
    run(report, "change_heading_level", paragraphs=["p31"], level=4)
    assert para(report, "p31")["style"] == "Heading 4"


@pytest.mark.parametrize("args, message", [({"paragraphs": ["p2"], "delta": 1}, "not a heading"),
                                           ({"paragraphs": ["p3"], "delta": -1}, "outside 1-9"),
                                           ({"paragraphs": ["p3"]}, "exactly one"),
                                           ({"paragraphs": ["p3"], "level": 2, "delta": 1}, "exactly one")])
def test_change_heading_level_refusals(report, args, message):
    with pytest.raises(ArgumentError, match=message):
        execute(report, "change_heading_level", args)


def test_change_heading_level_chinese_and_direct_outline_level(zh):
    run(zh, "change_heading_level", paragraphs=["p4"], delta=1)
    assert para(zh, "p4")["style"] == "Heading 2"
    p = zh.find("p5", "p")
    p.insert(0, parse(f'<w:pPr xmlns:w="{W}"><w:outlineLvl w:val="0"/></w:pPr>'))
    run(zh, "change_heading_level", paragraphs=["p5"], delta=2)
    assert p.find(f"{qn('w:pPr')}/{qn('w:outlineLvl')}").get(qn("w:val")) == "2"


# --- rendering -----------------------------------------------------------------------------------


def _page_sizes(pdf: bytes, tmp: Path) -> list[tuple[float, float]]:
    path = tmp / "r.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdfinfo", "-f", "1", "-l", "99", str(path)], capture_output=True, text=True, check=True).stdout
    sizes = []
    for line in out.splitlines():
        if line.startswith("Page") and "size:" in line:
            w, _, h = line.split("size:")[1].split()[:3]
            sizes.append((float(w), float(h)))
    return sizes


def _reddish_pixels(pdf: bytes, tmp: Path, page: int) -> int:
    """Count clearly red-tinted pixels of a page rendered at 30 dpi (the red watermark; nothing else is red)."""
    path = tmp / "w.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "30", "-f", str(page), "-l", str(page), str(path), str(tmp / "pg")], check=True)
    ppm = next(tmp.glob("pg*.ppm")).read_bytes()
    parts = ppm.split(b"\n", 3)  # P6, size, maxval, data
    data = parts[3]
    return sum(1 for i in range(0, len(data) - 2, 3) if data[i] > 200 and data[i + 1] < 190 and data[i + 2] < 190)


@pytest.mark.slow
def test_render_toc_watermark_page_numbers_and_landscape(report, tmp_path):
    from tests.rendering import render, require_renderer

    require_renderer()  # LibreOffice and poppler-utils (pdftoppm, pdfinfo come with pdftotext)
    run(report, "insert_toc", position={"after": "p1"}, title="Contents")
    run(report, "insert_section_break", after="p8", orientation="landscape")
    run(report, "insert_page_numbers", section="all", template="Page {PAGE} of {NUMPAGES}")
    run(report, "add_watermark", text="DRAFT", color="red")
    out = render(report)
    first = out.page(0)
    toc = first[first.index("Contents"):first.index("This report summarises")]
    assert [line.strip() for line in toc.splitlines()[1:] if line.strip()][:5] == [
        "Highlights", "Sales by Region", "Company Logo", "Next Steps", "Appendix: Methodology"]
    numbers = [f"Page {n} of {out.pages}" for n in range(1, out.pages + 1)]
    assert all(number in out.page(n) for n, number in enumerate(numbers))
    sizes = _page_sizes(out.pdf, tmp_path)
    assert sizes[0][0] < sizes[0][1] and sizes[1][0] > sizes[1][1]  # portrait, then the landscape section
    assert _reddish_pixels(out.pdf, tmp_path, 1) > 200


def test_removing_the_break_of_a_document_without_section_properties_is_refused():
    """Found by the API fuzz campaign (issue 49): a body without w:sectPr (poi__TestCreatePackageOUTPUT.docx) made
    remove_section_break index past its list of sections (IndexError, an internal error)."""
    doc = make_doc(lambda d: d.add_paragraph("x"))
    doc.body.remove(doc.body.find(qn("w:sectPr")))
    with pytest.raises(ArgumentError, match="single section"):
        execute(doc, "remove_section_break", {"section": 0})


def test_linking_a_section_to_the_previous_keeps_a_header_another_section_still_shows():
    """Found beside the fuzz campaign's finding on drop_rel (issue 49): two sections showing one header part,
    the second linked to the first: python-docx dropped the relationship the first still used."""
    import copy
    import io

    import docx
    from docx.enum.section import WD_SECTION

    d = docx.Document()
    for text in ("a", "b"):
        d.add_paragraph(text)
        d.add_section(WD_SECTION.NEW_PAGE)
    d.sections[1].header.is_linked_to_previous = False
    d.sections[1].header.paragraphs[0].text = "Shared"
    d.sections[2]._sectPr.insert(0, copy.deepcopy(d.sections[1]._sectPr.find(qn("w:headerReference"))))
    buf = io.BytesIO()
    d.save(buf)
    doc = WordDocument.from_bytes(buf.getvalue(), "shared.docx")
    execute(doc, "set_header_footer_options", {"section": 2, "link_to_previous": True, "where": "header"})
    saved = docx.Document(io.BytesIO(doc.to_bytes()))
    assert saved.sections[1]._sectPr.find(qn("w:headerReference")).get(qn("r:id")) in saved.part.rels
    assert saved.sections[1].header.paragraphs[0].text == "Shared"
