"""Rule checks beside the LLM validator: cheap deterministic checks of an executed call against what was asked.

Each check gives :class:`CheckFinding` objects. A certain finding rejects the call without asking the validator (the agent
says so in the verdict); the others are shown to the validator as hints. Each check is registered with what its
findings do and the DWBench splits it was tuned on (:mod:`autodw.agent.checks.registry`), in a module of its family;
:data:`ORDER` is the order :func:`check_call` runs them in. Their catalogue, ``docs/reference/rule-checks.md``, is
generated from the registry: ``python -m autodw.agent.checks > docs/reference/rule-checks.md``.

`instruction` is the user's request the step serves: the whole instruction, or one of its requests when it is split
(:mod:`autodw.agent.requests`). When it is still compound (the hosted profile does not split), the checks that object
to a value because the request names another (``unnamed_value``, ``unnamed_colour``, ``not_at_end``, ``other_kind``,
``wrong_side``, ``unnamed_level``) judge the call against its own request, the one holding the texts it writes or
looks for (:func:`own_request`), and those that read words another request may own run only for a single request;
the checks that object to what a request does not name keep the whole instruction (a call may rightly do what a later
request of the same message asks).

Some certain findings know the argument values that answer them (``fix``: the kind asked for, the other side of the
element, position "end", the only length the instruction gives, the quoted text): :func:`repair` applies them when a
model regenerates the very call that was rejected (small models copy it even when told what is wrong). A finding that
rejects the API itself (:func:`wrong_api`) sends the step to API-level rollback.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from autodw.agent.checks import (apis, catalogue, colours, effect, headings, lists, measures, positions, quotes,
                                 targets, values)
from autodw.agent.checks.effect import looks_unchanged
from autodw.agent.checks.reading import own_request
from autodw.core.errors import InternalError
from autodw.agent.checks.registry import REGISTRY, Call, Certainty, Check, CheckFinding, State, in_order

__all__ = ["ABSENCE_FINDINGS", "CHECKS", "FAMILIES", "ORDER", "Certainty", "Check", "CheckFinding", "as_hint", "catalogue_page", "check_call",
           "findings_text", "looks_unchanged", "own_request", "repair", "wrong_api"]
#: the modules of the checks by family (importing them registers their checks)
FAMILIES = (effect, quotes, targets, measures, colours, positions, values, headings, apis, lists)

#: the order the checks run in, and so the order of their findings in a prompt: it never changes without a reason
ORDER = ("unchanged", "altered_quote", "other_target", "other_row", "unnamed_measure", "size_as_spacing",
         "relative_target", "unnamed_colour", "not_at_end", "other_kind", "wrong_side", "unnamed_level",
         "part_for_whole", "whole_story_for_words", "unasked_api", "unnamed_value", "unasked_flag", "asked_flag_off",
         "unnamed_count",
         "one_occurrence", "row_not_on_top", "dropped_item", "empty_cells", "nested_first_item", "unasked_property",
         "unasked_option", "heading_as_paragraph", "unasked_separator", "literal_markup", "colour_as_font")
#: every registered check, in :data:`ORDER`
CHECKS = in_order(ORDER, REGISTRY)
#: the findings that say the API itself cannot do what was asked: retrying its arguments is no use
WRONG_API_CHECKS = frozenset(c.finding for c in CHECKS if c.certain is Certainty.WRONG_API)
#: the findings of the checks that read absence (the request does not mention what the call does)
ABSENCE_FINDINGS = frozenset(c.finding for c in CHECKS if c.absence)
if ABSENCE_FINDINGS & {c.finding for c in CHECKS if not c.absence}:
    raise InternalError("a finding name is given both by a check that reads absence and by one that does not")


def as_hint(finding: CheckFinding) -> CheckFinding:
    """A certain finding of a check that reads absence, as a hint for the LLM validator (no fix: it rejects nothing)."""
    if finding.check not in ABSENCE_FINDINGS:
        raise InternalError(f"{finding.check} does not read absence: its findings stay what they are")
    return replace(finding, certain=False, fix=None)


def check_call(sub_instruction: str, instruction: str, api: str, args: dict[str, Any], before: State,
               after: State, previous: str = "", message: str = "") -> list[CheckFinding]:
    """The findings of every check on the call ``api(args)`` that took the document from `before` to `after`
    (`previous`: the session's instruction before this one, "" for none; `message`: the whole instruction when
    `instruction` is one of its requests)."""
    call = Call(sub_instruction, instruction, api, args, before, after, previous, message or instruction)
    return [f for c in CHECKS if not c.single_request or call.single for f in c.run(call)]


def wrong_api(findings: list[CheckFinding]) -> bool:
    """Whether a certain finding rejects the call's API, not its arguments."""
    return any(f.certain and f.check in WRONG_API_CHECKS for f in findings)


def repair(findings: list[CheckFinding]) -> dict[str, Any] | None:
    """The argument values that answer every certain finding, or None when one of them has no fix."""
    certain = [f for f in findings if f.certain]
    if not certain or any(f.fix is None for f in certain):
        return None
    return {k: v for f in certain for k, v in (f.fix or {}).items()}


def findings_text(findings: list[CheckFinding]) -> str:
    """The findings as prompt lines for the validator ("" when there are none)."""
    return "\n".join(f"- {f.text}" for f in findings)


def catalogue_page() -> str:
    """The checks' catalogue, ``docs/reference/rule-checks.md`` (written by ``python -m autodw.agent.checks``)."""
    return catalogue.page(CHECKS, FAMILIES, __doc__ or "")
