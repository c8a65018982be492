"""Run folders for the explorer's tests: two small runs on hand dev instructions with generated documents (a page or
three each, so that drawing them is quick), and a damaged copy of one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from autodw.eval.runner import Runner, RunSpec
from autodw.eval.systems import OracleSystem

KEYS = ["dwh-002#1", "dwh-001#2"]  # hand dev, generated (small) documents; the noisy oracle fails the first (seed 0)


def make_runs(folder: Path) -> tuple[Path, Path]:
    """Run A: the noisy oracle (rules validator) on KEYS, with traces; run B: the oracle on the same."""
    from autodw.agent.assembly import profile_assembly
    from autodw.eval.systems import NoisyOracleSystem

    config = profile_assembly("hosted").override(rollback="full")
    noisy = RunSpec("noisy-oracle", "none", "dev", ["instruction"], {"p": 0.5, "validator": "rules", "seed": 0},
                    instructions=KEYS, track="hand")
    Runner(noisy, folder / "noisy", lambda: NoisyOracleSystem(0.5, "rules", None, config, seed=0), word_check=False,
           progress=False).run()
    oracle = RunSpec("oracle", "none", "dev", ["instruction"], {}, instructions=KEYS, track="hand")
    Runner(oracle, folder / "oracle", OracleSystem, word_check=False, progress=False).run()
    return folder / "noisy", folder / "oracle"


def damaged_copy(run: Path, target: Path) -> Path:
    """`run` copied with a damaged record, an output gone, a trace cut short, no summary, and planted markup in a
    record: a `<script>` in the instruction and an `onerror` attribute in a difference."""
    shutil.copytree(run, target)
    ins = target / "instructions"
    (ins / "dwh-001--2.json").write_text('{"key": broken', encoding="utf-8")
    record = json.loads((ins / "dwh-002--1.json").read_text(encoding="utf-8"))
    record["instruction"] = '<script>window.__planted = 1</script> Reject <img src=x onerror="window.__planted = 2">'
    record["differences"][0]["what"] = '<img src=x onerror="window.__planted = 3">'
    (ins / "dwh-002--1.json").write_text(json.dumps(record), encoding="utf-8")
    (ins / "dwh-002--1.docx").unlink()
    trace = ins / "dwh-002--1.trace.jsonl"
    trace.write_text(trace.read_text(encoding="utf-8")[:400], encoding="utf-8")
    (target / "summary.json").unlink()
    return target
