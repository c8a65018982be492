"""The deterministic judge on formatting: sections, headers and footers, styles, bookmarks, theme fonts, borders,
cells, paragraph and character formatting resolved along the style chain, and the change-word table."""

from __future__ import annotations

import copy

import pytest
from lxml import etree
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.shared import Cm

from autodw.apis import execute
from autodw.core.document import WordDocument
from autodw.eval.judge import Difference, judge
from autodw.analysis.state import extract_state
from autodw.core.xml import W, parse, qn

from conftest import EXAMPLES, corpus_file, make_doc
from tests.judge_cases import REPORT, built, edited, heading_1, only


# --- sections, headers and footers, styles, bookmarks, theme fonts -----------------------------------------------


def _with_section_xml(*children: str) -> WordDocument:
    """The report with elements (WordprocessingML, ``w:`` prefix) added to its last section's properties."""
    from autodw.apis.ooxml.elements import insert_ordered

    doc = WordDocument.open(REPORT)
    sect = doc.body.find(qn("w:sectPr"))
    for child in children:
        insert_ordered(sect, parse(f'<w:x xmlns:w="{W}">{child}</w:x>')[0])
    return WordDocument.from_bytes(doc.to_bytes(), name="section.docx")


def test_page_borders_vertical_alignment_and_line_numbers():
    d = only(judge(REPORT, _with_section_xml(
        '<w:pgBorders w:offsetFrom="page"><w:top w:val="single" w:sz="12" w:space="24" w:color="FF0000"/></w:pgBorders>',
        '<w:lnNumType w:countBy="5"/>', '<w:vAlign w:val="center"/>')))
    assert d.where == "page setup of section 2"  # the report's last section
    assert d.what.startswith('vertical alignment: expected none, actual "center"; page borders: expected none, actual '
                             '{"top": {"style": "single", "width_pt": 1.5, "color": "FF0000", "space_pt": 24.0}, "measured_from": "page"}; '
                             'line numbering: expected none, actual {"count_by": 5'), d.what
    # what shows nothing: top alignment, borders of no line, line numbers counted by 0
    assert judge(REPORT, _with_section_xml('<w:pgBorders><w:top w:val="nil"/></w:pgBorders>', '<w:lnNumType w:countBy="0"/>',
                                           '<w:vAlign w:val="top"/>')).equivalent


def test_the_page_orientation():
    d = only(judge(REPORT, edited(REPORT, ("set_page_setup", {"section": 0, "orientation": "landscape"}))))
    assert d.where == "page setup of section 1"
    assert d.what.startswith('orientation: expected "portrait", actual "landscape"')


def _header_table(d) -> None:
    table = d.sections[0].header.add_table(1, 2, Cm(10))
    table.cell(0, 0).text, table.cell(0, 1).text = "Acme Ltd", "Confidential"


def _header_picture(d) -> None:
    d.sections[0].header.paragraphs[0].add_run().add_picture(str(EXAMPLES / "images" / "logo.png"), width=Cm(2))


def _header_link(url: str):
    def link(d) -> None:
        p = d.sections[0].header.paragraphs[0]
        rid = p.part.relate_to(url, RT.HYPERLINK, is_external=True)
        h = p._p.makeelement(qn("w:hyperlink"), {qn("r:id"): rid})
        run = h.makeelement(qn("w:r"), {})
        run.append(run.makeelement(qn("w:t"), {}))
        run[0].text = "acme.example.com"
        h.append(run)
        p._p.append(h)
    return link


def test_a_header_table_is_compared_as_a_body_table():
    """A header's table was only counted: a cell's text or bold changed in it was equivalent. The report's second
    section links to the first one's header, so each difference is named in both."""
    gold = built(_header_table)
    assert judge(gold, built(_header_table)).equivalent

    def public(d):
        d.sections[0].header.tables[0].cell(0, 1).paragraphs[0].runs[0].text = "Public"
    verdict = judge(gold, built(_header_table, public))
    assert [(d.where, d.what) for d in verdict.differences] == [
        (f'table 1 "Acme Ltd | Confidential" in header of section {n} row 1 cell 2 "Confidential"',
         'text: expected "Confidential", actual "Public"') for n in (1, 2)]

    def bold(d):
        d.sections[0].header.tables[0].cell(0, 0).paragraphs[0].runs[0].bold = True
    d = judge(gold, built(_header_table, bold)).differences[0]
    assert (d.where, d.what) == ('table 1 "Acme Ltd | Confidential" in header of section 1 row 1 cell 1 "Acme Ltd"',
                                 "bold: expected no, actual yes")
    assert judge(gold, REPORT).differences[0] == Difference(
        'table 1 "Acme Ltd | Confidential" in header of section 1', "missing: the table is absent from the actual document")


def test_a_header_picture_and_hyperlink_are_compared_as_the_body_ones():
    """A header's picture was only counted (three times larger: equivalent) and its hyperlinks not read at all."""
    gold = built(_header_picture, _header_link("https://acme.example.com"))
    assert judge(gold, built(_header_picture, _header_link("https://acme.example.com"))).equivalent

    def larger(d):
        inline = d.sections[0].header._element.xpath(".//wp:inline")[0]
        inline.extent.cx, inline.extent.cy = inline.extent.cx * 3, inline.extent.cy * 3
    d = judge(gold, built(_header_picture, _header_link("https://acme.example.com"), larger)).differences[0]
    assert d.where == "picture 1 in header of section 1" and d.what.startswith("width: expected 2 cm, actual 6 cm; height:")
    d = judge(gold, built(_header_picture, _header_link("https://evil.example.net"))).differences[0]
    assert (d.where, d.what) == ('hyperlink "acme.example.com" in header of section 1',
                                 'url: expected "https://acme.example.com", actual "https://evil.example.net"')


def test_a_header_text():
    actual = edited(REPORT, ("set_header_footer", {"section": 1, "where": "header", "text": "Appendix"}))
    d = only(judge(REPORT, actual))
    assert d.where == "header of section 2"
    assert d.what == 'text: expected "Acme Corporation - Quarterly Report", actual "Appendix"'


def test_a_header_left_by_default_equals_one_left_explicitly():
    """A header paragraph with no alignment is left aligned (nor does the Header style align it): the same as
    alignment="left" given explicitly (the judge compared the raw ``w:jc`` of header and footer paragraphs)."""
    plain = edited(REPORT, ("set_header_footer", {"section": "all", "where": "header", "text": "Confidential"}))
    left = edited(REPORT, ("set_header_footer", {"section": "all", "where": "header", "text": "Confidential",
                                                 "alignment": "left"}))
    assert judge(plain, left).equivalent
    centred = edited(REPORT, ("set_header_footer", {"section": "all", "where": "header", "text": "Confidential",
                                                    "alignment": "center"}))
    d = judge(plain, centred).differences[0]
    assert d.where == "header of section 1" and d.what == 'alignment: expected "left", actual "center"'


def test_header_text_formatting_is_compared():
    """Bold, size and colour of a header's text are compared as in body paragraphs (they were never compared)."""
    doc = WordDocument.open(REPORT)
    rel = next(r for r in doc.part.rels.values() if r.reltype.endswith("/header"))
    run = next(rel.target_part._element.iter(qn("w:r")))
    rpr = run.find(qn("w:rPr"))
    if rpr is None:
        rpr = run.makeelement(qn("w:rPr"), {})
        run.insert(0, rpr)
    rpr.append(rpr.makeelement(qn("w:b"), {}))
    bold = WordDocument.from_bytes(doc.to_bytes(), name="bold.docx")
    verdict = judge(REPORT, bold)
    assert [(d.where, d.what) for d in verdict.differences] == [("header of section 1", "bold: expected no, actual yes"),
                                                                ("header of section 2", "bold: expected no, actual yes")]


def test_underline_given_by_a_style_is_seen():
    """A style's underline, strike, caps and highlight are part of the effective format: an unasked style underline is
    a difference, and the same look given by the style or directly differs only by the style's definition."""
    styled = edited(REPORT, ("modify_style", {"name": "Heading 1", "underline": "single"}))
    verdict = judge(REPORT, styled)
    assert not verdict.equivalent
    assert ('paragraph "Highlights" (p3)', 'underline: expected none, actual "single"') in \
        [(d.where, d.what) for d in verdict.differences]
    heading_ids = [p["id"] for p in extract_state(WordDocument.open(REPORT))["paragraphs"] if p.get("style") == "Heading 1"]
    direct = edited(REPORT, ("set_text_format", {"paragraphs": heading_ids, "underline": "single"}))
    d = only(judge(styled, direct))
    assert (d.where, d.what) == ('style "Heading 1"', 'underline: expected "single", actual none')


def test_styles_are_compared_by_what_they_give():
    """A style and the default font are compared resolved (they were compared as written): an underline "none" on a
    style nothing underlines, Heading 1's theme headings font (Calibri) named, the theme's body font (Cambria) named
    as the default font."""
    assert judge(edited(REPORT, ("modify_style", {"name": "Heading 1", "underline": "none"})), REPORT,
                 instruction="Remove any underline from Heading 1").equivalent  # was "underline: expected none, actual none"
    assert judge(REPORT, heading_1(("w:rFonts", {"w:ascii": "Calibri", "w:hAnsi": "Calibri"}))).equivalent
    verdict = judge(REPORT, heading_1(("w:rFonts", {"w:ascii": "Arial", "w:hAnsi": "Arial"})))
    headings = [p for p in extract_state(WordDocument.open(REPORT))["paragraphs"] if p.get("style") == "Heading 1"]
    assert [(d.where, d.what) for d in verdict.differences] == [
        (f'paragraph "{p["text"]}" ({p["id"]})', 'font: expected "Calibri", actual "Arial"') for p in headings] + [
        ('style "Heading 1"', 'font: expected "Calibri", actual "Arial"')]
    # a table style too, resolved along its chain as tables are (it was compared as written)
    def table_styles(own_lines=True, base_top="4"):
        """The report with Normal Table given Table Grid's lines (its top `base_top` eighths of a point wide), and Table
        Grid, based on it, with its own or none."""
        doc = WordDocument.open(REPORT)
        grid, base = (next(s for s in doc.part._styles_part.element.iter(qn("w:style")) if s.get(qn("w:styleId")) == sid)
                      for sid in ("TableGrid", "TableNormal"))
        lines = grid.find(f"{qn('w:tblPr')}/{qn('w:tblBorders')}")
        base.find(qn("w:tblPr")).append(copy.deepcopy(lines))
        base.find(f"{qn('w:tblPr')}/{qn('w:tblBorders')}/{qn('w:top')}").set(qn("w:sz"), base_top)
        if not own_lines:
            lines.getparent().remove(lines)
        return WordDocument.from_bytes(doc.to_bytes(), name="table-styles.docx")

    assert judge(table_styles(), table_styles(own_lines=False)).equivalent
    verdict = judge(table_styles(), table_styles(own_lines=False, base_top="8"))
    assert [(d.where, d.what) for d in verdict.differences] == [
        ('table 1 "Region | Q1 | Q2 | Q3"', "border top width: expected 0.5 pt, actual 1 pt"),
        ('style "Normal Table"', "border top width: expected 0.5 pt, actual 1 pt"),
        ('style "Table Grid"', "border top width: expected 0.5 pt, actual 1 pt")]
    doc = WordDocument.open(REPORT)
    fonts = doc.part._styles_part.element.find(f"{qn('w:docDefaults')}/{qn('w:rPrDefault')}/{qn('w:rPr')}/{qn('w:rFonts')}")
    assert fonts.get(qn("w:asciiTheme")) == "minorHAnsi"
    fonts.attrib.clear()
    fonts.set(qn("w:ascii"), "Cambria")
    fonts.set(qn("w:hAnsi"), "Cambria")
    assert judge(REPORT, WordDocument.from_bytes(doc.to_bytes(), name="named.docx")).equivalent


def test_table_values_equal_to_the_inherited_ones_do_not_matter():
    """A table aligned left, a cell aligned top and borders equal to the table style's (Table Grid) are what a table
    has without them; a table width is a length (within 0.05 cm)."""
    doc = WordDocument.open(REPORT)
    tbl = next(doc.body.iter(qn("w:tbl")))
    tblpr = tbl.find(qn("w:tblPr"))
    tblpr.append(tblpr.makeelement(qn("w:jc"), {qn("w:val"): "left"}))
    borders = tblpr.makeelement(qn("w:tblBorders"), {})
    for side in ("top", "left", "bottom", "right", "insideH", "insideV"):
        borders.append(borders.makeelement(qn(f"w:{side}"), {qn("w:val"): "single", qn("w:sz"): "4", qn("w:space"): "0",
                                                              qn("w:color"): "000000"}))
    tblpr.append(borders)
    tc = next(tbl.iter(qn("w:tc")))
    tcpr = tc.find(qn("w:tcPr"))
    if tcpr is None:
        tcpr = tc.makeelement(qn("w:tcPr"), {})
        tc.insert(0, tcpr)
    tcpr.append(tcpr.makeelement(qn("w:vAlign"), {qn("w:val"): "top"}))
    explicit = WordDocument.from_bytes(doc.to_bytes(), name="explicit.docx")
    assert extract_state(explicit)["tables"][0]["alignment"] == "left"  # written in the file...
    assert judge(REPORT, explicit).equivalent  # ...and what the table has anyway
    wide = edited(REPORT, ("set_table_properties", {"table": "t1", "width": "12.5cm"}))
    assert judge(wide, edited(REPORT, ("set_table_properties", {"table": "t1", "width": "12.52cm"}))).equivalent
    d = judge(wide, edited(REPORT, ("set_table_properties", {"table": "t1", "width": "13cm"}))).differences[0]
    assert d.what == "width: expected 12.5 cm, actual 13 cm"
    dotted = edited(REPORT, ("set_table_properties", {"table": "t1", "alignment": "center"}))
    assert only(judge(REPORT, dotted)).what == 'alignment: expected "left", actual "center"'


def _with_bookmark(name: str, ref_field: bool = False) -> WordDocument:
    doc = WordDocument.open(REPORT)
    p = doc.find("p2")
    p.insert(1, p.makeelement(qn("w:bookmarkStart"), {qn("w:id"): "90", qn("w:name"): name}))
    p.append(p.makeelement(qn("w:bookmarkEnd"), {qn("w:id"): "90"}))
    if ref_field:  # a cross-reference to it in another paragraph
        field = doc.find("p8").makeelement(qn("w:fldSimple"), {qn("w:instr"): f" REF {name} \\h "})
        doc.find("p8").append(field)
    return WordDocument.from_bytes(doc.to_bytes(), name="bookmarked.docx")


def test_hidden_bookmarks_matter_only_when_referenced():
    """Word's hidden bookmarks (``_Hlk...``, made by copying and linking) are not a difference unless a field refers to
    them; a visible bookmark is."""
    assert judge(REPORT, _with_bookmark("_Hlk123456789")).equivalent
    assert 'extra bookmark "Results"' in only(judge(REPORT, _with_bookmark("Results"))).where
    referenced = _with_bookmark("_Ref123456789", ref_field=True)
    unmarked = WordDocument.from_bytes(referenced.to_bytes(), name="unmarked.docx")
    for el in list(unmarked.body.iter(qn("w:bookmarkStart"), qn("w:bookmarkEnd"))):
        if el.get(qn("w:id")) == "90":
            el.getparent().remove(el)
    unmarked = WordDocument.from_bytes(unmarked.to_bytes(), name="unmarked.docx")
    assert only(judge(referenced, unmarked)).what == "missing: absent from the actual document"


def test_references_to_toc_bookmarks_do_not_count_by_name():
    """A table of contents whose ``_Toc`` bookmarks Word renumbered: the bookmarks never count, nor do the TOC's
    hyperlink anchors and PAGEREF fields that name them (8 differences before)."""
    import re

    path = corpus_file("docxrs__toc1.docx")
    doc = WordDocument.open(path)
    for el in doc.part._element.iter():
        for k, v in el.attrib.items():
            el.set(k, re.sub(r"_Toc(\d+)", lambda m: f"_Toc{int(m.group(1)) + 1111}", v))
        if el.text and "_Toc" in el.text:
            el.text = re.sub(r"_Toc(\d+)", lambda m: f"_Toc{int(m.group(1)) + 1111}", el.text)
    renumbered = WordDocument.from_bytes(doc.to_bytes(), name="renumbered.docx")
    interactive = extract_state(renumbered)["interactive"]
    assert any("_Toc8981" in h.get("anchor", "") for h in interactive["hyperlinks"])
    assert any("PAGEREF _Toc8981" in f["instruction"] for f in interactive["fields"])
    assert judge(path, renumbered).equivalent
    retargeted = WordDocument.from_bytes(renumbered.to_bytes(), name="retargeted.docx")
    link = next(h for h in retargeted.part._element.iter(qn("w:hyperlink")) if h.get(qn("w:anchor")))
    link.set(qn("w:anchor"), "Results")  # a visible bookmark's name still counts
    d = only(judge(path, WordDocument.from_bytes(retargeted.to_bytes(), name="retargeted.docx")))
    assert d.where.startswith('hyperlink "第１章 Hello 2"') and d.what.startswith('anchor: expected "_Toc')


def test_a_theme_font_is_the_theme_s_font():
    """The document default font "theme:minorHAnsi" is the theme's body font (Cambria in python-docx's template, whose
    headings font is Calibri): that font given directly is no difference, another is, named as a font; an East Asian
    slot is the theme's East Asian font."""
    def build(font=None, heading_font=None):
        def make(d):
            heading = d.add_heading("Quarterly report", level=1)
            body = d.add_paragraph("Sales rose in every region this quarter.")
            if font:
                body.runs[0].font.name = font
            if heading_font:
                heading.runs[0].font.name = heading_font
        return make_doc(make)

    plain = build()
    assert extract_state(plain)["styles"]["defaults"]["theme_fonts"] == {"major": "Calibri", "minor": "Cambria"}
    assert judge(plain, build("Cambria", "Calibri")).equivalent  # Heading 1 has the theme's headings font
    d = only(judge(plain, build("Calibri")))
    assert d.what == 'font: expected "Cambria", actual "Calibri"'
    # a run in the theme's headings font (Word's "+Headings", w:asciiTheme, before a w:ascii beside it)
    headings = WordDocument.from_bytes(plain.to_bytes(), name="headings.docx")
    run = list(headings.body.iter(qn("w:r")))[1]
    rpr = run.makeelement(qn("w:rPr"), {})
    rpr.append(rpr.makeelement(qn("w:rFonts"), {qn("w:asciiTheme"): "majorHAnsi", qn("w:ascii"): "Cambria"}))
    run.insert(0, rpr)
    headings = WordDocument.from_bytes(headings.to_bytes(), name="headings.docx")
    assert extract_state(headings)["paragraphs"][1]["runs"][0]["font"] == "theme:majorHAnsi"
    assert only(judge(plain, headings)).what == 'font: expected "Cambria", actual "Calibri"'
    assert judge(build("Calibri"), headings).equivalent
    # an East Asian slot is the theme's East Asian font, never its Latin one (it was): none given (an empty typeface),
    # it stays the slot; given, it is that font
    east = WordDocument.from_bytes(headings.to_bytes(), name="east.docx")
    fonts = list(east.body.iter(qn("w:r")))[1].find(f"{qn('w:rPr')}/{qn('w:rFonts')}")
    fonts.attrib.clear()
    fonts.set(qn("w:asciiTheme"), "majorEastAsia")
    east = WordDocument.from_bytes(east.to_bytes(), name="east.docx")
    assert only(judge(build("Calibri"), east)).what == 'font: expected "Calibri", actual "theme:majorEastAsia"'
    theme = east.part.part_related_by(RT.THEME)
    theme._blob = theme.blob.replace(b'<a:ea typeface=""/>', '<a:ea typeface="ＭＳ ゴシック"/>'.encode(), 1)  # majorFont's
    east = WordDocument.from_bytes(east.to_bytes(), name="east.docx")
    assert extract_state(east)["styles"]["defaults"]["theme_fonts"] == {"major": "Calibri", "majorEastAsia": "ＭＳ ゴシック",
                                                                        "minor": "Cambria"}
    assert judge(build("ＭＳ ゴシック"), east).equivalent


# --- properties the state once left out ------------------------------------------------------------


def _border(**args):
    return ("set_paragraph_border", {"paragraphs": "p2", "sides": ["box"], **args})


def test_paragraph_borders_are_compared_by_style_width_and_colour():
    gold = edited(REPORT, _border(style="single", size_pt=1, color="0070C0"))
    assert judge(gold, edited(REPORT, _border(style="single", size_pt=1, color="0070C0"))).equivalent
    d = only(judge(gold, edited(REPORT, _border(style="double", size_pt=3, color="FF0000")),
                   instruction="put a thin blue box around the first paragraph"))
    assert d.where.endswith("(p2)")
    assert d.what == ('border top/left/bottom/right style: expected "single", actual "double"; '
                      "border top/left/bottom/right width: expected 1 pt, actual 3 pt; "
                      "border top/left/bottom/right color: expected 0070C0 (blue), actual FF0000 (red)")
    # the named-colour tolerance applies to border colours as to others; the width within an eighth of a point
    assert judge(gold, edited(REPORT, _border(style="single", size_pt=1, color="0000FF")),
                 instruction="put a thin blue box around the first paragraph").equivalent
    assert not judge(gold, edited(REPORT, _border(style="single", size_pt=1, color="0000FF"))).equivalent
    assert not judge(gold, edited(REPORT, _border(style="single", size_pt=1.5, color="0070C0"))).equivalent
    # one side missing; an automatic colour is black
    d = only(judge(edited(REPORT, _border(sides=["bottom"], size_pt=1.5, color="1F4E79")),
                   edited(REPORT, _border(sides=["top"], size_pt=1.5, color="1F4E79"))))
    assert "border top: expected none, actual single 1.5 pt 1F4E79" in d.what
    assert "border bottom: expected single 1.5 pt 1F4E79" in d.what and d.what.endswith("actual none")
    assert judge(edited(REPORT, _border(color="000000")), edited(REPORT, _border())).equivalent


def test_a_paragraph_border_is_resolved_side_by_side_along_the_style_chain():
    """The sample's Title style draws a bottom line (1 pt 4F81BD): a Title paragraph that takes it away (w:val="nil"
    on the paragraph, how Word removes a style's line) differs, one that gives the same line directly does not (only
    direct borders were compared, and a nil side was dropped on reading)."""
    def title_bottom(**attrs):
        doc = WordDocument.open(REPORT)
        ppr = doc.find("p1").find(qn("w:pPr"))
        pbdr = ppr.makeelement(qn("w:pBdr"), {})
        pbdr.append(pbdr.makeelement(qn("w:bottom"), {qn(f"w:{k}"): v for k, v in attrs.items()}))
        ppr.insert(1, pbdr)
        return WordDocument.from_bytes(doc.to_bytes(), name="title.docx")

    for removed in ("nil", "none"):
        d = only(judge(REPORT, title_bottom(val=removed)))
        assert (d.where, d.what) == ('paragraph "Quarterly Sales Report" (p1)',
                                     "border bottom: expected single 1 pt 4F81BD (blue), actual none")
    assert judge(REPORT, title_bottom(val="single", sz="8", space="4", color="4F81BD")).equivalent
    d = only(judge(REPORT, title_bottom(val="double", sz="8", space="4", color="4F81BD")))
    assert d.what == 'border bottom style: expected "single", actual "double"'


def test_table_borders_have_the_tolerances_of_paragraph_borders():
    """A table's borders are compared side by side as paragraph borders are (they were strings, "single 1pt 1F4E79",
    equal or not): a colour the instruction names, widths within an eighth of a point."""
    def borders(**args):
        return edited(REPORT, ("set_table_borders", {"table": "t1", "style": "single", "size_pt": 1, "scope": "outside",
                                                     **args}))

    gold = borders(color="1F4E79")
    assert judge(gold, borders(color="002060"), instruction="give the table a 1 pt dark blue outline").equivalent
    d = only(judge(gold, borders(color="002060", size_pt=1.5)))
    assert d.where == 'table 1 "Region | Q1 | Q2 | Q3"'
    assert d.what == ("border top/left/bottom/right width: expected 1 pt, actual 1.5 pt; "
                      "border top/left/bottom/right color: expected 1F4E79 (dark blue), actual 002060 (dark blue)")
    assert judge(REPORT, borders(size_pt=0.5, color="000000")).equivalent  # Table Grid's lines, black as automatic
    d = only(judge(REPORT, edited(REPORT, ("set_table_borders", {"table": "t1", "style": "none", "scope": "inside_vertical"}))))
    assert d.what == "border insideV: expected single 0.5 pt, actual none"


def _tcpr(d, row: int, col: int, *children):
    """Append `children` ((tag, {attribute: value}, [child...]) triples) to a cell's ``w:tcPr`` of the report's table."""
    parent = d.tables[0].rows[row].cells[col]._tc.get_or_add_tcPr()
    _append(parent, children)


def _append(parent, children) -> None:
    for tag, attrs, inner in children:
        el = parent.makeelement(qn(tag), {qn(k): v for k, v in attrs.items()})
        parent.append(el)
        _append(el, inner)


def _cell_border(**attrs):
    return lambda d: _tcpr(d, 1, 1, ("w:tcBorders", {}, [("w:bottom", attrs, [])]))


CELL = 'table 1 "Region | Q1 | Q2 | Q3" row 2 cell 2 "120"'


def test_a_cell_s_own_border_overrides_the_table_s():
    """A cell's ``w:tcBorders`` were not read. A side of its own is compared with what the other cell has there (its
    own, else the table's line at that place): equal to the table's, it changes nothing; one left that the expected
    document cleared, or cleared where the expected one is drawn, differs."""
    d = only(judge(REPORT, built(_cell_border(**{"w:val": "double", "w:sz": "24", "w:color": "FF0000"}))))
    assert (d.where, d.what) == (CELL, 'border bottom style: expected "single", actual "double"; border bottom width: '
                                       "expected 0.5 pt, actual 3 pt; border bottom color: expected automatic, actual FF0000 (red)")
    # Table Grid's inside line given again by the cell: the same line
    assert judge(REPORT, built(_cell_border(**{"w:val": "single", "w:sz": "4", "w:color": "auto"}))).equivalent
    cleared = built(_cell_border(**{"w:val": "nil"}))
    d = only(judge(cleared, REPORT))
    assert (d.where, d.what) == (CELL, "border bottom: expected none, actual single 0.5 pt")
    assert judge(cleared, built(_cell_border(**{"w:val": "none"}))).equivalent


def test_a_line_between_two_cells_is_the_same_on_either_cell():
    """The line between two cells written as the left cell's right side or as the right cell's left side: Word draws
    the same edge (each cell's side that it does not set is its neighbour's, where the neighbour sets it)."""
    line = {"w:val": "double", "w:sz": "12", "w:color": "FF0000"}
    on_left_cell = built(lambda d: _tcpr(d, 1, 1, ("w:tcBorders", {}, [("w:right", line, [])])))
    on_right_cell = built(lambda d: _tcpr(d, 1, 2, ("w:tcBorders", {}, [("w:left", line, [])])))
    assert judge(on_left_cell, on_right_cell).equivalent
    assert judge(on_right_cell, on_left_cell).equivalent
    assert any("border right style" in d.what for d in judge(on_left_cell, REPORT).differences)


def test_a_cell_s_width_is_its_tcw_else_its_columns():
    """A cell's ``w:tcW`` (what Word lays out by) was not compared, only the grid. A width in step with the grid on
    both sides (as set_column_width writes it, or none) is the grid's: the column widths say a difference once."""
    def tcw(**attrs):
        def change(d):
            for row in range(5):
                tcpr = d.tables[0].rows[row].cells[0]._tc.get_or_add_tcPr()
                tcpr.remove(tcpr.find(qn("w:tcW")))
                if attrs:
                    _append(tcpr, [("w:tcW", attrs, [])])
        return change

    d = judge(REPORT, built(tcw(**{"w:w": "4536", "w:type": "dxa"}))).differences  # 8 cm, the grid still 3.81 cm
    assert [(x.where, x.what) for x in d][:1] == [('table 1 "Region | Q1 | Q2 | Q3" row 1 cell 1 "Region"',
                                                   "width: expected 3.81 cm, actual 8 cm")] and len(d) == 5
    for same in (tcw(), tcw(**{"w:w": "0", "w:type": "auto"}), tcw(**{"w:w": "2160", "w:type": "dxa"})):  # 3.81 cm
        assert judge(REPORT, built(same)).equivalent
    wider = edited(REPORT, ("set_column_width", {"table": "t1", "col": 0, "width": "5cm"}))
    assert judge(wider, edited(REPORT, ("set_column_width", {"table": "t1", "col": 0, "width": "5cm"}))).equivalent
    d = only(judge(REPORT, wider))
    assert d.what.startswith("column widths: expected [3.81, 3.81, 3.81, 3.81] cm, actual [5.0,")


def test_cell_margins_text_direction_and_table_indent():
    """A cell's margins (over the table's, Word's 0.19 cm left and right by default) and text direction, and the
    table's indent were not read."""
    def margin(side: str, twips: str):
        return lambda d: _tcpr(d, 1, 1, ("w:tcMar", {}, [(f"w:{side}", {"w:w": twips, "w:type": "dxa"}, [])]))

    d = only(judge(REPORT, built(margin("left", "1200"))))
    assert (d.where, d.what) == (CELL, "margin left: expected 0.19 cm, actual 2.12 cm")
    assert judge(REPORT, built(margin("start", "108"))).equivalent  # the table's margin given again
    d = only(judge(REPORT, built(lambda d: _tcpr(d, 1, 1, ("w:textDirection", {"w:val": "btLr"}, [])))))
    assert (d.where, d.what) == (CELL, 'text direction: expected "lrTb", actual "btLr"')
    assert judge(REPORT, built(lambda d: _tcpr(d, 1, 1, ("w:textDirection", {"w:val": "lrTb"}, [])))).equivalent

    def indent(twips: str):
        return lambda d: _append(d.tables[0]._tbl.tblPr, [("w:tblInd", {"w:w": twips, "w:type": "dxa"}, [])])
    d = only(judge(REPORT, built(indent("1440"))))
    assert (d.where, d.what) == ('table 1 "Region | Q1 | Q2 | Q3"', "indent: expected 0 cm, actual 2.54 cm")
    assert judge(REPORT, built(indent("0"))).equivalent


def test_a_comment_on_other_words_of_the_paragraph_differs():
    comment = lambda match: ("insert_comment", {"paragraph": "p2", "text": "Check this.", "span": {"match": match}})  # noqa: E731
    gold = edited(REPORT, comment("sales"))
    assert judge(gold, edited(REPORT, comment("sales"))).equivalent
    d = only(judge(gold, edited(REPORT, comment("report"))))
    assert d.where.startswith('comment "Check this." in paragraph "This report summarises')
    assert d.what == 'commented text: expected "sales", actual "report"'


def test_a_note_mark_elsewhere_in_its_paragraph_differs():
    note = lambda **at: ("insert_footnote", {"paragraph": "p2", "text": "Unaudited figures.", **at})  # noqa: E731
    gold = edited(REPORT, note(offset=5))
    assert judge(gold, edited(REPORT, note(offset=5))).equivalent
    d = only(judge(gold, edited(REPORT, note())))
    assert d.where.startswith('footnote "Unaudited figures." in paragraph "This report summarises')
    assert d.what == 'reference mark: expected after "This ", actual after "... Revenue grew in every region."'
    # at the end of a paragraph that ends with a space (the texts are equal trimmed): the same place
    spaced = WordDocument.open(REPORT)
    run = spaced.find("p2").makeelement(qn("w:r"), {})
    run.append(run.makeelement(qn("w:t"), {"{http://www.w3.org/XML/1998/namespace}space": "preserve"}))
    run[0].text = " "
    spaced.find("p2").append(run)
    assert judge(edited(spaced, note()), edited(REPORT, note())).equivalent


def test_another_picture_at_the_same_size_differs_and_so_does_a_crop():
    photo = str(EXAMPLES / "images" / "photo.png")
    replaced = edited(REPORT, ("replace_image", {"image": "img1", "path": photo}))
    assert judge(replaced, edited(REPORT, ("replace_image", {"image": "img1", "path": photo}))).equivalent
    d = only(judge(replaced, REPORT))  # "replace the logo with photo.png" left undone
    assert d.where.startswith("picture 1 in paragraph with a drawing (p30)")
    assert d.what.startswith("picture: another image")
    # a crop vs the uncropped picture squeezed to the cropped size
    cropped = edited(REPORT, ("crop_image", {"image": "img1", "left": 10, "right": 10}))
    width = extract_state(cropped)["images"][0]["width_cm"]
    squeezed = edited(REPORT, ("resize_image", {"image": "img1", "width": f"{width}cm", "keep_aspect": False}))
    d = only(judge(cropped, squeezed))
    assert d.what == "crop left: expected 10 %, actual 0 %; crop right: expected 10 %, actual 0 %"
    d = only(judge(cropped, edited(REPORT, ("crop_image", {"image": "img1", "left": 20}))))
    assert "crop left: expected 10 %, actual 20 %" in d.what and "crop right: expected 10 %, actual 0 %" in d.what
    # within 0.5 % a side, also against a side or a picture not cropped
    assert judge(REPORT, edited(REPORT, ("crop_image", {"image": "img1", "left": 0.2}))).equivalent
    assert judge(cropped, edited(REPORT, ("crop_image", {"image": "img1", "left": 10, "right": 10, "top": 0.2}))).equivalent


# --- formatting resolved along the style chain, formatting the state once left out ----------------------


def _report_with(*edits: tuple[str, str]) -> WordDocument:
    """The sample report with `edits`: (place, XML element in the w: namespace, replacing one of its tag there, or
    "-w:tag" to remove it); a place is a paragraph id ("p2": its w:pPr; "p2/run": its first run's w:rPr) or a style
    id ("style:Heading1", "style:Normal/run")."""
    doc = WordDocument.open(REPORT)
    styles = {s.get(qn("w:styleId")): s for s in doc.part._styles_part.element.iter(qn("w:style"))}
    for place, xml in edits:
        target, _, inner = place.partition("/")
        owner = styles[target[len("style:"):]] if target.startswith("style:") else doc.find(target)
        if inner == "run" and not target.startswith("style:"):
            owner = owner.find(qn("w:r"))
        pr_tag = qn("w:rPr" if inner == "run" else "w:pPr")
        pr = owner.find(pr_tag)
        if pr is None:
            pr = owner.makeelement(pr_tag, {})
            after = owner.find(qn("w:rPr")) if target.startswith("style:") and inner != "run" else None
            after.addprevious(pr) if after is not None else owner.append(pr) if target.startswith("style:") \
                else owner.insert(0, pr)
        tag = qn(xml[1:]) if xml.startswith("-") else None
        new = None if tag else etree.fromstring(f'<x xmlns:w="{W}">{xml}</x>')[0]
        old = pr.find(tag or new.tag)
        if old is not None:
            pr.remove(old)
        if new is not None:
            pr.append(new)
    return WordDocument.from_bytes(doc.to_bytes(), name="edited.docx")


def _whats(verdict) -> list[str]:
    """Each difference as "where: what"."""
    return [f"{d.where}: {d.what}" for d in verdict.differences]


def test_keep_lines_shading_direction_and_tab_stops_are_resolved_along_the_style_chain():
    """keepLines, shading, bidi and tab stops were read from the paragraph alone: a value its style already gives
    differed, a change to the style went unseen. Heading 1 keeps its lines together in the sample."""
    assert judge(REPORT, _report_with(("p3", "<w:keepLines/>"))).equivalent  # Heading 1 already does
    loose = judge(REPORT, _report_with(("style:Heading1", "-w:keepLines")))
    assert 'paragraph "Highlights" (p3): keep together: expected yes, actual no' in _whats(loose)
    assert 'style "Heading 1": keep together: expected yes, actual no' in _whats(loose)
    d = only(judge(REPORT, _report_with(("p3", '<w:keepLines w:val="0"/>'))))  # off takes away the style's
    assert d.what == "keep together: expected yes, actual no"
    # shading: a style that shades every paragraph of it, the same fill given directly, no fill over it
    grey = '<w:shd w:val="clear" w:color="auto" w:fill="D9D9D9"/>'
    shaded = judge(REPORT, _report_with(("style:Normal", grey)))
    assert 'paragraph "This report summarises sales for the fir..." (p2): shading: expected none, actual D9D9D9 ' \
           '(light gray)' in _whats(shaded)
    assert 'style "Normal": shading: expected none, actual D9D9D9 (light gray)' in _whats(shaded)
    assert judge(_report_with(("style:Normal", grey)), _report_with(("style:Normal", grey), ("p2", grey))).equivalent
    d = only(judge(_report_with(("style:Normal", grey)),
                   _report_with(("style:Normal", grey), ("p2", '<w:shd w:val="clear" w:fill="auto"/>'))))
    assert d.what == "shading: expected D9D9D9 (light gray), actual none"
    # right to left: given by the style or directly, the same
    rtl = _report_with(("style:Normal", "<w:bidi/>"))
    assert judge(rtl, _report_with(("style:Normal", "<w:bidi/>"), ("p2", "<w:bidi/>"))).equivalent
    assert 'style "Normal": rtl: expected no, actual yes' in _whats(judge(REPORT, rtl))
    # tab stops merge along the chain; "clear" takes a style's stop away
    tab = '<w:tabs><w:tab w:val="left" w:pos="2835"/></w:tabs>'
    styled = _report_with(("style:Normal", tab))
    assert judge(styled, _report_with(("style:Normal", tab), ("p2", tab))).equivalent
    moved = judge(styled, _report_with(("style:Normal", '<w:tabs><w:tab w:val="left" w:pos="6000"/></w:tabs>')))
    assert 'paragraph "This report summarises sales for the fir..." (p2): tabs: expected left 5 cm, actual left ' \
           '10.58 cm' in _whats(moved)
    assert 'style "Normal": tabs: expected left 5 cm, actual left 10.58 cm' in _whats(moved)
    d = only(judge(styled, _report_with(("style:Normal", tab), ("p2", '<w:tabs><w:tab w:val="clear" w:pos="2835"/>'
                                                                      '<w:tab w:val="right" w:pos="9000" w:leader="dot"/>'
                                                                      '</w:tabs>'))))
    assert d.what == "tabs: expected left 5 cm, actual right 15.88 cm dot"


def test_indents_in_characters_spacing_in_lines_auto_spacing_and_contextual_spacing_are_compared():
    """w:ind's *Chars attributes (Chinese documents' indents, Word's over the lengths when not 0), w:spacing's
    beforeLines/afterLines and before/afterAutospacing, and w:contextualSpacing were not read at all."""
    p2 = 'paragraph "This report summarises sales for the fir..." (p2)'
    d = only(judge(REPORT, _report_with(("p2", '<w:ind w:firstLineChars="200"/>'))))
    assert (d.where, d.what) == (p2, "indent first line chars: expected none, actual 2; indent first line: expected "
                                     "0 cm, actual none")
    chars = _report_with(("p2", '<w:ind w:firstLineChars="200" w:firstLine="420"/>'))
    assert judge(chars, _report_with(("p2", '<w:ind w:firstLineChars="200" w:firstLine="640"/>'))).equivalent  # lengths unused
    assert "indent first line chars: expected 2, actual -1" in only(judge(chars, _report_with(
        ("p2", '<w:ind w:hangingChars="100" w:hanging="210"/>')))).what
    # a 0 count written over a style's count brings back the length (how Word cancels a style's characters)
    styled = _report_with(("style:Normal", '<w:ind w:leftChars="200"/>'))
    assert judge(styled, _report_with(("style:Normal", '<w:ind w:leftChars="200"/>'), ("p2", '<w:ind w:left="0"/>'))).equivalent
    d = only(judge(styled, _report_with(("style:Normal", '<w:ind w:leftChars="200"/>'),
                                        ("p2", '<w:ind w:leftChars="0" w:left="0"/>'))))
    assert d.what == "indent left chars: expected 2, actual none; indent left: expected none, actual 0 cm"
    # spacing in lines, automatic spacing
    d = only(judge(REPORT, _report_with(("p2", '<w:spacing w:beforeLines="300"/>'))))
    assert d.what == "spacing before lines: expected none, actual 3; spacing before: expected 0 pt, actual none"
    d = only(judge(REPORT, _report_with(("p2", '<w:spacing w:afterAutospacing="1"/>'))))
    assert d.what == "spacing after auto: expected no, actual yes; spacing after: expected 10 pt, actual none"
    lines = _report_with(("p2", '<w:spacing w:beforeLines="100" w:before="240"/>'))
    assert judge(lines, _report_with(("p2", '<w:spacing w:beforeLines="100" w:before="0"/>'))).equivalent
    # contextual spacing: List Bullet has it in the sample
    assert judge(REPORT, _report_with(("p4", "<w:contextualSpacing/>"))).equivalent
    d = only(judge(REPORT, _report_with(("p2", "<w:contextualSpacing/>"))))
    assert (d.where, d.what) == (p2, "contextual spacing: expected no, actual yes")
    assert 'style "List Bullet": contextual spacing: expected yes, actual no' in _whats(
        judge(REPORT, _report_with(("style:ListBullet", "-w:contextualSpacing"))))


def test_character_spacing_position_scale_and_effects_are_compared():
    """w:spacing, w:position and w:w in a run's properties and the outline, shadow, emboss and imprint effects were
    not read: a run that had them equalled one that had not."""
    where = 'text "This report summarises sales for the fir..." in paragraph "This report summarises sales for the fir..." (p2)'
    for xml, what in (('<w:spacing w:val="60"/>', "char spacing: expected 0 pt, actual 3 pt"),
                      ('<w:position w:val="12"/>', "position: expected 0 pt, actual 6 pt"),
                      ('<w:w w:val="200"/>', "scale: expected 100 %, actual 200 %"),
                      ("<w:outline/>", "outline: expected no, actual yes"), ("<w:shadow/>", "shadow: expected no, actual yes"),
                      ("<w:emboss/>", "emboss: expected no, actual yes"), ("<w:imprint/>", "imprint: expected no, actual yes")):
        d = only(judge(REPORT, _report_with(("p2/run", xml))))
        assert (d.where, d.what) == (where, what)
    # a character style that gives them, and the same given directly; no tolerance for a spacing (it adds up)
    styled = _report_with(("style:Normal/run", '<w:spacing w:val="20"/>'))
    assert judge(styled, _report_with(("style:Normal/run", '<w:spacing w:val="20"/>'), ("p2/run", '<w:spacing w:val="20"/>'))).equivalent
    assert judge(REPORT, _report_with(("p2/run", '<w:spacing w:val="0"/>'), ("p2/run", '<w:w w:val="100"/>'))).equivalent
    assert "char spacing: expected 1 pt, actual 1.2 pt" in only(judge(styled, _report_with(
        ("style:Normal/run", '<w:spacing w:val="20"/>'), ("p2/run", '<w:spacing w:val="24"/>')))).what


def test_spacing_and_scale_of_spaces_matter_their_raising_and_effects_do_not():
    """Whitespace-only stretches are compared on what shows on spaces: character spacing and width scale widen a
    space as any character; raising, outline, shadow, emboss and imprint do not show on it."""
    def spaced(*props):
        doc = WordDocument.open(REPORT)
        p = doc.find("p2")
        run = p.makeelement(qn("w:r"), {})
        rpr = etree.SubElement(run, qn("w:rPr"))
        for tag, val in props:
            etree.SubElement(rpr, qn(tag), {qn("w:val"): val} if val else {})
        t = etree.SubElement(run, qn("w:t"), {"{http://www.w3.org/XML/1998/namespace}space": "preserve"})
        t.text = "   "
        first = p.find(qn("w:r"))
        first.addnext(run)
        return WordDocument.from_bytes(doc.to_bytes(), name="spaced.docx")

    plain = spaced()
    for props in ((("w:position", "12"),), (("w:outline", None), ("w:shadow", None), ("w:emboss", None)), (("w:imprint", None),)):
        assert judge(plain, spaced(*props)).equivalent
    assert only(judge(plain, spaced(("w:spacing", "100")))).what == "char spacing: expected 0 pt, actual 5 pt"
    assert only(judge(plain, spaced(("w:w", "150")))).what == "scale: expected 100 %, actual 150 %"


def test_a_column_break_is_recorded_and_compared_as_a_page_break_is():
    """A column break (w:br w:type="column") was dropped on reading: a document with one equalled one without."""
    def broken(kind: str, pid: str = "p2") -> WordDocument:
        doc = WordDocument.open(REPORT)
        run = doc.find(pid).find(qn("w:r"))
        run.append(run.makeelement(qn("w:br"), {qn("w:type"): kind}))
        return WordDocument.from_bytes(doc.to_bytes(), name="broken.docx")

    column = broken("column")
    assert extract_state(column)["interactive"]["column_breaks"] == [{"paragraph": "p2", "offset": 71}]
    assert extract_state(column)["paragraphs"][1]["text"] == extract_state(WordDocument.open(REPORT))["paragraphs"][1]["text"]
    assert judge(column, broken("column")).equivalent
    d = only(judge(REPORT, column))
    assert (d.where, d.what) == ('extra column break in paragraph "This report summarises sales for the fir..." (p2)',
                                 "unexpected: not in the expected document")
    assert "column break" in " ".join(_whats(judge(column, broken("page"))))
    assert "column break" in only(judge(column, broken("column", "p4"))).where


def _mutated(change, source=REPORT) -> WordDocument:
    """A copy of `source` changed by `change(doc)` (python-docx and lxml, as another tool writes), reopened."""
    doc = WordDocument.open(source)
    change(doc)
    return WordDocument.from_bytes(doc.to_bytes(), name="mutated.docx")


def _el(tag, **attrs):
    return parse(f'<{tag} xmlns:w="{W}" ' + " ".join(f'w:{k}="{v}"' for k, v in attrs.items()) + "/>")


def _first_rpr(doc, index):
    return doc.docx.paragraphs[index].runs[0]._r.get_or_add_rPr()


def _level_0_of_bullets(doc):
    numbering = doc.docx.part.numbering_part.element
    num_id = next(p["list"]["num_id"] for p in extract_state(doc)["paragraphs"] if p["id"] == "p4")
    num = next(n for n in numbering.findall(qn("w:num")) if n.get(qn("w:numId")) == str(num_id))
    abstract_id = num.find(qn("w:abstractNumId")).get(qn("w:val"))
    abstract = next(a for a in numbering.findall(qn("w:abstractNum")) if a.get(qn("w:abstractNumId")) == abstract_id)
    return abstract.find(qn("w:lvl"))


def _swap_footer_fields(doc):
    first, second = list(doc.docx.sections[0].footer._element.iter(qn("w:fldSimple")))[:2]
    a, b = first.get(qn("w:instr")), second.get(qn("w:instr"))
    first.set(qn("w:instr"), b)
    second.set(qn("w:instr"), a)


@pytest.mark.parametrize("change, where, what", [
    (lambda d: _first_rpr(d, 2).append(_el("w:color", val="auto")),  # a heading's style colour taken away
     'paragraph "Highlights" (p3)', "color: expected 365F91 (dark blue), actual automatic"),
    (lambda d: d.docx.styles["Heading 1"]._element.get_or_add_rPr().append(_el("w:vanish")),
     'style "Heading 1"', "hidden: expected no, actual yes"),
    (lambda d: d.docx.styles.element.find(f"{qn('w:docDefaults')}/{qn('w:rPrDefault')}/{qn('w:rPr')}").append(
        _el("w:color", val="FF0000")), "document defaults", "color: expected automatic, actual FF0000 (red)"),
    (lambda d: _level_0_of_bullets(d).find(f"{qn('w:pPr')}/{qn('w:ind')}").set(qn("w:left"), "1440"),
     'paragraph "North region exceeded its target by 12%." (p4)', "indent left: expected 0.64 cm, actual 2.54 cm"),
    (_swap_footer_fields, "footer of section 1", 'fields: expected ["PAGE", "NUMPAGES"], actual ["NUMPAGES", "PAGE"]'),
    (lambda d: execute(d, "set_paragraph_border", {"paragraphs": ["p8"], "sides": ["bottom"], "space_pt": 12}),
     'paragraph "The table below lists sales in thousands..." (p8)', "border bottom: expected none, actual single 0.5 pt"),
    (lambda d: d.docx.sections[0]._sectPr.find(qn("w:pgMar")).set(qn("w:header"), "1134"),
     "page setup of section 1", "margins header: expected 1.27 cm, actual 2 cm"),
    (lambda d: setattr(d.docx.paragraphs[7].runs[0], "text", d.docx.paragraphs[7].runs[0].text.replace(
        "in thousands", "in\u00a0thousands")), 'paragraph "The table below lists sales in thousands..." (p8)',
     'text: expected "The table below lists sales in thousands of dollars.", actual "The table below lists sales in '
     'thousands of dollars." (at character 31: expected U+0020 SPACE, actual U+00A0 NO-BREAK SPACE)'),
])
def test_a_change_word_shows_is_a_difference_explained(change, where, what):
    """Found by mutating the sample (each was judged equivalent, or explained wrongly, before): a run's automatic
    colour over its style's, a style's hidden text, the document defaults' colour, a list level's indent, the order of
    a footer's fields, a header distance in centimetres, a no-break space named as such."""
    verdict = judge(REPORT, _mutated(change))
    assert (where, what) in [(d.where, d.what) for d in verdict.differences], verdict.differences


def test_a_paragraph_borders_distance_from_the_text_is_compared():
    near, far = (edited(REPORT, ("set_paragraph_border", {"paragraphs": ["p8"], "sides": ["box"], "space_pt": pt}))
                 for pt in (1, 12))
    d = only(judge(near, far))
    assert d.what == "border top/left/bottom/right space: expected 1 pt, actual 12 pt"


def test_unequal_section_columns_compare_their_widths():
    def columns(*widths):
        def change(doc):
            cols = doc.docx.sections[0]._sectPr.find(qn("w:cols"))
            cols.set(qn("w:num"), "2")
            cols.set(qn("w:equalWidth"), "0")
            for w in widths:
                cols.append(_el("w:col", w=str(w), space="720"))
        return change

    d = only(judge(_mutated(columns(5000, 3640)), _mutated(columns(2640, 6000))))
    assert d.what == "columns widths: expected [8.82, 6.42] cm, actual [4.66, 10.58] cm"

    def gap(doc):  # the space after the first column is its own, not the w:cols one
        doc.docx.sections[0]._sectPr.find(qn("w:cols")).find(qn("w:col")).set(qn("w:space"), "1500")
        doc.docx.sections[0]._sectPr.find(qn("w:cols")).set(qn("w:space"), "100")

    d = only(judge(_mutated(columns(5000, 3640)), _mutated(lambda doc: (columns(5000, 3640)(doc), gap(doc)))))
    assert d.what == "columns spaces: expected [1.27] cm, actual [2.65] cm"
    no_count = _mutated(lambda doc: (columns(5000, 3640)(doc), doc.docx.sections[0]._sectPr.find(qn("w:cols")).attrib.pop(qn("w:num"))))
    assert extract_state(no_count)["page_layout"]["sections"][0]["columns"]["count"] == 2  # the w:col children


def _superscript_by_style(doc):
    from docx.enum.style import WD_STYLE_TYPE

    style = doc.docx.styles.add_style("Raised", WD_STYLE_TYPE.CHARACTER)
    style._element.get_or_add_rPr().append(_el("w:vertAlign", val="superscript"))
    _first_rpr(doc, 7).insert(0, _el("w:rStyle", val="Raised"))


@pytest.mark.parametrize("expected, actual", [
    # a list item given the indent its list level has
    (lambda d: None, lambda d: d.docx.paragraphs[4]._p.get_or_add_pPr().append(_el("w:ind", left="360", hanging="360"))),
    # raised text by a character style or directly
    (lambda d: (_superscript_by_style(d), _first_rpr(d, 7).remove(_first_rpr(d, 7)[0]),
                _first_rpr(d, 7).append(_el("w:vertAlign", val="superscript"))), _superscript_by_style),
    # what Word does not draw: one column's spacing, decimal page numbers, a row height "auto" or 0
    (lambda d: None, lambda d: d.docx.sections[0]._sectPr.find(qn("w:cols")).set(qn("w:space"), "1440")),
    (lambda d: None, lambda d: d.docx.sections[0]._sectPr.find(qn("w:cols")).addprevious(_el("w:pgNumType", fmt="decimal"))),
    (lambda d: None, lambda d: d.docx.tables[0].rows[1]._tr.get_or_add_trPr().append(_el("w:trHeight", val="300", hRule="auto"))),
    (lambda d: None, lambda d: d.docx.tables[0].rows[1]._tr.get_or_add_trPr().append(_el("w:trHeight", val="0"))),
    # a field's switches that only keep its result's formatting or ask for the default number format, and its name
    # in small letters (how Word writes "Page X of Y": PAGE \* Arabic \* MERGEFORMAT)
    (lambda d: None, lambda d: [f.set(qn("w:instr"), f.get(qn("w:instr")).lower() + " \\* Arabic \\* MERGEFORMAT")
                                for f in d.docx.sections[0].footer._element.iter(qn("w:fldSimple"))]),
    # automatic colour and black in a heading
    (lambda d: _first_rpr(d, 2).append(_el("w:color", val="auto")),
     lambda d: _first_rpr(d, 2).append(_el("w:color", val="000000"))),
])
def test_what_word_shows_alike_is_equivalent(expected, actual):
    """Each was a difference before (found by mutating the sample)."""
    verdict = judge(_mutated(expected), _mutated(actual))
    assert verdict.equivalent, verdict.differences


def test_a_character_style_turns_over_the_paragraph_styles_toggles():
    """Word XORs toggle properties between the paragraph's style and a character style (ECMA-376 17.7.3): the Strong
    style on a word of a bold heading shows it not bold (it was judged bold); direct bold sets it outright."""
    strong = edited(REPORT, ("apply_style", {"paragraphs": ["p3"], "style": "Strong", "span": {"start": 0, "end": 4}}))
    d = only(judge(REPORT, strong))
    assert (d.where, d.what) == ('text "High" in paragraph "Highlights" (p3)', "bold: expected yes, actual no")
    direct = edited(REPORT, ("set_text_format", {"paragraphs": ["p3"], "span": {"start": 0, "end": 4}, "bold": True}))
    assert judge(REPORT, direct).equivalent


def test_a_long_text_differing_in_white_space_names_the_characters():
    from autodw.eval.judge.describe import text_difference

    long = "x" * 100
    what = text_difference(long + " Total 5 kg " + long, long + " Total 5\u00a0kg " + long)
    assert what.endswith("(at character 109: expected U+0020 SPACE, actual U+00A0 NO-BREAK SPACE)"), what
    assert text_difference("a\tb", "a b").endswith("(at character 2: expected U+0009 TAB, actual U+0020 SPACE)")
