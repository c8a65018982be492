"""The AutoDW loop: stepwise planning, intent-filtered API generation, execution with state tracking,
validation, and dual-level rollback (argument-level, then API-level).

For each instruction, until the planner says it is done or the step limit is hit:
1. the planner gives ONE atomic sub-instruction (or done);
2. the intent classifier keeps the top-3 intents; their APIs are the candidates;
3. the API generator returns one call, parsed and validated against the API schema (re-asked with
   the error when invalid, a bounded number of times);
4. the call runs on a snapshot; the new state is extracted and the change analysed;
5. the validator judges it; accepted if pass with confidence >= threshold, or if confidence < threshold;
6. otherwise the snapshot is restored and the call regenerated: same API with new arguments, then a
   different API. The last level's result is accepted whatever it is.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Callable, Protocol

from autodw.apis.calls import execute, validate_arguments
from autodw.apis.registry import ApiSpec, Registry
from autodw.agent import prompts
from autodw.agent.events import EventSink
from autodw.agent.records import Attempt, InstructionResult, RunResult, Step, Verdict
from autodw.change_summary import summarize_change
from autodw.changes import analyze_change
from autodw.document import Snapshot, WordDocument
from autodw.errors import ApiError, ConfigError, LLMOutputError, StateExtractionError
from autodw.ids import ID_IN_TEXT
from autodw.llm.base import LLMBackend, Message
from autodw.llm.jsonout import parse_json_object, validate
from autodw.state import extract_state
from autodw.state.render import render_elements, render_state

_ID_RE = ID_IN_TEXT
RESTATE_RATIO = 0.7  # similarity above which a listed remaining operation restates a done one
MAX_TOUCHED_SHOWN = 8  # elements shown as they are now to a planner that sees the instruction's start state


class IntentClassifier(Protocol):
    """Anything that ranks the eight intents for a sub-instruction."""

    def predict(self, text: str, k: int = 3) -> list[tuple[str, float]]: ...


@dataclass
class AgentConfig:
    """Knobs of the loop. `rollback`: "none", "arg" (argument-level only), "full" (one round: argument-level
    then API-level; the paper's default) or a number of full rounds."""

    rollback: str | int = "full"
    threshold: float = 0.6
    max_steps: int = 15
    output_retries: int = 2
    state_budget: int | None = 6000
    history_chars: int = 300
    compact_api_docs: bool = False  # first sentences only, no examples (small local models)
    focused_state_budget: int | None = None  # state budget of the API generator and validator (None: state_budget)
    validator_state_budget: int | None = None  # the validator's own state budget (None: focused_state_budget)
    two_stage_api_choice: bool = False  # choose the API from one-line summaries, then fill in only its arguments
    intent_min_probability: float = 0.0  # offer a top-3 intent's APIs only if it is at least this likely (top-1 always)
    # "current": the planner sees the document as it is now. "start": it sees the document as it was when the
    # instruction began, then the history and the current lines of the elements the steps changed; the prompt
    # then starts the same at every step of an instruction, so a prompt cache reuses it (small local models).
    planner_state: str = "current"
    # End the instruction once a step is accepted for which the planner listed no remaining operations, instead of
    # asking the planner again (small local models rarely tell that they are done and re-plan finished work).
    stop_when_nothing_remains: bool = False

    def rollback_levels(self) -> list[str]:
        """The escalation sequence after a rejected first attempt."""
        if self.rollback == "none":
            return []
        if self.rollback == "arg":
            return ["arg"]
        if self.rollback == "full":
            return ["arg", "api"]
        try:
            rounds = int(self.rollback)
        except (TypeError, ValueError):
            raise ConfigError(f"rollback must be none, arg, full or a number of rounds, not {self.rollback!r}") from None
        if rounds < 0:
            raise ConfigError("the number of rollback rounds cannot be negative")
        return ["arg", "api"] * rounds


class PlannerStalled(LLMOutputError):
    """The planner kept answering with invalid or already-completed steps; the instruction ends as an error."""


def _repeated_step(record: InstructionResult, sub_instruction: str) -> Step | None:
    """An earlier accepted step of this instruction with the same sub-instruction (case, spacing and final
    punctuation ignored), if any."""
    key = _normalized(sub_instruction)
    return next((s for s in record.steps if s.accepted is not None and _normalized(s.sub_instruction) == key), None)


def _is_last(plan: dict[str, Any], record: InstructionResult) -> bool:
    """Whether the planner listed no operation remaining after this one. Listed operations that restate this step or
    an accepted earlier one do not count: the 1.5B model often lists the step itself, reworded."""
    remaining = plan.get("remaining")
    done = [s.sub_instruction for s in record.steps if s.accepted]
    return remaining is not None and all(any(_restates(r, d) for d in done) for r in remaining)


def _restates(text: str, other: str) -> bool:
    """Whether `text` says nearly what `other` says (SequenceMatcher ratio >= 0.7) and names no element id that
    `other` does not ("format p5" is not "format p4", but "insert a list after the new heading" can restate
    "insert a list after p44")."""
    if not set(_ID_RE.findall(text)) <= set(_ID_RE.findall(other)):
        return False
    return SequenceMatcher(None, _normalized(text), _normalized(other)).ratio() >= RESTATE_RATIO


def _repeated_call(record: InstructionResult, attempt: Attempt) -> Step | None:
    """An earlier step of this instruction whose accepted call is the same as `attempt`'s (API and arguments)."""
    return next((s for s in record.steps if s.accepted is not None and s.accepted.api == attempt.api
                 and s.accepted.args == attempt.args), None)


def _named_ids(attempt: Attempt) -> list[str]:
    """Element ids an attempt's arguments name, then those its call created."""
    return _ID_RE.findall(json.dumps(attempt.args or {})) + list(attempt.created)


def _candidate(answer: dict[str, Any], allowed: list[str]) -> str:
    """The answer's API name, if it is one of the offered ones (LLMOutputError naming them otherwise)."""
    name = answer.get("api")
    if not isinstance(name, str) or name not in allowed:
        raise LLMOutputError(f'"api" must be one of the available APIs ({", ".join(allowed)}), not {name!r}')
    return name


def _normalized(text: str) -> str:
    return " ".join(text.casefold().split()).rstrip(".。!！ ")


class Agent:
    """Runs instructions on a document with an LLM backend, an intent classifier and the API registry."""

    def __init__(self, llm: LLMBackend, classifier: IntentClassifier, registry: Registry | None = None,
                 config: AgentConfig | None = None, sinks: list[EventSink] | None = None):
        if registry is None:
            from autodw.apis import registry as load_registry

            registry = load_registry()
        self.llm = llm
        self.classifier = classifier
        self.registry = registry
        self.config = config or AgentConfig()
        if self.config.planner_state not in ("current", "start"):
            raise ConfigError(f"planner_state must be current or start, not {self.config.planner_state!r}")
        self.sinks = list(sinks or [])
        self.last_complete: Snapshot | None = None

    # --- public -------------------------------------------------------------------------

    def run(self, doc: WordDocument, instructions: list[str], result: RunResult | None = None) -> RunResult:
        """Carry out `instructions` in order on `doc` (a session). `result` is filled as the run goes, so a
        caller that catches an interruption still has everything done so far; ``last_complete`` holds a
        snapshot of the document after the last finished instruction."""
        result = result if result is not None else RunResult()
        start = time.perf_counter()
        self.last_complete = doc.snapshot()
        self._emit("run_start", {"llm": self.llm.name, "instructions": instructions, "config": vars(self.config)})
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
        start = time.perf_counter()
        planner_view: str | None = None  # the rendered state the planner sees
        try:
            for number in range(1, self.config.max_steps + 1):
                state = extract_state(doc)
                if planner_view is None or self.config.planner_state == "current":
                    planner_view = self._render(state, instruction, record, self.config.state_budget)
                plan = self._plan(instruction, record, planner_view, state, run, session)
                self._emit("plan", {"step": number, **plan})
                if plan["done"]:
                    record.status = "done"
                    return
                step = Step(number=number, sub_instruction=plan["sub_instruction"])
                record.steps.append(step)
                self._run_step(doc, step, state, record, run)
                finished = self.config.stop_when_nothing_remains and step.accepted and _is_last(plan, record)
                if step.redundant or finished:
                    record.status = "done"
                    return
            record.status = "step_limit"
        except StateExtractionError as exc:
            record.status, record.error = "error", f"the document state could not be read: {exc}"
        except PlannerStalled as exc:
            record.status, record.error = "error", str(exc)
        finally:
            record.seconds = time.perf_counter() - start
            self._emit("instruction_end", {"status": record.status, "steps": len(record.steps), "error": record.error,
                                           "api_calls": record.api_calls, "seconds": record.seconds,
                                           "accepted_calls": record.accepted_calls()})

    def _plan(self, instruction: str, record: InstructionResult, state_text: str, state: dict[str, Any],
              run: RunResult, session: list[InstructionResult]) -> dict[str, Any]:
        context = ""
        if session:
            done = "\n".join(f"{i}. {s.instruction} ({s.status})" for i, s in enumerate(session, 1))
            context = f"Earlier instructions of this session (already carried out):\n{done}\n\n"
        history = self._history(record)
        if record.steps and self.config.planner_state == "start":
            history = ("(The document state above is from before these operations; the elements they changed "
                       "are shown as they are now after the list.)\n" + history + self._touched_now(record, state))
        msgs = prompts.messages("planner", instruction=instruction, session_context=context, history=history,
                                state=state_text)

        schema = prompts.planner_schema(require_remaining=self.config.stop_when_nothing_remains)

        def check(answer: dict[str, Any]) -> dict[str, Any]:
            validate(answer, schema)
            if answer["done"]:
                return answer
            if not (answer.get("sub_instruction") or "").strip():
                raise LLMOutputError('"sub_instruction" must be a non-empty string when "done" is false')
            repeated = _repeated_step(record, answer["sub_instruction"])
            if repeated is not None:
                raise LLMOutputError(f"step {repeated.number} already carried out this operation and it was accepted; "
                                     "give a different operation, or answer done if the instruction is complete")
            return answer

        try:
            return self._ask("planner", msgs, schema, check, run)
        except LLMOutputError as exc:
            raise PlannerStalled(f"the planner gave no usable next step: {exc}") from exc

    # --- one step with rollback -----------------------------------------------------------

    def _run_step(self, doc: WordDocument, step: Step, state: dict[str, Any], record: InstructionResult,
                  run: RunResult) -> None:
        step.intents = [(i, round(float(p), 4)) for i, p in self.classifier.predict(step.sub_instruction, k=3)]
        kept = [i for n, (i, p) in enumerate(step.intents) if n == 0 or p >= self.config.intent_min_probability]
        step.candidates = self.registry.names_for_intents(kept)
        self._emit("intents", {"step": step.number, "intents": step.intents, "candidates": step.candidates})
        levels = self.config.rollback_levels()
        level, tried, feedback, allowed = "first", [], None, list(step.candidates)
        while True:
            attempt, snapshot = self._attempt(doc, step, state, allowed, level, feedback, record, run)
            step.attempts.append(attempt)
            repeated = _repeated_call(record, attempt) if attempt.ok and not attempt.changed else None
            if repeated is not None:  # the planner re-planned finished work: that step's call again, changing nothing
                doc.restore(snapshot)
                attempt.rolled_back = step.redundant = True
                self._emit("redundant_step", {"step": step.number, "repeats": repeated.number})
                return
            if attempt.ok and not levels:
                attempt.accepted = True
                return
            if attempt.ok:
                attempt.verdict = self._validate(doc, step, attempt, record, run)
                if attempt.verdict.accepted:
                    attempt.accepted = True
                    return
                doc.restore(snapshot)
                attempt.rolled_back = True
                feedback = (f"The previous call {prompts.format_call(attempt.api, attempt.args)} was rejected by the "
                            f"validator: {attempt.verdict.explanation}")
            else:
                feedback = f"The previous attempt failed: {attempt.error}"
                if attempt.state_failed:  # the paper: a state extraction failure goes straight to API-level
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

    def _attempt(self, doc: WordDocument, step: Step, state: dict[str, Any], allowed: list[str], level: str,
                 feedback: str | None, record: InstructionResult, run: RunResult) -> tuple[Attempt, Snapshot | None]:
        try:
            call = self._generate_call(step, state, allowed, level, feedback, record, run, doc.ids())
        except LLMOutputError as exc:
            attempt = Attempt(api=None, args=None, level=level, error=f"no valid API call: {exc}")
            self._emit("attempt", {"step": step.number, "level": level, "call": "(none)", "error": attempt.error})
            return attempt, None
        attempt = Attempt(api=call["api"], args=call["args"], level=level)
        snapshot: Snapshot | None = None
        try:
            result = execute(doc, attempt.api, attempt.args, self.registry)
            snapshot = result.snapshot
            attempt.ok, attempt.message, attempt.created = True, result.message, result.created
            if result.data is not None:
                attempt.message += " " + json.dumps(result.data, ensure_ascii=False)[:1500]
            try:
                after = extract_state(doc)
                attempt.changed = after != state
                attempt.changes = summarize_change(analyze_change(state, after))
            except StateExtractionError as exc:
                doc.restore(snapshot)
                attempt.ok, attempt.error, attempt.state_failed = False, f"the document state could not be read after the call: {exc}", True
        except ApiError as exc:  # execute() has already restored the document
            attempt.error = str(exc)
        self._emit("attempt", {"step": step.number, "level": level, "call": prompts.format_call(attempt.api, attempt.args),
                               "ok": attempt.ok, "message": attempt.message, "error": attempt.error,
                               "changes": attempt.changes, "created": attempt.created})
        return attempt, snapshot

    def _generate_call(self, step: Step, state: dict[str, Any], allowed: list[str], level: str, feedback: str | None,
                       record: InstructionResult, run: RunResult, known_ids: list[str]) -> dict[str, Any]:
        specs = [self.registry.get(name) for name in allowed]
        if feedback and level == "arg":
            feedback += f"\nCall {allowed[0]} again with corrected arguments."
        elif feedback and level == "api":
            feedback += "\nChoose a different API from the list."
        feedback = f"{feedback}\n" if feedback else ""
        state_text = self._render(state, step.sub_instruction, record, self._focused_budget())
        if self.config.two_stage_api_choice and len(specs) > 1:
            specs = [self._choose_api(step, specs, feedback, run)]
            allowed = [specs[0].name]
        docs = "\n\n".join(s.prompt_doc(compact=self.config.compact_api_docs) for s in specs)
        msgs = prompts.messages("api_generator", api_docs=docs, state=state_text, history=self._history(record),
                                instruction=record.instruction, sub_instruction=step.sub_instruction, feedback=feedback)

        def check(answer: dict[str, Any]) -> dict[str, Any]:
            name = _candidate(answer, allowed)
            return {"api": name, "args": validate_arguments(self.registry.get(name), answer.get("args", {}))}

        return self._ask("api_generator", msgs, prompts.api_call_schema(specs, known_ids), check, run)

    def _choose_api(self, step: Step, specs: list[ApiSpec], feedback: str, run: RunResult) -> ApiSpec:
        """Two-stage generation, first stage: the API alone, picked from one-line summaries and the sub-instruction
        (no document state, so for the same candidates the whole prompt but the sub-instruction stays cached)."""
        names = [s.name for s in specs]
        schema = prompts.api_choice_schema(names)
        msgs = prompts.messages("api_chooser", api_list="\n".join(s.summary() for s in specs),
                                sub_instruction=step.sub_instruction, feedback=feedback)

        answer = self._ask("api_chooser", msgs, schema, lambda a: {"api": _candidate(a, names)}, run)
        return self.registry.get(answer["api"])

    def _validate(self, doc: WordDocument, step: Step, attempt: Attempt, record: InstructionResult, run: RunResult) -> Verdict:
        state = extract_state(doc)
        msgs = prompts.messages("validator", sub_instruction=step.sub_instruction,
                                call=prompts.format_call(attempt.api, attempt.args), result=attempt.message,
                                changes=attempt.changes, history=self._history(record, exclude=step),
                                state=self._render(state, step.sub_instruction, record, self._validator_budget(),
                                                   extra_focus=attempt.created))
        try:
            answer = self._ask("validator", msgs, prompts.VALIDATOR_SCHEMA, lambda a: validate(a, prompts.VALIDATOR_SCHEMA), run)
        except LLMOutputError as exc:  # no usable verdict: as uncertain as a verdict can be (confidence 0), and said so
            answer = {"decision": "none", "confidence": 0.0, "explanation": f"no verdict, accepted as uncertain: {exc}"}
        confidence = float(answer["confidence"])
        accepted = answer["decision"] == "pass" or confidence < self.config.threshold
        verdict = Verdict(answer["decision"], confidence, answer.get("explanation", ""), accepted)
        self._emit("verdict", {"step": step.number, **vars(verdict)})
        return verdict

    # --- LLM calls --------------------------------------------------------------------------

    def _ask(self, role: str, msgs: list[Message], schema: dict[str, Any], check: Callable[[dict], dict],
             run: RunResult) -> dict[str, Any]:
        """One role's call: parse and check the JSON answer; on a bad answer, show the model its error
        and ask again (at most ``output_retries`` times), then raise LLMOutputError."""
        conversation = list(msgs)
        for attempt in range(self.config.output_retries + 1):
            completion = self.llm.complete(conversation, role=role, schema=schema)
            run.usage[role].add(completion.usage)
            self._emit("llm_call", {"role": role, "messages": conversation, "response": completion.text,
                                    "usage": completion.usage.to_dict(), "seconds": completion.seconds,
                                    "model": completion.model})
            try:
                return check(parse_json_object(completion.text))
            except (LLMOutputError, ApiError) as exc:
                error = str(exc)
                self._emit("invalid_output", {"role": role, "attempt": attempt + 1, "error": error})
                conversation = conversation + [
                    {"role": "assistant", "content": completion.text},
                    {"role": "user", "content": f"That answer is invalid: {error}\nAnswer again with only the corrected JSON object."},
                ]
        raise LLMOutputError(f"the {role} gave no valid answer after {self.config.output_retries + 1} tries: {error}")

    # --- prompt parts ---------------------------------------------------------------------------

    def _focused_budget(self) -> int | None:
        """State budget for the roles that work on the elements one step names (API generation, validation)."""
        return self.config.focused_state_budget if self.config.focused_state_budget is not None else self.config.state_budget

    def _validator_budget(self) -> int | None:
        """State budget of the validator, which also sees the change analysis of the call."""
        return self.config.validator_state_budget if self.config.validator_state_budget is not None else self._focused_budget()

    def _render(self, state: dict[str, Any], text: str, record: InstructionResult, budget: int | None,
                extra_focus: list[str] = ()) -> str:
        focus = set(_ID_RE.findall(text)) | set(extra_focus)
        for step in record.steps[-2:]:
            for attempt in step.attempts:
                focus |= set(_named_ids(attempt))
        return render_state(state, budget_tokens=budget, focus=focus)

    @staticmethod
    def _touched_now(record: InstructionResult, state: dict[str, Any]) -> str:
        """The current lines of the elements this instruction's accepted calls named, created or changed
        (at most `MAX_TOUCHED_SHOWN`)."""
        touched: list[str] = []
        for step in record.steps:
            if step.accepted:
                found = _named_ids(step.accepted) + _ID_RE.findall(step.accepted.changes or "")
                touched += [i for i in found if i not in touched]
        touched = touched[-MAX_TOUCHED_SHOWN:]
        if not touched:
            return ""
        lines = render_elements(state, touched)
        gone = [i for i in touched if not any(line.startswith(i + " ") for line in lines)]
        lines += [f"{i}: no longer in the document" for i in gone]
        return "\n\nThose elements now:\n" + "\n".join(lines)

    def _history(self, record: InstructionResult, exclude: Step | None = None) -> str:
        """One line per step: sub-instruction -> call -> outcome."""
        lines = []
        for step in record.steps:
            if step is exclude:
                continue
            final = step.accepted or (step.attempts[-1] if step.attempts else None)
            if final is None:
                continue
            call = prompts.format_call(final.api, final.args) if final.api else "(no call)"
            if len(call) > self.config.history_chars:
                call = call[: self.config.history_chars] + "…)"
            outcome = f"ok: {final.message}" if final.accepted else f"FAILED: {final.error or 'rejected: ' + (final.verdict.explanation if final.verdict else '')}"
            lines.append(f"{step.number}. {step.sub_instruction} -> {call} -> {outcome}")
        return "\n".join(lines) or "(none yet)"

    def _emit(self, event: str, data: dict[str, Any]) -> None:
        for sink in self.sinks:
            sink(event, data)
