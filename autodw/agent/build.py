"""Assemble an agent from plain settings: backend spec, classifier, console and trace sinks."""

from __future__ import annotations

import os
from typing import Any

from autodw.agent.events import ConsoleReporter, EventSink, TraceWriter
from autodw.agent.loop import Agent, AgentConfig, IntentClassifier
from autodw.llm.base import LLMBackend

#: Settings for the embedded small model, where every prompt token costs ~35 ms on 2 cores: a shorter windowed
#: state for the planner, a focused one for the API generator and a smaller one for the validator (which also
#: gets the change analysis), two-stage API generation
#: (one-line summaries, then only the chosen API's documentation), no negligible intents, the planner reading the
#: instruction's start state (its prompt stays cached across steps), and the instruction ending once a step is
#: accepted after which the planner listed nothing remaining.
LOCAL_AGENT_CONFIG = AgentConfig(state_budget=1500, focused_state_budget=350, validator_state_budget=180, compact_api_docs=True,
                                 two_stage_api_choice=True, intent_min_probability=0.05, max_steps=8,
                                 planner_state="start", stop_when_nothing_remains=True)


def make_agent(llm: str | LLMBackend | None = None, *, classifier: IntentClassifier | None = None,
               config: AgentConfig | None = None, settings: dict[str, Any] | None = None, console: bool = False,
               trace: str | os.PathLike[str] | None = None, record: str | os.PathLike[str] | None = None,
               **llm_options: Any) -> Agent:
    """An :class:`Agent` ready to run.

    `llm`: a backend object or a spec ("openai:gpt-4.1", "deepseek:deepseek-chat", "local", "replay:run.jsonl");
    None picks one from the environment (see :mod:`autodw.llm.factory`). `classifier`: None loads the trained
    intent model (training it first, with a progress bar, if there is none). `console`: print progress.
    `trace`: write every event to this JSON Lines file. `record`: save every LLM exchange to this cassette.
    `settings` override single fields of the configuration: `config`, or else :data:`LOCAL_AGENT_CONFIG` for the
    local backend and the paper's defaults for any other.
    """
    if llm is None or isinstance(llm, str):
        from autodw.llm.factory import make_llm

        llm = make_llm(llm, **llm_options)
    if config is None:
        local = getattr(llm, "name", "").startswith("local:")
        config = AgentConfig(**vars(LOCAL_AGENT_CONFIG)) if local else AgentConfig()
    for key, value in (settings or {}).items():
        setattr(config, key, value)
    if record is not None:
        from autodw.llm.replay import RecordingBackend

        llm = RecordingBackend(llm, record)
    if classifier is None:
        from autodw.intents.classifier import load_or_train

        classifier = load_or_train(progress=True)
    sinks: list[EventSink] = []
    if console:
        sinks.append(ConsoleReporter())
    if trace is not None:
        sinks.append(TraceWriter(trace))
    return Agent(llm, classifier, config=config, sinks=sinks)
