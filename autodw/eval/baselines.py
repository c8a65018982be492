"""The paper's baselines (Table 2), run through the same harness, LLM backend, state view and API library as the agent.

- ``reasoning-only``: the whole API library in the prompt; the LLM writes every call of the instruction in one
  answer (one shot), executed in order; nothing is checked or corrected.
- ``retrieval-only``: the same one-shot answer, but the APIs offered are those whose description is similar to the
  instruction (cosine >= :data:`RETRIEVAL_THRESHOLD` with the intent classifier's multilingual-e5-small encoder),
  at most :data:`RETRIEVAL_TOP_K` of them; no planning.
- ``hybrid`` (PPTC-style): the planner lists every sub-instruction up front; each is classified, its API chosen and
  its arguments filled as in the agent; no validation, no rollback, no re-planning.

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
from autodw.agent.config import AgentConfig
from autodw.agent.loop import Agent
from autodw.agent.records import Attempt, InstructionResult, RunResult, Step
from autodw.apis.calls import execute, validate_arguments
from autodw.apis.registry import ApiSpec, Registry
from autodw.document import WordDocument
from autodw.dwbench.records import Instruction
from autodw.errors import ApiError, ConfigError, LLMOutputError
from autodw.eval import BASELINES
from autodw.eval.systems import TurnResult, run_agent_turn
from autodw.intents.embedding import encoder
from autodw.llm.base import LLMBackend
from autodw.state import extract_state

RETRIEVAL_THRESHOLD = 0.75
RETRIEVAL_TOP_K = 10
MAX_CALLS = 24  # calls in one one-shot answer (DWBench instructions need at most 13)
PROGRAM_TOKENS = 3072  # the token limit of an answer that holds a whole instruction: the one-shot baselines' dozen calls
# with their arguments, hybrid's plan of every step (the agent's answers are one call or step each, within the backend's
# default of 512; 512 cut the local model's one-shot answers and hybrid's first plan on mini short)
MAX_PLANNED_STEPS = 16


class OneShotAgent(Agent):
    """Writes all of an instruction's calls in one LLM answer (reasoning-only, retrieval-only) and runs them."""

    def __init__(self, llm: LLMBackend, classifier: Any, config: AgentConfig, retrieval: bool,
                 registry: Registry | None = None):
        super().__init__(llm, classifier, registry, config)
        self.retrieval = retrieval

    def offered(self, instruction: str) -> list[ApiSpec]:
        """The APIs the prompt shows: the whole library, or the retrieved ones."""
        specs = [s for s in self.registry if not s.read_only]
        if not self.retrieval:
            return specs
        import numpy as np

        scores = _api_vectors(tuple(_retrieval_text(s) for s in specs)) @ encoder().query(instruction)
        order = [int(i) for i in np.argsort(-scores, kind="stable") if scores[i] >= RETRIEVAL_THRESHOLD]
        return [specs[i] for i in order[:RETRIEVAL_TOP_K]]

    def _carry_out(self, doc: WordDocument, instruction: str, record: InstructionResult, run: RunResult,
                   session: list[InstructionResult]) -> None:
        state = extract_state(doc)
        specs = self.offered(instruction)
        self._emit("intents", {"step": 1, "intents": [], "candidates": [s.name for s in specs]})
        if self.config.compact_api_docs and not self.retrieval:
            docs = "\n".join(f"{s.signature_text()}: {s.purpose}" for s in specs)
        else:
            docs = "\n\n".join(s.prompt_doc(compact=self.config.compact_api_docs) for s in specs)
        msgs = prompts.messages("program", api_docs=docs, session_context=views.session_context(session),
                                state=views.state_view(state, instruction, record, self.config.planner_state_budget),
                                instruction=instruction)
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
            calls = self._ask("api_generator", msgs, schema, lambda a: {"calls": check(a)}, run, max_tokens=PROGRAM_TOKENS)["calls"]
        except LLMOutputError as exc:
            record.status, record.error = "error", str(exc)
            return
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
            self._emit("attempt", {"step": n, "level": "first", "call": prompts.format_call(call["api"], call["args"]),
                                   "ok": attempt.ok, "message": attempt.message, "error": attempt.error, "changes": "",
                                   "created": attempt.created})
        record.status = "done"


class HybridAgent(Agent):
    """PPTC-style: the whole plan first, then each step's API call as in the agent; no validation or rollback."""

    def _plan(self, instruction: str, record: InstructionResult, state_text: str, state: dict[str, Any],
              run: RunResult, session: list[InstructionResult], context: str = "", first_step: int = 1) -> dict[str, Any]:
        if not record.steps:
            schema = {"type": "object", "properties": {"steps": {"type": "array", "maxItems": MAX_PLANNED_STEPS,
                                                                 "items": {"type": "string", "minLength": 1, "maxLength": 300}}},
                      "required": ["steps"]}
            msgs = prompts.messages("plan_all", session_context=views.session_context(session), state=state_text,
                                    instruction=instruction)

            def check(answer: dict[str, Any]) -> dict[str, Any]:
                steps = answer.get("steps")
                if not isinstance(steps, list) or not all(isinstance(s, str) and s.strip() for s in steps):
                    raise LLMOutputError('"steps" must be a list of non-empty strings')
                return {"steps": steps[:MAX_PLANNED_STEPS]}

            try:
                self._pending = list(self._ask("planner", msgs, schema, check, run, max_tokens=PROGRAM_TOKENS)["steps"])
            except LLMOutputError as exc:
                from autodw.agent.loop import PlannerStalled

                raise PlannerStalled(f"the planner gave no usable plan: {exc}") from exc
        if not self._pending:
            return {"done": True, "sub_instruction": None}
        return {"done": False, "sub_instruction": self._pending.pop(0), "remaining": list(self._pending)}


class BaselineSystem:
    """One of :data:`autodw.eval.BASELINES` as a harness system."""

    def __init__(self, name: str, llm: LLMBackend, classifier: Any, config: AgentConfig):
        self.name, self.llm_name = name, llm.name
        # the paper's baselines: none of the agent's heuristics or of issue 18's techniques
        plain = dict(rollback="none", refuse_repeated_steps=False, end_on_repeated_call=False,
                     stop_when_nothing_remains=False, two_stage_api_choice=config.two_stage_api_choice,
                     grounding=False, rule_checks=False, split_requests=False)
        if name == "hybrid":
            self.agent: Agent = HybridAgent(llm, classifier, config=config.override(**plain, max_steps=MAX_PLANNED_STEPS + 1))
        else:
            self.agent = OneShotAgent(llm, classifier, config.override(**plain), retrieval=name == "retrieval-only")

    def run_turn(self, doc: WordDocument, instruction: Instruction, earlier: list[tuple[str, str]],
                 trace: Path | None = None) -> TurnResult:
        return run_agent_turn(self.agent, doc, instruction.text, earlier, trace)


def make_baseline(name: str, llm: LLMBackend, classifier: Any, config: AgentConfig) -> BaselineSystem:
    """The baseline called `name` (ConfigError for another name)."""
    if name not in BASELINES:
        raise ConfigError(f"{name!r} is not a baseline ({', '.join(BASELINES)})")
    return BaselineSystem(name, llm, classifier, config)


def _retrieval_text(spec: ApiSpec) -> str:
    """What an API is embedded as: its name in words and the first sentence of its description."""
    return f"{spec.name.replace('_', ' ')}: {spec.purpose}"


@lru_cache(maxsize=4)
def _api_vectors(texts: tuple[str, ...]):
    """The embeddings of the API texts (computed once per library)."""
    return encoder().passage(list(texts))

