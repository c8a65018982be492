"""A backend that answers from a script: for tests and demonstrations, never a silent stand-in."""

from __future__ import annotations

import json
from collections import deque
from typing import Any, Callable, Iterable

from autodw.core.errors import LLMError
from autodw.llm.base import Completion, Message
from autodw.llm.tokens import estimate_usage

Answer = str | dict[str, Any] | Callable[[list[Message]], str | dict[str, Any]]


class ScriptedBackend:
    """Answers each role's calls in order from a list per role (dicts are sent as JSON; callables get the
    messages). Every request is kept in ``requests`` so tests can inspect the prompts. `profile`: the agent
    profile it stands in for."""

    name = "scripted"

    def __init__(self, script: dict[str, Iterable[Answer]], profile: str = "hosted"):
        self.profile = profile
        self._script = {role: deque(answers) for role, answers in script.items()}
        self.requests: list[dict[str, Any]] = []

    def complete(self, messages: list[Message], *, role: str, schema: dict[str, Any] | None = None,
                 temperature: float | None = None, max_tokens: int | None = None) -> Completion:
        self.requests.append({"role": role, "messages": messages, "schema": schema, "max_tokens": max_tokens})
        queue = self._script.get(role)
        if not queue:
            raise LLMError(f"the script has no more answers for the {role} role")
        answer = queue.popleft()
        if callable(answer):
            answer = answer(messages)
        if isinstance(answer, Completion):  # a scripted completion as it is (a truncated answer, say)
            return answer
        text = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
        return Completion(text=text, usage=estimate_usage(messages, text), model="scripted")

    def remaining(self) -> dict[str, int]:
        """Unused answers per role."""
        return {role: len(q) for role, q in self._script.items() if q}
