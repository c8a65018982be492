"""The deterministic judge: pairs that must be equal, pairs that must differ (with the explanation checked),
its tolerances, and no false differences on re-saved documents."""

from __future__ import annotations

import copy
import json

import pytest
from lxml import etree
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.shared import Cm

from autodw.apis import execute
from autodw.interfaces.cli import main
from autodw.core.document import WordDocument
from autodw.core.errors import ConfigError, DocumentError
from autodw.core.colours import colour_names_in, colour_ranges
from autodw.eval.judge import Difference, align, judge
from autodw.analysis.state import extract_state
from autodw.core.units import NAMED_COLORS, color_name
from autodw.core.xml import W, parse, qn

from conftest import CORPUS, EXAMPLES, corpus_file, make_doc

REPORT = EXAMPLES / "report.docx"


def edited(source, *calls) -> WordDocument:
    """A new, independently opened document: `source` with the API calls applied, saved and re-opened."""
    doc = WordDocument.from_bytes(source.to_bytes()) if isinstance(source, WordDocument) else WordDocument.open(source)
    for name, args in calls:
        execute(doc, name, args)
    return WordDocument.from_bytes(doc.to_bytes(), name="edited.docx")


def only(verdict):
    """The verdict's single difference."""
    assert not verdict.equivalent
    assert len(verdict.differences) == 1, verdict.to_text()
    return verdict.differences[0]


def built(*steps) -> WordDocument:
    """The report with each of `steps` applied to its python-docx document in turn, saved and re-opened."""
    doc = WordDocument.open(REPORT)
    for step in steps:
        step(doc.docx)
    return WordDocument.from_bytes(doc.to_bytes(), name="built.docx")


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
                    ("set_text_format", {"paragraphs": "p8", "size_pt": 11, "bold": False, "color": "000000"}),
                    ("set_text_format", {"paragraphs": "p3", "bold": True}))  # Heading 1 is already bold
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
        names = colour_names_in(f"make it {word}")
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


def _heading_1(*children) -> WordDocument:
    """The sample report with Heading 1's run properties ``w:color`` and ``w:u`` (`children`: tag, attributes) set."""
    doc = WordDocument.open(REPORT)
    style = next(s for s in doc.part._styles_part.element.iter(qn("w:style")) if s.get(qn("w:styleId")) == "Heading1")
    rpr = style.find(qn("w:rPr"))
    for tag, attrs in children:
        old = rpr.find(qn(tag))
        if old is not None:
            rpr.remove(old)
        rpr.insert(2, rpr.makeelement(qn(tag), {qn(k): v for k, v in attrs.items()}))
    return WordDocument.from_bytes(doc.to_bytes(), name="heading.docx")


def test_an_automatic_colour_is_black_without_an_instruction():
    """Automatic text colour and 000000 are one colour: a style coloured 000000 differed from one coloured
    automatically unless the instruction named black; a watermark's colour is not a text colour."""
    auto, black = _heading_1(("w:color", {"w:val": "auto"})), _heading_1(("w:color", {"w:val": "000000"}))
    assert judge(auto, black).equivalent and judge(black, auto, instruction="make the headings blue").equivalent
    verdict = judge(auto, _heading_1(("w:color", {"w:val": "0D0D0D"})))  # a near black is not black unless named
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
    assert judge(REPORT, _heading_1(("w:rFonts", {"w:ascii": "Calibri", "w:hAnsi": "Calibri"}))).equivalent
    verdict = judge(REPORT, _heading_1(("w:rFonts", {"w:ascii": "Arial", "w:hAnsi": "Arial"})))
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


def test_tolerances_change_nothing_where_there_is_no_difference_and_unknown_ones_are_refused():
    expected = edited(REPORT, ("set_text_format", {"paragraphs": "p3", "size_pt": 18, "color": "1F4E79"}))
    every = [{"colour": "dark blue"}, {"key": "size_pt", "within": 4}, {"heading_levels": [1, 2]}]
    same = judge(expected, edited(expected), tolerances=every)
    assert same.equivalent and same.tolerances_used == []
    with pytest.raises(ConfigError, match="not a tolerance"):
        judge(expected, expected, tolerances=[{"colour": "ultraviolet"}])
    with pytest.raises(ConfigError, match="not a tolerance"):
        judge(expected, expected, tolerances=[{"size_pt": 4}])
