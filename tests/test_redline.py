"""Redlines: the edits of our APIs as Word tracked changes. Accepting every change gives the edited state,
rejecting every change the original's; no new Open XML SDK errors; edits the engine cannot carry are reported."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import datetime, timezone

import pytest
from lxml import etree

from autodw.apis import execute
from autodw.interfaces.cli import main
from autodw.core.document import WordDocument
from autodw.interfaces.redline import check_redline, comparable_state, redline_bytes, resolve_all, state_differences
from autodw.analysis.validation import added_errors
from autodw.core.xml import qn
from tests.conftest import EXAMPLES
from tests.test_cli_run import INSTRUCTIONS, cassette  # noqa: F401 - the fixture is used by name

WHEN = datetime(2026, 3, 4, 5, 6, 7, tzinfo=timezone.utc)
#: one session on the sample report: text, formatting, list, table and header edits
SESSION = [
    ("replace_text", {"find": "region", "replace": "territory"}),
    ("set_paragraph_text", {"paragraph": "p8", "text": "Sales per region, in thousands of dollars:"}),
    ("insert_paragraph", {"text": "Sales rose in all regions.", "position": {"after": "p2"}}),
    ("set_text_format", {"paragraphs": "p2", "span": {"match": "first three quarters"}, "bold": True, "color": "C00000"}),
    ("set_paragraph_format", {"paragraphs": "p3", "alignment": "center"}),
    ("apply_style", {"paragraphs": ["p39"], "style": "Quote"}),
    ("set_list_format", {"paragraphs": ["p4", "p5", "p6"], "kind": "numbered"}),
    ("set_cell_text", {"table": "t1", "row": 1, "col": 1, "text": "125"}),
    ("insert_row", {"table": "t1", "index": 5, "data": ["Central", "110", "115", "120"]}),
    ("delete_row", {"table": "t1", "index": 2}),
    ("set_header_footer", {"section": "all", "where": "header", "text": "Acme Corporation - Confidential"}),
    ("delete_block", {"block": "p31"}),
]


def edited_bytes(original: bytes, calls) -> bytes:
    doc = WordDocument.from_bytes(original, "report.docx")
    for name, args in calls:
        execute(doc, name, args)
    return doc.to_bytes()


@pytest.fixture(scope="module")
def session():
    original = (EXAMPLES / "report.docx").read_bytes()
    edited = edited_bytes(original, SESSION)
    return original, edited, redline_bytes(original, edited, author="Reviewer", date=WHEN)


def _xml(data: bytes, name: str) -> etree._Element:
    return etree.fromstring(zipfile.ZipFile(io.BytesIO(data)).read(name))


def test_redline_marks_each_kind_of_edit_as_a_tracked_change_by_its_author_and_date(session):
    _original, _edited, redline = session
    body, header = _xml(redline, "word/document.xml"), _xml(redline, "word/header1.xml")
    tags = {etree.QName(el).localname for el in body.iter() if el.get(qn("w:author")) is not None}
    assert {"ins", "del", "rPrChange", "pPrChange"} <= tags
    assert body.find(f".//{qn('w:trPr')}/{qn('w:ins')}") is not None  # the inserted row
    assert body.find(f".//{qn('w:trPr')}/{qn('w:del')}") is not None  # the deleted row
    assert header.find(f".//{qn('w:ins')}") is not None and header.find(f".//{qn('w:del')}") is not None
    marks = [el for root in (body, header) for el in root.iter() if el.get(qn("w:author")) is not None]
    assert {el.get(qn("w:author")) for el in marks} == {"Reviewer"}
    assert {el.get(qn("w:date")) for el in marks} == {"2026-03-04T05:06:07Z"}


def test_accept_all_gives_the_edited_state_and_reject_all_the_original(session):
    original, edited, redline = session
    accepted, rejected = comparable_state(resolve_all(redline, True)), comparable_state(resolve_all(redline, False))
    assert state_differences(comparable_state(WordDocument.from_bytes(edited)), accepted) == []
    assert state_differences(comparable_state(WordDocument.from_bytes(original)), rejected) == []
    # the states compared really differ where the session edited (so the check above can fail)
    texts = [p["text"] for p in accepted["paragraphs"]]
    assert "Sales rose in all regions." in texts and texts != [p["text"] for p in rejected["paragraphs"]]
    assert accepted["tables"][0]["cells"][1][1] == "125" and rejected["tables"][0]["cells"][1][1] == "120"
    assert accepted["paragraphs"][4]["list"]["kind"] == "numbered" and rejected["paragraphs"][3]["list"]["kind"] == "bullet"
    assert check_redline(original, edited, redline).complete


def test_check_redline_reports_a_redline_that_misses_edits(session):
    original, edited, _redline = session
    check = check_redline(original, edited, original)  # "a redline" with no tracked change at all
    assert check.not_shown and not check.not_restored
    assert any("Sales rose in all regions." in line for line in check.not_shown)


def test_redline_adds_no_open_xml_sdk_error(session):
    original, _edited, redline = session
    assert added_errors(original, redline) == []  # openxml-audit is a test dependency (pip install -e '.[test]')


def test_edits_the_engine_cannot_track_are_reported():
    original = (EXAMPLES / "report.docx").read_bytes()
    edited = edited_bytes(original, [("set_properties", {"title": "Q3 Sales Report"}),
                                     ("insert_comment", {"paragraph": "p2", "text": "Check this figure."})])
    check = check_redline(original, edited, redline_bytes(original, edited))
    assert not check.complete
    # the new title is not in the redline; the comment is, untracked (comments are not revisions): reject keeps it
    assert "core_properties.title" in " ".join(check.not_shown) and "Check this figure." in " ".join(check.not_restored)
    notes = check.notes()
    assert "does not show these edits" in notes[0] and "does not give back the original" in notes[1]


def test_cli_redline_writes_the_redline_and_leaves_both_inputs(session, tmp_path, capsys):
    original, edited, _redline = session
    a, b, out = tmp_path / "a.docx", tmp_path / "b.docx", tmp_path / "out.docx"
    a.write_bytes(original)
    b.write_bytes(edited)
    assert main(["redline", str(a), str(b), "-o", str(out), "--author", "Legal", "--date", "2026-01-02T03:04:05Z",
                 "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["complete"] and report["not_shown"] == [] and a.read_bytes() == original and b.read_bytes() == edited
    dates = {el.get(qn("w:date")) for el in _xml(out.read_bytes(), "word/document.xml").iter(qn("w:ins"))}
    assert dates == {"2026-01-02T03:04:05Z"}
    assert not list(tmp_path.glob(".out.docx.*"))  # the atomic write left no temporary file


def test_cli_redline_notes_what_it_cannot_track(tmp_path, capsys):
    original = (EXAMPLES / "report.docx").read_bytes()
    b, out = tmp_path / "b.docx", tmp_path / "out.docx"
    b.write_bytes(edited_bytes(original, [("set_properties", {"title": "Q3 Sales Report"})]))
    assert main(["redline", str(EXAMPLES / "report.docx"), str(b), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("note: the redline does not show") and "core_properties.title" in err


@pytest.mark.parametrize("case", ["same file", "not a docx", "bad date", "control character in the author"])
def test_cli_redline_bad_input_is_one_error_line(case, tmp_path, capsys):
    a = tmp_path / "a.docx"
    a.write_bytes((EXAMPLES / "report.docx").read_bytes())
    text = tmp_path / "notes.docx"
    text.write_text("plain text")
    args = {"same file": [str(a), str(a), "-o", str(a)], "not a docx": [str(a), str(text), "-o", str(tmp_path / "o.docx")],
            "bad date": [str(a), str(a), "-o", str(tmp_path / "o.docx"), "--date", "yesterday"],
            "control character in the author": [str(a), str(a), "-o", str(tmp_path / "o.docx"), "--author", "a\x01b"]}[case]
    assert main(["redline", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
    assert a.read_bytes() == (EXAMPLES / "report.docx").read_bytes() and not (tmp_path / "o.docx").exists()


@pytest.mark.parametrize("option", ["--author", "--redline-author"])  # the second: the option's former name
def test_run_writes_a_redline_of_its_edits(option, cassette, tmp_path, capsys):  # noqa: F811 - pytest fixture
    src, out, red = tmp_path / "in.docx", tmp_path / "out.docx", tmp_path / "out-redline.docx"
    src.write_bytes((EXAMPLES / "report.docx").read_bytes())
    args = ["run", str(src), "-o", str(out), "--llm", f"replay:{cassette}", "--redline", str(red), option, "Bot"]
    for instruction in INSTRUCTIONS:
        args += ["-i", instruction]
    assert main(args) == 0
    assert f"saved {red} (the edits as tracked changes by Bot)" in capsys.readouterr().out
    assert src.read_bytes() == (EXAMPLES / "report.docx").read_bytes()
    inserted = [el for el in _xml(red.read_bytes(), "word/document.xml").iter(qn("w:ins"))]
    assert {el.get(qn("w:author")) for el in inserted} == {"Bot"}
    assert "".join(t.text for el in inserted for t in el.iter(qn("w:t"))) == "First addition.Second addition."
    assert check_redline(src.read_bytes(), out.read_bytes(), red.read_bytes()).complete


def test_a_sessions_comments_and_tracked_changes_are_by_the_documents_author(tmp_path):
    from autodw.interfaces.editing import EditSession
    from autodw.interfaces.redline import write_session_redline

    doc = WordDocument.open(EXAMPLES / "report.docx")
    doc.author = "Legal"  # what --author of run and chat sets
    session = EditSession(doc)
    session.apply("comment", lambda d: execute(d, "insert_comment", {"paragraph": "p2", "text": "Check this."}))
    session.apply("paragraph", lambda d: execute(d, "insert_paragraph", {"text": "Added.", "position": "end"}))
    out = tmp_path / "red.docx"
    write_session_redline(session, out)
    data = out.read_bytes()
    assert {el.get(qn("w:author")) for el in _xml(data, "word/document.xml").iter(qn("w:ins"))} == {"Legal"}
    comments = {"".join(t.text for t in el.iter(qn("w:t"))): el.get(qn("w:author"))
                for el in _xml(data, "word/comments.xml").iter(qn("w:comment"))}
    assert comments["Check this."] == "Legal"
    write_session_redline(session, out, author="Bot")  # a redline's own author still wins
    assert {el.get(qn("w:author")) for el in _xml(out.read_bytes(), "word/document.xml").iter(qn("w:ins"))} == {"Bot"}


def test_tracked_changes_already_in_the_original_are_reported_and_taken_as_accepted():
    original = (EXAMPLES / "review.docx").read_bytes()  # holds pending changes by Alex
    edited = edited_bytes(original, [("insert_paragraph", {"text": "Added by the agent.", "position": "end"})])
    redline = redline_bytes(original, edited)
    check = check_redline(original, edited, redline)
    assert check.pending == {"Alex": 2} and not check.not_shown and not check.not_restored
    assert "already held tracked changes (2 by Alex)" in check.notes()[0]
    authors = {el.get(qn("w:author")) for el in _xml(redline, "word/document.xml").iter() if el.get(qn("w:author"))}
    assert authors == {"autodw"}


def test_a_style_the_original_does_not_define_is_tracked():
    original = (EXAMPLES / "report.docx").read_bytes()
    edited = edited_bytes(original, [("create_style", {"name": "Key Point", "based_on": "Normal", "bold": True,
                                                        "apply_to": ["p39"]})])
    redline = redline_bytes(original, edited)
    assert check_redline(original, edited, redline).not_shown == []  # Docxodus alone shows p39 as Normal
    styles = [el.get(qn("w:val")) for el in _xml(redline, "word/document.xml").iter(qn("w:pStyle"))]
    assert styles.count("KeyPoint") == 1
