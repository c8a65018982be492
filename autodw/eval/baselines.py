"""The paper's baselines (Table 2), run through the same harness, LLM backend, state view and API library as the agent.

- ``reasoning-only``: the whole API library in the prompt; the LLM writes every call of the instruction in one
  answer (one shot), executed in order; nothing is checked or corrected.
- ``retrieval-only``: the same one-shot answer, but the APIs offered are those whose description is similar to the
  instruction (cosine >= :data:`RETRIEVAL_THRESHOLD` with the intent classifier's multilingual-e5-small encoder),
  at most :data:`RETRIEVAL_TOP_K` of them; no planning.
- ``hybrid`` (PPTC-style): the agent assembled with the up-front planner (:class:`~autodw.agent.planner.UpFrontPlanner`:
  every sub-instruction listed at once); each is classified, its API chosen and its arguments filled as in the agent;
  no validation, no rollback, no re-planning.

The one-shot baselines are their own small system (:class:`OneShot`), run with the agent's session runner (the same
events, timings and statuses).

Limits, stated: the whole library's documentation (~15k tokens) does not fit the embedded model's 8k context, so with
``compact_api_docs`` (the local profile) reasoning-only shows one line per API (signature and first sentence) and
relies on the answer schema (which a constrained decoder enforces) for argument types. With multilingual-e5-small
every API description scores >= 0.75 against every instruction we tried (its cosines sit between 0.8 and 0.9), so
the paper's threshold alone keeps the whole library; the top-k cap is what makes the retrieval select.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from autodw.agent import prompts, views
from autodw.agent.assembly import Assembly
from autodw.agent.context import InstructionContext
from autodw.agent.loop import Agent
from autodw.agent.outcomes import InstructionOutcome, Status
from autodw.agent.planner import MAX_PLANNED_STEPS
from autodw.agent.prompts import PROGRAM_TOKENS
from autodw.agent.records import Attempt, Step
from autodw.agent.runs import SessionRunner
from autodw.apis.calls import execute, validate_arguments
from autodw.apis.registry import ApiSpec, Registry
from autodw.core.document import WordDocument
from autodw.dwbench.records import Instruction
from autodw.core.errors import ApiError, ConfigError, LLMOutputError
from autodw.eval import BASELINES
from autodw.eval.systems import Runs, TurnResult, run_agent_turn
from autodw.intents.embedding import encoder
from autodw.llm.base import LLMBackend
from autodw.analysis.state import extract_state

__all__ = ["PROGRAM_TOKENS", "BaselineSystem", "OneShot", "make_baseline", "plain"]

RETRIEVAL_THRESHOLD = 0.75
RETRIEVAL_TOP_K = 10
MAX_CALLS = 24  # calls in one one-shot answer (DWBench instructions need at most 13)


class OneShot:
    """Writes all of an instruction's calls in one LLM answer (reasoning-only, retrieval-only) and runs them; nothing
    is checked or corrected. `assembly`: its numbers (the planner's state budget, the output retries), its
    ``api_docs`` and what the traces record."""

    def __init__(self, llm: LLMBackend, assembly: Assembly, retrieval: bool, registry: Registry | None = None):
        if registry is None:
            from autodw.apis import registry as load_registry

            registry = load_registry()
        self.registry, self.assembly, self.retrieval = registry, assembly, retrieval
        self.runner = SessionRunner(llm, assembly, self._carry_out)

    def offered(self, instruction: str) -> list[ApiSpec]:
        """The APIs the prompt shows: the whole library, or the retrieved ones."""
        specs = [s for s in self.registry if not s.read_only]
        if not self.retrieval:
            return specs
        import numpy as np

        scores = _api_vectors(tuple(_retrieval_text(s) for s in specs)) @ encoder().query(instruction)
        order = [int(i) for i in np.argsort(-scores, kind="stable") if scores[i] >= RETRIEVAL_THRESHOLD]
        return [specs[i] for i in order[:RETRIEVAL_TOP_K]]

    def _carry_out(self, instruction: InstructionContext) -> InstructionOutcome:
        doc, record = instruction.doc, instruction.record
        text, compact = record.instruction, self.assembly.api_docs == "compact"
        state = extract_state(doc)
        specs = self.offered(text)
        instruction.emit("intents", {"step": 1, "intents": [], "candidates": [s.name for s in specs]})
        if compact and not self.retrieval:
            docs = "\n".join(f"{s.signature_text()}: {s.purpose}" for s in specs)
        else:
            docs = "\n\n".join(s.prompt_doc(compact=compact) for s in specs)
        msgs = prompts.messages("program", api_docs=docs, session_context=views.session_context(instruction.session),
                                state=views.state_view(state, text, record, self.assembly.numbers.planner_state_budget),
                                instruction=text)
        names = [s.name for s in specs]
        schema = {"type": "object", "properties": {"calls": {
            "type": "array", "maxItems": MAX_CALLS, "items": prompts.api_call_schema(specs, doc.ids())}}, "required": ["calls"]}

        def check(answer: dict[str, Any]) -> list[dict[str, Any]]:
            calls = answer.get("calls")
            if not isinstance(calls, list):
                raise LLMOutputError('"calls" must be a list of {"api", "args"} objects')
            out = []
            for n, call in enumerate(calls, 1):
                if not isinstance(call, dict) or call.get("api") not in names:
                    raise LLMOutputError(f'call {n}: "api" must be one of the listed APIs, not {call!r:.80}')
                try:
                    out.append({"api": call["api"], "args": validate_arguments(self.registry.get(call["api"]), call.get("args", {}))})
                except ApiError as exc:
                    raise LLMOutputError(f"call {n} ({call['api']}): {exc}") from None
            return out

        try:
            calls = instruction.ask("api_generator", msgs, schema, lambda a: {"calls": check(a)}, max_tokens=PROGRAM_TOKENS)["calls"]
        except LLMOutputError as exc:
            return InstructionOutcome(Status.ERROR, str(exc))
        for n, call in enumerate(calls, 1):
            step = Step(n, f"call {n} of the answer")
            attempt = Attempt(call["api"], call["args"], "first")
            try:
                result = execute(doc, call["api"], call["args"], self.registry)
                attempt.ok = attempt.accepted = True
                attempt.message, attempt.created = result.message, result.created
            except ApiError as exc:  # no recovery: the call is lost, the rest still run
                attempt.error = str(exc)
            step.attempts.append(attempt)
            record.steps.append(step)
            instruction.emit("attempt", {"step": n, "level": "first", "call": prompts.format_call(call["api"], call["args"]),
                                         "ok": attempt.ok, "message": attempt.message, "error": attempt.error,
                                         "changes": "", "created": attempt.created})
        return InstructionOutcome(Status.DONE)


def plain(assembly: Assembly) -> Assembly:
    """`assembly` without the agent's heuristics or issue 18's techniques (the paper's baselines have none; without
    rule checks, no absence finding is there to hint)."""
    return assembly.override(rollback="none", refuse_repeated_steps=False, end_on_repeated_call=False,
                             stop_when_nothing_remains=False, grounding=False, rule_checks=False, split_requests=False,
                             absence_findings="reject")


def hybrid(assembly: Assembly) -> Assembly:
    """The hybrid baseline's assembly: the up-front planner, no validation (nor rollback), room for every planned step."""
    return plain(assembly).override(planner=["up_front"], validator=[], max_steps=MAX_PLANNED_STEPS + 1)


class BaselineSystem:
    """One of :data:`autodw.eval.BASELINES` as a harness system."""

    def __init__(self, name: str, llm: LLMBackend, classifier: Any, assembly: Assembly):
        self.name, self.llm_name = name, llm.name
        self.runner: Runs
        if name == "hybrid":
            self.runner = Agent(llm, classifier, assembly=hybrid(assembly))
        else:
            self.runner = OneShot(llm, plain(assembly), retrieval=name == "retrieval-only").runner

    def run_turn(self, doc: WordDocument, instruction: Instruction, earlier: list[tuple[str, str]],
                 trace: Path | None = None) -> TurnResult:
        return run_agent_turn(self.runner, doc, instruction.text, earlier, trace)


def make_baseline(name: str, llm: LLMBackend, classifier: Any, assembly: Assembly) -> BaselineSystem:
    """The baseline called `name` (ConfigError for another name)."""
    if name not in BASELINES:
        raise ConfigError(f"{name!r} is not a baseline ({', '.join(BASELINES)})")
    return BaselineSystem(name, llm, classifier, assembly)


def _retrieval_text(spec: ApiSpec) -> str:
    """What an API is embedded as: its name in words and the first sentence of its description."""
    return f"{spec.name.replace('_', ' ')}: {spec.purpose}"


@lru_cache(maxsize=4)
def _api_vectors(texts: tuple[str, ...]):
    """The embeddings of the API texts (computed once per library)."""
    return encoder().passage(list(texts))
