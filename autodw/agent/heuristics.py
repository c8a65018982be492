"""Heuristics for planners that re-plan finished work (small local models), each a planner wrapper an assembly may
choose (:mod:`autodw.agent.assembly`). None of them is part of the paper's method.

- :class:`RefuseRepeatedSteps`: a planned sub-instruction equal to an accepted one of the same instruction is refused,
  and the planner told so (:func:`repeated_step`; not a search, which may be made again); if its retries end on it
  again, the instruction is done (as when a reworded step repeats the accepted call, below); for one request of a
  split instruction it ends that request at once (its planner re-planning finished work says the request is done).
  A sub-instruction that already failed twice, or once with its last level's call rejected (every level was tried
  and validated), ends the request (:func:`failed_repeatedly`): the small planner otherwise plans it again until a
  limit. It also ends one request of a split instruction when its planner plans new text another request of the
  message asks for (:func:`another_requests_step`: a quote of a later request, neither in this request nor in the
  document): the small planner works through the whole message from its first request, and the rule checks then
  reject that work as unasked for this request.
- :class:`EndOnRepeatedCall`: a step whose call repeats an accepted call of the instruction (API and arguments) and
  changes nothing shows finished work; one that makes the same call a third time (:data:`MAX_SAME_CALLS`) shows a
  loop (page numbers inserted five times). Either is undone and the instruction ends (:func:`repeated_call`). A
  second identical call that changes the document stays ("add F twice"), and so does a second identical search (a
  call that only reads: the view has moved away from what it found since): in DWBench's gold, 2 of 1,467 instructions
  make a call twice (a cross-reference inserted twice), none three times. A call that puts the same content as an
  accepted call next to what that call created (the same paragraph inserted after the one just inserted) repeats
  it too: no two gold calls of a DWBench dev instruction share an API and content arguments with only the position
  differing.
- :class:`StopWhenNothingRemains`: the instruction ends once a step is accepted for which the planner listed no
  remaining operation, instead of asking the planner again (:func:`nothing_remains`); listed operations that restate
  done work (``restate_ratio``, :func:`restates`) do not count.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from difflib import SequenceMatcher
from typing import Sequence

from autodw.agent import grounding, requests
from autodw.agent.outcomes import Plan, StepOutcome, Stop
from autodw.agent.planner import Planner, PlannerStalled, PlannerWrapper, PlanRequest, Refusal
from autodw.agent.records import Attempt, InstructionResult, Step
from autodw.agent.views import ELEMENT_ID
from autodw.analysis.state import State


def normalized(text: str) -> str:
    """`text` with case, runs of spaces and final punctuation ignored."""
    return " ".join(text.casefold().split()).rstrip(".。!！ ")


def repeated_step(record: InstructionResult, sub_instruction: str) -> Step | None:
    """An earlier accepted step of this instruction with the same sub-instruction (see :func:`normalized`), if any; not
    a search (a call that only reads: made again, it looks where the view has moved away from since)."""
    key = normalized(sub_instruction)
    return next((s for s in record.steps if s.accepted is not None and not s.accepted.read_only
                 and normalized(s.sub_instruction) == key), None)


MAX_FAILED_REPEATS = 2  # times a sub-instruction may fail before planning it again stops the request


def failed_repeatedly(record: InstructionResult, sub_instruction: str) -> str | None:
    """How this sub-instruction (see :func:`normalized`) already failed in the instruction if planning it again would
    loop: :data:`MAX_FAILED_REPEATS` times (every attempt rejected or in error), or once with its last level's call
    rejected (:attr:`~autodw.agent.records.Step.rejected`: every level was validated and said no); else None."""
    key = normalized(sub_instruction)
    failed = [s for s in record.steps if s.accepted is None and s.attempts and normalized(s.sub_instruction) == key]
    rejected = next((s for s in failed if s.rejected), None)
    if rejected is not None:
        return f"step {rejected.number}, whose call was rejected at every level ({rejected.failure})"
    return f"a step that failed {len(failed)} times" if len(failed) >= MAX_FAILED_REPEATS else None


MAX_SAME_CALLS = 2  # accepted identical calls (API and arguments) an instruction may make


def repeated_call(record: InstructionResult, attempt: Attempt) -> Step | None:
    """The earlier step whose accepted call `attempt` repeats when that shows finished work or a loop (see the module
    docstring: the same call changing nothing, or made a third time, or its content put next to what it created),
    else None."""
    same = [s for s in record.steps if s.accepted is not None and s.accepted.api == attempt.api
            and s.accepted.args == attempt.args]
    if same and (not (attempt.changed or attempt.read_only) or len(same) >= MAX_SAME_CALLS):  # a search made again
        return same[-1]  # is no finished work, a third time a loop
    return next((s for s in reversed(record.steps) if s.accepted is not None and _next_to_own_copy(attempt, s.accepted)),
                None)


def _next_to_own_copy(attempt: Attempt, earlier: Attempt) -> bool:
    """Whether `attempt` places the content `earlier` placed (same API, same arguments apart from ``position``, some
    content) at a position naming an element `earlier` created."""
    if attempt.api != earlier.api or not attempt.args or not earlier.args or not earlier.created:
        return False
    content = {k: v for k, v in attempt.args.items() if k != "position"}
    if not content or content != {k: v for k, v in earlier.args.items() if k != "position"}:
        return False
    return bool(set(ELEMENT_ID.findall(json.dumps(attempt.args.get("position")))) & set(earlier.created))


def nothing_remains(remaining: Sequence[str] | None, record: InstructionResult, restate_ratio: float) -> bool:
    """Whether the planner listed (`remaining`; None: it said nothing) no operation remaining after this one. Listed
    operations that restate this step or an accepted earlier one do not count: the 1.5B model often lists the step
    itself, reworded."""
    done = [s.sub_instruction for s in record.steps if s.accepted]
    return remaining is not None and all(any(restates(r, d, restate_ratio) for d in done) for r in remaining)


_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_WORD = re.compile(r"\w+")
#: words a reworded step may add and say nothing more ("Make p5 bold again.", "也 把 p6 加粗")
_FILLER = re.compile(r"\b(?:again|too|now|also|please|then|still|as\s+well|once\s+more)\b|(?<!\w)[再也还又请](?!\w)")


def restates(text: str, other: str, ratio: float) -> bool:
    """Whether `text` says nearly what `other` says (SequenceMatcher ratio >= `ratio`) and names no element id,
    number or quoted text that `other` does not ("format p5" is not "format p4", "delete comment 31" is not "delete
    comment 30", "style Heading 1" is not "style Title", "insert 'Appendix'" is not "insert 'Contacts'", but "insert a
    list after the new heading" can restate "insert a list after p44"), nor every word of `other` and more ("...;
    kind even; ..." is not the same step without it; filler words such as "again", "too" aside: :data:`_FILLER`)."""
    if not set(ELEMENT_ID.findall(text)) <= set(ELEMENT_ID.findall(other)):
        return False
    if not set(_NUMBER.findall(text)) <= set(_NUMBER.findall(other)):
        return False
    loose_other = grounding.loose(other)
    if any(grounding.loose(q.text) not in loose_other for q in grounding.quotes(text)):
        return False
    if _words(other) < _words(text):
        return False  # all `other` says and more ("...; kind even; ..."): a further step, dwh-338#8
    return SequenceMatcher(None, normalized(text), normalized(other)).ratio() >= ratio


def _words(text: str) -> set[str]:
    """The words of `text` (:func:`normalized`), its filler words (:data:`_FILLER`) aside."""
    return set(_WORD.findall(_FILLER.sub(" ", normalized(text))))


_END_PUNCTUATION = " .!?;,:。！？；，：…"  # what may end a quoted text and not the request it is in


def another_requests_step(sub_instruction: str, request: str, message: str, state: State) -> str | None:
    """The quoted text of `sub_instruction` that a later request of `message` asks for and `request` does not, and
    that the document does not have yet (new text of that request), or None. In `request` its end punctuation aside:
    the split leaves a request's last full stop out ("...写一句：X。加完..." gives the request "...写一句：X"). An
    earlier request's text not written yet is work left over, done here (a message whose items the planner takes in
    the document's order: "in order: A, B, C. And the line under B should say: D" plans D before C, dwh-397#2)."""
    own, parts = grounding.loose(request), [grounding.loose(r) for r in requests.split(message)]
    whole = "\n".join(parts[parts.index(own) + 1:]) if own in parts else grounding.loose(message)
    document = "\n".join(grounding.loose(p.get("text", "")) for p, _ in grounding.paragraphs(state))
    for quote in grounding.quotes(sub_instruction):
        text = grounding.loose(quote.text)
        bare = text.rstrip(_END_PUNCTUATION)
        if bare not in own and bare in whole and text not in document:
            return quote.text
    return None


# --- the planner wrappers -----------------------------------------------------------------------------------------


class RefuseRepeatedSteps(PlannerWrapper):
    """The planner is refused a step it already carried out (see the module docstring)."""

    def next_step(self, request: PlanRequest) -> Plan:
        return self.inner.next_step(replace(request, vetoes=(*request.vetoes, self.veto)))

    @staticmethod
    def veto(plan: Plan, request: PlanRequest) -> Plan | Refusal:
        """`plan`, a stop, or the refusal of a step that repeats an accepted one."""
        sub_instruction, record = plan.sub_instruction or "", request.record
        failed = failed_repeatedly(record, sub_instruction)
        if failed is not None:
            raise PlannerStalled(f"the planner planned again {failed}: {sub_instruction}")
        repeated = repeated_step(record, sub_instruction)
        if repeated is not None and request.one_of_several:  # this request's own work is done, or (a step of an
            # earlier request) the planner has not taken this request up
            stop = Stop.REPLANNED_EARLIER_STEP if repeated.number < request.first_step else Stop.REPLANNED_OWN_STEP
            return Plan.stopped(stop, f"re-planned step {repeated.number}, which is done")
        other = (another_requests_step(sub_instruction, request.request, record.instruction, request.state)
                 if request.one_of_several else None)
        if other is not None:  # the next step is another request's
            return Plan.stopped(Stop.OTHER_REQUESTS_STEP, f'planned "{other}", which another request of the message asks for')
        if repeated is not None:  # if its retries end on it again, the work is done, as when a reworded step repeats
            # an accepted call (EndOnRepeatedCall)
            return Refusal(f"step {repeated.number} already carried out this operation and it was accepted; give a "
                           "different operation, or answer done if the instruction is complete",
                           Plan.stopped(Stop.KEPT_REPLANNING, f"the planner kept re-planning step {repeated.number}, "
                                                              "which is done"))
        return plan


class EndOnRepeatedCall(PlannerWrapper):
    """A call that repeats finished work (:func:`repeated_call`) ends the request."""

    def repeated(self, attempt: Attempt, record: InstructionResult) -> Step | None:
        return repeated_call(record, attempt) or self.inner.repeated(attempt, record)


class StopWhenNothingRemains(PlannerWrapper):
    """The planner must list what remains; the request ends once a step is accepted after which nothing does."""

    def __init__(self, inner: Planner, restate_ratio: float):
        super().__init__(inner)
        self.restate_ratio = restate_ratio

    def next_step(self, request: PlanRequest) -> Plan:
        return self.inner.next_step(replace(request, require_remaining=True))

    def done_after(self, plan: Plan, outcome: StepOutcome, record: InstructionResult) -> bool:
        return ((outcome is StepOutcome.ACCEPTED and nothing_remains(plan.remaining, record, self.restate_ratio))
                or self.inner.done_after(plan, outcome, record))
