"""format_style_editing APIs: effects checked through the document state (and the XML where the state is
silent), schema order, Chinese fonts, refusals; one LibreOffice render of lists and formatted text."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest

from autodw.apis import execute
from autodw.apis.ooxml.looks import Looks
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError
from autodw.analysis.state import extract_state
from autodw.core.xml import qn
from tests.conftest import EXAMPLES, assert_word_opens, make_doc, open_corpus
from tests.schema_order import assert_schema_order
from tests.test_apis_content_modification import _para, _unchanged, zh  # noqa: F401 (zh is a fixture)

def _style(state, name):
    return next(s for s in state["styles"]["styles"] if s["name"] == name)


def _assert_schema_order(doc):
    """Every pPr/rPr/style child sequence of the body and the styles is in python-docx's declared order."""
    assert_schema_order((doc.part._element, doc.docx.styles.element))


# --- set_text_format / clear_text_format -------------------------------------------------


def test_set_text_format_on_span_across_runs_changes_only_given_properties(report):
    execute(report, "set_text_format", {"paragraphs": "p2", "span": {"match": "year. Revenue"}, "italic": True,
                                        "color": "red", "size_pt": 10.5})
    runs = _para(extract_state(report), "p2")["runs"]
    assert runs[0] == {"text": "This report summarises sales for the first three quarters of the "}
    assert runs[1] == {"text": "year. ", "italic": True, "color": "FF0000", "size_pt": 10.5}
    assert runs[2] == {"text": "Revenue", "bold": True, "italic": True, "color": "FF0000", "size_pt": 10.5}
    assert runs[3] == {"text": " grew in every region.", "bold": True}
    execute(report, "set_text_format", {"paragraphs": "p2", "bold": False, "underline": "double", "strike": True,
                                        "superscript": True, "all_caps": True, "small_caps": False, "highlight": "yellow",
                                        "font": "Arial"})
    for run in _para(extract_state(report), "p2")["runs"]:  # not bold: no style makes it bold, so nothing says so
        assert "bold" not in run and run["underline"] == "double" and run["strike"] and run["superscript"]
        assert run["all_caps"] and "small_caps" not in run and run["highlight"] == "yellow" and run["font"] == "Arial"
    execute(report, "set_text_format", {"paragraphs": "p2", "superscript": False, "highlight": "none", "underline": "none",
                                        "color": "none"})
    run = _para(extract_state(report), "p2")["runs"][0]
    assert "superscript" not in run and "highlight" not in run and "underline" not in run and "color" not in run
    assert report.find("p2").find(f".//{qn('w:color')}") is None  # the red is gone, not painted over
    _assert_schema_order(report)


def test_the_description_says_underline_is_removed_with_none_not_false(report):
    """It said "false turns a property off", but underline takes a style name and refuses false."""
    from autodw.apis import registry
    spec = registry().get("set_text_format")
    assert "false turns a property off" not in spec.description
    assert '"none" removes an underline' in spec.description and '"none" (not false)' in spec.parameters["properties"]["underline"]["description"]
    _unchanged(report, "set_text_format", {"paragraphs": "p2", "underline": False}, match="none")


def test_colour_none_gives_a_heading_its_styles_colour_back(report):
    heading = next(p for p in extract_state(report)["paragraphs"] if p["style"].startswith("Heading"))
    execute(report, "set_text_format", {"paragraphs": heading["id"], "color": "00B050"})
    assert _para(extract_state(report), heading["id"])["runs"][0]["color"] == "00B050"
    execute(report, "set_text_format", {"paragraphs": heading["id"], "color": "none"})
    assert _para(extract_state(report), heading["id"])["runs"] == heading["runs"]  # as the style has it again
    assert report.find(heading["id"]).find(f".//{qn('w:color')}") is None


def test_colour_auto_is_words_automatic_over_the_styles_colour(report):
    heading = next(p for p in extract_state(report)["paragraphs"] if p["style"].startswith("Heading"))

    def colour():
        p = report.find(heading["id"])
        return Looks(report).of(p.find(qn("w:r")), p).get("color")
    assert colour() not in (None, "000000")  # the style colours it ("none" would leave that colour)
    execute(report, "set_text_format", {"paragraphs": heading["id"], "color": "auto"})
    assert colour() is None  # automatic: black on a light page
    assert report.find(heading["id"]).find(f".//{qn('w:color')}").get(qn("w:val")) == "auto"
    _assert_schema_order(report)


def test_set_text_format_whole_paragraph_table_and_list_mark(report):
    execute(report, "set_text_format", {"paragraphs": ["t1", "p34"], "bold": True})
    state = extract_state(report)
    assert all(p["runs"][0].get("bold") for row in state["tables"][0]["cell_details"] for c in row for p in c["paragraphs"])
    mark = report.find("p34").find(f"{qn('w:pPr')}/{qn('w:rPr')}/{qn('w:b')}")
    assert mark is not None  # the list number is bold too


def test_set_text_format_refusals(report):
    _unchanged(report, "set_text_format", {"paragraphs": "p2"}, match="at least one property")
    _unchanged(report, "set_text_format", {"paragraphs": "p2", "superscript": True, "subscript": True}, match="both")
    _unchanged(report, "set_text_format", {"paragraphs": ["p2", "p9999"], "bold": True}, match="p9999")
    _unchanged(report, "set_text_format", {"paragraphs": "p2", "span": {"match": "zebra"}, "bold": True}, match="does not occur")
    _unchanged(report, "set_text_format", {"paragraphs": "p2", "size_pt": 0}, match="size_pt")
    _unchanged(report, "set_text_format", {"paragraphs": "p2", "color": "bluish"}, match="color")


def test_format_matches_sets_only_the_matched_characters_everywhere():
    doc = WordDocument.open(EXAMPLES / "notes.docx")
    result = execute(doc, "format_matches", {"find": r"\[[0-9]+\]", "regex": True, "superscript": True})
    assert "4 occurrence(s)" in result.message
    runs = _para(extract_state(doc), "p2")["runs"]
    assert [(r["text"], r.get("superscript", False)) for r in runs] == [
        ("Attendance was higher than last year ", False), ("[1]", True), (" and the budget grew again ", False),
        ("[2]", True), (".", False)]
    assert all(bool(r.get("superscript")) == (r["text"] in ("[1]", "[2]"))
               for r in _para(extract_state(doc), "p16")["runs"])
    _assert_schema_order(doc)


def test_format_matches_is_one_call_where_set_text_format_needs_one_per_occurrence():
    """The plan length it saves: the same state as a set_text_format span per occurrence (4 calls -> 1)."""
    one, many = WordDocument.open(EXAMPLES / "notes.docx"), WordDocument.open(EXAMPLES / "notes.docx")
    execute(one, "format_matches", {"find": r"\[[0-9]+\]", "regex": True, "superscript": True})
    for pid, match in (("p2", "[1]"), ("p2", "[2]"), ("p16", "[1]"), ("p16", "[2]")):
        execute(many, "set_text_format", {"paragraphs": pid, "span": {"match": match}, "superscript": True})
    assert extract_state(one) == extract_state(many)


def test_format_matches_search_options_and_refusals(report):
    execute(report, "format_matches", {"find": "REGION", "match_case": False, "whole_word": True, "bold": True,
                                       "paragraphs": ["p2"]})
    assert all(not r.get("bold") or "region" in r["text"].lower() or "Revenue" in r["text"]
               for r in _para(extract_state(report), "p2")["runs"])
    _unchanged(report, "format_matches", {"find": "region"}, match="at least one property")
    _unchanged(report, "format_matches", {"find": "no such words", "bold": True}, match="was not found in the body")
    _unchanged(report, "format_matches", {"find": "REVENUE", "bold": True}, match="set match_case false")
    _unchanged(report, "format_matches", {"find": "(", "regex": True, "bold": True}, match="invalid regular expression")


def test_format_matches_selects_text_by_how_it_looks_styles_included(report):
    before = extract_state(report)
    headings = [p["id"] for p in before["paragraphs"] if (p.get("style") or "").startswith("Heading")]
    result = execute(report, "format_matches", {"having": {"bold": True, "color": "365F91"}, "color": "C00000"})
    after = extract_state(report)
    recoloured = {p["id"] for p in after["paragraphs"] if any(r.get("color") == "C00000" for r in p["runs"])}
    assert recoloured and recoloured <= set(headings), result.message  # the heading style's blue, bold text
    assert _para(after, "p2")["runs"] == _para(before, "p2")["runs"]  # body text untouched
    execute(report, "format_matches", {"find": "region", "having": {"bold": True}, "italic": True})
    assert [r["text"] for r in _para(extract_state(report), "p2")["runs"] if r.get("italic")] == ["region"]


def test_format_matches_says_which_formatting_the_text_has(report):
    _unchanged(report, "format_matches", {"having": {"font": "Comic Sans MS"}, "bold": True},
               match="no text in the body has font=Comic Sans MS; font values there: .*Calibri")
    _unchanged(report, "format_matches", {"bold": True}, match="give find .*having")


def test_set_text_format_chinese_east_asia_font_with_hint(zh):
    execute(zh, "set_text_format", {"paragraphs": "p5", "span": {"match": "软件开发"}, "east_asia_font": "黑体", "bold": True})
    runs = _para(extract_state(zh), "p5")["runs"]
    assert runs[1] == {"text": "软件开发", "east_asia_font": "黑体", "bold": True}
    fonts = [r for r in zh.find("p5").iter(qn("w:rFonts"))]
    assert len(fonts) == 1 and fonts[0].get(qn("w:hint")) == "eastAsia" and fonts[0].get(qn("w:ascii")) is None


def test_clear_text_format(report):
    execute(report, "insert_hyperlink", {"paragraph": "p2", "text": " (more)", "url": "https://example.com"})
    execute(report, "set_text_format", {"paragraphs": "p2", "color": "blue"})
    execute(report, "clear_text_format", {"paragraphs": "p2", "span": {"match": "Revenue grew"}})
    runs = _para(extract_state(report), "p2")["runs"]
    assert {"text": "Revenue grew"} in runs and runs[0]["color"] == "0070C0"
    execute(report, "clear_text_format", {"paragraphs": "p2"})
    runs = _para(extract_state(report), "p2")["runs"]
    assert [set(r) for r in runs] == [{"text"}, {"text", "hyperlink", "style"}]
    assert runs[1]["style"] == "Hyperlink"


# --- paragraph formatting -----------------------------------------------------------------


def test_set_paragraph_format(report):
    execute(report, "set_paragraph_format", {"paragraphs": ["p2", "p39"], "alignment": "justify", "space_before": "6pt",
                                             "space_after": "12pt", "line_spacing": 1.5, "left_indent": "1cm",
                                             "right_indent": "0.5cm", "first_line_indent": "0.75cm",
                                             "keep_together": True, "page_break_before": True})
    p = _para(extract_state(report), "p39")
    assert p["alignment"] == "justify" and p["keep_together"] and p["page_break_before"]
    assert p["spacing"] == {"before_pt": 6.0, "after_pt": 12.0, "line": 1.5, "line_rule": "multiple"}
    assert p["indent"] == {"left_cm": 1.0, "right_cm": 0.5, "first_line_cm": 0.75}
    execute(report, "set_paragraph_format", {"paragraphs": "p39", "hanging_indent": "1cm", "line_height": "18pt"})
    p = _para(extract_state(report), "p39")
    assert p["indent"] == {"left_cm": 1.0, "right_cm": 0.5, "hanging_cm": 1.0}
    assert p["spacing"]["line"] == 18.0 and p["spacing"]["line_rule"] == "exactly"
    execute(report, "set_paragraph_format", {"paragraphs": "p3", "keep_with_next": False, "alignment": "center"})
    keep = report.find("p3").find(f"{qn('w:pPr')}/{qn('w:keepNext')}")
    assert keep.get(qn("w:val")) == "0"  # overrides the heading style's keep-with-next
    execute(report, "set_paragraph_format", {"paragraphs": "t1", "alignment": "right"})
    assert _para(extract_state(report), "p14")["alignment"] == "right"
    _assert_schema_order(report)


def test_set_paragraph_format_refusals(report):
    _unchanged(report, "set_paragraph_format", {"paragraphs": "p2"}, match="at least one property")
    _unchanged(report, "set_paragraph_format", {"paragraphs": "p2", "line_spacing": 2, "line_height": "12pt"}, match="not both")
    _unchanged(report, "set_paragraph_format", {"paragraphs": "p2", "first_line_indent": "1cm", "hanging_indent": "1cm"},
               match="exclude")
    _unchanged(report, "set_paragraph_format", {"paragraphs": "p2", "left_indent": "2 cm"}, match="left_indent")


def test_first_line_chars_for_chinese(zh):
    execute(zh, "set_paragraph_format", {"paragraphs": ["p5"], "first_line_chars": 2})
    ind = zh.find("p5").find(f"{qn('w:pPr')}/{qn('w:ind')}")
    assert ind.get(qn("w:firstLineChars")) == "200" and ind.get(qn("w:firstLine")) == "440"  # 2 x 11pt
    assert _para(extract_state(zh), "p5")["indent"] == {"first_line_cm": 0.78, "first_line_chars": 2.0}


def test_paragraph_shading_and_border(report):
    execute(report, "set_paragraph_shading", {"paragraphs": ["p39", "p8"], "fill": "D9E2F3"})
    assert _para(extract_state(report), "p8")["shading"] == "D9E2F3"
    execute(report, "set_paragraph_shading", {"paragraphs": "p8", "fill": "none"})
    assert "shading" not in _para(extract_state(report), "p8")
    execute(report, "set_paragraph_border", {"paragraphs": ["p39"], "sides": ["box", "between"], "size_pt": 1.5, "color": "navy"})
    border = _para(extract_state(report), "p39")["border"]
    assert sorted(border) == ["between", "bottom", "left", "right", "top"]
    assert border["top"] == {"style": "single", "width_pt": 1.5, "color": "000080", "space_pt": 1.0}
    top = report.find("p39").find(f"{qn('w:pPr')}/{qn('w:pBdr')}/{qn('w:top')}")
    assert (top.get(qn("w:val")), top.get(qn("w:sz")), top.get(qn("w:color"))) == ("single", "12", "000080")
    execute(report, "set_paragraph_border", {"paragraphs": "p39", "sides": ["left", "right", "between"], "style": "none"})
    assert sorted(_para(extract_state(report), "p39")["border"]) == ["bottom", "top"]
    execute(report, "set_paragraph_border", {"paragraphs": "p39", "sides": ["box"], "style": "none"})
    assert "border" not in _para(extract_state(report), "p39")
    _assert_schema_order(report)


def test_a_border_restyled_keeps_what_the_call_does_not_give(report):
    """Restyling a box keeps its width, colour and distance from the text when the call gives none (they were reset
    to 0.5 pt and 1/4 pt: a 0.75 pt frame box spaced 1 pt became 0.5 pt spaced 4 pt at the sides); a side without a
    line gets the defaults; a side a style draws keeps the style's line; `sides` may be one name. Word opens it."""
    before, doc = open_corpus("docx4j__LegacyForms.docx")  # p5: a frame boxed single, 0.75 pt, 1 pt from the text
    execute(doc, "set_paragraph_border", {"paragraphs": "p5", "sides": "box", "style": "double"})
    border = _para(extract_state(doc), "p5")["border"]
    assert [border[s] for s in ("top", "left")] == [{"style": "double", "width_pt": 0.75, "space_pt": 1.0}] * 2
    execute(doc, "set_paragraph_border", {"paragraphs": "p5", "sides": ["left", "between"], "color": "red"})
    border = _para(extract_state(doc), "p5")["border"]
    assert border["left"] == {"style": "double", "width_pt": 0.75, "color": "FF0000", "space_pt": 1.0}
    assert border["between"] == {"style": "single", "width_pt": 0.5, "color": "FF0000", "space_pt": 1.0}
    assert_word_opens(before, doc)
    bottom = _style(extract_state(report), "Title")["border"]["bottom"]  # Title's line below, from its style
    execute(report, "set_paragraph_border", {"paragraphs": "p1", "sides": "bottom", "color": "red"})
    assert _para(extract_state(report), "p1")["border"]["bottom"] == {**bottom, "color": "FF0000"}


def test_removing_a_border_the_style_draws(report):
    """style "none" on a side the paragraph's style draws (Title: a line below) takes the line away with w:val="nil",
    as Word does (it deleted direct sides only: "removed" and nothing changed); a side neither draws is left unset, and
    the judge sees the result as Word's."""
    from autodw.eval.judge import judge

    title = lambda: report.find("p1").find(f"{qn('w:pPr')}/{qn('w:pBdr')}")  # noqa: E731
    assert title() is None and _style(extract_state(report), "Title")["border"]["bottom"]["style"] == "single"
    word = WordDocument.from_bytes(report.to_bytes(), name="word.docx")
    pbdr = word.find("p1").find(qn("w:pPr")).makeelement(qn("w:pBdr"), {})
    pbdr.append(pbdr.makeelement(qn("w:bottom"), {qn("w:val"): "nil"}))
    word.find("p1").find(qn("w:pPr")).insert(1, pbdr)
    execute(report, "set_paragraph_border", {"paragraphs": "p1", "sides": ["box"], "style": "none"})
    assert [(side.tag, side.get(qn("w:val"))) for side in title()] == [(qn("w:bottom"), "nil")]
    assert judge(word, WordDocument.from_bytes(report.to_bytes(), name="api.docx")).equivalent
    execute(report, "set_paragraph_border", {"paragraphs": "p1", "sides": ["bottom"], "style": "double"})
    execute(report, "set_paragraph_border", {"paragraphs": "p1", "sides": ["bottom"], "style": "none"})
    assert [(side.tag, side.get(qn("w:val"))) for side in title()] == [(qn("w:bottom"), "nil")]
    _assert_schema_order(report)


def test_set_tab_stops(report):
    execute(report, "set_tab_stops", {"paragraphs": "p39", "stops": [{"position": "15cm", "alignment": "right", "leader": "dot"},
                                                                     {"position": "8cm", "alignment": "center"}]})
    tabs = report.find("p39").find(f"{qn('w:pPr')}/{qn('w:tabs')}")
    assert [(t.get(qn("w:val")), t.get(qn("w:pos")), t.get(qn("w:leader"))) for t in tabs] == \
        [("center", "4535", None), ("right", "8504", "dot")]
    execute(report, "set_tab_stops", {"paragraphs": "p39", "stops": [{"position": "8cm", "alignment": "decimal"}],
                                      "clear_existing": False})
    assert [t.get(qn("w:val")) for t in tabs] == ["decimal", "right"]
    execute(report, "set_tab_stops", {"paragraphs": "p39", "stops": []})
    assert report.find("p39").find(f"{qn('w:pPr')}/{qn('w:tabs')}") is None
    _assert_schema_order(report)


# --- styles ---------------------------------------------------------------------------------


def test_apply_paragraph_and_character_styles(report):
    execute(report, "apply_style", {"paragraphs": ["p8", "p31"], "style": "Quote"})
    execute(report, "apply_style", {"paragraphs": "p2", "style": "Strong", "span": {"match": "three quarters"}})
    state = extract_state(report)
    assert _para(state, "p8")["style"] == "Quote" and _para(state, "p31")["style"] == "Quote"
    assert {"text": "three quarters", "style": "Strong"} in _para(state, "p2")["runs"]
    _unchanged(report, "apply_style", {"paragraphs": "p2", "style": "Fancy"}, match="no style 'Fancy'.*Heading 1")
    execute(report, "create_style", {"name": "Memo", "kind": "paragraph", "italic": True})  # no linked style
    _unchanged(report, "apply_style", {"paragraphs": "p2", "style": "Memo", "span": {"match": "three"}},
               match="'Memo' is a paragraph style, not a character style; text within a paragraph")
    # as in Word, a paragraph style given for part of a paragraph is its linked character style
    execute(report, "apply_style", {"paragraphs": "p2", "style": "Heading 1", "span": {"match": "three"}})
    assert {"text": "three", "style": "Heading 1 Char"} in _para(extract_state(report), "p2")["runs"]


def test_apply_builtin_style_missing_from_document():
    doc = make_doc(lambda d: d.add_paragraph("plain"))
    styles = doc.docx.styles.element
    for s in list(styles.iterchildren(qn("w:style"))):
        if s.get(qn("w:styleId")) == "Heading2":
            styles.remove(s)
    pid = doc.ids("p")[0]
    execute(doc, "apply_style", {"paragraphs": pid, "style": "Heading 2"})
    assert extract_state(doc)["paragraphs"][0]["style"] == "Heading 2"


def test_word_s_character_and_quote_styles_are_added_when_missing():
    """apply_style's own example "Strong" (and Emphasis, Subtle/Intense Emphasis and Reference, Book Title, Quote,
    Intense Quote) on a document defining none of them adds Word's built-in definition; Word opens the result."""
    before, doc = open_corpus("docx4j__LegacyForms.docx")  # styles: Normal, Default Paragraph Font, and no other
    execute(doc, "apply_style", {"paragraphs": "p1", "style": "Strong", "span": {"match": "Legacy"}})
    execute(doc, "apply_style", {"paragraphs": "p1", "style": "Emphasis", "span": {"match": "Forms"}})
    execute(doc, "apply_style", {"paragraphs": "p10", "style": "Intense Quote"})
    for name in ("Subtle Emphasis", "Intense Emphasis", "Subtle Reference", "Intense Reference"):  # each replaces the last
        execute(doc, "apply_style", {"paragraphs": "p2", "style": name, "span": {"match": "form"}})
    execute(doc, "apply_style", {"paragraphs": "p4", "style": "Book Title", "span": {"match": "Drop"}})
    execute(doc, "apply_style", {"paragraphs": "p3", "style": "Quote"})
    state = extract_state(doc)
    assert {"text": "Legacy", "style": "Strong"} in _para(state, "p1")["runs"]
    assert {"text": "Forms", "style": "Emphasis"} in _para(state, "p1")["runs"]
    assert [_para(state, p)["style"] for p in ("p3", "p10")] == ["Quote", "Intense Quote"]
    assert _style(state, "Strong")["bold"] and _style(state, "Emphasis")["italic"]
    assert {"text": "form", "style": "Intense Reference"} in _para(state, "p2")["runs"]
    assert _style(state, "Book Title")["small_caps"] and _style(state, "Intense Quote")["indent"]["left_cm"] > 0
    assert_word_opens(before, doc)


def test_create_style_chinese_and_apply(zh):
    res = execute(zh, "create_style", {"name": "正文缩进", "font": "Times New Roman", "east_asia_font": "宋体", "size_pt": 12,
                                       "first_line_chars": 2, "line_spacing": 1.5, "apply_to": ["p5", "p7"]})
    assert "正文缩进" in res.message
    state = extract_state(zh)
    assert _para(state, "p5")["style"] == "正文缩进"
    style = _style(state, "正文缩进")
    assert style == {**style, "font": "Times New Roman", "east_asia_font": "宋体", "size_pt": 12.0, "based_on": "Normal"}
    sid = style["id"]
    el = next(s for s in zh.docx.styles.element.iterchildren(qn("w:style")) if s.get(qn("w:styleId")) == sid)
    assert el.find(f"{qn('w:pPr')}/{qn('w:ind')}").get(qn("w:firstLine")) == "480"  # 2 characters of 12pt
    _unchanged(zh, "create_style", {"name": "正文缩进", "bold": True, "apply_to": ["p2"]}, match="already exists")
    _unchanged(zh, "create_style", {"name": "Heading 1", "apply_to": ["p2"]}, match="already exists")
    _assert_schema_order(zh)


def test_create_character_and_table_styles(report):
    execute(report, "create_style", {"name": "Code", "kind": "character", "font": "Courier New", "apply_to": ["p8"]})
    assert all(r.get("style") == "Code" for r in _para(extract_state(report), "p8")["runs"])
    execute(report, "create_style", {"name": "Plain Table", "kind": "table", "based_on": "Table Grid", "size_pt": 9,
                                     "apply_to": ["t1"]})
    state = extract_state(report)
    assert state["tables"][0]["style"] == "Plain Table" and _style(state, "Plain Table")["based_on"] == "Table Grid"
    _unchanged(report, "create_style", {"name": "Bad", "kind": "character", "alignment": "center"}, match="paragraph properties")
    _unchanged(report, "create_style", {"name": "Bad", "kind": "table", "apply_to": ["p2"]}, match="table")
    _unchanged(report, "create_style", {"name": "Bad", "based_on": "Nope"}, match="no style 'Nope'")
    ids = [s.get(qn("w:styleId")) for s in report.docx.styles.element.iterchildren(qn("w:style"))]
    execute(report, "create_style", {"name": "Code!", "kind": "character", "bold": True, "apply_to": ["p31"]})
    new_ids = [s.get(qn("w:styleId")) for s in report.docx.styles.element.iterchildren(qn("w:style"))]
    assert set(new_ids) - set(ids) == {"Code1"}


def test_modify_style(report):
    execute(report, "modify_style", {"name": "Heading 1", "color": "C00000", "size_pt": 16, "font": "Arial", "italic": True,
                                     "space_after": "6pt", "alignment": "center"})
    style = _style(extract_state(report), "Heading 1")
    assert (style["color"], style["size_pt"], style["font"], style["italic"]) == ("C00000", 16.0, "Arial", True)
    el = next(s for s in report.docx.styles.element.iterchildren(qn("w:style")) if s.get(qn("w:styleId")) == "Heading1")
    fonts = el.find(f"{qn('w:rPr')}/{qn('w:rFonts')}")
    assert fonts.get(qn("w:asciiTheme")) is None  # the theme font would override Arial
    assert el.find(f"{qn('w:pPr')}/{qn('w:jc')}").get(qn("w:val")) == "center"
    execute(report, "modify_style", {"name": "List Bullet", "based_on": "Quote"})
    assert _style(extract_state(report), "List Bullet")["based_on"] == "Quote"
    _unchanged(report, "modify_style", {"name": "Normal", "based_on": "Heading 1"}, match="loop")
    _unchanged(report, "modify_style", {"name": "Strong", "alignment": "center"}, match="paragraph properties")
    _unchanged(report, "modify_style", {"name": "Heading 1"}, match="at least one")
    _assert_schema_order(report)


def test_modify_style_chinese(zh):
    execute(zh, "modify_style", {"name": "Heading 1", "east_asia_font": "黑体", "bold": False})
    style = _style(extract_state(zh), "Heading 1")
    assert style["east_asia_font"] == "黑体" and style["bold"] is False


def _definitions(doc, style_id):
    return [s for s in doc.docx.styles.element.iterchildren(qn("w:style")) if s.get(qn("w:styleId")) == style_id]


def test_modify_style_changes_every_definition_of_a_style_defined_twice():
    """The handbook's styles.xml defines Heading1 (and Normal) twice: Word reads the first, the change went to the
    first and the state read the last, so "modified" changed nothing a reader saw. Now every definition changes."""
    before, doc = open_corpus("unstructured__handbook-872p.docx")
    assert len(_definitions(doc, "Heading1")) == 2
    execute(doc, "modify_style", {"name": "Heading 1", "color": "1F3864", "based_on": "Normal"})
    assert _style(extract_state(doc), "Heading 1")["color"] == "1F3864"
    assert [d.find(f"{qn('w:rPr')}/{qn('w:color')}").get(qn("w:val")) for d in _definitions(doc, "Heading1")] == ["1F3864"] * 2
    execute(doc, "set_default_font", {"size_pt": 11})  # the second Normal sets 12pt: it goes too
    assert [d.find(f"{qn('w:rPr')}/{qn('w:sz')}") for d in _definitions(doc, "Normal")] == [None, None]
    assert extract_state(doc)["styles"]["defaults"]["size_pt"] == 11.0
    assert_word_opens(before, doc)


def test_set_default_font(report, zh):
    res = execute(report, "set_default_font", {"font": "Georgia", "size_pt": 12})
    assert "Normal style" in res.message
    state = extract_state(report)
    assert state["styles"]["defaults"] == {"font": "Georgia", "size_pt": 12.0,
                                           "theme_fonts": {"major": "Calibri", "minor": "Cambria"}}  # theme unchanged
    assert "font" not in _style(state, "Normal") and "size_pt" not in _style(state, "Normal")
    execute(zh, "set_default_font", {"east_asia_font": "宋体"})
    assert extract_state(zh)["styles"]["defaults"]["east_asia_font"] == "宋体"
    _unchanged(zh, "set_default_font", {}, match="at least one")


def test_set_default_font_back_to_the_themes_font():
    """set_default_font could not set the font back to the theme's (a literal name stays when the theme changes):
    "theme", "theme:headings" or Word's "Cambria (Body)" write w:asciiTheme/w:hAnsiTheme (the East Asian and
    complex-script theme slots follow where the document had them); a plain name stays that font."""
    data, doc = open_corpus("mailmerge__test_macword2011.docx")  # theme: Cambria body, Calibri headings

    def fonts():
        return doc.part.styles.element.find(f"{qn('w:docDefaults')}/{qn('w:rPrDefault')}/{qn('w:rPr')}/{qn('w:rFonts')}")

    execute(doc, "set_default_font", {"font": "Georgia"})
    for value, kind in (("theme", "minor"), ("theme:headings", "major"), ("Cambria (Body)", "minor"),
                        ("Calibri (Headings)", "major"), ("theme:minorHAnsi", "minor")):
        execute(doc, "set_default_font", {"font": value})
        attrs = {k.split("}")[1]: v for k, v in fonts().attrib.items()}
        assert attrs == {"asciiTheme": f"{kind}HAnsi", "hAnsiTheme": f"{kind}HAnsi", "eastAsiaTheme": f"{kind}EastAsia",
                         "cstheme": f"{kind}Bidi"}, value
        assert extract_state(doc)["styles"]["defaults"]["font"] == f"theme:{kind}HAnsi"
    assert_word_opens(data, doc)
    _unchanged(doc, "set_default_font", {"font": "Calibri (Body)"}, match="body font is Cambria")
    execute(doc, "set_default_font", {"font": "Cambria"})
    assert extract_state(doc)["styles"]["defaults"]["font"] == "Cambria"


# --- lists ----------------------------------------------------------------------------------


def _list(state, pid):
    return _para(state, pid).get("list")


def test_set_list_format_bullets_to_numbers_and_continue(report):
    execute(report, "set_list_format", {"paragraphs": ["p4", "p5", "p6"], "kind": "numbered"})
    state = extract_state(report)
    lists = [_list(state, p) for p in ("p4", "p5", "p6")]
    assert all(x["kind"] == "numbered" and x["level"] == 0 for x in lists) and len({x["num_id"] for x in lists}) == 1
    # List Bullet items made numbered take the document's numbered list style, numbered afresh
    assert {_para(state, p)["style"] for p in ("p4", "p5", "p6")} == {"List Number"}
    assert [x["label"] for x in lists] == ["1.", "2.", "3."]
    assert _list(state, "p34")["label"] == "1."  # a copy of the style's numbering: the later list does not go on from it
    new = execute(report, "insert_paragraph", {"text": "Fourth point", "position": {"after": "p6"}}).created[0]
    execute(report, "set_list_format", {"paragraphs": new, "kind": "numbered"})
    state = extract_state(report)
    assert _list(state, new)["num_id"] == lists[0]["num_id"] and _para(state, new)["style"] == "List Number"
    execute(report, "set_list_format", {"paragraphs": "p5", "level": 1})
    assert _list(extract_state(report), "p5")["level"] == 1
    _assert_schema_order(report)


def test_set_list_format_new_list_restart_and_formats(report):
    execute(report, "set_list_format", {"paragraphs": ["p39"], "kind": "bullet"})
    assert _list(extract_state(report), "p39")["kind"] == "bullet"
    res = execute(report, "set_list_format", {"paragraphs": "p35", "restart": True, "start": 5})
    assert "restarts at 5" in res.message
    state = extract_state(report)
    assert _list(state, "p34")["num_id"] != _list(state, "p35")["num_id"] == _list(state, "p36")["num_id"]
    num = _list(state, "p35")["num_id"]
    numbering = report.part.numbering_part.element
    inst = next(n for n in numbering.iterchildren(qn("w:num")) if n.get(qn("w:numId")) == str(num))
    assert inst.find(f"{qn('w:lvlOverride')}/{qn('w:startOverride')}").get(qn("w:val")) == "5"
    execute(report, "set_list_format", {"paragraphs": ["p8"], "kind": "numbered", "number_format": "upperRoman"})
    assert _list(extract_state(report), "p8")["format"] == "upperRoman"


def test_set_list_format_refusals(report):
    _unchanged(report, "set_list_format", {"paragraphs": "p8", "level": 1}, match="not a list item")
    _unchanged(report, "set_list_format", {"paragraphs": "p8"}, match="give kind")
    _unchanged(report, "set_list_format", {"paragraphs": "p4", "restart": True}, match="bullets")
    _unchanged(report, "set_list_format", {"paragraphs": "p4", "kind": "bullet", "number_format": "decimal"}, match="numbered")


def test_a_list_linked_to_a_numbering_style_is_known_by_that_styles_levels(report):
    """A definition that only links to a numbering style (``w:numStyleLink``, as Word writes a list style's lists)
    has the levels of the list that style uses: here bullets, so they are kept as bullets and not restarted."""
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    numbering = report.part.numbering_part.element
    bullets = next(n.get(qn("w:numId")) for n in numbering.iterchildren(qn("w:num"))
                   if _list(extract_state(report), "p4")["num_id"] == int(n.get(qn("w:numId"))))
    report.part.styles.element.append(parse_xml(
        f'<w:style {nsdecls("w")} w:type="numbering" w:styleId="Ticks"><w:name w:val="Ticks"/>'
        f'<w:pPr><w:numPr><w:numId w:val="{bullets}"/></w:numPr></w:pPr></w:style>'))
    first_num = numbering.find(qn("w:num"))
    first_num.addprevious(parse_xml(f'<w:abstractNum {nsdecls("w")} w:abstractNumId="90">'
                                    f'<w:numStyleLink w:val="Ticks"/></w:abstractNum>'))
    numbering.append(parse_xml(f'<w:num {nsdecls("w")} w:numId="90"><w:abstractNumId w:val="90"/></w:num>'))
    report.find("p8").get_or_add_pPr()._insert_numPr(
        parse_xml(f'<w:numPr {nsdecls("w")}><w:ilvl w:val="0"/><w:numId w:val="90"/></w:numPr>'))
    assert _list(extract_state(report), "p8")["kind"] == "bullet"
    _unchanged(report, "set_list_format", {"paragraphs": "p8", "restart": True}, match="bullets")
    execute(report, "set_list_format", {"paragraphs": "p8", "kind": "bullet"})
    assert _list(extract_state(report), "p8")["num_id"] == 90  # already a bullet: its list is kept


def test_restarting_a_list_whose_id_is_not_a_number(report):
    """A list instance id other files write as text (not schema-valid, but seen): restarting it works (it was cast to
    a number, an internal error)."""
    numbering = report.part.numbering_part.element
    num = _list(extract_state(report), "p34")["num_id"]
    for el in [*numbering.iterchildren(qn("w:num")), *report.body.iter(qn("w:numId")),
               *report.part.styles.element.iter(qn("w:numId"))]:
        for attr in (qn("w:numId"), qn("w:val")):
            if el.get(attr) == str(num):
                el.set(attr, "L1")
    result = execute(report, "set_list_format", {"paragraphs": "p35", "restart": True, "start": 3})
    assert "restarts at 3" in result.message
    assert _list(extract_state(report), "p35")["label"] == "3."


def test_restart_moves_every_named_item_of_the_list():
    """A Pages file puts the first sub-item (p8) in its own instance of the definition its siblings (p9, p10) use:
    restarting p8-p10 moves all three to the restarted list (it moved only p8, "1 paragraph(s)")."""
    _, doc = open_corpus("docx2python__created-in-pages-bulleted-lists.docx")
    result = execute(doc, "set_list_format", {"paragraphs": ["p8", "p9", "p10"], "restart": True})
    assert "3 paragraph(s)" in result.message
    state = extract_state(doc)
    assert len({_list(state, pid)["num_id"] for pid in ("p8", "p9", "p10")}) == 1
    assert [_list(state, pid)["label"] for pid in ("p4", "p5", "p6", "p8", "p9", "p10")] == ["A.", "B.", "C.", "A.", "B.", "C."]


def _sub_bullets() -> WordDocument:
    """A small document: "Fruit" a bullet, "Apple", "Pear", "Plum" bullets at level 1 (made with the APIs)."""
    doc = make_doc(lambda d: [d.add_paragraph(t) for t in ("Fruit", "Apple", "Pear", "Plum")])
    execute(doc, "set_list_format", {"paragraphs": ["p1", "p2", "p3", "p4"], "kind": "bullet"})
    execute(doc, "set_list_format", {"paragraphs": ["p2", "p3", "p4"], "level": 1})
    return doc


@pytest.mark.parametrize("level", [{}, {"level": 1}])
def test_number_format_below_the_top_level(level):
    """Level-1 bullets numbered in a format show that format at their level, their indent kept (they got the
    format's second-level style, 1., 2., 3., and the new list's level-1 indent)."""
    doc = _sub_bullets()
    before = doc.to_bytes()
    indents = [_list(extract_state(doc), pid)["indent"] for pid in ("p2", "p3", "p4")]
    execute(doc, "set_list_format", {"paragraphs": ["p2", "p3", "p4"], "kind": "numbered", "number_format": "upperLetter",
                                     **level})
    state = extract_state(doc)
    lists = [_list(state, pid) for pid in ("p2", "p3", "p4")]
    assert [x["label"] for x in lists] == ["A.", "B.", "C."] and {x["level"] for x in lists} == {1}
    assert [x["indent"] for x in lists] == indents and _list(state, "p1")["kind"] == "bullet"
    assert_word_opens(before, doc)


def test_number_format_alone_numbers_the_items():
    """number_format without kind means a numbered list (the description says so); it was refused as "give kind"."""
    doc = _sub_bullets()
    execute(doc, "set_list_format", {"paragraphs": ["p2", "p3", "p4"], "number_format": "lowerRoman"})
    assert [_list(extract_state(doc), pid)["label"] for pid in ("p2", "p3", "p4")] == ["i.", "ii.", "iii."]


def test_number_format_keeps_a_sub_levels_own_indent():
    """A Pages file's level-1 items indented 1.27 cm: a new number format keeps that indent (it moved to 2.54 cm)."""
    data, doc = open_corpus("docx2python__created-in-pages-bulleted-lists.docx")
    execute(doc, "set_list_format", {"paragraphs": ["p4", "p5", "p6"], "kind": "numbered", "number_format": "lowerRoman"})
    state = extract_state(doc)
    lists = [_list(state, pid) for pid in ("p4", "p5", "p6")]
    assert [x["label"] for x in lists] == ["i.", "ii.", "iii."] and {x["level"] for x in lists} == {1}
    assert {x["indent"]["left_cm"] for x in lists} == {1.27}
    execute(doc, "set_list_format", {"paragraphs": ["p8", "p9", "p10"], "kind": "bullet"})
    execute(doc, "set_list_format", {"paragraphs": ["p8", "p9", "p10"], "kind": "numbered", "number_format": "upperLetter"})
    assert [_list(extract_state(doc), pid)["label"] for pid in ("p8", "p9", "p10")] == ["A.", "B.", "C."]
    assert_word_opens(data, doc)


def test_number_text_changes_the_text_around_the_number():
    """set_list_format could change a list's number style only, not "1)" to "1." (Word's Define New Number Format,
    w:lvlText). number_text writes the items' level's lvlText, the number written as 1: in place when only they use
    that level of the list, in a list of their own when others share it; the state shows the new labels."""
    data, doc = open_corpus("docx4j__NumberingIndents-OUT.docx")
    before = extract_state(doc)
    assert [_list(before, pid)["label"] for pid in ("p14", "p15")] == ["1)", "a)"]
    execute(doc, "set_list_format", {"paragraphs": ["p14", "p15"], "number_text": "1."})
    state = extract_state(doc)
    assert [_list(state, pid)["label"] for pid in ("p14", "p15")] == ["1.", "a."]
    assert {_list(state, pid)["num_id"] for pid in ("p14", "p15")} == {_list(before, "p14")["num_id"]}
    assert [_list(state, pid)["label"] for pid in ("p2", "p3", "p4")] == ["1.", "2.", "a."]
    execute(doc, "set_list_format", {"paragraphs": ["p8", "p9"], "number_text": "(1)"})  # p10 is at level 1
    state = extract_state(doc)
    assert [_list(state, pid)["label"] for pid in ("p8", "p9", "p10")] == ["(1)", "(2)", "a."]
    execute(doc, "set_list_format", {"paragraphs": ["p2"], "number_text": "Step 1:"})  # p3 shares its level
    state = extract_state(doc)
    assert _list(state, "p2")["label"] == "Step 1:" and _list(state, "p3")["level_text"] == "%1."
    assert _list(state, "p2")["num_id"] != _list(state, "p3")["num_id"]
    assert_word_opens(data, doc)
    from autodw.apis.ooxml.numbering import level_text
    assert level_text("a)", 1, "lowerLetter") == "%2)" and level_text("%1.%2.", 1, "decimal") == "%1.%2."
    assert level_text("第1条", 0, "decimal") == "第%1条" and level_text("Article 1 -", 0, "decimal") == "Article %1 -"
    for bad in ("1.1", "No."):
        with pytest.raises(ArgumentError, match="number_text"):
            level_text(bad, 0, "decimal")
    _unchanged(doc, "set_list_format", {"paragraphs": ["p1"], "number_text": "1."}, match="not a list item")


def test_set_list_format_chinese_counting(zh):
    execute(zh, "set_list_format", {"paragraphs": ["p21", "p22", "p23"], "kind": "numbered", "number_format": "chineseCounting"})
    assert _list(extract_state(zh), "p22")["format"] == "chineseCounting"


def test_remove_list(report):
    execute(report, "remove_list", {"paragraphs": ["p4", "p5"]})
    state = extract_state(report)
    assert "list" not in _para(state, "p4") and _list(state, "p6")["kind"] == "bullet"
    last = execute(report, "insert_list", {"items": ["a", "b"], "position": "end", "kind": "numbered"}).created[-1]
    res = execute(report, "remove_list", {"paragraphs": [last, "p8"]})
    assert "p8 were not list items" in res.message
    state = extract_state(report)
    # the item took the document's List Number style, whose numbering is switched off (as Word does)
    assert "list" not in _para(state, last) and _para(state, last)["style"] == "List Number"
    _unchanged(report, "remove_list", {"paragraphs": ["p8", "p2"]}, match="not list items")


# --- copy_format ----------------------------------------------------------------------------


def test_copy_format(report):
    execute(report, "copy_format", {"source": "p2", "source_span": {"match": "Revenue"}, "targets": ["p31", "p39"], "what": "text"})
    state = extract_state(report)
    assert all(r.get("bold") for r in _para(state, "p31")["runs"]) and _para(state, "p31")["style"] == "Normal"
    execute(report, "copy_format", {"source": "p34", "targets": "p8"})
    state = extract_state(report)
    assert _para(state, "p8")["style"] == "List Number" and _list(state, "p8")["kind"] == "numbered"
    execute(report, "copy_format", {"source": "p39", "targets": "p37", "what": "paragraph"})
    assert _para(extract_state(report), "p37").get("ends_section")  # the section break stays
    _unchanged(report, "copy_format", {"source": "p2", "targets": ["p2"]}, match="itself")


# --- rendering ------------------------------------------------------------------------------


@pytest.mark.slow
def test_render_lists_and_formatted_text(report):
    from tests.rendering import render

    execute(report, "set_list_format", {"paragraphs": ["p4", "p5", "p6"], "kind": "numbered"})
    execute(report, "set_list_format", {"paragraphs": ["p34", "p35", "p36"], "kind": "bullet"})
    execute(report, "set_text_format", {"paragraphs": "p39", "italic": True, "font": "DejaVu Sans Mono", "size_pt": 9})
    execute(report, "create_style", {"name": "Key Point", "bold": True, "size_pt": 14, "apply_to": ["p31"]})
    execute(report, "set_paragraph_format", {"paragraphs": "p38", "alignment": "center"})
    out = render(report)
    lines = [" ".join(line.split()) for line in out.text.splitlines()]
    assert "1. North region exceeded its target by 12%.1" in lines or "1. North region exceeded its target by 12%." in lines
    assert "2. A new distribution partner joined in Q2." in lines
    assert "3. Customer satisfaction rose to 4.6 out of 5." in lines
    assert "\uf0b7 Review pricing." in lines  # the document's own List Bullet, in its Symbol-font bullet
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "out.pdf"
        pdf.write_bytes(out.pdf)
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "Oblique" in fonts or "Italic" in fonts
    raw = out.text.splitlines()
    heading = next(line for line in raw if "Appendix: Methodology" in line)
    assert len(heading) - len(heading.lstrip()) > 10  # centred


@pytest.mark.parametrize("api, args", [
    ("set_default_font", {"east_asia_font": "F" * 41}),
    ("set_default_font", {"font": "F" * 32}),
    ("set_text_format", {"paragraphs": "p1", "font": "F" * 32}),
    ("modify_style", {"name": "Normal", "font": "F" * 32}),
])
def test_a_font_name_longer_than_word_allows_is_refused(api, args):
    """Found by the API fuzz campaign (issue 49): a 41-character East Asian font name was written into the document
    defaults, and openxml-audit reported it (w:rFonts holds names of at most 31 characters)."""
    doc = WordDocument.open(EXAMPLES / "report.docx")
    before = doc.members(keep_ids=True)
    with pytest.raises(ArgumentError, match="at most 31"):
        execute(doc, api, args)
    assert doc.members(keep_ids=True) == before
    execute(doc, api, {**args, **{k: "F" * 31 for k in args if "font" in k}})  # 31 is allowed


MANUAL_ZH = Path(__file__).resolve().parents[1] / "autodw" / "dwbench" / "data" / "docs" / "manual-zh-1.docx"


def _own(doc, pid: str, tag: str) -> list[str | None]:
    """The w:val of each `tag` in paragraph `pid`'s runs and paragraph mark ("on" for one without a value)."""
    return [el.get(qn("w:val"), "on") for el in doc.find(pid, "p").iter(qn(tag))]


def test_turning_formatting_off_writes_an_off_value_only_where_a_style_turns_it_on():
    """Word's way: "not bold" on text no style makes bold removes the run's own bold and writes nothing; on a Heading
    1 (bold by its style) or a Strong word it writes w:b w:val="0"; the state and the judge read both as not bold."""
    from autodw.analysis.validation import added, validate_all
    from autodw.eval.judge import judge

    source = WordDocument.open(MANUAL_ZH)
    doc = WordDocument.open(MANUAL_ZH)
    execute(doc, "set_text_format", {"paragraphs": ["p9", "p10"], "bold": True, "italic": True, "underline": "single"})
    execute(doc, "set_text_format", {"paragraphs": ["p9", "p10"], "bold": False, "italic": False, "underline": "none"})
    assert [_own(doc, pid, tag) for pid in ("p9", "p10") for tag in ("w:b", "w:i", "w:u")] == [[]] * 6
    assert doc.find("p10", "p").find(qn("w:pPr")) is None  # no empty properties left behind
    assert judge(source, WordDocument.from_bytes(doc.to_bytes())).equivalent  # as it was: nothing says "not bold"
    execute(doc, "apply_style", {"paragraphs": "p12", "style": "Strong", "span": {"match": "冷水"}})
    execute(doc, "set_text_format", {"paragraphs": ["p8", "p12"], "bold": False})
    assert _own(doc, "p8", "w:b") == ["0", "0"]  # the heading's run and its mark: Heading 1 is bold
    assert _own(doc, "p12", "w:b") == ["0"]  # only the Strong run
    for p in (p for p in extract_state(doc)["paragraphs"] if p["id"] in ("p8", "p9", "p12")):
        assert not any(r.get("bold") for r in p["runs"])
    execute(doc, "set_table_properties", {"table": "t1", "style": "Light Shading"})  # its header row is bold
    execute(doc, "set_text_format", {"paragraphs": "t1", "bold": False})
    assert set(_own(doc, "p21", "w:b")) == {"0"}  # a table style's bold is kept off too
    original, edited = validate_all([MANUAL_ZH, doc.to_bytes(keep_ids=False)], workers=2)
    assert [f for f in added(original, edited) if f.is_error] == []
