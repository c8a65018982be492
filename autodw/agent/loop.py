"""The AutoDW loop: stepwise planning, intent-filtered API generation, execution with state tracking,
validation, and dual-level rollback (argument-level, then API-level).

For each instruction, until the planner says it is done or the step limit is hit:
1. plan: the planner gives ONE atomic sub-instruction (or done);
2. classify: the intent classifier keeps the top-3 intents; their APIs are the candidates;
3. generate: the API generator returns one call, parsed and validated against the API schema (re-asked with
   the error when invalid, a bounded number of times);
4. execute and observe: the call runs on a snapshot; the new state is extracted and the change analysed;
5. validate: a certain finding of the rule checks (:mod:`autodw.agent.checks`) rejects it; otherwise the LLM
   validator judges it (unless ``llm_validator`` is off): accepted if it passes, or (the paper's rule,
   ``verdict_rule="paper"``) if it fails with a confidence below the threshold; with ``"decision"`` every fail rejects;
6. roll back: otherwise the snapshot is restored and the call regenerated: same API with new arguments, then a
   different API. The last level's result is accepted whatever it is.

The settings are an :class:`~autodw.agent.config.AgentConfig` (a backend's profile when none is given); what the
prompts show is built in :mod:`autodw.agent.views`; the heuristics for planners that re-plan finished work
(not the paper's) are in :mod:`autodw.agent.heuristics`; grounding, rule checks and request splitting (issue 18) in
:mod:`autodw.agent.grounding`, :mod:`autodw.agent.checks` and :mod:`autodw.agent.requests`. Any exception that no typed error describes is our bug: the
instruction ends as ``internal_error`` and :class:`~autodw.errors.InternalError` is raised, never shown to the LLM.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from autodw.agent import checks, grounding, heuristics, prompts, requests, views
from autodw.agent.config import AgentConfig, config_for
from autodw.agent.events import EventSink
from autodw.agent.records import Attempt, InstructionResult, RunResult, Step, Verdict
from autodw.apis.calls import execute, validate_arguments
from autodw.apis.registry import ApiSpec, Registry
from autodw.change_summary import summarize_change
from autodw.changes import analyze_change
from autodw.document import Snapshot, WordDocument
from autodw.errors import ApiError, AutodwError, ContextOverflowError, InternalError, LLMOutputError, StateExtractionError
from autodw.llm.base import Completion, LLMBackend, Message
from autodw.llm.jsonout import ask_json, validate
from autodw.llm.replay import RecordingBackend
from autodw.state import extract_state

State = dict[str, Any]
GENERATOR_GROUNDING_LINES = 6  # grounded elements listed for the API generator (its state view is small)


class IntentClassifier(Protocol):
    """Anything that ranks the eight intents for a sub-instruction."""

    def predict(self, text: str, k: int = 3) -> list[tuple[str, float]]: ...


class PlannerStalled(LLMOutputError):
    """The planner kept answering with invalid steps, or planned again a step that kept failing; the instruction
    (one request of a split one) ends as an error."""

    retryable = False


@dataclass
class StepContext:
    """What every attempt of one step works with."""

    doc: WordDocument
    step: Step
    before: State  # the document state when the step began
    record: InstructionResult
    run: RunResult
    request: str  # the user's request the step serves: the instruction, or one of its requests when it is split


@dataclass
class Outcome:
    """An attempt, the snapshot that undoes its call, and the state after the call (both None if nothing ran)."""

    attempt: Attempt
    snapshot: Snapshot | None = None
    after: State | None = None


def _undo(doc: WordDocument, outcome: Outcome) -> None:
    """Restore the document as it was before the outcome's call (a call that only read took no snapshot)."""
    if outcome.snapshot is not None:
        doc.restore(outcome.snapshot)


def _request_as_step(request: str, why: str) -> dict[str, Any]:
    """A plan whose one step is a request of a split message as the user worded it (the planner gave none for it)."""
    return {"done": False, "sub_instruction": request, "remaining": [], "reason": f"{why}: the request is the step"}


def applicable_fix(registry: Registry, api: str, args: dict[str, Any], fix: dict[str, Any] | None) -> dict[str, Any] | None:
    """`fix` if the API accepts the call with it, else None: the rule checks' value words are shared by APIs whose
    choices differ ("justify" is named, but set_image_alignment has no such value)."""
    if fix is None or api not in registry:
        return None
    try:
        validate_arguments(registry.get(api), {**args, **fix})
    except ApiError:
        return None
    return fix


def _candidate(answer: dict[str, Any], allowed: list[str]) -> str:
    """The answer's API name, if it is one of the offered ones (LLMOutputError naming them otherwise)."""
    name = answer.get("api")
    if not isinstance(name, str) or name not in allowed:
        raise LLMOutputError(f'"api" must be one of the available APIs ({", ".join(allowed)}), not {name!r}')
    return name


class Agent:
    """Runs instructions on a document with an LLM backend, an intent classifier and the API registry.

    `config`: None takes the backend's (:func:`autodw.agent.config.config_for`: a replay cassette's recorded
    configuration, else the backend's profile). A recording backend keeps the configuration in its cassette.
    """

    def __init__(self, llm: LLMBackend, classifier: IntentClassifier, registry: Registry | None = None,
                 config: AgentConfig | None = None, sinks: list[EventSink] | None = None):
        if registry is None:
            from autodw.apis import registry as load_registry

            registry = load_registry()
        self.llm = llm
        self.classifier = classifier
        self.registry = registry
        self.config = config if config is not None else config_for(llm)
        if isinstance(llm, RecordingBackend):
            llm.record_config(self.config.to_dict())
        self.sinks = list(sinks or [])
        self.last_complete: Snapshot | None = None

    # --- public -------------------------------------------------------------------------

    def run(self, doc: WordDocument, instructions: list[str], result: RunResult | None = None) -> RunResult:
        """Carry out `instructions` in order on `doc` (a session). `result` is filled as the run goes, so a
        caller that catches an interruption (or an InternalError) still has everything done so far;
        ``last_complete`` holds a snapshot of the document after the last finished instruction."""
        result = result if result is not None else RunResult()
        start = time.perf_counter()
        self.last_complete = doc.snapshot()
        self._emit("run_start", {"llm": self.llm.name, "profile": self.config.profile, "instructions": instructions,
                                 "config": self.config.to_dict()})
        try:
            for n, instruction in enumerate(instructions, 1):
                self._emit("instruction_start", {"number": n, "total": len(instructions), "instruction": instruction})
                record = InstructionResult(instruction)
                result.instructions.append(record)
                self._run_instruction(doc, instruction, record, result, session=result.instructions[:-1])
                self.last_complete = doc.snapshot()
        finally:
            result.seconds = time.perf_counter() - start
            steps = sum(len(i.steps) for i in result.instructions)
            self._emit("run_end", {"instructions": len(result.instructions), "steps": steps,
                                   "api_calls": sum(i.api_calls for i in result.instructions),
                                   "llm_calls": result.total_usage.calls, "total_tokens": result.total_usage.total_tokens,
                                   "usage": {r: u.to_dict() for r, u in result.usage.items()}, "seconds": result.seconds})
        return result

    def close(self) -> None:
        """Close the trace file and a recording cassette, if any."""
        for owner in (*self.sinks, self.llm):
            close = getattr(owner, "close", None)
            if callable(close):
                close()

    # --- one instruction ----------------------------------------------------------------

    def _run_instruction(self, doc: WordDocument, instruction: str, record: InstructionResult, run: RunResult,
                         session: list[InstructionResult]) -> None:
        """:meth:`_carry_out` the instruction; how it ended goes into `record` (an error of ours is raised)."""
        start = time.perf_counter()
        try:
            self._carry_out(doc, instruction, record, run, session)
        except StateExtractionError as exc:
            record.status, record.error = "error", f"the document state could not be read: {exc}"
        except ContextOverflowError as exc:  # this instruction's prompt is too long for the model: it fails, not the run
            record.status, record.error = "context_overflow", str(exc)
        except AutodwError:  # the LLM backend failed (or a replay missed): the caller decides
            raise
        except Exception as exc:  # our bug: the instruction ends, the caller gets an InternalError
            error = InternalError.wrap(exc, "the agent")
            record.status, record.error = "internal_error", str(error)
            self._emit("internal_error", {"error": str(error), "traceback": error.traceback})
            if error is exc:
                raise
            raise error from exc
        finally:
            record.seconds = time.perf_counter() - start
            self._emit("instruction_end", {"status": record.status, "steps": len(record.steps), "error": record.error,
                                           "steps_not_kept": record.steps_not_kept(),
                                           "api_calls": record.api_calls, "seconds": record.seconds,
                                           "accepted_calls": record.accepted_calls()})

    def _carry_out(self, doc: WordDocument, instruction: str, record: InstructionResult, run: RunResult,
                   session: list[InstructionResult]) -> None:
        """Each request of the instruction in turn (:meth:`_run_request`); the record's status says how they ended."""
        parts = requests.split(instruction) if self.config.split_requests else [instruction]
        stopped: str | None = None  # how the first request that did not finish ended (a limit, or "error")
        # the requests share the planner's view of the document as the message began (their steps' elements are
        # shown as they are now after it), so its long prompt prefix is evaluated once, not once per request
        shared = (self._planner_view(extract_state(doc), instruction, record)
                  if len(parts) > 1 and self.config.planner_state == "start" else None)
        for k, part in enumerate(parts, 1):
            context = "" if len(parts) == 1 else (
                f"The user's message makes {len(parts)} requests; this is request {k}: do it alone (the others are "
                f"done before or after it). The whole message: {instruction}\n\n")
            try:
                ended = self._run_request(doc, part, context, record, run, session, shared)
                stopped = stopped or ended  # the next requests still run
            except PlannerStalled as exc:  # this request ends; the next ones still run
                stopped, record.error = stopped or "error", record.error or str(exc)
        record.status = stopped or "done"

    def _run_request(self, doc: WordDocument, request: str, context: str, record: InstructionResult, run: RunResult,
                     session: list[InstructionResult], planner_view: str | None = None) -> str | None:
        """Plan and carry out `request` (the instruction, or one of its requests with `context` saying which) until
        the planner says it is done (None), or the limit it stopped at ("call_limit", "step_limit"). `planner_view`:
        the rendered state the planner sees (None: the document's as the request begins)."""
        calls_before, first_step = run.total_usage.calls, len(record.steps) + 1
        for _ in range(self.config.max_steps):
            limit = self.config.max_llm_calls
            if limit is not None and run.total_usage.calls - calls_before >= limit:
                return "call_limit"
            state = extract_state(doc)
            if planner_view is None or self.config.planner_state == "current":
                planner_view = self._planner_view(state, request, record)
            try:
                plan = self._plan(request, record, planner_view, state, run, session, context, first_step)
            except PlannerStalled as exc:
                if not context or len(record.steps) >= first_step:
                    raise
                plan = _request_as_step(request, f"the planner gave no step of this request ({exc})")
            if plan.get("other_request") and len(record.steps) < first_step:
                plan = _request_as_step(request, f"the planner gave no step of this request ({plan['reason']})")
            self._emit("plan", {"step": len(record.steps) + 1, **plan})
            if plan["done"]:
                return None
            step = Step(number=len(record.steps) + 1, sub_instruction=plan["sub_instruction"])
            record.steps.append(step)
            self._run_step(StepContext(doc, step, state, record, run, request))
            finished = (self.config.stop_when_nothing_remains and step.accepted
                        and heuristics.nothing_remains(plan, record, self.config.restate_ratio))
            if step.redundant or finished:
                return None
        return "step_limit"

    def _planner_view(self, state: State, text: str, record: InstructionResult) -> str:
        """The document state as the planner sees it for `text` (windowed to its budget; grounded, if set)."""
        if self.config.grounding:
            return views.grounded_view(state, text, record, self.config.planner_state_budget, quoted_in=text)
        return views.state_view(state, text, record, self.config.planner_state_budget)

    def _plan(self, instruction: str, record: InstructionResult, state_text: str, state: State,
              run: RunResult, session: list[InstructionResult], context: str = "", first_step: int = 1) -> dict[str, Any]:
        """The planner's next step for `instruction` (one request of a split message when `context` says so, whose
        steps are numbered from `first_step`)."""
        history = views.history(record, self.config.history_chars)
        if record.steps and self.config.planner_state == "start":
            history = ("(The document state above is from before these operations; the elements they changed "
                       "are shown as they are now after the list.)\n" + history + views.touched_now(record, state))
        msgs = prompts.messages("planner", instruction=instruction, session_context=views.session_context(session) + context,
                                history=history, state=state_text)
        schema = prompts.planner_schema(require_remaining=self.config.stop_when_nothing_remains)
        told: list[tuple[int, str]] = []  # (step, message): each time the planner re-planned an accepted step

        def check(answer: dict[str, Any]) -> dict[str, Any]:
            validate(answer, schema)
            if answer["done"]:
                return answer
            if not (answer.get("sub_instruction") or "").strip():
                raise LLMOutputError('"sub_instruction" must be a non-empty string when "done" is false')
            if self.config.refuse_repeated_steps and heuristics.failed_repeatedly(record, answer["sub_instruction"]):
                raise PlannerStalled(f"the planner planned again a step that failed {heuristics.MAX_FAILED_REPEATS} "
                                     f"times: {answer['sub_instruction']}")
            repeated = heuristics.repeated_step(record, answer["sub_instruction"]) if self.config.refuse_repeated_steps else None
            if repeated is not None and context:  # one request of a split instruction: its own work is done, or
                # (a step of an earlier request) the planner has not taken this request up
                return {"done": True, "sub_instruction": None, "remaining": [],
                        "other_request": repeated.number < first_step,
                        "reason": f"re-planned step {repeated.number}, which is done"}
            other = (heuristics.another_requests_step(answer["sub_instruction"], instruction, record.instruction, state)
                     if self.config.refuse_repeated_steps and context else None)
            if other is not None:  # one request of a split instruction: the next step is another request's
                return {"done": True, "sub_instruction": None, "remaining": [], "other_request": True,
                        "reason": f'planned "{other}", which another request of the message asks for'}
            if repeated is not None:
                told.append((repeated.number, f"step {repeated.number} already carried out this operation and it was "
                                              "accepted; give a different operation, or answer done if the instruction "
                                              "is complete"))
                raise LLMOutputError(told[-1][1])
            return answer

        try:
            return self._ask("planner", msgs, schema, check, run)
        except PlannerStalled:
            raise
        except LLMOutputError as exc:
            if told and str(exc).endswith(told[-1][1]):  # its last answer was finished work again: as when a
                # reworded step repeats an accepted call (heuristics.repeated_call), the instruction is done
                return {"done": True, "sub_instruction": None, "remaining": [],
                        "reason": f"the planner kept re-planning step {told[-1][0]}, which is done"}
            raise PlannerStalled(f"the planner gave no usable next step: {exc}") from exc

    # --- one step with rollback -----------------------------------------------------------

    def _run_step(self, ctx: StepContext) -> None:
        step = ctx.step
        step.intents = [(i, round(float(p), 4)) for i, p in self.classifier.predict(step.sub_instruction, k=3)]
        kept = [i for n, (i, p) in enumerate(step.intents) if n == 0 or p >= self.config.intent_min_probability]
        step.candidates = self.registry.names_for_intents(kept)
        self._emit("intents", {"step": step.number, "intents": step.intents, "candidates": step.candidates})
        levels = self.config.rollback_levels()
        level, tried, feedback, allowed = "first", [], None, list(step.candidates)
        rejected: Attempt | None = None  # the last call the validator rejected, or that failed with a stated fix
        while True:
            outcome = self._attempt(ctx, allowed, level, feedback, rejected if level == "arg" else None)
            attempt = outcome.attempt
            step.attempts.append(attempt)
            if self.config.end_on_repeated_call and attempt.ok:
                repeated = heuristics.repeated_call(ctx.record, attempt)
                if repeated is not None:  # the planner re-planned finished work: that step's call again
                    _undo(ctx.doc, outcome)
                    attempt.rolled_back = step.redundant = True
                    self._emit("redundant_step", {"step": step.number, "repeats": repeated.number,
                                                  "changed": attempt.changed,
                                                  "copy": attempt.args != repeated.accepted.args})
                    return
            if attempt.ok and (not levels or self.registry.get(attempt.api).read_only):
                attempt.accepted = True  # nothing to validate in a call that only reads (find_text)
                return
            if attempt.ok:
                attempt.verdict = self._validate(ctx, attempt, outcome.after)
                if attempt.verdict.accepted:
                    attempt.accepted = True
                    return
                _undo(ctx.doc, outcome)
                attempt.rolled_back, rejected = True, attempt
                feedback = (f"The previous call {prompts.format_call(attempt.api, attempt.args)} was rejected by the "
                            f"validator: {attempt.verdict.explanation}")
                to_api_level = attempt.verdict.wrong_api  # the API cannot do it: its arguments are not retried
            else:
                feedback = f"The previous attempt failed: {attempt.error}"
                rejected = attempt if attempt.fix else rejected
                to_api_level = attempt.state_failed  # the paper: a state extraction failure goes straight to API-level
            if to_api_level:
                while levels and levels[0] != "api":
                    levels.pop(0)
            if not levels:
                return
            level = levels.pop(0)
            self._emit("rollback", {"step": step.number, "next": level})
            if attempt.api:
                tried.append(attempt.api)
            if level == "arg" and attempt.api:
                allowed = [attempt.api]
            else:
                allowed = [c for c in step.candidates if c not in tried] or [c for c in self.registry.names() if c not in tried]

    def _attempt(self, ctx: StepContext, allowed: list[str], level: str, feedback: str | None,
                 rejected: Attempt | None = None) -> Outcome:
        """Generate one call, execute it on a snapshot and observe the state after it. `rejected`: the call an
        argument-level regeneration corrects (see ``repair_calls``: the rule checks' fixes, or what the call's error
        said to leave out)."""
        try:
            call = self._generate_call(ctx, allowed, level, feedback)
        except LLMOutputError as exc:
            attempt = Attempt(api=None, args=None, level=level, error=f"no valid API call: {exc}")
            self._emit("attempt", {"step": ctx.step.number, "level": level, "call": "(none)", "error": attempt.error})
            return Outcome(attempt)
        attempt = Attempt(api=call["api"], args=call["args"], level=level)
        outcome = Outcome(attempt)
        if self.config.repair_calls and rejected is not None and (call["api"], call["args"]) == (rejected.api, rejected.args):
            repair = rejected.verdict.repair if rejected.verdict else rejected.fix
            if repair is None:  # the same call would be rejected the same way: not run again
                attempt.error = "the regenerated call is the rejected one again"
                self._emit("attempt", {"step": ctx.step.number, "level": level, "call": prompts.format_call(attempt.api, attempt.args),
                                       "ok": False, "error": attempt.error})
                return outcome
            try:
                repaired = {k: v for k, v in {**call["args"], **repair}.items() if v is not None}  # None: left out
                attempt.args = validate_arguments(self.registry.get(attempt.api), repaired)
                attempt.repaired = True
            except ApiError as exc:  # a fix the API's schema refuses is our bug
                raise InternalError.wrap(exc, f"the fix {repair} of {attempt.api}") from exc
        try:
            result = execute(ctx.doc, attempt.api, attempt.args, self.registry)
            outcome.snapshot = result.snapshot
            attempt.ok, attempt.message, attempt.created = True, result.message, result.created
            if result.data is not None:
                attempt.message += " " + json.dumps(result.data, ensure_ascii=False)[:1500]
            try:
                outcome.after = extract_state(ctx.doc)
                attempt.changed = outcome.after != ctx.before
                attempt.changes = summarize_change(analyze_change(ctx.before, outcome.after))
            except StateExtractionError as exc:
                _undo(ctx.doc, outcome)
                outcome.after = None
                attempt.ok, attempt.error, attempt.state_failed = False, f"the document state could not be read after the call: {exc}", True
        except ApiError as exc:  # a bad call; execute() has already restored the document
            attempt.error, attempt.fix = str(exc), dict.fromkeys(exc.omit) or None
        self._emit("attempt", {"step": ctx.step.number, "level": level, "call": prompts.format_call(attempt.api, attempt.args),
                               "ok": attempt.ok, "message": attempt.message, "error": attempt.error,
                               "changes": attempt.changes, "created": attempt.created, "repaired": attempt.repaired})
        return outcome

    def _generate_call(self, ctx: StepContext, allowed: list[str], level: str, feedback: str | None) -> dict[str, Any]:
        specs = [self.registry.get(name) for name in allowed]
        if feedback and level == "arg":
            feedback += f"\nCall {allowed[0]} again with corrected arguments."
        elif feedback and level == "api":
            feedback += "\nChoose a different API from the list."
        feedback = f"{feedback}\n" if feedback else ""
        step, record = ctx.step, ctx.record
        if self.config.grounding:  # the sub-instruction's quotes, else the instruction's
            quoted_in = step.sub_instruction if grounding.quotes(step.sub_instruction) else ctx.request
            state_text = views.grounded_view(ctx.before, step.sub_instruction, record, self.config.generator_state_budget,
                                             quoted_in=quoted_in, max_lines=GENERATOR_GROUNDING_LINES)
        else:
            state_text = views.state_view(ctx.before, step.sub_instruction, record, self.config.generator_state_budget)
        if self.config.two_stage_api_choice and len(specs) > 1:
            specs = [self._choose_api(step, specs, feedback, ctx.run)]
            allowed = [specs[0].name]
        docs = "\n\n".join(s.prompt_doc(compact=self.config.compact_api_docs) for s in specs)
        msgs = prompts.messages("api_generator", api_docs=docs, state=state_text,
                                history=views.history(record, self.config.history_chars),
                                instruction=record.instruction, sub_instruction=step.sub_instruction, feedback=feedback)

        user_quotes = [q.text for q in grounding.quotes(record.instruction)]

        def check(answer: dict[str, Any]) -> dict[str, Any]:
            name = _candidate(answer, allowed)
            args = grounding.keep_user_characters(answer.get("args", {}), user_quotes)
            return {"api": name, "args": validate_arguments(self.registry.get(name), args)}

        return self._ask("api_generator", msgs, prompts.api_call_schema(specs, ctx.doc.ids()), check, ctx.run)

    def _choose_api(self, step: Step, specs: list[ApiSpec], feedback: str, run: RunResult) -> ApiSpec:
        """Two-stage generation, first stage: the API alone, picked from one-line summaries and the sub-instruction
        (no document state, so for the same candidates the whole prompt but the sub-instruction stays cached)."""
        names = [s.name for s in specs]
        schema = prompts.api_choice_schema(names)
        msgs = prompts.messages("api_chooser", api_list="\n".join(s.summary() for s in specs),
                                sub_instruction=step.sub_instruction, feedback=feedback)

        answer = self._ask("api_chooser", msgs, schema, lambda a: {"api": _candidate(a, names)}, run)
        return self.registry.get(answer["api"])

    def _validate(self, ctx: StepContext, attempt: Attempt, after: State) -> Verdict:
        """The validator's verdict on `attempt`, given the state `after` it: a certain rule-check finding rejects it
        without asking the LLM; the other findings are shown to the LLM validator."""
        step, record = ctx.step, ctx.record
        findings = (checks.check_call(step.sub_instruction, ctx.request, attempt.api or "", attempt.args or {},
                                      ctx.before, after) if self.config.rule_checks else [])
        certain = [f for f in findings if f.certain]
        if certain:
            verdict = Verdict("fail", 1.0, "rule check: " + "; ".join(f.text for f in certain), False,
                              applicable_fix(self.registry, attempt.api or "", attempt.args or {}, checks.repair(findings)),
                              wrong_api=checks.wrong_api(certain))
            self._emit("verdict", {"step": step.number, "rule": [f.check for f in certain], **vars(verdict)})
            return verdict
        if not self.config.llm_validator:
            verdict = Verdict("pass", 1.0, "no rule check objected (the LLM validator is off)", True)
            self._emit("verdict", {"step": step.number, "rule": [], **vars(verdict)})
            return verdict
        changes = attempt.changes
        if findings:
            changes += "\n\nAutomatic checks noticed (hints, not verdicts):\n" + checks.findings_text(findings)
        msgs = prompts.messages("validator", sub_instruction=step.sub_instruction,
                                call=prompts.format_call(attempt.api, attempt.args), result=attempt.message,
                                changes=changes,
                                history=views.history(record, self.config.history_chars, exclude=step),
                                state=views.state_view(after, step.sub_instruction, record,
                                                       self.config.validator_state_budget, extra_focus=attempt.created))
        try:
            answer = self._ask("validator", msgs, prompts.VALIDATOR_SCHEMA, lambda a: validate(a, prompts.VALIDATOR_SCHEMA), ctx.run)
        except LLMOutputError as exc:  # no usable verdict: as uncertain as a verdict can be (confidence 0), and said so
            answer = {"decision": "none", "confidence": 0.0, "explanation": f"no verdict, accepted as uncertain: {exc}"}
        confidence = float(answer["confidence"])
        if answer["decision"] == "fail":  # the paper's rule reads a fail below the threshold as "unsure": accepted
            accepted = self.config.verdict_rule == "paper" and confidence < self.config.threshold
        else:  # a pass, or no usable verdict
            accepted = True
        verdict = Verdict(answer["decision"], confidence, answer.get("explanation", ""), accepted)
        self._emit("verdict", {"step": step.number, **vars(verdict)})
        return verdict

    # --- LLM calls --------------------------------------------------------------------------

    def _ask(self, role: str, msgs: list[Message], schema: dict[str, Any], check: Callable[[dict], dict],
             run: RunResult, max_tokens: int | None = None) -> dict[str, Any]:
        """One role's checked JSON answer (:func:`ask_json`, ``output_retries`` times asked again), with its
        usage and trace. `max_tokens`: the answer's limit (None: the backend's)."""
        def answered(conversation: list[Message], completion: Completion) -> None:
            run.usage[role].add(completion.usage)
            self._emit("llm_call", {"role": role, "messages": conversation, "response": completion.text,
                                    "usage": completion.usage.to_dict(), "seconds": completion.seconds,
                                    "model": completion.model})

        return ask_json(self.llm, msgs, role=role, schema=schema, check=check, retries=self.config.output_retries,
                        max_tokens=max_tokens, correctable=(LLMOutputError, ApiError), on_answer=answered,
                        on_invalid=lambda attempt, error: self._emit("invalid_output", {"role": role, "attempt": attempt, "error": error}))

    def _emit(self, event: str, data: dict[str, Any]) -> None:
        for sink in self.sinks:
            sink(event, data)
