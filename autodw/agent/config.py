"""The agent's numbers: thresholds, limits, budgets, ratios and rollback rounds.

What the agent is made of (its planner, generator, validator and their options) is chosen in
:mod:`autodw.agent.assembly`; an :class:`AgentConfig` holds only the numbers those parts and the loop use. Changes
are made with :meth:`AgentConfig.override`, and every configuration is checked when it is made.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from autodw.core.errors import ConfigError

ROLLBACK_NAMES = ("none", "arg", "full")
LAST_LEVELS = ("keep", "validate")


@dataclass(frozen=True)
class AgentConfig:
    """Numbers of the loop and its parts (immutable; validated when made; ConfigError names what is wrong).

    The defaults are the paper's (the ``paper`` profile's). `rollback`: "none", "arg" (argument-level only), "full"
    (one round: argument-level then API-level; the paper's default) or a number of full rounds. `last_level`: what
    becomes of the call made at the last level: "keep" (the paper's: kept whatever it is) or "validate" (validated
    like any other; a rejected one is rolled back and the step fails). Without rollback nothing is validated.
    """

    rollback: str | int = "full"
    last_level: str = "keep"
    threshold: float = 0.6  # validator confidence at or above which a "fail" is believed (the paper's verdict rule)
    max_steps: int = 15  # sub-instructions per request before it stops at the step limit
    max_llm_calls: int | None = None  # LLM calls per request after which no new step starts (None: no limit)
    output_retries: int = 2  # times an invalid LLM answer is shown its error and asked again
    # --- what the prompts show (token budgets of the rendered state: None = the whole state)
    planner_state_budget: int | None = 6000
    generator_state_budget: int | None = 6000  # the API generator's view, focused on the step's elements
    validator_state_budget: int | None = 6000  # the validator's view (it also gets the change analysis)
    history_chars: int = 300  # a call, a sub-instruction and what a call removed are each cut to this many characters in the step history
    intent_min_probability: float = 0.0  # offer a top-3 intent's APIs only if it is at least this likely (top-1 always)
    restate_ratio: float = 0.7  # a listed remaining operation this similar to a done step restates it (does not count)
    #: the most ids an array of element ids in the API generator's answer schema holds (None: as many as the document
    #: has); 40 is autodw.agent.prompts.MAX_ID_ITEMS, set for a 1.5B model's 512-token answers
    max_id_items: int | None = 40

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise ConfigError("invalid agent configuration: " + "; ".join(problems))

    def rollback_levels(self) -> list[str]:
        """The escalation sequence after a rejected first attempt."""
        if self.rollback == "none":
            return []
        if self.rollback == "arg":
            return ["arg"]
        if self.rollback == "full":
            return ["arg", "api"]
        return ["arg", "api"] * int(self.rollback)

    def override(self, **numbers: Any) -> "AgentConfig":
        """A copy with `numbers` changed; an unknown name is a ConfigError."""
        unknown = sorted(set(numbers) - set(NUMBER_NAMES))
        if unknown:
            raise ConfigError(f"unknown agent setting(s) {', '.join(unknown)}; known: {', '.join(NUMBER_NAMES)}")
        return replace(self, **numbers)

    def to_dict(self) -> dict[str, Any]:
        """Every number, JSON-ready."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "AgentConfig":
        """The numbers :meth:`to_dict` wrote (the defaults for those it leaves out)."""
        if not isinstance(data, dict):
            raise ConfigError(f"the agent's numbers must be a JSON object, not {type(data).__name__}")
        return cls().override(**data)


NUMBER_NAMES = tuple(f.name for f in fields(AgentConfig))


def _problems(c: AgentConfig) -> list[str]:
    """What is wrong with `c`, one phrase per number."""
    out = []
    if not (c.rollback in ROLLBACK_NAMES or (type(c.rollback) is int and c.rollback >= 0)):
        out.append(f"rollback must be none, arg, full or a number of rounds >= 0, not {c.rollback!r}")
    if c.last_level not in LAST_LEVELS:
        out.append(f"last_level must be one of {', '.join(LAST_LEVELS)}, not {c.last_level!r}")
    for name in ("max_steps", "history_chars"):
        value = getattr(c, name)
        if type(value) is not int or value < 1:
            out.append(f"{name} must be a whole number >= 1, not {value!r}")
    if c.max_id_items is not None and (type(c.max_id_items) is not int or c.max_id_items < 1):
        out.append(f"max_id_items must be a whole number >= 1 or None, not {c.max_id_items!r}")
    if c.max_llm_calls is not None and (type(c.max_llm_calls) is not int or c.max_llm_calls < 1):
        out.append(f"max_llm_calls must be a whole number >= 1 or None, not {c.max_llm_calls!r}")
    if type(c.output_retries) is not int or c.output_retries < 0:
        out.append(f"output_retries must be a whole number >= 0, not {c.output_retries!r}")
    for name in ("planner_state_budget", "generator_state_budget", "validator_state_budget"):
        value = getattr(c, name)
        if value is not None and (type(value) is not int or value < 1):
            out.append(f"{name} must be a number of tokens >= 1 or None (the whole state), not {value!r}")
    for name, low_open in (("threshold", False), ("intent_min_probability", False), ("restate_ratio", True)):
        value = getattr(c, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not (0 < value <= 1 if low_open else 0 <= value <= 1):
            out.append(f"{name} must be a number in {'(0, 1]' if low_open else '[0, 1]'}, not {value!r}")
    return out
