"""Faults in the middle of work: a full disk, a folder that takes no file, kill -9 of `autodw run` and of
`autodw bench run` (a few trials; `python -m tests.fuzz.kills` runs the campaigns)."""

from __future__ import annotations

import random

import pytest

from tests.conftest import EXAMPLES, run_cli
from tests.fuzz.faults import disk_full_after, folder_refuses_files
from tests.fuzz.kills import BenchTrials, RunTrials, differences, records
from tests.fuzz.seams import WordDocument

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


def test_a_full_disk_while_saving_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    from autodw.core.errors import OutputPathError

    target = tmp_path / "out.docx"
    target.write_bytes(b"the previous version")
    doc = WordDocument.open(EXAMPLES / "report.docx")
    with disk_full_after(0), pytest.raises(OutputPathError, match="No space left on device"):
        doc.save(target)
    assert target.read_bytes() == b"the previous version"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.docx"]


def test_an_output_folder_that_takes_no_file_is_a_clear_error_and_the_input_is_kept(tmp_path):
    src = tmp_path / "in.docx"
    src.write_bytes((EXAMPLES / "report.docx").read_bytes())
    with folder_refuses_files():
        done = run_cli("call", str(src), "insert_paragraph", "--args", '{"text": "x", "position": "end"}',
                       "-o", str(tmp_path / "out.docx"))
    assert done.returncode == 2 and done.stderr.startswith("error: ") and "Permission denied" in done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert src.read_bytes() == (EXAMPLES / "report.docx").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.docx"]


BENCH = ["bench", "run", "--system", "oracle", "--mode", "instruction", "--split", "dev", "--instructions",
         "dwb-008#1,dwb-008#2", "--no-word-check"]  # two short instructions (one gold call each)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The records of an uninterrupted run of BENCH."""
    out = tmp_path_factory.mktemp("reference") / "run"
    assert run_cli(*BENCH, "--out", str(out)).returncode == 0
    return records(out)


@pytest.mark.parametrize("writes", [0, 4])
def test_a_full_disk_in_a_benchmark_run_is_a_clear_error_and_running_again_gives_the_same_records(
        tmp_path, writes, uninterrupted):
    with disk_full_after(writes):
        failed = run_cli(*BENCH, "--out", str(tmp_path / "run"))
    assert failed.returncode == 2 and "No space left on device" in failed.stderr and "Traceback" not in failed.stderr
    assert run_cli(*BENCH, "--out", str(tmp_path / "run")).returncode == 0
    assert differences(uninterrupted, records(tmp_path / "run")) == []


def test_kill_9_of_autodw_run_keeps_the_input_and_writes_no_half_output(tmp_path, tiny_intent_model):
    trials = RunTrials(tmp_path, tiny_intent_model.path)
    outcome = trials.trial(random.Random("suite:0"))
    assert outcome["problems"] == [], outcome


def test_kill_9_of_a_benchmark_run_then_the_same_command_gives_the_same_records(tmp_path):
    trials = BenchTrials(tmp_path, instructions="dwb-008#1")
    outcome = trials.trial(random.Random("suite"), "oracle-instruction")
    assert outcome["problems"] == [], outcome
