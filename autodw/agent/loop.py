"""The AutoDW loop, composed of public parts (:mod:`autodw.agent.parts`): stepwise planning, intent-filtered API
generation, execution with state tracking, validation, and dual-level rollback (argument-level, then API-level).

For each instruction (each of its requests, when the assembly splits them), until the planner stops or a limit is
hit: the :class:`~autodw.agent.planner.Planner` gives ONE atomic sub-instruction; the
:class:`~autodw.agent.intent_filter.IntentFilter` narrows the APIs to its candidates; then :meth:`Agent._run_step`
carries the step out (generate, snapshot, execute, read the state, analyse the change, validate; accept, or roll
back and regenerate at argument level, then API level). The last level's call is kept whatever it is (the paper), or
validated like the others (``last_level: validate``): rejected, it is undone too, and the step fails with its reason.

What the agent is made of is an :class:`~autodw.agent.assembly.Assembly` (a profile's, or a replay cassette's
recorded one); the events, timings and statuses around each instruction are :mod:`autodw.agent.runs`'.
"""

from __future__ import annotations

import json

from autodw.agent import grounding, prompts
from autodw.agent.assembly import Assembly, assembly_for
from autodw.agent.context import InstructionContext, StepContext
from autodw.agent.events import EventSink
from autodw.agent.generator import CallRequest, NoCall
from autodw.agent.intent_filter import IntentClassifier
from autodw.agent.outcomes import NOT_TAKEN_UP, Executed, InstructionOutcome, ObservedChange, Plan, RequestOutcome, Status, StepOutcome
from autodw.agent.parts import Parts, assemble
from autodw.agent.planner import PlannerStalled, PlanRequest
from autodw.agent.records import Attempt, RunResult, Step
from autodw.agent.rollback import Rollback
from autodw.agent.runs import SessionRunner
from autodw.apis.calls import execute
from autodw.apis.registry import Registry
from autodw.core.document import Snapshot, WordDocument
from autodw.core.ids import ids_listed
from autodw.core.errors import ApiError, ConfigError, StateExtractionError
from autodw.llm.base import LLMBackend
from autodw.analysis.state import StateCache


class Agent:
    """Runs instructions on a document with an LLM backend and the parts an assembly names.

    `assembly`: None takes the backend's (a replay cassette's recorded one, else the backend's profile: see
    :func:`autodw.agent.assembly.assembly_for`); its parts are built with `classifier`. A system that brings its own
    parts gives `parts` (then no classifier) and the assembly that describes them. A recording backend keeps the
    assembly in its cassette. `states`: where the document's states are kept by revision (each read once; a system
    whose parts read states too shares its own).
    """

    def __init__(self, llm: LLMBackend, classifier: IntentClassifier | None = None, *, registry: Registry | None = None,
                 assembly: Assembly | None = None, parts: Parts | None = None, sinks: list[EventSink] | None = None,
                 states: StateCache | None = None):
        if registry is None:
            from autodw.apis import registry as load_registry

            registry = load_registry()
        self.llm, self.registry = llm, registry
        self.assembly = assembly if assembly is not None else assembly_for(llm)
        if parts is None:
            if classifier is None:
                raise ConfigError("an agent built from its assembly needs an intent classifier")
            parts = assemble(self.assembly, classifier, registry)
        elif classifier is not None:
            raise ConfigError("an agent given its parts takes no intent classifier (its intent filter is one of them)")
        self.parts = parts
        self.states = states if states is not None else StateCache()
        self.config = self.assembly.numbers
        self.runner = SessionRunner(llm, self.assembly, self._carry_out, sinks)

    # --- public -------------------------------------------------------------------------

    def run(self, doc: WordDocument, instructions: list[str], result: RunResult | None = None) -> RunResult:
        """Carry out `instructions` in order on `doc` (a session); see :meth:`SessionRunner.run`."""
        return self.runner.run(doc, instructions, result)

    @property
    def sinks(self) -> list[EventSink]:
        """Where the events go (a list the caller may change)."""
        return self.runner.sinks

    @property
    def last_complete(self) -> Snapshot | None:
        """The document after the last finished instruction of the current run."""
        return self.runner.last_complete

    def close(self) -> None:
        """Close the trace file and a recording cassette, if any."""
        self.runner.close()

    # --- an instruction, a request -----------------------------------------------------------

    def _carry_out(self, instruction: InstructionContext) -> InstructionOutcome:
        """Each request of the instruction in turn (every one runs, whatever the others did)."""
        message, record = instruction.record.instruction, instruction.record
        texts = self.parts.split(message)
        previous = grounding.referred(self.states.of(instruction.doc), [s.instruction for s in instruction.session],
                                      message)
        # the requests of a split message may share the planner's view of the document as the message began (their
        # steps' elements shown as they are now after it), so its long prompt prefix is evaluated once
        view = (self.parts.planner_view.for_message(lambda: self.states.of(instruction.doc), message, record, previous)
                if len(texts) > 1 else None)
        return InstructionOutcome.of_requests([self._run_request(instruction, text, k, len(texts), view)
                                               for k, text in enumerate(texts, 1)])

    def _run_request(self, instruction: InstructionContext, request: str, number: int, of: int,
                     view: str | None) -> RequestOutcome:
        """Plan and carry out `request` (request `number` of the message's `of`) until the planner stops, or a limit.
        `view`: the planner's view the message's requests share (None: each request has its own)."""
        doc, record, run = instruction.doc, instruction.record, instruction.run
        calls_before, first_step = run.total_usage.calls, len(record.steps) + 1
        previous = grounding.referred(self.states.of(doc), [s.instruction for s in instruction.session], request)
        context = "" if of == 1 else (
            f"The user's message makes {of} requests; this is request {number}: do it alone (the others are done "
            f"before or after it). The whole message: {record.instruction}\n\n")
        for _ in range(self.config.max_steps):
            limit = self.config.max_llm_calls
            if limit is not None and run.total_usage.calls - calls_before >= limit:
                return RequestOutcome(Status.CALL_LIMIT)
            state = self.states.of(doc)  # the state the last accepted call left, read once
            view = self.parts.planner_view.for_step(state, request, record, view, previous)
            try:
                plan = self.parts.planner.next_step(PlanRequest(
                    request, of, context, first_step, record, instruction.session, state, view,
                    self.parts.planner_view.history(record, state), instruction.ask))
            except PlannerStalled as exc:
                if of == 1 or len(record.steps) >= first_step:
                    return RequestOutcome(Status.ERROR, str(exc))
                plan = _request_as_step(request, f"the planner gave no step of this request ({exc})")
            if plan.stop in NOT_TAKEN_UP and len(record.steps) < first_step:
                plan = _request_as_step(request, f"the planner gave no step of this request ({plan.reason})")
            instruction.emit("plan", {"step": len(record.steps) + 1, **plan.event()})
            if plan.done:
                return RequestOutcome(Status.DONE)
            step = Step(number=len(record.steps) + 1, sub_instruction=plan.step_text)
            record.steps.append(step)
            outcome = self._run_step(StepContext(doc, step, state, record, request, instruction.ask, instruction.emit,
                                                 previous))
            if outcome is StepOutcome.REDUNDANT or self.parts.planner.done_after(plan, outcome, record):
                return RequestOutcome(Status.DONE)
        return RequestOutcome(Status.STEP_LIMIT)

    # --- one step of the paper's method -------------------------------------------------------

    def _run_step(self, ctx: StepContext) -> StepOutcome:
        """The step's candidate APIs, then attempts until one is accepted or no rollback level is left."""
        step = ctx.step
        offered = self.parts.intents.candidates(step.sub_instruction)
        step.intents, step.candidates = offered.intents, offered.apis
        ctx.emit("intents", {"step": step.number, "intents": step.intents, "candidates": step.candidates})
        rollback = Rollback(self.config.rollback_levels(), step.candidates, self.registry.names(),
                            self.config.last_level)
        while True:
            executed = self._attempt(ctx, rollback)  # generate, snapshot, execute, read the state, analyse the change
            attempt = executed.attempt
            step.attempts.append(attempt)
            for observer in self.parts.observers:
                observer.attempted(ctx, executed)
            if attempt.ok:
                repeated = self.parts.planner.repeated(attempt, ctx.record)
                if repeated is not None:  # the planner re-planned finished work: that step's call again
                    executed.undo(ctx.doc)
                    attempt.rolled_back = step.redundant = True
                    ctx.emit("redundant_step", {"step": step.number, "repeats": repeated.number,
                                                "changed": attempt.changed, "copy": attempt.args != repeated.accepted.args})
                    return StepOutcome.REDUNDANT
                if not rollback.validates or self.registry.get(attempt.api).read_only:  # kept as it is; or a call
                    attempt.accepted = True  # that only reads (find_text): nothing to validate
                    return StepOutcome.ACCEPTED
                attempt.verdict = self.parts.validator.judge(ctx, attempt, executed.after, executed.change)
                if attempt.verdict.accepted:
                    attempt.accepted = True
                    return StepOutcome.ACCEPTED
                executed.undo(ctx.doc)
                attempt.rolled_back = True
            if not rollback.escalate(attempt):
                return _failed(ctx, attempt)
            ctx.emit("rollback", {"step": step.number, "next": rollback.level})

    def _attempt(self, ctx: StepContext, rollback: Rollback) -> Executed:
        """Generate one call, execute it on a snapshot, read the state after it and analyse the change."""
        level = rollback.level
        generated = self.parts.generator.generate(CallRequest(ctx, rollback.allowed, level, rollback.feedback,
                                                              rollback.corrected()))
        if isinstance(generated, NoCall):
            attempt = Attempt(api=None, args=None, level=level, error=generated.error)
            ctx.emit("attempt", {"step": ctx.step.number, "level": level, "call": "(none)", "error": attempt.error})
            return Executed(attempt)
        attempt = Attempt(api=generated.api, args=generated.args, level=level, repaired=generated.repaired)
        executed = Executed(attempt)
        if generated.refused:
            attempt.error = generated.refused
            ctx.emit("attempt", {"step": ctx.step.number, "level": level, "call": prompts.format_call(attempt.api, attempt.args),
                                 "ok": False, "error": attempt.error})
            return executed
        try:
            result = execute(ctx.doc, generated.api, generated.args, self.registry)
            executed.snapshot = result.snapshot
            attempt.ok, attempt.message, attempt.created = True, result.message, result.created
            attempt.read_only = self.registry.get(generated.api).read_only
            if result.data is not None:
                attempt.message += " " + json.dumps(result.data, ensure_ascii=False)[:1500]
                if attempt.read_only:  # a search: the planner's view goes to what it found
                    attempt.found = ids_listed(result.data)
            try:
                executed.after = self.states.of(ctx.doc)
                attempt.changed = executed.after != ctx.before
                executed.change = ObservedChange.between(ctx.before, executed.after)
                attempt.changes = executed.change.summary
                attempt.removed = executed.change.removed_paragraphs
                attempt.removed_texts = list(executed.change.removed_texts)
            except StateExtractionError as exc:
                executed.undo(ctx.doc)
                executed.after = None
                attempt.ok, attempt.error, attempt.state_failed = False, f"the document state could not be read after the call: {exc}", True
        except ApiError as exc:  # a bad call; execute() has already restored the document
            attempt.error, attempt.fix = str(exc), dict.fromkeys(exc.omit) or None
        ctx.emit("attempt", {"step": ctx.step.number, "level": level, "call": prompts.format_call(attempt.api, attempt.args),
                             "ok": attempt.ok, "message": attempt.message, "error": attempt.error,
                             "changes": attempt.changes, "created": attempt.created, "repaired": attempt.repaired})
        return executed


def _failed(ctx: StepContext, last: Attempt) -> StepOutcome:
    """The step ends with nothing of it kept (no level left after `last`): recorded with its reason."""
    verdict = last.verdict if last.ok else None
    rejected = verdict is not None and not verdict.accepted
    ctx.step.failure = f"rejected: {verdict.explanation}" if verdict is not None and rejected else f"failed: {last.error}"
    ctx.emit("step_failed", {"step": ctx.step.number, "level": last.level, "rejected": rejected,
                             "reason": ctx.step.failure})
    return StepOutcome.NOT_KEPT


def _request_as_step(request: str, why: str) -> Plan:
    """A plan whose one step is a request of a split message as the user worded it (the planner gave none for it)."""
    return Plan.step(request, (), f"{why}: the request is the step")

