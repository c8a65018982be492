"""The maintenance scripts kept in scripts/ (benchmarks are `autodw bench perf ...`): each does what its docstring
says, and none puts a folder on sys.path (they import the installed autodw)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from autodw.interfaces.cli import build_parser
from tests.conftest import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"


def _script(name: str):
    """A script of scripts/ imported as a module (its ``__main__`` block does not run)."""
    spec = importlib.util.spec_from_file_location(f"script_{name}", SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    """A script run as a user runs it, with this checkout's autodw importable."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **kwargs.pop("env", {})}
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, **kwargs)


def test_no_script_changes_sys_path():
    assert sorted(p.name for p in SCRIPTS.glob("*.py") if re.search(r"sys\.path\.(insert|append)", p.read_text())) == []


def test_make_examples_rebuilds_the_sample_documents(tmp_path):
    """The same parts, byte for byte, but the comment's date (the time it was made)."""
    written = _script("make_examples").write_examples(tmp_path)
    assert sorted(p.relative_to(tmp_path) for p in written) == sorted(p.relative_to(EXAMPLES) for p in EXAMPLES.rglob("*.*"))
    for path in written:
        kept = EXAMPLES / path.relative_to(tmp_path)
        if path.suffix != ".docx":
            assert path.read_bytes() == kept.read_bytes(), path.name
            continue
        new, old = zipfile.ZipFile(path), zipfile.ZipFile(kept)
        assert new.namelist() == old.namelist(), path.name
        for name in new.namelist():
            a, b = new.read(name), old.read(name)
            if name == "word/comments.xml":
                a, b = (re.sub(rb' w:date="[^"]*"', b"", x) for x in (a, b))
            assert a == b, f"{path.name} {name}"


def test_make_intent_data_rebuilds_the_committed_data(tmp_path):
    from autodw.intents.datagen import DATA_FILE

    out = tmp_path / "intents.jsonl"
    done = _run([sys.executable, str(SCRIPTS / "make_intent_data.py"), "--out", str(out)])
    assert done.returncode == 0, done.stderr
    assert f"to {out}" in done.stdout and out.read_bytes() == DATA_FILE.read_bytes()


def test_derive_word_lists_reports_the_rejected_gold_calls_of_a_split():
    done = _run([sys.executable, str(SCRIPTS / "derive_word_lists.py"), "--split", "dev-mini", "--track", "templated",
                 "--counts-only", "--format", "json"])
    assert done.returncode == 0, done.stderr
    (report,) = json.loads(done.stdout)
    assert (report["track"], report["split"], report["instructions"]) == ("templated", "dev-mini", 25)
    assert report["gold_calls_judged"] == report["gold_steps"] > 25
    assert report["false_rejections"] == sum(report["rejections_by_word_list"].values()), report


def test_derive_word_lists_refuses_a_folder_without_word_lists(tmp_path):
    done = _run([sys.executable, str(SCRIPTS / "derive_word_lists.py"), "--split", "dev-mini", "--word-lists", str(tmp_path)])
    assert done.returncode != 0 and f"{tmp_path} has no api_words.json or value_words.json" in done.stderr


def test_phrasing_pairs_picks_pairs_of_one_language_and_compares_two_runs(tmp_path):
    from autodw.dwbench.records import load_instructions

    pairs_module = _script("phrasing_pairs")
    pairs = pairs_module.pick(4, 51)
    hand = {i.key: i for i in load_instructions("dev", "hand")}
    templated = {i.key: i for i in load_instructions("dev", "templated")}
    assert [hand[h].language for h, _ in pairs] == ["en", "en", "zh", "zh"]
    assert all(hand[h].language == templated[t].language for h, t in pairs)
    assert pairs == pairs_module.pick(4, 51)  # a fixed draw: `pick` and `compare` pair the same records
    for folder, outcomes in (("hand", (True, True, False, True)), ("templated", (False, True, False))):
        (tmp_path / folder / "instructions").mkdir(parents=True)
        for (h, t), ok in zip(pairs, outcomes):  # the templated run has not finished its fourth instruction
            key = h if folder == "hand" else t
            record = {"success": ok, "partial_credit": 1.0 if ok else 0.5}
            (tmp_path / folder / "instructions" / f"{key.replace('#', '--')}.json").write_text(json.dumps(record))
    result = pairs_module.compare(tmp_path / "hand", tmp_path / "templated", pairs)
    assert result["pairs"] == 3 and (result["only_hand"], result["only_templated"]) == (1, 0)
    assert result["iacc_hand"] == pytest.approx(2 / 3) and result["partial_templated"] == pytest.approx(2 / 3)


def test_bench_runs_gives_autodw_commands_it_accepts(tmp_path):
    """Every group of scripts/bench_runs.sh, with a stand-in `autodw` that records its arguments: each command is one
    the CLI parses (a renamed option or subcommand fails here, not hours into a run)."""
    log, bin_dir = tmp_path / "calls.jsonl", tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "autodw"
    fake.write_text(f"#!{sys.executable}\nimport json, sys\n"
                    f"open({str(log)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n")
    fake.chmod(0o755)
    done = _run(["sh", str(SCRIPTS / "bench_runs.sh"), str(tmp_path / "runs")],
                env={"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    assert done.returncode == 0, done.stderr
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    parser = build_parser()
    for argv in calls:
        parser.parse_args(argv)  # exits (SystemExit) on a command the CLI does not accept
    commands = {tuple(argv[:2]) for argv in calls}
    assert commands == {("bench", "run"), ("bench", "sweep"), ("bench", "perf")}
    assert len(calls) == 28 and ["bench", "perf", "local-agent"] == calls[-1][:3]


def test_bench_runs_refuses_an_unknown_group(tmp_path):
    done = _run(["sh", str(SCRIPTS / "bench_runs.sh"), str(tmp_path), "nosuchgroup"])
    assert done.returncode == 2 and "unknown group nosuchgroup" in done.stderr


def test_keep_run_records_copies_records_and_outputs_not_traces(tmp_path):
    """Into docs/runs beside the script: the JSON records, commands.txt and (unless --no-outputs) the .docx files;
    with --summary run.json, summary.json and commands.txt alone; an LLM cache is kept gzipped."""
    (tmp_path / "scripts").mkdir()
    script = tmp_path / "scripts" / "keep_run_records.sh"
    script.write_bytes((SCRIPTS / "keep_run_records.sh").read_bytes())
    (tmp_path / "docs" / "runs").mkdir(parents=True)
    run = tmp_path / "work" / "my-run"
    for name, text in (("run.json", "{}"), ("summary.json", "{}"), ("commands.txt", "autodw bench run"),
                       ("instructions/dwb-001--1.json", "{}"), ("outputs/dwb-001--1.docx", "docx"),
                       ("traces/dwb-001--1.jsonl", "trace")):
        (run / name).parent.mkdir(parents=True, exist_ok=True)
        (run / name).write_text(text)
    cache = tmp_path / "work" / "cache.jsonl"
    cache.write_text('{"a": 1}\n{"b": 2}\n')

    done = _run(["sh", str(script), str(run), str(cache)])
    assert done.returncode == 0, done.stderr
    kept = tmp_path / "docs" / "runs"
    copied = sorted(str(p.relative_to(kept / "my-run")) for p in (kept / "my-run").rglob("*") if p.is_file())
    assert copied == ["commands.txt", "instructions/dwb-001--1.json", "outputs/dwb-001--1.docx", "run.json", "summary.json"]
    assert (kept / "cache.jsonl.gz").is_file() and "(2 answers)" in done.stdout

    other = run.rename(run.with_name("other-run"))
    done = _run(["sh", str(script), "--no-outputs", str(other)])
    assert done.returncode == 0, done.stderr
    assert (kept / "other-run" / "run.json").is_file() and not (kept / "other-run" / "outputs").exists()
    summary_only = other.rename(run.with_name("summary-run"))
    done = _run(["sh", str(script), "--summary", str(summary_only)])
    assert done.returncode == 0, done.stderr
    copied = sorted(str(p.relative_to(kept / "summary-run")) for p in (kept / "summary-run").rglob("*") if p.is_file())
    assert copied == ["commands.txt", "run.json", "summary.json"]  # no record below instructions/ either
    done = _run(["sh", str(script), str(tmp_path / "work")])
    assert done.returncode == 2 and "is not a run folder" in done.stderr


def test_the_model_bound_time_of_the_harness_overhead_is_the_pool_of_a_harness_that_costs_nothing():
    model_bound = _script("measure_harness_overhead").model_bound
    assert model_bound([1] * 64, 32, 1.0) == 2.0  # two rounds of 32 one-call units
    assert model_bound([3, 1, 1, 1], 2, 0.5) == 1.5  # the long unit holds one slot; the others share the second
    assert model_bound([1, 1, 4], 2, 1.0) == 5.0  # handed out in order: the long one starts when a slot frees


_FAKE_LLAMA_SERVER = """
import http.server, os, sys
port = int(sys.argv[sys.argv.index("--port") + 1])
open(os.environ["FAKE_SERVER_PID"], "w").write(str(os.getpid()))
class Models(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b'{"data": []}')
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", port), Models).serve_forever()
"""

_FAKE_BENCH = """
import json, os, sys
argv = sys.argv[1:]
open(os.environ["FAKE_CALLS"], "a").write(json.dumps([argv, os.environ.get("AUTODW_RESPONSE_FORMAT")]) + "\\n")
out = argv[argv.index("--out") + 1]
report = "not the paper's data\\n## Table 2\\n## Table 3\\n## Fig. 3\\n## Cost\\n" if "--yes" in argv else ""
open(os.path.join(out, "report.md"), "w").write(report)
"""


def _llama_stand_in(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A PYTHON for scripts/paper_against_llama_server.sh: `-m llama_cpp.server` is a server that answers /v1/models,
    `-m autodw.interfaces.cli` records its arguments and writes a report; anything else is this interpreter."""
    (tmp_path / "server.py").write_text(_FAKE_LLAMA_SERVER)
    (tmp_path / "bench.py").write_text(_FAKE_BENCH)
    python = tmp_path / "python"
    python.write_text(f"""#!/bin/sh
case "$1 $2" in
    "-m llama_cpp.server") shift 2; exec {sys.executable} {tmp_path / 'server.py'} "$@" ;;
    "-m autodw.interfaces.cli") shift 2; exec {sys.executable} {tmp_path / 'bench.py'} "$@" ;;
    "-c import llama_cpp.server.app") exit 0 ;;
    "-c from autodw.llm.local_model import resolve_model; print(resolve_model()[1])") echo {tmp_path / 'm.gguf'} ;;
    *) exec {sys.executable} "$@" ;;
esac
""")
    python.chmod(0o755)
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return python, {"PYTHON": str(python), "AUTODW_LLAMA_PORT": str(port), "FAKE_CALLS": str(tmp_path / "calls.jsonl"),
                    "FAKE_SERVER_PID": str(tmp_path / "server.pid")}


def test_paper_against_llama_server_starts_the_server_runs_the_paper_and_stops_it(tmp_path):
    """The whole sequence: the server started on the port, the run given its URL (JSON mode with the schema as a
    grammar, the CLI accepting every argument), the report checked, the server stopped at the end."""
    _, env = _llama_stand_in(tmp_path)
    done = _run(["sh", str(SCRIPTS / "paper_against_llama_server.sh"), str(tmp_path / "out")], env=env)
    assert done.returncode == 0, done.stderr
    assert "the server answers" in done.stdout and done.stdout.rstrip().endswith(f"done: {tmp_path / 'out'}/report.md")
    [(argv, response_format)] = [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text().splitlines()]
    build_parser().parse_args(argv)
    assert argv[argv.index("--base-url") + 1] == f"http://127.0.0.1:{env['AUTODW_LLAMA_PORT']}/v1"
    assert response_format == "json_object_schema" and "--yes" in argv
    pid = int((tmp_path / "server.pid").read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_paper_against_llama_server_refuses_a_port_another_server_answers_on(tmp_path):
    python, env = _llama_stand_in(tmp_path)
    other = subprocess.Popen([str(python), "-m", "llama_cpp.server", "--port", env["AUTODW_LLAMA_PORT"]],
                             env={**os.environ, **env})
    try:
        for _ in range(100):  # until it answers
            if _run([sys.executable, "-c", "import sys, urllib.request; urllib.request.urlopen(sys.argv[1])",
                     f"http://127.0.0.1:{env['AUTODW_LLAMA_PORT']}/v1/models"]).returncode == 0:
                break
        done = _run(["sh", str(SCRIPTS / "paper_against_llama_server.sh"), str(tmp_path / "out")], env=env)
        assert done.returncode == 2 and "already answers" in done.stderr
        assert not (tmp_path / "calls.jsonl").exists()
    finally:
        other.terminate()
        other.wait()


def test_split_accuracy_counts_dev_and_refuses_a_held_out_split():
    refused = _run([sys.executable, "scripts/split_accuracy.py", "--split", "test"])
    assert refused.returncode == 2 and "held out" in refused.stderr and not refused.stdout
    done = _run([sys.executable, "scripts/split_accuracy.py", "--track", "hand", "--format", "json"])
    assert done.returncode == 0, done.stderr
    [hand] = json.loads(done.stdout)
    assert (hand["track"], hand["split"], hand["label"]) == ("hand", "dev", "tuned on")
    assert hand["right"] + hand["over"] + hand["under"] == hand["turns"] > 0


@pytest.mark.parametrize("split", ["test", "mini"])
def test_grounding_recall_refuses_the_held_out_splits(split):
    refused = _run([sys.executable, "scripts/grounding_recall.py", "--split", split, "--track", "hand"])
    assert refused.returncode == 2 and "held out" in refused.stderr and not refused.stdout  # before any data is read


def test_pointing_recall_refuses_a_test_document_and_names_targets_in_the_second_half():
    spec = importlib.util.spec_from_file_location("pointing_recall", SCRIPTS / "pointing_recall.py")
    recall = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = recall  # its dataclasses look their module up
    spec.loader.exec_module(recall)
    splits = json.loads((ROOT / "dwbench/data/document_splits.json").read_text())
    with pytest.raises(SystemExit, match="test document"):
        next(recall.documents(splits["test"]["generated"][0]))
    paras = [{"id": f"p{n}", "index": n - 1, "text": f"Plain words of line {n} here.", "style": "Normal"}
             for n in range(1, 81)]
    paras[59] = {**paras[59], "text": "Spending Plan", "style": "Heading 1"}
    state = {"paragraphs": paras, "tables": []}
    made = recall.requests_of("x.docx", state)
    assert {r.kind for r in made} >= {"section first", "final paragraph"}
    assert all(int(r.target[1:]) > 40 for r in made)


def test_gold_created_ids_prints_each_gold_calls_created_and_removed_ids(monkeypatch, capsys):
    """On hand dev-mini: one line per gold call, in order, naming the ids it creates (an insertion's new paragraph)."""
    from autodw.dwbench.records import load_split

    script = _script("gold_created_ids")
    monkeypatch.setattr(script, "TRACKS", ("hand",))
    monkeypatch.setattr(script, "SPLITS", ("dev-mini", "no-such-split"))
    script.main()
    lines = capsys.readouterr().out.splitlines()
    sessions = load_split("dev-mini", "hand")
    assert len(lines) == sum(len(i.gold) for s in sessions for i in s.instructions)
    first = sessions[0]
    assert lines[0].startswith(f"hand dev-mini {first.session_id} 1 0 {first.instructions[0].gold[0].api} [")
    assert not [line for line in lines if "FAILS" in line]
    assert any(" insert_paragraph ['p" in line for line in lines)
