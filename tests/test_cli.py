"""The command line: output formats, bad input (exit 2, one error line, no traceback), no ML imports."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import EXAMPLES, corpus_file, run_cli as run


def test_state_json_and_text():
    out = run("state", str(EXAMPLES / "report.docx"), "--format", "json")
    assert out.returncode == 0, out.stderr
    state = json.loads(out.stdout)
    assert state["document_info"]["table_count"] == 1
    text = run("state", str(EXAMPLES / "report.docx"))
    assert text.returncode == 0 and text.stdout.startswith("DOCUMENT:")


def test_diff_between_two_files():
    out = run("diff", str(corpus_file("oxpt__WC002-Unmodified.docx")), str(corpus_file("oxpt__WC002-InsertAtBeginning.docx")),
              "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["changes"]["content"]["text_edits"][0]["opcodes"][0][0] == "insert"
    assert "inserted 'Yes, '" in data["summary"]


def test_bad_input_gives_one_error_line_and_status_2(tmp_path):
    bad = tmp_path / "notes.docx"
    bad.write_text("just text")
    for args in (("state", str(bad)), ("diff", str(bad), str(bad)), ("state", str(tmp_path / "missing.docx")),
                 ("state", str(corpus_file("poi__protected_agile.docx")))):
        out = run(*args)
        assert out.returncode == 2, out
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
        assert "Traceback" not in out.stderr


def test_model_free_commands_do_not_import_torch():
    code = ("import sys, autodw.cli; autodw.cli.main(['state', sys.argv[1]]); "
            "bad = [m for m in ('torch', 'transformers', 'datasets') if m in sys.modules]; "
            "sys.exit(f'imported {bad}' if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code, str(EXAMPLES / "report.docx")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
