"""Running a session's instructions in order: the events, timings and statuses around carrying out each one, the same
for the agent and for the one-shot baselines (which carry instructions out in their own way).

Any exception that no typed error describes is our bug: the instruction ends as ``internal_error`` and
:class:`~autodw.core.errors.InternalError` is raised, never shown to the LLM.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from autodw.agent.assembly import Assembly
from autodw.agent.context import Asker, Events, InstructionContext
from autodw.agent.events import EventSink
from autodw.agent.outcomes import InstructionOutcome, Status
from autodw.agent.records import InstructionResult, RunResult
from autodw.core.document import Snapshot, WordDocument
from autodw.core.errors import AutodwError, ContextOverflowError, InternalError, StateExtractionError
from autodw.llm.base import LLMBackend
from autodw.llm.replay import RecordingBackend

#: carries out one instruction (its record's steps filled as it goes) and says how it ended
CarryOut = Callable[[InstructionContext], InstructionOutcome]


class SessionRunner:
    """Runs instructions with one way of carrying them out (`carry_out`) and one LLM backend; `assembly` describes
    what carries them out (kept in traces, and first in a recording backend's cassette)."""

    def __init__(self, llm: LLMBackend, assembly: Assembly, carry_out: CarryOut, sinks: list[EventSink] | None = None):
        self.llm, self.assembly, self.carry_out = llm, assembly, carry_out
        self.sinks: list[EventSink] = list(sinks or [])  # where the events go (a list the caller may change)
        self.events = Events(self.sinks)
        self.last_complete: Snapshot | None = None
        if isinstance(llm, RecordingBackend):
            llm.record_config(assembly.to_dict())

    def run(self, doc: WordDocument, instructions: list[str], result: RunResult | None = None) -> RunResult:
        """Carry out `instructions` in order on `doc` (a session). `result` is filled as the run goes, so a caller that
        catches an interruption (or an InternalError) still has everything done so far; :attr:`last_complete` holds a
        snapshot of the document after the last finished instruction."""
        result = result if result is not None else RunResult()
        ask = Asker(self.llm, self.assembly.numbers.output_retries, result.usage, self.events)
        start = time.perf_counter()
        self.last_complete = doc.snapshot()
        self.events("run_start", {"llm": self.llm.name, "profile": self.assembly.profile, "instructions": instructions,
                                  "config": self.assembly.to_dict()})
        try:
            for n, instruction in enumerate(instructions, 1):
                self.events("instruction_start", {"number": n, "total": len(instructions), "instruction": instruction})
                record = InstructionResult(instruction)
                result.instructions.append(record)
                self._run_instruction(InstructionContext(doc, record, result, result.instructions[:-1], ask, self.events))
                self.last_complete = doc.snapshot()
        finally:
            result.seconds = time.perf_counter() - start
            steps = sum(len(i.steps) for i in result.instructions)
            self.events("run_end", {"instructions": len(result.instructions), "steps": steps,
                                    "api_calls": sum(i.api_calls for i in result.instructions),
                                    "llm_calls": result.total_usage.calls, "total_tokens": result.total_usage.total_tokens,
                                    "usage": {r: u.to_dict() for r, u in result.usage.items()}, "seconds": result.seconds})
        return result

    def close(self) -> None:
        """Close the trace file and a recording cassette, if any."""
        for owner in (*self.sinks, self.llm):
            close: Any = getattr(owner, "close", None)
            if callable(close):
                close()

    def _run_instruction(self, instruction: InstructionContext) -> None:
        """Carry out the instruction; how it ended goes into its record (an error of ours is raised)."""
        start, record = time.perf_counter(), instruction.record
        try:
            try:
                outcome = self.carry_out(instruction)
            except StateExtractionError as exc:
                outcome = InstructionOutcome(Status.ERROR, f"the document state could not be read: {exc}")
            except ContextOverflowError as exc:  # this instruction's prompt is too long for the model: it fails, not the run
                outcome = InstructionOutcome(Status.CONTEXT_OVERFLOW, str(exc))
            record.status, record.error = outcome.status.value, outcome.error
        except AutodwError:  # the LLM backend failed (or a replay missed): the caller decides
            raise
        except Exception as exc:  # our bug: the instruction ends, the caller gets an InternalError
            error = InternalError.wrap(exc, "the agent")
            record.status, record.error = Status.INTERNAL_ERROR.value, str(error)
            self.events("internal_error", {"error": str(error), "traceback": error.traceback})
            if error is exc:
                raise
            raise error from exc
        finally:
            record.seconds = time.perf_counter() - start
            self.events("instruction_end", {"status": record.status, "steps": len(record.steps), "error": record.error,
                                            "steps_not_kept": record.steps_not_kept(),
                                            "api_calls": record.api_calls, "seconds": record.seconds,
                                            "accepted_calls": record.accepted_calls()})
