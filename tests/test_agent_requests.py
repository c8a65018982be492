"""A compound instruction split into its requests (autodw.agent.requests), and the loop planning them one by one."""

from __future__ import annotations

import pytest

from autodw.agent.assembly import profile_assembly
from autodw.agent.loop import Agent
from autodw.agent.requests import split
from autodw.core.document import WordDocument
from autodw.llm.scripted import ScriptedBackend
from tests.conftest import EXAMPLES
from tests.test_agent import DONE, PASS, FixedClassifier, plan, texts


@pytest.mark.parametrize("instruction, requests", [
    ('A few changes: centre the title; make the Budget heading green. Then add a page break before "Results".',
     ["centre the title", "make the Budget heading green", 'add a page break before "Results".']),
    ("Several edits, please. Bold the title; and then delete the last table.", ["Bold the title", "delete the last table."]),
    ("Insert a table after p4 with rows Pens, 12; Ink, 3; Paper, 40", None),  # a data list is not a boundary
    ("Protect the document as read-only; no password needed; set the author to Kim",
     ["Protect the document as read-only; no password needed", "set the author to Kim"]),
    ('Add the sentence "Sales rose. Costs fell; margins held." after p3', None),  # inside quotes
    ("Use e.g. Arial for the title. Make it bold.", ["Use e.g. Arial for the title", "Make it bold."]),
    ("Make the title bold.", None),
    ('Replace the text of p3 with "Added on Monday." Then give the second table a caption: "Figures". Then bold it.',
     ['Replace the text of p3 with "Added on Monday."', 'give the second table a caption: "Figures"', "bold it."]),
    ('Add the note "See p. 4." after p2', None),  # a quoted sentence at the end
    ('Bookmark the Decisions heading as "decisions", then at the end of p7 insert a cross-reference to it',
     ['Bookmark the Decisions heading as "decisions"', "at the end of p7 insert a cross-reference to it"]),
    ('Add a section "Background" with a sentence, then a table with the header Month, Visitors', None),  # its content
    ("有几处要改：标题居中；把“预算”标题改成绿色。接着在文末加一段“完”，谢谢。",
     ["标题居中", "把“预算”标题改成绿色", "在文末加一段“完”"]),
    ("在p3后面加一个编号列表：第一步：准备；第二步：执行；第三步：总结；另外把标题加粗",
     ["在p3后面加一个编号列表：第一步：准备；第二步：执行；第三步：总结", "把标题加粗"]),
    ("在“结论”后加一段“工作完成。”接着把标题居中，然后页边距设为2厘米",
     ["在“结论”后加一段“工作完成。”", "把标题居中", "页边距设为2厘米"]),
    ("把表格（第一列、第二列；第三列）居中", None),  # inside brackets
    ("在开头是“[Describe the”的段落后加脚注“待定。”，然后把标题居中",  # a bracket inside a quote opens nothing
     ["在开头是“[Describe the”的段落后加脚注“待定。”", "把标题居中"]),
])
def test_requests_of_an_instruction(instruction, requests):
    assert split(instruction) == (requests or [instruction])


@pytest.mark.parametrize("instruction, requests", [
    # a part that states context stays with the request after it
    ("The logo looks blurry. Replace it with logo.png. Then centre the title.",
     ["The logo looks blurry. Replace it with logo.png", "centre the title."]),
    ("The summary table is hard to read. Can you give it a grey header row? The footer is wrong too. Fix it.",
     ["The summary table is hard to read. Can you give it a grey header row", "The footer is wrong too. Fix it."]),
    ("第二段的字太小了，看着费劲。把它改成12磅，再把标题居中", ["第二段的字太小了，看着费劲。把它改成12磅", "把标题居中"]),
    ("Bold the summary table. Make the title red.", ["Bold the summary table", "Make the title red."]),  # both ask
    ("Hyphenate all the compound words. The title should be red.",  # an unlisted verb; "should"
     ["Hyphenate all the compound words", "The title should be red."]),
    ("把页边距设为2厘米。标题用黑体", ["把页边距设为2厘米", "标题用黑体"]),  # 标题 asks nothing, 用 does
    # an item after "：" whose only action character is in a word that asks nothing (标题) stays with its request: one
    # set of document properties (hand dev-twenty-fourth dwh-365#8)
    ("文件属性里作者改成我：林薇；标题填论文题目 Cloud Feedbacks", None),
    ("首页不同：第一页不显示页眉。页脚写上页码", ["首页不同：第一页不显示页眉", "页脚写上页码"]),  # a "：" spec asks
    # who signs the text the request before dictates stays with it: one comment (hand dev-twenty-fifth dwh-377#3)
    ("给第7段加条批注：这里还需要补充测试用例。作者写 Hao", None),
    ("给第7段加批注“待补充”。作者写 Hao。再把标题加粗", ["给第7段加批注“待补充”；作者写 Hao", "把标题加粗"]),
    ("把第3段加粗。作者写张三", ["把第3段加粗", "作者写张三"]),  # nothing dictated: the document's author
    # 最后 before a numeral or demonstrative is "the last", kept; a connective 最后 is dropped
    ("把标题居中。最后那段删掉", ["把标题居中", "最后那段删掉"]),
    ("把标题居中。最后一段加粗", ["把标题居中", "最后一段加粗"]),
    ("把标题居中。最后，把表格删掉", ["把标题居中", "把表格删掉"]),
    # ... with the one before when it ends the instruction, opens with a pronoun, or follows a semicolon
    ("Remove the blank lines at the end. They make the page count wrong.", None),
    ("Delete the second table. It only repeats the first one. Then add a page break before the summary.",
     ["Delete the second table. It only repeats the first one", "add a page break before the summary."]),
    ("把最后两个空段落删掉。这两段是多余的", None),
    ("在文末加一段“完”；字体是宋体", None),
    ("在文末加一段“完”；把标题居中", ["在文末加一段“完”", "把标题居中"]),
    # an action verb before "of" is a noun ("Change of plans"): the part states context (hand dev-twentieth dwh-313#8)
    ("Change of plans, the open day moves to Saturday 21 June. Fix the date in the invitation and push the deadline "
     "in the P.S. to 8 June",
     ["Change of plans, the open day moves to Saturday 21 June. Fix the date in the invitation",
      "push the deadline in the P.S. to 8 June"]),
])
def test_a_part_that_states_context_stays_with_a_request(instruction, requests):
    assert split(instruction) == (requests or [instruction])


@pytest.mark.parametrize("instruction, requests", [
    ("Centre the title, and also add a page number to the footer", ["Centre the title", "add a page number to the footer"]),
    ("Make the heading blue, also remove the blank line under it", ["Make the heading blue", "remove the blank line under it"]),
    ("Make the heading blue and also bold", None),  # an adjective after "also", no object
    ("Insert the logo at the top and then centre it", ["Insert the logo at the top", "centre it"]),
    ("Add the note that the figures were checked and then corrected", None),  # "and then" before no action verb
    ("Move the chart below the table and make it smaller", ["Move the chart below the table", "make it smaller"]),
    ("In the footer, put the page number, and add the date on the right",
     ["In the footer, put the page number", "add the date on the right"]),
    ("Centre and bold the title", None),  # one request's two verbs
    ("Set the margins to 2 cm and the paper to A4", None),  # no verb after "and"
    ("把标题改成“年度总结”，目录也跟着更新", ["把标题改成“年度总结”", "目录也跟着更新"]),
    ("把标题改成红色，也加粗", None),  # 也 with no subject of its own: the same request
    ("把图片居中，字号也保持不变", None),  # no action word after 也
    ("在结尾加一段总结，写完把批注删掉", ["在结尾加一段总结", "写完把批注删掉"]),
    ("把写完的那段加粗", None),  # 写完 not after "，"
    ("put a row in the budget table for printing, 300. and make its last column wider",
     ["put a row in the budget table for printing, 300", "make its last column wider"]),  # a sentence in lower case
    ("put a row in the budget table for printing. and the total too", None),  # no action verb after "and"
])
def test_a_request_ends_at_a_connective_mid_sentence(instruction, requests):
    assert split(instruction) == (requests or [instruction])


def last(sub):
    return {**plan(sub), "remaining": []}


def test_each_request_is_planned_alone_and_a_limit_does_not_stop_the_next():
    doc = WordDocument.open(EXAMPLES / "report.docx")
    llm = ScriptedBackend({
        "planner": [last("Insert a paragraph 'One.' at the end."), {**plan("Insert 'x'."), "remaining": ["Make the new paragraph bold and red."]},
                    last("Insert a paragraph 'Three.' at the end.")],
        "api_generator": [{"api": "insert_paragraph", "args": {"text": t, "position": "end"}} for t in ("One.", "x", "Three.")],
        "validator": [PASS] * 3,
    })
    seen = []
    complete = llm.complete

    def spy(messages, **kw):
        if kw["role"] == "planner":
            seen.append(messages[-1]["content"])
        return complete(messages, **kw)

    llm.complete = spy
    config = profile_assembly("hosted", split_requests=True, stop_when_nothing_remains=True, max_steps=1, planner_state="start")
    result = Agent(llm, FixedClassifier(), assembly=config).run(
        doc, ["Add a paragraph 'One.' at the end; add 'x'; add a paragraph 'Three.' at the end"])
    record = result.instructions[0]
    assert texts(doc)[-3:] == ["One.", "x", "Three."]
    assert record.status == "step_limit"  # request 2 stopped at max_steps, and request 3 still ran
    assert "<user_instruction>\nadd 'x'\n</user_instruction>" in seen[1]
    assert "makes 3 requests; this is request 2" in seen[1] and "The whole message: Add a paragraph 'One.'" in seen[1]
    assert [s.number for s in record.steps] == [1, 2, 3]
    # one view of the document for all requests (the message's start), so the prompt prefix is evaluated once
    states = [m[:m.index("</document_state>")] for m in seen]
    assert states[0] == states[1] == states[2] and "One." not in states[2]
    assert "elements they changed are shown as they are now" in seen[2] and "One." in seen[2]


def test_a_request_the_planner_gives_no_step_for_is_its_own_step():
    doc = WordDocument.open(EXAMPLES / "report.docx")
    blank = {"done": False, "sub_instruction": " ", "remaining": []}
    llm = ScriptedBackend({
        # request 1: three unusable answers; request 2: the planner plans request 3's paragraph first
        "planner": [blank] * 3 + [last("Insert a paragraph 'Three.' at the end."),
                                  last("Insert a paragraph 'Three.' at the end.")],
        "api_generator": [{"api": "insert_paragraph", "args": {"text": t, "position": "end"}} for t in ("One.", "Two.", "Three.")],
        "validator": [PASS] * 3,
    })
    config = profile_assembly("hosted", split_requests=True, stop_when_nothing_remains=True)
    message = "Add a paragraph 'One.' at the end; add a paragraph 'Two.' at the end; add a paragraph 'Three.' at the end"
    record = Agent(llm, FixedClassifier(), assembly=config).run(doc, [message]).instructions[0]
    assert texts(doc)[-3:] == ["One.", "Two.", "Three."] and not llm.remaining() and record.status == "done"
    assert [s.sub_instruction for s in record.steps[:2]] == ["Add a paragraph 'One.' at the end",
                                                             "add a paragraph 'Two.' at the end"]  # the user's words


def test_a_stalled_request_after_its_own_steps_ends_alone():
    doc = WordDocument.open(EXAMPLES / "report.docx")
    blank = {"done": False, "sub_instruction": " ", "remaining": []}
    llm = ScriptedBackend({
        "planner": [plan("Insert a paragraph 'x' at the end.")] + [blank] * 3 + [last("Insert a paragraph 'Two.' at the end."),
                                                                                 DONE],
        "api_generator": [{"api": "insert_paragraph", "args": {"text": t, "position": "end"}} for t in ("x", "Two.")],
        "validator": [PASS] * 2,
    })
    config = profile_assembly("hosted", split_requests=True, stop_when_nothing_remains=False)
    record = Agent(llm, FixedClassifier(), assembly=config).run(doc, ["Do something vague; add a paragraph 'Two.'"]).instructions[0]
    assert texts(doc)[-2:] == ["x", "Two."] and not llm.remaining()
    assert record.status == "error" and "no usable next step" in record.error


def test_a_request_whose_planner_repeats_a_done_step_ends_at_once():
    doc = WordDocument.open(EXAMPLES / "report.docx")
    llm = ScriptedBackend({
        "planner": [{**plan("Insert a paragraph 'One.' at the end."), "remaining": ["Check the new paragraph's style."]},
                    {**plan("Insert a paragraph 'One.' at the end."), "remaining": []},
                    last("Insert a paragraph 'Two.' at the end.")],
        "api_generator": [{"api": "insert_paragraph", "args": {"text": t, "position": "end"}} for t in ("One.", "Two.")],
        "validator": [PASS] * 2,
    })
    config = profile_assembly("hosted", split_requests=True, stop_when_nothing_remains=True)
    record = Agent(llm, FixedClassifier(), assembly=config).run(doc, ["Add 'One.' at the end; add 'Two.' at the end"]).instructions[0]
    assert texts(doc)[-2:] == ["One.", "Two."] and record.status == "done" and not llm.remaining()


def test_a_request_whose_planner_repeats_an_earlier_requests_step_is_its_own_step():
    doc = WordDocument.open(EXAMPLES / "report.docx")
    one = last("Insert a paragraph 'One.' at the end.")
    llm = ScriptedBackend({
        # request 2's planner re-plans request 1's step: that is not request 2 done; its words become its step
        "planner": [one, one],
        "api_generator": [{"api": "insert_paragraph", "args": {"text": t, "position": "end"}} for t in ("One.", "Two.")],
        "validator": [PASS] * 2,
    })
    config = profile_assembly("hosted", split_requests=True, stop_when_nothing_remains=True)
    record = Agent(llm, FixedClassifier(), assembly=config).run(doc, ["Add 'One.' at the end; add 'Two.' at the end"]).instructions[0]
    assert texts(doc)[-2:] == ["One.", "Two."] and record.status == "done" and not llm.remaining()
    assert record.steps[1].sub_instruction == "add 'Two.' at the end"


def test_a_step_that_failed_twice_is_not_planned_a_third_time():
    doc = WordDocument.open(EXAMPLES / "report.docx")
    bad = {"api": "insert_paragraph", "args": {"text": "x", "position": {"after": "p9999"}}}  # an id that does not exist
    llm = ScriptedBackend({
        "planner": [last("Insert 'x' after p9999.")] * 3 + [last("Insert a paragraph 'Two.' at the end.")],
        "api_generator": [bad] * 4 + [{"api": "insert_paragraph", "args": {"text": "Two.", "position": "end"}}],
        "validator": [PASS],
    })
    config = profile_assembly("hosted", split_requests=True, stop_when_nothing_remains=True, rollback="arg")
    record = Agent(llm, FixedClassifier(), assembly=config).run(doc, ["Add 'x' after p9999; add 'Two.' at the end"]).instructions[0]
    assert len([s for s in record.steps if s.accepted is None]) == 2  # the third plan of it was refused at once
    assert texts(doc)[-1] == "Two." and "failed 2 times" in record.error and not llm.remaining()


def test_a_request_whose_planner_plans_another_requests_new_text_ends():
    doc = WordDocument.open(EXAMPLES / "report.docx")
    llm = ScriptedBackend({
        # request 1's planner goes on to request 2's paragraph: request 1 ends, request 2 plans it
        "planner": [plan("Insert a paragraph 'One.' at the end."), plan("Insert a paragraph 'Two.' at the end."),
                    plan("Insert a paragraph 'Two.' at the end."), DONE],
        "api_generator": [{"api": "insert_paragraph", "args": {"text": t, "position": "end"}} for t in ("One.", "Two.")],
        "validator": [PASS] * 2,
    })
    config = profile_assembly("hosted", split_requests=True, stop_when_nothing_remains=False)
    record = Agent(llm, FixedClassifier(), assembly=config).run(doc, ["Add 'One.' at the end; add 'Two.' at the end"]).instructions[0]
    assert texts(doc)[-2:] == ["One.", "Two."] and record.status == "done" and not llm.remaining()
    asked_in = [next(n for n in (1, 2) if f"this is request {n}" in str(r["messages"]))
                for r in llm.requests if r["role"] == "planner"]
    assert asked_in == [1, 1, 2, 2]  # 'Two.' was planned in request 1, which then ended, and done in request 2


def test_a_quote_is_this_requests_own_whatever_its_end_punctuation():
    """Hand dev-seventh dwh-157#10: the split leaves the request's last full stop out; the step's quote keeps it."""
    from autodw.agent.heuristics import another_requests_step
    from autodw.analysis.state import extract_state
    state = extract_state(WordDocument.open(EXAMPLES / "report.docx"))
    message = "最后加一节“局限”，下面写一句：样本只来自一所学校。加完把目录更新了"
    own, other = "加一节“局限”，下面写一句：样本只来自一所学校", "加完把目录更新了"
    step = "Insert a paragraph: text \"样本只来自一所学校。\"."
    assert another_requests_step(step, own, message, state) is None
    assert another_requests_step(step, "先把目录更新了", "先把目录更新了。" + message, state) == "样本只来自一所学校。"
    assert another_requests_step(step, other, message, state) is None  # the earlier request's, not written yet


def test_an_earlier_requests_text_not_written_yet_is_left_over_work():
    """Hand dev-twenty-seventh dwh-397#2 (local ceiling): the second request may write the text the first asks for
    and has not written (the planner takes the items in the document's order); a later one's text stops it."""
    from autodw.agent.heuristics import another_requests_step
    from autodw.agent.requests import split
    from autodw.analysis.state import extract_state
    state = extract_state(WordDocument.open(EXAMPLES / "report.docx"))
    message = "Now the items, in order: Freeze the branch, Run the suite, Publish it. And the line under the suite one should say: All runners green."
    first, second = split(message)
    assert another_requests_step('Replace the text of p4: "Publish it".', second, message, state) is None
    assert another_requests_step('Replace the text of p3: "All runners green."', first, message, state) == "All runners green."
