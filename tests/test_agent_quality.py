"""Issue 18's techniques: grounding of quoted texts, the user's characters kept, rule checks beside the validator,
the verdict rule for incoherent confidences, and the end of a step that loops."""

from __future__ import annotations

import io

import docx
import pytest
from docx.shared import Cm

from autodw.agent import checks, grounding
from autodw.agent.checks import apis
from autodw.agent.assembly import profile_assembly
from autodw.agent.events import ConsoleReporter
from autodw.apis.calls import execute, validate_arguments
from autodw.apis import registry
from autodw.core.document import WordDocument
from autodw.core.errors import ConfigError
from autodw.analysis.state import extract_state
from tests.conftest import EXAMPLES
from tests.test_agent import DONE, PASS, FixedClassifier, agent_for, plan, texts


@pytest.fixture
def doc():
    return WordDocument.open(EXAMPLES / "report.docx")


@pytest.fixture
def state(doc):
    return extract_state(doc)


# --- quotes and grounding ------------------------------------------------------------------------------


def test_quotes_of_every_kind_and_an_ending_ellipsis():
    found = grounding.quotes('the "Next Meeting" heading, the "Testing found twelve..." paragraph, 以“团队……”开头的段落, '
                             "the project's 'Highlight Box' style, 「引用」")
    assert [(q.text, q.opening) for q in found] == [("Next Meeting", False), ("Testing found twelve", True),
                                                     ("团队", True), ("Highlight Box", False), ("引用", False)]
    assert grounding.quotes("the project's plan and the team's goals") == []  # apostrophes are not quotes


def test_a_quoted_heading_is_grounded_with_the_paragraphs_under_it(state):
    matches = grounding.ground(state, 'Move the "highlights" section after the "Next Steps" one.')
    assert [(m.id, m.how, m.under) for m in matches] == [("p3", "is", ("p4", "p6")), ("p32", "is", ("p33", "p37"))]
    text = grounding.grounding_lines(matches)
    assert '"highlights" -> p3 (paragraph) is "Highlights"; under it: p4 to p6 (the section ends after p6)' in text


@pytest.mark.parametrize("request_text, first", [
    ('The first paragraph under "Highlights" should just say "x" instead', "p4"),
    ("Make the opening paragraph of the Next Steps section bold", "p33"),
    ("把“Highlights”这一节的第一段加粗", "p4"),
    ("把“Next Steps”下面那段话改成斜体", "p33"),
    ('Add a paragraph under "Highlights"', None),  # a new paragraph, not one that is there
])
def test_the_first_paragraph_under_a_heading(state, request_text, first):
    matches = grounding.ground(state, request_text)
    assert (matches[0].id if matches[0].kind == "paragraph" and matches[0].how == "is" and
            matches[0].id not in ("p3", "p32") else None) == first
    if first:
        assert f"-> {first} (paragraph) is" in grounding.grounding_lines(matches).splitlines()[1]


def test_a_word_found_in_many_paragraphs_is_not_grounded(state):
    found = grounding.ground(state, "Replace every lowercase word 'sales' with 'revenue'")
    assert [m.quote for m in found if m.quote == "sales"] == []  # in six paragraphs, three of them headings
    assert [m.id for m in grounding.ground(state, "Bold 'Sales by Region'")][:1] == ["p7"]  # the heading's own text


def test_a_paragraph_named_by_its_opening_is_grounded_though_others_hold_those_words():
    """A quoted opening that one paragraph starts with names it, though more than MAX_MATCHES others quote it
    (a press digest citing one agency in every item; templated dev-outside dwo-032#2, #6, #7: the hosted ceiling)."""
    opening = "Moody’s Investors Service присвоило"
    paragraphs = [{"id": f"p{k}", "text": f"Сегодня {opening} рейтинг {k}."} for k in range(1, 6)]
    paragraphs.insert(2, {"id": "p9", "text": f"{opening} корпоративный рейтинг."})
    state = {"paragraphs": paragraphs, "tables": []}
    found = grounding.ground(state, f'Make the paragraph beginning "{opening}" italic.')
    assert [(m.id, m.how) for m in found] == [("p9", "starts")]
    # a word many paragraphs hold, though one starts with it, is still a text to search for
    state["paragraphs"].append({"id": "p10", "text": "Сегодня утром."})
    assert grounding.ground(state, 'Replace every "Сегодня" with "Вчера"') == []


def test_a_quoted_list_item_is_grounded_with_its_list(state):
    matches = grounding.ground(state, 'Remove the bullets from the list that starts with "North region exceeded"')
    assert (matches[0].id, matches[0].how, matches[0].items) == ("p4", "starts", ("p4", "p6"))  # then the North row
    assert "a list item: its list runs from p4 to p6" in grounding.grounding_lines(matches)
    assert grounding.ground(state, 'Bold "This report summarises sales"')[0].items is None  # not a list item


@pytest.mark.parametrize("request_text, found", [
    ("Make the West row bold and move the Next Steps section up",
     [("Next Steps", "p32", "heading"), ("West", "t1", "row r4 (index 4) of t1")]),
    ("Delete the first table.", [("first table", "t1", "table")]),
    ("把第一个表格居中", [("第一个表格", "t1", "table")]),
    ("Resize the chart to 10 cm and put the logo on the right",
     [("the chart", "chart1", "chart, in p41"), ("the logo", "img1", "picture, in p30")]),
    ("Make the company logo 6 cm wide",
     [("Company Logo", "p29", "heading"), ("the company logo", "img1", "picture, in p30")]),
    ("Take notes on the highlights; delete the third table.", []),  # a heading's word in lower case; no third table
])
def test_elements_named_without_quotes(state, request_text, found):
    assert [(m.quote, m.id, m.kind) for m in grounding.named(state, request_text)] == found


def test_the_sixth_table_and_the_empty_paragraphs_are_named():
    """What the hosted ceiling found missing from the view on DWBench 2.0 templated dev: a table past the fifth, and the
    empty paragraphs of a long document (outside the window, and the request names them all at once)."""
    state = {"paragraphs": [{"id": "p1", "text": "Intro"}, {"id": "p2", "text": " "},
                            {"id": "p3", "text": "", "images": ["img1"]}, {"id": "p4", "text": ""}],
             "tables": [{"id": f"t{n}", "cells": [[f"h{n}"]]} for n in range(1, 8)], "images": []}
    assert [(m.id, m.kind) for m in grounding.named(state, "给第六个表格加灰色双线外框")] == [("t6", "table")]
    assert [m.id for m in grounding.named(state, "Give the sixth table a border")] == ["t6"]
    for request in ("get rid of the blank lines (empty paragraphs) in the body", "把文档正文中的空行（空段落）都删掉"):
        assert [(m.id, m.kind) for m in grounding.named(state, request)] == [("p2", "empty paragraph"), ("p4", "empty paragraph")]
    assert grounding.named(state, "Add a line under the intro") == []


def _label(pid: str, text: str, size: float = 15.0, bold: bool = True) -> dict:
    return {"id": pid, "text": text, "style": "Normal", "runs": [{"text": text, "bold": bold, "size_pt": size}]}


def test_labels_standing_for_headings_are_named_with_what_follows_them():
    """DWBench 2.0 hand dev-third (local ceiling, planner view): documents without heading styles whose parts are
    named by short labels ("附件3", "表2", "续表2", "审 定 意 见", "DEFINITIONS"); the request says the label whole and the
    label's part runs up to the next paragraph that looks the same."""
    body = lambda pid, text: _label(pid, text, 16.0, False)  # noqa: E731
    state = {"paragraphs": [_label("p1", "附件1"), body("p2", "目录"), _label("p3", "表2"), body("p4", "说明"),
                            _label("p5", "续表2"), _label("p6", "审 定 意 见", 18.0, False), _label("p7", "附件3"),
                            body("p8", "1．营业执照复印件；"), body("p9", "2．商标复印件；"), _label("p10", "附件4"),
                            body("p11", "注：本表可放大填写。"), _label("p12", "DEFINITIONS"), body("p13", "N/A")],
             "tables": [], "images": []}
    found = lambda request: [(m.id, m.under) for m in grounding.named(state, request)]  # noqa: E731
    assert found("附件3那九条材料清单，行距设成1.5倍") == [("p7", ("p8", "p9"))]
    assert [i for i, _ in found("表2和续表2顶上的年份那三列")] == ["p3", "p5"]
    assert [i for i, _ in found("续表2的表头加粗")] == ["p5"]  # 表2 only inside 续表2
    assert [i for i, _ in found("审定意见那张表左边一栏太窄了")] == ["p6"]
    assert [i for i, _ in found("附件1到附件4这几个小标签字号不统一")] == ["p1", "p7", "p10"]  # the series by its ends
    assert [i for i, _ in found("附件12删掉")] == []
    assert found("rather than N/A, put in definitions") == [("p13", None)]
    assert found("Under DEFINITIONS, add a line") == [("p12", ("p13", "p13"))]
    # dev-seventh dwh-153#7: a label in capitals said capitalised; in lower case it is a word ("put in definitions")
    assert found("the two lines listed under Definitions") == [("p12", ("p13", "p13"))]
    assert found("make the notes shorter") == []


def test_dictated_text_names_no_target():
    """DWBench 2.0 hand dev-second's dwh-099#6 "and add another case after it" after "... a copy of the
    different_first_page one. It should say: A docx with ... a different first page header": the text a request gives
    to write is content, so its words name no label, heading or described paragraph, in the request or in the earlier
    one read for a back-reference; outside it, the same words still name the label."""
    state = {"paragraphs": [_label("p1", "First page header"), _label("p2", "Summary", 14.0, True),
                            {"id": "p3", "text": "odd_even_different_first_page: A docx with different odd/even headers",
                             "style": "List Paragraph", "runs": []}], "tables": [], "images": []}
    state["paragraphs"][1]["style"] = "Heading 1"
    previous = ("The last test case's description is a copy of the different_first_page one. It should say: A docx "
                "with different odd/even headers and a different first page header")
    assert grounding.named(state, previous) == []
    assert grounding.ground(state, "and add another case after it", previous=previous) == []
    for request in ("Change it to: see the Summary", 'Add a line "see the Summary" after it', "把结尾改成：详见 Summary",
                    "the footer should read First page header, centred"):
        assert grounding.named(state, request) == [], request
    assert [m.id for m in grounding.named(state, "Under First page header, add a line")] == ["p1"]
    assert [m.id for m in grounding.named(state, "Move the Summary section up. It should say: done")] == ["p2"]
    assert grounding.undictated("It should say: A, B. Then bold it") == "It should say:" + " " * 5 + ". Then bold it"


def test_a_change_back_grounds_the_previous_instruction():
    """DWBench 2.0 hand dev-third's "算了，这样一页放不下，改回单倍行距" after "附件3那九条材料清单，行距设成1.5倍": a change
    back names nothing itself; it is about what the previous instruction named."""
    state = {"paragraphs": [_label("p1", "附件3"), _label("p2", "1．营业执照复印件；", 16.0, False)], "tables": [], "images": []}
    for request in ("算了，这样一页放不下，改回单倍行距", "no, change back to single spacing"):
        found = grounding.ground(state, request, previous="附件3那九条材料清单，行距设成1.5倍")
        assert [(m.id, m.earlier) for m in found] == [("p1", True)]


def test_the_empty_paragraphs_of_a_named_part_are_those_named():
    """DWBench 2.0 hand dev-third's "附件3清单最后面那几个空行删掉": the empty paragraphs of the part the request names
    (past the first MAX_EMPTY_SHOWN of the document), not the document's first ones."""
    empty = lambda pid: {"id": pid, "text": "", "style": "Normal", "runs": []}  # noqa: E731
    state = {"paragraphs": [_label("p1", "附件1"), empty("p2"), empty("p3"), _label("p4", "附件3"),
                            _label("p5", "1．营业执照复印件；", 16.0, False), empty("p6"), empty("p7")],
             "tables": [], "images": []}
    assert [m.id for m in grounding.named(state, "附件3清单最后面那几个空行删掉") if m.kind == "empty paragraph"] == ["p6", "p7"]
    assert [m.id for m in grounding.named(state, "空行都删掉")] == ["p2", "p3", "p6", "p7"]


def test_the_nth_table_is_also_named_counting_only_grids_when_that_is_another():
    """A one-row or one-column table reads as a box: DWBench 2.0 templated dev's "第六个表格" is the sixth of the
    tables of 2x2 or more (found by the hosted ceiling); both readings are shown, each saying which it is."""
    def table(n: int, rows: int, cols: int) -> dict:
        return {"id": f"t{n}", "rows": rows, "cols": cols, "cells": [[f"h{n}"] * cols] * rows}

    boxed = {"paragraphs": [], "images": [], "tables": [table(1, 1, 1)] + [table(n, 2, 3) for n in range(2, 9)]}
    assert [(m.id, m.kind) for m in grounding.named(boxed, "给第六个表格加灰色双线外框")] == [
        ("t6", "table"), ("t7", "table, counting only tables of 2 rows and 2 columns or more")]
    assert [m.id for m in grounding.named(boxed, "the last table")] == ["t8"]  # the same either way: once
    grids = {**boxed, "tables": [table(n, 2, 3) for n in range(1, 9)]}
    assert [m.id for m in grounding.named(grids, "the sixth table")] == ["t6"]


def test_paragraphs_described_by_what_they_say(state):
    found = grounding.described(state, "Add a comment to the paragraph about the logo being used on customer material.")
    assert found[0].id == "p31" and found[0].how == "about"  # "The logo above is used on all customer-facing material."
    assert [m.quote for m in grounding.described(state, "Make the paragraph about pricing italic")][:1] == ["pricing"]
    assert grounding.described(state, "Make the paragraph about zebras bold") == []  # no paragraph shares a word
    # "the logo" inside a description is not the picture
    assert not [m for m in grounding.named(state, "Comment on the paragraph about the logo") if m.kind == "picture"]


def test_an_opening_a_cell_and_new_text(state):
    matches = grounding.ground(state, 'Bold the "The table below..." paragraph and the "West" row; add "Brand new text".')
    assert [(m.quote, m.id, m.how) for m in matches][:1] == [("The table below", "p8", "starts")]
    west = [m for m in matches if m.quote == "West"]
    assert [(m.id, m.kind, m.how) for m in west] == [("p25", "cell of t1 row r4 (index 4), column index 0", "is"),
                                                     ("p35", "paragraph", "contains")]  # the exact match first
    assert not [m for m in matches if m.quote == "Brand new text"]


def test_grounding_skips_cells_covered_by_a_merge():
    state = {"paragraphs": [], "tables": [{"id": "t1", "cell_details": [[{"paragraphs": [{"id": "p1", "text": "AB"}]},
                                                                            None]]}]}
    assert [m.id for m in grounding.ground(state, 'the "AB" cell')] == ["p1"]


def _two_tables(language: str = "zh") -> dict:
    """A contract with two tables: the services' prices under clause 3, and the signatures."""
    zh = language == "zh"
    paras = [{"id": "p1", "text": "第三条 费用" if zh else "3. Fees", "style": "Heading 1"},
             {"id": "p2", "text": "服务按下表价格结算。" if zh else "Services are billed at these prices."},
             {"id": "p3", "text": "第四条 签字" if zh else "4. Signatures", "style": "Heading 1"},
             {"id": "p4", "text": "双方签字如下。" if zh else "Both parties sign below."}]
    return {"paragraphs": paras, "images": [], "tables": [
        {"id": "t1", "rows": 3, "cols": 2, "after_paragraph": "p2",
         "cells": [["服务" if zh else "Service", "单价" if zh else "Rate"], ["保洁", "50"], ["清洗", "80"]]},
        {"id": "t2", "rows": 2, "cols": 2, "after_paragraph": "p4",
         "cells": [["甲方" if zh else "Client", "乙方" if zh else "Contractor"], ["", ""]]}]}


@pytest.mark.parametrize("language, request_text, said, table", [
    ("zh", "第三条下面那个价格表，表头加粗，底色弄成浅灰色", "表头", "t1"),  # named by what the text before it says
    ("zh", "把价格那个表格的表头加粗", "表头", "t1"),
    ("zh", "第二个表的标题行加粗", "标题行", "t2"),  # the n-th
    ("en", "Make the top row of the second table bold", "top row", "t2"),
    ("en", "Give that price table's header row a grey fill", "table's header row", "t1"),
    ("en", "The rates table's heading row should be bold", "heading row", "t1"),
])
def test_a_tables_header_row_is_grounded(language, request_text, said, table):
    state = _two_tables(language)
    matches = grounding.ground(state, request_text)
    assert [(m.quote, m.id, m.kind) for m in matches][:1] == [(said, table, "its header row, row r0 (index 0)")]
    first_row = " | ".join(next(t for t in state["tables"] if t["id"] == table)["cells"][0])
    assert f'"{said}" -> {table} (its header row, row r0 (index 0)) is "{first_row}"' in grounding.grounding_lines(matches)


def test_of_the_tables_a_description_shares_words_with_the_one_sharing_most_is_named():
    state = _two_tables("en")  # the client services billing table: "services", "billed" in t1, "Client" in t2
    assert [t["id"] for t in grounding.tables_named(state, "the client services billing table")] == ["t1"]
    assert [t["id"] for t in grounding.tables_named(state, "the client table")] == ["t2"]


@pytest.mark.parametrize("label, request_text", [("表", "在表1最后加一行"), ("表", "表 1 的表头加粗"),
                                                  ("Table", "Add a row to Table 1")])
def test_a_table_named_by_its_caption_number_is_the_captioned_table(label, request_text):
    """"Table 1" / "表1" names the table captioned so (Word's Chinese label 表 too), not the first table."""
    doc = WordDocument.open(EXAMPLES / "report.docx")
    execute(doc, "insert_table", {"rows": 2, "cols": 2, "position": "end"})
    second = extract_state(doc)["tables"][1]["id"]
    execute(doc, "insert_caption", {"target": second, "text": "Costs", "label": label})
    state = extract_state(doc)
    assert [t["id"] for t in grounding.tables_named(state, request_text)] == [second]
    assert [(m.id, m.kind) for m in grounding.named(state, request_text) if m.kind.startswith("table")] == \
        [(second, "table, by its caption")]


@pytest.mark.parametrize("language, request_text, previous", [
    ("zh", "这个表的表头弄成深蓝底白字", "第二个表里把甲方改成买方"),
    ("en", "Now make that table's top row bold", "Add an empty row to the second table"),
])
def test_the_header_row_of_a_table_the_previous_instruction_named(language, request_text, previous):
    state = _two_tables(language)
    assert [(m.id, m.kind, m.earlier) for m in grounding.ground(state, request_text, previous)] == [
        ("t2", "its header row, row r0 (index 0)", False)]
    assert grounding.ground(state, request_text) == []  # which table, without the instruction before?


def test_the_header_row_of_the_only_table_and_what_is_no_header_row(state):
    for request in ("Make the header row bold", "Also that table's top row should stand out more", "表头加粗居中"):
        assert [(m.id, m.kind) for m in grounding.named(state, request)][:1] == [("t1", "its header row, row r0 (index 0)")]
    for request in ("Bold the top row", "首行缩进2字符", "第一行加粗"):  # no table named: a page's top, a first line
        assert not [m for m in grounding.named(state, request) if "header row" in m.kind]
    assert not [m for m in grounding.named(_two_tables(), "表头加粗") if "header row" in m.kind]  # which of the two?
    both = grounding.ground(state, "Make the header row and the West row of the first table bold")
    assert [(m.id, m.kind) for m in both] == [("t1", "its header row, row r0 (index 0)"),
                                             ("t1", "row r4 (index 4) of t1")]  # the row label's line stays


@pytest.mark.parametrize("request_text, previous, found", [
    ("and put a caption under it saying On-time delivery by quarter", "The chart under Sales Chart is tiny", "chart1"),
    ("给它加个图注", "Make the company logo 6 cm wide", "img1"),
    ("Make them numbered rather than bullets", 'Bold "North region exceeded its target by 12%."', "p4"),
])
def test_a_request_that_only_refers_back_grounds_the_previous_instruction(state, request_text, previous, found):
    matches = grounding.ground(state, request_text, previous=previous)
    assert found in [m.id for m in matches] and all(m.earlier for m in matches)
    lines = grounding.grounding_lines(matches)
    assert lines.startswith("Elements the previous instruction named (what the request refers back to):\n")
    assert grounding.ground(state, request_text) == []  # the first instruction of a session


def test_a_request_that_grounds_something_or_has_no_pronoun_does_not_ground_the_previous_one(state):
    previous = "Resize the chart to 10 cm"
    assert [m.earlier for m in grounding.ground(state, "Make the West row bold too; it stands out", previous)] == [False]
    assert grounding.ground(state, "Add a page break at the end", previous) == []  # no pronoun
    assert grounding.ground(state, "再加粗一点", "把图表放大") == []


def _contents() -> dict:
    """A document with a table of contents whose entries have the headings' texts (and page numbers)."""
    paras = [{"id": "p1", "text": "Contents", "style": "TOC Heading"}, {"id": "p2", "text": "Education\t2", "style": "TOC 1"},
             {"id": "p3", "text": "风险", "style": "TOC 1"}, {"id": "p4", "text": "Missing", "style": "toc 2"},
             {"id": "p5", "text": "Education", "style": "Heading 1"}, {"id": "p6", "text": "MSc, Leeds.", "style": "Normal"},
             {"id": "p7", "text": "风险", "style": "Heading 1"}, {"id": "p8", "text": "供应商延误。", "style": "Normal"}]
    return {"paragraphs": paras, "tables": [], "images": []}


def test_contents_entries_are_not_the_headings_they_name():
    state = _contents()
    assert grounding.contents_entries(state) == {"p2": "p5", "p3": "p7", "p4": None}
    assert [m.id for m in grounding.ground(state, 'Move the "Education" section to the end')] == ["p5"]
    assert [m.id for m in grounding.ground(state, "把“风险”这一节挪到最后")] == ["p7"]
    assert [m.id for m in grounding.named(state, "swap the Education and 风险 sections")] == ["p5", "p7"]
    assert [m.id for m in grounding.ground(state, 'Bold "Missing"')] == ["p4"]  # an entry without its heading


def test_contents_entries_are_shown_as_entries_with_their_heading():
    from autodw.agent import views

    marked = views.contents_marked(_contents())["paragraphs"]
    assert [p["text"] for p in marked[1:4]] == ["Education\t2 (a contents entry; the heading is p5)",
                                                "风险 (a contents entry; the heading is p7)", "Missing (a contents entry)"]
    assert [p["text"] for p in marked[4:]] == [p["text"] for p in _contents()["paragraphs"][4:]]  # the rest as it was
    unmarked = {"paragraphs": _contents()["paragraphs"][4:], "tables": [], "images": []}
    assert views.contents_marked(unmarked) is unmarked


def test_a_picture_or_chart_is_grounded_with_the_paragraph_holding_it(state):
    matches = grounding.named(state, "Move the table up so it comes before the chart, and shrink the logo")
    assert [(m.id, m.kind) for m in matches] == [("chart1", "chart, in p41"), ("img1", "picture, in p30")]
    assert '"the chart" -> chart1 (chart, in p41)' in grounding.grounding_lines(matches)
    assert [m.id for m in grounding.named(state, "配送表现里那个柱状图换成折线图")] == ["chart1"]


def test_paragraphs_named_by_words_before_sentence_line_or_paragraph(state):
    assert [m.id for m in grounding.described(state, "Leave a comment on the logo sentence asking who approved it")][:1] \
        == ["p31"]  # "The logo above is used on all customer-facing material."
    assert [m.id for m in grounding.described(state, "Italicise the unaudited figures paragraph")][:1] == ["p39"]
    assert grounding.described(state, "Make the first paragraph and the next two lines bold") == []  # no description
    assert grounding.described(state, "Join the paragraph after it into one paragraph") == []  # no words of its own
    zh = extract_state(WordDocument.open(EXAMPLES / "contract_zh.docx"))
    assert [m.id for m in grounding.described(zh, "帮我把生效那句话改成斜体")][:1] == ["p25"]
    assert grounding.described(zh, "表头那行加粗") == []  # a table's header row, not a paragraph
    assert grounding.described(zh, "第一条下面那段加粗") == []  # the paragraph under a heading, not one about it
    assert [m.quote for m in grounding.described(state, "Bold the pricing in the bold review sentence")][:1] == ["review"]


def test_a_note_named_by_its_brackets_is_grounded_when_few_paragraphs_are_in_brackets():
    """hand dev-second: "the note in brackets under the break-even formula should be in italics"."""
    request = "last thing, the note in brackets under the break-even formula should be in italics"
    texts = ["Break-Even Analysis", "Expressed as a formula, break-even is:", "(Where fixed costs are in dollars.)",
             "Include all assumptions (in brackets too)."]
    state = {"paragraphs": [{"id": f"p{n}", "text": t, "style": "Normal"} for n, t in enumerate(texts)], "tables": []}
    assert [(m.id, m.kind) for m in grounding.ground(state, request)] == [("p2", "paragraph in brackets")]
    assert grounding.ground(state, "italicise the note under the break-even formula") == []
    many = {**state, "paragraphs": state["paragraphs"] + [{"id": f"p{n}", "text": "(Insert text here.)", "style": "Normal"}
                                                          for n in range(4, 8)]}
    assert grounding.ground(many, request) == []  # a form many paragraphs have names none


def test_a_latin_run_in_a_chinese_request_is_looked_up_like_a_quote(state):
    found = grounding.ground(state, "Next Steps 下面 Review pricing 那条改成斜体")
    assert [(m.quote, m.id, m.how) for m in found][:2] == [("Next Steps", "p32", "is"), ("Review pricing", "p34", "starts")]
    assert [m.quote for m in grounding.ground(state, "字号改成 12 pt，用 Arial")] == []  # units, a font not in the text
    assert not [m for m in grounding.ground(state, "Review pricing should be italic") if m.quote == "Review pricing"]


def test_the_users_characters_are_written_back():
    quotes = ["工作将在五月至十二月间分三个阶段进行。", "Next Meeting"]
    args = {"text": "工作将在五月至十二月间分三个阶段进行.", "items": ["x", "工作将在五月至十二月间分三个阶段进行."], "n": 2}
    assert grounding.keep_user_characters(args, quotes) == {
        "text": quotes[0], "items": ["x", quotes[0]], "n": 2}
    assert grounding.keep_user_characters("Next meeting", quotes) == "Next meeting"  # case is the model's to change


# --- rule checks -----------------------------------------------------------------------------------------


def test_a_call_that_changes_nothing_is_certain_to_be_wrong(state):
    found = checks.check_call("Make p3 bold.", "Make Highlights bold.", "set_bold", {"paragraphs": "p3"}, state, state)
    assert [(f.check, f.certain) for f in found] == [("unchanged", True)]
    assert checks.check_call("Update the fields.", "Update fields.", "update_fields", {}, state, state) == []


@pytest.mark.parametrize("style_indent_cm, unchanged", [(None, True), (2.0, False)])
def test_a_style_list_written_again_as_direct_numbering_is_unchanged_unless_its_indent_moves(style_indent_cm, unchanged):
    """dwb-242#4's fault: a bulleted list set to bulleted again. The state records only that the list no longer comes
    from the style; when the style has an indent of its own, the level's now wins and the paragraph moves."""
    made = docx.Document()
    if style_indent_cm is not None:
        made.styles["List Bullet"].paragraph_format.left_indent = Cm(style_indent_cm)
    for text in ("Unpack the machine", "Rinse the tank"):
        made.add_paragraph(text, style="List Bullet")
    buffer = io.BytesIO()
    made.save(buffer)
    doc = WordDocument.from_bytes(buffer.getvalue())
    before = extract_state(doc)
    args = {"kind": "bullet", "paragraphs": ["p1", "p2"]}
    execute(doc, "set_list_format", args)
    after = extract_state(doc)
    assert before != after and all(p["list"].get("by_style") for p in before["paragraphs"])
    found = checks.check_call("Make it a bulleted list.", "Make the list bulleted.", "set_list_format", args, before,
                              after)
    assert [f.check for f in found if f.check == "unchanged"] == (["unchanged"] if unchanged else [])


def test_an_altered_quote_is_certain_and_the_exact_one_or_a_case_change_is_not(state):
    instruction = 'Add the sentence "For any question, contact the office manager." at the end.'
    bad = checks.check_call("Insert it.", instruction, "insert_paragraph",
                            {"text": "For any question, contact the manager."}, state, {})
    assert [f.check for f in bad] == ["altered_quote"] and bad[0].certain
    assert "office manager" in bad[0].text
    for text in ("For any question, contact the office manager.", "for any question, contact the office manager"):
        assert checks.check_call("Insert it.", instruction, "insert_paragraph", {"text": text}, state, {}) == []


@pytest.mark.parametrize("request_text, args, altered", [
    ("Title the chart 'Key figures'", {"chart": "chart1", "title": "Key"}, True),  # the last word dropped
    ("Title the chart 'Key figures'", {"chart": "chart1", "title": "Key figures draft"}, True),  # a word added
    ("Title the chart 'Key figures'", {"chart": "chart1", "title": "Key figures"}, False),
    ("Title the chart 'Key figures'", {"chart": "chart1", "title": "key figures."}, False),  # case, final punctuation
    ("Key numbers first: title the chart 'Key figures'", {"chart": "chart1", "title": "Key"}, False),  # said apart
    ("Title the chart 'Table 1: Key figures'", {"chart": "chart1", "title": "Key figures"}, False),  # a label left out
])
def test_words_added_to_or_dropped_from_a_quote(state, request_text, args, altered):
    found = checks.check_call("Set the chart title.", request_text, "set_chart_title", args, state, {})
    assert [f.check for f in found] == (["altered_quote"] if altered else [])


@pytest.mark.parametrize("text, altered", [
    ("安装前请确认服务器满足下面的系统要求，并准备好数据库的连接地址、用户名和密码。", False),  # a sentence of its own
    ("安装前请确认服务器满足下面的系统要求", True),  # no sentence: the quote with words added
    ("安装说明。", True),  # a sentence, but hardly longer than the quote
])
def test_a_sentence_of_its_own_opening_with_a_quote_is_not_an_altered_quote(state, text, altered):
    """dev-seventeenth dwh-281#3: after the chapter title "安装" the request quotes, "a sentence on what to prepare
    before installing" opens with the title's word."""
    request = "引言后面新开一章“安装”，先一句话说明安装前要准备什么，然后列出安装步骤，用编号列表"
    found = checks.check_call("Insert it.", request, "insert_paragraph", {"text": text, "position": {"after": "p2"}},
                              state, {})
    assert [f.check for f in found if f.check == "altered_quote"] == (["altered_quote"] if altered else [])


@pytest.mark.parametrize("text, altered", [
    ("Acme Works Ltd\n1 Mill Lane, Leeds", False),  # the two quotes as two lines
    ("Acme Works Ltd | 1 Mill Lane, Leeds", False),  # joined by a bar
    ("Acme Works Ltd\n1 Mill Lane, Leeds\nEngland", True),  # a line the request does not have
    ("Acme Works Limited\n1 Mill Lane, Leeds", True),  # a quote altered within its line
    ("Acme Works Ltd 1 Mill Lane, Leeds", True),  # run together on one line: words added to the first quote
])
def test_quotes_written_as_lines_of_one_text_are_not_an_altered_quote(state, text, altered):
    """Hand dev-seventh dwh-151#1: a name and, on the line below, an address, both quoted, written as one header."""
    request = 'Put "Acme Works Ltd" centred in the header, with "1 Mill Lane, Leeds" on the line below it.'
    found = checks.check_call("Set the header.", request, "set_header_footer",
                              {"section": 0, "where": "header", "text": text}, state, {})
    assert [f.check for f in found if f.check == "altered_quote"] == (["altered_quote"] if altered else [])


def test_a_searched_text_or_another_quote_is_not_an_altered_quote(state):
    request = 'Replace "办公室" with "办公场所", and add the paragraph "办公室已搬迁" after p2'
    assert checks.check_call("Insert it.", request, "insert_paragraph", {"text": "办公室已搬迁", "position": {"after": "p2"}},
                             state, {}) == []
    assert [f.check for f in checks.check_call("Replace it.", request, "replace_text",
                                               {"find": "办公室", "replace": "办公场所草稿"}, state, {})] == ["altered_quote"]
    assert checks.check_call("Bold it.", "Bold 'Revenue grew' in p2", "set_text_format",
                             {"paragraphs": "p2", "span": {"match": "Revenue"}, "bold": True}, state, {}) == []


def test_searched_words_respaced_around_a_quote_are_not_an_altered_quote(state):
    """Hand dev-fifth: a double space before 'text' fixed by writing back the words the call looks for, one space
    between them: the quote sits among the document's words, none added. Words the call adds are still an alteration."""
    request = "the note about selecting Arabic and English has a double space before 'text'."
    assert checks.check_call("Fix it.", request, "replace_text", {"find": "English  text", "replace": "English text"},
                             state, {}) == []
    assert [f.check for f in checks.check_call("Fix it.", request, "replace_text",
                                               {"find": "English  text", "replace": "Arabic text"}, state, {})] \
        == ["altered_quote"]


def test_a_space_added_to_the_searched_words_is_not_an_altered_quote(state):
    """Hand dev-eleventh: a missing space after a quote put back by writing the words the call looks for with the
    space added; a word changed as well is still an alteration."""
    request = 'the item list lacks a space after "(part two)" in a few places, please fix'
    state = {**state, "paragraphs": [{**state["paragraphs"][0], "text": "Notes (part two)and more"},
                                     *state["paragraphs"][1:]]}
    assert checks.check_call("Fix it.", request, "replace_text", {"find": "(part two)and", "replace": "(part two) and"},
                             state, {}) == []
    assert [f.check for f in checks.check_call("Fix it.", request, "replace_text",
                                               {"find": "(part two)and", "replace": "(part two) or"}, state, {})] \
        == ["altered_quote"]


def test_a_quote_the_call_replaces_or_fills_in_or_labels_or_the_user_typed_is_not_altered(state):
    """What the hosted ceiling found rejected on DWBench 2.0 dev (hand and templated): the old text quoted to be fixed,
    a passage quoted around the text to change, a live template for an example of its output, a caption's label."""
    fix = 'a few entries say "docx  (one section)with", with two spaces before the bracket. Fix the spacing'
    assert checks.check_call("Fix it.", fix, "replace_text", {"find": "docx  (one section)with",
                                                              "replace": "docx (one section) with"}, state, {}) == []
    typed = "“2006年1月1日以后”也改成2007年1月1日"
    assert checks.check_call("Fix it.", typed, "replace_text", {"find": "2006年1月1日", "replace": "2007年1月1日"},
                             state, {}) == []
    live = "The page header shows 'Page x of y'. Put the name in front, like 'Harbour Lane Bakery | Page 3 of 31'."
    assert checks.check_call("Set it.", live, "set_header_footer", {"text": "Harbour Lane Bakery | Page {PAGE} of {NUMPAGES}",
                                                                    "where": "header"}, state, {}) == []
    assert checks.check_call("Set it.", live, "set_header_footer", {"text": "Harbour Lane Bakery | Page {PAGE}",
                                                                    "where": "header"}, state, {})  # a field short
    caption = 'caption the table as "Table 1: Summary of the details"'
    assert checks.check_call("Caption it.", caption, "insert_caption", {"target": "t1", "text": "Summary of the details"},
                             state, {}) == []
    assert checks.check_call("Caption it.", caption, "insert_caption", {"target": "t1", "text": "Summary of details"},
                             state, {})
    for label in ("公式", "图"):  # Word's Chinese labels, which the caption API writes too
        zh = f"给第一个表下面加题注“{label} 2：能量守恒的推导过程”"
        assert checks.check_call("Caption it.", zh, "insert_caption", {"target": "t1", "text": "能量守恒的推导过程",
                                                                       "label": label}, state, {}) == []


def test_a_quote_with_the_item_number_the_documents_list_has_is_not_altered():
    """hand dev-paraphrased: the new item of a list numbered by hand takes the next number."""
    request = "附件3的清单加一条“申请人近三年财务审计报告复印件”，放在“其他相关证书”前面，格式照上面几条，之后的序号顺延"
    numbered = {"paragraphs": [{"id": "p1", "text": "8．出口证明；"}, {"id": "p2", "text": "9．其他相关证书。"}]}
    call = ("Insert it.", request, "insert_paragraph", {"text": "9．申请人近三年财务审计报告复印件；", "position": {"before": "p2"}})
    assert checks.check_call(*call, numbered, {}) == []
    plain = {"paragraphs": [{"id": "p1", "text": "出口证明；"}, {"id": "p2", "text": "其他相关证书。"}]}
    assert [f.check for f in checks.check_call(*call, plain, {})] == ["altered_quote"]  # no list numbered so


def test_a_text_of_the_document_with_a_part_replaced_by_the_quote_is_not_altered():
    """hand dev-second: "改成“办公场所保洁服务合同”，页眉里的合同名也跟着改一下": the header keeps its other words."""
    request = "标题太笼统了，改成“办公场所保洁服务合同”，页眉里的合同名也跟着改一下"
    header = {"section": 0, "where": "header", "text": "办公场所保洁服务合同 - 远航机器人"}
    state = {"paragraphs": [{"id": "p1", "text": "服务合同"}],
             "page_layout": {"sections": [{"headers": {"default": {"text": "服务合同 - 远航机器人"}}}]}}
    assert checks.check_call("Set it.", request, "set_header_footer", header, state, {}) == []
    no_header = {"paragraphs": [{"id": "p1", "text": "服务合同"}], "page_layout": {"sections": [{"headers": {}}]}}
    assert [f.check for f in checks.check_call("Set it.", request, "set_header_footer", header, no_header, {})] == \
        ["altered_quote"]  # words the document does not have beside the name
    added = {**header, "text": "办公场所保洁服务合同 - 远航机器人 草稿"}
    assert [f.check for f in checks.check_call("Set it.", request, "set_header_footer", added, state, {})] == \
        ["altered_quote"]


@pytest.mark.parametrize("request_text, footer, text, altered", [
    ("页脚的公司名前面少了“华东”两个字，改成跟封面一样的全称", "精密仪器有限公司", "华东精密仪器有限公司", False),
    ("页脚的公司名前面少了“华东”两个字，改成跟封面一样的全称", "精密仪器有限公司", "华东精密仪器有限公司草稿", True),
    ("页脚的公司名前面少了“华东”两个字，改成跟封面一样的全称", "仪器有限公司", "华东精密仪器有限公司", True),
    ("The footer lost the word 'Northern' in front of the company name", "Instruments Ltd", "Northern Instruments Ltd",
     False),
    ("The footer lost the word 'Northern' in front of the company name", "Instruments Ltd",
     "Northern Instruments Ltd draft", True),
])
def test_a_text_of_the_document_with_the_quote_put_into_it_is_not_altered(request_text, footer, text, altered):
    """hand dev-tenth: a quoted word missing from a header, put back into the header's text, adds no words."""
    state = {"paragraphs": [{"id": "p1", "text": "Cover"}],
             "page_layout": {"sections": [{"footers": {"default": {"text": footer}}}]}}
    found = checks.check_call("Set it.", request_text, "set_header_footer",
                              {"section": 0, "where": "footer", "text": text}, state, {})
    assert [f.check for f in found] == (["altered_quote"] if altered else [])


@pytest.mark.parametrize("paragraph, altered", [("6．培训记录。", False), ("6．培训资料。", True)])
def test_a_searched_text_holding_a_quote_with_the_documents_words_around_it_is_not_altered(paragraph, altered):
    """hand dev-tenth: the item after a new one numbered on by hand, looked for with its number, which the document
    has before the quoted words; a text the document does not have is still an altered quote."""
    request = "清单最后那条“培训记录”前面再加一条：安全检查表。格式跟上面一样，后面的序号顺延"
    state = {"paragraphs": [{"id": "p1", "text": "5．考勤表；"}, {"id": "p2", "text": paragraph}]}
    found = checks.check_call("Renumber it.", request, "replace_text", {"find": "6．培训记录", "replace": "7．培训记录"},
                              state, {})
    assert [f.check for f in found] == (["altered_quote"] if altered else [])


@pytest.mark.parametrize("replace, altered", [
    ("the figures were", False),  # the quoted change, the words both quotes share left out
    ("the figures were checked", True),  # a word of the shared end written as well: written twice
    ("the figures were check", True),  # a word of the shared end, cut short, written as well
])
def test_the_quoted_change_without_the_words_both_quotes_share_is_not_altered(state, replace, altered):
    """hand dev-tenth: an old and a new text quoted, the call replaces only the words that differ."""
    request = "'the figures was checked by' is in the method section twice; it should say 'the figures were checked by'"
    found = checks.check_call("Fix it.", request, "replace_text", {"find": "the figures was", "replace": replace},
                              state, {})
    assert [f.check for f in found if f.check == "altered_quote"] == (["altered_quote"] if altered else [])


@pytest.mark.parametrize("request_text, template, unasked", [
    ("页脚只剩一个数字了，换成“第N页/共M页”的样子", "第 {PAGE} 页/共 {NUMPAGES} 页", False),  # hand dev-tenth, local
    ("页脚只剩一个数字了，换成“第 1 页，共 9 页”的样子", "第 {PAGE} 页，共 {NUMPAGES} 页", False),
    ("页脚只剩一个数字了，换成“第N页”的样子", "第 {PAGE} 页/共 {NUMPAGES} 页", True),  # a field the quote lacks
    ("页脚只剩一个数字了，换成“第N章”的样子", "第 {PAGE} 页", True),  # other words than the template's
])
def test_a_quote_of_what_a_field_template_shows_names_its_api(request_text, template, unasked):
    """The request quotes the page number as it should show, a letter or number for each field: that names the
    page numbers, which the request need not call so."""
    from autodw.agent.checks.apis import unasked_api

    found = unasked_api("insert_page_numbers", request_text, args={"template": template, "where": "footer"})
    assert [f.check for f in found] == (["unasked_api"] if unasked else [])


def test_a_follow_up_names_its_thing_in_the_instruction_before_it(state):
    from autodw.agent.checks.apis import unasked_api

    assert unasked_api("insert_row", "add one more action at the end: book the rooms, Li Wei, due 1 August")
    assert unasked_api("insert_row", "add one more action at the end: book the rooms, Li Wei, due 1 August",
                       previous="In the actions table, write the owners out properly.") == []
    assert unasked_api("insert_row", "add one more action at the end", previous="Fix the month in the welcome line.")
    found = checks.check_call("Centre it.", "Centre it as well", "set_image_alignment", {"image": "img1", "alignment": "center"},
                              state, {}, previous="The screenshot is far too tall. Shrink it to half its size.")
    assert "unasked_api" not in [f.check for f in found]


def test_a_table_called_by_its_caption_or_title_names_the_calls_table():
    """hand dev-paraphrased: "Add 2024 to the year overview" for the table captioned "Table 1: Year overview"."""
    from autodw.agent.checks.apis import unasked_api

    before = {"paragraphs": [{"id": "p12", "text": "Led the rollout.", "style": "Normal"},
                             {"id": "p13", "text": "Table 1: Year overview", "style": "Caption"},
                             {"id": "p26", "text": "Education", "style": "Heading 1"}],
              "tables": [{"id": "t1", "after_paragraph": "p13"}, {"id": "t2", "after_paragraph": "p26"}]}
    request = "Add 2024 to the year overview - Head of Delivery with a team of 18"
    assert unasked_api("insert_row", request, args={"table": "t1", "index": 4}, before=before) == []
    assert unasked_api("insert_row", request, args={"table": "t2", "index": 1}, before=before)  # another table
    assert unasked_api("insert_row", "Add 2024 to my career - Head of Delivery", args={"table": "t1"}, before=before)
    assert unasked_api("delete_row", "the year overview is fine", args={"table": "t1"}, before=before)  # no deletion


def test_a_letter_typed_three_times_names_the_thing_as_the_word_does():
    """"the commment about the park booking can go now" (DWBench 2.0 hand dev, found by the hosted ceiling)."""
    from autodw.agent.checks.apis import unasked_api

    assert unasked_api("delete_comment", "the commment about the park booking can go now") == []
    assert unasked_api("delete_comment", "the park booking can go now")
    assert unasked_api("delete_comment", "the commment about the park booking needs a date")  # still no deletion


def test_a_thing_that_can_go_too_is_deleted():
    """"And its comment can go too." asks the comment's deletion as "can go" does (hand dev-thirtieth dwh-433#7)."""
    from autodw.agent.checks.apis import unasked_api

    assert unasked_api("delete_comment", "Take p6 back to normal text. And its comment can go too.") == []
    assert unasked_api("delete_comment", "the comment can go as well") == []
    assert unasked_api("delete_comment", "the comment can go too far")  # no deletion


def test_a_running_head_names_the_header():
    """A running head is the header ("The running head on the inner pages still says First author et. al. - should
    be Nair et al.", hand dev-thirtieth dwh-430#3)."""
    from autodw.agent.checks.apis import unasked_api

    assert unasked_api("set_header_footer", "The running head on the inner pages should be Nair et al.") == []
    assert unasked_api("set_header_footer", "The running text on the inner pages should be Nair et al.")


def test_empty_lines_said_too_many_and_a_lettered_list_restarted_name_their_apis():
    """Extra empty lines ask a deletion, a lettered list restarted asks a list format (hand dev-twenty-fifth
    dwh-369#5, dwh-373#3, local ceiling)."""
    from autodw.agent.checks.apis import unasked_api

    assert unasked_api("delete_block", "there are two empty lines between the greeting and the text, one is enough") == []
    assert unasked_api("delete_block", "two blank lines after the title is one too many") == []
    assert unasked_api("delete_block", "the greeting should be bold")  # still no deletion
    said = "The answers to question 2 are lettered D, E, F, they should start again from A"
    assert unasked_api("set_list_format", said) == []
    assert unasked_api("set_list_format", "the answers should start again from A") == []
    assert unasked_api("insert_list", "add the lettered answers under question 3") == []
    assert unasked_api("set_list_format", "the answers to question 2 are wrong, fix the letters")


def test_a_note_withdrawn_with_che_asks_its_deletion():
    """撤掉/撤下 (withdraw) asks a deletion in every entry sharing the deletion words (hand dev-twenty-eighth dwh-412#8,
    rule checks)."""
    from autodw.agent.checks.apis import unasked_api

    assert unasked_api("delete_footnote", "算了，脚注先不加了，撤掉") == []
    assert unasked_api("delete_comment", "把那条批注撤下来") == []
    assert unasked_api("delete_footnote", "脚注的字号改小一点")  # still no deletion


def test_cells_and_captions_that_begin_with_another_quote_are_not_altered(state):
    request = 'Insert a table with the header "Task", "Status" and the caption "Task status" after p2'
    assert checks.check_call("Insert it.", request, "insert_table", {"data": [["Task", "Status"]],
                                                                     "position": {"after": "p2"}}, state, {}) == []
    assert checks.check_call("Caption it.", 'Caption table t1 "Table 1: Key data"', "insert_caption",
                             {"target": "t1", "text": "Key data"}, state, {}) == []


def test_a_call_on_another_element_than_the_sub_instruction_names(state):
    found = checks.check_call("Make paragraph p8 italic.", "x", "set_italic", {"paragraphs": "p2"}, state, {})
    assert [(f.check, f.certain) for f in found] == [("other_target", True)]
    assert checks.check_call("Make paragraph p8 italic.", "x", "set_italic", {"paragraphs": "p8"}, state, {}) == []
    # another kind of element (a caption for table t1 placed after p8) is not comparable
    assert checks.check_call("Add a caption to table t1.", "x", "insert_caption", {"target": "p9"}, state, {}) == []


def test_a_row_other_than_the_quoted_one(state):
    wrong = checks.check_call('Delete the "West" row.', "Delete the West row", "delete_row", {"table": "t1", "index": 3}, state, {})
    assert [(f.check, f.certain) for f in wrong] == [("other_row", True)] and "row 4 does" in wrong[0].text
    assert checks.check_call('Delete the "West" row.', "Delete the West row", "delete_row", {"table": "t1", "index": 4}, state, {}) == []
    assert checks.check_call('Shade the "Q3" column.', "Shade the Q3 column", "set_cell_text", {"table": "t1", "row": 2, "column": 1,
                                                                             "text": "9"}, state, {}) == []  # a header


@pytest.mark.parametrize("request_text, unasked", [
    ("the section headings feel squashed, give them a bit of breathing room below", False),  # hand dev
    ("can you give the section headings some more room underneath? they look cramped", False),  # dev-paraphrased
    ("leave a small gap under the headings", False),
    ("make the section headings dark blue", True),
])
def test_a_space_after_said_as_room_or_a_gap_beneath(state, request_text, unasked):
    found = _checks(request_text, "modify_style", {"name": "Heading 1", "space_after": "6pt"}, state)
    assert found == (["unasked_property"] if unasked else [])


@pytest.mark.parametrize("request_text, unasked", [
    ("最后签名那行放到右边，和上面的条款之间空大一点", False),  # hand dev-third (hosted ceiling)
    ("签名上面多留点空", False),
    ("标题和正文隔开一点", False),
    ("这段和上一段拉开些", False),
    ("两段中间空一行的样子", False),
    ("下面留三行空的给人填", True),  # blank rows, not a paragraph's space
])
def test_a_space_said_as_a_chinese_gap_between(state, request_text, unasked):
    found = _checks(request_text, "set_paragraph_format", {"paragraphs": ["p3"], "space_before": "24pt"}, state)
    assert found == (["unasked_property"] if unasked else [])


@pytest.mark.parametrize("request_text, unasked", [
    ("Center the form title and make it a little smaller, it's shouting.", False),  # hand dev
    ("please center the title of the form and shrink it a bit", False),  # dev-reworded: a verb of size
    ("enlarge the title a touch", False),
    ("let the title grow a little", False),
    ("scale the title down", False),
    ("please center the title of the form", True),
])
def test_a_size_said_by_a_verb_that_changes_it(state, request_text, unasked):
    found = _checks(request_text, "set_text_format", {"paragraphs": ["p1"], "size_pt": 22}, state)
    assert found == (["unasked_property"] if unasked else [])


def test_measures_against_the_instructions_numbers(state):
    instruction = "Indent the paragraph by 1 cm on both sides and use 12 pt text."
    found = checks.check_call("Indent p8.", instruction, "set_paragraph_format",
                              {"paragraphs": "p8", "left_indent": "1cm", "right_indent": "1.5cm"}, state, {})
    assert [(f.check, f.certain) for f in found] == [("unnamed_measure", True)] and "1.5cm" in found[0].text
    found = checks.check_call("Size p8.", instruction, "set_text_format", {"paragraphs": "p8", "size_pt": 14}, state, {})
    assert [f.check for f in found] == ["unnamed_measure"]
    # the unit goes with the size the text has now; the size asked for is a bare number
    now = "The caption's 8pt is hard to read, make it 11 instead"
    assert checks.check_call("Size p8.", now, "set_text_format", {"paragraphs": "p8", "size_pt": 11}, state, {}) == []
    found = checks.check_call("Size p8.", now, "set_text_format", {"paragraphs": "p8", "size_pt": 12}, state, {})
    assert "unnamed_measure" in [f.check for f in found]
    # a thin border's size is not the 10.5 pt the instruction gives a font (a hint at most); a spacing is a hint
    border = checks.check_call("Border.", "灰色10.5磅斜体，加细边框", "set_paragraph_border",
                               {"paragraphs": "p8", "size_pt": 1}, state, {})
    assert not [f for f in border if f.certain]
    # templated dev-outside-third dwo-230#2: a thin (细) or thick (粗) border names its size; bold (加粗, 粗体) does not
    for request, named in (("给正文加一个橙色细边框", True), ("边框再粗一点", True), ("正文加粗", False), ("改成粗体", False)):
        found = checks.check_call("Border.", request, "set_paragraph_border", {"paragraphs": "p8", "size_pt": 1}, state, {})
        assert ("unasked_property" not in [f.check for f in found]) is named, request
    hint = checks.check_call("Space.", "Use 2 columns", "set_paragraph_format", {"paragraphs": "p8", "line_spacing": 1.5},
                             state, {})
    assert [(f.check, f.certain) for f in hint] == [("unnamed_number", False), ("unasked_property", True)]


# --- in the agent ----------------------------------------------------------------------------------------


def test_the_element_next_to_an_id_is_not_that_id(state):
    wrong = checks.check_call("Delete the paragraph after paragraph p24.", "Delete it", "delete_block", {"block": "p24"},
                              state, {})
    assert [(f.check, f.certain) for f in wrong] == [("relative_target", True)]
    assert checks.check_call("Delete the paragraph after p24.", "Delete it", "delete_block", {"block": "p25"}, state,
                             {}) == []
    assert checks.check_call("Insert a paragraph after p24.", "x", "insert_paragraph",
                             {"text": "x", "position": {"after": "p24"}}, state, {}) == []
    assert checks.check_call("Add a caption below table t1.", "x", "insert_caption", {"target": "t1", "text": "x"},
                             state, {}) == []
    row = checks.check_call("Delete the row with the text 'West | 87 | 95 | 101' from table t1.", "Delete that row", "delete_row",
                            {"table": "t1", "index": 3}, state, {})
    assert [f.check for f in row] == ["other_row"]


def test_a_font_size_set_as_a_spacing(state):
    request = "Center the title and set it to 20 pt"
    wrong = checks.check_call("Center p1 and set its font size to 20pt.", request, "set_paragraph_format",
                              {"paragraphs": "p1", "line_height": "20pt"}, state, {})
    assert [(f.check, f.certain) for f in wrong] == [("size_as_spacing", True)] and "line_height=20pt" in wrong[0].text
    assert checks.check_call("Set the font size of p1 to 20pt.", request, "set_text_format",
                             {"paragraphs": "p1", "size_pt": 20}, state, {}) == []
    assert checks.check_call("Leave 12 pt before p1.", "Leave 12 pt before the title", "set_paragraph_format",
                             {"paragraphs": "p1", "space_before": "12pt"}, state, {}) == []  # no font size asked


def test_a_colour_the_request_does_not_name(state):
    wrong = checks.check_call("Colour p3.", "Make the Highlights heading dark red", "set_text_format",
                              {"paragraphs": "p3", "color": "0000FF"}, state, {})
    assert [(f.check, f.certain) for f in wrong] == [("unnamed_colour", True)] and "dark red" in wrong[0].text
    for instruction, args in (("Make the Highlights heading dark red", {"color": "C00000"}),
                              ("把标题改成深蓝色", {"color": "1F3864"}), ("Use 1F4E79 for p3", {"color": "1F4E79"}),
                              ("Frame p3 with a 1 pt teal line", {"border": {"color": "008080"}}),
                              ("Make p3 red on a pale yellow background", {"color": "FF0000", "fill": "FFF2CC"})):
        assert checks.check_call("Do it.", instruction, "set_text_format", {"paragraphs": "p3", **args}, state, {}) == []


def test_a_colour_the_request_names_to_undo_or_judges_is_not_one_to_set(state):
    """DWBench 2.0 hand dev-second (found by the hosted ceiling): "the blue is too much ... put the colour back to
    normal" names blue as the colour to take away; a colour said to replace or remove is not one to set either."""
    black = {"paragraphs": ["p3"], "color": "black"}
    assert _checks("Hmm, the blue is too much. Keep it bold but put the colour back to normal.", "set_text_format",
                   black, state) == []
    assert _checks("That red looks a bit loud, make it black", "set_text_format", black, state) == []
    assert _checks("Make it dark green rather than blue", "set_text_format", {**black, "color": "blue"},
                   state) == ["unnamed_colour"]  # named to replace: not a colour to set
    assert _checks("That red looks a bit loud, make it dark red", "set_text_format", {**black, "color": "red"},
                   state) == ["unnamed_colour"]


def test_a_single_request_for_the_end_of_the_document(state):
    last = state["paragraphs"][-1]["id"]
    wrong = checks.check_call("Insert it after p8.", "在文档最后加一段“完”", "insert_paragraph",
                              {"text": "完", "position": {"after": "p8"}}, state, {})
    assert [(f.check, f.certain) for f in wrong] == [("not_at_end", True)] and '"end"' in wrong[0].text
    for position in ("end", {"after": last}):
        assert checks.check_call("Insert it.", "Add a paragraph at the end of the document", "insert_paragraph",
                                 {"text": "x", "position": position}, state, {}) == []
    # in a compound instruction "the end" may belong to another request; "the end of a section" is not the document's
    assert checks.check_call("Insert it after p8.", "Add a line at the end of the document; then add a note after p8",
                             "insert_paragraph", {"text": "x", "position": {"after": "p8"}}, state, {}) == []
    assert checks.check_call("Insert it after p8.", "Add a line at the end of the Highlights section",
                             "insert_paragraph", {"text": "x", "position": {"after": "p8"}}, state, {}) == []


@pytest.mark.parametrize("request_text", [
    "In the checklist for new starters, put one more item at the very end of it: collect a badge.",  # a pronoun's end
    "Add a final row at the very end of the budget table",
    "Inside the safety section, write one more rule at the very end: no running.",  # the place named, end bare
    "Under Contacts, add the fax number at the very end",
    "Add a sentence at the end of the document's second section",  # the document's section
    "在文档最后一节里加一段“完”",  # the document's last section
    "文末的表格再加一行",  # the table at the end
])
def test_the_end_of_something_other_than_the_document(state, request_text):
    """An end said of another part (a list, a table, a section) or of a pronoun, or "at the very end" in a request
    naming another part as the place, is not the document's end: placing something elsewhere is not rejected."""
    assert checks.check_call("Insert it after p8.", request_text, "insert_paragraph",
                             {"text": "x", "position": {"after": "p8"}}, state, {}) == []


@pytest.mark.parametrize("request_text, items, written", [
    ("文末加落款：先写“Kind regards,”，下一行“Ann”；“Next Steps”这个标题底下列一个编号列表：“Share the draft”、“Send it”",
     ["Share the draft", "Send it"], "Kind regards,"),  # templated dev-outside-third dwo-206#2: under a heading
    ("第一项是“Plan”的那个列表末尾补一项“Ask IT”，在文档末尾加一段“Thanks”", ["Ask IT"], "Thanks"),  # dwo-236#5
    ("Add \"Best, Ann\" at the end of the document, then under Results add a list: \"Collect\", \"Share\"",
     ["Collect", "Share"], "Best, Ann"),
])
def test_what_a_request_places_elsewhere_than_the_document_end_it_also_says(state, request_text, items, written):
    """The place a request gives what the call writes is the one said nearest before it (else after it): a list
    under a heading or at a list's end is not at the document's end another part of the request says; what it
    says to write at the document's end still goes there."""
    call = {"items": items, "kind": "numbered", "position": {"after": "p8"}}
    assert checks.check_call("Insert it after p8.", request_text, "insert_list", call, state, {}) == []
    wrong = checks.check_call("Insert it after p8.", request_text, "insert_paragraph",
                              {"text": written, "position": {"after": "p8"}}, state, {})
    assert [(f.check, f.fix) for f in wrong] == [("not_at_end", {"position": "end"})]


@pytest.mark.parametrize("request_text", [
    "Write a closing line at the very end of the doc, please.",
    "Sign it off with my name at the very end.",  # the very end of nothing else
    "In the whole document, add a thank-you note at the very end",
    "文末加一句“以上”",
])
def test_the_end_of_the_document_said_in_other_words(state, request_text):
    wrong = checks.check_call("Insert it after p8.", request_text, "insert_paragraph",
                              {"text": "x", "position": {"after": "p8"}}, state, {})
    assert [(f.check, f.fix) for f in wrong] == [("not_at_end", {"position": "end"})]


def test_an_api_for_something_the_request_never_names(state):
    wrong = checks.check_call("Insert it after p41.", "Add a heading 'Contacts' after p41", "insert_page_break",
                              {"position": {"after": "p41"}}, state, {})
    assert [(f.check, f.certain) for f in wrong] == [("unasked_api", True)] and "insert_page_break" in wrong[0].text
    for request in ("Start the Contacts section on a new page", "在“联系方式”前分页"):
        assert checks.check_call("Insert it.", request, "insert_page_break", {"position": {"after": "p41"}}, state, {}) == []
    assert checks.check_call("Insert it.", "Add a heading 'Contacts' after p41", "insert_heading",
                             {"text": "Contacts", "level": 1, "position": {"after": "p41"}}, state, {}) == []  # not listed
    # hand dev-paraphrased: bullets said as dots, as other_kind reads them
    assert checks.check_call("Bullet them.", "把 REFERENCES 下那两条加上圆点符号", "set_list_format",
                             {"paragraphs": ["p3", "p4"], "kind": "bullet"}, state, {}) == []


@pytest.mark.parametrize("request_text, unasked", [
    ("摘要下面那条修订我不要了，恢复成原来那句话", False),  # hand dev: the revision named
    ("摘要下边那个修改不要了，改回原句", False),  # dev-reworded: an edit taken back to the original sentence
    ("拒绝摘要下面“措辞待定”那处修改，用回原句", False),  # dev-reworded: rejected, in Chinese
    ("Go back to the original wording under the abstract", False),
    ("Accept Maria's edit in the summary", False),
    ("摘要下面那段改得更简洁一些", True),  # an edit asked for, none taken back
    ("Shorten the sentence under the abstract", True),
])
def test_a_tracked_change_rejected_or_accepted_in_other_words(state, request_text, unasked):
    found = _checks(request_text, "resolve_tracked_changes", {"action": "reject", "paragraphs": ["p10"]}, state)
    assert found == (["unasked_api"] if unasked else [])


def test_items_without_a_kind_are_read_as_the_kind_of_the_list_they_continue():
    """insert_list without a kind continues the list of the item beside it (the API's default since apifix30), so
    the checks read that list's kind, not "bullet": a numbered item added after a numbered one asks for nothing else."""
    from autodw.agent.checks.reading import list_kind_made
    numbered = {"list": {"kind": "numbered", "num_id": 5, "level": 0}}
    state = {"paragraphs": [{"id": "p1", "text": "Owners", **numbered}, {"id": "p2", "text": "Agents", **numbered},
                            {"id": "p3", "text": "Notes"}]}
    args = {"items": ["Facilities Managers"], "position": {"after": "p2"}}
    assert list_kind_made(args, state) == "numbered"
    assert list_kind_made({**args, "position": {"before": "p1"}}, state) == "numbered"
    assert list_kind_made({**args, "position": {"after": "p3"}}, state) == "bullet"
    assert list_kind_made({**args, "kind": "bullet"}, state) == "bullet"
    assert checks.check_call("Insert it.", "Add 'Facilities Managers' to the numbered list after 'Agents'", "insert_list",
                             args, state, {}) == []


def test_a_note_or_list_of_the_other_kind(state):
    wrong = checks.check_call("Add a footnote to p39.", "Add a footnote 'Audit pending.' to the methodology paragraph",
                              "insert_footnote", {"paragraph": "p39", "text": "Audit pending.", "kind": "endnote"}, state, {})
    assert [(f.check, f.certain) for f in wrong] == [("other_kind", True)] and "'endnote'" in wrong[0].text
    default = checks.check_call("Add it.", "在第39段末尾加一个尾注“待审计”", "insert_footnote",
                                {"paragraph": "p39", "text": "待审计"}, state, {})
    assert [f.check for f in default] == ["other_kind"]  # the API's default kind is a footnote
    items = {"items": ["行政经理", "前台"], "position": {"after": "p32"}}
    assert [f.check for f in checks.check_call("Insert it.", "下面用编号列表列出“行政经理”、“前台”", "insert_list",
                                               {**items, "kind": "bullet"}, state, {})] == ["other_kind"]
    assert checks.check_call("Insert it.", "下面用编号列表列出“行政经理”、“前台”", "insert_list",
                             {**items, "kind": "numbered"}, state, {}) == []
    assert checks.check_call("Format it.", "Number the bullet list beginning 'North region'", "set_list_format",
                             {"paragraphs": ["p4", "p5", "p6"], "kind": "numbered"}, state, {}) == []
    assert checks.check_call("Insert it.", "Add a numbered list 'A', 'B' after p2; then bold the bullet list", "insert_list",
                             {"items": ["A", "B"], "position": {"after": "p2"}}, state, {}) == []  # compound
    assert checks.check_call("Comment on p39.", "Comment 'wrong' on the endnote's paragraph", "insert_comment",
                             {"paragraph": "p39", "text": "wrong"}, state, {}) == []
    for request in ("Add a footnote 'Audit pending.'", "Turn the footnote into an endnote"):
        assert checks.check_call("Add it.", request, "insert_footnote", {"paragraph": "p39", "text": "Audit pending."},
                                 state, {}) == []


def test_the_other_side_of_the_element_the_request_names(state):
    request = "Before the appendix, add a level-1 heading 'Risks'."
    wrong = checks.check_call("Insert it after the appendix.", request, "insert_heading",
                              {"text": "Risks", "level": 1, "position": {"after": "p38"}}, state, {})
    assert [(f.check, f.certain) for f in wrong] == [("wrong_side", True)] and "after p38" in wrong[0].text
    for position in ({"before": "p38"}, {"after": "p37"}):
        assert checks.check_call("Insert it.", request, "insert_heading", {"text": "Risks", "level": 1,
                                                                           "position": position}, state, {}) == []
    both = "Put 'Risks' after the appendix heading and a page break before the appendix"
    assert checks.check_call("Insert it.", both, "insert_heading", {"text": "Risks", "level": 1,
                                                                    "position": {"after": "p38"}}, state, {}) == []
    compound = "Add a heading 'Risks' after the Highlights heading; then move the Budget section before the appendix"
    assert checks.check_call("Insert it.", compound, "insert_heading", {"text": "Risks", "level": 1,
                                                                        "position": {"after": "p38"}}, state, {}) == []
    chinese = {"paragraphs": [{"id": "p38", "text": "附录：方法"}]}
    assert [f.check for f in checks.check_call("插入", "在“附录”这个标题之前插入一段“风险”", "insert_paragraph",
                                               {"text": "风险", "position": {"after": "p38"}}, chinese, {})] == ["wrong_side"]


def test_a_word_said_beside_before_is_no_side_of_the_element_the_request_quotes_whole():
    """dev-seventeenth dwh-281#3 ("引言后面新开一章“安装”，先一句话说明安装前要准备什么"): the new chapter's title "安装"
    is named by its quote; "安装前" is "before installing", not a place before the title. Quoted, it is a side."""
    state = {"paragraphs": [{"id": "p47", "text": "引言"}, {"id": "p48", "text": "安装"}]}
    request = "引言后面新开一章“安装”，先一句话说明安装前要准备什么，然后列出安装步骤，用编号列表"
    sentence = {"text": "安装前请确认服务器满足系统要求。", "position": {"after": "p48"}}
    assert "wrong_side" not in _checks(request, "insert_paragraph", sentence, state)
    assert "wrong_side" in _checks("在“安装”前面加一句说明", "insert_paragraph", sentence, state)
    english = {"paragraphs": [{"id": "p48", "text": "Installation"}]}
    args = {"text": "Check the server first.", "position": {"after": "p48"}}
    said = "Add a chapter 'Installation', then a sentence on what to prepare before installation"
    assert "wrong_side" not in _checks(said, "insert_paragraph", args, english)
    assert "wrong_side" in _checks("Add a sentence before 'Installation'", "insert_paragraph", args, english)


def _checks(request: str, api: str, args: dict, state) -> list[str]:
    return [f.check for f in checks.check_call("Do it.", request, api, args, state, {})]


def test_a_value_the_request_does_not_name(state):
    chart = {"categories": ["A", "B"], "series": [{"name": "S", "values": [1, 2]}], "position": "end"}
    # a legend a later request says the chart does not need, after an earlier one put it on the right
    # (templated dev-outside dwo-016#2: the noisy oracle at p=0)
    legend = ('insert a pie chart titled "Share" with the legend on the right; and the chart you just made doesn\'t '
              'need a legend; turn it off')
    assert _checks(legend, "set_chart_legend", {"chart": "chart1", "position": "none"}, state) == []
    assert _checks("put the legend on the right", "set_chart_legend", {"chart": "chart1", "position": "none"},
                   state) == ["unnamed_value"]
    assert _checks("Add a pie chart at the end", "insert_chart", {**chart, "chart_type": "line"}, state) == ["unnamed_value"]
    assert _checks("在全文最后加一个饼图", "insert_chart", {**chart, "chart_type": "pie"}, state) == []
    # the of-pie types (added to the chart types later) are named too (templated dev dwb-028#4: the noisy oracle's
    # bar_of_pie for "insert a pie chart" went unchecked)
    assert _checks("Add a pie chart at the end", "insert_chart", {**chart, "chart_type": "bar_of_pie"}, state) == ["unnamed_value"]
    assert _checks("Add a bar-of-pie chart at the end", "insert_chart", {**chart, "chart_type": "bar_of_pie"}, state) == []
    wrong = checks.check_call("Do it.", "Centre the table t1", "set_table_properties", {"table": "t1", "alignment": "right"},
                              state, {})
    assert [f.check for f in wrong] == ["unnamed_value"] and checks.repair(wrong) == {"alignment": "center"}
    assert _checks("表格整体居中", "set_table_properties", {"table": "t1", "alignment": "center"}, state) == []
    # a value a request always names: an even-page section start; portrait around a page made landscape "only"
    brk = {"after": "p3", "orientation": "landscape"}
    assert _checks("Put the table on a landscape page", "insert_section_break", {**brk, "start": "even_page"},
                   state) == ["unnamed_value"]
    assert _checks("Put the table on a landscape page", "insert_section_break", {**brk, "start": "new_page"}, state) == []
    portrait = {"after": "p5", "orientation": "portrait"}
    assert _checks("make just the page with the table landscape", "insert_section_break", portrait, state) == []
    assert _checks("make the page with the table landscape", "insert_section_break", portrait, state) == ["unnamed_value"]


def test_a_chart_s_caption_labelled_figure_as_word_labels_it(state):
    """"put a caption under the chart: ..." names the chart the caption goes under, no Chart label: a chart's caption is
    a Figure, as the API labels it unasked (hand dev-thirty-eighth dwh-529#6, both ceilings); a Chart label written
    before a number is asked for, and a picture's or a table's noun still names its label."""
    caption = {"target": "chart1", "text": "Column chart with three data series", "where": "below"}
    request = "put a caption under the chart: Column chart with three data series."
    assert _checks(request, "insert_caption", {**caption, "label": "Figure"}, state) == []
    assert _checks("caption the chart as Chart 1: Sales", "insert_caption", {**caption, "label": "Figure"},
                   state) == ["unnamed_value"]
    assert _checks("put a caption under the picture: Sales", "insert_caption",
                   {**caption, "target": "img1", "label": "Chart"}, state) == ["unnamed_value"]
    assert _checks("put a caption above the table: Sales", "insert_caption",
                   {**caption, "target": "t1", "label": "Figure", "where": "above"}, state) == ["unnamed_value"]


def test_a_caption_side_a_separator_and_a_named_fill_the_request_does_not_ask_for(state):
    caption = {"target": "t1", "text": "Contact list"}
    assert _checks('Caption it "Contact list" above', "insert_caption", {**caption, "where": "below"},
                   state) == ["unnamed_value"]
    assert _checks('表格上方加题注“Contact list”', "insert_caption", {**caption, "where": "above"}, state) == []
    merge = {"first": "p5", "second": "p6"}
    assert _checks("Merge p5 with p6", "merge_paragraphs", {**merge, "separator": " draft"}, state) == ["unasked_separator"]
    assert _checks("Merge p5 with p6", "merge_paragraphs", {**merge, "separator": " "}, state) == []
    assert _checks("Fill the Review row with pale yellow", "set_cell_shading",
                   {"table": "t1", "cells": {"row": 1}, "fill": "lightgrey"}, state) == ["unnamed_colour"]
    assert _checks("Fill the Review row with pale yellow", "set_cell_shading",
                   {"table": "t1", "cells": {"row": 1}, "fill": "FFF2CC"}, state) == []  # an unnamed tint


def test_a_chinese_colour_said_in_one_character_before_text_or_background(state):
    """"深蓝底白字" is white text on dark blue, "红字" red text (DWBench 2.0 hand dev, found by the hosted ceiling)."""
    header = {"table": "t1", "fill": "1F3864"}
    assert _checks("这个表的表头弄成深蓝底白字", "set_header_row", {**header, "font_color": "white"}, state) == []
    assert _checks("这个表的表头弄成深蓝底白字", "set_header_row", {**header, "font_color": "red"}, state) == ["unnamed_colour"]
    colour = {"paragraphs": ["p2"], "color": "red"}
    assert _checks("红灯用红字，橙灯橙色，绿灯绿色", "set_text_format", colour, state) == []
    assert _checks("橙灯橙色，绿灯绿色", "set_text_format", colour, state) == ["unnamed_colour"]


def test_colours_named_as_examples_of_a_list_that_goes_on_do_not_bound_the_colours(state):
    """DWBench 2.0 hand dev-thirty-fifth (found by the hosted ceiling, dwh-486#2): "each one in the colour it names?
    Red in red, green in green and so on" asks for the colours the cells name beyond red and green; a list of
    other things that goes on after a colour ("blue, bold etc.") leaves the colour named alone."""
    blue = {"paragraphs": ["p2"], "color": "0070C0"}
    request = "could each one be shown in the colour it names? Red in red, green in green and so on."
    assert _checks(request, "set_text_format", blue, state) == []
    assert _checks("红色、绿色等，每个颜色词用它自己的颜色", "set_text_format", blue, state) == []
    assert _checks("Red in red, green in green.", "set_text_format", blue, state) == ["unnamed_colour"]
    assert _checks("make the headings green, bold etc.", "set_text_format", blue, state) == ["unnamed_colour"]


def test_one_colour_before_words_that_do_not_close_a_list_still_bounds_the_colours(state):
    """Review of dwh-486#2's rule: 等 opening a word (等线, a font; 等我, wait for me) and a bare ellipsis close no list,
    and one colour is no list of examples that goes on: a list needs two colours or more."""
    blue = {"paragraphs": ["p2"], "color": "0070C0"}
    for request in ("把标题改成红色，等线字体", "标题改成红色，等我确认后再改正文", "标题红色、正文绿色，等线字体",
                    "Make the title red... actually make it bold too", "Make the title red… and bold"):
        assert _checks(request, "set_text_format", blue, state) == ["unnamed_colour"], request


def test_the_light_tints_people_name_are_api_colours_and_checked_in_chinese_without_se(state):
    """"light blue background", "换成淡绿的" (DWBench 2.0 hand dev: 7 of 26 colour turns name a light tint): the APIs
    take the name as Word's tint, and a Chinese tint said without 色 is a colour the request names."""
    from autodw.core.units import hex_color

    assert [hex_color(n) for n in ("light blue", "lightgreen", "pale yellow", "light yellow", "light orange")] == \
        ["DEEAF6", "E2EFDA", "FFF2CC", "FFF2CC", "FBE4D5"]  # the hand dev gold calls' DEEAF6, E2EFDA, FFF2CC
    shading = {"table": "t1", "cells": {"row": 0}, "fill": "lightblue"}
    assert validate_arguments(registry().get("set_cell_shading"), shading) == shading
    assert _checks("表头加个淡蓝底", "set_cell_shading", shading, state) == []
    green = {"table": "t1", "cells": {"row": 0}, "fill": "lightgreen"}
    assert _checks("第一行的底色还是换成淡绿的吧", "set_cell_shading", green, state) == []
    assert _checks("第一行的底色还是换成淡绿的吧", "set_cell_shading", {**green, "fill": "lightgray"},
                   state) == ["unnamed_colour"]
    assert _checks("第一行加个浅橙的底色", "set_cell_shading", {**green, "fill": "orange"}, state) == ["unnamed_colour"]
    assert _checks("第一行加个浅橙的底色", "set_cell_shading", {**green, "fill": "lightorange"}, state) == []


def test_a_compound_instruction_is_checked_against_the_request_whose_texts_the_call_has(state):
    compound = ("改几个地方：页脚写上“第2版”，左对齐；另外，页眉统一写“征求意见稿”，居中；另外，全文分两栏，中间加分隔线")
    footer = {"where": "footer", "section": "all", "text": "第2版"}
    assert checks.own_request(compound, footer) == "页脚写上“第2版”，左对齐"
    assert _checks(compound, "set_header_footer", {**footer, "alignment": "center"}, state) == ["unnamed_value"]
    assert _checks(compound, "set_header_footer", {**footer, "alignment": "left"}, state) == []
    assert _checks(compound, "set_header_footer", {**footer, "where": "header", "alignment": "left"},
                   state) == ["unnamed_value"]
    # a call whose texts are in no request, or in several, is checked against the whole instruction
    assert checks.own_request(compound, {"count": 2, "separator": True}) == compound
    twice = 'Add the heading "Plan" at the end; then make "Plan" blue'
    assert checks.own_request(twice, {"text": "Plan", "position": "end"}) == twice
    # page numbers at the bottom are in the footer
    numbers = {"section": 0, "template": "{PAGE}", "alignment": "center"}
    request = "Page numbers centred at the bottom; set the header to Draft"
    assert _checks(request, "insert_page_numbers", {**numbers, "where": "footer"}, state) == []


def test_a_column_count_a_top_row_and_a_header_switched_off_in_its_own_request(state):
    columns = {"section": "all", "separator": True}
    assert _checks("全文分两栏，中间加分隔线", "set_columns", {**columns, "count": 3}, state) == ["unnamed_value"]
    assert _checks("全文分两栏，中间加分隔线", "set_columns", {**columns, "count": 2}, state) == []
    assert _checks("Lay the page out in 3 columns with a line between", "set_columns", {**columns, "count": 3}, state) == []
    # the count the layout has now is named beside the one asked for ("from three columns to a single column")
    back = "The three-column layout is cramped: go back to a single column"
    assert _checks(back, "set_columns", {"section": "all", "count": 1}, state) == []
    assert _checks(back, "set_columns", {"section": "all", "count": 2}, state) == ["unnamed_value"]
    row = {"table": "t1", "data": ["汇总", "", ""]}
    top = checks.check_call("Do it.", "给表格加个标题行“汇总”，放在最上方", "insert_row", {**row, "index": 1}, state, {"a": 1})
    assert [f.check for f in top] == ["unnamed_value"] and checks.repair(top) == {"index": 0}
    assert _checks("给表格加个标题行“汇总”，放在最上方", "insert_row", {**row, "index": 0}, state) == []
    assert _checks("在第一行下面插入一行“汇总”", "insert_row", {**row, "index": 1}, state) == []
    # hand dev-eleventh: the "top row" of another request (typed in lower case after a full stop) places nothing
    both = "put a row in the table for Totals at its foot. and shade the top row grey"
    assert _checks(both, "insert_row", {"table": "t1", "data": ["Totals", "", ""], "index": 3}, state) == []
    # "not the header" in another request of the message does not excuse a table without the header this one asks for
    message = ('Right-align the numbers in the first table (not the labels or the header); finally, insert a table at '
               'the end with the columns Name, Role (header row in bold) and the rows Ann, Chair')
    table = {"data": [["Name", "Role"], ["Ann", "Chair"]], "position": "end"}
    assert _checks(message, "insert_table", {**table, "header_row": False}, state) == ["asked_flag_off"]
    assert _checks(message, "insert_table", {**table, "header_row": True}, state) == []


def test_a_list_or_table_cut_short(state):
    points = 'End with a numbered list of three points: "Share the draft", "Collect feedback", "Publish it".'
    assert _checks(points, "insert_list", {"items": ["Share the draft", "Collect feedback"], "kind": "numbered",
                                           "position": "end"}, state) == ["dropped_item"]
    assert _checks(points, "insert_list", {"items": ["Share the draft", "Collect feedback", "Publish it"],
                                           "kind": "numbered", "position": "end"}, state) == []
    assert _checks("用项目符号列表列出“内部报告”、“公开统计数据”和“员工访谈”", "insert_list",
                   {"items": ["内部报告", "公开统计数据"], "position": "end"}, state) == ["dropped_item"]
    rows = ('Insert a table at the end: columns Task, Owner, rows Draft, Sam / Review, Kim / Approval, Lee; centre it, '
            'bold header')
    table = {"data": [["Task", "Owner"], ["Draft", "Sam"], ["Review", "Kim"]], "position": "end"}
    assert _checks(rows, "insert_table", table, state) == ["dropped_item"]
    # the request goes on after the last row ("; centre it, bold header" is not a row)
    assert _checks(rows, "insert_table", {**table, "data": table["data"] + [["Approval", "Lee"]]}, state) == []
    # nor words that run past the next row separator (DWBench 2.0 templated dev, found by the hosted ceiling)
    caption = ('a table: bold headers Task, Owner, Status; Quotes, Kim, Open; Budget check, Max, Not started; caption '
               'it "Task status" on top; next, just above the "Bibliography" heading, create a heading')
    full = {"data": [["Task", "Owner", "Status"], ["Quotes", "Kim", "Open"], ["Budget check", "Max", "Not started"]],
            "header_row": True, "position": "end"}
    assert "dropped_item" not in _checks(caption, "insert_table", full, state)
    # a Chinese connective right after the list's last item ("；再附一个表") starts the next request, not an item
    # (templated dev-outside dwo-001#1, dwo-031#1: the noisy oracle at p=0)
    zh = ("再列出下面是项目符号列表：Book the meeting room；Send the summary to the board；Collect feedback by Friday；"
          "再附一个表，表头加粗：Task、Owner")
    items = {"items": ["Book the meeting room", "Send the summary to the board", "Collect feedback by Friday"],
             "kind": "bullet", "position": "end"}
    assert _checks(zh, "insert_list", items, state) == []
    assert _checks(zh, "insert_list", {**items, "items": items["items"][:2]}, state) == ["dropped_item"]
    one_row = "Add a table with the header Name, Role and the rows Ann, Chair / Bo, Clerk"
    assert _checks(one_row, "insert_table", {"data": [["Name", "Role"], ["Ann", "Chair"]], "position": "end"},
                   state) == ["dropped_item"]


def test_a_list_whose_every_item_is_nested(state):
    request = "列出以下几点（编号列表）：“计划”、“实施”、“总结”"
    nested = {"items": [{"text": t, "level": 1} for t in ("计划", "实施", "总结")], "kind": "numbered", "position": "end"}
    found = checks.check_call("Do it.", request, "insert_list", nested, state, {"a": 1})
    assert [f.check for f in found] == ["nested_first_item"]
    assert checks.repair(found) == {"items": [{"text": t, "level": 0} for t in ("计划", "实施", "总结")]}
    outline = {"items": ["计划", {"text": "预算", "level": 1}, "总结"], "kind": "numbered", "position": "end"}
    assert _checks(request, "insert_list", outline, state) == []  # nested under a top-level item


def test_items_that_continue_a_nested_list_beside_them():
    """A quiz question's options are at level 1; another option after the last one stays at level 1 (hand
    dev-twentieth dwh-315#2); a new list elsewhere, or one that starts afresh, is still nested under nothing."""
    doc = WordDocument.new()
    execute(doc, "insert_paragraph", {"text": "Quiz", "position": "end"})
    execute(doc, "insert_list", {"items": ["Which is right?", {"text": "Yes", "level": 1}, {"text": "No", "level": 1}],
                                 "kind": "numbered", "position": "end"})
    state = extract_state(doc)
    last = next(p["id"] for p in state["paragraphs"] if p["text"] == "No")
    first = state["paragraphs"][0]["id"]
    option = {"items": [{"text": "Nobody knows", "level": 1}], "kind": "numbered", "position": {"after": last}}
    request = "第一题再加一个选项放在最后：Nobody knows"

    def nested(**changed) -> bool:
        return "nested_first_item" in _checks(request, "insert_list", {**option, **changed}, state)

    assert not nested() and not nested(position={"before": last})
    assert nested(position={"after": first})  # before the question: nested under nothing
    assert nested(start=1)  # a list that starts afresh
    assert nested(kind="bullet")  # a list of another kind: a new list
    # one level deeper than the item before it hangs under that item: the API joins it to its list at level 2 (a
    # note under an answer, "在42下面再缩进一级", hand dev-thirty-eighth dwh-533#3); two levels deeper hangs under nothing
    deeper = {"items": [{"text": "Nobody knows", "level": 2}], "kind": "numbered", "position": {"after": last}}
    assert "nested_first_item" not in _checks(request, "insert_list", deeper, state)
    assert "nested_first_item" not in _checks(request, "insert_list", {**deeper, "kind": None}, state)
    execute(doc, "insert_list", deeper)
    assert [p["list"]["level"] for p in extract_state(doc)["paragraphs"] if p["text"] == "Nobody knows"] == [2]
    deepest = {**deeper, "items": [{"text": "Nobody knows", "level": 3}]}
    assert "nested_first_item" in _checks(request, "insert_list", deepest, state)
    assert not nested(items=[{"text": "Nobody knows", "level": 2}], position={"before": last})  # under "Yes"


def test_an_unasked_alignment_or_offset_that_changes_what_is_there_is_left_out(doc):
    """A header's text changed and its right alignment reset, a note's mark put at the paragraph's start (DWBench 2.0
    hand dev dwh-018#7, dwh-076#4): the fix leaves the option out; an option named, or as it would be, stays."""
    execute(doc, "set_header_footer", {"section": 0, "where": "header", "text": "Working paper", "alignment": "right"})
    state = extract_state(doc)
    header = {"section": 0, "where": "header", "text": "Draft - not for citation"}
    request = "And change the header from Working paper to Draft - not for citation."
    found = checks.check_call("Do it.", request, "set_header_footer", {**header, "alignment": "left"}, state, {})
    assert [f.check for f in found] == ["unasked_option"] and checks.repair(found) == {"alignment": None}
    assert _checks(request, "set_header_footer", {**header, "alignment": "right"}, state) == []  # as it is
    assert _checks(request, "set_header_footer", header, state) == []
    assert _checks(request + " Centre it.", "set_header_footer", {**header, "alignment": "center"}, state) == []
    assert _checks("页眉也跟着改成“说明书”", "set_header_footer", {"section": "all", "where": "header", "text": "说明书",
                                                      "alignment": "center"}, state) == ["unasked_option"]
    paragraph = next(p for p in state["paragraphs"] if len(p["text"]) > 20)
    note = {"paragraph": paragraph["id"], "text": "如遇下雨，野餐顺延至6月28日。"}
    assert _checks("野餐那句话加个脚注，注明如遇下雨顺延到6月28日", "insert_footnote", {**note, "offset": 0},
                   state) == ["unasked_option"]
    assert _checks("野餐那句话加个脚注，注明如遇下雨顺延到6月28日", "insert_footnote",
                   {**note, "offset": len(paragraph["text"])}, state) == []  # the end, where it goes anyway
    assert _checks("在这段开头加个脚注", "insert_footnote", {**note, "offset": 0}, state) == []
    assert _checks("The sentence about descaling gets the footnote", "insert_footnote", {**note, "offset": 12},
                   state) == []
    assert _checks("Footnote this paragraph", "insert_footnote", {**note, "offset": 12}, state) == ["unasked_option"]


def test_a_note_taking_the_place_of_a_text_or_sourcing_a_quote_names_where_its_mark_goes(state):
    """hand dev-thirty-sixth dwh-500#3 and #4 (local ceiling): "take the Exodus reference out of the brackets and put it
    in a footnote instead" puts the mark where the reference was; "The quote in the third paragraph has no source"
    puts it after the quote; a footnote that says neither still goes at the paragraph's end."""
    from autodw.agent.checks.values import unasked_options

    paragraph = next(p for p in state["paragraphs"] if len(p["text"]) > 20)
    note = {"paragraph": paragraph["id"], "text": "Exodus 2:23-4.", "offset": 12}
    for request in ("In the first paragraph, take the Exodus reference out of the brackets and put it in a footnote "
                    "instead.", "The quote in the third paragraph has no source at all. Do the same there - it's "
                    "Psalm 106:35", "Move the citation into a footnote in its place"):
        assert unasked_options("insert_footnote", note, request, state) == [], request
    for request in ("Add a footnote to the first paragraph: Exodus 2:23-4.", "Put the Exodus reference in a footnote"):
        assert [f.check for f in unasked_options("insert_footnote", note, request, state)] == ["unasked_option"], request


def test_an_option_the_previous_instruction_gave_the_text_a_call_writes_again_is_named(doc):
    """"Put "X" in the header, right aligned", then "I'd rather have that in the footer. move it down there" (DWBench
    2.0 hand dev-thirty-fifth dwh-492#7): the text moves with its alignment; not without that instruction, nor for a
    text it did not write."""
    state = extract_state(doc)
    footer = {"section": 0, "where": "footer", "text": "Checkbox test fixture - do not edit", "alignment": "right"}
    request = "actually I'd rather have that in the footer. move it down there and leave the header empty"
    previous = 'Put "Checkbox test fixture - do not edit" in the header, right aligned.'

    def found(args: dict, before: str) -> list[str]:
        return [f.check for f in checks.check_call("Do it.", request, "set_header_footer", args, state, {},
                                                   previous=before)]
    assert found(footer, previous) == []
    assert found(footer, "") == ["unasked_option"]
    assert found(footer, 'Put "Checkbox test fixture - do not edit" in the header.') == ["unasked_option"]
    assert "unasked_option" in found({**footer, "text": "Page footer"}, previous)


def test_an_option_is_carried_over_only_with_a_free_text_the_call_writes_again(doc):
    """Review of dwh-492#7's rule: an enum value the previous instruction says (where="footer") is no text the call
    writes again, so the alignment that instruction gave another text is not carried over to this one."""
    state = extract_state(doc)
    footer = {"section": 0, "where": "footer", "text": "Page footer", "alignment": "right"}
    previous = 'Put "Checkbox test fixture - do not edit" in the footer, right aligned.'

    def found(args: dict) -> list[str]:
        return [f.check for f in checks.check_call("Do it.", "now write Page footer there instead", "set_header_footer",
                                                   args, state, {}, previous=previous)]
    assert found(footer) == ["unasked_option"]
    assert found({**footer, "text": "Checkbox test fixture - do not edit"}) == []


def test_an_unasked_height_that_changes_a_pictures_aspect_ratio_is_left_out():
    """"放大点" done as 6x3.6 -> 12x18 cm (DWBench 2.0 hand dev-mini dwh-076#5): the fix leaves the height out, so the
    width keeps the aspect ratio; a height that keeps it, or one the request names, stays."""
    state = {"paragraphs": [{"id": "p11", "text": "", "runs": []}], "tables": [], "styles": {},
             "images": [{"id": "img1", "type": "picture", "width_cm": 6.0, "height_cm": 3.6, "paragraph": "p11"},
                        {"id": "chart1", "type": "chart", "width_cm": 12.0, "height_cm": 7.0, "paragraph": "p11"}]}
    stretched = {"image": "img1", "width": "12.0cm", "height": "18.0cm"}
    found = checks.check_call("Do it.", "客服部那张图太小了看不清，放大点", "resize_image", stretched, state, {})
    assert [f.check for f in found] == ["unasked_option"] and checks.repair(found) == {"height": None}
    assert "7.20cm" in found[0].text
    assert _checks("The chart is tiny, make it wider", "resize_chart",
                   {"chart": "chart1", "width": "15cm", "height": "7cm"}, state) == ["unasked_option"]
    assert _checks("客服部那张图放大点", "resize_image", {**stretched, "height": "7.2cm"}, state) == []  # kept
    assert _checks("客服部那张图放大点", "resize_image", {"image": "img1", "width": "12cm"}, state) == []
    for named in ("Make the picture 12 x 18 cm", "Make the picture 18 cm tall and 12 cm wide"):
        assert "unasked_option" not in _checks(named, "resize_image", stretched, state), named


def test_a_case_the_request_does_not_ask_for_and_a_colour_as_a_font(state):
    sentence = "把“Highlights”这个标题转换为句首字母大写的形式"
    assert _checks(sentence, "change_case", {"paragraph": "p3", "case": "upper"}, state) == ["unnamed_value"]
    assert _checks(sentence, "change_case", {"paragraph": "p3", "case": "sentence"}, state) == []
    assert _checks("Put the Highlights heading in UPPER CASE", "change_case", {"paragraph": "p3", "case": "upper"},
                   state) == []
    assert _checks("Make p3 green", "set_text_format", {"paragraphs": "p3", "font": "green"}, state) == ["colour_as_font"]
    assert _checks("Set p3 in Calibri Light", "set_text_format", {"paragraphs": "p3", "font": "Calibri Light"}, state) == []


@pytest.mark.parametrize("request_", [
    'Replace the text of the paragraph that starts with "Sales rose" with "Sales fell."',
    'The paragraph beginning "Sales rose" should just say "Sales fell." instead',
    "把开头是“Sales rose”的段落的内容改成“Sales fell.”"])
def test_a_whole_paragraphs_new_text_is_not_a_replacement_of_its_first_words(state, request_):
    replace = {"find": "Sales rose", "replace": "Sales fell.", "scope": "body"}
    assert "part_for_whole" in _checks(request_, "replace_text", replace, state)
    assert "part_for_whole" not in _checks(request_, "set_paragraph_text", {"paragraph": "p3", "text": "Sales fell."}, state)
    # replacing a text (not a paragraph's text) is what replace_text does
    assert "part_for_whole" not in _checks('Replace the text "Sales rose" with "Sales fell"', "replace_text", replace, state)


def test_a_property_switched_the_other_way(state):
    table = {"data": [["Month", "Visits"], ["April", "1200"]], "position": "end"}
    assert _checks("At the end, a table with the bold header Month, Visits", "insert_table",
                   {**table, "header_row": False}, state) == ["asked_flag_off"]
    assert _checks("At the end, a table with the bold header Month, Visits", "insert_table",
                   {**table, "header_row": True}, state) == []
    assert _checks("Set p3 in grey italics", "set_text_format", {"paragraphs": "p3", "italic": False}, state) == ["asked_flag_off"]
    assert _checks("Set p3 in grey italics", "set_text_format", {"paragraphs": "p3", "bold": True}, state) == ["unasked_flag"]
    for request in ("p8 should no longer be bold", "把第8段取消加粗",
                    "Hmm, the bold Case lines now shout louder than the headings. Undo that please.",  # DWBench 2.0
                    "第8段加粗太显眼了，撤销吧"):  # hand dev, found by the hosted ceiling: a request to undo
        assert _checks(request, "set_text_format", {"paragraphs": "p8", "bold": False}, state) == []
    assert _checks("Hmm, the bold Case lines now shout louder than the headings.", "set_text_format",
                   {"paragraphs": "p8", "bold": False}, state) == ["asked_flag_off"]
    for request in ("The bold Case lines are louder than the headings now - take the bold off again.",  # hand
                    "把 REFERENCES 下那两条加上圆点符号，还有 DEFINITIONS 下面 N/A 的加粗去掉"):  # dev-paraphrased
        assert _checks(request, "set_text_format", {"paragraphs": "p8", "bold": False}, state) == []
    assert _checks("p8 should be bold, the italics can go off", "set_text_format",
                   {"paragraphs": "p8", "bold": False}, state) == ["asked_flag_off"]  # a removal of another property


def test_a_property_taken_out_is_negated_around_it(state):
    """"take those page breaks out again" (hand dev-thirty-seventh dwh-516#8, both ceilings) removes the page breaks
    the words "take ... out" enclose; "take the bold away" too; a page break said outside them is still asked for."""
    breaks = {"paragraphs": ["p8"], "page_break_before": False}
    request = "hmm, the new pages leave huge gaps at the end of some discs. take those page breaks out again"
    assert _checks(request, "set_paragraph_format", breaks, state) == []
    assert _checks("take the bold away from p8", "set_text_format", {"paragraphs": "p8", "bold": False}, state) == []
    assert _checks("take the heading out and start p8 on a new page", "set_paragraph_format", breaks,
                   state) == ["asked_flag_off"]
    # "take X out of" a place moves X: the bold of "the bold title" stays (review of the rule checks)
    assert _checks("take the bold title out of the box", "set_text_format", {"paragraphs": "p8", "bold": False},
                   state) == ["asked_flag_off"]


@pytest.mark.parametrize("request_text, unasked", [
    ("The N/A under Definitions doesn't need to be bold.", False),  # hand dev-third (hosted ceiling)
    ("p8 shouldn't be bold", False),
    ("p8 isn’t meant to be in bold", False),
    ("We don't want p8 bold any more", False),
    ("The third line doesn't stand out at all next to the others; make p8 bold", True),  # a negation of another verb
])
def test_a_property_negated_by_a_contraction(state, request_text, unasked):
    found = _checks(request_text, "set_text_format", {"paragraphs": "p8", "bold": False}, state)
    assert found == (["asked_flag_off"] if unasked else [])


def _italic_style_state(italic: bool | None):
    """A document whose two "Sidebar Heading" paragraphs (p1, p2) take italic from their style (`italic`), not runs."""
    made = docx.Document()
    style = made.styles.add_style("Sidebar Heading", docx.enum.style.WD_STYLE_TYPE.PARAGRAPH)
    style.font.italic = italic
    for text in ("Costs", "Risks"):
        made.add_paragraph(text, style="Sidebar Heading")
    buffer = io.BytesIO()
    made.save(buffer)
    return extract_state(WordDocument.from_bytes(buffer.getvalue()))


@pytest.mark.parametrize("api, args", [("modify_style", {"name": "Sidebar Heading", "italic": False}),
                                       ("set_text_format", {"paragraphs": ["p1", "p2"], "italic": False})])
def test_a_property_on_now_by_its_style_is_one_the_request_can_only_take_off(api, args):
    """hand dev-tenth: the request names italic for a style (or its paragraphs) that is italic now; switching it off
    is the only change it can ask for. The same request for a style not italic now asks for it."""
    request = "those sidebar headings look fussy in italic; the green is enough"
    assert _checks(request, api, args, _italic_style_state(True)) == []
    assert _checks(request, api, args, _italic_style_state(None)) == ["asked_flag_off"]


def test_a_table_given_only_its_column_names_has_them_as_its_header():
    """DWBench 2.0 hand dev, found by the hosted ceiling: the column names, then three empty rows to fill in."""
    from autodw.agent.checks.values import unasked_flags

    request = "借用设备那部分下面加个表格：设备名称、数量、借用日期、预计归还日期，下面留三行空的给人填"
    table = {"cols": 4, "data": [["设备名称", "数量", "借用日期", "预计归还日期"]], "rows": 4, "header_row": True}
    assert unasked_flags("insert_table", table, request) == []
    filled = {**table, "data": [*table["data"], ["投影仪", "1", "5月2日", "5月9日"]]}
    assert [f.check for f in unasked_flags("insert_table", filled, request)] == ["unasked_flag"]
    assert [f.check for f in unasked_flags("insert_table", {**table, "rows": 1}, request)] == ["unasked_flag"]


def test_a_request_repeating_the_previous_change_asks_for_its_flags():
    """hand dev-eighteenth dwh-286#8: "the contract chapter repeats that same staffing table, do the same there" after
    "... make its header row bold with a light grey fill" asks for bold; a request that does not repeat it does not."""
    from autodw.agent.checks.values import unasked_flags

    previous = "Chapter 2's staffing table needs a total line. And make its header row bold with a light grey fill."
    args = {"table": "t13", "rows": 1, "bold": True, "fill": "D9D9D9"}
    assert unasked_flags("set_header_row", args, "the contract chapter repeats that table, do the same there",
                         previous) == []
    assert unasked_flags("set_header_row", args, "同样处理合同那一章的表", previous) == []
    assert [f.check for f in unasked_flags("set_header_row", args, "give the contract chapter's table a grey header",
                                           previous)] == ["unasked_flag"]


def test_a_request_opening_with_same_for_repeats_the_previous_change(state):
    """hand dev-thirty-sixth dwh-504#4 and dwh-499#6 (local ceiling): "same for the letter to teachers at the very
    end" after "each of the appendices should start on a new page" asks for the page break before it, and "same for
    the ty at the end of twenty" after "colour only the teen part blue" for the colour; "the same for" inside a clause
    ("keep the size the same for all headings") repeats nothing."""
    from autodw.agent.checks.values import unasked_flags, unasked_properties

    previous, args = "each of the appendices should start on a new page", {"paragraphs": ["p3"], "page_break_before": True}
    assert unasked_flags("set_paragraph_format", args, "same for the letter to teachers at the very end", previous) == []
    assert unasked_flags("set_paragraph_format", args, "And the same with the closing letter.", previous) == []
    assert [f.check for f in unasked_flags("set_paragraph_format", args, "keep the size the same for the letter",
                                           previous)] == ["unasked_flag"]
    previous, args = "In the teen words, colour only the teen part blue", {"paragraphs": ["p2"], "color": "0000FF"}
    assert unasked_properties("set_text_format", args, "same for the ty at the end of twenty", state, previous) == []
    assert [f.check for f in unasked_properties("set_text_format", args, "the ty at the end of twenty", state,
                                                previous)] == ["unasked_property"]


def test_a_heading_not_split_from_what_follows_asks_keep_with_next():
    """"这个标题别跟下面签字的表格分到两页去" (the heading not on another page than the table under it) asks
    keep_with_next (hand dev-thirtieth dwh-434#8), as "don't split it across pages" does."""
    from autodw.agent.checks.values import unasked_flags

    args = {"paragraphs": ["p173"], "keep_with_next": True}
    assert unasked_flags("set_paragraph_format", args, "第12条这个标题别跟下面签字的表格分到两页去") == []
    assert unasked_flags("set_paragraph_format", args, "don't let the heading split across pages from its table") == []
    assert unasked_flags("set_paragraph_format", args, "第12条这个标题加粗")
    # "keep them together" of a paragraph and the line under it (dev-thirty-fifth dwh-487#7, local ceiling)
    request = "the final numbered paragraph (90) shouldnt end up on a page by itself without the closing line under it. " \
              "Keep them together please."
    assert unasked_flags("set_paragraph_format", args, request) == []
    assert unasked_flags("set_paragraph_format", args, "keep the heading and its table together") == []
    assert unasked_flags("set_paragraph_format", args, "Keep the title bold and centred")


def test_a_line_never_alone_at_the_bottom_of_a_page_asks_keep_with_next():
    """"every Artigo line ... should never end up alone at the bottom of a page away from its text" is keep with next
    (hand dev-thirty-eighth dwh-526#9, local ceiling: its second request alone); a page's bottom said of where text
    goes asks nothing of it."""
    from autodw.agent.checks.values import unasked_flags

    args = {"paragraphs": ["p6"], "keep_with_next": True}
    for request in ("and should never end up alone at the bottom of a page away from its text.",
                    "make sure no heading is left stranded at the foot of a page", "小标题不要单独留在页末"):
        assert unasked_flags("set_paragraph_format", args, request) == []
    assert unasked_flags("set_paragraph_format", args, "put the page number at the bottom of the page")
    assert unasked_flags("set_paragraph_format", args, "make every Artigo line bold")


def test_keeping_a_paragraph_s_lines_together_does_not_ask_keep_with_next():
    """Review of dwh-487#7's rule: "keep the lines of this paragraph together" is Word's keep lines together (the
    keep_together flag), not keep with next; "keep them together" still asks keep_with_next."""
    from autodw.agent.checks.values import unasked_flags

    args = {"paragraphs": ["p173"], "keep_with_next": True}
    assert unasked_flags("set_paragraph_format", args, "keep the lines of this paragraph together")
    assert unasked_flags("set_paragraph_format", args, "Keep lines together for the closing paragraph")
    assert unasked_flags("set_paragraph_format", args, "Keep them together please.") == []


def test_a_flag_another_request_of_the_message_says_for_text_the_request_dictates():
    """hand dev-twenty-fifth dwh-367#7 (local ceiling): "Add a reference ...: Culmann, K., Die graphische Statik, ...,
    1866. Title in italics like the others please." is split after "1866"; italicising the title the first request
    writes is asked by the second; italics on other text, bold, or italics the message negates are not."""
    from autodw.agent import requests
    from autodw.agent.checks.values import unasked_flags

    message = ("Add a sixth reference at the end of the list: Culmann, K., Die graphische Statik, Meyer & Zeller, "
               "Zürich, 1866. Title in italics like the others please.")
    first = requests.split(message)[0]
    args = {"paragraphs": ["p9"], "span": {"match": "Die graphische Statik"}, "italic": True}
    assert unasked_flags("set_text_format", args, first, "", message) == []
    assert [f.check for f in unasked_flags("set_text_format", args, first)] == ["unasked_flag"]  # not split
    other = {"paragraphs": ["p3"], "italic": True}  # no text of the request's
    assert [f.check for f in unasked_flags("set_text_format", other, first, "", message)] == ["unasked_flag"]
    assert [f.check for f in unasked_flags("set_text_format", {**args, "bold": True}, first, "", message)] == ["unasked_flag"]
    negated = message.replace("in italics", "not in italics")
    assert [f.check for f in unasked_flags("set_text_format", args, first, "", negated)] == ["unasked_flag"]


def test_a_line_through_the_text_asks_for_strikethrough():
    """hand dev-twenty-second dwh-337#6 (local ceiling): "Put a line through everything that's ticked" asks for
    strike; the rule check no longer rejects strike=true as unasked."""
    from autodw.agent.checks.values import unasked_flags

    args = {"paragraphs": ["p1", "p2"], "strike": True}
    for request in ("Put a line through everything that's ticked", "Cross out the done items", "把做完的划掉"):
        assert unasked_flags("set_text_format", args, request) == [], request
    assert [f.check for f in unasked_flags("set_text_format", args, "Grey out the done items")] == ["unasked_flag"]


def test_the_legend_position_a_chart_has_now_describes_it(state):
    """hand dev-twenty-first dwh-324#5 (hosted ceiling): "underneath it instead of on the right" names where the
    legend is now, not where to put it (chart1's legend is at the bottom, "b")."""
    side = {"chart": "chart1", "position": "r"}
    assert _checks("Put the legend to the side instead of at the bottom", "set_chart_legend", side, state) == []
    assert _checks("Put the legend to the side instead of at the top", "set_chart_legend", side,
                   state) == ["unnamed_value"]


def test_a_request_repeating_the_previous_change_asks_for_its_properties(state):
    """hand dev-twenty-first dwh-327#3 (local ceiling): "2008和3000这两项也照这样弄一下" after "第1000项那行标红加粗"
    asks for the bold and the red; without the previous change it asks for neither."""
    from autodw.agent.checks.values import unasked_flags, unasked_properties

    previous, request = "第1000项那行标红加粗，我要重点看它的编号是不是显示成“一千”", "2008和3000这两项也照这样弄一下"
    args = {"paragraphs": ["p2", "p3"], "bold": True, "color": "red"}
    assert unasked_flags("set_text_format", args, request, previous) == []
    assert unasked_properties("set_text_format", args, request, state, previous) == []
    assert [f.check for f in unasked_properties("set_text_format", args, request, state)] == ["unasked_property"]
    assert [f.check for f in unasked_properties("set_text_format", args, "2008和3000这两项也标一下",
                                                state, previous)] == ["unasked_property"]


def test_a_request_adding_targets_with_too_asks_for_the_previous_change(state):
    """hand dev-twenty-seventh dwh-391#5 (local ceiling): "eleven and twelve too actually" after "Highlight them in
    yellow" asks for the highlight; "too" as "too small" does not."""
    from autodw.agent.checks.values import unasked_properties

    previous, args = "The -teen numbers are the ones they mix up. Highlight them in yellow.", {"paragraphs": ["p2"], "highlight": "yellow"}
    request = "eleven and twelve too actually, they're the hardest ones to spell"
    assert unasked_properties("set_text_format", args, request, state, previous) == []
    assert unasked_properties("set_text_format", args, "eleven and twelve as well.", state, previous) == []
    assert [f.check for f in unasked_properties("set_text_format", args, "eleven is too small", state,
                                                previous)] == ["unasked_property"]


def test_undoing_the_previous_change_names_the_property_it_removes(state):
    """hand dev-thirty-sixth dwh-500#8 (local ceiling): "no wait, undo that. the booklet gets printed in black and
    white anyway" after "highlight the last sentence ... in yellow" asks to remove the highlight; not another
    highlight, nor a removal the previous instruction did not name, nor without undoing it."""
    from autodw.agent.checks.values import unasked_properties

    previous = "highlight the last sentence of the article in yellow, the bit about the desert"
    request, args = "no wait, undo that. the booklet gets printed in black and white anyway", {"paragraphs": ["p2"], "highlight": "none"}
    assert unasked_properties("set_text_format", args, request, state, previous) == []
    assert [f.check for f in unasked_properties("set_text_format", {**args, "highlight": "green"}, request, state,
                                                previous)] == ["unasked_property"]
    assert [f.check for f in unasked_properties("set_text_format", args, request, state,
                                                "make the last sentence bold")] == ["unasked_property"]
    assert [f.check for f in unasked_properties("set_text_format", args, "the booklet gets printed in black and white",
                                                state, previous)] == ["unasked_property"]


def test_a_chinese_line_chart_typed_by_its_sound(state):
    """"折现图" for "折线图" (the same pinyin; DWBench 2.0 hand dev, found by the hosted ceiling)."""
    from autodw.agent.checks.values import unnamed_values

    line = {"chart": "chart1", "chart_type": "line"}
    assert unnamed_values("change_chart_type", line, "准时率那个柱状图换成折现图吧，看趋势更直观一点", state) == []
    assert unnamed_values("change_chart_type", line, "准时率那个柱状图换个样子吧", state)


def _made_state(build) -> dict:
    """The state of a new document `build` fills in (it is given the python-docx document)."""
    made = docx.Document()
    build(made)
    buffer = io.BytesIO()
    made.save(buffer)
    return extract_state(WordDocument.from_bytes(buffer.getvalue()))


def _centred_and_left(made) -> None:
    """p1 centred (bold, underlined), p2 left."""
    title = made.add_paragraph()
    title.add_run("Appendix 1 - Font Mapping").bold = True
    title.alignment = docx.enum.text.WD_ALIGN_PARAGRAPH.CENTER
    made.add_paragraph("Body text.")


def test_a_value_every_target_has_now_describes_it():
    """hand dev-eighteenth dwh-282#4 (hosted ceiling): a request calling a paragraph what it is now ("just bold
    underlined centred text") names no value to take; one asking for the value still rejects another."""
    request = ("The Appendix 1 title is just bold underlined centred text. Turn it into a proper Heading 1 that looks "
               "like the other chapter headings.")
    state = _made_state(_centred_and_left)
    assert _checks(request, "set_paragraph_format", {"paragraphs": ["p1"], "alignment": "left"}, state) == []
    assert _checks("Centre p2", "set_paragraph_format", {"paragraphs": ["p2"], "alignment": "right"},
                   state) == ["unnamed_value"]
    assert _checks("Centre p1 and p2", "set_paragraph_format", {"paragraphs": ["p1", "p2"], "alignment": "right"},
                   state) == ["unnamed_value"]  # not centred in every one of them now


def _headings(made) -> None:
    """p1 a Heading 3, p2 a Heading 2."""
    made.add_heading("Level three", level=3)
    made.add_heading("Level two", level=2)


def test_a_level_every_target_heading_has_now_describes_it():
    """hand dev-eighteenth dwh-292#8 (hosted ceiling): "三级太不显眼了，还是改回去" (the level 3 it has now is too
    faint; change it back) names level 3 as what the heading is, not as the level to take."""
    state = _made_state(_headings)
    back = checks.check_call("Do it.", "不行，三级太不显眼了，还是改回去", "change_heading_level",
                             {"paragraphs": ["p1"], "level": 2}, state, {})
    assert [f.check for f in back] == []
    wrong = checks.check_call("Do it.", "把二级标题改成三级", "change_heading_level",
                              {"paragraphs": ["p2"], "level": 2}, state, {})
    assert [f.check for f in wrong if f.check == "unnamed_level"] == ["unnamed_level"]
    assert checks.repair([f for f in wrong if f.check == "unnamed_level"]) == {"level": 3}
    assert _checks("把这两个标题都改成三级", "change_heading_level", {"paragraphs": ["p1", "p2"], "level": 2},
                   state) == ["unnamed_level"]


def _bold_word(made) -> None:
    """"Donec" bold twice in p1, and in p2 once bold and once not."""
    first = made.add_paragraph("Lorem ")
    first.add_run("Donec").bold = True
    first.add_run(" ipsum ")
    first.add_run("Donec").bold = True
    second = made.add_paragraph()
    second.add_run("Donec").bold = True
    second.add_run(" blandit Donec")


def test_a_search_whose_matches_are_bold_now_can_only_take_bold_off():
    """hand dev-eighteenth dwh-293#7 (hosted ceiling): "加粗太重了，还是改成斜体吧" (the bold is too heavy, make it
    italic instead) for a word bold wherever format_matches finds it."""
    state = _made_state(_bold_word)
    swap = {"find": "Donec", "bold": False, "italic": True, "paragraphs": ["p1"]}
    assert _checks("加粗太重了，还是改成斜体吧", "format_matches", swap, state) == []
    assert _checks("加粗太重了，还是改成斜体吧", "format_matches", {**swap, "paragraphs": ["p1", "p2"]},
                   state) == ["asked_flag_off"]  # one match is not bold now
    assert _checks("加粗太重了，还是改成斜体吧", "format_matches", {k: v for k, v in swap.items() if k != "paragraphs"},
                   state) == ["asked_flag_off"]


@pytest.mark.parametrize("request_text, color, unasked", [
    ("第一条里的“两周”加粗标红，老有人超期不还", "FF0000", False),  # hand dev-third (hosted ceiling)
    ("把第三段的日期标蓝", "0000FF", False),
    ("这几个字涂黄一下", "FFFF00", False),
    ("标题变绿吧", "00B050", False),
    ("正文里的说明标黑", "000000", False),
    ("把第三段改成黑体", "000000", True),  # a font, not a colour
])
def test_a_chinese_colour_said_without_its_character_for_colour(state, request_text, color, unasked):
    found = _checks(request_text, "set_text_format", {"paragraphs": "p3", "color": color}, state)
    assert ("unasked_property" in found) == unasked


def test_a_formatting_property_the_request_does_not_name(state):
    highlight = 'Put a yellow highlight on "pleasure" in p1'
    assert _checks(highlight, "set_paragraph_format", {"paragraphs": "p1", "line_spacing": 10},
                   state) == ["unnamed_number", "unasked_property"]
    assert _checks("Make p3 bold", "set_text_format", {"paragraphs": "p3", "bold": True, "color": "FF0000"},
                   state) == ["unasked_property"]  # no colour asked for at all
    style = 'Define a paragraph style "Highlight Box": 12 pt navy italics'
    args = {"name": "Highlight Box", "kind": "paragraph", "size_pt": 12, "italic": True, "color": "navy"}
    assert _checks(style, "create_style", {**args, "font": "Arial"}, state) == ["unasked_property"]
    assert _checks(style, "create_style", args, state) == []
    assert _checks(style + " in Georgia", "create_style", {**args, "font": "Georgia"}, state) == []  # named by its value
    assert _checks("标题改成黑体16磅", "set_text_format", {"paragraphs": "p1", "font": "SimHei", "size_pt": 16}, state) == []


def test_a_heading_level_the_request_does_not_name(state):
    wrong = checks.check_call("Do it.", "把“Highlights”降为二级标题", "change_heading_level",
                              {"paragraphs": ["p3"], "level": 3}, state, {})
    assert [f.check for f in wrong] == ["unnamed_level"] and checks.repair(wrong) == {"level": 2}
    assert _checks("将“Highlights”标题降一级（标题 2）", "change_heading_level", {"paragraphs": ["p3"], "level": 2},
                   state) == []  # "降一级" (one level down) names no level
    assert _checks("Add a heading 'Risks' at the end", "insert_heading", {"text": "Risks", "level": 2,
                                                                           "position": "end"}, state) == []
    # a section the request names by its quoted title ("the "Heading 3" section") names no level
    # (templated dev-outside dwo-018#1: the noisy oracle at p=0)
    named = 'at the end of the "Heading 3" section, add a new heading "Appendix"'
    args = {"text": "Appendix", "level": 1, "position": {"after": "p3"}}
    assert _checks(named, "insert_heading", args, state) == []
    assert _checks('add a new heading "Appendix" (Heading 3)', "insert_heading", args, state) == ["unnamed_level"]
    # a level said by its ordinal beside another named as the place (hand dev-twenty-first dwh-325#3)
    third = "We also use a third heading level. Add a sample line for it under the Heading 2 one, worded the same way."
    line = {"text": "This is Heading 3", "level": 3, "position": {"after": "p2"}}
    assert _checks(third, "insert_heading", line, state) == []
    assert _checks(third, "insert_heading", {**line, "level": 4}, state) == ["unnamed_level"]


def test_a_section_name_inserted_as_a_body_paragraph(state):
    for request in ('Add a section called "Next Steps" after p9', "在p9后面补一节“附录”", '补一个“附录”小节'):
        text = "Next Steps" if "Next" in request else "附录"
        assert _checks(request, "insert_paragraph", {"text": text, "position": {"after": "p9"}},
                       state) == ["heading_as_paragraph"]
    assert _checks('After p9 add the sentence "Next Steps"', "insert_paragraph",
                   {"text": "Next Steps", "position": {"after": "p9"}}, state) == []
    # a paragraph given a heading style is no body paragraph (hand dev-thirty-first dwh-447#1, dwh-447#3)
    for style in ("Title", "Heading 2", "标题 2"):
        assert _checks("开头加个标题“英文数字 1-20”", "insert_paragraph",
                       {"text": "英文数字 1-20", "position": "start", "style": style}, state) == []
    assert _checks("开头加个标题“英文数字 1-20”", "insert_paragraph",
                   {"text": "英文数字 1-20", "position": "start", "style": "Normal"}, state) == ["heading_as_paragraph"]


def test_a_deletion_the_request_does_not_ask_for(state):
    assert _checks("把开头是“Testing”的那段挪到最后", "delete_block", {"block": "p9"}, state) == ["unasked_api"]
    assert _checks('"Draft" no longer applies; take its row out of the table', "delete_row", {"table": "t1", "index": 1},
                   state) == []
    assert _checks("Centre the table and give it a caption", "set_table_borders", {"table": "t1"},
                   state) == ["unasked_api"]


@pytest.mark.parametrize("request_text, unasked", [
    ("The results table has way more blank rows than anyone will fill in, leave just 10 empty ones.", False),  # dwh-486#6
    ("keep only the first three rows of the table", False),
    ("only keep 2 rows", False),
    ("表格只保留前5行", False),
    ("leave just a little space under the table", True),  # no count of things left: no deletion
    ("keep the rows of the table as they are", True),
])
def test_leaving_or_keeping_only_n_of_them_deletes_the_rest(state, request_text, unasked):
    """DWBench 2.0 hand dev-thirty-fifth (found by the local ceiling): a request to leave or keep only N of
    something asks to remove the rest."""
    assert _checks(request_text, "delete_row", {"table": "t1", "index": 1}, state) == (["unasked_api"] if unasked else [])


@pytest.mark.parametrize("request_text, unasked", [
    ("Actually take the kitchen cleaning back out, they still haven't quoted for it.", False),  # hand dev
    ("take the kitchen cleaning out again - no quote from them yet", False),  # dev-reworded: a longer object
    ("take out the kitchen cleaning line", False),
    ("Take the whole paragraph about kitchen cleaning out", False),
    ("take a look at the kitchen cleaning. Print it out later", True),  # not one clause
    ("take the kitchen cleaning line and move it to the end, then print the page out", True),  # too far apart
])
def test_a_deletion_said_as_take_its_object_out(state, request_text, unasked):
    assert _checks(request_text, "delete_block", {"block": "p9"}, state) == (["unasked_api"] if unasked else [])


@pytest.mark.parametrize("request_text, previous, unasked", [
    ("the page-and-region diagram in the XSL FO part is huge, shrink it to about half", "", False),  # dev-second
    ("actually it's unreadable that small. put it back how it was",
     "the page-and-region diagram in the XSL FO part is huge, shrink it to about half", False),  # dev-second: follow-up
    ("Make the illustration on page 2 a bit smaller", "", False),
    ("The little drawing of the machine is too wide, halve it", "", False),
    ("Scale the graphic under the title down to 5 cm", "", False),
    ("把那张相片缩小一半", "", False),
    ("Make the table under the title a bit smaller", "", True),  # not a picture
])
def test_a_picture_named_as_a_diagram_drawing_or_graphic(state, request_text, previous, unasked):
    found = checks.check_call("Do it.", request_text, "resize_image", {"image": "img1", "width": "5cm"}, state, {},
                              previous=previous)
    assert ("unasked_api" in [f.check for f in found]) == unasked


@pytest.mark.parametrize("request_text, unasked", [
    ("安全须知第一条后面那个脚注说的是除垢剂，放错地方了。把它挪到清洁保养那段的末尾", False),  # dev-second
    ("把第二个脚注移到上一段末尾", False),
    ("这个尾注搬到结论那段后面去", False),
    ("Relocate the footnote on the cost figure to the end of the summary", False),
    ("Shift that endnote to the paragraph about staffing", False),
    ("把第二个脚注的字号改小一点", True),  # the note changed, not moved or deleted
])
def test_a_note_moved_in_other_words(state, request_text, unasked):
    found = _checks(request_text, "delete_footnote", {"note": 1}, state)
    assert ("unasked_api" in found) == unasked


@pytest.mark.parametrize("request_text, unasked", [
    ("The attendees sentence is hard to scan. Turn it into a bullet list with one person per bullet.", False),  # dev-second
    ("Convert the paragraph listing the risks into a numbered list", False),
    ("Split the long sentence about deliverables into bullet points", False),
    ("Make the budget paragraph into a table with one row per item", False),
    ("把参会人员那句话改成项目符号列表，一人一条", False),
    ("把预算那段整理成表格", False),
    ("Turn the heading into Heading 2", True),  # a change of style, nothing replaced
    ("Make the attendees sentence bold", True),
])
def test_a_paragraph_turned_into_a_list_or_table_is_replaced(state, request_text, unasked):
    assert ("unasked_api" in _checks(request_text, "delete_block", {"block": "p9"}, state)) == unasked


@pytest.mark.parametrize("api, request_text, unasked", [
    ("add_watermark", "Stamp it as a draft until both sides have signed", False),  # hand dev-third (hosted ceiling)
    ("add_watermark", "Stamp CONFIDENTIAL across every page", False),
    ("add_watermark", "每页都印上“内部资料”几个字", False),
    ("add_watermark", "加个背景文字：样本", False),
    ("remove_watermark", "Both sides signed, so the draft stamp can go", False),
    ("add_watermark", "Mark it as a draft in the title", True),  # the title's words, not a watermark
])
def test_a_watermark_said_as_a_stamp(api, request_text, unasked):
    assert bool(apis.unasked_api(api, request_text, "", {"text": "DRAFT"}, {})) == unasked


def _listed(*kinds):
    """A state whose paragraphs p1, p2... are list items of `kinds` (None: no list)."""
    return {"paragraphs": [{"id": f"p{i}", "text": f"line {i}", "list": {"kind": k} if k else None}
                           for i, k in enumerate(kinds, 1)]}


@pytest.mark.parametrize("request_text, kinds, kind, unasked", [
    # dev-second: a new case added after the last of a numbered list of cases
    ("and add another case after it: sections_mixed_orientation: A docx with a portrait section", ("numbered", "numbered", None),
     "numbered", False),
    ("Add one more step before the first: fill the tank", (None, None, None, "numbered"), "numbered", False),
    ("Put another point after the last one: budget approved", ("bullet", "bullet", None), "bullet", False),
    ("Add one more step after it: refill the tank", ("numbered", "numbered", None), "bullet", True),  # other kind
    ("Add a closing remark after it", ("numbered", None, None), "numbered", True),  # no list beside p3
])
def test_an_entry_added_to_a_list_joins_it(request_text, kinds, kind, unasked):
    found = apis.unasked_api("set_list_format", request_text, "", {"paragraphs": ["p3"], "kind": kind}, _listed(*kinds))
    assert bool(found) == unasked


@pytest.mark.parametrize("request_text, kinds, position, kind, unasked", [
    # hand dev-third (hosted ceiling): an agenda item added after the last of a bullet list
    ("午餐后面再加一项：14:00 参观新门诊楼，时间也一样加粗", ("bullet", "bullet", "bullet", None), {"after": "p3"}, "bullet",
     False),
    ("Add one more after lunch: 14:00 tour of the new wing", ("bullet", "bullet", "bullet", None), {"after": "p3"},
     "bullet", False),
    ("Before the opening, put 9:00 registration", ("numbered", "numbered", None), {"before": "p1"}, "numbered", False),
    ("在开幕前面再加上 9:00 签到", ("numbered", "numbered", None), {"before": "p1"}, "bullet", True),  # another kind
    ("After the greeting, add 9:00 registration", ("bullet", None, None), {"after": "p2"}, "bullet", True),  # no list
])
def test_an_entry_inserted_beside_a_list_joins_it(request_text, kinds, position, kind, unasked):
    found = apis.unasked_api("insert_list", request_text, "", {"items": ["x"], "position": position, "kind": kind},
                             _listed(*kinds))
    assert bool(found) == unasked


def test_the_generator_sees_the_quoted_elements_first(doc):
    agent, llm = agent_for({
        "planner": [plan('Make the "Next Steps" heading italic.'), DONE],
        "api_generator": [{"api": "set_text_format", "args": {"paragraphs": "p32", "italic": True}}],
        "validator": [PASS],
    }, assembly=profile_assembly("hosted", generator_state_budget=120))
    agent.run(doc, ['Make the "Next Steps" heading italic.'])
    prompt = next(r for r in llm.requests if r["role"] == "api_generator")["messages"][1]["content"]
    assert '"Next Steps" -> p32 (paragraph) is "Next Steps"' in prompt and "p32 " in prompt.split("Quoted texts")[0]
    planner = next(r for r in llm.requests if r["role"] == "planner")["messages"][1]["content"]
    assert '"Next Steps" -> p32' in planner
    agent, llm = agent_for({"planner": [plan('Make the "Next Steps" heading italic.'), DONE],
                            "api_generator": [{"api": "set_text_format", "args": {"paragraphs": "p32", "italic": True}}],
                            "validator": [PASS]}, assembly=profile_assembly("hosted", grounding=False))
    agent.run(WordDocument.open(EXAMPLES / "report.docx"), ['Make the "Next Steps" heading italic.'])
    assert all("Quoted texts" not in m["content"] for r in llm.requests for m in r["messages"])


def test_cjk_punctuation_the_model_changed_reaches_the_document_as_typed(doc):
    agent, _ = agent_for({
        "planner": [plan("在文末添加段落。"), DONE],
        "api_generator": [{"api": "insert_paragraph", "args": {"text": "本合同未尽事宜，双方协商解决.", "position": "end"}}],
        "validator": [PASS],
    })
    agent.run(doc, ["在文档末尾添加一个段落：“本合同未尽事宜，双方协商解决。”"])
    assert texts(doc)[-1] == "本合同未尽事宜，双方协商解决。"


def test_a_rule_check_rejects_without_asking_the_validator(doc):
    noop = {"api": "apply_style", "args": {"paragraphs": "p3", "style": "Heading 1"}}  # it has that style
    level2 = {"api": "apply_style", "args": {"paragraphs": "p3", "style": "Heading 2"}}
    agent, llm = agent_for({
        "planner": [plan("Make p3 a level-2 heading."), DONE],
        "api_generator": [noop, level2],
        "validator": [PASS],
    })
    record = agent.run(doc, ["Make Highlights a level-2 heading."]).instructions[0]
    first, second = record.steps[0].attempts
    assert first.verdict.decision == "fail" and first.verdict.confidence == 1.0 and first.rolled_back
    assert first.verdict.explanation == "rule check: the call changed nothing in the document"
    assert second.accepted and second.verdict.decision == "pass"
    assert [r["role"] for r in llm.requests].count("validator") == 1
    agent, llm = agent_for({"planner": [plan("Make p3 a level-2 heading."), DONE], "api_generator": [noop],
                            "validator": [PASS]}, assembly=profile_assembly("hosted", rule_checks=False))
    agent.run(WordDocument.open(EXAMPLES / "report.docx"), ["Make Highlights a level-2 heading."])
    assert [r["role"] for r in llm.requests].count("validator") == 1  # without rule checks the LLM judges it


def test_a_call_whose_api_cannot_do_it_goes_straight_to_api_level(doc):
    partial = {"api": "replace_text", "args": {"find": "Sales", "replace": "Sales fell.", "scope": "body"}}
    whole = {"api": "set_paragraph_text", "args": {"paragraph": "p5", "text": "Sales fell."}}
    agent, llm = agent_for({"planner": [plan("Replace the text of p5 with 'Sales fell.'"), DONE],
                            "api_generator": [partial, whole], "validator": [PASS]},  # the last level is validated too
                           assembly=profile_assembly("hosted", rollback="full"))
    record = agent.run(doc, ["Replace the text of the paragraph p5 with \"Sales fell.\""]).instructions[0]
    first, second = record.steps[0].attempts
    assert first.verdict.wrong_api and first.rolled_back
    assert "replace_text changes only the words it finds" in first.verdict.explanation
    assert second.level == "api" and second.api == "set_paragraph_text" and second.accepted  # no argument-level retry
    retry = [r for r in llm.requests if r["role"] == "api_generator"][1]
    offered = {api for option in retry["schema"]["anyOf"] for api in option["properties"]["api"]["enum"]}
    assert "set_paragraph_text" in offered and "replace_text" not in offered  # the rejected API is not offered again


def test_the_rejected_call_repeated_gets_the_rule_checks_fix(doc):
    endnote = {"api": "insert_footnote", "args": {"paragraph": "p39", "text": "Audit pending.", "kind": "endnote"}}
    agent, llm = agent_for({"planner": [plan("Insert a footnote 'Audit pending.' in p39."), DONE],
                            "api_generator": [endnote, endnote], "validator": [PASS]})
    console = io.StringIO()
    agent.sinks.append(ConsoleReporter(console))
    record = agent.run(doc, ["Add a footnote 'Audit pending.' at the end of the methodology paragraph."]).instructions[0]
    first, second = record.steps[0].attempts
    assert first.verdict.repair == {"kind": "footnote"} and second.repaired and second.accepted
    assert second.args == {**endnote["args"], "kind": "footnote"} and "the fix of its rejection applied" in console.getvalue()
    assert [n["text"] for n in extract_state(doc)["interactive"]["footnotes"]][-1] == "Audit pending."
    agent, _ = agent_for({"planner": [plan("Insert a footnote in p39."), DONE], "api_generator": [endnote, endnote]},
                         assembly=profile_assembly("hosted", repair_calls=False, rollback="arg"))
    record = agent.run(WordDocument.open(EXAMPLES / "report.docx"), ["Add a footnote 'Audit pending.'"]).instructions[0]
    again = record.steps[0].attempts[1]  # the last level's call is judged too: rejected again, no endnote stays
    assert not again.repaired and again.args == endnote["args"] and again.rolled_back and record.steps[0].rejected


def test_a_fix_that_leaves_an_argument_out_repairs_the_repeated_call(doc):
    """one_occurrence's fix is count left out (None): the regenerated call replaces every occurrence."""
    once = {"api": "replace_text", "args": {"find": "Quarterly", "replace": "Annual", "scope": "all", "count": 1}}
    agent, _ = agent_for({"planner": [plan("Replace Quarterly with Annual everywhere."), DONE],
                          "api_generator": [once, once], "validator": [PASS]})
    record = agent.run(doc, ['Replace "Quarterly" with "Annual" everywhere, headers included']).instructions[0]
    first, second = record.steps[0].attempts
    assert first.verdict.repair == {"count": None} and second.repaired and second.accepted
    assert second.args == {"find": "Quarterly", "replace": "Annual", "scope": "all"}
    after = extract_state(doc)
    assert "Quarterly" not in " ".join(p["text"] for p in after["paragraphs"])
    assert "Quarterly" not in after["page_layout"]["sections"][0]["headers"]["default"]["text"]


def test_the_rejected_call_repeated_without_a_fix_is_not_run_again(doc):
    noop = {"api": "apply_style", "args": {"paragraphs": "p3", "style": "Heading 1"}}  # it has that style
    agent, llm = agent_for({"planner": [plan("Make p3 a level-2 heading."), DONE], "api_generator": [noop, noop]},
                           assembly=profile_assembly("hosted", rollback="arg"))
    record = agent.run(doc, ["Make Highlights a level-2 heading."]).instructions[0]
    first, again = record.steps[0].attempts
    assert first.verdict.repair is None and again.error == "the regenerated call is the rejected one again"
    assert again.level == "arg" and again.verdict is None and not llm.remaining()


def test_a_failed_call_repeated_gets_what_its_error_said_to_leave_out(doc):
    short = {"api": "insert_table", "args": {"position": "end", "rows": 2, "data": [["Name", "Role"], ["Ann", "Chair"],
                                                                                   ["Ben", "Clerk"]]}}
    tables = FixedClassifier([("table_operation", 0.9), ("content_creation", 0.1)])
    agent, llm = agent_for({"planner": [plan("Insert a table at the end."), DONE], "api_generator": [short, short],
                            "validator": [PASS]}, classifier=tables)
    record = agent.run(doc, ["Add a table at the end: Name, Role; Ann, Chair; Ben, Clerk"]).instructions[0]
    first, second = record.steps[0].attempts
    assert not first.ok and "omit rows" in first.error and first.fix == {"rows": None}
    assert second.level == "arg" and second.repaired and second.accepted and "rows" not in second.args
    assert len(extract_state(doc)["tables"][-1]["cells"]) == 3
    agent, _ = agent_for({"planner": [plan("Insert a table at the end."), DONE], "api_generator": [short, short]},
                         assembly=profile_assembly("hosted", repair_calls=False, rollback="arg"), classifier=tables)
    record = agent.run(WordDocument.open(EXAMPLES / "report.docx"), ["Add a table at the end."]).instructions[0]
    assert [a.ok for a in record.steps[0].attempts] == [False, False]  # without repair it fails again


def test_every_fix_is_valid_for_its_api(state):
    cases = [("Add a footnote 'Audit pending.' to p39", "insert_footnote",
              {"paragraph": "p39", "text": "Audit pending.", "kind": "endnote"}, {"kind": "footnote"}),
             ("Title the chart 'Key figures'", "set_chart_title", {"chart": "chart1", "title": "Key figures draft"},
              {"title": "Key figures"}),
             ("Indent p2 by 1 cm", "set_paragraph_format", {"paragraphs": "p2", "left_indent": "1.5cm"}, {"left_indent": "1cm"}),
             ("Set the title to 20 pt", "set_text_format", {"paragraphs": "p1", "size_pt": 18}, {"size_pt": 20.0}),
             ("Before the appendix, add a heading 'Risks'", "insert_heading",
              {"text": "Risks", "level": 1, "position": {"after": "p38"}}, {"position": {"before": "p38"}}),
             ("Add 'Fin' at the end of the document", "insert_paragraph", {"text": "Fin", "position": {"after": "p2"}},
              {"position": "end"})]
    for request, api, args, fix in cases:
        assert checks.repair(checks.check_call("Do it.", request, api, args, state, {})) == fix, request
        validate_arguments(registry().get(api), {**args, **fix})


def test_a_fix_the_api_refuses_is_not_offered(state):
    from autodw.agent.validator import applicable_fix

    args = {"image": "img1", "alignment": "left"}
    fix = checks.repair(checks.check_call("Do it.", "Make the logo justified", "set_image_alignment", args, state, {}))
    assert fix == {"alignment": "justify"}  # the word names a value set_image_alignment does not have
    assert applicable_fix(registry(), "set_image_alignment", args, fix) is None
    assert applicable_fix(registry(), "set_image_alignment", args, {"alignment": "center"}) == {"alignment": "center"}


@pytest.mark.parametrize("rule, accepted", [("paper", True), ("decision", False)])
def test_a_fail_at_confidence_zero(doc, rule, accepted):
    agent, _ = agent_for({
        "planner": [plan("Add 'x' at the end."), DONE],
        "api_generator": [{"api": "insert_paragraph", "args": {"text": "x", "position": "end"}},
                          {"api": "insert_paragraph", "args": {"text": "y", "position": "end"}}],
        "validator": [{"decision": "fail", "confidence": 0.0, "explanation": "not sure"}, PASS],
    }, assembly=profile_assembly("hosted", rollback="arg", verdict_rule=rule))
    record = agent.run(doc, ["Add x"]).instructions[0]
    first = record.steps[0].attempts[0]
    assert first.verdict.accepted is accepted
    assert len(record.steps[0].attempts) == (1 if accepted else 2)
    assert texts(doc)[-1] == ("x" if accepted else "y")


def test_an_unknown_verdict_rule_is_refused():
    with pytest.raises(ConfigError, match="verdict_rule"):
        profile_assembly("hosted", verdict_rule="lenient")


def test_a_third_identical_call_ends_the_instruction(doc):
    call = {"api": "insert_page_numbers", "args": {"section": "all", "where": "footer", "alignment": "center"}}
    agent, llm = agent_for({
        "planner": [plan("Add page numbers."), plan("Add page numbers in the footer."),
                    plan("Add centred page numbers."), plan("Never asked.")],
        "api_generator": [call, call, call],
        "validator": [PASS, PASS],
    }, classifier=FixedClassifier([("structure_update", 0.9), ("content_creation", 0.05), ("content_modification", 0.05)]))
    record = agent.run(doc, ["Page numbers, centred, in the footer"]).instructions[0]
    assert record.status == "done" and record.steps[-1].redundant and len(record.steps) == 3
    assert llm.remaining()  # the fourth plan was never asked for


def test_no_new_step_after_the_llm_call_limit(doc):
    agent, llm = agent_for({
        "planner": [plan("Add 'x' at the end."), plan("Add 'y' at the end.")],
        "api_generator": [{"api": "insert_paragraph", "args": {"text": t, "position": "end"}} for t in "xy"],
        "validator": [PASS, PASS],
    }, assembly=profile_assembly("hosted", max_llm_calls=3))
    record = agent.run(doc, ["Add x and y"]).instructions[0]
    assert record.status == "call_limit" and len(record.steps) == 1 and texts(doc)[-1] == "x"
    assert llm.remaining()  # the second plan was never asked for
    with pytest.raises(ConfigError, match="max_llm_calls"):
        profile_assembly("hosted", max_llm_calls=0)


def test_the_rule_checks_alone_as_the_validator(doc):
    noop = {"api": "apply_style", "args": {"paragraphs": "p3", "style": "Heading 1"}}
    level2 = {"api": "apply_style", "args": {"paragraphs": "p3", "style": "Heading 2"}}
    agent, llm = agent_for({"planner": [plan("Make p3 a level-2 heading."), DONE], "api_generator": [noop, level2]},
                           assembly=profile_assembly("hosted", llm_validator=False, absence_findings="reject"))
    record = agent.run(doc, ["Make Highlights a level-2 heading."]).instructions[0]
    first, second = record.steps[0].attempts
    assert first.verdict.explanation.startswith("rule check:") and second.accepted
    assert second.verdict.explanation == "no rule check objected (the LLM validator is off)"
    assert not [r for r in llm.requests if r["role"] == "validator"]


def test_the_api_words_name_real_apis_and_reject_no_templated_dev_gold_call():
    """The word lists were completed on DWBench 2.0 dev alone (autodw/core/provenance.json): no templated dev gold call is
    rejected by them; on hand dev, the few the words cannot fix (a reference by "it", a typo, "undo that") are listed
    in the derivation (scripts/derive_word_lists.py --split dev). Test is a measurement, not asserted here."""
    from autodw.agent.checks.apis import unasked_api
    from autodw.agent.checks.reading import api_words
    from autodw.dwbench.records import load_instructions

    words = api_words()
    assert words and set(words) <= set(registry().names())
    rejected = [(g.api, i.key) for i in load_instructions("dev", "templated") for g in i.gold if unasked_api(g.api, i.text)]
    assert rejected == []
    hand = [(g.api, i.key) for i in load_instructions("dev", "hand") for g in i.gold if unasked_api(g.api, i.text)]
    assert len(hand) <= 5, hand


# --- what the 1.5B model does with a natural request (issue 51) -----------------------------------------------------


def test_a_replacement_everywhere_limited_to_fewer_occurrences_than_the_document_has(state):
    from autodw.agent.validator import applicable_fix

    once = {"find": "Quarterly", "replace": "Annual", "scope": "all", "count": 1}  # three in the body and header
    for request in ('Replace "Quarterly" with "Annual" everywhere, headers included', 'Change every "Quarterly" to '
                    '"Annual"', "把所有的“Quarterly”都改成“Annual”", "全文的Quarterly都替换成Annual",
                    "“Quarterly”改成“Annual”，这几处都要改"):
        found = checks.check_call("Do it.", request, "replace_text", once, state, {"a": 1})
        assert [f.check for f in found] == ["one_occurrence"], request
        assert checks.repair(found) == {"count": None}
        assert applicable_fix(registry(), "replace_text", once, {"count": None}) == {"count": None}
    everywhere = 'Replace "Quarterly" with "Annual" everywhere'
    assert _checks(everywhere, "replace_text", {**once, "count": 3}, state) == []  # no occurrence is left
    assert _checks(everywhere, "replace_text", {**once, "scope": "body"}, state) == []  # the body has one
    assert _checks(everywhere, "replace_text", {k: v for k, v in once.items() if k != "count"}, state) == []
    # limited to some paragraphs for a request to change them everywhere
    title = {"find": "Sales", "replace": "Revenue", "paragraphs": ["p1"]}  # p1, p7 and p40 have it
    for request, args, fix in (('Replace "Sales" with "Revenue" throughout the document', title, {"paragraphs": None}),
                               ("把全文的“Sales”都改成“Revenue”", {**title, "count": 1}, {"count": None, "paragraphs": None})):
        found = checks.check_call("Do it.", request, "replace_text", args, state, {"a": 1})
        assert [f.check for f in found] == ["one_occurrence"] and checks.repair(found) == fix, request
    assert _checks('Replace all "Sales" with "Revenue" in the title', "replace_text", title, state) == []
    assert _checks('Replace "Sales" with "Revenue" throughout the document', "replace_text",
                   {**title, "paragraphs": ["p1", "p7", "p40"]}, state) == []
    for request in ('Replace only the first "Quarterly" with "Annual"', 'Replace "Quarterly" with "Annual" once',
                    "把第一处“Quarterly”改成“Annual”，其余的都不动", 'Replace "Quarterly" with "Annual" in the title'):
        assert _checks(request, "replace_text", once, state) == [], request
    # "everywhere else" alone says how the rest of the document is, not where to replace (hand dev-thirty-fourth,
    # dwh-474#4: "the report calls it UDRP everywhere else, and it's ..., not Universal"); joined to a place, it asks
    for request in ('The report calls it Revenue everywhere else, and "Sales" is wrong in the title',
                    'Fix "Sales" to "Revenue" in the title, like everywhere else'):
        assert _checks(request, "replace_text", title, state) == [], request
    for request in ('Change "Sales" to "Revenue" in the title and everywhere else',
                    'Change "Sales" to "Revenue" everywhere else too'):
        assert _checks(request, "replace_text", title, state) == ["one_occurrence"], request


def test_markup_written_into_the_text_unless_the_request_or_the_document_has_it(state):
    for text in ("Area: 25 m<sup>2</sup>", "Area: 25 m^2", "**Total** sales", "The __new__ plan", "CO_2 output",
                 '<span style="color:red">Late</span>'):
        assert _checks("Add a line at the end: Area 25 m2, with the 2 superscript", "insert_paragraph",
                       {"text": text, "position": "end"}, state) == ["literal_markup"], text
    assert "literal_markup" in _checks("Add the row Area, m2 to the table", "insert_row",
                                       {"table": "t1", "data": ["Area", "m^2"]}, state)
    assert "literal_markup" not in _checks("Add the row Area, m^2 to the table", "insert_row",
                                           {"table": "t1", "data": ["Area", "m^2"]}, state)
    assert _checks('Add a line "Use <b> for bold" at the end', "insert_paragraph",
                   {"text": "Use <b> for bold", "position": "end"}, state) == []
    assert _checks("Add a signature line at the end", "insert_paragraph", {"text": "签名：________", "position": "end"},
                   state) == []
    assert _checks('Find "**" and remove it', "replace_text", {"find": "**Note**", "replace": "Note"}, state) == []
    marked = {**state, "paragraphs": [*state["paragraphs"], {"id": "p99", "text": "Area in m^2", "runs": []}]}
    assert _checks("Make the area paragraph say Area in m^2 only", "set_paragraph_text",
                   {"paragraph": "p99", "text": "Area in m^2 only"}, marked) == []  # the document already has it


def test_a_new_table_left_empty_where_the_request_gives_its_data(state):
    from autodw.agent.request_values import TableData, tables

    data = [["Name", "Role"], ["Ann", "Chair"], ["Bo", "Clerk"]]
    requests_ = ["Add a table at the end with the header Name, Role and the rows Ann, Chair; Bo, Clerk",
                 "Add a table at the end:\nName, Role\nAnn, Chair\nBo, Clerk",
                 "Insert this table at the end:\n| Name | Role |\n|---|---|\n| Ann | Chair |\n| Bo | Clerk |",
                 "文末加一个表格，表头Name、Role（加粗），数据：Ann, Chair; Bo, Clerk"]
    for request in requests_:
        assert tables(request) == [TableData(tuple(map(tuple, data)))], request
        for args in ({"rows": 3, "cols": 2, "position": "end"},
                     {"data": [["Name", "Role"]], "rows": 3, "position": "end"},
                     {"data": [["Name", "Role"], ["", ""], ["", ""]], "position": "end"}):
            found = checks.check_call("Do it.", request, "insert_table", args, state, {"a": 1})
            assert [f.check for f in found] == ["empty_cells"], (request, args)
            fix = checks.repair(found)
            assert fix == {"data": data, "rows": None, "cols": None}
            repaired = {k: v for k, v in {**args, **fix}.items() if v is not None}
            validate_arguments(registry().get("insert_table"), repaired)
        assert _checks(request, "insert_table", {"data": data, "position": "end"}, state) == []
    # rows without a header: the table is the rows; a header of another width is left out, and no fix is offered
    assert tables("Add a table with the rows A, B, C; D, E, F") == [TableData((("A", "B", "C"), ("D", "E", "F")))]
    odd = checks.check_call("Do it.", "Add a table with the header Name and the rows Ann, Chair; Bo, Clerk",
                            "insert_table", {"data": [["Ann", ""], ["", ""]], "position": "end"}, state, {"a": 1})
    assert [f.check for f in odd] == ["empty_cells"] and checks.repair(odd) is None
    # blank rows asked for, another table, or a table the request does not spell out
    assert _checks("Add a table with the header Name, Role and two blank rows to fill in", "insert_table",
                   {"data": [["Name", "Role"]], "rows": 3, "position": "end"}, state) == []
    assert _checks("文末加表格：设备名称、数量，下面留三行空的给人填", "insert_table",
                   {"data": [["设备名称", "数量"]], "rows": 4, "position": "end"}, state) == []
    other = {"data": [["Task", "Owner"], ["", ""]], "position": "end"}
    assert _checks(requests_[0], "insert_table", other, state) == []
    assert _checks("Add a 3 by 2 table at the end", "insert_table", {"rows": 3, "cols": 2, "position": "end"},
                   state) == []
    assert _checks("Add a 4 by 4 table at the end; then a table with the header Name, Role and the rows Ann, Chair; "
                   "Bo, Clerk", "insert_table", {"rows": 4, "cols": 4, "position": "end"}, state) == []


def test_a_header_written_again_to_change_a_name_in_it(state, tmp_path):
    source = docx.Document()
    source.add_paragraph("Body text about Acme Inc.")
    header = source.sections[0].header.paragraphs[0]
    header.add_run("Acme Inc").bold = True
    header.add_run(" - Confidential")
    source.save(tmp_path / "header.docx")
    mixed = extract_state(WordDocument.open(tmp_path / "header.docx"))
    rewrite = {"section": 0, "where": "header", "text": "Acme Ltd - Confidential"}
    found = checks.check_call("Do it.", "In the header, change Acme Inc to Acme Ltd", "set_header_footer", rewrite,
                              mixed, {"a": 1})
    assert [f.check for f in found] == ["whole_story_for_words"] and checks.wrong_api(found)
    assert "replace_text" in registry().names() and "p2" in found[0].text  # the header's paragraph, for replace_text
    # the whole new text given, or nothing to lose (one run, no field), or not the words the request gives
    assert _checks('Set the header to "Acme Ltd - Confidential"', "set_header_footer", rewrite, mixed) == []
    assert _checks("In the header, change Corporation to Ltd", "set_header_footer",
                   {"section": 0, "where": "header", "text": "Acme Ltd - Quarterly Report"}, state) == []
    assert _checks("In the header, change Acme Inc to Acme Ltd", "set_header_footer",
                   {**rewrite, "text": "Acme Group - Confidential"}, mixed) == []
    # one run each, but paragraphs of another style and alignment
    source = docx.Document()
    source.sections[0].header.paragraphs[0].add_run("Acme Inc - Confidential")
    source.sections[0].header.add_paragraph("Quarterly Report").alignment = 2  # right
    source.save(tmp_path / "aligned.docx")
    aligned = extract_state(WordDocument.open(tmp_path / "aligned.docx"))
    assert _checks("In the header, change Acme Inc to Acme Ltd", "set_header_footer",
                   {**rewrite, "text": "Acme Ltd - Confidential\nQuarterly Report"}, aligned) == ["whole_story_for_words"]
    # the footer's page fields written as plain numbers
    footer = {"section": 0, "where": "footer", "text": "Seite 1 of 1"}
    assert _checks("In the footer, change Page to Seite", "set_header_footer", footer,
                   state) == ["whole_story_for_words"]
    assert _checks("In the footer, change Page to Seite", "set_header_footer",
                   {**footer, "text": "Seite {PAGE} of {NUMPAGES}"}, state) == []


def test_the_issue_51_checks_reject_no_gold_call_of_dev():
    """DWBench 2.0 hand and templated dev: no gold call is rejected by the checks of issue 51 (the header check from
    the document each turn starts from)."""
    from autodw.agent.checks.apis import whole_story_for_words
    from autodw.agent.checks.lists import empty_cells
    from autodw.agent.checks.quotes import literal_markup
    from autodw.agent.checks.values import one_occurrence
    from autodw.dwbench.records import load_split, replay

    rejected, checked = [], 0
    for track in ("hand", "templated"):
        for session in load_split("dev", track):
            for i in session.instructions:
                before = None
                for g in i.gold:
                    request = checks.own_request(i.text, g.args)
                    if g.api == "set_header_footer" and before is None:
                        before = extract_state(replay(session, i.turn - 1))
                    empty = {"paragraphs": [], "tables": []}
                    found = [*one_occurrence(g.api, g.args, request, before or empty),
                             *literal_markup(g.api, g.args, i.text, empty), *empty_cells(g.api, g.args, request),
                             *(whole_story_for_words(g.api, g.args, request, before) if before else [])]
                    checked += 1
                    rejected += [(session.session_id, i.turn, f.check) for f in found]
    assert checked > 1000 and rejected == []


@pytest.mark.parametrize("request_text, unnamed", [
    ("准时率那个图换成line chart吧，看趋势更清楚", False),  # hand dev-fourth (hosted ceiling)
    ("把c1改成line图", False),
    ("图表类型换成line", False),
    ("c1换成pie chart吧", True),  # another type named after a Chinese character
    ("c1换成折线图", False),
])
def test_an_english_value_written_after_a_chinese_character(state, request_text, unnamed):
    found = _checks(request_text, "change_chart_type", {"chart": "c1", "chart_type": "line"}, state)
    assert ("unnamed_value" in found) == unnamed


@pytest.mark.parametrize("request_text, unasked", [
    ("For the booklet, every section after the safety one should start on a fresh page.", False),  # hand dev-fourth
    ("Paragraph 3 should begin on a clean page", False),
    ("Give p3 a page of its own", False),
    ("第3段从新的一页开始", False),
    ("第3段单独一页", False),
    ("Give p3 a fresh heading style", True),  # fresh, but no page
])
def test_a_page_break_said_as_a_fresh_page(state, request_text, unasked):
    found = _checks(request_text, "set_paragraph_format", {"paragraphs": "p3", "page_break_before": True}, state)
    assert ("unasked_flag" in found) == unasked


@pytest.mark.parametrize("request_text, value, unasked", [
    ("actually the yellow is a bit much, leave the date just bold", "none", False),  # hand dev-fourth
    ("p3: the green behind the words can go", "none", False),
    ("第3段那个黄的太扎眼了，只留加粗", "none", False),
    ("p3 looks fine without the yellow", "none", False),
    ("leave p3 just bold", "none", True),  # no highlight and no colour named
    ("actually the yellow is a bit much, leave the date just bold", "green", True),  # a colour named is no new highlight
])
def test_a_highlight_removed_named_by_its_colour(state, request_text, value, unasked):
    found = _checks(request_text, "set_text_format", {"paragraphs": "p3", "highlight": value}, state)
    assert ("unasked_property" in found) == unasked


@pytest.mark.parametrize("request_text, args, check, unasked", [
    # a property named by a word of its catalogue name that the word lists lack
    ("p3 should sit at the top of a page", {"paragraphs": "p3", "page_break_before": True}, "unasked_flag", False),
    ("Break p3 onto the following page", {"paragraphs": "p3", "page_break_before": True}, "unasked_flag", False),
    ("Loosen the spacing of p3", {"paragraphs": "p3", "line_spacing": 1.5}, "unasked_property", False),
    # a word the catalogue gives another argument, or none, still leaves it unasked
    ("Give p3 a fresh heading style", {"paragraphs": "p3", "page_break_before": True}, "unasked_flag", True),
    ("Make p3 bold", {"paragraphs": "p3", "bold": True, "italic": True}, "unasked_flag", True),
    ("Indent p3 a little", {"paragraphs": "p3", "line_spacing": 1.5}, "unasked_property", True),
])
def test_a_property_named_by_the_words_of_its_catalogue_name(state, request_text, args, check, unasked):
    api = "set_text_format" if "bold" in args else "set_paragraph_format"
    found = _checks(request_text, api, args, state)
    assert (check in found) == unasked


def test_the_catalogue_names_a_page_break_before_without_the_words_added_for_it(state, tmp_path):
    """hand dev-fourth's dwh-117#8 passes on the catalogue's words alone: the word lists as they were before
    1ae7534 added 'fresh page' (the miss it fixed) and the catalogue's 'page' name page_break_before."""
    import json
    from autodw.agent.checks import reading

    for name in reading.WORD_LISTS:
        data = reading.word_list(name)
        if name == "value_words.json":
            data = {**data, "flags": {**data["flags"], "page_break_before": "page break|new page|next page|own page|"
                                                                             "分页|新页|另起一页"}}
        (tmp_path / name).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    reading.use_word_lists(tmp_path)
    try:
        found = _checks("For the booklet, every section after the safety one should start on a fresh page.",
                        "set_paragraph_format", {"paragraphs": "p3", "page_break_before": True}, state)
    finally:
        reading.use_word_lists(None)
    assert "unasked_flag" not in found


@pytest.mark.parametrize("request_text, highlighted, unasked", [
    ("actually the yellow is a bit much, leave the date just bold", "yellow", False),  # hand dev-fourth dwh-123#9
    ("p3: the dark yellow behind the words can go", "darkYellow", False),
    ("actually the yellow is a bit much, leave the date just bold", "green", True),  # another colour than it has
    ("actually the yellow is a bit much, leave the date just bold", None, True),  # no highlight there
])
def test_a_highlight_removed_named_by_the_colour_it_has_now(doc, tmp_path, request_text, highlighted, unasked):
    """The state, not the word list: ``removed`` emptied, a highlight is named by the colour p3 has now."""
    import json
    from autodw.agent.checks import reading

    if highlighted:
        execute(doc, "set_text_format", {"paragraphs": "p3", "highlight": highlighted, "span": {"match": "High"}})
    for name in reading.WORD_LISTS:
        data = reading.word_list(name)
        if name == "value_words.json":
            data = {**data, "removed": {}}
        (tmp_path / name).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    reading.use_word_lists(tmp_path)
    try:
        found = _checks(request_text, "set_text_format", {"paragraphs": "p3", "highlight": "none"}, extract_state(doc))
    finally:
        reading.use_word_lists(None)
    assert ("unasked_property" in found) == unasked


@pytest.mark.parametrize("request_text, unasked", [
    ("Put a page break after p3", False),
    ("p3 then a page-break", False),
    ("Put the table on its own landscape page (section breaks before and after it)", True),  # page, breaks: apart
])
def test_an_api_named_by_the_words_of_its_catalogue_name_said_together(state, request_text, unasked):
    found = _checks(request_text, "insert_page_break", {"position": {"after": "p3"}}, state)
    assert ("unasked_api" in found) == unasked


@pytest.mark.parametrize("bold_now, span, request_text, unasked", [
    (True, None, "The Highlights heading doesn't need to be bold.", False),  # hand dev-third dwh-113#5, negation aside
    (True, None, "p3 and bold, hmm: leave it plain", False),
    (True, {"match": "High"}, "High in p3 has bold, plain is enough", False),
    (False, None, "p3 and bold, hmm: leave it plain", True),  # not bold now: the request may ask for bold
    (True, {"match": "lights"}, "lights in p3 has bold, plain is enough", True),  # that part is not bold now
])
def test_a_flag_turned_off_where_it_is_on_everywhere_now(doc, bold_now, span, request_text, unasked):
    """The state, not the negation words: text bold everywhere now can only be made not bold by a request naming
    bold (the word lists' negation words are not said in these requests). The heading p3 is made plain first: bold
    by its style, it is bold now as it looks."""
    execute(doc, "set_text_format", {"paragraphs": "p3", "bold": False})
    if bold_now:
        execute(doc, "set_text_format", {"paragraphs": "p3", "bold": True, "span": {"match": "High"}})
    args = {"paragraphs": "p3", "bold": False, **({"span": span} if span else {"span": {"match": "High"}})}
    if "doesn't" in request_text or "hmm" in request_text:
        execute(doc, "set_text_format", {"paragraphs": "p3", "bold": bold_now})
        args = {"paragraphs": "p3", "bold": False}
    found = _checks(request_text, "set_text_format", args, extract_state(doc))
    assert ("asked_flag_off" in found) == unasked


def test_a_list_said_by_the_verb_and_empty_lines_said_as_left_empty_name_their_apis():
    from autodw.agent.checks.apis import unasked_api
    items = {"items": ["a", "b"], "kind": "numbered", "position": {"after": "p2"}}
    assert unasked_api("insert_list", "然后列四条注意事项", "", items, {}) == []
    assert unasked_api("insert_list", "表格第一列加粗", "", items, {})  # a table's column is no list
    block = {"block": "p5"}
    assert unasked_api("delete_block", "第二张表后面空了三行，太多了", "", block, {}) == []
    assert unasked_api("delete_block", "第二张表后面空一行", "", block, {})  # a gap asked for deletes nothing


def test_a_column_count_said_as_the_layout_now_or_misspelt(state):
    """The count the section has now is what the request says it is, and "colums" names columns (hand
    dev-nineteenth dwh-300#8: the hosted ceiling)."""
    three = {**state, "page_layout": {**state["page_layout"], "sections": [
        {**state["page_layout"]["sections"][0], "columns": {"count": 3, "separator": True}}]}}
    request = "hmm no, the long rows wrap onto two lines in three columns. go back to two colums but keep the line"
    assert _checks(request, "set_columns", {"section": 0, "count": 2}, three) == []
    assert _checks(request, "set_columns", {"section": 0, "count": 4}, three) == ["unnamed_value"]
    wrapped = "the long rows wrap onto two lines in three columns, fix that"
    assert _checks(wrapped, "set_columns", {"section": 0, "count": 2}, three) == []
    assert _checks(wrapped, "set_columns", {"section": 0, "count": 2}, state) == ["unnamed_value"]


def test_a_size_the_request_says_the_text_has_now_is_not_one_to_set(state):
    """"They are 11pt right now, knock them down" gives the size they have, not one to set (hand dev-nineteenth
    dwh-296#7: the hosted ceiling); a size they do not have is still one to set."""
    request = "The body text is 11pt right now, make it a little smaller so it takes fewer pages"
    assert _checks(request, "modify_style", {"name": "Normal", "size_pt": 10}, state) == []
    assert _checks(request, "set_text_format", {"paragraphs": ["p2"], "size_pt": 10}, state) == []
    other = "The body text is 12pt right now, make it a little smaller so it takes fewer pages"
    assert _checks(other, "modify_style", {"name": "Normal", "size_pt": 10}, state) == ["unnamed_measure"]


def test_a_size_asked_for_that_the_text_has_now_is_still_asked(state):
    """A size the request asks for that the text has already is one to set, beside another size it gives for something
    else (templated dev-outside-second dwo-122#3: "orange and 14 pt ... with 18 pt after it" for a 14 pt heading
    was "fixed" to 18 pt); a size it does not give is still rejected."""
    from autodw.agent.checks.measures import unnamed_measures
    request = 'Make the heading "Next Steps" orange and 14 pt. Also the title should be bold, with 18 pt after it.'
    sized = {"paragraphs": ["p2"], "color": "orange", "size_pt": 14}
    now = {**state, "paragraphs": [{**p, "runs": [{**r, "size_pt": 14} for r in p.get("runs", [])]}
                                   if p["id"] == "p2" else p for p in state["paragraphs"]]}
    assert unnamed_measures("set_text_format", sized, request, now) == []
    wrong = unnamed_measures("set_text_format", {**sized, "size_pt": 16}, request, now)
    assert [f.check for f in wrong] == ["unnamed_measure"]


def test_right_as_a_place_word_names_no_alignment(state):
    """"The heading right at the end" places the heading, it does not right-align anything (hand dev-nineteenth
    dwh-299#9: the hosted ceiling); "align it right" and "on the right" still name right."""
    paragraph = {"text": "Para cerrar.", "position": {"after": "p2"}, "alignment": "justify"}
    request = "the Closing heading right at the end is empty. write a short closing paragraph under it"
    assert _checks(request, "insert_paragraph", paragraph, state) == []
    for said in ("write a closing paragraph under it, aligned right", "put a closing line on the right"):
        assert _checks(said, "insert_paragraph", paragraph, state) == ["unnamed_value"]


def test_a_title_across_the_page_above_columns_is_a_continuous_section_break(state):
    """A title to run across the full width of the page with the columns under it asks for a continuous section
    break (hand dev-nineteenth dwh-296#2: the hosted and local ceilings); a new page asked for is not one."""
    request = ("and it's squeezed into the first of the three columns. I'd like it to sit across the full width of "
               "the page, with the columns starting underneath")
    assert _checks(request, "insert_section_break", {"after": "p1", "start": "continuous"}, state) == []
    assert _checks("Put the appendix in its own section", "insert_section_break",
                   {"after": "p1", "start": "continuous"}, state) == ["unnamed_value"]
    assert _checks("Start the appendix on a new page", "insert_section_break",
                   {"after": "p1", "start": "continuous"}, state) == ["unasked_api", "unnamed_value"]
    # the title kept across the top of the columns (hand dev-thirty-sixth dwh-502#3: the hosted and local ceilings)
    request = ("It runs onto a second page. Could the list go in two columns so the whole thing fits on one sheet? "
               "Keep the title across the top.")
    assert _checks(request, "insert_section_break", {"after": "p1", "start": "continuous"}, state) == []
    assert _checks("Keep the title across the top, then the list in two columns", "insert_section_break",
                   {"after": "p1", "start": "continuous"}, state) == []
    assert _checks("Keep the title across the top. Make it bold.", "insert_section_break",
                   {"after": "p1", "start": "continuous"}, state) == ["unasked_api", "unnamed_value"]


def test_a_part_kept_full_width_beside_chinese_columns_is_a_continuous_section_break(state):
    """Columns for one part while another keeps the whole line ("占整行", "全宽") ask for a continuous section
    break, as "full width" does in English (hand dev-twenty-second dwh-341#5: the hosted and local ceilings); columns
    alone, a whole line said without columns, or a table's column, do not."""
    brk = {"after": "p1", "start": "continuous"}
    for request in ("标题下面的正文改成两栏排版，logo 和标题还是占整行", "标题保持全宽，下面的内容分成三栏"):
        assert _checks(request, "insert_section_break", brk, state) == []
    assert _checks("正文改成两栏排版", "insert_section_break", brk, state) == ["unasked_api", "unnamed_value"]
    assert _checks("正文分节，标题占整行", "insert_section_break", brk, state) == ["unnamed_value"]
    # a table's column (栏) is no page column: "表格第三栏整行删掉" asks for no section break
    assert _checks("表格第三栏整行删掉", "insert_section_break", brk, state) == ["unasked_api", "unnamed_value"]


def test_a_vertical_line_between_columns_names_their_separator(state):
    """A vertical line between columns ("加条竖线分隔", "a vertical rule") names set_columns' separator (hand
    dev-twenty-second dwh-341#6: the local ceiling); columns alone do not, and a line taken away is no ask for it."""
    columns = {"section": 1, "count": 2, "separator": True}
    for request in ("两栏中间加条竖线分隔一下", "put a vertical rule between the two columns"):
        assert _checks(request, "set_columns", columns, state) == []
    assert _checks("put thin lines between the three columns too", "set_columns", {**columns, "count": 3},
                   state) == []  # lines, plural (dev-thirty-seventh dwh-516#6, local ceiling)
    assert _checks("正文分成两栏", "set_columns", columns, state) == ["unasked_flag"]
    assert _checks("两栏中间的竖线去掉", "set_columns", {**columns, "separator": False}, state) == []
    # empty lines between paragraphs are lines of text, no line drawn between columns (review of the rule checks)
    for request in ("delete the empty lines between the paragraphs", "get rid of the blank spacer lines between them"):
        assert "unasked_flag" in _checks(request, "set_columns", columns, state)


def test_a_picture_is_named_as_a_chart_where_the_document_has_no_chart(state):
    """A chart pasted as a picture is what "that chart" means in a document without charts (hand dev-nineteenth
    dwh-299#5: the local ceiling); beside a real chart, the words name the chart, not the picture."""
    request = "make that chart a little bigger too, and centre it on the page"
    pictures = {**state, "images": [i for i in state["images"] if i["type"] == "picture"]}
    assert _checks(request, "resize_image", {"image": "img1", "width": "6cm"}, pictures) == []
    assert _checks(request, "set_image_alignment", {"image": "img1", "alignment": "center"}, pictures) == []
    assert _checks(request, "resize_image", {"image": "img1", "width": "6cm"}, state) == ["unasked_api"]


def test_a_picture_is_named_by_the_height_or_width_the_request_gives_it(state):
    """A length with a height or width ("Shrink it to about 12 cm tall" of "the draft parking map", then "Go to 15 cm
    instead") says a picture's size (hand dev-twenty-third dwh-348#8, #9: the local ceiling); a request saying no size,
    or sizing another thing (a table, the text), still names no picture."""
    pictures = {**state, "images": [i for i in state["images"] if i["type"] == "picture"]}
    call = {"image": "img1", "height": "12cm"}
    assert _checks("The draft parking map fills an entire page. Shrink it to about 12 cm tall.", "resize_image", call,
                   pictures) == []
    found = checks.check_call("Do it.", "Hmm, now the street names are too small to read. Go to 15 cm instead.",
                              "resize_image", {"image": "img1", "height": "15cm"}, pictures, {},
                              previous="The draft parking map fills an entire page. Shrink it to about 12 cm tall.\n"
                                       "make the section title look like the other section titles")
    assert "unasked_api" not in [f.check for f in found]
    for request in ("The draft parking map fills an entire page. Make the heading bold.",
                    "Make the table 12 cm wide.", "Set the text to 12 pt high."):
        assert "unasked_api" in _checks(request, "resize_image", call, pictures), request


def test_a_value_another_request_of_the_message_names(state):
    """A paper size every request names, named by the request before the call's own in a message split into
    requests, is asked for (hand dev-nineteenth dwh-301#3: the local ceiling); one no request names is not."""
    own, call = "make the margins 2 cm all round.", {"section": 0, "size": "A4", "margins": {"top": "2cm"}}
    message = "We print on A4 here, not Letter. Switch the paper size and make the margins 2 cm all round."
    found = checks.check_call("Do it.", own, "set_page_setup", call, state, {}, message=message)
    assert [f.check for f in found if f.certain] == []
    found = checks.check_call("Do it.", own, "set_page_setup", call, state, {})
    assert [f.check for f in found if f.certain] == ["unnamed_value"]
    letter = "We print on Letter here. Switch the paper size and make the margins 2 cm all round."
    found = checks.check_call("Do it.", own, "set_page_setup", call, state, {}, message=letter)
    assert [f.check for f in found if f.certain] == ["unnamed_value"]


def test_a_size_written_with_pt_after_its_number_names_the_size():
    """hand dev-nineteenth dwh-296#7 (local ceiling): "The story titles are 10.5pt right now, knock them down a little"
    names the font size ("10.5pt": no word boundary between 5 and pt); a request naming no size still does not."""
    from autodw.agent.checks.values import unasked_properties

    args = {"paragraphs": ["p3"], "size_pt": 9}
    state = {"paragraphs": [], "tables": [], "styles": {"defaults": {}, "styles": []}}
    assert unasked_properties("set_text_format", args, "The titles are 10.5pt right now, knock them down", state) == []
    assert unasked_properties("set_text_format", args, "make the titles 9pt", state) == []
    assert [f.check for f in unasked_properties("set_text_format", args, "make the titles bold", state)] == \
        ["unasked_property"]


@pytest.mark.parametrize("paragraph, replace, altered", [
    ("Specifically, there need to be formal management training for managers.", "there needs to be", False),
    ("Specifically, there need to be formal management training for managers.", "there needs to be formal", True),
    ("Specifically, there need to be formal training for managers.", "there needs to be", True),  # no whole quote
])
def test_a_part_of_a_quote_the_documents_words_make_whole_is_not_altered(paragraph, replace, altered):
    """hand dev-twenty-third dwh-346#4: 'it should be "there needs to be formal management training"', the call
    replacing "there need to be" only: the paragraph then reads as the quote. A call writing other words, or one
    after which no text holds the whole quote, still alters it."""
    request = ('The paragraph right after it reads badly too: it should be "there needs to be formal management '
               'training", and "so ameliorate" should be "to ameliorate".')
    args = {"find": "there need to be", "paragraphs": ["p1"], "replace": replace}
    before = {"paragraphs": [{"id": "p1", "text": paragraph}]}
    after = {"paragraphs": [{"id": "p1", "text": paragraph.replace("there need to be", replace)}]}
    found = checks.check_call("Replace it.", request, "replace_text", args, before, after)
    assert [f.check for f in found if f.check == "altered_quote"] == (["altered_quote"] if altered else [])


@pytest.mark.parametrize("replace, altered", [
    ("membros do CNIG", False),  # the words the call looks for, changed only inside the quote
    ("membros e do CNIG", True),  # a word added before the quote
    ("sócios do CNIG", True),  # a word changed outside the quote
])
def test_a_searched_text_changed_only_inside_a_quote_of_the_new_words_is_not_altered(replace, altered):
    """hand dev-twenty-fourth dwh-354#8: "it says 'membros da CNIG' ..., make it 'do CNIG'": the quote is a part of the
    new text, whose other words the call keeps."""
    request = "in the membership article it says 'membros da CNIG' but CNIG is masculine, make it 'do CNIG'"
    before = {"paragraphs": [{"id": "p1", "text": "Podem ser membros da CNIG todas as pessoas"}]}
    found = checks.check_call("Replace it.", request, "replace_text", {"find": "membros da CNIG", "replace": replace},
                              before, {})
    assert [f.check for f in found if f.check == "altered_quote"] == (["altered_quote"] if altered else [])


def test_the_old_text_looked_for_where_the_call_writes_the_quoted_new_text_is_not_altered():
    """hand dev-twenty-fourth dwh-358#1: 'it should read "опубликования (обнародования)"': the call looks for the old
    text, close to the quote, and writes the quote; writing another text is still an alteration."""
    request = 'in point 3 the bracket is stuck to the wrong word, it should read "опубликования (обнародования)".'
    before = {"paragraphs": [{"id": "p1", "text": "со дня официального опубликования( обнародовании)"}]}
    args = {"find": "опубликования( обнародовании)", "replace": "опубликования (обнародования)"}
    assert checks.check_call("Replace it.", request, "replace_text", args, before, {}) == []
    assert {f.check for f in checks.check_call("Replace it.", request, "replace_text",
                                               {**args, "replace": "опубликования (обнародований)"}, before, {})} \
        == {"altered_quote"}


@pytest.mark.parametrize("after_text, altered", [
    ("принимая решение на право заключения договора аренды", False),  # the quoted old text fixed
    ("принимая решение на право заключение договора аренды", True),  # the quote still there: not the old text
])
def test_a_part_of_a_quoted_old_text_rewritten_is_not_altered(after_text, altered):
    """hand dev-twenty-fourth dwh-358#9: "says 'на право заключение договора аренды'. Should be заключения": the call
    looks for a part of the quote and writes it fixed; the document loses its copy of the quote."""
    request = "the sentence says 'на право заключение договора аренды'. Should be заключения."
    before = {"paragraphs": [{"id": "p1", "text": "принимая решение на право заключение договора аренды"}]}
    after = {"paragraphs": [{"id": "p1", "text": after_text}]}
    args = {"find": "право заключение договора", "replace": "право заключения договора"}
    found = checks.check_call("Replace it.", request, "replace_text", args, before, after)
    assert [f.check for f in found if f.check == "altered_quote"] == (["altered_quote"] if altered else [])


@pytest.mark.parametrize("target, after_text, altered", [
    ("p1", "ascii and hansi", False),  # the quoted old text of the paragraph the call rewrites, fixed
    ("p2", "ascii and hansi", True),  # another paragraph: the quote is not its old text
    ("p1", "asci and hansi", True),  # the quote still there: not the old text
])
def test_a_quoted_old_text_of_a_paragraph_rewritten_whole_is_not_altered(target, after_text, altered):
    """hand dev-twenty-ninth dwh-420#1: "The first section heading says 'asci and hansi' - ascii is missing an i": the
    call sets the whole text of the paragraph holding the quote; the document loses its copy of the quote."""
    request = "The first section heading says 'asci and hansi' - ascii is missing an i"
    before = {"paragraphs": [{"id": "p1", "text": "asci and hansi"}, {"id": "p2", "text": "Fonts"}]}
    after = {"paragraphs": [{"id": "p1", "text": after_text}, {"id": "p2", "text": "Fonts"}]}
    args = {"paragraph": target, "text": "ascii and hansi"}
    found = checks.check_call("Replace it.", request, "set_paragraph_text", args, before, after)
    assert [f.check for f in found if f.check == "altered_quote"] == (["altered_quote"] if altered else [])
