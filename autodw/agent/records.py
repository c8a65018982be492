"""What a run did, as plain dataclasses: attempts, steps, instructions, the whole run."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from autodw.llm.base import ROLES, Usage


@dataclass
class ValidatorVerdict:
    """The validator's judgement of one attempt."""

    decision: str
    confidence: float
    explanation: str
    accepted: bool
    repair: dict[str, Any] | None = None  # the rule checks' fixes of a rejected call (autodw.agent.checks.repair)
    wrong_api: bool = False  # a rule check found that the API cannot do what was asked (no argument-level retry)
    rule: list[str] = field(default_factory=list)  # the rule checks whose certain findings rejected it (empty: none)


@dataclass
class Attempt:
    """One executed (or refused) API call within a step."""

    api: str | None
    args: dict[str, Any] | None
    level: str  # "first", "arg" (argument-level rollback) or "api" (API-level rollback)
    ok: bool = False
    message: str = ""
    error: str | None = None
    changes: str = ""  # the change summary (autodw.analysis.change_summary)
    removed: list[tuple[str, int]] = field(default_factory=list)  # body paragraphs the call removed: (id, former index)
    removed_texts: list[tuple[str, str]] = field(default_factory=list)  # what it removed: (what, its text then)
    changed: bool = True  # False when the call left the document state exactly as it was
    created: list[str] = field(default_factory=list)
    read_only: bool = False  # its API only reads (a search)
    found: list[str] = field(default_factory=list)  # the elements a call that only reads listed (a search's matches)
    verdict: ValidatorVerdict | None = None
    accepted: bool = False
    rolled_back: bool = False
    state_failed: bool = False
    repaired: bool = False  # the model repeated the rejected call; its fix (rule checks', or its error's) was applied
    fix: dict[str, Any] | None = None  # the arguments its error says to leave out (value None), if it says so


@dataclass
class Step:
    """One sub-instruction: its intents, candidate APIs and the attempts made for it."""

    number: int
    sub_instruction: str
    intents: list[tuple[str, float]] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    redundant: bool = False  # its call repeated an accepted call of the instruction and changed nothing: it ended the instruction
    failure: str | None = None  # why nothing of it stayed, once no level was left: its last call's rejection or error

    @property
    def accepted(self) -> Attempt | None:
        """The attempt whose effect stayed in the document, if any."""
        return next((a for a in self.attempts if a.accepted), None)

    @property
    def rejected(self) -> bool:
        """Whether it failed with its last level's call run and rejected by the validator (and undone): the same step
        would make the same calls again."""
        last = self.attempts[-1] if self.attempts else None
        return (self.failure is not None and last is not None and last.verdict is not None
                and not last.verdict.accepted)


@dataclass
class InstructionResult:
    """One user instruction: its steps and how it ended (done, step_limit, call_limit, error, internal_error)."""

    instruction: str
    status: str = "running"
    steps: list[Step] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0

    @property
    def api_calls(self) -> int:
        """Executed API calls, rolled-back ones included."""
        return sum(1 for s in self.steps for a in s.attempts if a.api is not None and (a.ok or a.error))

    def steps_not_kept(self) -> list[int]:
        """The steps whose every call failed or was rolled back: their work is not in the document (a planner that
        then says "done" may have done it in a later step, or not). Redundant steps (finished work) aside."""
        return [s.number for s in self.steps if s.accepted is None and not s.redundant]

    def accepted_calls(self) -> list[tuple[str, dict[str, Any]]]:
        """The API calls that stayed in the document, in order."""
        return [(s.accepted.api, s.accepted.args) for s in self.steps if s.accepted and s.accepted.api]


@dataclass
class RunResult:
    """A session: its instructions, tokens per role, LLM calls and time."""

    instructions: list[InstructionResult] = field(default_factory=list)
    usage: dict[str, Usage] = field(default_factory=lambda: {r: Usage() for r in ROLES})
    seconds: float = 0.0
    interrupted: str | None = None

    @property
    def total_usage(self) -> Usage:
        """The calls and tokens of every role together."""
        total = Usage()
        for u in self.usage.values():
            total.add(u)
        return total

    @property
    def completed(self) -> bool:
        """True if every instruction ended with the planner saying it is done."""
        return bool(self.instructions) and all(i.status == "done" for i in self.instructions) and not self.interrupted

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (the trace file has the full detail)."""
        return {
            "completed": self.completed,
            "interrupted": self.interrupted,
            "seconds": round(self.seconds, 2),
            "usage": {role: u.to_dict() for role, u in self.usage.items()},
            "total_tokens": self.total_usage.total_tokens,
            "llm_calls": self.total_usage.calls,
            "instructions": [{"instruction": i.instruction, "status": i.status, "error": i.error,
                              "steps_not_kept": i.steps_not_kept(), "seconds": round(i.seconds, 2), "api_calls": i.api_calls,
                              "steps": [asdict(s) for s in i.steps]} for i in self.instructions],
        }
