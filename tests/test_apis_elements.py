"""The schema order table of autodw.apis.ooxml.elements, checked against python-docx's own declarations."""

from __future__ import annotations

import pytest

from autodw.apis.ooxml.elements import SEQUENCES, insert_ordered, make
from autodw.core.xml import qn
from tests.schema_order import CHECKED, declared_sequence, out_of_order


@pytest.mark.parametrize("parent", CHECKED)
def test_our_order_table_agrees_with_python_docx(parent):
    ours, theirs = SEQUENCES[parent], declared_sequence(parent)
    common = [t for t in ours if t in theirs]
    assert len(common) >= min(len(theirs), 2), f"python-docx declares {theirs}, we know {ours}"
    assert common == [t for t in theirs if t in common], f"{parent}: our order {common} differs from python-docx's"


@pytest.mark.parametrize("parent", CHECKED)
def test_insert_ordered_builds_python_docx_order_from_any_insertion_order(parent):
    children = [t for t in declared_sequence(parent) if t in SEQUENCES[parent] and not t.startswith("sl:")]  # sl: unknown to ours
    el = make(parent)
    for tag in reversed(children[::2]):  # every other child, last first, then the rest first first
        insert_ordered(el, make(tag))
    for tag in children[1::2]:
        insert_ordered(el, make(tag))
    assert [c.tag for c in el] == [qn(t) for t in children]
    assert out_of_order(el, parent) == []


def test_the_oracle_detects_a_wrong_order():
    ppr = make("w:pPr")
    ppr.append(make("w:jc"))
    ppr.append(make("w:pStyle"))
    assert out_of_order(ppr, "w:pPr") == ["jc before pStyle"]
