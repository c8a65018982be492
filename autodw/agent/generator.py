"""The call generator: one API call for a step, given the candidate APIs, the rollback level and the feedback on the
last attempt. :class:`LLMCallGenerator` is the paper's (with the optional two-stage API choice);
:class:`RepairRejected` wraps a generator to correct a regeneration that repeats the rejected call."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol, Union

from autodw.agent import grounding, prompts, request_values, views
from autodw.agent.context import StepContext
from autodw.agent.records import Attempt
from autodw.apis.calls import validate_arguments
from autodw.apis.registry import ApiSpec, Registry
from autodw.core.errors import ApiError, InternalError, LLMOutputError

GENERATOR_GROUNDING_LINES = 6  # grounded elements listed for the API generator (its state view is small)


@dataclass(frozen=True)
class CallRequest:
    """What a generator is given for one attempt of a step."""

    ctx: StepContext
    allowed: list[str]  # the APIs the call may use
    level: str  # "first", "arg" (argument-level rollback) or "api" (API-level rollback)
    feedback: str | None  # what the last attempt's failure or rejection said (None for the first)
    rejected: Attempt | None = None  # at argument level: the call the regeneration corrects (rejected, or failed with a fix)


@dataclass(frozen=True)
class Call:
    """A generated call. `repaired`: the fixes of the rejected call it repeated were applied; `refused`: why it is not
    to be run (it repeats the rejected call, and nothing says how to fix it)."""

    api: str
    args: dict[str, Any]
    repaired: bool = False
    refused: str | None = None


@dataclass(frozen=True)
class NoCall:
    """No valid call: why."""

    error: str


Generated = Union[Call, NoCall]


class CallGenerator(Protocol):
    """Writes one API call for a step."""

    def generate(self, request: CallRequest) -> Generated: ...


def _candidate(answer: dict[str, Any], allowed: list[str]) -> str:
    """The answer's API name, if it is one of the offered ones (LLMOutputError naming them otherwise)."""
    name = answer.get("api")
    if not isinstance(name, str) or name not in allowed:
        raise LLMOutputError(f'"api" must be one of the available APIs ({", ".join(allowed)}), not {name!r}')
    return name


class LLMCallGenerator:
    """The model writes the call from the candidates' documentation, the step's view of the document, the history and
    the values the user's request gives, in the APIs' form (:mod:`autodw.agent.request_values`; none: no lines).

    `grounded`: the elements the quoted texts name are listed with the view; `two_stage`: with several candidates, the
    API is first chosen from one-line summaries, then only its arguments are filled in; `compact_docs`: the APIs'
    first sentences only, no examples; `max_id_items`: the longest list of element ids an answer may give (None: any)."""

    def __init__(self, registry: Registry, *, grounded: bool, two_stage: bool, compact_docs: bool,
                 budget: int | None, history_chars: int, max_id_items: int | None = prompts.MAX_ID_ITEMS):
        self.registry = registry
        self.grounded, self.two_stage, self.compact_docs = grounded, two_stage, compact_docs
        self.budget, self.history_chars, self.max_id_items = budget, history_chars, max_id_items

    def generate(self, request: CallRequest) -> Generated:
        try:
            return self._ask(request)
        except LLMOutputError as exc:
            return NoCall(f"no valid API call: {exc}")

    def _ask(self, request: CallRequest) -> Call:
        ctx, allowed, level, feedback = request.ctx, request.allowed, request.level, request.feedback
        specs = [self.registry.get(name) for name in allowed]
        if feedback and level == "arg":
            feedback += f"\nCall {allowed[0]} again with corrected arguments."
        elif feedback and level == "api":
            feedback += "\nChoose a different API from the list."
        feedback = f"{feedback}\n" if feedback else ""
        step, record = ctx.step, ctx.record
        if self.grounded:  # the sub-instruction's quotes, else the instruction's
            quoted_in = step.sub_instruction if grounding.quotes(step.sub_instruction) else ctx.request
            state_text = views.grounded_view(ctx.before, step.sub_instruction, record, self.budget,
                                             quoted_in=quoted_in, max_lines=GENERATOR_GROUNDING_LINES,
                                             previous=ctx.previous,
                                             pointing_in=f"{step.sub_instruction}\n{ctx.request}")
        else:
            state_text = views.state_view(ctx.before, step.sub_instruction, record, self.budget)
        if self.two_stage and len(specs) > 1:
            specs = [self._choose_api(ctx, specs, feedback)]
            allowed = [specs[0].name]
        docs = "\n\n".join(s.prompt_doc(compact=self.compact_docs) for s in specs)
        values = request_values.value_lines(request_values.request_values(ctx.request, ctx.before))
        msgs = prompts.messages("api_generator", api_docs=docs, state=state_text,
                                history=views.history(record, self.history_chars), instruction=record.instruction,
                                values=values, sub_instruction=step.sub_instruction, feedback=feedback)

        user_quotes = [q.text for q in grounding.quotes(record.instruction)]

        def check(answer: dict[str, Any]) -> Call:
            name = _candidate(answer, allowed)
            args = grounding.keep_user_characters(answer.get("args", {}), user_quotes)
            return Call(name, validate_arguments(self.registry.get(name), args))

        return ctx.ask("api_generator", msgs, prompts.api_call_schema(specs, ctx.doc.ids(), self.max_id_items), check,
                       cut_hint=prompts.cut_answer_hint(specs))

    def _choose_api(self, ctx: StepContext, specs: list[ApiSpec], feedback: str) -> ApiSpec:
        """Two-stage generation, first stage: the API alone, picked from one-line summaries and the sub-instruction
        (no document state, so for the same candidates the whole prompt but the sub-instruction stays cached)."""
        names = [s.name for s in specs]
        msgs = prompts.messages("api_chooser", api_list="\n".join(s.summary() for s in specs),
                                sub_instruction=ctx.step.sub_instruction, feedback=feedback)
        answer = ctx.ask("api_chooser", msgs, prompts.api_choice_schema(names), lambda a: {"api": _candidate(a, names)})
        return self.registry.get(answer["api"])


class RepairRejected:
    """An argument-level regeneration that repeats the rejected call gets the fixes instead: the rule checks' (the kind
    or side asked for, position "end", the one length given, the quoted text), or what the call's error said to leave
    out; without fixes it is not run again."""

    def __init__(self, inner: CallGenerator, registry: Registry):
        self.inner, self.registry = inner, registry

    def generate(self, request: CallRequest) -> Generated:
        call, rejected = self.inner.generate(request), request.rejected
        if not isinstance(call, Call) or rejected is None or (call.api, call.args) != (rejected.api, rejected.args):
            return call
        repair = rejected.verdict.repair if rejected.verdict else rejected.fix
        if repair is None:  # the same call would be rejected the same way
            return replace(call, refused="the regenerated call is the rejected one again")
        try:
            repaired = {k: v for k, v in {**call.args, **repair}.items() if v is not None}  # None: left out
            return Call(call.api, validate_arguments(self.registry.get(call.api), repaired), repaired=True)
        except ApiError as exc:  # a fix the API's schema refuses is our bug
            raise InternalError.wrap(exc, f"the fix {repair} of {call.api}") from exc
