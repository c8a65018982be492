"""An agent's trace (the JSON Lines a :class:`autodw.agent.events.TraceWriter` writes) as a timeline: for each
instruction its steps, each step with its sub-instruction, intents, candidate APIs, the calls tried (with their
change summaries), the validator's verdicts and rule-check findings, rollbacks, and the LLM calls it took (tokens,
seconds). A line that cannot be read, or a trace that stops early, is a :class:`~autodw.interfaces.explore.runs.Gap`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autodw.interfaces.explore.runs import Gap

PROMPT_CHARS = 4000  # of an LLM call's last message shown (the whole prompt stays in the trace file)


@dataclass
class LlmCall:
    role: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float | None
    model: str | None
    prompt: str  # the last message sent, clipped to PROMPT_CHARS
    response: str


@dataclass
class Attempt:
    """One call tried for a step, and what became of it."""

    level: str  # first, arg (argument-level retry), api (API-level retry)
    call: str
    ok: bool | None
    message: str | None = None
    error: str | None = None
    changes: str | None = None
    repaired: bool = False
    verdict: dict[str, Any] | None = None  # decision, confidence, explanation, accepted, rule (the checks that fired)
    rollback: str | None = None  # the level tried next after it was rolled back
    redundant: dict[str, Any] | None = None  # the planner repeated an earlier step (undone, the instruction ends)


@dataclass
class Step:
    """One step of the trace: the planner's ``plan`` event for it as written (its sub-instruction, the work it said
    remains, its reason), the intents and candidates it was classified into, and what followed."""

    number: int
    plan: dict[str, Any] = field(default_factory=dict)
    classified: tuple[list[tuple[str, float]], list[str]] = field(default_factory=lambda: ([], []))  # intents, candidates
    attempts: list[Attempt] = field(default_factory=list)
    llm_calls: list[LlmCall] = field(default_factory=list)
    invalid_outputs: list[str] = field(default_factory=list)  # answers of the LLM that were asked again
    started: float | None = None
    ended: float | None = None
    failed: dict[str, Any] | None = None  # step_failed: no level left, nothing of it kept (level, rejected, reason)

    @property
    def sub_instruction(self) -> str:
        return str(self.plan.get("sub_instruction") or "")

    @property
    def remaining(self) -> list[str]:
        return [str(r) for r in self.plan.get("remaining") or []]

    @property
    def reason(self) -> str | None:
        return self.plan.get("reason")

    @property
    def intents(self) -> list[tuple[str, float]]:
        return self.classified[0]

    @property
    def candidates(self) -> list[str]:
        return self.classified[1]

    @property
    def tokens(self) -> int:
        return sum(c.prompt_tokens + c.completion_tokens for c in self.llm_calls)

    @property
    def seconds(self) -> float | None:
        return None if self.started is None or self.ended is None else round(self.ended - self.started, 3)


@dataclass
class TracedInstruction:
    number: int
    text: str
    steps: list[Step] = field(default_factory=list)
    done_reason: str | None = None  # why the planner ended the instruction
    closing_calls: list[LlmCall] = field(default_factory=list)  # the planner's calls after the last step
    end: dict[str, Any] | None = None  # instruction_end: status, error, steps_not_kept, api_calls, seconds
    internal_error: str | None = None
    notes: list[str] = field(default_factory=list)  # the planner's refused answers
    other_events: list[dict[str, Any]] = field(default_factory=list)  # events this explorer does not know

    def step(self, number: Any) -> Step:
        """Step `number`, added when the trace has not introduced it (a baseline's steps have no plan event)."""
        for s in self.steps:
            if s.number == number:
                return s
        self.steps.append(Step(number if isinstance(number, int) else len(self.steps) + 1))
        return self.steps[-1]


@dataclass
class Trace:
    path: Path
    start: dict[str, Any] | None = None  # run_start: llm, profile, instructions, config
    instructions: list[TracedInstruction] = field(default_factory=list)
    end: dict[str, Any] | None = None  # run_end: totals
    gaps: list[Gap] = field(default_factory=list)


def _llm_call(d: dict[str, Any]) -> LlmCall:
    usage = d.get("usage") if isinstance(d.get("usage"), dict) else {}
    messages = d.get("messages") if isinstance(d.get("messages"), list) else []
    last = messages[-1].get("content", "") if messages and isinstance(messages[-1], dict) else ""
    last = last if isinstance(last, str) else json.dumps(last, ensure_ascii=False)
    clipped = last if len(last) <= PROMPT_CHARS else last[:PROMPT_CHARS] + f"\n... ({len(last) - PROMPT_CHARS} more characters)"
    return LlmCall(str(d.get("role", "?")), int(usage.get("prompt_tokens") or 0),
                   int(usage.get("completion_tokens") or 0), d.get("seconds"), d.get("model"), clipped,
                   str(d.get("response", "")))


class _Reader:
    """Folds the events of a trace into a :class:`Trace`, one at a time."""

    def __init__(self, trace: Trace):
        self.trace = trace
        self.pending: list[LlmCall] = []  # planner calls made before the step they planned
        self.pending_since: float | None = None
        self.last_t: float | None = None
        self.current: Step | None = None

    def instruction(self) -> TracedInstruction:
        if not self.trace.instructions:  # events before any instruction_start (a trace cut at its head)
            self.trace.gaps.append(Gap("trace", "events before the first instruction_start: shown as instruction 1"))
            self.trace.instructions.append(TracedInstruction(1, ""))
        return self.trace.instructions[-1]

    def feed(self, event: str, d: dict[str, Any]) -> None:
        t = d.get("t") if isinstance(d.get("t"), (int, float)) else None
        handler = getattr(self, f"_on_{event}", None)
        if handler is None:
            self.instruction().other_events.append(d)
        else:
            handler(d, t)
        if t is not None:
            self.last_t = t

    def _on_run_start(self, d: dict[str, Any], t: float | None) -> None:
        self.trace.start = d

    def _on_run_end(self, d: dict[str, Any], t: float | None) -> None:
        self.trace.end = d

    def _on_instruction_start(self, d: dict[str, Any], t: float | None) -> None:
        self.trace.instructions.append(TracedInstruction(d.get("number", len(self.trace.instructions) + 1),
                                                         str(d.get("instruction", ""))))
        self.current, self.pending = None, []

    def _on_llm_call(self, d: dict[str, Any], t: float | None) -> None:
        call = _llm_call(d)
        if call.role == "planner" or self.current is None:
            if not self.pending:
                self.pending_since = self.last_t
            self.pending.append(call)
        else:
            self.current.llm_calls.append(call)
            self.current.ended = t

    def _on_invalid_output(self, d: dict[str, Any], t: float | None) -> None:
        note = f"{d.get('role', '?')} answer {d.get('attempt', '?')} refused and asked again: {d.get('error', '')}"
        if self.current is not None and d.get("role") != "planner":
            self.current.invalid_outputs.append(note)
        else:
            self.instruction().notes.append(note)

    def _on_plan(self, d: dict[str, Any], t: float | None) -> None:
        ins = self.instruction()
        if d.get("done"):
            ins.done_reason = str(d.get("reason") or "the planner says the instruction is complete")
            ins.closing_calls += self.pending
            self.pending = []
            return
        step = ins.step(d.get("step"))
        step.plan = {k: v for k, v in d.items() if k not in ("t", "event", "step")}
        step.llm_calls = self.pending + step.llm_calls
        step.started = self.pending_since if self.pending else self.last_t
        step.ended = t
        self.current, self.pending = step, []

    def _step(self, d: dict[str, Any], t: float | None) -> Step:
        step = self.instruction().step(d.get("step"))
        if step.started is None:
            step.started = self.last_t
        step.ended = t
        self.current = step
        return step

    def _on_intents(self, d: dict[str, Any], t: float | None) -> None:
        step = self._step(d, t)
        step.classified = ([(str(i[0]), float(i[1])) for i in d.get("intents") or [] if isinstance(i, list) and len(i) == 2],
                           [str(c) for c in d.get("candidates") or []])

    def _on_attempt(self, d: dict[str, Any], t: float | None) -> None:
        self._step(d, t).attempts.append(Attempt(
            str(d.get("level", "?")), str(d.get("call", "")), d.get("ok"), d.get("message"), d.get("error"),
            d.get("changes"), bool(d.get("repaired"))))

    def _last_attempt(self, d: dict[str, Any], t: float | None, what: str) -> Attempt | None:
        step = self._step(d, t)
        if not step.attempts:
            self.trace.gaps.append(Gap("trace", f"a {what} of step {step.number} before any call of it: not shown"))
            return None
        return step.attempts[-1]

    def _on_verdict(self, d: dict[str, Any], t: float | None) -> None:
        if (attempt := self._last_attempt(d, t, "verdict")) is not None:
            attempt.verdict = {k: v for k, v in d.items() if k not in ("t", "event", "step")}

    def _on_rollback(self, d: dict[str, Any], t: float | None) -> None:
        if (attempt := self._last_attempt(d, t, "rollback")) is not None:
            attempt.rollback = str(d.get("next", "?"))

    def _on_step_failed(self, d: dict[str, Any], t: float | None) -> None:
        self._step(d, t).failed = {k: v for k, v in d.items() if k not in ("t", "event", "step")}

    def _on_redundant_step(self, d: dict[str, Any], t: float | None) -> None:
        if (attempt := self._last_attempt(d, t, "repeated step")) is not None:
            attempt.redundant = d

    def _on_internal_error(self, d: dict[str, Any], t: float | None) -> None:
        self.instruction().internal_error = str(d.get("error", ""))

    def _on_instruction_end(self, d: dict[str, Any], t: float | None) -> None:
        ins = self.instruction()
        ins.end = d
        ins.closing_calls += self.pending
        self.current, self.pending = None, []


def read_trace(path: Path) -> Trace:
    """The timeline of the trace at `path`; its unreadable lines and an early end are gaps, never errors."""
    trace = Trace(Path(path))
    try:
        lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        trace.gaps.append(Gap("trace", f"cannot be read: {exc.strerror or exc}"))
        return trace
    reader = _Reader(trace)
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError as exc:
            trace.gaps.append(Gap("trace", f"line {n} is not JSON ({exc}): skipped"))
            continue
        if not isinstance(data, dict) or not isinstance(data.get("event"), str):
            trace.gaps.append(Gap("trace", f"line {n} is not an event (a JSON object with an 'event'): skipped"))
            continue
        reader.feed(data["event"], data)
    if trace.end is None:
        trace.gaps.append(Gap("trace", "it ends before run_end: the run stopped (killed, interrupted or crashed) "
                                       "while it was writing it"))
    return trace
