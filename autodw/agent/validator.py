"""The validator: a verdict on an executed call, given the state after it and the change it made.

:class:`Validation` composes the two validators of the agent as the profiles choose them: the rule checks
(:class:`RuleChecks`, :mod:`autodw.agent.checks`) first, a certain finding rejecting the call without asking the
model; then the LLM validator (:class:`LLMValidator`), shown the other findings as hints; without an LLM validator,
what no rule check rejects passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, Sequence

from autodw.agent import checks, prompts, views
from autodw.agent.context import State, StepContext
from autodw.agent.outcomes import ObservedChange
from autodw.agent.records import Attempt, ValidatorVerdict
from autodw.apis.calls import validate_arguments
from autodw.apis.registry import Registry
from autodw.core.errors import ApiError, LLMOutputError
from autodw.llm.jsonout import validate

if TYPE_CHECKING:
    from autodw.agent.checks import CheckFinding

class Validator(Protocol):
    """Judges an executed call (it may be rolled back)."""

    def judge(self, ctx: StepContext, attempt: Attempt, after: State, change: ObservedChange) -> ValidatorVerdict: ...


def applicable_fix(registry: Registry, api: str, args: dict[str, Any], fix: dict[str, Any] | None) -> dict[str, Any] | None:
    """`fix` if the API accepts the call with it (a None value leaves the argument out), else None: the rule checks'
    value words are shared by APIs whose choices differ ("justify" is named, but set_image_alignment has no such
    value)."""
    if fix is None or api not in registry:
        return None
    try:
        validate_arguments(registry.get(api), {k: v for k, v in {**args, **fix}.items() if v is not None})
    except ApiError:
        return None
    return fix


class RuleChecks:
    """The deterministic checks of a call against the request and the state before and after it. `absence`
    (the assembly's ``absence_findings``): ``reject``, or ``hint``: the certain findings of the checks that read
    absence become hints for the LLM validator."""

    def __init__(self, registry: Registry, absence: str = "reject"):
        if absence not in ("reject", "hint"):
            raise ValueError(f"absence must be reject or hint, not {absence!r}")
        self.registry, self.absence = registry, absence

    def findings(self, ctx: StepContext, attempt: Attempt, after: State) -> list[CheckFinding]:
        found = checks.check_call(ctx.step.sub_instruction, ctx.request, attempt.api or "", attempt.args or {},
                                  ctx.before, after, previous=ctx.previous, message=ctx.record.instruction)
        if self.absence == "reject":
            return found
        return [checks.as_hint(f) if f.certain and f.check in checks.ABSENCE_FINDINGS else f for f in found]

    def rejection(self, findings: list[CheckFinding], attempt: Attempt) -> ValidatorVerdict | None:
        """The verdict of the certain findings (with their fixes, where the API takes them), or None if none is."""
        certain = [f for f in findings if f.certain]
        if not certain:
            return None
        return ValidatorVerdict("fail", 1.0, "rule check: " + "; ".join(f.text for f in certain), False,
                       applicable_fix(self.registry, attempt.api or "", attempt.args or {}, checks.repair(findings)),
                       wrong_api=checks.wrong_api(certain), rule=list(dict.fromkeys(f.check for f in certain)))


class LLMValidator:
    """The paper's validator: the model judges the call from the sub-instruction, the call, its result, the change
    (with any hints) and the state after it. `verdict_rule` "paper": a fail below `threshold` is read as "unsure" and
    accepted; "decision": every fail rejects (for models whose confidence does not mean confidence in their own
    verdict, like the 1.5B model's "fail, 0.0")."""

    def __init__(self, *, threshold: float, verdict_rule: str, budget: int | None, history_chars: int):
        self.threshold, self.verdict_rule, self.budget, self.history_chars = threshold, verdict_rule, budget, history_chars

    def judge(self, ctx: StepContext, attempt: Attempt, after: State, change: ObservedChange,
              hints: Sequence[CheckFinding] = ()) -> ValidatorVerdict:
        step, record = ctx.step, ctx.record
        msgs = prompts.messages("validator", sub_instruction=step.sub_instruction,
                                call=prompts.format_call(attempt.api, attempt.args), result=attempt.message,
                                changes=_changes_text(change, hints),
                                history=views.history(record, self.history_chars, exclude=step),
                                state=views.state_view(after, step.sub_instruction, record, self.budget,
                                                       extra_focus=attempt.created))
        try:
            answer = ctx.ask("validator", msgs, prompts.VALIDATOR_SCHEMA, lambda a: validate(a, prompts.VALIDATOR_SCHEMA))
        except LLMOutputError as exc:  # no usable verdict: as uncertain as a verdict can be (confidence 0), and said so
            answer = {"decision": "none", "confidence": 0.0, "explanation": f"no verdict, accepted as uncertain: {exc}"}
        confidence = float(answer["confidence"])
        if answer["decision"] == "fail":  # the paper's rule reads a fail below the threshold as "unsure": accepted
            accepted = self.verdict_rule == "paper" and confidence < self.threshold
        else:  # a pass, or no usable verdict
            accepted = True
        verdict = ValidatorVerdict(answer["decision"], confidence, answer.get("explanation", ""), accepted)
        ctx.emit("verdict", {"step": step.number, **vars(verdict)})
        return verdict


def _changes_text(change: ObservedChange, hints: Sequence[CheckFinding]) -> str:
    """The change as the validator's prompt shows it: its summary, then the rule checks' hints."""
    if not hints:
        return change.summary
    return change.summary + "\n\nAutomatic checks noticed (hints, not verdicts):\n" + checks.findings_text(list(hints))


class Validation:
    """The rule checks, then the LLM validator (see the module docstring); either may be absent (None)."""

    def __init__(self, rules: RuleChecks | None, llm: LLMValidator | None):
        self.rules, self.llm = rules, llm

    def judge(self, ctx: StepContext, attempt: Attempt, after: State, change: ObservedChange) -> ValidatorVerdict:
        findings = self.rules.findings(ctx, attempt, after) if self.rules is not None else []
        rejection = self.rules.rejection(findings, attempt) if self.rules is not None else None
        if rejection is not None:
            ctx.emit("verdict", {"step": ctx.step.number, **vars(rejection)})
            return rejection
        if self.llm is None:
            verdict = ValidatorVerdict("pass", 1.0, "no rule check objected (the LLM validator is off)", True)
            ctx.emit("verdict", {"step": ctx.step.number, **vars(verdict)})
            return verdict
        return self.llm.judge(ctx, attempt, after, change, findings)
