"""The planner: a request's next sub-instruction, or why there is none (a :class:`~autodw.agent.outcomes.Plan`).

The agent asks a :class:`Planner` for the next step (:meth:`Planner.next_step`), and, for the heuristics of
:mod:`autodw.agent.heuristics` (planner wrappers), whether a step's outcome ends the request
(:meth:`Planner.done_after`) and whether an executed call repeats finished work (:meth:`Planner.repeated`); the
paper's planner says no to both. Implementations: :class:`LLMPlanner` (the paper's, one step at a time) and
:class:`UpFrontPlanner` (the hybrid baseline's: every step at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, Union

from autodw.agent import prompts, views
from autodw.agent.context import Asker, State
from autodw.agent.outcomes import Plan, StepOutcome, Stop
from autodw.agent.records import Attempt, InstructionResult, Step
from autodw.core.errors import LLMOutputError
from autodw.llm.jsonout import validate

MAX_PLANNED_STEPS = 16  # steps of an up-front plan


class PlannerStalled(LLMOutputError):
    """The planner kept answering with invalid steps, or planned again a step that kept failing; the request ends as
    an error."""

    retryable = False


@dataclass(frozen=True)
class Refusal:
    """A planned step a veto refuses: the planner is told `message` and asked again; if its retries all end refused,
    the plan is `then`."""

    message: str
    then: Plan


#: A check of a planned step (a heuristic's): the plan to keep (the step, or a stop), or a refusal;
#: PlannerStalled ends the request.
Veto = Callable[[Plan, "PlanRequest"], Union[Plan, Refusal]]


@dataclass(frozen=True)
class PlanRequest:
    """What a planner is given to plan the next step of a request."""

    request: str  # the text planned: the user's message, or one of its requests
    requests: int  # how many requests the message makes (1: it is planned whole)
    context: str  # shown to the planner before the request: which of the message's requests it is ("" for one)
    first_step: int  # the number of the request's first step
    record: InstructionResult  # the instruction so far
    session: list[InstructionResult]  # the session's earlier instructions
    state: State  # the document now
    state_view: str  # the document as the planner sees it (autodw.agent.views.PlannerView)
    history: str  # the steps so far as the planner sees them
    ask: Asker
    require_remaining: bool = False  # the answer must list the operations still needed after this one
    vetoes: tuple[Veto, ...] = ()  # checks of each planned step, in order

    @property
    def one_of_several(self) -> bool:
        return self.requests > 1


class Planner(Protocol):
    """Gives a request's next step; a planner class that subclasses this one explicitly inherits the paper's
    answers to :meth:`done_after` and :meth:`repeated` (never)."""

    def next_step(self, request: PlanRequest) -> Plan:
        """The next step, or a stop (PlannerStalled if there is no usable answer)."""
        ...

    def done_after(self, plan: Plan, outcome: StepOutcome, record: InstructionResult) -> bool:
        """Whether the request is done after `plan`'s step ended with `outcome`, without asking again."""
        return False

    def repeated(self, attempt: Attempt, record: InstructionResult) -> Step | None:
        """The accepted step whose work the executed `attempt` repeats, if it shows finished work (the step is then
        undone and the request done)."""
        return None


class PlannerWrapper(Planner):
    """A planner around another: everything it does not change, the inner planner answers."""

    def __init__(self, inner: Planner):
        self.inner = inner

    def next_step(self, request: PlanRequest) -> Plan:
        return self.inner.next_step(request)

    def done_after(self, plan: Plan, outcome: StepOutcome, record: InstructionResult) -> bool:
        return self.inner.done_after(plan, outcome, record)

    def repeated(self, attempt: Attempt, record: InstructionResult) -> Step | None:
        return self.inner.repeated(attempt, record)


class LLMPlanner(Planner):
    """The paper's planner: the model gives ONE atomic sub-instruction, or says the request is done. Each planned step
    passes the request's vetoes; a refused one is shown its refusal and asked again."""

    def next_step(self, request: PlanRequest) -> Plan:
        msgs = prompts.messages("planner", instruction=request.request,
                                session_context=views.session_context(request.session) + request.context,
                                history=request.history, state=request.state_view)
        schema = prompts.planner_schema(require_remaining=request.require_remaining)
        refusals: list[Refusal] = []

        def check(answer: dict[str, Any]) -> Plan:
            validate(answer, schema)
            if not answer["done"] and not (answer.get("sub_instruction") or "").strip():
                raise LLMOutputError('"sub_instruction" must be a non-empty string when "done" is false')
            plan = Plan.from_answer(answer)
            if plan.done:
                return plan
            for veto in request.vetoes:
                verdict = veto(plan, request)
                if isinstance(verdict, Refusal):
                    refusals.append(verdict)
                    raise LLMOutputError(verdict.message)
                plan = verdict
                if plan.done:
                    break
            return plan

        try:
            return request.ask("planner", msgs, schema, check)
        except PlannerStalled:
            raise
        except LLMOutputError as exc:
            if refusals and str(exc).endswith(refusals[-1].message):  # its last answer was refused again
                return refusals[-1].then
            raise PlannerStalled(f"the planner gave no usable next step: {exc}") from exc


class UpFrontPlanner(Planner):
    """The hybrid baseline's (PPTC-style) planner: every step of the instruction in one answer, then one at a time."""

    def __init__(self) -> None:
        self.pending: list[str] = []

    def next_step(self, request: PlanRequest) -> Plan:
        if not request.record.steps:
            self.pending = self._plan_all(request)
        if not self.pending:
            return Plan(None, stop=Stop.DONE)
        return Plan.step(self.pending.pop(0), list(self.pending))

    @staticmethod
    def _plan_all(request: PlanRequest) -> list[str]:
        schema = {"type": "object", "properties": {"steps": {"type": "array", "maxItems": MAX_PLANNED_STEPS,
                                                             "items": {"type": "string", "minLength": 1, "maxLength": 300}}},
                  "required": ["steps"]}
        msgs = prompts.messages("plan_all", session_context=views.session_context(request.session),
                                state=request.state_view, instruction=request.request)

        def check(answer: dict[str, Any]) -> dict[str, Any]:
            steps = answer.get("steps")
            if not isinstance(steps, list) or not all(isinstance(s, str) and s.strip() for s in steps):
                raise LLMOutputError('"steps" must be a list of non-empty strings')
            return {"steps": steps[:MAX_PLANNED_STEPS]}

        try:
            return list(request.ask("planner", msgs, schema, check, max_tokens=prompts.PROGRAM_TOKENS)["steps"])
        except LLMOutputError as exc:
            raise PlannerStalled(f"the planner gave no usable plan: {exc}") from exc
