"""A search the planner plans moves its view to what it found; the ceiling's perfect planner searches with the user's
words before a step whose targets its view does not show (autodw.eval.ceiling.searches)."""

from __future__ import annotations

from autodw.agent import views
from autodw.agent.records import Attempt, InstructionResult, Step
from autodw.core.ids import ids_listed
from autodw.eval.ceiling.searches import best_search, numbers, queries, search_args, searches
from tests.test_ceiling import LINES, _doc, _run
from tests.test_pointing import _filled, _paragraph, _shown


def _searched(request: str, found: list[str], accepted: bool = True) -> InstructionResult:
    """A request whose one step so far was a search that found `found`."""
    attempt = Attempt("find_text", {"query": "berth"}, "first", ok=True, accepted=accepted, found=found)
    return InstructionResult(request, steps=[Step(1, "Find the text 'berth'.", attempts=[attempt])])


def test_a_searchs_result_lists_its_matched_elements_not_ids_inside_their_text():
    data = {"count": 2, "matches": [{"paragraph": "p3", "context": "as p9 says", "cell": {"table": "t1"}},
                                    {"paragraph": "p7", "text": "p12", "context": "p12"}, {"paragraph": "p3"}]}
    assert ids_listed(data) == ["p3", "t1", "p7"]  # not "p12", a matched text that looks like an id


def test_the_planner_view_goes_to_what_the_last_step_found():
    state = _filled({70: _paragraph(70, "The harbor master approves every berth.")})
    request = "Bold the line about berths."
    assert not _shown(views.state_view(state, request, InstructionResult(request), 300), "p70")
    assert _shown(views.state_view(state, request, _searched(request, ["p70"]), 300), "p70")
    assert views.found_last(_searched(request, ["p70"], accepted=False)) == []  # a search that failed found nothing


def test_the_start_view_is_read_again_after_a_search():
    state = _filled({70: _paragraph(70, "The harbor master approves every berth.")})
    request = "Bold the line about berths."
    view = views.StartView(grounded=False, budget=300, history_chars=200)
    kept = view.for_step(state, request, InstructionResult(request), None)
    assert view.for_step(state, request, InstructionResult(request), kept) == kept
    after = view.for_step(state, request, _searched(request, ["p70"]), kept)
    assert _shown(after, "p70") and not _shown(kept, "p70")
    assert "from before these operations" not in view.history(_searched(request, ["p70"]), state)
    edited = _searched(request, ["p70"])  # then a step that bolds p70: the view kept is the one read after the search
    edited.steps.append(Step(2, "Bold p70.", attempts=[Attempt("set_text_format", {"paragraphs": ["p70"]}, "first",
                                                               ok=True, accepted=True)]))
    assert view.for_step(state, request, edited, after) == after
    assert view.history(edited, state).startswith("(The document state above is from after operation 1 (a search);")


def test_a_perfect_planner_searches_with_the_users_words_nearest_before_the_target():
    assert queries("In Langwieler's talk") == ["Langwieler", "talk", "In Langwieler", "Langwieler talk",
                                              "In Langwieler talk"]
    assert "一千" in queries("整千的那三行（一千、两千）") and "的" not in queries("整千的那三行")
    assert search_args("berth") == {"query": "berth", "match_case": False, "whole_word": True}
    assert search_args("一千")["whole_word"] is False
    elements = {f"p{n}": f"Line {n} of the plan." for n in range(1, 61)}
    elements["p40"], elements["p45"] = "The harbor is closed.", "The harbor master approves every berth."
    # "harbor" matches p40 and p45, "master" and "berth" only p45: as near before the target p47, fewer matches
    words = "the line after the harbor master's berth one"
    assert best_search(elements, ["p47"], words, set())["query"] == "master"  # the first of those
    assert best_search(elements, ["p47"], words, {"master"})["query"] == "berth"
    only_p45 = {q for q in queries(words) if "master" in q or "berth" in q}
    assert best_search(elements, ["p47"], words, only_p45)["query"] == "harbor"  # two matches, p45 the nearer
    assert best_search(elements, ["p20"], words, set()) is None  # too far
    assert best_search(elements, ["p47"], "the plan", set()) is None  # "plan" matches more than find_text lists


def test_a_perfect_planner_searches_for_the_numbers_the_user_says_in_digits_and_for_all_of_them_at_once():
    assert numbers("整千的那三行（一千、两千、三千）, item 12") == ["1000", "2000", "3000", "12"]  # not the 三 of 三行
    assert searches("一千、两千")[-1] == {"query": "1000|2000", "regex": True, "match_case": False, "whole_word": True}
    elements = {f"p{n}": str(n) for n in range(1, 3001)}
    assert best_search(elements, ["p1000", "p2000", "p3000"], "整千的那三行（一千、两千、三千）", set())["query"] \
        == "1000|2000|3000"  # the three numbered lines together, not 10000 or 1000 inside 11000


def test_the_ceiling_searches_for_a_target_its_view_hides_and_then_carries_the_step_out(tmp_path):
    calls = [("set_text_format", {"bold": True, "paragraphs": ["p47"]})]
    _, result, turn = _run(tmp_path, "Bold the line after the berth one.", calls, doc=_doc(LINES),
                           planner_state_budget=200)
    assert result.calls[0]["api"] == "find_text" and result.calls[0]["args"]["query"] == "berth"
    assert result.calls[1:] == [{"api": "set_text_format", "args": {"bold": True, "paragraphs": ["p47"]}}]
    assert turn["cause"] is None and turn["kept"] == 1  # the search is no call in the gold's place
    # the user's words find nothing near it ("harbour" is not the document's "harbor"): the view is named, no search
    _, result, turn = _run(tmp_path, "Make the line of the plan with the harbour bold.",
                           [("set_text_format", {"bold": True, "paragraphs": ["p46"]})], doc=_doc(LINES),
                           planner_state_budget=200)
    assert turn["cause"] == "planner view" and result.calls == []


def test_the_users_words_of_a_planner_prompt_leave_out_the_prompts_own():
    from autodw.agent.views import session_context
    from autodw.eval.ceiling.reading import users_words

    context = session_context([InstructionResult("Fix the typos\nin part two", status="done"),
                               InstructionResult("Bold it (please)", status="error")])
    context += ("The user's message makes 2 requests; this is request 1: do it alone (the others are done before or "
                "after it). The whole message: Add A and B\n\n")
    words = users_words("Add A", context)
    assert words == "Add A\nFix the typos\nin part two\nBold it (please)\nAdd A and B"
    assert numbers(words) == []  # not the numbers the prompt gives the earlier instructions


def test_a_number_in_chinese_numerals_is_searched_in_digits_and_a_word_beginning_with_a_unit_is_no_number():
    assert numbers("二〇二五年的表，第十二条，一千零一") == ["2025", "12", "1001"]
    assert numbers("万一出错，百分之十") == []  # "in case", "percent": words, not numbers


def test_the_elements_a_search_is_measured_on_are_in_document_order_a_tables_cells_where_it_is():
    from autodw.analysis.state import extract_state
    from autodw.core.document import WordDocument
    from autodw.eval.ceiling.system import elements_in_order
    from tests.conftest import docx_bytes

    def build(d):
        d.add_paragraph("Before the table.")
        t = d.add_table(rows=1, cols=2)
        t.cell(0, 0).text, t.cell(0, 1).text = "Left", "Right"
        d.add_paragraph("After the table.")

    elements = elements_in_order(extract_state(WordDocument.from_bytes(docx_bytes(build), name="t.docx")))
    assert list(elements.values()) == ["Before the table.", "", "Left", "Right", "After the table."]
    assert list(elements)[1] == "t1"  # the table's own id, where it is, with no text to match


def test_a_search_reaches_a_table_the_step_targets_from_the_label_before_it():
    """A table target has a place in document order (before its cells): a search for the label just before it reaches
    it; before, a table's id had no place and no search could reach it."""
    from autodw.analysis.state import extract_state
    from autodw.core.document import WordDocument
    from autodw.eval.ceiling.searches import best_search
    from autodw.eval.ceiling.system import elements_in_order
    from tests.conftest import docx_bytes

    def build(d):
        d.add_paragraph("Contents")
        d.add_paragraph("Glossary")
        t = d.add_table(rows=1, cols=2)
        t.cell(0, 0).text, t.cell(0, 1).text = "IP", "Internet Protocol"

    elements = elements_in_order(extract_state(WordDocument.from_bytes(docx_bytes(build), name="t.docx")))
    assert best_search(elements, ["t1"], "最后，Glossary表第一列稍微宽一点", set())["query"] == "Glossary"
