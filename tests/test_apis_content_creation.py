"""content_creation APIs: each effect checked through the state; one LibreOffice render test."""

from __future__ import annotations

import pytest

from autodw.apis import execute
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError
from autodw.analysis.state import extract_state
from tests.conftest import EXAMPLES, assert_word_opens, corpus_file


@pytest.fixture
def doc() -> WordDocument:
    d = WordDocument.open(EXAMPLES / "report.docx")
    d.asset_roots = [EXAMPLES]
    return d


def _para(state, pid):
    return next(p for p in state["paragraphs"] if p["id"] == pid)


def test_insert_paragraph_position_style_alignment(doc):
    with pytest.raises(ArgumentError, match="no paragraph style 'Fancy X'; available paragraph styles: .*Heading 1"):
        execute(doc, "insert_paragraph", {"text": "x", "position": "end", "style": "Fancy X"})
    r = execute(doc, "insert_paragraph", {"text": "Hello\tworld", "position": {"after": "p2"}, "alignment": "center"})
    s = extract_state(doc)
    new = _para(s, r.created[0])
    assert new["index"] == 2 and new["text"] == "Hello\tworld" and new["alignment"] == "center"
    r2 = execute(doc, "insert_paragraph", {"text": "First", "position": "start"})
    assert extract_state(doc)["paragraphs"][0]["id"] == r2.created[0]
    r3 = execute(doc, "insert_paragraph", {"text": "Last", "position": "end"})
    assert extract_state(doc)["paragraphs"][-1]["text"] == "Last" and r3.created


def test_insert_heading_adds_missing_heading_style():
    d = WordDocument.new()
    r = execute(d, "insert_heading", {"text": "Overview", "level": 3, "position": "end"})
    s = extract_state(d)
    assert _para(s, r.created[0])["style"] == "Heading 3"
    assert any(st["name"] == "Heading 3" for st in s["styles"]["styles"])


def test_insert_list_uses_new_numbering_and_levels(doc):
    r = execute(doc, "insert_list", {"items": ["a", {"text": "b", "level": 1}, "c"], "position": "end", "kind": "numbered",
                                     "start": 3, "number_format": "upperRoman"})
    s = extract_state(doc)
    items = [_para(s, pid) for pid in r.created]
    assert [p["list"]["level"] for p in items] == [0, 1, 0]
    assert items[0]["list"]["format"] == "upperRoman" and items[1]["list"]["format"] == "upperLetter"
    assert len({p["list"]["num_id"] for p in items}) == 1
    old = _para(s, "p4")["list"]
    assert old["kind"] == "bullet" and old["num_id"] != items[0]["list"]["num_id"]


def test_insert_text_keeps_neighbouring_format(doc):
    execute(doc, "insert_text", {"paragraph": "p2", "text": " Really."})
    p = _para(extract_state(doc), "p2")
    assert p["text"].endswith("region. Really.") and p["runs"][-1]["bold"] is True
    execute(doc, "insert_text", {"paragraph": "p2", "text": ">> ", "offset": 0})
    assert _para(extract_state(doc), "p2")["text"].startswith(">> This report")
    with pytest.raises(ArgumentError, match="past the end"):
        execute(doc, "insert_text", {"paragraph": "p3", "text": "x", "offset": 99})




def _outside_fields(p) -> str:
    """`p`'s visible text with the characters outside every field upper-cased (those in a field's result kept)."""
    from autodw.core.xml import qn
    out, depth = [], 0
    for r in p.iter(qn("w:r")):
        simple = any(a.tag == qn("w:fldSimple") for a in r.iterancestors())
        for c in r:
            kind = c.get(qn("w:fldCharType")) if c.tag == qn("w:fldChar") else None
            depth += {"begin": 1, "end": -1}.get(kind, 0)
            if c.tag == qn("w:t"):
                out.append(c.text if depth or simple else c.text.upper())
    return "".join(out)


def _field_paragraph(*parts) -> WordDocument:
    """A new document whose p1 holds `parts`: text, ("PAGE", result) a complex field, ("simple", result) a
    w:fldSimple, ("shared", result, text) a complex field whose end fldChar shares its run with the text after it."""
    from autodw.apis.ooxml.fields import field_runs
    from autodw.apis.ooxml.text import new_run, text_elements
    from autodw.core.xml import qn
    d = WordDocument.new()
    p = d.body.makeelement(qn("w:p"), {})
    d.body.insert(0, p)
    for part in parts:
        if isinstance(part, str):
            p.append(new_run(part))
        elif part[0] == "simple":
            simple = p.makeelement(qn("w:fldSimple"), {qn("w:instr"): " MERGEFIELD name "})
            simple.append(new_run(part[1]))
            p.append(simple)
        else:
            runs = field_runs("PAGE", part[1])
            p.extend(runs)
            if part[0] == "shared":
                runs[-1].extend(text_elements(part[2]))
    d.refresh_ids()
    return d


def test_insert_text_at_a_fields_edge_goes_outside_the_field_on_the_side_the_offset_names():
    # an empty-result MERGEFIELD alone in a paragraph: offset 0 is before the field (it went after its end)
    d = WordDocument.open(corpus_file("docx4j__MERGEFIELD.docx"))
    execute(d, "insert_text", {"paragraph": "p7", "text": "Dear ", "offset": 0})
    assert d.find("p7", "p").findall(".//{*}r")[0].findtext("{*}t") == "Dear "
    execute(d, "insert_text", {"paragraph": "p1", "text": "!"})  # after the w:fldSimple ending p1, not in its result
    assert _outside_fields(d.find("p1", "p")) == "HALLO, LOWER «Kundenname»!"
    cases = [  # (p1's parts, offset, its text after inserting "x": "X" outside fields, "x" in a field's result)
        ((("PAGE", "7"), "abc"), 0, "X7ABC"), ((("PAGE", "7"), "abc"), 1, "7XABC"),
        (("abc", ("PAGE", "7")), 3, "ABCX7"), (("abc", ("PAGE", "7")), 4, "ABC7X"),
        (("abc", ("PAGE", "")), 3, "ABCX"), ((("PAGE", ""), "abc"), 0, "XABC"), ((("PAGE", ""),), 0, "X"),
        (("ab", ("PAGE", "78"), "c"), 3, "AB7x8C"), (("ab", ("PAGE", "78"), "c"), 4, "AB78XC"),
        (("ab", ("simple", "78"), "c"), 2, "ABX78C"), (("ab", ("simple", "78"), "c"), 4, "AB78XC"),
        ((("simple", "78"),), 0, "X78"), ((("simple", "78"),), 2, "78X"), ((("PAGE", "1"), ("PAGE", "2")), 1, "1X2"),
        ((("shared", "7", "abc"),), 1, "7XABC"), ((("shared", "7", "abc"),), 2, "7AXBC"),
    ]
    for parts, offset, expected in cases:
        d = _field_paragraph(*parts)
        execute(d, "insert_text", {"paragraph": "p1", "text": "x", "offset": offset})
        assert _outside_fields(d.find("p1", "p")) == expected, (parts, offset)


def test_insert_text_at_the_end_goes_after_a_field_the_paragraph_ends_with_even_with_no_text():
    """A table cell holding only a legacy check box (a FORMCHECKBOX field, no text): "add ' yes' at the end" put the
    text before the box, since the paragraph's end (offset 0 of no text) was also its start. With no offset the text
    now goes after everything the paragraph holds; offset 0 still goes before the field."""
    boxes = corpus_file("poi__checkboxes.docx").read_bytes()
    d = WordDocument.from_bytes(boxes, "boxes.docx")
    p = d.find("p12", "p")
    assert "FORMCHECKBOX" in "".join(p.itertext()) and _outside_fields(p) == ""
    execute(d, "insert_text", {"paragraph": "p12", "text": " yes"})
    assert p.findall("{*}r")[-1].findtext("{*}t") == " yes"
    execute(d, "insert_text", {"paragraph": "p13", "text": "no ", "offset": 0})
    assert d.find("p13", "p").findall("{*}r")[0].findtext("{*}t") == "no "
    assert_word_opens(boxes, d)
    d = _field_paragraph(("PAGE", ""))
    execute(d, "insert_text", {"paragraph": "p1", "text": "x"})
    assert _outside_fields(d.find("p1", "p")) == "X"
    assert d.find("p1", "p").findall("{*}r")[-1].findtext("{*}t") == "x"


def test_text_at_a_links_end_goes_after_the_link_in_the_texts_formatting():
    """Text appended to a paragraph ending with a hyperlink went into the link (its text became
    "www.ericwhite.com." in the Hyperlink style). At a link's end (w:hyperlink, HYPERLINK field or fldSimple) text
    now goes after the link, as in Word, formatted like the text before the link (the link's own run without its
    style, colour and underline when the link is all there is); inside a link's text it still goes into the link."""
    from docx.shared import Pt

    from autodw.apis.ooxml.fields import field_runs
    from autodw.apis.ooxml.paragraphs import hyperlink_runs
    from autodw.apis.ooxml.text import new_run
    from autodw.core.xml import qn
    data = corpus_file("oxpt__WC019-Hyperlink-Before.docx").read_bytes()
    d = WordDocument.from_bytes(data, "links.docx")
    execute(d, "insert_hyperlink", {"paragraph": "p1", "text": "openday@example.nl", "url": "mailto:openday@example.nl"})
    execute(d, "insert_text", {"paragraph": "p1", "text": "."})
    execute(d, "insert_text", {"paragraph": "p2", "text": "!"})  # p2 is only a link
    execute(d, "insert_text", {"paragraph": "p1", "text": " (mail)", "offset": 77})  # at the link's end, before "."
    execute(d, "insert_text", {"paragraph": "p2", "text": "-x", "offset": 7})  # inside the link's text
    s = extract_state(d)
    links = {(h["paragraph"], h["text"]) for h in s["interactive"]["hyperlinks"]}
    assert links == {("p1", "openday@example.nl"), ("p2", "www.eri-xcwhite.com")}
    first, link, after = _para(s, "p1")["runs"]
    assert link["style"] == "Hyperlink" and after == {**first, "text": " (mail)."}
    assert _para(s, "p2")["runs"][-1] == {"text": "!"}
    assert_word_opens(data, d)

    def paragraph(*parts) -> WordDocument:  # 10 pt text then a link: a w:hyperlink, a HYPERLINK field or fldSimple
        d = WordDocument.new()
        p = d.body.makeelement(qn("w:p"), {})
        d.body.insert(0, p)
        for part in parts:
            if part == "text":
                p.append(new_run("Mail ", d.body.makeelement(qn("w:rPr"), {})))
                p[-1][0].append(d.body.makeelement(qn("w:sz"), {qn("w:val"): "20"}))
            elif part == "field":
                p.extend(field_runs('HYPERLINK "mailto:a@b.nl"', "a@b.nl", '<w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr>'))
            elif part == "simple":
                p.append(p.makeelement(qn("w:fldSimple"), {qn("w:instr"): ' HYPERLINK "mailto:a@b.nl" '}))
                p[-1].append(hyperlink_runs(d, "a@b.nl"))
            else:
                p.append(p.makeelement(qn("w:hyperlink"), {qn("w:anchor"): "x"}))
                p[-1].append(hyperlink_runs(d, "a@b.nl"))
        d.refresh_ids()
        return d

    for link in ("field", "simple", "element"):
        for parts, offset, start in ((("text", link), None, 11), ((link, "text"), 6, 6), ((link, "text"), 0, 0)):
            d = paragraph(*parts)
            execute(d, "insert_text", {"paragraph": "p1", "text": "x", **({} if offset is None else {"offset": offset})})
            p = _para(extract_state(d), "p1")
            assert p["text"][start] == "x" and not any("x" in r["text"] and r.get("style") for r in p["runs"]), (link, parts)
            size = next(r for r in p["runs"] if "x" in r["text"]).get("size_pt")
            assert size == Pt(10).pt, (link, parts, offset)
        d = paragraph(link)  # a paragraph that is only a link: the link's run without its look
        execute(d, "insert_text", {"paragraph": "p1", "text": "x"})
        assert _para(extract_state(d), "p1")["runs"][-1] == {"text": "x"}, link


def test_inline_content_at_a_fields_edge_goes_where_insert_text_puts_text():
    """place_inline (hyperlinks, note marks, cross-references) put its content before the text after the offset: at
    offset 0 of a paragraph holding only a MERGEFIELD after its end, at a field's start inside its result. It now
    takes insert_text's place: outside the field, on the side the offset names."""
    from autodw.core.xml import qn
    d = WordDocument.open(corpus_file("docx4j__MERGEFIELD.docx"))
    before = d.to_bytes()
    execute(d, "insert_footnote", {"paragraph": "p7", "text": "Note.", "offset": 0})
    first = d.find("p7", "p").find(qn("w:r"))
    assert first.find(qn("w:footnoteReference")) is not None
    execute(d, "insert_hyperlink", {"paragraph": "p7", "text": "x", "url": "https://example.com", "offset": 0})
    assert d.find("p7", "p")[1].tag == qn("w:hyperlink")  # after the w:pPr, before the footnote mark
    assert_word_opens(before, d)
    cases = [  # as insert_text's, "X" the hyperlink's text outside every field
        ((("PAGE", "7"), "abc"), 0, "X7ABC"), ((("PAGE", "7"), "abc"), 1, "7XABC"),
        (("abc", ("PAGE", "7")), 3, "ABCX7"), (("abc", ("PAGE", "7")), 4, "ABC7X"),
        ((("PAGE", ""), "abc"), 0, "XABC"), ((("PAGE", ""),), 0, "X"),
        (("ab", ("PAGE", "78"), "c"), 2, "ABX78C"), (("ab", ("PAGE", "78"), "c"), 4, "AB78XC"),
        (("ab", ("simple", "78"), "c"), 2, "ABX78C"), (("ab", ("simple", "78"), "c"), 4, "AB78XC"),
        ((("simple", "78"),), 0, "X78"), ((("PAGE", "1"), ("PAGE", "2")), 1, "1X2"),
        ((("shared", "7", "abc"),), 1, "7XABC"), ((("shared", "7", "abc"),), 2, "7AXBC"),
    ]
    for parts, offset, expected in cases:
        d = _field_paragraph(*parts)
        execute(d, "insert_hyperlink", {"paragraph": "p1", "text": "x", "url": "https://example.com", "offset": offset})
        assert _outside_fields(d.find("p1", "p")) == expected, (parts, offset)
    d = _field_paragraph(("PAGE", "7"), "abc")
    mark = d.body.makeelement(qn("w:bookmarkStart"), {qn("w:id"): "0", qn("w:name"): "b"})
    d.find("p1", "p").append(mark)
    execute(d, "insert_cross_reference", {"paragraph": "p1", "bookmark": "b", "offset": 1})
    assert _outside_fields(d.find("p1", "p")) == "7b" + "ABC"  # the REF field (showing "b") between PAGE's and abc


def test_page_and_line_breaks(doc):
    execute(doc, "insert_page_break", {"position": {"before": "p32"}})
    execute(doc, "insert_line_break", {"paragraph": "p31", "offset": 8})
    s = extract_state(doc)
    assert len(s["interactive"]["page_breaks"]) == 1
    assert _para(s, "p31")["text"].startswith("The logo\n")
    assert any(b["paragraph"] == "p31" for b in s["interactive"]["line_breaks"])


def test_insert_hyperlink_external_and_bookmark(doc):
    execute(doc, "insert_hyperlink", {"paragraph": "p31", "text": "guide", "url": "https://example.com/brand", "offset": 4})
    execute(doc, "insert_hyperlink", {"paragraph": "p2", "text": " (method)", "bookmark": "methodology"})
    s = extract_state(doc)
    links = s["interactive"]["hyperlinks"]
    assert {"paragraph": "p31", "text": "guide", "offset": 4, "url": "https://example.com/brand"} in links
    assert any(link.get("anchor") == "methodology" for link in links)
    assert _para(s, "p31")["text"].startswith("The guidelogo")
    with pytest.raises(ArgumentError, match="no bookmark"):
        execute(doc, "insert_hyperlink", {"paragraph": "p2", "text": "x", "bookmark": "nope"})
    with pytest.raises(ArgumentError, match="exactly one"):
        execute(doc, "insert_hyperlink", {"paragraph": "p2", "text": "x"})


def test_insert_hyperlink_keeps_the_font_of_the_text_it_is_typed_into():
    """The link's run had only the Hyperlink style: typed into 14 pt red Arial text it showed in the default font.
    It now takes what inserted text takes (the text before it; at offset 0 the text after it; in an empty
    paragraph the paragraph mark's), with the Hyperlink style instead of the run's own character style, and without
    its colour and underline (which would hide the style's: a link typed into black text showed black)."""
    from docx.shared import Pt, RGBColor

    from tests.conftest import docx_bytes

    def build(d):
        run = d.add_paragraph().add_run("See the guide here.")
        run.font.size, run.font.name, run.font.color.rgb = Pt(14), "Arial", RGBColor(0xC0, 0, 0)
        run.font.bold, run.font.underline = True, False
        run.style = d.styles.add_style("Loud", 2)
        d.add_paragraph()

    data = docx_bytes(build)
    font = {"font": "Arial", "bold": True, "size_pt": 14.0}
    for offset in ({"offset": 8}, {"offset": 0}, {}):
        d = WordDocument.from_bytes(data, "test.docx")
        execute(d, "insert_hyperlink", {"paragraph": "p1", "text": "guide", "url": "https://example.com", **offset})
        link = next(r for r in _para(extract_state(d), "p1")["runs"] if r.get("hyperlink"))
        assert link == {"text": "guide", "style": "Hyperlink", **font, "hyperlink": "https://example.com"}, offset
        assert_word_opens(data, d)
    execute(d, "insert_hyperlink", {"paragraph": "p2", "text": "x", "url": "https://example.com"})
    assert _para(extract_state(d), "p2")["runs"] == [{"text": "x", "style": "Hyperlink", "hyperlink": "https://example.com"}]


def test_footnotes_and_endnotes(doc):
    execute(doc, "insert_footnote", {"paragraph": "p39", "text": "Unaudited.", "offset": 7})
    execute(doc, "insert_footnote", {"paragraph": "p31", "text": "See brand book.", "kind": "endnote"})
    s = extract_state(doc)
    notes = {n["text"]: n for n in s["interactive"]["footnotes"]}
    assert notes["Unaudited."]["paragraph"] == "p39" and notes["Target set in the January plan."]["paragraph"] == "p4"
    assert notes["Unaudited."]["offset"] == 7  # the mark sits where it was asked for
    p31 = next(p for p in s["paragraphs"] if p["id"] == "p31")
    # no offset: the mark goes at the end of the paragraph
    assert s["interactive"]["endnotes"][0] == {"id": 1, "text": "See brand book.", "paragraph": "p31",
                                               "offset": len(p31["text"])}


def test_footnote_part_is_created_when_missing():
    d = WordDocument.new()
    execute(d, "insert_paragraph", {"text": "Body", "position": "end"})
    execute(d, "insert_footnote", {"paragraph": "p1", "text": "First note"})
    again = WordDocument.from_bytes(d.to_bytes())
    assert extract_state(again)["interactive"]["footnotes"] == [{"id": 1, "text": "First note", "paragraph": "p1",
                                                                   "offset": len("Body")}]


def test_a_comment_that_names_no_author_is_by_the_documents_author(doc):
    """One setting (WordDocument.author: --author of run and chat) signs the comments and the tracked changes."""
    from autodw.core import DEFAULT_AUTHOR

    def author_of(text):
        return next((c["author"], c["initials"]) for c in extract_state(doc)["interactive"]["comments"] if c["text"] == text)

    assert doc.author == DEFAULT_AUTHOR == "autodw"
    execute(doc, "insert_comment", {"paragraph": "p2", "text": "By default."})
    doc.author = "Legal"
    execute(doc, "insert_comment", {"paragraph": "p2", "text": "By the run's author."})
    execute(doc, "insert_comment", {"paragraph": "p2", "text": "By Kim.", "author": "Kim Lee"})
    execute(doc, "insert_comment", {"paragraph": "p2", "text": "Initialled.", "author": "Kim Lee", "initials": "K"})
    assert [author_of(t) for t in ("By default.", "By the run's author.", "By Kim.", "Initialled.")] == [
        ("autodw", "A"), ("Legal", "L"), ("Kim Lee", "KL"), ("Kim Lee", "K")]


def test_insert_comment_on_span(doc):
    execute(doc, "insert_comment", {"paragraph": "p2", "text": "Source?", "span": {"match": "Revenue grew"}, "author": "Kim"})
    comments = extract_state(doc)["interactive"]["comments"]
    new = next(c for c in comments if c["text"] == "Source?")
    assert new["author"] == "Kim" and new["paragraphs"] == ["p2"]
    with pytest.raises(ArgumentError, match="does not occur"):
        execute(doc, "insert_comment", {"paragraph": "p2", "text": "x", "span": {"match": "absent words"}})


def test_comment_initials_longer_than_word_allows_are_refused_and_nine_are_kept(doc):
    """Found by the API fuzz campaign (issue 49): 26-character initials were written, and openxml-audit reported the
    comment (w:initials holds at most 9 characters)."""
    before = doc.members(keep_ids=True)
    with pytest.raises(ArgumentError, match="at most 9"):
        execute(doc, "insert_comment", {"paragraph": "p2", "text": "x", "initials": "ABCDEFGHIJ"})
    assert doc.members(keep_ids=True) == before
    execute(doc, "insert_comment", {"paragraph": "p2", "text": "x", "initials": "ABCDEFGHI"})
    assert 'w:initials="ABCDEFGHI"' in doc.members()["word/comments.xml"].decode()


def test_captions_number_themselves(doc):
    execute(doc, "insert_caption", {"target": "t1", "text": "Sales"})
    execute(doc, "insert_caption", {"target": "img1", "text": "Logo"})
    execute(doc, "insert_caption", {"target": "t1", "text": "Again", "label": "Table", "where": "below"})
    s = extract_state(doc)
    captions = [p["text"] for p in s["paragraphs"] if p["style"] == "Caption"]
    assert captions == ["Table 1: Sales", "Table 2: Again", "Figure 1: Logo"]
    assert sum(1 for f in s["interactive"]["fields"] if f["type"] == "SEQ") == 3


ZH_PAPER = EXAMPLES.parent / "dwbench" / "data" / "docs" / "paper-zh-1.docx"  # a table and two pictures, no captions


def _captions(d: WordDocument) -> list[str]:
    return [p["text"] for p in extract_state(d)["paragraphs"] if p["style"] == "Caption"]


def test_a_chinese_document_gets_word_chinese_captions_each_label_counting_itself():
    """Word's Chinese caption labels (图, 表, 公式, 图表) were refused; by default a Chinese document's captions take
    them, "图 1" as Word writes it, each label its own SEQ sequence (图 does not count the 图表 captions)."""
    pytest.importorskip("openxml_audit")
    from autodw.analysis.validation import added, validate_all

    d = WordDocument.open(ZH_PAPER)
    first, second = (i["id"] for i in extract_state(d)["images"][:2])
    execute(d, "insert_caption", {"target": second, "text": "图表标题", "label": "图表"})
    execute(d, "insert_caption", {"target": first, "text": "系统结构"})
    execute(d, "insert_caption", {"target": second, "text": "测试结果", "label": "图"})
    execute(d, "insert_caption", {"target": "t1", "text": "参数汇总"})
    inserted = _captions(d)
    execute(d, "update_fields", {"count_pages": False})
    reopened = WordDocument.from_bytes(d.to_bytes())
    assert inserted == _captions(reopened) == ["图 1 系统结构", "图 2 测试结果", "图表 1 图表标题", "表 1 参数汇总"]
    seq = [f["instruction"] for f in extract_state(reopened)["interactive"]["fields"] if f["type"] == "SEQ"]
    assert sorted(seq) == ["SEQ 图 \\* ARABIC", "SEQ 图 \\* ARABIC", "SEQ 图表 \\* ARABIC", "SEQ 表 \\* ARABIC"]
    original, edited = validate_all([ZH_PAPER.read_bytes(), d.to_bytes()], workers=2)
    assert [str(f) for f in added(original, edited) if f.is_error] == []


def test_a_caption_takes_its_number_in_document_order_and_renumbers_the_later_ones():
    """A caption added above an existing one showed the next number in insertion order: the later picture was
    "图 1". Its number now follows document order, the later captions' results move up one (still SEQ fields),
    and update_fields (Word's numbering) has nothing left to renumber."""
    pytest.importorskip("openxml_audit")
    from autodw.analysis.validation import added, validate_all

    d = WordDocument.open(ZH_PAPER)
    first, second = (i["id"] for i in extract_state(d)["images"][:2])
    later = execute(d, "insert_caption", {"target": second, "text": "测试结果"}).created[0]
    res = execute(d, "insert_caption", {"target": first, "text": "系统结构"})
    assert _captions(d) == ["图 1 系统结构", "图 2 测试结果"]
    assert res.message.endswith(f"renumbered the 图 captions after it: {later}")
    seq = [f["instruction"] for f in extract_state(d)["interactive"]["fields"] if f["type"] == "SEQ"]
    assert seq == ["SEQ 图 \\* ARABIC"] * 2
    assert "SEQ" not in execute(d, "update_fields", {"count_pages": False}).message
    original, edited = validate_all([ZH_PAPER.read_bytes(), d.to_bytes()], workers=2)
    assert [str(f) for f in added(original, edited) if f.is_error] == []


def test_caption_numbers_follow_words_chapter_resets():
    """A corpus thesis numbers its figures per chapter (SEQ Figure \\s 1: "Figure 3-2"). Its numbers are what Word
    shows: update_fields leaves them (it renumbered them 1..18), and a caption put back on a picture of chapter 3
    counts on from 3-1 and leaves the later chapter-numbered captions as they are."""
    d = WordDocument.open(corpus_file("oxsdk__complex2005_12rtm.docx"))
    shown = _captions(d)
    assert "SEQ" not in execute(d, "update_fields", {"count_pages": False}).message and _captions(d) == shown
    caption = next(p["id"] for p in extract_state(d)["paragraphs"]  # the caption, not its table-of-figures entry
                   if p["text"].startswith("Figure 3-2:") and p["style"] == "Caption")
    execute(d, "delete_block", {"block": caption})
    res = execute(d, "insert_caption", {"target": "img3", "text": "The help section"})
    assert "renumbered" not in res.message
    assert _captions(d) == [c if not c.startswith("Figure 3-2:") else "Figure 2: The help section" for c in shown]


def test_a_default_caption_label_keeps_the_label_the_document_already_uses(doc):
    """A Chinese document whose tables are captioned "Table n" goes on with Table; an English one keeps Table and
    Figure whatever labels the other kind uses."""
    d = WordDocument.open(EXAMPLES.parent / "dwbench" / "data" / "docs" / "contract-zh-1.docx")  # "Table 1: ..."
    execute(d, "insert_table", {"position": "end", "rows": 2, "cols": 2})
    execute(d, "insert_caption", {"target": extract_state(d)["tables"][-1]["id"], "text": "附表"})
    assert [c for c in _captions(d) if c.startswith("Table")][-1] == "Table 2: 附表"
    execute(doc, "insert_caption", {"target": "t1", "text": "Sales", "label": "表"})
    execute(doc, "insert_caption", {"target": "img1", "text": "Logo"})
    assert _captions(doc) == ["表 1 Sales", "Figure 1: Logo"]


def test_duplicate_block_gets_new_ids(doc):
    r = execute(doc, "duplicate_block", {"block": "t1", "position": "end"})
    s = extract_state(doc)
    assert len(s["tables"]) == 2 and s["tables"][1]["cells"] == s["tables"][0]["cells"]
    assert s["tables"][1]["id"] in r.created and s["tables"][1]["id"] != "t1"
    execute(doc, "duplicate_block", {"block": "p38", "position": "end"})  # carries a bookmark: not duplicated
    assert [b["name"] for b in extract_state(doc)["interactive"]["bookmarks"]].count("methodology") == 1


def test_cross_reference(doc):
    execute(doc, "insert_cross_reference", {"paragraph": "p39", "bookmark": "methodology", "show": "text"})
    s = extract_state(doc)
    assert any(f["type"] == "REF" and "methodology" in f["instruction"] for f in s["interactive"]["fields"])
    assert _para(s, "p39")["text"].endswith("Appendix: Methodology")


@pytest.mark.slow
def test_lists_footnotes_and_captions_render():
    from tests.rendering import render

    doc = WordDocument.new()
    for text in ("First paragraph.", "Second paragraph.", "Third paragraph."):
        execute(doc, "insert_paragraph", {"text": text, "position": "end"})
    execute(doc, "insert_list", {"items": ["Alpha item", "Beta item"], "position": "end", "kind": "numbered"})
    execute(doc, "insert_footnote", {"paragraph": "p3", "text": "Later note."})
    execute(doc, "insert_footnote", {"paragraph": "p2", "text": "Earlier note."})  # out of order on purpose
    execute(doc, "duplicate_block", {"block": "p1", "position": "end"})
    pdf = render(doc)
    flat = " ".join(pdf.text.split())
    assert "1. Alpha item" in flat and "2. Beta item" in flat
    assert "Second paragraph.1 Third paragraph.2" in flat
    assert flat.index("1 Earlier note.") < flat.index("2 Later note.")


def test_the_styles_mirror_of_word_2010_gets_no_style_without_an_id():
    """Found by the API fuzz campaign (issue 49): in a document whose styles.xml has a style without w:styleId
    (poi__60329.docx), adding a footnote copied that style into stylesWithEffects.xml, a new SDK-class error there."""
    import io
    import zipfile

    from lxml import etree

    from autodw.core.xml import qn
    from tests.conftest import corpus_file

    doc = WordDocument.open(corpus_file("poi__60329.docx"))
    execute(doc, "insert_footnote", {"paragraph": "p20", "text": "x"})
    mirror = etree.fromstring(zipfile.ZipFile(io.BytesIO(doc.to_bytes())).read("word/stylesWithEffects.xml"))
    ids = [s.get(qn("w:styleId")) for s in mirror.iterchildren(qn("w:style"))]
    assert "FootnoteText" in ids and None not in ids


def test_a_styles_part_made_for_a_document_without_one_defines_the_styles_it_already_uses():
    """Found by the API fuzz campaign (issue 49): poi__Bug60341.docx has no styles part and a footer in style
    'Footer'; insert_table needs Table Grid, so a styles part was made, and the footer's style, unchecked before,
    became an SDK-class error ("Style 'Footer' referenced but not defined")."""
    import io
    import zipfile

    from lxml import etree

    from autodw.core.xml import qn
    from tests.conftest import corpus_file

    doc = WordDocument.open(corpus_file("poi__Bug60341.docx"))
    execute(doc, "insert_table", {"rows": 2, "cols": 2, "position": "end"})
    styles = etree.fromstring(zipfile.ZipFile(io.BytesIO(doc.to_bytes())).read("word/styles.xml"))
    by_id = {s.get(qn("w:styleId")): s for s in styles.iterchildren(qn("w:style"))}
    assert "TableGrid" in by_id and by_id["Footer"].get(qn("w:type")) == "paragraph"
    assert by_id["Footer"].find(qn("w:basedOn")).get(qn("w:val")) == "Normal"
