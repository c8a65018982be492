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


def _state_of(path) -> dict:
    out = run("state", str(path), "--format", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_ids_call_prints_are_those_of_the_saved_file_so_calls_chain(tmp_path):
    """`autodw call` printed the new paragraph's id in the edited document's numbering (the next free number,
    p48 here) while reading the output numbers afresh in document order, where p48 was a header paragraph: a
    next call with the printed id edited that. Now every id printed is the output's."""
    source = corpus_file("pandoc__0_level_headers.docx")  # body p1-p26, then header and footer paragraphs
    first, second = tmp_path / "first.docx", tmp_path / "second.docx"
    out = run("call", str(source), "insert_paragraph", "--args",
              '{"text": "Scope of this guide.", "position": {"after": "p25"}}', "-o", str(first))
    assert out.returncode == 0, out.stderr
    (new,) = {line.split()[-1] for line in out.stdout.splitlines() if line.startswith("inserted paragraph")}
    assert new == "p26" and f"added paragraph {new} at index 15" in out.stdout
    out = run("call", str(first), "insert_text", "--args", json.dumps({"paragraph": new, "text": " Read it first."}),
              "-o", str(second))
    assert out.returncode == 0, out.stderr
    texts = {p["id"]: p["text"] for p in _state_of(second)["paragraphs"]}
    assert texts[new] == "Scope of this guide. Read it first." and texts["p27"] == "Nothing to introduce, yet."


def test_a_call_that_deletes_says_which_printed_ids_the_output_no_longer_has(tmp_path):
    out_path = tmp_path / "out.docx"
    out = run("call", str(EXAMPLES / "report.docx"), "delete_block", "--args", '{"block": "p3"}', "-o", str(out_path))
    assert out.returncode == 0, out.stderr
    assert f"note: p3 above named element(s) of the input that {out_path} no longer has" in out.stdout


def test_an_address_in_a_calls_message_names_no_element(tmp_path):
    """insert_hyperlink's message gives its url unquoted: "t1826" of "...-t1826.html" was read as a table id the
    output no longer has (a note said so), and would have been renumbered inside the url."""
    out_path = tmp_path / "out.docx"
    url = "https://www.example.de/p2/news-t1826.html"
    out = run("call", str(EXAMPLES / "report.docx"), "insert_hyperlink", "--args",
              json.dumps({"paragraph": "p2", "text": "news", "url": url}), "-o", str(out_path))
    assert out.returncode == 0, out.stderr
    assert f"in p2 -> {url}" in out.stdout and "note:" not in out.stdout


def test_ids_in_a_message_are_whole_tokens_outside_quotes_and_addresses():
    from autodw.core.ids import ids_in_text, rename_ids_in_text

    text = ("inserted hyperlink 'p1' in p5 -> https://example.org/a-t1826.html; url -> mailto:t5@x.de; "
            "moved p3 after t1. (see report-t12.docx, a/p9, #t7)")
    assert ids_in_text(text) == ["p5", "p3", "t1"]
    assert rename_ids_in_text(text, {"p1": "p2", "p5": "p6", "t1826": "t1", "t5": "t0", "t1": "t2", "t12": "t3",
                                     "p9": "p8", "t7": "t6"}) == text.replace("p5", "p6").replace("after t1", "after t2")


def test_when_reading_the_output_numbers_otherwise_call_says_its_ids_are_not_the_outputs(tmp_path, monkeypatch):
    from autodw.core.document import WordDocument

    monkeypatch.setattr(WordDocument, "saved_ids", lambda self: {"p1": "p1"})  # not what a fresh read gives
    out_path = tmp_path / "out.docx"
    out = run("call", str(EXAMPLES / "report.docx"), "insert_paragraph", "--args",
              '{"text": "x", "position": "end"}', "-o", str(out_path))
    assert out.returncode == 0, out.stderr
    assert f"note: the ids above are this call's, not {out_path}'s" in out.stdout


def test_state_and_call_take_the_sources_bench_author_takes(tmp_path, monkeypatch):
    """`autodw state corpus:NAME.docx` said "no such file" though a session's source may be written so."""
    corpus_file("oxpt__Hebrew-01.docx")
    state = _state_of("corpus:oxpt__Hebrew-01.docx")
    assert state["document_info"]["paragraph_count"] == 75
    assert _state_of("docs/report-en-3.docx")["paragraphs"][0]["text"].startswith("Maple Street Library")
    out = run("call", "corpus:oxpt__Hebrew-01.docx", "insert_paragraph", "--args", '{"text": "x", "position": "end"}',
              "-o", str(tmp_path / "out.docx"))
    assert out.returncode == 0 and (tmp_path / "out.docx").exists(), out.stderr
    missing = run("state", "corpus:no-such-file.docx")
    assert missing.returncode == 2 and "corpus:no-such-file.docx: no such file (looked at " in missing.stderr
    monkeypatch.setenv("AUTODW_CORPUS", str(tmp_path / "elsewhere"))
    gone = run("state", "corpus:oxpt__Hebrew-01.docx")
    assert gone.returncode == 2 and "the shared corpus is not at" in gone.stderr and "AUTODW_CORPUS" in gone.stderr


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


def test_a_read_only_call_prints_its_data_as_json_alone_on_stdout(tmp_path):
    """`autodw call FILE find_text ...` printed its JSON result and then its message on stdout, so a script piping
    it to a JSON reader failed with "Extra data". The message now goes to stderr."""
    out = run("call", str(EXAMPLES / "report.docx"), "find_text", "--args", '{"query": "the"}',
              "-o", str(tmp_path / "unused.docx"))
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert found and out.stderr.strip()
    assert not (tmp_path / "unused.docx").exists()
