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


def test_state_numbers_a_saved_files_ids_afresh_as_its_help_says_unlike_a_replays_live_ids(tmp_path):
    """After a deletion `autodw state` of a saved file has no gap in its ids (p2 again), while the live ids (the ones
    `bench author --state N` shows, and a file saved keeping them) stay as they were: both help texts say so."""
    from autodw.apis import execute
    from autodw.core.document import WordDocument

    doc = WordDocument.open(EXAMPLES / "report.docx")
    second = run("state", str(EXAMPLES / "report.docx"), "--format", "json")
    execute(doc, "delete_block", {"block": "p2"})
    saved, kept = tmp_path / "saved.docx", tmp_path / "kept.docx"
    doc.save(saved)
    kept.write_bytes(doc.to_bytes(keep_ids=True))
    ids = {f: [p["id"] for p in json.loads(run("state", str(f), "--format", "json").stdout)["paragraphs"][:3]]
           for f in (saved, kept)}
    assert ids == {saved: ["p1", "p2", "p3"], kept: ["p1", "p3", "p4"]}
    assert json.loads(second.stdout)["paragraphs"][2]["text"] == json.loads(run("state", str(saved), "--format", "json")
                                                                            .stdout)["paragraphs"][1]["text"]
    state_help = " ".join(run("state", "-h").stdout.split())
    author_help = " ".join(run("bench", "author", "-h").stdout.split())
    assert "numbered afresh" in state_help and "live ids" in state_help and "bench author --save" in state_help
    assert "live ids" in author_help and "stable across deletions" in author_help and "afresh" in author_help


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
    code = ("import sys, autodw.interfaces.cli; autodw.interfaces.cli.main(['state', sys.argv[1]]); "
            "bad = [m for m in ('torch', 'transformers', 'datasets') if m in sys.modules]; "
            "sys.exit(f'imported {bad}' if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code, str(EXAMPLES / "report.docx")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_train_intents_refuses_a_bad_output_or_seed_before_training(tmp_path):
    (tmp_path / "file").write_text("x")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("keep")
    for args, message in ((["--out", str(tmp_path / "file")], "is a file"),
                          (["--out", str(tmp_path / "file" / "model")], "a file stands where a folder"),
                          (["--out", str(tmp_path / "notes")], "no intent model; refusing"),
                          (["--out", str(tmp_path / "m"), "--seed", "-1"], "--seed must be between")):
        result = run("train-intents", *args)
        assert result.returncode == 2 and message in result.stderr, result.stderr
    assert (tmp_path / "notes" / "a.txt").read_text() == "keep" and not (tmp_path / "m").exists()
    undecodable = run("intents", "bold \udcff text", "--model", str(tmp_path / "m"))
    assert undecodable.returncode == 2 and "not valid UTF-8" in undecodable.stderr


def test_a_replaced_folder_is_swapped_in_whole_with_the_usual_permissions(tmp_path):
    import os
    import stat

    from autodw.core.paths import replacing_folder

    out = tmp_path / "model"
    out.mkdir()
    (out / "old.txt").write_text("old")
    try:
        with replacing_folder(out) as tmp:
            (tmp / "new.txt").write_text("half")
            raise RuntimeError("the writer failed")
    except RuntimeError:
        pass
    assert [p.name for p in out.iterdir()] == ["old.txt"]  # a failed write leaves the old folder
    with replacing_folder(out) as tmp:
        (tmp / "new.txt").write_text("new")
    assert [p.name for p in out.iterdir()] == ["new.txt"] and [p.name for p in tmp_path.iterdir()] == ["model"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o777 & ~umask  # not mkdtemp's private 0700
