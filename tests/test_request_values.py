"""Values in the user's words (autodw.agent.request_values): each parser in English and Chinese, the prompt lines,
the API generator's prompt with and without them, and the offered values against the gold calls of hand dev."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from autodw.agent.request_values import (CharacterFormat, Colour, HeadingLevel, Measure, Replacement, RequestValues,
                                         TableData, character_formats, colours, heading_level, levels_named, measures,
                                         replacements, request_values, table_data, tables, value_lines)
from autodw.core.colours import colour_ranges, colours_said
from autodw.core.document import WordDocument
from autodw.core.units import hex_color
from tests.conftest import CORPUS, EXAMPLES
from tests.test_agent import DONE, PASS, agent_for, plan


def _state(*paragraphs: tuple[str, str], tables=()):
    """A state of body paragraphs (style, text) and tables (rows of cell texts)."""
    paras = [{"id": f"p{i}", "text": text, "style": style} for i, (style, text) in enumerate(paragraphs, 1)]
    return {"paragraphs": paras, "tables": [{"id": f"t{i}", "cells": rows, "cell_details": []} for i, rows in enumerate(tables, 1)]}


# --- replacements ----------------------------------------------------------------------------------------------


def test_replace_everywhere_in_english_quoted_and_not():
    assert replacements('Replace "meeting" with "session" everywhere.') == [Replacement("meeting", "session", everywhere=True)]
    assert replacements("replace Cobalt Energy with Maple Street Library in every paragraph") == [
        Replacement("Cobalt Energy", "Maple Street Library", everywhere=True)]
    assert replacements("Change 'Quarterly' to 'Annual'.") == [Replacement("Quarterly", "Annual")]
    headers = replacements('replace "Cobalt Energy" with "Maple Street Library" everywhere, headers included')[0]
    assert headers.everywhere and headers.headers


def test_descriptions_are_not_texts_to_replace():
    assert replacements("change the header from Working paper to Draft") == []  # unquoted "change" without "all"
    assert replacements("change it to 3 weeks") == []
    assert replacements("回复的截止日期改成5月5日") == []  # a description of the place, not its text
    assert replacements("标题改成“CM-200 咖啡机使用说明书”") == []
    assert replacements('the firm is now "Maple Street Library": replace "Cobalt Energy" with it everywhere') == []
    assert replacements("把标题“Next Steps”改成句首大写") == [] and replacements('change "Total" to bold') == []


def test_replace_in_chinese():
    assert replacements("全文里“2006年1月1日以后”都改成“2007年1月1日以后”") == [
        Replacement("2006年1月1日以后", "2007年1月1日以后", everywhere=True)]
    assert replacements("这套表今年还要用，把里面所有的2007都改成2008") == [Replacement("2007", "2008", everywhere=True)]
    assert replacements("全文的 thru 都改成 through 吧") == [Replacement("thru", "through", everywhere=True)]
    assert replacements("Case 3 现在也已经实现了，下面的 TODO 改成 Done") == [Replacement("TODO", "Done")]
    assert replacements("摘要里怎么写成青禾食品了，应该是青禾中学") == [Replacement("青禾食品", "青禾中学")]
    assert replacements("摘要里“青禾食品”写错了，是青禾中学") == [Replacement("青禾食品", "青禾中学")]
    assert replacements("“青禾食品”是青禾中学的前身") == []  # no correction said
    assert replacements("把“远航机器人”全部替换成“滨江诊所”，页眉页脚也要改") == [
        Replacement("远航机器人", "滨江诊所", everywhere=True, headers=True)]


def test_a_shorter_new_text_of_the_same_shape_replaces_that_part():
    assert replacements("那个“2006年1月1日以后”也改成2007年1月1日，前后两处都要改")[0].find == "2006年1月1日"


def test_a_replacement_is_offered_only_when_its_text_is_in_the_document():
    state = _state(("Normal", "The meeting starts at 9."), ("Normal", "After the meeting, lunch."),
                   tables=[[["When", "What"], ["9:00", "meeting"]]])
    state["tables"][0]["cell_details"] = [[{"paragraphs": [{"id": "p9", "text": "meeting"}]}]]
    values = request_values("replace meeting with session everywhere; replace the picnic sentence with a thank-you", state)
    assert values.replacements == [Replacement("meeting", "session", True, False, 3)]
    assert '- replace: "meeting" -> "session" (3 in the document; every one: leave count out)\n' in value_lines(values)


# --- tables ----------------------------------------------------------------------------------------------------


def test_table_from_a_header_and_rows_inline():
    data = table_data("then a table with the bold header Task, Owner, Status and rows Survey design, Lee, In progress; "
                      "Site visit, Sam, Blocked.")
    assert data == TableData((("Task", "Owner", "Status"), ("Survey design", "Lee", "In progress"), ("Site visit", "Sam", "Blocked")))
    assert data.size == (3, 3)
    assert table_data("Add a table: Draft, Sam, Done; Review, Kim, Open").rows == (("Draft", "Sam", "Done"), ("Review", "Kim", "Open"))


def test_table_header_with_blank_rows_and_first_column():
    assert table_data("add a small table people can fill in: columns Item, Quantity, From and To, with three blank rows "
                      "under a bold header.") == TableData((("Item", "Quantity", "From", "To"),), 3)
    data = table_data("put a small table: columns Item, Tick, From and Until, with rows for a laptop, monitor, headset "
                      "and docking station. Bold header row please.")
    assert data.rows[0] == ("Item", "Tick", "From", "Until") and data.rows[4] == ("Docking station", "", "", "")


def test_table_in_chinese():
    assert table_data("下面加个表格：设备名称、数量、借用日期、预计归还日期，下面留三行空的给人填") == TableData(
        (("设备名称", "数量", "借用日期", "预计归还日期"),), 3)
    data = table_data("接一个表格，表头姓名、职责、邮箱（加粗），数据黄静, 设计师, huangjing@example.org; 胡斌, 组长, hubin@example.org。")
    assert data.rows == (("姓名", "职责", "邮箱"), ("黄静", "设计师", "huangjing@example.org"), ("胡斌", "组长", "hubin@example.org"))
    assert table_data("加个表格，数据：张三、经理、北京；李四、助理、上海").rows == (("张三", "经理", "北京"), ("李四", "助理", "上海"))
    assert table_data("加个表格，表头：姓名，职责，邮箱，数据：张三，经理，a@b.c；李四，助理，d@e.f").rows == (
        ("姓名", "职责", "邮箱"), ("张三", "经理", "a@b.c"), ("李四", "助理", "d@e.f"))


def test_table_pasted_as_csv_or_markdown():
    csv = "Make a table of this:\nName,Qty,Price\nPens,12,1.50\nInk,3,4.00"
    assert table_data(csv).rows == (("Name", "Qty", "Price"), ("Pens", "12", "1.50"), ("Ink", "3", "4.00"))
    markdown = "Insert this table at the end:\n| Step | Owner |\n|---|---|\n| Draft | Sam |\n| Review | Kim |"
    assert table_data(markdown).rows == (("Step", "Owner"), ("Draft", "Sam"), ("Review", "Kim"))


def test_table_rows_after_their_header_up_to_the_next_clause():
    data = table_data("a table with bold headers Name, Role, Email; Priya Nair, Analyst, priya.nair@example.org; Grace Liu, "
                      'Designer, grace.liu@example.org; caption it "Contact list"; then a table (bold header Task, Owner; '
                      "rows Site visit, Sam; Printing, Dana)")
    assert data.rows == (("Name", "Role", "Email"), ("Priya Nair", "Analyst", "priya.nair@example.org"),
                         ("Grace Liu", "Designer", "grace.liu@example.org"))
    data = table_data("再附一个表，表头加粗：姓名、职责，内容：赵磊, 会计; 王珊, 会计，表上题注“联系人名单”，表格居中")
    assert data.rows == (("姓名", "职责"), ("赵磊", "会计"), ("王珊", "会计"))
    assert table_data("下面再加一个编号列表：发布版本；提交摘要；更新计划，最后放一个表格") is None  # 列表： is a list


def test_every_table_of_a_request_and_an_ambiguous_header():
    text = ("a table (bold header Name, Email; rows Ann, ann@example.org; Bo, bo@example.org). Then a table with the "
            "header Task, Owner and the rows Draft, Sam; Review, Kim; after that, centre the first one")
    assert tables(text) == [TableData((("Name", "Email"), ("Ann", "ann@example.org"), ("Bo", "bo@example.org"))),
                            TableData((("Task", "Owner"), ("Draft", "Sam"), ("Review", "Kim")))]
    odd = "Add a table with the header Name and the rows Ann, Chair; Bo, Clerk"  # a header of one name: the rows alone
    assert table_data(odd) == TableData((("Ann", "Chair"), ("Bo", "Clerk")), clean=False)
    assert request_values(odd).table is None  # not offered


def test_no_table_without_one():
    assert table_data("Draft, Sam, Done; Review, Kim, Open") is None  # no table named
    assert table_data("make the table's header row bold, light blue background") is None


# --- measures --------------------------------------------------------------------------------------------------


def test_lengths_in_the_units_people_use():
    assert measures("Make it a proper APA hanging indent of half an inch.") == [Measure("length", "0.5in", "half an inch")]
    assert measures("about 8 cm wide") == [Measure("length", "8cm", "8 cm")]
    assert measures("宽8厘米居中") == [Measure("length", "8cm", "8厘米")]
    assert measures("段后留6磅")[0].value == "6pt"
    assert measures("indent it a quarter of an inch")[0].value == "0.25in"


def test_font_sizes_spacing_and_character_indents():
    assert measures("标题换成黑体，字号小二") == [Measure("font size", 18, "小二")]
    assert [m.value for m in measures("正文字体统一改成仿宋，小四")] == [12]
    assert [m.value for m in measures("五号字")] == [10.5]
    assert [m.value for m in measures("调小点，22号左右")] == [22.0]
    assert measures("提示字小一号") == []  # one size smaller, not 小一 (24 pt)
    assert measures("4月30号太赶了") == [] and measures("截止日期改成15号") == []  # dates
    assert [m.value for m in measures("标题三号，正文小四")] == [16, 12]
    assert measures("行距太挤了，调成1.5倍") == [Measure("line spacing", 1.5, "1.5倍")]
    assert measures("set line spacing to 1.5 lines")[0] == Measure("line spacing", 1.5, "1.5 lines")
    assert measures("use double spacing")[0].value == 2.0
    assert measures("正文首行缩进2个字符") == [Measure("indent in characters", 2.0, "缩进2个字符")]
    assert "a font size is size_pt 24" in value_lines(RequestValues(measures=measures("go for 24 pt")))


# --- colours ---------------------------------------------------------------------------------------------------


def test_colours_as_hex_with_their_role():
    assert colours("make the top row bold with a light grey background") == [Colour("D9D9D9", "light grey", "background")]
    assert colours("表头加粗，加个浅灰底色") == [Colour("D9D9D9", "浅灰", "background")]
    assert colours("这个表的表头弄成深蓝底白字") == [Colour("002060", "深蓝", "background"), Colour("FFFFFF", "白", "text")]
    assert colours("make the heading navy") == [Colour("000080", "navy")]  # the API's own name for navy
    assert colours("加个浅绿色底纹")[0].hex == "E2EFDA" and colours("light blue background")[0].hex == "DEEAF6"
    assert colours("use #1F4E79 for the title") == [Colour("1F4E79", "#1F4E79")]
    assert colours("make it bold") == []


def test_a_colour_that_describes_the_element_is_not_one_to_set():
    # dev-thirteenth dwh-230#2: "那两行红字" is the two red lines, the colour to give is 深红
    assert colours("那两行红字太刺眼了，改成深红色") == [Colour("C00000", "深红色")]
    assert colours("这些蓝色的字改成黑色") == [Colour("000000", "黑色")]
    assert colours("把标题改成红字") == [Colour("FF0000", "红", "text")]  # said after the verb: the value


def test_each_named_colour_means_a_colour_of_its_name():
    for name, colour in colour_ranges().items():
        assert colour.contains(colour.hex), name
    assert [s.name for s in colours_said("红灯用红字，深蓝底")] == ["red", "dark blue"]  # not the 蓝 of 深蓝底


# --- character formats -----------------------------------------------------------------------------------------


def test_character_formats_and_the_part_they_are_for():
    assert character_formats("make the 2 in m2 superscript") == [CharacterFormat("superscript", True, "2", "m2")]
    assert character_formats("把H2O里的2设为下标") == [CharacterFormat("subscript", True, "2", "H2O")]
    assert character_formats("Under my name, add my job title - Head of Partnerships - in italics.") == [
        CharacterFormat("italic", True)]
    assert character_formats("DEFINITIONS 下面的 N/A 不用加粗") == [CharacterFormat("bold", False)]
    for removal in ("把 DEFINITIONS 下面 N/A 的加粗去掉", "The bold lines are louder than the headings - take the bold off"):
        assert character_formats(removal) == [CharacterFormat("bold", False)]  # dev-paraphrased: said after the word
    assert character_formats("bold the Case lines, the bold can stay on the headings") == [CharacterFormat("bold", True)]
    line = value_lines(RequestValues(formats=character_formats("make the 2 in m2 superscript")))
    assert 'superscript true on the "2" in "m2" only (e.g. find "(?<=m)2" with regex true)' in line
    assert "never markup such as <sup>" in line


# --- heading levels --------------------------------------------------------------------------------------------


REPORT = _state(("Title", "Annual Report"), ("Heading 1", "Summary"), ("Normal", "x"), ("Heading 2", "Details"),
                ("Heading 1", "Conclusion"), ("Normal", "y"))


def test_a_new_section_takes_the_documents_section_level():
    assert heading_level("Before the conclusion I want a new section called Next Steps", REPORT) == HeadingLevel(
        1, "the document's sections are Heading 1, subsections Heading 2")
    assert heading_level("add a subsection on costs under Summary", REPORT).level == 2
    assert heading_level("在结论前面加一节“下一步工作”", REPORT).level == 1
    shallow = _state(("Heading 2", "Intro"), ("Heading 3", "Part"), ("Normal", "x"))
    assert heading_level("add a new section called Costs at the end", shallow).level == 2  # its own scheme


def test_named_levels_titles_and_no_level():
    assert heading_level("开头加个标题吧，就叫 Working with Themes，用标题1的样式", REPORT).level == 1
    assert heading_level("Now give it a title at the very top: Citation Style Sample", REPORT).level == 0
    assert heading_level("第3步那行变成二级标题了，改回普通正文", REPORT) is None
    assert heading_level("最后在标题下面插个目录，到三级标题就行", REPORT) is None
    assert heading_level("make the title blue", REPORT) is None
    assert heading_level('Add a title row "Summary" at the top of the table', REPORT) is None
    assert heading_level("give the table a landscape page of its own using section breaks", REPORT) is None
    assert heading_level("所有一级标题统一改成黑体16磅紫色", REPORT) is None  # the level selects headings
    assert heading_level("Please update the Heading 1 style itself: Georgia, 15 pt", REPORT) is None
    assert heading_level("把“预算”标题降为二级标题", REPORT).level == 2
    assert levels_named("把“预算”降为二级标题") == {2} and levels_named("demote it to level 3") == {3}
    # a level said by its ordinal (hand dev-twenty-first dwh-325#3); an ordinal heading is a place, not a level
    assert levels_named("We also use a third heading level. Add a sample line for it under the Heading 2 one") == {2, 3}
    assert levels_named("make it a second-level heading", targets_only=True) == {2}
    assert levels_named("the third heading is wrong") == set()


# --- the prompt ------------------------------------------------------------------------------------------------


def test_the_lines_of_every_kind_of_value():
    contract = _state(("Heading 1", "合同"), ("Normal", "甲方：某公司。甲方负责。"), ("Heading 2", "条款"))
    values = request_values("把“甲方”全部替换成“委托方”，表头字号小四，加一节“附录”，浅灰底纹，行距1.5倍，H2O里的2设为下标", contract)
    assert value_lines(values) == (
        "Values from the user's request (in the form the APIs take):\n"
        '- replace: "甲方" -> "委托方" (2 in the document; every one: leave count out)\n'
        "- font size: size_pt 12 (小四)\n"
        "- line spacing: line_spacing 1.5 (1.5倍)\n"
        '- colour: "D9D9D9" (浅灰, background)\n'
        '- character format: subscript true on the "2" in "H2O" only (e.g. find "(?<=H)2(?=O)" with regex true); '
        "never markup such as <sup>, <b>, ** or _ in the text\n"
        "- heading level: 1 (the document's sections are Heading 1, subsections Heading 2)\n\n")


def test_no_values_no_lines():
    assert not RequestValues() and value_lines(request_values("Move the table up so it comes before the chart.", REPORT)) == ""


@pytest.fixture
def doc():
    return WordDocument.open(EXAMPLES / "report.docx")


def test_the_generator_prompt_lists_the_values_and_is_unchanged_without_them(doc):
    agent, llm = agent_for({
        "planner": [plan("Replace 'region' with 'territory'."), DONE,
                    plan("Insert a paragraph 'Closing remarks.' at the end."), DONE],
        "api_generator": [{"api": "replace_text", "args": {"find": "region", "replace": "territory"}},
                          {"api": "insert_paragraph", "args": {"text": "Closing remarks.", "position": "end"}}],
        "validator": [PASS, PASS],
    })
    result = agent.run(doc, ['Replace "region" with "territory" everywhere.', "Add a closing paragraph that says 'Closing remarks.'"])
    assert result.completed
    with_values, without = [r["messages"][1]["content"] for r in llm.requests if r["role"] == "api_generator"]
    block = re.search(r"</user_instruction>\n\n(.*?)Sub-instruction:", with_values, re.S).group(1)
    assert block.startswith("Values from the user's request") and '"region" -> "territory"' in block
    assert re.search(r'"region" -> "territory" \(\d+ in the document; every one: leave count out\)', block)
    assert "</user_instruction>\n\nSub-instruction: Insert a paragraph" in without  # nothing added: as before


# --- against the gold calls of hand dev -------------------------------------------------------------------------

_LENGTH_KEYS = re.compile(r"width|height|indent|space_|spacing|margin|^(?:top|bottom|left|right)$")


def _gold_values(calls):
    """What the gold calls set, by kind of value."""
    out = {"replace": [], "table": [], "measure": [], "colour": [], "format": [], "heading": []}
    for call in calls:
        args = call.args
        if call.api == "replace_text":
            out["replace"].append((args["find"], args["replace"]))
        if call.api == "insert_table" and args.get("data"):
            out["table"].append(([list(map(str, r)) for r in args["data"]], args.get("rows") or len(args["data"])))
        flat = {**args, **{k: v for d in args.values() if isinstance(d, dict) for k, v in d.items()}}  # margins, borders
        for key, value in flat.items():
            if isinstance(value, str) and _LENGTH_KEYS.search(key) and re.fullmatch(r"[\d.]+(cm|mm|pt|in)", value):
                out["measure"].append(("length", value))
            elif key == "size_pt":  # a font's size, or a border line's width in points
                out["measure"].append(("font size", float(value)))
            elif key == "line_spacing":
                out["measure"].append(("line spacing", float(value)))
            elif key == "first_line_chars":
                out["measure"].append(("indent in characters", float(value)))
            elif key in ("color", "font_color", "fill", "highlight") and isinstance(value, str) and value != "none":
                out["colour"].append(hex_color(value))
            elif key in ("bold", "italic", "underline", "strike", "superscript", "subscript") and value is not None:
                out["format"].append((key, value not in (False, "none")))
        if call.api == "set_header_row" and "bold" not in args or call.api == "insert_table" and args.get("header_row"):
            out["format"].append(("bold", True))  # a header row is bold unless the call says not
        if call.api in ("insert_heading", "change_heading_level") and isinstance(args.get("level"), int):
            out["heading"].append(args["level"])
        if call.api == "apply_style" and (m := re.fullmatch(r"Heading (\d)|(Title)", str(args.get("style")))):
            out["heading"].append(int(m.group(1)) if m.group(1) else 0)
    return out


def _offered(values: RequestValues):
    out = {"replace": [(r.find, r.replace) for r in values.replacements],
           "table": [([list(r) for r in values.table.rows], values.table.size[0])] if values.table else [],
           "measure": [], "colour": [c.hex for c in values.colours],
           "format": [(f.flag, f.on) for f in values.formats], "heading": [values.heading.level] if values.heading else []}
    for m in values.measures:
        if m.kind == "length" and str(m.value).endswith("pt"):
            out["measure"].append(("pt", float(str(m.value)[:-2])))
        else:
            out["measure"].append((m.kind, m.value))
    return out


def _hit(kind, offer, gold) -> bool:
    if kind == "measure" and offer[0] == "pt":  # a point value is a font size or a length in points
        return ("font size", offer[1]) in gold or ("length", f"{offer[1]:g}pt") in gold
    return offer in gold


def dev_figures(track: str = "hand"):
    """Per kind of value, over every turn of `track`'s dev split from its gold initial state: offers, hits (the gold call has the
    offered value), wrong (the gold sets that kind of value, another one), false (the gold sets none of that kind)
    and misses (the gold sets one, nothing offered); colours also by named colour (the judge's tolerance)."""
    from autodw.analysis.state import extract_state
    from autodw.dwbench.records import load_split

    counts: dict[str, Counter] = {}
    shown: list[str] = []
    for session in load_split("dev", track):
        for ins in session.instructions:
            state = extract_state(session.initial_document(ins.turn))
            values = request_values(ins.text, state)
            gold, offered = _gold_values(ins.gold), _offered(values)
            for kind in gold:
                c = counts.setdefault(kind, Counter())
                for offer in offered[kind]:
                    c["offers"] += 1
                    hit = _hit(kind, offer, gold[kind])
                    if kind == "colour" and not hit:
                        named = [said.name for said in colours_said(ins.text)]
                        hit = any(colour_ranges()[n].contains(offer) and colour_ranges()[n].contains(g)
                                  for n in named for g in gold[kind])
                        c["within_name"] += hit
                    c["hits" if hit else "wrong" if gold[kind] else "false"] += 1
                    if not hit:
                        shown.append(f"{ins.key} {kind}: offered {offer}, gold {gold[kind]} | {ins.text[:90]}")
                if gold[kind] and not offered[kind]:
                    c["missed_turns"] += 1
    return counts, shown


@pytest.mark.skipif(not CORPUS.is_dir(), reason="hand dev starts from corpus documents (set AUTODW_CORPUS)")
def test_offered_values_are_the_gold_arguments_on_hand_dev():
    counts, shown = dev_figures()
    print("\n".join(f"{kind}: {dict(c)}" for kind, c in counts.items()))
    print("\n".join(shown))
    for kind, c in counts.items():  # measured when written: every offer a hit but one false bold (see the report)
        assert c["offers"] and c["hits"] >= 0.85 * c["offers"], (kind, dict(c), shown)
    assert sum(c["false"] + c["wrong"] for c in counts.values()) <= 3, shown
