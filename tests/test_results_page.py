"""The results page (autodw bench report --manifest): its tables are the runs' summaries, an unfinished run is said
to be one, a manifest that misdescribes a run is refused, and the committed page is what its manifest's runs make."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from autodw.core.errors import ConfigError
from autodw.core.provenance import TUNED, label
from autodw.eval import results_page
from autodw.eval.rescore import rescore
from tests.conftest import run_cli
from tests.explore_runs import make_runs

ROOT = Path(__file__).resolve().parent.parent
TUNED_HAND_DEV = label("2.0", "hand", "dev") == TUNED


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """A folder with the two explorer runs (noisy oracle, oracle: hand dev, two instructions each), an unfinished
    copy of the oracle run (one instruction's files deleted, its summary written again) and a manifest of the
    three."""
    folder = tmp_path_factory.mktemp("results")
    noisy, oracle = make_runs(folder / "runs")
    (oracle / "commands.txt").write_text(
        f"2026-12-02T04:00:00 autodw bench run --system oracle --track hand --split dev --out {oracle}\n" * 2,
        encoding="utf-8")
    unfinished = folder / "runs" / "unfinished"
    shutil.copytree(oracle, unfinished)
    for path in (unfinished / "instructions").glob("dwh-001--2.*"):
        path.unlink()
    rescore(unfinished)
    entry = {"track": "hand", "split": "dev", "tuned_on": TUNED_HAND_DEV, "commits": ["b60cb28"], "kept": "records"}
    manifest = {"runs": [
        {"folder": "runs/noisy", "label": "noisy oracle, hand dev", "kind": "noisy oracle", **entry},
        {"folder": "runs/oracle", "label": "oracle, hand dev", "kind": "oracle", **entry, "kept": "summary"},
        {"folder": "runs/unfinished", "label": "oracle cut short", "kind": "oracle", **entry, "note": "a test run"},
    ]}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def _rows(text: str, title: str) -> dict[str, dict[str, str]]:
    """The rows of the page's table `title`, by run, as {column: cell}."""
    lines = text.split(f"## {title}\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
    return {row[0]: dict(zip(header, row)) for row in rows}


def _summary(folder: Path) -> dict:
    return json.loads((folder / "summary.json").read_text(encoding="utf-8"))


def test_the_tables_are_the_runs_summaries(runs):
    text = results_page.build(runs / "manifest.json").text
    accuracy, cost = _rows(text, "Accuracy"), _rows(text, "Cost")
    validator = _rows(text, "The validator on injected faults")
    for name, run in (("noisy", "noisy oracle, hand dev"), ("oracle", "oracle, hand dev"), ("unfinished", "oracle cut short")):
        s = _summary(runs / "runs" / name)
        row = accuracy[run]
        assert row["iACC %"] == f"{100 * s['iacc']:.1f}"
        assert row["partial credit %"] == f"{100 * s['partial_credit']:.1f}"
        assert row["sACC %"] == ("-" if s["sacc"] is None else f"{100 * s['sacc']:.1f}")
        assert row["instructions"] == f"{s['instructions']}/{s['instructions_in_split']}"
        assert cost[run]["API calls / instr."] == f"{s['api_calls_per_instruction']:,.2f}"
        assert cost[run]["LLM calls / instr."] == f"{s['llm_calls_per_instruction']:,.2f}"
        assert cost[run]["s / instr. (median)"] == f"{s['median_seconds_per_instruction']:,.1f}"
        assert cost[run]["system time (s)"] == f"{s['seconds']:,.0f}"
    noisy = _summary(runs / "runs" / "noisy")
    assert accuracy["noisy oracle, hand dev"]["iACC %"] == "50.0"  # the noisy oracle fails one of the two (seed 0)
    assert list(validator) == ["noisy oracle, hand dev"]  # only the run that injected faults
    faults = noisy["faults"]
    assert validator["noisy oracle, hand dev"]["faults caught"] == f"{faults['caught']}/{faults['judged_faults']}"


def test_an_unfinished_run_is_said_to_be_one(runs):
    text = results_page.build(runs / "manifest.json").text
    assert _summary(runs / "runs" / "unfinished")["complete"] is False
    assert _rows(text, "Accuracy")["oracle cut short"]["status"] == "unfinished: 1 of 2 instructions"
    assert _rows(text, "Accuracy")["oracle, hand dev"]["status"] == "complete"
    assert "Unfinished runs, their figures over the records so far: oracle cut short (1 of 2 instructions).\n" in text


def test_each_run_has_its_command_commits_and_versions_as_metadata(runs):
    page = results_page.build(runs / "manifest.json").text
    meta = _rows(page, "Runs")["oracle, hand dev"]
    assert meta["what"] == "oracle" and meta["system"] == "oracle" and meta["LLM"] == "none"
    assert meta["commits"] == "b60cb28" and meta["data version"] == "2.0"
    assert meta["judge version"] == str(_summary(runs / "runs" / "oracle")["judge_version"])
    assert meta["kept"] == results_page.KEPT["summary"]
    listed = {line.split("**")[1]: line for line in page.split("## Commands\n\n")[1].splitlines()}
    # the command once (the run was resumed), without its time, and with --out DIR
    assert listed["oracle, hand dev"].endswith(": `autodw bench run --system oracle --track hand --split dev --out DIR`")
    assert listed["noisy oracle, hand dev"].endswith(": no command kept")  # no commands.txt: none is made up
    assert listed["oracle cut short"].endswith(". a test run")
    front = page.split("---\n")[1]
    assert "generated_by: autodw bench report --manifest " in front and "data_version: '2.0'" in front


def _manifest(runs: Path, tmp_path: Path, **changes) -> Path:
    data = json.loads((runs / "manifest.json").read_text(encoding="utf-8"))
    data["runs"][0].update(changes)
    shutil.copytree(runs / "runs", tmp_path / "runs")
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_manifest_that_misdescribes_a_run_is_refused(runs, tmp_path):
    with pytest.raises(ConfigError, match="ran on hand/dev"):
        results_page.build(_manifest(runs, tmp_path / "a", split="test"))
    with pytest.raises(ConfigError, match="provenance.json says"):
        results_page.build(_manifest(runs, tmp_path / "b", tuned_on=not TUNED_HAND_DEV))
    with pytest.raises(ConfigError, match="malformed at runs/0/kind"):
        results_page.build(_manifest(runs, tmp_path / "c", kind="hosted model"))
    with pytest.raises(ConfigError, match="names the label oracle, hand dev twice"):
        results_page.build(_manifest(runs, tmp_path / "d", label="oracle, hand dev"))
    older = _manifest(runs, tmp_path / "e")
    summary = tmp_path / "e" / "runs" / "noisy" / "summary.json"
    summary.write_text(json.dumps({**json.loads(summary.read_text()), "data_version": "1.1"}), encoding="utf-8")
    with pytest.raises(ConfigError, match="made on DWBench 1.1 data: the results page cites runs on 2.0 only"):
        results_page.build(older)


def test_a_page_is_stale_when_a_run_changes(runs, tmp_path):
    manifest = _manifest(runs, tmp_path)
    page = results_page.write(manifest)
    assert page == tmp_path / "index.md" and results_page.stale(manifest, page) == []
    for name in results_page.PLOTS:
        assert (tmp_path / name).read_bytes()[:4] == b"\x89PNG" and (tmp_path / name).stat().st_size > 5000
    assert run_cli("bench", "report", "--manifest", str(manifest), "--check").returncode == 0
    # the oracle run gets a record fewer: its summary, hence its row, changes
    oracle = tmp_path / "runs" / "oracle"
    for path in (oracle / "instructions").glob("dwh-002--1.*"):
        path.unlink()
    rescore(oracle)
    problems = results_page.stale(manifest, page)
    assert len(problems) == 1 and "differs from what its manifest's runs make" in problems[0]
    result = run_cli("bench", "report", "--manifest", str(manifest), "--check")
    assert result.returncode == 1 and "autodw bench report --manifest" in result.stderr
    (tmp_path / "difficulty.png").unlink()
    assert any("difficulty.png does not exist" in p for p in results_page.stale(manifest, page))


def test_report_takes_run_folders_or_a_manifest(runs):
    assert run_cli("bench", "report").returncode != 0
    result = run_cli("bench", "report", str(runs / "runs" / "oracle"), "--manifest", str(runs / "manifest.json"))
    assert result.returncode != 0 and "leave out run folders" in result.stderr
    result = run_cli("bench", "report", str(runs / "runs" / "oracle"), "--check")
    assert result.returncode != 0 and "give it with --manifest" in result.stderr


def test_the_committed_results_page_is_current():
    """docs/results/index.md is what `autodw bench report --manifest docs/results/manifest.json` makes of the kept
    runs now: a run kept again, or a manifest edited, without making the page again fails here."""
    manifest = ROOT / "docs" / "results" / "manifest.json"
    problems = results_page.stale(manifest, ROOT / "docs" / "results" / "index.md")
    assert problems == [], "\n".join(problems) + "\nrun: autodw bench report --manifest docs/results/manifest.json"
