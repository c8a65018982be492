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
    an LLM cache is kept gzipped."""
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
    done = _run(["sh", str(script), str(tmp_path / "work")])
    assert done.returncode == 2 and "is not a run folder" in done.stderr


def test_the_model_bound_time_of_the_harness_overhead_is_the_pool_of_a_harness_that_costs_nothing():
    model_bound = _script("measure_harness_overhead").model_bound
    assert model_bound([1] * 64, 32, 1.0) == 2.0  # two rounds of 32 one-call units
    assert model_bound([3, 1, 1, 1], 2, 0.5) == 1.5  # the long unit holds one slot; the others share the second
    assert model_bound([1, 1, 4], 2, 1.0) == 5.0  # handed out in order: the long one starts when a slot frees
