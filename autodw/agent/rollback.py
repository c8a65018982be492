"""The paper's dual-level rollback of one step: after a rejected or failed attempt, the same API with new arguments
(argument level), then a different API (API level), as many rounds as the numbers say. The call made at the last
level is kept whatever it is (the paper), or validated like the others (``last_level: validate``)."""

from __future__ import annotations

from autodw.agent import prompts
from autodw.agent.records import Attempt


class Rollback:
    """Where one step's attempts stand: the level of the next attempt, the APIs it may use, what it is told of the
    last attempt, and the rejected call an argument-level regeneration corrects."""

    def __init__(self, levels: list[str], candidates: list[str], library: list[str], last_level: str):
        self.remaining = list(levels)  # the levels still to go to
        self.validate_last = last_level == "validate" and bool(levels)  # without rollback nothing is validated
        self.level = "first"
        self.allowed = list(candidates)
        self.feedback: str | None = None
        self.rejected: Attempt | None = None  # the last call the validator rejected, or that failed with a stated fix
        self._candidates, self._library, self._tried = candidates, library, []

    @property
    def last(self) -> bool:
        """Whether no level is left to roll back to."""
        return not self.remaining

    @property
    def validates(self) -> bool:
        """Whether the next executed call is validated: before the last level always; at the last level only with
        ``last_level: validate`` and some rollback (a rejected call there is undone and the step fails). Else it is
        kept whatever it is: the paper's last level, and every call of the no-rollback ablation."""
        return not self.last or self.validate_last

    def corrected(self) -> Attempt | None:
        """The call the next attempt corrects: the rejected one, at argument level."""
        return self.rejected if self.level == "arg" else None

    def escalate(self, attempt: Attempt) -> bool:
        """Move on after `attempt` was rejected (and rolled back) or failed: the next level, or False if none is left.
        A call the rule checks found to be the wrong API, and a state that could not be read after a call (the paper),
        go straight to API level."""
        if attempt.ok:  # rejected by the validator
            assert attempt.verdict is not None
            self.feedback = (f"The previous call {prompts.format_call(attempt.api, attempt.args)} was rejected by the "
                             f"validator: {attempt.verdict.explanation}")
            self.rejected = attempt
            to_api_level = attempt.verdict.wrong_api  # the API cannot do it: its arguments are not retried
        else:
            self.feedback = f"The previous attempt failed: {attempt.error}"
            self.rejected = attempt if attempt.fix else self.rejected
            to_api_level = attempt.state_failed
        if to_api_level:
            while self.remaining and self.remaining[0] != "api":
                self.remaining.pop(0)
        if not self.remaining:
            return False
        self.level = self.remaining.pop(0)
        if attempt.api:
            self._tried.append(attempt.api)
        if self.level == "arg" and attempt.api:
            self.allowed = [attempt.api]
        else:
            self.allowed = ([c for c in self._candidates if c not in self._tried]
                            or [c for c in self._library if c not in self._tried])
        return True
