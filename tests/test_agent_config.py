"""Agent assemblies: profiles declared per backend, validated when made, recorded in cassettes and traces, a replay
of a local-model run (here a scripted backend that declares the local profile) reproducing it exactly through the
CLI, and configurations recorded before the parts existed rebuilding the same agent."""

from __future__ import annotations

import json

import pytest

from autodw.agent import heuristics
from autodw.agent.assembly import PROFILES, Assembly, assembly_for, hosted, local, paper, profile_assembly
from autodw.agent.build import make_agent
from autodw.agent.config import AgentConfig
from autodw.agent.generator import LLMCallGenerator, RepairRejected
from autodw.agent.parts import assemble
from autodw.agent.planner import LLMPlanner
from autodw.agent.views import CurrentView
from autodw.apis import registry
from autodw.interfaces.cli import main
from autodw.core.document import WordDocument
from autodw.core.errors import ConfigError
from autodw.intents import classifier as intents_classifier
from autodw.llm.local import LocalBackend
from autodw.llm.openai_backend import OpenAIBackend
from autodw.llm.replay import ReplayBackend
from autodw.llm.scripted import ScriptedBackend
from tests.conftest import EXAMPLES
from tests.test_agent import FixedClassifier

#: the local profile's configuration as cassettes recorded it before the agent was assembled from parts (91b5107)
OLD_LOCAL = {"profile": "local", "rollback": "full", "threshold": 0.6, "verdict_rule": "paper", "max_steps": 8,
             "max_llm_calls": 32, "output_retries": 2, "planner_state_budget": 1500, "generator_state_budget": 350,
             "validator_state_budget": 180, "history_chars": 300, "compact_api_docs": True, "two_stage_api_choice": True,
             "intent_min_probability": 0.05, "planner_state": "start", "grounding": True, "rule_checks": True,
             "llm_validator": False, "repair_calls": True, "split_requests": True, "refuse_repeated_steps": True,
             "end_on_repeated_call": True, "stop_when_nothing_remains": True, "restate_ratio": 0.7}
MIXED = [("content_creation", 0.5), ("format_style_editing", 0.4), ("content_modification", 0.1)]
INSTRUCTIONS = ["Add 'Closing remarks.' at the end and make the title bold", "Add 'Your notes' at the start"]


def local_plan(sub, remaining):
    return {"done": False, "sub_instruction": sub, "reason": "needed", "remaining": remaining}


def local_script():
    """A session the local profile runs: two-stage generation, the start-state planner, an instruction of two requests
    (split_requests), each ending once nothing remains, and an argument-level rollback after a rule check (the local
    profile has no LLM validator)."""
    return {
        "planner": [local_plan("Insert a paragraph 'Closing remarks.' at the end.", []),
                    local_plan("Make paragraph p1 bold.", []), local_plan("Insert 'Your notes' at the start.", [])],
        "api_chooser": [{"api": "insert_paragraph"}, {"api": "set_text_format"}, {"api": "insert_paragraph"}],
        "api_generator": [{"api": "insert_paragraph", "args": {"text": "Closing remarks.", "position": "end"}},
                          {"api": "set_text_format", "args": {"paragraphs": "p1", "bold": True}},
                          {"api": "insert_paragraph", "args": {"text": "Your note", "position": "start"}},  # altered
                          {"api": "insert_paragraph", "args": {"text": "Your notes", "position": "start"}}],
    }


def events(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def decisions(trace):
    """What the run decided, in order, without timings: plans, intents, calls, verdicts, rollbacks, outcomes."""
    kept = ("plan", "intents", "attempt", "verdict", "rollback", "redundant_step", "instruction_end")
    drop = ("t", "seconds")
    return [{k: v for k, v in e.items() if k not in drop} for e in trace if e["event"] in kept]


def prompts(trace):
    return [(e["role"], e["messages"]) for e in trace if e["event"] == "llm_call"]


def test_settings_are_checked_when_the_configuration_is_made():
    with pytest.raises(ConfigError, match="rollback must be none, arg, full or a number of rounds >= 0, not 'sometimes'"):
        AgentConfig(rollback="sometimes")
    with pytest.raises(ConfigError, match="last_level must be one of keep, validate, not 'retry'"):
        profile_assembly("hosted", last_level="retry")
    with pytest.raises(ConfigError, match="max_steps must be a whole number >= 1.*threshold must be a number in"):
        AgentConfig(max_steps=0, threshold=1.5)
    with pytest.raises(ConfigError, match="generator_state_budget must be a number of tokens"):
        profile_assembly("local", generator_state_budget=-1)
    with pytest.raises(ConfigError, match="unknown agent profile 'tiny'; the profiles are paper, hosted, local"):
        profile_assembly("tiny")
    with pytest.raises(ConfigError, match="unknown agent setting.*state_budget"):
        AgentConfig().override(state_budget=100)
    with pytest.raises(ConfigError, match="profile must be one of hosted, local"):
        Assembly.from_dict({**OLD_LOCAL, "profile": "huge"})
    with pytest.raises(ConfigError, match="validator must be stages of rules, llm in that order"):
        hosted().override(validator=["llm", "rules"])
    with pytest.raises(ConfigError, match="planner must be one of llm, up_front, gold then any of"):
        hosted().override(planner=["end_on_repeated_call"])
    with pytest.raises(ConfigError, match="rule_checks must be true or false"):
        hosted().override(rule_checks="no")
    with pytest.raises(ConfigError, match="names no verdict_rule"):
        Assembly.from_dict({**hosted().to_dict(), "parts": {k: v for k, v in hosted().to_dict()["parts"].items()
                                                            if k != "verdict_rule"}})
    assert AgentConfig(rollback=2).rollback_levels() == ["arg", "api", "arg", "api"]


def test_each_backend_declares_its_profile_and_overrides_replace_single_settings():
    assert LocalBackend.profile == "local" and OpenAIBackend.profile == "hosted"
    assert assembly_for(ScriptedBackend({})) == PROFILES["hosted"]() == hosted()
    local_ = assembly_for(ScriptedBackend({}, profile="local"))
    assert local_ == local() and local_.api_choice == "two_stage" and local_.has("planner", "stop_when_nothing_remains")
    changed = local_.override(max_steps=3)
    assert changed.numbers.max_steps == 3 and changed.numbers.planner_state_budget == 1500 and local_.numbers.max_steps == 8
    agent = make_agent(ScriptedBackend({}, profile="local"), classifier=FixedClassifier(), settings={"rollback": "arg"})
    assert agent.assembly == local().override(rollback="arg") and agent.config.rollback == "arg"
    assert make_agent(ScriptedBackend({}), classifier=FixedClassifier(), profile="local").assembly == local()
    with pytest.raises(ConfigError, match="an assembly or a profile, not both"):
        make_agent(ScriptedBackend({}), classifier=FixedClassifier(), profile="local", assembly=hosted())
    with pytest.raises(ConfigError, match="unknown agent setting"):
        make_agent(ScriptedBackend({}), classifier=FixedClassifier(), settings={"focused_state_budget": 10})


def test_a_replayed_local_run_reproduces_the_recorded_one_exactly(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(intents_classifier, "load_or_train", lambda progress=True: FixedClassifier(MIXED))
    cassette, first_trace = tmp_path / "local.cassette.jsonl", tmp_path / "first.jsonl"
    llm = ScriptedBackend(local_script(), profile="local")
    agent = make_agent(llm, classifier=FixedClassifier(MIXED), record=cassette, trace=first_trace)
    doc = WordDocument.open(EXAMPLES / "report.docx")
    first = agent.run(doc, INSTRUCTIONS)
    agent.close()
    assert first.completed and not llm.remaining()
    assert first.usage["api_chooser"].calls == 3  # the local profile's two-stage generation ran
    header = json.loads(cassette.read_text(encoding="utf-8").splitlines()[0])["cassette"]
    assert header["profile"] == "local" and header["config"] == local().to_dict()
    assert ReplayBackend(cassette).profile == "local"

    src, out, trace, result = tmp_path / "in.docx", tmp_path / "out.docx", tmp_path / "replay.jsonl", tmp_path / "result.json"
    src.write_bytes((EXAMPLES / "report.docx").read_bytes())
    args = ["run", str(src), "-o", str(out), "--llm", f"replay:{cassette}", "--trace", str(trace), "--json", str(result)]
    for instruction in INSTRUCTIONS:
        args += ["-i", instruction]
    assert main(args) == 0
    replayed = events(trace)
    recorded = events(first_trace)
    start = replayed[0]
    assert start["event"] == "run_start" and start["profile"] == "local" and start["config"] == local().to_dict()
    assert prompts(replayed) == prompts(recorded) and len(prompts(replayed)) == 10
    assert decisions(replayed) == decisions(recorded)
    assert WordDocument.open(out).to_bytes() == doc.to_bytes()
    steps = lambda r: [i["steps"] for i in r["instructions"]]  # noqa: E731
    assert steps(json.loads(result.read_text())) == steps(json.loads(json.dumps(first.to_dict())))

    # a setting given on the command line replaces the recorded one; the rest stay as recorded
    assert main(args + ["--max-steps", "5"]) == 0
    assert events(trace)[0]["config"] == local().override(max_steps=5).to_dict()
    # the hosted profile asks other questions, which the cassette does not hold
    capsys.readouterr()
    assert main(args + ["--profile", "hosted"]) == 2
    assert "has no recorded answer" in capsys.readouterr().err


def test_a_removed_setting_loads_only_with_its_neutral_value():
    assert Assembly.from_dict({"worked_examples": 0, "rollback": "arg"}).numbers.rollback == "arg"
    with pytest.raises(ConfigError, match="removed settings"):
        Assembly.from_dict({"worked_examples": 1})


def test_a_configuration_recorded_before_the_parts_rebuilds_the_same_agent(tmp_path):
    """A cassette whose header holds the old flat settings replays with the assembly they describe: every old switch
    names the part it chose; the last rollback level's call was kept then and id lists capped (the numbers' defaults)."""
    assert Assembly.from_dict(OLD_LOCAL) == local().override(last_level="keep")
    assert Assembly.from_dict({**OLD_LOCAL, "profile": "hosted", "max_steps": 15, "max_llm_calls": None,
                               "planner_state_budget": 6000, "generator_state_budget": 6000, "validator_state_budget": 6000,
                               "compact_api_docs": False, "two_stage_api_choice": False, "intent_min_probability": 0.0,
                               "planner_state": "current", "llm_validator": True, "split_requests": False,
                               "stop_when_nothing_remains": False}) == hosted().override(max_steps=15, last_level="keep",
                                                                                absence_findings="reject", max_id_items=40)
    ablation = Assembly.from_dict({**OLD_LOCAL, "grounding": False, "rule_checks": False, "llm_validator": True,
                                   "repair_calls": False, "split_requests": False, "refuse_repeated_steps": False,
                                   "end_on_repeated_call": False, "verdict_rule": "decision"})
    assert (ablation.grounding, ablation.validator, ablation.generator, ablation.requests, ablation.planner,
            ablation.verdict_rule) == ("none", ("llm",), ("llm",), "whole", ("llm", "stop_when_nothing_remains"), "decision")
    # the --set names of the ablations still say the same
    assert local().override(rule_checks=False, llm_validator=True) == ablation.override(
        grounding=True, repair_calls=True, split_requests=True, refuse_repeated_steps=True, end_on_repeated_call=True,
        verdict_rule="paper", last_level="validate")
    cassette = tmp_path / "old.jsonl"
    cassette.write_text(json.dumps({"cassette": {"llm": "local", "profile": "local", "config": OLD_LOCAL}}) + "\n")
    assert assembly_for(ReplayBackend(cassette)) == local().override(last_level="keep")
    with pytest.raises(ConfigError, match="unknown setting.*validator"):
        Assembly.from_dict({**OLD_LOCAL, "validator": ["rules"]})


def test_the_paper_profile_is_the_method_and_nothing_else():
    parts = assemble(paper(), FixedClassifier(), registry())
    assert type(parts.planner) is LLMPlanner and type(parts.generator) is LLMCallGenerator
    assert isinstance(parts.planner_view, CurrentView) and not parts.planner_view.grounded
    assert parts.validator.rules is None and parts.validator.llm.verdict_rule == "paper"
    assert parts.split("Centre the title; make the Budget heading green.") == ["Centre the title; make the Budget heading green."]
    # hosted plans longer, validates the last rollback level's call (the paper keeps it whatever it is) and lists any
    # number of ids in an answer
    assert paper().numbers == AgentConfig() == hosted().numbers.override(max_steps=15, last_level="keep", max_id_items=40)
    assert (paper().numbers.last_level, hosted().numbers.last_level, local().numbers.last_level) == (
        "keep", "validate", "validate")
    built = assemble(local(), FixedClassifier(), registry())
    assert isinstance(built.generator, RepairRejected) and built.validator.llm is None and built.validator.rules
    assert isinstance(built.planner, heuristics.StopWhenNothingRemains) and len(built.split("Centre it; make it green.")) == 2
    with pytest.raises(ConfigError, match="cannot build the gold planner"):
        assemble(hosted().override(planner=["gold"]), FixedClassifier(), registry())


def test_no_class_subclasses_the_agent():
    """Systems are assembled from parts: no class derives from Agent or defines one of its underscore methods."""
    import ast
    from pathlib import Path

    from autodw.agent.loop import Agent

    private = {name for name in vars(Agent) if name.startswith("_") and not name.startswith("__")}
    offenders = []
    for path in Path(__file__).resolve().parent.parent.joinpath("autodw").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(getattr(b, "id", getattr(b, "attr", None)) == "Agent"
                                                      for b in node.bases):
                offenders.append(f"{path.name}: class {node.name}(Agent)")
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr in private:
                offenders.append(f"{path.name}: sets {node.attr}")
    assert private >= {"_run_step", "_attempt"} and offenders == []


def test_absence_hints_need_the_llm_validator():
    """absence_findings=hint shows findings to the LLM validator: an assembly without one is refused when made."""
    assert (paper().absence_findings, hosted().absence_findings, local().absence_findings) == ("reject", "hint", "reject")
    with pytest.raises(ConfigError, match="absence_findings hint"):
        hosted().override(validator=["rules"])
    with pytest.raises(ConfigError, match="absence_findings hint"):
        local().override(absence_findings="hint")
    with pytest.raises(ConfigError, match="absence_findings must be one of reject, hint"):
        hosted().override(absence_findings="veto")
    assert hosted().override(validator=["rules"], absence_findings="reject").validator == ("rules",)


def test_a_configuration_recorded_before_absence_hints_loads_as_reject(tmp_path):
    """run.json, cassettes and old flat configurations recorded without the part replay as they ran: rejecting."""
    recorded = hosted().to_dict()
    del recorded["parts"]["absence_findings"]
    assert Assembly.from_dict(recorded) == hosted().override(absence_findings="reject")
    assert Assembly.from_dict(hosted().to_dict()) == hosted()
    assert Assembly.from_dict({"profile": "hosted"}).absence_findings == "reject"
    cassette = tmp_path / "old-hosted.jsonl"
    cassette.write_text(json.dumps({"cassette": {"llm": "x", "profile": "hosted", "config": recorded}}) + "\n")
    assert assembly_for(ReplayBackend(cassette)).absence_findings == "reject"
