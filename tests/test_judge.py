"""The deterministic judge: pairs that must be equal, pairs that must differ (with the explanation checked),
its tolerances, and no false differences on re-saved documents."""

from __future__ import annotations

import copy
import json
import re

import pytest

from autodw.apis import execute
from autodw.interfaces.cli import main
from autodw.core.document import WordDocument
from autodw.core.errors import ConfigError, DocumentError
from autodw.core.colours import colour_names_in, colour_ranges
from autodw.eval.judge import align, judge
from autodw.analysis.state import extract_state
from autodw.core.units import NAMED_COLORS, color_name
from autodw.core.xml import W, parse, qn

from conftest import CORPUS, EXAMPLES, corpus_file, make_doc
from tests.judge_cases import REPORT, edited, heading_1, only


# --- equal -------------------------------------------------------------------------------------------


def test_a_document_equals_itself_reopened():
    assert judge(REPORT, edited(REPORT)).equivalent


def test_ids_do_not_matter():
    """In memory the inserted paragraph gets a fresh id after every other; re-opened, ids follow document order."""
    doc = WordDocument.open(REPORT)
    execute(doc, "insert_paragraph", {"text": "Sales rose in all regions.", "position": {"after": "p2"}})
    reopened = WordDocument.from_bytes(doc.to_bytes(), name="again.docx")
    s1, s2 = extract_state(doc), extract_state(reopened)
    assert [p["id"] for p in s1["paragraphs"]] != [p["id"] for p in s2["paragraphs"]]
    assert judge(s1, s2).equivalent
    assert judge(doc, reopened).equivalent


def test_rsids_proofing_marks_and_goback_bookmarks_do_not_matter():
    doc = edited(REPORT)
    for i, p in enumerate(doc.body.iter(qn("w:p"))):
        p.set(qn("w:rsidR"), f"00A1B2{i:02d}")
        p.set(qn("w:rsidRDefault"), "00C3D4E5")
        r = p.find(qn("w:r"))
        if r is not None:
            r.set(qn("w:rsidRPr"), "00FFEE11")
            proof = r.makeelement(qn("w:proofErr"), {qn("w:type"): "spellStart"})
            r.addprevious(proof)
    first = doc.body.find(qn("w:p"))
    start = first.makeelement(qn("w:bookmarkStart"), {qn("w:id"): "99", qn("w:name"): "_GoBack"})
    end = first.makeelement(qn("w:bookmarkEnd"), {qn("w:id"): "99"})
    first.append(start)
    first.append(end)
    assert judge(REPORT, WordDocument.from_bytes(doc.to_bytes())).equivalent


def test_run_splits_with_identical_formatting_do_not_matter():
    doc = edited(REPORT)
    p = doc.find("p2")
    run = p.find(qn("w:r"))
    t = run.find(qn("w:t"))
    text = t.text
    second = copy.deepcopy(run)
    run.addnext(second)
    t.text, second.find(qn("w:t")).text = text[:7], text[7:]
    for r in (run, second):
        r.find(qn("w:t")).set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    split = WordDocument.from_bytes(doc.to_bytes())
    assert len(extract_state(split)["paragraphs"][1]["runs"]) == 2  # extraction already merges equal runs...
    assert len(doc.find("p2").findall(qn("w:r"))) == 3  # ...of a paragraph that has three in the XML
    assert judge(REPORT, split).equivalent


def test_explicit_values_equal_to_the_inherited_ones_do_not_matter():
    actual = edited(REPORT,
                    ("set_paragraph_format", {"paragraphs": "p2", "alignment": "left"}),
                    ("set_text_format", {"paragraphs": "p8", "size_pt": 11, "color": "000000"}),
                    ("set_text_format", {"paragraphs": "p3", "bold": True}))  # Heading 1 is already bold
    rpr = actual.find("p8", "p").find(f"{qn('w:r')}/{qn('w:rPr')}")
    rpr.insert(0, parse(f'<w:b xmlns:w="{W}" w:val="0"/>'))  # as another program writes it (set_text_format does not)
    state = extract_state(actual)
    p8 = next(p for p in state["paragraphs"] if p["text"].startswith("The table below"))
    assert p8["runs"][0].get("size_pt") == 11 and p8["runs"][0].get("bold") is False  # set explicitly...
    assert judge(REPORT, actual).equivalent  # ...and equal to what the style gives


def test_trailing_whitespace_does_not_matter():
    text = "This report summarises sales for the first three quarters of the year. Revenue grew in every region."
    expected = edited(REPORT, ("set_paragraph_text", {"paragraph": "p2", "text": text}))
    actual = edited(REPORT, ("set_paragraph_text", {"paragraph": "p2", "text": "  " + text + " \u3000"}))
    assert judge(expected, actual).equivalent
    for tabbed in ("\t" + text, text + "\t"):  # a tab is not a space: at the start it indents the text
        d = only(judge(expected, edited(REPORT, ("set_paragraph_text", {"paragraph": "p2", "text": tabbed}))))
        assert d.what.startswith("text: expected ") and "\\t" in d.what
    inner = edited(REPORT, ("set_paragraph_text", {"paragraph": "p2", "text": text.replace("the year", "the  year")}))
    d = only(judge(expected, inner))  # whitespace inside a text does count
    assert "p2" in d.where and "expected" in d.what


def test_colour_synonyms_need_the_instruction_to_name_the_colour():
    blue1 = edited(REPORT, ("set_text_format", {"paragraphs": "p1", "color": "0000FF"}))
    blue2 = edited(REPORT, ("set_text_format", {"paragraphs": "p1", "color": "0070C0"}))
    green = edited(REPORT, ("set_text_format", {"paragraphs": "p1", "color": "00B050"}))
    assert judge(blue1, blue2, instruction="Make the title blue").equivalent
    assert judge(blue1, blue2, instruction="把标题设为蓝色").equivalent
    d = only(judge(blue1, blue2))  # no instruction: no tolerance
    assert d.where == 'paragraph "Quarterly Sales Report" (p1)'
    assert d.what == "color: expected 0000FF (blue), actual 0070C0 (blue)"
    d = only(judge(blue1, green, instruction="Make the title blue"))
    assert "0000FF" in d.what and "00B050" in d.what
    assert not judge(blue1, blue2, instruction="Make the title green").equivalent


def test_colour_synonyms_apply_only_to_colours_the_expected_document_set():
    """With the initial document known, a heading the instruction left alone is compared exactly, even in a colour
    of the name the instruction says (Heading 1 is 365F91, dark blue, in the report)."""
    expected = edited(REPORT, ("set_text_format", {"paragraphs": "p1", "color": "0070C0"}))
    actual = edited(REPORT, ("set_text_format", {"paragraphs": "p1", "color": "0000FF"}),
                    ("modify_style", {"name": "Heading 1", "color": "00B0F0"}))
    ask = "Make the title blue"
    assert judge(expected, actual, instruction=ask).equivalent  # without the initial document: every blue
    verdict = judge(expected, actual, instruction=ask, initial=REPORT)
    assert not verdict.equivalent
    whats = [(d.where, d.what) for d in verdict.differences]
    assert ('paragraph "Highlights" (p3)', "color: expected 365F91 (dark blue), actual 00B0F0 (light blue)") in whats
    assert any(where == 'style "Heading 1"' for where, _ in whats), whats
    assert not any("p1" in where for where, _ in whats)  # the title, which the instruction set, still accepts 0000FF
    assert judge(expected, edited(REPORT, ("set_text_format", {"paragraphs": "p1", "color": "0000FF"})),
                 instruction=ask, initial=REPORT).equivalent


def test_colour_synonyms_survive_runs_merging_and_automatic_black_stays_black(tmp_path):
    """A run recoloured to match its neighbours merges with them (fewer runs of the colour, more characters); an
    expected 000000 the instruction did not set still equals an automatic colour."""
    import docx
    from docx.shared import RGBColor

    def made(name, colours, border=None):
        d = docx.Document()
        p = d.add_paragraph()
        for text, colour in zip(["Alpha ", "Beta", " Gamma"], colours):
            p.add_run(text).font.color.rgb = RGBColor.from_string(colour)
        if border:
            ppr = p._p.get_or_add_pPr()
            ppr.append(parse(f'<w:pBdr xmlns:w="{W}"><w:bottom w:val="single" w:sz="4" w:color="{border}"/></w:pBdr>'))
        d.save(tmp_path / name)
        return tmp_path / name

    initial = made("initial.docx", ["0070C0", "FF0000", "0070C0"], "000000")
    expected = made("expected.docx", ["0070C0"] * 3, "000000")
    actual = made("actual.docx", ["0070C0", "0000FF", "0070C0"], "auto")
    assert judge(expected, actual, instruction="Make the red word blue", initial=initial).equivalent
    assert not judge(expected, made("green.docx", ["0070C0", "00B050", "0070C0"], "auto"),
                     instruction="Make the red word blue", initial=initial).equivalent


@pytest.mark.parametrize("name, inside, outside", [
    ("blue", ["0000FF", "0070C0", "1F4E79", "4472C4", "002060"], ["00B050", "7030A0", "00FFFF", "808080"]),
    ("red", ["FF0000", "C00000", "E74C3C"], ["FFC000", "FFC0CB", "7030A0"]),
    ("green", ["00B050", "00FF00", "006400", "92D050"], ["0070C0", "FFFF00", "008080"]),
    ("gray", ["808080", "C0C0C0", "D9D9D9", "A6A6A6"], ["000000", "FFFFFF", "0070C0"]),
    # light and pale names: Word's Office-theme tints (Lighter 80%/60%/40%) and web colours of that name
    ("light blue", ["DDEBF7", "BDD7EE", "9BC2E6", "D9E1F2", "B4C6E7", "8EA9DB", "ADD8E6", "87CEEB", "00B0F0"],
     ["0070C0", "0000FF", "4F81BD", "E2EFDA", "EDEDED", "FFF2CC"]),
    ("light green", ["E2EFDA", "C6E0B4", "A9D08E", "90EE90", "98FB98", "C6EFCE", "92D050"],
     ["DDEBF7", "FFF2CC", "EDEDED", "D9D9D9", "006400"]),
    ("pale yellow", ["FFF2CC", "FFE699", "FFD966", "FFFFE0", "FFFF99"], ["E2EFDA", "FCE4D6", "FFFFFF", "EDEDED"]),
    ("light orange", ["FCE4D6", "F8CBAD", "F4B084"], ["FFF2CC", "FFC000", "E2EFDA"]),
    ("light gray", ["EDEDED", "DBDBDB", "C9C9C9", "D9D9D9", "F2F2F2"], ["E2EFDA", "DDEBF7", "FFF2CC", "FFFFFF"]),
])
def test_named_colour_ranges(name, inside, outside):
    r = colour_ranges()[name]
    assert [c for c in inside if not r.contains(c)] == []
    assert [c for c in outside if r.contains(c)] == []


def test_every_colour_name_the_apis_accept_is_in_its_own_range():
    """units.NAMED_COLORS turns "blue" into 0070C0: the judge must call that colour blue."""
    for word, hex_rgb in NAMED_COLORS.items():
        names = colour_names_in("make it " + re.sub(r"^(light|pale|dark)", r"\1 ", word))  # "lightorange": light orange
        assert names, word
        assert colour_ranges()[names[0]].contains(hex_rgb), (word, hex_rgb, names)


@pytest.mark.parametrize("instruction, expected, others", [
    ("shade the row in pale yellow", "FFF2CC", ["FFFF99", "FFE699", "FFFFE0"]),
    ("把该行设为淡黄色底纹", "FFF2CC", ["FFFF99"]),
    ("shade the row in light green", "E2EFDA", ["C6EFCE", "90EE90", "C6E0B4"]),
    ("把该行设为浅绿色底纹", "E2EFDA", ["C6EFCE", "90EE90"]),
    ("shade the row in light blue", "DDEBF7", ["ADD8E6", "BDD7EE"]),
])
def test_a_fill_named_light_or_pale_accepts_other_tints_of_that_name(instruction, expected, others):
    """DWBench's fills (Word's theme tints) against what an agent may pick for the same words."""
    def shaded(fill):
        return edited(REPORT, ("set_paragraph_shading", {"paragraphs": "p2", "fill": fill}))
    gold = shaded(expected)
    for other in others:
        assert judge(gold, shaded(other), instruction=instruction).equivalent, other
    assert not judge(gold, shaded("D9D9D9"), instruction=instruction).equivalent  # light grey is not of that name


def test_black_accepts_a_near_black_against_the_automatic_colour():
    auto = edited(REPORT, ("set_text_format", {"paragraphs": "p2", "color": "000000"}))  # stored as automatic
    near_black = edited(REPORT, ("set_text_format", {"paragraphs": "p2", "color": "0D0D0D"}))
    assert judge(auto, near_black, instruction="make the first paragraph black").equivalent
    assert judge(near_black, auto, instruction="把第一段设为黑色").equivalent
    assert not judge(auto, near_black).equivalent  # no colour named: no tolerance
    assert not judge(auto, near_black, instruction="make the first paragraph dark blue").equivalent
    grey = edited(REPORT, ("set_text_format", {"paragraphs": "p2", "color": "404040"}))
    assert not judge(auto, grey, instruction="make the first paragraph black").equivalent
    no_fill = edited(REPORT)  # a missing fill is no fill, not black
    black_fill = edited(REPORT, ("set_paragraph_shading", {"paragraphs": "p2", "fill": "0D0D0D"}))
    assert not judge(no_fill, black_fill, instruction="shade the first paragraph black").equivalent


def test_an_automatic_colour_is_black_without_an_instruction():
    """Automatic text colour and 000000 are one colour: a style coloured 000000 differed from one coloured
    automatically unless the instruction named black; a watermark's colour is not a text colour."""
    auto, black = heading_1(("w:color", {"w:val": "auto"})), heading_1(("w:color", {"w:val": "000000"}))
    assert judge(auto, black).equivalent and judge(black, auto, instruction="make the headings blue").equivalent
    verdict = judge(auto, heading_1(("w:color", {"w:val": "0D0D0D"})))  # a near black is not black unless named
    assert ('style "Heading 1"', "color: expected automatic, actual 0D0D0D (black)") in [(d.where, d.what) for d in verdict.differences]
    # only of text and lines: a text watermark without a fill colour (VML: white) is not a black one (they were equal)
    state = extract_state(WordDocument.open(REPORT))

    def watermarked(**colour):
        s = copy.deepcopy(state)
        s["page_layout"]["sections"][0]["headers"]["default"]["watermark"] = {"type": "text", "text": "DRAFT", **colour}
        return s

    d = only(judge(watermarked(), watermarked(color="000000")))
    assert (d.where, d.what) == ("header of section 1", "watermark color: expected none, actual 000000 (black)")


def test_colours_are_labelled_by_the_named_ranges_they_fall_in():
    pale = edited(REPORT, ("set_paragraph_shading", {"paragraphs": "p2", "fill": "FFFF99"}))
    green = edited(REPORT, ("set_paragraph_shading", {"paragraphs": "p2", "fill": "E2EFDA"}))
    assert only(judge(pale, green)).what == "shading: expected FFFF99 (pale yellow), actual E2EFDA (light green)"
    assert color_name("1F4E79") == "dark blue" and color_name("00B0F0") == "light blue"  # not "blue" as well
    assert color_name("FFC000") == "gold or orange"  # in two ranges: both, the smaller first
    assert color_name("7F8FA0") == "near gray"  # in no range: the nearest named colour


def test_colour_names_in_instructions():
    assert colour_names_in("Make the title dark blue and the heading red") == ["dark blue", "red"]
    assert colour_names_in("Reduce the size; credit the author") == []  # whole words only
    assert colour_names_in("把标题改成深蓝色") == ["dark blue"]
    assert colour_names_in("a pale yellow fill") == ["pale yellow"] and colour_names_in("淡黄色底纹") == ["pale yellow"]
    assert colour_names_in(None) == []


FREE = "Sales rose strongly in all four regions during the year."


def test_free_text_is_judged_by_place_type_formatting_and_length():
    expected = edited(REPORT, ("insert_paragraph", {"text": FREE, "position": {"after": "p2"}}))
    written = edited(REPORT, ("insert_paragraph", {"text": "Every region grew its sales this year.", "position": {"after": "p2"}}))
    assert judge(expected, written, free_text=True).equivalent
    d = only(judge(expected, written))  # not free text: the words count
    assert d.what.startswith('text: expected "Sales rose') and '"Every region' in d.what
    short = edited(REPORT, ("insert_paragraph", {"text": "Up.", "position": {"after": "p2"}}))
    assert "text:" in only(judge(expected, short, free_text=True)).what
    heading = edited(REPORT, ("insert_heading", {"text": "Every region grew its sales this year.", "level": 1,
                                                 "position": {"after": "p2"}}))
    assert 'style: expected "Normal", actual "Heading 1"' in judge(expected, heading, free_text=True).to_text()
    elsewhere = edited(REPORT, ("insert_paragraph", {"text": "Every region grew its sales this year.", "position": {"after": "p8"}}))
    assert not judge(expected, elsewhere, free_text=True).equivalent
    italic = edited(REPORT, ("insert_paragraph", {"text": "Every region grew its sales this year.", "position": {"after": "p2"}}))
    execute(italic, "set_text_format", {"paragraphs": next(p["id"] for p in extract_state(italic)["paragraphs"]
                                                            if p["text"].startswith("Every region")), "italic": True})
    assert "formatting of most of the text: italic: expected no, actual yes" in judge(expected, italic, free_text=True).to_text()


def test_free_text_with_the_initial_document_keeps_existing_texts_exact():
    changed = edited(REPORT, ("set_paragraph_text", {"paragraph": "p8", "text": "Something else entirely, written here."}))
    assert judge(REPORT, changed, free_text=True).equivalent  # without the initial document: any text may be free
    assert not judge(REPORT, changed, free_text=True, initial=REPORT).equivalent  # p8's text was there before


def test_free_text_is_compared_with_the_initial_text_at_its_own_place():
    """A written value that the initial document has elsewhere (120 and 135 are North's figures, 110 South's) is
    written, not left as it was: only the initial text at the same place (the aligned paragraph or cell) is."""
    instruction = "Add a row at the bottom of the sales table for the Central region with plausible figures for each quarter."

    def row(*figures):
        return edited(REPORT, ("insert_row", {"table": "t1", "index": 5, "data": ["Central", *figures]}))

    for gold, written in ((row("112", "116", "127"), row("120", "135", "128")), (row("110", "116", "127"), row("121", "136", "128"))):
        assert judge(gold, written, instruction=instruction, free_text=True, initial=REPORT).equivalent
    def north_q1(text):
        return edited(REPORT, ("set_cell_text", {"table": "t1", "row": 1, "col": 1, "text": text}))

    update = "Replace North's Q1 figure with a plausible estimate."
    assert judge(north_q1("125"), north_q1("98"), instruction=update, free_text=True, initial=REPORT).equivalent  # 98: row 3's
    d = only(judge(north_q1("125"), REPORT, instruction=update, free_text=True, initial=REPORT))  # left as it was
    assert (d.where, d.what) == ('table 1 "Region | Q1 | Q2 | Q3" row 2 cell 2 "125"', 'text: expected "125", actual "120"')


def test_free_text_with_the_initial_document_covers_cells_and_headers_of_several_paragraphs():
    """A cell or a header that the gold keeps, overwritten with a text of two paragraphs, is not written: the initial
    document has the kept text at that place (the whole text of a cell or story was judged without the initial
    document, so this was equivalent), as for one paragraph; a new cell of two paragraphs is written text."""
    instruction = "Add a row at the bottom of the sales table for the Central region with plausible figures for each quarter."
    row = ("insert_row", {"table": "t1", "index": 5, "data": ["Central", "112", "116", "127"]})
    gold = edited(REPORT, row)
    for text in ("n/a\nestimate", "n/a estimate"):
        over = edited(REPORT, row, ("set_cell_text", {"table": "t1", "row": 1, "col": 1, "text": text}))
        v = judge(gold, over, instruction=instruction, free_text=True, initial=REPORT)
        assert [d.where for d in v.differences] == ['table 1 "Region | Q1 | Q2 | Q3" row 2 cell 2 "120"'], text
    for text in ("Acme Corp\nSales Report", "Acme Corp - Sales Report"):
        over = edited(REPORT, row, ("set_header_footer", {"section": 0, "where": "header", "text": text}))
        v = judge(gold, over, instruction=instruction, free_text=True, initial=REPORT)
        assert [d.where for d in v.differences] == ["header of section 1", "header of section 2"], text
    written = edited(REPORT, ("insert_row", {"table": "t1", "index": 5, "data": ["Central", "about 115\n(estimate)", "116", "127"]}))
    assert judge(gold, written, instruction=instruction, free_text=True, initial=REPORT).equivalent


def test_free_text_does_not_cover_texts_the_instruction_dictates():
    summary = "In short, sales grew in every region and the outlook for the next quarter remains positive."
    other = "Overall, results were good across the regions this year."

    def doc(title=None, cell=None, text=summary):
        calls = [("insert_paragraph", {"position": {"after": "p39"}, "text": text})]
        calls += [("set_paragraph_text", {"paragraph": "p1", "text": title})] if title else []
        calls += [("set_cell_text", {"table": "t1", "row": 2, "col": 1, "text": cell})] if cell else []
        return edited(REPORT, *calls)

    gold = doc("Annual Report 2024", "105")
    for instruction in ("Rename the title to 'Annual Report 2024', set the North Q2 cell to 105, and write a one-sentence "
                        "summary after the methodology paragraph.",
                        "把标题改为「Annual Report 2024」，北区第二季度单元格改为105，并在方法段后写一句总结",
                        "Rename the title to “Annual Report 2024.”, set the North Q2 cell to 105 and add a summary"):
        assert judge(gold, doc("Annual Report 2024", "105", other), instruction=instruction, free_text=True,
                     initial=REPORT).equivalent  # the summary is free
        v = judge(gold, doc("Annual Review 2024", "110", other), instruction=instruction, free_text=True, initial=REPORT)
        assert [d.what for d in v.differences] == ['text: expected "Annual Report 2024", actual "Annual Review 2024"',
                                                   'text: expected "105", actual "110"'], instruction
    # left as they were: not written (the title is not quoted here)
    v = judge(gold, doc(text=other), instruction="Retitle the report for 2024, update the North Q2 cell and add a summary",
              free_text=True, initial=REPORT)
    assert [d.what for d in v.differences] == ['text: expected "Annual Report 2024", actual "Quarterly Sales Report"',
                                               'text: expected "105", actual "98"']
    # a quoted part of a free text must be in the written one
    mention = 'After the methodology paragraph, write a sentence that mentions "record growth".'
    gold = doc(text="Sales saw record growth in every region this year.")
    assert judge(gold, doc(text="Every region saw record growth in its sales."), instruction=mention, free_text=True,
                 initial=REPORT).equivalent
    assert not judge(gold, doc(text="Every region grew its sales strongly."), instruction=mention, free_text=True,
                     initial=REPORT).equivalent


# --- different, with the explanation -----------------------------------------------------------------------


def test_one_cell():
    d = only(judge(REPORT, edited(REPORT, ("set_cell_text", {"table": "t1", "row": 2, "col": 1, "text": "99"}))))
    assert d.where == 'table 1 "Region | Q1 | Q2 | Q3" row 3 cell 2 "98"'
    assert d.what == 'text: expected "98", actual "99"'


def test_one_bold_word():
    actual = edited(REPORT, ("set_text_format", {"paragraphs": "p2", "span": {"match": "sales"}, "bold": True}))
    d = only(judge(REPORT, actual))
    assert d.where == 'text "sales" in paragraph "This report summarises sales for the fir..." (p2)'
    assert d.what == "bold: expected no, actual yes"


def test_a_heading_level():
    d = only(judge(REPORT, edited(REPORT, ("change_heading_level", {"paragraphs": ["p32"], "level": 2}))))
    assert d.where == 'paragraph "Next Steps" (p32)'
    assert d.what.startswith('style: expected "Heading 1", actual "Heading 2"')


def test_a_list_that_starts_at_another_number():
    """The numbers a list shows are compared (counted as Word counts them), not only its kind and format."""
    verdict = judge(REPORT, edited(REPORT, ("set_list_format", {"paragraphs": ["p34"], "start": 5})))
    whats = {d.where: d.what for d in verdict.differences}
    assert whats['paragraph "Review pricing." (p34)'] == 'list label: expected "1.", actual "5."', verdict.to_text()
    assert whats['paragraph "Prepare the annual forecast." (p36)'] == 'list label: expected "3.", actual "7."'
    assert judge(REPORT, edited(REPORT, ("set_list_format", {"paragraphs": ["p34"], "start": 1}))).equivalent


def test_an_extra_paragraph():
    actual = edited(REPORT, ("insert_paragraph", {"text": "Sales rose in all regions.", "position": {"after": "p2"}}))
    d = only(judge(REPORT, actual))
    assert d.where == 'extra paragraph "Sales rose in all regions."'
    assert "not in the expected document" in d.what and 'after paragraph "This report summarises' in d.what
    d = only(judge(actual, REPORT))  # the other way round: missing
    assert d.where == 'paragraph "Sales rose in all regions." (p3)' and d.what.startswith("missing")


def test_a_font_size():
    d = only(judge(REPORT, edited(REPORT, ("set_text_format", {"paragraphs": "p8", "size_pt": 14}))))
    assert d.where == 'paragraph "The table below lists sales in thousands..." (p8)'
    assert d.what == "size: expected 11 pt, actual 14 pt"


def test_an_alignment():
    d = only(judge(REPORT, edited(REPORT, ("set_paragraph_format", {"paragraphs": "p2", "alignment": "center"}))))
    assert d.where.startswith('paragraph "This report summarises') and d.where.endswith("(p2)")
    assert d.what == 'alignment: expected "left", actual "center"'


def test_an_image_size():
    d = only(judge(REPORT, edited(REPORT, ("resize_image", {"image": "img1", "width": "8cm"}))))
    assert d.where == 'picture 1 in paragraph with a drawing (p30) after "Company Logo"'
    assert d.what == "width: expected 4 cm, actual 8 cm; height: expected 2 cm, actual 4 cm"


def test_a_merged_cell():
    actual = edited(REPORT, ("merge_cells", {"table": "t1", "first_row": 0, "first_col": 2, "last_row": 0, "last_col": 3}))
    verdict = judge(REPORT, actual)
    assert not verdict.equivalent
    merged = [d for d in verdict.differences if "merged" in d.what]
    assert [(d.where, d.what) for d in merged] == [
        ('table 1 "Region | Q1 | Q2 | Q3" cells row 1 cell 3 to row 1 cell 4', "merged: expected no, actual yes")]


def test_the_order_of_two_paragraphs():
    d = only(judge(REPORT, edited(REPORT, ("move_block", {"block": "p6", "position": {"before": "p4"}}))))
    assert d.where == 'paragraph "Customer satisfaction rose to 4.6 out of..." (p6)'
    assert d.what == ('order: expected after paragraph "A new distribution partner joined in Q2." (p5), '
                      'actual after paragraph "Highlights" (p3)')


def test_the_order_of_paragraphs_in_a_header_and_in_a_cell():
    """Two paragraphs swapped in a header or in a table cell are out of order, as in the body (each pair was compared
    alone and the swap judged equal)."""
    def header(text):
        return edited(REPORT, ("set_header_footer", {"section": 0, "where": "header", "text": text}))

    verdict = judge(header("Acme Corporation\nConfidential"), header("Confidential\nAcme Corporation"))
    assert [(d.where, d.what) for d in verdict.differences] == [  # section 2's header is linked to section 1's
        (f'paragraph 2 "Confidential" of header of section {n}', "order: expected paragraph 2, actual paragraph 1") for n in (1, 2)]

    def cell(text):
        return edited(REPORT, ("set_cell_text", {"table": "t1", "row": 0, "col": 0, "text": text}))

    d = only(judge(cell("Region\n(sales office)"), cell("(sales office)\nRegion")))
    assert d.where == 'paragraph 2 "(sales office)" of table 1 "Region (sales office) | Q1 | Q2 | Q3" row 1 cell 1 "Region (sales office)"'
    assert d.what == "order: expected paragraph 2, actual paragraph 1"
    assert judge(cell("Region\n(sales office)"), cell("Region\n(sales office)")).equivalent


def test_a_paragraph_more_or_less_in_a_header_or_a_cell_is_named():
    """A paragraph missing or extra in a header or a cell is reported one by one, as in the body (it was a difference of
    the whole text, whose excerpts read the same for an empty paragraph: 'expected "Acme Corporation Confidential",
    actual "Acme Corporation Confidential"'); a text with no paragraph in common stays one difference of the text."""
    def header(text):
        return edited(REPORT, ("set_header_footer", {"section": 0, "where": "header", "text": text}))

    verdict = judge(header("Acme Corporation\nConfidential"), header("Acme Corporation\n\nConfidential"))
    assert [(d.where, d.what) for d in verdict.differences] == [  # section 2's header is linked to section 1's
        (f"extra empty paragraph in header of section {n}",
         "unexpected: not in the expected document (actual paragraph 2 of 3)") for n in (1, 2)]

    def cell(text):
        return edited(REPORT, ("set_cell_text", {"table": "t1", "row": 0, "col": 0, "text": text}))

    where = 'table 1 "Region (sales office) | Q1 | Q2 | Q3" row 1 cell 1 "Region (sales office)"'
    d = only(judge(cell("Region\n(sales office)"), cell("Region")))
    assert (d.where, d.what) == (f'paragraph 2 "(sales office)" of {where}', "missing: the paragraph is absent from the "
                                                                             "actual document")
    d = only(judge(cell("Region\n(sales office)"), cell("Region\n(sales office)\nEMEA")))
    assert (d.where, d.what) == (f'extra paragraph "EMEA" in {where}', "unexpected: not in the expected document "
                                                                       "(actual paragraph 3 of 3)")
    d = only(judge(cell("Region\n(sales office)"), cell("Area")))
    assert (d.where, d.what) == (where, 'text: expected "Region (sales office)", actual "Area"')


def test_lengths_within_half_a_millimetre_are_equal():
    a = edited(REPORT, ("resize_image", {"image": "img1", "width": "8cm"}))
    b = edited(REPORT, ("resize_image", {"image": "img1", "width": "8.04cm"}))
    c = edited(REPORT, ("resize_image", {"image": "img1", "width": "8.2cm"}))
    assert judge(a, b).equivalent
    assert "width: expected 8 cm, actual 8.2 cm" in only(judge(a, c)).what


def test_formatting_of_spaces_alone_does_not_matter_but_underline_does():
    bold = edited(REPORT, ("set_text_format", {"paragraphs": "p2", "span": {"match": "three quarters"}, "bold": True}))
    bold_space = edited(REPORT, ("set_text_format", {"paragraphs": "p2", "span": {"match": "three quarters "}, "bold": True}))
    assert judge(bold, bold_space).equivalent
    under = edited(REPORT, ("set_text_format", {"paragraphs": "p2", "span": {"match": "three quarters"}, "underline": "single"}))
    under_space = edited(REPORT, ("set_text_format", {"paragraphs": "p2", "span": {"match": "three quarters "},
                                                      "underline": "single"}))
    d = only(judge(under, under_space))
    assert d.where == 'text " " in paragraph "This report summarises sales for the fir..." (p2)'


def test_differences_in_two_words_of_one_run_are_one_difference():
    actual = edited(REPORT, ("set_text_format", {"paragraphs": "p2", "span": {"match": "three quarters"}, "italic": True}))
    d = only(judge(REPORT, actual))
    assert d.where.startswith('text "three quarters" in paragraph')


def test_the_same_change_on_several_words_is_one_difference():
    def build(d):
        p = d.add_paragraph()
        for word in ("alpha ", "beta ", "gamma ", "delta"):
            p.add_run(word).italic = word.startswith(("beta", "delta"))

    doc = make_doc(build)
    actual = edited(doc, ("set_text_format", {"paragraphs": "p1", "italic": True}))
    d = only(judge(doc, actual))
    assert d.where == 'text "alpha", "gamma" in paragraph "alpha beta gamma delta" (p1)'
    assert d.what == "italic: expected no, actual yes"


def test_tables_with_the_same_cells_are_told_apart_by_place():
    def build(d):
        for n in range(3):
            d.add_paragraph(f"Form part {n + 1}")
            t = d.add_table(rows=2, cols=2)
            t.cell(0, 0).text = "Name"
            d.add_paragraph(f"End of part {n + 1}")

    doc = make_doc(build)
    d = only(judge(doc, edited(doc, ("set_cell_text", {"table": "t3", "row": 1, "col": 1, "text": "Ada"}))))
    assert d.where == 'table 3 "Name |" row 2 cell 2 (empty)' and d.what == 'text: expected "", actual "Ada"'
    body = {p["text"]: p["id"] for p in extract_state(doc)["paragraphs"]}
    d = only(judge(doc, edited(doc, ("move_block", {"block": "t1", "position": {"after": body["Form part 3"]}}))))
    assert d.where == 'table 1 "Name |"'
    assert d.what == (f'position: expected after paragraph "Form part 1" ({body["Form part 1"]}), '
                      f'actual after paragraph "Form part 3" ({body["Form part 3"]})')


def test_a_new_text_of_other_words_is_compared_by_its_format_as_a_whole():
    actual = edited(REPORT, ("set_cell_text", {"table": "t1", "row": 0, "col": 0, "text": "Territory"}))
    d = only(judge(REPORT, actual))
    assert d.what == 'text: expected "Region", actual "Territory"'


# --- corpus documents ----------------------------------------------------------------------------------------


def test_corpus_pairs_with_explanations():
    path = corpus_file("tika__testWORD_2006ml.docx")
    d = only(judge(path, edited(path, ("set_cell_text", {"table": "t1", "row": 1, "col": 2, "text": "changed"}))))
    assert d.where.startswith('table 1 "R1c1 | R1c2 | R1c3" row 2 cell 3') and d.what.endswith('actual "changed"')
    d = only(judge(path, edited(path, ("set_text_format", {"paragraphs": "p24", "span": {"match": "brown"}, "bold": True}))))
    assert d.where.startswith('text "brown" in paragraph "The quick brown fox') and d.what == "bold: expected no, actual yes"
    path = corpus_file("docx4j__themeFontLang.docx")
    d = only(judge(path, edited(path, ("move_block", {"block": "p3", "position": {"after": "p5"}}))))
    assert d.where.startswith('paragraph "These mappings are performed') and d.what.startswith("order: expected after")
    d = only(judge(path, edited(path, ("set_paragraph_format", {"paragraphs": "p2", "alignment": "right"}))))
    assert d.where.startswith('paragraph "This element specifies') and 'actual "right"' in d.what


def _resave_sample() -> list[str]:
    """20 corpus files spread over the manifest (those python-docx opens)."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    rows = [line.split("\t") for line in manifest.read_text(encoding="utf-8").splitlines()[1:]]
    names = sorted(r[0].split("/", 1)[1] for r in rows if len(r) > 7 and r[7] == "yes" and r[0].endswith(".docx"))
    return names[:: max(1, len(names) // 20)][:20]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.docx")), ids=lambda p: p.name)
def test_no_false_differences_on_examples(path):
    assert judge(path, edited(path)).to_text() == "equivalent"
    state = extract_state(WordDocument.open(path))  # a state on one side, a document on the other
    assert judge(state, edited(path)).equivalent and judge(path, state).equivalent


@pytest.mark.parametrize("name", _resave_sample() or ["(corpus absent)"])
def test_no_false_differences_on_corpus_files(name):
    path = corpus_file(name)
    try:
        again = edited(path)
    except DocumentError:
        pytest.skip("not editable")
    assert judge(path, again).to_text() == "equivalent"


# --- alignment, input, CLI ----------------------------------------------------------------------------------


def test_align_pairs_moves_and_leftovers():
    al = align(list("xabcy"), list("xbacz"))
    assert al.moved and not al.missing and not al.extra
    al = align(["a", "b"], ["a", "b", "c"])
    assert al.pairs == [(0, 0), (1, 1)] and al.extra == [2]


def test_the_judge_aligns_no_more_than_it_needs(monkeypatch):
    """Speed: equal sequences (a document against itself re-saved, the initial document against an expected one that
    changed no text) are paired without a SequenceMatcher, slow when items repeat (empty paragraphs); a cell of one
    paragraph each side is paired as it is (every cell built one); the initial texts at the places of a document are
    found once for it, by aligning only (they were found by a whole second and third comparison, each time: partial
    credit found those of the expected document twice)."""
    from autodw.eval.judge import alignment, drawings, interactive, paragraphs, places, tables
    from autodw.eval.partial import partial_credit

    def unused(*args, **kwargs):
        raise AssertionError("SequenceMatcher built")

    with monkeypatch.context() as m:
        m.setattr(alignment, "SequenceMatcher", unused)
        assert alignment.align(["a", "", "", "a"], ["a", "", "", "a"]).pairs == [(0, 0), (1, 1), (2, 2), (3, 3)]
    aligned, found = [], []
    for part in (paragraphs, tables, drawings, interactive):  # every module that aligns
        monkeypatch.setattr(part, "align", lambda a, b, *args, real=alignment.align, **kw: aligned.append(list(a))
                            or real(a, b, *args, **kw))
    instruction = "Add a row at the bottom of the sales table for the Central region with plausible figures for each quarter."
    gold = edited(REPORT, ("insert_row", {"table": "t1", "index": 5, "data": ["Central", "112", "116", "127"]}))
    output = edited(REPORT, ("insert_row", {"table": "t1", "index": 5, "data": ["Central", "120", "n/a", "x"]}))
    assert judge(gold, output, instruction=instruction).count == 3
    assert not [a for a in aligned if len(a) == 1 and isinstance(a[0], str)]  # no cell
    monkeypatch.setattr(places.Places, "find", lambda self, real=places.Places.find: found.append(self) or real(self))
    partial_credit(gold, REPORT, output, instruction=instruction, free_text=True)
    assert len(found) == 3  # the initial document against the expected document, the output and itself


def test_a_dict_that_is_not_a_state_is_refused():
    with pytest.raises(ConfigError):
        judge({"paragraphs": []}, REPORT)


def test_cli(tmp_path, capsys):
    actual = tmp_path / "actual.docx"
    edited(REPORT, ("set_text_format", {"paragraphs": "p1", "color": "0070C0"})).save(actual)
    before = REPORT.read_bytes()
    assert main(["judge", str(REPORT), str(REPORT)]) == 0
    assert capsys.readouterr().out.strip() == "equivalent"
    assert main(["judge", str(REPORT), str(actual), "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["equivalent"] is False
    assert out["differences"] == [{"where": 'paragraph "Quarterly Sales Report" (p1)',
                                   "what": "color: expected 17365D (dark blue), actual 0070C0 (blue)"}]
    blue = tmp_path / "blue.docx"
    edited(REPORT, ("set_text_format", {"paragraphs": "p1", "color": "0000FF"})).save(blue)
    assert main(["judge", str(blue), str(actual), "--instruction", "Make the title blue"]) == 0
    capsys.readouterr()
    assert main(["judge", str(REPORT), str(tmp_path / "missing.docx")]) == 2
    assert capsys.readouterr().err.startswith("error: ")
    (tmp_path / "notes.docx").write_text("not a zip")
    assert main(["judge", str(REPORT), str(tmp_path / "notes.docx")]) == 2
    capsys.readouterr()
    assert main(["judge", str(REPORT), str(REPORT), "--llm", "local"]) == 2  # --llm without --judge llm
    assert main(["judge", str(REPORT), str(REPORT), "--judge", "llm", "--initial", str(REPORT)]) == 2
    assert capsys.readouterr().err.count("error: ") == 2
    assert REPORT.read_bytes() == before


def test_a_long_list_of_differences_is_cut_but_counted():
    import io

    import docx

    from autodw.eval.judge import MAX_DIFFERENCES

    def made(fruit: str) -> WordDocument:
        d = docx.Document()
        for i in range(MAX_DIFFERENCES + 60):
            d.add_paragraph(f"Paragraph number {i} about {fruit}.")
        data = io.BytesIO()
        d.save(data)
        return WordDocument.from_bytes(data.getvalue(), name=f"{fruit}.docx")

    verdict = judge(made("apples"), made("pears"))
    assert verdict.count == MAX_DIFFERENCES + 60 and len(verdict.differences) == MAX_DIFFERENCES + 1
    assert verdict.differences[-1].what == "60 more difference(s) not listed"


# --- an instruction's own tolerances (DWBench 2.0 ``accept.tolerances``) ----------------------------------------------


def test_a_colour_family_tolerance_accepts_any_colour_of_that_family_and_is_named():
    expected = edited(REPORT, ("set_text_format", {"paragraphs": "p3", "color": "1F4E79"}))
    navy = edited(REPORT, ("set_text_format", {"paragraphs": "p3", "color": "000080"}))
    plain = judge(expected, navy)  # without tolerances: compared exactly, nothing named
    assert "color: expected 1F4E79 (dark blue), actual 000080 (dark blue)" in only(plain).what
    assert plain.tolerances_used == [] and "tolerances_used" not in plain.to_dict()
    accepted = judge(expected, navy, tolerances=[{"colour": "dark blue"}])
    assert accepted.equivalent and accepted.tolerances_used == ["colour dark blue"]
    assert accepted.to_dict()["tolerances_used"] == ["colour dark blue"]
    blue = edited(REPORT, ("set_text_format", {"paragraphs": "p3", "color": "0000FF"}))  # blue, not dark blue
    refused = judge(expected, blue, tolerances=[{"colour": "dark blue"}])
    assert "color: expected 1F4E79" in only(refused).what and refused.tolerances_used == []
    assert not judge(expected, navy, tolerances=[{"colour": "red"}]).equivalent


def test_a_number_tolerance_accepts_its_key_within_the_margin_only():
    expected = edited(REPORT, ("set_text_format", {"paragraphs": "p3", "size_pt": 18}))
    smaller = edited(REPORT, ("set_text_format", {"paragraphs": "p3", "size_pt": 16}))
    assert only(judge(expected, smaller)).what == "size: expected 18 pt, actual 16 pt"
    accepted = judge(expected, smaller, tolerances=[{"key": "size_pt", "within": 2}])
    assert accepted.equivalent and accepted.tolerances_used == ["size_pt within 2"]
    outside = judge(expected, smaller, tolerances=[{"key": "size_pt", "within": 1.5}])
    assert only(outside).what == "size: expected 18 pt, actual 16 pt" and outside.tolerances_used == []
    other_key = judge(expected, smaller, tolerances=[{"key": "position_pt", "within": 4}])
    assert not other_key.equivalent and other_key.tolerances_used == []


def test_a_heading_levels_tolerance_accepts_either_level_as_that_level_looks():
    from autodw.eval.judge import JudgeContext

    level2 = edited(REPORT, ("change_heading_level", {"paragraphs": ["p3"], "level": 2}))
    level3 = edited(REPORT, ("change_heading_level", {"paragraphs": ["p3"], "level": 3}))
    assert 'style: expected "Heading 2", actual "Heading 3"' in only(judge(level2, level3)).what
    accepted = judge(level2, level3, tolerances=[{"heading_levels": [3, 2]}])
    assert accepted.equivalent and accepted.tolerances_used == ["heading levels 2-3"]
    refused = judge(level2, level3, tolerances=[{"heading_levels": [1, 2]}])
    assert 'style: expected "Heading 2"' in only(refused).what and refused.tolerances_used == []
    # the level is accepted, a formatting the level does not give is still a difference
    plain3 = edited(level3, ("set_text_format", {"paragraphs": "p3", "bold": False}))
    changed = judge(level2, plain3, tolerances=[{"heading_levels": [2, 3]}])
    assert only(changed).what == "bold: expected yes, actual no" and changed.tolerances_used == ["heading levels 2-3"]
    ctx = JudgeContext.make(tolerances=[{"heading_levels": [2, 4]}])
    assert ctx.heading_tolerated("标题 4", "Heading 2") == "heading levels 2, 4"
    assert ctx.heading_tolerated("Heading 2 Char", "Heading 4") is None
    title = JudgeContext.make(tolerances=[{"heading_levels": [0, 1]}])  # level 0: the Title, as insert_heading has it
    assert title.heading_tolerated("Title", "Heading 1") == "heading levels 0-1"
    assert title.heading_tolerated("Heading 1", "title") == "heading levels 0-1"
    assert title.heading_tolerated("Title", "Heading 2") is None and title.heading_tolerated("Subtitle", "Heading 1") is None


def test_tolerances_change_nothing_where_there_is_no_difference_and_unknown_ones_are_refused():
    expected = edited(REPORT, ("set_text_format", {"paragraphs": "p3", "size_pt": 18, "color": "1F4E79"}))
    every = [{"colour": "dark blue"}, {"key": "size_pt", "within": 4}, {"heading_levels": [1, 2]}]
    same = judge(expected, edited(expected), tolerances=every)
    assert same.equivalent and same.tolerances_used == []
    with pytest.raises(ConfigError, match="not a tolerance"):
        judge(expected, expected, tolerances=[{"colour": "ultraviolet"}])
    with pytest.raises(ConfigError, match="not a tolerance"):
        judge(expected, expected, tolerances=[{"size_pt": 4}])
