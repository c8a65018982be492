"""The reader's fuzz harness: a bounded run, its oracle shown to catch what it must, the campaign resumable."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from tests.fuzz import campaign, mutate, seams
from tests.fuzz.conftest import bounded_run
from tests.fuzz.draw import ProviderDraw
from tests.fuzz.outcome import Crash
from tests.fuzz.reader import ReaderHarness

pytestmark = pytest.mark.skipif(not mutate.seed_files(), reason="no seed documents")


@pytest.fixture
def harness(tmp_path):
    return ReaderHarness(tmp_path / "sandbox")


def test_bounded_run_of_mutated_corpus_files(harness):
    results = bounded_run(harness.one, "reader", cpu_seconds=2.5, most=30)
    assert {r["outcome"] for r in results} & {"refused", "opened"}


def test_atheris_bytes_decode_into_the_same_harness(harness):
    """The campaign's atheris engine feeds the fuzzer's bytes through ProviderDraw: any bytes give an input."""
    r = random.Random(7)
    for size in (0, 1, 64, 2048):
        assert harness.one(ProviderDraw(r.randbytes(size)))["outcome"] in ("refused", "opened", "state_refused")


def test_the_oracle_catches_an_untyped_error_a_write_outside_and_a_hang(harness, monkeypatch):
    good = (mutate.ROOT / "examples" / "report.docx").read_bytes()
    assert harness.check(good)["outcome"] == "opened"
    monkeypatch.setattr("tests.fuzz.reader.extract_state", lambda doc: {}["planted"])
    with pytest.raises(Crash, match="untyped in state: KeyError"):
        harness.check(good)
    monkeypatch.undo()

    def writes_beside(path):
        (harness.sandbox / "abs-target" / "escaped.xml").write_text("x")
        return seams.open_document(path)

    monkeypatch.setattr("tests.fuzz.reader.open_document", writes_beside)
    with pytest.raises(Crash, match="write_outside"):
        harness.check(good)
    monkeypatch.undo()
    monkeypatch.setattr("tests.fuzz.outcome.TIME_LIMIT", 0.2)

    def spin(doc):
        while True:
            pass

    monkeypatch.setattr("tests.fuzz.reader.extract_state", spin)
    with pytest.raises(Crash, match="hang"):
        harness.check(good)


def test_a_campaign_goes_on_where_it_stopped_and_a_shard_draws_other_inputs(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(mutate.ROOT)}
    for inputs, shard in ((1, 1), (3, 1)):  # a shard's own results file, resumed (two process starts: seconds each)
        subprocess.run([sys.executable, "-m", "tests.fuzz.campaign", "reader", "--inputs", str(inputs),
                        "--out", str(tmp_path), "--shard", str(shard)], cwd=mutate.ROOT, env=env,
                       check=True, capture_output=True)
    done = json.loads((tmp_path / "reader.shard1.json").read_text())
    assert done["inputs"] == 3 and done["next_seed"] == 3 and len(done["runs"]) == 2
    assert sum(done["outcomes"].values()) + sum(c["count"] for c in done["crashes"].values()) == 3
    assert not (tmp_path / "reader.json").exists() and campaign.results_name("reader") == "reader.json"
    assert campaign.seed_name("reader", 3, 1) != campaign.seed_name("reader", 3)
