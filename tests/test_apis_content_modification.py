"""content_modification APIs: effects checked through the document state, edge cases, one LibreOffice render."""

from __future__ import annotations

import pytest

from autodw.apis import execute
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError
from autodw.analysis.state import extract_state
from autodw.core.xml import qn
from autodw.apis.ooxml.text import paragraph_text
from tests.conftest import EXAMPLES, assert_word_opens, corpus_file, make_doc


def _state(doc):
    return extract_state(doc)


def _para(state, pid):
    for p in state["paragraphs"]:
        if p["id"] == pid:
            return p
    for t in state["tables"]:
        for row in t["cell_details"]:
            for cell in row:
                for p in (cell or {}).get("paragraphs", []):
                    if p["id"] == pid:
                        return p
    raise KeyError(pid)


def _ids(state):
    return [p["id"] for p in state["paragraphs"]]


def _unchanged(doc, name, args, error=ArgumentError, match=None):
    before = doc.members(keep_ids=True)
    with pytest.raises(error, match=match):
        execute(doc, name, args)
    assert doc.members(keep_ids=True) == before


@pytest.fixture
def review():
    return WordDocument.open(EXAMPLES / "review.docx")


@pytest.fixture
def zh():
    return WordDocument.open(EXAMPLES / "contract_zh.docx")


def _runs_doc():
    """p1: 'Hello ' + bold 'Wor' + italic 'ld and more' ; a 1x2 table; p after."""
    def build(d):
        p = d.add_paragraph("Hello ")
        p.add_run("Wor").bold = True
        p.add_run("ld and more").italic = True
        t = d.add_table(rows=1, cols=2)
        t.cell(0, 0).text = "World cup"
        t.cell(0, 1).text = "nothing"
        d.add_paragraph("The world is wide.")
    return make_doc(build)


# --- find_text ----------------------------------------------------------------------------


def test_find_text_reports_offsets_cells_headers_and_changes_nothing(report):
    before = _state(report)
    res = execute(report, "find_text", {"query": "region", "match_case": False})
    assert res.data["count"] == len(res.data["matches"]) >= 4
    first = res.data["matches"][0]
    text = _para(before, first["paragraph"])["text"]
    assert text[first["start"]:first["end"]].lower() == "region"
    west = execute(report, "find_text", {"query": "West"}).data["matches"]
    assert [m.get("cell") for m in west] == [{"table": "t1", "row": 4, "col": 0}, None]
    header = execute(report, "find_text", {"query": "Acme", "scope": "all"}).data["matches"]
    assert header and header[0]["story"] == "header"
    assert execute(report, "find_text", {"query": "Acme"}).data["count"] == 0
    assert _state(report) == before


def test_find_text_hints_regex_whole_word_and_limits(report):
    res = execute(report, "find_text", {"query": "acme"})
    assert res.data["count"] == 0 and 'scope "all" and match_case false' in res.message
    res = execute(report, "find_text", {"query": "Acme"})
    assert 'scope "all"' in res.message
    res = execute(report, "find_text", {"query": r"Q[1-3]", "regex": True, "max_results": 2})
    assert res.data["count"] == 4 and len(res.data["matches"]) == 2 and "first 2" in res.message
    whole = execute(report, "find_text", {"query": "the", "whole_word": True, "match_case": False}).data["matches"]
    assert all(m["text"].lower() == "the" for m in whole)
    assert execute(report, "find_text", {"query": "in", "whole_word": True, "paragraphs": ["p39"]}).data["count"] == 2
    with pytest.raises(ArgumentError, match="regular expression"):
        execute(report, "find_text", {"query": "([", "regex": True})


def test_find_text_chinese(zh):
    res = execute(zh, "find_text", {"query": "甲方"})
    assert res.data["count"] >= 3
    hit = res.data["matches"][0]
    assert hit["paragraph"] == "p2" and (hit["start"], hit["end"]) == (0, 2)


# --- replace_text -------------------------------------------------------------------------


def test_replace_across_runs_keeps_format_of_match_start():
    doc = _runs_doc()
    pid = doc.ids("p")[0]
    execute(doc, "replace_text", {"find": "World and", "replace": "Earth &"})
    p = _para(_state(doc), pid)
    assert p["text"] == "Hello Earth & more"
    assert {"text": "Earth &", "bold": True} in p["runs"]
    assert {"text": " more", "italic": True} in p["runs"]


def test_replace_in_cells_count_and_case():
    doc = _runs_doc()
    res = execute(doc, "replace_text", {"find": "world", "replace": "globe", "match_case": False, "count": 2})
    assert "2 occurrence" in res.message
    state = _state(doc)
    assert state["tables"][0]["cells"][0][0] == "globe cup"
    assert state["paragraphs"][0]["text"] == "Hello globe and more"
    assert state["paragraphs"][-1]["text"] == "The world is wide."


def test_replace_regex_groups_whole_word_and_headers(report):
    execute(report, "replace_text", {"find": r"Q(\d)", "replace": r"Quarter \1", "regex": True})
    assert _state(report)["tables"][0]["cells"][0] == ["Region", "Quarter 1", "Quarter 2", "Quarter 3"]
    execute(report, "replace_text", {"find": "Quarterly", "replace": "Annual", "scope": "all"})
    state = _state(report)
    assert state["paragraphs"][0]["text"] == "Annual Sales Report"
    assert state["page_layout"]["sections"][0]["headers"]["default"]["text"] == "Acme Corporation - Annual Report"
    execute(report, "replace_text", {"find": "in", "replace": "IN", "whole_word": True, "paragraphs": ["p39"]})
    assert _para(_state(report), "p39")["text"].count("IN") == 2


def test_replace_in_footnotes_with_scope_all(report):
    execute(report, "replace_text", {"find": "January", "replace": "February", "scope": "all"})
    assert _state(report)["interactive"]["footnotes"][0]["text"] == "Target set in the February plan."
    hit = execute(report, "find_text", {"query": "February", "scope": "all"}).data["matches"][0]
    assert hit["story"] == "footnote 1" and hit["paragraph"] is None


def test_replace_multiline_and_delete(report):
    execute(report, "replace_text", {"find": " Revenue", "replace": "\nRevenue"})
    state = _state(report)
    assert "year.\nRevenue grew" in _para(state, "p2")["text"]
    assert any(b["paragraph"] == "p2" for b in state["interactive"]["line_breaks"])
    execute(report, "replace_text", {"find": "Revenue grew in every region.", "replace": ""})
    assert _para(_state(report), "p2")["text"].endswith("year.\n")


def test_replace_not_found_is_refused_with_hint(report):
    _unchanged(report, "replace_text", {"find": "acme", "replace": "X"}, match="not found")
    _unchanged(report, "replace_text", {"find": "quarterly sales", "replace": "X"}, match="match_case false")
    _unchanged(report, "replace_text", {"find": "Acme", "replace": "X"}, match='scope "all"')
    _unchanged(report, "replace_text", {"find": "(", "replace": "X", "regex": True}, match="regular expression")
    _unchanged(report, "replace_text", {"find": "x", "replace": "y", "paragraphs": ["p9999"]}, match="p9999")


def test_replace_chinese(zh):
    execute(zh, "replace_text", {"find": "甲方", "replace": "委托方"})
    state = _state(zh)
    assert _para(state, "p2")["text"] == "委托方：上海某某科技有限公司"
    assert all("甲方" not in p["text"] for p in state["paragraphs"])


# --- set_paragraph_text, delete_text, change_case ----------------------------------------


def test_set_paragraph_text_keeps_first_run_format_and_footnote(report):
    execute(report, "set_paragraph_text", {"paragraph": "p4", "text": "North beat its target."})
    state = _state(report)
    p4 = _para(state, "p4")
    assert p4["text"] == "North beat its target." and p4["style"] == "List Bullet"
    assert state["interactive"]["footnotes"][0]["paragraph"] == "p4"
    doc = _runs_doc()
    pid = doc.ids("p")[0]
    execute(doc, "replace_text", {"find": "Hello ", "replace": "Hi ", "paragraphs": [pid]})
    execute(doc, "set_text_format", {"paragraphs": pid, "span": {"start": 0, "end": 2}, "underline": "single"})
    execute(doc, "set_paragraph_text", {"paragraph": pid, "text": "Brand\tnew"})
    p = _para(_state(doc), pid)
    assert p["text"] == "Brand\tnew" and p["runs"] == [{"text": "Brand\tnew", "underline": "single"}]
    execute(doc, "set_paragraph_text", {"paragraph": pid, "text": ""})
    assert _para(_state(doc), pid)["text"] == ""


def test_set_paragraph_text_keeps_the_fields_whose_text_the_new_text_keeps():
    """set_paragraph_text dropped a paragraph's fields: a w:fldSimple MERGEFIELD went with its text, a complex field
    stayed with an empty result (a PAGE field then showed its number again beside the new text). A field whose text
    the new text keeps, unchanged where a diff of the texts puts it and no letter or digit newly glued to it, now
    stays a field; any other becomes plain text and is replaced (no code left behind)."""
    from autodw.apis.ooxml.fields import field_runs
    from autodw.apis.ooxml.text import new_run
    path = corpus_file("docx4j__MERGEFIELD.docx")
    d = WordDocument.open(path)
    execute(d, "set_paragraph_text", {"paragraph": "p1", "text": "Dear «Kundenname», welcome"})
    p1 = d.find("p1", "p")
    assert paragraph_text(p1) == "Dear «Kundenname», welcome"
    assert [paragraph_text(f) for f in p1.iter(qn("w:fldSimple"))] == ["«Kundenname»"]
    execute(d, "set_paragraph_text", {"paragraph": "p2", "text": "Hallo «Name»"})
    assert paragraph_text(d.find("p2", "p")) == "Hallo «Name»" and d.find("p2", "p").find(qn("w:fldSimple")) is None
    assert_word_opens(path.read_bytes(), d)

    def page_fields(text):  # p1 "Page 1 of 3" (two PAGE fields) retyped as `text`: the results of its fields
        doc = WordDocument.new()
        p = doc.body.makeelement(qn("w:p"), {})
        doc.body.insert(0, p)
        for part in ("Page ", "1", " of ", "3"):
            p.extend(field_runs("PAGE", part) if part.isdigit() else [new_run(part)])
        doc.refresh_ids()
        execute(doc, "set_paragraph_text", {"paragraph": "p1", "text": text})
        p = doc.find("p1", "p")
        assert paragraph_text(p) == text
        depth, begins, results = 0, 0, ""
        for el in p.iter(qn("w:fldChar"), qn("w:t")):
            kind = el.get(qn("w:fldCharType"))
            depth, begins = depth + {"begin": 1, "end": -1}.get(kind, 0), begins + (kind == "begin")
            results += el.text if el.tag == qn("w:t") and depth else ""
        return begins, results

    assert page_fields("Seite 1 von 3") == (2, "13")
    assert page_fields("Page 1 of 13") == (1, "1")  # "3" now glued to "1": not the field's text any more
    assert page_fields("Total: 15") == (0, "")


def test_set_paragraph_text_writes_text_after_a_field_in_the_first_runs_formatting():
    """Text the new text adds after a kept field took the field result's formatting (a Zotero citation's Calibri);
    the description promises the formatting of the paragraph's first run, as the rest of the new text has."""
    from autodw.apis.ooxml.fields import field_runs
    from autodw.apis.ooxml.text import new_run
    from autodw.core.xml import parse, W

    def retyped(first_rpr):  # "See page " (in `first_rpr`) + a PAGE field showing an italic "3", retyped
        doc = WordDocument.new()
        p = doc.body.makeelement(qn("w:p"), {})
        doc.body.insert(0, p)
        p.extend([new_run("See page ", first_rpr and parse(f'<w:rPr xmlns:w="{W}">{first_rpr}</w:rPr>')),
                  *field_runs("PAGE", "3")])
        for r in p.iter(qn("w:r")):
            if r.find(qn("w:t")) is not None and r.find(qn("w:t")).text == "3":
                r.insert(0, parse(f'<w:rPr xmlns:w="{W}"><w:i/></w:rPr>'))
        doc.refresh_ids()
        before = doc.to_bytes()
        execute(doc, "set_paragraph_text", {"paragraph": "p1", "text": "See page 3 for details"})
        assert_word_opens(before, doc)
        runs = _para(_state(doc), "p1")["runs"]
        assert any(r.get("italic") for r in runs)  # the field's result keeps its look
        return runs[-1]

    assert retyped("<w:b/>") == {"text": " for details", "bold": True}
    assert retyped(None) == {"text": " for details"}

    path = corpus_file("pandoc__zotero_citations.docx")
    d = WordDocument.open(path)
    execute(d, "set_paragraph_text", {"paragraph": "p1", "text": "This is a citation (Smith et al., 2013) that was updated."})
    runs = _para(_state(d), "p1")["runs"]
    assert runs[-1]["text"].endswith(" that was updated.") and "font" not in runs[-1]
    assert [r.get("font") for r in runs if r["text"] == "(Smith et al., 2013)"] == ["Calibri"]
    assert len(list(d.find("p1", "p").iter(qn("w:instrText")))) == 1
    assert_word_opens(path.read_bytes(), d)


def test_delete_text_span_and_errors(report):
    execute(report, "delete_text", {"paragraph": "p2", "span": {"match": " Revenue grew in every region."}})
    p2 = _para(_state(report), "p2")
    assert p2["text"].endswith("of the year.") and all(not r.get("bold") for r in p2["runs"])
    execute(report, "delete_text", {"paragraph": "p39", "span": {"start": 0, "end": 8}})
    assert _para(_state(report), "p39")["text"].startswith("are unaudited")
    _unchanged(report, "delete_text", {"paragraph": "p39", "span": {"start": 5, "end": 500}}, match="characters")
    _unchanged(report, "delete_text", {"paragraph": "p39", "span": {"match": "zebra"}}, match="does not occur")
    _unchanged(report, "delete_text", {"paragraph": "p39", "span": {"start": 3, "end": 3}}, match="empty")


def test_change_case_across_runs_keeps_formatting(report):
    execute(report, "change_case", {"paragraph": "p2", "span": {"match": "year. Revenue grew"}, "case": "upper"})
    p2 = _para(_state(report), "p2")
    assert "YEAR. REVENUE GREW in every region." in p2["text"]
    assert p2["runs"][-1] == {"text": "REVENUE GREW in every region.", "bold": True}
    execute(report, "change_case", {"paragraph": "p39", "case": "sentence"})
    assert _para(_state(report), "p39")["text"].startswith("Figures are unaudited and rounded")
    execute(report, "change_case", {"paragraph": "p8", "case": "title"})
    assert _para(_state(report), "p8")["text"] == "The Table Below Lists Sales In Thousands Of Dollars."
    execute(report, "change_case", {"paragraph": "p8", "case": "toggle", "span": {"match": "The"}})
    assert _para(_state(report), "p8")["text"].startswith("tHE Table")
    res = execute(report, "change_case", {"paragraph": "p3", "span": {"match": "H"}, "case": "upper"})
    assert "nothing changed" in res.message


def test_change_case_leaves_chinese_alone(zh):
    res = execute(zh, "change_case", {"paragraph": "p2", "case": "upper"})
    assert "nothing changed" in res.message


# --- delete_block -------------------------------------------------------------------------


def test_delete_block_moves_section_break_to_previous_paragraph(report):
    res = execute(report, "delete_block", {"block": "p37"})
    assert "moved to p36" in res.message and res.removed == ["p37"]
    state = _state(report)
    assert state["document_info"]["section_count"] == 2
    assert _para(state, "p36").get("ends_section") and _para(state, "p36")["section"] == 0
    assert _para(state, "p38")["section"] == 1
    assert state["page_layout"]["sections"][1]["orientation"] == "landscape"


def test_delete_block_table_and_cleanup_of_notes_comments_bookmarks(report):
    res = execute(report, "delete_block", {"block": "t1"})
    assert "t1" in res.removed and not _state(report)["tables"]
    res = execute(report, "delete_block", {"block": "p4"})
    assert "footnote 1" in res.message
    assert _state(report)["interactive"]["footnotes"] == []
    res = execute(report, "delete_block", {"block": "p33"})
    assert "comment 0" in res.message
    assert _state(report)["interactive"]["comments"] == []
    execute(report, "delete_block", {"block": "p38"})
    assert _state(report)["interactive"]["bookmarks"] == []
    assert not list(report.body.iter(qn("w:bookmarkEnd"), qn("w:commentRangeEnd")))


def test_delete_block_refusals():
    def build(d):
        d.add_paragraph("before")
        t = d.add_table(rows=1, cols=1)
        t.cell(0, 0).text = "only"
        d.add_paragraph("after table")
    doc = make_doc(build)
    cell_p, last = doc.ids("p")[1], doc.ids("p")[-1]
    _unchanged(doc, "delete_block", {"block": cell_p}, UnsupportedOperationError, match="last paragraph of cell")
    _unchanged(doc, "delete_block", {"block": last}, UnsupportedOperationError, match="cannot end with a table")
    single = make_doc(lambda d: d.add_paragraph("alone"))
    _unchanged(single, "delete_block", {"block": single.ids("p")[0]}, UnsupportedOperationError, match="only paragraph")


def test_delete_block_section_break_after_table_is_refused():
    def build(d):
        d.add_paragraph("intro")
        d.add_table(rows=1, cols=1).cell(0, 0).text = "x"
        d.add_paragraph("ends section")
        from docx.enum.section import WD_SECTION
        d.add_section(WD_SECTION.NEW_PAGE)
        d.add_paragraph("next section")
    doc = make_doc(build)
    doc.body.remove(doc.find("p3"))  # the section break paragraph now directly follows the table
    doc.refresh_ids()
    holder = next(pid for pid, el in doc.iter_elements() if el.find(f"{qn('w:pPr')}/{qn('w:sectPr')}") is not None)
    _unchanged(doc, "delete_block", {"block": holder}, UnsupportedOperationError, match="section 0.*table")


# --- move_block ---------------------------------------------------------------------------


def test_move_paragraph_and_table(report):
    execute(report, "move_block", {"block": "p6", "position": {"before": "p4"}})
    assert _ids(_state(report))[3:6] == ["p6", "p4", "p5"]
    execute(report, "move_block", {"block": "t1", "position": {"after": "p31"}})
    state = _state(report)
    assert state["tables"][0]["after_paragraph"] == "p31" and state["tables"][0]["cells"][0][0] == "Region"
    res = execute(report, "move_block", {"block": "t1", "position": "end"})
    assert "empty paragraph" in res.message and res.created
    assert report.body[-2].tag == qn("w:p") and report.body[-3].tag == qn("w:tbl")


def test_move_block_keeps_section_break_in_place(report):
    res = execute(report, "move_block", {"block": "p37", "position": "start"})
    assert "moved to p36" in res.message
    state = _state(report)
    assert state["paragraphs"][0]["id"] == "p37" and not state["paragraphs"][0].get("ends_section")
    assert _para(state, "p36").get("ends_section")


def test_move_block_refusals(report):
    _unchanged(report, "move_block", {"block": "p4", "position": {"after": "p4"}}, match="itself")
    _unchanged(report, "move_block", {"block": "t1", "position": {"after": "p9"}}, match="inside")
    _unchanged(report, "move_block", {"block": "p9", "position": "end"}, UnsupportedOperationError, match="cell")
    header_p = _state(report)["page_layout"]["sections"][0]["headers"]["default"]["paragraphs"][0]
    _unchanged(report, "move_block", {"block": header_p, "position": "end"}, UnsupportedOperationError, match="different parts")
    _unchanged(report, "delete_block", {"block": header_p}, UnsupportedOperationError, match="last paragraph of its header")


def test_move_section_moves_a_heading_with_everything_under_it(report):
    before = _ids(_state(report))
    res = execute(report, "move_section", {"heading": "p29", "position": {"before": "p7"}})
    assert "3 block(s): p29, p30, p31" in res.message
    ids = _ids(_state(report))
    assert ids[ids.index("p6") + 1:ids.index("p6") + 5] == ["p29", "p30", "p31", "p7"] and sorted(ids) == sorted(before)
    execute(report, "move_section", {"heading": "p3", "position": "end"})  # to the end, past the last section break
    ids = _ids(_state(report))
    assert ids[-4:] == ["p3", "p4", "p5", "p6"]


def test_move_section_refusals(report):
    _unchanged(report, "move_section", {"heading": "p8", "position": "end"}, match="not a heading")
    _unchanged(report, "move_section", {"heading": "p32", "position": {"after": "p34"}}, match="inside the section")


def test_move_section_takes_a_heading_the_state_reads_off_a_custom_style():
    """A UN document's headings are its own styles ("_ H_1_GA", "_ H _Ch_GA"), without outline levels: move_section
    refused them ("not a heading") though the state's rendering reads them as headings (custom_headings). It now
    takes the level the rendering reads, and the section ends at the next paragraph of the same or a higher level
    by that reading (p68, the next "_ H_1_GA"; the bold "_ H_2/3_GA" lines under p59 move with it)."""
    data = corpus_file("poi__stress011.docx").read_bytes()
    d = WordDocument.from_bytes(data, "un.docx")
    res = execute(d, "move_section", {"heading": "p59", "position": {"before": "p41"}})
    moved = [f"p{i}" for i in range(59, 68)]
    assert f"9 block(s): {', '.join(moved)}" in res.message
    ids = _ids(_state(d))
    assert ids[ids.index("p41") - 9:ids.index("p41") + 1] == [*moved, "p41"]
    res = execute(d, "move_section", {"heading": "p41", "position": "end"})  # a chapter ends at the next chapter
    assert "(6 block(s): p41, p42, p43, p44, p45, p46)" in res.message
    assert_word_opens(data, d)


def _section_break_holders(doc):
    return [pid for pid, el in doc.iter_elements() if el.find(f"{qn('w:pPr')}/{qn('w:sectPr')}") is not None]


@pytest.mark.parametrize("name, heading, before, moved, table, after", [
    ("report-en-1", "p40", "p13", ["p40", "p41"], "t1", "p42"),  # "move Risks above Budget"
    ("cv-zh-1", "p19", "p4", ["p19", "p20"], "t1", "p21"),  # 教育背景 above 工作经历
])
def test_move_section_whose_break_follows_a_table_leaves_the_break_on_a_new_empty_paragraph(
        name, heading, before, moved, table, after):
    """Generated documents where a table ends a section's content and the section's last paragraph (moved with
    its heading) holds the break: the move was refused ("insert a paragraph first"). Now the content moves and
    the break stays after the table on a new empty paragraph, so both sections keep their layout and the file
    audits clean."""
    pytest.importorskip("openxml_audit")
    from autodw.analysis.validation import added_errors
    from tests.conftest import ROOT

    path = ROOT / "dwbench" / "data" / "docs" / f"{name}.docx"
    d = WordDocument.open(path)
    sections = _state(d)["page_layout"]["sections"]
    res = execute(d, "move_section", {"heading": heading, "position": {"before": before}})
    (holder,) = res.created
    assert f"new empty paragraph {holder} after {table}" in res.message
    state = _state(d)
    ids = _ids(state)
    assert ids[ids.index(before) - len(moved):ids.index(before)] == moved
    assert _section_break_holders(d) == [holder] and paragraph_text(d.find(holder, "p")) == ""
    assert d.find(holder, "p").getprevious() is d.find(table, "t")
    assert [_para(state, pid)["section"] for pid in (*moved, holder, after)] == [0] * (len(moved) + 1) + [1]
    assert state["page_layout"]["sections"] == sections
    assert [str(f) for f in added_errors(path.read_bytes(), d.to_bytes())] == []


def _break_after_table_doc(only_paragraph: bool = False):
    """intro, a table, then the paragraph holding section 0's break (the only paragraph of section 0 when
    `only_paragraph`, with no table), then a landscape section."""
    def build(d):
        from docx.enum.section import WD_ORIENT, WD_SECTION
        d.add_paragraph("intro")
        if not only_paragraph:
            d.add_table(rows=1, cols=1).cell(0, 0).text = "x"
        d.add_paragraph("ends section")
        section = d.add_section(WD_SECTION.NEW_PAGE)
        section.orientation = WD_ORIENT.LANDSCAPE
        section.page_width, section.page_height = section.page_height, section.page_width
        d.add_paragraph("next section")
    doc = make_doc(build)
    if not only_paragraph:
        doc.body.remove(doc.find("p3"))  # the section break paragraph now directly follows the table
        doc.refresh_ids()
    return doc


def test_move_block_of_a_break_after_a_table_leaves_an_empty_paragraph_with_the_break():
    """move_block shares the rule: the break stays after the table; a deletion is still refused."""
    doc = _break_after_table_doc()
    (holder,) = _section_break_holders(doc)
    _unchanged(doc, "delete_block", {"block": holder}, UnsupportedOperationError, match="section 0.*table")
    res = execute(doc, "move_block", {"block": holder, "position": "start"})
    (new,) = res.created
    assert _section_break_holders(doc) == [new] and doc.find(new, "p").getprevious().tag == qn("w:tbl")
    state = _state(doc)
    assert state["paragraphs"][0]["id"] == holder and state["paragraphs"][0]["section"] == 0
    assert [s["orientation"] for s in state["page_layout"]["sections"]] == ["portrait", "landscape"]


def test_move_block_of_a_first_sections_only_paragraph_keeps_the_section():
    """Moving the only paragraph of section 0 (the first block) into section 1 leaves section 0 as an empty
    paragraph with its break (two sections, as before) instead of refusing; deleting it is still refused."""
    doc = _break_after_table_doc(only_paragraph=True)
    (breaker,) = _section_break_holders(doc)
    *others, last = [pid for pid in doc.ids("p") if pid != breaker]
    for pid in others:  # breaker is now section 0's only paragraph
        execute(doc, "delete_block", {"block": pid})
    _unchanged(doc, "delete_block", {"block": breaker}, UnsupportedOperationError, match="section 0 and it is the first block")
    res = execute(doc, "move_block", {"block": breaker, "position": "end"})
    assert "new empty paragraph" in res.message and "at the start of the document" in res.message
    state = _state(doc)
    assert [(p["id"], p["section"]) for p in state["paragraphs"]] == [(res.created[0], 0), (last, 1), (breaker, 1)]
    assert [s["orientation"] for s in state["page_layout"]["sections"]] == ["portrait", "landscape"]


# --- split and merge ----------------------------------------------------------------------


def test_split_keeps_paragraph_properties_and_footnote(report):
    res = execute(report, "split_paragraph", {"paragraph": "p4", "offset": 12})
    new = res.created[0]
    state = _state(report)
    assert _para(state, "p4")["text"] == "North region"
    second = _para(state, new)
    assert second["text"] == " exceeded its target by 12%." and second["style"] == "List Bullet"
    assert second["list"]["kind"] == "bullet" and state["interactive"]["footnotes"][0]["paragraph"] == new
    assert _ids(state).index(new) == _ids(state).index("p4") + 1


def test_split_at_ends_and_section_break(report):
    execute(report, "split_paragraph", {"paragraph": "p36", "offset": 0})
    execute(report, "split_paragraph", {"paragraph": "p37", "offset": 0})
    state = _state(report)
    holders = [p["id"] for p in state["paragraphs"] if p.get("ends_section")]
    assert len(holders) == 1 and holders[0] not in ("p37",)
    assert _para(state, "p36")["text"] == ""
    _unchanged(report, "split_paragraph", {"paragraph": "p39", "offset": 999}, match="past the end")


def test_split_inside_hyperlink_and_field(report):
    execute(report, "insert_hyperlink", {"paragraph": "p31", "text": " brand guide", "url": "https://example.com"})
    length = len(_para(_state(report), "p31")["text"])
    res = execute(report, "split_paragraph", {"paragraph": "p31", "offset": length - 5})
    state = _state(report)
    links = state["interactive"]["hyperlinks"]
    assert [link["text"] for link in links] == [" brand ", "guide"]
    assert {link["paragraph"] for link in links} == {"p31", res.created[0]}
    footer_p = state["page_layout"]["sections"][0]["footers"]["default"]["paragraphs"][0]
    _unchanged(report, "split_paragraph", {"paragraph": footer_p, "offset": 5}, UnsupportedOperationError, match="field")


def test_merge_paragraphs(report):
    res = execute(report, "merge_paragraphs", {"first": "p4", "second": "p5"})
    assert res.removed == ["p5"]
    p4 = _para(_state(report), "p4")
    assert p4["text"] == "North region exceeded its target by 12%. A new distribution partner joined in Q2."
    _unchanged(report, "merge_paragraphs", {"first": "p4", "second": "p8"}, match="does not directly follow")
    _unchanged(report, "merge_paragraphs", {"first": "p37", "second": "p38"}, UnsupportedOperationError, match="section")
    execute(report, "merge_paragraphs", {"first": "p36", "second": "p37"})
    assert _para(_state(report), "p36").get("ends_section")


def test_merge_chinese_without_space(zh):
    execute(zh, "merge_paragraphs", {"first": "p2", "second": "p3"})
    assert _para(_state(zh), "p2")["text"] == "甲方：上海某某科技有限公司乙方：北京某某信息技术有限公司"


def test_merge_cell_paragraphs():
    def build(d):
        c = d.add_table(rows=1, cols=1).cell(0, 0)
        c.text = "one"
        c.add_paragraph("two")
        d.add_paragraph("after")
    doc = make_doc(build)
    a, b = doc.ids("p")[:2]
    execute(doc, "merge_paragraphs", {"first": a, "second": b, "separator": " + "})
    assert _state(doc)["tables"][0]["cells"][0][0] == "one + two"


# --- rendering ----------------------------------------------------------------------------


@pytest.mark.slow
def test_render_replaced_moved_and_split_text(report):
    from tests.rendering import render

    execute(report, "replace_text", {"find": "Next Steps", "replace": "Action Items"})
    execute(report, "replace_text", {"find": "Quarterly", "replace": "Annual", "scope": "all"})
    execute(report, "move_block", {"block": "p6", "position": {"before": "p4"}})
    execute(report, "split_paragraph", {"paragraph": "p2", "offset": 71})
    out = render(report)
    flat = " ".join(out.text.split())
    assert "Action Items" in flat and "Next Steps" not in flat
    assert "Acme Corporation - Annual Report" in flat and "Annual Sales Report" in flat
    assert flat.index("Customer satisfaction") < flat.index("North region exceeded")
    lines = [line.strip() for line in out.text.splitlines()]
    assert "Revenue grew in every region." in lines
    assert out.pages == 2


# --- text over tracked changes -------------------------------------------------------------------


def _changes(doc, pid):
    return [c for c in extract_state(doc)["interactive"]["tracked_changes"] if c["paragraph"] == pid]


def _inserted(run):
    return any(a.tag in (qn("w:ins"), qn("w:moveTo")) for a in run.iterancestors())


def test_set_paragraph_text_over_tracked_changes_writes_plain_text_and_drops_the_old_changes():
    """A paragraph of tracked insertions ('W', 'a', 'rld') and a deletion ('Hello '): the new text went into the
    first insertion (shown as the other author's) and the deletion stayed. Now, as retyping it in Word with
    tracking off: one plain run, no insertion, the deleted text gone; Word opens it without repair."""
    pytest.importorskip("openxml_audit")
    from autodw.analysis.validation import added_errors

    path = corpus_file("docxrs__history.docx")
    d = WordDocument.open(path)
    assert {c["type"] for c in _changes(d, "p1")} == {"insertion", "deletion"}
    execute(d, "set_paragraph_text", {"paragraph": "p1", "text": "Hello World"})
    p = d.find("p1", "p")
    assert _para(extract_state(d), "p1")["text"] == "Hello World"
    assert _changes(d, "p1") == []
    assert [el.tag for el in p.iter(qn("w:ins"), qn("w:del"), qn("w:delText"))] == []
    assert [str(f) for f in added_errors(path.read_bytes(), d.to_bytes())] == []


def test_replace_text_inside_a_tracked_insertion_splits_it_and_delete_text_drops_deleted_text(review):
    """review.docx: p26 ends with Alex's insertion " Late claims need a manager's approval."; p8 holds his
    deletion ' and claim'. Replacing words inside the insertion leaves the new text plain, between two parts of
    it (the second with its own revision id); deleting a span up to the end, where the deletion sits, removes
    the deleted text too."""
    execute(review, "replace_text", {"find": "need a manager", "replace": "require a director"})
    p = review.find("p26", "p")
    assert paragraph_text(p) == "Submit claims within 30 days with receipts. Late claims require a director's approval."
    new = next(r for r in p.iter(qn("w:r")) if "director" in "".join(t.text for t in r.iter(qn("w:t"))))
    assert not _inserted(new)
    ins = p.findall(qn("w:ins"))
    assert ["".join(t.text for t in i.iter(qn("w:t"))) for i in ins] == [" Late claims ", "'s approval."]
    ids = [int(e.get(qn("w:id"))) for root in review.id_roots() for e in root.iter(qn("w:ins"), qn("w:del"))]
    assert len(ids) == len(set(ids))

    p8 = review.find("p8", "p")  # its deletion ' and claim' sits after its last visible character
    execute(review, "delete_text", {"paragraph": "p8", "span": {"match": " business travel."}})
    assert paragraph_text(p8) == "This policy explains how employees book and claim"
    assert p8.find(qn("w:del")) is None
    assert _changes(review, "p8") == []


# --- a table of contents ------------------------------------------------------------------------------


def _field_depths(doc):
    """The running depth of the body's complex fields after each fldChar (all >= 0 and ending at 0 when whole)."""
    depth, out = 0, []
    for ch in doc.body.iter(qn("w:fldChar")):
        kind = ch.get(qn("w:fldCharType"))
        depth += 1 if kind == "begin" else -1 if kind == "end" else 0
        out.append(depth)
    return out


def test_delete_block_on_the_tocs_first_entry_deletes_the_whole_toc_and_never_half_its_field():
    """oxpt TableOfContents.docx: a 'Table of Contents' content control holds the title p1, the entries p2-p5
    (the TOC field begins in p2, where the state puts the TOC) and the empty p6 (the field's end). Deleting p2 left
    p3-p6 and an end without a begin; now the whole TOC goes and the file audits clean. A middle entry still goes
    alone; deleting the empty p6 hands the field's end to p5 (as Word joins it); moving p2 is refused."""
    pytest.importorskip("openxml_audit")
    from autodw.analysis.validation import added_errors

    path = corpus_file("oxpt__TableOfContents.docx")
    d = WordDocument.open(path)
    assert extract_state(d)["page_layout"]["table_of_contents"]["paragraph"] == "p2"
    message = execute(d, "delete_block", {"block": "p2"}).message
    assert "table of contents" in message
    assert _ids(extract_state(d))[:2] == ["p7", "p8"]
    assert d.body.find(qn("w:sdt")) is None and not extract_state(d)["page_layout"].get("table_of_contents")
    assert min(_field_depths(d), default=0) >= 0 and _field_depths(d)[-1:] in ([], [0])
    assert [str(f) for f in added_errors(path.read_bytes(), d.to_bytes())] == []

    d = WordDocument.open(path)
    execute(d, "delete_block", {"block": "p3"})
    assert _ids(extract_state(d))[:3] == ["p1", "p2", "p4"] and _field_depths(d)[-1] == 0
    _unchanged(d, "move_block", {"block": "p2", "position": "end"}, UnsupportedOperationError, "field")
    assert "field it closed moved to p5" in execute(d, "delete_block", {"block": "p6"}).message
    assert _field_depths(d)[-1] == 0 and min(_field_depths(d)) >= 0
    assert extract_state(d)["page_layout"]["table_of_contents"]["paragraph"] == "p2"


def test_delete_block_on_a_toc_insert_toc_made_deletes_its_title_too():
    """insert_toc writes a "Contents" title (TOC Heading) and the field's paragraphs, without a content control;
    deleting the TOC (the paragraph where the state puts it) left the title behind. Now it goes with them; a
    paragraph before the title stays."""
    path = EXAMPLES / "report.docx"
    d = WordDocument.open(path)
    execute(d, "insert_toc", {"position": {"after": "p1"}, "title": "Contents"})
    state = extract_state(d)
    title = _ids(state)[1]
    assert _para(state, title)["style"] == "TOC Heading"
    message = execute(d, "delete_block", {"block": state["page_layout"]["table_of_contents"]["paragraph"]}).message
    assert message.startswith(f"deleted the table of contents, 7 paragraph(s) {title}-")
    state = extract_state(d)
    assert _ids(state)[:2] == ["p1", "p2"] and not state["page_layout"].get("table_of_contents")
    assert "Contents" not in [p["text"] for p in state["paragraphs"]]
    assert_word_opens(path.read_bytes(), d)


# --- text of a hyperlink -------------------------------------------------------------------------


@pytest.mark.parametrize("name, paragraph, link, kept", [
    ("docx4j__themeFontLang.docx", "p2", "fonts", "hyperlinks"),  # a w:hyperlink element
    ("docx2python__invalid_tag_name.docx", "p52", "James.Postell@va.gov", "fields"),  # a HYPERLINK field
])
def test_delete_text_keeps_a_link_on_what_remains_of_its_text_and_removes_it_with_all_its_text(name, paragraph, link,
                                                                                                kept):
    """As in Word: deleting part of a link's text leaves the link on the rest; deleting all of it (alone or with
    the text around it) removes the link, a HYPERLINK field's codes too, and Word opens the file without repair."""
    pytest.importorskip("openxml_audit")
    from autodw.analysis.validation import added_errors

    def links(doc):
        found = extract_state(doc)["interactive"][kept]
        return [x for x in found if x["paragraph"] == paragraph and (kept == "hyperlinks" or x["type"] == "HYPERLINK")]

    path = corpus_file(name)
    part = WordDocument.open(path)
    text = _para(extract_state(part), paragraph)["text"]
    execute(part, "delete_text", {"paragraph": paragraph, "span": {"match": link[1:]}})
    assert len(links(part)) == 1 and _para(extract_state(part), paragraph)["text"] == text.replace(link, link[0], 1)
    if kept == "hyperlinks":
        assert links(part)[0]["text"] == link[0]
    for span in (link, f" {link}"):
        whole = WordDocument.open(path)
        execute(whole, "delete_text", {"paragraph": paragraph, "span": {"match": span}})
        assert links(whole) == [] and _para(extract_state(whole), paragraph)["text"] == text.replace(span, "", 1)
        assert not [el for el in whole.find(paragraph, "p").iter(qn("w:fldChar"), qn("w:instrText"), qn("w:hyperlink"))]
        assert [str(f) for f in added_errors(path.read_bytes(), whole.to_bytes())] == []


def test_change_case_describes_each_case_by_the_value_the_call_takes():
    """A writer gave "Title Case" (the description's display name) and the call refused it: the description names
    the values the schema accepts."""
    from autodw.apis import registry

    import re

    spec = registry().get("change_case")
    cases = spec.parameters["properties"]["case"]["enum"]
    assert set(re.findall(r"\b[a-z]+\b", spec.description)) >= set(cases), spec.description


def test_deleting_all_of_a_fields_text_removes_the_field_and_part_of_it_keeps_it():
    """delete_text and replace_text over «state» (a complex MERGEFIELD) left an empty MERGEFIELD behind. As in Word,
    a delete or replace covering all the text a field shows removes the field, its codes too (the replacement is
    plain text); one covering part of it keeps the field."""
    path = corpus_file("mailmerge__test_macword2011.docx")

    def fields(doc):
        return [" ".join(el.get(qn("w:instr"), el.text or "").split()[:2])
                for el in doc.find("p3", "p").iter(qn("w:instrText"), qn("w:fldSimple"))]

    every = ["MERGEFIELD postal_code", "MERGEFIELD city", "MERGEFIELD state", "MERGEFIELD country"]
    for api, args, text in [
            ("delete_text", {"paragraph": "p3", "span": {"match": "«state» "}}, "«postal_code» «city» «country»"),
            ("replace_text", {"find": "«state» ", "replace": ""}, "«postal_code» «city» «country»"),
            ("replace_text", {"find": "«state»", "replace": "Texas"}, "«postal_code» «city» Texas «country»"),
            ("delete_text", {"paragraph": "p3", "span": {"match": "«city» "}}, "«postal_code» «state» «country»")]:
        d = WordDocument.open(path)
        execute(d, api, args)
        assert paragraph_text(d.find("p3", "p")) == text
        gone = next(f for f in every if f.split()[1] not in text)
        assert fields(d) == [f for f in every if f != gone], (api, args)
        assert not [el for el in d.find("p3", "p").iter(qn("w:fldChar")) if el.get(qn("w:fldCharType")) == "separate"
                    and el.getparent().getnext() is not None
                    and el.getparent().getnext().find(qn("w:fldChar")) is not None]  # no field left empty
        assert_word_opens(path.read_bytes(), d)
    part = WordDocument.open(path)
    execute(part, "delete_text", {"paragraph": "p3", "span": {"match": "state"}})
    assert paragraph_text(part.find("p3", "p")) == "«postal_code» «city» «» «country»" and fields(part) == every


def test_set_paragraph_text_keeps_a_field_whose_text_moved():
    """set_paragraph_text on «postal_code» «city» «state» «country» without «state» turned «country» into plain text
    (the diff matched its « elsewhere) though the new text keeps it. A field stays wherever its text is kept, in
    order: one whose text comes before that of a field kept before it becomes plain text, and of a text kept twice
    only one copy is the field."""
    path = corpus_file("mailmerge__test_macword2011.docx")

    def kept(text):
        d = WordDocument.open(path)
        execute(d, "set_paragraph_text", {"paragraph": "p3", "text": text})
        p = d.find("p3", "p")
        assert paragraph_text(p) == text
        assert_word_opens(path.read_bytes(), d)
        return [el.get(qn("w:instr"), el.text or "").split()[1] for el in p.iter(qn("w:instrText"), qn("w:fldSimple"))]

    assert kept("«postal_code» «city» «country»") == ["postal_code", "city", "country"]
    assert kept("«country», «postal_code» «city»") == ["postal_code", "city"]  # «country» now before them
    assert kept("«city» «city» «country»") == ["city", "country"]
