"""What the agent's parts work with: the model (one role's checked JSON answer, its usage counted and its exchange
traced), the event sinks, and the situation of the step at hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from autodw.agent.events import EventSink
from autodw.agent.records import InstructionResult, RunResult, Step
from autodw.core.document import WordDocument
from autodw.core.errors import ApiError, LLMOutputError
from autodw.llm.base import Completion, LLMBackend, Message, Usage
from autodw.llm.jsonout import ask_json
from autodw.analysis.state import State

T = TypeVar("T")


class Events:
    """Sends each event to every sink of `sinks` (a list its owner may change)."""

    def __init__(self, sinks: list[EventSink]):
        self.sinks = sinks

    def __call__(self, event: str, data: dict[str, Any]) -> None:
        for sink in self.sinks:
            sink(event, data)


@dataclass(frozen=True)
class Asker:
    """Asks a role of the model for an answer during one run: :func:`ask_json` (``retries`` times asked again), the
    usage added to the run's tally per role, every exchange and invalid answer sent as an event."""

    llm: LLMBackend
    retries: int
    usage: dict[str, Usage]  # the run's tally (RunResult.usage)
    emit: Callable[[str, dict[str, Any]], None]

    def __call__(self, role: str, msgs: list[Message], schema: dict[str, Any], check: Callable[[dict], T],
                 max_tokens: int | None = None, cut_hint: str = "") -> T:
        """The role's answer as `check` makes it (LLMOutputError when none is valid). `max_tokens`: the answer's limit
        (None: the backend's); `cut_hint`: how to answer shorter, told to an answer cut at that limit."""
        def answered(conversation: list[Message], completion: Completion) -> None:
            self.usage[role].add(completion.usage)
            self.emit("llm_call", {"role": role, "messages": conversation, "response": completion.text,
                                   "usage": completion.usage.to_dict(), "seconds": completion.seconds,
                                   "model": completion.model})

        return ask_json(self.llm, msgs, role=role, schema=schema, check=check, retries=self.retries,
                        max_tokens=max_tokens, cut_hint=cut_hint, correctable=(LLMOutputError, ApiError), on_answer=answered,
                        on_invalid=lambda attempt, error: self.emit("invalid_output", {"role": role, "attempt": attempt,
                                                                                        "error": error}))


@dataclass(frozen=True)
class InstructionContext:
    """What carrying out one instruction works with."""

    doc: WordDocument
    record: InstructionResult  # the instruction's record, filled as it goes
    run: RunResult  # the session so far (its usage counts the LLM calls)
    session: list[InstructionResult]  # the session's earlier instructions
    ask: Asker
    emit: Callable[[str, dict[str, Any]], None]


@dataclass
class StepContext:
    """What every part working on one step is given."""

    doc: WordDocument
    step: Step
    before: State  # the document state when the step began
    record: InstructionResult
    request: str  # the user's request the step serves: the instruction, or one of its requests when it is split
    ask: Asker
    emit: Callable[[str, dict[str, Any]], None]
    previous: str = ""  # the session's instruction before this one ("" for the first): what a follow-up refers back to
