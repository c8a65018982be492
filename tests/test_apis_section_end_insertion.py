"""Content inserted after a section's last paragraph (the one whose ``w:pPr`` holds the ``w:sectPr``) stays in
that section, as in Word: the break moves to the end of the new content. Content that ends with a table starts the
next section, as before (a paragraph after it to hold the break would renumber the ids DWBench 2.0's gold calls
name). Every inserting API goes through ``locate.insert_block``/``insert_after``; each is checked here."""

from __future__ import annotations

import pytest

from autodw.analysis.state import extract_state
from autodw.apis import execute
from autodw.core.document import WordDocument
from tests.conftest import EXAMPLES, ROOT, corpus_file

#: five sections, the first landscape; p2 (empty) ends section 0, p3 starts section 1
SECTIONS = "pythondocx__sct-section-props.docx"
REPORT = ROOT / "dwbench" / "data" / "docs" / "report-en-3.docx"  # p40 ends section 0, p41 ("Conclusion") starts 1

AFTER_P2 = {"after": "p2"}
CASES = {
    "insert_paragraph": [("insert_paragraph", {"text": "Added at the end of section 1.", "position": AFTER_P2})],
    "insert_heading": [("insert_heading", {"text": "Appendix", "level": 1, "position": AFTER_P2})],
    "insert_list": [("insert_list", {"items": ["one", "two", "three"], "position": AFTER_P2})],
    "insert_table": [("insert_table", {"position": AFTER_P2, "data": [["a", "b"], ["c", "d"]]})],
    "insert_image": [("insert_image", {"path": "images/logo.png", "position": AFTER_P2})],
    "insert_chart": [("insert_chart", {"position": AFTER_P2, "chart_type": "column", "categories": ["Q1", "Q2"],
                                       "series": [{"name": "Sales", "values": [1, 2]}]})],
    "insert_page_break": [("insert_page_break", {"position": AFTER_P2})],
    "insert_toc": [("insert_toc", {"position": AFTER_P2, "title": "Contents"})],
    "duplicate_block": [("duplicate_block", {"block": "p5", "position": AFTER_P2})],
    "duplicate_table": [("insert_table", {"position": "end", "rows": 1, "cols": 2}),
                        ("duplicate_block", {"block": "t1", "position": AFTER_P2})],
    "move_block": [("move_block", {"block": "p7", "position": AFTER_P2})],
    "insert_caption": [("insert_image", {"path": "images/logo.png", "position": AFTER_P2}),
                       ("insert_caption", {"target": "img1", "text": "Logo"})],
}


def _sections(doc: WordDocument) -> tuple[dict, list]:
    state = extract_state(doc)
    return {p["id"]: p for p in state["paragraphs"]}, state["page_layout"]["sections"]


def _open(path) -> WordDocument:
    d = WordDocument.open(path)
    d.asset_roots = [EXAMPLES]
    return d


def _run(steps, path) -> tuple[WordDocument, list]:
    d = _open(path)
    results = [execute(d, api, args) for api, args in steps]
    return d, results


ENDS_WITH_TABLE = ("insert_table", "duplicate_table")


@pytest.mark.parametrize("case", [c for c in CASES if c not in ENDS_WITH_TABLE])
def test_content_inserted_after_a_sections_last_paragraph_stays_in_that_section(case):
    """Each inserting API, after p2 (the end of landscape section 0): its new blocks are in section 0, the last of
    them (or the paragraph after a new table) now ends section 0, and every section keeps its page layout."""
    path = corpus_file(SECTIONS)
    _, layout = _sections(_open(path))
    d, results = _run(CASES[case], path)
    paragraphs, after = _sections(d)
    created = [i for r in results for i in r.created if i in paragraphs] or ["p7"]  # body paragraphs (or moved)
    assert created and all(paragraphs[i]["section"] == 0 for i in created)
    ends = [i for i, p in paragraphs.items() if p.get("ends_section")]
    assert ends[0] == created[-1] and ends[1:] == ["p4", "p6", "p8"]
    assert not paragraphs["p2"].get("ends_section") and paragraphs["p3"]["section"] == 1
    assert after == layout


@pytest.mark.parametrize("case", ENDS_WITH_TABLE)
def test_a_table_after_a_sections_last_paragraph_starts_the_next_section_and_adds_no_paragraph(case):
    """Kept as before: no new paragraph (whose id would shift later ids), p2 keeps the break, the table follows it."""
    path = corpus_file(SECTIONS)
    d, results = _run(CASES[case], path)
    paragraphs, after = _sections(d)
    assert [p for r in results for p in r.created if p.startswith("p") and p in paragraphs
            and not d.find(p, "p").xpath("ancestor::w:tbl")] == []
    assert [i for i, p in paragraphs.items() if p.get("ends_section")][0] == "p2"
    table = d.find(results[-1].created[0], "t")
    assert table.getprevious() is d.find("p2", "p")
    assert after == _sections(_open(path))[1]


def test_the_reported_list_after_the_last_paragraph_of_a_report_section_stays_before_the_break():
    """report-en-3: insert_list after p40 put the bullets after the section break, on the next page."""
    d, (r,) = _run([("insert_list", {"items": ["Hire drivers", "Renew the fleet"], "position": {"after": "p40"}})],
                   REPORT)
    paragraphs, _ = _sections(d)
    assert [paragraphs[i]["section"] for i in ("p40", *r.created, "p41")] == [0, 0, 0, 1]
    assert [i for i, p in paragraphs.items() if p.get("ends_section")] == [r.created[-1]]


def test_moving_a_block_after_its_own_previous_paragraph_leaves_the_section_break_where_it_was():
    """p2 ends section 0 and hands its break to p1 when it moves; put back after p1, it takes the break again."""
    d, (r,) = _run([("move_block", {"block": "p2", "position": {"after": "p1"}})], corpus_file(SECTIONS))
    paragraphs, _ = _sections(d)
    assert paragraphs["p2"].get("ends_section") and not paragraphs["p1"].get("ends_section")


def test_a_section_moved_after_a_sections_last_paragraph_ends_that_section():
    """move_section moves block by block after the previous one: the break follows to its last block."""
    d = _open(REPORT)
    execute(d, "move_section", {"heading": "p5", "position": {"after": "p40"}})
    paragraphs, _ = _sections(d)
    order = list(paragraphs)
    assert order[order.index("p40") + 1] == "p5" and paragraphs[order[order.index("p41") - 1]].get("ends_section")
    assert paragraphs["p41"]["section"] == 1 and not paragraphs["p40"].get("ends_section")


def test_insertions_after_a_sections_last_paragraph_pass_the_word_check():
    pytest.importorskip("openxml_audit")
    from autodw.analysis.validation import added, validate_all

    path = corpus_file(SECTIONS)
    edited = [_run(steps, path)[0].to_bytes() for steps in CASES.values()]
    original, *found = validate_all([path.read_bytes(), *edited], workers=2)
    errors = {case: [str(f) for f in added(original, f) if f.is_error] for case, f in zip(CASES, found)}
    assert errors == {case: [] for case in CASES}


def test_a_section_with_a_table_inside_moved_after_a_sections_last_paragraph_leaves_no_empty_paragraph():
    """move_section moved block by block: the table took the section break onto a new empty paragraph after it,
    and the blocks after the table went in before that paragraph, so the section ended with an empty paragraph.
    The blocks now go in together and the last one takes the break."""
    pytest.importorskip("openxml_audit")
    from autodw.analysis.validation import added_errors

    d = _open(REPORT)
    (after_table,) = execute(d, "insert_paragraph", {"text": "Figures in thousands of dollars.",
                                                     "position": {"after": "t1"}}).created
    res = execute(d, "move_section", {"heading": "p12", "position": {"after": "p40"}})
    assert res.created == [] and "empty paragraph" not in res.message
    paragraphs, _ = _sections(d)
    order = list(paragraphs)
    assert order[order.index("p40"):order.index("p41")] == ["p40", "p12", "p13", after_table]
    assert [i for i, p in paragraphs.items() if p.get("ends_section")] == [after_table]
    assert d.find("t1", "t").getnext() is d.find(after_table, "p")
    assert [str(f) for f in added_errors(REPORT.read_bytes(), d.to_bytes())] == []


def test_after_the_last_block_of_the_body_new_content_fills_the_empty_last_section():
    """When the blocks after a section's break were all moved away, the last section has no content of its own:
    inserting after the paragraph holding the break puts the content there, as "end" does (the alternative of
    dev session dwh-114 turn 5, move_section to "end" or after that paragraph, must stay the same edit)."""
    path = corpus_file(SECTIONS)
    ends, at_end = (_run([("move_block", {"block": "p9", "position": "start"}),
                          ("insert_paragraph", {"text": "Closing words.", "position": position})], path)[0]
                    for position in ({"after": "p8"}, "end"))
    paragraphs, layout = _sections(ends)
    assert paragraphs["p8"].get("ends_section") and paragraphs[list(paragraphs)[-1]]["section"] == 4
    assert ends.to_bytes() == at_end.to_bytes() and len(layout) == 5


def test_a_picture_added_at_a_sections_end_and_deleted_with_its_paragraph_gives_the_break_back():
    """The picture's paragraph took the section break; deleting the picture with its empty paragraph hands the
    break back to the paragraph before it (it used to keep the paragraph, empty, holding the break)."""
    path = corpus_file(SECTIONS)
    d, (added,) = _run(CASES["insert_image"], path)
    host = next(i for i in added.created if i.startswith("p"))
    image = next(i for i in added.created if i.startswith("img"))
    r = execute(d, "delete_image", {"image": image, "remove_empty_paragraph": True})
    assert host in r.removed and "section break ending section 0 moved to p2" in r.message
    paragraphs, after = _sections(d)
    assert paragraphs["p2"].get("ends_section") and host not in paragraphs
    assert after == _sections(_open(path))[1]
