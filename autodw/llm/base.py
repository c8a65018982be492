"""The one small interface every LLM backend implements, and the token accounting it reports."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable

Message = dict[str, str]  # {"role": "system"|"user"|"assistant", "content": "..."}

#: The agent's LLM roles (token accounting is kept per role). ``api_chooser`` is only used with
#: two-stage API generation (pick the API from one-line summaries, then fill in its arguments).
ROLES = ("planner", "api_chooser", "api_generator", "validator")


@dataclass
class Usage:
    """Token counts of one or more calls, and the model time of those answered from a cache of earlier answers
    (``recalled_seconds``: the seconds each took when it was first asked, so a run's cost does not depend on what
    the cache held)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    cached_prompt_tokens: int = 0
    recalled_seconds: float = 0.0

    @property
    def total_tokens(self) -> int:
        """Prompt and completion tokens together."""
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: "Usage") -> None:
        """Accumulate `other` into this."""
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.calls += other.calls
        self.cached_prompt_tokens += other.cached_prompt_tokens
        self.recalled_seconds += other.recalled_seconds

    def to_dict(self) -> dict[str, float]:
        """The counts as JSON data, with ``total_tokens``."""
        return {**asdict(self), "total_tokens": self.total_tokens}


@dataclass
class Completion:
    """One model answer: its text and what it cost."""

    text: str
    usage: Usage
    model: str = ""
    seconds: float = 0.0
    raw: dict[str, Any] = field(default_factory=dict)
    #: the answer stopped at the token limit, not at its end
    truncated: bool = False


@runtime_checkable
class LLMBackend(Protocol):
    """A chat model. `schema`, when given, is the JSON Schema the answer must match: backends that
    can constrain decoding (JSON mode, grammars) use it; the caller validates the answer anyway.

    `profile` names the agent assembly the model needs (:data:`autodw.agent.assembly.PROFILES`): ``hosted`` for
    capable models behind an API, ``local`` for small local ones."""

    name: str
    profile: str | None

    def complete(self, messages: list[Message], *, role: str, schema: dict[str, Any] | None = None,
                 temperature: float | None = None, max_tokens: int | None = None) -> Completion:
        """The model's answer to `messages` for `role`; with `schema`, JSON that the backend constrains or asks for
        (the caller validates it). LLMError (typed) when the backend cannot answer."""
        ...
