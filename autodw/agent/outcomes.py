"""The typed values the agent's parts and levels hand each other: a plan and why it stops, an executed attempt and
the change it made, and how a step, a request and an instruction ended."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Sequence

from autodw.agent.records import Attempt
from autodw.analysis.change_summary import summarize_change
from autodw.analysis.changes import Change, analyze_change, removed_paragraphs, removed_texts
from autodw.analysis.state import State
from autodw.core.document import Snapshot, WordDocument


class Stop(Enum):
    """Why a plan gives no next step."""

    DONE = "done"  # the planner says the request is complete (a gold or up-front plan: no step left)
    REPLANNED_OWN_STEP = "replanned_own_step"  # one request of a split message re-planned one of its accepted steps
    REPLANNED_EARLIER_STEP = "replanned_earlier_step"  # ... re-planned an earlier request's step: it has not taken this one up
    OTHER_REQUESTS_STEP = "other_requests_step"  # ... planned new text that another request of the message asks for
    KEPT_REPLANNING = "kept_replanning"  # the planner's retries all re-planned an accepted step: that work is done


#: the stops that say the planner has not taken up the request at hand (it is then carried out as worded)
NOT_TAKEN_UP = (Stop.REPLANNED_EARLIER_STEP, Stop.OTHER_REQUESTS_STEP)


@dataclass(frozen=True)
class Plan:
    """The planner's next step (`sub_instruction`), or why there is none (`stop`). `remaining`: the operations it
    says are still needed after this one (None: it did not say); `reason`: its own words, or the stop's."""

    sub_instruction: str | None
    remaining: tuple[str, ...] | None = None
    reason: str | None = None
    stop: Stop | None = None

    def __post_init__(self) -> None:
        if self.stop is None and not isinstance(self.sub_instruction, str):
            raise ValueError(f"a plan that does not stop names its step, not {self.sub_instruction!r}")

    @property
    def done(self) -> bool:
        return self.stop is not None

    @property
    def step_text(self) -> str:
        """The sub-instruction of a plan that does not stop."""
        if self.sub_instruction is None or self.done:
            raise ValueError("a plan that stops has no step")
        return self.sub_instruction

    @classmethod
    def step(cls, sub_instruction: str, remaining: Sequence[str] | None = None, reason: str | None = None) -> "Plan":
        return cls(sub_instruction, None if remaining is None else tuple(remaining), reason)

    @classmethod
    def stopped(cls, stop: Stop, reason: str) -> "Plan":
        """No step, for a reason the agent made (not the planner's answer)."""
        return cls(None, (), reason, stop)

    @classmethod
    def from_answer(cls, answer: dict[str, Any]) -> "Plan":
        """The plan a planner's answer (``{"done", "sub_instruction", "remaining"?, "reason"?}``, schema-checked) gives."""
        remaining = answer.get("remaining")
        return cls(answer.get("sub_instruction"), None if remaining is None else tuple(remaining), answer.get("reason"),
                   Stop.DONE if answer["done"] else None)

    def event(self) -> dict[str, Any]:
        """The plan as the trace's ``plan`` event shows it."""
        out: dict[str, Any] = {"done": self.done, "sub_instruction": self.sub_instruction}
        if self.remaining is not None:
            out["remaining"] = list(self.remaining)
        if self.stop in (Stop.REPLANNED_OWN_STEP, *NOT_TAKEN_UP):
            out["other_request"] = self.stop in NOT_TAKEN_UP
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class ObservedChange:
    """What an executed call changed in the document state: the analysis (:func:`autodw.analysis.changes.analyze_change`) and
    its summary (what records and the console show); prompts render it with their own hints."""

    analysis: Change
    summary: str
    removed_texts: tuple[tuple[str, str], ...] = ()  # what it removed, whole (autodw.analysis.changes.removed_texts)

    @property
    def removed_paragraphs(self) -> list[tuple[str, int]]:
        """The body paragraphs the call removed: (id, index before the call)."""
        return removed_paragraphs(self.analysis)

    @classmethod
    def between(cls, before: State, after: State) -> "ObservedChange":
        analysis = analyze_change(before, after)
        return cls(analysis, summarize_change(analysis), tuple(removed_texts(analysis, before)))


@dataclass
class Executed:
    """An attempt, the snapshot that undoes its call, the state after the call and the change it made (the last three
    None if nothing ran)."""

    attempt: Attempt
    snapshot: Snapshot | None = None
    after: State | None = None
    change: ObservedChange | None = None

    def undo(self, doc: WordDocument) -> None:
        """Restore `doc` as it was before the call (a call that only read took no snapshot)."""
        if self.snapshot is not None:
            doc.restore(self.snapshot)


class StepOutcome(Enum):
    """How one step ended."""

    ACCEPTED = "accepted"  # a call was accepted: its effect stays
    REDUNDANT = "redundant"  # its call repeated finished work and was undone: the request is done
    NOT_KEPT = "not_kept"  # every level failed or was rolled back: nothing of it stays


class Status(Enum):
    """How a request or an instruction ended (an instruction's record keeps the value)."""

    DONE = "done"
    STEP_LIMIT = "step_limit"
    CALL_LIMIT = "call_limit"
    ERROR = "error"  # the planner stalled, or the document state could not be read
    CONTEXT_OVERFLOW = "context_overflow"  # a prompt too long for the model
    INTERNAL_ERROR = "internal_error"  # a bug of ours


@dataclass(frozen=True)
class RequestOutcome:
    """How one request ended: done, at a limit, or with the error that stopped its planner."""

    status: Status
    error: str | None = None


@dataclass(frozen=True)
class InstructionOutcome:
    """How an instruction ended, and the error that ended it (if one did)."""

    status: Status
    error: str | None = None

    @classmethod
    def of_requests(cls, outcomes: Sequence[RequestOutcome]) -> "InstructionOutcome":
        """From its requests' outcomes (every request runs, whatever the others did): the first that did not finish
        says how it ended, the first error is its error."""
        unfinished = next((o.status for o in outcomes if o.status is not Status.DONE), Status.DONE)
        return cls(unfinished, next((o.error for o in outcomes if o.error is not None), None))
