"""What an agent is made of, as data: the profile it started from, the parts chosen, and its numbers.

An :class:`Assembly` is small, explicit and serialisable; traces (``run_start``), cassette headers and ``run.json``
keep it under ``"config"``, and :func:`autodw.agent.parts.assemble` builds the same parts from it again::

    {"profile": "local",
     "parts": {"requests": "split", "planner": ["llm", "refuse_repeated_steps", "end_on_repeated_call",
                                                "stop_when_nothing_remains"],
               "planner_view": "start", "grounding": "quotes", "intents": "classifier",
               "generator": ["llm", "repair"], "api_choice": "two_stage", "api_docs": "compact",
               "validator": ["rules"], "verdict_rule": "paper"},
     "numbers": {"rollback": "full", "threshold": 0.6, "max_steps": 8, ...}}

The parts:

- ``requests``: ``whole`` (the message is planned as one request) or ``split`` (its requests one after the other,
  :mod:`autodw.agent.requests`);
- ``planner``: the planner (``llm``; the systems' ``up_front`` of hybrid and ``gold`` of the noisy oracle) and the
  heuristics wrapped around it (:mod:`autodw.agent.heuristics`): ``refuse_repeated_steps``, ``end_on_repeated_call``,
  ``stop_when_nothing_remains``;
- ``planner_view``: the document as the planner sees it, ``current`` or as the request (message) ``start``\\ ed;
- ``grounding``: ``quotes`` (quoted texts resolved to element ids for the planner and the generator) or ``none``;
- ``intents``: ``classifier`` (the top-3 intents' APIs) or the noisy oracle's ``gold``;
- ``generator``: the call generator (``llm``, or the noisy oracle's ``faulty``) and ``repair`` (a regeneration that
  repeats the rejected call gets the call's fixes); ``api_choice`` ``one_stage`` or ``two_stage`` (the API from
  one-line summaries first); ``api_docs`` ``full`` or ``compact``;
- ``validator``: its stages in order, ``rules`` (certain rule-check findings reject) then ``llm``, or the noisy
  oracle's ``oracle``; none: every executed call passes; ``verdict_rule`` of the LLM validator: ``paper`` (a fail
  below the threshold is read as unsure and accepted) or ``decision`` (every fail rejects);
- ``absence_findings``: what a certain finding of a rule check that reads absence (the request does not mention
  what the call does: ``absence=True`` in :mod:`autodw.agent.checks.registry`) does: ``reject`` the call, or
  ``hint`` (shown to the LLM validator as a hint; needs ``llm`` among the validator's stages). A configuration
  recorded before the part existed loads as ``reject``, the behaviour it was recorded with (:data:`LATER_PARTS`).

The profiles are :func:`paper` (the paper's method and nothing else), :func:`hosted` and :func:`local`. A
configuration recorded before the parts existed (the flat 24 settings of the old ``AgentConfig``) still loads:
each old switch names the part it chose (:data:`SWITCHES`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from autodw.agent.config import NUMBER_NAMES, AgentConfig
from autodw.core.errors import ConfigError

#: one-of parts: name -> its choices
CHOICES: dict[str, tuple[str, ...]] = {
    "requests": ("whole", "split"),
    "planner_view": ("current", "start"),
    "grounding": ("none", "quotes"),
    "intents": ("classifier", "gold"),
    "api_choice": ("one_stage", "two_stage"),
    "api_docs": ("full", "compact"),
    "verdict_rule": ("paper", "decision"),
    "absence_findings": ("reject", "hint"),
}
PLANNERS = ("llm", "up_front", "gold")
PLANNER_HEURISTICS = ("refuse_repeated_steps", "end_on_repeated_call", "stop_when_nothing_remains")
GENERATORS = ("llm", "faulty")
GENERATOR_WRAPPERS = ("repair",)
VALIDATOR_STAGES = ("rules", "llm", "oracle")
LIST_PARTS = ("planner", "generator", "validator")
PART_NAMES = ("requests", "planner", "planner_view", "grounding", "intents", "generator", "api_choice", "api_docs",
              "validator", "verdict_rule", "absence_findings")
#: parts added after configurations were recorded without them: part -> the value they were recorded with
LATER_PARTS = {"absence_findings": "reject"}

#: The switches of the configurations recorded before the parts existed: name -> (part, value when true, when false)
#: for a one-of part; (list part, member) for a member of a list part. ``planner_state`` and ``verdict_rule`` took the
#: values their parts take.
SWITCHES: dict[str, tuple[str, str] | tuple[str, str, str]] = {
    "split_requests": ("requests", "split", "whole"),
    "grounding": ("grounding", "quotes", "none"),
    "two_stage_api_choice": ("api_choice", "two_stage", "one_stage"),
    "compact_api_docs": ("api_docs", "compact", "full"),
    "refuse_repeated_steps": ("planner", "refuse_repeated_steps"),
    "end_on_repeated_call": ("planner", "end_on_repeated_call"),
    "stop_when_nothing_remains": ("planner", "stop_when_nothing_remains"),
    "repair_calls": ("generator", "repair"),
    "rule_checks": ("validator", "rules"),
    "llm_validator": ("validator", "llm"),
}
RENAMED = {"planner_state": "planner_view"}  # an old setting whose values are its part's choices
#: settings removed before the parts existed, with the value that behaves as if they were absent: worked examples did
#: not help on the instruction set (18 -> 15 of 27) and were deleted
RETIRED = {"worked_examples": 0}
OLD_PROFILES = ("hosted", "local")  # the profiles an old configuration can name


@dataclass(frozen=True)
class Assembly:
    """The parts an agent is made of and its numbers (immutable; checked when made; see the module docstring)."""

    profile: str  # the profile it started from (paper, hosted, local)
    requests: str
    planner: tuple[str, ...]  # the planner, then the heuristics around it (in :data:`PLANNER_HEURISTICS`' order)
    planner_view: str
    grounding: str
    intents: str
    generator: tuple[str, ...]  # the generator, then ``repair`` if chosen
    api_choice: str
    api_docs: str
    validator: tuple[str, ...]  # the stages, in :data:`VALIDATOR_STAGES`' order
    verdict_rule: str
    numbers: AgentConfig
    absence_findings: str  # what the rule checks that read absence do: reject, or hint to the LLM validator

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise ConfigError("invalid agent assembly: " + "; ".join(problems))

    def has(self, part: str, member: str) -> bool:
        """Whether the list part `part` (planner, generator, validator) holds `member`."""
        if part not in LIST_PARTS:
            raise ValueError(f"{part} is not one of the list parts {', '.join(LIST_PARTS)}")
        return member in getattr(self, part)

    def override(self, **settings: Any) -> "Assembly":
        """A copy with `settings` changed: numbers (``max_steps=5``), parts (``validator=["rules"]``), or the old
        switches (``rule_checks=False`` drops the rule checks from the validator; see :data:`SWITCHES`). An unknown
        name, or a value its setting cannot take, is a ConfigError."""
        numbers = {k: v for k, v in settings.items() if k in NUMBER_NAMES}
        parts: dict[str, Any] = {}
        unknown = []
        for name, value in settings.items():
            if name in NUMBER_NAMES:
                continue
            if name in SWITCHES and (isinstance(value, bool) or name not in PART_NAMES):
                part, *values = SWITCHES[name]
                if not isinstance(value, bool):
                    raise ConfigError(f"{name} must be true or false, not {value!r}")
                if len(values) == 2:
                    parts[part] = values[0] if value else values[1]
                else:
                    current = parts.get(part, getattr(self, part))
                    parts[part] = _with_member(part, current, values[0], value)
            elif name in PART_NAMES:
                parts[name] = tuple(value) if isinstance(value, list) else value
            elif name in RENAMED:
                parts[RENAMED[name]] = value
            else:
                unknown.append(name)
        if unknown:
            known = dict.fromkeys((*NUMBER_NAMES, *PART_NAMES, *SWITCHES, *RENAMED))
            raise ConfigError(f"unknown agent setting(s) {', '.join(sorted(unknown))}; known: {', '.join(known)}")
        return replace(self, **parts, numbers=self.numbers.override(**numbers))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the module docstring shows one)."""
        parts = {name: list(v) if isinstance(v := getattr(self, name), tuple) else v for name in PART_NAMES}
        return {"profile": self.profile, "parts": parts, "numbers": self.numbers.to_dict()}

    @classmethod
    def from_dict(cls, data: Any) -> "Assembly":
        """The assembly :meth:`to_dict` wrote, or the one an old flat configuration (recorded before the parts existed)
        describes. ConfigError for anything else."""
        if not isinstance(data, dict):
            raise ConfigError(f"an agent assembly must be a JSON object, not {type(data).__name__}")
        if "parts" not in data and "numbers" not in data:
            return _from_old(data)
        if set(data) != {"profile", "parts", "numbers"} or not isinstance(data["parts"], dict):
            raise ConfigError(f"an agent assembly has profile, parts and numbers, not {sorted(data)}")
        missing = sorted(set(PART_NAMES) - set(data["parts"]) - set(LATER_PARTS))
        if missing:
            raise ConfigError(f"the agent assembly names no {', '.join(missing)}")
        extra = sorted(set(data["parts"]) - set(PART_NAMES))
        if extra:
            raise ConfigError(f"unknown part(s) {', '.join(extra)} in the agent assembly; the parts are {', '.join(PART_NAMES)}")
        parts = {**LATER_PARTS, **{k: tuple(v) if isinstance(v, list) else v for k, v in data["parts"].items()}}
        return cls(profile=data["profile"], numbers=AgentConfig.from_dict(data["numbers"]), **parts)


def _with_member(part: str, members: tuple[str, ...], member: str, present: bool) -> tuple[str, ...]:
    """`members` with `member` added (in its canonical place) or removed."""
    order = {"planner": (*PLANNERS, *PLANNER_HEURISTICS), "generator": (*GENERATORS, *GENERATOR_WRAPPERS),
             "validator": VALIDATOR_STAGES}[part]
    kept = set(members) - {member} | ({member} if present else set())
    return tuple(m for m in order if m in kept)


def _problems(a: Assembly) -> list[str]:
    """What is wrong with `a`, one phrase per part."""
    out = []
    if a.profile not in PROFILES:
        out.append(f"profile must be one of {', '.join(PROFILES)}, not {a.profile!r}")
    for name, choices in CHOICES.items():
        if getattr(a, name) not in choices:
            out.append(f"{name} must be one of {', '.join(choices)}, not {getattr(a, name)!r}")
    for name, cores, wrappers in (("planner", PLANNERS, PLANNER_HEURISTICS), ("generator", GENERATORS, GENERATOR_WRAPPERS)):
        value = getattr(a, name)
        if not (isinstance(value, tuple) and value and value[0] in cores and list(value[1:]) == [w for w in wrappers if w in value[1:]]):
            out.append(f"{name} must be one of {', '.join(cores)} then any of {', '.join(wrappers)} in that order, "
                       f"not {list(value) if isinstance(value, tuple) else value!r}")
    if not (isinstance(a.validator, tuple) and list(a.validator) == [s for s in VALIDATOR_STAGES if s in a.validator]
            and ("oracle" not in a.validator or a.validator == ("oracle",))):
        out.append(f"validator must be stages of {', '.join(VALIDATOR_STAGES[:2])} in that order, or oracle alone, not "
                   f"{list(a.validator) if isinstance(a.validator, tuple) else a.validator!r}")
    if a.absence_findings == "hint" and "llm" not in a.validator:
        out.append("absence_findings hint shows the absence checks' findings to the LLM validator, which the validator "
                   f"{list(a.validator) if isinstance(a.validator, tuple) else a.validator!r} lacks (choose reject, "
                   "or add llm)")
    if not isinstance(a.numbers, AgentConfig):
        out.append(f"numbers must be an AgentConfig, not {type(a.numbers).__name__}")
    return out


def _from_old(data: dict[str, Any]) -> Assembly:
    """The assembly an old flat configuration describes: the hosted parts (the old defaults), with each setting
    given mapped onto its part or number; the old ``profile`` names the profile."""
    retired = {k: v for k, v in data.items() if k in RETIRED}
    if any(v != RETIRED[k] for k, v in retired.items()):
        raise ConfigError(f"this configuration uses removed settings {retired}; replay it with the autodw version "
                          "that recorded it")
    settings = {k: v for k, v in data.items() if k not in RETIRED and k != "profile"}
    profile = data.get("profile", "hosted")
    if profile not in OLD_PROFILES:
        raise ConfigError(f"profile must be one of {', '.join(OLD_PROFILES)}, not {profile!r}")
    base = replace(hosted(), numbers=AgentConfig(), **LATER_PARTS)  # the old defaults' numbers were AgentConfig's
    part_names = [k for k in settings if k not in NUMBER_NAMES]
    not_old = [k for k in part_names if k not in SWITCHES and k not in RENAMED and k != "verdict_rule"]
    if not_old:
        raise ConfigError(f"unknown setting(s) {', '.join(sorted(not_old))} in a configuration without parts; "
                          f"its settings are {', '.join((*NUMBER_NAMES, *SWITCHES, *RENAMED, 'verdict_rule'))}")
    return replace(base.override(**settings), profile=profile)


# --- the profiles ---------------------------------------------------------------------------------------------


def paper() -> Assembly:
    """The paper's method and nothing else (the ablation baseline): one planner loop per message, the LLM planner
    seeing the current state, the top-3 intents' APIs with their full documentation, one LLM call per API call, the
    LLM validator with the paper's verdict rule, dual-level rollback; no grounding, rule checks, repair, request
    splitting or heuristics."""
    return Assembly(profile="paper", requests="whole", planner=("llm",), planner_view="current", grounding="none",
                    intents="classifier", generator=("llm",), api_choice="one_stage", api_docs="full",
                    validator=("llm",), verdict_rule="paper", absence_findings="reject", numbers=AgentConfig())


#: Steps the ``hosted`` profile plans per instruction at most: the paper's 15 stopped a perfect model (the ceiling,
#: ``autodw bench ceiling``) short of DWBench dev instructions of 16 edits; the loop heuristics, not this limit, end a
#: planner that repeats itself.
HOSTED_MAX_STEPS = 24


def hosted() -> Assembly:
    """For models behind an API: the paper's method with grounded views, the rule checks before the LLM validator,
    repair of a repeated rejected call, the last rollback level's call validated too (a rejected one is undone and the
    step fails: the paper keeps it whatever it is), and the planner refused a step it already carried out, the
    instruction ending on a call that repeats an accepted one; up to :data:`HOSTED_MAX_STEPS` steps. The rule checks that
    read absence (the request does not mention what the call does) hint to the LLM validator instead of rejecting:
    absence of a word is open-vocabulary evidence, and every miss of the ceiling (a perfect model) on hand dev-second
    .. dev-fifth, read untuned, was a rule check's rejection, most of them such a check's (tuned_on: those splits).
    An answer's lists of element ids are as long as the document allows: the cap of the other profiles is for a small
    model's short answers, and a hand dev-sixteenth request formats 78 code lines in one call (dwh-258#5)."""
    return replace(paper(), profile="hosted", planner=("llm", "refuse_repeated_steps", "end_on_repeated_call"),
                   grounding="quotes", generator=("llm", "repair"), validator=("rules", "llm"), absence_findings="hint",
                   numbers=AgentConfig(max_steps=HOSTED_MAX_STEPS, last_level="validate", max_id_items=None))


#: The ``local`` profile's numbers, for the embedded small model, where every prompt token costs ~10-35 ms on 2 cores:
#: a shorter windowed state for the planner, a focused one for the API generator and a smaller one for the validator
#: (which also gets the change analysis), no negligible intents, and no new step after 32 LLM calls (~2.5 minutes on
#: 2 cores; a count, not a clock, so a replay ends the same way); the last level validated, as under ``hosted``.
LOCAL_NUMBERS = AgentConfig(last_level="validate", planner_state_budget=1500, generator_state_budget=350,
                            validator_state_budget=180, intent_min_probability=0.05, max_steps=8, max_llm_calls=32)


def local() -> Assembly:
    """For the embedded small model: the hosted parts with :data:`LOCAL_NUMBERS`, two-stage API generation (one-line
    summaries, then only the chosen API's compact documentation), the planner reading the request's start state (its
    prompt stays cached across steps), the request ending once a step is accepted after which the planner listed
    nothing remaining, each request of a compound message planned alone (the small planner loses track of the rest of a
    3-9-step instruction), and the rule checks alone as the validator: on injected faults (noisy oracle, DWBench dev, 3
    sessions) the 1.5B validator caught 8 of 9 but rejected 49 of ~70 right calls (precision 0.14); the rule checks
    alone, on the whole of dev, caught 58 of 148 with 2 false rejections (precision 0.97)."""
    return replace(hosted(), profile="local", requests="split", planner=(*hosted().planner, "stop_when_nothing_remains"),
                   planner_view="start", api_choice="two_stage", api_docs="compact", validator=("rules",),
                   absence_findings="reject", numbers=LOCAL_NUMBERS)


#: Profile name -> the function that gives its assembly. A backend declares its profile's name (``backend.profile``).
PROFILES: dict[str, Callable[[], Assembly]] = {"paper": paper, "hosted": hosted, "local": local}


def profile_assembly(name: str, **settings: Any) -> Assembly:
    """The profile `name`'s assembly, with `settings` changed (:meth:`Assembly.override`)."""
    if name not in PROFILES:
        raise ConfigError(f"unknown agent profile {name!r}; the profiles are {', '.join(PROFILES)}")
    return PROFILES[name]().override(**settings)


def assembly_for(llm: Any) -> Assembly:
    """The assembly an agent uses with backend `llm` when none is given: the one a replay cassette recorded, else the
    profile the backend declares (``llm.profile``)."""
    recorded = getattr(llm, "recorded_config", None)
    if recorded is not None:
        return Assembly.from_dict(recorded)
    profile = getattr(llm, "profile", None)
    if profile is None:
        raise ConfigError(f"the LLM backend {getattr(llm, 'name', llm)!r} declares no agent profile (a cassette "
                          f"recorded without an agent has none); choose one with --profile (make_agent(profile=...)): "
                          f"{' or '.join(PROFILES)}")
    return profile_assembly(profile)
