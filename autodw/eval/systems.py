"""The systems the harness runs: the agent and its ablations, the gold oracles, the paper's baselines.

Every system answers one benchmark instruction on a document it may edit in place (:meth:`System.run_turn`), given
the texts of the session's earlier instructions, and reports what it did as a :class:`TurnResult`.

| name | what it is |
|---|---|
| ``autodw`` | the full agent (its backend's profile; the paper's full rollback) |
| ``no-rollback``, ``arg-rollback``, ``two-round`` | the agent with rollback off, argument-level only, two full rounds |
| ``oracle`` | replays the gold calls (proves the harness and the judge: must score 100%) |
| ``noisy-oracle`` | the agent assembled from a gold planner, a faulty generator (each gold call perturbed with probability P, :mod:`autodw.eval.faults`; a regeneration returns the gold call) and the oracle, rule-check or LLM validator, with the agent's own rollback |
| ``hybrid``, ``retrieval-only``, ``reasoning-only`` | the paper's baselines (:mod:`autodw.eval.baselines`) |
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

from autodw.agent.assembly import Assembly, assembly_for
from autodw.agent.context import State, StepContext
from autodw.agent.events import EventSink, TraceWriter
from autodw.agent.generator import Call, CallRequest, Generated
from autodw.agent.intent_filter import Candidates
from autodw.agent.loop import Agent
from autodw.agent.outcomes import Executed, ObservedChange, Plan, Stop
from autodw.agent.parts import Parts, repairing, validation, whole
from autodw.agent.planner import Planner, PlanRequest
from autodw.agent.records import Attempt, InstructionResult, RunResult, ValidatorVerdict
from autodw.agent.validator import Validator
from autodw.apis.calls import execute
from autodw.apis.registry import Registry
from autodw.core.document import Snapshot, WordDocument
from autodw.dwbench.records import Instruction
from autodw.core.errors import ApiError, ConfigError, InternalError
from autodw.eval import AGENT_ROLLBACK, VALIDATORS
from autodw.eval.faults import Fault, perturb
from autodw.eval.judge import judge
from autodw.core.ids import ID_IN_TEXT
from autodw.llm.base import LLMBackend
from autodw.analysis.state import StateCache


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


class Runs(Protocol):
    """Runs instructions on a document: an :class:`~autodw.agent.loop.Agent`, or a baseline's own runner."""

    @property
    def sinks(self) -> list[EventSink]: ...

    @property
    def last_complete(self) -> Snapshot | None: ...

    def run(self, doc: WordDocument, instructions: list[str], result: RunResult | None = None) -> RunResult: ...


def run_agent_turn(agent: Runs, doc: WordDocument, text: str, earlier: list[tuple[str, str]],
                   trace: Path | None, sinks: Sequence[EventSink] = (),
                   writer: Callable[[Path], TraceWriter] = TraceWriter) -> TurnResult:
    """One instruction through `agent`, with the session's earlier instructions as context and a trace file (written
    by `writer`); `sinks` see the events after it (an event they send goes to the trace too)."""
    run = RunResult(instructions=[InstructionResult(t, status) for t, status in earlier])
    trace_writer = writer(trace) if trace is not None else None
    agent.sinks[:] = [*([trace_writer] if trace_writer else []), *sinks]
    try:
        agent.run(doc, [text], result=run)
    except InternalError as exc:  # our bug: counted apart, the document back to where the instruction began
        assert agent.last_complete is not None  # the run took it before anything could fail
        doc.restore(agent.last_complete)
        record = run.instructions[-1]
        record.status, record.error = "internal_error", f"{exc}\n{exc.traceback}"
    finally:
        if trace_writer:
            trace_writer.close()
    return _turn_from_record(run.instructions[-1], run)


class AgentSystem:
    """The agent (``autodw``) or one of its rollback ablations, with one LLM backend and the intent classifier."""

    def __init__(self, name: str, llm: LLMBackend, classifier: Any, assembly: Assembly | None = None):
        if name not in AGENT_ROLLBACK:
            raise ConfigError(f"{name!r} is not an agent system ({', '.join(AGENT_ROLLBACK)})")
        self.name, self.llm_name = name, llm.name
        self.assembly = (assembly or assembly_for(llm)).override(rollback=AGENT_ROLLBACK[name])
        self.agent = Agent(llm, classifier, assembly=self.assembly)

    def run_turn(self, doc: WordDocument, instruction: Instruction, earlier: list[tuple[str, str]],
                 trace: Path | None = None) -> TurnResult:
        return run_agent_turn(self.agent, doc, instruction.text, earlier, trace)


# --- the noisy oracle ------------------------------------------------------------------------------


def step_instruction(instruction: str, number: int, total: int, purpose: str, args: dict[str, Any]) -> str:
    """The noisy oracle's sub-instruction for one gold step, as a planner that got the plan right would write it:
    the operation and the elements it works on (the gold call's ids), in the context of the user's instruction, whose
    texts and values the validator checks the call against (on a second line, which the step history leaves out). Not
    the values themselves: the faults are the API generator's, judged against what the user asked."""
    targets = list(dict.fromkeys(ID_IN_TEXT.findall(json.dumps(args))))
    on = f" (elements: {', '.join(targets)})" if targets else ""
    return (f"Step {number} of {total} of the user's instruction, judged alone (the other steps are done separately): "
            f"{purpose.rstrip('.')}{on}.\nThe user's instruction: {instruction}")


def _same(after: State | None, gold_after: State | None) -> bool:
    """Whether a state after a call is the gold call's (the judge's equivalence)."""
    if after is None or gold_after is None:
        return after is gold_after
    return after == gold_after or judge(gold_after, after).equivalent


class NoisyTurn:
    """What the noisy oracle's parts share for one instruction: its gold steps, the seeded draws of their faults, the
    step at hand (gold call, fault, the state after the gold call) and one entry per gold step (the run's record).

    The state after a step's gold call is read when the step is planned, unless the step drew no fault: its first
    call is then the gold call, made by the agent from the same revision (an API call is deterministic), and the state
    it leaves is the gold call's (:meth:`first_attempted`); so the gold call is not made twice."""

    def __init__(self, instruction: Instruction, doc: WordDocument, registry: Registry, p: float, seed: int,
                 states: StateCache):
        self.doc, self.registry, self.p, self.states = doc, registry, p, states
        self.gold = list(instruction.gold)
        self.rng = random.Random(f"{seed}:{instruction.key}")  # seeded by instruction and step
        self.drawn = 0  # gold steps drawn so far
        self.entries: list[dict[str, Any]] = []
        self.current: tuple[Any, Fault | None, dict[str, Any]] | None = None  # (gold call, fault, its entry)
        self._gold_after: State | None = None
        self._gold_read = False  # whether _gold_after is the step's

    def step(self) -> tuple[Any, Fault | None, dict[str, Any]]:
        if self.current is None:
            raise InternalError("the noisy oracle's parts were asked about a step before the gold planner gave one")
        return self.current

    def plan(self, gold: Any, fault: Fault | None, entry: dict[str, Any]) -> None:
        """Make (gold, fault, entry) the step at hand; the state after its gold call read now if the step drew a
        fault, else from its first attempt."""
        self.current = (gold, fault, entry)
        self._gold_read = fault is not None
        self._gold_after = self.state_after(gold.api, gold.args) if fault is not None else None

    def first_attempted(self, executed: Executed) -> None:
        """The step's first attempt was made: when the step drew no fault and the attempt ran the gold call, the state
        it left is the gold call's; otherwise the gold call is made now, from the revision the step started from."""
        if self._gold_read:
            return
        gold, attempt = self.step()[0], executed.attempt
        if attempt.ok and (attempt.api, attempt.args) == (gold.api, gold.args):
            self._gold_after = executed.after
        elif attempt.ok and executed.snapshot is not None:  # another call changed the document: read from its start
            now = self.doc.snapshot()
            self.doc.restore(executed.snapshot)
            self._gold_after = self.state_after(gold.api, gold.args)
            self.doc.restore(now)
        else:  # nothing the attempt did stayed: the document is as the step started
            self._gold_after = self.state_after(gold.api, gold.args)
        self._gold_read = True

    @property
    def gold_after(self) -> State | None:
        """The state after the step's gold call (None if the call fails)."""
        if not self._gold_read:
            raise InternalError("the noisy oracle asked for the gold call's state before the step's first attempt")
        return self._gold_after

    def state_after(self, api: str, args: dict[str, Any]) -> State | None:
        """The state after `api(args)` on the document as it is now (the document is left unchanged). Kept in the
        agent's states: a call that makes the same edit from the same revision finds it there."""
        try:
            result = execute(self.doc, api, args, self.registry)
        except ApiError:
            return None
        after = self.states.of(self.doc)
        self.doc.restore(result.snapshot)
        return after


class GoldPlanner(Planner):
    """The gold calls are the plan: one step per gold call, each call perturbed with probability p (a skipped one is
    not planned); then done."""

    def __init__(self, turn: NoisyTurn):
        self.turn = turn

    def next_step(self, request: PlanRequest) -> Plan:
        turn = self.turn
        while turn.drawn < len(turn.gold):
            gold = turn.gold[turn.drawn]
            turn.drawn += 1
            fault = (perturb(gold.api, gold.args, turn.doc.ids(), turn.registry, turn.rng)
                     if turn.rng.random() < turn.p else None)
            entry = {"step": turn.drawn, "gold": {"api": gold.api, "args": gold.args},
                     "fault": fault.kind if fault else None,
                     "call": {"api": fault.api, "args": fault.args} if fault and fault.api else None}
            turn.entries.append(entry)
            if fault is not None and fault.kind == "skip":
                continue
            turn.plan(gold, fault, entry)
            purpose = turn.registry.get(gold.api).purpose
            return Plan.step(step_instruction(request.request, turn.drawn, len(turn.gold), purpose, gold.args), ())
        return Plan(None, stop=Stop.DONE)


class GoldIntent:
    """The candidates of the gold call's intent (the noisy oracle has no sub-instruction to classify)."""

    def __init__(self, turn: NoisyTurn):
        self.turn = turn

    def candidates(self, sub_instruction: str) -> Candidates:
        intent = self.turn.registry.get(self.turn.step()[0].api).intent
        return Candidates([(intent, 1.0)], self.turn.registry.names_for_intents([intent]))


class FaultyGenerator:
    """The step's first call is its fault (the gold call if it drew none); a regeneration returns the gold call."""

    def __init__(self, turn: NoisyTurn):
        self.turn = turn

    def generate(self, request: CallRequest) -> Generated:
        gold, fault, entry = self.turn.step()
        if request.level == "first" and fault is not None:
            assert fault.api is not None  # a skipped step is not planned
            return Call(fault.api, fault.args)
        if request.level != "first":
            entry["regenerated"] = entry.get("regenerated", 0) + 1
        return Call(gold.api, gold.args)


class OracleValidator:
    """A perfect validator: the state after the call is judged against the state after the gold call."""

    def __init__(self, turn: NoisyTurn):
        self.turn = turn

    def judge(self, ctx: StepContext, attempt: Attempt, after: State, change: ObservedChange) -> ValidatorVerdict:
        same = _same(after, self.turn.gold_after)
        return ValidatorVerdict("pass" if same else "fail", 1.0,
                       "the gold call's state" if same else "differs from the gold call's state", accepted=same)


class VerdictLog:
    """Keeps each verdict of a validator in the step's entry."""

    def __init__(self, turn: NoisyTurn, inner: Validator):
        self.turn, self.inner = turn, inner

    def judge(self, ctx: StepContext, attempt: Attempt, after: State, change: ObservedChange) -> ValidatorVerdict:
        verdict = self.inner.judge(ctx, attempt, after, change)
        self.turn.step()[2].setdefault("verdicts", []).append({"level": attempt.level, "decision": verdict.decision,
                                                               "confidence": verdict.confidence,
                                                               "accepted": verdict.accepted, "rule": verdict.rule})
        return verdict


class FirstAttemptLog:
    """Keeps in the step's entry whether its first call ran, and whether it had another effect than the gold call."""

    def __init__(self, turn: NoisyTurn):
        self.turn = turn

    def attempted(self, ctx: StepContext, executed: Executed) -> None:
        if executed.attempt.level == "first":
            self.turn.first_attempted(executed)
            entry, ok = self.turn.step()[2], executed.attempt.ok
            entry["executed"] = ok
            entry["effective"] = (not ok) or not _same(executed.after, self.turn.gold_after)


class Unseen:
    """The gold planner's view of the document: none (it plans from the gold calls)."""

    def for_message(self, state: Any, message: str, record: InstructionResult, previous: str = "") -> str | None:
        return None

    def for_step(self, state: State, request: str, record: InstructionResult, kept: str | None,
                 previous: str = "") -> str:
        return ""

    def history(self, record: InstructionResult, state: State) -> str:
        return ""


class _NoLLM:
    """The backend of a noisy oracle with the oracle validator: nothing may ask it anything."""

    name = "none"
    profile = None

    def complete(self, *args: Any, **kwargs: Any) -> Any:
        raise InternalError("the noisy oracle with the oracle validator asked an LLM")


class NoisyOracleSystem:
    """``noisy-oracle``: the agent with a gold planner, a faulty generator and the validator `validator` names: the
    agent's LLM validator (after its rule checks, if the assembly has them), the rule checks alone (``rules``: a
    certain finding rejects, anything else passes), or a perfect one (``oracle``: :class:`OracleValidator`); its
    rollback and repair are the assembly's. `llm` is needed only by the LLM validator."""

    name = "noisy-oracle"

    def __init__(self, p: float, validator: str, llm: LLMBackend | None, assembly: Assembly, seed: int = 0,
                 registry: Registry | None = None):
        if not 0 <= p <= 1:
            raise ConfigError(f"--p must be a probability in [0, 1], not {p}")
        if validator not in VALIDATORS:
            raise ConfigError(f"--validator must be one of {', '.join(VALIDATORS)}, not {validator!r}")
        if validator == "llm" and llm is None:
            raise ConfigError("the LLM validator needs an LLM (--llm SPEC)")
        from autodw.apis import registry as load_registry

        self.p, self.validator, self.seed = p, validator, seed
        self.registry = registry or load_registry()
        self.llm: Any = llm or _NoLLM()
        self.llm_name = self.llm.name
        # the gold steps are the plan: one request, no heuristics (the gold planner never repeats itself, and a
        # perturbed call may repeat an earlier one), no limit before the last of them; the validator this system
        # measures, whatever the assembly says
        stages = ("oracle",) if validator == "oracle" else (
            *(("rules",) if assembly.has("validator", "rules") else ()), *(("llm",) if validator == "llm" else ()))
        self.assembly = assembly.override(requests="whole", planner=["gold"], intents="gold",
                                          generator=["faulty", *assembly.generator[1:]], validator=list(stages),
                                          absence_findings=assembly.absence_findings if "llm" in stages else "reject",
                                          max_llm_calls=None)

    def run_turn(self, doc: WordDocument, instruction: Instruction, earlier: list[tuple[str, str]],
                 trace: Path | None = None) -> TurnResult:
        states = StateCache()  # the gold planner's and the agent's: the state after a gold call is read once
        turn = NoisyTurn(instruction, doc, self.registry, self.p, self.seed, states)
        validator = OracleValidator(turn) if self.validator == "oracle" else validation(self.assembly, self.registry)
        parts = Parts(split=whole, planner_view=Unseen(), planner=GoldPlanner(turn), intents=GoldIntent(turn),
                      generator=repairing(self.assembly, FaultyGenerator(turn), self.registry),
                      validator=VerdictLog(turn, validator), observers=(FirstAttemptLog(turn),))
        agent = Agent(self.llm, parts=parts, assembly=self.assembly.override(max_steps=len(turn.gold) + 1),
                      registry=self.registry, states=states)
        result = run_agent_turn(agent, doc, instruction.text, earlier, trace)
        result.faults = turn.entries
        return result
