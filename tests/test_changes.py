"""Change analysis: the six parts, opcodes, run formatting, tables by cell signature, corpus pairs."""

from __future__ import annotations

import copy

import pytest
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.shared import Cm

from autodw.analysis.align import align_ids
from autodw.apis.calls import execute
from autodw.analysis.change_summary import summarize_change
from autodw.analysis.changes import CHANGE_KEYS, analyze_change, has_changes, text_edits
from autodw.core.document import WordDocument
from autodw.analysis.state import extract_state
from tests.conftest import EXAMPLES, corpus_file, make_doc


def _doc():
    def build(d):
        d.add_paragraph("The quick brown fox.")
        d.add_paragraph("Second paragraph.")
        t = d.add_table(rows=2, cols=2)
        for r in range(2):
            for c in range(2):
                t.cell(r, c).text = f"{r}{c}"

    return make_doc(build)


def test_no_change():
    doc = _doc()
    s = extract_state(doc)
    change = analyze_change(s, copy.deepcopy(s))
    assert tuple(change) == CHANGE_KEYS and not has_changes(change)
    assert summarize_change(change).startswith("No change")


def test_text_edit_opcodes():
    doc = _doc()
    before = extract_state(doc)
    doc.docx.paragraphs[0].runs[0].text = "The quick red fox jumps."
    after = extract_state(doc)
    change = analyze_change(before, after)
    edit = change["content"]["text_edits"][0]
    assert edit["paragraph"] == "p1"
    text = before["paragraphs"][0]["text"]
    for tag, i1, i2, j1, j2, old, new in reversed(edit["opcodes"]):  # applying the opcodes gives the new text
        assert tag in ("insert", "delete", "replace") and text[i1:i2] == old
        text = text[:i1] + new + text[i2:]
    assert text == "The quick red fox jumps."
    assert not change["structural"]


@pytest.mark.parametrize("before, after, edits", [
    ("The meeting is on Monday at noon.", "The meeting was moved to Friday at noon.",
     [("replace", "is on Monday", "was moved to Friday")]),  # whole words, not "replaced 'Mon' with 'Fri'"
    ("Test.", "st.", [("delete", "Te", "")]),  # letters only removed: said per letter
    ("the colour", "the color", [("delete", "u", "")]),
    ("本合同自双方签字之日起生效。", "本合同自双方盖章之日起生效。", [("replace", "签字", "盖章")]),  # a CJK character is a word
    ("", "New text", [("insert", "", "New text")]),
    # text ending in the character it is put before is one insertion, not two around that character matched inside
    # the new text ("inserted 'tagung2014@yahoo' at 49; inserted 'de.' at 50")
    ("Adresse: .", "Adresse: tagung2014@yahoo.de.", [("insert", "", "tagung2014@yahoo.de")]),
    ("See a, b.", "See a, c, d, b.", [("insert", "", "c, d, ")]),
    ("Write to x.y.z. now", "Write to . now", [("delete", "x.y.z", "")]),
])
def test_text_edits_are_found_word_by_word_and_rebuild_the_new_text(before, after, edits):
    ops, kept = text_edits(before, after)
    assert [(tag, old, new) for tag, *_, old, new in ops] == edits
    text = before
    for tag, i1, i2, j1, j2, old, new in reversed(ops):
        assert text[i1:i2] == old and after[j1:j2] == new
        text = text[:i1] + new + text[i2:]
    assert text == after and 0.0 <= kept <= 1.0


def test_a_text_replaced_in_pieces_is_summarised_as_before_and_after():
    empty = {"structural": {}, "format": {}, "style": {}, "table": {}, "hyperlink": {}}
    old, new = "Revenue in March rose; costs in April fell.", "Profit in June slid; margins in July grew."
    ops, kept = text_edits(old, new)
    edit = {"paragraph": "p5", "index": 4, "before": old, "after": new, "opcodes": ops, "kept": kept}
    assert len(ops) > 2 and kept < 0.5
    assert summarize_change({**empty, "content": {"text_edits": [edit]}}) == f"text of p5 (index 4): {old!r} -> {new!r}"
    ops, kept = text_edits("Sales rose 5% in Q3.", "Sales rose 7% in Q3.")
    edit = {"paragraph": "p5", "index": 4, "before": "", "after": "", "opcodes": ops, "kept": kept}
    assert summarize_change({**empty, "content": {"text_edits": [edit]}}) == "text of p5 (index 4): replaced '5' with '7' at 11"


def test_text_put_before_a_character_it_also_holds_is_one_insertion_and_no_format_change_of_that_character():
    """A link "tagung2014@yahoo.de" put before the paragraph's closing "." was said as two insertions around the
    "." of "yahoo.de", and that "." (new text) as the old "." turned into a link."""
    doc = make_doc(lambda d: d.add_paragraph("Mail: ."))
    before = extract_state(doc)
    p = doc.docx.paragraphs[0]
    p.runs[0].text = "Mail: "
    p.add_run("tagung2014@yahoo.de").bold = True
    p.add_run(".")
    change = analyze_change(before, extract_state(doc))
    assert [op[0::6] for op in change["content"]["text_edits"][0]["opcodes"]] == [["insert", "tagung2014@yahoo.de"]]
    assert not change["format"]
    assert "inserted 'tagung2014@yahoo.de' at 6" in summarize_change(change)


def test_run_formatting_change_is_localised():
    doc = _doc()
    before = extract_state(doc)
    p = doc.docx.paragraphs[0]
    run = p.runs[0]
    run.text = "The "
    bold = p.add_run("quick")
    bold.bold = True
    p.add_run(" brown fox.")
    change = analyze_change(before, extract_state(doc))
    assert not change["content"]
    assert change["format"]["runs"] == [{"paragraph": "p1", "start": 4, "end": 9, "text": "quick", "changes": {"bold": [None, True]}}]


def test_style_and_paragraph_format():
    doc = _doc()
    before = extract_state(doc)
    doc.docx.paragraphs[1].style = "Heading 1"
    doc.docx.paragraphs[0].alignment = 2
    change = analyze_change(before, extract_state(doc))
    assert change["style"]["paragraph_styles"] == [{"paragraph": "p2", "before": "Normal", "after": "Heading 1"}]
    assert {"paragraph": "p1", "property": "alignment", "before": None, "after": "right"} in change["format"]["paragraphs"]


def test_structural_added_removed_moved():
    doc = _doc()
    before = extract_state(doc)
    body = doc.body
    p1, p2 = doc.find("p1"), doc.find("p2")
    p2.addnext(p1)  # move p1 after p2
    doc.docx.add_paragraph("brand new")
    doc.refresh_ids()
    change = analyze_change(before, extract_state(doc))
    s = change["structural"]
    assert s["counts"]["paragraph_count"] == [3, 4] or s["counts"]["paragraph_count"][1] == before["document_info"]["paragraph_count"] + 1
    assert [a["text"] for a in s["paragraphs_added"]] == ["brand new"]
    assert any(m["id"] in ("p1", "p2") for m in s["paragraphs_moved"])
    del body


def test_table_cells_rows_and_signatures():
    doc = _doc()
    before = extract_state(doc)
    table = doc.docx.tables[0]
    table.cell(0, 1).text = "changed"
    row = table.add_row()
    row.cells[0].text = "new"
    change = analyze_change(before, extract_state(doc))
    t = change["table"]["tables"][0]
    assert t["size"] == ["2x2", "3x2"]
    assert t["rows_inserted"][0]["index"] == 2 and t["rows_inserted"][0]["cells"][0] == "new"


def test_cell_signature_detects_merge_without_text_change():
    doc = _doc()
    before = extract_state(doc)
    t = doc.docx.tables[0]
    a, b = t.cell(1, 0), t.cell(1, 1)
    a.text, b.text = "10", ""
    a.merge(b)
    change = analyze_change(before, extract_state(doc))
    t_change = change["table"]["tables"][0]
    assert t_change["merged"][1] == [[1, 0, 1, 1]]
    assert t_change["cells_changed"] == [
        {"row": 1, "col": 0, "before": "10", "after": "10\n", "format": {"width": ["7.62cm", "15.24cm"]},
         "structure": True},
        {"row": 1, "col": 1, "before": "11", "after": "", "format": {"width": ["7.62cm", None]}, "structure": True}]
    assert "table t1 cell (1,0): '10' -> '10\\n'; width '7.62cm' -> '15.24cm'; span or merge changed" \
        in summarize_change(change)


def test_a_span_alone_is_a_structure_change():
    doc = _doc()
    for tcw in list(doc.docx.tables[0]._tbl.iter(qn("w:tcW"))):
        tcw.getparent().remove(tcw)
    before = extract_state(doc)
    row = doc.docx.tables[0]._tbl.tr_lst[0]
    row.tc_lst[0].get_or_add_tcPr().append(parse_xml(f'<w:gridSpan {nsdecls("w")} w:val="2"/>'))
    row.remove(row.tc_lst[1])
    change = analyze_change(before, extract_state(doc))
    assert change["table"]["tables"][0]["cells_changed"][0] == {"row": 0, "col": 0, "structure": True}
    assert "table t1 cell (0,0): span or merge changed" in summarize_change(change)


def test_a_cells_borders_margins_and_a_tables_indent_are_changes():
    """A cell's own borders, width, margins and text direction are part of its signature and reported by name
    (set_table_borders clears cell borders that would override it: that is a change too); so is a table's indent."""
    doc = _doc()
    before = extract_state(doc)
    tbl = doc.docx.tables[0]._tbl
    tcpr = tbl.tr_lst[0].tc_lst[1].get_or_add_tcPr()
    tcpr.append(parse_xml(f'<w:tcBorders {nsdecls("w")}><w:bottom w:val="double" w:sz="12" w:color="FF0000"/>'
                          '</w:tcBorders>'))
    tcpr.append(parse_xml(f'<w:textDirection {nsdecls("w")} w:val="btLr"/>'))
    tbl.tblPr.append(parse_xml(f'<w:tblInd {nsdecls("w")} w:w="567" w:type="dxa"/>'))
    change = analyze_change(before, extract_state(doc))
    t_change = change["table"]["tables"][0]
    assert t_change["cells_changed"] == [{"row": 0, "col": 1, "format": {
        "borders": [None, {"bottom": {"style": "double", "width_pt": 1.5, "color": "FF0000"}}],
        "text_direction": [None, "btLr"]}}]
    assert t_change["indent_cm"] == [None, 1.0]
    text = summarize_change(change)
    assert "table t1 cell (0,1): borders None -> {'bottom': 'double 1.5pt FF0000'}; text_direction None -> 'btLr'" \
        in text and "table t1 indent_cm: None -> 1.0" in text


def _with_header_table(d):
    d.add_paragraph("Body.")
    header = d.sections[0].header
    header.paragraphs[0].text = "Acme Corporation"
    t = header.add_table(1, 2, Cm(10))
    t.cell(0, 0).text, t.cell(0, 1).text = "Left", "Right"


def test_a_headers_formatting_and_its_tables_are_changes():
    """A header's paragraphs are formatted by id as the body's are, so their run and paragraph format and style are
    reported (with the story they are in); its tables are compared as the body's."""
    doc = make_doc(_with_header_table)
    before = extract_state(doc)
    header = before["page_layout"]["sections"][0]["headers"]["default"]
    pid, tid = header["paragraphs"][0], header["tables"][0]
    for call, args in (("set_text_format", {"paragraphs": pid, "bold": True}),
                       ("set_paragraph_format", {"paragraphs": pid, "alignment": "center"}),
                       ("set_paragraph_shading", {"paragraphs": pid, "fill": "yellow"}),
                       ("set_cell_text", {"table": tid, "row": 0, "col": 1, "text": "Right side"}),
                       ("set_cell_shading", {"table": tid, "cells": "all", "fill": "D9D9D9"})):
        execute(doc, call, args)
    change = analyze_change(before, extract_state(doc))
    runs, paras = change["format"]["runs"], change["format"]["paragraphs"]
    assert runs == [{"paragraph": pid, "story": "header:default", "start": 0, "end": 16, "text": "Acme Corporation",
                     "changes": {"bold": [None, True]}}]
    assert paras == [{"paragraph": pid, "story": "header:default", "property": "alignment", "before": None,
                      "after": "center"},
                     {"paragraph": pid, "story": "header:default", "property": "shading", "before": None,
                      "after": "FFFF00"}]
    cells = change["table"]["tables"][0]
    assert cells["table"] == tid and cells["story"] == "header:default"
    assert cells["cells_changed"][1] == {"row": 0, "col": 1, "before": "Right", "after": "Right side",
                                         "format": {"shading": [None, "D9D9D9"]}}
    assert change["content"] == {} and "page_layout" not in change["structural"]  # said once, by paragraph
    text = summarize_change(change)
    assert f"format of {pid} (in the header default) chars 0-16 'Acme Corporation': bold None -> True" in text
    assert f"table {tid} (in the header default) cell (0,1): 'Right' -> 'Right side'; shading None -> 'D9D9D9'" in text


def test_a_headers_text_edits_are_edits_of_its_paragraphs_while_it_keeps_them():
    """A header that keeps its paragraphs has its text edits reported as a body paragraph's (opcodes, with the story
    named), not as its whole text before and after; one that gains a paragraph has its whole text in the page
    layout's change, and its edits are not said twice."""
    doc = make_doc(_with_header_table)
    before = extract_state(doc)
    pid = before["page_layout"]["sections"][0]["headers"]["default"]["paragraphs"][0]
    header = doc.docx.sections[0].header
    header.paragraphs[0].runs[0].text = "Apex Corporation Ltd"
    change = analyze_change(before, extract_state(doc))
    assert change["content"]["text_edits"] == [
        {"paragraph": pid, "index": 0, "story": "header:default", "before": "Acme Corporation",
         "after": "Apex Corporation Ltd", "opcodes": [["replace", 0, 4, 0, 4, "Acme", "Apex"],
                                                      ["insert", 16, 16, 16, 20, "", " Ltd"]], "kept": 0.6}]
    assert "page_layout" not in change["structural"]
    assert summarize_change(change) == (f"text of {pid} (index 0, in the header default): replaced 'Acme' with 'Apex' "
                                        "at 0; inserted ' Ltd' at 16")
    header.add_paragraph("Confidential")
    change = analyze_change(before, extract_state(doc))
    assert change["content"] == {}
    assert {"path": "sections[0].headers.default.text", "before": "Acme Corporation",
            "after": "Apex Corporation Ltd\nConfidential"} in change["structural"]["page_layout"]


def test_hyperlink_and_comment_changes():
    doc = _doc()
    before = extract_state(doc)
    p = doc.docx.paragraphs[0]
    doc.docx.add_comment(p.runs, text="look", author="Ann")
    change = analyze_change(before, extract_state(doc))
    assert change["hyperlink"]["comments"]["added"][0]["text"] == "look"
    assert "comment" in summarize_change(change)


# Open-Xml-PowerTools before/after pairs: (before, after, part of the change that must report it, needle)
OXPT_PAIRS = [
    ("WC001-Digits", "WC001-Digits-Mod", "content", "delete"),
    ("WC002-Unmodified", "WC002-DeleteAtEnd", "content", "delete"),
    ("WC002-Unmodified", "WC002-DiffInMiddle", "content", "replace"),
    ("WC002-Unmodified", "WC002-InsertAtBeginning", "content", "insert"),
    ("WC006-Table", "WC006-Table-Delete-Row", "table", "rows_deleted"),
    ("WC013-Image-Before", "WC013-Image-After", "structural", "width_cm"),
    ("WC020-FootNote-Before", "WC020-FootNote-After-1", "content", "replace"),
    ("WC027-Twenty-Paras-Before", "WC027-Twenty-Paras-After-1", "structural", "paragraphs_removed"),
    ("WC027-Twenty-Paras-Before", "WC027-Twenty-Paras-After-1", "structural", "paragraphs_added"),
    ("WC033-Merged-Cells-Before", "WC033-Merged-Cells-After1", "table", "cells_changed"),
    ("WC034-Endnotes-Before", "WC034-Endnotes-After1", "hyperlink", "endnotes"),
    ("WC061-Style-Added", "WC061-Style-Added-Mod", "structural", "paragraphs_added"),
    ("WC061-Style-Added", "WC061-Style-Added-Mod", "style", "MyNewParaStyle"),
    ("WC024-Table-Before", "WC024-Table-After", "table", "rows_deleted"),
    ("WC043-Nested-Table", "WC043-Nested-Table-Mod", "table", "tables"),
    ("WC055-French", "WC055-French-Mod", "content", "text_edits"),
]


@pytest.mark.parametrize("before, after, part, needle", OXPT_PAIRS)
def test_oxpt_pairs_report_the_right_kind_of_change(before, after, part, needle):
    sb = extract_state(WordDocument.open(corpus_file(f"oxpt__{before}.docx")))
    sa = align_ids(sb, extract_state(WordDocument.open(corpus_file(f"oxpt__{after}.docx"))))
    change = analyze_change(sb, sa)
    assert needle in repr(change[part]), summarize_change(change)


def test_unmodified_pair_reports_no_content_change():
    sb = extract_state(WordDocument.open(corpus_file("oxpt__WC002-Unmodified.docx")))
    sa = align_ids(sb, extract_state(WordDocument.open(corpus_file("oxpt__WC002-Unmodified.docx"))))
    change = analyze_change(sb, sa)
    assert not has_changes(change)


def test_colour_changes_are_named_for_the_validator():
    from autodw.core.units import color_name
    from autodw.analysis.change_summary import summarize_change

    assert color_name("FF0000") == "red" and color_name("0070c0") == "blue" and color_name("FE0101") == "red"
    assert color_name("7F8FA0") == "near gray"
    assert color_name("auto") is None
    change = {"structural": {}, "content": {}, "style": {}, "table": {}, "hyperlink": {},
              "format": {"runs": [{"paragraph": "p1", "start": 0, "end": 5, "text": "Title",
                                   "changes": {"color": [None, "FF0000"], "bold": [None, True]}}]}}
    assert "color None -> 'FF0000' (red), bold None -> True" in summarize_change(change)


def test_borders_are_summarised_side_by_side_as_lines(report):
    """The validator reads each side of a table or paragraph border as one line, in a fixed order (they were printed
    as dicts, 1.6 times longer, sides alphabetical)."""
    from autodw.apis import execute

    before = extract_state(report)
    execute(report, "set_table_borders", {"table": "t1", "style": "double", "size_pt": 1.5, "color": "1F4E79", "scope": "all"})
    execute(report, "set_paragraph_border", {"paragraphs": "p2", "sides": ["bottom", "top"], "style": "single"})
    line = "'double 1.5pt 1F4E79'"
    assert summarize_change(analyze_change(before, extract_state(report))).splitlines() == [
        "border of p2: None -> {'top': 'single 0.5pt', 'bottom': 'single 0.5pt'}",
        "table t1 borders: None -> {" + ", ".join(f"'{side}': {line}" for side in
                                                 ("top", "left", "bottom", "right", "insideH", "insideV")) + "}"]


def test_a_flag_written_off_is_no_change():
    """``<w:keepNext w:val="0"/>`` (what python-docx writes for keep_with_next=False) on a paragraph that had no such
    flag changes nothing the agent should be told of."""
    doc = WordDocument.open(EXAMPLES / "report.docx")
    before = extract_state(doc)
    doc.docx.paragraphs[1].paragraph_format.keep_with_next = False
    assert 'w:val="0"' in doc.docx.paragraphs[1]._p.xml
    assert not analyze_change(before, extract_state(doc))["format"]


def test_aligning_renames_a_header_shown_by_two_sections_once(report, tmp_path):
    """The sample's header is shown by both its sections (one story object in two places): aligning a reopened copy,
    whose ids have shifted, gives its paragraphs the first state's ids, not those ids renamed a second time."""
    execute(report, "insert_paragraph", {"position": {"before": "p1"}, "text": "A new first paragraph."})
    after = extract_state(report)
    again = align_ids(after, extract_state(WordDocument.open(report.save(tmp_path / "out.docx"))))
    for state in (after, again):
        stories = [s["headers"]["default"] for s in state["page_layout"]["sections"]]
        assert len(stories) == 2 and all([p["id"] for p in s["paragraph_details"]] == s["paragraphs"] for s in stories)
    assert not has_changes(analyze_change(after, again))


def test_a_header_part_two_sections_reference_is_reported_once():
    """Two sections whose header references name the same part show one story: its table's edit is one change."""
    def build(d):
        _with_header_table(d)
        d.add_section()

    doc = make_doc(build)
    first, second = doc.docx.sections[0]._sectPr, doc.docx.sections[1]._sectPr
    second.insert(0, copy.deepcopy(first.find(qn("w:headerReference"))))
    before = extract_state(doc)
    stories = [s["headers"]["default"] for s in before["page_layout"]["sections"]]
    assert [s["linked_to_previous"] for s in stories] == [False, False] and stories[0]["part"] == stories[1]["part"]
    execute(doc, "set_cell_text", {"table": stories[0]["tables"][0], "row": 0, "col": 0, "text": "Links"})
    tables = analyze_change(before, extract_state(doc))["table"]["tables"]
    assert len(tables) == 1 and tables[0]["cells_changed"] == [{"row": 0, "col": 0, "before": "Left", "after": "Links"}]


def test_aligning_two_files_pairs_the_headers_tables_and_their_cells(tmp_path):
    """Ids are numbered body first: a body table added shifts a header table's ids in a reopened copy. Aligned, the
    header's table and its cell paragraphs keep their ids, so only the body's new table is a change."""
    def build(d):
        d.add_heading("Title", 1)
        d.add_paragraph("Body two.")
        _with_header_table(d)

    doc = make_doc(build)
    execute(doc, "insert_table", {"position": {"after": "p2"}, "rows": 1, "cols": 1})
    after = extract_state(doc)
    again = align_ids(after, extract_state(WordDocument.open(doc.save(tmp_path / "out.docx"))))
    assert not has_changes(analyze_change(after, again))
    new_body_table = analyze_change(extract_state(make_doc(build)), again)["table"]["tables"]
    assert [(t.get("story"), t.get("added")) for t in new_body_table] == [(None, True)]


def test_a_header_tables_cell_alignment_is_a_format_change():
    """A header's top-level alignments are the page layout's change; its table cells' paragraphs are not in it."""
    doc = make_doc(_with_header_table)
    before = extract_state(doc)
    cell = before["page_layout"]["sections"][0]["headers"]["default"]["table_details"][0]["cell_details"][0][1]
    pid = cell["paragraphs"][0]["id"]
    execute(doc, "set_paragraph_format", {"paragraphs": pid, "alignment": "right"})
    text = summarize_change(analyze_change(before, extract_state(doc)))
    assert text == f"alignment of {pid} (in the header default): None -> 'right'"


def test_a_rewritten_footers_alignments_compare_paragraph_by_paragraph():
    """A footer of an unaligned paragraph and a centred one rewritten as one centred paragraph: compared as a
    sequence, [None, "center"] -> ["center"] was the None dropped, summarised as "alignments[0]: None -> None"."""
    def build(d):
        d.add_paragraph("Body.")
        footer = d.sections[0].footer
        footer.paragraphs[0].text = "DOC-42"
        footer.add_paragraph("Page").alignment = 1

    doc = make_doc(build)
    before = extract_state(doc)
    execute(doc, "set_header_footer", {"section": 0, "where": "footer", "text": "{PAGE}", "alignment": "center"})
    layout = {e["path"]: (e["before"], e["after"])
              for e in analyze_change(before, extract_state(doc))["structural"]["page_layout"]}
    assert layout["sections[0].footers.default.alignments[0]"] == (None, "center")
    assert layout["sections[0].footers.default.alignments[1]"] == ("center", None)


def test_showing_a_first_page_header_does_not_add_its_tables():
    """A first-page header part the document has but does not show: turning "different first page" on shows it (the
    page layout's change says so); its table is not reported as added (nor as removed when it is hidden again)."""
    def build(d):
        d.add_paragraph("Body.")
        section = d.sections[0]
        section.different_first_page_header_footer = True
        table = section.first_page_header.add_table(1, 2, Cm(10))
        table.cell(0, 0).text, table.cell(0, 1).text = "Logo", "Date"
        section.header.paragraphs[0].text = "Running header"
        section.different_first_page_header_footer = False

    doc = make_doc(build)
    hidden = extract_state(doc)
    execute(doc, "set_header_footer_options", {"section": 0, "different_first_page": True})
    shown = extract_state(doc)
    for change in (analyze_change(hidden, shown), analyze_change(shown, hidden)):
        assert change["table"] == {} and any("headers.first" in e["path"] for e in change["structural"]["page_layout"])


def test_a_columns_new_width_is_said_once_not_per_cell(report):
    """set_column_width changes every cell's width in the column with it: the column's width is the change; a cell
    text edited in the same call comes first in the summary."""
    before = extract_state(report)
    execute(report, "set_column_width", {"table": "t1", "col": 1, "width": "5cm"})
    change = analyze_change(before, extract_state(report))["table"]["tables"][0]
    assert set(change) == {"table", "column_widths_cm"}
    summary = summarize_change({**analyze_change(before, before), "table": {"tables": [{"table": "t1", "cells_changed": [
        {"row": r, "col": 1, "format": {"shading": [None, "FFFF00"]}} for r in range(12)] + [
        {"row": 3, "col": 2, "before": "98", "after": "99"}]}]}}).splitlines()
    assert summary[0] == "table t1 cell (3,2): '98' -> '99'" and len(summary) == 13
