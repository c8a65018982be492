"""The evaluation harness's reports, judge agreement, the LLM answer cache, the CLI, and grading again (rescore,
an older judge, other DWBench data)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from autodw.dwbench.records import corpus_dir
from autodw.core.errors import ConfigError
from autodw.eval.metrics import cost
from autodw.eval.report import report
from autodw.eval.runner import Runner, RunSpec
from autodw.eval.systems import OracleSystem
from autodw.llm.replay import MemoBackend
from autodw.llm.scripted import ScriptedBackend
from tests.conftest import run_cli
from tests.harness_cases import IDS, MINI, SHORT, FailsTurnTwo, edit_json, run_mini


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
    run_mini(tmp_path / "sessions-only", OracleSystem, modes=("session",), limit=1)
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
    edit_json(run / "instructions" / f"{first.session_id}--{first.turn}.json", success=False)  # as a rejudge would
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
    run_mini(tmp_path / "new", OracleSystem, modes=("instruction",), limit=1)
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
    edit_json(out / "run.json", judge_version=JUDGE_VERSION + 1)  # a later judge's run is not downgraded
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
    summary = run_mini(out, FailsTurnTwo, limit=1)
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
    edit_json(out / "run.json", judge_version=1)
    with pytest.raises(ConfigError, match=rf"judge version 1 on .* this autodw's are {JUDGE_VERSION}.*rescore --rejudge"):
        rescore(out, progress=False)  # another judge's records beside this one's: refused
    assert not path.exists()


def test_grading_is_a_function_of_the_saved_files(tmp_path):
    """Grading a unit again from its files gives its record, without running any system; the Word check's findings are
    the record's when it has them (only the judge may have changed, not the output)."""
    from autodw.eval.grade import grade
    from autodw.eval.run_folder import instruction_unit, turn_unit

    out = tmp_path / "run"
    run_mini(out, FailsTurnTwo, limit=1)
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
    edit_json(unit.record, word_errors_added=[{"description": "kept"}])
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
        edit_json(path, data_hash=None)
    with pytest.raises(ConfigError, match=rf"made on DWBench 1.0 data, this autodw's is {DATA_VERSION}.*rescore --rejudge"):
        Runner(spec, old, OracleSystem, word_check=False, progress=False)
    with pytest.raises(ConfigError, match="runs of different major data versions"):
        compare(old, new)
    done = rescore(old, rejudge=True, progress=False)  # the judge's version is this one's: nothing to judge again
    assert done.dropped == keys and done.judged == 0 and not done.summary["complete"]
    assert json.loads((old / "run.json").read_text())["data_version"] == DATA_VERSION
    assert Runner(spec, old, OracleSystem, word_check=False, progress=False).run()["instructions"] == 3
    assert compare(old, new)["left_out"] == []
