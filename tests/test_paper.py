"""autodw bench paper: the plan as data, a dry run that contacts nothing, no run without a yes, and its units run
against a fake endpoint that dies, or under a run that is killed, resumed without asking an answer twice."""

from __future__ import annotations

import dataclasses
import io
import json
import signal
import subprocess
import sys
import threading
import time

import pytest

import autodw.llm.factory as factory
from autodw.core.errors import ConfigError, LLMConnectionError
from autodw.eval import paper_commands
from autodw.eval.paper import STAND_INS, PaperOptions, load_figures, plan_paper, plan_text
from autodw.eval.paper_commands import confirmed, run_plan, run_unit
from tests.conftest import ROOT, run_cli
from tests.fake_openai import Reply, completion, request_text

SESSION = "dwb-155"  # 6 instructions, on a generated document (no corpus needed)
EMPTY_PROGRAM = Reply(200, completion(json.dumps({"calls": []})))  # reasoning-only's answer: no call at all


def options(tmp_path, **more):
    return PaperOptions(**{"llm": "openai:fake", "out": str(tmp_path / "paper"), "split": "mini", "repeats": 1,
                           "sessions": SESSION, "no_word_check": True, **more})


def the_unit(plan, system="reasoning-only", mode="instruction"):
    return next(u for u in plan.units if u.system == system and u.mode == mode)


def test_the_plan_is_every_paper_unit_per_repeat_each_repeat_with_its_own_cache(tmp_path):
    o = options(tmp_path, repeats=2, workers=4, rpm=500, tpm=1e6, price_in=0.5, price_out=2, base_url="http://x/v1")
    figures = load_figures()
    plan = plan_paper(o, 1, 6, figures)
    assert len(plan.units) == 2 * 2 * 7  # repeats x modes x (4 systems of Table 2 + 3 rollback ablations)
    assert [(u.repeat, u.mode) for u in plan.units[:8]] == [(1, "instruction")] * 7 + [(1, "session")]
    folders = {(u.repeat, u.system): u.folder for u in plan.units}
    assert folders[(2, "autodw")] == "r2/autodw" and len(set(folders.values())) == 14
    for u in plan.units:
        argv = list(u.argv)
        assert argv[argv.index("--llm-cache") + 1] == str(tmp_path / "paper" / f"llm-cache-r{u.repeat}.jsonl")
        assert argv[argv.index("--out") + 1] == str(tmp_path / "paper" / u.folder)
        assert argv[argv.index("--mode") + 1] == u.mode and argv[argv.index("--rpm") + 1] == "500"
        assert {"--workers", "--tpm", "--base-url", "--sessions", "--no-word-check"} <= set(argv)
    autodw = the_unit(plan, "autodw")
    assert autodw.reports == ("Table 2", "Table 3", "Fig. 3")
    assert autodw.llm_calls == pytest.approx(6 * figures["systems"]["autodw"]["llm_calls_per_instruction"])
    assert the_unit(plan, "two-round").basis.startswith("no kept run: autodw's figures")
    assert set(STAND_INS) | set(figures["systems"]) >= {u.system for u in plan.units}
    assert plan.money == pytest.approx((plan.prompt_tokens * 0.5 + plan.completion_tokens * 2) / 1e6)
    assert plan.minimum_minutes == pytest.approx(max(plan.llm_calls / 500, (plan.prompt_tokens + plan.completion_tokens) / 1e6))
    text = plan_text(plan)
    assert "local:qwen2.5-coder-1.5b-q4km (agent profile local)" in text and figures["command"] in text
    with pytest.raises(ConfigError, match="both --price-in and --price-out"):
        options(tmp_path, price_in=1.0)


def test_a_dry_run_prints_the_plan_and_contacts_nothing(tmp_path, server, monkeypatch):
    s = server(then=lambda request: EMPTY_PROGRAM)
    monkeypatch.setattr(factory, "make_llm", lambda *a, **k: pytest.fail("a dry run made an LLM backend"))
    out = tmp_path / "paper"
    result = run_cli("bench", "paper", "--llm", "openai:fake", "--base-url", s.url, "--split", "mini", "--repeats", "3",
                     "--price-in", "0.27", "--price-out", "1.10", "--dry-run", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "3 repeat(s)" in result.stdout and "money: ~" in result.stdout and "0.27 per million prompt" in result.stdout
    assert result.stdout.rstrip().endswith("dry run: nothing was run and no LLM was contacted")
    assert s.requests == [] and not out.exists()


def test_without_yes_and_without_a_terminal_it_refuses_instead_of_waiting(tmp_path, server, monkeypatch):
    s = server(then=lambda request: EMPTY_PROGRAM)
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))  # piped input is no terminal: not read as a yes
    out = tmp_path / "paper"
    result = run_cli("bench", "paper", "--llm", "openai:fake", "--base-url", s.url, "--split", "mini", "--out", str(out))
    assert result.returncode == 2
    assert "no terminal to ask on: add --yes to run it" in result.stderr
    assert s.requests == [] and not out.exists()


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_on_a_terminal_it_asks(tmp_path):
    plan = plan_paper(options(tmp_path), 1, 6, load_figures())
    assert confirmed(plan, yes=True, stdin=io.StringIO())
    assert confirmed(plan, yes=False, stdin=Terminal(), ask=lambda question: "y")
    assert not confirmed(plan, yes=False, stdin=Terminal(), ask=lambda question: "")

    def closed(question):
        raise EOFError

    assert not confirmed(plan, yes=False, stdin=Terminal(), ask=closed)


def test_a_server_that_dies_stops_the_run_and_the_same_command_continues_it(tmp_path, server):
    s = server(then=lambda request: EMPTY_PROGRAM)
    base = plan_paper(options(tmp_path, base_url=s.url), 1, 6, load_figures())
    plan = dataclasses.replace(base, units=[the_unit(base)])
    answered_before_death = 3

    def die_after_three(request):
        if len(s.answered) >= answered_before_death - 1:
            s.close()  # this answer is the last: the port refuses the next request
        return EMPTY_PROGRAM

    s.then = die_after_three
    with pytest.raises(LLMConnectionError, match=r"bench paper stopped at unit 1/1 \(r1/reasoning-only, instruction\).*"
                                                 "cannot reach the LLM endpoint.*the same `autodw bench paper` command "
                                                 "continues where it stopped"):
        run_plan(plan, ["bench", "paper"])
    records = list((tmp_path / "paper" / "r1" / "reasoning-only" / "instructions").glob("*.json"))
    assert len(records) == answered_before_death
    s.then = lambda request: EMPTY_PROGRAM
    s.restart()
    assert run_plan(plan, ["bench", "paper"]) == 0
    asked = [request_text(r) for r in s.answered]
    assert len(asked) == 6 and len(set(asked)) == 6  # one answer per instruction: none asked twice
    # the run ends with its report: this one unit's figures, the others named unfinished
    numbers = json.loads((tmp_path / "paper" / "report.json").read_text(encoding="utf-8"))
    assert numbers["here"]["reasoning-only"]["iacc"]["n"] == 1 and numbers["per_repeat"][0]["asked"]["llm_calls"] == 6
    assert "r1/autodw (instruction level)" in numbers["unfinished"]
    assert "not the paper's data" in (tmp_path / "paper" / "report.md").read_text(encoding="utf-8")
    assert json.loads((tmp_path / "paper" / "paper.json").read_text(encoding="utf-8"))["command"] == "autodw bench paper"


def test_a_killed_run_resumes_without_asking_an_answer_twice(tmp_path, server):
    release = threading.Event()

    def hold_the_fourth(request):
        if len(s.requests) > 3:
            release.wait(60)  # the run is killed while it waits for this answer, which never comes
            return Reply(503, {"error": {"message": "gone"}})
        return EMPTY_PROGRAM

    s = server(then=hold_the_fourth)
    base = plan_paper(options(tmp_path, base_url=s.url), 1, 6, load_figures())
    unit = the_unit(base)
    proc = subprocess.Popen([sys.executable, "-m", "autodw.interfaces.cli", "bench", "run", *unit.argv], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(s.requests) < 4 and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    release.set()
    assert len(s.answered) == 3
    s.then = lambda request: EMPTY_PROGRAM
    assert run_unit(unit) == 0
    asked = [request_text(r) for r in s.answered]
    assert len(asked) == 6 and len(set(asked)) == 6
    cache = tmp_path / "paper" / "llm-cache-r1.jsonl"
    assert len(cache.read_text(encoding="utf-8").splitlines()) == 6


def test_units_run_in_order_and_an_interruption_stops_them(tmp_path, monkeypatch, capsys):
    plan = plan_paper(options(tmp_path, repeats=2), 1, 6, load_figures())
    ran = []
    monkeypatch.setattr(paper_commands, "run_unit", lambda unit: ran.append(unit) or (130 if len(ran) == 3 else 0))
    assert run_plan(plan, ["bench", "paper", "--yes"]) == 130
    assert ran == plan.units[:3]
    assert "the same `autodw bench paper` command continues" in capsys.readouterr().err
    assert (tmp_path / "paper" / "commands.txt").read_text(encoding="utf-8") == "autodw bench paper --yes\n"


def test_a_resumed_plan_counts_only_what_is_left(tmp_path):
    from autodw.dwbench.records import load_split
    from autodw.eval.paper import generated

    sessions = [s for s in load_split("mini") if s.session_id == SESSION]
    o = options(tmp_path, price_in=1.0, price_out=2.0)
    out = tmp_path / "paper"
    figures = load_figures()
    fresh = plan_paper(o, 1, 6, figures, done=lambda folder, mode: generated(out / folder, mode, sessions))
    assert fresh.done == 0 and all(u.instructions == 6 for u in fresh.units)
    # reasoning-only generated 4 instructions and 2 session turns (its document to continue from kept); hybrid's
    # session generated turn 1 and turn 3 (turn 2 deleted: it runs again from turn 1), autodw's turn 1 without its
    # document to continue from (so again from turn 1)
    for key in ("1", "2", "3", "5"):
        (out / "r1/reasoning-only/instructions").mkdir(parents=True, exist_ok=True)
        (out / f"r1/reasoning-only/instructions/{SESSION}--{key}.status").write_text("{}")
    folder = out / "r1/reasoning-only/sessions" / SESSION
    folder.mkdir(parents=True)
    for name in ("turn-1.status", "turn-2.status", "resume-2.docx"):
        (folder / name).write_text("{}")
    for system, names in (("hybrid", ("turn-1.status", "turn-3.status", "resume-3.docx")), ("autodw", ("turn-1.status",))):
        (out / f"r1/{system}/sessions" / SESSION).mkdir(parents=True)
        for name in names:
            (out / f"r1/{system}/sessions" / SESSION / name).write_text("{}")
    resumed = plan_paper(o, 1, 6, figures, done=lambda folder, mode: generated(out / folder, mode, sessions))
    left = {(u.system, u.mode): (u.done, u.instructions) for u in resumed.units}
    assert left[("reasoning-only", "instruction")] == (4, 2) and left[("reasoning-only", "session")] == (2, 4)
    assert left[("hybrid", "session")] == (0, 6) and left[("autodw", "session")] == (0, 6)
    assert resumed.done == 6
    per = figures["systems"]["reasoning-only"]
    assert the_unit(resumed).llm_calls == pytest.approx(2 * per["llm_calls_per_instruction"])
    assert fresh.llm_calls - resumed.llm_calls == pytest.approx(6 * per["llm_calls_per_instruction"])
    assert fresh.money - resumed.money == pytest.approx(
        6 * (per["prompt_tokens_per_instruction"] * 1.0 + per["completion_tokens_per_instruction"] * 2.0) / 1e6)
    text = plan_text(resumed)
    assert "resumed: 6 instructions (session turns) of the units were run before" in text
    assert "(4 of 6 done before)" in text and "expected in all (what is left)" in text
    # the command's own dry run reads the folder the same way
    result = run_cli("bench", "paper", "--llm", "openai:fake", "--split", "mini", "--sessions", SESSION, "--repeats",
                     "1", "--dry-run", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "resumed: 6 instructions" in result.stdout


def test_a_plan_refuses_a_unit_folder_other_code_made(tmp_path):
    """A unit folder whose run.json records other code is refused when the plan is made (before it is printed or
    anything is asked), not counted as resumed and refused later by the run."""
    from autodw.dwbench.records import load_split
    from autodw.eval.paper import generated
    from autodw.eval.run_folder import run_code

    sessions = [s for s in load_split("mini") if s.session_id == SESSION]
    out = tmp_path / "paper"
    unit = out / "r1/reasoning-only"
    (unit / "instructions").mkdir(parents=True)
    (unit / "instructions" / f"{SESSION}--1.status").write_text("{}")
    (unit / "run.json").write_text(json.dumps({"code": run_code()}))
    assert generated(unit, "instruction", sessions) == 1  # this code's folder: resumed
    (unit / "run.json").write_text(json.dumps({"code": {"version": "0", "fingerprint": "0123456789abcdef"}}))
    with pytest.raises(ConfigError, match="made by other code"):
        generated(unit, "instruction", sessions)
    result = run_cli("bench", "paper", "--llm", "openai:fake", "--split", "mini", "--sessions", SESSION, "--repeats",
                     "1", "--dry-run", "--out", str(out))
    assert result.returncode != 0 and "made by other code" in result.stderr and "resumed:" not in result.stdout
