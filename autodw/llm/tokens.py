"""Token counts when a backend reports none (estimated with the prompt renderer's estimator)."""

from __future__ import annotations

from autodw.llm.base import Message, Usage
from autodw.analysis.state.render import estimate_tokens


def estimate_usage(messages: list[Message], completion: str) -> Usage:
    """Estimated prompt and completion tokens of one call (~4 ASCII chars or 1 CJK char per token)."""
    prompt = sum(estimate_tokens(m["content"]) + 4 for m in messages)
    return Usage(prompt_tokens=prompt, completion_tokens=estimate_tokens(completion), calls=1)
