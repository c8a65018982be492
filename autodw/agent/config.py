"""The agent's settings, and the profile each kind of backend runs with.

A profile is a complete :class:`AgentConfig`, declared once here: ``hosted`` (the paper's settings, for models behind
an API) and ``local`` (the embedded 1.5B model: short prompts, and the heuristics of :mod:`autodw.agent.heuristics`).
Every backend names its profile (``backend.profile``); a replay cassette carries the whole configuration it was
recorded with, so a replay runs with exactly the same settings and prompts. Changes to a profile are made with
:func:`dataclasses.replace` (or :meth:`AgentConfig.override`), and every configuration is checked when it is made.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from autodw.errors import ConfigError

PROFILE_NAMES = ("hosted", "local")
#: settings that were removed, with the value that behaves as if they were absent (a configuration recorded with it
#: still loads): worked examples did not help on the instruction set (18 -> 15 of 27) and were deleted
RETIRED = {"worked_examples": 0}
VERDICT_RULES = ("paper", "decision")  # the keys of PROFILES (declared below, once the class exists)
PLANNER_STATES = ("current", "start")
ROLLBACK_NAMES = ("none", "arg", "full")


@dataclass(frozen=True)
class AgentConfig:
    """Settings of the loop (immutable; validated when made; ConfigError names what is wrong).

    The defaults are the ``hosted`` profile. `rollback`: "none", "arg" (argument-level only), "full" (one round:
    argument-level then API-level; the paper's default) or a number of full rounds.
    """

    profile: str = "hosted"  # the profile these settings started from (recorded in traces and cassettes)
    # --- the paper's method
    rollback: str | int = "full"
    threshold: float = 0.6  # validator confidence at or above which a "fail" is believed (verdict_rule "paper")
    # "paper": a fail below the threshold is read as "unsure" and accepted; "decision": every fail rejects (for models
    # whose confidence does not mean confidence in their own verdict, like the 1.5B model's "fail, 0.0")
    verdict_rule: str = "paper"
    max_steps: int = 15  # sub-instructions per instruction before it stops at the step limit
    max_llm_calls: int | None = None  # LLM calls per instruction after which no new step starts (None: no limit)
    output_retries: int = 2  # times an invalid LLM answer is shown its error and asked again
    # --- what the prompts show (token budgets of the rendered state: None = the whole state)
    planner_state_budget: int | None = 6000
    generator_state_budget: int | None = 6000  # the API generator's view, focused on the step's elements
    validator_state_budget: int | None = 6000  # the validator's view (it also gets the change analysis)
    history_chars: int = 300  # a call, and a sub-instruction, in the step history is cut to this many characters
    compact_api_docs: bool = False  # first sentences only, no examples
    two_stage_api_choice: bool = False  # choose the API from one-line summaries, then fill in only its arguments
    intent_min_probability: float = 0.0  # offer a top-3 intent's APIs only if it is at least this likely (top-1 always)
    # "current": the planner sees the document as it is now. "start": as it was when the instruction began, then the
    # history and the current lines of the elements the steps changed; the prompt then starts the same at every step
    # of an instruction, so a prompt cache reuses it.
    planner_state: str = "current"
    # --- techniques beyond the paper (issue 18)
    grounding: bool = True  # quoted texts resolved to element ids and shown to the planner and API generator
    rule_checks: bool = True  # deterministic checks beside the validator (autodw.agent.checks)
    llm_validator: bool = True  # ask the LLM validator when no rule check rejects (False: the rule checks alone judge)
    # an argument-level regeneration that repeats the rejected call gets the rule checks' fixes instead (the kind or
    # side asked for, position "end", the one length given, the quoted text); without fixes it is not run again
    repair_calls: bool = True
    # a compound instruction is split into its requests (autodw.agent.requests), planned one after the other, each
    # with its own max_steps and max_llm_calls
    split_requests: bool = False
    # --- heuristics for planners that re-plan finished work (autodw.agent.heuristics)
    refuse_repeated_steps: bool = True  # a planned step equal to an accepted one is refused (error shown to the planner)
    end_on_repeated_call: bool = True  # a step repeating an accepted call (API and arguments) is undone and ends the instruction
    stop_when_nothing_remains: bool = False  # end once a step is accepted after which the planner listed nothing
    restate_ratio: float = 0.7  # a listed remaining operation this similar to a done step restates it (does not count)

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

    def override(self, **settings: Any) -> "AgentConfig":
        """A copy with `settings` changed (:func:`dataclasses.replace`); an unknown name is a ConfigError."""
        unknown = sorted(set(settings) - {f.name for f in fields(self)})
        if unknown:
            raise ConfigError(f"unknown agent setting(s) {', '.join(unknown)}; known: {', '.join(f.name for f in fields(self))}")
        return replace(self, **settings)

    def to_dict(self) -> dict[str, Any]:
        """Every setting, JSON-ready (kept in traces and cassettes)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "AgentConfig":
        """The configuration :meth:`to_dict` wrote (ConfigError if a name is unknown or a value invalid)."""
        if not isinstance(data, dict):
            raise ConfigError(f"an agent configuration must be a JSON object, not {type(data).__name__}")
        retired = {k: v for k, v in data.items() if k in RETIRED}
        if any(v != RETIRED[k] for k, v in retired.items()):
            raise ConfigError(f"this configuration uses removed settings {retired}; replay it with the autodw version "
                              "that recorded it")
        return cls().override(**{k: v for k, v in data.items() if k not in RETIRED})


def _problems(c: AgentConfig) -> list[str]:
    """What is wrong with `c`, one phrase per setting."""
    out = []
    if c.profile not in PROFILE_NAMES:
        out.append(f"profile must be one of {', '.join(PROFILE_NAMES)}, not {c.profile!r}")
    if not (c.rollback in ROLLBACK_NAMES or (type(c.rollback) is int and c.rollback >= 0)):
        out.append(f"rollback must be none, arg, full or a number of rounds >= 0, not {c.rollback!r}")
    for name in ("max_steps", "history_chars"):
        value = getattr(c, name)
        if type(value) is not int or value < 1:
            out.append(f"{name} must be a whole number >= 1, not {value!r}")
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
    if c.verdict_rule not in VERDICT_RULES:
        out.append(f"verdict_rule must be one of {', '.join(VERDICT_RULES)}, not {c.verdict_rule!r}")
    if c.planner_state not in PLANNER_STATES:
        out.append(f"planner_state must be current or start, not {c.planner_state!r}")
    for name in ("compact_api_docs", "two_stage_api_choice", "grounding", "rule_checks", "llm_validator", "repair_calls", "split_requests", "refuse_repeated_steps", "end_on_repeated_call",
                 "stop_when_nothing_remains"):
        if not isinstance(getattr(c, name), bool):
            out.append(f"{name} must be true or false, not {getattr(c, name)!r}")
    return out


#: The ``local`` profile, for the embedded small model, where every prompt token costs ~10-35 ms on 2 cores: a
#: shorter windowed state for the planner, a focused one for the API generator and a smaller one for the validator
#: (which also gets the change analysis), two-stage API generation (one-line summaries, then only the chosen API's
#: documentation), no negligible intents, the planner reading the instruction's start state (its prompt stays cached
#: across steps), the instruction ending once a step is accepted after which the planner listed nothing remaining, and
#: no new step after 32 LLM calls (~2.5 minutes on 2 cores; a count, not a clock, so a replay ends the same way), and
#: the rule checks alone as the validator: on injected faults (noisy oracle, DWBench dev, 3 sessions) the 1.5B
#: validator caught 8 of 9 but rejected 49 of ~70 right calls (precision 0.14); the rule checks alone, on the whole of
#: dev, caught 58 of 148 with 2 false rejections (precision 0.97). A compound instruction is planned one request at a
#: time (``split_requests``): the small planner loses track of the rest of a 3-9-step instruction.
LOCAL = AgentConfig(profile="local", planner_state_budget=1500, generator_state_budget=350, validator_state_budget=180,
                    compact_api_docs=True, two_stage_api_choice=True, intent_min_probability=0.05, max_steps=8,
                    max_llm_calls=32, llm_validator=False, split_requests=True,
                    planner_state="start", stop_when_nothing_remains=True)
#: Profile name -> its configuration. A backend declares its profile's name (``backend.profile``).
PROFILES: dict[str, AgentConfig] = dict(zip(PROFILE_NAMES, (AgentConfig(), LOCAL)))


def profile_config(name: str, **settings: Any) -> AgentConfig:
    """The profile `name`'s configuration, with `settings` changed."""
    if name not in PROFILES:
        raise ConfigError(f"unknown agent profile {name!r}; the profiles are {', '.join(PROFILES)}")
    return PROFILES[name].override(**settings)


def config_for(llm: Any) -> AgentConfig:
    """The configuration an agent uses with backend `llm` when none is given: the one a replay cassette recorded,
    else the profile the backend declares (``llm.profile``)."""
    recorded = getattr(llm, "recorded_config", None)
    if recorded is not None:
        return AgentConfig.from_dict(recorded)
    profile = getattr(llm, "profile", None)
    if profile is None:
        raise ConfigError(f"the LLM backend {getattr(llm, 'name', llm)!r} declares no agent profile (a cassette "
                          f"recorded without an agent has none); choose one with --profile (make_agent(profile=...)): "
                          f"{' or '.join(PROFILES)}")
    return profile_config(profile)
