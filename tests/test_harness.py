"""The evaluation harness's runner: oracle runs, failed and interrupted sessions, resuming a killed or terminated
run, run folders of another run refused, chosen instructions, the word check on gold outputs."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from autodw.core.errors import ConfigError
from autodw.eval.report import report
from autodw.eval.runner import Runner, RunSpec
from autodw.eval.systems import OracleSystem, TurnResult
from tests.conftest import run_cli
from tests.harness_cases import IDS, MINI, ROOT, SHORT, FailsTurnTwo, edit_json, run_mini


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

    summary = run_mini(tmp_path / "run", SkipsTurnTwo, limit=1)
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


def test_a_session_stopped_at_its_first_failure_costs_two_turns_and_keeps_its_sacc(tmp_path):
    out = tmp_path / "run"
    spec = RunSpec("oracle", "none", "mini", ["session"], {}, 2, IDS, stop_at_failure=True)
    FailsTurnTwo.turns_run = 0  # other tests run it too
    summary = Runner(spec, out, FailsTurnTwo, word_check=False, progress=False).run()
    assert FailsTurnTwo.turns_run == 4  # two sessions, turns 1 and 2 each
    for s in MINI[:2]:
        assert sorted(p.name for p in (out / "sessions" / s.session_id).glob("turn-*.json")) == ["turn-1.json",
                                                                                              "turn-2.json"]
    assert summary["sessions"] == 2 and summary["sessions_stopped"] == 2 and summary["complete"]
    assert summary["sacc"] == 0.0 and summary["turns_before_failure"] == 1
    assert summary["sacc_final"] is None and summary["tokens_per_session"] is None  # no session got through
    assert summary["status"] == {"done": 4} and summary["api_calls_per_instruction"] == pytest.approx(
        sum(len(s.instructions[0].gold) for s in MINI[:2]) / 4)  # the cost of every turn run (turn 2 made no call)
    # finished: run again, nothing runs; the same folder without the stop is another run
    Runner(spec, out, FailsTurnTwo, word_check=False, progress=False).run()
    assert FailsTurnTwo.turns_run == 4
    with pytest.raises(ConfigError, match="stop_at_failure"):
        Runner(RunSpec("oracle", "none", "mini", ["session"], {}, 2, IDS), out, OracleSystem, progress=False)
    # instruction mode added to the run keeps the sessions' setting
    both = run_mini(out, OracleSystem, modes=("instruction",), limit=2)
    assert both["modes"] == ["instruction", "session"] and both["iacc"] == 1.0 and both["sessions_stopped"] == 2
    assert json.loads((out / "run.json").read_text())["stop_at_failure"] is True
    # a run that never failed is the same with or without the stop
    full = run_mini(tmp_path / "full", OracleSystem, modes=("session",), limit=1)
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

    run_mini(tmp_path / "worse", SkipsLastCall, modes=("instruction",), limit=1)
    result = compare(tmp_path / "worse", oracle_run)
    n = len(MINI[0].instructions)  # the worse run has the first session only; the oracle run all of mini
    assert result["instructions"] == n and result["only_b_succeeded"] == 1 and result["only_a_succeeded"] == 0
    assert result["iacc_b"] == 1.0 and result["partial_credit_b"] == 1.0 and result["b_higher"] == 1
    assert result["equal"] == n - 1 and result["partial_credit_difference"] > 0
    low, high = result["difference_95ci"]
    assert 0 <= low <= result["partial_credit_difference"] <= high
    assert run_cli("bench", "compare", str(tmp_path / "worse"), str(oracle_run)).returncode == 0
    run_mini(tmp_path / "sessions-only", OracleSystem, modes=("session",), limit=1)
    table = report([oracle_run, tmp_path / "worse", tmp_path / "sessions-only"], baseline=oracle_run)
    assert "Not paired: sessions-only (" in table and "has no instruction records (a session-only run" in table
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
        run_mini(out, _Interrupt, modes=("session",), limit=1)
    session = MINI[0]
    folder = out / "sessions" / session.session_id
    kept = {t: (folder / f"turn-{t}.json").read_bytes() for t in (1, 2)}
    assert not (folder / "turn-3.json").exists()
    first = json.loads((out / "summary.json").read_text())
    assert first["wall_seconds"] > 0
    (out / "summary.json").write_text(json.dumps({**first, "wall_seconds": 1000.0}))  # as if the first call took long
    summary = run_mini(out, OracleSystem, modes=("session",), limit=1)
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
        run_mini(out, _ErrsThenInterrupt, modes=("session",), limit=1)
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
        run_mini(out, OracleSystem, modes=("session",), limit=1)
    monkeypatch.undo()
    # turn 3 runs again on turn 2's document, not on its own output (which would apply it twice)
    _Counted.ran = []
    assert run_mini(out, _Counted, modes=("session",), limit=1)["sacc"] == 1.0
    assert [t for _, t in _Counted.ran] == list(range(3, len(MINI[0].instructions) + 1))


def test_a_run_killed_between_generating_and_grading_a_unit_grades_it_without_running_it_again(tmp_path, monkeypatch):
    import autodw.eval.work as work

    session, out = MINI[0], tmp_path / "run"
    _Counted.ran = []
    for name in (f"{session.session_id}--2.json", "turn-3.json"):  # an instruction's record, then a session turn's
        _killed_at(monkeypatch, work, name)
        with pytest.raises(KeyboardInterrupt):
            run_mini(out, _Counted, limit=1)
        monkeypatch.undo()
        assert out.joinpath(*(("instructions",) if "--" in name else ("sessions", session.session_id)),
                            name).with_suffix(".status").is_file()  # generated, not graded
    summary = run_mini(out, _Counted, limit=1)
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
    summary = run_mini(out, OracleSystem, modes=("instruction",), limit=None)
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
    run_mini(out, OracleSystem, modes=("instruction",), limit=1)
    record = out / "instructions" / f"{MINI[0].session_id}--1.json"
    record.write_text("[1, 2]")
    with pytest.raises(ConfigError, match=f"{record.name} is damaged \\(a JSON list"):
        run_mini(out, OracleSystem, modes=("instruction",), limit=1)
    record.write_text(json.dumps({"key": 5, "success": True}))
    with pytest.raises(ConfigError, match=f"{record.name} is damaged \\('key' is 5\\)"):
        run_mini(out, OracleSystem, modes=("instruction",), limit=1)
    good = json.loads((out / "instructions" / f"{MINI[0].session_id}--2.json").read_text())
    record.write_text(json.dumps({**good, "success": "no"}))  # another instruction's record
    with pytest.raises(ConfigError, match=f"{record.name} is damaged \\('success' is \"no\"\\)"):
        run_mini(out, OracleSystem, modes=("instruction",), limit=1)
    record.write_text(json.dumps({**good, "turn": 1}))
    with pytest.raises(ConfigError, match=f"{record.name} holds the record of '{MINI[0].session_id}#2', not of "):
        run_mini(out, OracleSystem, modes=("instruction",), limit=1)
    record.unlink()
    run_mini(out, OracleSystem, modes=("instruction",), limit=1)
    status = record.with_suffix(".status")  # a record is graded from its unit's status: one without it is named
    kept = status.read_bytes()
    status.unlink()
    from autodw.eval.rescore import rescore

    for refused in (lambda: run_mini(out, OracleSystem, modes=("instruction",), limit=1),
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


def _first_turn_of_short(out, make=OracleSystem) -> Runner:
    spec = RunSpec("oracle", "none", "mini", ["instruction"], {}, None, [SHORT], instructions=[f"{SHORT}#1"])
    return Runner(spec, out, make, word_check=False, progress=False)


def test_a_run_folder_is_resumed_only_by_the_code_that_made_it_and_rescored_by_any(tmp_path, capsys):
    from autodw.eval.rescore import rescore
    from autodw.eval.run_folder import run_code

    out = tmp_path / "run"
    _first_turn_of_short(out).run()
    made = json.loads((out / "run.json").read_text())["code"]
    assert made == run_code() and len(made["fingerprint"]) == 16
    assert _first_turn_of_short(out).run()["iacc"] == 1.0  # the same code resumes it, without a word
    assert "code" not in capsys.readouterr().err
    other = {"version": made["version"], "fingerprint": "0123456789abcdef"}
    edit_json(out / "run.json", code=other)
    with pytest.raises(ConfigError, match=rf"{out.name} was made by other code \(autodw {made['version']} code "
                       rf"0123456789abcdef\), this is autodw {made['version']} code {made['fingerprint']}: .*choose "
                       r"another --out \(with the same --llm-cache FILE"):
        _first_turn_of_short(out)
    record = out / "instructions" / f"{SHORT}--1.json"
    record.unlink()  # grading is apart from generating: rescore grades the folder of other code, and keeps its code
    assert rescore(out, progress=False).judged == 1 and rescore(out, rejudge=True, progress=False).summary["iacc"] == 1.0
    assert record.is_file() and json.loads((out / "run.json").read_text())["code"] == other
    edit_json(out / "run.json", code=None)
    with pytest.raises(ConfigError, match="made by other code \\(None\\)"):
        _first_turn_of_short(out)
    spec = json.loads((out / "run.json").read_text())
    del spec["code"]  # a folder made before run.json recorded the code: resumed, with a warning, and left without
    (out / "run.json").write_text(json.dumps(spec))
    assert _first_turn_of_short(out).run()["iacc"] == 1.0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "code" in line]
    assert warnings == [f"warning: {out} does not record the code that made it (made before run.json recorded it): "
                        "its units may be other code's"]
    assert "code" not in json.loads((out / "run.json").read_text())


def test_the_code_fingerprint_covers_the_source_and_the_agents_word_lists_not_the_benchmark_data(tmp_path, monkeypatch):
    import autodw
    from autodw.eval.run_folder import code_fingerprint

    package = tmp_path / "autodw"
    for name, text in (("__init__.py", "x = 1"), ("agent/value_words.json", "{}"), ("agent/prompts/planner.md", "p"),
                       ("dwbench/data/s.json", "{}"), ("eval/paper_results.json", "{}")):
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    monkeypatch.setattr(autodw, "__file__", str(package / "__init__.py"))

    def fingerprint() -> str:
        code_fingerprint.cache_clear()
        return code_fingerprint()

    try:
        seen = [fingerprint()]
        for name, text, changes in (("dwbench/data/s.json", '{"a": 1}', False), ("eval/paper_results.json", "[]", False),
                                    ("agent/value_words.json", '{"a": 1}', True), ("agent/prompts/planner.md", "q", True),
                                    ("__init__.py", "x = 2", True), ("eval/new.py", "", True)):
            (package / name).parent.mkdir(parents=True, exist_ok=True)
            (package / name).write_text(text)
            seen.append(fingerprint())
            assert (seen[-1] != seen[-2]) == changes, name
    finally:
        code_fingerprint.cache_clear()


def test_a_run_can_be_continued_with_the_other_mode(tmp_path):
    first = run_mini(tmp_path / "run", OracleSystem, modes=("instruction",), limit=1)
    assert first["sacc"] is None and first["modes"] == ["instruction"] and first["complete"]
    both = run_mini(tmp_path / "run", OracleSystem, modes=("session",), limit=1)
    assert both["modes"] == ["instruction", "session"] and both["iacc"] == 1.0 and both["sacc"] == 1.0
    assert json.loads((tmp_path / "run" / "run.json").read_text())["modes"] == ["instruction", "session"]


def test_the_word_check_finds_no_added_errors_in_gold_outputs(tmp_path):
    pytest.importorskip("openxml_audit")
    summary = run_mini(tmp_path / "run", OracleSystem, modes=("instruction",), limit=1, word_check=True)
    assert summary["word_check"]["checked"] == summary["instructions"] > 0
    assert summary["word_check"]["outputs_with_added_errors"] == 0
