"""Agent profiles: declared per backend, validated when made, recorded in cassettes and traces, and a replay of a
local-model run (here a scripted backend that declares the local profile) reproducing it exactly through the CLI."""

from __future__ import annotations

import json

import pytest

from autodw.agent.build import make_agent
from autodw.agent.config import PROFILES, AgentConfig, config_for, profile_config
from autodw.cli import main
from autodw.document import WordDocument
from autodw.errors import ConfigError
from autodw.intents import classifier as intents_classifier
from autodw.llm.local import LocalBackend
from autodw.llm.openai_backend import OpenAIBackend
from autodw.llm.replay import ReplayBackend
from autodw.llm.scripted import ScriptedBackend
from tests.conftest import EXAMPLES
from tests.test_agent import FixedClassifier

MIXED = [("content_creation", 0.5), ("format_style_editing", 0.4), ("content_modification", 0.1)]
INSTRUCTIONS = ["Add 'Closing remarks.' at the end and make the title bold", "Add 'Your notes' at the start"]


def local_plan(sub, remaining):
    return {"done": False, "sub_instruction": sub, "reason": "needed", "remaining": remaining}


def local_script():
    """A session the local profile runs: two-stage generation, the start-state planner, an instruction ending once
    nothing remains, and an argument-level rollback after a rule check (the local profile has no LLM validator)."""
    return {
        "planner": [local_plan("Insert a paragraph 'Closing remarks.' at the end.", ["Make p1 bold."]),
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
    with pytest.raises(ConfigError, match="max_steps must be a whole number >= 1.*threshold must be a number in"):
        AgentConfig(max_steps=0, threshold=1.5)
    with pytest.raises(ConfigError, match="generator_state_budget must be a number of tokens"):
        profile_config("local", generator_state_budget=-1)
    with pytest.raises(ConfigError, match="unknown agent profile 'tiny'; the profiles are hosted, local"):
        profile_config("tiny")
    with pytest.raises(ConfigError, match="unknown agent setting.*state_budget"):
        AgentConfig().override(state_budget=100)
    with pytest.raises(ConfigError, match="profile must be one of hosted, local"):
        AgentConfig.from_dict({**AgentConfig().to_dict(), "profile": "huge"})
    assert AgentConfig(rollback=2).rollback_levels() == ["arg", "api", "arg", "api"]


def test_each_backend_declares_its_profile_and_overrides_replace_single_settings():
    assert LocalBackend.profile == "local" and OpenAIBackend.profile == "hosted"
    assert config_for(ScriptedBackend({})) == PROFILES["hosted"] == AgentConfig()
    local = config_for(ScriptedBackend({}, profile="local"))
    assert local == PROFILES["local"] and local.two_stage_api_choice and local.stop_when_nothing_remains
    changed = local.override(max_steps=3)
    assert changed.max_steps == 3 and changed.planner_state_budget == 1500 and local.max_steps == 8  # a copy
    agent = make_agent(ScriptedBackend({}, profile="local"), classifier=FixedClassifier(), settings={"rollback": "arg"})
    assert agent.config == PROFILES["local"].override(rollback="arg")
    assert make_agent(ScriptedBackend({}), classifier=FixedClassifier(), profile="local").config == PROFILES["local"]
    with pytest.raises(ConfigError, match="a configuration or a profile, not both"):
        make_agent(ScriptedBackend({}), classifier=FixedClassifier(), profile="local", config=AgentConfig())
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
    assert header["profile"] == "local" and header["config"] == PROFILES["local"].to_dict()
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
    assert start["event"] == "run_start" and start["profile"] == "local" and start["config"] == PROFILES["local"].to_dict()
    assert prompts(replayed) == prompts(recorded) and len(prompts(replayed)) == 10
    assert decisions(replayed) == decisions(recorded)
    assert WordDocument.open(out).to_bytes() == doc.to_bytes()
    steps = lambda r: [i["steps"] for i in r["instructions"]]  # noqa: E731
    assert steps(json.loads(result.read_text())) == steps(json.loads(json.dumps(first.to_dict())))

    # a setting given on the command line replaces the recorded one; the rest stay as recorded
    assert main(args + ["--max-steps", "5"]) == 0
    assert events(trace)[0]["config"] == PROFILES["local"].override(max_steps=5).to_dict()
    # the hosted profile asks other questions, which the cassette does not hold
    capsys.readouterr()
    assert main(args + ["--profile", "hosted"]) == 2
    assert "has no recorded answer" in capsys.readouterr().err


def test_a_removed_setting_loads_only_with_its_neutral_value():
    assert AgentConfig.from_dict({"worked_examples": 0, "rollback": "arg"}).rollback == "arg"
    with pytest.raises(ConfigError, match="removed settings"):
        AgentConfig.from_dict({"worked_examples": 1})
