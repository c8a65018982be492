"""`autodw chat` driven in a pseudo-terminal, as a person uses it: instructions with the live step display and
the change summary, :undo/:redo, :diff, :state, readline history, Ctrl-C during a step (the document goes back
to the instruction's start), :quit asking about unsaved work, :save. The LLM is scripted (tests/chat_driver.py)."""

from __future__ import annotations

import json
import os
import signal
import sys

import docx
import pexpect
import pytest

from tests.rendering import require_renderer
from tests.conftest import EXAMPLES, ROOT
from tests.test_agent import DONE, PASS, plan

UP = "\x1b[A"


def insert(text):
    return {"api": "insert_paragraph", "args": {"text": text, "position": "end"}}


@pytest.fixture
def chat(tmp_path):
    """Start `autodw chat` on a copy of the sample in a pseudo-terminal; yields (child, input, output, home)."""
    src = tmp_path / "report.docx"
    src.write_bytes((EXAMPLES / "report.docx").read_bytes())
    script = {"planner": [plan("Insert 'First addition.' at the end."), DONE, plan("Insert 'Second addition.' at the end.")],
              "api_generator": [insert("First addition."), insert("Second addition.")],
              "validator": [PASS, "__wait__"]}
    (tmp_path / "script.json").write_text(json.dumps(script), encoding="utf-8")
    out, home = tmp_path / "out.docx", tmp_path / "home"
    child = pexpect.spawn(sys.executable, ["-m", "tests.chat_driver", str(tmp_path / "script.json"), "chat", str(src),
                                           "-o", str(out), "--llm", "scripted", "--author", "Legal"],
                          cwd=str(ROOT), env={"AUTODW_HOME": str(home), "PATH": os.environ["PATH"], "TERM": "dumb"},
                          encoding="utf-8", timeout=60, dimensions=(50, 200),
                          # Ctrl-C must reach the chat even when the suite was started with SIGINT ignored (nohup, &)
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    yield child, src, out, home
    child.close(force=True)


def test_a_session_with_undo_redo_interrupt_history_and_save(chat):
    child, src, out, home = chat
    child.expect_exact("report.docx> ")
    child.sendline("Add a paragraph 'First addition.' at the end")
    child.expect_exact("step 1: Insert 'First addition.' at the end.")  # the live step display
    child.expect_exact("validator: pass")
    child.expect_exact("Changes:")
    child.expect_exact("added paragraph p44 at index 21 (Normal): 'First addition.'")
    child.expect_exact("report.docx*> ")  # unsaved work shows in the prompt

    child.sendline(":undo")
    child.expect_exact("undone: Add a paragraph 'First addition.' at the end")
    child.expect_exact("report.docx> ")
    child.sendline(":redo")
    child.expect_exact("redone: Add a paragraph")
    child.expect_exact("report.docx*> ")
    child.sendline(":diff")
    child.expect_exact("added paragraph p44 at index 21 (Normal): 'First addition.'")
    child.expect_exact("report.docx*> ")
    child.send(UP + "\r")  # readline: the previous line again
    child.expect_exact(":diff")
    child.expect_exact("added paragraph p44")
    child.expect_exact("report.docx*> ")

    child.sendline("Add a paragraph 'Second addition.' at the end")
    child.expect_exact("call: insert_paragraph")  # executed; the validator now blocks
    child.expect_exact("'Second addition.'")
    child.sendintr()
    child.expect_exact("interrupted: the instruction was stopped and the document restored")
    child.expect_exact("report.docx*> ")
    child.sendline(":state")
    child.expect_exact("First addition.")
    child.expect_exact("report.docx*> ")
    assert "Second addition." not in child.before

    child.sendline(":quit")
    child.expect_exact("There are unsaved changes. Discard them and quit? [y/N] ")
    child.sendline("n")
    child.expect_exact("not quitting")
    child.sendline(":save")
    child.expect_exact(f"saved {out}")
    child.expect_exact("report.docx> ")
    review = out.with_name("review.docx")
    child.sendline(f":redline {review}")
    child.expect_exact(f"saved {review} (the edits as tracked changes by Legal)")  # --author
    child.expect_exact("report.docx> ")
    child.sendline(f":redline {src}")
    child.expect_exact("write the redline to a new .docx path")
    child.expect_exact("report.docx> ")
    child.sendline(":quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    import zipfile

    redline = zipfile.ZipFile(review).read("word/document.xml").decode("utf-8")
    assert 'w:author="Legal"' in redline and "<w:ins " in redline and "First addition." in redline
    texts = [p.text for p in docx.Document(out).paragraphs]
    assert texts[-1] == "First addition." and "Second addition." not in texts
    assert src.read_bytes() == (EXAMPLES / "report.docx").read_bytes()
    history = (home / "chat_history").read_text(encoding="utf-8")
    assert "Add a paragraph 'First addition.' at the end" in history and ":diff" in history


def test_bad_commands_and_nothing_to_undo_keep_the_session_going(chat):
    child, *_ = chat
    child.expect_exact("report.docx> ")
    child.sendline(":undo")
    child.expect_exact("error: nothing to undo")
    child.sendline(":frobnicate")
    child.expect_exact("error: unknown command :frobnicate")
    child.sendline(":state lots")
    child.expect_exact("error: :state takes a token budget")
    child.sendline(":show")
    child.expect_exact("error: nothing to show")
    child.sendline(":quit")  # nothing unsaved: no question
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_show_draws_the_pages_the_last_instruction_changed(chat):
    require_renderer()  # LibreOffice and poppler: skipped without them, a failure under CI
    child, src, out, home = chat
    child.expect_exact("report.docx> ")
    child.sendline("Add a paragraph 'First addition.' at the end")
    child.expect_exact("report.docx*> ")
    child.sendline(":show")
    child.expect_exact(f"wrote {out.with_name('out.show1.png')}: page(s) 2 before (left) and after (right)", timeout=180)
    child.expect_exact("report.docx*> ")
    assert out.with_name("out.show1.png").stat().st_size > 10_000
