"""Make an agent from plain settings: backend spec, profile or assembly and overrides, classifier, console and trace
sinks."""

from __future__ import annotations

import os
from typing import Any

from autodw.agent.assembly import Assembly, assembly_for, profile_assembly
from autodw.agent.events import ConsoleReporter, EventSink, TraceWriter
from autodw.agent.intent_filter import IntentClassifier
from autodw.agent.loop import Agent
from autodw.core.errors import ConfigError
from autodw.llm.base import LLMBackend


def make_agent(llm: str | LLMBackend | None = None, *, classifier: IntentClassifier | None = None,
               assembly: Assembly | None = None, profile: str | None = None, settings: dict[str, Any] | None = None,
               console: bool = False, trace: str | os.PathLike[str] | None = None,
               record: str | os.PathLike[str] | None = None, **llm_options: Any) -> Agent:
    """An :class:`Agent` ready to run.

    `llm`: a backend object or a spec ("openai:gpt-4.1", "deepseek:deepseek-chat", "local", "replay:run.jsonl");
    None picks one from the environment (see :mod:`autodw.llm.factory`). `classifier`: None loads the trained
    intent model (training it first, with a progress bar, if there is none). `console`: print progress.
    `trace`: write every event to this JSON Lines file. `record`: save every LLM exchange to this cassette.

    The agent is made as `assembly` describes; else as the profile named by `profile` ("paper", "hosted", "local");
    else as the backend's own (a replay cassette's recorded assembly, else the profile the backend declares).
    `settings` then change its numbers or parts (:meth:`Assembly.override`; an unknown name or a bad value is a
    ConfigError).
    """
    if assembly is not None and profile is not None:
        raise ConfigError("give an assembly or a profile, not both")
    if llm is None or isinstance(llm, str):
        from autodw.llm.factory import make_llm

        llm = make_llm(llm, **llm_options)
    if assembly is None:
        assembly = profile_assembly(profile) if profile is not None else assembly_for(llm)
    assembly = assembly.override(**(settings or {}))
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
    return Agent(llm, classifier, assembly=assembly, sinks=sinks)
