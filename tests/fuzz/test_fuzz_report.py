"""The reliability report: made from the campaigns' results files through a small summary, kept up to date, and
every crash it lists names a regression test that exists."""

from __future__ import annotations

import json

from tests.fuzz import report


def _fuzz_file(inputs, crashes=None, counts=None):
    return {"target": "x", "engine": "random", "inputs": inputs, "next_seed": inputs, "seconds": 7200.0,
            "cpu_seconds": 3600.0, "cpu_inputs": inputs, "outcomes": {"refused": inputs}, "crashes": crashes or {}, "hangs": 0,
            "max_input_seconds": 3.0, "max_input_cpu_seconds": 1.5, "peak_mb": 300.0, "counts": counts or {},
            "runs": [{"commit": "abc1234", "inputs": inputs}], "command": "python -m tests.fuzz.campaign x"}


def test_the_summary_adds_up_shards_and_the_report_shows_each_figure_with_its_command(tmp_path):
    (tmp_path / "reader.json").write_text(json.dumps(_fuzz_file(60_000)))
    (tmp_path / "reader.shard1.json").write_text(json.dumps({**_fuzz_file(41_000),
                                                            "harness_errors": [{"seed": 7, "trace": "struct.error"}]}))
    crash = {"kind": "validation", "where": "insert_table", "count": 2, "seed": 5, "fixed": None, "detail": "",
             "trace": ""}
    counts = {"api:insert_table:edited": 60, "api:insert_table:refused": 9, "api:find_text:done": 3, "validated": 998}
    (tmp_path / "api.json").write_text(json.dumps(_fuzz_file(4_000, {"validation:insert_table:x": crash}, counts)))
    (tmp_path / "kills-bench.json").write_text(json.dumps({
        "trials": 103, "killed": 100, "failed": 0, "temporary_left": 0, "seconds": 3600,
        "command": "python -m tests.fuzz.kills bench --trials 100",
        "log": [{"config": "oracle-session", "killed": True, "problems": []}]}))
    summary = report.summarize(tmp_path)
    assert summary["fuzz:reader"]["inputs"] == 101_000 and summary["fuzz:reader"]["cpu_seconds"] == 7200
    assert summary["api"]["validated"] == 1000 and summary["api"]["added_errors"] == 2
    text = report.render(summary)
    for heading in ("## Where the issue's goals stand", "## Fuzzing", "## Every API", "## Crashes found and fixed",
                    "## Faults in the middle of work", "## Hostile documents", "## Known limits"):
        assert heading in text
    assert "| reader: fuzzed inputs (random and atheris engines) | 101,000 of 100,000 | met |" in text
    assert "| edits that added a validation error, not yet fixed | 1 (2 found, the rest fixed) | not yet |" in text
    assert "| kill -9 / resume trials of `autodw bench run` | 100 of 100, 0 failed | met |" in text
    assert "not yet run with the embedded model" in text and "`nice -n 19 python -m tests.fuzz.kills bench" in text
    assert "failed on itself (its own bug, not autodw's: the input was not tried" in text and "): reader 1." in text
    assert "find_text 3" in text  # under 50 real uses: a read-only API counts the calls it did


def test_the_committed_report_is_what_the_committed_summary_gives():
    summary = json.loads(report.SUMMARY.read_text(encoding="utf-8"))
    assert report.REPORT.read_text(encoding="utf-8") == report.render(summary), \
        "regenerate it: python -m tests.fuzz.report [DIR]"


def test_every_crash_found_names_a_regression_test_that_exists():
    findings = json.loads(report.FINDINGS.read_text(encoding="utf-8"))
    assert findings
    for f in findings:
        path, name = f["test"].split("::")
        source = (report.ROOT / path).read_text(encoding="utf-8")
        assert f"def {name}(" in source, f["test"]
