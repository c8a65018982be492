"""Partial credit (autodw.eval.partial): the expected changes an output made, less the ones nobody asked for."""

from __future__ import annotations

import pytest

from autodw.eval.judge import Difference
from autodw.eval.partial import aspects, credit, partial_credit

from conftest import EXAMPLES
from tests.judge_cases import edited

REPORT = EXAMPLES / "report.docx"
CELL = ("set_cell_text", {"table": "t1", "row": 2, "col": 1, "text": "99"})
BOLD = ("set_text_format", {"paragraphs": "p2", "bold": True})
ASKED = (CELL, BOLD)


@pytest.fixture(scope="module")
def expected():
    return edited(REPORT, *ASKED)


def test_aspects_are_where_without_ids_and_each_property():
    found, capped = aspects([Difference('paragraph "Sales" (p4)', 'style: expected "Heading 2", actual "Normal"; '
                                        'spacing after: expected 0 pt, actual 6 pt'),
                             Difference("table 1 \"A | B\"", 'extra row "| |" (actual row 2)')])
    assert found == {('paragraph "Sales"', "style"): 1, ('paragraph "Sales"', "spacing after"): 1,
                     ('table 1 "A | B"', 'extra row "| |" (actual row 2)'): 1}
    assert not capped
    assert aspects([Difference("document", "3 more difference(s) not listed")]) == ({}, True)


def test_credit_counts_made_and_unasked_aspects():
    start = [Difference("p", "bold: expected yes, actual no; size: expected 12 pt, actual 11 pt")]
    assert credit(start, start).to_dict() == {"expected": 2, "made": 0, "unasked": 0, "capped": False, "score": 0.0}
    assert credit(start, []).score == 1.0
    half = credit(start, [Difference("p", "size: expected 12 pt, actual 14 pt"), Difference("q", "italic: expected no, actual yes")])
    assert (half.made, half.unasked, half.score) == (1, 1, pytest.approx(1 / 3, abs=1e-4))
    assert credit([], []).score == 1.0 and credit([], [Difference("q", "order: expected 1, actual 2")]).score == 0.0


def test_an_untouched_document_gets_nothing_and_the_expected_one_everything(expected):
    nothing = partial_credit(expected, REPORT, REPORT)
    assert nothing.expected == 2 and nothing.made == 0 and nothing.unasked == 0 and nothing.score == 0.0
    assert partial_credit(expected, REPORT, edited(REPORT, *ASKED)).score == 1.0


def test_half_the_changes_made(expected):
    part = partial_credit(expected, REPORT, edited(REPORT, CELL))
    assert (part.expected, part.made, part.unasked, part.score) == (2, 1, 0, 0.5)


def test_a_wrong_value_is_not_made_and_an_unasked_change_costs(expected):
    wrong = partial_credit(expected, REPORT, edited(REPORT, BOLD, ("set_cell_text", {**CELL[1], "text": "77"})))
    assert (wrong.made, wrong.unasked) == (1, 0)
    extra = partial_credit(expected, REPORT, edited(REPORT, *ASKED, ("set_text_format", {"paragraphs": "p3", "italic": True})))
    assert (extra.made, extra.unasked, extra.score) == (2, 1, pytest.approx(2 / 3, abs=1e-4))


def test_the_output_or_its_differences_is_needed(expected):
    with pytest.raises(ValueError):
        partial_credit(expected, REPORT)
