"""Editing sessions: undo/redo restore exactly, unsaved-work tracking, saving never over the original by accident."""

from __future__ import annotations

import docx
import pytest

from autodw.apis import execute
from autodw.core.document import WordDocument
from autodw.interfaces.editing import EditSession, default_output
from autodw.core.errors import ApiError, ConfigError, SessionError
from autodw.analysis.state import extract_state
from tests.conftest import EXAMPLES


@pytest.fixture
def session(tmp_path):
    src = tmp_path / "report.docx"
    src.write_bytes((EXAMPLES / "report.docx").read_bytes())
    return EditSession(WordDocument.open(src))


def _insert(session, text):
    return session.apply(f"insert {text}", lambda doc: execute(doc, "insert_paragraph", {"text": text, "position": "end"}))


def test_undo_and_redo_restore_every_part_exactly(session):
    opened = session.doc.snapshot().members
    _insert(session, "One.")
    after_one = session.doc.snapshot().members
    _insert(session, "Two.")
    assert session.undo().label == "insert Two."
    assert session.doc.snapshot().members == after_one
    assert session.undo().label == "insert One."
    assert session.doc.snapshot().members == opened and not session.unsaved
    with pytest.raises(SessionError, match="nothing to undo"):
        session.undo()
    session.redo()
    session.redo()
    assert [p["text"] for p in extract_state(session.doc)["paragraphs"]][-2:] == ["One.", "Two."]
    with pytest.raises(SessionError, match="nothing to redo"):
        session.redo()


def test_a_new_edit_clears_redo_and_no_change_records_nothing(session):
    _insert(session, "One.")
    session.undo()
    _insert(session, "Other.")
    with pytest.raises(SessionError):
        session.redo()
    result, edit = session.apply("find", lambda doc: execute(doc, "find_text", {"query": "North"}))
    assert edit is None and result.data["matches"] and session.last_edit.label == "insert Other."


def test_a_failed_edit_leaves_the_document_and_history_alone(session):
    before = session.doc.snapshot().members

    def half_edit_then_fail(doc):
        execute(doc, "insert_paragraph", {"text": "half", "position": "end"})
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        session.apply("broken", half_edit_then_fail)
    with pytest.raises(ApiError):
        session.apply("bad", lambda doc: execute(doc, "insert_paragraph", {"text": 5}))
    assert session.doc.snapshot().members == before and session.last_edit is None and not session.unsaved


def test_changes_since_open_and_state_at_a_snapshot(session):
    _insert(session, "One.")
    change = session.changes_since_open()
    assert [p["text"] for p in change["structural"]["paragraphs_added"]] == ["One."]
    old = session.state_at(session.last_edit.before)
    assert old["document_info"]["paragraph_count"] + 1 == extract_state(session.doc)["document_info"]["paragraph_count"]
    assert b"One." not in session.bytes_at(session.last_edit.before)


def test_save_tracks_unsaved_work_and_refuses_the_original_unless_asked(session, tmp_path):
    original = session.doc.source
    original_bytes = original.read_bytes()
    _insert(session, "One.")
    assert session.unsaved
    with pytest.raises(ConfigError, match="refusing to overwrite the original"):
        session.save(original)
    assert original.read_bytes() == original_bytes
    out = session.save(default_output(original))
    assert out.name == "report-edited.docx" and not session.unsaved
    assert docx.Document(out).paragraphs[-1].text == "One."
    session.undo()
    assert session.unsaved  # differs from what was saved
    session.redo()
    assert not session.unsaved
    session.save(original, overwrite_original=True)
    assert docx.Document(original).paragraphs[-1].text == "One."
