"""The rule checks' registry: every check runs, in a fixed order; its declaration binds its findings; its tuned_on is
provenance's schema; the catalogue page is written from it."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil

import jsonschema
import pytest

from autodw.core import provenance
from autodw.agent import checks
from autodw.agent.checks import apis, reading, registry
from autodw.agent.checks.registry import Certainty, CheckFinding, check
from autodw.core.errors import ConfigError, InternalError
from autodw.core.paths import repo_root

#: the order of today's checks (the order of their findings in the validator's prompt)
ORDER = ["unchanged", "altered_quote", "other_target", "other_row", "unnamed_measure", "size_as_spacing",
         "relative_target", "unnamed_colour", "not_at_end", "other_kind", "wrong_side", "unnamed_level", "part_for_whole",
         "whole_story_for_words", "unasked_api", "unnamed_value", "unasked_flag", "asked_flag_off", "unnamed_count",
         "one_occurrence",
         "row_not_on_top", "dropped_item", "empty_cells", "nested_first_item", "unasked_property",
         "unasked_option", "heading_as_paragraph", "unasked_separator", "literal_markup", "colour_as_font"]
SINGLE_REQUEST = ["not_at_end", "other_kind", "wrong_side", "unnamed_level", "part_for_whole", "one_occurrence"]
WORD_LISTS = {"unasked_api": ("api_words.json",), "unnamed_value": ("value_words.json",),
              "unasked_flag": ("value_words.json",), "asked_flag_off": ("value_words.json",), "unasked_property": ("value_words.json",),
              "unasked_option": ("value_words.json",)}
STATE = {"paragraphs": [{"id": "p1", "text": "Intro", "runs": []}], "tables": [], "images": [], "styles": {}}


def _recording(monkeypatch) -> list[str]:
    """Every registered check wrapped to record its name when it runs (its findings unchanged)."""
    ran: list[str] = []

    def recorder(c):
        def run(**kwargs):
            ran.append(c.name)
            return c.function(**kwargs)
        return dataclasses.replace(c, function=run)

    monkeypatch.setattr(checks, "CHECKS", tuple(recorder(c) for c in checks.CHECKS))
    return ran


def test_check_call_runs_every_registered_check_once_in_the_fixed_order(monkeypatch):
    assert list(checks.ORDER) == ORDER and set(ORDER) == set(registry.REGISTRY)
    assert [c.name for c in checks.CHECKS] == ORDER
    ran = _recording(monkeypatch)
    checks.check_call("Add a line.", "Add a line at the end", "insert_paragraph", {"text": "x"}, STATE, STATE)
    assert ran == ORDER  # a single request: every check runs
    ran.clear()
    compound = "Add a line 'x' at the end; then make the title bold"
    checks.check_call("Add a line.", compound, "insert_paragraph", {"text": "x"}, STATE, STATE)
    assert ran == [n for n in ORDER if n not in SINGLE_REQUEST]  # words of another request: those checks wait
    assert [c.name for c in checks.CHECKS if c.single_request] == SINGLE_REQUEST


def test_an_order_that_leaves_a_registered_check_out_is_refused():
    own: dict = {}

    @check("first", certain=Certainty.REJECTS, tuned_on=(), registry=own)
    def first(api):
        """Finds nothing."""
        return []

    @check("second", certain=Certainty.REJECTS, tuned_on=(), registry=own)
    def second(args):
        """Finds nothing either."""
        return []

    assert [c.name for c in registry.in_order(["second", "first"], own)] == ["second", "first"]
    for order in (["first"], ["first", "second", "third"], ["first", "second", "first"]):
        with pytest.raises(InternalError, match="order"):
            registry.in_order(order, own)


def test_a_registration_says_what_the_check_reads_and_what_it_is():
    own: dict = {}
    with pytest.raises(InternalError, match="reads state"):
        check("bad", certain=Certainty.HINT, tuned_on=(), registry=own)(lambda state: [])
    with pytest.raises(InternalError, match="no docstring"):
        check("bad", certain=Certainty.HINT, tuned_on=(), registry=own)(lambda api: [])
    with pytest.raises(ConfigError, match="rule check bad"):
        check("bad", certain=Certainty.HINT, tuned_on=["dwbench-2.0/templated/train"], registry=own)
    with pytest.raises(ConfigError, match="no provenance entry"):
        check("bad", certain=Certainty.HINT, tuned_on=(), word_lists=("other_words.json",), registry=own)

    def found(api):
        """Finds one."""
        return []
    check("found", certain=Certainty.HINT, tuned_on=(), registry=own)(found)
    with pytest.raises(InternalError, match="two rule checks"):
        check("found", certain=Certainty.HINT, tuned_on=(), registry=own)(found)


@pytest.mark.parametrize("finding, ok", [
    (CheckFinding("mine", "x", True, {"a": 1}), True),
    (CheckFinding("mine", "x", True), True),
    (CheckFinding("mine_hint", "x", False), True),
    (CheckFinding("mine", "x", False), False),  # a certain check's finding given as a hint
    (CheckFinding("mine_hint", "x", True), False),
    (CheckFinding("mine_hint", "x", False, {"a": 1}), False),  # a hint with a fix
    (CheckFinding("other", "x", True), False),  # another check's name
])
def test_a_finding_must_be_what_its_check_declares(finding, ok):
    own: dict = {}

    @check("mine", certain=Certainty.FIXES, hint="mine_hint", tuned_on=(), registry=own)
    def mine(api):
        """Finds what it is given."""
        return [finding]

    call = registry.Call("s", "i", "api", {}, {}, {})
    if ok:
        assert own["mine"].run(call) == [finding]
    else:
        with pytest.raises(InternalError, match="does not declare"):
            own["mine"].run(call)


def test_wrong_api_and_the_fixes_come_from_the_declarations():
    wrong = {c.finding for c in checks.CHECKS if c.certain is Certainty.WRONG_API}
    assert wrong == {"unasked_api", "heading_as_paragraph", "part_for_whole", "whole_story_for_words"}
    assert checks.wrong_api([CheckFinding("part_for_whole", "x", True)])
    assert not checks.wrong_api([CheckFinding("altered_quote", "x", True)])
    assert {c.name for c in checks.CHECKS if c.hint} == {"unnamed_measure"}
    assert {c.name for c in checks.CHECKS if c.finding != c.name} == {"unnamed_count", "row_not_on_top"}


def test_every_check_is_tuned_on_provenance_splits_in_one_schema():
    """A check's tuned_on validates against provenance's schema, label() reads it, it names at least its word lists'
    splits, and the checks together name what provenance.json says for their code and their word lists."""
    code = set(provenance.tuned_on("autodw/agent/checks/registry.py"))  # the package's pattern entry
    lists = {name: set(provenance.tuned_on(f"autodw/agent/{name}")) for name in ("api_words.json", "value_words.json")}
    for c in checks.CHECKS:
        jsonschema.validate(list(c.tuned_on), provenance.TUNED_ON_SCHEMA)
        assert provenance.check_tuned_on(c.tuned_on, c.name) == c.tuned_on and c.tuned_on == tuple(sorted(c.tuned_on))
        assert c.word_lists == WORD_LISTS.get(c.name, ())
        read = set().union(*(lists[name] for name in c.word_lists))
        assert read <= set(c.tuned_on) <= code | read, c.name
        version, track, split = re.fullmatch(r"dwbench-([\d.]+)/(\w+)/(\w+)", c.tuned_on[0]).groups()
        assert provenance.label(version, track, split, [c.entry]) == "tuned on"
    assert set().union(*(c.tuned_on for c in checks.CHECKS)) == code | lists["api_words.json"] | lists["value_words.json"]
    entries = [c.entry for c in checks.CHECKS]
    filed = [e for e in provenance.all_entries() if e.artefact in ("autodw/agent/checks/*.py", "autodw/agent/api_words.json",
                                                                   "autodw/agent/value_words.json")]
    for version in ("1.0", "1.1", "2.0"):
        for track in ("templated",) if version != "2.0" else provenance.TRACKS:
            for split in provenance.SPLITS:
                assert provenance.label(version, track, split, entries) == provenance.label(version, track, split, filed)
    assert provenance.label("2.0", "templated", "test", entries) == provenance.label("2.0", "hand", "test", entries) == \
        "held out"


def test_the_catalogue_page_is_up_to_date():
    page = repo_root() / "docs" / "reference" / "rule-checks.md"
    assert page.read_text(encoding="utf-8") == checks.catalogue_page(), \
        "docs/reference/rule-checks.md is out of date: run python -m autodw.agent.checks > docs/reference/rule-checks.md"
    text = checks.catalogue_page()
    for n, c in enumerate(checks.CHECKS, 1):
        assert f"| {n} | `{c.name}` | {c.family} | {c.certain.value}" in text
    rows = [line for line in text.splitlines() if re.match(r"\| \d+ \| `", line)]
    assert len(rows) == len(ORDER) and all(len(re.findall(r"(?<!\\)\|", row)) == 8 for row in rows)


def test_the_word_lists_can_be_read_from_another_folder(tmp_path):
    """The seam scripts/derive_word_lists.py uses to try candidate lists."""
    for name in reading.WORD_LISTS:
        shutil.copy(repo_root() / "autodw" / "agent" / name, tmp_path / name)
    words = json.loads((tmp_path / "api_words.json").read_text(encoding="utf-8"))
    words["insert_page_break"] = "page break|breakage"
    (tmp_path / "api_words.json").write_text(json.dumps(words), encoding="utf-8")
    assert apis.unasked_api("insert_page_break", "fix the breakage")
    try:
        reading.use_word_lists(tmp_path)
        assert apis.unasked_api("insert_page_break", "fix the breakage") == []
    finally:
        reading.use_word_lists(None)
    assert apis.unasked_api("insert_page_break", "fix the breakage")
    (tmp_path / "value_words.json").unlink()
    with pytest.raises(ConfigError, match="value_words.json"):
        reading.use_word_lists(tmp_path)
    assert apis.unasked_api("insert_page_break", "fix the breakage")  # the lists in use are kept


def test_the_checks_that_read_absence_are_declared_so_and_say_the_request_does_not_name_it():
    """absence=True is the registry's data: exactly the checks whose certain findings say the request does not
    mention what the call does; a check whose findings are hints already cannot declare it."""
    assert [c.name for c in checks.CHECKS if c.absence] == ["unasked_api", "unasked_flag", "unasked_property",
                                                             "unasked_option", "unasked_separator"]
    assert checks.ABSENCE_FINDINGS == {"unasked_api", "unasked_flag", "unasked_property", "unasked_option",
                                       "unasked_separator"}
    hint = checks.as_hint(CheckFinding("unasked_flag", "bold=true: the request does not ask for it", True, {"bold": False}))
    assert not hint.certain and hint.fix is None and not checks.wrong_api([hint])
    with pytest.raises(InternalError, match="does not read absence"):
        checks.as_hint(CheckFinding("unnamed_colour", "color=red is not blue", True))
    def absent_hint(api):
        """A hint that claims to read absence."""
        return []
    with pytest.raises(InternalError, match="hints already"):
        check("absent_hint", certain=Certainty.HINT, tuned_on=(), absence=True, registry={})(absent_hint)
    assert "reads absence" in (repo_root() / "docs/reference/rule-checks.md").read_text(encoding="utf-8")


def test_a_style_name_that_looks_like_markup_is_no_text_written():
    """dwh-251#3 ("make all the small sub-headings ... dark blue"): modify_style of the style "_ H_2/3_GA" was rejected
    as writing the subscript "H_2" into the text; a style's name (of a style API, or a style argument) is no text."""
    from autodw.agent.checks.quotes import literal_markup
    request = "make all the small sub-headings dark blue throughout"
    assert literal_markup("modify_style", {"name": "_ H_2/3_GA", "color": "1F3864"}, request, STATE) == []
    assert literal_markup("create_style", {"name": "Note H_2", "based_on": "_ H_2/3_GA"}, request, STATE) == []
    assert literal_markup("apply_style", {"paragraphs": ["p1"], "style": "_ H_2/3_GA"}, request, STATE) == []
    assert [f.check for f in literal_markup("insert_paragraph", {"text": "CO_2 output", "position": "end"}, request,
                                            STATE)] == ["literal_markup"]



def test_a_length_given_as_the_space_another_change_frees_is_no_unnamed_measure():
    """dwh-263#4 ("Make it about 3 cm and give the space it frees up to the document names column"): the names
    column's 12.42cm is its width plus what the 3 cm column freed, a share worked out, not a number said (a hint only)."""
    from autodw.agent.checks.measures import unnamed_measures
    request = "Make the Pages column about 3 cm and give the space it frees up to the document names column."
    share = unnamed_measures("set_column_width", {"table": "t2", "col": 1, "width": "12.42cm"}, request)
    assert [(f.check, f.certain) for f in share] == [("unnamed_number", False)]
    assert unnamed_measures("set_column_width", {"table": "t2", "col": 2, "width": "3cm"}, request) == []
    for said in ("Make the Pages column 3 cm wide.", "Indent it 3 cm and delete the remaining text."):
        wrong = unnamed_measures("set_column_width", {"table": "t2", "col": 2, "width": "4cm"}, said)
        assert [(f.check, f.certain, f.fix) for f in wrong] == [("unnamed_measure", True, {"width": "3cm"})]


def test_what_everything_a_call_changes_has_now_is_one_value_or_none():
    assert reading.one_value([2, 2]) == {2}
    assert reading.one_value(iter(["left"])) == {"left"}
    assert reading.one_value([1, 2]) == set()
    assert reading.one_value([]) == set() and reading.one_value(None) == set()


def test_indent_removed_is_named_by_where_it_puts_the_paragraph():
    """An indent set to 0 is named by "sits off to the left" (dwh-347#1); not by a request that says nothing of it,
    nor another indent than 0."""
    from autodw.agent.checks import values
    said = "The title is tiny and sits off to the left: make it 14 pt and have it properly centred on the page."
    args = {"paragraphs": ["p1"], "alignment": "center", "first_line_indent": "0cm", "left_indent": "0cm"}
    assert values.unasked_properties("set_paragraph_format", args, said, STATE) == []
    assert values.unasked_properties("set_paragraph_format", args, "Centre the title on the page.", STATE)
    assert values.unasked_properties("set_paragraph_format", {**args, "left_indent": "2cm"}, said, STATE)


def test_a_dictated_line_of_a_one_column_table_names_its_cell():
    """set_cell_text of a one-column table (a cover laid out in a table) is named by the text the request dictates
    (dwh-353#1), not when it dictates none, nor for a table of more columns."""
    box = {"id": "t1", "rows": 3, "cols": 1, "cells": [[""], ["User’s Guide"], ["11 August 2017"]]}
    state = {**STATE, "tables": [box]}
    args = {"table": "t1", "row": 1, "col": 0, "text": "FieldKit 2.0 User’s Guide"}
    said = "封面标题现在只写了User’s Guide，改成FieldKit 2.0 User’s Guide"
    assert apis.unasked_api("set_cell_text", said, args=args, before=state) == []
    assert apis.unasked_api("set_cell_text", "下面那个2017年的日期改成2025年6月3日",
                            args={**args, "row": 2, "text": "3 June 2025"}, before=state) == []
    assert apis.unasked_api("set_cell_text", "make the cover title bold", args=args, before=state)
    # every word and number of the new text said, undictated (dev-thirty-seventh dwh-514#1, local ceiling)
    named = "This template is going to be the user's guide for FieldKit 2.0. Put that name on the line under the title"
    assert apis.unasked_api("set_cell_text", named, args={**args, "text": "FieldKit 2.0"}, before=state) == []
    assert apis.unasked_api("set_cell_text", "change the cover date to 14 March 2025",
                            args={**args, "row": 2, "text": "14 March 2025"}, before=state) == []
    assert apis.unasked_api("set_cell_text", "change the cover date to next Monday",  # a word of it not said
                            args={**args, "row": 2, "text": "14 March 2025"}, before=state)
    grid = {**box, "cols": 2, "cells": [["", ""], ["User’s Guide", ""], ["", ""]]}
    assert apis.unasked_api("set_cell_text", said, args=args, before={**STATE, "tables": [grid]})


def test_a_table_titled_by_the_short_line_before_it_past_empty_ones():
    """A glossary table under the line "Glossary" (styled as a page header) and two empty paragraphs is named by "In
    the glossary at the end" (dwh-366#6, #7); not by a sentence before it, nor past another table."""
    before = {"paragraphs": [{"id": "p1", "text": "Glossary", "style": "Header"}, {"id": "p2", "text": "", "style": "Normal"},
                             {"id": "p3", "text": "", "style": "Normal"},
                             {"id": "p4", "text": "The entries below are in the glossary.", "style": "Normal"}],
              "tables": [{"id": "t1", "after_paragraph": "p3"}, {"id": "t2", "after_paragraph": "p4"}]}
    said = "In the glossary at the end a couple of entries are missing the colon. Please add them."
    args = {"table": "t1", "row": 55, "col": 1, "text": ":"}
    assert apis.unasked_api("set_cell_text", said, args=args, before=before) == []
    assert apis.unasked_api("insert_row", "The glossary also needs an entry for IGF.", args={"table": "t1", "index": 51},
                            before=before) == []
    assert apis.unasked_api("set_cell_text", said, args={**args, "table": "t2"}, before=before)  # a sentence before it
    past = {**before, "tables": [{"id": "t0", "after_paragraph": "p1"}, {"id": "t1", "after_paragraph": "p3"}]}
    assert apis.unasked_api("set_cell_text", said, args=args, before=past)  # "Glossary" is the other table's


def test_a_request_of_a_split_message_names_its_thing_in_the_other_requests():
    """"Please add them." after "In the glossary at the end a couple of entries are missing the colon" in one message
    (split into two requests, dwh-366#6): the glossary table is named; a message saying nothing of it names none."""
    before = {"paragraphs": [{"id": "p1", "text": "Glossary", "style": "Header"}, {"id": "p2", "text": "", "style": "Normal"}],
              "tables": [{"id": "t1", "after_paragraph": "p2"}]}
    args = {"table": "t1", "row": 113, "col": 1, "text": ":"}
    message = "In the glossary at the end a couple of entries are missing the colon. Please add them."
    assert apis.unasked_api("set_cell_text", "Please add them.", args=args, before=before, message=message) == []
    assert apis.unasked_api("insert_row", "add one more", message="Fix the heading. add one more")
    assert apis.unasked_api("insert_row", "add one more", message="In the actions table, fix the dates. add one more") == []
    assert apis.unasked_api("set_cell_text", "Please add them.", args=args, before=before, message="Please add them.")


def test_a_thicker_line_names_a_border_size():
    """"make the box dark blue and the line a bit thicker" names the border's size_pt as "thinner" does (dwh-366#3)."""
    from autodw.agent.checks import values

    args = {"paragraphs": ["p1"], "sides": "box", "color": "1F3864", "size_pt": 1.5}
    assert values.unasked_properties("set_paragraph_border", args, "make the box dark blue and the line a bit thicker",
                                     STATE) == []
    assert values.unasked_properties("set_paragraph_border", args, "make the box dark blue", STATE)
    # a thicker heading is a bolder one: no font size
    assert values.unasked_properties("set_text_format", {"paragraphs": ["p1"], "size_pt": 16}, "make the heading thicker",
                                     STATE)
    assert values.unasked_properties("set_paragraph_border", {**args, "color": None}, "use a thicker border", STATE) == []


def test_a_letter_case_the_text_has_now_is_said_of_it_not_asked_for():
    """"the second subheading starts with a lowercase letter. Capitalise it." says the all-lowercase heading's case
    (dwh-381#2): change_case to sentence case is no unnamed value; for a heading not all lowercase "lower" is asked."""
    from autodw.agent.checks import values

    said = "Under docx4j dependencies, the second subheading starts with a lowercase letter. Capitalise it."
    state = {**STATE, "paragraphs": [{"id": "p1", "text": "other dependencies", "runs": [{"text": "other dependencies"}]}]}
    args = {"paragraph": "p1", "case": "sentence"}
    assert values.unnamed_values("change_case", args, said, state) == []
    mixed = {**STATE, "paragraphs": [{"id": "p1", "text": "other Dependencies", "runs": [{"text": "other Dependencies"}]}]}
    assert [f.check for f in values.unnamed_values("change_case", args, said, mixed)] == ["unnamed_value"]


def test_a_height_rule_the_rows_have_now_is_said_of_them_not_asked_for():
    """"the rows are fixed at an exact height. Let all the rows grow to fit their text." says the rows' rule (dwh-480#5):
    set_row_height to auto is no unnamed value; for rows not all exact, or another row, "exact" is asked."""
    from autodw.agent.checks import values

    said = ("A few cells are cut off at the bottom because the rows are fixed at an exact height. Let all the rows grow "
            "to fit their text.")
    table = {"id": "t1", "rows": 3, "cols": 1, "row_heights_cm": [0.8, 1.7, 1.8], "exact_height_rows": [0, 1, 2]}
    state = {**STATE, "tables": [table]}
    args = {"table": "t1", "row": "all", "rule": "auto"}
    assert values.unnamed_values("set_row_height", args, said, state) == []
    assert values.unnamed_values("set_row_height", {**args, "row": 1}, said, state) == []
    mixed = {**STATE, "tables": [{**table, "exact_height_rows": [0]}]}
    assert [f.fix for f in values.unnamed_values("set_row_height", args, said, mixed)] == [{"rule": "exact"}]
    assert [f.fix for f in values.unnamed_values("set_row_height", {**args, "row": 1}, said, mixed)] == [{"rule": "exact"}]


def test_a_request_taking_back_the_previous_change_asks_for_the_value_before_it():
    """"nah, the bars were clearer. change it back" after "could we see it as a line chart?" (dwh-417#6) and "put it
    back how it was" after "show the area chart ... as a column chart instead?" (dwh-418#8) ask for the chart type
    the previous instruction changed, which the request does not name; without the previous instruction, or
    without taking it back, the unnamed type is still rejected."""
    from autodw.agent.checks import values

    def found(now, value, request, previous=""):
        state = {**STATE, "images": [{"id": "chart1", "chart_type": now}]}
        return [f.check for f in values.unnamed_values("change_chart_type", {"chart": "chart1", "chart_type": value},
                                                       request, state, previous=previous)]

    line = "could we see it as a line chart?"
    assert found("line", "column", "nah, the bars were clearer. change it back", line) == []
    assert found("column", "area", "hmm no, put it back how it was", "show the area chart as a column chart instead?") == []
    assert found("line", "column", "nah, the bars were clearer. change it back") == ["unnamed_value"]
    assert found("line", "column", "nah, the bars are clearer", line) == ["unnamed_value"]
    # the previous instruction changed something else: nothing says what the type was
    assert found("line", "pie", "hmm no, put it back how it was", "make the title bold") == ["unnamed_value"]


def test_a_section_flag_on_now_named_by_the_request_can_only_be_switched_off():
    """"第一页底下好像没有页码，首页也要显示" of a section with a first page footer of its own (dwh-386#4): switching
    different_first_page off is what it asks; of a section without one, off is still rejected."""
    from autodw.agent.checks import values

    said = "还有，第一页底下好像没有页码，首页也要显示"
    args = {"section": 0, "different_first_page": False}
    on = {**STATE, "styles": {"defaults": {}, "styles": []}, "page_layout": {"sections": [{"different_first_page": True}]}}
    assert values.asked_flags_off("set_header_footer_options", args, said, on) == []
    off = {**on, "page_layout": {"sections": [{"different_first_page": False}]}}
    assert [f.check for f in values.asked_flags_off("set_header_footer_options", args, said, off)] == ["asked_flag_off"]


def test_a_property_another_request_of_the_split_message_names_with_its_value_is_asked():
    """One call serving "make it bold." sets the size "Bring it down to 14" gives (dwh-379#4), and one serving
    "字体换成Comic Sans MS吧" the size "字号也调大到16" gives (dwh-388#4); another size, or a message naming none, is not."""
    from autodw.agent.checks import values

    message = "The Contents title above the list of chapters is 18pt, way bigger than anything else. " \
              "Bring it down to 14 and make it bold."
    args = {"paragraphs": ["p1"], "bold": True, "size_pt": 14}
    assert values.unasked_properties("set_text_format", args, "make it bold.", STATE, message=message) == []
    assert values.unasked_properties("set_text_format", {**args, "size_pt": 12}, "make it bold.", STATE, message=message)
    assert values.unasked_properties("set_text_format", args, "make it bold.", STATE, message="Fix the title. make it bold.")
    font = {"paragraphs": ["p1"], "font": "Comic Sans MS", "size_pt": 16}
    assert values.unasked_properties("set_text_format", font, "字体换成Comic Sans MS吧", STATE,
                                     message="字体换成Comic Sans MS吧，字号也调大到16，孩子看得清楚些") == []


def test_the_words_of_a_picture_and_of_side_indents():
    """An emblem is a picture (徽标 already was: dwh-379#1, "The UN emblem in the box at the top is tiny. Make it a bit
    bigger"); "on both sides" names the left and right indents as 两边 does (dwh-382#5)."""
    from autodw.agent.checks import values

    state = {**STATE, "images": [{"id": "img1", "type": "picture", "width_cm": 1.75, "height_cm": 1.7}]}
    args = {"image": "img1", "width": "2.5cm"}
    assert apis.unasked_api("resize_image", "The UN emblem in the box at the top is tiny. Make it a bit bigger, maybe "
                            "2.5 cm wide.", args=args, before=state) == []
    assert apis.unasked_api("resize_image", "The box at the top is tiny. Make it 2.5 cm wide.", args=args, before=state)
    indents = {"paragraphs": ["p1"], "left_indent": "1cm", "right_indent": "1cm"}
    said = "The block text box looks squashed, its edges are pulled in too far. Widen it a little on both sides."
    assert values.unasked_properties("set_paragraph_format", indents, said, STATE) == []
    assert values.unasked_properties("set_paragraph_format", indents, "The block text box looks squashed.", STATE)


def test_a_picture_named_by_its_caption():
    """"the parking map takes up a whole page, shrink it" of a picture captioned "Figure 18.33-1: Draft Parking Map*"
    names it (its last word with another of its words), and so does the request before "and center it on the page"
    (dwh-463#2, #3: the local ceiling); a caption-styled line after it counts, a body sentence does not, nor the
    caption's last word alone, nor other words of it."""
    paragraphs = [{"id": "p1", "text": "", "runs": []},
                  {"id": "p2", "text": "Figure 18.33-1: Draft Parking Map*", "runs": [], "images": ["img1"]},
                  {"id": "p3", "text": "Code reviser’s note: This map is in draft form.", "runs": []}]
    state = {**STATE, "paragraphs": paragraphs,
             "images": [{"id": "img1", "type": "picture", "paragraph": "p2", "width_cm": 11.3, "height_cm": 18.0}]}
    shrink = "the parking map takes up a whole page, shrink it to about half its size"
    assert apis.unasked_api("resize_image", shrink, args={"image": "img1", "scale": 50}, before=state) == []
    centre = {"image": "img1", "alignment": "center"}
    assert apis.unasked_api("set_image_alignment", "and center it on the page", previous=shrink, args=centre,
                            before=state) == []
    assert apis.unasked_api("set_image_alignment", "and center it on the page", args=centre, before=state)
    for said in ("the map is too big, shrink it", "the parking rules are too long, shrink them"):
        assert apis.unasked_api("resize_image", said, args={"image": "img1", "scale": 50}, before=state), said
    styled = [{"id": "p2", "text": "", "runs": [], "images": ["img1"]},
              {"id": "p3", "text": "Draft Parking Map", "style": "Caption", "runs": []}]
    assert apis.unasked_api("resize_image", shrink, args={"image": "img1", "scale": 50},
                            before={**state, "paragraphs": styled}) == []
    sentence = [styled[0], {"id": "p3", "text": "This is the draft parking map", "runs": []}]
    assert apis.unasked_api("resize_image", shrink, args={"image": "img1", "scale": 50},
                            before={**state, "paragraphs": sentence})


def test_underlining_names_the_underline():
    """"the underlining looks messy. Take it off" names the underline it removes (dwh-440#7); a request naming no
    underline does not."""
    from autodw.agent.checks import values

    args = {"paragraphs": ["p1"], "underline": "none"}
    said = "Actually the underlining looks messy. Take it off all the labels, bold italic is enough"
    assert values.unasked_properties("set_text_format", args, said, STATE) == []
    assert values.unasked_properties("set_text_format", args, "Take it off all the labels", STATE)


def test_a_request_for_the_look_of_the_other_text_names_what_that_text_has():
    """"Format both lines like the other cases" names the 16 pt and bold the other cases have (dwh-442#4), also for
    a call serving the message's other request; not a size no other paragraph has, nor without the comparison."""
    from autodw.agent.checks import values

    runs = {"p1": [{"text": "Case one", "bold": True, "size_pt": 16.0}], "p2": [{"text": "sentence", "size_pt": 16.0}],
            "p3": [{"text": "Case two", "size_pt": 11.0}], "p4": [{"text": "sentence two", "size_pt": 11.0}]}
    state = {**STATE, "styles": {"defaults": {}, "styles": []},
             "paragraphs": [{"id": i, "text": r[0]["text"], "runs": r} for i, r in runs.items()]}
    said, size = "Format both lines like the other cases.", {"paragraphs": ["p3", "p4"], "size_pt": 16}
    message = "Add one more case at the end. " + said
    assert values.unasked_properties("set_text_format", size, said, state) == []
    assert values.unasked_properties("set_text_format", size, "Add one more case at the end.", state, message=message) == []
    assert values.unasked_properties("set_text_format", {**size, "size_pt": 18}, said, state)
    assert values.unasked_properties("set_text_format", size, "Format both lines.", state)
    bold = {"paragraphs": ["p3"], "bold": True}
    assert values.unasked_flags("set_text_format", bold, said, before=state) == []
    assert values.unasked_flags("set_text_format", bold, "I'd like the other cases' lines fixed", before=state)
    assert values.unasked_flags("set_text_format", bold, said, before={**state, "paragraphs": state["paragraphs"][1:]})


def test_a_colour_marked_names_the_highlight_and_a_highlight_changed_is_named_by_its_colour_now():
    """"整段标黄" (mark the paragraph yellow) names a highlight (dwh-543#4); "黄色打印出来看不太清，还是换成绿色吧" names
    the yellow highlight it makes green (read from the state, dwh-543#5); not a request naming neither, nor a colour
    the paragraph's highlight is not."""
    from autodw.agent.checks import values

    def state(highlight: str | None) -> dict:
        run = {"text": "第四十九段", **({"highlight": highlight} if highlight else {})}
        return {**STATE, "styles": {"defaults": {}, "styles": []},
                "paragraphs": [{"id": "p1", "text": run["text"], "runs": [run]}]}

    yellow, green = {"paragraphs": ["p1"], "highlight": "yellow"}, {"paragraphs": ["p1"], "highlight": "green"}
    assert values.unasked_properties("set_text_format", yellow, "第49段整段标黄，研讨会要重点讲", state(None)) == []
    assert values.unasked_properties("set_text_format", yellow, "第49段研讨会要重点讲", state(None))
    changed = "黄色打印出来看不太清，还是换成绿色吧"
    assert values.unasked_properties("set_text_format", green, changed, state("yellow")) == []
    assert values.unasked_properties("set_text_format", green, changed, state(None))
    assert values.unasked_properties("set_text_format", green, changed, state("cyan"))


def test_a_request_to_line_up_with_another_paragraph_names_its_indent():
    """"add it as its own paragraph right after the one about the start date, lined up with it" names the 1.27cm
    (or 0.5in) that paragraph is indented by (dwh-537#5); not another indent, nor without lining it up."""
    from autodw.agent.checks import values

    state = {**STATE, "styles": {"defaults": {}, "styles": []},
             "paragraphs": [{"id": "p1", "text": "Start 1/2-2012", "runs": [{"text": "Start 1/2-2012"}],
                             "indent": {"left_cm": 1.27}},
                            {"id": "p2", "text": "Vedlagt", "runs": [{"text": "Vedlagt"}]}]}
    said = "add it as its own paragraph right after the one about the start date, lined up with it: Vedlagt"
    indent = {"paragraphs": ["p2"], "left_indent": "1.27cm"}
    assert values.unasked_properties("set_paragraph_format", indent, said, state) == []
    assert values.unasked_properties("set_paragraph_format", {**indent, "left_indent": "0.5in"}, said, state) == []
    assert values.unasked_properties("set_paragraph_format", {**indent, "left_indent": "2cm"}, said, state)
    assert values.unasked_properties("set_paragraph_format", indent, said.replace(", lined up with it", ""), state)
    assert values.unasked_properties("set_paragraph_format", {"paragraphs": ["p1", "p2"], "left_indent": "1.27cm"},
                                     said, state)  # the only paragraph indented so is one the call changes
