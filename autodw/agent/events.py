"""Where the agent's events go: a JSON Lines trace for audit/replay and a console a person can follow."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO


@dataclass(frozen=True)
class TraceEvent:
    """One kind of event the agent emits: what it marks and the fields its data has (each with what it holds)."""

    description: str
    fields: dict[str, str]


#: Every field of a trace line besides the event's own: :class:`TraceWriter` adds them.
TRACE_LINE_FIELDS: dict[str, str] = {"t": "Unix time the line was written, in seconds (3 decimals)",
                                     "event": "the event's kind: a key of TRACE_EVENTS"}

#: The events the agent emits, in the order a run emits them (a test checks that the code emits exactly these, with
#: these fields; the reference page ``docs/reference/trace-events.md`` is written from it). Fields marked
#: "(optional)" are left out when they do not apply.
TRACE_EVENTS: dict[str, TraceEvent] = {
    "run_start": TraceEvent("a run of one or more instructions (a session) begins", {
        "llm": "the backend's name, e.g. local:qwen2.5-coder-1.5b-q4km",
        "profile": "the assembly's profile: paper, hosted or local",
        "instructions": "the session's instructions, in order",
        "config": "the whole assembly (parts and numbers), as replay:CASSETTE rebuilds it"}),
    "instruction_start": TraceEvent("one instruction of the session begins", {
        "number": "its number in the session, from 1", "total": "how many instructions the session has",
        "instruction": "the instruction's text"}),
    "llm_call": TraceEvent("a role of the model answered (every exchange, retries included)", {
        "role": "planner, api_chooser, api_generator or validator",
        "messages": "the prompt, as chat messages", "response": "the answer's text",
        "usage": "prompt, completion and total tokens (cached prompt tokens where the backend says)",
        "seconds": "how long the answer took", "model": "the model that answered"}),
    "invalid_output": TraceEvent("an answer was not valid (not JSON, or against its schema); the role is asked again", {
        "role": "the role that answered", "attempt": "which answer of the role this was, from 1",
        "error": "what was wrong with it (shown to the model when it is asked again)"}),
    "plan": TraceEvent("the planner gave the next sub-instruction, or said the instruction is done", {
        "step": "the number of the step it plans, from 1",
        "done": "true when the planner says the instruction (or its request) is done",
        "sub_instruction": "the one atomic step to do next (when done: null, or what the planner wrote)",
        "remaining": "(optional) the operations the planner expects to remain after this step",
        "other_request": "(optional) the planner re-planned an accepted step: another request's (true) or its own (false)",
        "reason": "(optional) why the plan ends or was replaced"}),
    "intents": TraceEvent("the intent filter chose the step's candidate APIs", {
        "step": "the step's number", "intents": "the top intents kept, as [name, probability] pairs",
        "candidates": "the API names offered to the generator"}),
    "attempt": TraceEvent("one generated call was executed (or could not be)", {
        "step": "the step's number",
        "level": "first, arg (argument-level rollback) or api (API-level rollback)",
        "call": "the call as text, api(args); \"(none)\" when no valid call was generated",
        "ok": "(optional) whether the call ran without error",
        "message": "(optional) what the API reported",
        "error": "the error of a call that failed or was refused, else null",
        "changes": "(optional) the change analysis' summary of what the call did",
        "created": "(optional) the ids of the elements the call made",
        "repaired": "(optional) the rule checks' fix of its rejection was applied to a repeated call"}),
    "verdict": TraceEvent("the validation of an executed call: accepted or rejected", {
        "step": "the step's number",
        "rule": "(optional) the rule checks that rejected the call on their own (empty: none objected)",
        "decision": "pass, fail or none (no valid answer: read as unsure)", "confidence": "from 0 to 1",
        "explanation": "why", "accepted": "whether the call is kept",
        "repair": "the rule checks' fixes of a rejected call (argument values), or null",
        "wrong_api": "a rule check found the API cannot do what was asked (straight to API-level rollback)"}),
    "redundant_step": TraceEvent("the step repeats an accepted call: it is undone and the instruction ends", {
        "step": "the step's number", "repeats": "the number of the step it repeats",
        "changed": "whether the repeated call changed the document again (a loop)",
        "copy": "whether it put the content next to the copy the first call made"}),
    "rollback": TraceEvent("the attempt was rejected or failed: the document is restored and the call regenerated", {
        "step": "the step's number", "next": "the level of the next attempt: arg or api"}),
    "step_failed": TraceEvent("the last level's attempt was rejected (and undone) or failed: nothing of the step is "
                              "kept, the document is as before it, and the planner sees the step failed", {
        "step": "the step's number", "level": "the level of its last attempt: first, arg or api",
        "rejected": "whether that call ran and the validator rejected it (refuse_repeated_steps then ends the "
                    "request if the same step is planned again); false: it failed",
        "reason": "the rejection's explanation or the error, as the step's record keeps it (failure)"}),
    "internal_error": TraceEvent("a bug of autodw ended the instruction (never shown to the model)", {
        "error": "the error's message", "traceback": "its traceback"}),
    "instruction_end": TraceEvent("the instruction ended", {
        "status": "done, step_limit, call_limit, error, context_overflow or internal_error",
        "steps": "how many steps it took", "error": "what stopped it, or null",
        "steps_not_kept": "the steps whose every call failed or was rolled back",
        "api_calls": "document API calls executed", "seconds": "its wall time",
        "accepted_calls": "the calls kept, in order"}),
    "ceiling": TraceEvent("only under autodw bench ceiling: the perfect model's prompt did not show what the gold step "
                          "needs, so it answered forced-wrong or stopped (autodw.eval.ceiling)", {
        "role": "the role whose prompt fell short", "gold_step": "the gold step (from 1), or null: no gold step left",
        "api": "the gold step's API, or null", "cause": "the first cause: intent filter, planner view, ...",
        "detail": "what was missing", "also": "the other causes at that prompt, each with its detail",
        "interpreted": "values a model interprets rather than copies, not required to be shown"}),
    "ceiling_turn": TraceEvent("only under autodw bench ceiling: the instruction's diagnosis, as the run ends", {
        "gold_steps": "how many gold calls the instruction has", "kept": "the gold calls kept, in order",
        "status": "the instruction's end status", "obstacles": "every ceiling event of the instruction",
        "failed_step": "the first gold step not kept (from 1), or null",
        "cause": "what stopped it (null: every gold call kept)", "detail": "the cause's detail"}),
    "run_end": TraceEvent("the run ended (also after an interruption or an error)", {
        "instructions": "instructions run", "steps": "steps in all", "api_calls": "document API calls in all",
        "llm_calls": "LLM calls in all", "total_tokens": "tokens in all",
        "usage": "calls and tokens per role", "seconds": "the run's wall time"}),
}


class EventSink(Protocol):
    """Receives every event the agent emits: ``sink(event_name, data)``."""

    def __call__(self, event: str, data: dict[str, Any]) -> None: ...


class TraceWriter:
    """Writes each event as one JSON line (with a timestamp), flushed at once so a crash keeps the trace."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = self.path.open("w", encoding="utf-8")

    def __call__(self, event: str, data: dict[str, Any]) -> None:
        self._fh.write(json.dumps({"t": round(time.time(), 3), "event": event, **data}, ensure_ascii=False, default=str) + "\n")
        self._fh.flush()

    def close(self) -> None:
        """Close the trace file."""
        self._fh.close()


class ConsoleReporter:
    """Human-readable progress: sub-instructions, intents, calls, changes, verdicts, rollbacks, totals."""

    def __init__(self, stream: TextIO | None = None, max_change_lines: int = 6):
        self.out = stream or sys.stdout
        self.max_change_lines = max_change_lines

    def _p(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def __call__(self, event: str, d: dict[str, Any]) -> None:
        handler = getattr(self, f"_on_{event}", None)
        if handler is not None:
            handler(d)

    def _on_instruction_start(self, d: dict[str, Any]) -> None:
        self._p(f"\n[{d['number']}/{d['total']}] {d['instruction']}")

    def _on_plan(self, d: dict[str, Any]) -> None:
        if d.get("done"):
            self._p(f"  planner: done ({d.get('reason') or 'instruction complete'})")
        else:
            self._p(f"  step {d['step']}: {d['sub_instruction']}")
            if d.get("remaining"):
                self._p(f"    then: {'; '.join(d['remaining'])}")

    def _on_intents(self, d: dict[str, Any]) -> None:
        shown = ", ".join(f"{name} {p:.2f}" for name, p in d["intents"])
        self._p(f"    intents: {shown} -> {len(d['candidates'])} candidate APIs")

    def _on_attempt(self, d: dict[str, Any]) -> None:
        label = {"first": "call", "arg": "retry (argument-level rollback)", "api": "retry (API-level rollback)"}[d["level"]]
        self._p(f"    {label}: {d['call']}" + (" (the fix of its rejection applied to the repeated call)" if d.get("repaired") else ""))
        if d.get("error"):
            self._p(f"      failed: {d['error']}")
        elif d.get("changes"):
            lines = d["changes"].splitlines()
            for line in lines[: self.max_change_lines]:
                self._p(f"      {line}")
            if len(lines) > self.max_change_lines:
                self._p(f"      ... {len(lines) - self.max_change_lines} more change lines")

    def _on_verdict(self, d: dict[str, Any]) -> None:
        outcome = "accepted" if d["accepted"] else "rejected"
        self._p(f"    validator: {d['decision']} ({d['confidence']:.2f}) -> {outcome}: {d['explanation']}")

    def _on_redundant_step(self, d: dict[str, Any]) -> None:
        if d.get("copy"):
            self._p(f"    the content of step {d['repeats']} again, next to the copy it made: undone, instruction ends")
        elif d.get("changed"):
            self._p(f"    the same call as step {d['repeats']} once more: a loop; undone, instruction ends")
        else:
            self._p(f"    the same call as step {d['repeats']}, which changed nothing: that work is done; instruction ends")

    def _on_rollback(self, d: dict[str, Any]) -> None:
        self._p(f"    rollback: document restored; next: {d['next']}-level")

    def _on_step_failed(self, d: dict[str, Any]) -> None:
        self._p(f"    no level left: nothing of step {d['step']} kept" + (" (document restored)" if d.get("rejected") else ""))

    def _on_instruction_end(self, d: dict[str, Any]) -> None:
        status = {"done": "done", "step_limit": "STOPPED: step limit reached",
                  "call_limit": "STOPPED: LLM call limit reached", "error": "FAILED",
                  "internal_error": "INTERNAL ERROR (a bug in autodw)"}.get(d["status"], d["status"])
        lost = d.get("steps_not_kept") or []
        self._p(f"  -> {status} after {d['steps']} step(s), {d['api_calls']} API call(s), {d['seconds']:.1f} s"
                + (f"; step {', '.join(map(str, lost))} kept no change" if lost else "")
                + (f": {d['error']}" if d.get("error") else ""))

    def _on_run_end(self, d: dict[str, Any]) -> None:
        usage = d["usage"]
        per_role = ", ".join(f"{role} {u['total_tokens']:,}" for role, u in usage.items() if u["calls"])
        self._p(f"\nTotals: {d['instructions']} instruction(s), {d['steps']} step(s), {d['api_calls']} API call(s), "
                f"{d['llm_calls']} LLM call(s), {d['total_tokens']:,} tokens ({per_role or 'none'}), {d['seconds']:.1f} s")
