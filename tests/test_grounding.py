"""Elements a request names (autodw.agent.grounding)."""

from __future__ import annotations

from autodw.agent import grounding


def _para(n: int, text: str) -> dict:
    return {"id": f"p{n}", "text": text, "style": "Normal", "runs": []}


def test_many_empty_paragraphs_are_named_by_their_runs():
    """More empty paragraphs than are listed one by one (dwh-247#6: "a whole pile of empty lines after Bajari's notes"
    of 226 in a long document): each run of them is one line giving its ids as a range and the paragraph before it,
    the longest runs kept, in document order."""
    texts = []
    for n in range(30):  # 30 single empty paragraphs between text, then a pile of 14 after the notes
        texts += [f"Text {n}.", ""]
    texts += ["Notes: the last one.", *[""] * 14, "Dear colleagues,"]
    state = {"paragraphs": [_para(n, t) for n, t in enumerate(texts, 1)], "tables": [], "images": []}
    found = grounding.named(state, "get rid of the pile of empty lines after the notes")
    assert len(found) == grounding.MAX_EMPTY_SHOWN
    assert [m.id for m in found[:2]] == ["p2", "p4"] and found[0].kind == "empty paragraph"
    assert found[-1].id == "p62" and found[-1].kind == '14 empty paragraphs in a row, p62-p75, after p61 "Notes: the last one."'
    lines = grounding.grounding_lines(found)
    assert '"empty lines" -> p62 (14 empty paragraphs in a row, p62-p75, after p61 "Notes: the last one.")' in lines
    few = {"paragraphs": state["paragraphs"][:6], "tables": [], "images": []}  # as many as are listed: one by one
    assert [(m.id, m.kind) for m in grounding.named(few, "delete the empty lines")] == [
        ("p2", "empty paragraph"), ("p4", "empty paragraph"), ("p6", "empty paragraph")]


def test_a_paragraph_holding_a_control_a_frame_or_a_picture_is_not_empty():
    """"Delete the blank lines" names the paragraphs with nothing in them, not one holding an ActiveX control, an
    embedded object, a frame or a picture and no text."""
    paras = [_para(1, "Text."), _para(2, ""), {**_para(3, ""), "objects": ["control CheckBox1"]},
             {**_para(4, ""), "frame": True}, {**_para(5, ""), "images": ["img1"]}, _para(6, " ")]
    state = {"paragraphs": paras, "tables": [], "images": []}
    assert [m.id for m in grounding.named(state, "delete the blank lines")] == ["p2", "p6"]


def test_a_caption_typed_as_body_text_names_its_table():
    """Captions typed in body paragraphs, not Caption-styled, in another language (dwh-262#1: "Table 6" of an Arabic
    document is the table after "الجدول 6: ..." and an empty line, its 9th table): the label and number alone or
    before a colon, within the two non-empty paragraphs before the table and not past the table before it; a sentence
    starting "Table 2 shows" is no caption."""
    texts = ["الجدول 1", "عنوان الجدول الأول", "", "نص.", "Table 2 shows the rates.", "الجدول 6: عدد الحالات", ""]
    paras = [_para(n, t) for n, t in enumerate(texts, 1)]
    tables = [{"id": "t1", "after_paragraph": "p2", "cells": [["a", "b"]]},
              {"id": "t2", "after_paragraph": "p5", "cells": [["c", "d"]]},
              {"id": "t3", "after_paragraph": "p7", "cells": [["e", "f"]]}]
    state = {"paragraphs": paras, "tables": tables, "images": []}
    assert {n: t["id"] for n, t in grounding.captioned_tables(state).items()} == {1: "t1", 6: "t3"}
    assert [t["id"] for t in grounding.tables_named(state, "bold the headings of Table 6")] == ["t3"]


def test_words_of_another_script_in_an_english_request_name_the_paragraphs_holding_them():
    """dwh-275#3: "glued را and به together as رابه ... Put the space back everywhere" of a Persian book names the few
    paragraphs holding "رابه" (shorter words, "را", and a word found in many paragraphs name none); a request mostly
    in another script has none, nor the text a request dictates."""
    texts = ["روزها را به حفظ قرآن", "مغرب رابه حفظ جدید", "قلب قرآن", "قلب دیگر", "قلب سوم", "قلب چهارم",
             "توجه خود رابه کتاب‌ها"]
    state = {"paragraphs": [_para(n, t) for n, t in enumerate(texts, 1)], "tables": [], "images": []}
    found = grounding.ground(state, "The translator often glued را and به together as رابه. Put the space back.")
    assert [(m.id, m.how) for m in found] == [("p2", "contains"), ("p7", "contains")]
    assert grounding.ground(state, "the part about قلب and so on") == []  # in four paragraphs: a text to search for
    assert grounding.ground(state, "رابه را درست کن please") == []
    assert grounding.ground(state, "Change it to: رابه") == []


def test_words_of_an_alphabet_in_a_chinese_request_name_the_paragraphs_holding_them():
    """dwh-314#6: "第二部分（الباب الثاني 那个大标题）让它从新的一页开始" of an Arabic report names the heading starting with the
    Arabic words (the Chinese ones around them are no part of the name); not the text it dictates ("改成 ...")."""
    texts = ["الباب الأول:\tمعلومات", "نص.", "\tالباب الثاني:\tالوثيقة المتعلقة", "نص آخر."]
    state = {"paragraphs": [_para(n, t) for n, t in enumerate(texts, 1)], "tables": [], "images": []}
    found = grounding.ground(state, "第二部分（الباب الثاني 那个大标题）让它从新的一页开始")
    assert [(m.id, m.how) for m in found] == [("p3", "starts")]
    assert grounding.ground(state, "标题改成 الباب الثاني") == []


def test_a_name_in_brackets_after_table_names_the_tables_under_it():
    """dwh-286#7: "Chapter 2's staffing table (物业管理人员配置)" names the tables after a label holding the bracketed
    name (the chapter's and the contract's copy), not the others."""
    texts = ["五、物业管理人员配置（最低要求）：", "说明。", "说明。", "说明。", "六、付款方式：", "（四）物业管理人员配置（最低要求）"]
    tables = [{"id": "t1", "after_paragraph": "p1", "cells": [["序号", "岗位", "人数"]]},
              {"id": "t2", "after_paragraph": "p5", "cells": [["期数", "金额"]]},
              {"id": "t3", "after_paragraph": "p6", "cells": [["序号", "岗位", "人数"]]}]
    state = {"paragraphs": [_para(n, t) for n, t in enumerate(texts, 1)], "tables": tables, "images": []}
    request = "Chapter 2's staffing table (物业管理人员配置) needs a total line at the bottom: 合计, 6 people."
    assert [t["id"] for t in grounding.tables_named(state, request)] == ["t1", "t3"]


def test_a_quoted_fix_the_document_holds_in_many_paragraphs_is_shown_where_it_occurs():
    """dwh-338#3: the right spelling "the [Premises][Property][and/or Building]" that five clauses hold names none of
    them (:func:`grounding.ground`), but the generator is shown where it is written so, to copy it."""
    right = "the [Premises][Property][and/or Building]"
    paras = [{"id": f"p{i}", "text": f"Clause {i} applies to {right} in full.", "style": "Normal"} for i in range(1, 6)]
    paras.append({"id": "p6", "text": "Performance in relation to the Premises][Property][and/or Building]].",
                  "style": "Normal"})
    state = {"paragraphs": paras, "tables": []}
    step = f'Replace text: find "the Premises][Property][and/or Building]]"; replace "{right}".'
    matches = grounding.ground(state, step)
    assert [m.id for m in matches] == ["p6"]
    lines = grounding.held_lines(state, step, matches)
    assert f'"{right}" is written so in 5 paragraph(s), first in p1, between "Clause 1 applies to " and " in full."' \
        in lines
    assert grounding.held_lines(state, 'Replace "nothing like this here" with "x"', []) == ""
    # a long quote is shown once and shortened, the text either side of it cut; at most MAX_HELD_LINES of them
    long = "the Landlord's obligations under this Lease in respect of the Premises and the Building as a whole"
    state["paragraphs"] = [{"id": f"p{i}", "text": f"{'Preamble ' * 8}{long} {i}{' and more' * 8}.",
                            "style": "Normal"} for i in range(1, 6)]
    step = " ".join(f'"{long} {i}"' for i in range(1, 6))
    lines = grounding.held_lines(state, step, []).splitlines()[1:]
    assert len(lines) == grounding.MAX_HELD_LINES and all(line.count("Landlord") == 1 for line in lines)
    assert all(len(line) < 200 for line in lines), lines


def test_a_request_naming_only_a_model_it_compares_to_leans_back():
    """"a little bigger still, and give it the same dark red as the labels like Who May Be Considered" (dwh-343#8):
    the heading it names is the model, not the target; "it" is what the instruction before made bigger, and that
    instruction, not one sharing the model's words, is what it refers back to."""
    paras = [_para(1, "Who May Be Considered:"), _para(2, "Applications will be accepted."),
             _para(3, "Application Document Checklist")]
    state = {"paragraphs": paras, "tables": [], "images": []}
    request = "a little bigger still, and give it the same dark red as the labels in the announcement like Who May Be Considered"
    assert [m.id for m in grounding.ground(state, request)] == ["p1"]
    assert grounding.leans_back(state, request)
    session = ["Who May Be Considered is in the announcement: change the labels there.",
               "The title of the document checklist on the last page gets lost, make it a bit bigger."]
    assert grounding.referred(state, session, request).split("\n")[0] == session[1]
    # a request naming its own target keeps it, whatever it compares it to
    assert not grounding.leans_back(state, "make Who May Be Considered the same colour as it was")
    assert grounding.leans_back(state, "make it match Who May Be Considered")


def test_the_others_of_a_number_of_things_refer_back_and_reach_the_instruction_naming_them():
    """dev-thirty-fifth dwh-489#5, #6: "do the same for the other two" (after "three tables ... Give the first one a
    header row") refers back, as a pronoun does; so "Change it in all three" after it reaches the instruction that
    named the tables through it."""
    state = {"paragraphs": [_para(1, "TOC Field Syntax"), _para(2, "The switches.")], "tables": [], "images": []}
    assert grounding.refers_back("Looks good, do the same for the other two.")
    assert grounding.refers_back("and the remaining three as well")
    assert not grounding.refers_back("Looks good, do the same for the second table.")
    assert not grounding.refers_back("Make the other paragraph bold.")
    session = ["There are three tables of switches. Give the first one a header row.",
               "Looks good, do the same for the other two."]
    assert grounding.referred(state, session, "'Meaning' reads better. Change it in all three.").split("\n") == \
        session[::-1]


def test_a_quoted_typo_is_shown_where_the_document_spells_the_word_right():
    """dwh-355#3: "'estandadres' in the paragraph about the location subsidy": the generator, whose view does not show
    where the document writes "estándares", is shown it (the nearest spelling, accents aside, no rarer than the typo)."""
    paras = [_para(1, "Aun considerando los estandadres urbanos utilizados."),
             *(_para(n, f"Los estándares de vivienda {n} y la estandarización.") for n in range(2, 5))]
    state = {"paragraphs": paras, "tables": []}
    request = "Cause 4 has a couple of typos: 'estandadres' in the paragraph about the location subsidy. Fix it."
    assert grounding.respelt(state, request) == [("estandadres", "estándares")]
    lines = grounding.held_lines(state, request, [])
    assert '"estandadres" is spelt otherwise: "estándares" is written so in 3 paragraph(s), first in p2' in lines
    assert grounding.respelt(state, "Replace 'estándares' with 'normas'") == []  # the typo is rarer: no fix
    # a quoted word no paragraph writes is no typo (dwh-367#3's alt text 'untitled' was read as a misspelt 'united')
    state["paragraphs"].append(_para(9, "The United Nations."))
    assert grounding.respelt(state, "the screenshot has 'untitled' as its alt text") == []


def test_a_picture_is_named_by_its_alt_text_quoted():
    """hand dev-twenty-fifth dwh-367#3: "the screenshot ... has 'untitled' as its alt text" names the picture whose alt
    text is "untitled" (no paragraph holds it), with the paragraph holding it."""
    images = [{"id": "img1", "type": "picture", "paragraph": "p1", "alt_text": "CulmannMain"},
              {"id": "img2", "type": "picture", "paragraph": "p2", "alt_text": "untitled"}]
    state = {"paragraphs": [_para(1, ""), _para(2, ""), _para(3, "An untitled draft.")], "tables": [], "images": images}
    found = grounding.ground(state, "the screenshot has 'untitled' as its alt text. Give it a proper description.")
    assert [(m.id, m.kind, m.how) for m in found] == [("img2", "picture by its alt text, in p2", "is"),
                                                      ("p3", "paragraph", "contains")]
    assert grounding.ground(state, "the chart titled 'Sales'") == []


def test_the_paragraph_after_a_quoted_one_is_named_when_the_request_says_so():
    """templated dev-outside-third dwo-228#7: "以“The appendix lists the”开头的那段与后面一段合为一段" names the paragraph
    with text after the one the quote starts (past an empty one), as "merge 'X' with the next paragraph" does."""
    paras = [_para(1, "Appendix"), _para(2, "The appendix lists the sources used."), _para(3, ""),
             _para(4, "Yours sincerely,"), _para(5, "Aisha Khan")]
    state = {"paragraphs": paras, "tables": []}
    for request in ("以“The appendix lists the”开头的那段与后面一段合为一段",
                    "Merge the paragraph starting 'The appendix lists the' with the next paragraph",
                    "delete the paragraph right after 'The appendix lists the sources used.'"):
        assert "p4" in [m.id for m in grounding.ground(state, request)], request
    assert "p4" not in [m.id for m in grounding.ground(state, "把以“The appendix lists the”开头的那段删掉")]


def test_a_title_in_capitals_is_named_by_its_opening_words_as_the_request_writes_them():
    """dwh-390#6 ("the three part titles (LEASE, LICENCE FOR ALTERATIONS and the long AGREEMENT FOR LEASE one)"): the
    title "AGREEMENT FOR LEASE (WITH ...) OR DEVELOPMENT AGREEMENT" is said by its opening words in capitals; a run
    written in lower case, one that more than MAX_MATCHES paragraphs open with, a short one and a request shouted in
    capitals name none."""
    title = "AGREEMENT FOR LEASE (WITH DEVELOPMENT/ WORKS OBLIGATIONS) OR DEVELOPMENT AGREEMENT"
    paras = [_para(1, "LEASE"), _para(2, "Licence for Alterations/ Agreement for Lease Clause 1.1.1: the hierarchy"),
             _para(3, title), _para(4, "Additional Recitals")]
    state = {"paragraphs": paras, "tables": [], "images": []}
    request = "Make the three part titles (LEASE and the long AGREEMENT FOR LEASE one) Heading 1."
    assert [(m.id, m.how) for m in grounding.named(state, request) if m.quote == "AGREEMENT FOR LEASE"] == [("p3", "starts")]
    assert "p3" in [m.id for m in grounding.ground(state, request)]
    assert not any(m.id in ("p2", "p3") for m in grounding.named(state, "Make the agreement for lease one Heading 1."))
    many = {**state, "paragraphs": paras + [_para(n, title) for n in range(5, 8)]}
    assert not any(m.quote == "AGREEMENT FOR LEASE" for m in grounding.named(many, request))
    assert not any(m.how == "starts" for m in grounding.named(state, "MAKE THE AGREEMENT FOR LEASE ONE HEADING 1."))


def test_a_quote_names_a_numbered_heading_by_its_title():
    """dwh-398#2: "“OPERATING EXPENSE LINE ITEMS”那一节" of a handbook pasted four times, the heading typed
    "3.\\tOPERATING EXPENSE LINE ITEMS" in each copy beside contents lines holding it: the quote is the headings'
    whole title (their section number aside), the first ones are named, not dropped as a text many paragraphs hold."""
    paras = []
    for copy in range(4):
        paras += [_para(10 * copy + 1, "        3. OPERATING EXPENSE LINE ITEMS6-2"),
                  {**_para(10 * copy + 2, "3.\tOPERATING EXPENSE LINE ITEMS\t\t"), "style": "Heading 3"},
                  _para(10 * copy + 3, "The line items are listed below.")]
    matches = grounding.ground({"paragraphs": paras, "tables": []}, "第六章“OPERATING EXPENSE LINE ITEMS”那一节列了一串费用科目")
    assert [(m.id, m.how) for m in matches] == [("p2", "is"), ("p12", "is"), ("p22", "is")]


def test_a_short_text_to_search_for_many_paragraphs_hold_is_shown_where_it_is_written():
    """dwh-406#5 ("and make those bold as well" after "Highlight every mention of the Ba3.ru rating"): the step quotes a
    rating more than MAX_MATCHES paragraphs hold, which names none of them; the generator's small view is shown where
    it is written, to copy it."""
    paras = [_para(n, f"Moody's присвоило компании рейтинг Ba3.ru, новость {n}.") for n in range(1, 6)]
    state = {"paragraphs": paras, "tables": []}
    step = 'Set character formatting on every occurrence of a text or a regular expression: bold true; find "Ba3.ru".'
    assert grounding.ground(state, step) == []
    assert '"Ba3.ru" is written so in 5 paragraph(s), first in p1' in grounding.held_lines(state, step, [])
    assert grounding.held_lines(state, 'find "Ba3"', []) == ""  # a text of three letters is found anywhere


def test_every_picture_whose_alt_text_a_quote_is_is_named():
    """dwh-517#4 ("the invisible 1-pixel spacers whose alt text is just 'empty' or 'pixel'. Delete all of those"): the
    pictures sharing an alt text are all named (up to MAX_SAME_ALT), not the first three; those it only starts still
    fill up to MAX_MATCHES."""
    images = [{"id": f"img{n}", "type": "picture", "paragraph": f"p{n}", "alt_text": "empty"} for n in range(1, 7)]
    images += [{"id": "img7", "type": "picture", "paragraph": "p7", "alt_text": "empty frame"}]
    state = {"paragraphs": [_para(n, "") for n in range(1, 8)], "tables": [], "images": images}
    found = grounding.ground(state, "the spacers whose alt text is just 'empty'. Delete all of those")
    assert [m.id for m in found] == [f"img{n}" for n in range(1, 7)]
    state["images"] = images[:1] + images[-1:]
    assert [m.id for m in grounding.ground(state, "the alt text 'empty'")] == ["img1", "img7"]
