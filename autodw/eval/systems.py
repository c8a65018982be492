"""The systems the harness runs: the agent and its ablations, the gold oracles, the paper's baselines.

Every system answers one benchmark instruction on a document it may edit in place (:meth:`System.run_turn`), given
the texts of the session's earlier instructions, and reports what it did as a :class:`TurnResult`.

| name | what it is |
|---|---|
| ``autodw`` | the full agent (its backend's profile; the paper's full rollback) |
| ``no-rollback``, ``arg-rollback``, ``two-round`` | the agent with rollback off, argument-level only, two full rounds |
| ``oracle`` | replays the gold calls (proves the harness and the judge: must score 100%) |
| ``noisy-oracle`` | gold steps, each call perturbed with probability P (:mod:`autodw.eval.faults`), run through the agent's own validation and rollback; a regeneration returns the gold call |
| ``hybrid``, ``retrieval-only``, ``reasoning-only`` | the paper's baselines (:mod:`autodw.eval.baselines`) |
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from autodw.agent.config import AgentConfig, config_for
from autodw.agent.events import TraceWriter
from autodw.agent.loop import Agent, StepContext
from autodw.agent.records import Attempt, InstructionResult, RunResult, Verdict
from autodw.apis.calls import execute
from autodw.apis.registry import Registry
from autodw.document import WordDocument
from autodw.dwbench.records import Instruction
from autodw.errors import ApiError, ConfigError, InternalError
from autodw.eval import AGENT_ROLLBACK, VALIDATORS
from autodw.eval.faults import perturb
from autodw.eval.judge import judge
from autodw.ids import ID_IN_TEXT
from autodw.llm.base import LLMBackend
from autodw.state import extract_state


@dataclass
class TurnResult:
    """What a system did for one instruction."""

    status: str  # "done", "step_limit", "call_limit", "error", "internal_error"
    error: str | None = None
    api_calls: int = 0  # executed calls, rolled-back ones included
    calls: list[dict[str, Any]] = field(default_factory=list)  # the calls that stayed in the document
    usage: dict[str, dict[str, float]] = field(default_factory=dict)  # per LLM role (Usage.to_dict)
    faults: list[dict[str, Any]] = field(default_factory=list)  # noisy-oracle: one entry per gold step


class System(Protocol):
    """One system under test."""

    name: str
    llm_name: str

    def run_turn(self, doc: WordDocument, instruction: Instruction, earlier: list[tuple[str, str]],
                 trace: Path | None = None) -> TurnResult:
        """Carry out `instruction` on `doc` (edited in place). `earlier`: (text, status) of the session's earlier
        instructions. `trace`: a JSON Lines file for the agent's events."""
        ...


# --- the gold oracle ---------------------------------------------------------------------------


class OracleSystem:
    """Replays the gold calls; with `alternative` N, a turn's N-th ``accept`` alternative where it has one (to show
    that the judge accepts every alternative)."""

    name = "oracle"
    llm_name = "none"

    def __init__(self, alternative: int = 0) -> None:
        self.alternative = alternative

    def run_turn(self, doc: WordDocument, instruction: Instruction, earlier: list[tuple[str, str]],
                 trace: Path | None = None) -> TurnResult:
        result = TurnResult("done")
        alternatives = instruction.alternatives
        calls = alternatives[self.alternative - 1] if 0 < self.alternative <= len(alternatives) else instruction.gold
        for call in calls:
            try:
                execute(doc, call.api, call.args)
            except ApiError as exc:  # in session mode after a failed turn; never on the gold initial state
                return TurnResult("error", f"{call.api}: {exc}", result.api_calls + 1, result.calls)
            result.api_calls += 1
            result.calls.append({"api": call.api, "args": call.args})
        return result


class NoopSystem:
    """Does nothing: every turn it passes is one whose untouched document the judge accepts, a fault of the data (a
    tolerance or alternative that admits the starting state); its iACC must be 0."""

    name = "noop"
    llm_name = "none"

    def run_turn(self, doc: WordDocument, instruction: Instruction, earlier: list[tuple[str, str]],
                 trace: Path | None = None) -> TurnResult:
        return TurnResult("done")


# --- the agent and its ablations ----------------------------------------------------------------


def _turn_from_record(record: InstructionResult, run: RunResult) -> TurnResult:
    return TurnResult(record.status, record.error, record.api_calls,
                      [{"api": api, "args": args} for api, args in record.accepted_calls()],
                      {role: u.to_dict() for role, u in run.usage.items() if u.calls})


def run_agent_turn(agent: Agent, doc: WordDocument, text: str, earlier: list[tuple[str, str]],
                   trace: Path | None) -> TurnResult:
    """One instruction through `agent`, with the session's earlier instructions as context and a trace file."""
    run = RunResult(instructions=[InstructionResult(t, status) for t, status in earlier])
    writer = TraceWriter(trace) if trace is not None else None
    agent.sinks = [writer] if writer else []
    try:
        agent.run(doc, [text], result=run)
    except InternalError as exc:  # our bug: counted apart, the document back to where the instruction began
        doc.restore(agent.last_complete)
        record = run.instructions[-1]
        record.status, record.error = "internal_error", f"{exc}\n{exc.traceback}"
    finally:
        if writer:
            writer.close()
    return _turn_from_record(run.instructions[-1], run)


class AgentSystem:
    """The agent (``autodw``) or one of its rollback ablations, with one LLM backend and the intent classifier."""

    def __init__(self, name: str, llm: LLMBackend, classifier: Any, config: AgentConfig | None = None):
        if name not in AGENT_ROLLBACK:
            raise ConfigError(f"{name!r} is not an agent system ({', '.join(AGENT_ROLLBACK)})")
        self.name, self.llm_name = name, llm.name
        self.config = (config or config_for(llm)).override(rollback=AGENT_ROLLBACK[name])
        self.agent = Agent(llm, classifier, config=self.config)

    def run_turn(self, doc: WordDocument, instruction: Instruction, earlier: list[tuple[str, str]],
                 trace: Path | None = None) -> TurnResult:
        return run_agent_turn(self.agent, doc, instruction.text, earlier, trace)


# --- the noisy oracle ------------------------------------------------------------------------------


class _GoldIntent:
    """A classifier that names the intent of the step's gold call (the noisy oracle has no sub-instruction to classify)."""

    def __init__(self) -> None:
        self.intent = "content_creation"

    def predict(self, text: str, k: int = 3) -> list[tuple[str, float]]:
        return [(self.intent, 1.0)]


def step_instruction(instruction: str, number: int, total: int, purpose: str, args: dict[str, Any]) -> str:
    """The noisy oracle's sub-instruction for one gold step, as a planner that got the plan right would write it:
    the operation and the elements it works on (the gold call's ids), in the context of the user's instruction, whose
    texts and values the validator checks the call against (on a second line, which the step history leaves out). Not
    the values themselves: the faults are the API generator's, judged against what the user asked."""
    targets = list(dict.fromkeys(ID_IN_TEXT.findall(json.dumps(args))))
    on = f" (elements: {', '.join(targets)})" if targets else ""
    return (f"Step {number} of {total} of the user's instruction, judged alone (the other steps are done separately): "
            f"{purpose.rstrip('.')}{on}.\nThe user's instruction: {instruction}")


class NoisyOracleAgent(Agent):
    """The agent's loop with the planner and API generator replaced by the gold sequence, each call perturbed with
    probability `p`; a regeneration (after a rejection or a failed call) returns the gold call. The validator is the
    agent's LLM validator (with its rule checks, unless ``rule_checks`` is off), the rule checks alone
    (``validator="rules"``: a certain finding rejects, anything else passes), or with ``validator="oracle"`` a perfect
    one (the state after the call is judged against the state after the gold call)."""

    def __init__(self, llm: LLMBackend, registry: Registry, config: AgentConfig, p: float, validator: str,
                 seed: int = 0):
        self.classifier_stub = _GoldIntent()
        super().__init__(llm, self.classifier_stub, registry, config)  # type: ignore[arg-type]
        self.p, self.validator, self.seed = p, validator, seed
        self._steps: list[dict[str, Any]] = []

    def prepare(self, instruction: Instruction, doc: WordDocument) -> list[dict[str, Any]]:
        """Draw the faults of `instruction`'s steps (seeded by instruction and step); the list is filled as it runs."""
        self._doc, self._steps, self._next = doc, [], 0
        self._gold = list(instruction.gold)
        self._rng = random.Random(f"{self.seed}:{instruction.key}")
        # the gold steps are the plan: one request, no limit before the last of them
        self.config = self.config.override(max_steps=len(self._gold) + 1, split_requests=False, max_llm_calls=None)
        return self._steps

    def _plan(self, instruction, record, state_text, state, run, session, context="", first_step=1) -> dict[str, Any]:
        while self._next < len(self._gold):
            gold = self._gold[self._next]
            self._next += 1
            fault = perturb(gold.api, gold.args, self._doc.ids(), self.registry, self._rng) if self._rng.random() < self.p else None
            entry = {"step": self._next, "gold": {"api": gold.api, "args": gold.args}, "fault": fault.kind if fault else None,
                     "call": {"api": fault.api, "args": fault.args} if fault and fault.api else None}
            self._steps.append(entry)
            if fault is not None and fault.kind == "skip":
                continue
            self._current = (gold, fault, entry)
            self._gold_after = self._state_after(gold.api, gold.args)
            spec = self.registry.get(gold.api)
            self.classifier_stub.intent = spec.intent
            step_text = step_instruction(instruction, self._next, len(self._gold), spec.purpose, gold.args)
            return {"done": False, "sub_instruction": step_text, "remaining": []}
        return {"done": True, "sub_instruction": None}

    def _state_after(self, api: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """The state after `api(args)` on the document as it is now (the document is left unchanged)."""
        try:
            result = execute(self._doc, api, args, self.registry)
        except ApiError:
            return None
        after = extract_state(self._doc)
        self._doc.restore(result.snapshot)
        return after

    def _generate_call(self, ctx: StepContext, allowed: list[str], level: str, feedback: str | None) -> dict[str, Any]:
        gold, fault, entry = self._current
        if level == "first" and fault is not None:
            return {"api": fault.api, "args": fault.args}
        if level != "first":
            entry["regenerated"] = entry.get("regenerated", 0) + 1
        return {"api": gold.api, "args": gold.args}

    def _attempt(self, ctx: StepContext, allowed: list[str], level: str, feedback: str | None,
                 rejected: Attempt | None = None):
        outcome = super()._attempt(ctx, allowed, level, feedback, rejected)
        gold, fault, entry = self._current
        if level == "first":
            entry["executed"] = outcome.attempt.ok
            entry["effective"] = (not outcome.attempt.ok) or not self._same(outcome.after, self._gold_after)
        return outcome

    def _validate(self, ctx: StepContext, attempt: Attempt, after: dict[str, Any]) -> Verdict:
        gold, fault, entry = self._current
        if self.validator == "oracle":
            same = self._same(after, self._gold_after)
            verdict = Verdict("pass" if same else "fail", 1.0, "the gold call's state" if same else "differs from the gold call's state",
                              accepted=same)
        else:  # the agent's own validation: the rule checks, then the LLM validator unless it is off ("rules")
            verdict = super()._validate(ctx, attempt, after)
        entry.setdefault("verdicts", []).append({"level": attempt.level, "decision": verdict.decision,
                                                 "confidence": verdict.confidence, "accepted": verdict.accepted})
        return verdict

    @staticmethod
    def _same(after: dict[str, Any] | None, gold_after: dict[str, Any] | None) -> bool:
        if after is None or gold_after is None:
            return after is gold_after
        return after == gold_after or judge(gold_after, after).equivalent


class _NoLLM:
    """The backend of a noisy oracle with the oracle validator: nothing may ask it anything."""

    name = "none"
    profile = None

    def complete(self, *args: Any, **kwargs: Any) -> Any:
        raise InternalError("the noisy oracle with the oracle validator asked an LLM")


class NoisyOracleSystem:
    """``noisy-oracle``: see :class:`NoisyOracleAgent`. `llm` is needed only by the LLM validator."""

    name = "noisy-oracle"

    def __init__(self, p: float, validator: str, llm: LLMBackend | None, config: AgentConfig, seed: int = 0,
                 registry: Registry | None = None):
        if not 0 <= p <= 1:
            raise ConfigError(f"--p must be a probability in [0, 1], not {p}")
        if validator not in VALIDATORS:
            raise ConfigError(f"--validator must be one of {', '.join(VALIDATORS)}, not {validator!r}")
        if validator == "llm" and llm is None:
            raise ConfigError("the LLM validator needs an LLM (--llm SPEC)")
        from autodw.apis import registry as load_registry

        # no heuristics: the gold planner never repeats itself, and a perturbed call may repeat an earlier one
        config = config.override(end_on_repeated_call=False, refuse_repeated_steps=False, stop_when_nothing_remains=False)
        # this system measures the validator it names, whatever the profile says
        config = config.override(llm_validator=validator == "llm")
        self.llm_name = llm.name if llm is not None else "none"
        self.agent = NoisyOracleAgent(llm or _NoLLM(), registry or load_registry(), config, p, validator, seed)

    def run_turn(self, doc: WordDocument, instruction: Instruction, earlier: list[tuple[str, str]],
                 trace: Path | None = None) -> TurnResult:
        steps = self.agent.prepare(instruction, doc)
        result = run_agent_turn(self.agent, doc, instruction.text, earlier, trace)
        result.faults = steps
        return result
